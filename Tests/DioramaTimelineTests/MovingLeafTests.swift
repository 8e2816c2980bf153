import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing
@testable import DioramaTimeline

/// Leaves whose animations only move, turn, scale or fade them are evaluated from a kept snapshot
/// (`NodePlan.movingSnapshot`): the same nodes as built again from their style.
@Suite struct MovingLeafTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The node as evaluation builds it from its style: every channel applied, then clamped.
    private func rebuilt(_ plan: NodePlan, at time: Double) -> NodeSnapshot {
        let context = EvaluationContext(time: time, language: "en", fallback: "en", includeParticles: true)
        var style = plan.style
        for channel in plan.channels {
            EvaluationContext.apply(channel.value(at: time), to: channel.property, of: &style)
        }
        EvaluationContext.clamp(&style)
        return context.snapshot(of: plan, style: style, text: nil)
    }

    private func leaves(_ plans: [NodePlan]) -> [NodePlan] {
        plans.flatMap { plan -> [NodePlan] in
            if case .group(let children) = plan.content { return leaves(children) }
            return [plan]
        }
    }

    /// Every moving leaf of the shipped playlist and of the peer's animation, at 40 moments of each scene.
    @Test(arguments: ["scenes.json", "bench/peer/scenes.json"])
    func movingLeavesEqualTheNodesBuiltFromTheirStyle(file: String) throws {
        let document = try DocumentLoader.load(path: Self.root.appendingPathComponent(file).path).document
        var moving = 0
        for scene in document.scenes {
            let plan = ScenePlan(scene: scene, canvas: document.canvas)
            for leaf in leaves(plan.nodes) where leaf.movingSnapshot != nil {
                moving += 1
                for k in 0..<40 {
                    let time = scene.duration.doubleValue * Double(k) / 39
                    let context = EvaluationContext(time: time, language: "en", fallback: "en", includeParticles: true)
                    #expect(context.evaluate(leaf) == rebuilt(leaf, at: time), "\(scene.id) \(leaf.id ?? "") at \(time) s")
                }
            }
        }
        #expect(moving >= (file == "scenes.json" ? 10 : 400), "\(moving) moving leaves")
    }

    /// A fade overshooting (a spring) is clamped; colours, widths and geometry keep a leaf off the kept snapshot.
    @Test func onlyMotionAndFadesKeepTheSnapshot() {
        func plan(_ property: String, from: AnimationValue, to: AnimationValue) -> NodePlan {
            NodePlan(Node(content: .ellipse(EllipseShape(center: Point(x: 10, y: 10), radiusX: 4, radiusY: 4)),
                          style: NodeStyle(fill: .solid(.white)),
                          animations: [Animation(property: AnimatableProperty(rawValue: property)!,
                                                 kind: .basic(from: from, to: to, curve: .spring(response: 0.3, dampingFraction: 0.2),
                                                              duration: Rational(1)))]))
        }
        let fade = plan("opacity", from: .number(0), to: .number(1))
        #expect(fade.movingSnapshot != nil)
        let context = EvaluationContext(time: 0.12, language: "en", fallback: "en", includeParticles: true)
        #expect(context.evaluate(fade).opacity == 1, "overshoot clamped")
        #expect(context.evaluate(fade) == rebuilt(fade, at: 0.12))
        for property in ["fill.color", "stroke.width", "blur", "trim.to"] {
            let value: AnimationValue = property == "fill.color" ? .color(.black) : .number(0.5)
            #expect(plan(property, from: value, to: value).movingSnapshot == nil, "\(property)")
        }
    }
}
