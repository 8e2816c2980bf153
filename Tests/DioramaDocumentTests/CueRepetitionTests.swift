import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

@testable import DioramaDocument

/// Cues that repeat (`every`, `count`): their firings, exact and numbered; their `until`, stops and bounds; and
/// where `check` reports a mistake.
@Suite struct CueRepetitionTests {
    static func document(cues: String, duration: String = "4", animations: String = "") -> String {
        """
        { "canvas": { "width": 100, "height": 100 }, "sounds": { "tick": "media/bell.flac" },
          "scenes": [{ "id": "s", "duration": \(duration), "markers": { "go": 0.5 }, "cues": [\(cues)],
            "nodes": [{ "type": "rect", "id": "hand", "width": 4, "height": 4, "fill": "#fff"\(animations.isEmpty ? "" : ", \"animations\": [\(animations)]") }] }] }
        """
    }

    static func firings(_ json: String) throws -> [CueFiring] {
        let loaded = try DocumentFixtures.decode(json)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        return CueSchedule.firings(of: try #require(loaded.document.scenes.first), index: 0)
    }

    @Test func aCueFiresCountTimesEveryApartExactly() throws {
        let firings = try Self.firings(Self.document(cues: #"{ "sound": "tick", "at": 0.25, "every": 0.1, "count": 8 }"#))
        #expect(firings.map(\.sceneTime) == (0..<8).map { Rational(1, 4) + Rational(1, 10) * Rational($0) })
        #expect(firings.map(\.repetition) == Array(0..<8))
        // The n-th firing is addressed by its number: its variation draw, and its own seed.
        #expect(firings.map(\.firingIndex) == Array(0..<8))
        let vary = SoundVariation(gainDecibels: 3, pitchSemitones: 0)
        #expect(Set(firings.map { $0.variation(vary).gainDecibels }).count == 8)
    }

    @Test func withoutACountItRepeatsUntilTheSceneEnds() throws {
        // At the marker (0.5 s) and every 0.75 s: 0.5, 1.25, 2, 2.75, 3.5; 4.25 is past the 4 s scene.
        let firings = try Self.firings(Self.document(cues: #"{ "sound": "tick", "marker": "go", "every": 0.75 }"#))
        #expect(firings.map(\.sceneTime) == [Rational(1, 2), Rational(5, 4), Rational(2), Rational(11, 4), Rational(7, 2)])
    }

    @Test func aCueOnAnAnimationRepeatsAfterEveryIterationsEvent() throws {
        let spin = #"{ "id": "spin", "property": "rotation", "to": 360, "duration": 1, "repeat": 3, "curve": "linear" }"#
        let firings = try Self.firings(Self.document(cues: #"{ "sound": "tick", "node": "hand", "animation": "spin", "on": "iteration", "every": 0.25, "count": 2 }"#,
                                                     animations: spin))
        #expect(firings.map(\.sceneTime) == [0, 1, 4, 5, 8, 9].map { Rational($0, 4) })
        #expect(firings.map(\.repetition) == [0, 1, 0, 1, 0, 1])
        // Distinct firing numbers: no two firings of the cue draw alike.
        #expect(Set(firings.map(\.firingIndex)).count == 6)
        #expect(firings.filter { $0.repetition == 0 }.map(\.firingIndex) == [0, 1, 2])
    }

    @Test func eachRepetitionHasItsOwnUntilAndAStopEndsThemAll() throws {
        let loaded = try DocumentFixtures.decode(Self.document(cues: """
            { "sound": "tick", "id": "drone", "at": 0, "every": 1, "count": 3, "loop": true, "until": { "at": 0.5 } },
            { "stop": "drone", "at": 2.2 }
            """))
        let scene = try #require(loaded.document.scenes.first)
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        #expect(schedule.cues.map(\.firing.sceneTime) == [0, 1, 2].map { Rational($0) })
        // The until at 0.5 s ends the first; the second and third loop on until the stop at 2.2 s.
        let stops = CueSchedule.stops(of: scene, index: 0, firings: CueSchedule.firings(of: scene, index: 0))
        #expect(stops.map(\.sceneTime) == [Rational(1, 2), Rational(11, 5)])
    }

    @Test func theTimelineNamesEachRepetition() throws {
        let json = Self.document(cues: #"{ "sound": "tick", "at": 1, "every": 0.5, "count": 3 }"#)
        let text = try DocumentFixtures.timelineText(json, name: "f.json")
        for line in ["at 1", "at 1 every #1", "at 1 every #2"] {
            #expect(text.components(separatedBy: "\n").contains { $0.hasSuffix(line) || $0.contains(line + " ") }, "\(text)")
        }
        let report = TimelineReport(document: try DocumentFixtures.decode(json).document, sampleRate: 48_000).json()
        #expect(report.contains(#""repetition": 2"#), "\(report)")
    }

    @Test func theBoundCountsTheRepetitions() throws {
        let scene = try #require(try DocumentFixtures.decode(Self.document(cues: #"{ "sound": "tick", "at": 0, "every": 0.01, "count": 50 }"#)).document.scenes.first)
        let bound = scene.firingBound(of: scene.cues[0])
        #expect(bound.count == 50)
        #expect(bound.perSecond == 50)
    }

    // MARK: - Problems

    static func diagnostics(_ cue: String, duration: String = "4") -> [String] {
        DocumentFixtures.renderedDiagnostics(Self.document(cues: cue, duration: duration), name: "f.json")
    }

    @Test func checkLocatesEveryMistakeWithAHint() {
        #expect(Self.diagnostics(#"{ "sound": "tick", "at": 1, "count": 8 }"#) == [
            #"f.json:2:105: error: "count" needs "every": the seconds between the firings (at scenes[0].cues[0].count)"# + "\n"
                + #"  hint: add "every": 0.5 to fire 8 times, half a second apart"#,
        ])
        #expect(Self.diagnostics(#"{ "sound": "tick", "at": 1, "every": 0 }"#).first
                    == #"f.json:2:114: error: "every" must be greater than 0 and at most 86400 seconds, not 0 (at scenes[0].cues[0].every)"#)
        #expect(Self.diagnostics(#"{ "sound": "tick", "at": 1, "every": 0.5, "count": 0 }"#).first
                    == #"f.json:2:128: error: "count" must be between 1 and 100,000, not 0 (at scenes[0].cues[0].count)"#)
        let flood = Self.diagnostics(#"{ "sound": "tick", "at": 0, "every": 0.0005 }"#, duration: "10")
        #expect(flood.first?.contains("fire up to 2,000 times in one second") == true, "\(flood)")
        let stop = Self.diagnostics(#"{ "sound": "tick", "id": "a", "at": 0 }, { "stop": "a", "at": 1, "every": 1 }"#)
        #expect(stop.first?.contains(#"error: "every" does not apply to a stop cue"#) == true, "\(stop)")
    }
}
