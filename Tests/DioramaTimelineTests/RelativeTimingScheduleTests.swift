import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing
@testable import DioramaTimeline

/// Relative starts as the timeline sees them: the snapshot evaluator, the event times and the cue schedule
/// all use the same resolved starts, so a cue on an event of a relative animation lands on its exact sample.
@Suite struct RelativeTimingScheduleTests {
    /// "open" runs 0.7 ... 2.2 (2 iterations of 0.75 s); "swing" starts 0.35 s after it ends, at 2.55, and is a
    /// 0.9 s track at speed 3 (0.3 s): keyframe 1 (τ = 0.6) is passed at 2.55 + 0.2 = 2.75 s, sample 132000 at 48 kHz.
    static let json = """
        {
          "canvas": { "width": 100, "height": 100 },
          "sounds": { "click": "click.flac" },
          "scenes": [
            { "id": "intro", "duration": 1.5 },
            { "id": "yard", "duration": 6, "markers": { "gate": 0.7 },
              "cues": [
                { "sound": "click", "node": "arm", "animation": "swing", "on": { "keyframe": 1 } },
                { "sound": "click", "marker": "gate", "offset": 0.05 },
                { "sound": "click", "node": "gate", "animation": "open", "on": "end" }
              ],
              "nodes": [
                { "type": "rect", "id": "arm", "width": 10, "height": 10, "fill": "#fff",
                  "animations": [
                    { "property": "rotation", "from": 0, "to": 5, "duration": 1, "curve": "linear" },
                    { "id": "swing", "property": "rotation", "speed": 3, "delay": 0.35,
                      "after": { "node": "gate", "animation": "open", "on": "end" },
                      "keyframes": [{ "time": 0, "value": 10 }, { "time": 0.6, "value": 40 }, { "time": 0.9, "value": 20 }] }
                  ] },
                { "type": "rect", "id": "gate", "width": 10, "height": 10, "fill": "#fff",
                  "animations": [
                    { "id": "open", "property": "offset.x", "from": 0, "to": 30, "duration": 0.75, "curve": "linear",
                      "repeat": 2, "after": { "marker": "gate" } }
                  ] }
              ] }
          ]
        }
        """

    static func document() throws -> Document {
        try DocumentFixtures.decode(json).document
    }

    @Test func aCueOnAKeyframeOfAnAnimationThatStartsAfterAnotherEndsLandsOnItsSample() throws {
        let schedule = CueSchedule(document: try Self.document(), sampleRate: 48_000)
        let swing = try #require(schedule.cues.first { $0.firing.cue == 0 })
        #expect(swing.firing.sceneTime == Rational(11, 4))
        #expect(swing.firing.trigger == .animation(node: "arm", animation: "swing", event: .keyframe(1), iteration: 0))
        // 1.5 s of intro, then 2.75 s into the yard.
        #expect(swing.absoluteTime == Rational(17, 4))
        #expect(swing.sampleIndex == 204_000)
        #expect(schedule.cues.filter { $0.firing.cue == 0 }.count == 1)
    }

    @Test func markerCuesAndEndCuesFireOnce() throws {
        let cues = CueSchedule(document: try Self.document(), sampleRate: 48_000).cues
        let marker = try #require(cues.first { $0.firing.cue == 1 })
        #expect(marker.firing.trigger == .marker(name: "gate", time: Rational(7, 10)))
        #expect(marker.firing.sceneTime == Rational(3, 4) && marker.sampleIndex == 108_000)
        let end = cues.filter { $0.firing.cue == 2 }
        #expect(end.map(\.firing.sceneTime) == [Rational(11, 5)])
        #expect(end.first?.firing.trigger == .animation(node: "gate", animation: "open", event: .end, iteration: 1))
    }

    @Test func theSnapshotSeesTheSameStart() throws {
        let evaluator = SceneEvaluator(document: try Self.document())
        func rotation(_ time: Double) -> Double? {
            guard case .shape = evaluator.snapshot(scene: 1, at: time).nodes[0].content else { return nil }
            let transform = evaluator.snapshot(scene: 1, at: time).nodes[0].transform
            return (atan2(transform.b, transform.a) * 180 / .pi * 1e6).rounded() / 1e6
        }
        // The first animation runs 0 ... 1 and holds 5 until "swing" takes over at its resolved start, 2.55 s.
        #expect(rotation(2.5) == 5)
        #expect(rotation(2.55) == 10)
        // Keyframe 1 at 2.75 s, exactly where the cue fires; then back towards 20 by 2.85 s.
        #expect(rotation(2.75) == 40)
        #expect(rotation(2.85) == 20)
        #expect(rotation(4) == 20)
    }

    @Test func eventTimesOfTheResolvedAnimationAgreeWithTheResolvedStarts() throws {
        // For every event, an animation started `after` it starts exactly at that event's first time.
        let base = #"{ "id": "a", "property": "opacity", "repeat": 3, "autoreverses": true, "speed": 1.5, "delay": 0.2, "after": { "marker": "m" }, "keyframes": [{ "time": 0, "value": 0 }, { "time": 0.3, "value": 1 }, { "time": 0.9, "value": 0 }] }"#
        let events: [(String, AnimationEvent)] = [("\"iteration\"", .iterationStart), ("\"to\"", .reachesTo), ("\"from\"", .reachesFrom),
                                                  ("{ \"keyframe\": 1 }", .keyframe(1)), ("{ \"keyframe\": 2 }", .keyframe(2)), ("\"end\"", .end)]
        for (name, event) in events {
            let json = """
                { "canvas": { "width": 10, "height": 10 },
                  "scenes": [{ "id": "s", "duration": 30, "markers": { "m": 1.1 },
                    "nodes": [{ "type": "rect", "id": "n", "width": 1, "height": 1, "fill": "#fff", "animations": [\(base),
                      { "id": "b", "property": "rotation", "to": 1, "duration": 1, "after": { "node": "n", "animation": "a", "on": \(name) } }] }] }] }
                """
            let scene = try #require(try DocumentFixtures.decode(json).document.scenes.first).resolvingStarts()
            let animations = try #require(scene.node(withID: "n")?.animations)
            let first = AnimationEventTimes(animations[0]).occurrences(of: event, from: .zero, before: Rational(30)).first?.time
            #expect(first != nil && animations[1].delay == first, "\(name)")
        }
    }

    @Test func endFiresOnceAndNeverForForever() {
        let once = AnimationEventTimes(TimelineFixtures.basic(.opacity, from: 0, to: 1, duration: "0.5", delay: "1", repeatCount: .count(4)))
        #expect(once.occurrences(of: .end, from: .zero, before: Rational(10)).map(\.time) == [Rational(3)])
        #expect(once.occurrences(of: .end, from: .zero, before: Rational(3)).isEmpty)
        #expect(once.occurrences(of: .end, from: .zero, before: Rational(10)).map(\.iteration) == [3])
        let forever = AnimationEventTimes(TimelineFixtures.basic(.opacity, from: 0, to: 1, duration: "0.5", repeatCount: .forever))
        #expect(forever.occurrences(of: .end, from: .zero, before: Rational(100)).isEmpty)
    }

    @Test func theReportListsMarkersAndResolvedStarts() throws {
        let report = TimelineReport(document: try Self.document(), sampleRate: 48_000)
        let text = report.text(file: "yard.json")
        #expect(text.contains("""
            time s  scene  scene time s  sample  marker
               2.2  yard            0.7  105600  gate
            """))
        #expect(text.contains("""
            time s  scene  scene time s  sample  animation starts  after
               2.2  yard            0.7  105600  gate.open         marker gate
              4.05  yard           2.55  194400  arm.swing         gate.open end +0.35 s
            """))
        #expect(text.contains("marker gate +0.05 s"))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        // Added keys only: the format stays.
        #expect(json["format"] as? String == "diorama-timeline/2")
        let markers = try #require(json["markers"] as? [[String: Any]])
        #expect(markers.count == 1)
        #expect(markers[0]["name"] as? String == "gate" && markers[0]["sceneTimeExact"] as? String == "7/10"
                && markers[0]["time"] as? Double == 2.2 && markers[0]["sample"] as? Int == 105_600 && markers[0]["scene"] as? Int == 1)
        let starts = try #require(json["relativeStarts"] as? [[String: Any]])
        #expect(starts.count == 2)
        let swing = starts[1]
        #expect(Set(swing.keys) == ["time", "timeExact", "sample", "scene", "sceneId", "sceneTime", "sceneTimeExact",
                                    "node", "animation", "path", "delay", "after"])
        #expect(swing["node"] as? String == "arm" && swing["animation"] as? String == "swing" && swing["path"] as? String == "nodes[0].animations[1]")
        #expect(swing["sceneTime"] as? Double == 2.55 && swing["sceneTimeExact"] as? String == "51/20" && swing["delay"] as? Double == 0.35)
        let after = try #require(swing["after"] as? [String: Any])
        #expect(after["kind"] as? String == "animation" && after["node"] as? String == "gate" && after["on"] as? String == "end")
        let cues = try #require(json["cues"] as? [[String: Any]])
        let markerTrigger = try #require(cues.first { $0["cue"] as? Int == 1 }?["trigger"] as? [String: Any])
        #expect(markerTrigger["kind"] as? String == "marker" && markerTrigger["marker"] as? String == "gate" && markerTrigger["at"] as? Double == 0.7)
    }

    @Test func aFileWithoutRelativeTimingReportsNoMomentsAndTheSameText() throws {
        let report = TimelineReport(document: try DocumentFixtures.decode(DocumentFixtures.oceanJSON).document, sampleRate: 48_000)
        #expect(report.markers.isEmpty && report.relativeStarts.isEmpty)
        // Like `stops` and `ambienceStarts`, the arrays appear only when the playlist has some.
        let json = report.json()
        #expect(!json.contains("\"markers\"") && !json.contains("\"relativeStarts\"") && json.hasSuffix("\n  ]\n}\n"))
        #expect(!report.text(file: "f").contains("marker"))
    }
}
