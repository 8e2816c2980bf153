import ArgumentParser
import DioramaDocument
import DioramaLottie
import DioramaRender
import DioramaTimeline
import Foundation

/// Our renderer against rlottie on the same picture: bench/peer holds one animation written both as a scenes file
/// and as a Lottie file by scripts/make-peer-bench.py (a gradient sky, a turning group of five shapes, six swelling
/// waves, 400 falling circles). Every Lottie frame is drawn by both at the same size, each frame's cost the fastest
/// of several passes; ours is the whole way from the document (snapshot evaluation, then the frame), as rlottie's
/// includes updating its model, and the frame alone is printed beside it.
struct PeerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peer",
        abstract: "Time our renderer against rlottie on the same animation (bench/peer); prints figures.",
        discussion: """
            Both renderers draw every frame of the Lottie file (300 at 30 fps) at --size; ours renders the scenes \
            file's snapshot at the same time. Prints the median and 95th percentile CPU milliseconds per frame \
            of each and the ratio of the medians (above 1: ours is faster). `diorama bench render` prints the \
            same lines when bench/peer is beside its scenes file. With --png DIR, also writes the frame at --at \
            seconds as drawn by each to DIR and prints how far apart their pixels are.

            Example:
              swift build -c release && .build/release/diorama bench peer
            """
    )

    @Option(help: "The folder holding the peer's scenes.json and animation.json.")
    var directory: String = "bench/peer"

    @Option(help: "Output size in pixels, WIDTHxHEIGHT.")
    var size = FrameSize(argument: "1280x720")

    @Option(help: "Passes over the frames; a frame's cost is its fastest pass.")
    var passes: Int = 5

    @Option(help: ArgumentHelp("Write the frame at --at seconds as drawn by each renderer to this folder.", valueName: "DIR"))
    var png: String?

    @Option(help: "Scene seconds of the frame --png writes.")
    var at: Double = 3.3

    func run() throws {
        let (width, height) = try size.value()
        guard passes >= 1 else { throw ValidationError("--passes must be at least 1") }
        let peer = try Self.load(directory: directory)
        if let png {
            try Self.writeFrames(peer, at: at, width: width, height: height, to: png)
        }
        try Self.compare(peer, width: width, height: height, passes: passes)
    }

    /// The two files of the peer, loaded.
    struct Peer {
        let scenesPath: String
        let loaded: LoadedDocument
        let animation: LottieAnimation
        let lottiePath: String
    }

    static func load(directory: String) throws -> Peer {
        let scenesPath = (directory as NSString).appendingPathComponent("scenes.json")
        let lottiePath = (directory as NSString).appendingPathComponent("animation.json")
        let loaded: LoadedDocument
        do {
            loaded = try DocumentLoader.load(path: scenesPath, archives: DotLottieArchive.read)
        } catch {
            throw ValidationError(error.diagnostics.map(\.description).joined(separator: "\n"))
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: lottiePath)))
        let animation = try LottieAnimation(json: bytes, resourceDirectory: directory)
        return Peer(scenesPath: scenesPath, loaded: loaded, animation: animation, lottiePath: lottiePath)
    }

    /// The cost of one frame three ways, each the fastest of the passes.
    private struct Cost {
        /// CPU time of every thread of the process: the work done, wherever it ran.
        var work = [Double]()
        /// The wall clock: what a screen waits for.
        var wall = [Double]()
        /// CPU time of the calling thread alone (misses work handed to other threads).
        var caller = [Double]()

        init(frames: Int) {
            work = [Double](repeating: .infinity, count: frames)
            wall = work
            caller = work
        }

        mutating func measure(_ frame: Int, _ body: () throws -> Void) rethrows {
            let clock = ContinuousClock()
            let (process, thread) = (RenderBench.processCPUTime(), RenderBench.threadCPUTime())
            let elapsed = try clock.measure(body)
            work[frame] = min(work[frame], RenderBench.processCPUTime() - process)
            caller[frame] = min(caller[frame], RenderBench.threadCPUTime() - thread)
            wall[frame] = min(wall[frame], Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
    }

    /// Prints one line per renderer and their ratios; `indent` lines them up under another benchmark's heading.
    /// rlottie rasterizes on worker threads of its own (as many as the cores), so the calling thread's CPU time
    /// understates its cost: the figures compared are the CPU time of all threads (the work) and the wall clock,
    /// ours drawn on one thread and on every core.
    static func compare(_ peer: Peer, width: Int, height: Int, passes: Int, indent: String = "") throws {
        let document = peer.loaded.document
        let evaluator = SceneEvaluator(document: document)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let directory = URL(fileURLWithPath: peer.loaded.baseDirectory, isDirectory: true)
        let single = FrameRenderer(imageDirectory: directory)
        let parallel = FrameRenderer(imageDirectory: directory, threads: cores)
        let animation = peer.animation
        let frames = animation.frameCount
        var evaluate = [Double](repeating: .infinity, count: frames)
        var ours = Cost(frames: frames), oursParallel = Cost(frames: frames), rlottie = Cost(frames: frames)
        var output = RenderedFrame(width: width, height: height), parallelOutput = RenderedFrame(width: width, height: height)
        var nodes = 0
        for pass in 0..<passes {
            for frame in 0..<frames {
                let time = Double(frame) / animation.frameRate
                let start = RenderBench.threadCPUTime()
                let snapshot = evaluator.snapshot(scene: 0, at: time)
                evaluate[frame] = min(evaluate[frame], RenderBench.threadCPUTime() - start)
                if pass == 0 && frame == 0 { nodes = Self.count(snapshot.nodes) }
                // Ours is timed from the document, as rlottie's includes updating its model.
                // Each renderer into a buffer of its own, which holds its last frame (as the player's window does).
                func draw(with renderer: FrameRenderer, into output: inout RenderedFrame) throws {
                    let snapshot = evaluator.snapshot(scene: 0, at: time)
                    try output.bytes.withUnsafeMutableBytes { buffer in
                        try renderer.render(snapshot, into: buffer.baseAddress!, width: width, height: height, stride: width * 4,
                                            holdsLastFrame: true)
                    }
                }
                try ours.measure(frame) { try draw(with: single, into: &output) }
                try oursParallel.measure(frame) { try draw(with: parallel, into: &parallelOutput) }
                rlottie.measure(frame) { _ = animation.render(frame: frame, width: width, height: height) }
            }
        }
        print("\(indent)peer: bench/peer at \(width)x\(height), \(frames) frames (\(nodes) nodes a frame), ms per frame, fastest of \(passes),"
              + " \(cores) cores; median / p95:")
        print("\(indent)                         work (CPU, all threads)   wall clock        calling thread's CPU")
        func line(_ name: String, _ cost: Cost) {
            let label = name.padding(toLength: 22, withPad: " ", startingAt: 0)
            print(String(format: "\(indent)  \(label) %7.3f / %7.3f       %7.3f / %7.3f   %7.3f / %7.3f",
                         median(cost.work), percentile(cost.work, 0.95), median(cost.wall), percentile(cost.wall, 0.95),
                         median(cost.caller), percentile(cost.caller, 0.95)))
        }
        line("ours, 1 thread", ours)
        line("ours, \(cores) threads", oursParallel)
        line("rlottie", rlottie)
        print(String(format: "\(indent)  (ours: evaluate %.3f of it)", median(evaluate)))
        let bestWall = min(median(ours.wall), median(oursParallel.wall))
        print(String(format: "\(indent)  ratio: rlottie / ours = %.2fx work (CPU of all threads, ours on 1 thread), %.2fx wall clock (ours at its faster thread count)",
                     median(rlottie.work) / median(ours.work), median(rlottie.wall) / bestWall))
    }

    /// Writes the frame at `seconds` as each renderer draws it, and prints how far apart they are.
    static func writeFrames(_ peer: Peer, at seconds: Double, width: Int, height: Int, to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let frame = Int((seconds * peer.animation.frameRate).rounded())
        let time = Double(frame) / peer.animation.frameRate
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: peer.loaded.baseDirectory, isDirectory: true))
        let ours = try renderer.render(SceneEvaluator(document: peer.loaded.document).snapshot(scene: 0, at: time), width: width, height: height)
        var theirs = RenderedFrame(width: width, height: height)
        guard let pixels = peer.animation.render(frame: frame, width: width, height: height) else {
            throw ValidationError("rlottie drew nothing at \(width)x\(height)")
        }
        theirs.bytes.withUnsafeMutableBytes { $0.copyMemory(from: pixels) }
        let name = String(format: "frame-%03d", frame)
        let oursURL = URL(fileURLWithPath: directory).appendingPathComponent("\(name)-ours.png")
        let theirsURL = URL(fileURLWithPath: directory).appendingPathComponent("\(name)-rlottie.png")
        try ours.writePNG(to: oursURL, replacing: true)
        try theirs.writePNG(to: theirsURL, replacing: true)
        let difference = PixelDifference(ours, theirs)
        print(String(format: "wrote %@ and %@ (%.2f s): mean difference %.2f of 255 per channel, %.2f %% of pixels differ by more than 32",
                     oursURL.path, theirsURL.lastPathComponent, time, difference.mean, difference.farFraction * 100))
    }

    /// How far apart two frames of one size are, channel by channel.
    struct PixelDifference {
        /// The mean absolute difference of the colour and alpha channels, 0 ... 255.
        let mean: Double
        /// The share of pixels where some channel differs by more than 32.
        let farFraction: Double

        init(_ a: RenderedFrame, _ b: RenderedFrame) {
            var total = 0, far = 0
            for pixel in stride(from: 0, to: a.bytes.count, by: 4) {
                var largest = 0
                for channel in 0..<4 {
                    let delta = abs(Int(a.bytes[pixel + channel]) - Int(b.bytes[pixel + channel]))
                    total += delta
                    largest = max(largest, delta)
                }
                if largest > 32 { far += 1 }
            }
            mean = Double(total) / Double(a.bytes.count)
            farFraction = Double(far) / Double(a.bytes.count / 4)
        }
    }

    private static func count(_ nodes: [NodeSnapshot]) -> Int {
        nodes.reduce(0) { total, node in
            if case .group(let children) = node.content { return total + 1 + count(children) }
            return total + 1
        }
    }

    private static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}
