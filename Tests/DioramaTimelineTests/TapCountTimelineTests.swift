import DioramaDocument
import DioramaTestSupport
import Testing
@testable import DioramaTimeline

/// Counted taps in the timeline (the record player that toggles: intro 2 s, then the player scene; the button's
/// first tap starts the music, its second ends it, clicks and raises the tonearm): the n-th tap's cues, stops and
/// starts on their exact samples, and the sequencer taking repeated taps in a visit.
@Suite struct TapCountTimelineTests {
    static func document(auto: String? = nil) throws -> Document {
        try DocumentFixtures.decode(TapFixtures.recordPlayer(auto: auto, toggles: true)).document
    }

    @Test func theSecondTapFiresItsCueEndsTheLoopAndStartsItsAnimationExactly() throws {
        var document = try Self.document()
        document.scenes[1].taps = VisitTaps(["button": [Rational(3, 2), Rational(3_000_001, 1_000_000)]])
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        // The first tap: the click at (2 + 1.5) s, the music 1.25 s later; the second: its click at
        // (2 + 3.000001) s, rounded up to a sample, and the music's end on the same moment.
        #expect(schedule.cues.map(\.sampleIndex) == [168_000, 228_000, 240_001])
        #expect(schedule.cues[2].firing.trigger == .tap(node: "button", time: Rational(3_000_001, 1_000_000), nth: 2))
        #expect(schedule.cues[1].firing.end?.sceneTime == Rational(3_000_001, 1_000_000))
        let timing = SceneTiming(scene: document.scenes[1])
        #expect(timing.start(node: "tonearm", animation: "lower") == Rational(7, 4))
        #expect(timing.start(node: "tonearm", animation: "raise") == Rational(3_000_001, 1_000_000))
        // Tapped once, nothing of the second tap happens and the music plays to the stop at 9 s.
        document.scenes[1].taps = ["button": Rational(3, 2)]
        let once = CueSchedule(document: document, sampleRate: 48_000)
        #expect(once.cues.map(\.sampleIndex) == [168_000, 228_000])
        #expect(once.cues[1].firing.end?.sceneTime == Rational(9))
        #expect(SceneTiming(scene: document.scenes[1]).starts.first { $0.animation == "raise" }?.waitsForTap == true)
        // Tapped again at 2 s, before the music (due 1.25 s after the first tap): the tap that ends it keeps it
        // from starting; only the two clicks sound.
        document.scenes[1].taps = VisitTaps(["button": [Rational(3, 2), Rational(2)]])
        #expect(CueSchedule(document: document, sampleRate: 48_000).cues.map(\.sampleIndex) == [168_000, 192_000])
    }

    @Test func theAutoTapIsTheFirstAndALaterClickTheSecond() throws {
        var document = try Self.document(auto: "4")
        document.scenes[1].taps = ["button": Rational(6)]
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        #expect(schedule.cues.map(\.sampleIndex) == [288_000, 348_000, 384_000])
        #expect(schedule.cues[1].firing.end?.sceneTime == Rational(6))
        // A second tap before the music has started (due at 5.25 s) keeps it from starting.
        document.scenes[1].taps = ["button": Rational(5)]
        #expect(CueSchedule(document: document, sampleRate: 48_000).cues.map(\.sampleIndex) == [288_000, 336_000])
    }

    @Test func theNthTapStartsWhatWaitsForIt() throws {
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "bell": "bell.flac" },
              "scenes": [{ "id": "a", "duration": 10,
                "cues": [{ "sound": "bell", "tap": "key", "nth": 3, "offset": 0.5 }],
                "ambience": [{ "sound": "bell", "start": { "tap": "key", "nth": 2 } }],
                "nodes": [{ "type": "rect", "id": "key", "width": 5, "height": 5, "fill": "#fff", "tap": {},
                            "animations": [{ "id": "fade", "property": "opacity", "to": 0, "duration": 1, "delay": 0.25,
                                             "after": { "tap": "key", "nth": 3 } }] }] }] }
            """
        var scene = try DocumentFixtures.decode(json).document.scenes[0]
        scene.taps = VisitTaps(["key": [Rational(1), Rational(2)]])
        #expect(CueSchedule.firings(of: scene, index: 0).isEmpty)
        #expect(CueSchedule.ambienceStarts(of: scene.resolvingStarts(), index: 0).map(\.sceneTime) == [Rational(2)])
        scene.taps.add(Rational(4), to: "key")
        #expect(CueSchedule.firings(of: scene, index: 0).map(\.sceneTime) == [Rational(9, 2)])
        #expect(SceneTiming(scene: scene).start(node: "key", animation: "fade") == Rational(17, 4))
        // A fourth tap changes nothing.
        scene.taps.add(Rational(5), to: "key")
        #expect(CueSchedule.firings(of: scene, index: 0).map(\.sceneTime) == [Rational(9, 2)])
    }

    @Test func theSequencerCountsRepeatedTapsOfAVisit() throws {
        var sequencer = PlaylistSequencer(document: try Self.document(), sampleRate: 48_000)
        _ = sequencer.play(at: 0)
        _ = sequencer.advance(to: 100_000)
        // The first tap at scene time 1.5 s (frame 168 000).
        _ = sequencer.tap("button", at: 168_000)
        #expect(TapTimelineTests.describe(sequencer.advance(to: 230_000)) == ["click@168000", "crackle@192000", "music@228000"])
        // The second at frame 240 001: it ends the music and clicks on that very frame.
        let second = TapTimelineTests.describe(sequencer.tap("button", at: 240_001) + sequencer.advance(to: 300_000))
        #expect(second.sorted() == ["click@240001", "stop@240001"])
        #expect(sequencer.taps(at: 240_001) == VisitTaps(["button": [Rational(3, 2), Rational(144_001, 48_000)]]))
        // Again on the same frame, or a third tap that nothing waits for: nothing.
        #expect(sequencer.tap("button", at: 240_001).isEmpty)
        #expect(sequencer.tap("button", at: 300_000).isEmpty)
        #expect(sequencer.taps(at: 300_000)["button"].count == 2)
        #expect(TapTimelineTests.describe(sequencer.advance(to: 600_000)) == ["stop@528000", "-1@576000", "+0@576000"])
    }

    // MARK: - Handing a property on from where it is

    @Test func anAnimationFromCurrentStartsWhereTheOnesBeforeItLeftTheProperty() throws {
        let json = """
            { "canvas": { "width": 10, "height": 10 },
              "scenes": [{ "id": "a", "duration": 10,
                "nodes": [{ "type": "rect", "id": "disc", "width": 5, "height": 5, "fill": "#fff", "rotation": 10,
                            "animations": [
                              { "id": "spin", "property": "rotation", "from": 0, "to": 360, "duration": 2, "curve": "linear", "repeat": "forever" },
                              { "id": "coast", "property": "rotation", "from": "current", "by": 90, "duration": 1, "curve": "linear", "delay": 3.5 },
                              { "id": "rest", "property": "rotation", "from": "current", "to": 0, "duration": 2, "curve": "linear", "delay": 6 }] },
                          { "type": "rect", "id": "lone", "width": 5, "height": 5, "fill": "#fff", "rotation": 10,
                            "animations": [{ "property": "rotation", "from": "current", "by": 20, "duration": 1, "curve": "linear", "delay": 1 }] }] }] }
            """
        let scene = try DocumentFixtures.decode(json).document.scenes[0]
        func channel(_ id: String) throws -> PropertyChannel {
            let node = try #require(scene.node(withID: id))
            return PropertyChannel(property: .rotation, samplers: node.animations.map(AnimationSampler.init))
        }
        let disc = try channel("disc")
        #expect(scene.node(withID: "disc")?.animations[1].fromCurrent == .by)
        #expect(scene.node(withID: "disc")?.animations[2].fromCurrent == .to)
        // The spin's second iteration is at 270° when the coast takes over at 3.5 s: it turns on 90° from there,
        // and the rest brings it back from 360° to 0 over 2 s.
        #expect(disc.value(at: 3) == .number(180))
        #expect(disc.value(at: 3.5) == .number(270))
        #expect(disc.value(at: 4) == .number(315))
        #expect(disc.value(at: 5) == .number(360))
        #expect(disc.value(at: 7) == .number(180))
        #expect(disc.value(at: 9) == .number(0))
        // With nothing before it, "current" is the node's own value.
        let lone = try channel("lone")
        #expect(lone.value(at: 0.5) == .number(10))
        #expect(lone.value(at: 1.5) == .number(20))
        #expect(lone.value(at: 3) == .number(30))
    }
}
