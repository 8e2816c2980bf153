import DioramaTestSupport
import Foundation
import Testing

/// `diorama export` end to end, read back with ffprobe and ffmpeg (Debian `ffmpeg`, which scripts/test installs).
@Suite struct ExportTests {
    static let clickDocument = DioramaCommand.repositoryRoot.appendingPathComponent("Tests/DioramaCLITests/Fixtures/click-cue.json").path
    /// The fixture's only cue: the click at 1.2345 s of its second scene, which starts at 1 s: playlist sample 107256.
    static let clickSample = 107_256

    // MARK: Reading the files back

    /// `ffprobe`'s streams and format of `file`.
    static func probe(_ file: String) throws -> (streams: [[String: Any]], format: [String: Any]) {
        let result = try run("/usr/bin/env", ["ffprobe", "-v", "error", "-show_entries",
                                              "stream=codec_type,codec_name,start_time,duration,nb_frames,width,height,sample_rate,channels:format=duration",
                                              "-of", "json", file])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] ?? [:]
        return (json["streams"] as? [[String: Any]] ?? [], json["format"] as? [String: Any] ?? [:])
    }

    /// The left channel of `file`'s sound, decoded by ffmpeg at 48 kHz.
    static func decodeLeft(_ file: String) throws -> [Float] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-nostdin", "-i", file, "-map", "0:a", "-f", "f32le", "-ac", "2", "-ar", "48000", "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
    }

    /// The first sample louder than a tenth of the loudest: a transient's onset, robust to a lossy codec's pre-echo.
    static func onset(_ samples: [Float]) -> Int? {
        let peak = samples.map(abs).max() ?? 0
        guard peak > 0.01 else { return nil }
        return samples.firstIndex { abs($0) > peak / 10 }
    }

    /// The presentation time, in seconds, of the first frame of `file`'s video or audio stream as ffmpeg decodes it:
    /// the container's stamps with the codec's delay applied and, for sound, the encoder's priming dropped (Opus's
    /// pre-skip, AAC's edit list), as a player schedules it. A few packets are read: AAC's first, its priming, decodes
    /// to nothing a player keeps.
    static func firstFrameTime(_ file: String, stream: String) throws -> Double {
        let result = try run("/usr/bin/env", ["ffprobe", "-v", "error", "-select_streams", stream, "-show_entries", "frame=pts_time",
                                              "-read_intervals", "%+#4", "-of", "csv=p=0", file])
        #expect(result.status == 0, "\(result.standardError)")
        let line = result.standardOutput.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return try #require(Double(line.split(separator: ",").first.map(String.init) ?? ""), "no frame time in \(result.standardOutput)")
    }

    /// Where the click is heard as a player plays `file`: samples at 48 kHz after the first video frame appears,
    /// the decoded sound placed by its first frame's presentation time rather than counted from decoded sample 0.
    static func onsetAfterTheFirstFrame(_ file: String) throws -> Int? {
        let soundStart = try firstFrameTime(file, stream: "a"), pictureStart = try firstFrameTime(file, stream: "v")
        guard let onset = onset(try decodeLeft(file)) else { return nil }
        return onset + Int(((soundStart - pictureStart) * 48_000).rounded())
    }

    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, standardOutput: String, standardError: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile(), err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    static func number(_ value: Any?) -> Double? { (value as? String).flatMap(Double.init) ?? (value as? Double) }

    /// The files in `folder`, hidden ones included.
    static func contents(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    // MARK: Sync and duration

    @Test func mp4SoundStartsWithTheFirstFrameAndTheCueLandsOnItsSample() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("click.mp4")
        // From 0.5 s: the span crosses the scene change at 1 s, and neither the start nor the cue is on a frame.
        let result = try DioramaCommand.run(["export", Self.clickDocument, "--from", "0.5", "--to", "3.5", "--size", "320x180",
                                             "--out", file])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("90 frames (320x180, 30 fps) and 3.000 s of sound"), "\(result.standardOutput)")

        let (streams, format) = try Self.probe(file)
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        #expect(video["codec_name"] as? String == "h264")
        #expect(audio["codec_name"] as? String == "aac")
        #expect(video["width"] as? Int == 320 && video["height"] as? Int == 180)
        #expect(Int(video["nb_frames"] as? String ?? "") == 90)
        #expect(audio["sample_rate"] as? String == "48000" && audio["channels"] as? Int == 2)
        #expect(Self.number(video["start_time"]) == 0)
        #expect(Self.number(audio["start_time"]) == 0)
        #expect(abs((Self.number(video["duration"]) ?? 0) - 3) < 1e-6)
        #expect(abs((Self.number(audio["duration"]) ?? 0) - 3) < 1e-6)
        #expect(abs((Self.number(format["duration"]) ?? 0) - 3) < 1e-6)

        // The click was scheduled at playlist sample 107256; the video starts at 0.5 s, playlist sample 24000.
        let left = try Self.decodeLeft(file)
        let onset = try #require(Self.onset(left))
        #expect(abs(onset - (Self.clickSample - 24_000)) <= 1, "the click starts at sample \(onset)")
    }

    /// A player aligns the streams by their stamps: the click must sound on its sample counted from the first frame's
    /// appearance. WebM's Opus once put its sound 7 ms (336 samples) ahead of the picture, invisible to a count from
    /// decoded sample 0. Both formats start their streams at 0 and the click lands within a sample.
    @Test(arguments: ["mp4", "webm"])
    func theClickSoundsOnItsSampleAfterTheFirstFrameAsAPlayerPlaysIt(_ format: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.path("click.\(format)")
        let result = try DioramaCommand.run(["export", Self.clickDocument, "--from", "0.5", "--to", "3.5", "--size", "320x180",
                                             "--out", file])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.firstFrameTime(file, stream: "v") == 0)
        #expect(try Self.firstFrameTime(file, stream: "a") == 0)
        let onset = try #require(try Self.onsetAfterTheFirstFrame(file))
        #expect(abs(onset - (Self.clickSample - 24_000)) <= 1, "the click is heard \(onset) samples after the first frame")
    }

    /// The pixel at (x, y) of the frame shown at `seconds`, as ffmpeg turns the file back into RGB.
    static func decodedPixel(_ file: String, at seconds: Double, x: Int, y: Int, width: Int) throws -> [Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-nostdin", "-ss", String(seconds), "-i", file, "-frames:v", "1",
                             "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let index = (y * width + x) * 3
        guard data.count >= index + 3 else { return [] }
        return data[index..<(index + 3)].map(Int.init)
    }

    @Test(arguments: ["mp4", "webm"])
    func colorsComeBackAsDrawn(_ format: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.path("colors.\(format)")
        let result = try DioramaCommand.run(["export", Self.clickDocument, "--scene", "click", "--to", "1", "--size", "320x180",
                                             "--out", file])
        #expect(result.status == 0, "\(result.standardError)")
        // The background #101820 and the circle #f0c040: the file says how its Y'CbCr turns back into RGB (BT.709).
        for (x, y, color) in [(10, 10, [0x10, 0x18, 0x20]), (160, 90, [0xf0, 0xc0, 0x40]), (300, 170, [0x10, 0x18, 0x20])] {
            let pixel = try Self.decodedPixel(file, at: 0.5, x: x, y: y, width: 320)
            #expect(pixel.count == 3 && zip(pixel, color).allSatisfy { abs($0 - $1) <= 3 }, "(\(x), \(y)) is \(pixel), drawn \(color)")
        }
    }

    @Test func aSceneExportStartsAtTheScenesTimeAndWebMCarriesVP9AndOpus() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("click.webm")
        let result = try DioramaCommand.run(["export", Self.clickDocument, "--scene", "click", "--from", "1", "--to", "2",
                                             "--size", "320x180", "--out", file])
        #expect(result.status == 0, "\(result.standardError)")
        let (streams, format) = try Self.probe(file)
        #expect(streams.compactMap { $0["codec_name"] as? String }.sorted() == ["opus", "vp9"])
        // Matroska counts time in milliseconds: the span is met to that resolution.
        #expect(abs((Self.number(format["duration"]) ?? 0) - 1) <= 0.01, "\(format)")
        // Scene second 1 is playlist second 2: the click at scene second 1.2345 sounds 0.2345 s in, to the
        // millisecond (Opus smears a transient by a few samples).
        let onset = try #require(Self.onset(try Self.decodeLeft(file)))
        #expect(abs(onset - 11_256) <= 48, "the click starts at sample \(onset)")
    }

    @Test func aGIFHasTheFramesAndNoSound() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("clip.gif")
        let result = try DioramaCommand.run(["export", Self.clickDocument, "--to", "2", "--fps", "10", "--size", "160x90",
                                             "--out", file])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("20 frames (160x90, 10 fps), animated GIF"), "\(result.standardOutput)")
        let (streams, format) = try Self.probe(file)
        #expect(streams.count == 1)
        #expect(streams.first?["codec_name"] as? String == "gif")
        #expect(Int(streams.first?["nb_frames"] as? String ?? "") == 20)
        #expect(abs((Self.number(format["duration"]) ?? 0) - 2) < 0.02)
        #expect(try Self.contents(folder) == ["clip.gif"], "the palette is not left behind")
    }

    // MARK: Never a half-written or replaced file

    @Test func anExistingFileIsNeverReplacedWithoutForce() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("mine.mp4")
        try Data("my own video".utf8).write(to: URL(fileURLWithPath: file))
        let refused = try DioramaCommand.run(["export", Self.clickDocument, "--to", "0.2", "--size", "64x36", "--out", file])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("already exists; nothing was written"), "\(refused.standardError)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "my own video")

        let forced = try DioramaCommand.run(["export", Self.clickDocument, "--to", "0.2", "--size", "64x36", "--out", file, "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try Self.probe(file).streams.count == 2)
        #expect(try Self.contents(folder) == ["mine.mp4"])
    }

    /// A stand-in `ffmpeg` in a folder put first on PATH.
    static func fakeFFmpeg(_ script: String, in folder: TemporaryFolder) throws -> [String: String] {
        let bin = folder.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let program = bin.appendingPathComponent("ffmpeg")
        try ("#!/bin/sh\n" + script).write(to: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        return ["PATH": bin.path + ":/usr/bin:/bin"]
    }

    @Test func anFFmpegThatFailsAtOnceLeavesNoFileAndItsLastLinesAreShown() throws {
        let folder = try TemporaryFolder()
        let environment = try Self.fakeFFmpeg("""
            echo "Unknown encoder 'libx264'" >&2
            echo "Error selecting an encoder for stream #0:0" >&2
            exit 1
            """, in: folder)
        let file = folder.path("show.mp4")
        let result = try DioramaCommand.run(["export", Self.clickDocument, "--size", "320x180", "--out", file], environment: environment)
        #expect(result.status == 1)
        #expect(result.standardError.contains("ffmpeg failed (exit status 1)"), "\(result.standardError)")
        #expect(result.standardError.contains("ffmpeg: Unknown encoder 'libx264'"))
        #expect(result.standardError.contains("ffmpeg: Error selecting an encoder for stream #0:0"))
        #expect(try Self.contents(folder) == ["bin"])
    }

    @Test func anFFmpegThatFailsAfterWritingLeavesNoFile() throws {
        let folder = try TemporaryFolder()
        // Reads every frame and the whole mix, writes half a file under the name it was given, then fails.
        let environment = try Self.fakeFFmpeg("""
            for last in "$@"; do :; done
            cat <&3 >/dev/null
            cat <&4 >/dev/null
            echo "half a file" > "$last"
            echo "av_interleaved_write_frame(): No space left on device" >&2
            exit 1
            """, in: folder)
        let file = folder.path("show.mp4")
        let result = try DioramaCommand.run(["export", Self.clickDocument, "--to", "1", "--size", "64x36", "--out", file],
                                            environment: environment)
        #expect(result.status == 1)
        #expect(result.standardError.contains("ffmpeg: av_interleaved_write_frame(): No space left on device"), "\(result.standardError)")
        #expect(result.standardError.contains("nothing was written to \(file)"))
        #expect(try Self.contents(folder) == ["bin"])
    }

    @Test func withoutFFmpegItNamesTheDebianPackage() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("show.mp4")
        let result = try DioramaCommand.run(["export", Self.clickDocument, "--out", file], environment: ["PATH": folder.url.path])
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("Debian package ffmpeg"))
        #expect(try Self.contents(folder).isEmpty)
    }

    @Test(arguments: ["bad-format", "odd-size", "gif-quality", "quality-range"])
    func badArgumentsExitTwoAndWriteNothing(_ problem: String) throws {
        let folder = try TemporaryFolder()
        let (arguments, message): ([String], String) = switch problem {
        case "bad-format": (["--out", folder.path("show.avi")], "does not name a video format")
        case "odd-size": (["--out", folder.path("show.mp4"), "--size", "321x180"], "needs an even width and height")
        case "gif-quality": (["--out", folder.path("show.gif"), "--quality", "10"], "--quality does not apply to a GIF")
        default: (["--out", folder.path("show.webm"), "--quality", "64"], "--quality 64 is outside 0-63 for webm")
        }
        let result = try DioramaCommand.run(["export", Self.clickDocument] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(try Self.contents(folder).isEmpty)
    }

    // MARK: Interruption

    /// Who gets the SIGINT: diorama's process group (a Ctrl-C at a terminal), diorama alone, or ffmpeg's group.
    enum Interrupt: String, CaseIterable, Sendable { case terminal, diorama, ffmpeg }

    @Test(arguments: Interrupt.allCases)
    func anInterruptLeavesNoFile(_ interrupt: Interrupt) throws {
        let folder = try TemporaryFolder()
        let file = folder.path("show.mp4")
        // The whole playlist at full size takes far longer than the signal needs to arrive.
        let process = Process()
        process.executableURL = DioramaCommand.executable
        process.arguments = ["export", "scenes.json", "--out", file]
        process.currentDirectoryURL = DioramaCommand.repositoryRoot
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait for ffmpeg to be running: diorama says so on its first line.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("with ffmpeg") {
            let chunk = error.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        #expect(String(decoding: seen, as: UTF8.self).contains("with ffmpeg"))
        let ffmpeg = Self.children(of: process.processIdentifier).first
        switch interrupt {
        case .terminal:
            // Foundation starts a child as the leader of a process group of its own: signalling that group
            // reaches diorama and nothing of ours.
            try #require(getpgid(process.processIdentifier) == process.processIdentifier)
            kill(-process.processIdentifier, SIGINT)
        case .diorama: kill(process.processIdentifier, SIGINT)
        case .ffmpeg:
            let pid = try #require(ffmpeg)
            try #require(getpgid(pid) == pid)
            kill(-pid, SIGINT)
        }
        seen += error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: seen, as: UTF8.self)
        if interrupt == .ffmpeg {
            #expect(process.terminationStatus == 1, "\(text)")
            #expect(text.contains("ffmpeg failed"))
        } else {
            #expect(process.terminationStatus == 130, "\(text)")
            #expect(text.contains("interrupted: nothing was written to \(file)"))
        }
        #expect(try Self.contents(folder).isEmpty)
        // ffmpeg did not outlive the export.
        if let ffmpeg { #expect(kill(ffmpeg, 0) != 0) }
    }

    /// A closed terminal (SIGHUP), a quit key (SIGQUIT) and the other signals whose default is to end the
    /// process end an export as SIGINT does: ffmpeg killed, no partial file, the exit status 128 + the signal.
    @Test(arguments: [SIGHUP, SIGQUIT, SIGUSR1, SIGALRM])
    func anyTerminatingSignalLeavesNoFile(_ number: Int32) throws {
        let folder = try TemporaryFolder()
        let file = folder.path("show.mp4")
        let process = Process()
        process.executableURL = DioramaCommand.executable
        process.arguments = ["export", "scenes.json", "--out", file]
        process.currentDirectoryURL = DioramaCommand.repositoryRoot
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let watchdog = CommandWatchdog(pid: process.processIdentifier, timeout: 120)
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("with ffmpeg") {
            let chunk = error.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        #expect(String(decoding: seen, as: UTF8.self).contains("with ffmpeg"))
        let ffmpeg = Self.children(of: process.processIdentifier).first
        kill(process.processIdentifier, number)
        seen += error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(!watchdog.finish(), "the export did not end")
        let text = String(decoding: seen, as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + number, "\(process.terminationStatus): \(text)")
        #expect(text.contains("interrupted: nothing was written to \(file)"), "\(text)")
        // ffmpeg (which a lost terminal does not reach: it has a process group of its own) did not outlive the export.
        if let ffmpeg { #expect(kill(ffmpeg, 0) != 0) }
        #expect(try Self.contents(folder).isEmpty)
    }

    /// The process ids of `pid`'s children, from /proc.
    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
    }
}
