import DioramaDocument
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
}
