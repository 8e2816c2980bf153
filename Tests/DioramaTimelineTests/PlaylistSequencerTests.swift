import DioramaDocument
import DioramaTestSupport
import Testing
@testable import DioramaTimeline

private typealias F = TimelineFixtures

/// At 1000 frames per second a frame is a millisecond: scene a lasts 2 s, b 1 s, c 3 s (6000 frames in all).
private let document = F.document([
    F.cueScene(id: "a", duration: "2", cueTimes: ["0", "0.5", "1.5"]),
    F.cueScene(id: "b", duration: "1", cueTimes: ["0.25", "0.999"], sound: "chime"),
    F.cueScene(id: "c", duration: "3", cueTimes: ["1", "2.5"], sound: "creak"),
])

private func sequencer(_ end: PlaylistEnd = .wrap) -> PlaylistSequencer {
    PlaylistSequencer(document: document, sampleRate: 1000, end: end)
}

/// Events as short strings: `+a@100` appeared, `-a@2100` disappeared, `a0.5@600` cue (scene id and scene time).
private func describe(_ events: [SequencerEvent]) -> [String] {
    let ids = ["a", "b", "c"]
    return events.map { event in
        switch event {
        case .sceneAppeared(let scene, let frame): "+\(ids[scene])@\(frame)"
        case .sceneDisappeared(let scene, let frame): "-\(ids[scene])@\(frame)"
        case .cueDue(let cue, let frame): "\(cue.sceneID)\(cue.sceneTime.decimalString())@\(frame)"
        case .paused(let frame): "pause@\(frame)"
        case .resumed(let scene, let frame): "resume \(scene)@\(frame)"
        case .finished(let frame): "finished@\(frame)"
        case .revoked(let frame): "revoked@\(frame)"
        case .cueStopDue(let stop, let frame): "stop \(stop.sceneID)#\(stop.cue)@\(frame)"
        case .ambienceDue(let start, let frame): "bed \(start.sceneID)#\(start.ambience)@\(frame)"
        }
    }
}

@Suite struct PlaylistSequencerTests {
    @Test func playsEveryScenesCuesAtExactFramesAndWraps() {
        var s = sequencer()
        #expect(describe(s.play(at: 100)) == ["+a@100"])
        #expect(describe(s.advance(to: 6101)) == [
            "a0@100", "a0.5@600", "a1.5@1600", "-a@2100", "+b@2100", "b0.25@2350", "b0.999@3099",
            "-b@3100", "+c@3100", "c1@4100", "c2.5@5600", "-c@6100", "+a@6100", "a0@6100",
        ])
        #expect(s.state == .playing)
    }

    @Test func advancingInChunksGivesTheSameEventsAsOnce() {
        var whole = sequencer(), chunked = sequencer()
        _ = whole.play(at: 0)
        _ = chunked.play(at: 0)
        let expected = whole.advance(to: 40_000)
        var events: [SequencerEvent] = []
        var frame: Int64 = 0
        var step: Int64 = 1
        while frame < 40_000 {
            frame = min(40_000, frame + step)
            events += chunked.advance(to: frame)
            step = step * 7 % 997 + 1  // irregular chunk sizes, some of one frame
        }
        #expect(events == expected)
    }

    @Test func uninterruptedPlayLandsOnTheCueSchedulesSamplesCycleAfterCycle() {
        // Scene lengths that are not whole samples at 44.1 kHz: the sequencer must not drift by a sample per scene.
        let document = F.document([F.cueScene(id: "a", duration: "0.00123", cueTimes: ["0", "0.001"]),
                                   F.cueScene(id: "b", duration: "1.00001", cueTimes: ["0.5", "1"]),
                                   F.cueScene(id: "c", duration: "0.333333", cueTimes: ["0.333332"])])
        let schedule = CueSchedule(document: document, sampleRate: 44_100)
        var s = PlaylistSequencer(schedule: schedule)
        _ = s.play(at: 0)
        let cycles = 50
        let totalFrames = schedule.clock.length * Rational(44_100)
        let limit = Int64((totalFrames * Rational(cycles)).ceiling)
        let fired = s.advance(to: limit).compactMap { event -> Int64? in
            if case .cueDue(_, let frame) = event { return frame }
            return nil
        }
        var expected: [Int64] = []
        for cycle in 0...cycles {
            for cue in schedule.cues {
                expected.append(Int64(((cue.absoluteTime + schedule.clock.length * Rational(cycle)) * Rational(44_100)).ceiling))
            }
        }
        expected.removeAll { $0 >= limit }
        #expect(fired.count == expected.count)
        #expect(fired == expected)
        #expect(Array(fired.prefix(schedule.cues.count)) == schedule.cues.map(\.sampleIndex))
    }

    @Test func stopsAtTheEndWhenAsked() {
        var s = sequencer(.stop)
        _ = s.play(at: 0)
        #expect(describe(s.advance(to: 6000)).suffix(2) == ["c1@4000", "c2.5@5500"])
        #expect(describe(s.advance(to: 20_000)) == ["-c@6000", "finished@6000"])
        #expect(s.position(at: 7000) == nil)
        #expect(s.progress(at: 7000) == [1, 1, 1])
        // Play again from the start.
        #expect(describe(s.play(at: 20_000)) == ["+a@20000"])
    }

    @Test func nextSkipsTheRestOfTheSceneWithoutFiringItsCues() {
        var s = sequencer()
        _ = s.play(at: 0)
        #expect(describe(s.advance(to: 700)) == ["a0@0", "a0.5@500"])
        #expect(describe(s.next(at: 700)) == ["-a@700", "+b@700"])
        #expect(describe(s.advance(to: 1800)) == ["b0.25@950", "b0.999@1699", "-b@1700", "+c@1700"])
    }

    @Test func nextAfterTheLastSceneWrapsOrFinishes() {
        var wrapping = sequencer()
        _ = wrapping.jump(to: 2, at: 0)
        #expect(describe(wrapping.next(at: 10)) == ["-c@10", "+a@10"])
        var stopping = sequencer(.stop)
        _ = stopping.jump(to: 2, at: 0)
        #expect(describe(stopping.next(at: 10)) == ["-c@10", "finished@10"])
        #expect(stopping.state == .finished)
        #expect(stopping.next(at: 20).isEmpty)
        #expect(describe(stopping.previous(at: 30)) == ["+c@30"])
    }

    @Test func previousGoesBackAndTheFirstSceneRestarts() {
        var s = sequencer()
        _ = s.jump(to: 1, at: 0)
        #expect(describe(s.previous(at: 300)) == ["b0.25@250", "-b@300", "+a@300"])
        #expect(describe(s.advance(to: 900)) == ["a0@300", "a0.5@800"])
        #expect(describe(s.previous(at: 900)) == ["-a@900", "+a@900"])
        #expect(describe(s.advance(to: 1000)) == ["a0@900"])
    }

    @Test func jumpStartsTheSceneAtTheJumpFrame() {
        var s = sequencer()
        _ = s.play(at: 0)
        _ = s.advance(to: 100)
        #expect(describe(s.jump(to: 2, at: 1234)) == ["a0.5@500", "-a@1234", "+c@1234"])
        #expect(describe(s.advance(to: 4300)) == ["c1@2234", "c2.5@3734", "-c@4234", "+a@4234", "a0@4234"])
        #expect(s.jump(to: 7, at: 5000).isEmpty)  // no such scene
    }

    @Test func seekSkipsEarlierCuesAndFiresLaterOnesFromTheNewPosition() {
        var s = sequencer()
        _ = s.jump(to: 2, at: 0)
        // Forward past the cue at 1 s: it never fires; the one at exactly the seek point does.
        #expect(s.seek(to: F.seconds("1.2"), at: 100).isEmpty)
        #expect(describe(s.advance(to: 3000)) == ["c2.5@1400", "-c@1900", "+a@1900", "a0@1900", "a0.5@2400"])
        var t = sequencer()
        _ = t.jump(to: 2, at: 0)
        _ = t.seek(to: F.seconds("2.5"), at: 100)
        #expect(describe(t.advance(to: 101)) == ["c2.5@100"])
        // Backwards: the cue at 2.5 s fires again from the new position.
        _ = t.seek(to: F.seconds("2"), at: 200)
        #expect(describe(t.advance(to: 1300)) == ["c2.5@700", "-c@1200", "+a@1200", "a0@1200"])
    }

    @Test func seekingToTheTimeTheSceneIsAtContinuesItWithoutLosingACueBetweenSamples() {
        // At 1000 frames per second a cue at 0.0005 s is due between frames 0 and 1, so on frame 1.
        var s = PlaylistSequencer(document: F.document([F.cueScene(id: "a", duration: "1", cueTimes: ["0.0005", "0.5"])]),
                                  sampleRate: 1000)
        _ = s.play(at: 0)
        _ = s.advance(to: 1)
        let here = s.position(at: 1)!.sceneTime  // 0.001 s: past the cue's time, not past its frame
        #expect(describe(s.seek(to: here, at: 1) + s.advance(to: 600)) == ["a0.0005@1", "a0.5@500"])
    }

    @Test func seekIsClampedToTheScene() {
        var s = sequencer()
        _ = s.play(at: 0)
        _ = s.seek(to: F.seconds("99"), at: 10)
        #expect(describe(s.advance(to: 11)) == ["-a@10", "+b@10"])
        _ = s.seek(to: F.seconds("-5"), at: 20)
        #expect(s.position(at: 20)?.sceneTime == .zero)
    }

    @Test func pauseAndResumeShiftLaterCuesByExactlyThePause() {
        var s = sequencer()
        _ = s.play(at: 0)
        #expect(describe(s.advance(to: 300)) == ["a0@0"])
        #expect(describe(s.pause(at: 300)) == ["pause@300"])
        #expect(s.advance(to: 10_000).isEmpty)
        #expect(s.position(at: 9000) == PlaybackPosition(scene: 0, sceneTime: F.seconds("0.3"), isPaused: true))
        #expect(describe(s.resume(at: 5300)) == ["revoked@5300", "resume 0@5300"])
        #expect(describe(s.advance(to: 7100)) == ["a0.5@5500", "a1.5@6500", "-a@7000", "+b@7000"])
        #expect(s.pause(at: 7200).count == 1 && s.resume(at: 7200).count == 1)
        #expect(describe(s.advance(to: 7300)) == ["b0.25@7250"])
    }

    @Test func navigationWhilePausedStaysPaused() {
        var s = sequencer()
        _ = s.play(at: 0)
        _ = s.pause(at: 100)
        #expect(describe(s.next(at: 200)) == ["-a@200", "+b@200"])
        #expect(s.advance(to: 5000).isEmpty)
        #expect(s.position(at: 5000) == PlaybackPosition(scene: 1, sceneTime: .zero, isPaused: true))
        _ = s.seek(to: F.seconds("0.5"), at: 5000)
        #expect(describe(s.play(at: 6000)) == ["resume 1@6000"])
        #expect(describe(s.advance(to: 6600)) == ["b0.999@6499", "-b@6500", "+c@6500"])
    }

    @Test func aLookAheadIsRevokedFromTheNavigationPoint() {
        var s = sequencer()
        _ = s.play(at: 0)
        // The audio path looks 3 s ahead: it was told about the cues, the scene change and scene b's cues.
        #expect(describe(s.advance(to: 3000)) == ["a0@0", "a0.5@500", "a1.5@1500", "-a@2000", "+b@2000", "b0.25@2250", "b0.999@2999"])
        // The user presses next at 1000: everything it was told from 1000 on is void.
        #expect(describe(s.next(at: 1000)) == ["revoked@1000", "-a@1000", "+b@1000"])
        #expect(describe(s.advance(to: 3000)) == ["b0.25@1250", "b0.999@1999", "-b@2000", "+c@2000"])
        // A pause inside the look-ahead revokes too.
        #expect(describe(s.pause(at: 2500)) == ["revoked@2500", "pause@2500"])
    }

    @Test func aCommandAtTheFrameOfTheLastOneAfterALookAheadRepeatsTheLastOnesEvents() {
        var s = sequencer()
        _ = s.play(at: 0)
        _ = s.advance(to: 3000)
        #expect(describe(s.next(at: 1000)) == ["revoked@1000", "-a@1000", "+b@1000"])
        _ = s.advance(to: 3000)
        // The revocation from 1000 voids "-a@1000" and "+b@1000" too (scene a's beds would never stop): they come
        // again before the command's own events, so a consumer that honours revocations keeps them.
        #expect(describe(s.next(at: 1000)) == ["revoked@1000", "-a@1000", "+b@1000", "-b@1000", "+c@1000"])
        _ = s.advance(to: 3000)
        #expect(describe(s.pause(at: 1000)) == ["revoked@1000", "-a@1000", "+b@1000", "-b@1000", "+c@1000", "pause@1000"])
        // Without a look-ahead past the frame there is nothing to void, so nothing is repeated.
        #expect(describe(s.resume(at: 1000)) == ["resume 2@1000"])
        #expect(s.lastCommandFrame == 1000 && s.position(at: 1500)?.scene == 2)
        // At a later frame the earlier command's events stand.
        _ = s.advance(to: 3000)
        #expect(describe(s.next(at: 1200)) == ["revoked@1200", "-c@1200", "+a@1200"])
    }

    @Test func commandsCatchUpOnEventsTheyPlayedThrough() {
        var s = sequencer()
        _ = s.play(at: 0)
        // Nobody advanced, yet cues before the command were played through: they come first.
        #expect(describe(s.next(at: 2500)) == ["a0@0", "a0.5@500", "a1.5@1500", "-a@2000", "+b@2000", "b0.25@2250", "-b@2500", "+c@2500"])
    }

    @Test func aSceneEndingExactlyAtACommandIsTheOneItActsOn() {
        var s = sequencer()
        _ = s.play(at: 0)
        _ = s.advance(to: 2000)
        // Scene a ends at 2000; "next" at 2000 means the scene after a, not after b.
        #expect(describe(s.next(at: 2000)) == ["-a@2000", "+b@2000"])
    }

    @Test func commandsAtAnEarlierFrameThanTheLastAreClampedToIt() {
        var s = sequencer()
        _ = s.play(at: 1000)
        #expect(describe(s.next(at: 10)) == ["-a@1000", "+b@1000"])
    }

    @Test func progressSegmentsFollowTheStoryViewerRule() {
        var s = sequencer()
        #expect(s.progress(at: 0) == [0, 0, 0])
        _ = s.play(at: 0)
        #expect(s.progress(at: 500) == [0.25, 0, 0])
        #expect(s.progress(at: 2500) == [1, 0.5, 0])
        #expect(s.progress(at: 4500) == [1, 1, 0.5])
        #expect(s.progress(at: 6000 + 1000) == [0.5, 0, 0])  // wrapped: a new round
        #expect(s.position(at: 6000 * 1000 + 2500) == PlaybackPosition(scene: 1, sceneTime: F.seconds("0.5"), isPaused: false))
    }

    @Test func stopMakesItIdle() {
        var s = sequencer()
        _ = s.play(at: 0)
        #expect(describe(s.stop(at: 10)) == ["a0@0", "-a@10"])
        #expect(s.state == .idle && s.advance(to: 10_000).isEmpty && s.position(at: 50) == nil)
        #expect(s.stop(at: 20).isEmpty)
    }

    /// A consumer that honours revocations, driven by a look-ahead and random commands: every cue it keeps
    /// fires at a frame where its scene was actually playing at that cue's scene time, and never twice.
    @Test func withRevocationsHonouredOnlyCuesThatReallyPlayedRemain() {
        var s = sequencer()
        var random = SplitMix64(seed: 2024)
        var kept: [SequencerEvent] = []
        func receive(_ events: [SequencerEvent]) {
            for event in events {
                if case .revoked(let frame) = event { kept.removeAll { $0.frame >= frame } } else { kept.append(event) }
            }
        }
        receive(s.play(at: 0))
        var now: Int64 = 0
        while now < 200_000 {
            receive(s.advance(to: now + 1500))  // look 1.5 s ahead
            now += Int64(random.next() % 900)
            switch random.next() % 10 {
            case 0: receive(s.next(at: now))
            case 1: receive(s.previous(at: now))
            case 2: receive(s.jump(to: Int(random.next() % 3), at: now))
            case 3: receive(s.seek(to: Rational(Int128(random.next() % 3000), 1000), at: now))
            case 4: receive(s.pause(at: now))
            case 5: receive(s.resume(at: now))
            default: break
            }
        }
        receive(s.advance(to: now))
        kept.removeAll { $0.frame >= now }
        let cues = kept.compactMap { event -> (CueFiring, Int64)? in
            if case .cueDue(let cue, let frame) = event { return (cue, frame) }
            return nil
        }
        #expect(cues.count > 50)
        // Replay the kept scene changes: each cue must fall inside an appearance of its scene, in frame order.
        var showing: Int?
        var lastFrame: Int64 = .min
        for event in kept {
            #expect(event.frame >= lastFrame)
            lastFrame = event.frame
            switch event {
            case .sceneAppeared(let scene, _): showing = scene
            case .sceneDisappeared(let scene, _): #expect(showing == scene); showing = nil
            case .cueDue(let cue, _): #expect(showing == cue.scene)
            default: break
            }
        }
    }
}
