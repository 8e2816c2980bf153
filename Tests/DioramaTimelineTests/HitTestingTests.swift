import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing
@testable import DioramaTimeline

private func shape(_ id: String?, _ geometry: Geometry, fill: Paint? = .solid(.white), stroke: Stroke? = nil,
                   transform: Transform2D = .identity, opacity: Double = 1, clip: Geometry? = nil,
                   trimFrom: Double = 0, trimTo: Double = 1) -> NodeSnapshot {
    NodeSnapshot(id: id, transform: transform, bounds: Rect(x: 0, y: 0, width: 100, height: 100), opacity: opacity,
                 content: .shape(ShapeSnapshot(geometry: geometry, fill: fill, stroke: stroke, trimFrom: trimFrom, trimTo: trimTo)),
                 clipShape: clip)
}

private func group(_ id: String?, _ children: [NodeSnapshot], transform: Transform2D = .identity, opacity: Double = 1,
                   clip: Geometry? = nil) -> NodeSnapshot {
    NodeSnapshot(id: id, transform: transform, bounds: Rect(x: 0, y: 0, width: 100, height: 100), opacity: opacity,
                 content: .group(children), clipShape: clip)
}

private func scene(_ nodes: [NodeSnapshot]) -> Snapshot {
    RenderFixtures.snapshot(width: 400, height: 400, nodes)
}

private func hits(_ nodes: [NodeSnapshot], _ x: Double, _ y: Double) -> [String] {
    scene(nodes).hitTest(at: Point(x: x, y: y))
}

/// Which nodes a tap at a canvas point lands on.
@Suite struct HitTestingTests {
    @Test func roundedRectsAreHitInsideTheirCornersOnly() {
        let card = shape("card", .rect(Rect(x: 100, y: 100, width: 100, height: 60), cornerRadius: 20))
        #expect(hits([card], 150, 130) == ["card"])
        #expect(hits([card], 101, 130) == ["card"], "the straight left edge")
        // The corner's quarter circle is centred at (120, 120) with radius 20.
        #expect(hits([card], 104, 104).isEmpty, "outside the rounded corner, inside the box")
        let inside = 120 - 19 / 2.0.squareRoot()
        #expect(hits([card], inside, inside) == ["card"])
        #expect(hits([card], 99, 130).isEmpty)
        #expect(hits([card], 150, 161).isEmpty)
        // A negative width describes the same rectangle.
        #expect(hits([shape("flipped", .rect(Rect(x: 200, y: 100, width: -100, height: 60), cornerRadius: 0))], 150, 130) == ["flipped"])
    }

    @Test func ellipsesAreHitExactly() {
        let oval = shape("oval", .ellipse(center: Point(x: 200, y: 200), radiusX: 100, radiusY: 50))
        #expect(hits([oval], 299, 200) == ["oval"])
        #expect(hits([oval], 200, 249) == ["oval"])
        #expect(hits([oval], 200, 251).isEmpty)
        #expect(hits([oval], 290, 240).isEmpty, "inside the bounding box, outside the ellipse")
    }

    @Test func pathsFillByTheNonZeroRuleAsTheRendererDraws() {
        // Two squares wound the same way, one inside the other: non-zero fills the hole, even-odd would not.
        let outer = PathData(polyline: [Point(x: 100, y: 100), Point(x: 300, y: 100), Point(x: 300, y: 300), Point(x: 100, y: 300)], closed: true)
        let sameWay = PathData(polyline: [Point(x: 150, y: 150), Point(x: 250, y: 150), Point(x: 250, y: 250), Point(x: 150, y: 250)], closed: true)
        let otherWay = PathData(polyline: [Point(x: 150, y: 150), Point(x: 150, y: 250), Point(x: 250, y: 250), Point(x: 250, y: 150)], closed: true)
        let same = PathData(commands: outer.commands + sameWay.commands)
        #expect(hits([shape("same", .path(same))], 200, 200) == ["same"])
        // The inner square wound the other way cuts a hole under non-zero too.
        let opposite = PathData(commands: outer.commands + otherWay.commands)
        #expect(hits([shape("ring", .path(opposite))], 200, 200).isEmpty)
        #expect(hits([shape("ring", .path(opposite))], 120, 200) == ["ring"])
        // An open path fills as if closed.
        let open = PathData(polyline: [Point(x: 100, y: 100), Point(x: 300, y: 100), Point(x: 100, y: 300)], closed: false)
        #expect(hits([shape("open", .path(open))], 150, 150) == ["open"])
        #expect(hits([shape("open", .path(open))], 250, 250).isEmpty)
        // After a close, a line starts a new subpath where the closed one began (as cairo draws it).
        let reopened = PathData(commands: [.move(Point(x: 0, y: 0)), .line(Point(x: 100, y: 0)), .line(Point(x: 100, y: 100)), .close,
                                           .line(Point(x: 0, y: 100)), .line(Point(x: -100, y: 100)), .close])
        #expect(hits([shape("two", .path(reopened), transform: .translation(x: 200, y: 100))], 290, 150) == ["two"])
        #expect(hits([shape("two", .path(reopened), transform: .translation(x: 200, y: 100))], 160, 190) == ["two"])
        #expect(hits([shape("two", .path(reopened), transform: .translation(x: 200, y: 100))], 130, 150).isEmpty)
    }

    @Test func curvesAreFlattenedToWithinHalfAPointEvenWhenScaledUp() {
        // A quarter disc of radius 10 drawn with a cubic, scaled ×20: radius 200 on the canvas, centred at the origin.
        let k = 0.5522847498 * 10
        let data = PathData(commands: [.move(Point(x: 0, y: 0)), .line(Point(x: 10, y: 0)),
                                       .cubic(control1: Point(x: 10, y: k), control2: Point(x: k, y: 10), to: Point(x: 0, y: 10)), .close])
        let disc = shape("disc", .path(data), transform: .scale(x: 20, y: 20))
        // The cubic strays from the true circle by 0.027 % of the radius (0.05 points here): test 0.6 points in and out.
        for degrees in stride(from: 5.0, through: 85, by: 10) {
            let angle = degrees * .pi / 180
            #expect(hits([disc], (200 - 0.6) * cos(angle), (200 - 0.6) * sin(angle)) == ["disc"], "inside at \(degrees)°")
            #expect(hits([disc], (200 + 0.6) * cos(angle), (200 + 0.6) * sin(angle)).isEmpty, "outside at \(degrees)°")
        }
        let quad = PathData(commands: [.move(Point(x: 0, y: 0)), .quad(control: Point(x: 5, y: 10), to: Point(x: 10, y: 0)), .close])
        // The quadratic's apex is at (5, 5) in its own points: (100, 100) at ×20.
        let scoop = shape("scoop", .path(quad), transform: .scale(x: 20, y: 20))
        #expect(hits([scoop], 100, 99.4) == ["scoop"])
        #expect(hits([scoop], 100, 100.6).isEmpty)
    }

    @Test func transformsAreUndoneRotatedAndScaled() {
        // A 100 × 20 bar turned 90 degrees about (200, 200): it now stands vertically.
        let bar = shape("bar", .rect(Rect(x: 150, y: 190, width: 100, height: 20), cornerRadius: 0),
                        transform: RenderFixtures.rotation(degrees: 90, around: Point(x: 200, y: 200)))
        #expect(hits([bar], 200, 245) == ["bar"])
        #expect(hits([bar], 245, 200).isEmpty)
        // Scaled ×2 about the origin and moved: a 10-point square becomes 20 points at (100, 100).
        let square = shape("square", .rect(Rect(x: 0, y: 0, width: 10, height: 10), cornerRadius: 0),
                           transform: Transform2D.scale(x: 2, y: 2).concatenating(.translation(x: 100, y: 100)))
        #expect(hits([square], 119, 119) == ["square"])
        #expect(hits([square], 121, 110).isEmpty)
        // Scaled to nothing: never hit.
        let flat = shape("flat", .rect(Rect(x: 0, y: 0, width: 10, height: 10), cornerRadius: 0), transform: .scale(x: 0, y: 1))
        #expect(hits([flat], 0, 5).isEmpty)
    }

    @Test func clipsCutTheHitShapeAndMoveWithTheNode() {
        let clip = Geometry.ellipse(center: Point(x: 50, y: 50), radiusX: 30, radiusY: 30)
        let clipped = shape("clipped", .rect(Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 0),
                            transform: .translation(x: 100, y: 100), clip: clip)
        #expect(hits([clipped], 150, 150) == ["clipped"])
        #expect(hits([clipped], 105, 105).isEmpty, "inside the rect, outside its clip")
        #expect(hits([clipped], 179, 150) == ["clipped"])
        #expect(hits([clipped], 181, 150).isEmpty)
        // The clip turns with the node: a wide clip on a rotated node stands upright on the canvas.
        let slot = shape("slot", .rect(Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 0),
                         transform: RenderFixtures.rotation(degrees: 90, around: Point(x: 50, y: 50)),
                         clip: .rect(Rect(x: 0, y: 45, width: 100, height: 10), cornerRadius: 0))
        #expect(hits([slot], 50, 10) == ["slot"])
        #expect(hits([slot], 10, 50).isEmpty)
        // A group's clip cuts its children, and an ancestor's clip cuts what is nested inside it.
        let child = shape("child", .rect(Rect(x: 0, y: 0, width: 200, height: 200), cornerRadius: 0))
        let inner = group("inner", [child], clip: .rect(Rect(x: 0, y: 0, width: 150, height: 150), cornerRadius: 0))
        let outer = group("outer", [inner], clip: .rect(Rect(x: 50, y: 50, width: 150, height: 150), cornerRadius: 0))
        #expect(hits([outer], 100, 100) == ["child", "inner", "outer"])
        #expect(hits([outer], 20, 20).isEmpty)
        #expect(hits([outer], 170, 170).isEmpty)
        // A path clip, by the non-zero rule: a triangle.
        let triangle = PathData(commands: [.move(Point(x: 0, y: 0)), .line(Point(x: 100, y: 0)), .line(Point(x: 0, y: 100)), .close])
        let wedge = shape("wedge", .rect(Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 0), clip: .path(triangle))
        #expect(hits([wedge], 20, 20) == ["wedge"])
        #expect(hits([wedge], 80, 80).isEmpty)
        // An empty clip hides everything.
        let shut = shape("shut", .rect(Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 0),
                         clip: .rect(Rect(x: 0, y: 0, width: 0, height: 100), cornerRadius: 0))
        #expect(hits([shut], 0, 50).isEmpty)
    }

    @Test func topmostComesFirstAndAGroupFollowsItsTopmostHitChild() {
        let back = shape("back", .rect(Rect(x: 0, y: 0, width: 200, height: 200), cornerRadius: 0))
        let a = shape("a", .rect(Rect(x: 50, y: 50, width: 100, height: 100), cornerRadius: 0))
        let b = shape("b", .rect(Rect(x: 100, y: 100, width: 100, height: 100), cornerRadius: 0))
        let anonymous = shape(nil, .rect(Rect(x: 120, y: 0, width: 10, height: 10), cornerRadius: 0))
        let pair = group("pair", [a, b, anonymous])
        let front = shape("front", .ellipse(center: Point(x: 120, y: 120), radiusX: 5, radiusY: 5))
        let nodes = [back, pair, front]
        #expect(hits(nodes, 120, 120) == ["front", "b", "pair", "a", "back"])
        #expect(hits(nodes, 110, 110) == ["b", "pair", "a", "back"])
        #expect(hits(nodes, 60, 60) == ["a", "pair", "back"])
        #expect(hits(nodes, 10, 10) == ["back"])
        #expect(hits(nodes, 300, 300).isEmpty)
        // A child without an id still makes its group hit.
        #expect(hits(nodes, 125, 5) == ["pair", "back"])
        // Nested groups: each group right after what it holds.
        let nested = group("outer", [group("inner", [a])])
        #expect(hits([nested], 60, 60) == ["a", "inner", "outer"])
        // A group with nothing at the point is not hit, however large its frame.
        #expect(hits([group("empty", [])], 50, 50).isEmpty)
    }

    @Test func opacityZeroHidesANodeAndItsSubtree() {
        let dot = shape("dot", .ellipse(center: Point(x: 50, y: 50), radiusX: 20, radiusY: 20))
        #expect(hits([shape("dot", .ellipse(center: Point(x: 50, y: 50), radiusX: 20, radiusY: 20), opacity: 0)], 50, 50).isEmpty)
        #expect(hits([group("hidden", [dot], opacity: 0)], 50, 50).isEmpty)
        #expect(hits([group("faint", [dot], opacity: 0.01)], 50, 50) == ["dot", "faint"])
        // A fill with no colour paints nothing, so it is not hit; a gradient with a visible stop is.
        #expect(hits([shape("clear", .rect(Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 0), fill: .solid(.clear))], 50, 50).isEmpty)
        let gradient = Paint.linear(stops: [GradientStop(location: 0, color: .clear), GradientStop(location: 1, color: .white)],
                                    start: .top, end: .bottom)
        #expect(hits([shape("fade", .rect(Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 0), fill: gradient)], 50, 50) == ["fade"])
    }

    @Test func strokesAreHitAlongTheirWidthAndTrimsCutThem() {
        let stroke = Stroke(paint: .solid(.white), width: 10)
        // A stroked, unfilled circle of radius 100: a ring from 95 to 105.
        let ring = shape("ring", .ellipse(center: Point(x: 200, y: 200), radiusX: 100, radiusY: 100), fill: nil, stroke: stroke)
        #expect(hits([ring], 200, 200).isEmpty)
        #expect(hits([ring], 304, 200) == ["ring"])
        #expect(hits([ring], 296, 200) == ["ring"])
        #expect(hits([ring], 306, 200).isEmpty)
        // A line is hit along its stroke only.
        let line = shape("line", .path(PathData(polyline: [Point(x: 0, y: 100), Point(x: 400, y: 100)], closed: false)),
                         fill: nil, stroke: Stroke(paint: .solid(.white), width: 4))
        #expect(hits([line], 200, 101.9) == ["line"])
        #expect(hits([line], 200, 102.1).isEmpty)
        // Trimmed to its first quarter: from the trailing point clockwise on screen, to the bottom.
        let arc = shape("arc", .ellipse(center: Point(x: 200, y: 200), radiusX: 100, radiusY: 100), fill: nil, stroke: stroke, trimTo: 0.25)
        #expect(hits([arc], 200 + 100 * cos(Double.pi / 4), 200 + 100 * sin(Double.pi / 4)) == ["arc"])
        #expect(hits([arc], 200 + 100 * cos(-Double.pi / 4), 200 + 100 * sin(-Double.pi / 4)).isEmpty)
        // A trimmed fill fills the stretch kept, closed back to its start: half a disc.
        let half = shape("half", .ellipse(center: Point(x: 200, y: 200), radiusX: 100, radiusY: 100), trimTo: 0.5)
        #expect(hits([half], 200, 250) == ["half"])
        #expect(hits([half], 200, 150).isEmpty)
        #expect(hits([shape("none", .ellipse(center: Point(x: 200, y: 200), radiusX: 100, radiusY: 100), trimFrom: 0.5, trimTo: 0.5)], 200, 250).isEmpty)
        // A stroke of width 0 or a shape with neither fill nor stroke is never hit.
        #expect(hits([shape("bare", .rect(Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 0), fill: nil)], 50, 50).isEmpty)
        #expect(hits([shape("hair", .rect(Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 0), fill: nil,
                            stroke: Stroke(paint: .solid(.white), width: 0))], 0, 50).isEmpty)
    }

    @Test func imagesTextAndParticlesAsDocumented() {
        let image = NodeSnapshot(id: "photo", bounds: Rect(x: 0, y: 0, width: 1, height: 1),
                                 content: .image(ImageContent(path: "p.png", rect: Rect(x: 10, y: 10, width: 50, height: 30))))
        #expect(hits([image], 30, 30) == ["photo"])
        #expect(hits([image], 30, 45).isEmpty)
        let font = Font()
        let framed = NodeSnapshot(id: "label", bounds: Rect(x: 100, y: 100, width: 80, height: 20),
                                  content: .text(TextSnapshot(text: "Hi", position: Point(x: 140, y: 110), alignment: .center,
                                                              font: font, paint: .solid(.white))))
        #expect(hits([framed], 150, 105) == ["label"])
        let bare = NodeSnapshot(id: "bare", bounds: Rect(x: 140, y: 110, width: 0, height: 0),
                                content: .text(TextSnapshot(text: "Hi", position: Point(x: 140, y: 110), alignment: .center,
                                                            font: font, paint: .solid(.white))))
        #expect(hits([bare], 141, 111).isEmpty)
        let snow = NodeSnapshot(id: "snow", bounds: Rect(x: 0, y: 0, width: 400, height: 400),
                                content: .particles(ParticlesSnapshot(shape: .circle, blendMode: .normal, particles: [
                                    Particle(position: Point(x: 50, y: 50), radius: 10, rotation: 0, alpha: 1, color: .white)])))
        #expect(hits([snow], 50, 50).isEmpty)
    }

    @Test func hitTestingAnEvaluatedSceneFollowsItsAnimations() throws {
        // A door window whose circular clip opens from r 0 to 50 over 1 s (linear), on a node moved to (200, 200).
        let json = """
            { "canvas": { "width": 400, "height": 400 },
              "scenes": [{ "id": "door", "duration": 2, "nodes": [
                { "type": "group", "id": "door", "offset": { "x": 200, "y": 200 }, "children": [
                  { "type": "rect", "id": "window", "x": -100, "y": -100, "width": 200, "height": 200, "fill": "#8cf",
                    "clipShape": { "type": "circle", "r": 0 },
                    "animations": [{ "property": "clipShape.r", "to": 50, "duration": 1, "curve": "linear" }] }
                ] } ] }] }
            """
        let document = try DocumentFixtures.decode(json).document
        let evaluator = SceneEvaluator(document: document)
        let closed = evaluator.snapshot(scene: 0, at: 0)
        #expect(closed.hitTest(at: Point(x: 200, y: 200)).isEmpty)
        let half = evaluator.snapshot(scene: 0, at: 0.5)
        #expect(half.hitTest(at: Point(x: 224, y: 200)) == ["window", "door"])
        #expect(half.hitTest(at: Point(x: 226, y: 200)).isEmpty)
        let open = evaluator.snapshot(scene: 0, at: 1)
        #expect(open.hitTest(at: Point(x: 249, y: 200)) == ["window", "door"])
    }

    @Test func transformInverseUndoesTheTransform() throws {
        let transform = Transform2D.scale(x: 2, y: -3).concatenating(.rotation(degrees: 37)).concatenating(.translation(x: 5, y: 7))
        let inverse = try #require(transform.inverted())
        let point = Point(x: 11, y: -4)
        let back = inverse.apply(to: transform.apply(to: point))
        #expect(abs(back.x - point.x) < 1e-12 && abs(back.y - point.y) < 1e-12)
        #expect(Transform2D.scale(x: 0, y: 1).inverted() == nil)
        #expect(abs(transform.largestScale - 3) < 1e-12)
    }
}
