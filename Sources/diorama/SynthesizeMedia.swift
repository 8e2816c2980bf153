import ArgumentParser
import DioramaAudio
import DioramaSynthesis
import Foundation

/// Writes the project's own sounds (media/*.flac). Deterministic: rerunning rewrites the same files.
struct SynthesizeMedia: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synthesize-media",
        abstract: "Synthesize the project's sounds (beds, bells, breaths, chimes and clicks) as FLAC.",
        discussion: """
            The sounds are generated in Swift from seeded noise and sine partials, so the same \
            code always writes the same files. Example:
              swift run diorama synthesize-media --out media
            """
    )

    @Option(name: .long, help: "The folder to write the FLAC files into (created if missing).")
    var out: String = "media"

    @Option(name: .long, parsing: .upToNextOption, help: "Only these sounds (default: all). One of: \(ProjectSounds.names.joined(separator: ", ")).")
    var only: [String] = []

    func validate() throws {
        for name in only where !ProjectSounds.names.contains(name) {
            throw ValidationError("unknown sound '\(name)'. Known sounds: \(ProjectSounds.names.joined(separator: ", ")).")
        }
    }

    func run() async throws {
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw ValidationError("cannot create the folder '\(out)': \(error.localizedDescription)")
        }
        for name in only.isEmpty ? ProjectSounds.names : only {
            guard let sound = ProjectSounds.make(name) else { continue }
            let path = (out as NSString).appendingPathComponent(sound.fileName)
            try SoundFileWriter.write(sound.samples, channels: 1, sampleRate: sound.sampleRate, format: .flac16, to: path)
            let peak = sound.samples.map { abs(Double($0)) }.max() ?? 0
            let rms = (sound.samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(sound.samples.count, 1))).squareRoot()
            let seconds = Double(sound.samples.count) / Double(sound.sampleRate)
            print(String(format: "%@  %.2f s  peak %.1f dBFS  RMS %.1f dBFS%@", path, seconds,
                         20 * log10(max(peak, 1e-9)), 20 * log10(max(rms, 1e-9)), sound.loops ? "  (loop)" : ""))
        }
    }
}
