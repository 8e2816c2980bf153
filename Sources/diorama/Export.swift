import ArgumentParser
import DioramaDocument
import DioramaExport
import DioramaFiles
import DioramaTimeline
import Foundation
import Synchronization

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the playlist (or one scene) to a video file with sound: MP4, WebM or GIF, through ffmpeg.",
        discussion: """
            The format follows the file's extension, or --format: .mp4 is H.264 video with AAC sound, .webm VP9 \
            with Opus, .gif an animated GIF (no sound; its 256 colours come from a first pass over the frames). \
            Frame k shows the time FROM + k / FPS, as with diorama render; the sound is the same offline mix as \
            render --audio, starting with the first frame to the sample as a player aligns the streams by their timestamps (WebM \
            stamps the later frames to the millisecond), and the \
            file lasts the span asked for (rounded up to a whole frame; a GIF's frame delays are whole \
            hundredths of a second). Times are playlist seconds, or scene seconds with --scene.

            Frames are rendered on every core while ffmpeg (Debian package ffmpeg) encodes them. The video is \
            written under a hidden temporary name beside the file and renamed when ffmpeg has finished, so an \
            interruption (Ctrl-C, a closed terminal, kill) or an ffmpeg failure leaves no partial file; an existing file is never \
            replaced unless --force is given. A progress bar is shown when standard error is a terminal, plain \
            lines otherwise. Bad arguments, or ffmpeg missing, exit with status 2; an ffmpeg failure exits 1 \
            with ffmpeg's last error lines; an interruption exits 128 + the signal's number (130 for Ctrl-C, 129 for a closed terminal).

            Examples:
              diorama export scenes.json --out show.mp4
              diorama export --scene ocean --from 2 --to 8 --out ocean.webm --quality 28
              diorama export --scene flower --out flower.gif --size 480x270 --fps 15
            """
    )

    @OptionGroup var span: SpanOptions

    @Option(help: "The video file to write: .mp4, .webm or .gif (its folder must exist).")
    var out: String

    @Option(help: ArgumentHelp("The file format, when the extension does not say: mp4, webm or gif.", valueName: "mp4|webm|gif"))
    var format: String?

    @OptionGroup var frame: FrameOptions

    @Option(help: "Video quality as the encoder's CRF, lower is better and larger: 0-51 for MP4 (default 20), 0-63 for WebM (default 32).")
    var quality: Int?

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    func run() throws {
        let request: VideoExportRequest
        let ffmpeg: String
        do {
            (request, ffmpeg) = try plan()
        } catch let problem as RenderArgumentError {
            StandardStreams.writeError(problem.description + "\n")
            throw ExitCode(2)
        }
        let cancellation = ExportCancellation()
        Self.forwardInterrupts(to: cancellation)

        let progress = ExportProgressPrinter(request: request, destination: out, terminal: isatty(STDERR_FILENO) == 1)
        let report: VideoExportReport
        do {
            report = try VideoExporter.export(request, ffmpeg: ffmpeg, cancellation: cancellation, events: progress.show)
        } catch {
            progress.finish()
            switch error {
            case .cancelled:
                Render.printError("interrupted: nothing was written to \(out)")
                throw ExitCode(128 + receivedSignal.load(ordering: .relaxed))
            case .ffmpegMissing:
                Render.printError(error.description)
                throw ExitCode(2)
            default:
                Render.printError("\(error)\n  nothing was written to \(out)")
                throw ExitCode(1)
            }
        }
        progress.finish()
        for warning in report.warnings { Render.printError("warning: \(warning)") }
        let seconds = Double(request.frames.count) / request.fps.doubleValue
        let sound = request.format.hasSound
            ? String(format: " and %.3f s of sound", Double(report.audioSamples) / Double(request.sampleRate)) : ""
        print(String(format: "wrote %@: %d frames (%dx%d, %@ fps)%@, %@, in %.1f s (%.2fx real time)",
                     out, report.frames, request.width, request.height, request.fps.decimalDescription, sound,
                     request.format.summary, report.elapsedSeconds, seconds / max(report.elapsedSeconds, 1e-9)))
    }

    // MARK: Planning

    private func plan() throws -> (VideoExportRequest, ffmpeg: String) {
        let (width, height) = try frame.size.value()
        let fps = try frame.fps.value()
        let chosen: VideoFormat
        if let format {
            guard let named = VideoFormat(rawValue: format.lowercased()) else {
                throw RenderArgumentError("--format \(format) is not a format this command writes", hint: "give mp4, webm or gif")
            }
            chosen = named
        } else {
            guard let named = VideoFormat(fileName: out) else {
                throw RenderArgumentError("--out \(out): the extension does not name a video format",
                                          hint: "end the name in .mp4, .webm or .gif, or pass --format mp4|webm|gif")
            }
            chosen = named
        }
        if let quality {
            guard let range = chosen.qualityRange else {
                throw RenderArgumentError("--quality does not apply to a GIF", hint: "its colours come from a palette; leave --quality out")
            }
            guard range.contains(quality) else {
                throw RenderArgumentError("--quality \(quality) is outside \(range.lowerBound)-\(range.upperBound) for \(chosen.rawValue)",
                                          hint: "lower is better and larger; without --quality it is \(chosen.defaultQuality ?? 0)")
            }
        }
        if chosen.needsEvenSize, width % 2 != 0 || height % 2 != 0 {
            throw RenderArgumentError("--size \(frame.size.text): \(chosen.summary) needs an even width and height",
                                      hint: "e.g. --size \(width + width % 2)x\(height + height % 2)")
        }
        let threads = try frame.threadCount()

        let destination = URL(fileURLWithPath: out)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw RenderArgumentError("--out \(out) is a folder; give a file name such as \(out)/show.mp4") }
            if !force {
                throw RenderArgumentError("\(out) already exists; nothing was written",
                                          hint: "choose another --out file, or pass --force to replace it")
            }
        }
        let folder = destination.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RenderArgumentError("--out \(out): the folder \(folder.path) does not exist")
        }
        guard let ffmpeg = VideoExporter.locateFFmpeg() else {
            throw RenderArgumentError(VideoExporter.ffmpegMissingMessage)
        }

        let timeline = try OutputTimeline(span)
        let span = try timeline.span()
        // Sample k sounds at k / rate: the sound's first sample is the first at or after the first frame's time.
        let rate = Rational(Render.audioSampleRate)
        let offset = timeline.playlistSpan.lowerBound
        let audioSpan = Int64(((offset + span.start) * rate).ceiling)..<Int64(((offset + span.end) * rate).ceiling)
        let request = VideoExportRequest(
            document: timeline.document, baseDirectory: timeline.loaded.baseDirectory,
            frames: try timeline.frames(span, fps: fps),
            width: width, height: height, fps: fps, language: timeline.language, audioSpan: audioSpan,
            sampleRate: Render.audioSampleRate, format: chosen, quality: quality, destination: destination, replacing: force,
            threads: threads)
        return (request, ffmpeg)
    }

    /// Every signal whose default action ends the process and that can come from outside it: a closed terminal
    /// (SIGHUP), Ctrl-C, Ctrl-\, kill, and the rest. Faults (SIGSEGV and the like) are not requests to stop.
    static let terminatingSignals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
                                              SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT]

    /// Turns every terminating signal into a cancellation: the export kills ffmpeg and removes its partial file,
    /// and exits with 128 + the signal's number. The handler only writes the number into a pipe (all a signal handler
    /// may safely do); a thread reading it cancels.
    private static func forwardInterrupts(to cancellation: ExportCancellation) {
        let pipe = interruptPipe
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(pipe.read, &byte, 1) < 0 && errno == EINTR {}
            receivedSignal.store(Int32(byte), ordering: .relaxed)
            cancellation.cancel()
        }
        for number in terminatingSignals {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(interruptPipe.write, &byte, 1)
            }
        }
    }
}

/// The signal that stopped the export; SIGINT until one arrives.
private let receivedSignal = Atomic<Int32>(SIGINT)

/// The self-pipe of `Export.forwardInterrupts`: created before any handler can run.
private let interruptPipe: (read: Int32, write: Int32) = {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    return (fds[0], fds[1])
}()

/// Shows an export's progress on standard error: a bar with frames, rate and time left on a terminal; otherwise
/// a line when ffmpeg starts and one per tenth of the frames.
private final class ExportProgressPrinter: Sendable {
    private struct State {
        var bar: RenderProgress?
        var started = ContinuousClock.now
        var lastTenth = 0
    }

    private let state: Mutex<State>
    private let terminal: Bool
    private let intro: String

    init(request: VideoExportRequest, destination: String, terminal: Bool) {
        self.terminal = terminal
        state = Mutex(State())
        intro = "exporting \(request.frames.count) frames (\(request.width)x\(request.height), \(request.fps.decimalDescription) fps, "
            + "\(request.format.summary)) to \(destination) with ffmpeg"
    }

    var show: @Sendable (VideoExportEvent) -> Void {
        { [self] event in self.handle(event) }
    }

    private func handle(_ event: VideoExportEvent) {
        state.withLock { state in
            switch event {
            case .encoderStarted(let pass, let passes):
                let line = pass == 1 ? intro + (passes > 1 ? " (pass 1 of \(passes): the palette)" : "")
                    : "pass \(pass) of \(passes): mapping the frames onto the palette"
                if terminal, state.bar != nil { StandardStreams.writeError("\n") }
                StandardStreams.writeError(line + "\n")
            case .progress(let done, let total):
                if terminal {
                    if state.bar == nil { state.bar = RenderProgress(total: total, showing: true) }
                    state.bar?.frameDone(done)
                    return
                }
                let tenth = total > 0 ? 10 * done / total : 10
                guard tenth > state.lastTenth else { return }
                state.lastTenth = tenth
                let elapsed = ContinuousClock.now - state.started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                let rate = seconds > 0 ? Double(done) / seconds : 0
                let left = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : 0
                let line = String(format: "%d/%d frames  %.1f fps  %d:%02d left", done, total, rate, left / 60, left % 60)
                StandardStreams.writeError(line + "\n")
            }
        }
    }

    func finish() {
        state.withLock { state in
            if state.bar != nil { state.bar?.finish(); state.bar = nil }
        }
    }
}
