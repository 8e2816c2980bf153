import DioramaDocument
import DioramaTestSupport
import Testing
@testable import DioramaTimeline

/// Text that changes, evaluated: which string a text node shows at a time, in a language.
@Suite struct TextEvaluationTests {
    /// One 10 s scene with `nodes` (JSON), in en, zh and ja with en as the fallback.
    private func evaluator(_ nodes: String, cues: String = "[]") throws -> SceneEvaluator {
        let json = """
            { "canvas": { "width": 1280, "height": 720 },
              "languages": { "default": "en", "fallback": "en", "available": ["en", "zh", "ja"] },
              "sounds": { "ding": "ding.wav" },
              "scenes": [{ "id": "s", "duration": 10, "cues": \(cues), "nodes": [\(nodes)] }] }
            """
        return SceneEvaluator(document: try DocumentFixtures.decode(json).document)
    }

    private func shown(_ evaluator: SceneEvaluator, at time: Double, language: String = "en", node: Int = 0) -> TextSnapshot? {
        if case .text(let text) = evaluator.snapshot(scene: 0, at: time, language: language).nodes[node].content { return text }
        return nil
    }

    // MARK: - Text keyframes

    static let floors = """
        { "type": "text", "id": "floor", "animations": [{ "id": "ride", "property": "text", "delay": 0.5, "keyframes": [
            { "time": 0, "value": "1" },
            { "time": 0.7, "value": { "en": "2", "ja": "二階" } },
            { "time": 2, "value": { "en": "Roof", "zh": "屋顶", "ja": "屋上" } }
        ] }] }
        """

    @Test func textChangesOnTheKeyframesExactTimeAndNeverBetween() throws {
        let evaluator = try evaluator(Self.floors)
        // Keyframes at track times 0, 0.7 and 2 are at scene times 0.5, 1.2 and 2.5 (0.5 s delay).
        let expected: [(Double, String)] = [(0, "1"), (0.5, "1"), (1.1999, "1"), (1.2, "2"), (1.85, "2"), (2.4999, "2"),
                                            (2.5, "Roof"), (9, "Roof")]
        for (time, text) in expected {
            #expect(shown(evaluator, at: time)?.text == text, "at \(time) s")
        }
    }

    @Test func frameTimesThatLandOnAKeyframeShowTheNewText() throws {
        // 36 / 30 and 12 / 10 are 1.2 s as frame arithmetic computes it, a hair off the keyframe's 0.5 + 0.7.
        let evaluator = try evaluator(Self.floors)
        for time in [36.0 / 30, 72.0 / 60, 0.5 + 0.7, 12.0 / 10] {
            #expect(shown(evaluator, at: time)?.text == "2", "at \(time) s")
        }
        #expect(shown(evaluator, at: 35.0 / 30)?.text == "1")
    }

    @Test func textKeyframesAreLocalizedWithTheUsualFallback() throws {
        let evaluator = try evaluator(Self.floors)
        #expect(shown(evaluator, at: 1.5, language: "ja")?.text == "二階")
        #expect(shown(evaluator, at: 1.5, language: "zh")?.text == "2", "no zh variant: the fallback's")
        #expect(shown(evaluator, at: 3, language: "zh")?.text == "屋顶")
        #expect(shown(evaluator, at: 0, language: "ja")?.text == "1", "a plain string is every language's")
    }

    @Test func repeatingAndAutoreversingTextTracksHoldTheKeyframeTheyLastPassed() throws {
        let evaluator = try evaluator("""
            { "type": "text", "animations": [{ "property": "text", "speed": 2, "repeat": "forever", "autoreverses": true,
              "keyframes": [{ "time": 0, "value": "A" }, { "time": 1, "value": "B" }, { "time": 2, "value": "C" }] }] }
            """)
        // At speed 2 an iteration lasts 1 s: forward A (0) B (0.5) C (1); backward from C, B below track time 2...
        let expected: [(Double, String)] = [(0, "A"), (0.49, "A"), (0.5, "B"), (0.99, "B"), (1, "C"),
                                            (1.01, "B"), (1.5, "B"), (1.51, "A"), (2, "A"), (2.5, "B")]
        for (time, text) in expected {
            #expect(shown(evaluator, at: time)?.text == text, "at \(time) s")
        }
    }

    @Test func cuesOnTextKeyframesFireAtTheKeyframesTimes() throws {
        let evaluator = try evaluator(Self.floors, cues: """
            [{ "sound": "ding", "node": "floor", "animation": "ride", "on": { "keyframe": 1 } },
             { "sound": "ding", "node": "floor", "animation": "ride", "on": { "keyframe": 2 } }]
            """)
        let firings = CueSchedule.firings(of: evaluator.document.scenes[0], index: 0)
        #expect(firings.map(\.sceneTime) == [Rational(12, 10), Rational(5, 2)])
        // The text a cue's frame shows is the new one.
        for firing in firings {
            #expect(shown(evaluator, at: firing.sceneTime.doubleValue)?.text != shown(evaluator, at: firing.sceneTime.doubleValue - 0.001)?.text)
        }
    }

    // MARK: - Counters

    @Test func aCounterWritesItsNumberIntoEachLanguagesWords() throws {
        let evaluator = try evaluator("""
            { "type": "text", "value": 1, "text": { "en": "Floor {value}", "zh": "{value}楼", "ja": "{value}階" },
              "format": { "rounding": "down" },
              "animations": [{ "property": "value", "keyframes": [
                { "time": 0, "value": 1 }, { "time": 2, "value": 3 }, { "time": 3, "value": 12500, "curve": "easeIn" }] }] }
            """)
        #expect(shown(evaluator, at: 0)?.text == "Floor 1")
        #expect(shown(evaluator, at: 0.999)?.text == "Floor 1", "rounding down: 2 shows once it is reached")
        #expect(shown(evaluator, at: 1)?.text == "Floor 2")
        #expect(shown(evaluator, at: 1, language: "ja")?.text == "2階")
        #expect(shown(evaluator, at: 2, language: "zh")?.text == "3楼")
        #expect(shown(evaluator, at: 3)?.text == "Floor 12,500")
        #expect(shown(evaluator, at: 9, language: "ja")?.text == "12,500階")
    }

    @Test func aCounterIsExactAtEveryKeyframeWhateverItsFractionLength() throws {
        // Binary doubles of these decimals are a hair below or above them; the counter writes the file's digits.
        let values = ["0.29", "0.1", "2.675", "1.005", "-0.35", "1234567.89", "0.000001"]
        let keyframes = values.enumerated().map { #"{ "time": \#($0.offset), "value": \#($0.element) }"# }.joined(separator: ", ")
        for fractionLength in 0...6 {
            for rule in NumberRounding.allCases {
                let evaluator = try evaluator("""
                    { "type": "text", "value": 0, "format": { "fractionLength": \(fractionLength), "rounding": "\(rule.rawValue)", "grouping": "never" },
                      "animations": [{ "property": "value", "keyframes": [\(keyframes)] }] }
                    """)
                for (index, literal) in values.enumerated() {
                    let expected = Self.exactlyRounded(literal, fractionLength: fractionLength, rule: rule)
                    #expect(shown(evaluator, at: Double(index))?.text == expected, "\(literal) to \(fractionLength) digits, \(rule)")
                }
            }
        }
    }

    /// Rounds a decimal literal by working on its digits as a string: an oracle independent of the formatter.
    static func exactlyRounded(_ literal: String, fractionLength: Int, rule: NumberRounding) -> String {
        let negative = literal.hasPrefix("-")
        let unsigned = negative ? String(literal.dropFirst()) : literal
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        let integer = String(parts[0]), fraction = parts.count > 1 ? String(parts[1]) : ""
        let padded = fraction + String(repeating: "0", count: max(0, fractionLength - fraction.count))
        let kept = integer + padded.prefix(fractionLength)
        let dropped = padded.dropFirst(fractionLength)
        let nonzero = dropped.contains { $0 != "0" }
        let half = dropped.first == "5" && !dropped.dropFirst().contains { $0 != "0" }
        let above = (dropped.first.map { $0 > "5" } ?? false) || (dropped.first == "5" && !half)
        let away: Bool
        switch rule {
        case .toNearestOrEven: away = above || (half && Int(String(kept.last!))! % 2 == 1)
        case .toNearestOrAwayFromZero: away = above || half
        case .up: away = nonzero && !negative
        case .down: away = nonzero && negative
        case .towardZero: away = false
        case .awayFromZero: away = nonzero
        }
        var digits = kept.map { Int(String($0))! }
        if away {
            var index = digits.count - 1
            while index >= 0, digits[index] == 9 { digits[index] = 0; index -= 1 }
            if index >= 0 { digits[index] += 1 } else { digits.insert(1, at: 0) }
        }
        var integerDigits = digits.dropLast(fractionLength).drop { $0 == 0 }.map(String.init).joined()
        if integerDigits.isEmpty { integerDigits = "0" }
        let fractionDigits = digits.suffix(fractionLength).map(String.init).joined()
        let text = fractionLength > 0 ? integerDigits + "." + fractionDigits : integerDigits
        return negative && digits.contains { $0 != 0 } ? "-" + text : text
    }

    @Test func theNumberFormatWritesAsSwiftUIsNumberStyleDoesInEnZhAndJa() {
        let whole = NumberFormat()
        #expect(whole.string(for: 0) == "0")
        #expect(whole.string(for: 2.5) == "2" && whole.string(for: 3.5) == "4", "half to even by default")
        #expect(whole.string(for: -0.4) == "0", "never -0")
        #expect(whole.string(for: -0.0) == "0")
        #expect(whole.string(for: -1234.6) == "-1,235")
        #expect(whole.string(for: 999) == "999" && whole.string(for: 1000) == "1,000")
        #expect(whole.string(for: 999.5) == "1,000", "a carry adds a digit and a group")
        #expect(whole.string(for: 1e12) == "1,000,000,000,000")
        #expect(whole.string(for: 1e-7) == "0")
        #expect(NumberFormat(rounding: .up).string(for: 1e-7) == "1")
        #expect(NumberFormat(grouping: .never).string(for: 12500) == "12500")
        let one = NumberFormat(fractionLength: 1)
        #expect(one.string(for: 21) == "21.0", "fraction digits are always written")
        #expect(one.string(for: 0.05) == "0.0" && one.string(for: 0.15) == "0.2")
        #expect(NumberFormat(fractionLength: 3).string(for: 1234.5) == "1,234.500")
        #expect(NumberFormat(rounding: .down).string(for: -2.1) == "-3")
        #expect(NumberFormat(rounding: .up).string(for: -2.9) == "-2")
        #expect(NumberFormat(rounding: .towardZero).string(for: -2.9) == "-2")
        #expect(NumberFormat(rounding: .awayFromZero).string(for: 2.1) == "3")
        #expect(NumberFormat(rounding: .toNearestOrAwayFromZero).string(for: -2.5) == "-3")
        #expect(whole.string(for: .nan) == "0" && whole.string(for: .infinity) == "0")
    }

    @Test func aTextWithoutValueShowsThePlaceholderAsWritten() throws {
        let evaluator = try evaluator(#"{ "type": "text", "text": "{value}" }"#)
        #expect(shown(evaluator, at: 0)?.text == "{value}")
    }

    @Test func aCounterWithATextTrackWritesTheNumberIntoTheTracksText() throws {
        let evaluator = try evaluator("""
            { "type": "text", "value": 1, "text": "unused", "animations": [
                { "property": "value", "from": 1, "to": 5, "duration": 4, "curve": "linear" },
                { "property": "text", "keyframes": [{ "time": 0, "value": "Floor {value}" }, { "time": 4, "value": { "en": "Arrived at {value}", "ja": "{value}階に到着" } }] }] }
            """)
        #expect(shown(evaluator, at: 2)?.text == "Floor 3")
        #expect(shown(evaluator, at: 4)?.text == "Arrived at 5")
        #expect(shown(evaluator, at: 4, language: "ja")?.text == "5階に到着")
    }

    // MARK: - Typewriter

    @Test func revealCountsGraphemeClustersSoNoneIsCutInHalf() {
        // é as e + combining acute, a flag (two regional indicators), a family (ZWJ sequence), a toned wave.
        let text = "e\u{301}🇯🇵👨‍👩‍👧👋🏽日本"
        #expect(text.count == 6 && text.unicodeScalars.count == 13)
        let counts = (0...12).map { TextReveal.visibleCharacters(of: text, reveal: Double($0) / 12) }
        #expect(counts == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, nil], "2 / 12 × 6 is 0.9999999999999999 in binary, yet one shows")
        #expect(String(text.prefix(3)) == "e\u{301}🇯🇵👨‍👩‍👧")
    }

    @Test func revealIsExactForTheDecimalsAFileWritesAndForFractionsComputedInBinary() {
        let hundred = String(repeating: "字", count: 100)
        // 0.29 × 100 is 28.999999999999996 in binary; the typewriter shows 29 characters.
        #expect(0.29 * 100 < 29)
        #expect(TextReveal.visibleCharacters(of: hundred, reveal: 0.29) == 29)
        #expect(TextReveal.visibleCharacters(of: hundred, reveal: 0.57) == 57)
        #expect(TextReveal.visibleCharacters(of: hundred, reveal: 0.999) == 99)
        #expect(TextReveal.visibleCharacters(of: hundred, reveal: 0.28999) == 28, "a character shows no earlier than its time")
        #expect((1...99).allSatisfy { TextReveal.visibleCharacters(of: hundred, reveal: Double($0) / 100) == $0 })
        #expect((1...48).allSatisfy { TextReveal.visibleCharacters(of: String(hundred.prefix(49)), reveal: Double($0) / 49) == $0 })
        #expect(TextReveal.visibleCharacters(of: hundred, reveal: 1e-20) == 0)
        #expect(TextReveal.visibleCharacters(of: hundred, reveal: 0) == 0)
        #expect(TextReveal.visibleCharacters(of: "", reveal: 0.5) == 0)
        #expect(TextReveal.visibleCharacters(of: hundred, reveal: 1) == nil)
    }

    @Test func anAnimatedRevealTypesTheTextOutAndSpringsStayWithinItsRange() throws {
        let evaluator = try evaluator("""
            { "type": "text", "text": { "en": "Hello", "ja": "こんにちは世界" }, "reveal": 0, "animations": [
                { "property": "reveal", "to": 1, "duration": 5, "curve": "linear" },
                { "property": "reveal", "from": 0.5, "to": 1, "delay": 6, "curve": { "spring": { "response": 0.5, "dampingFraction": 0.2 } } }] }
            """)
        #expect(shown(evaluator, at: 0)?.visibleCharacters == 0)
        #expect(shown(evaluator, at: 2)?.visibleCharacters == 2)
        #expect(shown(evaluator, at: 2, language: "ja")?.visibleCharacters == 2, "2/5 of 7 is 2.8")
        #expect(shown(evaluator, at: 5)?.visibleCharacters == nil)
        #expect(shown(evaluator, at: 5)?.text == "Hello", "the whole text is in the snapshot: it is laid out whole")
        // The underdamped spring overshoots past 1 and is held to the whole text, never beyond.
        for time in stride(from: 6.0, through: 8, by: 0.05) {
            let visible = shown(evaluator, at: time)?.visibleCharacters
            #expect(visible == nil || (0...5).contains(visible!))
        }
    }
}
