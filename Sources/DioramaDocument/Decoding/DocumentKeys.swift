/// The keys each object of scenes.json accepts. The schema (docs/scenes.schema.json) and docs/FORMAT.md
/// list the same keys; tests keep the three in step.
enum DocumentKeys {
    static let document = ["$schema", "canvas", "languages", "sounds", "scenes", "components", "loudness"]
    static let canvas = ["width", "height", "background"]
    static let languages = ["default", "fallback", "available", "chrome"]
    static let sound = ["path", "gain", "leadingSilence", "vary"]
    static let soundVariation = ["gain", "pitch"]
    static let scene = ["id", "title", "duration", "background", "ambience", "cues", "nodes", "markers"]
    static let ambience = ["sound", "gain", "fadeIn", "fadeOut", "start"]
    static let cue = ["sound", "at", "node", "animation", "on", "offset", "gain", "pan", "pitch", "marker", "id", "loop", "until", "fadeOut", "duck", "stop"]
        + ["tap", "nth"]
        + ["every", "count"]
    /// A node's `"tap"`.
    static let tap = ["auto"]
    static let cueKeyframeEvent = ["keyframe"]
    /// A cue's `"on"` when its `"node"` is a Lottie node.
    static let lottieEvent = ["marker", "frame"]
    static let component = ["parameters", "node"]
    static let componentParameter = ["type", "default"]
    static let parameterReference = ["param", "times", "plus", "of"]
    /// A node's `"forEach"`: how many copies, and the index's name.
    static let forEach = ["count", "index"]
    /// What a cue names its moment with; an `until` or a `start` object takes the same keys, plus `offset`.
    static let trigger = ["at", "node", "animation", "on", "marker"] + ["tap", "nth"]
    static let moment = trigger + ["offset"]
    /// A stop cue: which cue, when, and how fast.
    static let stopCue = ["stop"] + moment + ["fadeOut"]
    static let duck = ["db", "attack", "release"]

    /// Keys every node accepts: identity, SwiftUI's modifiers, and animations.
    static let nodeCommon = ["type", "id", "offset", "rotation", "anchor", "scale", "scaleAnchor", "opacity",
                             "hueRotation", "blur", "shadow", "mask", "zIndex", "frame", "animations"]
        + ["clipShape", "anchorPoint", "scaleAnchorPoint"]
        + ["tap"]
        + ["forEach"]
        + ["rotation3D"]
    /// Keys of nodes that draw an outline: rect, circle, ellipse, polygon, path, wave, line.
    static let shapeStyle = ["fill", "stroke", "trim"]

    /// Per node type, the keys beyond `nodeCommon`.
    static let nodeTypes: [(type: String, keys: [String])] = [
        ("group", ["children"]),
        ("rect", ["x", "y", "width", "height", "cornerRadius"] + shapeStyle),
        ("circle", ["cx", "cy", "r"] + shapeStyle),
        ("ellipse", ["cx", "cy", "rx", "ry"] + shapeStyle),
        ("polygon", ["points"] + shapeStyle),
        ("path", ["d"] + shapeStyle),
        ("wave", ["x", "y", "width", "height", "yOffset", "control1X", "control2X"] + shapeStyle),
        ("line", ["points"] + shapeStyle),
        ("text", ["text", "x", "y", "alignment", "font", "fill", "value", "format", "reveal"]),
        ("emitter", ["particles"]),
        ("image", ["path", "x", "y", "width", "height", "element", "sprite"]),
        ("component", ["component", "mirror", "parameters"]),
        ("lottie", ["path", "x", "y", "width", "height", "delay", "speed", "segment", "repeat", "autoreverses", "after", "until", "animation"]),
    ]

    static let offset = ["x", "y"]
    static let scale = ["x", "y"]
    static let frame = ["x", "y", "width", "height"]
    static let trim = ["from", "to"]
    static let shadow = ["color", "radius", "x", "y"]
    static let stroke = ["paint", "width", "dash", "dashPhase", "lineCap", "lineJoin"]
    static let font = ["family", "size", "weight"]
    static let numberFormat = ["fractionLength", "rounding", "grouping"]
    static let particles = ["seed", "birthRate", "lifetime", "lifetimeRange", "position", "positionRange", "angle",
                            "angleRange", "speed", "speedRange", "acceleration", "size", "scale", "scaleRange",
                            "scaleSpeed", "rotation", "rotationRange", "spin", "alpha", "alphaRange", "alphaSpeed", "color",
                            "colors", "colorRamp", "alphaRamp", "scaleRamp", "shape", "blendMode", "sway", "flutter",
                            "prewarm", "start", "duration", "burst", "splash", "texture"]
    static let particleTexture = ["path", "element"]
    static let splash = ["count", "lifetime", "speed", "spread", "gravity", "size", "color"]
    static let vector = ["x", "y"]
    static let rotation3D = ["angle", "axis", "anchor", "anchorZ", "perspective"]
    static let axis = ["x", "y", "z"]
    static let anchorPoint = ["x", "y"]
    /// Per clip shape type, its keys (each object also has `type`).
    static let clipShapes: [(type: String, keys: [String])] = [
        ("rect", ["x", "y", "width", "height", "cornerRadius"]),
        ("circle", ["cx", "cy", "r"]),
        ("ellipse", ["cx", "cy", "rx", "ry"]),
        ("capsule", ["x", "y", "width", "height"]),
        ("path", ["d"]),
    ]
    static let sway = ["amplitude", "frequency"]
    static let sprite = ["columns", "rows", "count", "frame"]

    static let paintKinds = ["linear", "radial", "angular"]
    static let linearGradient = ["stops", "colors", "start", "end"]
    static let radialGradient = ["stops", "colors", "center", "startRadius", "endRadius"]
    static let angularGradient = ["stops", "colors", "center", "startAngle", "endAngle"]
    static let gradientStop = ["color", "location"]

    static let animation = ["id", "property", "from", "to", "curve", "duration", "delay", "speed", "repeat",
                            "autoreverses", "keyframes", "after"] + ["by"]
    /// What an animation starts after: one kind of moment per object, named by its keys.
    static let after = ["node", "animation", "on", "marker"] + ["tap", "nth"]
    static let keyframe = ["time", "value", "curve", "hold"]
    static let curveKinds = ["cubicBezier", "spring", "interpolatingSpring"]
    static let spring = ["response", "dampingFraction"]
    static let interpolatingSpring = ["mass", "stiffness", "damping"]

    static func keys(ofNodeType type: String) -> [String] {
        keysByNodeType[type] ?? nodeCommon
    }

    /// Keys that some node type accepts but `type` does not, with the types that accept them.
    static func foreignKeys(forNodeType type: String) -> [(key: String, owner: String)] {
        foreignKeysByNodeType[type] ?? []
    }

    // Computed once: every node asks.
    private static let keysByNodeType: [String: [String]] = Dictionary(uniqueKeysWithValues: nodeTypes.map { ($0.type, nodeCommon + $0.keys) })
    private static let foreignKeysByNodeType: [String: [(key: String, owner: String)]] =
        Dictionary(uniqueKeysWithValues: nodeTypes.map { ($0.type, computeForeignKeys(forNodeType: $0.type)) })

    private static func computeForeignKeys(forNodeType type: String) -> [(key: String, owner: String)] {
        let own = Set(nodeCommon + (nodeTypes.first { $0.type == type }?.keys ?? []))
        var owners: [String: [String]] = [:]
        var order: [String] = []
        for (other, keys) in nodeTypes where other != type {
            for key in keys where !own.contains(key) {
                if owners[key] == nil { order.append(key) }
                owners[key, default: []].append(other)
            }
        }
        return order.map { key in (key, "\(DocumentDecoder.list(owners[key]!, conjunction: "and")) nodes") }
    }
}
