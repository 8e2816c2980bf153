import DioramaDocument

/// Everything about a scene that does not depend on time, computed once: nodes sorted by zIndex,
/// anchor frames, static geometry, and each node's animations grouped into per-property channels.
struct ScenePlan: Sendable {
    let background: Paint
    let nodes: [NodePlan]

    init(scene: Scene, canvas: Canvas) {
        background = scene.background ?? canvas.background
        // Relative starts resolved once, the same way the cue schedule resolves them.
        nodes = NodePlan.sorted(scene.resolvingStarts().nodes.map { NodePlan($0) })
    }
}

// A class, not a struct: evaluation reads every node's plan every frame, and copying a plan (its style, channels and
// two snapshots) retained a dozen references; a plan is shared, and immutable once made.
final class NodePlan: Sendable {
    enum Content: Sendable {
        case group([NodePlan])
        case rect(Rect)
        case ellipse(center: Point, radiusX: Double, radiusY: Double)
        /// Polygons, lines and SVG paths: geometry that no property animates.
        case path(PathData)
        case wave(WaveShape)
        case text(TextContent)
        case emitter(ParticleField)
        case image(ImageContent)
        case lottie(LottieContent, LottieTiming)
    }

    let id: String?
    let style: NodeStyle
    let zIndex: Double
    let content: Content
    /// `frame`, else the content's untransformed bounds: what named anchors and gradients refer to.
    let anchorFrame: Rect
    /// `anchorFrame` cut to the clip shape as written: what this node adds to its group's content bounds.
    let visibleFrame: Rect
    /// In the fixed order of `AnimatableProperty.allCases`, so `scale` is applied before `scale.x` / `scale.y`.
    let channels: [PropertyChannel]
    /// The node's snapshot when nothing in its subtree depends on time or language (no animation, emitter or
    /// text): evaluated once here, then copied. Scenery of hundreds of static shapes costs next to nothing.
    let constantSnapshot: NodeSnapshot?
    /// For a leaf whose animations only move, turn, scale or fade it (the falling circles of a rain): its snapshot
    /// with the static style, clamped as evaluation clamps it, whose transform and opacity are all an evaluation
    /// replaces. Copying it costs a fraction of building the node again from its style.
    let movingSnapshot: NodeSnapshot?

    private init(id: String?, style: NodeStyle, zIndex: Double, content: Content, anchorFrame: Rect, visibleFrame: Rect,
                 channels: [PropertyChannel], constantSnapshot: NodeSnapshot?, movingSnapshot: NodeSnapshot?) {
        (self.id, self.style, self.zIndex, self.content) = (id, style, zIndex, content)
        (self.anchorFrame, self.visibleFrame, self.channels) = (anchorFrame, visibleFrame, channels)
        (self.constantSnapshot, self.movingSnapshot) = (constantSnapshot, movingSnapshot)
    }

    /// The plan of `node`: its parts, then its snapshots, evaluated from a draft of the plan without them.
    convenience init(_ node: Node) {
        let draft = NodePlan(draft: node)
        var constant: NodeSnapshot?, moving: NodeSnapshot?
        if draft.isConstant {
            constant = EvaluationContext(time: 0, language: "", fallback: "", includeParticles: false).evaluate(draft)
        } else if draft.isMovingLeaf {
            var still = draft.style
            EvaluationContext.clamp(&still)
            moving = EvaluationContext(time: 0, language: "", fallback: "", includeParticles: false)
                .snapshot(of: draft, style: still, text: nil)
        }
        self.init(id: draft.id, style: draft.style, zIndex: draft.zIndex, content: draft.content, anchorFrame: draft.anchorFrame,
                  visibleFrame: draft.visibleFrame, channels: draft.channels, constantSnapshot: constant, movingSnapshot: moving)
    }

    /// The plan without its snapshots. (Called by label: `NodePlan.init` as a function would be ambiguous.)
    private init(draft node: Node) {
        constantSnapshot = nil
        movingSnapshot = nil
        id = node.id
        zIndex = node.zIndex
        var childFrames: [Rect] = []
        switch node.content {
        case .group(let group):
            let children = group.children.map { NodePlan($0) }
            childFrames = children.map(\.visibleFrame)
            content = .group(NodePlan.sorted(children))
        case .rect(let shape): content = .rect(shape.rect)
        case .ellipse(let e): content = .ellipse(center: e.center, radiusX: e.radiusX, radiusY: e.radiusY)
        case .polygon(let points): content = .path(PathData(polyline: points, closed: true))
        case .line(let points): content = .path(PathData(polyline: points, closed: false))
        case .path(let data): content = .path(data)
        case .wave(let wave): content = .wave(wave)
        case .text(let text): content = .text(text)
        case .emitter(let emitter): content = .emitter(ParticleField(emitter))
        case .image(let image): content = .image(image)
        case .lottie(let lottie): content = .lottie(lottie, LottieTiming(lottie))
        }
        let anchorFrame = node.frame ?? ContentBounds.of(node.content, children: childFrames)
        self.anchorFrame = anchorFrame
        // A fitted clip takes its place in the frame once, here; its animations then start from that geometry.
        var style = node.style
        style.clipShape = style.clipShape?.placed(in: anchorFrame)
        self.style = style
        if let clip = style.clipShape {
            visibleFrame = ContentBounds.of(anchorFrame, clippedTo: clip)
        } else {
            visibleFrame = anchorFrame
        }
        channels = AnimatableProperty.allCases.compactMap { property in
            let samplers = node.animations.filter { $0.property == property }.map(AnimationSampler.init)
            return samplers.isEmpty ? nil : PropertyChannel(property: property, samplers: samplers)
        }
    }

    private var isMovingLeaf: Bool {
        // Its opacity belongs to the drawing the projection turns, not to the node that places it.
        guard style.rotation3D == nil else { return false }
        switch content {
        case .rect, .ellipse, .path, .wave, .image:
            return channels.allSatisfy { EvaluationContext.Motion.properties.contains($0.property) }
        case .group, .text, .emitter, .lottie:
            return false
        }
    }

    private var isConstant: Bool {
        guard channels.isEmpty else { return false }
        switch content {
        case .group(let children): return children.allSatisfy { $0.constantSnapshot != nil }
        case .text, .emitter, .lottie: return false
        case .rect, .ellipse, .path, .wave, .image: return true
        }
    }

    /// Ascending zIndex, file order among equals.
    static func sorted(_ nodes: [NodePlan]) -> [NodePlan] {
        nodes.enumerated().sorted { lhs, rhs in
            lhs.element.zIndex != rhs.element.zIndex ? lhs.element.zIndex < rhs.element.zIndex : lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// The animations of one property of one node, in file order.
struct PropertyChannel: Sendable {
    let property: AnimatableProperty
    let samplers: [AnimationSampler]

    /// The later animation in the list wins from its start (its delay) on; before any has started, the first
    /// one holds its first value. One `"from": "current"` starts from what the ones before it give at its start.
    func value(at time: Double) -> AnimationValue { value(at: time, among: samplers.count) }

    private func value(at time: Double, among count: Int) -> AnimationValue {
        // By index: a copy of a sampler retains its tracks.
        var active = 0
        for index in 1..<max(count, 1) where samplers[index].startTime <= time {
            active = index
        }
        guard samplers[active].fromCurrent != nil else { return samplers[active].value(at: time) }
        return samplers[active].value(at: time, from: active > 0 ? value(at: samplers[active].startTime, among: active) : nil)
    }
}

extension PathData {
    init(polyline points: [Point], closed: Bool) {
        var commands: [Command] = []
        commands.reserveCapacity(points.count + 1)
        for (index, point) in points.enumerated() {
            commands.append(index == 0 ? .move(point) : .line(point))
        }
        if closed, !points.isEmpty { commands.append(.close) }
        self.init(commands: commands)
    }
}
