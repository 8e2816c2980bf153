import DioramaDocument

/// A CSS / SwiftUI timing curve `cubic-bezier(x1, y1, x2, y2)` from (0, 0) to (1, 1):
/// for a fraction of time x it solves the curve's x(t) = x for t, then returns y(t).
///
/// Example: `CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1).progress(at: 0.25)` (ease-in-out at a quarter).
/// Accurate to better than 1e-9 in t, so y is accurate to 1e-7 for any control points in 0...1 on x.
public struct CubicBezier: Sendable, Equatable {
    public let x1: Double, y1: Double, x2: Double, y2: Double
    // Polynomial coefficients: x(t) = ((ax·t + bx)·t + cx)·t, likewise y.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        (self.x1, self.y1, self.x2, self.y2) = (x1, y1, x2, y2)
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    public static let easeIn = CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
    public static let easeOut = CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
    public static let easeInOut = CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)

    /// The curve's output (usually 0...1, may overshoot with y outside 0...1) at a fraction of time, clamped to 0...1.
    public func progress(at fraction: Double) -> Double {
        if fraction <= 0 { return 0 }
        if fraction >= 1 { return 1 }
        return sampleY(solveT(forX: fraction))
    }

    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func derivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The parameter t in 0...1 whose x(t) is `x`: Newton's method, and bisection where the slope is too flat for it.
    func solveT(forX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let slope = derivativeX(t)
            guard abs(slope) > 1e-7 else { break }
            let step = (sampleX(t) - x) / slope
            t -= step
            guard t >= 0, t <= 1 else { break }
            if abs(step) < 1e-12 { return t }
        }
        // x(t) is monotonic on 0...1 when x1 and x2 lie in 0...1, so bisection always converges. It narrows t itself
        // (not x's error): where the curve is vertical, a tiny error in x hides a large one in t.
        var low = 0.0, high = 1.0
        while high - low > 1e-14 {
            let middle = (low + high) / 2
            if sampleX(middle) < x { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
