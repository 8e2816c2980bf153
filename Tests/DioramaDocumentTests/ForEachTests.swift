import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

@testable import DioramaDocument

/// forEach: a node (or a component placement) copied with an index, arithmetic on parameters, the ids of copies,
/// and the limits that bound copying. Messages are pinned in Corpus/bad-foreach*.
@Suite struct ForEachTests {
    static func scene(_ json: String) throws -> Scene {
        let loaded = try DocumentFixtures.decode(json)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        return try #require(loaded.document.scenes.first)
    }

    /// The snapshots of the first scene at a few moments.
    static func snapshots(_ json: String) throws -> [Snapshot] {
        let document = try DocumentFixtures.decode(json).document
        return [0, 0.25, 1, 2.5].map { SceneEvaluator.snapshot(of: document, scene: 0, at: $0) }
    }

    static let petal = """
        { "type": "ellipse", "id": "petal", "forEach": { "count": 4, "index": "i" }, "cx": 0, "cy": -30, "rx": 8, "ry": 20,
          "fill": "#ffd27a", "rotation": { "param": "i", "times": 90, "plus": 45 }, "anchorPoint": { "x": 0, "y": 0 },
          "animations": [{ "id": "open", "property": "scale", "from": 0.5, "to": 1, "duration": 1,
                           "delay": { "param": "i", "times": 0.25 } }] }
        """

    static func petalByHand(_ i: Int, rotation: String, delay: String) -> String {
        """
        { "type": "ellipse", "id": "petal[\(i)]", "cx": 0, "cy": -30, "rx": 8, "ry": 20,
          "fill": "#ffd27a", "rotation": \(rotation), "anchorPoint": { "x": 0, "y": 0 },
          "animations": [{ "id": "open", "property": "scale", "from": 0.5, "to": 1, "duration": 1, "delay": \(delay) }] }
        """
    }

    static func document(components: String = "", nodes: String, cues: String = "") -> String {
        """
        { "canvas": { "width": 200, "height": 200 },
          \(cues.isEmpty ? "" : #""sounds": { "bell": "media/bell.flac" },"#)
          "components": { \(components) },
          "scenes": [{ "id": "s", "duration": 4, "nodes": [\(nodes)]\(cues.isEmpty ? "" : #", "cues": [\#(cues)]"#) }] }
        """
    }

    // MARK: - Expansion

    @Test func copiesAreTheNodesWrittenByHandWithTheSameSnapshots() throws {
        let cue = #"{ "sound": "bell", "node": "petal[3]", "animation": "open", "on": "to" }"#
        let pattern = Self.document(nodes: Self.petal, cues: cue)
        let byHand = Self.document(nodes: [
            Self.petalByHand(0, rotation: "45", delay: "0"), Self.petalByHand(1, rotation: "135", delay: "0.25"),
            Self.petalByHand(2, rotation: "225", delay: "0.5"), Self.petalByHand(3, rotation: "315", delay: "0.75"),
        ].joined(separator: ",\n"), cues: cue)
        #expect(try Self.scene(pattern) == Self.scene(byHand))
        #expect(try Self.snapshots(pattern) == Self.snapshots(byHand))
        // The cue names the last copy: it fires as that copy's animation ends, 0.75 + 1 s in.
        let firings = CueSchedule.firings(of: try Self.scene(pattern), index: 0)
        #expect(firings.map(\.sceneTime) == [Rational(7, 4)])
    }

    @Test func aComponentPlacementRepeatsWithItsParametersGivenByTheIndex() throws {
        let tine = """
            "tine": { "parameters": { "x": { "type": "number" }, "length": { "type": "number" } },
              "node": { "type": "rect", "id": "blade", "x": { "param": "x" }, "y": 20, "width": 10,
                        "height": { "param": "length", "times": 0.5, "plus": 40 }, "fill": "#d8c690" } }
            """
        let pattern = Self.document(components: tine, nodes: """
            { "type": "component", "component": "tine", "id": "tine", "forEach": { "count": 3, "index": "n" },
              "offset": { "x": { "param": "n", "times": 14 } }, "parameters": { "x": 20, "length": { "param": "n", "times": -12.5, "plus": 100 } } }
            """)
        let byHand = Self.document(components: tine, nodes: """
            { "type": "component", "component": "tine", "id": "tine[0]", "offset": { "x": 0 }, "parameters": { "x": 20, "length": 100 } },
            { "type": "component", "component": "tine", "id": "tine[1]", "offset": { "x": 14 }, "parameters": { "x": 20, "length": 87.5 } },
            { "type": "component", "component": "tine", "id": "tine[2]", "offset": { "x": 28 }, "parameters": { "x": 20, "length": 75 } }
            """)
        let scene = try Self.scene(pattern)
        #expect(scene == (try Self.scene(byHand)))
        #expect(try Self.snapshots(pattern) == Self.snapshots(byHand))
        #expect(scene.node(withID: "tine[2]/blade") != nil)
        // length 75 gives 75 × 0.5 + 40 = 77.5.
        guard case .group(let placement)? = scene.node(withID: "tine[2]")?.content,
              case .rect(let rect) = placement.children[0].content else { Issue.record("not a placement"); return }
        #expect(rect.rect.height == 77.5)
    }

    @Test func nestedCopiesTakeOneSuffixPerIndexOuterFirst() throws {
        let scene = try Self.scene(Self.document(nodes: """
            { "type": "group", "id": "row", "forEach": { "count": 2, "index": "r" }, "offset": { "y": { "param": "r", "times": 20 } },
              "children": [{ "type": "circle", "id": "dot", "forEach": { "count": 3, "index": "c" }, "r": 4, "fill": "#fff",
                             "cx": { "param": "c", "times": 20 }, "cy": { "param": "r" } }] }
            """))
        #expect(scene.nodes.map(\.id) == ["row[0]", "row[1]"])
        for id in ["dot[0][0]", "dot[0][2]", "dot[1][1]"] { #expect(scene.node(withID: id) != nil, "\(id)") }
        // The outer index reaches the inner copies: row 1's dots have cy 1.
        guard case .ellipse(let dot)? = scene.node(withID: "dot[1][2]")?.content else { Issue.record("no dot"); return }
        #expect(dot.center == Point(x: 40, y: 1))
    }

    @Test func aTemplateWhoseNodeIsAForEachPlacesItsCopiesInAGroup() throws {
        let ring = ##""ring": { "node": { "type": "rect", "id": "tick", "forEach": { "count": 3, "index": "k" }, "width": 2, "height": 8, "fill": "#fff", "rotation": { "param": "k", "times": 120 } } }"##
        let scene = try Self.scene(Self.document(components: ring, nodes: #"{ "type": "component", "component": "ring", "id": "dial" }"#))
        #expect(scene.node(withID: "dial/tick[2]")?.style.rotation == 240)
    }

    @Test func aForEachWithoutAnIndexMakesIdenticalCopiesWithNumberedIds() throws {
        let scene = try Self.scene(Self.document(nodes: ##"{ "type": "rect", "id": "bar", "forEach": { "count": 2 }, "width": 4, "height": 4, "fill": "#fff" }"##))
        #expect(scene.nodes.map(\.id) == ["bar[0]", "bar[1]"])
        let unnamed = Self.diagnostics(Self.document(nodes: ##"{ "type": "rect", "forEach": { "count": 3 }, "width": { "param": "i" }, "height": 4, "fill": "#fff" }"##))
        #expect(unnamed.first?.contains(#"hint: name the index in the forEach around it: "forEach": { "count": 3, "index": "i" }"#) == true, "\(unnamed)")
        let empty = try Self.scene(Self.document(nodes: ##"{ "type": "rect", "forEach": { "count": 0 }, "width": 4, "height": 4, "fill": "#fff" }"##))
        #expect(empty.nodes.isEmpty)
    }

    // MARK: - Arithmetic

    @Test func arithmeticIsExactInDecimal() {
        #expect(DocumentDecoder.arithmetic("3", times: "0.1", plus: nil) == "0.3")
        #expect(DocumentDecoder.arithmetic("11", times: "30", plus: nil) == "330")
        #expect(DocumentDecoder.arithmetic("7", times: "-12.5", plus: "100") == "12.5")
        #expect(DocumentDecoder.arithmetic("0.000001", times: "0.000001", plus: nil) == "0.000000000001")
        #expect(DocumentDecoder.arithmetic("999", times: "1000000000", plus: "1000000000") == "1000000000000")
        #expect(DocumentDecoder.arithmetic("2", times: nil, plus: nil) == "2")
        // Out of the operands' bounds: too large, or finer than a millionth.
        #expect(DocumentDecoder.arithmetic("1000000001", times: "1", plus: nil) == nil)
        #expect(DocumentDecoder.arithmetic("0.0000001", times: "1", plus: nil) == nil)
    }

    @Test func aTimeWorkedOutByArithmeticIsTheExactDecimal() throws {
        // 0.1 × 3 is 0.3 seconds exactly, not the double nearest 0.30000000000000004.
        let scene = try Self.scene(Self.document(nodes: """
            { "type": "rect", "id": "r", "forEach": { "count": 4, "index": "i" }, "width": 4, "height": 4, "fill": "#fff",
              "animations": [{ "id": "a", "property": "opacity", "to": 0, "duration": 1, "delay": { "param": "i", "times": 0.1 } }] }
            """))
        #expect(scene.node(withID: "r[3]")?.animations.first?.delay == Rational(3, 10))
    }

    // MARK: - Problems

    static func diagnostics(_ json: String) -> [String] {
        DocumentFixtures.renderedDiagnostics(json, name: "f.json")
    }

    @Test func aMistakeInsideCopiesIsReportedOnceWithTheCopyItWasFoundIn() {
        let lines = Self.diagnostics(Self.document(nodes: """
            { "type": "rect", "forEach": { "count": 12, "index": "i" }, "width": { "param": "i", "times": -1, "plus": 5 }, "height": 4,
              "fill": "#fff", "cornerRaduis": 2 }
            """))
        #expect(lines.filter { $0.contains("cornerRaduis") && $0.contains("error") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.contains("note: in the copy i = 0 of the forEach at 4:70 (scenes[0].nodes[0])") }, "\(lines)")
        // The width goes negative from the copy i = 6: reported once, there, at the reference.
        let width = lines.filter { $0.contains("\"width\" must be") }
        #expect(width.count == 1, "\(lines)")
        #expect(width.first?.hasPrefix("f.json:4:121: error: \"width\" must be between 0 and 1,000,000, not -1 (at scenes[0].nodes[0].width)") == true, "\(lines)")
        #expect(lines.contains { $0.contains("note: in the copy i = 6 of the forEach") }, "\(lines)")
    }

    @Test func ofPicksEachCopysValueFromAListNumbersAndNames() throws {
        let pattern = Self.document(nodes: """
            { "type": "rect", "id": "bar", "forEach": { "count": 3, "index": "i" }, "width": 4, "height": { "param": "i", "of": [10, 25, 5] },
              "fill": { "param": "i", "of": ["#ff0000", "#00ff00", "#0000ff"] } }
            """)
        let byHand = Self.document(nodes: """
            { "type": "rect", "id": "bar[0]", "width": 4, "height": 10, "fill": "#ff0000" },
            { "type": "rect", "id": "bar[1]", "width": 4, "height": 25, "fill": "#00ff00" },
            { "type": "rect", "id": "bar[2]", "width": 4, "height": 5, "fill": "#0000ff" }
            """)
        #expect(try Self.scene(pattern) == Self.scene(byHand))
    }

    @Test func mistakesInOfAreLocatedWithAHint() {
        let short = Self.diagnostics(Self.document(nodes: ##"{ "type": "rect", "forEach": { "count": 3, "index": "i" }, "width": { "param": "i", "of": [1, 2] }, "height": 4, "fill": "#fff" }"##))
        #expect(short.count == 1, "\(short)")
        #expect(short.first?.hasPrefix(#"f.json:4:142: error: "of" lists 2 values, fewer than the 3 copies of the forEach whose index is "i" (at scenes[0].nodes[0].width.of)"#) == true, "\(short)")
        #expect(short.first?.contains("hint: give one value per copy, the first for i = 0") == true, "\(short)")

        let arithmetic = Self.diagnostics(Self.document(nodes: ##"{ "type": "rect", "forEach": { "count": 2, "index": "i" }, "width": { "param": "i", "of": [1, 2], "times": 2 }, "height": 4, "fill": "#fff" }"##))
        #expect(arithmetic.first?.contains(#"error: a reference with "of" picks a value as it is written: it takes no "times" (at scenes[0].nodes[0].width.times)"#) == true, "\(arithmetic)")

        let notAList = Self.diagnostics(Self.document(nodes: ##"{ "type": "rect", "forEach": { "count": 2, "index": "i" }, "width": { "param": "i", "of": 3 }, "height": 4, "fill": "#fff" }"##))
        #expect(notAList.first?.contains("(at scenes[0].nodes[0].width.of)") == true, "\(notAList)")
        #expect(notAList.first?.contains("an array of numbers or strings, one per copy") == true, "\(notAList)")

        // A value of the list that does not fit where it is used is reported at the value, once.
        let negative = Self.diagnostics(Self.document(nodes: ##"{ "type": "rect", "forEach": { "count": 3, "index": "i" }, "width": { "param": "i", "of": [1, -2, 3] }, "height": 4, "fill": "#fff" }"##))
        #expect(negative.filter { $0.contains("error:") }.count == 1, "\(negative)")
        #expect(negative.first?.hasPrefix(#"f.json:4:146: error: "width" must be"#) == true, "\(negative)")
    }

    @Test func theCountAndTheNestingAreBounded() {
        let many = Self.diagnostics(Self.document(nodes: ##"{ "type": "rect", "forEach": { "count": 1001 }, "width": 4, "height": 4, "fill": "#fff" }"##))
        #expect(many == ["f.json:4:92: error: a forEach makes at most 1,000 copies, not 1,001 (at scenes[0].nodes[0].forEach.count)\n  hint: for many small particles, use an emitter"])

        var node = ##"{ "type": "rect", "width": 4, "height": 4, "fill": "#fff" }"##
        for depth in 0..<5 { node = #"{ "type": "group", "forEach": { "count": 2, "index": "i\#(depth)" }, "children": [\#(node)] }"# }
        let deep = Self.diagnostics(Self.document(nodes: node))
        #expect(deep.first?.hasPrefix("f.json:4:367: error: forEach nested more than 4 deep (at scenes[0].nodes[0].children[0].children[0].children[0].children[0].forEach)") == true, "\(deep)")
        #expect(deep.first?.contains("note: in the copy i1 = 0 of the forEach at 4:293") == true, "\(deep)")
        #expect(deep.filter { $0.contains("error:") }.count == 1, "\(deep)")
    }

    @Test func copiesAndPlacementsShareTheExpansionBudget() {
        // 1000 copies of 1000 copies of a node: far past 1,000,000 values, and refused before they are made.
        let node = ##"{ "type": "group", "forEach": { "count": 1000 }, "children": [{ "type": "group", "forEach": { "count": 1000 }, "children": [{ "type": "rect", "width": 1, "height": 1, "fill": "#fff" }] }] }"##
        let lines = Self.diagnostics(Self.document(nodes: node))
        #expect(lines.contains { $0.contains("error: the copies and component placements in this document expand to more than 1,000,000 JSON values") }
                    || lines.contains { $0.contains("more than 10,000 nodes") }, "\(lines.prefix(4))")
    }
}
