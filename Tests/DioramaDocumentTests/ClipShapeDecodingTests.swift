import DioramaTestSupport
import Foundation
import Testing

@testable import DioramaDocument

/// `clipShape`, its animatable geometry, and `anchorPoint` / `scaleAnchorPoint`: every key, every error.
@Suite struct ClipShapeDecodingTests {
    /// A one-scene document whose first node is `node` (a JSON object's text).
    static func document(_ node: String) -> String {
        """
        {
          "canvas": { "width": 640, "height": 360 },
          "scenes": [
            { "id": "s", "duration": 4, "nodes": [
              \(node)
            ] }
          ]
        }
        """
    }

    private func style(_ node: String) throws -> NodeStyle {
        let loaded = try DocumentFixtures.decode(Self.document(node))
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        return try #require(loaded.document.scenes.first?.nodes.first).style
    }

    private func firstNode(_ node: String) throws -> Node {
        try #require(try DocumentFixtures.decode(Self.document(node)).document.scenes.first?.nodes.first)
    }

    /// The diagnostics of a document whose first node is `node`, as `diorama check` prints them.
    private func problems(_ node: String) -> [String] {
        DocumentFixtures.renderedDiagnostics(Self.document(node))
    }

    // MARK: - Keys

    @Test func everyClipShapeTypeDecodesWithEveryKey() throws {
        let rect = ##"{ "type": "rect", "width": 10, "height": 10, "fill": "#fff", "clipShape": "##
        #expect(try style(rect + ##"{ "type": "rect", "x": 1, "y": 2, "width": 30, "height": 40, "cornerRadius": 5 } }"##).clipShape
            == .rect(Rect(x: 1, y: 2, width: 30, height: 40), cornerRadius: 5))
        #expect(try style(rect + ##"{ "type": "rect", "width": 30, "height": 40 } }"##).clipShape
            == .rect(Rect(x: 0, y: 0, width: 30, height: 40), cornerRadius: 0))
        #expect(try style(rect + ##"{ "type": "capsule", "x": -1, "y": -2, "width": 30, "height": 10 } }"##).clipShape
            == .capsule(Rect(x: -1, y: -2, width: 30, height: 10)))
        #expect(try style(rect + ##"{ "type": "circle", "cx": 5, "cy": 6, "r": 7 } }"##).clipShape
            == .circle(center: Point(x: 5, y: 6), radius: 7))
        #expect(try style(rect + ##"{ "type": "circle", "r": 7 } }"##).clipShape == .circle(center: Point(x: 0, y: 0), radius: 7))
        #expect(try style(rect + ##"{ "type": "ellipse", "cx": 5, "cy": 6, "rx": 7, "ry": 8 } }"##).clipShape
            == .ellipse(center: Point(x: 5, y: 6), radiusX: 7, radiusY: 8))
        #expect(try style(rect + ##"{ "type": "path", "d": "M 0 0 L 10 0 L 5 8 Z" } }"##).clipShape
            == .path(PathData(commands: [.move(Point(x: 0, y: 0)), .line(Point(x: 10, y: 0)), .line(Point(x: 5, y: 8)), .close])))
    }

    @Test func aShapeWithoutItsSizeFitsTheNodesFrame() throws {
        let rect = ##"{ "type": "rect", "width": 10, "height": 10, "fill": "#fff", "clipShape": "##
        for shape in FittedClipShape.allCases {
            #expect(try style(rect + "\"\(shape.rawValue)\" }").clipShape == .fitted(shape, cornerRadius: 0))
            #expect(try style(rect + "{ \"type\": \"\(shape.rawValue)\" } }").clipShape == .fitted(shape, cornerRadius: 0))
        }
        #expect(try style(rect + ##"{ "type": "rect", "cornerRadius": 3 } }"##).clipShape == .fitted(.rect, cornerRadius: 3))
        // Placed in a frame, as SwiftUI's shapes fill the view they clip.
        let frame = Rect(x: 10, y: 20, width: 100, height: 40)
        #expect(ClipShape.fitted(.rect, cornerRadius: 3).placed(in: frame) == .rect(frame, cornerRadius: 3))
        #expect(ClipShape.fitted(.capsule, cornerRadius: 0).placed(in: frame) == .capsule(frame))
        #expect(ClipShape.fitted(.circle, cornerRadius: 0).placed(in: frame) == .circle(center: Point(x: 60, y: 40), radius: 20))
        #expect(ClipShape.fitted(.ellipse, cornerRadius: 0).placed(in: frame)
            == .ellipse(center: Point(x: 60, y: 40), radiusX: 50, radiusY: 20))
        #expect(ClipShape.circle(center: Point(x: 1, y: 1), radius: 1).placed(in: frame) == .circle(center: Point(x: 1, y: 1), radius: 1))
    }

    @Test func everyNodeTypeTakesAClipShape() throws {
        let nodes = [
            ##"{ "type": "group", "children": [] "##, ##"{ "type": "circle", "r": 5, "fill": "#fff" "##,
            ##"{ "type": "text", "text": "hi" "##, ##"{ "type": "emitter" "##,
            ##"{ "type": "path", "d": "M 0 0 L 5 5", "stroke": "#fff" "##,
        ]
        for node in nodes {
            #expect(try style(node + ##", "clipShape": "circle" }"##).clipShape == .fitted(.circle, cornerRadius: 0), "\(node)")
        }
    }

    @Test func anchorPointsReplaceTheUnitAnchors() throws {
        let decoded = try style(##"{ "type": "rect", "width": 10, "height": 10, "fill": "#fff", "anchorPoint": { "x": 120, "y": 40 }, "scaleAnchorPoint": { "x": -5, "y": 0.5 } }"##)
        #expect(decoded.rotationAnchorPoint == Point(x: 120, y: 40))
        #expect(decoded.scaleAnchorPoint == Point(x: -5, y: 0.5))
        #expect(decoded.rotationAnchor == .center)
        let plain = try style(##"{ "type": "rect", "width": 10, "height": 10, "fill": "#fff", "anchor": "bottom" }"##)
        #expect(plain.rotationAnchorPoint == nil && plain.scaleAnchorPoint == nil && plain.clipShape == nil)
    }

    @Test func clipGeometryAnimatesFromTheClipsOwnValues() throws {
        let node = try firstNode(##"""
            { "type": "rect", "width": 100, "height": 100, "fill": "#fff",
              "clipShape": { "type": "rect", "x": 10, "y": 20, "width": 30, "height": 40, "cornerRadius": 4 },
              "animations": [
                { "property": "clipShape.x", "to": 50, "duration": 1 },
                { "property": "clipShape.y", "to": 50, "duration": 1 },
                { "property": "clipShape.width", "to": 50, "duration": 1 },
                { "property": "clipShape.height", "to": 50, "duration": 1 },
                { "property": "clipShape.cornerRadius", "to": 50, "duration": 1 }
              ] }
            """##)
        let froms: [AnimationValue] = node.animations.compactMap {
            if case .basic(let from, _, _, _) = $0.kind { return from }
            return nil
        }
        #expect(froms == [.number(10), .number(20), .number(30), .number(40), .number(4)])
        #expect(node.animations.map(\.property) == [.clipX, .clipY, .clipWidth, .clipHeight, .clipCornerRadius])

        let circle = try firstNode(##"""
            { "type": "rect", "width": 100, "height": 100, "fill": "#fff", "clipShape": { "type": "circle", "cx": 1, "cy": 2, "r": 3 },
              "animations": [{ "property": "clipShape.cx", "to": 0, "duration": 1 }, { "property": "clipShape.cy", "to": 0, "duration": 1 },
                             { "keyframes": [{ "time": 0, "value": 3 }, { "time": 1, "value": 9 }], "property": "clipShape.r" }] }
            """##)
        #expect(circle.animations.map(\.property) == [.clipCenterX, .clipCenterY, .clipRadius])
        let ellipse = try firstNode(##"""
            { "type": "rect", "width": 100, "height": 100, "fill": "#fff", "clipShape": { "type": "ellipse", "rx": 3, "ry": 4 },
              "animations": [{ "property": "clipShape.rx", "to": 0, "duration": 1 }, { "property": "clipShape.ry", "from": 1, "to": 0, "duration": 1 }] }
            """##)
        #expect(ellipse.animations.count == 2)
        let capsule = try firstNode(##"""
            { "type": "rect", "width": 100, "height": 100, "fill": "#fff", "clipShape": { "type": "capsule", "width": 30, "height": 10 },
              "animations": [{ "property": "clipShape.width", "to": 0, "duration": 1 }] }
            """##)
        #expect(capsule.animations.count == 1)
        let fitted = try firstNode(##"""
            { "type": "rect", "width": 100, "height": 100, "fill": "#fff", "clipShape": { "type": "rect", "cornerRadius": 2 },
              "animations": [{ "property": "clipShape.cornerRadius", "to": 20, "duration": 1 }] }
            """##)
        #expect(fitted.animations.first.map { $0.kind == .basic(from: .number(2), to: .number(20), curve: .easeInOut, duration: .one) } == true)
    }

    @Test func theDecodersClipKeysAreTheSchemas() throws {
        let definitions = try #require(try DocumentationTests.schema()["$defs"] as? [String: [String: Any]])
        let clip = try #require(definitions["clipShape"])
        let properties = Set((clip["properties"] as? [String: Any] ?? [:]).keys)
        #expect(properties == Set(["type"] + DocumentKeys.clipShapes.flatMap(\.keys)))
        let rules = try #require(clip["allOf"] as? [[String: Any]])
        for (type, keys) in DocumentKeys.clipShapes {
            let rule = rules.first {
                (($0["if"] as? [String: Any])?["properties"] as? [String: [String: String]])?["type"]?["const"] == type
            }
            let names = ((rule?["then"] as? [String: Any])?["propertyNames"] as? [String: [String]])?["enum"]
            #expect(names.map(Set.init) == Set(["type"] + keys), "clip type \(type)")
        }
        #expect(Set((definitions["anchorPoint"]?["properties"] as? [String: Any] ?? [:]).keys) == Set(DocumentKeys.anchorPoint))
        let types = ((clip["properties"] as? [String: Any])?["type"] as? [String: [String]])?["enum"]
        #expect(types == DocumentKeys.clipShapes.map(\.type))
    }

    // MARK: - Errors

    @Test func badClipShapesAreLocatedErrorsWithHints() {
        let head = ##"{ "type": "rect", "width": 10, "height": 10, "fill": "#fff", "clipShape": "##
        // The node starts on line 5, column 7; "clipShape"'s value at column 65.
        let cases: [(String, [String])] = [
            ("\"square\" }", [
                ##"scenes.json:5:81: error: unknown clip shape "square" (at scenes[0].nodes[0].clipShape)"##,
                ##"  hint: use one of "rect", "circle", "ellipse", or "capsule""##]),
            ("\"circel\" }", [
                ##"scenes.json:5:81: error: unknown clip shape "circel" (at scenes[0].nodes[0].clipShape)"##,
                ##"  hint: did you mean "circle"?"##]),
            ("\"path\" }", [
                ##"scenes.json:5:81: error: a path clip needs its path data (at scenes[0].nodes[0].clipShape)"##,
                ##"  hint: write { "type": "path", "d": "M 0 0 L 100 0 L 50 80 Z" }"##]),
            ("true }", [
                ##"scenes.json:5:81: error: "clipShape" must be a shape name like "circle" or a shape object, not a boolean (at scenes[0].nodes[0].clipShape)"##,
                ##"  hint: e.g. "clipShape": { "type": "rect", "width": 100, "height": 60, "cornerRadius": 8 }"##]),
            (##"{ "r": 4 } }"##, [
                ##"scenes.json:5:81: error: missing required key "type" in a clip shape (at scenes[0].nodes[0].clipShape)"##,
                ##"  hint: the types are "rect", "circle", "ellipse", "capsule", and "path""##]),
            (##"{ "type": "star" } }"##, [
                ##"scenes.json:5:91: error: unknown clip shape type "star" (at scenes[0].nodes[0].clipShape.type)"##,
                ##"  hint: use one of "rect", "circle", "ellipse", "capsule", or "path""##]),
            (##"{ "type": "rect", "r": 4, "radius": 2 } }"##, [
                ##"scenes.json:5:99: error: "r" does not apply to a rect clip (at scenes[0].nodes[0].clipShape.r)"##,
                ##"  hint: "r" is a key of circle clips"##,
                ##"scenes.json:5:107: error: unknown key "radius" in a rect clip (at scenes[0].nodes[0].clipShape.radius)"##,
                ##"  hint: the keys of a rect clip are "type", "x", "y", "width", "height", and "cornerRadius""##]),
            (##"{ "type": "rect", "width": 10 } }"##, [
                ##"scenes.json:5:81: error: missing required key "height" in a rect clip (at scenes[0].nodes[0].clipShape)"##,
                ##"  hint: give "width" and "height", or none of them to fit the clip to the node's frame"##]),
            (##"{ "type": "capsule", "x": 10 } }"##, [
                ##"scenes.json:5:102: error: "x" places a capsule clip of a given size, but it has no "width" and "height" (at scenes[0].nodes[0].clipShape.x)"##,
                ##"  hint: add "width" and "height", or leave out "x" and "y" to fit the clip to the node's frame"##]),
            (##"{ "type": "circle", "cy": 10 } }"##, [
                ##"scenes.json:5:101: error: "cy" places a circle clip of a given size, but it has no "r" (at scenes[0].nodes[0].clipShape.cy)"##,
                ##"  hint: add "r", or leave out "cx" and "cy" to fit the clip to the node's frame"##]),
            (##"{ "type": "ellipse", "ry": 10 } }"##, [
                ##"scenes.json:5:81: error: missing required key "rx" in an ellipse clip (at scenes[0].nodes[0].clipShape)"##,
                ##"  hint: give "rx" and "ry", or none of them to fit the clip to the node's frame"##]),
            (##"{ "type": "circle", "r": -1 } }"##, [
                ##"scenes.json:5:106: error: "r" must be between 0 and 1,000,000, not -1 (at scenes[0].nodes[0].clipShape.r)"##]),
            (##"{ "type": "rect", "cornerRadius": "4" } }"##, [
                ##"scenes.json:5:115: error: "cornerRadius" must be a number (points), not a string (at scenes[0].nodes[0].clipShape.cornerRadius)"##]),
            (##"{ "type": "path" } }"##, [
                ##"scenes.json:5:81: error: missing required key "d" in a path clip (at scenes[0].nodes[0].clipShape)"##,
                ##"  hint: SVG path data in the node's coordinates, e.g. "d": "M 0 0 L 100 0 L 50 80 Z""##]),
            (##"{ "type": "path", "d": 5 } }"##, [
                ##"scenes.json:5:104: error: "d" must be a string of SVG path data, not a number (at scenes[0].nodes[0].clipShape.d)"##]),
        ]
        for (tail, expected) in cases {
            #expect(problems(head + tail).joined(separator: "\n") == expected.joined(separator: "\n"), "\(tail)")
        }
    }

    @Test func aBadPathClipIsReportedAtItsColumnInsideTheString() {
        let lines = problems(##"{ "type": "rect", "width": 10, "height": 10, "fill": "#fff", "clipShape": { "type": "path", "d": "M 0 0 L 5 X" } }"##)
        // The 'X' is at column 115: the error points inside the string, as for path nodes.
        #expect(lines == ["scenes.json:5:115: error: expected a number for 'L', found 'X' (at scenes[0].nodes[0].clipShape.d)\n  hint: 'L' takes x y"])
    }

    @Test func badAnchorPointsAreLocatedErrorsWithHints() {
        let head = ##"{ "type": "rect", "width": 10, "height": 10, "fill": "#fff", "##
        let cases: [(String, [String])] = [
            (##""anchor": "top", "anchorPoint": { "x": 1, "y": 2 } }"##, [
                ##"scenes.json:5:85: error: give "anchor" or "anchorPoint", not both ("anchor" is at 5:68) (at scenes[0].nodes[0].anchorPoint)"##,
                ##"  hint: "anchor" is a unit point of the node's frame; "anchorPoint" is a point in the node's own coordinates"##]),
            (##""scaleAnchorPoint": { "x": 1, "y": 2 }, "scaleAnchor": "top" }"##, [
                ##"scenes.json:5:68: error: give "scaleAnchor" or "scaleAnchorPoint", not both ("scaleAnchor" is at 5:108) (at scenes[0].nodes[0].scaleAnchorPoint)"##,
                ##"  hint: "scaleAnchor" is a unit point of the node's frame; "scaleAnchorPoint" is a point in the node's own coordinates"##]),
            (##""anchorPoint": { "x": 1 } }"##, [
                ##"scenes.json:5:83: error: missing required key "y" in an anchor point (at scenes[0].nodes[0].anchorPoint)"##]),
            (##""anchorPoint": [1, 2] }"##, [
                ##"scenes.json:5:83: error: an anchor point must be an object, not an array (at scenes[0].nodes[0].anchorPoint)"##]),
            (##""anchorPoint": { "x": 1, "y": 2, "z": 3 } }"##, [
                ##"scenes.json:5:101: error: unknown key "z" in an anchor point (at scenes[0].nodes[0].anchorPoint.z)"##,
                // "z" is as near to "x" as to "y": no guess, the keys instead.
                ##"  hint: the keys of an anchor point are "x" and "y""##]),
            (##""anchorPoint": { "x": "1", "y": 2 } }"##, [
                ##"scenes.json:5:90: error: "x" must be a number (points), not a string (at scenes[0].nodes[0].anchorPoint.x)"##]),
        ]
        for (tail, expected) in cases {
            #expect(problems(head + tail).joined(separator: "\n") == expected.joined(separator: "\n"), "\(tail)")
        }
    }

    @Test func clipPropertiesAnimateOnlyOnAClipThatHasThem() {
        func animating(_ property: String, clip: String?) -> [String] {
            let clipKey = clip.map { ##""clipShape": \##($0), "## } ?? ""
            return problems(##"{ "type": "rect", "width": 10, "height": 10, "fill": "#fff", \##(clipKey)"animations": [{ "property": "\##(property)", "to": 1, "duration": 1 }] }"##)
                .joined(separator: "\n").components(separatedBy: "\n").filter { !$0.isEmpty }
        }
        #expect(animating("clipShape.x", clip: nil) == [
            ##"scenes.json:5:97: error: "clipShape.x" cannot be animated on a rect node: the node has no clipShape (at scenes[0].nodes[0].animations[0].property)"##,
            ##"  hint: add "clipShape": { "type": "rect", "width": 100, "height": 60 }"##])
        #expect(animating("clipShape.r", clip: ##"{ "type": "rect", "width": 5, "height": 5 }"##).first?
            .contains(##""clipShape.r" cannot be animated on a rect node: its clip shape is a rect, which has no "r""##) == true)
        #expect(animating("clipShape.r", clip: ##"{ "type": "rect", "width": 5, "height": 5 }"##).last
            == ##"  hint: a rect clip animates "clipShape.x", "clipShape.y", "clipShape.width", "clipShape.height", and "clipShape.cornerRadius""##)
        #expect(animating("clipShape.cornerRadius", clip: ##"{ "type": "capsule", "width": 5, "height": 5 }"##).last
            == ##"  hint: a capsule clip animates "clipShape.x", "clipShape.y", "clipShape.width", and "clipShape.height""##)
        #expect(animating("clipShape.rx", clip: ##"{ "type": "circle", "r": 5 }"##).last
            == ##"  hint: a circle clip animates "clipShape.cx", "clipShape.cy", and "clipShape.r""##)
        #expect(animating("clipShape.r", clip: ##"{ "type": "ellipse", "rx": 5, "ry": 5 }"##).first?
            .contains("its clip shape is an ellipse, which has no \"r\"") == true)
        #expect(animating("clipShape.x", clip: ##"{ "type": "path", "d": "M 0 0 L 5 0 L 0 5 Z" }"##) == [
            ##"scenes.json:5:158: error: "clipShape.x" cannot be animated on a rect node: a path clip's geometry does not animate (at scenes[0].nodes[0].animations[0].property)"##,
            ##"  hint: to move the clip against the content, clip a group and animate its child's offset"##])
        #expect(animating("clipShape.r", clip: ##""circle""##) == [
            ##"scenes.json:5:120: error: "clipShape.r" cannot be animated on a rect node: its clip fits the node's frame, so it has no written "r" to start from (at scenes[0].nodes[0].animations[0].property)"##,
            ##"  hint: give the clip its geometry ("r") to animate it"##])
        #expect(animating("clipShape.width", clip: ##"{ "type": "rect" }"##).last == ##"  hint: give the clip its geometry ("width" and "height") to animate it"##)
        #expect(animating("clipShape.cx", clip: ##""ellipse""##).last == ##"  hint: give the clip its geometry ("rx" and "ry") to animate it"##)
        // A clip that is itself wrong is reported once, not again by its animations.
        #expect(animating("clipShape.x", clip: ##"{ "type": "rect", "width": -5, "height": 5 }"##).count == 1)
        // Sizes and radii are at least 0.
        #expect(animating("clipShape.width", clip: ##"{ "type": "rect", "width": 5, "height": 5 }"##).isEmpty)
        #expect(problems(##"{ "type": "rect", "width": 10, "height": 10, "fill": "#fff", "clipShape": { "type": "circle", "r": 5 }, "animations": [{ "property": "clipShape.r", "to": -1, "duration": 1 }] }"##)
            == [##"scenes.json:5:161: error: "to" must be between 0 and 1,000,000, not -1 (at scenes[0].nodes[0].animations[0].to)"##])
    }

    @Test func theSchemaRejectsTheClipAndAnchorCorpusFilesToo() throws {
        // What a schema can say (shape names, keys per type, sizes given together, both anchors) it says too.
        let names = ["bad-clip-shape", "bad-anchor-point"]
        try SchemaValidation.expectCorpusFilesRejected(names)
        // ...and accepts every form the decoder accepts.
        let good = Self.document(##"""
            { "type": "group", "clipShape": "capsule", "anchorPoint": { "x": 1, "y": 2 }, "scaleAnchorPoint": { "x": 0, "y": 0 },
              "children": [
                { "type": "rect", "width": 9, "height": 9, "fill": "#fff", "clipShape": { "type": "rect", "cornerRadius": 2 } },
                { "type": "rect", "width": 9, "height": 9, "fill": "#fff", "clipShape": { "type": "rect", "x": 1, "width": 5, "height": 5 } },
                { "type": "rect", "width": 9, "height": 9, "fill": "#fff", "clipShape": { "type": "circle", "cx": 1, "r": 5 } },
                { "type": "rect", "width": 9, "height": 9, "fill": "#fff", "clipShape": { "type": "ellipse", "rx": 5, "ry": 2 } },
                { "type": "rect", "width": 9, "height": 9, "fill": "#fff", "clipShape": { "type": "path", "d": "M 0 0 L 5 0 L 0 5 Z" } },
                { "type": "rect", "width": 9, "height": 9, "fill": "#fff", "clipShape": { "type": "capsule", "width": 5, "height": 2 },
                  "animations": [{ "property": "clipShape.x", "to": 3, "duration": 1 }] }
              ] }
            """##)
        _ = try DocumentFixtures.decode(good)
        try SchemaValidation.expectValid([.init(name: "good", definition: nil, text: good)], schema: DocumentationTests.schemaURL)
    }
}
