import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTimeline
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What to export: frames of a document, the span of its playlist sound that goes with them, and the file.
public struct VideoExportRequest: Sendable {
    public var document: Document
    /// The scenes file's folder: image and sound paths resolve against it.
    public var baseDirectory: String
    /// Frame k shows `frames[k]` and lasts 1 / `fps`.
    public var frames: [PlaybackPosition]
    public var width: Int
    public var height: Int
    public var fps: Rational
    public var language: String
    /// The sound: playlist samples at `sampleRate`; its first sample plays with the first frame.
    public var audioSpan: Range<Int64>
    public var sampleRate: Int
    public var format: VideoFormat
    /// The CRF; nil for the format's default.
    public var quality: Int?
    public var destination: URL
    /// Replace `destination` if it exists; otherwise an existing file is never touched.
    public var replacing: Bool
    /// Rendering threads (one renderer each).
    public var threads: Int

    public init(document: Document, baseDirectory: String, frames: [PlaybackPosition], width: Int, height: Int, fps: Rational,
                language: String, audioSpan: Range<Int64>, sampleRate: Int = AudioFormat.sampleRate, format: VideoFormat, quality: Int? = nil,
                destination: URL, replacing: Bool, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.document = document
        self.baseDirectory = baseDirectory
        self.frames = frames
        self.width = width
        self.height = height
        self.fps = fps
        self.language = language
        self.audioSpan = audioSpan
        self.sampleRate = sampleRate
        self.format = format
        self.quality = quality
        self.destination = destination
        self.replacing = replacing
        self.threads = threads
    }
}

/// What an export did.
public struct VideoExportReport: Sendable {
    public var frames: Int
    public var audioSamples: Int64
    /// Wall-clock seconds the export took, from loading the sounds to the renamed file.
    public var elapsedSeconds: Double
    /// Sounds that could not be loaded and images that could not be drawn, each once.
    public var warnings: [String]
}

/// Progress of an export, for the command line to show.
public enum VideoExportEvent: Sendable {
    /// ffmpeg is running and frames are about to flow; `pass` of `passes` (a GIF takes two).
    case encoderStarted(pass: Int, passes: Int)
    /// `done` of `total` frames (over all passes) have gone to ffmpeg.
    case progress(done: Int, total: Int)
}

/// Writes a document's frames and sound to a video file through ffmpeg: frames rendered on every core go to it
/// in order through one pipe while the offline mix goes through another. The file is written under a hidden
/// temporary name in the destination's folder and renamed into place only when ffmpeg has succeeded, so an
/// interruption or failure leaves nothing under the requested name, and an existing file is never replaced
/// unless `replacing`.
public enum VideoExporter {
    /// The program's path, or nil when it is not installed (`FFmpegMissing.message` says what to install).
    public static func locateFFmpeg(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        FFmpegProcess.locate(path: path)
    }

    /// The one-line message when ffmpeg is missing.
    public static let ffmpegMissingMessage =
        "ffmpeg is not installed: export needs the ffmpeg program (Debian package \(FFmpegProcess.debianPackage): apt-get install ffmpeg)"

    public static func export(_ request: VideoExportRequest, ffmpeg: String, cancellation: ExportCancellation = ExportCancellation(),
                              events: @escaping @Sendable (VideoExportEvent) -> Void = { _ in }) throws(VideoExportError) -> VideoExportReport {
        let started = ContinuousClock.now
        let folder = request.destination.deletingLastPathComponent()
        let name = request.destination.lastPathComponent
        let temporary = folder.appendingPathComponent(".\(name).partial-\(getpid())")
        let palette = folder.appendingPathComponent(".\(name).palette-\(getpid()).png")
        defer {
            unlink(temporary.path)
            unlink(palette.path)
        }
        if cancellation.isCancelled { throw .cancelled }

        var warnings: [String] = []
        let audio = request.format.hasSound ? PlaylistAudio(document: request.document, directory: request.baseDirectory,
                                                            sampleRate: request.sampleRate) : nil
        if let audio { warnings += audio.warnings }

        let pixelFormat = request.format.pixelFormat
        let video = videoInput(request, pixelFormat: pixelFormat)
        let output: [String] = ["-f", request.format.muxer, temporary.path]
        switch request.format {
        case .mp4, .webm:
            let quality = request.quality ?? request.format.defaultQuality ?? 0
            let arguments = commonArguments + video + request.format.soundInputArguments + ["-f", "f32le", "-ar", String(request.sampleRate), "-ac", String(AudioFormat.channels), "-i", "pipe:4"]
                + request.format.encodingArguments(quality: quality) + output
            warnings += try run(ffmpeg, arguments, request: request, pixelFormat: pixelFormat, audio: audio, pass: 1, passes: 1, cancellation: cancellation,
                                events: events)
        case .gif:
            // Pass 1 finds the 256 colours that serve the frames best; pass 2 maps every frame onto them.
            let first = commonArguments + video + ["-vf", "palettegen=stats_mode=diff", "-f", "image2", "-update", "1", palette.path]
            warnings += try run(ffmpeg, first, request: request, pixelFormat: pixelFormat, audio: nil, pass: 1, passes: 2, cancellation: cancellation,
                                events: events)
            let second = commonArguments + video + ["-i", palette.path,
                                                    "-lavfi", "[0:v][1:v]paletteuse=dither=sierra2_4a:diff_mode=rectangle",
                                                    "-loop", "0"] + output
            warnings += try run(ffmpeg, second, request: request, pixelFormat: pixelFormat, audio: nil, pass: 2, passes: 2, cancellation: cancellation,
                                events: events)
        }
        if cancellation.isCancelled { throw .cancelled }

        // Into place: linking fails if the name exists, even if it appeared meanwhile; renaming replaces atomically.
        if request.replacing {
            guard rename(temporary.path, request.destination.path) == 0 else {
                throw .system("cannot rename the finished video to \(request.destination.path): \(String(cString: strerror(errno)))")
            }
        } else if link(temporary.path, request.destination.path) != 0 {
            if errno == EEXIST { throw .destinationExists(request.destination.path) }
            throw .system("cannot move the finished video to \(request.destination.path): \(String(cString: strerror(errno)))")
        }
        var unique: [String] = []
        for warning in warnings where !unique.contains(warning) { unique.append(warning) }
        let elapsed = ContinuousClock.now - started
        return VideoExportReport(frames: request.frames.count,
                                 audioSamples: request.format.hasSound ? Int64(request.audioSpan.count) : 0,
                                 elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                                 warnings: unique)
    }

    private static let commonArguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y"]

    /// Raw frames on pipe 3. cairo's premultiplied ARGB32 is B, G, R, A in memory; the alpha is ignored, which
    /// shows any transparency over black, as the player's letterbox does.
    private static func videoInput(_ request: VideoExportRequest, pixelFormat: VideoPixelFormat) -> [String] {
        ["-f", "rawvideo"] + pixelFormat.ffmpegArguments + ["-video_size", "\(request.width)x\(request.height)",
         "-framerate", "\(request.fps.numerator)/\(request.fps.denominator)", "-i", "pipe:3"]
    }

    /// One ffmpeg run: frames into pipe 3 from the calling thread, the mix (when `audio`) into pipe 4 from another.
    private static func run(_ program: String, _ arguments: [String], request: VideoExportRequest,
                            pixelFormat: VideoPixelFormat, audio: PlaylistAudio?,
                            pass: Int, passes: Int, cancellation: ExportCancellation,
                            events: @escaping @Sendable (VideoExportEvent) -> Void) throws(VideoExportError) -> [String] {
        let process = try FFmpegProcess(program: program, arguments: arguments, inputCount: audio == nil ? 1 : 2)
        let token = cancellation.whenCancelled { process.kill() }
        var waited = false
        defer {
            if !waited {
                process.kill()
                process.closeInputs()
                _ = process.wait()
            }
            cancellation.remove(token)
        }
        events(.encoderStarted(pass: pass, passes: passes))

        let soundDone = DispatchGroup()
        let soundFailed = SoundFailure()
        if let audio {
            soundDone.enter()
            Thread.detachNewThread {
                defer { process.finishInput(1); soundDone.leave() }
                do throws(VideoExportError) {
                    try streamMix(audio, span: request.audioSpan) { samples throws(VideoExportError) in
                        try process.write(UnsafeRawBufferPointer(samples), toInput: 1)
                    }
                } catch {
                    soundFailed.set()
                }
            }
        }

        let total = request.frames.count * passes
        let offset = request.frames.count * (pass - 1)
        var failure: VideoExportError?
        var warnings: [String] = []
        do throws(VideoExportError) {
            warnings = try ParallelFrames.render(request.frames, document: request.document,
                                                 imageDirectory: URL(fileURLWithPath: request.baseDirectory, isDirectory: true),
                                                 width: request.width, height: request.height, language: request.language,
                                                 pixelFormat: pixelFormat, threads: request.threads) { index, pixels throws(VideoExportError) in
                if cancellation.isCancelled { throw .cancelled }
                try process.write(pixels, toInput: 0)
                events(.progress(done: offset + index + 1, total: total))
            }
        } catch {
            failure = error
            if case .render = error { process.kill() }
        }
        process.finishInput(0)
        soundDone.wait()
        let status = process.wait()
        waited = true
        if cancellation.isCancelled { throw .cancelled }
        if let failure, case .render = failure { throw failure }
        if status != 0 || failure != nil || soundFailed.isSet {
            throw .ffmpegFailed(status: status, lines: process.lastErrorLines())
        }
        return warnings
    }

    /// The playlist's offline mix over `span`, block by block, as interleaved stereo 32-bit floats: the same
    /// samples `diorama render --audio` writes (before 16-bit rounding).
    static func streamMix(_ audio: PlaylistAudio, span: Range<Int64>,
                          write: (UnsafeBufferPointer<Float>) throws(VideoExportError) -> Void) throws(VideoExportError) {
        let schedule = CueSchedule(document: audio.document, sampleRate: audio.sampleRate)
        _ = try OfflineAudio.stream(commands: audio.commands(playingOnce: schedule), sounds: audio.bank.sounds, span: span,
                                    configuration: MixerConfiguration(sampleRate: audio.sampleRate), write)
    }
}

/// Set by the sound thread when ffmpeg stopped taking the mix.
private final class SoundFailure: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}
