import DioramaPlayer
import DioramaTestSupport
import Foundation
import Testing

/// `diorama play` as a user runs it, in a process of its own: SDL's dummy video driver and ALSA's
/// `null` device (which the player paces to real time), ended by `--frames`.
@Suite struct PlayCommandTests {
    let temporary: TemporaryFolder
    init() throws { temporary = try TemporaryFolder() }

    struct Result {
        var status: Int32
        var standardError: String
    }

    /// The repository's root: the folder above this file that holds Package.swift.
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// Runs the `diorama` that SwiftPM built beside the tests, with `environment` added, and waits for it.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let bundle = Bundle.main.bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("diorama") }
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "diorama beside \(bundle.path): build it with `swift build`"])
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let error = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardError: String(decoding: data, as: UTF8.self))
    }

    func folder() throws -> URL {
        let url = temporary.url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A small playlist whose two cues ring the repository's bell at 0.5 s and 1 s of the first scene.
    func scenes(in folder: URL) throws -> URL {
        let bell = PlayCommandTests.repositoryRoot.appendingPathComponent("media/bell.flac").path
        let json = """
            {
              "canvas": { "width": 320, "height": 180, "background": "#000000" },
              "sounds": { "bell": "\(bell)" },
              "scenes": [
                { "id": "first", "title": "First", "duration": 4, "background": "#1a4d99",
                  "cues": [{ "sound": "bell", "at": 0.5 }, { "sound": "bell", "at": 1 }] },
                { "id": "second", "title": "Second", "duration": 2, "background": "#b3661a" }
              ]
            }
            """
        let url = folder.appendingPathComponent("scenes.json")
        try Data(json.utf8).write(to: url)
        return url
    }

    @Test func playsHeadlessOnTheNullDeviceAndLogsFramesAndCuesInSync() throws {
        let folder = try folder()
        let file = try scenes(in: folder)
        let log = folder.appendingPathComponent("play.jsonl")
        let result = try PlayCommandTests.run(
            ["play", file.path, "--audio-device", "null", "--frames", "120", "--log", log.path],
            environment: ["SDL_VIDEODRIVER": "dummy", "XDG_CONFIG_HOME": folder.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("audio: 'null' at 48000 Hz"))
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains(#""audioLive":true"#) == true)
        let analysis = try PlayLogAnalysis(path: log.path)
        #expect(analysis.frames == 120)
        #expect(analysis.cues == 2, "both bells rang within the 2 s of 120 frames at 60 per second")
        #expect(analysis.lateCues == 0 && analysis.maximumLateSamples == 0, "every cue was queued before its sample")
        #expect(analysis.followError < 1e-6, "each frame shows the scene at the audio clock it was drawn for")
        let cues = lines.filter { $0.contains(#""type":"cue""#) }
        #expect(cues.first?.contains(#""sampleIndex":24000"#) == true)
        #expect(cues.last?.contains(#""sampleIndex":48000"#) == true)
    }

    @Test func withoutADisplayItSaysSoInOneLineAndExits2() throws {
        let folder = try folder()
        let file = try scenes(in: folder)
        let result = try PlayCommandTests.run(["play", file.path, "--no-audio"],
                                            environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "one line, no SDL noise: \(result.standardError)")
        #expect(lines.first?.contains("no display available") == true)
        #expect(lines.first?.contains("diorama render") == true)
    }

    @Test func kmsDRMWhereTheMachineHasNoDisplayDeviceFailsInOneLineAndExits2() throws {
        let folder = try folder()
        let file = try scenes(in: folder)
        let result = try PlayCommandTests.run(["play", file.path, "--no-audio"],
                                            environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": "kmsdrm"])
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "one line, no SDL noise: \(result.standardError)")
        #expect(lines.first?.contains("KMS/DRM") == true)
        // What to check: a card in /dev/dri, or the access to the one there is.
        #expect(lines.first?.contains("/dev/dri") == true)
    }

    @Test func theKMSDRMFailureNamesWhatToCheck() {
        #expect(VideoSystem.kmsDRMFailure("kmsdrm not available", cards: [])
            == "KMS/DRM: kmsdrm not available: this machine has no display device (no card in /dev/dri)")
        let withCard = VideoSystem.kmsDRMFailure("Permission denied", cards: ["/dev/dri/card0"])
        #expect(withCard.contains("/dev/dri/card0") && withCard.contains("video group"))
    }

    @Test func aBadFileIsReportedAsCheckReportsItAndExits2() throws {
        let folder = try folder()
        let file = folder.appendingPathComponent("scenes.json")
        try Data(#"{ "canvas": { "width": 320, "height": 180 }, "scenes": [ { "id": "a", "duration": -1 } ] }"#.utf8).write(to: file)
        let play = try PlayCommandTests.run(["play", file.path, "--no-audio"], environment: ["SDL_VIDEODRIVER": "dummy"])
        let check = try PlayCommandTests.run(["check", file.path])
        #expect(play.status == 2)
        #expect(!play.standardError.isEmpty)
        #expect(play.standardError == check.standardError)
    }

    @Test func anUnknownLanguageOrSizeIsRefusedWithAClearMessage() throws {
        let folder = try folder()
        let file = try scenes(in: folder)
        let language = try PlayCommandTests.run(["play", file.path, "--lang", "fr", "--no-audio"], environment: ["SDL_VIDEODRIVER": "dummy"])
        #expect(language.status == 2)
        #expect(language.standardError.contains("--lang fr") && language.standardError.contains("offers en"))
        let size = try PlayCommandTests.run(["play", file.path, "--size", "0x10"], environment: ["SDL_VIDEODRIVER": "dummy"])
        #expect(size.status != 0)
        #expect(size.standardError.contains("--size must be WIDTHxHEIGHT"))
    }
}
