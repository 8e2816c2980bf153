import DioramaDocument
import Foundation

/// A projective map of the plane, (x, y) ↦ ((m00·x + m01·y + m02) / w, (m10·x + m11·y + m12) / w) with
/// w = m20·x + m21·y + m22: what SwiftUI's `rotation3DEffect` does to a view's drawing.
public struct Projection3D: Sendable, Equatable {
    /// Row-major 3 × 3.
    public var m: [Double]

    public init(_ m: [Double]) {
        precondition(m.count == 9)
        self.m = m
    }

    public static let identity = Projection3D([1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The smallest w (the eye's distance, as a fraction of the viewing distance) a point keeps and is drawn: what
    /// turns past it lies near or behind the eye, where a projection shows nothing sensible (SwiftUI shows
    /// nothing there either), so it is cut away.
    public static let nearest = 0.05

    /// SwiftUI's rotation3DEffect for a view of frame `frame` (in the node's own coordinates). As SwiftUI builds it
    /// (OpenSwiftUI's `_Rotation3DEffect.Data`, which matches Core Animation's: translate by the anchor, rotate about
    /// the axis, perspective m34 = −1 / d with d = max(width, height) / perspective, translate back): a point p of the
    /// page (z = 0) becomes q = R·(p − a) with a = (anchor of the frame, anchorZ), R Rodrigues' rotation about the
    /// normalized axis (x to the right, y down, z towards the viewer: 45° about y takes the right side away, as
    /// SwiftUI's documentation shows, and a turn about z is clockwise, as `rotation` is), and lands at (q.x, q.y) / (1 − q.z / d) + (a.x, a.y).
    /// Nil when the axis has no direction or a value is not finite.
    public init?(_ rotation: Rotation3D, frame: Rect) {
        let (ax, ay, az) = rotation.axis
        let length = (ax * ax + ay * ay + az * az).squareRoot()
        guard length > 0, length.isFinite, rotation.angle.isFinite else { return nil }
        let (x, y, z) = (ax / length, ay / length, az / length)
        let radians = rotation.angle * .pi / 180
        let (s, c) = (sin(radians), cos(radians))
        let t = 1 - c
        // Rodrigues: R = c·I + s·[k]× + (1 − c)·k·kᵀ.
        let r = [t * x * x + c, t * x * y - s * z, t * x * z + s * y,
                 t * x * y + s * z, t * y * y + c, t * y * z - s * x,
                 t * x * z - s * y, t * y * z + s * x, t * z * z + c]
        let anchor = frame.point(at: rotation.anchor)
        let (px, py, pz) = (anchor.x, anchor.y, rotation.anchorZ)
        // 1 / d, with no division by a zero perspective: 0 is no perspective at all.
        let side = max(frame.width, frame.height)
        let inverseDistance = side > 0 ? rotation.perspective / side : 0
        // q = R·p + k with k = −R·a.
        let k = (0..<3).map { -(r[$0 * 3] * px + r[$0 * 3 + 1] * py + r[$0 * 3 + 2] * pz) }
        let w = [-r[6] * inverseDistance, -r[7] * inverseDistance, 1 - k[2] * inverseDistance]
        var m = [r[0] + px * w[0], r[1] + px * w[1], k[0] + px * w[2],
                 r[3] + py * w[0], r[4] + py * w[1], k[1] + py * w[2],
                 w[0], w[1], w[2]]
        guard m.allSatisfy(\.isFinite) else { return nil }
        // Exact zeros and ones where the turn is whole: a turn of 360° is the identity, bit for bit.
        for index in m.indices where abs(m[index]) < 1e-12 { m[index] = 0 }
        for index in [0, 4, 8] where abs(m[index] - 1) < 1e-12 { m[index] = 1 }
        self.m = m
    }

    /// The w of a point: 1 on the page, smaller nearer the eye, larger farther away.
    public func weight(of point: Point) -> Double { m[6] * point.x + m[7] * point.y + m[8] }

    /// Where `point` lands; nil when it lies nearer than `nearest` (or behind the eye).
    public func apply(to point: Point) -> Point? {
        let w = weight(of: point)
        guard w >= Self.nearest else { return nil }
        return Point(x: (m[0] * point.x + m[1] * point.y + m[2]) / w, y: (m[3] * point.x + m[4] * point.y + m[5]) / w)
    }

    /// The point that lands on `point`, when one in front of the eye does.
    public func inverseApply(to point: Point) -> Point? {
        guard let inverse = inverted else { return nil }
        let w = inverse[6] * point.x + inverse[7] * point.y + inverse[8]
        guard w != 0 else { return nil }
        let source = Point(x: (inverse[0] * point.x + inverse[1] * point.y + inverse[2]) / w,
                           y: (inverse[3] * point.x + inverse[4] * point.y + inverse[5]) / w)
        return weight(of: source) >= Self.nearest ? source : nil
    }

    /// The inverse matrix (row-major), nil when the map flattens the plane to a line (a page seen edge-on).
    public var inverted: [Double]? {
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let determinant = m[0] * c00 + m[1] * c01 + m[2] * c02
        // Relative to the entries' size: a page turned edge-on within rounding draws nothing.
        let size = m.reduce(0) { max($0, abs($1)) }
        guard determinant.isFinite, abs(determinant) > 1e-9 * size * size * size else { return nil }
        let inverse = [c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                       c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                       c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]]
        return inverse.map { $0 / determinant }
    }

    /// `rect`'s part at least `nearest` in front of the eye, as a polygon (up to five corners, in order); empty
    /// when none of it is.
    public func visiblePart(of rect: Rect) -> [Point] {
        let corners = [Point(x: rect.x, y: rect.y), Point(x: rect.x + rect.width, y: rect.y),
                       Point(x: rect.x + rect.width, y: rect.y + rect.height), Point(x: rect.x, y: rect.y + rect.height)]
        var kept: [Point] = []
        for index in corners.indices {
            let (a, b) = (corners[index], corners[(index + 1) % 4])
            let (wa, wb) = (weight(of: a) - Self.nearest, weight(of: b) - Self.nearest)
            if wa >= 0 { kept.append(a) }
            if (wa >= 0) != (wb >= 0) {
                let t = wa / (wa - wb)
                kept.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
            }
        }
        return kept
    }

    /// The box of where `rect`'s visible part lands (its projection is convex: the corners' box); nil when none
    /// of it is visible or it is seen edge-on.
    public func boundingBox(of rect: Rect) -> Rect? {
        guard inverted != nil else { return nil }
        let points = visiblePart(of: rect).compactMap { apply(to: $0) }
        guard let first = points.first else { return nil }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points.dropFirst() {
            (minX, minY) = (min(minX, point.x), min(minY, point.y))
            (maxX, maxY) = (max(maxX, point.x), max(maxY, point.y))
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
