import DioramaDocument
import DioramaRender
import DioramaTimeline
import Foundation
import Testing

/// The shipped playlist (scenes.json at the repository root): golden images of each scene at fixed times,
/// and a frame of every scene in every language.
///
/// Goldens are 320x180 PNGs in `Goldens/`. Tolerance: every channel of every pixel within 8 of 255 of the
/// golden, and at most 0.5 % of pixels differing by more than 2 (room for font and libm versions, not for a
/// moved node). A failing comparison writes `NAME-actual.png` and `NAME-diff.png` (differences amplified
/// eight times) into `diorama-golden-failures` in the temporary directory and says where.
/// To accept new pictures: `DIORAMA_UPDATE_GOLDENS=1 swift test --filter ShippedScenesTests`, then look at them.
@Suite struct ShippedScenesTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    /// (scene id, scene seconds, language): the motion at its extremes and in between, labels, the breath, the labels
    /// cross-fading (the flower at 5.8 s, breathing at 4.8 s), the elevator's passenger waiting, walking in and inside.
    static let cases: [(scene: String, time: Double, language: String)] = [
        ("ocean", 1.2, "en"), ("ocean", 2.7, "en"),
        ("swing", 1.6, "en"), ("swing", 3.2, "en"), ("swing", 4.0, "en"),
        ("flower", 3.5, "en"), ("flower", 5.0, "en"), ("flower", 3.5, "ja"), ("flower", 5.0, "zh"), ("flower", 5.8, "ja"),
        ("breathing", 3.0, "en"), ("breathing", 6.5, "zh"), ("breathing", 4.8, "ja"),
        ("elevator", 3.0, "en"), ("elevator", 9.0, "ja"), ("elevator", 12.0, "en"), ("record-player", 1.0, "zh"), ("record-player", 9.0, "en"),
        ("kaleidoscope", 2.5, "en"),
        ("windmill", 3.0, "en"), ("windmill", 10.0, "zh"),
        // The ball mid-fall, squashed on its first landing (frame 30 at 2 s), and rising inside the spreading ring.
        ("bounce", 1.5, "en"), ("bounce", 2.0, "zh"), ("bounce", 2.6, "ja"),
        // The machine at three moments: the fan and the worm wheel turned in depth, the belt's tread between dashes.
        ("gears", 2.3, "en"), ("gears", 7.6, "zh"), ("gears", 12.4, "ja"),
        // Rain, smoke and the fire; the confetti bursting under the moon after the rain.
        ("particles", 4.0, "en"), ("particles", 14.5, "ja"),
    ]

    private func load() throws -> LoadedDocument {
        try DocumentLoader.load(path: Self.repositoryRoot.appendingPathComponent("scenes.json").path)
    }

    @Test(arguments: cases.indices)
    func sceneMatchesItsGolden(_ index: Int) throws {
        let (sceneID, time, language) = Self.cases[index]
        let loaded = try load()
        let scene = try #require(loaded.document.scenes.firstIndex { $0.id == sceneID }, "no scene \(sceneID)")
        let snapshot = SceneEvaluator(document: loaded.document).snapshot(scene: scene, at: time, language: language)
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory))
        let actual = try renderer.render(snapshot, width: 320, height: 180)
        let name = "\(sceneID)-\(String(format: "%.2f", time))-\(language)"
        let golden = Self.goldens.appendingPathComponent(name + ".png")

        if ProcessInfo.processInfo.environment["DIORAMA_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            try actual.writePNG(to: golden)
            return
        }
        let expected = try RenderedFrame(contentsOfPNG: golden)
        #expect(expected.width == actual.width && expected.height == actual.height)
        guard expected.width == actual.width, expected.height == actual.height else { return }

        var worst = 0, noticeable = 0
        var diff = RenderedFrame(width: actual.width, height: actual.height)
        for i in stride(from: 0, to: actual.bytes.count, by: 4) {
            var pixelWorst = 0
            for channel in 0..<3 {
                let difference = abs(Int(actual.bytes[i + channel]) - Int(expected.bytes[i + channel]))
                pixelWorst = max(pixelWorst, difference)
                diff.bytes[i + channel] = UInt8(min(255, difference * 8))
            }
            diff.bytes[i + 3] = 255
            worst = max(worst, pixelWorst)
            if pixelWorst > 2 { noticeable += 1 }
        }
        let share = Double(noticeable) / Double(actual.width * actual.height)
        if worst > 8 || share > 0.005 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-golden-failures")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try actual.writePNG(to: folder.appendingPathComponent(name + "-actual.png"))
            try diff.writePNG(to: folder.appendingPathComponent(name + "-diff.png"))
            Issue.record("""
                \(name) differs from \(golden.path): largest channel difference \(worst) (tolerance 8), \
                \(String(format: "%.2f", share * 100)) % of pixels off by more than 2 (tolerance 0.5 %); \
                wrote \(name)-actual.png and \(name)-diff.png to \(folder.path)
                """)
        }
    }

    @Test func everySceneRendersInEveryLanguage() throws {
        let loaded = try load()
        let document = loaded.document
        #expect(document.languages.available == ["en", "zh", "ja"])
        let evaluator = SceneEvaluator(document: document)
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory))
        for (index, scene) in document.scenes.enumerated() {
            for language in document.languages.available {
                for time in [0, scene.duration.doubleValue / 2, scene.duration.doubleValue - 0.01] {
                    let snapshot = evaluator.snapshot(scene: index, at: time, language: language)
                    let frame = try renderer.render(snapshot, width: 160, height: 90)
                    // Not a blank frame: the picture has some variety.
                    let distinct = Set(stride(from: 0, to: frame.bytes.count, by: 4 * 37).map { frame.pixel(x: ($0 / 4) % 160, y: $0 / 4 / 160) })
                    #expect(distinct.count > 10, "\(scene.id) at \(time) s in \(language) looks blank")
                }
            }
            // Titles exist in every language.
            for language in document.languages.available {
                #expect(scene.title.variants.contains { $0.language == language }, "\(scene.id) has no \(language) title")
            }
        }
        #expect(renderer.warnings.isEmpty, "\(renderer.warnings)")
    }

    @Test func breathingLabelsAreLocalized() throws {
        let loaded = try load()
        let document = loaded.document
        let flower = try #require(document.scenes.firstIndex { $0.id == "flower" })
        let evaluator = SceneEvaluator(document: document)
        func labels(_ language: String) -> [String] {
            func texts(_ nodes: [NodeSnapshot]) -> [String] {
                nodes.flatMap { node -> [String] in
                    switch node.content {
                    case .text(let text): [text.text]
                    case .group(let children): texts(children)
                    default: []
                    }
                }
            }
            return texts(evaluator.snapshot(scene: flower, at: 3, language: language).nodes)
        }
        #expect(labels("en") == ["Breathe In", "Breathe Out"])
        #expect(labels("zh") == ["吸气", "呼气"])
        #expect(labels("ja") == ["息を吸って", "息を吐いて"])
    }

    @Test func pngFilesReadBackExactly() throws {
        // The fast PNG writer: opaque frames as RGB, translucent ones as RGBA (premultiplied round trip within 1).
        let loaded = try load()
        let snapshot = SceneEvaluator(document: loaded.document).snapshot(scene: 0, at: 1)
        let opaque = try FrameRenderer().render(snapshot, width: 200, height: 120)
        var translucent = RenderedFrame(width: 3, height: 1)
        translucent.bytes = [0, 0, 128, 128, 10, 20, 30, 255, 0, 0, 0, 0]  // half red, an opaque colour, clear
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try opaque.writePNG(to: folder.appendingPathComponent("opaque.png"))
        #expect(try RenderedFrame(contentsOfPNG: folder.appendingPathComponent("opaque.png")) == opaque)
        try translucent.writePNG(to: folder.appendingPathComponent("translucent.png"))
        let back = try RenderedFrame(contentsOfPNG: folder.appendingPathComponent("translucent.png"))
        #expect(zip(back.bytes, translucent.bytes).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(back.bytes)")
        // Deterministic bytes.
        try opaque.writePNG(to: folder.appendingPathComponent("again.png"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("opaque.png")) == Data(contentsOf: folder.appendingPathComponent("again.png")))
    }

    @Test func aFrameFileIsNeverClobberedUnlessReplacing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-frame-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("frame-000000.png")
        try Data("a user's file".utf8).write(to: target)
        let frame = RenderedFrame(width: 2, height: 2)
        #expect(throws: RenderError.self) { try frame.writePNG(to: target, replacing: false) }
        #expect(try Data(contentsOf: target) == Data("a user's file".utf8), "left as it was")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["frame-000000.png"], "no temporary file left")
        try frame.writePNG(to: target, replacing: true)
        #expect(try RenderedFrame(contentsOfPNG: target) == frame)
    }
}
