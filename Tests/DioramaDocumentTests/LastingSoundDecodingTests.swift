import DioramaTestSupport
import Foundation
import Testing

@testable import DioramaDocument

/// Every key of lasting sounds, decoded: a cue's `id`, `loop`, `until`, `fadeOut`, `duck`, stop cues and an
/// ambience's `start`. Their errors and warnings are in Corpus/ (bad-stop-cue, bad-cue-until, bad-duck,
/// bad-duplicate-cue-id, bad-ambience-start, warn-lasting-sounds).
@Suite struct LastingSoundDecodingTests {
    static func scene(cues: String = "[]", ambience: String = #"[{ "sound": "rain" }]"#) -> String {
        """
        { "canvas": { "width": 100, "height": 100 },
          "sounds": { "music": "media/music.flac", "rain": "media/rain.flac" },
          "scenes": [{ "id": "night", "duration": 24,
                       "nodes": [{ "type": "circle", "id": "moon", "r": 4, "fill": "#fff",
                                   "animations": [{ "id": "rise", "property": "offset.y", "from": 0, "to": -10, "duration": 4,
                                                    "repeat": "forever", "autoreverses": true }] }],
                       "ambience": \(ambience), "cues": \(cues) }] }
        """
    }

    static func cues(_ json: String) throws -> [Cue] {
        let loaded = try DocumentFixtures.decode(scene(cues: json))
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        return try #require(loaded.document.scenes.first).cues
    }

    @Test func aPlainCueKeepsItsMeaning() throws {
        let cue = try #require(try Self.cues(#"[{ "sound": "music", "at": 1 }]"#).first)
        #expect(cue == Cue(sound: "music", trigger: .at(.one)))
        #expect(cue.id == nil && cue.stop == nil && !cue.loops && cue.until == nil && cue.fadeOut == 0 && cue.duck == nil)
        #expect(!cue.isStop && !cue.endsWithScene)
    }

    @Test func everyKeyOfALastingCue() throws {
        let cues = try Self.cues("""
            [{ "sound": "music", "id": "music", "at": 2, "loop": true, "until": 12.5, "fadeOut": 1.5,
               "duck": { "db": -12, "attack": 80, "release": 500 } },
             { "sound": "music", "at": 1, "until": { "node": "moon", "animation": "rise", "on": "from", "offset": -0.25 } },
             { "sound": "music", "at": 1, "until": { "at": 3 }, "duck": { "db": -6 } }]
            """)
        #expect(cues.count == 3)
        #expect(cues[0] == Cue(sound: "music", trigger: .at(Rational(2)), id: "music", loops: true, until: .at(Rational(25, 2)),
                               fadeOut: 1.5, duck: Ducking(decibels: -12, attackMilliseconds: 80, releaseMilliseconds: 500)))
        #expect(cues[0].endsWithScene)
        #expect(cues[1].until == CueMoment(trigger: .animation(node: "moon", animation: "rise", event: .reachesFrom), offset: Rational(-1, 4)))
        #expect(!cues[1].loops && cues[1].endsWithScene, "a one-shot with an until is cut short and ends with its scene")
        #expect(cues[2].until == .at(Rational(3)))
        #expect(cues[2].duck == Ducking(decibels: -6, attackMilliseconds: 50, releaseMilliseconds: 300), "attack 50 ms, release 300 ms by default")
        #expect(abs(Ducking(decibels: -12).linearGain - 0.251_188_643) < 1e-9)
    }

    @Test func aStopCueTakesItsOwnFadeOrTheStoppedCues() throws {
        let cues = try Self.cues("""
            [{ "stop": "music", "at": 12, "fadeOut": 0.5 },
             { "sound": "music", "id": "music", "at": 2, "loop": true, "fadeOut": 2 },
             { "stop": "music", "node": "moon", "animation": "rise", "on": "to", "offset": 0.1 }]
            """)
        #expect(cues[0] == Cue(sound: "", trigger: .at(Rational(12)), stop: "music", fadeOut: 0.5))
        #expect(cues[0].isStop && !cues[0].endsWithScene)
        #expect(cues[2] == Cue(sound: "", trigger: .animation(node: "moon", animation: "rise", event: .reachesTo), offset: Rational(1, 10),
                               stop: "music", fadeOut: 2), "a stop before or after its cue in the list; the cue's fade-out by default")
    }

    @Test func anAmbienceStartsAtATimeOrOnAnEvent() throws {
        let loaded = try DocumentFixtures.decode(Self.scene(cues: #"[{ "sound": "music", "at": 1 }]"#, ambience: """
            [{ "sound": "rain", "start": 3 },
             { "sound": "rain", "start": { "node": "moon", "animation": "rise", "on": "iteration", "offset": 0.5 } },
             { "sound": "rain" }]
            """))
        #expect(loaded.warnings.isEmpty)
        let ambience = try #require(loaded.document.scenes.first).ambience
        #expect(ambience.map(\.start) == [.at(Rational(3)),
                                          CueMoment(trigger: .animation(node: "moon", animation: "rise", event: .iterationStart), offset: Rational(1, 2)),
                                          nil])
    }

    @Test func errorsAreLocatedWithPathAndHint() {
        let diagnostics = DocumentFixtures.renderedDiagnostics(Self.scene(cues: """
            [{ "sound": "music", "id": "music", "at": 5, "loop": true, "until": 5 },
             { "stop": "musc", "at": 6 }]
            """))
        #expect(diagnostics == [
            #"scenes.json:7:127: error: "until" (5 s) is not after the cue's start (5 s) (at scenes[0].cues[0].until)"# + "\n"
                + #"  hint: "until" is a scene time after the cue's start; leave it out to end the sound with the scene"#,
            #"scenes.json:8:12: error: no cue with id "musc" in this scene (at scenes[0].cues[1].stop)"# + "\n"
                + #"  hint: did you mean "music"?"#,
        ])
    }

    @Test func checkExitsTwoOnAStopNamingNoCue() throws {
        guard let result = try CheckCommandTests.checkBesideItsSounds("bad-stop-cue.json", sounds: ["music.flac", "bell.flac"]) else { return }
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        let expected = try String(contentsOf: CorpusTests.directory.appendingPathComponent("bad-stop-cue.expected"), encoding: .utf8)
        #expect(result.errors == expected)
    }
}
