import DioramaTestSupport
import Foundation
import Testing

/// `diorama check` end to end: the built executable on real files, its output and its exit status.
@Suite struct CheckCommandTests {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// The `diorama` binary SwiftPM builds beside the test bundle.
    static var executable: URL? {
        let bundle = Bundle.main.bundleURL
        return [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("diorama") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func check(_ arguments: [String], in directory: URL) throws -> Result? {
        guard let executable = executable else {
            Issue.record("the diorama executable is not built; hint: run `swift build --build-tests` before `swift test --skip-build`")
            return nil
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["check"] + arguments
        process.currentDirectoryURL = directory
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Diagnostics can exceed a pipe's buffer: drain standard error while standard output is read.
        nonisolated(unsafe) var errorData = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                      errors: String(decoding: errorData, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("media"), withIntermediateDirectories: true)
        return url
    }

    @Test func theShippedPlaylistPasses() throws {
        let root = DocumentationTests.root
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("scenes.json").path),
              let result = try Self.check([], in: root) else { return }
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.range(of: #"^ok: \d+ scenes, \d+ cues, total [0-9.]+ s\n$"#, options: .regularExpression) != nil,
                "\(result.output)")
    }

    /// Checks the corpus file `name` beside copies of the project's `sounds` (in media/), so only the
    /// document's own problems are reported.
    static func checkBesideItsSounds(_ name: String, sounds: [String]) throws -> Result? {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: CorpusTests.directory.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        for sound in sounds {
            try FileManager.default.copyItem(at: DocumentationTests.root.appendingPathComponent("media/\(sound)"),
                                             to: directory.appendingPathComponent("media/\(sound)"))
        }
        return try Self.check([name], in: directory)
    }

    @Test func aBadFilePrintsEveryProblemAndExitsTwo() throws {
        guard let result = try Self.checkBesideItsSounds("bad-unknown-sound.json", sounds: ["bell.flac", "surf.flac"]) else { return }
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        let expected = try String(contentsOf: CorpusTests.directory.appendingPathComponent("bad-unknown-sound.expected"), encoding: .utf8)
        #expect(result.errors == expected)
    }

    @Test func aMissingSoundFileIsReportedWithTheOtherErrorsInOneRun() throws {
        // The same file without its sounds: the missing files come in file order among the other errors.
        guard let result = try Self.check(["bad-unknown-sound.json"], in: CorpusTests.directory) else { return }
        #expect(result.status == 2)
        let lines = result.errors.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  ") }
        #expect(lines == [
            #"bad-unknown-sound.json:3:23: error: the sound "bell" file "media/bell.flac" does not exist (at sounds.bell)"#,
            #"bad-unknown-sound.json:3:50: error: the sound "surf" file "media/surf.flac" does not exist (at sounds.surf)"#,
            #"bad-unknown-sound.json:6:31: error: no sound named "sruf" in "sounds" (at scenes[0].ambience[0].sound)"#,
            #"bad-unknown-sound.json:7:27: error: no sound named "gong" in "sounds" (at scenes[0].cues[0].sound)"#,
        ], "\(result.errors)")
    }

    @Test func missingAndUndecodableSoundsAreErrorsWithTheirReason() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("not a sound".utf8).write(to: directory.appendingPathComponent("media/noise.wav"))
        let json = """
            { "canvas": { "width": 100, "height": 100 },
              "sounds": { "noise": "media/noise.wav", "gone": "media/gone.flac" },
              "scenes": [{ "id": "s", "duration": 2, "cues": [{ "sound": "noise", "at": 0 }, { "sound": "gone", "at": 1 }] }] }
            """
        try Data(json.utf8).write(to: directory.appendingPathComponent("scenes.json"))
        guard let result = try Self.check(["scenes.json"], in: directory) else { return }
        #expect(result.status == 2)
        // In file order: "noise" is named before "gone".
        let lines = result.errors.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  hint:") }
        #expect(lines.count == 2)
        #expect(lines.first?.contains("noise") == true)
        #expect(lines.contains("scenes.json:2:51: error: the sound \"gone\" file \"media/gone.flac\" does not exist (at sounds.gone)"),
                "\(result.errors)")
        // libsndfile's own reason follows the colon.
        #expect(lines.contains { $0.hasPrefix("scenes.json:2:24: error: the sound \"noise\" file \"media/noise.wav\" cannot be decoded: ") },
                "\(result.errors)")
    }

    @Test func aCueSoundThatStartsWithSilenceIsWarnedAboutUnlessItIsIntended() throws {
        // The shipped creak starts with 32.6 ms of silence: a cue playing it is heard that much after its moment.
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["creak", "bell"] {
            try FileManager.default.copyItem(at: DocumentationTests.root.appendingPathComponent("media/\(name).flac"),
                                             to: directory.appendingPathComponent("media/\(name).flac"))
        }
        func check(creak: String) throws -> Result? {
            let json = """
                { "canvas": { "width": 100, "height": 100 },
                  "sounds": { "creak": \(creak), "bell": "media/bell.flac" },
                  "scenes": [{ "id": "s", "duration": 2, "cues": [{ "sound": "creak", "at": 0 }, { "sound": "bell", "at": 1 }] }] }
                """
            try Data(json.utf8).write(to: directory.appendingPathComponent("scenes.json"))
            return try Self.check(["scenes.json"], in: directory)
        }
        guard let warned = try check(creak: "\"media/creak.flac\"") else { return }
        #expect(warned.status == 0)
        #expect(warned.errors.hasPrefix("scenes.json:2:24: warning: the sound \"creak\" starts with 32.6 ms of silence, so every cue that plays it "
                                        + "is heard 32.6 ms after its moment (at sounds.creak)\n  hint: "), "\(warned.errors)")
        #expect(!warned.errors.contains("bell"), "the bell's 0.08 ms are under the 5 ms threshold")
        guard let intended = try check(creak: #"{ "path": "media/creak.flac", "leadingSilence": "intended" }"#) else { return }
        #expect(intended.status == 0)
        #expect(intended.errors.isEmpty, "\(intended.errors)")
    }

    @Test func aMissingFileIsReportedAtItsStart() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let result = try Self.check([], in: directory) else { return }
        #expect(result.status == 2)
        #expect(result.errors.hasPrefix("scenes.json:1:1: error: cannot read the scenes file: it does not exist\n"))
    }

    @Test func helpHasAnExample() throws {
        guard let result = try Self.check(["--help"], in: DocumentationTests.root) else { return }
        #expect(result.status == 0)
        #expect(result.output.contains("Example:"))
        #expect(result.output.contains("$ diorama check scenes.json"))
    }
}
