// A node's clip shape (SwiftUI's `clipShape`) and anchors given in points.

/// The shape a node is clipped to, in the node's own coordinates, so it moves, turns and scales with
/// the node. Only what lies inside it (by the non-zero rule) is drawn.
public enum ClipShape: Sendable, Equatable {
    /// A rectangle, its corners rounded by `cornerRadius` points (0 for square ones).
    case rect(Rect, cornerRadius: Double)
    /// A rectangle whose ends are fully rounded: the corner radius is half its shorter side.
    case capsule(Rect)
    case circle(center: Point, radius: Double)
    case ellipse(center: Point, radiusX: Double, radiusY: Double)
    /// SVG path data, filled by the non-zero rule as path nodes are.
    case path(PathData)
    /// A shape that fills the node's `frame` (else its content's bounds), as SwiftUI's shapes fill the
    /// view they clip: a circle is the largest one centred in it. `cornerRadius` applies to `rect`.
    case fitted(FittedClipShape, cornerRadius: Double)

    /// The clip with a fitted shape placed in `frame`; other shapes are returned as they are.
    public func placed(in frame: Rect) -> ClipShape {
        guard case .fitted(let shape, let cornerRadius) = self else { return self }
        let center = frame.point(at: .center)
        switch shape {
        case .rect: return .rect(frame, cornerRadius: cornerRadius)
        case .capsule: return .capsule(frame)
        case .circle: return .circle(center: center, radius: min(abs(frame.width), abs(frame.height)) / 2)
        case .ellipse: return .ellipse(center: center, radiusX: abs(frame.width) / 2, radiusY: abs(frame.height) / 2)
        }
    }
}

/// The shapes a clip can take without geometry of its own (`"clipShape": "circle"`).
public enum FittedClipShape: String, Sendable, Equatable, CaseIterable {
    case rect, circle, ellipse, capsule
}
