import ArgumentParser
import DioramaAudio
import DioramaDocument
import DioramaExport
import DioramaTimeline
import Foundation

/// `diorama bench export`: a video export's speed as a multiple of real time, and where the time goes.
struct ExportBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Measure video export speed (multiple of real time) and its parts: rendering, encoding, mixing.",
        discussion: """
            1. The export itself: the first --seconds of the playlist (default 60) at --size and --fps to a \
            temporary --format file, as diorama export writes it.
            2. Its parts on their own: rendering the same frames on all cores (frames thrown away) and on one \
            core, with and without the conversion to the encoder's pixels; ffmpeg encoding such frames it \
            reads from a file (no rendering beside it); the offline mix.

            Example:
              swift build -c release && .build/release/diorama bench export scenes.json
            """
    )

    @Argument(help: "The scenes file.")
    var file: String = "scenes.json"

    @Option(help: "Seconds of the playlist to export.")
    var seconds = Seconds(argument: "60")

    @Option(help: "Output size in pixels, WIDTHxHEIGHT.")
    var size = FrameSize(argument: "1280x720")

    @Option(help: "Frames per second.")
    var fps = FrameRate(argument: "30")

    @Option(help: ArgumentHelp("The file format.", valueName: "mp4|webm|gif"))
    var format: String = "mp4"

    @Option(help: "Rendering threads (default: one per core).")
    var threads: Int?

    func run() throws {
        let (width, height) = try size.value()
        let fps = try fps.value()
        guard let format = VideoFormat(rawValue: format) else { throw ValidationError("--format: mp4, webm or gif") }
        guard let ffmpeg = VideoExporter.locateFFmpeg() else { throw ValidationError(VideoExporter.ffmpegMissingMessage) }
        let timeline = try OutputTimeline(SpanOptions.parse([file, "--to", seconds.text]))
        let span = try timeline.span()
        let frames = try timeline.frames(span, fps: fps)
        let spanSeconds = (span.end - span.start).doubleValue
        let threads = threads ?? ProcessInfo.processInfo.activeProcessorCount
        let rate = Render.audioSampleRate
        let audioSpan = Int64((span.start * Rational(rate)).ceiling)..<Int64((span.end * Rational(rate)).ceiling)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let imageDirectory = URL(fileURLWithPath: timeline.loaded.baseDirectory, isDirectory: true)
        print("\(frames.count) frames (\(width)x\(height), \(fps.decimalDescription) fps, \(String(format: "%.1f", spanSeconds)) s), "
              + "\(format.summary), \(threads) rendering threads on \(ProcessInfo.processInfo.activeProcessorCount) cores")

        // 1. The export.
        let destination = folder.appendingPathComponent("bench.\(format.rawValue)")
        let request = VideoExportRequest(document: timeline.document, baseDirectory: timeline.loaded.baseDirectory, frames: frames,
                                         width: width, height: height, fps: fps, language: timeline.language, audioSpan: audioSpan,
                                         sampleRate: rate, format: format, destination: destination, replacing: true, threads: threads)
        let report = try VideoExporter.export(request, ffmpeg: ffmpeg)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
        print(String(format: "export: %.2f s, %.1f fps: %.2fx real time (%.1f MB)", report.elapsedSeconds,
                     Double(frames.count) / report.elapsedSeconds, spanSeconds / report.elapsedSeconds, Double(bytes) / 1e6))

        // 2. Rendering alone, on all threads and on one, as drawn and as the encoder takes it.
        for pixelFormat in [VideoPixelFormat.bgra] + (format.pixelFormat == .bgra ? [] : [format.pixelFormat]) {
            for count in Set([threads, 1]).sorted(by: >) {
                let started = ContinuousClock.now
                _ = try ParallelFrames.render(frames, document: timeline.document, imageDirectory: imageDirectory, width: width,
                                              height: height, language: timeline.language, pixelFormat: pixelFormat,
                                              threads: count) { _, _ in }
                let elapsed = AudioBenchmark.wallSeconds(ContinuousClock.now - started)
                print(String(format: "rendering alone%@, %d thread%@: %.2f s, %.1f fps, %.2f ms per frame: %.2fx real time",
                             pixelFormat == .bgra ? "" : " + conversion to Y'CbCr 4:2:0", count, count == 1 ? "" : "s", elapsed,
                             Double(frames.count) / elapsed, 1000 * elapsed / Double(frames.count), spanSeconds / elapsed))
            }
        }

        // 3. ffmpeg encoding alone: a second of rendered frames in a file, read over and over.
        let sample = Array(frames.prefix(max(1, Int(fps.ceiling))))
        let raw = folder.appendingPathComponent("frames.raw")
        _ = FileManager.default.createFile(atPath: raw.path, contents: nil)
        let handle = try FileHandle(forWritingTo: raw)
        _ = try ParallelFrames.render(sample, document: timeline.document, imageDirectory: imageDirectory, width: width,
                                      height: height, language: timeline.language, pixelFormat: format.pixelFormat,
                                      threads: threads) { _, pixels in
            handle.write(Data(pixels))
        }
        try handle.close()
        let loops = (frames.count + sample.count - 1) / sample.count
        var arguments = ["-hide_banner", "-nostdin", "-v", "error", "-stream_loop", String(loops - 1), "-f", "rawvideo"]
            + format.pixelFormat.ffmpegArguments + ["-video_size", "\(width)x\(height)", "-framerate", "\(fps.numerator)/\(fps.denominator)", "-i", raw.path,
                         "-frames:v", String(frames.count)]
        switch format {
        case .mp4: arguments += ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20"]
        case .webm: arguments += ["-c:v", "libvpx-vp9", "-crf", "32", "-b:v", "0", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1"]
        case .gif: arguments += ["-vf", "palettegen=stats_mode=diff"]
        }
        arguments += ["-f", "null", "-"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = arguments
        let started = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let encoding = AudioBenchmark.wallSeconds(ContinuousClock.now - started)
        print(String(format: "ffmpeg encoding alone (frames from a file): %.2f s, %.1f fps: %.2fx real time%@", encoding,
                     Double(frames.count) / encoding, spanSeconds / encoding,
                     process.terminationStatus == 0 ? "" : " (ffmpeg failed)"))

        // 4. The offline mix.
        let schedule = CueSchedule(document: timeline.document, sampleRate: rate)
        let mix = try renderAudio(document: timeline.document, directory: timeline.loaded.baseDirectory, schedule: schedule,
                                  span: audioSpan, to: folder.appendingPathComponent("mix.wav"))
        print(String(format: "offline mix (load included): %.2f s: %.0fx real time", mix.elapsedSeconds, spanSeconds / mix.elapsedSeconds))
    }
}
