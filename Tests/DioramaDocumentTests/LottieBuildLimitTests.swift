import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing

/// What rlottie would build from a Lottie file (repeater copies, shapes, layers through precompositions, keyframes)
/// and where its image assets are, checked in pure Swift before rlottie sees the file, located in the Lottie file
/// and at the scenes file's node. Nothing here reaches rlottie.
@Suite struct LottieBuildLimitTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    private func write(_ text: String, to name: String) throws {
        let url = folder.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The first error `check` gives for a node playing `name`, with its place in the scenes file.
    private func problem(_ name: String) -> (message: String, hint: String?, place: String)? {
        do {
            _ = try DocumentLoader.decode(bytes: Array(LottieFixtures.scenes(nodes: #"{ "type": "lottie", "path": "\#(name)" }"#).utf8),
                                          path: folder.path("scenes.json"))
            return nil
        } catch {
            return error.diagnostics.first.map { ($0.message, $0.hint, "\($0.line):\($0.column)") }
        }
    }

    /// A shape layer whose shapes are `items` (JSON array bodies).
    static func shapeLayer(_ items: String) -> String {
        """
        {"ddd": 0, "ind": 1, "ty": 4, "ip": 0, "op": 60, "st": 0,
         "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [50, 50, 0]}},
         "shapes": [\(items)]}
        """
    }

    static let rect = #"{"ty": "rc", "s": {"a": 0, "k": [10, 10]}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}}"#
    static func repeater(_ copies: String) -> String {
        #"{"ty": "rp", "c": \#(copies), "o": {"a": 0, "k": 0}, "tr": {"ty": "tr", "p": {"a": 0, "k": [10, 0]}}}"#
    }

    @Test func repeaterCopiesAreBounded() throws {
        try write(LottieFixtures.json(layers: "[" + Self.shapeLayer(Self.rect + ",\n" + Self.repeater(#"{"a": 0, "k": 1000000000}"#)) + "]"),
                  to: "copies.json")
        let found = try #require(problem("copies.json"))
        #expect(found.message == #"the Lottie file "copies.json" has a repeater ("c", at copies.json:6:1, layers[0].shapes[1]) that makes 1000000000 copies; the limit is 1000"#)
        #expect(found.place == "7:43")
        // Animated copies: rlottie builds the largest keyframe's.
        let animated = #"{"a": 1, "k": [{"t": 0, "s": [3]}, {"t": 30, "s": [50000]}]}"#
        try write(LottieFixtures.json(layers: "[" + Self.shapeLayer(Self.rect + "," + Self.repeater(animated)) + "]"), to: "animated.json")
        #expect(problem("animated.json")?.message.contains("makes 50000 copies; the limit is 1000") == true)
        // A handful of copies plays.
        try write(LottieFixtures.json(layers: "[" + Self.shapeLayer(Self.rect + "," + Self.repeater(#"{"a": 0, "k": 12}"#)) + "]"), to: "few.json")
        #expect(problem("few.json") == nil)
    }

    @Test func nestedRepeatersAndPrecompositionsAreCountedAsBuilt() throws {
        // 100 copies of a group holding 100 copies of a group holding 100 copies: a million shapes from a few lines.
        var items = Self.rect + "," + Self.repeater("100")
        for _ in 0..<2 { items = #"{"ty": "gr", "it": [\#(items), {"ty": "tr"}]}, "# + Self.repeater("100") }
        try write(LottieFixtures.json(layers: "[" + Self.shapeLayer(items) + "]"), to: "nested.json")
        let nested = try #require(problem("nested.json"))
        #expect(nested.message.hasPrefix(#"the Lottie file "nested.json" makes rlottie build "#))
        #expect(nested.message.hasSuffix("shapes (counting repeater copies and each use of a precomposition); the limit is 100000"))
        // Precompositions used by 100 layers each, three deep: a million layers.
        func precompLayers(_ id: String) -> String {
            "[" + (0..<100).map { #"{"ty": 0, "refId": "\#(id)", "ind": \#($0 + 1), "ip": 0, "op": 60, "st": 0, "ks": {}}"# }.joined(separator: ",") + "]"
        }
        let assets = #""assets": [{"id": "a", "layers": [\#(Self.shapeLayer(Self.rect))]}, {"id": "b", "layers": \#(precompLayers("a"))},"#
            + #" {"id": "c", "layers": \#(precompLayers("b"))}],"#
        try write(LottieFixtures.json(layers: precompLayers("c")).replacingOccurrences(of: #""assets": [],"#, with: assets), to: "fan.json")
        #expect(problem("fan.json")?.message == #"the Lottie file "fan.json" makes rlottie build 2010100 layers (counting each use of a precomposition); the limit is 10000"#)
        // A precomposition that uses itself would be built forever.
        let loop = #""assets": [{"id": "a", "layers": [{"ty": 0, "refId": "a", "ip": 0, "op": 60, "st": 0, "ks": {}}]}],"#
        try write(LottieFixtures.json(layers: #"[{"ty": 0, "refId": "a", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#)
                    .replacingOccurrences(of: #""assets": [],"#, with: loop), to: "loop.json")
        #expect(problem("loop.json")?.message.hasPrefix(#"the Lottie file "loop.json" has a precomposition "a" that uses itself"#) == true)
    }

    @Test func keyframesAreBounded() throws {
        let frames = (0...100_000).map { #"{"t":\#($0),"s":[0]}"# }.joined(separator: ",")
        let layer = Self.shapeLayer(#"{"ty": "rc", "s": {"a": 1, "k": [\#(frames)]}, "p": {"a": 0, "k": [0, 0]}}"#)
        try write(LottieFixtures.json(layers: "[" + layer + "]"), to: "frames.json")
        #expect(problem("frames.json")?.message == #"the Lottie file "frames.json" has 100001 keyframes; the limit is 100000"#)
    }

    /// After Effects' exporter (bodymovin) writes image assets into images/ beside the JSON: `"u": "images/"`.
    static func imageAsset(u: String, p: String) -> String {
        #""assets": [{"id": "image_0", "w": 10, "h": 10, "u": "\#(u)", "p": "\#(p)", "e": 0}],"#
    }

    @Test func imageAssetsMustStayInsideTheScenesFolder() throws {
        let layers = #"[{"ddd": 0, "ind": 1, "ty": 2, "refId": "image_0", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#
        for (name, u, p) in [("escape", "/../../", "outside.png"), ("up", "../../", "outside.png"), ("url", "", "https://example.com/a.png"),
                             ("exported", "images/", "img_0.png"), ("embedded", "", "data:image/png;base64,AAAA")] {
            var json = LottieFixtures.json(layers: layers).replacingOccurrences(of: #""assets": [],"#, with: Self.imageAsset(u: u, p: p))
            if name == "embedded" { json = json.replacingOccurrences(of: #""e": 0"#, with: #""e": 1"#) }
            try write(json, to: "art/\(name).json")
        }
        let escape = try #require(problem("art/escape.json"))
        #expect(escape.message == #"the Lottie file "art/escape.json" has an image asset (at art/escape.json:2:13, assets[0]) at "/../../outside.png", an absolute path"#)
        #expect(escape.hint?.contains(#""u": "images/""#) == true)
        #expect(problem("art/up.json")?.message.hasSuffix(#"at "../../outside.png", outside the scenes file's folder"#) == true)
        #expect(problem("art/url.json")?.message.hasSuffix(#"at "https://example.com/a.png", a URL; nothing is fetched by URL"#) == true)
        #expect(problem("art/exported.json") == nil)
        #expect(problem("art/embedded.json") == nil)
        // Up from art/ to the scenes folder is still inside it.
        try write(LottieFixtures.json(layers: layers).replacingOccurrences(of: #""assets": [],"#, with: Self.imageAsset(u: "../shared/", p: "a.png")),
                  to: "art/shared.json")
        #expect(problem("art/shared.json") == nil)
    }
}
