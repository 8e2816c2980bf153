import DioramaDocument

extension TimingCurve {
    /// The curve's progress (0 at the start, 1 at the end; springs and some beziers overshoot)
    /// at `fraction` (0...1) of a segment that lasts `duration` seconds.
    ///
    /// Bezier curves depend on the fraction only. Springs run on the segment's own clock, `fraction × duration`
    /// seconds after release, and land exactly on 1 at the end of the segment (within 0.1 % of it anyway
    /// when the duration is the spring's settling duration), so a finished animation holds its exact target.
    public func progress(at fraction: Double, duration: Double) -> Double {
        if fraction >= 1 { return 1 }
        if fraction <= 0 { return 0 }
        switch self {
        case .linear: return fraction
        case .easeIn: return CubicBezier.easeIn.progress(at: fraction)
        case .easeOut: return CubicBezier.easeOut.progress(at: fraction)
        case .easeInOut: return CubicBezier.easeInOut.progress(at: fraction)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2).progress(at: fraction)
        case .spring, .interpolatingSpring:
            return SpringMotion(self).map { $0.progress(at: fraction * duration) } ?? fraction
        }
    }
}

/// A timing curve ready to evaluate many times: bezier coefficients and spring constants computed once.
struct PreparedCurve: Sendable {
    private enum Shape: Sendable {
        case linear
        case bezier(CubicBezier)
        case spring(SpringMotion)
    }

    private let shape: Shape

    init(_ curve: TimingCurve) {
        switch curve {
        case .linear: shape = .linear
        case .easeIn: shape = .bezier(.easeIn)
        case .easeOut: shape = .bezier(.easeOut)
        case .easeInOut: shape = .bezier(.easeInOut)
        case .cubicBezier(let x1, let y1, let x2, let y2): shape = .bezier(CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2))
        case .spring, .interpolatingSpring: shape = SpringMotion(curve).map { .spring($0) } ?? .linear
        }
    }

    /// Same as `TimingCurve.progress(at:duration:)`.
    func progress(at fraction: Double, duration: Double) -> Double {
        if fraction >= 1 { return 1 }
        if fraction <= 0 { return 0 }
        switch shape {
        case .linear: return fraction
        case .bezier(let bezier): return bezier.progress(at: fraction)
        case .spring(let spring): return spring.progress(at: fraction * duration)
        }
    }
}
