import DioramaDocument
import Foundation

/// A scene fully resolved at one time: every node's transform, paint, opacity, effects and
/// particles, ready to draw. Produced by `SceneEvaluator`, consumed by the renderer.
/// The same document, scene, time and language give an equal snapshot, bit for bit.
public struct Snapshot: Sendable, Equatable {
    /// The canvas coordinate space, in points.
    public var canvas: Size
    public var background: Paint
    /// Top-level nodes in drawing order (zIndex already applied).
    public var nodes: [NodeSnapshot]

    public init(canvas: Size, background: Paint, nodes: [NodeSnapshot]) {
        self.canvas = canvas
        self.background = background
        self.nodes = nodes
    }
}

/// One node at one time.
public struct NodeSnapshot: Sendable, Equatable {
    public var id: String?
    /// Maps the node's own coordinates to its parent's (scale, rotation and offset already composed).
    public var transform: Transform2D
    /// The node's anchor frame in its own coordinates: gradients' unit points refer to it.
    public var bounds: Rect
    /// This node's own opacity, 0...1 (the renderer multiplies down the tree by drawing layers).
    public var opacity: Double
    /// Degrees.
    public var hueRotation: Double
    /// Points, in the node's own coordinates.
    public var blur: Double
    public var shadow: Shadow?
    /// A paint whose alpha masks the node's layer; its unit points refer to `bounds`.
    public var mask: Paint?
    public var content: SnapshotContent
    /// Only what lies inside this outline (non-zero rule, in the node's own coordinates) is drawn; it applies
    /// after blur and before mask and shadow.
    public var clipShape: Geometry?

    public init(id: String? = nil, transform: Transform2D = .identity, bounds: Rect, opacity: Double = 1,
                hueRotation: Double = 0, blur: Double = 0, shadow: Shadow? = nil, mask: Paint? = nil,
                content: SnapshotContent, clipShape: Geometry? = nil) {
        self.id = id
        self.transform = transform
        self.bounds = bounds
        self.opacity = opacity
        self.hueRotation = hueRotation
        self.blur = blur
        self.shadow = shadow
        self.mask = mask
        self.content = content
        self.clipShape = clipShape
    }

    /// True when the node must be drawn as one offscreen layer (opacity, effects or a mask apply to it as a whole).
    public var needsLayer: Bool {
        opacity < 1 || hueRotation != 0 || blur > 0 || shadow != nil || mask != nil
    }
}

public enum SnapshotContent: Sendable, Equatable {
    /// Children in drawing order.
    case group([NodeSnapshot])
    case shape(ShapeSnapshot)
    case text(TextSnapshot)
    case particles(ParticlesSnapshot)
    case image(ImageContent)
    case lottie(LottieSnapshot)
    /// A whole scene drawn as one page, as a story viewer shows it (the player's pages, `FrameComposer`): its
    /// background fills its canvas, its nodes are drawn within it, and nothing outside the canvas shows. A renderer
    /// may keep the page's picture from frame to frame (by the node's id) and only move it, as SwiftUI's
    /// `drawingGroup` draws a view offscreen once and composites it: a page that slides, fades or holds still costs
    /// a copy of its pixels, not a drawing of its scene.
    case page(Snapshot)
    /// A node's drawing (the inner node, with its opacity, effects and content, placed by no transform of its own)
    /// mapped through a projective transform of the node's own coordinates: SwiftUI's `rotation3DEffect`. The outer
    /// node's transform then places the result, and its id names it.
    indirect case projected(Projection3D, NodeSnapshot)
}

/// Outline geometry in the node's own coordinates.
public enum Geometry: Sendable, Equatable {
    case rect(Rect, cornerRadius: Double)
    case ellipse(center: Point, radiusX: Double, radiusY: Double)
    /// Closed or open paths (polygons, waves and lines are resolved into paths).
    case path(PathData)
}

public struct ShapeSnapshot: Sendable, Equatable {
    public var geometry: Geometry
    public var fill: Paint?
    public var stroke: Stroke?
    /// The visible fraction of the outline (0...1), like SwiftUI's `.trim(from:to:)`; applies to the stroke
    /// and, when it is not the whole outline, to the fill as well (the trimmed path is filled).
    public var trimFrom: Double
    public var trimTo: Double

    public init(geometry: Geometry, fill: Paint?, stroke: Stroke?, trimFrom: Double = 0, trimTo: Double = 1) {
        self.geometry = geometry
        self.fill = fill
        self.stroke = stroke
        self.trimFrom = trimFrom
        self.trimTo = trimTo
    }
}

public struct TextSnapshot: Sendable, Equatable {
    /// Already resolved for the snapshot's language.
    public var text: String
    public var position: Point
    public var alignment: UnitPoint
    public var font: Font
    public var paint: Paint
    /// How many leading characters (grapheme clusters) are drawn, for a typewriter; nil draws them all.
    /// The text is laid out whole, so the hidden rest keeps its space.
    public var visibleCharacters: Int?

    public init(text: String, position: Point, alignment: UnitPoint, font: Font, paint: Paint, visibleCharacters: Int? = nil) {
        self.text = text
        self.position = position
        self.alignment = alignment
        self.font = font
        self.paint = paint
        self.visibleCharacters = visibleCharacters
    }
}

public struct ParticlesSnapshot: Sendable, Equatable {
    public var shape: ParticleShape
    public var blendMode: BlendMode
    /// Live particles, oldest first.
    public var particles: [Particle]
    /// Drawn in place of `shape` (but for particles with a shape of their own), when present.
    public var texture: ParticleTexture?

    public init(shape: ParticleShape, blendMode: BlendMode, particles: [Particle], texture: ParticleTexture? = nil) {
        self.shape = shape
        self.blendMode = blendMode
        self.particles = particles
        self.texture = texture
    }
}

public struct Particle: Sendable, Equatable {
    public var position: Point
    /// Points.
    public var radius: Double
    /// Degrees.
    public var rotation: Double
    /// 0...1.
    public var alpha: Double
    public var color: Color
    /// 0...1: the height of the particle's shape, across its rotation, as a fraction of its width's (1 but while it
    /// flutters).
    public var squash: Double
    /// Its own shape (a splash's droplet is a circle), or nil for its emitter's.
    public var shape: ParticleShape?

    public init(position: Point, radius: Double, rotation: Double, alpha: Double, color: Color, squash: Double = 1,
                shape: ParticleShape? = nil) {
        self.position = position
        self.radius = radius
        self.rotation = rotation
        self.alpha = alpha
        self.color = color
        self.squash = squash
        self.shape = shape
    }
}

/// A 2-D affine transform in cairo's convention: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct Transform2D: Sendable, Equatable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(x: Double, y: Double) -> Transform2D {
        Transform2D(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(x: Double, y: Double) -> Transform2D {
        Transform2D(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Clockwise on screen (y grows downward) by `degrees`.
    public static func rotation(degrees: Double) -> Transform2D {
        let radians = degrees * .pi / 180
        let (sine, cosine) = (sin(radians), cos(radians))
        return Transform2D(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// `self` applied first, then `other`.
    public func concatenating(_ other: Transform2D) -> Transform2D {
        Transform2D(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty
        )
    }

    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }
}
