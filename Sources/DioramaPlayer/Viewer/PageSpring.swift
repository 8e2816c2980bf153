import Foundation

/// A critically damped spring that brings the page offset back to rest, as SwiftUI's
/// `spring(response:dampingFraction: 1)`: x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ω·t), ω = 2π / response.
public struct PageSpring: Sendable, Equatable {
    /// Offset at the start of the motion, in points.
    public var startOffset: Double
    /// Velocity at the start, in points per second.
    public var startVelocity: Double
    /// Monotonic seconds when the motion starts.
    public var startTime: Double
    /// Seconds; smaller is snappier.
    public var response: Double

    public init(startOffset: Double, startVelocity: Double = 0, startTime: Double, response: Double = 0.35) {
        self.startOffset = startOffset
        self.startVelocity = startVelocity
        self.startTime = startTime
        self.response = response
    }

    /// The offset in points at monotonic `time` seconds.
    public func offset(at time: Double) -> Double {
        let t = max(0, time - startTime)
        let omega = 2 * Double.pi / response
        return (startOffset + (startVelocity + omega * startOffset) * t) * exp(-omega * t)
    }

    /// Whether the motion is within half a point of rest at `time` (and stays there).
    public func isSettled(at time: Double) -> Bool {
        let t = max(0, time - startTime)
        let omega = 2 * Double.pi / response
        // Past the peak of the (1 + ωt) term the envelope only shrinks, so the envelope bound is safe.
        let envelope = (abs(startOffset) + (abs(startVelocity) + omega * abs(startOffset)) * t) * exp(-omega * t)
        return t > 1 / omega && envelope < 0.5
    }
}
