import DioramaTestSupport
import Foundation
import Testing

/// `--tap NODE@SECONDS` of `render` and `timeline`: a tapped cue sounds on exactly the sample a cue at the tap's
/// time would, `auto` taps apply without it, and bad taps are refused with a hint.
@Suite struct TapCommandTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-tap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// One scene whose music starts `trigger` (a cue's trigger keys) plus 1.25 s; the button taps itself at `auto`.
    static func playlist(trigger: String, auto: String?) -> String {
        let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path
        return """
            { "canvas": { "width": 64, "height": 36 }, "sounds": { "music": "\(media)/music.flac" },
              "scenes": [{ "id": "intro", "duration": 1 },
                         { "id": "player", "duration": 6,
                           "cues": [{ "sound": "music", \(trigger), "offset": 1.25 }],
                           "nodes": [{ "type": "rect", "id": "button", "width": 10, "height": 10, "fill": "#c33",
                                       "tap": \(auto.map { "{ \"auto\": \($0) }" } ?? "{}") }] }] }
            """
    }

    func mix(_ json: String, _ options: [String], in directory: URL) throws -> Data {
        let name = "scenes-\(UUID().uuidString).json"
        try Data(json.utf8).write(to: directory.appendingPathComponent(name))
        let file = directory.appendingPathComponent("\(name).wav")
        let result = try DioramaCommand.run(["render", name, "--audio-only", "--audio", file.path] + options, in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        return try Data(contentsOf: file)
    }

    @Test func aTappedCueSoundsOnTheSampleOfATimedOne() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tapped = try mix(Self.playlist(trigger: "\"tap\": \"button\"", auto: nil), ["--tap", "button@1.500001"], in: directory)
        let timed = try mix(Self.playlist(trigger: "\"at\": 1.500001", auto: nil), [], in: directory)
        let untapped = try mix(Self.playlist(trigger: "\"tap\": \"button\"", auto: nil), [], in: directory)
        #expect(tapped == timed)
        #expect(tapped != untapped)
        // The first sample of the music: (1 + 1.500001 + 1.25) s rounded up, 180 001; nothing before it.
        let samples = tapped.dropFirst(tapped.count - 7 * 48_000 * 4).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples[..<(2 * 180_001)].allSatisfy { $0 == 0 })
        #expect(samples[(2 * 180_001)..<(2 * 184_801)].contains { $0 != 0 })
        #expect(untapped.dropFirst(44).allSatisfy { $0 == 0 })
        // Without --tap, `auto` taps; an earlier --tap takes its place (a later one would be a second tap).
        let auto = try mix(Self.playlist(trigger: "\"tap\": \"button\"", auto: "3"), [], in: directory)
        #expect(auto == (try mix(Self.playlist(trigger: "\"at\": 3", auto: "3"), [], in: directory)))
        #expect(timed == (try mix(Self.playlist(trigger: "\"tap\": \"button\"", auto: "3"),
                                  ["--tap", "player/button@1.500001"], in: directory)))
    }

    /// The music loops from the button's first tap until `until` (fading 0.25 s); a click fires on `click`.
    static func toggle(until: String, click: String) -> String {
        let media = DioramaCommand.repositoryRoot.appendingPathComponent("media").path
        return """
            { "canvas": { "width": 64, "height": 36 }, "sounds": { "music": "\(media)/music.flac", "click": "\(media)/click.flac" },
              "scenes": [{ "id": "intro", "duration": 1 },
                         { "id": "player", "duration": 6,
                           "cues": [{ "sound": "music", "tap": "button", "loop": true, "until": \(until), "fadeOut": 0.25 },
                                    { "sound": "click", \(click) }],
                           "nodes": [{ "type": "rect", "id": "button", "width": 10, "height": 10, "fill": "#c33", "tap": {} }] }] }
            """
    }

    @Test func aSecondTapEndsTheLoopAndSoundsItsCueOnTheirExactSamples() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secondTap = (until: ##"{ "tap": "button", "nth": 2 }"##, click: ##""tap": "button", "nth": 2"##)
        let tapped = try mix(Self.toggle(until: secondTap.until, click: secondTap.click),
                             ["--tap", "button@0.5", "--tap", "button@3.000001"], in: directory)
        let timed = try mix(Self.toggle(until: "3.000001", click: ##""at": 3.000001"##), ["--tap", "button@0.5"], in: directory)
        #expect(tapped == timed)
        // Tapped once, the music plays on and nothing clicks. The second tap is at playlist time 4.000001 s:
        // everything before its sample, ceil(192 000.048) = 192 001, is the same, and the 0.1 s after it is not.
        let once = try mix(Self.toggle(until: secondTap.until, click: secondTap.click), ["--tap", "button@0.5"], in: directory)
        let header = tapped.count - 7 * 48_000 * 4
        #expect(once.count == tapped.count)
        #expect(once.prefix(header + 192_001 * 4) == tapped.prefix(header + 192_001 * 4))
        #expect(once.dropFirst(header + 192_001 * 4).prefix(4_800 * 4) != tapped.dropFirst(header + 192_001 * 4).prefix(4_800 * 4))
    }

    @Test func aTapThatCannotCountIsRefusedWithItsReason() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.playlist(trigger: "\"tap\": \"button\"", auto: "3").utf8).write(to: directory.appendingPathComponent("scenes.json"))
        let second = try DioramaCommand.run(["timeline", "scenes.json", "--tap", "button@4"], in: directory)
        #expect(second.status == 2)
        #expect(second.standardError == """
            error: --tap button@4 would be the second tap of "button" (after its "auto" tap at 3 s), but the scene "player" waits for its first tap only
              hint: tap it at or before its "auto" time (3 s) to stand in for that tap, or "nth": 2 on a cue, stop or animation makes the second tap count

            """)
        let third = try DioramaCommand.run(["timeline", "scenes.json", "--tap", "button@1", "--tap", "button@2"], in: directory)
        #expect(third.standardError.hasPrefix(##"error: --tap button@2 would be the second tap of "button" (after --tap button@1), but"##))
        let twice = try DioramaCommand.run(["timeline", "scenes.json", "--tap", "button@1", "--tap", "player/button@1"], in: directory)
        #expect(twice.status == 2)
        #expect(twice.standardError == """
            error: --tap player/button@1: "button" is tapped at 1 s already (--tap button@1); one tap at a time counts
              hint: give each tap of a node its own time

            """)
    }

    @Test func theTimelineListsTheTapAndItsExactSample() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.playlist(trigger: "\"tap\": \"button\"", auto: "3").utf8).write(to: directory.appendingPathComponent("scenes.json"))
        let auto = try DioramaCommand.run(["timeline", "scenes.json", "--json"], in: directory)
        #expect(auto.status == 0)
        #expect(auto.standardOutput.contains("\"sample\": 252000"))
        #expect(auto.standardOutput.contains("\"kind\": \"tap\", \"tap\": \"button\", \"at\": 3"))
        let tapped = try DioramaCommand.run(["timeline", "scenes.json", "--tap", "button@0.5"], in: directory)
        #expect(tapped.status == 0)
        #expect(tapped.standardOutput.contains("132000  music  tap button at 0.5 +1.25 s"))
    }

    @Test(arguments: [
        ("buton@1", "error: --tap buton@1: no node \"buton\" in any scene\n  hint: the tappable nodes are player/button\n"),
        ("button", "error: --tap button names no node and time\n  hint: write NODE@SECONDS, e.g. --tap button@2.5\n"),
        ("button@soon", "error: --tap button@soon: \"soon\" is not a time in seconds\n  hint: give the scene time of the tap, 0 or more, e.g. --tap button@2.5\n"),
        ("button@6", "error: --tap button@6: the scene \"player\" lasts 6 s, so a tap at 6 s never happens\n  hint: SECONDS is scene time, from 0 up to, not including, the scene's duration\n"),
        ("intro/button@1", "error: --tap intro/button@1: no node \"intro/button\" in any scene\n  hint: the tappable nodes are player/button\n"),
    ])
    func badTapsAreRefused(tap: String, message: String) throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.playlist(trigger: "\"tap\": \"button\"", auto: nil).utf8).write(to: directory.appendingPathComponent("scenes.json"))
        for command in [["timeline", "scenes.json"], ["render", "scenes.json", "--audio-only", "--audio", "x.wav"]] {
            let result = try DioramaCommand.run(command + ["--tap", tap], in: directory)
            #expect(result.status == 2)
            #expect(result.standardError == message)
        }
    }

    @Test func aNodeIdInSeveralScenesNeedsItsScene() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = """
            { "canvas": { "width": 64, "height": 36 },
              "scenes": [{ "id": "a", "duration": 2, "nodes": [{ "type": "rect", "id": "k", "width": 1, "height": 1, "fill": "#fff", "tap": {},
                                                                  "animations": [{ "property": "opacity", "to": 0, "duration": 1, "after": { "tap": "k" } }] }] },
                         { "id": "b", "duration": 2, "nodes": [{ "type": "rect", "id": "k", "width": 1, "height": 1, "fill": "#fff" }] }] }
            """
        try Data(json.utf8).write(to: directory.appendingPathComponent("scenes.json"))
        let ambiguous = try DioramaCommand.run(["timeline", "scenes.json", "--tap", "k@1"], in: directory)
        #expect(ambiguous.status == 2)
        #expect(ambiguous.standardError == "error: --tap k@1: the node \"k\" is in several scenes (a, b)\n  hint: name the scene: --tap a/k@1\n")
        #expect(try DioramaCommand.run(["timeline", "scenes.json", "--tap", "a/k@1"], in: directory).status == 0)
        let untappable = try DioramaCommand.run(["timeline", "scenes.json", "--tap", "b/k@1"], in: directory)
        #expect(untappable.standardError.hasPrefix("error: --tap b/k@1: the node \"k\" of the scene \"b\" cannot be tapped"))
    }
}
