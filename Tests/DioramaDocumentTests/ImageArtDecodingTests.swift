import DioramaDocument
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// The image node's art keys: an SVG element by id, a sprite sheet and its held, stepping "sprite.frame".
/// (Their errors are in Corpus/bad-image-art.json; the files themselves are checked by DioramaRenderTests.)
@Suite struct ImageArtDecodingTests {
    static func document(_ nodes: String) -> String {
        """
        { "canvas": { "width": 640, "height": 360 },
          "scenes": [{ "id": "art", "duration": 4, "nodes": [\(nodes)] }] }
        """
    }

    func image(_ loaded: LoadedDocument, _ index: Int = 0) -> ImageContent? {
        if case .image(let image) = loaded.document.scenes[0].nodes[index].content { return image }
        return nil
    }

    @Test func anElementIsKeptAsAFragmentWithOrWithoutItsHash() throws {
        let loaded = try DocumentFixtures.decode(Self.document("""
            { "type": "image", "path": "art/girl.svg", "element": "left-leg", "width": 10, "height": 10 },
            { "type": "image", "path": "art/Girl.SVG", "element": "#arm", "width": 10, "height": 10 }
            """))
        #expect(image(loaded, 0)?.element == "#left-leg")
        #expect(image(loaded, 1)?.element == "#arm" && image(loaded, 1)?.isVector == true)
        // Each element is a reference `check` looks up in the drawing, located at its "element".
        let elements = loaded.mediaReferences.compactMap { reference -> String? in
            if case .imageElement(let id) = reference.kind { return "\(id) \(reference.line):\(reference.column) \(reference.jsonPath)" }
            return nil
        }
        #expect(elements == ["#left-leg 2:108 scenes[0].nodes[0].element", "#arm 3:55 scenes[0].nodes[1].element"])
    }

    @Test func aSpriteSheetHasItsGridCountAndFrame() throws {
        let loaded = try DocumentFixtures.decode(Self.document("""
            { "type": "image", "path": "art/sheet.png", "sprite": { "columns": 4, "rows": 2 }, "width": 10, "height": 10 },
            { "type": "image", "path": "art/sheet.png", "sprite": { "columns": 4, "rows": 2, "count": 7, "frame": 6 }, "width": 10, "height": 10 }
            """))
        #expect(image(loaded, 0)?.sprite == SpriteSheet(columns: 4, rows: 2, count: 8, frame: 0))
        #expect(image(loaded, 1)?.sprite == SpriteSheet(columns: 4, rows: 2, count: 7, frame: 6))
        #expect(loaded.document.scenes[0].nodes[1].style.spriteFrame == 6)
        let sheets = loaded.mediaReferences.filter { if case .spriteSheet(4, 2) = $0.kind { return true }; return false }
        #expect(sheets.count == 2)
    }

    @Test func spriteFramesStepAndKeyframesHold() throws {
        let loaded = try DocumentFixtures.decode(Self.document("""
            { "type": "image", "path": "s.png", "sprite": { "columns": 4, "rows": 2 }, "width": 10, "height": 10,
              "animations": [{ "property": "sprite.frame", "from": 0, "to": 8, "duration": 0.8, "curve": "linear", "repeat": "forever" }] },
            { "type": "image", "path": "s.png", "sprite": { "columns": 4, "rows": 2 }, "width": 10, "height": 10,
              "animations": [{ "property": "sprite.frame", "keyframes": [{ "time": 0, "value": 2 }, { "time": 1, "value": 7 }, { "time": 2, "value": 0 }] }] }
            """))
        guard case .keyframes(let keyframes) = loaded.document.scenes[0].nodes[1].animations[0].kind else {
            Issue.record("not a track")
            return
        }
        #expect(keyframes.allSatisfy { $0.hold })
        let evaluator = SceneEvaluator(document: loaded.document)
        func frames(_ node: Int, at times: [Double]) -> [Int] {
            times.map { time in
                if case .image(let image) = evaluator.snapshot(scene: 0, at: time).nodes[node].content { return image.sprite?.frame ?? -1 }
                return -1
            }
        }
        // Each of 8 frames for 0.1 s, then again: 0.8 s shows frame 0 of the next loop.
        #expect(frames(0, at: [0, 0.05, 0.1, 0.35, 0.79, 0.8, 0.85]) == [0, 0, 1, 3, 7, 0, 0])
        // Held keyframes: no frame in between ever shows.
        #expect(frames(1, at: [0, 0.5, 0.99, 1, 1.5, 1.99, 2, 3]) == [2, 2, 2, 7, 7, 7, 0, 0])
    }

    /// A drawing is a path ending in ".svg" in any case, and nothing else is.
    @Test(arguments: [("hills.svg", true), ("HILLS.SVG", true), ("a/b.Svg", true), (".svg", true), ("été.sVg", true),
                      ("hills.png", false), ("svg", false), ("hills.svgz", false), ("hills\u{0E}svg", false),
                      ("hills.svg.png", false), ("", false), ("hills.švg", false)])
    func aVectorPathEndsInSvgInAnyCase(path: String, vector: Bool) {
        #expect(ImageContent.isVectorPath(path) == vector)
    }
}
