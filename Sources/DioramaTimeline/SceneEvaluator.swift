import DioramaDocument
import Foundation

/// Turns (document, scene, time, language) into a `Snapshot`: a pure function of its inputs.
///
/// Everything that does not depend on time is prepared once in `init` (an evaluation plan per scene),
/// so a snapshot costs little more than evaluating the animations themselves.
///
/// Example:
/// ```swift
/// let evaluator = SceneEvaluator(document: document)
/// let snapshot = evaluator.snapshot(scene: 0, at: 12.5, language: "ja")
/// ```
public struct SceneEvaluator: Sendable {
    public let document: Document
    private var plans: [ScenePlan]

    public init(document: Document) {
        self.document = document
        plans = document.scenes.map { ScenePlan(scene: $0, canvas: document.canvas) }
    }

    /// One snapshot without keeping a plan; prefer an evaluator instance when evaluating many times.
    public static func snapshot(of document: Document, scene: Int, at time: Double, language: String? = nil) -> Snapshot {
        guard document.scenes.indices.contains(scene) else { return SceneEvaluator(document: document).snapshot(scene: scene, at: time) }
        let plan = ScenePlan(scene: document.scenes[scene], canvas: document.canvas)
        return evaluate(plan, document: document, at: time, language: language, includeParticles: true)
    }

    /// The scene at index `scene` at `time` seconds of scene time, with text in `language`
    /// (the document's default language when nil; missing variants fall back per `Languages`).
    /// `includeParticles: false` leaves emitters empty (for measuring, or drawing particles separately).
    /// An index outside the playlist gives an empty canvas.
    public func snapshot(scene: Int, at time: Double, language: String? = nil, includeParticles: Bool = true) -> Snapshot {
        guard plans.indices.contains(scene) else {
            return Snapshot(canvas: Size(width: document.canvas.width, height: document.canvas.height),
                            background: document.canvas.background, nodes: [])
        }
        return Self.evaluate(plans[scene], document: document, at: time, language: language, includeParticles: includeParticles)
    }

    /// This evaluator with the scene at `scene` planned with `taps` (as `Scene.taps` takes them): what the player
    /// draws once a node of the scene is tapped. Other scenes keep their plans.
    public func tapping(scene: Int, taps: VisitTaps) -> SceneEvaluator {
        guard plans.indices.contains(scene) else { return self }
        var copy = self
        var tapped = document.scenes[scene]
        tapped.taps = taps
        copy.plans[scene] = ScenePlan(scene: tapped, canvas: document.canvas)
        return copy
    }

    private static func evaluate(_ plan: ScenePlan, document: Document, at time: Double, language: String?,
                                 includeParticles: Bool) -> Snapshot {
        let context = EvaluationContext(time: time, language: language ?? document.languages.defaultLanguage,
                              fallback: document.languages.fallback, includeParticles: includeParticles)
        return Snapshot(canvas: Size(width: document.canvas.width, height: document.canvas.height),
                        background: plan.background,
                        nodes: plan.nodes.map { context.evaluate($0) })
    }
}

/// One evaluation's inputs, shared by every node of the tree.
struct EvaluationContext {
    let time: Double
    let language: String
    let fallback: String
    let includeParticles: Bool

    func evaluate(_ plan: NodePlan) -> NodeSnapshot {
        if let constant = plan.constantSnapshot { return constant }
        if var moving = plan.movingSnapshot {
            var motion = plan.style.motion
            for channel in plan.channels {
                if let number = channel.value(at: time).number { motion.apply(number, to: channel.property) }
            }
            moving.transform = Self.transform(plan.style, motion: motion, frame: plan.anchorFrame)
            // As `clamp` does.
            moving.opacity = min(1, max(0, motion.opacity))
            return moving
        }
        var style = plan.style
        var trackText: LocalizedString?
        for channel in plan.channels {
            let value = channel.value(at: time)
            if case .text(let text) = value { trackText = text; continue }
            Self.apply(value, to: channel.property, of: &style)
        }
        // Static values were range-checked by `diorama check`; only animated ones (springs overshoot) need it.
        if !plan.channels.isEmpty { Self.clamp(&style) }
        return snapshot(of: plan, style: style, text: trackText)
    }

    /// The node of `plan` drawn with `style`, its text (when it has any) replaced by `text`.
    func snapshot(of plan: NodePlan, style: NodeStyle, text trackText: LocalizedString?) -> NodeSnapshot {
        let content: SnapshotContent
        switch plan.content {
        case .group(let children):
            content = .group(children.map { evaluate($0) })
        case .rect(let rect):
            content = .shape(shape(.rect(rect, cornerRadius: style.cornerRadius), style))
        case .ellipse(let center, let radiusX, let radiusY):
            content = .shape(shape(.ellipse(center: center, radiusX: radiusX, radiusY: radiusY), style))
        case .path(let data):
            content = .shape(shape(.path(data), style))
        case .wave(let wave):
            content = .shape(shape(.path(Self.wavePath(wave, yOffset: style.yOffset)), style))
        case .text(let text):
            content = .text(textSnapshot(text, shown: trackText ?? text.text, style: style))
        case .emitter(let field):
            content = .particles(ParticlesSnapshot(shape: field.emitter.shape, blendMode: field.emitter.blendMode,
                                                   particles: includeParticles ? field.particles(at: time) : [],
                                                   texture: field.emitter.texture))
        case .image(var image):
            if var sprite = image.sprite {
                sprite.frame = sprite.frame(forValue: style.spriteFrame)
                image.sprite = sprite
            }
            content = .image(image)
        case .lottie(let lottie, let timing):
            content = .lottie(LottieSnapshot(path: lottie.path, rect: lottie.rect, frame: timing.frame(at: time),
                                             inPoint: lottie.animation.inPoint, animation: lottie.chosenAnimation))
        }
        let transform = Self.transform(style, frame: plan.anchorFrame)
        let drawn = NodeSnapshot(id: plan.id, transform: transform, bounds: plan.anchorFrame,
                                 opacity: style.opacity, hueRotation: style.hueRotation, blur: style.blur,
                                 shadow: style.shadow, mask: style.mask, content: content,
                                 clipShape: style.clipShape.map(Self.clipGeometry))
        // A turn of 0 (or of a whole turn) draws the node as it is, pixel for pixel.
        guard let rotation = style.rotation3D, let projection = Projection3D(rotation, frame: plan.anchorFrame),
              projection != .identity else { return drawn }
        var inner = drawn
        (inner.id, inner.transform) = (nil, .identity)
        return NodeSnapshot(id: plan.id, transform: transform, bounds: plan.anchorFrame, content: .projected(projection, inner))
    }

    private func shape(_ geometry: Geometry, _ style: NodeStyle) -> ShapeSnapshot {
        ShapeSnapshot(geometry: geometry, fill: style.fill, stroke: style.stroke, trimFrom: style.trimFrom, trimTo: style.trimTo)
    }

    /// Scale around the scale anchor, then rotation around the rotation anchor, then the offset
    /// (NodeStyle's order), composed in closed form: p' = R·(S·(p − As) + As − Ar) + Ar + offset.
    static func transform(_ style: NodeStyle, frame: Rect) -> Transform2D {
        transform(style, motion: style.motion, frame: frame)
    }

    /// What a moving leaf's animations change (see `NodePlan.movingSnapshot`).
    struct Motion {
        static let properties: Set<AnimatableProperty> = [.offsetX, .offsetY, .rotation, .scale, .scaleX, .scaleY, .opacity]

        var offset: Point
        var rotation: Double
        var scale: Point
        var opacity: Double

        /// Sets one of `properties` (`EvaluationContext.apply` sets them through here too).
        mutating func apply(_ number: Double, to property: AnimatableProperty) {
            switch property {
            case .offsetX: offset.x = number
            case .offsetY: offset.y = number
            case .rotation: rotation = number
            case .scale: scale = Point(x: number, y: number)
            case .scaleX: scale.x = number
            case .scaleY: scale.y = number
            case .opacity: opacity = number
            default: break
            }
        }
    }

    /// `style`'s anchors with `motion`'s offset, rotation and scale.
    static func transform(_ style: NodeStyle, motion: Motion, frame: Rect) -> Transform2D {
        let scaleAnchor = style.scaleAnchorPoint ?? frame.point(at: style.scaleAnchor)
        let rotationAnchor = style.rotationAnchorPoint ?? frame.point(at: style.rotationAnchor)
        let (sx, sy) = (motion.scale.x, motion.scale.y)
        let (sine, cosine): (Double, Double)
        if motion.rotation == 0 {
            (sine, cosine) = (0, 1)
        } else {
            let radians = motion.rotation * .pi / 180
            (sine, cosine) = (sin(radians), cos(radians))
        }
        let vx = scaleAnchor.x - sx * scaleAnchor.x - rotationAnchor.x
        let vy = scaleAnchor.y - sy * scaleAnchor.y - rotationAnchor.y
        return Transform2D(a: cosine * sx, b: sine * sx, c: -sine * sy, d: cosine * sy,
                               tx: cosine * vx - sine * vy + rotationAnchor.x + motion.offset.x,
                               ty: sine * vx + cosine * vy + rotationAnchor.y + motion.offset.y)
    }

    /// WaveShape's band: top edge from top-left to top-right through control points moved by ±yOffset × height.
    static func wavePath(_ wave: WaveShape, yOffset: Double) -> PathData {
        let r = wave.rect
        return PathData(commands: [
            .move(Point(x: r.x, y: r.y)),
            .cubic(control1: Point(x: r.x + wave.control1X * r.width, y: r.y + yOffset * r.height),
                   control2: Point(x: r.x + wave.control2X * r.width, y: r.y - yOffset * r.height),
                   to: Point(x: r.x + r.width, y: r.y)),
            .line(Point(x: r.x + r.width, y: r.y + r.height)),
            .line(Point(x: r.x, y: r.y + r.height)),
            .close,
        ])
    }

    /// SwiftUI's default shadow colour: black at a third.
    private static let defaultShadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.33), radius: 0)

    static func apply(_ value: AnimationValue, to property: AnimatableProperty, of style: inout NodeStyle) {
        if let color = value.color {
            switch property {
            case .shadowColor: style.shadow = { var s = style.shadow ?? defaultShadow; s.color = color; return s }()
            case .strokeColor: style.stroke = { var s = style.stroke ?? Stroke(paint: .solid(.black)); s.paint = .solid(color); return s }()
            case .fillColor:
                // Only a solid fill has a colour to animate; gradients keep their stops.
                if style.fill == nil { style.fill = .solid(color) } else if case .solid = style.fill { style.fill = .solid(color) }
            default: break
            }
            return
        }
        guard let number = value.number else { return }
        switch property {
        case .offsetX, .offsetY, .rotation, .scale, .scaleX, .scaleY, .opacity: style.motion.apply(number, to: property)
        case .hueRotation: style.hueRotation = number
        case .blur: style.blur = number
        case .shadowRadius: style.shadow = { var s = style.shadow ?? defaultShadow; s.radius = number; return s }()
        case .shadowX: style.shadow = { var s = style.shadow ?? defaultShadow; s.x = number; return s }()
        case .shadowY: style.shadow = { var s = style.shadow ?? defaultShadow; s.y = number; return s }()
        case .cornerRadius: style.cornerRadius = number
        case .strokeWidth: style.stroke = { var s = style.stroke ?? Stroke(paint: .solid(.black)); s.width = number; return s }()
        case .dashPhase: style.stroke?.dashPhase = number
        case .trimFrom: style.trimFrom = number
        case .trimTo: style.trimTo = number
        case .yOffset: style.yOffset = number
        case .value: style.textValue = number
        case .reveal: style.reveal = number
        case .spriteFrame: style.spriteFrame = number
        case .rotation3DAngle: style.rotation3D?.angle = number
        case .clipX, .clipY, .clipWidth, .clipHeight, .clipCornerRadius, .clipCenterX, .clipCenterY, .clipRadius,
             .clipRadiusX, .clipRadiusY: style.clipShape = style.clipShape.map { applyClip(number, to: property, of: $0) }
        case .shadowColor, .strokeColor, .fillColor, .text: break
        }
    }

    /// Springs overshoot: keep every value in its meaningful range.
    static func clamp(_ style: inout NodeStyle) {
        style.opacity = min(1, max(0, style.opacity))
        style.blur = max(0, style.blur)
        style.cornerRadius = max(0, style.cornerRadius)
        style.trimFrom = min(1, max(0, style.trimFrom))
        style.trimTo = min(1, max(0, style.trimTo))
        style.reveal = min(1, max(0, style.reveal))
        if var shadow = style.shadow {
            shadow.radius = max(0, shadow.radius)
            shadow.color = clamped(shadow.color)
            style.shadow = shadow
        }
        if var stroke = style.stroke {
            stroke.width = max(0, stroke.width)
            if case .solid(let color) = stroke.paint { stroke.paint = .solid(clamped(color)) }
            style.stroke = stroke
        }
        if case .solid(let color) = style.fill { style.fill = .solid(clamped(color)) }
        if let clip = style.clipShape { style.clipShape = clampedClip(clip) }
    }

    private static func clamped(_ color: Color) -> Color {
        func unit(_ value: Double) -> Double { min(1, max(0, value)) }
        return Color(red: unit(color.red), green: unit(color.green), blue: unit(color.blue), alpha: unit(color.alpha))
    }
}

extension NodeStyle {
    /// The style's offset, rotation, scale and opacity, read and written together.
    var motion: EvaluationContext.Motion {
        get { EvaluationContext.Motion(offset: offset, rotation: rotation, scale: scale, opacity: opacity) }
        set { (offset, rotation, scale, opacity) = (newValue.offset, newValue.rotation, newValue.scale, newValue.opacity) }
    }
}
