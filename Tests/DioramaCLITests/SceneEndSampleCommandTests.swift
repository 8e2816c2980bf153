import DioramaTestSupport
import Foundation
import Testing

/// A cue in its scene's last sample period, through every command: `check` warns where it is written; `timeline`,
/// the offline mix and `verify` agree that it does not sound. Scene a lasts 1.000013 s (48000.624 samples), so b
/// ends at sample ceil(96000.624) = 96001; b's cue at 0.99999 s would round to ceil(96000.144) = 96001 too, the
/// first sample after b, which the mix does not hold and live play rang on the next pass's first sample.
@Suite struct SceneEndSampleCommandTests {
    static func document(in folder: TemporaryFolder) throws -> String {
        let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path
        let json = """
            { "canvas": { "width": 64, "height": 36 },
              "sounds": { "click": "\(media)/click.flac" },
              "scenes": [{ "id": "a", "duration": 1.000013 },
                         { "id": "b", "duration": 1,
                           "cues": [{ "sound": "click", "at": 0.5 },
                                    { "sound": "click", "at": 0.99999 }] }] }
            """
        let file = folder.path("scenes.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test func checkWarnsWhereTheCueIsWritten() throws {
        let folder = try TemporaryFolder()
        let file = try Self.document(in: folder)
        let result = try DioramaCommand.run(["check", file])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("scenes.json:6:25: warning: this cue never sounds: at 0.99999 s it falls 0.00001 s before the end of the scene (1 s)"),
                "\(result.standardError)")
        #expect(result.standardError.contains("(at scenes[1].cues[1])"))
        #expect(result.standardError.components(separatedBy: "warning:").count == 2, "one warning: \(result.standardError)")
    }

    @Test func timelineAndVerifyLeaveItOutAsTheMixDoes() throws {
        let folder = try TemporaryFolder()
        let file = try Self.document(in: folder)
        let timeline = try DioramaCommand.run(["timeline", file])
        #expect(timeline.status == 0, "\(timeline.standardError)")
        #expect(timeline.standardOutput.contains("1 cue firing"), "\(timeline.standardOutput)")
        #expect(!timeline.standardOutput.contains("96001"), "\(timeline.standardOutput)")

        let verify = try DioramaCommand.run(["verify", file])
        #expect(verify.status == 0, "\(verify.standardOutput)\(verify.standardError)")
        #expect(verify.standardOutput.contains("sample 72001"), "\(verify.standardOutput)")
        #expect(!verify.standardOutput.contains("cue 1"), "\(verify.standardOutput)")

        // The mix holds b to its last sample, 96000, and the click at 0.5 s only.
        let wav = folder.path("mix.wav")
        let render = try DioramaCommand.run(["render", file, "--audio-only", "--audio", wav])
        #expect(render.status == 0, "\(render.standardError)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: wav))
        #expect(bytes.count - 44 == 96_001 * 4, "\(bytes.count) bytes")
    }
}
