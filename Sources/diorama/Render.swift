import ArgumentParser
import DioramaAudio
import DioramaDocument
import DioramaExport
import DioramaFiles
import DioramaMixer
import DioramaRender
import DioramaTimeline
import Foundation
import Synchronization

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
              diorama render --sheet sheet.png --moments 4 --size 480x270 --lang ja

            --sheet writes one PNG instead of frames: a contact sheet with a row per scene (or the --scene \
            alone) and a cell per moment, each labelled with the scene and its time. The moments are the \
            middles of --moments equal parts of each scene (rounded to the millisecond), or the scene \
            seconds given by --at; --size is the size of a cell. A sheet is not replaced unless --force \
            is given.

            For a video file with sound (MP4, WebM or GIF), use diorama export.
            """
    )

    @OptionGroup var span: SpanOptions

    @Option(help: "The folder to write frames into (created when missing); not needed with --audio-only.")
    var out: String?

    @OptionGroup var frame: FrameOptions

    @Option(help: "Render only frames at these times, comma-separated (e.g. 0,2.5,10); replaces --from/--to.")
    var at: SecondsList?

    @Flag(help: "Replace frames that already exist in the output folder.")
    var force = false

    @Option(help: "Also write the mixed sound of the same span (ambience and cues, 48 kHz, 16-bit stereo) to this WAV file.")
    var audio: String?

    @Flag(help: "Write only the --audio file, no frames.")
    var audioOnly = false

    @Option(help: "Write a contact sheet to this PNG file instead of frames: a row per scene, a labelled cell per moment.")
    var sheet: String?

    @Option(help: "With --sheet: moments per scene, spread evenly over it (default 4; 1 to 100).")
    var moments: Int?

    /// The offline mix's rate: the rate `diorama timeline` lists sample indexes at.
    static let audioSampleRate = AudioFormat.sampleRate

    func run() async throws {
        if sheet != nil {
            try writeSheet()
            return
        }
        let request: FrameRequest
        do {
            if moments != nil { throw RenderArgumentError("--moments needs --sheet FILE.png", hint: "e.g. --sheet sheet.png --moments 4") }
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
        var threads: Int
        var language: String
        var outputDirectory: URL
        /// Playlist position of each frame, in output order.
        var frames: [PlaybackPosition]
        var audio: AudioRequest?
    }

    /// The sound of the rendered span: playlist seconds `start ..< end`.
    private struct AudioRequest {
        var file: URL
        var start: Rational
        var end: Rational
    }

    private func plan() throws -> FrameRequest {
        let (width, height) = try frame.size.value()
        let fps = try frame.fps.value()
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

        let timeline = try OutputTimeline(span)
        let frames: [PlaybackPosition]
        var span = (start: Rational.zero, end: timeline.end)
        if let at {
            if self.span.from != nil || self.span.to != nil { throw RenderArgumentError("--at cannot be combined with --from or --to") }
            frames = try at.value().map { time, text in
                guard time < timeline.end else {
                    throw RenderArgumentError("--at \(text) is past the end of \(timeline.name) (\(timeline.end.decimalDescription) s)")
                }
                return timeline.position(time)
            }
        } else {
            span = try timeline.span()
            frames = try timeline.frames(span, fps: fps)
        }

        var audioRequest: AudioRequest?
        if let audio {
            let file = URL(fileURLWithPath: audio)
            if FileManager.default.fileExists(atPath: file.path), !force {
                throw RenderArgumentError("\(audio) already exists; nothing was written",
                                          hint: "choose another --audio file, or pass --force to replace it")
            }
            // Scene times become playlist times: the mix is the playlist's sound over the span.
            let offset = timeline.playlistSpan.lowerBound
            audioRequest = AudioRequest(file: file, start: offset + span.start, end: offset + span.end)
        }

        let out = out ?? "."
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        var isDirectory: ObjCBool = false
        if !audioOnly, FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw RenderArgumentError("--out \(out) is a file, not a folder")
        }
        if !force, !audioOnly {
            let existing = frames.indices.map { Self.frameName($0) }
                .filter { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
            if let first = existing.first {
                throw RenderArgumentError("\(out) already holds \(existing.count) of these frames (\(first) first); nothing was written",
                                          hint: "choose another --out folder, or pass --force to replace them")
            }
        }
        return FrameRequest(loaded: timeline.loaded, width: width, height: height, fps: fps, threads: try frame.threadCount(),
                            language: timeline.language,
                            outputDirectory: directory, frames: audioOnly ? [] : frames, audio: audioRequest)
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
            warnings = try PNGFrames.write(request.loaded, frames: request.frames, width: request.width, height: request.height,
                                           language: request.language, threads: request.threads, to: request.outputDirectory,
                                           replacing: force, progress: &progress)
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

/// Numbered PNG files (frame-000000.png, ...) of frames at playlist positions: drawn by the frame producer the
/// export draws with (`ParallelFrames`, on `threads` threads, handed over in order), PNG encoding (the larger cost)
/// on up to three frames beside it.
enum PNGFrames {
    /// Returns the renderers' warnings (e.g. a missing image).
    static func write(_ loaded: LoadedDocument, frames: [PlaybackPosition], width: Int, height: Int, language: String,
                      threads: Int, to directory: URL, replacing: Bool, progress: inout RenderProgress) throws -> [String] {
        let encoding = DispatchGroup(), slots = DispatchSemaphore(value: 3), failure = FirstFailure()
        // Every encoding has finished before this returns or throws: no file is written after.
        defer { encoding.wait() }
        let warnings = try ParallelFrames.render(frames, document: loaded.document,
                                                 imageDirectory: URL(fileURLWithPath: loaded.baseDirectory, isDirectory: true),
                                                 width: width, height: height, language: language, threads: threads) {
            index, pixels throws(VideoExportError) in
            var frame = RenderedFrame(width: width, height: height)
            frame.bytes.withUnsafeMutableBytes { $0.copyMemory(from: pixels) }
            slots.wait()
            if let problem = failure.text {
                slots.signal()
                throw .render(problem)
            }
            let target = directory.appendingPathComponent(Render.frameName(index)), drawn = frame
            encoding.enter()
            DispatchQueue.global().async {
                do { try drawn.writePNG(to: target, replacing: replacing) } catch { failure.note("\(error)") }
                slots.signal()
                encoding.leave()
            }
            progress.frameDone(index)
        }
        encoding.wait()
        if let problem = failure.text { throw VideoExportError.render(problem) }
        progress.frameDone(frames.count)
        return warnings
    }

    /// The first PNG that could not be written, noted from the encoding threads.
    private final class FirstFailure: Sendable {
        private let first = Mutex<String?>(nil)
        var text: String? { first.withLock { $0 } }
        func note(_ problem: String) { first.withLock { $0 = $0 ?? problem } }
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
