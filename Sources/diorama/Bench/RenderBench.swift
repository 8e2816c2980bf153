import ArgumentParser
import DioramaDocument
import DioramaFiles
import DioramaPlayer
import DioramaRender
import DioramaTimeline
import Foundation

/// Prints render costs; never passes or fails. Build with `-c release` for meaningful figures.
struct RenderBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Measure frame render cost per scene, the blur, and headless PNG throughput; prints figures.",
        discussion: """
            1. Per scene: every frame at --frame-rate (default 30) over the first --seconds of the scene \
            (default 10) is rendered with one renderer into one buffer, as the player does into its window surface \
            with SDL's software renderer (only what changed since the last frame is written; with --overlay, under the player's overlay; with \
            --threads N, each frame drawn on N threads); prints the median and 95th percentile \
            milliseconds per frame (snapshot evaluation excluded, and shown on its own). With --at S, also the \
            steadiest figure for one frame: the best of many renders of the frame at S s.
            2. A gaussian blur of a 300x300 premultiplied region at radius 20, as drawn (reduced resolution) \
            and at full resolution.
            With a Lottie node among the scenes timed: the first one's file rendered by rlottie alone and as a \
            node filling a scene, at the same size (the node's overhead, next to the cost of one frame copy).
            3. A still SVG (media/art/windmill.svg beside the scenes file, when there) drawn full-frame: its \
            cost per frame once its raster is cached, a PNG of the same size, and its uncached first frame.
            With bench/peer beside the scenes file: our renderer against rlottie on one animation written in \
            both formats (as `diorama bench peer` prints it).
            4. Throughput of `diorama render` for the whole playlist at 30 fps, PNG encoding included, into \
            a temporary folder that is removed afterwards.

            Example:
              swift build -c release && .build/release/diorama bench render scenes.json
            """
    )

    @Argument(help: "The scenes file.")
    var file: String = "scenes.json"

    @Option(help: "Output size in pixels, WIDTHxHEIGHT.")
    var size = FrameSize(argument: "1280x720")

    @Option(help: "Seconds of each scene to time.")
    var seconds: Double = 10

    @Flag(help: "Skip the PNG throughput measurement.")
    var noThroughput = false

    @Option(help: "Also list the N slowest frames of each scene (scene seconds, CPU ms and the share of the frame drawn again), and how many frames were drawn whole.")
    var slowest: Int = 0

    @Option(help: ArgumentHelp("Time only this scene (repeat for several).", valueName: "ID"))
    var scene: [String] = []

    @Option(help: "Frames per second of scene time to time (the player with vsync off draws about 180).")
    var frameRate: Double = 30

    @Option(help: "Passes over the frames; a frame's cost is its fastest pass (1 gives the spread a single run has, as in the player).")
    var passes: Int = 3

    @Option(help: ArgumentHelp("Also time the frame at this scene time alone: the best of --repeat renders, alternating with the frame a 60th of a second later so that only what stays still is cached (steady figures on a busy machine, for comparing changes). Repeatable.", valueName: "SECONDS"))
    var at: [Double] = []

    @Option(help: "Renders of each --at frame.")
    var `repeat`: Int = 200

    @Option(help: ArgumentHelp("Threads drawing each frame (repeat to compare, e.g. --threads 1 --threads 2; 0 means all cores); above 1, the CPU columns are the calling thread's alone, so read the wall clock.", valueName: "N"))
    var threads: [Int] = [1]

    @Flag(help: "Draw the player's overlay (progress bars, title, page dots) on every frame, as `diorama play` does.")
    var overlay = false

    func run() async throws {
        let (width, height): (Int, Int)
        let loaded: LoadedDocument
        do {
            (width, height) = try size.value()
            loaded = try DocumentLoader.load(path: file, archives: DotLottieArchive.read)
        } catch let error as DocumentLoadError {
            StandardStreams.writeError(error.diagnostics.map(\.description).joined(separator: "\n") + "\n")
            throw ExitCode(2)
        } catch {
            StandardStreams.writeError("\(error)\n")
            throw ExitCode(2)
        }
        let document = loaded.document
        let evaluator = SceneEvaluator(document: document)
        if let unknown = scene.first(where: { id in !document.scenes.contains { $0.id == id } }) {
            StandardStreams.writeError("no scene \(unknown) in \(file)\n")
            throw ExitCode(2)
        }
        guard frameRate > 0, frameRate <= 1000 else { throw ValidationError("--frame-rate must be 0...1000") }
        guard passes >= 1 else { throw ValidationError("--passes must be at least 1") }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let threadCounts = threads.map { $0 == 0 ? cores : $0 }
        guard threadCounts.allSatisfy({ (1...64).contains($0) }) else { throw ValidationError("--threads must be 0...64") }
        for (run, threads) in threadCounts.enumerated() {
            if run > 0 { print("") }
            try timeScenes(threads: threads, cores: cores, document: document, loaded: loaded, evaluator: evaluator, width: width, height: height)
        }
        try await timeOthers(document: document, loaded: loaded, width: width, height: height)
    }

    /// Part 1 of the discussion, on `threads` threads.
    private func timeScenes(threads: Int, cores: Int, document: Document, loaded: LoadedDocument, evaluator: SceneEvaluator,
                            width: Int, height: Int) throws {
        let clock = ContinuousClock()
        print("render cost per frame at \(width)x\(height) on \(threads) thread\(threads == 1 ? "" : "s") (\(cores) cores), \(frameRate) fps over \(seconds) s of each scene\(overlay ? " with the overlay" : ""), in ms; each frame's")
        print("fastest of \(passes) pass\(passes == 1 ? "" : "es"), by the wall clock and by this thread's CPU time (which other processes inflate less):")
        print("  scene      frames  wall median   wall p95   cpu median    cpu p95   first frame  evaluate")
        let overlayComposer = OverlayComposer(layout: OverlayLayout(canvas: Size(width: document.canvas.width, height: document.canvas.height),
                                                                    sceneCount: document.scenes.count))
        let playlist = PlaylistClock(document: document)
        for (index, scene) in document.scenes.enumerated() where self.scene.isEmpty || self.scene.contains(scene.id) {
            let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory, isDirectory: true), threads: threads)
            let count = max(1, Int(min(seconds, scene.duration.doubleValue) * frameRate))
            let title = scene.title.resolved(language: document.languages.defaultLanguage, fallback: document.languages.fallback)
            /// With --overlay, `snapshot` (the scene at `time`) under the player's overlay.
            func withOverlay(_ snapshot: Snapshot, at time: Double) -> Snapshot {
                guard overlay else { return snapshot }
                let content = OverlayContent(
                    progress: playlist.progress(scene: index, sceneFrame: time, sampleRate: 1),  // seconds: frames at 1 Hz
                    currentScene: index, title: title)
                return FrameComposer.compose(scene: snapshot, overlay: overlayComposer.nodes(for: content))
            }
            // Several passes over the same frames; a frame's cost is its fastest pass, which strips most of the
            // time other processes take from this one on a busy machine.
            var wall = [Double](repeating: .infinity, count: count), cpu = wall, evaluateTimes: [Double] = []
            var first = 0.0, firstCPU = 0.0
            var firstArt = ArtWork()
            // The share of the frame each frame drew again (1 when drawn whole), from the last pass.
            var drawn = [Double](repeating: 1, count: count)
            var frame = RenderedFrame(width: width, height: height)
            for pass in 0..<passes {
                for k in 0..<count {
                    var snapshot: Snapshot?
                    let time = Double(k) / frameRate
                    evaluateTimes.append(clock.measure { snapshot = evaluator.snapshot(scene: index, at: time) }.milliseconds)
                    snapshot = withOverlay(snapshot!, at: time)
                    try frame.bytes.withUnsafeMutableBytes { buffer in
                        let cpuStart = Self.threadCPUTime()
                        let elapsed = try clock.measure {
                            try renderer.render(snapshot!, into: buffer.baseAddress!, width: width, height: height, stride: width * 4,
                                                holdsLastFrame: true)
                        }
                        // The very first frame fills the caches (fonts, sprites, the static background): shown apart.
                        if pass == 0 && k == 0 {
                            first = elapsed.milliseconds
                            firstCPU = Self.threadCPUTime() - cpuStart
                            firstArt = renderer.artWork
                        } else {
                            cpu[k] = min(cpu[k], Self.threadCPUTime() - cpuStart)
                            wall[k] = min(wall[k], elapsed.milliseconds)
                        }
                        drawn[k] = renderer.lastWrittenAreas.map { areas in
                            areas.reduce(0) { $0 + $1.width * $1.height } / Double(width * height)
                        } ?? 1
                    }
                }
            }
            print(String(format: "  %-10@ %6d %12.2f %10.2f %12.2f %10.2f %13.2f %9.2f", scene.id as NSString, count,
                         percentile(wall, 0.5), percentile(wall, 0.95), percentile(cpu, 0.5), percentile(cpu, 0.95), first,
                         percentile(evaluateTimes, 0.5)))
            // What the first frame paid for (the preparation of a scene ahead does this work on another thread).
            print(String(format: "    first frame: %.2f ms CPU (this thread); ", firstCPU) + firstArt.description)
            for time in at {
                let pair = [time, time + 1.0 / 60].map { withOverlay(evaluator.snapshot(scene: index, at: $0), at: $0) }
                let best = try bestCost(of: pair, width: width, height: height, imageDirectory: loaded.baseDirectory, threads: threads)
                print(String(format: "    frame at %.2f s: best of %d renders %.3f ms (%@)", time, max(`repeat`, 1), best,
                             (threads > 1 ? "wall" : "CPU") as NSString))
            }
            if slowest > 0 {
                let worst = cpu.indices.sorted { cpu[$0] > cpu[$1] }.prefix(slowest)
                // With the share of the frame drawn again: a slow frame drawn whole reads differently from one
                // whose areas are costly.
                print("    slowest: " + worst.map {
                    String(format: "%.2f s %.2f ms ", Double($0) / frameRate, cpu[$0]) + (drawn[$0] < 1 ? String(format: "(%.0f %%)", drawn[$0] * 100) : "(whole)")
                }.joined(separator: ", "))
                let whole = drawn.dropFirst().filter { $0 >= 1 }.count
                print(String(format: "    drawn whole: %d of %d frames; the others drew %.0f %% of the frame (median)", whole, count - 1,
                             percentile(drawn.dropFirst().filter { $0 < 1 }.map { $0 * 100 }, 0.5)))
            }
        }
    }

    /// Parts 2 to 4 of the discussion.
    private func timeOthers(document: Document, loaded: LoadedDocument, width: Int, height: Int) async throws {
        let clock = ContinuousClock()
        let timed = document.scenes.filter { self.scene.isEmpty || self.scene.contains($0.id) }
        if let (path, lottie) = LottieBench.firstLottie(in: timed, baseDirectory: loaded.baseDirectory) {
            try LottieBench.compare(path: path, content: lottie, width: width, height: height, passes: passes)
        }

        print("blur of a 300x300 region at radius 20 (ms, median of 200):")
        var pixels = [UInt32](repeating: 0, count: 300 * 300)
        for y in 100..<200 { for x in 100..<200 { pixels[y * 300 + x] = 0xFF80_C0FF } }
        for reduced in [true, false] {
            var wall: [Double] = [], cpu: [Double] = []
            for _ in 0..<200 {
                var copy = pixels
                let cpuStart = Self.threadCPUTime()
                wall.append(clock.measure {
                    copy.withUnsafeMutableBufferPointer {
                        GaussianBlur.apply(to: $0.baseAddress!, width: 300, height: 300, rowPixels: 300, sigma: GaussianBlur.sigma(forRadius: 20),
                                           reduced: reduced)
                    }
                }.milliseconds)
                cpu.append(Self.threadCPUTime() - cpuStart)
            }
            let factor = reduced ? GaussianBlur.reductionFactor(sigma: GaussianBlur.sigma(forRadius: 20)) : 1
            print(String(format: "  %@  wall %7.3f   cpu %7.3f", (reduced ? "as drawn (at 1/\(factor) resolution)" : "at full resolution          ") as NSString,
                         percentile(wall, 0.5), percentile(cpu, 0.5)))
        }

        try Self.benchVectorArt(svgPath: loaded.resolve("media/art/windmill.svg"), width: width, height: height)
        // Ours against rlottie on one animation in both formats, when bench/peer is beside the scenes file.
        if FileManager.default.fileExists(atPath: loaded.resolve("bench/peer/animation.json")) {
            try PeerBench.compare(PeerBench.load(directory: loaded.resolve("bench/peer")), width: width, height: height, passes: passes)
        }

        guard !noThroughput else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var frames: [PlaybackPosition] = []
        for (index, scene) in document.scenes.enumerated() {
            let count = Int((scene.duration * Rational(30)).ceiling)
            frames += (0..<count).map { PlaybackPosition(scene: index, sceneTime: Rational(Int128($0), 30)) }
        }
        var progress = RenderProgress(total: frames.count, showing: false)
        let cpuStart = Self.processCPUTime()
        let elapsed = try await clock.measure {
            _ = try PNGFrames.write(loaded, frames: frames, width: width, height: height,
                                    language: document.languages.defaultLanguage, threads: 1, to: directory, replacing: true,
                                    progress: &progress)
        }
        let seconds = elapsed.milliseconds / 1000, cpuSeconds = (Self.processCPUTime() - cpuStart) / 1000
        print(String(format: "headless render to PNG, whole playlist at %dx%d, 30 fps: %d frames in %.1f s = %.1f frames per second",
                     width, height, frames.count, seconds, Double(frames.count) / seconds))
        print(String(format: "  (CPU time %.1f s over all threads: %.1f ms per frame)", cpuSeconds, cpuSeconds * 1000 / Double(frames.count)))
    }

    /// The least CPU time (ms) of `repeat` renders alternating between the frames of `pair`, with one renderer;
    /// the first few, which fill the caches, do not count.
    private func bestCost(of pair: [Snapshot], width: Int, height: Int, imageDirectory: String, threads: Int) throws -> Double {
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: imageDirectory, isDirectory: true), threads: threads)
        var frame = RenderedFrame(width: width, height: height)
        var best = Double.infinity
        let clock = ContinuousClock()
        for index in 0..<(max(`repeat`, 1) + 6) {
            let start = Self.threadCPUTime()
            var wall = 0.0
            try frame.bytes.withUnsafeMutableBytes { buffer in
                wall = try clock.measure {
                    try renderer.render(pair[index % 2], into: buffer.baseAddress!, width: width, height: height, stride: width * 4,
                                        holdsLastFrame: true)
                }.milliseconds
            }
            // On several threads the calling thread's CPU time misses the others' work: the wall clock instead.
            if index >= 6 { best = min(best, threads > 1 ? wall : Self.threadCPUTime() - start) }
        }
        return best
    }

    /// Milliseconds of CPU time used by the calling thread.
    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// Milliseconds of CPU time used by the whole process.
    static func processCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    private func percentile(_ values: [Double], _ fraction: Double) -> Double {
        // The first frame of a single pass has no steady-state figure (infinity): left out.
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}

private extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
