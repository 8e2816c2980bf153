import DioramaDocument
import DioramaTestSupport
import Testing
@testable import DioramaTimeline

private typealias F = TimelineFixtures

/// A cue in the last sample period of its scene: one rule (`CueSchedule.soundsInside`) for the schedule, the live
/// sequencer and a tapped visit. At 1000 frames a second, scene a lasts 1000.6 frames, so b starts between frames;
/// b's cue at 0.9995 s is half a frame before b's end, its cue at 0.999 s a whole frame.
@Suite struct SceneEndSampleTests {
    let document = F.document([
        F.cueScene(id: "a", duration: "1.0006", cueTimes: ["0"]),
        F.cueScene(id: "b", duration: "1", cueTimes: ["0.999", "0.9995"], sound: "chime"),
    ])

    @Test func aCueInTheLastSamplePeriodIsNotScheduledAndIsReported() {
        let schedule = CueSchedule(document: document, sampleRate: 1000)
        // The cue at 0.9995 s would sound on frame ceil(1000.6 + 999.5) = 2001, b's end and the next scene's first.
        #expect(schedule.scenes[1].endSample == 2001)
        #expect(schedule.cues.map(\.sampleIndex) == [0, 2000])
        #expect(schedule.cues.allSatisfy { $0.sampleIndex < schedule.scenes[$0.firing.scene].endSample })
        #expect(schedule.firingsAtSceneEnd.map(\.firing.sceneTime) == [F.seconds("0.9995")])
        #expect(schedule.firingsAtSceneEnd.map(\.sampleIndex) == [2001])
    }

    @Test func theRuleDoesNotDependOnWhereTheSceneStarts() {
        let b = document.scenes[1]
        #expect(CueSchedule.soundsInside(b, at: F.seconds("0.999"), sampleRate: 1000))
        #expect(!CueSchedule.soundsInside(b, at: F.seconds("0.9995"), sampleRate: 1000))
        #expect(!CueSchedule.soundsInside(b, at: F.seconds("0.99999"), sampleRate: 1000))
        #expect(CueSchedule.soundsInside(b, at: F.seconds("0.9995"), sampleRate: 2000))
    }

    /// Live play, pass after pass (the playlist is 2000.6 frames, so b starts at a different fraction of a frame in
    /// each) and after a jump to a whole frame: the cue in the last sample period never sounds, the one a frame
    /// before the end always does, inside its scene.
    @Test func livePlayNeverRingsItOnTheNextScenesFirstSample() {
        var sequencer = PlaylistSequencer(document: document, sampleRate: 1000)
        var events = sequencer.play(at: 0)
        events += sequencer.advance(to: 4500)  // b twice: from 1000.6 and from 3001.2
        events += sequencer.jump(to: 1, at: 4500)  // and from 4500, to its end at 5500
        events += sequencer.advance(to: 5600)
        var cueFrames: [(String, Int64)] = []
        var ends: [Int64] = []
        for event in events {
            switch event {
            case .cueDue(let cue, let frame) where cue.sceneID == "b": cueFrames.append((cue.sceneTime.decimalString(), frame))
            case .sceneDisappeared(1, let frame): ends.append(frame)
            default: break
            }
        }
        #expect(cueFrames.map(\.0) == ["0.999", "0.999", "0.999"], "\(cueFrames)")
        #expect(ends == [2001, 4002, 5500])
        for ((_, frame), end) in zip(cueFrames, ends) { #expect(frame < end, "a cue at \(frame), its scene ends at \(end)") }
    }
}
