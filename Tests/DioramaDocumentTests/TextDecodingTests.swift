import DioramaTestSupport
import Testing

@testable import DioramaDocument

/// Text that changes, as the decoder reads it: text keyframe tracks, counters with their number format,
/// and the typewriter's reveal. Every error and warning is in Corpus/ (bad-text-*, warn-text-placeholder).
@Suite struct TextDecodingTests {
    /// A document of one scene with `node` (JSON) as its only node, in en, zh and ja with en as the fallback.
    private func decode(node: String) throws -> (node: Node, warnings: [String]) {
        let json = """
            { "canvas": { "width": 1280, "height": 720 },
              "languages": { "default": "en", "fallback": "en", "available": ["en", "zh", "ja"] },
              "scenes": [{ "id": "s", "duration": 10, "nodes": [\(node)] }] }
            """
        let loaded = try DocumentFixtures.decode(json)
        return (try #require(loaded.document.scenes.first?.nodes.first), loaded.warnings.map(\.description))
    }

    private func text(_ node: Node) -> TextContent? {
        if case .text(let text) = node.content { return text }
        return nil
    }

    @Test func plainTextIsNotACounterAndShowsEverything() throws {
        let (node, warnings) = try decode(node: #"{ "type": "text", "text": "Hello" }"#)
        #expect(node.style.textValue == nil)
        #expect(node.style.reveal == 1)
        #expect(text(node)?.numberFormat == NumberFormat())
        #expect(warnings.isEmpty)
    }

    @Test func aCounterReadsValueAndEveryKeyOfItsFormat() throws {
        let (node, warnings) = try decode(node: """
            { "type": "text", "value": 12.5, "text": { "en": "Floor {value}", "zh": "{value}楼", "ja": "{value}階" },
              "format": { "fractionLength": 2, "rounding": "towardZero", "grouping": "never" } }
            """)
        #expect(node.style.textValue == 12.5)
        #expect(text(node)?.numberFormat == NumberFormat(fractionLength: 2, rounding: .towardZero, grouping: .never))
        #expect(text(node)?.text.resolved(language: "ja", fallback: "en") == "{value}階")
        #expect(warnings.isEmpty)
    }

    @Test func theFormatsDefaultsAreSwiftUIsWholeNumbersHalfToEvenGrouped() throws {
        let (node, _) = try decode(node: #"{ "type": "text", "value": 0, "format": {} }"#)
        #expect(text(node)?.numberFormat == NumberFormat(fractionLength: 0, rounding: .toNearestOrEven, grouping: .automatic))
    }

    @Test(arguments: NumberRounding.allCases)
    func everyRoundingRuleHasItsSwiftName(_ rule: NumberRounding) throws {
        let (node, _) = try decode(node: #"{ "type": "text", "value": 0, "format": { "rounding": "\#(rule.rawValue)" } }"#)
        #expect(text(node)?.numberFormat.rounding == rule)
    }

    @Test func aCounterWithoutTextShowsItsNumberAlone() throws {
        let (node, warnings) = try decode(node: #"{ "type": "text", "value": 3 }"#)
        #expect(text(node)?.text == LocalizedString("{value}", language: "en"))
        #expect(warnings.isEmpty)
    }

    @Test func revealIsAFractionOfTheCharacters() throws {
        let (node, _) = try decode(node: #"{ "type": "text", "text": "Dear friend,", "reveal": 0.25 }"#)
        #expect(node.style.reveal == 0.25)
    }

    @Test func textKeyframesAreLocalizedStringsThatAllHold() throws {
        let (node, warnings) = try decode(node: """
            { "type": "text", "animations": [{ "id": "ride", "property": "text", "repeat": 2, "keyframes": [
                { "time": 0, "value": "1" },
                { "time": 1.5, "value": "2", "hold": true },
                { "time": 3, "value": { "en": "Roof", "ja": "屋上" } }
            ] }] }
            """)
        #expect(warnings.isEmpty)
        let animation = try #require(node.animations.first)
        #expect(animation.property == .text && animation.id == "ride" && animation.repeatCount == .count(2))
        guard case .keyframes(let keyframes) = animation.kind else { Issue.record("not a track"); return }
        #expect(keyframes.map(\.time) == [Rational(0), Rational(3, 2), Rational(3)])
        #expect(keyframes.allSatisfy { $0.hold }, "text never interpolates")
        #expect(keyframes.map(\.value) == [.text(LocalizedString("1", language: "en")), .text(LocalizedString("2", language: "en")),
                                           .text(LocalizedString([("en", "Roof"), ("ja", "屋上")]))])
        // The node needs no text of its own: the track's first keyframe shows from the start.
        #expect(text(node)?.text.resolved(language: "en", fallback: "en") == "")
    }

    @Test func valueAndRevealAnimateLikeAnyNumberAndFromDefaultsToTheNodesOwn() throws {
        let (node, _) = try decode(node: """
            { "type": "text", "value": 7, "reveal": 0.5, "animations": [
                { "property": "value", "to": 10, "duration": 3, "curve": "spring" },
                { "property": "reveal", "to": 1, "duration": 2, "delay": 1 },
                { "property": "value", "keyframes": [{ "time": 0, "value": 1 }, { "time": 2, "value": 5, "curve": "easeIn" }] }
            ] }
            """)
        guard node.animations.count == 3,
              case .basic(let valueFrom, .number(10), _, _) = node.animations[0].kind,
              case .basic(let revealFrom, .number(1), .easeInOut, _) = node.animations[1].kind,
              case .keyframes(let keyframes) = node.animations[2].kind else {
            Issue.record("animations: \(node.animations)")
            return
        }
        #expect(valueFrom == .number(7) && revealFrom == .number(0.5))
        #expect(keyframes.last?.curve == .easeIn && keyframes.last?.hold == false, "a counter's keyframes interpolate")
    }

    @Test func aCounterKeyframeTrackMayChangeTheWordsAroundTheNumber() throws {
        // A counter's text track may leave {value} out ("Arrived"), and then the node's own text (which the
        // track replaces) may too, without a warning.
        let (_, warnings) = try decode(node: """
            { "type": "text", "value": 1, "text": "never shown", "animations": [{ "property": "text", "keyframes": [
                { "time": 0, "value": "Floor {value}" }, { "time": 3, "value": { "en": "Arrived", "ja": "到着" } }] }] }
            """)
        #expect(warnings.isEmpty)
    }

    @Test func theSchemasListsOfRoundingAndGroupingAreTheModels() throws {
        let schema = try DocumentationTests.schema()
        let definitions = try #require(schema["$defs"] as? [String: [String: Any]])
        let properties = try #require(definitions["numberFormat"]?["properties"] as? [String: [String: Any]])
        #expect(properties["rounding"]?["enum"] as? [String] == NumberRounding.allCases.map(\.rawValue))
        #expect(properties["grouping"]?["enum"] as? [String] == NumberGrouping.allCases.map(\.rawValue))
        #expect(Set(properties.keys) == Set(DocumentKeys.numberFormat))
        let trackProperties = try #require((definitions["keyframeTrack"]?["properties"] as? [String: [String: Any]])?["property"]?["enum"] as? [String])
        #expect(trackProperties == AnimatableProperty.allCases.map(\.rawValue))
        let animationProperties = try #require((definitions["animation"]?["properties"] as? [String: [String: Any]])?["property"]?["enum"] as? [String])
        #expect(animationProperties == AnimatableProperty.allCases.filter { $0 != .text }.map(\.rawValue), "text has keyframe tracks only")
    }
}
