import DioramaDocument
import DioramaTestSupport
import Testing
@testable import DioramaTimeline

private typealias F = TimelineFixtures

private func scene(_ id: String = "s", duration: String, nodes: [Node] = [], cues: [Cue]) -> Scene {
    Scene(id: id, title: LocalizedString(id), duration: F.seconds(duration), nodes: nodes, cues: cues)
}

private func buoy(_ animation: Animation) -> Node {
    Node(id: "buoy", content: .rect(RectShape(rect: Rect(x: 0, y: 0, width: 10, height: 10))), animations: [animation])
}

private func times(_ firings: [CueFiring]) -> [Rational] { firings.map(\.sceneTime) }

@Suite struct CueScheduleTests {
    /// 0.2 s delay, 0.9 s at speed 1.5 (0.6 s iterations), autoreversing forever.
    let bob = F.basic(.offsetY, from: 0, to: 10, duration: "0.9", id: "bob", delay: "0.2", speed: "1.5",
                      repeatCount: .forever, autoreverses: true)

    private func firings(_ event: AnimationEvent, offset: String = "0", duration: String = "3", animation: Animation? = nil) -> [CueFiring] {
        let cue = Cue(sound: "bell", trigger: .animation(node: "buoy", animation: "bob", event: event), offset: F.seconds(offset))
        return CueSchedule.firings(of: scene(duration: duration, nodes: [buoy(animation ?? bob)], cues: [cue]), index: 0)
    }

    @Test func aScheduleHoldsAtMostAHundredThousandFiringsPerSceneAndAThousandInAnySecond() {
        // A document made in code is not checked: a cue every 0.5 ms for 60 s would be 120,000 firings, 2,000 a second.
        let blink = F.basic(.opacity, from: 0, to: 1, duration: "0.0005", id: "bob", repeatCount: .forever)
        let cue = Cue(sound: "bell", trigger: .animation(node: "buoy", animation: "bob", event: .iterationStart))
        let document = F.document([scene(duration: "60", nodes: [buoy(blink)], cues: [cue])])
        let cues = CueSchedule(document: document, sampleRate: 48_000).cues
        #expect(cues.count <= 100_000)
        var first = 0, most = 0
        for (index, cue) in cues.enumerated() {
            while cue.absoluteTime - cues[first].absoluteTime >= Rational(1) { first += 1 }
            most = max(most, index - first + 1)
        }
        #expect(most == 1_000)
    }

    @Test func atCuesFireOnceAtTheirTimePlusOffset() {
        let s = scene(duration: "10", cues: [Cue(sound: "chime", trigger: .at(F.seconds("5.5"))),
                                             Cue(sound: "bell", trigger: .at(F.seconds("1")), offset: F.seconds("-0.25")),
                                             Cue(sound: "bell", trigger: .at(F.seconds("10"))),  // at the end: never
                                             Cue(sound: "bell", trigger: .at(F.seconds("0.1")), offset: F.seconds("-0.2"))])  // before 0
        let result = CueSchedule.firings(of: s, index: 0)
        #expect(times(result) == [F.seconds("0.75"), F.seconds("5.5")])
        #expect(result.map(\.cue) == [1, 0])
        #expect(result[0].trigger == .at(F.seconds("1")) && result[0].offset == F.seconds("-0.25"))
    }

    @Test func reachesToIsTheEndOfEachForwardIteration() {
        // Forward iterations 0, 2, 4 end at 0.8, 2.0, 3.2 (out of the 3 s scene).
        #expect(times(firings(.reachesTo)) == [F.seconds("0.8"), F.seconds("2")])
        #expect(firings(.reachesTo).map(\.trigger) == [0, 2].map { .animation(node: "buoy", animation: "bob", event: .reachesTo, iteration: $0) })
    }

    @Test func reachesFromIsTheEndOfEachBackwardIteration() {
        #expect(times(firings(.reachesFrom)) == [F.seconds("1.4"), F.seconds("2.6")])
        // Without autoreverse an animation never arrives back at `from`.
        var plain = bob
        plain.autoreverses = false
        #expect(firings(.reachesFrom, animation: plain).isEmpty)
        #expect(times(firings(.reachesTo, animation: plain)) == ["0.8", "1.4", "2", "2.6"].map(F.seconds))
    }

    @Test func iterationStartIncludesTheFirst() {
        #expect(times(firings(.iterationStart)) == ["0.2", "0.8", "1.4", "2", "2.6"].map(F.seconds))
    }

    @Test func offsetsShiftFiringsAndTheSceneWindowClipsThem() {
        #expect(times(firings(.iterationStart, offset: "-0.3")) == ["0.5", "1.1", "1.7", "2.3", "2.9"].map(F.seconds))
        #expect(times(firings(.iterationStart, offset: "0.5")) == ["0.7", "1.3", "1.9", "2.5"].map(F.seconds))
    }

    @Test func finiteRepeatsStop() {
        var twice = bob
        twice.repeatCount = .count(3)
        #expect(times(firings(.iterationStart, animation: twice)) == ["0.2", "0.8", "1.4"].map(F.seconds))
        #expect(times(firings(.reachesTo, animation: twice)) == ["0.8", "2"].map(F.seconds))
    }

    @Test func keyframesFireEachTimeTheTrackPassesThemOncePerTurn() {
        let swing = Animation(id: "bob", property: .rotation, kind: .keyframes([
            Keyframe(time: .zero, value: .number(-10)), Keyframe(time: F.seconds("0.5"), value: .number(10)),
            Keyframe(time: F.seconds("2"), value: .number(0)),
        ]), delay: F.seconds("1"), speed: F.seconds("2"), repeatCount: .forever, autoreverses: true)
        // Track of 2 s at speed 2: 1 s iterations from 1 s; keyframe 1 at 0.25 s into forward iterations, 0.75 s into reversed ones.
        #expect(times(firings(.keyframe(1), duration: "5", animation: swing)) == ["1.25", "2.75", "3.25", "4.75"].map(F.seconds))
        // The turning keyframes are passed once at each turn, not twice.
        #expect(times(firings(.keyframe(2), duration: "5", animation: swing)) == ["2", "4"].map(F.seconds))
        #expect(times(firings(.keyframe(0), duration: "5", animation: swing)) == ["1", "3"].map(F.seconds))
        #expect(firings(.keyframe(0), duration: "5", animation: swing).map(\.trigger) == [0, 1].map {
            .animation(node: "buoy", animation: "bob", event: .keyframe(0), iteration: $0)
        })
        // Without autoreverse the last and first keyframes meet at every loop, and both fire.
        var loop = swing
        loop.autoreverses = false
        #expect(times(firings(.keyframe(2), duration: "4", animation: loop)) == ["2", "3"].map(F.seconds))
        #expect(times(firings(.keyframe(0), duration: "4", animation: loop)) == ["1", "2", "3"].map(F.seconds))
    }

    @Test func anHourOfARepeatingAutoreversingAnimationLandsOnExactSamples() {
        let cues = [Cue(sound: "bell", trigger: .animation(node: "buoy", animation: "bob", event: .reachesTo)),
                    Cue(sound: "chime", trigger: .animation(node: "buoy", animation: "bob", event: .reachesFrom), offset: F.seconds("0.05"))]
        let document = F.document([scene("intro", duration: "7.3", cues: []),
                                   scene("hour", duration: "3600", nodes: [buoy(bob)], cues: cues)])
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        let bells = schedule.cues.filter { $0.firing.sound == "bell" }
        let chimes = schedule.cues.filter { $0.firing.sound == "chime" }
        // reachesTo at 0.2 + 0.6 + 1.2k < 3600 → k = 0 ... 2999; reachesFrom (+0.05) at 1.45 + 1.2k → k = 0 ... 2998.
        #expect(bells.count == 3000 && chimes.count == 2999)
        for (k, bell) in bells.enumerated() {
            // In samples: the scene starts at 7.3 s = 350 400; the bell at 0.8 s + 1.2 s·k = 38 400 + 57 600·k.
            #expect(bell.sampleIndex == 350_400 + 38_400 + 57_600 * Int64(k))
            #expect(bell.absoluteTime == F.seconds("8.1") + Rational(k) * F.seconds("1.2"))
        }
        #expect(chimes.last!.sampleIndex == 350_400 + 69_600 + 57_600 * 2998)
        #expect(schedule.cues == schedule.cues.sorted { $0.absoluteTime < $1.absoluteTime })
        #expect(schedule.scenes.map(\.startSample) == [0, 350_400])
        #expect(schedule.scenes.map(\.endSample) == [350_400, 350_400 + 172_800_000])
    }

    @Test func sampleIndexIsTheFirstSampleAtOrAfterTheTime() {
        // At 44.1 kHz a cue 0.00001 s (0.441 samples) into the second scene rounds up to the next sample.
        let document = F.document([scene("a", duration: "0.35", cues: []),
                                   scene("b", duration: "1", cues: [Cue(sound: "bell", trigger: .at(F.seconds("0.00001")))])])
        let schedule = CueSchedule(document: document, sampleRate: 44_100)
        // 0.35001 s × 44 100 = 15 435.441 → 15 436.
        #expect(schedule.cues.map(\.sampleIndex) == [15_436])
        #expect(schedule.scenes[1].startSample == 15_435)
    }

    @Test func unknownReferencesNeverFire() {
        let cue = Cue(sound: "bell", trigger: .animation(node: "nobody", animation: "bob", event: .reachesTo))
        #expect(CueSchedule.firings(of: scene(duration: "3", nodes: [buoy(bob)], cues: [cue]), index: 0).isEmpty)
    }

    @Test func theOceanFixtureSchedulesItsCuesInOrder() {
        let schedule = CueSchedule(document: F.document([F.ocean(duration: "10")]), sampleRate: 48_000)
        #expect(schedule.cues.contains { $0.firing.sound == "chime" && $0.sampleIndex == 264_000 })
        #expect(Array(schedule.cues.filter { $0.firing.sound == "bell" }.map(\.absoluteTime).prefix(3)) == ["0.8", "2", "3.2"].map(F.seconds))
    }

    @Test func decimalStringsAreExactOrRoundedToNanoseconds() {
        #expect(F.seconds("1.4").decimalString() == "1.4")
        #expect(F.seconds("-0.25").decimalString() == "-0.25")
        #expect(Rational(1, 3).decimalString() == "0.333333333")
        #expect(Rational(2, 3).decimalString() == "0.666666667")
        #expect(Rational(-1, 3_000_000_000).decimalString() == "0")
        #expect(Rational(999_999_999_9, 10_000_000_000).decimalString() == "1")
        #expect(Rational(3600).decimalString() == "3600")
        #expect(F.seconds("0.1").isExactDecimal() && !Rational(1, 3).isExactDecimal())
    }
}
