/// The master stage: a linked-stereo peak limiter followed by a soft-knee clipper.
///
/// Below `threshold` the signal passes bit-exact (gain is exactly 1). Louder peaks pull the gain
/// down over `attack` and let it recover over `release`; what the attack lets through is bent
/// smoothly by a tanh-shaped knee that approaches `ceiling` and never reaches it, so the output
/// never exceeds the ceiling and never clips harshly. No look-ahead, so no added latency.
public struct SoftLimiter: Sendable {
    /// Linear level where limiting starts (default -1 dBFS).
    public let threshold: Float
    /// Linear level the output never exceeds (default -0.1 dBFS).
    public let ceiling: Float
    private let attackStep: Float
    private let releaseStep: Float
    private var gain: Float = 1

    /// - Parameters: times in frames: `attackFrames` (default 2 ms at 48 kHz),
    ///   `releaseFrames` (default 150 ms at 48 kHz).
    public init(threshold: Float = 0.891, ceiling: Float = 0.9886, attackFrames: Int = 96, releaseFrames: Int = 7200) {
        precondition(threshold > 0 && threshold < ceiling && ceiling <= 1)
        self.threshold = threshold
        self.ceiling = ceiling
        // First-order smoothing coefficients, 1/time (1 - e^(-1/t) to within 1/t²).
        self.attackStep = 1 / Float(max(attackFrames, 1))
        self.releaseStep = 1 / Float(max(releaseFrames, 1))
    }

    /// The current gain reduction (1 = none).
    public var currentGain: Float { gain }

    /// Limits interleaved stereo samples in place.
    public mutating func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        let threshold = self.threshold
        var gain = self.gain
        for frame in 0..<frames {
            let left = samples[2 * frame]
            let right = samples[2 * frame + 1]
            let peak = max(abs(left), abs(right))
            let target: Float = peak > threshold ? threshold / peak : 1
            if target < gain {
                gain += (target - gain) * attackStep
            } else if gain < target {
                // A floor on the step, so the gain reaches exactly 1 instead of creeping forever.
                gain = min(target, gain + max((target - gain) * releaseStep, 1e-6))
            }
            if gain == 1 && peak <= threshold { continue }
            samples[2 * frame] = knee(left * gain)
            samples[2 * frame + 1] = knee(right * gain)
        }
        self.gain = gain
    }

    /// Identity up to the threshold, then a tanh curve toward the ceiling (slope 1 at the joint).
    @inline(__always)
    private func knee(_ x: Float) -> Float {
        let magnitude = abs(x)
        if magnitude <= threshold { return x }
        let room = ceiling - threshold
        let bent = threshold + room * tanhApprox((magnitude - threshold) / room)
        return x < 0 ? -bent : bent
    }
}

/// tanh(x) for x >= 0, via a rational approximation clamped below 1 (max error about 2e-4,
/// monotonic, exact at 0 with slope 1). Foundation-free so the mixer stays pure Swift.
@inline(__always)
func tanhApprox(_ x: Float) -> Float {
    if x >= 4.97 { return 0.999_9 }
    let x2 = x * x
    let value = x * (135_135 + x2 * (17_325 + x2 * (378 + x2))) / (135_135 + x2 * (62_370 + x2 * (3_150 + x2 * 28)))
    return min(value, 0.999_9)
}
