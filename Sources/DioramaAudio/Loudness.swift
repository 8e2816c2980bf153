import CEbur128
import DioramaMixer
import DioramaTimeline
import Foundation

/// How loud a stretch of sound is, as EBU R128 measures it (libebur128, the standard's reference implementation).
///
/// Example:
/// ```swift
/// let meter = LoudnessMeter(sampleRate: 48_000)
/// meter.add(block)                     // interleaved stereo floats, as the offline mix streams them
/// print(meter.figure.integrated ?? -.infinity, meter.figure.truePeak)   // LUFS, dBTP
/// ```
public struct LoudnessFigure: Sendable, Equatable {
    /// Integrated loudness in LUFS (gated, over the whole stretch); nil when nothing rises above the absolute gate
    /// (-70 LUFS): silence, which no gain brings to a level.
    public var integrated: Double?
    /// The highest true peak of the two channels in dBTP (4x oversampled); -infinity for digital silence. Only
    /// the sample peak is known when it was not measured (`LoudnessMeter(truePeak: false)`): then it is at most
    /// `samplePeak + LoudnessMeter.truePeakAboveSamplePeak`.
    public var truePeak: Double
    /// Whether `truePeak` was measured; false: it holds the sample peak, the true peak's lower bound.
    public var truePeakMeasured: Bool

    public init(integrated: Double?, truePeak: Double, truePeakMeasured: Bool = true) {
        self.integrated = integrated
        self.truePeak = truePeak
        self.truePeakMeasured = truePeakMeasured
    }

    /// The most the true peak can be, in dBTP: the true peak, or the bound above the sample peak.
    public var truePeakBound: Double { truePeakMeasured ? truePeak : truePeak + LoudnessMeter.truePeakAboveSamplePeak }

    /// `integrated` as people read it: `-23.0`, or `silent`.
    public var integratedDescription: String { integrated.map { SceneLoudnessReport.tenths($0) } ?? "silent" }
    /// `truePeak` as people read it: `-1.4`, or `-inf`.
    public var truePeakDescription: String { truePeak.isFinite ? SceneLoudnessReport.tenths(truePeak) : "-inf" }
}

/// A libebur128 measurement of interleaved stereo (`AudioFormat.channels`), fed block by block (integrated loudness and true peak).
/// A resource: the state is freed in `deinit`. Not for the audio thread (libebur128 allocates as it goes).
public final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?

    private let measuresTruePeak: Bool

    /// How far a true peak can be above the sample peak, in dB, at rates below 96 kHz: libebur128 (1.2) interpolates
    /// 4x with a 49-tap Hann-windowed sinc, and no phase's 12 coefficients add up (in absolute value) to more than
    /// 1.864, 5.41 dB (LoudnessTests checks it on the signal that reaches it).
    public static let truePeakAboveSamplePeak = 5.41

    /// - Parameters: `sampleRate` in frames per second; `truePeak`: measure it (4x oversampled, about ten times the
    ///   work of the rest), or only the sample peak, below 96 kHz (`LoudnessFigure.truePeakBound`).
    public init(sampleRate: Int, truePeak: Bool = true) {
        measuresTruePeak = truePeak || sampleRate >= 96_000
        let peak = measuresTruePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : EBUR128_MODE_SAMPLE_PEAK.rawValue
        state = ebur128_init(UInt32(AudioFormat.channels), UInt(max(sampleRate, 1)), Int32(EBUR128_MODE_I.rawValue | peak))
    }

    /// Adds interleaved stereo samples (`samples.count / 2` frames).
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let state, let base = samples.baseAddress, samples.count >= 2 else { return }
        _ = ebur128_add_frames_float(state, base, samples.count / 2)
    }

    /// What has been added so far.
    public var figure: LoudnessFigure {
        guard let state else { return LoudnessFigure(integrated: nil, truePeak: -.infinity) }
        var lufs = -Double.infinity
        let integrated: Double? = ebur128_loudness_global(state, &lufs) == 0 && lufs.isFinite ? lufs : nil
        var peak = 0.0
        for channel in 0..<UInt32(AudioFormat.channels) {
            var channelPeak = 0.0
            let read = measuresTruePeak ? ebur128_true_peak(state, channel, &channelPeak) : ebur128_sample_peak(state, channel, &channelPeak)
            if read == 0 { peak = max(peak, channelPeak) }
        }
        return LoudnessFigure(integrated: integrated, truePeak: peak > 0 ? 20 * log10(peak) : -.infinity,
                              truePeakMeasured: measuresTruePeak)
    }

    /// The figure of one whole stretch of interleaved stereo.
    public static func measure(_ samples: [Float], sampleRate: Int, truePeak: Bool = true) -> LoudnessFigure {
        let meter = LoudnessMeter(sampleRate: sampleRate, truePeak: truePeak)
        samples.withUnsafeBufferPointer { meter.add($0) }
        return meter.figure
    }

    deinit { ebur128_destroy(&state) }
}
