import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// A dotLottie archive (`.lottie`, a zip) plays as the animation JSON inside it: the same pixels and the same
/// cues on its markers as the `.json`, and a damaged, truncated or bomb archive is a located error with a hint.
@Suite struct DotLottieTests {
    let folder: TemporaryFolder
    let animation = LottieFixtures.json(markers: [("pluck", 15, 0), ("end", 45, 5)])

    init() throws {
        folder = try TemporaryFolder()
        try Data(animation.utf8).write(to: folder.url.appendingPathComponent("square.json"))
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: folder.url.appendingPathComponent(name))
    }

    func snapshot(_ path: String, frame: Int) -> Snapshot {
        let rect = Rect(x: 50, y: 50, width: 100, height: 100)
        return Snapshot(canvas: Size(width: 200, height: 200), background: .solid(.black), nodes: [
            NodeSnapshot(bounds: rect, content: .lottie(LottieSnapshot(path: path, rect: rect, frame: frame, inPoint: 0))),
        ])
    }

    func decode(path: String, cues: String = "") throws(DocumentLoadError) -> LoadedDocument {
        let scenes = LottieFixtures.scenes(nodes: #"{ "type": "lottie", "id": "sq", "path": "\#(path)", "delay": 0.25, "repeat": 2 }"#, cues: cues)
        return try DocumentLoader.decode(bytes: Array(scenes.utf8), path: folder.path("scenes.json"), archives: DotLottieArchive.read)
    }

    /// The first error of a scenes file naming `path`: message, hint, line:column and JSON path.
    func problem(path: String) -> Diagnostic? {
        do {
            _ = try decode(path: path)
            return nil
        } catch {
            return error.diagnostics.first
        }
    }

    @Test func aDotLottieArchiveDrawsTheSamePixelsAsItsJSON() throws {
        let json = Array(animation.utf8)
        let manifest = Array(#"{ "version": "1", "animations": [{ "id": "square" }] }"#.utf8)
        try write(LottieFixtures.zip([("manifest.json", manifest, false), ("animations/square.json", json, true)]), to: "v1.lottie")
        try write(LottieFixtures.zip([("manifest.json", Array(#"{ "version": "2", "animations": [{ "id": "s" }] }"#.utf8), true),
                            ("a/s.json", json, false)]), to: "v2.lottie")
        let renderer = FrameRenderer(imageDirectory: folder.url)
        for frame in [0, 15, 40] {
            let expected = try renderer.render(snapshot("square.json", frame: frame), width: 200, height: 200)
            #expect(try renderer.render(snapshot("v1.lottie", frame: frame), width: 200, height: 200).bytes == expected.bytes)
            #expect(try renderer.render(snapshot("v2.lottie", frame: frame), width: 200, height: 200).bytes == expected.bytes)
        }
        #expect(renderer.warnings.isEmpty)
    }

    @Test func markersInsideAnArchiveFireCuesOnTheSameSamples() throws {
        try write(LottieFixtures.zip([("animations/square.json", Array(animation.utf8), true)]), to: "drum.lottie")
        let cues = #"{ "sound": "tick", "node": "sq", "on": { "marker": "pluck" } }, { "sound": "tick", "node": "sq", "on": { "marker": "end" }, "offset": 0.01 }"#
        let fromJSON = CueSchedule(document: try decode(path: "square.json", cues: cues).document, sampleRate: 48_000)
        let loaded = try decode(path: "drum.lottie", cues: cues)
        let fromArchive = CueSchedule(document: loaded.document, sampleRate: 48_000)
        #expect(fromArchive.cues.count == 4)
        #expect(fromArchive.cues.map(\.sampleIndex) == fromJSON.cues.map(\.sampleIndex))
        #expect(fromArchive.cues.map(\.firing.trigger) == fromJSON.cues.map(\.firing.trigger))
        guard case .lottie(let content) = loaded.document.scenes[0].nodes[0].content else { Issue.record("no lottie"); return }
        #expect(content.path == "drum.lottie")
        #expect(content.animation.markers.map(\.name) == ["pluck", "end"])
    }

    @Test func theManifestChoosesTheAnimation() throws {
        let other = LottieFixtures.json(outPoint: "30")
        let manifest = Array(#"{ "animations": [{ "id": "second" }, { "id": "first" }] }"#.utf8)
        try write(LottieFixtures.zip([("animations/first.json", Array(other.utf8), false), ("manifest.json", manifest, false),
                            ("animations/second.json", Array(animation.utf8), false)]), to: "two.lottie")
        guard case .lottie(let content) = try decode(path: "two.lottie").document.scenes[0].nodes[0].content else {
            Issue.record("no lottie"); return
        }
        #expect(content.animation.outPoint == 60)
    }

    @Test func animationChoosesAnotherAnimationOfTheArchiveAndAnUnknownIdListsThem() throws {
        let other = LottieFixtures.json(outPoint: "30", markers: [("only", 10, 0)])
        let manifest = Array(#"{ "version": "2", "animations": [{ "id": "first" }, { "id": "second" }] }"#.utf8)
        try write(LottieFixtures.zip([("manifest.json", manifest, false), ("a/first.json", Array(animation.utf8), false),
                                      ("a/second.json", Array(other.utf8), true)]), to: "two.lottie")
        try Data(other.utf8).write(to: folder.url.appendingPathComponent("second.json"))
        func scenes(_ extra: String) -> String {
            LottieFixtures.scenes(nodes: #"{ "type": "lottie", "id": "sq", "path": "two.lottie"\#(extra) }"#,
                                  cues: #"{ "sound": "tick", "node": "sq", "on": { "marker": "only" } }"#)
        }
        let loaded = try DocumentLoader.decode(bytes: Array(scenes(#", "animation": "second""#).utf8), path: folder.path("scenes.json"),
                                               archives: DotLottieArchive.read)
        guard case .lottie(let content) = loaded.document.scenes[0].nodes[0].content else { Issue.record("no lottie"); return }
        #expect(content.animation.outPoint == 30 && content.chosenAnimation == "second")
        #expect(CueSchedule(document: loaded.document, sampleRate: 48_000).cues.map(\.sampleIndex) == [16_000])
        // It draws the chosen animation's pixels, as its own JSON file would.
        let snapshot = SceneEvaluator.snapshot(of: loaded.document, scene: 0, at: 0.5)
        guard case .lottie(let shown) = snapshot.nodes[0].content else { Issue.record("no lottie"); return }
        #expect(shown.animation == "second")
        let renderer = FrameRenderer(imageDirectory: folder.url)
        var chosen = shown
        chosen.path = "second.json"
        chosen.animation = nil
        let expected = try renderer.render(Snapshot(canvas: snapshot.canvas, background: snapshot.background,
                                                    nodes: [NodeSnapshot(bounds: snapshot.nodes[0].bounds, content: .lottie(chosen))]),
                                           width: 200, height: 200)
        let drawn = try renderer.render(Snapshot(canvas: snapshot.canvas, background: snapshot.background,
                                                 nodes: [NodeSnapshot(bounds: snapshot.nodes[0].bounds, content: .lottie(shown))]),
                                        width: 200, height: 200)
        #expect(drawn.bytes == expected.bytes)
        #expect(renderer.warnings.isEmpty, "\(renderer.warnings)")

        do {
            _ = try DocumentLoader.decode(bytes: Array(scenes(#", "animation": "secnd""#).utf8), path: folder.path("scenes.json"),
                                          archives: DotLottieArchive.read)
            Issue.record("an unknown animation decodes")
        } catch {
            let found = try #require(error.diagnostics.first)
            #expect(found.message == #"the Lottie file "two.lottie" has no animation "secnd""#)
            #expect(found.path == "scenes[0].nodes[0].animation")
            #expect(found.hint == #"did you mean "second"? its animations are "first" and "second""#)
        }
        do {
            let json = LottieFixtures.scenes(nodes: #"{ "type": "lottie", "id": "sq", "path": "second.json", "animation": "second" }"#)
            _ = try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json"), archives: DotLottieArchive.read)
            Issue.record("an animation chosen in a JSON file decodes")
        } catch {
            let found = try #require(error.diagnostics.first)
            #expect(found.message.contains("chooses one inside a dotLottie archive"), "\(found.message)")
            #expect(found.path == "scenes[0].nodes[0].animation")
        }
    }

    @Test func imagesInsideTheArchiveAreEmbedded() throws {
        let json = #"{"v": "5.5.7", "fr": 30, "ip": 0, "op": 10, "w": 4, "h": 4, "assets": [{"id": "img", "w": 1, "h": 1, "u": "/images/", "p": "dot.png", "e": 0}], "layers": []}"#
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        try write(LottieFixtures.zip([("animations/a.json", Array(json.utf8), false), ("images/dot.png", png, false)]), to: "image.lottie")
        let loaded = try LottieFileReader.load(path: folder.path("image.lottie"), shownPath: "image.lottie", archives: DotLottieArchive.read).get()
        let text = String(decoding: loaded.json, as: UTF8.self)
        #expect(text.contains(#""p": "data:image/png;base64,iVBORw==""#))
        #expect(text.contains(#""e": 1"#) && !text.contains("dot.png"))
        // Without the image in the archive, the asset is refused as a file rlottie would have to find.
        try write(LottieFixtures.zip([("animations/a.json", Array(json.utf8), false)]), to: "noimage.lottie")
        #expect(problem(path: "noimage.lottie")?.message.contains("image asset") == true)
    }

    @Test func aDamagedArchiveIsALocatedErrorWithAHint() throws {
        let json = Array(animation.utf8)
        let good = LottieFixtures.zip([("animations/square.json", json, true)])
        try write(Array("PK not really".utf8), to: "text.lottie")
        try write(Array(good.prefix(good.count / 2)), to: "truncated.lottie")
        var flipped = good
        flipped[30 + 22 + 5] ^= 0xFF  // inside the deflated data, past the local header and name
        try write(flipped, to: "flipped.lottie")
        try write(LottieFixtures.zip([("animations/square.json", json, true)], declaredSize: ["animations/square.json": 40 << 20]), to: "bomb.lottie")
        try write(LottieFixtures.zip([("animations/square.json", json, true)], declaredSize: ["animations/square.json": 100]), to: "liar.lottie")
        try write(LottieFixtures.zip([("manifest.json", Array("{}".utf8), false)]), to: "empty.lottie")
        try write(LottieFixtures.zip([("animations/square.json", Array(#"{"fr": 30,, }"#.utf8), true)]), to: "broken.lottie")
        for (file, message) in [
            ("text.lottie", "is not a zip archive, or is truncated: it has no end record"),
            ("truncated.lottie", "is not a zip archive, or is truncated: it has no end record"),
            ("flipped.lottie", #"is damaged: "animations/square.json""#),
            ("bomb.lottie", #"unpacks to more than 16 MiB for "animations/square.json" (a zip bomb?)"#),
            ("liar.lottie", #"is damaged: "animations/square.json" does not inflate to its 100 bytes"#),
            ("empty.lottie", "holds no Lottie animation (no animations/NAME.json or a/NAME.json)"),
            ("broken.lottie", #"is not valid JSON"#),
        ] {
            let found = try #require(problem(path: file), "\(file)")
            #expect(found.message.hasPrefix(#"the Lottie file "\#(file)"#) && found.message.contains(message), "\(found.message)")
            #expect(found.hint != nil, "\(file)")
            #expect(found.path == "scenes[0].nodes[0].path")
            #expect("\(found.line):\(found.column)" == "7:55", "\(file)")
        }
        // Inside the archive, a JSON problem names the entry and its line:column.
        #expect(problem(path: "broken.lottie")?.message.contains("broken.lottie/animations/square.json:1:") == true)
        #expect(problem(path: "empty.lottie")?.hint?.contains(#""manifest.json""#) == true)
        // The renderer draws such a file as nothing, with one warning.
        let renderer = FrameRenderer(imageDirectory: folder.url)
        _ = try renderer.render(snapshot("bomb.lottie", frame: 0), width: 50, height: 50)
        #expect(renderer.warnings.count == 1)
    }

    @Test func withoutAnArchiveReaderADotLottieIsRefusedPlainly() throws {
        try write(LottieFixtures.zip([("animations/square.json", Array(animation.utf8), false)]), to: "a.lottie")
        let scenes = LottieFixtures.scenes(nodes: #"{ "type": "lottie", "path": "a.lottie" }"#)
        #expect(throws: DocumentLoadError.self) { try DocumentLoader.decode(bytes: Array(scenes.utf8), path: folder.path("scenes.json")) }
    }
}
