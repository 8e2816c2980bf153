import DioramaTestSupport
import Foundation
import Testing

/// Sounds inside a dotLottie archive (`drum.lottie/audio/pluck.wav`) are sounds of the bank, decoded by libsndfile from
/// the unpacked bytes: the same samples as the file on disk, and a missing or damaged one a located error with a hint.
@Suite struct DotLottieSoundTests {
    let folder: TemporaryFolder

    /// A 16-bit mono WAV at 48 kHz of a 0.1 s ring that starts at full level on its first sample.
    static let pluck: [UInt8] = {
        let samples = (0..<4_800).map { index in
            Int16(20_000 * exp(-Double(index) / 800) * cos(2 * Double.pi * 880 * Double(index) / 48_000))
        }
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let data = samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
        return Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1)
            + le32(48_000) + le32(96_000) + le16(2) + le16(16) + Array("data".utf8) + le32(data.count) + data
    }()

    init() throws {
        folder = try TemporaryFolder()
        let json = Array(LottieFixtures.json(markers: [("pluck", 15, 0)]).utf8)
        let manifest = Array(#"{ "version": "1", "animations": [{ "id": "drum" }] }"#.utf8)
        try Data(LottieFixtures.zip([("manifest.json", manifest, false), ("animations/drum.json", json, true),
                                     ("audio/pluck.wav", Self.pluck, true), ("audio/broken.wav", Array(Self.pluck.prefix(30)), false)]))
            .write(to: folder.url.appendingPathComponent("drum.lottie"))
        try Data(Self.pluck).write(to: folder.url.appendingPathComponent("pluck.wav"))
    }

    /// A scenes file whose sound "pluck" is at `path`, rung on the drum's marker (frame 15: 0.5 s) every pass.
    func scenes(_ path: String) throws -> String {
        let json = LottieFixtures.scenes(nodes: #"{ "type": "lottie", "id": "drum", "path": "drum.lottie", "repeat": 2 }"#,
                                         cues: #"{ "sound": "pluck", "node": "drum", "on": { "marker": "pluck" } }"#, duration: "3")
            .replacingOccurrences(of: #""sounds": { "tick": { "path": "tick.wav" } },"#, with: #""sounds": { "pluck": { "path": "\#(path)" } },"#)
        let file = folder.path("scenes-\(abs(path.hashValue)).json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test func aSoundInsideAnArchiveMixesAsTheSameFileOnDisk() throws {
        var mixes: [Data] = []
        for path in ["pluck.wav", "drum.lottie/audio/pluck.wav", "drum.lottie/pluck.wav"] {
            let file = try scenes(path)
            let check = try DioramaCommand.run(["check", file], timeout: 60)
            #expect(check.status == 0, "\(path): \(check.standardError)")
            let wav = folder.path("mix-\(mixes.count).wav")
            let render = try DioramaCommand.run(["render", file, "--to", "3", "--audio-only", "--audio", wav], timeout: 120)
            #expect(render.status == 0, "\(path): \(render.standardError)")
            mixes.append(try Data(contentsOf: URL(fileURLWithPath: wav)))
        }
        #expect(mixes[1] == mixes[0] && mixes[2] == mixes[0])
        // Heard from the marker's sample, 0.5 s in: 16-bit stereo after a 44-byte header.
        let samples = mixes[1].dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples[2 * 23_999] == 0 && abs(Int(samples[2 * 24_000])) > 1000, "\(samples[2 * 23_999]) \(samples[2 * 24_000])")
    }

    @Test func aMissingOrDamagedSoundInAnArchiveIsLocatedWithAHint() throws {
        let missing = try DioramaCommand.run(["check", try scenes("drum.lottie/audio/plock.wav")], timeout: 60)
        #expect(missing.status == 2)
        #expect(missing.standardError.contains(#"error: the dotLottie archive "drum.lottie" holds no file "audio/plock.wav" (at sounds.pluck.path)"#),
                "\(missing.standardError)")
        #expect(missing.standardError.contains(#"hint: did you mean "audio/pluck.wav"?"#), "\(missing.standardError)")

        let broken = try DioramaCommand.run(["check", try scenes("drum.lottie/audio/broken.wav")], timeout: 60)
        #expect(broken.status == 2)
        #expect(broken.standardError.contains(#"the sound "pluck" file "drum.lottie/audio/broken.wav" cannot be decoded"#), "\(broken.standardError)")

        let noArchive = try DioramaCommand.run(["check", try scenes("drums.lottie/audio/pluck.wav")], timeout: 60)
        #expect(noArchive.status == 2)
        #expect(noArchive.standardError.contains("drums.lottie"), "\(noArchive.standardError)")
        #expect(noArchive.standardError.contains("(at sounds.pluck.path)"), "\(noArchive.standardError)")
    }
}
