import DioramaMixer
import Foundation

/// Figures of the audio benchmarks, for `diorama bench audio`.
struct AudioBenchmarkFigures: Sendable {
    var voices: Int
    var mixedSeconds: Double
    var wallSeconds: Double
    /// Seconds of audio mixed per second of work, on one core.
    var realTimeFactor: Double { mixedSeconds / max(wallSeconds, 1e-9) }
}

enum AudioBenchmark {
    /// Mixes `seconds` of audio with `voices` looping voices (fades, pans, the limiter all active)
    /// in 256-frame blocks on the calling thread, and times it. The sounds are stereo noise, or mono (as the shipped
    /// sounds are).
    static func mixer(voices: Int = 32, seconds: Double = 60, sampleRate: Int = AudioFormat.sampleRate, mono: Bool = false) -> AudioBenchmarkFigures {
        var state: UInt64 = 1
        let channels = mono ? 1 : 2
        let sounds = (0..<8).map { index -> MixerSound in
            let frames = sampleRate + index * 997
            let samples = (0..<(channels * frames)).map { _ -> Float in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(Int32(truncatingIfNeeded: state >> 32)) / Float(Int32.max) * 0.05
            }
            return mono ? MixerSound(name: "noise\(index)", mono: samples) : MixerSound(name: "noise\(index)", interleavedStereo: samples)
        }
        let mixer = Mixer(sounds: sounds, configuration: MixerConfiguration(sampleRate: sampleRate, voiceLimit: max(voices, 1)))
        for voice in 0..<voices {
            mixer.send(.start(VoiceStart(sound: voice % sounds.count, frame: Int64(voice * 37), gain: 0.5,
                                         pan: Float(voice % 9) / 4 - 1, fadeInFrames: 4800, loops: true, tag: UInt32(voice + 1))))
        }
        let total = Int(seconds * Double(sampleRate))
        let block = 256
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 2 * block)
        defer { buffer.deallocate() }
        let started = ContinuousClock.now
        var done = 0
        while done < total {
            mixer.render(into: buffer, frames: block)
            done += block
        }
        let elapsed = ContinuousClock.now - started
        return AudioBenchmarkFigures(voices: voices, mixedSeconds: Double(done) / Double(sampleRate), wallSeconds: wallSeconds(elapsed))
    }

    static func wallSeconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// The same cue mix made by ffmpeg: each cue's file delayed with `adelay` and summed with
    /// `amix` (normalize=0), written as 16-bit WAV. Returns the wall time, or nil if ffmpeg failed.
    /// - Parameters: `cues`: (file path, start frame, gain) at `sampleRate`; `frames`: output length.
    static func ffmpegMix(cues: [(path: String, frame: Int64, gain: Double)], frames: Int64, sampleRate: Int = AudioFormat.sampleRate,
                                 to output: String) -> Double? {
        guard !cues.isEmpty else { return nil }
        var arguments = ["-nostdin", "-v", "error", "-y"]
        for cue in cues { arguments += ["-i", cue.path] }
        var filters: [String] = []
        for (index, cue) in cues.enumerated() {
            let milliseconds = Double(cue.frame) * 1000 / Double(sampleRate)
            filters.append("[\(index):a]aresample=\(sampleRate),volume=\(cue.gain),adelay=delays=\(String(format: "%.3f", milliseconds)):all=1[c\(index)]")
        }
        let inputs = cues.indices.map { "[c\($0)]" }.joined()
        filters.append("\(inputs)amix=inputs=\(cues.count):normalize=0:duration=longest,apad=whole_len=\(frames),atrim=end_sample=\(frames)[out]")
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-ffmpeg-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: script) }
        guard (try? filters.joined(separator: ";\n").write(to: script, atomically: true, encoding: .utf8)) != nil else { return nil }
        arguments += ["-filter_complex_script", script.path, "-map", "[out]", "-ac", "2", "-c:a", "pcm_s16le", output]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg"] + arguments
        let started = ContinuousClock.now
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return wallSeconds(ContinuousClock.now - started)
    }
}
