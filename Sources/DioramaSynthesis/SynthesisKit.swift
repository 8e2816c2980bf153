import DioramaTimeline
import Foundation

// Small building blocks for the project's synthesized sounds. Offline only (allocates freely).

extension SplitMix64 {
    /// Uniform in [-1, 1): white noise.
    mutating func white() -> Double { symmetric() }
    mutating func uniform(_ range: ClosedRange<Double>) -> Double { range.lowerBound + unit() * (range.upperBound - range.lowerBound) }
}

/// Pink noise (-3 dB per octave) by Paul Kellet's economy filter over white noise.
struct PinkNoise {
    var source: SplitMix64
    private var b0 = 0.0, b1 = 0.0, b2 = 0.0
    init(seed: UInt64) { source = SplitMix64(seed: seed) }
    mutating func next() -> Double {
        let white = source.white()
        b0 = 0.99765 * b0 + white * 0.0990460
        b1 = 0.96300 * b1 + white * 0.2965164
        b2 = 0.57000 * b2 + white * 1.0526913
        return (b0 + b1 + b2 + white * 0.1848) * 0.2
    }
}

/// A value that wanders smoothly between random targets (for gusts, swells, drifting filters).
struct Wander {
    var source: SplitMix64
    private var current: Double
    private var target: Double
    private let range: ClosedRange<Double>
    private let step: Double
    private var countdown = 0
    private let interval: Int

    /// - Parameters: `seconds` between new targets; the value glides toward each over that time.
    init(seed: UInt64, range: ClosedRange<Double>, seconds: Double, sampleRate: Double) {
        source = SplitMix64(seed: seed)
        self.range = range
        current = (range.lowerBound + range.upperBound) / 2
        target = current
        interval = max(Int(seconds * sampleRate), 1)
        step = 1 / (seconds * sampleRate / 3)
    }

    mutating func next() -> Double {
        if countdown == 0 {
            target = source.uniform(range)
            countdown = interval
        }
        countdown -= 1
        current += (target - current) * step
        return current
    }
}

/// A second-order IIR filter (RBJ cookbook), transposed direct form II.
struct Biquad {
    private var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var z1 = 0.0, z2 = 0.0

    enum Kind { case lowpass, highpass, bandpass }

    init(_ kind: Kind, frequency: Double, q: Double, sampleRate: Double) {
        set(kind, frequency: frequency, q: q, sampleRate: sampleRate)
    }

    /// Changes the response, keeping the state (for swept filters).
    mutating func set(_ kind: Kind, frequency: Double, q: Double, sampleRate: Double) {
        let omega = 2 * Double.pi * min(max(frequency, 10), sampleRate * 0.45) / sampleRate
        let alpha = sin(omega) / (2 * q)
        let cosine = cos(omega)
        let a0 = 1 + alpha
        switch kind {
        case .lowpass:
            b0 = (1 - cosine) / 2; b1 = 1 - cosine; b2 = (1 - cosine) / 2
        case .highpass:
            b0 = (1 + cosine) / 2; b1 = -(1 + cosine); b2 = (1 + cosine) / 2
        case .bandpass:  // 0 dB peak gain
            b0 = alpha; b1 = 0; b2 = -alpha
        }
        a1 = -2 * cosine
        a2 = 1 - alpha
        b0 /= a0; b1 /= a0; b2 /= a0; a1 /= a0; a2 /= a0
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }
}

/// Raised-cosine rise from 0 to 1 as `p` goes from 0 to 1.
func smoothRise(_ p: Double) -> Double {
    let clamped = min(max(p, 0), 1)
    return 0.5 - 0.5 * cos(Double.pi * clamped)
}

/// Makes a seamless loop of `loopLength` samples from a longer take: the tail past the loop is
/// cross-faded (equal power, for uncorrelated noise) into the head, so sample `loopLength - 1`
/// runs straight on into sample 0 the way the take ran on into sample `loopLength`.
func seamlessLoop(_ take: [Double], loopLength: Int) -> [Double] {
    let overlap = take.count - loopLength
    precondition(overlap > 0 && overlap <= loopLength)
    var loop = Array(take.prefix(loopLength))
    for index in 0..<overlap {
        let p = Double(index) / Double(overlap)
        loop[index] = take[index] * sin(p * Double.pi / 2) + take[loopLength + index] * cos(p * Double.pi / 2)
    }
    return loop
}

/// A seamless loop of `seconds` made from a take `tail` seconds longer: `sample` gives the take's samples in order, by
/// index (the loop runs on into the tail, which `seamlessLoop` folds over its start).
func seamlessLoop(seconds: Double, tail: Double, rate: Double, _ sample: (Int) -> Double) -> [Double] {
    let loopLength = Int(seconds * rate)
    var take = [Double](repeating: 0, count: loopLength + Int(tail * rate))
    for index in take.indices { take[index] = sample(index) }
    return seamlessLoop(take, loopLength: loopLength)
}

func peak(_ samples: [Double]) -> Double { samples.map(abs).max() ?? 0 }
func rms(_ samples: [Double]) -> Double {
    samples.isEmpty ? 0 : (samples.reduce(0) { $0 + $1 * $1 } / Double(samples.count)).squareRoot()
}
func decibels(_ level: Double) -> Double { 20 * log10(max(level, 1e-12)) }
func linear(decibels: Double) -> Double { pow(10, decibels / 20) }

/// Scales to the given RMS, or to the peak ceiling if that would be exceeded.
func normalized(_ samples: [Double], rms target: Double? = nil, peak peakTarget: Double? = nil, ceiling: Double = -1.2) -> [Double] {
    var gain = 1.0
    if let target { gain = linear(decibels: target) / max(rms(samples), 1e-12) }
    if let peakTarget { gain = linear(decibels: peakTarget) / max(peak(samples), 1e-12) }
    gain = min(gain, linear(decibels: ceiling) / max(peak(samples), 1e-12))
    return samples.map { $0 * gain }
}

/// Fades the last `seconds` to silence (raised cosine), so one-shots end without a click.
func fadeTail(_ samples: inout [Double], seconds: Double, sampleRate: Double) {
    let count = min(Int(seconds * sampleRate), samples.count)
    for index in 0..<count {
        samples[samples.count - 1 - index] *= smoothRise(Double(index) / Double(count))
    }
}
