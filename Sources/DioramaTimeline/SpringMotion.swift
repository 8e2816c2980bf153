import DioramaDocument
import Foundation

/// A damped harmonic oscillator released from rest at 0 and pulled towards 1, in closed form:
/// x'' = −ω²·(x − 1) − 2ζω·x', x(0) = 0, x'(0) = 0.
///
/// Example: `SpringMotion(omega: 2 * .pi, dampingRatio: 0.5).progress(at: 0.25)` (seconds).
/// Under-damped (ζ < 1) overshoots and rings, critically damped (ζ = 1) and over-damped (ζ > 1) do not.
public struct SpringMotion: Sendable, Equatable {
    /// Natural angular frequency, radians per second.
    public let omega: Double
    /// Damping ratio ζ (0 undamped, 1 critical).
    public let dampingRatio: Double

    public init(omega: Double, dampingRatio: Double) {
        self.omega = omega
        self.dampingRatio = dampingRatio
    }

    /// The spring of a timing curve; nil for bezier curves.
    public init?(_ curve: TimingCurve) {
        guard let (omega, zeta) = curve.springParameters else { return nil }
        self.init(omega: omega, dampingRatio: zeta)
    }

    /// Position at `time` seconds after release: 0 at release, tending to 1.
    public func progress(at time: Double) -> Double {
        guard time > 0, omega > 0, omega.isFinite else { return time > 0 && omega.isInfinite ? 1 : 0 }
        let zeta = max(0, dampingRatio)
        let decay = zeta * omega
        // Displacement from the target is −e^(−ζωt)·(C(t) + ζω·S(t)), with C and S the cosine-like and
        // sine-like solutions; S is written as sin(ω_d·t)/ω_d (or sinh) so that ζ near 1 stays exact.
        if zeta < 1 {
            let damped = omega * (1 - zeta * zeta).squareRoot()
            let angle = damped * time
            let envelope = exp(-decay * time)
            let sineOverFrequency = angle == 0 ? time : sin(angle) / damped
            return 1 - envelope * (cos(angle) + decay * sineOverFrequency)
        } else if zeta == 1 {
            return 1 - (1 + omega * time) * exp(-omega * time)
        } else {
            let spread = omega * (zeta * zeta - 1).squareRoot()
            let x = spread * time
            if x < 1 {
                let envelope = exp(-decay * time)
                let sinhOverSpread = x == 0 ? time : sinh(x) / spread
                return 1 - envelope * (cosh(x) + decay * sinhOverSpread)
            }
            // Separate exponentials: cosh and sinh alone would overflow for long times.
            let slow = exp((spread - decay) * time)
            let fast = exp(-(spread + decay) * time)
            return 1 - ((slow + fast) / 2 + decay * (slow - fast) / (2 * spread))
        }
    }
}
