import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

@testable import DioramaDocument

/// Components: expansion into ordinary nodes, parameters in every kind of value, scoped ids, the limits that
/// bound expansion, and where problems are reported. Messages are pinned in Corpus/bad-component-*.
@Suite struct ComponentTests {
    /// A document with `components` and one scene of `nodes` (JSON bodies) and `cues`.
    static func document(components: String, nodes: String, cues: String = "", duration: String = "10") -> String {
        """
        { "canvas": { "width": 100, "height": 100 },
          \(cues.isEmpty ? "" : #""sounds": { "bell": "media/bell.flac" },"#)
          "components": { \(components) },
          "scenes": [{ "id": "s", "duration": \(duration), "nodes": [\(nodes)]\(cues.isEmpty ? "" : #", "cues": [\#(cues)]"#) }] }
        """
    }

    static let door = """
        "door": {
          "parameters": { "color": { "type": "color", "default": "#8899aa" }, "width": { "type": "number" } },
          "node": { "type": "group", "children": [
            { "type": "rect", "id": "panel", "width": { "param": "width" }, "height": 240, "fill": { "param": "color" },
              "animations": [{ "id": "slide", "property": "offset.x", "to": -150, "duration": 1.5, "delay": 1 }] } ] } }
        """

    static func scene(_ json: String) throws -> Scene {
        let loaded = try DocumentFixtures.decode(json)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        return try #require(loaded.document.scenes.first)
    }

    // MARK: - Expansion

    @Test func anInstanceIsTheSameTreeAsTheGroupsWrittenByHand() throws {
        let components = try Self.scene(Self.document(components: Self.door, nodes: """
            { "type": "component", "component": "door", "id": "leftDoor", "offset": { "x": 160, "y": 60 }, "parameters": { "width": 160 } },
            { "type": "component", "component": "door", "id": "rightDoor", "offset": { "x": 320, "y": 60 }, "mirror": "horizontal",
              "opacity": 0.5, "parameters": { "width": 160, "color": "#99aabb" },
              "animations": [{ "id": "fade", "property": "opacity", "to": 1, "duration": 2 }] }
            """, cues: #"{ "sound": "bell", "node": "leftDoor/panel", "animation": "slide", "on": "to" }"#))
        let byHand = try Self.scene(Self.document(components: "", nodes: """
            { "type": "group", "id": "leftDoor", "offset": { "x": 160, "y": 60 }, "children": [
              { "type": "group", "children": [
                { "type": "rect", "id": "leftDoor/panel", "width": 160, "height": 240, "fill": "#8899aa",
                  "animations": [{ "id": "slide", "property": "offset.x", "to": -150, "duration": 1.5, "delay": 1 }] } ] } ] },
            { "type": "group", "id": "rightDoor", "offset": { "x": 320, "y": 60 }, "opacity": 0.5,
              "animations": [{ "id": "fade", "property": "opacity", "to": 1, "duration": 2 }], "children": [
              { "type": "group", "scale": { "x": -1, "y": 1 }, "children": [
                { "type": "group", "children": [
                  { "type": "rect", "id": "rightDoor/panel", "width": 160, "height": 240, "fill": "#99aabb",
                    "animations": [{ "id": "slide", "property": "offset.x", "to": -150, "duration": 1.5, "delay": 1 }] } ] } ] } ] }
            """, cues: #"{ "sound": "bell", "node": "leftDoor/panel", "animation": "slide", "on": "to" }"#))
        #expect(components == byHand)
    }

    @Test func mirrorFlipsAboutTheCentreOfTheComponentsNode() throws {
        let json = Self.document(components: ##""bar": { "node": { "type": "rect", "x": 0, "width": 40, "height": 10, "fill": "#fff" } }"##, nodes: """
            { "type": "component", "component": "bar", "id": "h", "mirror": "horizontal" },
            { "type": "component", "component": "bar", "id": "v", "mirror": "vertical" },
            { "type": "component", "component": "bar", "id": "b", "mirror": "both" },
            { "type": "component", "component": "bar", "id": "plain" }
            """)
        let scene = try Self.scene(json)
        func flip(_ id: String) throws -> Point? {
            guard case .group(let group) = try #require(scene.node(withID: id)).content, let child = group.children.first else { return nil }
            if case .group = child.content { return child.style.scale }
            return nil
        }
        #expect(try flip("h") == Point(x: -1, y: 1))
        #expect(try flip("v") == Point(x: 1, y: -1))
        #expect(try flip("b") == Point(x: -1, y: -1))
        #expect(try flip("plain") == nil)
        // Drawn: x -> 40 - x, so the bar (x 0 ... 40) flips in place, about its own centre.
        let snapshot = SceneEvaluator.snapshot(of: try DocumentFixtures.decode(json).document, scene: 0, at: 0)
        let h = try #require(snapshot.nodes.first { $0.id == "h" })
        guard case .group(let children) = h.content, let mirror = children.first else { Issue.record("no mirror group"); return }
        #expect(mirror.transform == Transform2D(a: -1, b: 0, c: 0, d: 1, tx: 40, ty: 0))
    }

    @Test func aClippedTemplateWithAFrameFlipsAboutItsFrameNotItsClip() throws {
        // A kaleidoscope's wedge: a frame centred on the origin, clipped to a sector right of the y axis. Mirrored,
        // the sector must land left of the axis (x -> -x), not flip in place about the clip's own centre.
        let wedge = """
            "wedge": { "node": { "type": "group", "offset": { "x": 10, "y": 0 },
              "frame": { "x": -50, "y": -50, "width": 100, "height": 100 },
              "clipShape": { "type": "path", "d": "M 0 0 L 0 -50 L 30 -40 Z" },
              "children": [{ "type": "circle", "r": 50, "fill": "#fff" }] } }
            """
        let json = Self.document(components: wedge, nodes: """
            { "type": "component", "component": "wedge", "id": "w", "mirror": "horizontal" }
            """)
        let snapshot = SceneEvaluator.snapshot(of: try DocumentFixtures.decode(json).document, scene: 0, at: 0)
        let w = try #require(snapshot.nodes.first { $0.id == "w" })
        guard case .group(let children) = w.content, let mirror = children.first else { Issue.record("no mirror group"); return }
        // About x = 10, the frame's centre moved by the template's offset: x -> 20 - x.
        #expect(mirror.transform == Transform2D(a: -1, b: 0, c: 0, d: 1, tx: 20, ty: 0))
    }

    @Test func parametersReachNumbersColoursTextsAndExactTimes() throws {
        let components = """
            "label": {
              "parameters": {
                "caption": { "type": "text", "default": { "en": "Up", "ja": "上" } },
                "tint": { "type": "color" }, "period": { "type": "number" }, "lift": { "type": "number", "default": -12.5 }
              },
              "node": { "type": "text", "id": "t", "text": { "param": "caption" }, "fill": { "param": "tint" },
                "animations": [
                  { "id": "rise", "property": "offset.y", "to": { "param": "lift" }, "duration": { "param": "period" }, "delay": { "param": "period" } },
                  { "id": "blink", "property": "fill.color", "keyframes": [
                    { "time": 0, "value": { "param": "tint" } }, { "time": { "param": "period" }, "value": "#ffffff" } ] } ] } }
            """
        let json = Self.document(components: components, nodes: """
            { "type": "component", "component": "label", "id": "a", "parameters": { "tint": "#ff8800", "period": 0.1 } },
            { "type": "component", "component": "label", "id": "b", "parameters": { "tint": "#00ff00", "period": 1.000001, "caption": "Down" } }
            """).replacingOccurrences(of: #""canvas""#, with: #""languages": { "available": ["en", "ja"] }, "canvas""#)
        let scene = try Self.scene(json)
        let a = try #require(scene.node(withID: "a/t"))
        let b = try #require(scene.node(withID: "b/t"))
        guard case .text(let aText) = a.content, case .text(let bText) = b.content else { Issue.record("not text"); return }
        #expect(aText.text.resolved(language: "ja", fallback: "en") == "上")
        #expect(bText.text.resolved(language: "ja", fallback: "en") == "Down")
        #expect(a.style.fill == .solid(Color(hex: "#ff8800")!))
        // Times stay exact rationals: 0.1 s and 1.000001 s, not their nearest doubles.
        #expect(a.animations[0].delay == Rational(1, 10))
        #expect(a.animations[0].kind == .basic(from: .number(0), to: .number(-12.5), curve: .easeInOut, duration: Rational(1, 10)))
        #expect(b.animations[0].delay == Rational(1_000_001, 1_000_000))
        guard case .keyframes(let keyframes) = b.animations[1].kind else { Issue.record("not a track"); return }
        #expect(keyframes.map(\.time) == [.zero, Rational(1_000_001, 1_000_000)])
        #expect(keyframes[0].value == .color(Color(hex: "#00ff00")!))
    }

    @Test func nestedComponentsPassParametersOnAndScopeIdsByEveryPlacement() throws {
        let components = """
            "knob": { "parameters": { "tint": { "type": "color" } },
                      "node": { "type": "circle", "id": "dot", "r": 3, "fill": { "param": "tint" },
                                "animations": [{ "id": "pulse", "property": "scale", "to": 2, "duration": 0.25 }] } },
            "door": { "parameters": { "tint": { "type": "color", "default": "#123456" } },
                      "node": { "type": "group", "children": [
                        { "type": "component", "component": "knob", "id": "handle", "parameters": { "tint": { "param": "tint" } } },
                        { "type": "component", "component": "knob", "parameters": { "tint": "#ffffff" } } ] } }
            """
        let json = Self.document(components: components, nodes: """
            { "type": "group", "id": "house", "children": [
              { "type": "component", "component": "door", "id": "front", "parameters": { "tint": "#ff0000" } } ] },
            { "type": "component", "component": "door" }
            """, cues: #"{ "sound": "bell", "node": "front/handle/dot", "animation": "pulse", "on": "to", "offset": 0.5 }"#)
        let loaded = try DocumentFixtures.decode(json)
        let scene = try #require(loaded.document.scenes.first)
        let dot = try #require(scene.node(withID: "front/handle/dot"))
        #expect(dot.style.fill == .solid(Color(hex: "#ff0000")!))
        // The anonymous placements leave their inner nodes without ids.
        var ids: [String] = []
        func collect(_ nodes: [Node]) {
            for node in nodes {
                if let id = node.id { ids.append(id) }
                if case .group(let group) = node.content { collect(group.children) }
            }
        }
        collect(scene.nodes)
        #expect(ids == ["house", "front", "front/handle", "front/handle/dot"])
        // The cue reaches the inner node's animation: 0.25 s, plus its offset.
        let firings = CueSchedule.firings(of: scene, index: 0)
        #expect(firings.map(\.sceneTime) == [Rational(3, 4)])
    }

    @Test func aPlacementWithErrorsSilencesCuesNamingNodesInsideIt() {
        let diagnostics = DocumentFixtures.renderedDiagnostics(Self.document(components: Self.door, nodes: """
            { "type": "component", "component": "door", "id": "leftDoor", "mirror": "sideways", "parameters": { "width": 10 } }
            """, cues: #"{ "sound": "bell", "node": "leftDoor/panel", "animation": "slide", "on": "to" }"#), name: "x.json")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix(#"x.json:8:125: error: unknown mirror "sideways" (at scenes[0].nodes[0].mirror)"#) == true, "\(diagnostics)")
    }

    // MARK: - Limits

    /// Components of `fanOut` placements of the previous one, `levels` deep, placed once: fanOut^levels leaves.
    static func multiplying(levels: Int, fanOut: Int, leaf: String) -> String {
        var components = [#""c0": { "node": \#(leaf) }"#]
        for level in 1...levels {
            let children = Array(repeating: #"{ "type": "component", "component": "c\#(level - 1)" }"#, count: fanOut).joined(separator: ", ")
            components.append(#""c\#(level)": { "node": { "type": "group", "children": [\#(children)] } }"#)
        }
        return document(components: components.joined(separator: ",\n"), nodes: #"{ "type": "component", "component": "c\#(levels)" }"#,
                        duration: "86400")
    }

    @Test func aFewLinesThatWouldExpandToMillionsOfNodesAreOneError() {
        // 10^8 circles: stopped at the document's node limit, long before memory runs out.
        let diagnostics = DocumentFixtures.renderedDiagnostics(
            Self.multiplying(levels: 8, fanOut: 10, leaf: ##"{ "type": "circle", "r": 1, "fill": "#fff" }"##), name: "many.json")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.contains("error: more than 10,000 nodes in the document") == true, "\(diagnostics)")
    }

    @Test func fewNodesWithLargeTemplatesStopAtTheExpansionBudget() {
        // 1,000 placements of a 2,000-keyframe track: under the node limit, over a million JSON values.
        let keyframes = (0..<2_000).map { #"{ "time": \#($0), "value": 1 }"# }.joined(separator: ",")
        let leaf = ##"{ "type": "circle", "r": 1, "fill": "#fff", "animations": [{ "property": "offset.x", "keyframes": [\##(keyframes)] }] }"##
        let diagnostics = DocumentFixtures.renderedDiagnostics(Self.multiplying(levels: 3, fanOut: 10, leaf: leaf), name: "big.json")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.contains("error: the components placed in this document expand to more than 1,000,000 JSON values") == true,
                "\(diagnostics)")
        // A hundred placements of it are within the budget.
        #expect(DocumentFixtures.renderedDiagnostics(Self.multiplying(levels: 2, fanOut: 10, leaf: leaf)).isEmpty)
    }

    @Test func aLongChainOfComponentsStopsAtTheGroupNestingLimit() {
        var components = [##""c0": { "node": { "type": "circle", "r": 1, "fill": "#fff" } }"##]
        for level in 1..<60 { components.append(#""c\#(level)": { "node": { "type": "component", "component": "c\#(level - 1)" } }"#) }
        let diagnostics = DocumentFixtures.renderedDiagnostics(
            Self.document(components: components.joined(separator: ",\n"), nodes: #"{ "type": "component", "component": "c59" }"#), name: "deep.json")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.contains("error: groups nested more than 32 deep") == true, "\(diagnostics)")
        // Each placement is one level: 31 placements and the circle fit in 32.
        let fits = Self.document(components: components.prefix(31).joined(separator: ",\n"), nodes: #"{ "type": "component", "component": "c30" }"#)
        #expect(DocumentFixtures.renderedDiagnostics(fits).isEmpty)
    }

    @Test func aLoopThroughThousandsOfComponentsIsFoundWithoutRecursing() {
        // An iterative search: a chain this long would overflow the stack of a recursive one.
        var components: [String] = []
        for index in 0..<20_000 { components.append(#""c\#(index)": { "node": { "type": "component", "component": "c\#((index + 1) % 20_000)" } }"#) }
        let diagnostics = DocumentFixtures.renderedDiagnostics(
            Self.document(components: components.joined(separator: ",\n"), nodes: ""), name: "loop.json")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.contains(#"error: the component "c0" places itself through "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", and 19991 more: c0 → c1"#) == true,
                "\(diagnostics.first ?? "")")
        #expect(diagnostics.first?.contains("c10 → … → c0 (at components.c19999.node.component)") == true, "\(diagnostics.first ?? "")")
    }

    // MARK: - Reporting

    @Test func aMistakeInATemplateIsReportedOnceHoweverManyPlacements() {
        let json = Self.document(components: ##""dot": { "node": { "type": "circle", "r": 1, "fil": "#fff" } }"##,
                                 nodes: Array(repeating: #"{ "type": "component", "component": "dot" }"#, count: 8).joined(separator: ","))
        let diagnostics = DocumentFixtures.renderedDiagnostics(json, name: "x.json")
        #expect(diagnostics == [
            """
            x.json:3:64: error: unknown key "fil" in a circle node (at components.dot.node.fil)
              hint: did you mean "fill"?
              note: in the component "dot", placed at 4:53 (scenes[0].nodes[0])
            """,
        ])
    }

    @Test func notesAreRenderedAfterTheHint() {
        var diagnostic = Diagnostic(file: "f.json", line: 2, column: 3, path: "a.b", message: "m", hint: "h")
        diagnostic.notes = ["first", "second"]
        #expect(diagnostic.description == "f.json:2:3: error: m (at a.b)\n  hint: h\n  note: first\n  note: second")
    }

    @Test func theSchemaDefinesTheDecodersComponentKeys() throws {
        let definitions = try #require(try DocumentationTests.schema()["$defs"] as? [String: [String: Any]])
        func keys(_ name: String) -> Set<String> { Set((definitions[name]?["properties"] as? [String: Any] ?? [:]).keys) }
        #expect(keys("component") == Set(DocumentKeys.component))
        #expect(keys("componentParameter") == Set(DocumentKeys.componentParameter))
        #expect(keys("parameterReference") == Set(DocumentKeys.parameterReference))
        #expect(keys("componentNode") == Set(DocumentKeys.keys(ofNodeType: "component")).subtracting(DocumentKeys.nodeCommon))
    }

    @Test func theSchemaRejectsTheComponentMistakesItCanDescribe() throws {
        // Unknown keys, a node that is not an object, a missing node or parameter type, an unknown parameter type.
        let names = ["bad-component-unknown", "bad-component-parameters", "bad-swiftui-keys"]
        try SchemaValidation.expectCorpusFilesRejected(names)
    }

    @Test func theCheckCommandExitsTwoWithNotesForAComponentMistake() throws {
        let directory = try CheckCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.document(components: Self.door, nodes: #"{ "type": "component", "component": "door", "id": "d" }"#,
                               cues: #"{ "sound": "bell", "at": 1 }"#).utf8).write(to: directory.appendingPathComponent("scenes.json"))
        guard let result = try CheckCommandTests.check(["scenes.json"], in: directory) else { return }
        #expect(result.status == 2)
        // The missing sound file is reported in the same run as the component's problem.
        #expect(result.errors == """
            scenes.json:2:23: error: the sound "bell" file "media/bell.flac" does not exist (at sounds.bell)
              hint: the folder "media" has no files; paths are relative to the folder of the scenes file
            scenes.json:8:53: error: the component "door" needs a value for "width", which has no default (at scenes[0].nodes[0])
              hint: add "parameters": { "width": 100 }
              note: the parameter "width" is declared at 4:71 (components.door.parameters.width)

            """)
    }
}
