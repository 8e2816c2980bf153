import DioramaDocument
import DioramaTestSupport
@testable import DioramaTimeline
import Foundation
import Testing

/// A lottie node's `until`: where its playback stops, resolved with the starts (a second tap included), the frame it
/// holds, the cues and starts on its frames it cuts, and its mistakes located with a hint.
///
/// The drum: 30 fps, frames 0 ..< 60, markers p0 … p3 on frames 0, 15, 30, 45; it plays forever after the lid's tap
/// (auto at 2 s), so frame 15 appears at 2.5, 4.5, 6.5, … s.
@Suite struct LottieUntilTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try LottieFixtures.folderWithMarkedDrum()
    }

    static let lid = LottieFixtures.autoTappedLid

    static func drum(until: String = #"{ "tap": "lid", "nth": 2 }"#) -> String {
        #"{ "type": "lottie", "id": "drum", "path": "drum.json", "repeat": "forever", "after": { "tap": "lid" }, "until": \#(until) }"#
    }

    static let pluck = #"{ "sound": "tick", "node": "drum", "on": { "marker": "p1" } }"#

    private func load(nodes: [String], cues: String = "") throws(DocumentLoadError) -> LoadedDocument {
        try DocumentLoader.decode(bytes: Array(LottieFixtures.scenes(nodes: nodes.joined(separator: ",\n"), cues: cues).utf8),
                                  path: folder.path("scenes.json"))
    }

    private func problem(nodes: [String]) -> (message: String, hint: String?, path: String)? {
        do {
            let loaded = try load(nodes: nodes)
            return loaded.warnings.first.map { ($0.message, $0.hint, $0.path) }
        } catch {
            return error.diagnostics.first.map { ($0.message, $0.hint, $0.path) }
        }
    }

    /// The scene with the lid tapped at `taps` (its auto tap first), its starts and stops resolved.
    private func tapped(_ scene: Scene, at taps: [Rational]) -> Scene {
        var scene = scene
        for time in taps { scene.taps.add(time, to: "lid") }
        return scene.resolvingStarts()
    }

    @Test func aSecondTapStopsTheDrumOnTheFrameItShowsAndItsCuesNoLongerFire() throws {
        let loaded = try load(nodes: [Self.lid, Self.drum()], cues: Self.pluck)
        let scene = loaded.document.scenes[0]
        #expect(scene.tapCountsWaitedFor == ["lid": [1, 2]])
        guard case .lottie(let written) = scene.nodes[1].content else { Issue.record("no lottie"); return }
        #expect(written.playback.until == .tap("lid", nth: 2))

        // Untapped a second time, it plays on: the cue fires at 2.5, 4.5, 6.5 and 8.5 s in the 10 s scene.
        let untapped = scene.resolvingStarts()
        guard case .lottie(let playing) = untapped.nodes[1].content else { Issue.record("no lottie"); return }
        #expect(playing.playback.delay == Rational(2) && playing.playback.stop == nil && playing.playback.until == nil)
        #expect(CueSchedule.resolvedFirings(of: untapped, index: 0).map(\.sceneTime) == [5, 9, 13, 17].map { Rational($0, 2) })

        // Tapped again at 5.25 s (frame 97 of the run, 37 of the pass): the frame shown then stays.
        let stopped = tapped(scene, at: [Rational(21, 4)])
        guard case .lottie(let held) = stopped.nodes[1].content else { Issue.record("no lottie"); return }
        #expect(held.playback.stop == Rational(21, 4))
        let timing = LottieTiming(held)
        #expect(timing.frame(at: Rational(26, 5)) == 36)
        #expect(timing.frame(at: Rational(21, 4)) == 37)
        #expect(timing.frame(at: Rational(9)) == 37)
        #expect(timing.frame(at: 9.0) == 37)
        // The firings at 2.5 and 4.5 s only.
        #expect(CueSchedule.resolvedFirings(of: stopped, index: 0).map(\.sceneTime) == [Rational(5, 2), Rational(9, 2)])
    }

    @Test func aStopOnTheVeryFrameAFrameAppearsHoldsTheOneBeforeAndTheMarkerDoesNotFire() throws {
        let loaded = try load(nodes: [Self.lid, Self.drum()], cues: Self.pluck)
        // 4.5 s: frame 15 of the second pass would appear then.
        let stopped = tapped(loaded.document.scenes[0], at: [Rational(9, 2)])
        guard case .lottie(let held) = stopped.nodes[1].content else { Issue.record("no lottie"); return }
        #expect(LottieTiming(held).frame(at: Rational(5)) == 14)
        #expect(CueSchedule.resolvedFirings(of: stopped, index: 0).map(\.sceneTime) == [Rational(5, 2)])
    }

    @Test func aStartAfterAMarkerTheStopCutsNeverComes() throws {
        let twitch = ##"{ "type": "rect", "id": "tine", "width": 4, "height": 40, "fill": "#fff", "animations": [{ "id": "twitch", "property": "rotation", "from": 8, "to": 0, "duration": 0.25, "after": { "node": "drum", "on": { "marker": "p3" }, "nth": 2 } }] }"##
        let loaded = try load(nodes: [Self.lid, Self.drum(), twitch])
        // Tapped again at 3 s: the second p3 (at 2 + (60 + 45)/30 = 5.5 s) never appears, so the twitch never starts.
        let stopped = tapped(loaded.document.scenes[0], at: [Rational(3)])
        let timing = SceneTiming(scene: { var scene = loaded.document.scenes[0]; scene.taps.add(Rational(3), to: "lid"); return scene }())
        #expect(timing.starts.map(\.isStop) == [false, true, false])
        #expect(timing.starts[1].time == Rational(3))
        #expect(timing.start(node: "tine", animation: "twitch") == SceneTiming.untapped)
        #expect(stopped.nodes[2].animations[0].delay == SceneTiming.untapped)
        // Untapped a second time, it twitches at 5.5 s.
        #expect(SceneTiming(scene: loaded.document.scenes[0]).start(node: "tine", animation: "twitch") == Rational(11, 2))
    }

    @Test func untilOnAMarkerOfItsOwnStopsItThereOnce() throws {
        let loaded = try load(nodes: [Self.lid, Self.drum(until: #"{ "node": "drum", "on": { "marker": "p2" }, "nth": 2 }"#)],
                              cues: Self.pluck)
        // From 2 s: p2 appears at 3 s and 5 s; the stop at 5 s holds frame 29.
        let resolved = loaded.document.scenes[0].resolvingStarts()
        guard case .lottie(let held) = resolved.nodes[1].content else { Issue.record("no lottie"); return }
        #expect(held.playback.stop == Rational(5))
        #expect(LottieTiming(held).frame(at: Rational(8)) == 29)
        #expect(CueSchedule.resolvedFirings(of: resolved, index: 0).map(\.sceneTime) == [Rational(5, 2), Rational(9, 2)])
    }

    @Test func mistakesInUntilAreLocatedAtItWithAHint() throws {
        let unknownTap = try #require(problem(nodes: [Self.lid, Self.drum(until: #"{ "tap": "lud", "nth": 2 }"#)]))
        #expect(unknownTap.path == "scenes[0].nodes[1].until.tap")
        #expect(unknownTap.hint == #"did you mean "lid"?"#)

        let unknownMarker = try #require(problem(nodes: [Self.lid, Self.drum(until: #"{ "node": "drum", "on": { "marker": "p9" } }"#)]))
        #expect(unknownMarker.message == #"the Lottie file "drum.json" has no marker named "p9""#)
        #expect(unknownMarker.path == "scenes[0].nodes[1].until.on.marker")
        #expect(unknownMarker.hint?.contains(#""p0", "p1", "p2", and "p3""#) == true, "\(unknownMarker.hint ?? "")")

        let string = try #require(problem(nodes: [Self.lid, Self.drum(until: #""lid""#)]))
        #expect(string.message == #""until" must be an object, not a string"#)
        #expect(string.path == "scenes[0].nodes[1].until")

        let once = try #require(problem(nodes: [Self.lid, #"{ "type": "lottie", "id": "drum", "path": "drum.json", "until": { "node": "drum", "on": { "frame": 10 }, "nth": 2 } }"#]))
        #expect(once.message.hasPrefix("this Lottie never stops: \"drum\" plays its frames once"), "\(once.message)")
        #expect(once.path == "scenes[0].nodes[1].until.nth")
    }
}
