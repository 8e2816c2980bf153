import DioramaTestSupport
import Foundation
import Testing

/// Loudness through the commands: `timeline` lists each scene's loudness and true peak (text and JSON), and `check`
/// warns, at the scene, about one that cannot reach the playlist's target.
@Suite struct LoudnessCommandTests {
    /// Two scenes at a -23 LUFS target: "hum" (the hum alone, which reaches it) and "tick" (a faint hum under loud
    /// clicks, whose peaks stop its gain far short).
    static func document(in folder: TemporaryFolder, loudness: String? = "-23") throws -> String {
        let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path
        let json = """
            { \(loudness.map { "\"loudness\": \($0)," } ?? "")
              "canvas": { "width": 64, "height": 36 },
              "sounds": { "hum": "\(media)/hum.flac", "click": "\(media)/click.flac" },
              "scenes": [{ "id": "hum", "duration": 6, "ambience": [{ "sound": "hum", "gain": 0.7 }] },
                         { "id": "tick", "duration": 6,
                           "ambience": [{ "sound": "hum", "gain": 0.01 }],
                           "cues": [{ "sound": "click", "at": 1 }, { "sound": "click", "at": 3 }] }] }
            """
        let file = folder.path("scenes.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    static func scenes(_ output: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return try #require(object["scenes"] as? [[String: Any]])
    }

    @Test func timelineListsEachScenesLoudnessAndTruePeak() throws {
        let folder = try TemporaryFolder()
        let file = try Self.document(in: folder, loudness: nil)
        let json = try DioramaCommand.run(["timeline", file, "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let scenes = try Self.scenes(json.standardOutput)
        for scene in scenes {
            let loudness = try #require(scene["loudness"] as? Double, "\(scene)")
            let peak = try #require(scene["truePeak"] as? Double, "\(scene)")
            #expect((-70.0 ... 0).contains(loudness) && peak <= 0 && peak > loudness, "\(scene)")
            // Only with a target.
            #expect(scene["loudnessGain"] == nil && scene["mixedLoudness"] == nil)
        }
        #expect(!json.standardOutput.contains("loudnessTarget"))

        let text = try DioramaCommand.run(["timeline", file])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("loudness (EBU R128, each scene's own mix):\n#  scene   LUFS  true peak dBTP\n"),
                "\(text.standardOutput)")
    }

    @Test func withATargetTimelineShowsEachScenesGainAndWhatItPlaysAt() throws {
        let folder = try TemporaryFolder()
        let file = try Self.document(in: folder)
        let json = try DioramaCommand.run(["timeline", file, "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let scenes = try Self.scenes(json.standardOutput)
        #expect(json.standardOutput.hasSuffix("\"loudnessTarget\": -23\n}\n"), "\(json.standardOutput)")
        let hum = scenes[0], tick = scenes[1]
        // The hum reaches the target with its gain (the mix and the gain add up to it, within 1/100 dB's rounding).
        let humLoudness = try #require(hum["loudness"] as? Double)
        let mixed = try #require(hum["mixedLoudness"] as? Double), gain = try #require(hum["loudnessGain"] as? Double)
        #expect(abs(humLoudness - -23) <= 0.1, "\(hum)")
        #expect(abs(mixed + gain - -23) <= 0.01, "\(hum)")
        #expect(hum["loudnessLimit"] == nil)
        // The clicks' peaks hold the tick back.
        #expect(tick["loudnessLimit"] as? String == "truePeak", "\(tick)")
        #expect(try #require(tick["truePeak"] as? Double) <= -0.95, "\(tick)")
        #expect(try #require(tick["loudness"] as? Double) < -24, "\(tick)")

        let text = try DioramaCommand.run(["timeline", file])
        #expect(text.standardOutput.contains("target -23.0 LUFS, true peak at most -1 dBTP:"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("LU: its true peak"), "\(text.standardOutput)")
    }

    @Test func checkWarnsAtASceneItsPeaksHoldBack() throws {
        let folder = try TemporaryFolder()
        let file = try Self.document(in: folder)
        let result = try DioramaCommand.run(["check", file])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.components(separatedBy: "\n")
        let warning = try #require(lines.first { $0.contains("warning:") }, "\(result.standardError)")
        #expect(warning.hasPrefix("\(file):5:14: warning: the scene \"tick\" plays at -"), "\(warning)")
        #expect(warning.contains("LU short of the playlist's loudness target (-23.0 LUFS) because of its peaks"), "\(warning)")
        #expect(warning.hasSuffix("(at scenes[1])"), "\(warning)")
        #expect(lines.contains { $0.hasPrefix("  hint: lower the gain of its loudest, shortest sound") }, "\(result.standardError)")
        #expect(result.standardError.components(separatedBy: "warning:").count == 2, "one warning: \(result.standardError)")
        #expect(result.standardOutput.hasPrefix("ok: 2 scenes, 2 cues"))
    }

    @Test func checkSaysNothingAboutLoudnessWithoutATarget() throws {
        let folder = try TemporaryFolder()
        let result = try DioramaCommand.run(["check", try Self.document(in: folder, loudness: nil)])
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
    }

    @Test func checkWarnsAboutASceneTooQuietForTheMostGain() throws {
        let folder = try TemporaryFolder()
        let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path
        let json = """
            { "loudness": -16, "canvas": { "width": 64, "height": 36 },
              "sounds": { "hum": "\(media)/hum.flac" },
              "scenes": [{ "id": "far", "duration": 4, "ambience": [{ "sound": "hum", "gain": 0.02 }] }] }
            """
        let file = folder.path("scenes.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let result = try DioramaCommand.run(["check", file])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("warning: the scene \"far\" plays at -"), "\(result.standardError)")
        #expect(result.standardError.contains("would need more than the +20 dB a scene is raised at most"), "\(result.standardError)")
        #expect(result.standardError.contains("(at scenes[0])"), "\(result.standardError)")
    }
}
