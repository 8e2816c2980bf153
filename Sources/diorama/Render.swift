import ArgumentParser
import DioramaAudio
import DioramaDocument
import DioramaFiles
import DioramaMixer
import DioramaRender
import DioramaTimeline
import Foundation

struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the playlist (or one scene) headless to numbered PNG frames.",
        discussion: """
            Frame k shows the time FROM + k / FPS, for every frame before TO; files are named \
            frame-000000.png, frame-000001.png, ... (with --at, in the order of the list). Times are \
            playlist seconds, or scene seconds with --scene. The canvas is scaled uniformly to the \
            output size and letterboxed. The same file, times and size always give the same bytes.

            Existing frames are never replaced unless --force is given. A progress bar is shown when \
            standard error is a terminal. Bad arguments exit with status 2.

            Examples:
              diorama render scenes.json --out frames --fps 30
              diorama render --out stills --scene flower --at 2,4,6 --size 1920x1080 --lang ja
              diorama render scenes.json --out frames --audio mix.wav
              diorama render --scene ocean --from 2 --to 8 --audio-only --audio ocean.wav

            For a video file with sound (MP4, WebM or GIF), use diorama export.
            """
    )

    @Argument(help: "The scenes file.")
    var file: String = "scenes.json"

    @Option(help: "The folder to write frames into (created when missing); not needed with --audio-only.")
    var out: String?

    @Option(help: "Frames per second (a number above 0, at most 1000).")
    var fps: String = "30"

    @Option(help: "Output size in pixels, WIDTHxHEIGHT.")
    var size: String = "1280x720"

    @Option(help: "Render only the scene with this id; times are then scene seconds.")
    var scene: String?

    @Option(help: "Start time in seconds (default 0).")
    var from: String?

    @Option(help: "End time in seconds, not included (default: the end of the playlist or scene).")
    var to: String?

    @Option(help: "Render only frames at these times, comma-separated (e.g. 0,2.5,10); replaces --from/--to.")
    var at: String?

    @Option(name: .customLong("lang"), help: "Language of the texts (one of the file's languages; default: its default).")
    var language: String?

    @Flag(help: "Replace frames that already exist in the output folder.")
    var force = false

    @Option(help: "Also write the mixed sound of the same span (ambience and cues, 48 kHz, 16-bit stereo) to this WAV file.")
    var audio: String?

    @Flag(help: "Write only the --audio file, no frames.")
    var audioOnly = false

    @Option(name: .customLong("tap"), help: ArgumentHelp(TapOption.help, valueName: "NODE@SECONDS"))
    var taps: [String] = []

    /// The offline mix's rate: the rate `diorama timeline` lists sample indexes at.
    static let audioSampleRate = AudioFormat.sampleRate

    func run() async throws {
        let request: FrameRequest
        do {
            request = try plan()
        } catch let problem as RenderArgumentError {
            StandardStreams.writeError(problem.description + "\n")
            throw ExitCode(2)
        }
        if !audioOnly { try await write(request) }
        if let audioRequest = request.audio { try writeAudio(audioRequest, loaded: request.loaded) }
    }

    // MARK: Planning

    /// Everything decided before the first frame: the document, the frame times and the file names.
    private struct FrameRequest {
        var loaded: LoadedDocument
        var width: Int
        var height: Int
        var fps: Rational
        var language: String
        var outputDirectory: URL
        /// Playlist position of each frame, in output order.
        var frames: [(scene: Int, time: Rational)]
        var audio: AudioRequest?
    }

    /// The sound of the rendered span: playlist seconds `start ..< end`.
    private struct AudioRequest {
        var file: URL
        var start: Rational
        var end: Rational
    }

    private func plan() throws -> FrameRequest {
        let (width, height) = try Self.parseSize(size)
        let fps = try OutputTimeline.parseFPS(fps)
        if audioOnly, audio == nil {
            throw RenderArgumentError("--audio-only needs --audio FILE.wav to write to")
        }
        if audio != nil, at != nil {
            throw RenderArgumentError("--audio needs a continuous span, so it cannot be combined with --at",
                                      hint: "give --from and --to instead")
        }
        guard audioOnly || out != nil else {
            throw RenderArgumentError("--out is required: the folder to write the frames into",
                                      hint: "e.g. --out frames, or --audio-only --audio mix.wav for the sound alone")
        }

        let timeline = try OutputTimeline(file: file, scene: scene, language: language, taps: taps)
        var times: [Rational] = []
        var span = (start: Rational.zero, end: timeline.end)
        if let at {
            if from != nil || to != nil { throw RenderArgumentError("--at cannot be combined with --from or --to") }
            for item in at.split(separator: ",", omittingEmptySubsequences: false) {
                let text = item.trimmingCharacters(in: .whitespaces)
                guard let time = Rational(decimalLiteral: text), time >= .zero else {
                    throw RenderArgumentError("--at \"\(text)\" is not a time: give seconds like --at 0,2.5,10")
                }
                guard time < timeline.end else {
                    throw RenderArgumentError("--at \(text) is past the end of \(timeline.name) (\(timeline.end.decimalDescription) s)")
                }
                times.append(time)
            }
        } else {
            span = try timeline.span(from: from, to: to)
            times = try OutputTimeline.frameTimes(span, fps: fps)
        }

        var audioRequest: AudioRequest?
        if let audio {
            let file = URL(fileURLWithPath: audio)
            if FileManager.default.fileExists(atPath: file.path), !force {
                throw RenderArgumentError("\(audio) already exists; nothing was written",
                                          hint: "choose another --audio file, or pass --force to replace it")
            }
            // Scene times become playlist times: the mix is the playlist's sound over the span.
            let offset = timeline.playlistOffset
            audioRequest = AudioRequest(file: file, start: offset + span.start, end: offset + span.end)
        }

        let out = out ?? "."
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        var isDirectory: ObjCBool = false
        if !audioOnly, FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw RenderArgumentError("--out \(out) is a file, not a folder")
        }
        if !force, !audioOnly {
            let existing = times.indices.map { Self.frameName($0) }
                .filter { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
            if let first = existing.first {
                throw RenderArgumentError("\(out) already holds \(existing.count) of these frames (\(first) first); nothing was written",
                                          hint: "choose another --out folder, or pass --force to replace them")
            }
        }
        return FrameRequest(loaded: timeline.loaded, width: width, height: height, fps: fps, language: timeline.language,
                            outputDirectory: directory, frames: audioOnly ? [] : times.map(timeline.position), audio: audioRequest)
    }

    static func parseSize(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw RenderArgumentError("--size \(text) is not a size: write WIDTHxHEIGHT in pixels, e.g. --size 1280x720")
        }
        guard (1...16384).contains(width), (1...16384).contains(height) else {
            throw RenderArgumentError("--size \(text): width and height must be 1 to 16384 pixels")
        }
        return (width, height)
    }

    static func parseTime(_ text: String, option: String) throws -> Rational {
        guard let time = Rational(decimalLiteral: text.trimmingCharacters(in: .whitespaces)), time >= .zero else {
            throw RenderArgumentError("\(option) \(text) is not a time: give seconds, 0 or more, e.g. \(option) 2.5")
        }
        return time
    }

    static func frameName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".png"
    }

    // MARK: Writing

    private func writeAudio(_ request: AudioRequest, loaded: LoadedDocument) throws {
        let rate = Rational(Self.audioSampleRate)
        // Sample k sounds at k / rate: the span's first sample is the first at or after its start.
        let span = Int64((request.start * rate).ceiling)..<Int64((request.end * rate).ceiling)
        let schedule = CueSchedule(document: loaded.document, sampleRate: Self.audioSampleRate)
        var rendered: AudioRenderReport?
        do {
            // Into a hidden partial file renamed into place: a full disk leaves no truncated WAV, and the file
            // --force replaces stays as it was until the new one is complete.
            try PartialFile.write(to: request.file.path, replacing: force) { (partial) throws(SoundWriteError) in
                rendered = try renderAudio(document: loaded.document, directory: loaded.baseDirectory, schedule: schedule,
                                           span: span, to: URL(fileURLWithPath: partial))
            }
        } catch let error as SoundWriteError {
            Self.printError("cannot write \(request.file.path): \(error.reason); nothing was written")
            throw ExitCode(1)
        } catch {
            Self.printError("cannot write \(error)")
            throw ExitCode(1)
        }
        guard let report = rendered else { throw ExitCode(1) }
        for warning in report.warnings { Self.printError("warning: \(warning)") }
        let seconds = report.result.seconds
        let speed = report.elapsedSeconds > 0 ? seconds / report.elapsedSeconds : 0
        print("wrote \(String(format: "%.3f", seconds)) s of sound (\(report.result.frames) frames at \(Self.audioSampleRate) Hz) "
              + "to \(request.file.path) in \(String(format: "%.2f", report.elapsedSeconds)) s (\(Int(speed))x real time)")
    }

    private func write(_ request: FrameRequest) async throws {
        do {
            try FileManager.default.createDirectory(at: request.outputDirectory, withIntermediateDirectories: true)
        } catch {
            Self.printError("cannot create the folder \(request.outputDirectory.path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        var progress = RenderProgress(total: request.frames.count, showing: isatty(STDERR_FILENO) == 1)
        let warnings: [String]
        do {
            warnings = try await FrameSequence.write(request.loaded, frames: request.frames, width: request.width,
                                                     height: request.height, language: request.language,
                                                     to: request.outputDirectory, replacing: force, progress: &progress)
        } catch {
            progress.finish()
            Self.printError("\(error)")
            throw ExitCode(1)
        }
        progress.finish()
        for warning in warnings { Self.printError("warning: \(warning)") }
        print("wrote \(request.frames.count) frames (\(request.width)x\(request.height), \(request.fps.decimalDescription) fps) to \(request.outputDirectory.path)")
    }

    /// Prints to standard error, with an "error: " prefix unless the text brings its own.
    static func printError(_ text: String) {
        let line = text.hasPrefix("warning: ") || text.hasPrefix("error: ") ? text : "error: " + text
        StandardStreams.writeError(line + "\n")
    }
}

/// Renders frames at playlist positions into numbered PNG files (frame-000000.png, ...): rendering on the
/// calling task, PNG encoding (the larger cost) on up to three frames beside it.
enum FrameSequence {
    /// Returns the renderer's warnings (e.g. a missing image).
    static func write(_ loaded: LoadedDocument, frames: [(scene: Int, time: Rational)], width: Int, height: Int,
                      language: String, to directory: URL, replacing: Bool, progress: inout RenderProgress) async throws -> [String] {
        let evaluator = SceneEvaluator(document: loaded.document)
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory, isDirectory: true))
        var encoding: [Task<Void, Error>] = []
        do {
            for (index, position) in frames.enumerated() {
                let snapshot = evaluator.snapshot(scene: position.scene, at: position.time.doubleValue, language: language)
                let frame = try renderer.render(snapshot, width: width, height: height)
                let target = directory.appendingPathComponent(Render.frameName(index))
                encoding.append(Task.detached { try frame.writePNG(to: target, replacing: replacing) })
                if encoding.count >= 3 { try await encoding.removeFirst().value }
                progress.frameDone(index + 1 - encoding.count)
            }
            for task in encoding { try await task.value }
        } catch {
            for task in encoding { _ = try? await task.value }
            throw error
        }
        progress.frameDone(frames.count)
        return renderer.warnings
    }
}

/// A bad command line, reported with a hint and exit status 2.
struct RenderArgumentError: Error, CustomStringConvertible {
    var description: String

    init(_ message: String, hint: String? = nil) {
        description = "error: " + message + (hint.map { "\n  hint: " + $0 } ?? "")
    }
}

/// A one-line progress bar on standard error: frames done, rate and time left. Silent when not a terminal.
struct RenderProgress {
    let total: Int
    let showing: Bool
    private let start = ContinuousClock.now
    private var lastDrawn = ContinuousClock.now - .seconds(1)
    private var done = 0

    init(total: Int, showing: Bool) {
        self.total = total
        self.showing = showing
    }

    mutating func frameDone(_ count: Int) {
        done = max(done, count)
        let now = ContinuousClock.now
        guard showing, now - lastDrawn >= .milliseconds(100) || done == total else { return }
        lastDrawn = now
        let elapsed = Double((now - start).components.attoseconds) / 1e18 + Double((now - start).components.seconds)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : 0
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = String(format: "\r[%@] %d/%d frames  %.1f fps  %d:%02d left ", bar, done, total, rate, left / 60, left % 60)
        StandardStreams.writeError(line)
    }

    func finish() {
        if showing { StandardStreams.writeError("\n") }
    }
}
