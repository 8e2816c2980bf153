import DioramaTestSupport
import Testing

@testable import DioramaDocument

@Suite struct DocumentDecodingTests {
    @Test func oceanFixtureDecodesWithEveryPart() throws {
        let loaded = try DocumentFixtures.decode(DocumentFixtures.oceanJSON)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let document = loaded.document
        #expect(document.canvas == Canvas(width: 1280, height: 720, background: .solid(Color(hex: "#0b1a2a")!)))
        #expect(document.languages == Languages(defaultLanguage: "en", fallback: "en", available: ["en", "zh", "ja"]))
        #expect(document.sounds == [SoundDefinition(name: "bell", path: "media/bell.flac", gain: 0.8),
                                    SoundDefinition(name: "surf", path: "media/surf.flac")])
        let scene = try #require(document.scenes.first)
        #expect(scene.id == "ocean")
        #expect(scene.duration == Rational(24))
        #expect(scene.title.resolved(language: "ja", fallback: "en") == "海")
        #expect(scene.ambience == [Ambience(sound: "surf", gain: 0.6, fadeIn: 2, fadeOut: 1.5)])
        #expect(scene.cues == [
            Cue(sound: "bell", trigger: .at(Rational(11, 2))),
            Cue(sound: "bell", trigger: .animation(node: "buoy", animation: "tilt", event: .reachesTo), gain: 0.9, pan: -0.3),
            Cue(sound: "bell", trigger: .animation(node: "buoy", animation: "bob", event: .keyframe(1)), offset: Rational(-1, 20)),
        ])
        let buoy = try #require(scene.node(withID: "buoy"))
        #expect(buoy.style.offset == Point(x: 640, y: 380))
        #expect(buoy.style.rotationAnchor == .bottom)
        #expect(buoy.animations.count == 3)
        #expect(buoy.animations[0] == Animation(id: "tilt", property: .rotation,
                                                 kind: .basic(from: .number(-20), to: .number(15), curve: .easeInOut, duration: .one),
                                                 delay: Rational(1, 5), repeatCount: .forever, autoreverses: true))
        // A spring without duration lasts its settling time, and starts from the node's own value.
        let spring = TimingCurve.spring(response: 0.55, dampingFraction: 0.825)
        #expect(buoy.animations[2].kind == .basic(from: .number(1), to: .number(1.2), curve: spring, duration: spring.settlingDuration))
        if case .keyframes(let keyframes) = buoy.animations[1].kind {
            #expect(keyframes.map(\.time) == [.zero, .one, Rational(2)])
            #expect(keyframes[2].hold)
            #expect(keyframes[1].curve == .easeInOut)
            #expect(keyframes[0].curve == .linear)
        } else {
            Issue.record("bob is not a keyframe track")
        }
        guard case .group(let group) = buoy.content else { Issue.record("buoy is not a group"); return }
        #expect(group.children[1].content == .path(PathData(commands: [
            .move(Point(x: -20, y: -60)), .line(Point(x: 0, y: -90)), .line(Point(x: 20, y: -60)), .close,
        ])))
        #expect(group.children[2].content == .ellipse(EllipseShape(center: Point(x: 0, y: -95), radiusX: 5, radiusY: 5)))
        #expect(group.children[0].style.cornerRadius == 6)
        #expect(loaded.mediaReferences.map(\.path) == ["media/bell.flac", "media/surf.flac"])
        #expect(loaded.mediaReferences[0].line == 5)
    }

    @Test func theDefaultSpringSettlesInTheTimeFormatMdStates() {
        // docs/FORMAT.md: "for the default "spring" ... 0.982 s", as SwiftUI's Spring.settlingDuration gives it.
        #expect(TimingCurve.spring(response: 0.55, dampingFraction: 0.825).settlingDuration == Rational(982, 1000))
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let json = """
            {
              "canvas": { "width": 0, "height": 720 },
              "scenes": [{ "id": "a", "duration": "1", "nodes": [{ "type": "rect", "widht": 1 }] }]
            }
            """
        #expect(DocumentFixtures.renderedDiagnostics(json, name: "x.json") == [
            "x.json:2:24: error: \"width\" must be greater than 0 and at most 8192, not 0 (at canvas.width)",
            "x.json:3:39: error: \"duration\" must be a number of seconds, not a string (at scenes[0].duration)\n  hint: write the number without quotes",
            "x.json:3:54: error: missing required key \"height\" in a rect node (at scenes[0].nodes[0])",
            // "widht" is reported once, as a typo, not again as a missing "width".
            "x.json:3:72: error: unknown key \"widht\" in a rect node (at scenes[0].nodes[0].widht)\n  hint: did you mean \"width\"?",
        ])
    }
}
