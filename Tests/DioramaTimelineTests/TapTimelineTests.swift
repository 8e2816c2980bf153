import DioramaDocument
import DioramaTestSupport
import Testing
@testable import DioramaTimeline

/// Taps in the timeline: starts and cues resolved from a scene's taps, the snapshots of a tapped visit, and the
/// sequencer's tap command (the record player: intro 2 s, then the player scene, whose button has `auto` 4 s).
@Suite struct TapTimelineTests {
    static func document(auto: String? = "4") throws -> Document {
        try DocumentFixtures.decode(TapFixtures.recordPlayer(auto: auto)).document
    }

    static func scene(auto: String? = "4", taps: VisitTaps = [:]) throws -> Scene {
        var scene = try document(auto: auto).scenes[1]
        scene.taps = taps
        return scene
    }

    // MARK: - Resolution

    @Test func animationsAfterAnAutoTapStartFromItAndTheirFollowersFromThem() throws {
        let timing = SceneTiming(scene: try Self.scene())
        #expect(timing.start(node: "tonearm", animation: "lower") == Rational(17, 4))
        #expect(timing.start(node: "disc", animation: "spin") == Rational(21, 4))
        #expect(timing.starts.allSatisfy { !$0.waitsForTap })
    }

    @Test func aGivenTapBeforeAutoWinsAndOneAfterItDoesNot() throws {
        let early = SceneTiming(scene: try Self.scene(taps: ["button": Rational(3, 2)]))
        #expect(early.start(node: "tonearm", animation: "lower") == Rational(7, 4))
        #expect(early.start(node: "disc", animation: "spin") == Rational(11, 4))
        let late = SceneTiming(scene: try Self.scene(taps: ["button": Rational(6)]))
        #expect(late.start(node: "tonearm", animation: "lower") == Rational(17, 4))
    }

    @Test func withoutATapWhatFollowsItWaitsAndNothingOnItFires() throws {
        let scene = try Self.scene(auto: nil)
        #expect(scene.firstTaps.isEmpty)
        let timing = SceneTiming(scene: scene)
        #expect(timing.starts.allSatisfy { $0.waitsForTap && $0.time == SceneTiming.untapped })
        #expect(CueSchedule.firings(of: scene, index: 1).isEmpty)
        #expect(CueSchedule.ambienceStarts(of: scene.resolvingStarts(), index: 1).isEmpty)
        // A stop cue at a time still stands; it ends nothing.
        #expect(CueSchedule(document: try Self.document(auto: nil), sampleRate: 48_000).cues.isEmpty)
    }

    @Test func cuesStopsAndAmbienceOnATapLandOnItsExactSample() throws {
        var document = try Self.document()
        let auto = CueSchedule(document: document, sampleRate: 48_000)
        #expect(auto.cues.map(\.sampleIndex) == [288_000, 348_000])
        #expect(auto.cues[0].firing.trigger == .tap(node: "button", time: Rational(4)))
        #expect(auto.ambienceStarts.map(\.sampleIndex) == [312_000])
        // Tapped at 1.000001 s of the scene: the music at (2 + 1.000001 + 1.25) s, rounded up to a sample.
        document.scenes[1].taps = ["button": Rational(1_000_001, 1_000_000)]
        let tapped = CueSchedule(document: document, sampleRate: 48_000)
        #expect(tapped.cues.map(\.sampleIndex) == [144_001, 204_001])
        #expect(tapped.cues[1].absoluteTime == Rational(4_250_001, 1_000_000))
        #expect(tapped.ambienceStarts.map(\.sampleIndex) == [168_001])
        #expect(tapped.cues[1].firing.end?.sceneTime == Rational(9))
    }

    @Test func anUntilOnATapEndsTheLoopThere() throws {
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "hum": "hum.flac" },
              "scenes": [{ "id": "a", "duration": 10,
                "cues": [{ "sound": "hum", "at": 0, "loop": true, "until": { "tap": "off", "offset": 0.5 } }],
                "nodes": [{ "type": "rect", "id": "off", "width": 5, "height": 5, "fill": "#fff", "tap": { "auto": 8 } }] }] }
            """
        var scene = try DocumentFixtures.decode(json).document.scenes[0]
        #expect(CueSchedule.stops(of: scene.resolvingStarts(), index: 0, firings: CueSchedule.firings(of: scene, index: 0)).map(\.sceneTime)
            == [Rational(17, 2)])
        scene.taps = ["off": Rational(2)]
        #expect(CueSchedule.stops(of: scene.resolvingStarts(), index: 0, firings: CueSchedule.firings(of: scene, index: 0)).map(\.sceneTime)
            == [Rational(5, 2)])
    }

    // MARK: - The picture

    @Test func anUntappedAnimationHoldsItsInitialValueAndATappedOneMovesFromTheTap() throws {
        let document = try Self.document(auto: nil)
        let evaluator = SceneEvaluator(document: document)
        func tonearm(_ snapshot: Snapshot) -> NodeSnapshot? { snapshot.nodes.first { $0.id == "tonearm" } }
        let start = tonearm(evaluator.snapshot(scene: 1, at: 0))
        #expect(tonearm(evaluator.snapshot(scene: 1, at: 9.9)) == start)
        let tapped = evaluator.tapping(scene: 1, taps: ["button": Rational(2)])
        #expect(tonearm(tapped.snapshot(scene: 1, at: 2.25)) == start)
        #expect(tonearm(tapped.snapshot(scene: 1, at: 2.75)) != start)
        // The same as a document whose scene carries the tap.
        var withTap = document
        withTap.scenes[1].taps = ["button": Rational(2)]
        #expect(SceneEvaluator(document: withTap).snapshot(scene: 1, at: 3) == tapped.snapshot(scene: 1, at: 3))
        // Other scenes keep their plans.
        #expect(tapped.snapshot(scene: 0, at: 1) == evaluator.snapshot(scene: 0, at: 1))
    }

    // MARK: - The sequencer

    /// Cue starts as `sound@frame`, stops as `stop@frame`, ambience as `bed@frame`, revocations as `revoked@frame`.
    static func describe(_ events: [SequencerEvent]) -> [String] {
        events.compactMap { event in
            switch event {
            case .cueDue(let firing, let frame): "\(firing.sound)@\(frame)"
            case .cueStopDue(_, let frame): "stop@\(frame)"
            case .ambienceDue(let start, let frame): "\(start.sound)@\(frame)"
            case .revoked(let frame): "revoked@\(frame)"
            case .sceneAppeared(let scene, let frame): "+\(scene)@\(frame)"
            case .sceneDisappeared(let scene, let frame): "-\(scene)@\(frame)"
            default: nil
            }
        }
    }

    @Test func aTapStartsTheCuesFromItsFrameAndRevokesWhatTheAutoTapAnnounced() throws {
        var sequencer = PlaylistSequencer(document: try Self.document(), sampleRate: 48_000)
        _ = sequencer.play(at: 0)
        // A look-ahead past the auto tap (scene time 4, frame 288 000) has announced its sounds.
        let ahead = Self.describe(sequencer.advance(to: 400_000))
        #expect(ahead == ["-0@96000", "+1@96000", "click@288000", "crackle@312000", "music@348000"])
        // The click is heard at frame 150 001 (scene time 1.125021 s, when the picture shows the button).
        let frame: Int64 = 150_001
        #expect(Self.describe(sequencer.tap("button", at: frame)) == ["revoked@150001"])
        #expect(sequencer.lastCommandFrame == frame)
        #expect(Self.describe(sequencer.advance(to: 600_000))
            == ["click@150001", "crackle@174001", "music@210001", "stop@528000", "-1@576000", "+0@576000"])
        #expect(sequencer.taps(at: frame) == ["button": Rational(54_001, 48_000)])
        #expect(sequencer.taps(at: frame - 1) == ["button": Rational(54_001, 48_000)])
        #expect(sequencer.taps(at: 600_000).isEmpty)
    }

    @Test func aSecondTapATapAfterAutoAndTapsOnOtherNodesDoNothing() throws {
        var sequencer = PlaylistSequencer(document: try Self.document(), sampleRate: 48_000)
        _ = sequencer.play(at: 0)
        _ = sequencer.advance(to: 100_000)
        #expect(sequencer.tap("disc", at: 100_000).isEmpty)
        #expect(sequencer.tap("nothing", at: 100_000).isEmpty)
        #expect(sequencer.tap("button", at: 90_000).isEmpty)  // the intro shows: no button there
        #expect(!sequencer.tap("button", at: 144_000).isEmpty || sequencer.lastCommandFrame == 144_000)
        #expect(sequencer.tap("button", at: 150_000).isEmpty)
        #expect(sequencer.lastCommandFrame == 144_000)
        #expect(Self.describe(sequencer.advance(to: 300_000)) == ["click@144000", "crackle@168000", "music@204000"])

        var late = PlaylistSequencer(document: try Self.document(), sampleRate: 48_000)
        _ = late.play(at: 0)
        _ = late.advance(to: 300_000)
        #expect(late.tap("button", at: 288_000).isEmpty)  // the auto tap, at this very frame, came first
        #expect(Self.describe(late.advance(to: 400_000)) == ["crackle@312000", "music@348000"])
    }

    @Test func reenteringTheSceneResetsItsTaps() throws {
        var sequencer = PlaylistSequencer(document: try Self.document(), sampleRate: 48_000)
        _ = sequencer.play(at: 0)
        _ = sequencer.advance(to: 100_000)
        _ = sequencer.tap("button", at: 100_000)
        // The playlist wraps (12 s, 576 000 frames): the second visit of the player scene taps itself at 4 s.
        let cycle = Self.describe(sequencer.advance(to: 576_000 + 400_000))
        #expect(cycle.filter { $0.hasPrefix("click") } == ["click@100000", "click@864000"])
        // Jumping back into the scene also starts it untapped.
        _ = sequencer.jump(to: 1, at: 1_000_000)
        #expect(sequencer.taps(at: 1_000_000).isEmpty)
        #expect(Self.describe(sequencer.advance(to: 1_200_000)) == ["click@1192000"])
        #expect(!sequencer.tap("button", at: 1_000_001).isEmpty || sequencer.lastCommandFrame == 1_000_001)
    }

    @Test func aTapWhilePausedSoundsFromTheResume() throws {
        var sequencer = PlaylistSequencer(document: try Self.document(auto: nil), sampleRate: 48_000)
        _ = sequencer.play(at: 0)
        _ = sequencer.advance(to: 120_000)
        _ = sequencer.pause(at: 120_000)
        _ = sequencer.tap("button", at: 130_000)
        #expect(sequencer.taps(at: 130_000) == ["button": Rational(1, 2)])
        _ = sequencer.resume(at: 200_000)
        #expect(Self.describe(sequencer.advance(to: 300_000)) == ["click@200000", "crackle@224000", "music@260000"])

        // A seek forward within the same visit keeps the tap: the bed and the loop it jumps over start at the seek.
        var seeking = PlaylistSequencer(document: try Self.document(auto: nil), sampleRate: 48_000)
        _ = seeking.play(at: 0)
        _ = seeking.advance(to: 120_000)
        _ = seeking.pause(at: 120_000)
        _ = seeking.tap("button", at: 130_000)
        #expect(Self.describe(seeking.seek(to: Rational(2), at: 140_000)) == ["crackle@140000", "music@140000"])
    }
}
