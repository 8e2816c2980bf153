import DioramaTestSupport
import Foundation
import Testing

/// The commands against hostile files: output to a full disk, named pipes where files are expected, partial
/// files, oversized goldens. Each command runs with a timeout, so one that hangs fails instead of stalling.
@Suite struct FileSafetyTests {
    /// Seconds any of these commands may take; each finishes in well under one when it works.
    static let timeout = 60.0

    static let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path

    /// A scenes file in `folder` with the sound "bell" at `sound` and `nodes` in its one 2 s scene.
    static func scenes(in folder: TemporaryFolder, sound: String = "\(media)/bell.flac", nodes: String = "") throws -> String {
        let json = """
            { "canvas": { "width": 160, "height": 90, "background": "#102030" },
              "sounds": { "bell": "\(sound)" },
              "scenes": [{ "id": "pond", "duration": 2,
                "cues": [{ "id": "ding", "sound": "bell", "at": 0.5 }],
                "nodes": [\(nodes)] }] }
            """
        try Data(json.utf8).write(to: folder.url.appendingPathComponent("pond.json"))
        return folder.path("pond.json")
    }

    static func fifo(_ path: String) throws {
        guard mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    // MARK: A full disk

    @Test func checkWithItsStandardErrorOnAFullDiskExitsTwoWithoutTrapping() throws {
        let folder = try TemporaryFolder()
        let scenes = try Self.scenes(in: folder, sound: "missing.flac")
        let result = try DioramaCommand.run(["check", scenes], timeout: Self.timeout, standardError: .file("/dev/full"))
        #expect(result.signal == nil, "killed by signal \(result.signal ?? 0)")
        #expect(result.status == 2)
    }

    @Test func playWithItsLogOnAFullDiskSaysSoAndExitsOne() throws {
        let folder = try TemporaryFolder()
        let scenes = try Self.scenes(in: folder)
        let log = folder.path("play.jsonl")
        // Any write to a file past 0 bytes fails, as on a full disk.
        let result = try DioramaCommand.run(["play", scenes, "--no-audio", "--frames", "90", "--log", log],
                                            environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"],
                                            timeout: Self.timeout, fileSizeLimit: 0)
        #expect(result.signal == nil, "killed by signal \(result.signal ?? 0): \(result.standardError)")
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("cannot write the log \(log): File too large"), "\(result.standardError)")
    }

    @Test func renderAudioOnAFullDiskLeavesNoFileAndNoPartialFile() throws {
        let folder = try TemporaryFolder()
        let scenes = try Self.scenes(in: folder)
        let mix = folder.path("mix.wav")
        // A second of 16-bit stereo is 192 KB: far past the 64 KiB limit.
        let result = try DioramaCommand.run(["render", scenes, "--audio-only", "--audio", mix, "--to", "1"],
                                            timeout: Self.timeout, fileSizeLimit: 64 * 1024)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("cannot write \(mix)"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["pond.json"])
    }

    @Test func renderAudioWithForceOnAFullDiskKeepsTheFileThatWasThere() throws {
        let folder = try TemporaryFolder()
        let scenes = try Self.scenes(in: folder)
        let mix = folder.path("mix.wav")
        let mine = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try mine.write(to: URL(fileURLWithPath: mix))
        let result = try DioramaCommand.run(["render", scenes, "--audio-only", "--audio", mix, "--to", "1", "--force"],
                                            timeout: Self.timeout, fileSizeLimit: 64 * 1024)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: mix)) == mine)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["mix.wav", "pond.json"])
    }

    @Test func timelineJSONToAFullDiskExitsOneAndSaysSo() throws {
        let folder = try TemporaryFolder()
        let scenes = try Self.scenes(in: folder)
        let result = try DioramaCommand.run(["timeline", scenes, "--json"], timeout: Self.timeout, standardOutput: .file("/dev/full"))
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot write the timeline to standard output: No space left on device"),
                "\(result.standardError)")
    }

    // MARK: Named pipes

    @Test(arguments: ["sound", "svg", "lottie", "png"])
    func checkRefusesANamedPipeAsAMediaFile(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let scenes: String
        switch kind {
        case "sound":
            try Self.fifo(folder.path("bell.flac"))
            scenes = try Self.scenes(in: folder, sound: "bell.flac")
        case "lottie":
            try Self.fifo(folder.path("art.json"))
            scenes = try Self.scenes(in: folder, nodes: #"{ "type": "lottie", "path": "art.json", "width": 50, "height": 50 }"#)
        default:
            try Self.fifo(folder.path("art.\(kind)"))
            scenes = try Self.scenes(in: folder, nodes: #"{ "type": "image", "path": "art.\#(kind)", "width": 50, "height": 50 }"#)
        }
        let result = try DioramaCommand.run(["check", scenes], timeout: Self.timeout)
        #expect(!result.timedOut, "check hung on a named pipe")
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("\(scenes):"), "\(result.standardError)")
        #expect(result.standardError.contains("is a named pipe (FIFO), not a regular file"), "\(result.standardError)")
    }

    @Test func renderDrawsANamedPipePNGAsNothingWithAWarning() throws {
        let folder = try TemporaryFolder()
        try Self.fifo(folder.path("photo.png"))
        let scenes = try Self.scenes(in: folder, nodes: #"{ "type": "image", "path": "photo.png", "width": 50, "height": 50 }"#)
        let result = try DioramaCommand.run(["render", scenes, "--out", folder.path("frames"), "--at", "1", "--size", "160x90"],
                                            timeout: Self.timeout)
        #expect(!result.timedOut, "render hung on a named pipe")
        #expect(result.standardError.contains("named pipe"), "\(result.standardError)")
    }

    @Test func renderDoesNotOpenANamedPipeImageInsideALottie() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("images"), withIntermediateDirectories: true)
        try Self.fifo(folder.path("images/dot.png"))
        let imageLayer = """
            {"ddd": 0, "ind": 2, "ty": 2, "nm": "dot", "refId": "dot", "sr": 1, "ao": 0, "ip": 0, "op": 60, "st": 0, "bm": 0,
             "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [50, 50, 0]}, "a": {"a": 0, "k": [5, 5, 0]},
                    "s": {"a": 0, "k": [100, 100, 100]}}}
            """
        var lottie = LottieFixtures.json(layers: "[\(imageLayer)]")
        lottie = lottie.replacingOccurrences(of: #""assets": []"#,
                                             with: #""assets": [{"id": "dot", "w": 10, "h": 10, "u": "images/", "p": "dot.png", "e": 0}]"#)
        try Data(lottie.utf8).write(to: folder.url.appendingPathComponent("art.json"))
        let scenes = try Self.scenes(in: folder, nodes: #"{ "type": "lottie", "path": "art.json", "width": 50, "height": 50 }"#)
        let render = try DioramaCommand.run(["render", scenes, "--out", folder.path("frames"), "--at", "1", "--size", "160x90"],
                                            timeout: Self.timeout)
        #expect(!render.timedOut, "render hung on a named pipe inside a Lottie")
        #expect(render.standardError.contains("images/dot.png"), "\(render.standardError)")
        #expect(render.standardError.contains("named pipe"), "\(render.standardError)")
        let check = try DioramaCommand.run(["check", scenes], timeout: Self.timeout)
        #expect(!check.timedOut)
        #expect(check.status == 2, "\(check.standardError)")
        #expect(check.standardError.contains("named pipe"), "\(check.standardError)")
    }

    @Test func verifyFailsAGoldenFrameThatIsANamedPipe() throws {
        let folder = try TemporaryFolder()
        let scenes = try Self.scenes(in: folder)
        try Self.fifo(folder.path("golden.png"))
        try Data(#"{ "expect": [{ "scene": "pond", "at": 1, "frame": "golden.png" }] }"#.utf8)
            .write(to: folder.url.appendingPathComponent("pond.verify.json"))
        let result = try DioramaCommand.run(["verify", scenes], timeout: Self.timeout)
        #expect(!result.timedOut, "verify hung on a named pipe")
        #expect(result.status == 1, "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("is a named pipe (FIFO), not a regular file"), "\(result.standardOutput)")
    }

    // MARK: Golden sizes

    @Test func verifyRefusesAGoldenFrameLargerThanTheLargestCanvasBeforeDecodingIt() throws {
        let folder = try TemporaryFolder()
        let scenes = try Self.scenes(in: folder)
        // A PNG signature and header claiming 16384 x 16384 (decoding it would take a 1 GiB surface).
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0x40, 0, 0, 0, 0x40, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        try Data(png).write(to: folder.url.appendingPathComponent("golden.png"))
        try Data(#"{ "expect": [{ "scene": "pond", "at": 1, "frame": "golden.png" }] }"#.utf8)
            .write(to: folder.url.appendingPathComponent("pond.verify.json"))
        let result = try DioramaCommand.run(["verify", scenes], timeout: Self.timeout)
        #expect(result.status == 1, "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("is 16384 x 16384 pixels; the limit is 8192 on each side"), "\(result.standardOutput)")
    }
}
