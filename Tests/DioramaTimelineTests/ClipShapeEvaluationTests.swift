import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing
@testable import DioramaTimeline

private typealias F = TimelineFixtures

private func snapshot(_ nodes: [Node], at time: Double = 0) -> Snapshot {
    let document = F.document([Scene(id: "test", title: LocalizedString("Test"), duration: F.seconds("10"), nodes: nodes)])
    return SceneEvaluator(document: document).snapshot(scene: 0, at: time)
}

private func rectNode(_ rect: Rect, id: String? = nil, style: NodeStyle = NodeStyle(fill: .solid(.white)),
                      animations: [Animation] = [], frame: Rect? = nil) -> Node {
    Node(id: id, content: .rect(RectShape(rect: rect)), style: style, animations: animations, frame: frame)
}

/// Clip shapes and anchor points as the evaluator resolves them.
@Suite struct ClipShapeEvaluationTests {
    @Test func eachClipShapeBecomesItsOutlineInTheNodesCoordinates() {
        let box = Rect(x: 10, y: 20, width: 100, height: 40)
        let cases: [(ClipShape, Geometry)] = [
            (.rect(box, cornerRadius: 6), .rect(box, cornerRadius: 6)),
            (.capsule(box), .rect(box, cornerRadius: 20)),
            (.circle(center: Point(x: 5, y: 6), radius: 7), .ellipse(center: Point(x: 5, y: 6), radiusX: 7, radiusY: 7)),
            (.ellipse(center: Point(x: 5, y: 6), radiusX: 7, radiusY: 8), .ellipse(center: Point(x: 5, y: 6), radiusX: 7, radiusY: 8)),
            (.path(PathData(polyline: [Point(x: 0, y: 0), Point(x: 9, y: 0), Point(x: 0, y: 9)], closed: true)),
             .path(PathData(polyline: [Point(x: 0, y: 0), Point(x: 9, y: 0), Point(x: 0, y: 9)], closed: true))),
            // Fitted shapes take the node's content bounds (no frame given).
            (.fitted(.rect, cornerRadius: 3), .rect(Rect(x: 0, y: 0, width: 200, height: 100), cornerRadius: 3)),
            (.fitted(.circle, cornerRadius: 0), .ellipse(center: Point(x: 100, y: 50), radiusX: 50, radiusY: 50)),
            (.fitted(.capsule, cornerRadius: 0), .rect(Rect(x: 0, y: 0, width: 200, height: 100), cornerRadius: 50)),
        ]
        for (clip, geometry) in cases {
            let node = rectNode(Rect(x: 0, y: 0, width: 200, height: 100), style: NodeStyle(fill: .solid(.white), clipShape: clip))
            #expect(snapshot([node]).nodes[0].clipShape == geometry, "\(clip)")
        }
        #expect(snapshot([rectNode(box)]).nodes[0].clipShape == nil)
        // With a frame, a fitted clip fills the frame.
        let framed = rectNode(box, style: NodeStyle(fill: .solid(.white), clipShape: .fitted(.ellipse, cornerRadius: 0)),
                              frame: Rect(x: 0, y: 0, width: 40, height: 20))
        #expect(snapshot([framed]).nodes[0].clipShape == .ellipse(center: Point(x: 20, y: 10), radiusX: 20, radiusY: 10))
    }

    @Test func clipGeometryAnimatesLikeAnyShape() {
        // A record player's lid window: the clip's height grows from 0 to 80 over 2 s, linearly.
        let clip = ClipShape.rect(Rect(x: 10, y: 10, width: 60, height: 0), cornerRadius: 4)
        let node = rectNode(Rect(x: 0, y: 0, width: 100, height: 100), style: NodeStyle(fill: .solid(.white), clipShape: clip),
                            animations: [F.basic(.clipHeight, from: 0, to: 80, duration: "2"),
                                         F.basic(.clipX, from: 10, to: 30, duration: "2"),
                                         F.basic(.clipY, from: 10, to: 0, duration: "2"),
                                         F.basic(.clipWidth, from: 60, to: 40, duration: "2"),
                                         F.basic(.clipCornerRadius, from: 4, to: 8, duration: "2")])
        #expect(snapshot([node], at: 0.5).nodes[0].clipShape == .rect(Rect(x: 15, y: 7.5, width: 55, height: 20), cornerRadius: 5))
        let circle = rectNode(Rect(x: 0, y: 0, width: 100, height: 100),
                              style: NodeStyle(fill: .solid(.white), clipShape: .circle(center: Point(x: 50, y: 50), radius: 0)),
                              animations: [F.basic(.clipRadius, from: 0, to: 40, duration: "1"),
                                           F.basic(.clipCenterX, from: 50, to: 60, duration: "1"),
                                           F.basic(.clipCenterY, from: 50, to: 40, duration: "1")])
        #expect(snapshot([circle], at: 0.25).nodes[0].clipShape == .ellipse(center: Point(x: 52.5, y: 47.5), radiusX: 10, radiusY: 10))
        let ellipse = rectNode(Rect(x: 0, y: 0, width: 100, height: 100),
                               style: NodeStyle(fill: .solid(.white), clipShape: .ellipse(center: Point(x: 0, y: 0), radiusX: 1, radiusY: 1)),
                               animations: [F.basic(.clipRadiusX, from: 10, to: 20, duration: "1"),
                                            F.basic(.clipRadiusY, from: 30, to: 10, duration: "1")])
        #expect(snapshot([ellipse], at: 0.5).nodes[0].clipShape == .ellipse(center: Point(x: 0, y: 0), radiusX: 15, radiusY: 20))
        let capsule = rectNode(Rect(x: 0, y: 0, width: 100, height: 100),
                               style: NodeStyle(fill: .solid(.white), clipShape: .capsule(Rect(x: 0, y: 0, width: 40, height: 10))),
                               animations: [F.basic(.clipHeight, from: 10, to: 30, duration: "1")])
        #expect(snapshot([capsule], at: 1).nodes[0].clipShape == .rect(Rect(x: 0, y: 0, width: 40, height: 30), cornerRadius: 15))
        // A fitted rect's corner radius animates from the value written.
        let fitted = rectNode(Rect(x: 0, y: 0, width: 100, height: 50),
                              style: NodeStyle(fill: .solid(.white), clipShape: .fitted(.rect, cornerRadius: 2)),
                              animations: [F.basic(.clipCornerRadius, from: 2, to: 12, duration: "1")])
        #expect(snapshot([fitted], at: 0.5).nodes[0].clipShape == .rect(Rect(x: 0, y: 0, width: 100, height: 50), cornerRadius: 7))
    }

    @Test func aSpringThatOvershootsBelowZeroLeavesAnEmptyClipNotANegativeOne() {
        let spring = TimingCurve.spring(response: 0.5, dampingFraction: 0.2)
        let node = rectNode(Rect(x: 0, y: 0, width: 100, height: 100),
                            style: NodeStyle(fill: .solid(.white), clipShape: .circle(center: Point(x: 50, y: 50), radius: 40)),
                            animations: [Animation(property: .clipRadius, kind: .basic(from: .number(40), to: .number(0), curve: spring,
                                                                                       duration: F.seconds("2")))])
        var sawZero = false
        for step in 0...200 {
            guard case .ellipse(_, let radiusX, let radiusY)? = snapshot([node], at: Double(step) / 100).nodes[0].clipShape else {
                Issue.record("not an ellipse")
                return
            }
            #expect(radiusX >= 0 && radiusY >= 0)
            if radiusX == 0 { sawZero = true }
        }
        #expect(sawZero, "the underdamped spring goes past 0 and is held there")
    }

    @Test func aClippedChildAddsOnlyItsClippedPartToItsGroupsBounds() {
        // The group's content bounds (what "center" refers to) are the union of its children's visible parts.
        let wide = rectNode(Rect(x: 0, y: 0, width: 200, height: 100),
                            style: NodeStyle(fill: .solid(.white), clipShape: .circle(center: Point(x: 50, y: 50), radius: 20)))
        let small = rectNode(Rect(x: 100, y: 40, width: 10, height: 10))
        let group = Node(content: .group(Group(children: [wide, small])), style: NodeStyle(rotation: 90))
        let evaluated = snapshot([group]).nodes[0]
        #expect(evaluated.bounds == Rect(x: 30, y: 30, width: 80, height: 40))
        // The rotation turns about that box's centre (70, 50).
        #expect(abs(evaluated.transform.apply(to: Point(x: 70, y: 50)).x - 70) < 1e-9)
        #expect(abs(evaluated.transform.apply(to: Point(x: 70, y: 50)).y - 50) < 1e-9)
        // The clipped node's own frame (its gradients and anchors) is still its whole content.
        guard case .group(let children) = evaluated.content else { Issue.record("not a group"); return }
        #expect(children[0].bounds == Rect(x: 0, y: 0, width: 200, height: 100))
        // A clip beside the content leaves an empty box at the clip's nearest point.
        let missed = rectNode(Rect(x: 0, y: 0, width: 10, height: 10),
                              style: NodeStyle(fill: .solid(.white), clipShape: .rect(Rect(x: 50, y: 0, width: 10, height: 5), cornerRadius: 0)))
        #expect(ContentBounds.of(Rect(x: 0, y: 0, width: 10, height: 10),
                                 clippedTo: .rect(Rect(x: 50, y: 0, width: 10, height: 5), cornerRadius: 0)) == Rect(x: 50, y: 0, width: 0, height: 5))
        let alone = Node(content: .group(Group(children: [missed])))
        #expect(snapshot([alone]).nodes[0].bounds == Rect(x: 50, y: 0, width: 0, height: 5))
    }

    @Test func anchorPointsPivotInTheNodesOwnPoints() {
        // A tonearm 180 × 12 turning 30 degrees about its spindle at (170, 6), and scaling about (0, 6).
        let arm = Rect(x: 0, y: 0, width: 180, height: 12)
        let spindle = Point(x: 170, y: 6)
        let turned = rectNode(arm, style: NodeStyle(rotation: 30, fill: .solid(.white), rotationAnchorPoint: spindle))
        let transform = snapshot([turned]).nodes[0].transform
        let image = transform.apply(to: spindle)
        #expect(abs(image.x - spindle.x) < 1e-9 && abs(image.y - spindle.y) < 1e-9)
        let tip = transform.apply(to: Point(x: 0, y: 6))
        #expect(abs(tip.x - (170 - 170 * cos(Double.pi / 6))) < 1e-9 && abs(tip.y - (6 - 170 * sin(Double.pi / 6))) < 1e-9)

        let scaled = rectNode(arm, style: NodeStyle(scale: Point(x: 2, y: 2), fill: .solid(.white), scaleAnchorPoint: Point(x: 0, y: 6)))
        let grown = snapshot([scaled]).nodes[0].transform
        #expect(grown.apply(to: Point(x: 0, y: 6)) == Point(x: 0, y: 6))
        #expect(grown.apply(to: Point(x: 180, y: 6)) == Point(x: 360, y: 6))
        // The point wins over the unit anchor, which is ignored once a point is set.
        let both = rectNode(arm, style: NodeStyle(rotation: 30, rotationAnchor: .topLeading, fill: .solid(.white), rotationAnchorPoint: spindle))
        #expect(snapshot([both]).nodes[0].transform == transform)
    }

    @Test func aConstantClippedNodeIsEvaluatedOnceAndStaysEqual() {
        let node = rectNode(Rect(x: 0, y: 0, width: 100, height: 100),
                            style: NodeStyle(fill: .solid(.white), clipShape: .fitted(.circle, cornerRadius: 0)))
        #expect(snapshot([node], at: 0) == snapshot([node], at: 3.7))
    }
}
