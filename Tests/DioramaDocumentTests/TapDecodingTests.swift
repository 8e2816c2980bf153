import DioramaTestSupport
import Testing

@testable import DioramaDocument

/// A node's `"tap"`, `"after": { "tap" }` and cues on a tap as decoded; every error's message, location and hint
/// is pinned by the Corpus `bad-tap`, `bad-tap-count` and `warn-tap` files.
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

    @Test func countedTapsDecodeAndCountFromTheAutoTap() throws {
        var scene = try #require(try DocumentFixtures.decode(TapFixtures.recordPlayer(toggles: true)).document.scenes.last)
        #expect(scene.cues.map(\.trigger) == [.tap("button"), .tap("button"), .at(Rational(9)), .tap("button", nth: 2)])
        #expect(scene.cues[1].until?.trigger == .tap("button", nth: 2))
        #expect(scene.node(withID: "tonearm")?.animations.last?.after == .tap("button", nth: 2))
        #expect(scene.tapCountsWaitedFor == ["button": [1, 2]])
        // The auto tap (4 s) is the first when nobody tapped before it; later taps count from the second.
        #expect(scene.tapTimes == ["button": [Rational(4)]])
        scene.taps = VisitTaps(["button": [Rational(7), Rational(5)], "disc": [Rational(1)]])
        #expect(scene.tapTimes == ["button": [Rational(4), Rational(5), Rational(7)]])  // the disc cannot be tapped
        #expect(scene.tapTime(of: "button", nth: 2) == Rational(5) && scene.tapTime(of: "button", nth: 4) == nil)
        // A tap before the auto time takes its place; one at it, too (once).
        scene.taps = VisitTaps(["button": [Rational(3), Rational(6)]])
        #expect(scene.tapTimes == ["button": [Rational(3), Rational(6)]])
        scene.taps = ["button": Rational(4)]
        #expect(scene.tapTimes == ["button": [Rational(4)]])
        // One tap per node and time.
        var taps = VisitTaps()
        #expect(taps.add(Rational(2), to: "button") && !taps.add(Rational(2), to: "button"))
        #expect(taps["button"] == [Rational(2)])
        #expect([1, 2, 3, 4, 11, 12, 21, 22, 23, 101].map(TapGesture.ordinal)
            == ["first", "second", "third", "fourth", "11th", "12th", "21st", "22nd", "23rd", "101st"])
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
