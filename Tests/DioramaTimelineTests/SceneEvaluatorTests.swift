import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing
@testable import DioramaTimeline

private typealias F = TimelineFixtures

private func scene(_ nodes: [Node], duration: String = "10") -> Document {
    F.document([Scene(id: "test", title: LocalizedString("Test"), duration: F.seconds(duration), nodes: nodes)])
}

private func close(_ a: Transform2D, _ b: Transform2D, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.a - b.a) < tolerance && abs(a.b - b.b) < tolerance && abs(a.c - b.c) < tolerance && abs(a.d - b.d) < tolerance
        && abs(a.tx - b.tx) < tolerance && abs(a.ty - b.ty) < tolerance
}

private func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) < tolerance && abs(a.y - b.y) < tolerance
}

@Suite struct SceneEvaluatorTests {
    @Test func transformScalesAroundItsAnchorThenRotatesAroundItsAnchorThenOffsets() {
        let rect = Rect(x: 10, y: 20, width: 100, height: 50)
        let style = NodeStyle(offset: Point(x: 7, y: -3), rotation: 30, rotationAnchor: .bottomTrailing,
                              scale: Point(x: 2, y: 0.5), scaleAnchor: .topLeading)
        let snapshot = SceneEvaluator(document: scene([Node(content: .rect(RectShape(rect: rect)), style: style)])).snapshot(scene: 0, at: 0)
        let scaleAnchor = Point(x: 10, y: 20), rotationAnchor = Point(x: 110, y: 70)
        let expected = Transform2D.translation(x: -scaleAnchor.x, y: -scaleAnchor.y)
            .concatenating(.scale(x: 2, y: 0.5))
            .concatenating(.translation(x: scaleAnchor.x, y: scaleAnchor.y))
            .concatenating(.translation(x: -rotationAnchor.x, y: -rotationAnchor.y))
            .concatenating(.rotation(degrees: 30))
            .concatenating(.translation(x: rotationAnchor.x, y: rotationAnchor.y))
            .concatenating(.translation(x: 7, y: -3))
        #expect(close(snapshot.nodes[0].transform, expected))
        // The scale anchor stays put under scaling; the whole then turns about the rotation anchor's scaled image.
        let transform = snapshot.nodes[0].transform
        #expect(close(transform.apply(to: Point(x: 10, y: 20)),
                      Transform2D.rotation(degrees: 30).apply(to: Point(x: -100, y: -50)).offset(by: Point(x: 117, y: 67))))
    }

    @Test func anchorsUseTheFrameWhenGiven() {
        let node = Node(content: .ellipse(EllipseShape(center: Point(x: 0, y: 0), radiusX: 10, radiusY: 10)),
                        style: NodeStyle(rotation: 90, rotationAnchor: .topLeading), frame: Rect(x: 100, y: 100, width: 10, height: 10))
        let snapshot = SceneEvaluator(document: scene([node])).snapshot(scene: 0, at: 0)
        #expect(snapshot.nodes[0].bounds == Rect(x: 100, y: 100, width: 10, height: 10))
        #expect(close(snapshot.nodes[0].transform.apply(to: Point(x: 100, y: 100)), Point(x: 100, y: 100)))
        #expect(close(snapshot.nodes[0].transform.apply(to: Point(x: 110, y: 100)), Point(x: 100, y: 110)))
    }

    @Test func aGroupsBoundsAreTheUnionOfItsChildrenUntransformed() {
        let a = Node(content: .rect(RectShape(rect: Rect(x: 0, y: 0, width: 10, height: 10))), style: NodeStyle(offset: Point(x: 500, y: 500)))
        let b = Node(content: .line([Point(x: 20, y: -5), Point(x: 30, y: 40)]))
        let group = Node(content: .group(Group(children: [a, b])), style: NodeStyle(scale: Point(x: 2, y: 2), scaleAnchor: .center))
        let snapshot = SceneEvaluator(document: scene([group])).snapshot(scene: 0, at: 0)
        #expect(snapshot.nodes[0].bounds == Rect(x: 0, y: -5, width: 30, height: 45))
        // Scaling around the centre (15, 17.5) keeps it fixed.
        #expect(close(snapshot.nodes[0].transform.apply(to: Point(x: 15, y: 17.5)), Point(x: 15, y: 17.5)))
    }

    @Test func pathBoundsIncludeCurveExtremesNotControlPoints() {
        let path = PathData(commands: [.move(Point(x: 0, y: 0)), .quad(control: Point(x: 50, y: -100), to: Point(x: 100, y: 0))])
        let snapshot = SceneEvaluator(document: scene([Node(content: .path(path))])).snapshot(scene: 0, at: 0)
        let bounds = snapshot.nodes[0].bounds
        #expect(abs(bounds.y + 50) < 1e-12 && bounds.height == 50 && bounds.width == 100)
    }

    @Test func siblingsAreSortedByZIndexStably() {
        let nodes = [("a", 1.0), ("b", 0.0), ("c", 1.0), ("d", -2.0), ("e", 0.0)].map { id, z in
            Node(id: id, content: .rect(RectShape(rect: Rect(x: 0, y: 0, width: 1, height: 1))), zIndex: z)
        }
        let snapshot = SceneEvaluator(document: scene(nodes)).snapshot(scene: 0, at: 0)
        #expect(snapshot.nodes.map(\.id) == ["d", "b", "e", "a", "c"])
    }

    @Test func shapesResolveIntoGeometry() {
        let nodes = [
            Node(id: "polygon", content: .polygon([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 5, y: 8)])),
            Node(id: "line", content: .line([Point(x: 0, y: 0), Point(x: 10, y: 10)])),
            Node(id: "rect", content: .rect(RectShape(rect: Rect(x: 1, y: 2, width: 3, height: 4))), style: NodeStyle(cornerRadius: 2),
                 animations: [F.basic(.cornerRadius, from: 0, to: 10, duration: "10")]),
            Node(id: "wave", content: .wave(WaveShape(rect: Rect(x: 0, y: 100, width: 200, height: 50), control1X: 0.25, control2X: 0.75)),
                 animations: [F.basic(.yOffset, from: 0, to: 0.4, duration: "4")]),
        ]
        let snapshot = SceneEvaluator(document: scene(nodes)).snapshot(scene: 0, at: 1)
        func geometry(_ index: Int) -> Geometry? {
            if case .shape(let shape) = snapshot.nodes[index].content { return shape.geometry }
            return nil
        }
        #expect(geometry(0) == .path(PathData(commands: [.move(Point(x: 0, y: 0)), .line(Point(x: 10, y: 0)), .line(Point(x: 5, y: 8)), .close])))
        #expect(geometry(1) == .path(PathData(commands: [.move(Point(x: 0, y: 0)), .line(Point(x: 10, y: 10))])))
        #expect(geometry(2) == .rect(Rect(x: 1, y: 2, width: 3, height: 4), cornerRadius: 1))
        #expect(geometry(3) == .path(PathData(commands: [
            .move(Point(x: 0, y: 100)),
            .cubic(control1: Point(x: 50, y: 105), control2: Point(x: 150, y: 95), to: Point(x: 200, y: 100)),
            .line(Point(x: 200, y: 150)), .line(Point(x: 0, y: 150)), .close,
        ])))
    }

    @Test func textResolvesItsLanguageWithFallbackAndPaintsWhiteByDefault() {
        let text = TextContent(text: LocalizedString([("en", "Swing"), ("zh", "秋千")]), position: Point(x: 5, y: 6))
        let document = scene([Node(content: .text(text)), Node(content: .text(text), style: NodeStyle(fill: .solid(.black)))])
        let evaluator = SceneEvaluator(document: document)
        func resolved(_ language: String?, _ index: Int = 0) -> TextSnapshot? {
            if case .text(let text) = evaluator.snapshot(scene: 0, at: 0, language: language).nodes[index].content { return text }
            return nil
        }
        #expect(resolved("zh")?.text == "秋千")
        #expect(resolved("ja")?.text == "Swing")  // no Japanese: the fallback, English
        #expect(resolved(nil)?.text == "Swing")
        #expect(resolved("en")?.paint == .solid(.white))
        #expect(resolved("en", 1)?.paint == .solid(.black))
    }

    @Test func animatedPropertiesReachTheSnapshot() {
        let node = Node(content: .rect(RectShape(rect: Rect(x: 0, y: 0, width: 10, height: 10))),
                        style: NodeStyle(fill: .solid(.black), stroke: Stroke(paint: .solid(.white), width: 1, dash: [4, 2])),
                        animations: [
                            F.basic(.opacity, from: 0, to: 1, duration: "2"),
                            F.basic(.blur, from: 0, to: 8, duration: "2"),
                            F.basic(.hueRotation, from: 0, to: 90, duration: "2"),
                            F.basic(.shadowRadius, from: 0, to: 4, duration: "2"),
                            F.basic(.dashPhase, from: 0, to: 6, duration: "2"),
                            F.basic(.strokeWidth, from: 1, to: 3, duration: "2"),
                            F.basic(.trimTo, from: 0, to: 1, duration: "2"),
                            F.basic(.scale, from: 1, to: 3, duration: "2"),
                            F.basic(.scaleY, from: 1, to: 5, duration: "2"),
                            Animation(property: .fillColor, kind: .basic(from: .color(.black), to: .color(.white), curve: .linear, duration: F.seconds("2"))),
                        ])
        let snapshot = SceneEvaluator(document: scene([node])).snapshot(scene: 0, at: 1).nodes[0]
        #expect(snapshot.opacity == 0.5 && snapshot.blur == 4 && snapshot.hueRotation == 45)
        #expect(snapshot.shadow?.radius == 2 && snapshot.shadow?.color.alpha == 0.33)
        #expect(snapshot.transform.a == 2 && snapshot.transform.d == 3)  // scale.y overrides scale's y axis
        guard case .shape(let shape) = snapshot.content else { Issue.record("not a shape"); return }
        #expect(shape.stroke?.dashPhase == 3 && shape.stroke?.width == 2 && shape.stroke?.dash == [4, 2])
        #expect(shape.trimTo == 0.5)
        #expect(shape.fill == .solid(Color(red: 0.5, green: 0.5, blue: 0.5)))
    }

    @Test func springOvershootIsClampedToMeaningfulRanges() {
        let curve = TimingCurve.spring(response: 1, dampingFraction: 0.2)
        let node = Node(content: .rect(RectShape(rect: Rect(x: 0, y: 0, width: 1, height: 1))),
                        animations: [Animation(property: .opacity, kind: .basic(from: .number(0), to: .number(1), curve: curve, duration: curve.settlingDuration))])
        let evaluator = SceneEvaluator(document: scene([node]))
        let values = (0..<200).map { evaluator.snapshot(scene: 0, at: Double($0) / 100).nodes[0].opacity }
        #expect(values.max() == 1 && values.min() == 0)
        #expect(SpringMotion(curve)!.progress(at: 0.5) > 1.3)  // it does overshoot
    }

    @Test func snapshotsAreDeterministicAndTheOneShotFormAgrees() {
        let document = F.document([F.ocean()])
        let evaluator = SceneEvaluator(document: document)
        for time in [0.0, 0.2, 5.5, 17.123, 29.99] {
            let snapshot = evaluator.snapshot(scene: 0, at: time, language: "ja")
            #expect(snapshot == evaluator.snapshot(scene: 0, at: time, language: "ja"))
            #expect(snapshot == SceneEvaluator.snapshot(of: document, scene: 0, at: time, language: "ja"))
        }
    }

    @Test func particlesCanBeLeftOutAndOutOfRangeScenesAreEmpty() {
        let evaluator = SceneEvaluator(document: F.document([F.ocean()]))
        func particleCount(_ snapshot: Snapshot) -> Int {
            snapshot.nodes.reduce(0) { count, node in
                if case .particles(let particles) = node.content { return count + particles.particles.count }
                return count
            }
        }
        #expect(particleCount(evaluator.snapshot(scene: 0, at: 3)) > 100)
        #expect(particleCount(evaluator.snapshot(scene: 0, at: 3, includeParticles: false)) == 0)
        #expect(evaluator.snapshot(scene: 5, at: 0).nodes.isEmpty)
    }

    @Test func staticSubtreesAreConstantAndAnimatedOnesInsideStaticGroupsStillMove() {
        let still = Node(id: "still", content: .ellipse(EllipseShape(center: Point(x: 1, y: 2), radiusX: 3, radiusY: 4)),
                         style: NodeStyle(offset: Point(x: 5, y: 0), fill: .solid(.white)))
        let moving = Node(id: "moving", content: .rect(RectShape(rect: Rect(x: 0, y: 0, width: 2, height: 2))),
                          animations: [F.basic(.offsetX, from: 0, to: 100, duration: "10")])
        let document = scene([Node(id: "scenery", content: .group(Group(children: [still, still]))),
                              Node(id: "mixed", content: .group(Group(children: [still, moving])))])
        let evaluator = SceneEvaluator(document: document)
        let early = evaluator.snapshot(scene: 0, at: 1), late = evaluator.snapshot(scene: 0, at: 6)
        #expect(early.nodes[0] == late.nodes[0])
        #expect(early.nodes[0].content == .group([NodeSnapshot](repeating: early.nodes[1].children[0], count: 2)))
        #expect(early.nodes[1].children[1].transform.tx == 10 && late.nodes[1].children[1].transform.tx == 60)
        #expect(early.nodes[1].children[0].transform.tx == 5)
    }

    @Test func backgroundIsTheScenesOrTheCanvas() {
        var document = F.document([F.ocean(), F.ocean()])
        document.scenes[1].background = .solid(.white)
        let evaluator = SceneEvaluator(document: document)
        #expect(evaluator.snapshot(scene: 0, at: 0).background == document.canvas.background)
        #expect(evaluator.snapshot(scene: 1, at: 0).background == .solid(.white))
        #expect(evaluator.snapshot(scene: 0, at: 0).canvas == Size(width: 1280, height: 720))
    }
}

private extension NodeSnapshot {
    var children: [NodeSnapshot] {
        if case .group(let children) = content { return children }
        return []
    }
}

private extension Point {
    func offset(by other: Point) -> Point { Point(x: x + other.x, y: y + other.y) }
}
