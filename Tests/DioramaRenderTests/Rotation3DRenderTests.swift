import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// `rotation3D` (SwiftUI's rotation3DEffect) from scenes.json to pixels: the projection against the perspective
/// formula worked out here independently, the rendered square's corners measured, angle 0 byte for byte the node
/// without it, a node seen edge-on drawing nothing, animation, taps, damage boxes and `check`'s messages.
@Suite struct Rotation3DRenderTests {
    /// A 200 × 200 canvas with a white 100 × 100 square at (50, 50) carrying `rotation3D` (and `extra` keys).
    private func document(_ rotation3D: String?, extra: String = "", animations: String = "") -> String {
        let turn = rotation3D.map { ", \"rotation3D\": \($0)" } ?? ""
        return """
            { "canvas": { "width": 200, "height": 200, "background": "#000000" },
              "languages": { "default": "en", "available": ["en"] },
              "scenes": [{ "id": "s", "title": "S", "duration": 4, "nodes": [
                { "type": "rect", "id": "card", "x": 50, "y": 50, "width": 100, "height": 100, "fill": "#ffffff"\(turn)\(extra)
                  \(animations.isEmpty ? "" : ", \"animations\": [\(animations)]") }
              ] }] }
            """
    }

    private func snapshot(_ json: String, at time: Double = 0) throws -> Snapshot {
        SceneEvaluator(document: try DocumentFixtures.decode(json).document).snapshot(scene: 0, at: time)
    }

    private func render(_ json: String, at time: Double = 0, size: Int = 200) throws -> RenderedFrame {
        try FrameRenderer().render(try snapshot(json, at: time), width: size, height: size)
    }

    private func lit(_ frame: RenderedFrame, _ x: Int, _ y: Int) -> Bool {
        (frame.pixel(x: x, y: y) >> 16) & 0xFF >= 128
    }

    /// The perspective formula written out for a turn about y through the frame's centre (a, d = max side / p):
    /// x' = cos·(x − a.x) (z = 0), z' = −sin·(x − a.x), w = 1 − z' / d; lands at (x' / w + a.x, (y − a.y) / w + a.y).
    private func aboutY(_ point: Point, degrees: Double, anchor: Point, distance: Double) -> Point {
        let radians = degrees * .pi / 180
        let (x, y) = (point.x - anchor.x, point.y - anchor.y)
        let turnedX = cos(radians) * x, depth = -sin(radians) * x
        let w = 1 - depth / distance
        return Point(x: turnedX / w + anchor.x, y: y / w + anchor.y)
    }

    @Test func theProjectionIsSwiftUIsPerspectiveFormula() throws {
        let frame = Rect(x: 50, y: 50, width: 100, height: 100)
        let projection = try #require(Projection3D(Rotation3D(angle: 45, axis: (0, 1, 0)), frame: frame))
        let corners = [Point(x: 50, y: 50), Point(x: 150, y: 50), Point(x: 150, y: 150), Point(x: 50, y: 150), Point(x: 120, y: 70)]
        for corner in corners {
            let expected = aboutY(corner, degrees: 45, anchor: Point(x: 100, y: 100), distance: 100)
            let landed = try #require(projection.apply(to: corner))
            #expect(abs(landed.x - expected.x) < 1e-9 && abs(landed.y - expected.y) < 1e-9, "\(corner): \(landed) vs \(expected)")
        }
        // SwiftUI's documentation: 45° about y takes the right side away (shorter), the left side nearer (taller).
        let right = try #require(projection.apply(to: Point(x: 150, y: 150))).y - projection.apply(to: Point(x: 150, y: 50))!.y
        let left = try #require(projection.apply(to: Point(x: 50, y: 150))).y - projection.apply(to: Point(x: 50, y: 50))!.y
        #expect(right < 100 && left > 100)
        // About z, it turns clockwise as `rotation` does; perspective 0 is a parallel projection (a plain squash).
        let z = try #require(Projection3D(Rotation3D(angle: 90, axis: (0, 0, 1)), frame: frame))
        let turned = try #require(z.apply(to: Point(x: 150, y: 100)))
        #expect(abs(turned.x - 100) < 1e-9 && abs(turned.y - 150) < 1e-9)
        let flat = try #require(Projection3D(Rotation3D(angle: 60, axis: (1, 0, 0), perspective: 0), frame: frame))
        let squashed = try #require(flat.apply(to: Point(x: 150, y: 150)))
        #expect(abs(squashed.x - 150) < 1e-9 && abs(squashed.y - 125) < 1e-9)
        // A stronger perspective (2) halves the distance.
        let strong = try #require(Projection3D(Rotation3D(angle: 30, axis: (0, 1, 0), perspective: 2), frame: frame))
        let expected = aboutY(Point(x: 50, y: 50), degrees: 30, anchor: Point(x: 100, y: 100), distance: 50)
        let landed = try #require(strong.apply(to: Point(x: 50, y: 50)))
        #expect(abs(landed.x - expected.x) < 1e-9 && abs(landed.y - expected.y) < 1e-9)
    }

    @Test func aTurnedSquaresCornersLandWhereTheFormulaPutsThemWithinAPixel() throws {
        for degrees in [35.0, -50] {
            let frame = try render(document("{ \"angle\": \(degrees), \"axis\": { \"y\": 1 } }"))
            let anchor = Point(x: 100, y: 100)
            let topLeft = aboutY(Point(x: 50, y: 50), degrees: degrees, anchor: anchor, distance: 100)
            let topRight = aboutY(Point(x: 150, y: 50), degrees: degrees, anchor: anchor, distance: 100)
            let bottomLeft = aboutY(Point(x: 50, y: 150), degrees: degrees, anchor: anchor, distance: 100)
            // Left and right edges on the middle row (they are vertical: a turn about y keeps x apart from y).
            let row = (0..<200).filter { lit(frame, $0, 100) }
            let first = try #require(row.first), last = try #require(row.last)
            #expect(abs(Double(first) + 0.5 - topLeft.x) <= 1, "left edge at \(first), expected \(topLeft.x)")
            #expect(abs(Double(last) + 0.5 - topRight.x) <= 1, "right edge at \(last), expected \(topRight.x)")
            // Top and bottom along columns: the edges are straight lines between the projected corners.
            for x in stride(from: Int(topLeft.x.rounded(.up)) + 2, to: Int(topRight.x) - 2, by: 7) {
                let t = (Double(x) + 0.5 - topLeft.x) / (topRight.x - topLeft.x)
                let top = topLeft.y + (topRight.y - topLeft.y) * t
                let bottom = 200 - top  // symmetric about the centre row
                let column = (0..<200).filter { lit(frame, x, $0) }
                let upper = try #require(column.first), lower = try #require(column.last)
                #expect(abs(Double(upper) + 0.5 - top) <= 1, "column \(x): top at \(upper), expected \(top)")
                #expect(abs(Double(lower) + 0.5 - bottom) <= 1, "column \(x): bottom at \(lower), expected \(bottom)")
            }
            #expect(abs(bottomLeft.y - (200 - topLeft.y)) < 1e-9)
            // Nothing drawn outside the quad.
            #expect(!lit(frame, Int(topLeft.x) - 2, 100) && !lit(frame, Int(topRight.x) + 2, 100))
        }
    }

    @Test func angleZeroIsByteIdenticalToNoRotation3D() throws {
        let plain = try render(document(nil, extra: ", \"rotation\": 10, \"opacity\": 0.8"))
        let zero = try render(document("{ \"angle\": 0, \"axis\": { \"x\": 1, \"y\": 1 } }", extra: ", \"rotation\": 10, \"opacity\": 0.8"))
        let whole = try render(document("{ \"angle\": 360, \"axis\": { \"z\": 1 } }", extra: ", \"rotation\": 10, \"opacity\": 0.8"))
        #expect(plain.bytes == zero.bytes)
        #expect(plain.bytes == whole.bytes)
        let turned = try render(document("{ \"angle\": 20, \"axis\": { \"x\": 1 } }", extra: ", \"rotation\": 10, \"opacity\": 0.8"))
        #expect(plain.bytes != turned.bytes, "the test can tell a turn")
    }

    @Test func ninetyDegreesAboutYIsEdgeOnAndDrawsNothing() throws {
        let empty = try render(document(nil, extra: ", \"opacity\": 0"))
        for axis in ["{ \"y\": 1 }", "{ \"x\": 1 }"] {
            let frame = try render(document("{ \"angle\": 90, \"axis\": \(axis) }"))
            #expect(frame.bytes == empty.bytes, "edge-on about \(axis)")
        }
        // Just short of edge-on, a sliver shows.
        let sliver = try render(document("{ \"angle\": 80, \"axis\": { \"y\": 1 } }"))
        #expect(sliver.bytes != empty.bytes)
    }

    @Test func theAngleAnimatesAndTheRestOfTheStyleAppliesToTheTurnedDrawing() throws {
        let json = document("{ \"angle\": 0, \"axis\": { \"y\": 1 } }", extra: ", \"offset\": { \"x\": 10 }",
                            animations: "{ \"property\": \"rotation3D.angle\", \"from\": 0, \"to\": 60, \"duration\": 2, \"curve\": \"linear\" }")
        let still = try render(json, at: 0)
        let midway = try render(json, at: 1)
        let fixed = try render(document("{ \"angle\": 30, \"axis\": { \"y\": 1 } }", extra: ", \"offset\": { \"x\": 10 }"))
        #expect(still.bytes != midway.bytes)
        #expect(midway.bytes == fixed.bytes, "30° at half of 0 → 60° over 2 s")
        // The offset moves the turned drawing: its left edge is the unmoved one plus 10.
        let left = aboutY(Point(x: 50, y: 50), degrees: 30, anchor: Point(x: 100, y: 100), distance: 100).x + 10
        let first = try #require((0..<200).first { lit(midway, $0, 100) })
        #expect(abs(Double(first) + 0.5 - left) <= 1)
    }

    @Test func tapsLandOnTheTurnedDrawing() throws {
        let snapshot = try snapshot(document("{ \"angle\": 60, \"axis\": { \"y\": 1 } }"))
        let right = aboutY(Point(x: 150, y: 100), degrees: 60, anchor: Point(x: 100, y: 100), distance: 100)
        #expect(snapshot.hitTest(at: Point(x: right.x - 2, y: 100)) == ["card"])
        #expect(snapshot.hitTest(at: Point(x: right.x + 2, y: 100)).isEmpty, "past the turned edge, inside the flat square")
        #expect(snapshot.hitTest(at: Point(x: 100, y: 100)) == ["card"])
    }

    @Test func aFrameDrawnWithDamageEqualsOneDrawnWhole() throws {
        // The turned card moves from frame to frame: a renderer that keeps its last frame and draws only what
        // changed gives the same pixels as one drawing each frame whole.
        let json = document("{ \"angle\": 0, \"axis\": { \"y\": 1 }, \"anchor\": \"leading\" }",
                            animations: "{ \"property\": \"rotation3D.angle\", \"from\": -70, \"to\": 70, \"duration\": 4, \"curve\": \"linear\" }")
        let document = try DocumentFixtures.decode(json).document
        let evaluator = SceneEvaluator(document: document)
        let kept = FrameRenderer()
        for time in stride(from: 0.0, through: 4, by: 0.25) {
            let snapshot = evaluator.snapshot(scene: 0, at: time)
            let incremental = try kept.render(snapshot, width: 200, height: 200)
            let whole = try FrameRenderer().render(snapshot, width: 200, height: 200)
            #expect(incremental.bytes == whole.bytes, "at \(time) s")
        }
    }

    @Test func checkLocatesMistakesWithHints() {
        let missingAxis = DocumentFixtures.renderedDiagnostics(document("{ \"angle\": 30 }"))
        #expect(missingAxis.contains { $0.contains("missing required key \"axis\"") && $0.contains("rotation3D") }, "\(missingAxis)")
        let noDirection = DocumentFixtures.renderedDiagnostics(document("{ \"angle\": 30, \"axis\": { \"x\": 0 } }"))
        #expect(noDirection.contains { $0.contains("needs a direction") && $0.contains("\"y\": 1") }, "\(noDirection)")
        let unknown = DocumentFixtures.renderedDiagnostics(document("{ \"angle\": 30, \"axis\": { \"y\": 1 }, \"perspectve\": 2 }"))
        #expect(unknown.contains { $0.contains("perspectve") && $0.contains("perspective") }, "\(unknown)")
        let notTurnable = DocumentFixtures.renderedDiagnostics(document(nil, animations: "{ \"property\": \"rotation3D.angle\", \"to\": 30, \"duration\": 1 }"))
        #expect(notTurnable.contains { $0.contains("no rotation3D") && $0.contains("\"axis\"") }, "\(notTurnable)")
        let swiftUI = DocumentFixtures.renderedDiagnostics(document(nil, extra: ", \"rotation3DEffect\": 30"))
        #expect(swiftUI.contains { $0.contains("rotation3DEffect") && $0.contains("\"rotation3D\"") }, "\(swiftUI)")
        // Diagnostics say where: the line of the key.
        #expect(missingAxis.contains { $0.contains("scenes.json:4:") }, "\(missingAxis)")
    }
}
