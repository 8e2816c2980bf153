import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing

/// A lottie node's `after`, and starts `after` a Lottie node's marker or frame: decoding, exact resolution by
/// `SceneTiming`, and every mistake located with a hint.
///
/// The drum: 30 fps, frames 0 ..< 60, markers p0 … p3 on frames 0, 15, 30, 45; it plays twice after the lid's tap
/// (auto at 2 s) with `"delay": 0.5`, so it starts at 2.5 s and frame 15 appears at 3 s and again at 5 s.
@Suite struct LottieStartTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try LottieFixtures.folderWithMarkedDrum()
    }

    static let lid = LottieFixtures.autoTappedLid

    static func drum(_ extra: String = "") -> String {
        #"{ "type": "lottie", "id": "drum", "path": "drum.json", "repeat": 2, "delay": 0.5, "after": { "tap": "lid" }\#(extra) }"#
    }

    static func tine(after: String, id: String = "tine") -> String {
        """
        { "type": "rect", "id": "\(id)", "width": 4, "height": 40, "fill": "#fff",
          "animations": [{ "id": "twitch", "property": "rotation", "from": 8, "to": 0, "duration": 0.25, "after": \(after) }] }
        """
    }

    private func load(nodes: [String], cues: String = "") throws(DocumentLoadError) -> LoadedDocument {
        try DocumentLoader.decode(bytes: Array(LottieFixtures.scenes(nodes: nodes.joined(separator: ",\n"), cues: cues).utf8),
                                  path: folder.path("scenes.json"))
    }

    /// The first error's message, hint, line:column and JSON path.
    private func problem(nodes: [String], cues: String = "") -> (message: String, hint: String?, place: String, path: String)? {
        do {
            let loaded = try load(nodes: nodes, cues: cues)
            return loaded.warnings.first.map { ($0.message, $0.hint, "\($0.line):\($0.column)", $0.path) }
        } catch {
            return error.diagnostics.first.map { ($0.message, $0.hint, "\($0.line):\($0.column)", $0.path) }
        }
    }

    // MARK: - Decoding and resolution

    @Test func aLottieNodeTakesAfterAndAnimationsStartAfterItsMarkersAndFrames() throws {
        let loaded = try load(nodes: [Self.lid, Self.drum(),
                                      Self.tine(after: #"{ "node": "drum", "on": { "marker": "p1" } }"#),
                                      Self.tine(after: #"{ "node": "drum", "on": { "marker": "p1" }, "nth": 2 }"#, id: "late"),
                                      #"{ "type": "lottie", "id": "bell", "path": "drum.json", "after": { "node": "drum", "on": { "frame": 30 } } }"#])
        let scene = loaded.document.scenes[0]
        guard case .lottie(let drum) = scene.nodes[1].content else { Issue.record("no lottie"); return }
        #expect(drum.playback.after == .tap("lid"))
        #expect(scene.nodes[3].animations[0].after == .lottie(node: "drum", event: .marker("p1"), nth: 2))
        let timing = SceneTiming(scene: scene)
        #expect(timing.starts.map(\.path) == ["nodes[1]", "nodes[2].animations[0]", "nodes[3].animations[0]", "nodes[4]"])
        #expect(timing.starts.map(\.isLottie) == [true, false, false, true])
        // 2 + 0.5; 2.5 + 15/30; 2.5 + (60 + 15)/30; 2.5 + 30/30.
        #expect(timing.starts.map(\.time) == [Rational(5, 2), Rational(3), Rational(5), Rational(7, 2)])
        #expect(timing.start(node: "tine", animation: "twitch") == Rational(3))

        let resolved = scene.resolvingStarts()
        guard case .lottie(let playing) = resolved.nodes[1].content else { Issue.record("no lottie"); return }
        #expect(playing.playback.delay == Rational(5, 2) && playing.playback.after == nil)
        #expect(!resolved.hasRelativeStarts)
        #expect(scene.tapCountsWaitedFor == ["lid": [1]])
    }

    @Test func aLottieThatFollowsAnotherFollowsItsSpeedLoopsAndAutoreverse() throws {
        // The drum at speed 2, autoreversing twice from 2.5 s: 60 frames take 1 s; frame 45 appears at 2.5 + 45/60
        // going forward and at 2.5 + (60 + 14)/60 coming back (its step 14 in the reversed pass).
        let loaded = try load(nodes: [Self.lid, Self.drum(#", "speed": 2, "autoreverses": true"#),
                                      Self.tine(after: #"{ "node": "drum", "on": { "frame": 45 }, "nth": 2 }"#),
                                      Self.tine(after: #"{ "node": "drum", "on": { "marker": "p0" }, "nth": 2 }"#, id: "turn")])
        let timing = SceneTiming(scene: loaded.document.scenes[0])
        #expect(timing.start(node: "tine", animation: "twitch") == Rational(5, 2) + Rational(74, 60))
        // Frame 0 is the turn at the end of the reversed pass: it appears second at 2.5 + 119/60.
        #expect(timing.start(node: "turn", animation: "twitch") == Rational(5, 2) + Rational(119, 60))
    }

    @Test func aLottieWaitingForATapShowsItsFirstFrameAndWhatFollowsItWaits() throws {
        let lid = ##"{ "type": "rect", "id": "lid", "width": 10, "height": 10, "fill": "#fff", "tap": {} }"##
        var scene = try load(nodes: [lid, Self.drum(), Self.tine(after: #"{ "node": "drum", "on": { "marker": "p1" } }"#)])
            .document.scenes[0]
        let waiting = SceneTiming(scene: scene)
        #expect(waiting.starts.allSatisfy { $0.waitsForTap && $0.time == SceneTiming.untapped })
        // Tapped at 1.000001 s: the drum starts half a second later, exactly.
        scene.taps = ["lid": Rational(1_000_001, 1_000_000)]
        let tapped = SceneTiming(scene: scene)
        #expect(tapped.starts.map(\.time) == [Rational(1_500_001, 1_000_000), Rational(2_000_001, 1_000_000)])
    }

    @Test func aCuesWarningCountsFromTheLottiesResolvedStart() throws {
        let lid = ##"{ "type": "rect", "id": "lid", "width": 10, "height": 10, "fill": "#fff", "tap": { "auto": 9.8 } }"##
        let loaded = try load(nodes: [lid, Self.drum()], cues: #"{ "sound": "tick", "node": "drum", "on": { "marker": "p1" } }"#)
        #expect(loaded.warnings.map(\.message) == ["this Lottie starts playing at 10.3 s, when the scene (10 s) is over",
                                                 #"this cue never fires: "drum" starts playing at 10.3 s, when the scene (10 s) is over"#])
    }

    // MARK: - Mistakes

    @Test(arguments: [
        // (after, message, hint, path)
        (#"{ "node": "drum", "on": { "marker": "p9" } }"#, #"the Lottie file "drum.json" has no marker named "p9""#,
         #"its markers are "p0", "p1", "p2", and "p3""#, "scenes[0].nodes[2].animations[0].after.on.marker"),
        (#"{ "node": "drum", "on": { "frame": 60 } }"#, #"frame 60 is not in the Lottie file "drum.json", whose frames are 0 to 59"#,
         #"frames are the file's own numbers, from its "ip" up to, not including, its "op""#, "scenes[0].nodes[2].animations[0].after.on.frame"),
        (#"{ "node": "drum", "on": { "marker": "p1" }, "nth": 3 }"#,
         #"this animation never starts: "drum" plays 2 passes, so frame 15 does not appear a third time"#,
         #"give "drum" a larger "repeat", or a smaller "nth""#, "scenes[0].nodes[2].animations[0].after.nth"),
        (#"{ "node": "lid", "on": { "marker": "p1" } }"#, #""lid" is not a lottie node, so it has no markers or frames"#,
         #"start after one of its animations with "animation" and "on", or name a lottie node"#, "scenes[0].nodes[2].animations[0].after.node"),
        (#"{ "node": "drun", "on": { "marker": "p1" } }"#, #"no node with id "drun" in this scene"#,
         #"did you mean "drum"?"#, "scenes[0].nodes[2].animations[0].after.node"),
        (#"{ "node": "drum", "animation": "play", "on": { "marker": "p1" } }"#,
         #""after" names a Lottie node's marker or frame with "node" and "on" alone; an animation has no markers or frames"#,
         #"remove "animation" to start after the Lottie node's moment, or give "on" an animation's event such as "end""#,
         "scenes[0].nodes[2].animations[0].after.animation"),
        (#"{ "node": "drum", "on": { "marker": "p1" }, "nth": 0 }"#, #""nth" counts the appearances of a Lottie's frame from 1, not 0"#,
         "1 is the first time the frame appears (the default), 2 the second",
         "scenes[0].nodes[2].animations[0].after.nth"),
    ] as [(String, String, String?, String)])
    func badStartsAfterALottieAreLocatedErrors(after: String, message: String, hint: String?, path: String) throws {
        let found = try #require(problem(nodes: [Self.lid, Self.drum(), Self.tine(after: after)]))
        #expect(found.message == message)
        if let hint { #expect(found.hint == hint) }
        #expect(found.path == path)
        // The tine is written from line 9 of the scenes file; its `after` on line 10.
        #expect(found.place.hasPrefix("10:"))
    }

    @Test func aFrameOutsideTheSegmentNeverComes() throws {
        let found = try #require(problem(nodes: [Self.lid, Self.drum(#", "segment": [0, 30]"#),
                                                 Self.tine(after: #"{ "node": "drum", "on": { "marker": "p3" } }"#)]))
        #expect(found.message == #"this animation never starts: frame 45 is outside the frames "drum" plays (0 to 29)"#)
        #expect(found.path == "scenes[0].nodes[2].animations[0].after.on.marker")
    }

    @Test func aLottieAndAnAnimationThatWaitForEachOtherAreALoop() throws {
        let drum = #"{ "type": "lottie", "id": "drum", "path": "drum.json", "after": { "node": "tine", "animation": "twitch" } }"#
        let found = try #require(problem(nodes: [drum, Self.tine(after: #"{ "node": "drum", "on": { "marker": "p1" } }"#)]))
        #expect(found.message == #""after" closes a loop: drum (lottie) -> tine.twitch -> drum (lottie)"#
            || found.message == #""after" closes a loop: tine.twitch -> drum (lottie) -> tine.twitch"#)
        #expect(found.path.hasSuffix(".after"))
    }

    @Test func aLottieMarkerWrittenFlatIsShownHowToWriteIt() throws {
        let found = try #require(problem(nodes: [Self.lid, Self.drum(), Self.tine(after: #"{ "node": "drum", "marker": "p1" }"#)]))
        #expect(found.hint == #"remove "marker" or the animation's keys; for a marker of a Lottie node, write { "node": "drum", "on": { "marker": "p1" } }"#)
        #expect(found.place.hasPrefix("10:"))
    }

    @Test func aLottieNodesOwnAfterIsCheckedLikeAnAnimations() throws {
        let found = try #require(problem(nodes: [#"{ "type": "lottie", "id": "drum", "path": "drum.json", "after": { "tap": "lod" } }"#, Self.lid]))
        #expect(found.message == #"no node with id "lod" in this scene"#)
        #expect(found.path == "scenes[0].nodes[0].after.tap")
    }
}
