import DioramaTestSupport
import Foundation
import Testing

@Suite struct VerifyCommandTests {
    @Test func theShippedPlaylistPassesWithItsExpectations() throws {
        let result = try DioramaCommand.run(["verify", "scenes.json"])
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("ok    ocean: at 1.2 s buoy-tilt rotation is 15 ± 0.001: found 15"), "the buoy at its extreme when the bell rings")
        #expect(lines.contains { $0.hasPrefix("ok    ocean: cue 0 (bell) firing 1 starts on its sample: sample 57602 (scene 1.2000 s)") })
        #expect(lines.contains("ok    record-player: nothing unscheduled sounds: no onset besides the cues"))
        // Every check printed is one that passed, and the summary counts them all: one per cue firing, one per scene
        // (nothing unscheduled) and one per expectation.
        let checks = lines.filter { $0.hasPrefix("ok    ") || $0.hasPrefix("FAIL  ") }
        #expect(checks.allSatisfy { $0.hasPrefix("ok    ") })
        #expect(lines.last?.hasPrefix("\(checks.count) passed, 0 failed") == true, "\(lines.last ?? "")")
        let timeline = try DioramaCommand.run(["timeline", "scenes.json", "--json"])
        let schedule = try #require(try JSONSerialization.jsonObject(with: Data(timeline.standardOutput.utf8)) as? [String: Any])
        let firings = try #require(schedule["cues"] as? [Any]).count, scenes = try #require(schedule["scenes"] as? [Any]).count
        #expect(checks.count > firings + scenes, "\(checks.count) checks for \(firings) firings in \(scenes) scenes")
    }

    /// A copy of one shipped scene whose sounds are the repository's.
    private func scenes(in folder: TemporaryFolder) throws -> String {
        let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path
        let json = """
            { "canvas": { "width": 160, "height": 90, "background": "#102030" },
              "sounds": { "bell": "\(media)/bell.flac", "surf": "\(media)/surf.flac" },
              "scenes": [{ "id": "pond", "duration": 2, "ambience": [{ "sound": "surf" }],
                "cues": [{ "id": "ding", "sound": "bell", "at": 0.5 }],
                "nodes": [{ "type": "rect", "id": "disc", "x": 60, "y": 25, "width": 40, "height": 40, "fill": "#f0c040",
                            "animations": [{ "property": "opacity", "from": 1, "to": 0, "duration": 2, "curve": "linear" }] }] }] }
            """
        try Data(json.utf8).write(to: folder.url.appendingPathComponent("pond.json"))
        return folder.path("pond.json")
    }

    @Test func aFailingExpectationExitsOneAndIsListedInTheJUnitReport() throws {
        let folder = try TemporaryFolder()
        let scenes = try scenes(in: folder)
        try Data(#"{ "expect": [{ "scene": "pond", "at": 1, "node": "disc", "property": "opacity", "value": 0.4 }, { "scene": "pond", "cue": "ding", "fires": 1 }] }"#.utf8)
            .write(to: folder.url.appendingPathComponent("pond.verify.json"))
        let report = folder.path("report.xml")
        let result = try DioramaCommand.run(["verify", scenes, "--junit", report])
        #expect(result.status == 1, "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("FAIL  pond: at 1 s disc opacity is 0.4 ± 0.001: expected 0.4, found 0.5 (off by 0.1)"))
        #expect(result.standardOutput.contains("4 passed, 1 failed"), "the bell starts on its sample and is heard in time")
        let xml = try String(contentsOfFile: report, encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"diorama verify \(scenes)\" tests=\"5\" failures=\"1\""))
        #expect(xml.contains("<failure message=\"expected 0.4, found 0.5 (off by 0.1)\">"))
    }

    @Test func aBadExpectationsFileOrScenesFileExitsTwoWithLocatedErrors() throws {
        let folder = try TemporaryFolder()
        let scenes = try scenes(in: folder)
        try Data("{ \"expect\": [\n  { \"scene\": \"pond\", \"cue\": \"dang\", \"fires\": 1 }\n] }".utf8).write(to: folder.url.appendingPathComponent("my.json"))
        let bad = try DioramaCommand.run(["verify", scenes, "--expect", folder.path("my.json")])
        #expect(bad.status == 2)
        #expect(bad.standardError == "\(folder.path("my.json")):2:29: error: no cue with the id \"dang\" in the scene \"pond\" (at expect[0].cue)\n"
                + "  hint: did you mean \"ding\"? its cue ids are \"ding\"\n")
        #expect(bad.standardOutput.isEmpty, "no check runs")

        let missing = try DioramaCommand.run(["verify", scenes, "--expect", folder.path("none.json")])
        #expect(missing.status == 2)
        // Located at the file, whose path the message does not repeat.
        #expect(missing.standardError == "\(folder.path("none.json")):1:1: error: the expectations file does not exist\n"
                + "  hint: write one (docs/VERIFY.md), or leave out --expect\n")

        try Data("{ \"scenes\": 3 }".utf8).write(to: folder.url.appendingPathComponent("broken.json"))
        let broken = try DioramaCommand.run(["verify", folder.path("broken.json")])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("broken.json:1:"))
    }

    @Test func aCueHeardLateFailsUnlessTheExpectationsAllowIt() throws {
        // The repository's creak starts with 32.6 ms of silence (its first stick-slip pulse).
        let folder = try TemporaryFolder()
        let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path
        let json = """
            { "canvas": { "width": 160, "height": 90 },
              "sounds": { "creak": "\(media)/creak.flac" },
              "scenes": [{ "id": "swing", "duration": 2, "cues": [{ "sound": "creak", "at": 0.5 }] }] }
            """
        try Data(json.utf8).write(to: folder.url.appendingPathComponent("swing.json"))
        let late = try DioramaCommand.run(["verify", folder.path("swing.json")])
        #expect(late.status == 1, "\(late.standardOutput)\n\(late.standardError)")
        #expect(late.standardOutput.contains("ok    swing: cue 0 (creak) firing 1 starts on its sample: sample 25563 (scene 0.5326 s), its cue's 24000 plus 1563"),
                "\(late.standardOutput)")
        #expect(late.standardOutput.contains("FAIL  swing: cue 0 (creak) firing 1 is heard within 10 ms of its moment: heard at sample 25563 "
                                             + "(scene 0.5326 s), 32.6 ms after its moment (sample 24000, scene 0.5000 s): its sound \"creak\" starts with "
                                             + "32.6 ms of silence (\(folder.path("swing.json")):2:24 at sounds.creak); hint: "), "\(late.standardOutput)")

        try Data(#"{ "lateness": 0.05, "expect": [] }"#.utf8).write(to: folder.url.appendingPathComponent("swing.verify.json"))
        let allowed = try DioramaCommand.run(["verify", folder.path("swing.json")])
        #expect(allowed.status == 0, "\(allowed.standardOutput)\n\(allowed.standardError)")
        #expect(allowed.standardOutput.contains("ok    swing: cue 0 (creak) firing 1 is heard within 50 ms of its moment: heard 32.6 ms after its moment"),
                "\(allowed.standardOutput)")

        try Data("{ \"lateness\": -1,\n  \"expect\": [] }".utf8).write(to: folder.url.appendingPathComponent("swing.verify.json"))
        let bad = try DioramaCommand.run(["verify", folder.path("swing.json")])
        #expect(bad.status == 2)
        #expect(bad.standardError.hasPrefix("\(folder.path("swing.verify.json")):1:15: error: \"lateness\" must be at least 0, not -1 (at lateness)"),
                "\(bad.standardError)")
    }

    /// `--tap` as `render` and `export` take it: what the tap starts is verified, and a tap that cannot count is refused.
    @Test func aTapGivenOnTheCommandLineIsVerified() throws {
        let folder = try TemporaryFolder()
        let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path
        let json = """
            { "canvas": { "width": 160, "height": 90 }, "sounds": { "bell": "\(media)/bell.flac" },
              "scenes": [{ "id": "pond", "duration": 2,
                "cues": [{ "id": "ding", "sound": "bell", "tap": "button", "offset": 0.25 }],
                "nodes": [{ "type": "rect", "id": "button", "width": 40, "height": 40, "fill": "#c33", "tap": {} }] }] }
            """
        try Data(json.utf8).write(to: folder.url.appendingPathComponent("pond.json"))
        try Data(#"{ "expect": [{ "scene": "pond", "cue": "ding", "fires": 1 }] }"#.utf8)
            .write(to: folder.url.appendingPathComponent("pond.verify.json"))
        let scenes = folder.path("pond.json")

        let untapped = try DioramaCommand.run(["verify", scenes])
        #expect(untapped.status == 1, "\(untapped.standardOutput)\n\(untapped.standardError)")
        #expect(untapped.standardOutput.contains("FAIL  pond: cue \"ding\" (bell) fires 1 time: expected 1, found 0"), "\(untapped.standardOutput)")

        let tapped = try DioramaCommand.run(["verify", scenes, "--tap", "button@0.500001"])
        #expect(tapped.status == 0, "\(tapped.standardOutput)\n\(tapped.standardError)")
        let lines = tapped.standardOutput.split(separator: "\n").map(String.init)
        // Tapped at 0.500001 s, plus 0.25: ceil(0.750001 × 48 000) = 36 001, and the bell's own 2 samples of silence.
        #expect(lines.contains("ok    pond: cue 0 \"ding\" (bell) firing 1 starts on its sample: sample 36003 (scene 0.7501 s), "
                               + "its cue's 36001 plus 2 of its sound's leading silence"), "\(lines)")
        #expect(lines.contains("ok    pond: cue \"ding\" (bell) fires 1 time: fires 1 time (at 0.750001 s)"), "\(lines)")
        #expect(lines.last?.hasPrefix("4 passed, 0 failed") == true, "\(lines)")

        let unknown = try DioramaCommand.run(["verify", scenes, "--tap", "buton@1"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "error: --tap buton@1: no node \"buton\" in any scene\n  hint: the tappable nodes are pond/button\n")
        #expect(unknown.standardOutput.isEmpty, "no check runs")
        let second = try DioramaCommand.run(["verify", scenes, "--tap", "button@0.5", "--tap", "button@1"])
        #expect(second.status == 2)
        #expect(second.standardError.hasPrefix(
            "error: --tap button@1 would be the second tap of \"button\" (after --tap button@0.5), but the scene \"pond\" waits for its first tap only"),
            "\(second.standardError)")
    }
}
