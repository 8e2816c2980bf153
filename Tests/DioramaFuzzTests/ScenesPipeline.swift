import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation

/// What a scenes file goes through when a user opens it, in-process and without sound: decoding and checks, the
/// cue schedule at 48 kHz, snapshots at a few times of one scene, and a frame of it drawn at 64x36.
enum ScenesPipeline {
    static let stages = ["decoded", "scheduled", "evaluated", "rendered"]

    static func corpus() throws -> JSONCorpus {
        let root = FuzzSettings.repositoryRoot
        var urls = [root.appendingPathComponent("scenes.json"), root.appendingPathComponent("bench/peer/scenes.json")]
        // The scenes file that scenes.verify.json's expectations are about is scenes.json beside it.
        for folder in ["Tests/DioramaCLITests/Fixtures", "Tests/DioramaDocumentTests/Corpus"] {
            let directory = root.appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
            urls += names.map { directory.appendingPathComponent($0) }
        }
        var seeds = try urls.map(JSONCorpus.seed(at:))
        seeds.append(JSONCorpus.seed(text: DocumentFixtures.oceanJSON, name: "fixture-ocean.json", beside: root))
        seeds.append(JSONCorpus.seed(
            text: LottieFixtures.scenes(nodes: #"{ "type": "lottie", "path": "media/art/bounce.json", "x": 0, "y": 0, "width": 200, "height": 200 }"#),
            name: "fixture-lottie.json", beside: root))
        return JSONCorpus(seeds: seeds, numberNudgeShare: 0.65) { seed in (try? DocumentLoader.decode(bytes: seed.bytes, path: seed.path)) != nil }
    }

    static func run(_ bytes: [UInt8], path: String, random: inout FuzzRandom) -> Set<String> {
        var reached: Set<String> = []
        guard let loaded = try? DocumentLoader.decode(bytes: bytes, path: path) else { return reached }
        reached.insert("decoded")
        let document = loaded.document
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        _ = schedule.cues.count
        reached.insert("scheduled")
        guard !document.scenes.isEmpty else { return reached }
        let evaluator = SceneEvaluator(document: document)
        let scene = random.below(document.scenes.count)
        let duration = document.scenes[scene].duration.doubleValue
        let times = [0, random.unit() * duration, duration]
        let snapshots = times.map { evaluator.snapshot(scene: scene, at: $0) }
        reached.insert("evaluated")
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory))
        var rendered = false
        for snapshot in snapshots.prefix(2) {
            if (try? renderer.render(snapshot, width: 64, height: 36)) != nil { rendered = true }
        }
        if rendered { reached.insert("rendered") }
        return reached
    }
}
