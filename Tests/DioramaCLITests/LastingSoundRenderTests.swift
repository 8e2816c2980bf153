import DioramaTestSupport
import Foundation
import Testing

/// `diorama render --audio` with lasting sounds, and the shipped playlist's mix unchanged by them.
@Suite struct LastingSoundRenderTests {
    /// FNV-1a (64 bits) of a file's bytes.
    static func fingerprint(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-lasting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A frozen copy of the playlist as it shipped before cues could last (three scenes, one-shot cues and beds),
    /// its sound paths pointing at media/.
    static let frozenPlaylist = "Tests/DioramaCLITests/Fixtures/three-scenes.json"

    /// The WAVs `render --audio` wrote for that playlist before cues could last (their bytes' FNV-1a): no cue
    /// changes meaning. A change to the audio path that changes these bytes must say why.
    @Test(arguments: [
        ([String](), UInt64(0x9eb1_e332_83fa_004d)),
        (["--scene", "swing", "--from", "2", "--to", "8"], UInt64(0x6da9_7d46_c025_9462)),
        (["--from", "13.3", "--to", "41"], UInt64(0x3fe7_72eb_9fd7_608c)),
    ])
    func aPlaylistWithoutLastingSoundsMixesAsBefore(span: [String], fingerprint: UInt64) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mix.wav")
        let result = try DioramaCommand.run(["render", Self.frozenPlaylist] + span + ["--audio-only", "--audio", file.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.fingerprint(try Data(contentsOf: file)) == fingerprint)
    }

    /// `diorama timeline` of the same playlist, text and JSON, as before lasting sounds (FNV-1a of the output; the
    /// text names the file, so its figure is for the fixture's path). The JSON's figure is format 2's, which writes
    /// times as numbers: quoting them again and naming format 1 gives back the bytes recorded before lasting sounds.
    /// The scenes' loudness, added later (a table of its own, two keys at the end of each scene), is left out here.
    @Test(arguments: [([String](), UInt64(0x9957_7ef4_79b1_9845)), (["--json"], UInt64(0x04da_0958_ceae_f4b9))])
    func aPlaylistWithoutLastingSoundsHasTheSameTimeline(options: [String], fingerprint: UInt64) throws {
        let result = try DioramaCommand.run(["timeline", Self.frozenPlaylist] + options)
        #expect(result.status == 0, "\(result.standardError)")
        let schedule = result.standardOutput
            .replacingOccurrences(of: #"loudness \(EBU R128[^\n]*\n([^\n]+\n)*\n"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #", "loudness": [-0-9.a-z]+, "truePeak": [-0-9.a-z]+"#, with: "", options: .regularExpression)
        #expect(schedule != result.standardOutput, "the loudness is listed")
        #expect(Self.fingerprint(Data(schedule.utf8)) == fingerprint)
    }

    @Test func aLoopUntilATimeIsHeardFromItsSampleAndSilentAfterItsFade() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path
        let json = """
            { "canvas": { "width": 64, "height": 36 },
              "sounds": { "chime": "\(media)/chime.flac", "surf": "\(media)/surf.flac" },
              "scenes": [{ "id": "a", "duration": 3,
                           "cues": [{ "sound": "chime", "id": "chime", "at": 0.5, "loop": true, "until": 2, "fadeOut": 0.1,
                                      "duck": { "db": -12 } },
                                    { "stop": "chime", "at": 1.5 },
                                    { "sound": "surf", "at": 2.5, "until": 2.75, "gain": 0 }] }] }
            """
        try Data(json.utf8).write(to: directory.appendingPathComponent("scenes.json"))
        let file = directory.appendingPathComponent("mix.wav")
        let check = try DioramaCommand.run(["check", "scenes.json"], in: directory)
        #expect(check.status == 0, "\(check.standardError)")
        let result = try DioramaCommand.run(["render", "scenes.json", "--audio-only", "--audio", file.path], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = try Data(contentsOf: file)
        let samples = bytes.dropFirst(bytes.count - 3 * 48_000 * 4).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        func frames(_ range: Range<Int>) -> ArraySlice<Int16> { samples[(2 * range.lowerBound)..<(2 * range.upperBound)] }
        #expect(frames(0..<24_000).allSatisfy { $0 == 0 })
        #expect(frames(24_000..<28_800).contains { $0 != 0 })
        // The stop at 1.5 s ends it before its until, over the cue's 0.1 s fade-out; the muted surf adds nothing.
        #expect(frames(66_000..<72_000).contains { $0 != 0 })
        #expect(frames((72_000 + 4800)..<144_000).allSatisfy { $0 == 0 })
    }
}
