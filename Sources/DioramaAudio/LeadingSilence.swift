import DioramaDocument
import DioramaMixer
import Foundation

/// How long a sound is silent before it is heard, in frames: how much later than its moment a cue playing it is heard.
///
/// Silence is what is quieter than `floor` below the sound's own loudest sample (60 dB), so dither, a click of
/// the converter or the first samples of a swell do not count as heard, whatever the sound's gain. `diorama check`
/// warns about a cue's sound silent for longer than `warningSeconds`; `diorama verify` fails a cue heard later than
/// its expectations allow.
///
/// ```swift
/// let frames = LeadingSilence.frames(in: sound.interleavedSamples)  // 4800 for 100 ms of silence at 48 kHz
/// ```
public enum LeadingSilence {
    /// A sample counts as heard from this fraction of the sound's loudest (-60 dB).
    public static let floor: Float = 1e-3
    /// `diorama check` warns about a cue's sound silent for longer than this, in seconds (5 ms).
    public static let warningSeconds = 0.005

    /// The frames of interleaved stereo `samples` before the first whose louder channel (each scaled by its pan gain
    /// in `gains`) reaches `floor` of the loudest; nil for a sound that is silent throughout.
    ///
    /// - Complexity: O(n) in the samples.
    public static func frames(in samples: [Float], gains: (left: Float, right: Float) = (1, 1)) -> Int? {
        let frameCount = samples.count / 2
        func level(_ frame: Int) -> Float { max(abs(samples[2 * frame] * gains.left), abs(samples[2 * frame + 1] * gains.right)) }
        var peak: Float = 0
        for frame in 0..<frameCount { peak = max(peak, level(frame)) }
        guard peak > 0, peak.isFinite else { return nil }
        let heard = peak * floor
        return (0..<frameCount).first { level($0) >= heard }
    }

    /// `32.6 ms`: frames at `sampleRate` in milliseconds, to a tenth.
    public static func milliseconds(_ frames: Int, sampleRate: Int) -> String {
        String(format: "%.1f ms", 1000 * Double(frames) / Double(sampleRate))
    }
}

extension LeadingSilence {
    /// `diorama check`'s warning about the sound `reference` names (decoded as `sound`) when a cue of `document` plays
    /// it, it is silent for longer than `warningSeconds` (at the lowest pitch a cue plays it, which stretches the
    /// silence too), and it does not say the silence is intended.
    public static func warning(for reference: MediaReference, sound: MixerSound, sampleRate: Int, in document: Document) -> Diagnostic? {
        guard case .sound(let name) = reference.kind,
              let lowest = document.scenes.flatMap({ $0.cues.filter { $0.sounds.contains(name) }.map(\.pitch) }).min(),
              document.sounds.first(where: { $0.name == name })?.leadingSilenceIntended == false,
              let fileFrames = frames(in: sound.interleavedSamples) else { return nil }
        let frames = lowest < 0 ? Int((Double(fileFrames) * pow(2, -lowest / 12)).rounded()) : fileFrames
        guard Double(frames) > warningSeconds * Double(sampleRate) else { return nil }
        let silence = milliseconds(frames, sampleRate: sampleRate)
        let heard = lowest < 0 ? "a cue that plays it \(-lowest) semitones down is heard \(silence) after its moment"
            : "every cue that plays it is heard \(silence) after its moment"
        return reference.diagnostic(
            "the sound \"\(name)\" starts with \(milliseconds(fileFrames, sampleRate: sampleRate)) of silence, so \(heard)",
            hint: "trim the silence from the file, or fire its cues that much earlier "
                + String(format: "(\"offset\": %.4f)", -Double(frames) / Double(sampleRate))
                + "; if the silence is intended, say so on the sound: { \"path\": \"\(reference.path)\", \"leadingSilence\": \"intended\" }",
            severity: .warning)
    }
}
