import DioramaDocument

/// One animated property of one node at one time, as the snapshot applies it: the value a test asserts
/// (`diorama verify`'s "node N's property P is V at T") without decomposing the snapshot's composed transform.
public enum NodePropertyValues {
    /// The properties whose value is a number (colours, text and the clip shape's geometry are not read here).
    public static let numericProperties: [AnimatableProperty] = AnimatableProperty.allCases.filter { property in
        !property.isColor && property != .text && !property.rawValue.hasPrefix("clipShape.")
    }

    /// The ids of every node of `scene`, nested ones included (as cues name them), in document order.
    public static func nodeIDs(in scene: Scene) -> [String] {
        func ids(_ plans: [NodePlan]) -> [String] {
            plans.flatMap { plan -> [String] in
                var found = plan.id.map { [$0] } ?? []
                if case .group(let children) = plan.content { found += ids(children) }
                return found
            }
        }
        return ids(ScenePlan(scene: scene, canvas: Canvas(width: 1, height: 1, background: .solid(.black))).nodes)
    }

    /// The value of `property` of the node `node` of `scene` at `time` scene seconds: its static style, then its
    /// animations sampled and clamped exactly as `SceneEvaluator` does. Nil when no node has that id, or the
    /// property is not a number (`numericProperties`), or a text counter's `value` is not set.
    public static func value(of property: AnimatableProperty, node: String, in scene: Scene, at time: Double) -> Double? {
        guard numericProperties.contains(property) else { return nil }
        func find(_ plans: [NodePlan]) -> NodePlan? {
            for plan in plans {
                if plan.id == node { return plan }
                if case .group(let children) = plan.content, let found = find(children) { return found }
            }
            return nil
        }
        guard let plan = find(ScenePlan(scene: scene, canvas: Canvas(width: 1, height: 1, background: .solid(.black))).nodes) else { return nil }
        var style = plan.style
        for channel in plan.channels {
            EvaluationContext.apply(channel.value(at: time), to: channel.property, of: &style)
        }
        if !plan.channels.isEmpty { EvaluationContext.clamp(&style) }
        switch property {
        case .offsetX: return style.offset.x
        case .offsetY: return style.offset.y
        case .rotation: return style.rotation
        case .scale, .scaleX: return style.scale.x
        case .scaleY: return style.scale.y
        case .opacity: return style.opacity
        case .hueRotation: return style.hueRotation
        case .blur: return style.blur
        case .shadowRadius: return style.shadow?.radius ?? 0
        case .shadowX: return style.shadow?.x ?? 0
        case .shadowY: return style.shadow?.y ?? 0
        case .cornerRadius: return style.cornerRadius
        case .strokeWidth: return style.stroke?.width ?? 0
        case .dashPhase: return style.stroke?.dashPhase ?? 0
        case .trimFrom: return style.trimFrom
        case .trimTo: return style.trimTo
        case .yOffset: return style.yOffset
        case .value: return style.textValue
        case .reveal: return style.reveal
        default: return nil
        }
    }
}
