// Hand-built snapshots for renderer tests: small canvases, plain colours, one feature at a time.
import DioramaDocument
import DioramaTimeline

public enum RenderFixtures {
    public static let red = Color(red: 1, green: 0, blue: 0)
    public static let white = Color.white
    public static let black = Color.black

    /// A snapshot of a `width`×`height` canvas on a solid background.
    public static func snapshot(width: Double = 100, height: Double = 100, background: Color = .black,
                                _ nodes: [NodeSnapshot]) -> Snapshot {
        Snapshot(canvas: Size(width: width, height: height), background: .solid(background), nodes: nodes)
    }

    /// A filled rectangle node whose bounds are the rectangle itself.
    public static func rect(_ rect: Rect, fill: Paint = .solid(red), cornerRadius: Double = 0,
                            transform: Transform2D = .identity, opacity: Double = 1, blur: Double = 0,
                            hueRotation: Double = 0, shadow: Shadow? = nil, mask: Paint? = nil) -> NodeSnapshot {
        NodeSnapshot(transform: transform, bounds: rect, opacity: opacity, hueRotation: hueRotation, blur: blur,
                     shadow: shadow, mask: mask,
                     content: .shape(ShapeSnapshot(geometry: .rect(rect, cornerRadius: cornerRadius), fill: fill, stroke: nil)))
    }

    /// A circle stroked (not filled), trimmed to `trimFrom...trimTo` of its outline.
    public static func strokedCircle(center: Point, radius: Double, width: Double, color: Color = red,
                                     trimFrom: Double = 0, trimTo: Double = 1, dash: [Double] = [],
                                     dashPhase: Double = 0) -> NodeSnapshot {
        let bounds = Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
        let stroke = Stroke(paint: .solid(color), width: width, dash: dash, dashPhase: dashPhase, lineCap: .butt, lineJoin: .miter)
        return NodeSnapshot(bounds: bounds, content: .shape(ShapeSnapshot(
            geometry: .ellipse(center: center, radiusX: radius, radiusY: radius), fill: nil, stroke: stroke,
            trimFrom: trimFrom, trimTo: trimTo)))
    }

    /// A group of children with its own opacity and transform.
    public static func group(_ children: [NodeSnapshot], transform: Transform2D = .identity, opacity: Double = 1,
                             bounds: Rect = Rect(x: 0, y: 0, width: 100, height: 100)) -> NodeSnapshot {
        NodeSnapshot(transform: transform, bounds: bounds, opacity: opacity, content: .group(children))
    }

    /// Rotation by `degrees` (clockwise on screen) around `anchor`, in the node's parent space:
    /// translate the anchor to the origin, rotate, translate back, as SwiftUI's `rotationEffect(_:anchor:)`.
    public static func rotation(degrees: Double, around anchor: Point) -> Transform2D {
        Transform2D.translation(x: -anchor.x, y: -anchor.y)
            .concatenating(.rotation(degrees: degrees))
            .concatenating(.translation(x: anchor.x, y: anchor.y))
    }

    /// SwiftUI's easeInOut, cubic-bezier(0.42, 0, 0.58, 1), solved independently of the timeline module
    /// (bisection on x), so tests can predict where an animated node should be.
    public static func easeInOut(_ progress: Double) -> Double {
        func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
        }
        var low = 0.0, high = 1.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if bezier(mid, 0.42, 0.58) < progress { low = mid } else { high = mid }
        }
        return bezier((low + high) / 2, 0, 1)
    }

    /// Many small snowflake-like particles spread over a canvas, deterministic.
    public static func particles(count: Int, width: Double, height: Double, shape: ParticleShape = .circle,
                                 radius: Double = 3) -> NodeSnapshot {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let particles = (0..<count).map { _ in
            Particle(position: Point(x: next() * width, y: next() * height), radius: radius * (0.5 + next()),
                     rotation: next() * 360, alpha: 0.5 + 0.5 * next(), color: .white)
        }
        return NodeSnapshot(bounds: Rect(x: 0, y: 0, width: width, height: height),
                            content: .particles(ParticlesSnapshot(shape: shape, blendMode: .normal, particles: particles)))
    }
}
