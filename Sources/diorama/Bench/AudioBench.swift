import ArgumentParser
import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTimeline
import Foundation

/// `diorama bench audio`: mixer cost with 32 voices, and the playlist's offline audio render
/// against ffmpeg making the same cue mix with adelay + amix.
struct AudioBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audio",
        abstract: "Mixer real-time factor with 32 voices; offline playlist audio render vs ffmpeg adelay+amix.",
        discussion: "Example:\n  swift run -c release diorama bench audio scenes.json"
    )

    @Argument(help: "The scenes file whose playlist audio to render (optional).")
    var scenes: String?

    @Option(help: "Voices for the mixer benchmark.")
    var voices: Int = 32

    func run() async throws {
        for mono in [false, true] {
            let mix = AudioBenchmark.mixer(voices: voices, seconds: 60, mono: mono)
            print(String(format: "mixer: %d %@ voices, %.0f s mixed in %.3f s: %.0fx real time (one core)",
                         mix.voices, mono ? "mono" : "stereo", mix.mixedSeconds, mix.wallSeconds, mix.realTimeFactor))
        }
        guard let scenes else { return }
        let loaded = try loadDocumentOrExit(scenes)
        let schedule = CueSchedule(document: loaded.document, sampleRate: AudioFormat.sampleRate)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try renderAudio(document: loaded.document, directory: loaded.baseDirectory, schedule: schedule,
                                     to: folder.appendingPathComponent("diorama.wav"))
        print(String(format: "diorama offline: %.1f s of audio (%d cues + ambience, load included) in %.3f s: %.0fx real time",
                     report.result.seconds, schedule.cues.count, report.elapsedSeconds, report.result.seconds / report.elapsedSeconds))
        let cues = schedule.cues.compactMap { cue -> (path: String, frame: Int64, gain: Double)? in
            guard let sound = loaded.document.sound(named: cue.firing.sound) else { return nil }
            return (loaded.resolve(sound.path), cue.sampleIndex, sound.gain * cue.firing.gain)
        }
        if let seconds = AudioBenchmark.ffmpegMix(cues: cues, frames: report.result.frames, to: folder.appendingPathComponent("ffmpeg.wav").path) {
            print(String(format: "ffmpeg adelay+amix (cues only, no ambience): %.3f s: %.0fx real time; diorama is %.1fx faster",
                         seconds, report.result.seconds / seconds, seconds / report.elapsedSeconds))
        } else {
            print("ffmpeg: not run (not installed, or it failed on this cue list)")
        }
    }
}
