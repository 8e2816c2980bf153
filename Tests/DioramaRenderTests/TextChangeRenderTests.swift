import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Text that changes, from the file to pixels: a frame at time t must be, pixel for pixel, the frame of a
/// static text node saying what the text should say at t. A wrong string, a change a frame early or late,
/// a badly written number or a typewriter that moves its letters all fail these.
@Suite struct TextChangeRenderTests {
    /// A 640×360 scene of `nodes` (JSON) in en, zh and ja, rendered at `time` at 640×360.
    private func render(_ nodes: String, at time: Double, language: String = "en",
                        renderer: FrameRenderer = FrameRenderer()) throws -> RenderedFrame {
        let json = """
            { "canvas": { "width": 640, "height": 360, "background": "#10202e" },
              "languages": { "default": "en", "fallback": "en", "available": ["en", "zh", "ja"] },
              "scenes": [{ "id": "s", "duration": 10, "nodes": [\(nodes)] }] }
            """
        let document = try DocumentFixtures.decode(json).document
        let snapshot = SceneEvaluator(document: document).snapshot(scene: 0, at: time, language: language)
        return try renderer.render(snapshot, width: 640, height: 360)
    }

    /// A static text node saying `text` with the keys `style` (position, font, fill...).
    private func still(_ text: String, _ style: String, language: String = "en") throws -> RenderedFrame {
        let quoted = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
        return try render(#"{ "type": "text", "text": \#(quoted), \#(style) }"#, at: 0, language: language)
    }

    private func inked(_ frame: RenderedFrame) -> Int {
        let background = frame.pixel(x: 0, y: 0)
        var count = 0
        for y in 0..<frame.height { for x in 0..<frame.width where frame.pixel(x: x, y: y) != background { count += 1 } }
        return count
    }

    static let style = ##""x": 320, "y": 180, "font": { "size": 72, "weight": 700 }, "fill": "#ffd27a""##

    static let floors = """
        { "type": "text", \(style), "animations": [{ "property": "text", "keyframes": [
            { "time": 0, "value": "1" },
            { "time": 1.5, "value": "2" },
            { "time": 3, "value": { "en": "Roof", "zh": "屋顶", "ja": "屋上" } }
        ] }] }
        """

    @Test(arguments: [(0.0, "en", "1"), (1.49, "en", "1"), (1.5, "en", "2"), (45.0 / 30, "en", "2"), (2.99, "ja", "2"),
                      (3.0, "en", "Roof"), (3.0, "ja", "屋上"), (9.0, "zh", "屋顶")])
    func aTextTrackShowsItsKeyframesTextFromTheKeyframesTime(time: Double, language: String, expected: String) throws {
        let frame = try render(Self.floors, at: time, language: language)
        #expect(inked(frame) > 500, "something is drawn")
        #expect(frame == (try still(expected, Self.style, language: language)), "at \(time) s in \(language) the floor reads \(expected)")
    }

    @Test func theFrameBeforeAKeyframeAndTheFrameOnItDiffer() throws {
        // Guards the test above against comparing frames that cannot tell texts apart.
        #expect(try render(Self.floors, at: 1.49) != (try render(Self.floors, at: 1.5)))
        #expect(try still("1", Self.style) != (try still("2", Self.style)))
    }

    static let visitors = """
        { "type": "text", "x": 320, "y": 180, "font": { "size": 40 }, "value": 0, "format": { "rounding": "down" },
          "text": { "en": "Visitors: {value}", "zh": "访客：{value}", "ja": "来場者 {value} 人" },
          "animations": [{ "property": "value", "keyframes": [
            { "time": 0, "value": 0 }, { "time": 2, "value": 1000 }, { "time": 4, "value": 12500, "curve": "easeOut" }] }] }
        """

    @Test(arguments: [(0.0, "en", "Visitors: 0"), (1.0, "en", "Visitors: 500"), (1.0, "ja", "来場者 500 人"),
                      (2.0, "zh", "访客：1,000"), (4.0, "ja", "来場者 12,500 人"), (8.0, "en", "Visitors: 12,500")])
    func aCounterShowsItsNumberWrittenIntoItsWords(time: Double, language: String, expected: String) throws {
        let frame = try render(Self.visitors, at: time, language: language)
        #expect(frame == (try still(expected, #""x": 320, "y": 180, "font": { "size": 40 }"#, language: language)),
                "at \(time) s in \(language) the counter reads \(expected)")
    }

    @Test func aCounterWithOneFractionDigitBetweenKeyframesReadsAsTheCurveSays() throws {
        // Linear from 18.5 to 21.3 over 2 s: at 1 s, 19.9.
        let node = #"{ "type": "text", "x": 320, "y": 180, "value": 18.5, "format": { "fractionLength": 1 }, "text": "{value} °C", "animations": [{ "property": "value", "to": 21.3, "duration": 2, "curve": "linear" }] }"#
        #expect(try render(node, at: 1) == (try still("19.9 °C", #""x": 320, "y": 180"#)))
        #expect(try render(node, at: 2) == (try still("21.3 °C", #""x": 320, "y": 180"#)))
    }

    /// Leading-aligned text typed out: with k characters shown, the frame is the frame of the first k characters
    /// alone (same fonts, so the same line box): they sit where they sit in the whole text.
    @Test(arguments: [
        ("Cafe\u{301} au lait", 4, "Cafe\u{301}"),  // é is e + a combining accent: it shows whole, never as a bare e
        ("Cafe\u{301} au lait", 6, "Cafe\u{301} a"),
        // Kana make the whole line Japanese (Noto Sans CJK JP); a prefix with kana is drawn in the same face.
        ("日本語のテキスト", 5, "日本語のテ"),
        ("你好，世界！", 5, "你好，世界"),
    ])
    func aTypewriterShowsItsFirstCharactersWhereTheyStand(text: String, shown: Int, prefix: String) throws {
        let style = #""x": 40, "y": 180, "alignment": "leading", "font": { "size": 48 }"#
        let quoted = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
        let reveal = Double(shown) / Double(text.count)
        let node = #"{ "type": "text", "text": \#(quoted), "reveal": 0, \#(style), "animations": [{ "property": "reveal", "to": 1, "duration": 1, "curve": "linear" }] }"#
        let renderer = FrameRenderer()
        let typed = try render(node, at: reveal, renderer: renderer)
        #expect(typed == (try still(prefix, style)), "\(shown) of \(text.count) characters of \(text) read \(prefix)")
        // The cached layout the typewriter drew from is whole again afterwards.
        #expect(try render(#"{ "type": "text", "text": \#(quoted), \#(style) }"#, at: 0, renderer: renderer) == (try still(text, style)))
    }

    @Test func aCentredTypewriterDoesNotMoveItsLettersAsTheyAppear() throws {
        // "Hello world" centred, typed to "Hello " (6 of 11): left of the gap between the words the frame is the
        // whole text's frame, pixel for pixel; right of it, nothing is drawn yet.
        let style = #""x": 320, "y": 180, "font": { "size": 64 }"#
        let typed = try render(#"{ "type": "text", "text": "Hello world", "reveal": 0.5455, \#(style) }"#, at: 0)
        let whole = try still("Hello world", style)
        let background = whole.pixel(x: 0, y: 0)
        let inkedColumns = (0..<640).filter { x in (0..<360).contains { whole.pixel(x: x, y: $0) != background } }
        // The widest run of empty columns inside the text is the space between the words.
        var gap = (start: 0, length: 0), run = (start: 0, length: 0)
        for x in inkedColumns.first!...inkedColumns.last! {
            if (0..<360).allSatisfy({ whole.pixel(x: x, y: $0) == background }) {
                run = run.length == 0 ? (x, 1) : (run.start, run.length + 1)
                if run.length > gap.length { gap = run }
            } else {
                run = (0, 0)
            }
        }
        #expect(gap.length >= 8, "the space between the words is found")
        let cut = gap.start + gap.length / 2
        for y in 0..<360 {
            for x in 0..<640 {
                let expected = x < cut ? whole.pixel(x: x, y: y) : background
                if typed.pixel(x: x, y: y) != expected {
                    Issue.record("pixel (\(x), \(y)) differs: the typed letters moved or the hidden ones show")
                    return
                }
            }
        }
        #expect(inked(typed) > 500)
    }

    @Test func aTypewriterAtNothingDrawsNothing() throws {
        let frame = try render(#"{ "type": "text", "text": "你好", "reveal": 0, "x": 320, "y": 180 }"#, at: 0)
        #expect(inked(frame) == 0)
    }

    @Test func theSameFileAndTimeGiveTheSamePixels() throws {
        let nodes = [Self.floors, Self.visitors,
                     #"{ "type": "text", "text": { "en": "Dear friend,", "ja": "拝啓" }, "y": 300, "x": 320, "reveal": 0, "animations": [{ "property": "reveal", "to": 1, "duration": 3 }] }"#]
            .joined(separator: ", ")
        for (time, language) in [(1.7, "en"), (2.2, "ja"), (3.3, "zh")] {
            let first = try render(nodes, at: time, language: language)
            let renderer = FrameRenderer()
            _ = try render(nodes, at: time + 1, language: language, renderer: renderer)  // warm caches drawing another time
            #expect(first == (try render(nodes, at: time, language: language, renderer: renderer)), "at \(time) s in \(language)")
        }
    }
}
