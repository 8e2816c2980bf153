import DioramaTestSupport
import Foundation
import Testing

@testable import DioramaDocument

/// Markers, `after` and cues on markers: decoding, resolution by `SceneTiming`, and `diorama check`.
/// Every error's message, line:column, path and hint is pinned by the Corpus `bad-after-*` and
/// `warn-relative-timing` files.
@Suite struct RelativeTimingTests {
    /// Doors open at a marker; a passenger fades in after they finish, then walks once the fade reaches `to`.
    static func station(doorsOpen: String = "3.5") -> String {
        """
        {
          "canvas": { "width": 1280, "height": 720 },
          "sounds": { "chime": "media/bell.flac" },
          "scenes": [
            { "id": "station", "duration": 12, "markers": { "doorsOpen": \(doorsOpen), "departure": 11 },
              "cues": [
                { "sound": "chime", "marker": "doorsOpen", "offset": -0.1 },
                { "sound": "chime", "node": "passenger", "animation": "walk", "on": { "keyframe": 1 } }
              ],
              "nodes": [
                { "type": "group", "id": "train", "children": [
                  { "type": "rect", "id": "doors", "width": 80, "height": 200, "fill": "#888",
                    "animations": [
                      { "id": "open", "property": "scale.x", "from": 1, "to": 0.1, "duration": 1.5,
                        "after": { "marker": "doorsOpen" } }
                    ] }
                ] },
                { "type": "circle", "id": "passenger", "r": 30, "fill": "#fc6",
                  "animations": [
                    { "property": "offset.y", "to": 5, "duration": 1 },
                    { "id": "fadeIn", "property": "opacity", "from": 0, "to": 1, "duration": 0.5, "delay": 0.25,
                      "after": { "node": "doors", "animation": "open" } },
                    { "id": "walk", "property": "offset.x", "speed": 2,
                      "after": { "node": "passenger", "animation": "fadeIn", "on": "to" },
                      "keyframes": [{ "time": 0, "value": 0 }, { "time": 1, "value": 120 }, { "time": 2, "value": 300 }] }
                  ] }
              ] }
          ]
        }
        """
    }

    static func scene(_ json: String) throws -> Scene {
        try #require(try DocumentFixtures.decode(json).document.scenes.first)
    }

    @Test func markersAfterAndMarkerCuesDecode() throws {
        let loaded = try DocumentFixtures.decode(Self.station())
        #expect(loaded.warnings.isEmpty)
        let scene = try #require(loaded.document.scenes.first)
        #expect(scene.markers == [SceneMarker(name: "doorsOpen", time: Rational(7, 2)), SceneMarker(name: "departure", time: Rational(11))])
        #expect(scene.cues[0].trigger == .marker("doorsOpen") && scene.cues[0].offset == Rational(-1, 10))
        let doors = try #require(scene.node(withID: "doors"))
        #expect(doors.animations[0].after == .marker("doorsOpen"))
        let passenger = try #require(scene.node(withID: "passenger"))
        #expect(passenger.animations.map(\.after) == [
            nil,
            // "on" left out means "end".
            .animation(node: "doors", animation: "open", event: .end),
            .animation(node: "passenger", animation: "fadeIn", event: .reachesTo),
        ])
        // The delay stays as written: it counts from the moment `after` names.
        #expect(passenger.animations[1].delay == Rational(1, 4))
    }

    @Test func startsResolveInDependencyOrderExactly() throws {
        let timing = SceneTiming(scene: try Self.scene(Self.station()))
        // Depth-first, file order: the doors (inside the train group), then the passenger's three.
        #expect(timing.starts.map(\.path) == ["nodes[0].children[0].animations[0]", "nodes[1].animations[0]",
                                              "nodes[1].animations[1]", "nodes[1].animations[2]"])
        #expect(timing.starts.map(\.time) == [Rational(7, 2), .zero, Rational(21, 4), Rational(23, 4)])
        #expect(timing.start(node: "doors", animation: "open") == Rational(7, 2))
        #expect(timing.start(node: "passenger", animation: "walk") == Rational(23, 4))
        #expect(timing.starts[1].animation == nil && timing.starts[1].after == nil)
    }

    @Test func movingTheMarkerMovesEverythingAfterIt() throws {
        let later = SceneTiming(scene: try Self.scene(Self.station(doorsOpen: "4")))
        #expect(later.starts.map(\.time) == [Rational(4), .zero, Rational(23, 4), Rational(25, 4)])
    }

    @Test func resolvingStartsMakesThemAbsolute() throws {
        let scene = try Self.scene(Self.station())
        #expect(scene.hasRelativeStarts)
        let resolved = scene.resolvingStarts()
        #expect(!resolved.hasRelativeStarts)
        #expect(resolved.node(withID: "doors")?.animations[0].delay == Rational(7, 2))
        #expect(resolved.node(withID: "passenger")?.animations.map(\.delay) == [.zero, Rational(21, 4), Rational(23, 4)])
        // Nothing else changes; a scene without relative starts is returned as it is.
        #expect(resolved.markers == scene.markers && resolved.cues == scene.cues)
        var plain = resolved
        plain.id = "plain"
        #expect(plain.resolvingStarts() == plain)
    }

    @Test func firstTimesOfEveryEvent() {
        // 2 s track at speed 4 (0.5 s iterations), 3 iterations, autoreversing, starting at 1.
        let track = Animation(id: "a", property: .opacity,
                              kind: .keyframes([Keyframe(time: .zero, value: .number(0)), Keyframe(time: Rational(1), value: .number(1)),
                                                Keyframe(time: Rational(2), value: .number(0))]),
                              speed: Rational(4), repeatCount: .count(3), autoreverses: true)
        func first(_ event: AnimationEvent) -> Rational? { StartResolver.firstTime(of: event, in: track, startingAt: Rational(1)) }
        #expect(first(.iterationStart) == Rational(1))
        #expect(first(.reachesTo) == Rational(3, 2))
        #expect(first(.reachesFrom) == Rational(2))
        #expect(first(.keyframe(1)) == Rational(5, 4))
        #expect(first(.keyframe(3)) == nil)
        #expect(first(.end) == Rational(5, 2))
        var forever = track
        forever.repeatCount = .forever
        #expect(StartResolver.firstTime(of: .end, in: forever, startingAt: .zero) == nil)
        var once = track
        once.repeatCount = .count(1)
        #expect(StartResolver.firstTime(of: .reachesFrom, in: once, startingAt: .zero) == nil)
    }

    @Test func aReferenceThatCheckWouldRefuseFallsBackToTheDelay() {
        // Scenes built in code skip the checks: an unknown marker, an unknown animation and a loop.
        func node(_ id: String, _ animations: [Animation]) -> Node {
            Node(id: id, content: .rect(RectShape(rect: Rect(x: 0, y: 0, width: 1, height: 1))), animations: animations)
        }
        func fade(_ id: String, after: StartAnchor) -> Animation {
            Animation(id: id, property: .opacity, kind: .basic(from: .number(0), to: .number(1), curve: .linear, duration: Rational(1)),
                      delay: Rational(2), after: after)
        }
        let scene = Scene(id: "s", title: LocalizedString("s"), duration: Rational(10), nodes: [
            node("a", [fade("x", after: .marker("nowhere")), fade("y", after: .animation(node: "b", animation: "none", event: .end))]),
            node("b", [fade("p", after: .animation(node: "b", animation: "q", event: .end)),
                       fade("q", after: .animation(node: "b", animation: "p", event: .end))]),
        ])
        #expect(SceneTiming(scene: scene).starts.map(\.time) == Array(repeating: Rational(2), count: 4))
    }

    @Test func aChainOfThousandsResolvesWithoutDeepRecursion() throws {
        // Each animation starts when the previous one ends: 4000 links of 0.01 s.
        let count = 4000
        var animations = [#"{ "id": "a0", "property": "opacity", "to": 1, "duration": 0.01 }"#]
        for index in 1..<count {
            animations.append(#"{ "id": "a\#(index)", "property": "opacity", "to": 1, "duration": 0.01, "after": { "node": "n", "animation": "a\#(index - 1)" } }"#)
        }
        let json = """
            { "canvas": { "width": 10, "height": 10 },
              "scenes": [{ "id": "s", "duration": 60, "nodes": [{ "type": "rect", "id": "n", "width": 1, "height": 1, "fill": "#fff",
                "animations": [\(animations.joined(separator: ",\n"))] }] }] }
            """
        let scene = try Self.scene(json)
        #expect(SceneTiming(scene: scene).starts.last?.time == Rational(Int128(count - 1), 100))

        // The same chain closed into a loop is one error, at the `after` that closes it.
        let looped = json.replacingOccurrences(of: #""id": "a0", "property": "opacity", "to": 1, "duration": 0.01 }"#,
                                               with: #""id": "a0", "property": "opacity", "to": 1, "duration": 0.01, "after": { "node": "n", "animation": "a\#(count - 1)" } }"#)
        let diagnostics = DocumentFixtures.renderedDiagnostics(looped)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("scenes.json:3:") == true)
        #expect(diagnostics.first?.contains("\"after\" closes a loop: n.a0 -> n.a1 -> n.a2 -> ") == true)
        #expect(diagnostics.first?.contains(" -> n.a3999 -> n.a0 (at scenes[0].nodes[0].animations[0].after)") == true)
    }

    @Test func cueWarningsUseTheResolvedStart() throws {
        // "late" starts after "slow" ends at 3.5 + 10 = 13.5, past the 12 s scene: its cue never fires.
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "chime": "media/bell.flac" },
              "scenes": [{ "id": "s", "duration": 12, "markers": { "m": 3.5 },
                "cues": [{ "sound": "chime", "node": "n", "animation": "late", "on": "iteration" }],
                "nodes": [{ "type": "rect", "id": "n", "width": 1, "height": 1, "fill": "#fff", "animations": [
                  { "id": "slow", "property": "opacity", "to": 1, "duration": 10, "after": { "marker": "m" } },
                  { "id": "late", "property": "rotation", "to": 1, "duration": 1, "after": { "node": "n", "animation": "slow" } }
                ] }] }] }
            """
        let warnings = try DocumentFixtures.decode(json).warnings.map(\.message)
        #expect(warnings.contains("this cue never fires: \"late\" starts at 13.5 s, when the scene (12 s) is over"))
        #expect(warnings.contains("this animation starts at 13.5 s, when the scene (12 s) is over"))
    }

    @Test func anAfterWithErrorsIsReportedOnceNotAgainByWhatFollowsIt() {
        // "b" follows "a", whose marker is unknown; a cue on "a" adds nothing either.
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "chime": "media/bell.flac" },
              "scenes": [{ "id": "s", "duration": 12,
                "cues": [{ "sound": "chime", "node": "n", "animation": "a", "on": "end" }],
                "nodes": [{ "type": "rect", "id": "n", "width": 1, "height": 1, "fill": "#fff", "animations": [
                  { "id": "b", "property": "rotation", "to": 1, "duration": 1, "after": { "node": "n", "animation": "a" } },
                  { "id": "a", "property": "opacity", "to": 1, "duration": 1, "after": { "marker": "m" } }
                ] }] }] }
            """
        let diagnostics = DocumentFixtures.renderedDiagnostics(json)
        #expect(diagnostics == ["""
            scenes.json:6:88: error: no marker named "m" in this scene (at scenes[0].nodes[0].animations[1].after.marker)
              hint: add it to the scene's "markers", e.g. "markers": { "m": 2 }
            """])
    }

    @Test func checkExitsTwoOnARelativeTimingError() throws {
        let directory = try CheckCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = CorpusTests.directory.appendingPathComponent("bad-after-loop.json")
        try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent("bad-after-loop.json"))
        let result = try #require(try CheckCommandTests.check(["bad-after-loop.json"], in: directory))
        #expect(result.status == 2)
        #expect(result.errors.contains(
            "bad-after-loop.json:9:24: error: \"after\" closes a loop: doors.open -> passenger.fadeIn -> doors.open (at scenes[0].nodes[0].animations[0].after)"))
    }
}
