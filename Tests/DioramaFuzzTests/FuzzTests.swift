import Foundation
import Testing

/// A deterministic mutation fuzzer of our own (no libFuzzer: it runs in the ordinary test build) over what users and
/// controllers hand the program: scenes files, SVG and Lottie art, OSC packets. A trap kills the process and fails
/// the run; what each test asserts is that the inputs kept reaching the later stages, so the fuzzer cannot quietly
/// degrade into feeding the parser its first error. The seed is fixed; `DIORAMA_FUZZ_SEED` and
/// `DIORAMA_FUZZ_ITERATIONS` (a multiplier) make the long runs README's "Fuzzing" describes.
@Suite("Fuzzing: mutated files and packets do not trap")
struct FuzzTests {
    @Test("scenes files: decoded, scheduled at 48 kHz, evaluated and drawn at 64x36")
    func scenesFiles() throws {
        let corpus = try ScenesPipeline.corpus()
        var random = FuzzRandom(seed: FuzzSettings.seed(for: "scenes"))
        var run = FuzzRun(corpus: "scenes", stages: ScenesPipeline.stages)
        // Every seed as it is, then mutated ones.
        for seed in corpus.seeds {
            run.save(seed.bytes)
            run.record(ScenesPipeline.run(seed.bytes, path: seed.path, random: &random))
        }
        for _ in 0..<FuzzSettings.iterations(240) {
            let (seed, bytes) = corpus.input(random: &random)
            run.save(bytes)
            run.record(ScenesPipeline.run(bytes, path: seed.path, random: &random))
        }
        print(run.summary)
        // Most of the checker's corpus fails on purpose, and scenes.json fails its checks on most changes but a number's.
        #expect(run.share("decoded") >= 0.1, "\(run.summary)")
        #expect(run.share("scheduled") >= 0.1, "\(run.summary)")
        #expect(run.share("evaluated") >= 0.1, "\(run.summary)")
        #expect(run.share("rendered") >= 0.1, "\(run.summary)")
    }

    @Test("SVG art: checked, parsed by librsvg and drawn at 48x48")
    func svgArt() throws {
        let corpus = try SVGPipeline.corpus()
        var random = FuzzRandom(seed: FuzzSettings.seed(for: "svg"))
        var run = FuzzRun(corpus: "svg", stages: SVGPipeline.stages)
        for _ in 0..<FuzzSettings.iterations(300) {
            let bytes = SVGPipeline.input(corpus: corpus, random: &random)
            run.save(bytes)
            run.record(SVGPipeline.run(bytes, random: &random))
        }
        print(run.summary)
        #expect(run.share("accepted") >= 0.4, "\(run.summary)")
        #expect(run.share("parsed") >= 0.25, "\(run.summary)")
        #expect(run.share("drawn") >= 0.2, "\(run.summary)")
    }

    @Test("Lottie files: checked, loaded by rlottie and drawn at 32x32")
    func lottieFiles() throws {
        let corpus = try LottiePipeline.corpus()
        var random = FuzzRandom(seed: FuzzSettings.seed(for: "lottie"))
        var run = FuzzRun(corpus: "lottie", stages: LottiePipeline.stages)
        for _ in 0..<FuzzSettings.iterations(300) {
            let (seed, bytes) = corpus.input(random: &random)
            run.save(bytes)
            run.record(LottiePipeline.run(bytes, path: seed.path, random: &random))
        }
        print(run.summary)
        #expect(run.share("accepted") >= 0.4, "\(run.summary)")
        #expect(run.share("loaded") >= 0.25, "\(run.summary)")
        #expect(run.share("rendered") >= 0.25, "\(run.summary)")
    }

    @Test("OSC packets: decoded and parsed as show commands")
    func oscPackets() {
        let corpus = OSCPipeline.corpus()
        var random = FuzzRandom(seed: FuzzSettings.seed(for: "osc"))
        var run = FuzzRun(corpus: "osc", stages: OSCPipeline.stages)
        for _ in 0..<FuzzSettings.iterations(2_000) {
            let bytes = OSCPacketModel.input(corpus: corpus, random: &random)
            run.save(bytes)
            run.record(OSCPipeline.run(bytes))
        }
        print(run.summary)
        #expect(run.share("decoded") >= 0.4, "\(run.summary)")
        #expect(run.share("parsed") >= 0.2, "\(run.summary)")
        #expect(run.share("command") >= 0.15, "\(run.summary)")
    }

    /// Runs one saved input again (`DIORAMA_FUZZ_REPLAY=FILE`, `DIORAMA_FUZZ_REPLAY_KIND=scenes|svg|lottie|osc`), to
    /// minimise what a long run found.
    @Test("a saved input, replayed", .enabled(if: ProcessInfo.processInfo.environment["DIORAMA_FUZZ_REPLAY"] != nil))
    func replay() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment["DIORAMA_FUZZ_REPLAY"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var random = FuzzRandom(seed: FuzzSettings.seed)
        let besideArt = FuzzSettings.repositoryRoot.appendingPathComponent("media/art/replayed.json").path
        let besideScenes = FuzzSettings.repositoryRoot.appendingPathComponent("replayed.json").path
        let reached = switch environment["DIORAMA_FUZZ_REPLAY_KIND"] ?? "scenes" {
        case "svg": SVGPipeline.run(bytes, random: &random)
        case "lottie": LottiePipeline.run(bytes, path: besideArt, random: &random)
        case "osc": OSCPipeline.run(bytes)
        default: ScenesPipeline.run(bytes, path: besideScenes, random: &random)
        }
        print("replayed \(path): reached \(reached.sorted())")
    }
}
