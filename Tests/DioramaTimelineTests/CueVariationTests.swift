import DioramaDocument
import DioramaTestSupport
@testable import DioramaTimeline
import Testing

/// A firing's draw from a sound's variation: seeded by the scene, the cue and the firing, never the clock.
@Suite struct CueVariationTests {
    static func firing(scene: String = "ocean", cue: Int = 0, iteration: Int) -> CueFiring {
        CueFiring(scene: 0, sceneID: scene, cue: cue, sound: "bell", gain: 1, pan: 0, sceneTime: Rational(iteration),
                  trigger: .animation(node: "buoy", animation: "rock", event: .reachesTo, iteration: iteration), offset: .zero)
    }

    static let vary = SoundVariation(gainDecibels: 3, pitchSemitones: 0.5)

    @Test func theSameFiringDrawsTheSameEveryTime() {
        for iteration in 0..<20 {
            #expect(Self.firing(iteration: iteration).variation(Self.vary) == Self.firing(iteration: iteration).variation(Self.vary))
        }
    }

    @Test func firingsScenesAndCuesDrawDifferently() {
        let draws = (0..<200).map { Self.firing(iteration: $0).variation(Self.vary) }
        #expect(Set(draws.map(\.gainDecibels)).count == 200)
        // Within the range, on both sides, and every take played.
        #expect(draws.allSatisfy { abs($0.gainDecibels) <= 3 })
        #expect(draws.contains { $0.gainDecibels > 2 } && draws.contains { $0.gainDecibels < -2 })
        #expect(Set(draws.map(\.take)) == Set(0..<7))
        let first = Self.firing(iteration: 0).variation(Self.vary)
        #expect(Self.firing(cue: 1, iteration: 0).variation(Self.vary) != first)
        #expect(Self.firing(scene: "swing", iteration: 0).variation(Self.vary) != first)
    }

    @Test func theFiringIndexIsTheIterationThatFiredIt() {
        #expect(Self.firing(iteration: 4).firingIndex == 4)
        let once = CueFiring(scene: 0, sceneID: "a", cue: 0, sound: "bell", gain: 1, pan: 0, sceneTime: .one, trigger: .at(.one), offset: .zero)
        #expect(once.firingIndex == 0)
    }

    @Test func noRangeDrawsNoChange() {
        let draw = Self.firing(iteration: 3).variation(SoundVariation())
        #expect(draw == FiringVariation(gainDecibels: 0, take: 0))
        #expect(draw.linearGain == 1)
    }

    static let tines = ["tine-a", "tine-b", "tine-c"]

    @Test func aPickIsTheSameForTheSameFiringAndSpreadOverTheSet() {
        let picks = (0..<300).map { Self.firing(iteration: $0).pick(from: Self.tines) }
        #expect(picks == (0..<300).map { Self.firing(iteration: $0).pick(from: Self.tines) })
        // Each sound about a third of the time; consecutive firings often differ.
        for tine in Self.tines {
            let count = picks.filter { $0 == tine }.count
            #expect((70...130).contains(count), "\(tine): \(count) of 300")
        }
        #expect(zip(picks, picks.dropFirst()).filter { $0 != $1 }.count > 150)
        // Another cue or scene picks its own sequence.
        #expect((0..<20).map { Self.firing(cue: 1, iteration: $0).pick(from: Self.tines) } != Array(picks.prefix(20)))
        #expect((0..<20).map { Self.firing(scene: "swing", iteration: $0).pick(from: Self.tines) } != Array(picks.prefix(20)))
    }

    @Test func aSingleSoundIsAlwaysPickedAndPickingLeavesTheVariationAlone() {
        #expect(Self.firing(iteration: 5).pick(from: ["bell"]) == "bell")
        // The pick is a draw of its own: the variation of a firing is what it is without a set.
        let firing = Self.firing(iteration: 7)
        #expect(firing.variation(Self.vary) == Self.firing(iteration: 7).variation(Self.vary))
        #expect(firing.pick(from: Self.tines) == firing.pick(from: Self.tines))
    }

    @Test func theScheduleNamesThePickedSoundAndThePitchOfEachFiring() throws {
        let json = """
            { "canvas": { "width": 10, "height": 10 },
              "sounds": { "tine-a": "a.wav", "tine-b": "b.wav", "tine-c": "c.wav" },
              "scenes": [{ "id": "music-box", "duration": 10,
                "cues": [{ "sound": ["tine-a", "tine-b", "tine-c"], "pitch": -5, "node": "drum", "animation": "turn", "on": "iteration" }],
                "nodes": [{ "type": "rect", "id": "drum", "width": 1, "height": 1, "fill": "#fff",
                  "animations": [{ "id": "turn", "property": "rotation", "from": 0, "to": 360, "duration": 0.5, "repeat": "forever" }] }] }] }
            """
        let scene = try DocumentFixtures.decode(json).document.scenes[0]
        #expect(scene.cues[0].sounds == Self.tines && scene.cues[0].sound == "tine-a" && scene.cues[0].pitch == -5)
        let firings = CueSchedule.firings(of: scene, index: 0)
        #expect(firings.count == 20)
        #expect(firings.allSatisfy { $0.pitch == -5 })
        #expect(firings.map(\.sound) == firings.map { $0.pick(from: Self.tines) })
        #expect(Set(firings.map(\.sound)) == Set(Self.tines))
    }
}
