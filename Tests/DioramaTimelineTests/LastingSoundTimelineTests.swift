import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing
@testable import DioramaTimeline

/// Loops, stops and ambience started on a moment in the cue schedule, the playlist sequencer and the report.
/// At 1000 frames per second a frame is a millisecond.
@Suite struct LastingSoundTimelineTests {
    /// Scene a (3 s): a bed starting at 1.2 s; a loop "m" from 0.5 s until 2.5 s; a stop of "m" at 1.5 s; a one-shot
    /// at 1.5 s. Scene b (2 s): a loop from 0.25 s to the scene's end, ducking.
    static let json = """
        { "canvas": { "width": 10, "height": 10 },
          "sounds": { "music": "music.flac", "bell": "bell.flac", "rain": "rain.flac" },
          "scenes": [
            { "id": "a", "duration": 3,
              "ambience": [{ "sound": "rain", "start": 1.2 }],
              "cues": [{ "sound": "music", "id": "m", "at": 0.5, "loop": true, "until": 2.5, "fadeOut": 0.25 },
                       { "stop": "m", "at": 1.5 },
                       { "sound": "bell", "at": 1.5 }] },
            { "id": "b", "duration": 2,
              "cues": [{ "sound": "music", "at": 0.25, "loop": true, "fadeOut": 0.5, "duck": { "db": -12 } }] }
          ] }
        """

    static func document(_ json: String = Self.json) throws -> Document {
        try DocumentFixtures.decode(json).document
    }

    /// Events as short strings: `+a@0` appeared, `-a@3000` disappeared, `a0.5@500` cue, `stop a#0@1500`, `bed a#0@1200`.
    static func describe(_ events: [SequencerEvent]) -> [String] {
        events.map { event in
            switch event {
            case .sceneAppeared(let scene, let frame): "+\(["a", "b"][scene])@\(frame)"
            case .sceneDisappeared(let scene, let frame): "-\(["a", "b"][scene])@\(frame)"
            case .cueDue(let cue, let frame): "\(cue.sceneID)\(cue.sceneTime.decimalString())@\(frame)"
            case .cueStopDue(let stop, let frame): "stop \(stop.sceneID)#\(stop.cue)@\(frame)"
            case .ambienceDue(let start, let frame): "bed \(start.sceneID)#\(start.ambience)@\(frame)"
            case .paused(let frame): "pause@\(frame)"
            case .resumed(_, let frame): "resume@\(frame)"
            case .finished(let frame): "finished@\(frame)"
            case .revoked(let frame): "revoked@\(frame)"
            }
        }
    }

    // MARK: - Schedule

    @Test func theScheduleListsStopsEndsAndAmbienceStarts() throws {
        let schedule = CueSchedule(document: try Self.document(), sampleRate: 1000)
        #expect(schedule.cues.map(\.sampleIndex) == [500, 1500, 3250])
        let loop = schedule.cues[0].firing
        #expect(loop.id == "m" && loop.loops && loop.endsWithScene && loop.fadeOut == 0.25)
        #expect(loop.end == CueFiring.End(sceneTime: Rational(3, 2), reason: .stopCue(1), fadeOut: 0.25),
                "the stop cue (taking the loop's fade-out) comes before the until")
        #expect(schedule.cues[1].firing.end == nil && !schedule.cues[1].firing.endsWithScene, "a plain one-shot")
        #expect(schedule.cues[2].firing.end == nil && schedule.cues[2].firing.endsWithScene, "a loop to the scene's end")
        #expect(schedule.cues[2].firing.duck == Ducking(decibels: -12))
        #expect(schedule.stops.map(\.sampleIndex) == [1500, 2500])
        #expect(schedule.stops.map(\.stop.reason) == [.stopCue(1), .until])
        #expect(schedule.stops.allSatisfy { $0.stop.cue == 0 && $0.stop.cueID == "m" })
        #expect(schedule.ambienceStarts.map(\.sampleIndex) == [1200])
        #expect(schedule.ambienceStarts.first?.start.ambience == 0)
    }

    @Test func aStopAtTheTimeASoundStartsDoesNotEndIt() throws {
        let document = try Self.document("""
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "music": "music.flac" },
              "scenes": [{ "id": "a", "duration": 4,
                           "cues": [{ "sound": "music", "id": "m", "at": 1, "loop": true },
                                    { "stop": "m", "at": 1 },
                                    { "stop": "m", "at": 3 }] }] }
            """)
        let schedule = CueSchedule(document: document, sampleRate: 1000)
        #expect(schedule.cues.first?.firing.end?.sceneTime == Rational(3))
        // In the sequencer too: at one frame the stop comes first, so the loop starts after it.
        var sequencer = PlaylistSequencer(document: document, sampleRate: 1000, end: .stop)
        let events = sequencer.play(at: 0) + sequencer.advance(to: 5000)
        #expect(Self.describe(events) == ["+a@0", "stop a#0@1000", "a1@1000", "stop a#0@3000", "-a@4000", "finished@4000"])
    }

    @Test func eachFiringOfARepeatingLoopEndsAtTheFirstUntilAfterIt() throws {
        let document = try Self.document("""
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "music": "music.flac" },
              "scenes": [{ "id": "a", "duration": 5,
                           "nodes": [{ "type": "rect", "id": "p", "width": 1, "height": 1, "fill": "#fff",
                                       "animations": [{ "id": "beat", "property": "opacity", "from": 1, "to": 0, "duration": 1,
                                                        "delay": 0.5, "repeat": "forever" }] }],
                           "cues": [{ "sound": "music", "node": "p", "animation": "beat", "on": "iteration", "loop": true,
                                      "until": { "node": "p", "animation": "beat", "on": "to", "offset": -0.25 } }] }] }
            """)
        let schedule = CueSchedule(document: document, sampleRate: 1000)
        // Iterations start at 0.5, 1.5, 2.5, 3.5, 4.5; "to" minus 0.25 s at 1.25, 2.25, 3.25, 4.25 (5.25 is past the end).
        #expect(schedule.cues.map(\.sampleIndex) == [500, 1500, 2500, 3500, 4500])
        #expect(schedule.cues.map { $0.firing.end?.sceneTime } == [Rational(5, 4), Rational(9, 4), Rational(13, 4), Rational(17, 4), nil])
        #expect(schedule.stops.map(\.sampleIndex) == [1250, 2250, 3250, 4250])
    }

    // MARK: - Sequencer

    @Test func uninterruptedPlayEmitsStopsAndAmbienceOnTheirFrames() throws {
        var sequencer = PlaylistSequencer(document: try Self.document(), sampleRate: 1000, end: .stop)
        let events = sequencer.play(at: 0) + sequencer.advance(to: 6000)
        #expect(Self.describe(events) == [
            "+a@0", "a0.5@500", "bed a#0@1200", "stop a#0@1500", "a1.5@1500", "stop a#0@2500",
            "-a@3000", "+b@3000", "b0.25@3250", "-b@5000", "finished@5000",
        ])
    }

    @Test func leavingASceneDropsItsLaterStopsAndAmbience() throws {
        var sequencer = PlaylistSequencer(document: try Self.document(), sampleRate: 1000, end: .stop)
        var events = sequencer.play(at: 0) + sequencer.advance(to: 1000)
        events += sequencer.next(at: 1000)
        events += sequencer.advance(to: 3500)
        #expect(Self.describe(events) == ["+a@0", "a0.5@500", "-a@1000", "+b@1000", "b0.25@1250", "-b@3000", "finished@3000"])
    }

    @Test func aPauseRevokesAnAnnouncedStopAndTheResumeBringsItBackLaterByThePause() throws {
        var sequencer = PlaylistSequencer(document: try Self.document(), sampleRate: 1000, end: .stop)
        _ = sequencer.play(at: 0)
        let ahead = sequencer.advance(to: 1600)
        #expect(Self.describe(ahead).contains("stop a#0@1500"))
        let paused = sequencer.pause(at: 1400)
        #expect(Self.describe(paused) == ["revoked@1400", "pause@1400"])
        let resumed = sequencer.resume(at: 2400) + sequencer.advance(to: 3600)
        #expect(Self.describe(resumed) == ["resume@2400", "stop a#0@2500", "a1.5@2500", "stop a#0@3500"])
    }

    @Test func aSeekForwardStartsTheLastingSoundsItLandsInside() throws {
        var sequencer = PlaylistSequencer(document: try Self.document(), sampleRate: 1000, end: .stop)
        _ = sequencer.play(at: 0)
        // Into the loop (0.5 ... 1.5 s), before the bed's start: the loop starts at the seek's frame.
        #expect(Self.describe(sequencer.seek(to: Rational(1), at: 100)) == ["a0.5@100"])
        // On past the bed's start and the loop's stop: only the bed.
        #expect(Self.describe(sequencer.seek(to: Rational(2), at: 200)) == ["bed a#0@200"])
        // Back: nothing starts twice.
        #expect(Self.describe(sequencer.seek(to: Rational(1, 2), at: 300)) == [])
        #expect(Self.describe(sequencer.advance(to: 1000)) == ["a0.5@300"])
    }

    // MARK: - Report

    @Test func theReportShowsLoopsStopsDucksAndAmbienceStarts() throws {
        let report = TimelineReport(document: try Self.document(), sampleRate: 48_000)
        let text = report.text(file: "scenes.json")
        #expect(text.contains("0.5  a               0.5   24000  music  at 0.5, loops until 1.5 s (stopped by cue 1), fade-out 0.25 s\n"))
        #expect(text.contains("at 0.25, loops until the scene ends, fade-out 0.5 s, ducks -12 dB (50/300 ms)\n"))
        #expect(text.contains("stop s  scene  scene time s  sample  ends  fade-out s  by\n"))
        #expect(text.contains("   1.5  a               1.5   72000  \"m\"         0.25  stop cue 1, at 1.5\n"))
        #expect(text.contains("   2.5  a               2.5  120000  \"m\"         0.25  until, at 2.5\n"))
        #expect(text.contains("       1.2  a               1.2   57600  rain   at 1.2\n"))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        let cues = try #require(json["cues"] as? [[String: Any]])
        #expect(cues[0]["id"] as? String == "m" && cues[0]["loop"] as? Bool == true)
        #expect(cues[0]["end"] as? Double == 1.5 && cues[0]["endSample"] as? Int == 72_000 && cues[0]["endsBy"] as? String == "stop")
        #expect(cues[0]["stopCue"] as? Int == 1 && cues[0]["fadeOut"] as? Double == 0.25)
        #expect(cues[1]["loop"] == nil && cues[1]["end"] == nil, "a plain cue's object is as before")
        #expect(cues[2]["endsBy"] as? String == "scene" && cues[2]["endSample"] as? Int == 240_000)
        #expect(cues[2]["duck"] as? [String: Double] == ["db": -12, "attack": 50, "release": 300])
        let stops = try #require(json["stops"] as? [[String: Any]])
        #expect(stops.map { $0["sample"] as? Int } == [72_000, 120_000])
        #expect(stops.map { $0["by"] as? String } == ["stop", "until"])
        #expect(stops[0]["stopCue"] as? Int == 1 && stops[0]["cue"] as? Int == 0 && stops[0]["id"] as? String == "m")
        let starts = try #require(json["ambienceStarts"] as? [[String: Any]])
        #expect(starts.count == 1 && starts[0]["sample"] as? Int == 57_600 && starts[0]["sound"] as? String == "rain")
        let trigger = try #require(starts[0]["trigger"] as? [String: Any])
        #expect(trigger["kind"] as? String == "at" && trigger["at"] as? Double == 1.2)
    }

    @Test func aReportWithoutLastingSoundsHasNoNewKeys() throws {
        let json = TimelineReport(document: try DocumentFixtures.decode(DocumentFixtures.oceanJSON).document, sampleRate: 48_000).json()
        for key in ["\"stops\"", "\"ambienceStarts\"", "\"loop\"", "\"endsBy\"", "\"duck\""] { #expect(!json.contains(key)) }
    }
}
