import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Clip shapes in pixels: inside drawn, outside not, edges anti-aliased, under transforms, animation and
/// the other effects in NodeStyle's order (blur, then clip, then mask and shadow).
@Suite struct ClipRenderTests {
    private func render(_ nodes: [NodeSnapshot], width: Int = 100, height: Int = 100) throws -> RenderedFrame {
        try FrameRenderer().render(RenderFixtures.snapshot(nodes), width: width, height: height)
    }

    /// The red channel at a pixel (the test shapes are red or white on black).
    private func red(_ frame: RenderedFrame, _ x: Int, _ y: Int) -> Int {
        Int((frame.pixel(x: x, y: y) >> 16) & 0xFF)
    }

    private func blue(_ frame: RenderedFrame, _ x: Int, _ y: Int) -> Int {
        Int(frame.pixel(x: x, y: y) & 0xFF)
    }

    private func clipped(_ node: NodeSnapshot, _ clip: Geometry) -> NodeSnapshot {
        var node = node
        node.clipShape = clip
        return node
    }

    private let square = Rect(x: 10, y: 10, width: 80, height: 80)

    @Test func aCircleClipKeepsTheDiscWithAntialiasedEdges() throws {
        let node = clipped(RenderFixtures.rect(square), .ellipse(center: Point(x: 50, y: 50), radiusX: 30, radiusY: 30))
        let frame = try render([node])
        #expect(red(frame, 50, 50) == 255)
        #expect(red(frame, 50, 22) == 255, "just inside the top of the circle")
        #expect(red(frame, 50, 18) == 0, "inside the square, outside the circle")
        #expect(red(frame, 14, 14) == 0, "the square's corner is cut away")
        // Pixels across the edge at 45 degrees go from full through partial coverage to none.
        let edge = (0..<100).map { red(frame, 50 + $0 / 4, 50 + $0 / 4) }
        #expect(edge.contains { $0 > 0 && $0 < 255 }, "an anti-aliased edge has partial pixels: \(edge)")
        // Coverage matches the disc's area: π·30² of the 80 × 80 square.
        var coverage = 0.0
        for y in 0..<100 { for x in 0..<100 { coverage += Double(red(frame, x, y)) / 255 } }
        #expect(abs(coverage - Double.pi * 900) < 15, "covered \(coverage) pixels")
        // Without the clip the corner is red: the test can tell.
        #expect(red(try render([RenderFixtures.rect(square)]), 14, 14) == 255)
    }

    @Test func theClipTurnsAndScalesWithTheNode() throws {
        // A horizontal slot 60 × 10 through the centre; the node turned 90 degrees about the centre makes it vertical.
        let slot = Geometry.rect(Rect(x: 20, y: 45, width: 60, height: 10), cornerRadius: 0)
        let turned = clipped(RenderFixtures.rect(square, transform: RenderFixtures.rotation(degrees: 90, around: Point(x: 50, y: 50))), slot)
        let frame = try render([turned])
        #expect(red(frame, 50, 25) == 255 && red(frame, 50, 74) == 255)
        #expect(red(frame, 25, 50) == 0 && red(frame, 74, 50) == 0)
        #expect(red(frame, 44, 50) == 0 && red(frame, 55, 50) == 0)
        // At 45 degrees the slot runs along the diagonal.
        let diagonal = try render([clipped(RenderFixtures.rect(square, transform: RenderFixtures.rotation(degrees: 45, around: Point(x: 50, y: 50))), slot)])
        #expect(red(diagonal, 65, 65) == 255 && red(diagonal, 35, 35) == 255)
        #expect(red(diagonal, 65, 35) == 0 && red(diagonal, 35, 65) == 0)
        // Scaled ×0.5 about the origin: the circle of radius 30 at (50, 50) becomes radius 15 at (25, 25).
        let scaled = clipped(RenderFixtures.rect(square, transform: .scale(x: 0.5, y: 0.5)),
                             .ellipse(center: Point(x: 50, y: 50), radiusX: 30, radiusY: 30))
        let small = try render([scaled])
        #expect(red(small, 25, 12) == 255 && red(small, 25, 8) == 0 && red(small, 40, 40) == 0)
    }

    @Test func aGroupsClipCutsEveryChildAndNestedClipsIntersect() throws {
        let left = RenderFixtures.rect(Rect(x: 0, y: 0, width: 50, height: 100))
        let right = RenderFixtures.rect(Rect(x: 50, y: 0, width: 50, height: 100), fill: .solid(.white))
        let group = clipped(RenderFixtures.group([left, right]), .rect(Rect(x: 20, y: 20, width: 60, height: 60), cornerRadius: 0))
        let frame = try render([group])
        #expect(red(frame, 30, 50) == 255 && blue(frame, 30, 50) == 0)
        #expect(red(frame, 70, 50) == 255 && blue(frame, 70, 50) == 255)
        #expect(red(frame, 10, 50) == 0 && red(frame, 90, 50) == 0 && red(frame, 50, 10) == 0)
        // A child's own clip inside the group's: only the overlap shows.
        let inner = clipped(RenderFixtures.rect(Rect(x: 0, y: 0, width: 100, height: 100)), .rect(Rect(x: 0, y: 0, width: 40, height: 40), cornerRadius: 0))
        let nested = try render([clipped(RenderFixtures.group([inner]), .rect(Rect(x: 20, y: 20, width: 60, height: 60), cornerRadius: 0))])
        #expect(red(nested, 30, 30) == 255)
        #expect(red(nested, 10, 10) == 0 && red(nested, 50, 30) == 0)
    }

    @Test func aPathClipFillsByTheNonZeroRule() throws {
        let triangle = PathData(commands: [.move(Point(x: 10, y: 10)), .line(Point(x: 90, y: 10)), .line(Point(x: 10, y: 90)), .close])
        let frame = try render([clipped(RenderFixtures.rect(square), .path(triangle))])
        #expect(red(frame, 20, 20) == 255 && red(frame, 80, 80) == 0 && red(frame, 60, 60) == 0)
        // An empty outline clips everything away.
        let shut = try render([clipped(RenderFixtures.rect(square), .rect(Rect(x: 10, y: 10, width: 0, height: 80), cornerRadius: 0))])
        #expect((0..<100).allSatisfy { red(shut, $0, 50) == 0 })
    }

    @Test func aClippedCardStillCastsTheShadowOfItsClippedShape() throws {
        // The content is a large square clipped to a 40 × 40 card at (20, 20); the blue shadow falls 10 points down-right.
        let shadow = Shadow(color: Color(red: 0, green: 0, blue: 1), radius: 1, x: 10, y: 10)
        let card = clipped(RenderFixtures.rect(Rect(x: 0, y: 0, width: 100, height: 100), fill: .solid(.white), shadow: shadow),
                           .rect(Rect(x: 20, y: 20, width: 40, height: 40), cornerRadius: 0))
        let frame = try render([card])
        #expect(red(frame, 40, 40) == 255, "the card")
        #expect(red(frame, 65, 65) == 0 && blue(frame, 65, 65) > 200, "its shadow beside it: \(blue(frame, 65, 65))")
        #expect(blue(frame, 85, 85) == 0, "no shadow where only the unclipped content would cast one")
        #expect(red(frame, 10, 10) == 0, "outside the clip nothing is drawn")
        // The same through a layer (opacity applies to card and shadow together).
        var faint = card
        faint.opacity = 0.5
        let layered = try render([faint])
        #expect(abs(red(layered, 40, 40) - 128) <= 1)
        #expect(blue(layered, 65, 65) > 100 && blue(layered, 85, 85) == 0 && red(layered, 10, 10) == 0)
    }

    @Test func aBlurredNodeIsClippedAfterItsBlurSoItEndsSharply() throws {
        // A white square blurred by 6 points, clipped to its left half: the blur inside the clip is intact,
        // and nothing leaks past the clip's edge at x = 50.
        let blurred = RenderFixtures.rect(Rect(x: 20, y: 20, width: 60, height: 60), fill: .solid(.white), blur: 6)
        let unclipped = try render([blurred])
        let frame = try render([clipped(blurred, .rect(Rect(x: 0, y: 0, width: 50, height: 100), cornerRadius: 0))])
        #expect(red(unclipped, 55, 50) > 200, "without the clip the square goes on")
        #expect((50..<100).allSatisfy { red(frame, $0, 50) == 0 }, "nothing right of the clip")
        #expect(red(frame, 48, 50) > 200, "the clip's edge is sharp: the square runs right up to it")
        // Left of the clip's edge the blurred pixels are the unclipped ones.
        for x in [10, 15, 20, 25, 30, 45] {
            #expect(abs(red(frame, x, 50) - red(unclipped, x, 50)) <= 1, "x \(x)")
        }
        #expect(red(frame, 17, 50) > 20 && red(frame, 17, 50) < 200, "the blurred left edge is still soft")

        // With a shadow the clip comes before it: the shadow is the clipped silhouette's, 20 points to the right.
        var shadowed = blurred
        shadowed.shadow = Shadow(color: Color(red: 0, green: 0, blue: 1), radius: 1, x: 20, y: 0)
        let cut = try render([clipped(shadowed, .rect(Rect(x: 0, y: 0, width: 50, height: 100), cornerRadius: 0))])
        let whole = try render([shadowed])
        #expect((53..<100).allSatisfy { red(cut, $0, 50) == 0 }, "no content right of the clip")
        #expect(blue(cut, 60, 50) > 100, "the shadow falls beside the clipped content: \(blue(cut, 60, 50))")
        #expect(blue(whole, 95, 50) > 100 && blue(cut, 95, 50) == 0, "only the clipped part casts a shadow")
    }

    @Test func aMaskAppliesOverTheClip() throws {
        // A mask fading from opaque (top) to clear (bottom) over a circle-clipped square: inside the clip the
        // brightness falls downwards; outside it stays black.
        let mask = Paint.linear(stops: [GradientStop(location: 0, color: .white), GradientStop(location: 1, color: .clear)],
                                start: .top, end: .bottom)
        let node = clipped(RenderFixtures.rect(square, fill: .solid(.white), mask: mask), .ellipse(center: Point(x: 50, y: 50), radiusX: 30, radiusY: 30))
        let frame = try render([node])
        #expect(red(frame, 50, 30) > red(frame, 50, 70))
        #expect(red(frame, 50, 70) > 0)
        #expect(red(frame, 14, 14) == 0 && red(frame, 86, 86) == 0)
    }

    @Test func particlesInsideAClipAreCutToItToo() throws {
        // Sprite particles are normally blended straight into pixels; inside a clip shape they must be clipped.
        let snow = RenderFixtures.particles(count: 400, width: 100, height: 100, radius: 2)
        let frame = try render([clipped(RenderFixtures.group([snow]), .ellipse(center: Point(x: 50, y: 50), radiusX: 25, radiusY: 25))])
        var inside = 0, outside = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let (dx, dy) = (Double(x) + 0.5 - 50, Double(y) + 0.5 - 50)
                let distance = (dx * dx + dy * dy).squareRoot()
                if distance < 24, red(frame, x, y) > 0 { inside += 1 }
                if distance > 26, red(frame, x, y) > 0 { outside += 1 }
            }
        }
        #expect(inside > 100, "snow shows inside the clip")
        #expect(outside == 0, "\(outside) snow pixels outside the clip")
    }

    @Test func anAnimatedClipRevealsAsItGrows() throws {
        // A door window: the circle clip's radius grows from 0 to 40 over 2 s (linear); the node is turned
        // 30 degrees about its centre, which a circle does not show, and moved by its offset.
        let json = """
            { "canvas": { "width": 100, "height": 100, "background": "#000" },
              "scenes": [{ "id": "door", "duration": 2, "nodes": [
                { "type": "rect", "x": -50, "y": -50, "width": 100, "height": 100, "fill": "#ff0000",
                  "offset": { "x": 50, "y": 50 }, "rotation": 30,
                  "clipShape": { "type": "circle", "r": 0 },
                  "animations": [{ "property": "clipShape.r", "to": 40, "duration": 2, "curve": "linear" }] } ] }] }
            """
        let evaluator = SceneEvaluator(document: try DocumentFixtures.decode(json).document)
        let renderer = FrameRenderer()
        let closed = try renderer.render(evaluator.snapshot(scene: 0, at: 0), width: 100, height: 100)
        #expect((0..<100).allSatisfy { red(closed, $0, 50) == 0 })
        let half = try renderer.render(evaluator.snapshot(scene: 0, at: 1), width: 100, height: 100)
        #expect(red(half, 50 + 18, 50) == 255 && red(half, 50 + 21, 50) == 0, "radius 20 at 1 s")
        let open = try renderer.render(evaluator.snapshot(scene: 0, at: 2), width: 100, height: 100)
        #expect(red(open, 50 + 38, 50) == 255 && red(open, 50 + 41, 50) == 0, "radius 40 at 2 s")
        // The same snapshot renders the same bytes.
        #expect(try FrameRenderer().render(evaluator.snapshot(scene: 0, at: 1), width: 100, height: 100) == half)
    }

    @Test func aRotatedRoundedRectClipUnderAnimationMatchesTheHitTest() throws {
        // Where the renderer draws, the hit test hits, and the other way round, away from the anti-aliased edge.
        let json = """
            { "canvas": { "width": 100, "height": 100, "background": "#000" },
              "scenes": [{ "id": "lid", "duration": 2, "nodes": [
                { "type": "rect", "id": "lid", "x": 0, "y": 0, "width": 60, "height": 60, "fill": "#ff0000",
                  "offset": { "x": 20, "y": 20 }, "rotation": 20, "scale": 1.2,
                  "clipShape": { "type": "rect", "x": 5, "y": 5, "width": 50, "height": 10, "cornerRadius": 5 },
                  "animations": [{ "property": "clipShape.height", "to": 50, "duration": 2, "curve": "linear" }] } ] }] }
            """
        let evaluator = SceneEvaluator(document: try DocumentFixtures.decode(json).document)
        for time in [0.0, 0.7, 2.0] {
            let snapshot = evaluator.snapshot(scene: 0, at: time)
            let frame = try FrameRenderer().render(snapshot, width: 100, height: 100)
            var agree = 0
            for y in 0..<100 {
                for x in 0..<100 {
                    let value = red(frame, x, y)
                    guard value == 0 || value == 255 else { continue }
                    let hit = !snapshot.hitTest(at: Point(x: Double(x) + 0.5, y: Double(y) + 0.5)).isEmpty
                    #expect(hit == (value == 255), "pixel (\(x), \(y)) at \(time) s")
                    agree += 1
                }
            }
            #expect(agree > 9000)
        }
    }
}
