import DioramaTestSupport
import Testing

@testable import DioramaDocument

/// A node's `"tap"`, `"after": { "tap" }` and cues on a tap as decoded; every error's message, location and hint
/// is pinned by the Corpus `bad-tap` and `warn-tap` files.
@Suite struct TapDecodingTests {
    @Test func tapsAfterTapsAndCuesOnTapsDecode() throws {
        let scene = try #require(try DocumentFixtures.decode(TapFixtures.recordPlayer()).document.scenes.last)
        #expect(scene.node(withID: "button")?.tap == TapGesture(auto: Rational(4)))
        #expect(scene.node(withID: "disc")?.tap == nil)
        #expect(scene.tappableNodeIDs == ["button"])
        #expect(scene.node(withID: "tonearm")?.animations.first?.after == .tap("button"))
        #expect(scene.cues.map(\.trigger) == [.tap("button"), .tap("button"), .at(Rational(9))])
        #expect(scene.cues[1].offset == Rational(5, 4))
        #expect(scene.ambience.first?.start?.trigger == .tap("button"))
        #expect(scene.taps.isEmpty && scene.firstTaps == ["button": Rational(4)])
        let manual = try #require(try DocumentFixtures.decode(TapFixtures.recordPlayer(auto: nil)).document.scenes.last)
        #expect(manual.node(withID: "button")?.tap == TapGesture(auto: nil))
        #expect(manual.firstTaps.isEmpty)
    }

    @Test func theFirstTapIsTheEarliestOfTheGivenAndTheAutoTap() throws {
        var scene = try #require(try DocumentFixtures.decode(TapFixtures.recordPlayer()).document.scenes.last)
        scene.taps = ["button": Rational(3)]
        #expect(scene.firstTaps == ["button": Rational(3)])
        scene.taps = ["button": Rational(5), "disc": Rational(1)]
        #expect(scene.firstTaps == ["button": Rational(4)])  // the disc cannot be tapped
    }

    @Test func aTappableNodeInsideAGroupCanBeNamed() throws {
        let json = """
            { "canvas": { "width": 10, "height": 10 },
              "scenes": [{ "id": "a", "duration": 4,
                "nodes": [{ "type": "group", "children": [
                  { "type": "rect", "id": "knob", "width": 2, "height": 2, "fill": "#fff", "tap": {},
                    "animations": [{ "property": "opacity", "to": 0, "duration": 1, "after": { "tap": "knob" } }] }] }] }] }
            """
        let scene = try #require(try DocumentFixtures.decode(json).document.scenes.first)
        #expect(scene.isTappable("knob"))
        #expect(SceneTiming(scene: scene).starts.first?.waitsForTap == true)
    }
}
