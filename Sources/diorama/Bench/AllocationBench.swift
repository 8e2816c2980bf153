import ArgumentParser
import DioramaDocument
import DioramaFiles
import DioramaRender
import DioramaTimeline
import Foundation

/// Heap allocations per frame in the steady state: each scene's frames rendered once to fill the renderer's caches,
/// then again while a counting malloc (libDioramaMallocCounter.so, preloaded) counts every allocation of the
/// rendering thread, Swift's and the C libraries' alike.
struct AllocationBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allocations",
        abstract: "Count heap allocations per frame of each scene in the steady state; prints figures.",
        discussion: """
            Per scene: the frames at --frame-rate over the first --seconds are rendered once (filling the \
            caches), then rendered again, counting the heap allocations (malloc, calloc, realloc, the aligned \
            allocators; Swift's objects and arrays included) each frame makes while being drawn, and apart \
            from that while its snapshot is evaluated. Prints the median and largest count per frame, the \
            median bytes, and the nodes a frame holds. With --sites N, also the N call stacks that allocate \
            most while drawing.

            The counter is a library SwiftPM builds beside the executable (libDioramaMallocCounter.so); the \
            command starts itself again with it in LD_PRELOAD. Without it, it stops and says how to build it.

            Example:
              swift build -c release && .build/release/diorama bench allocations scenes.json --sites 8
            """
    )

    @Argument(help: "The scenes file.")
    var file: String = "scenes.json"

    @Option(help: "Output size in pixels, WIDTHxHEIGHT.")
    var size = FrameSize(argument: "1280x720")

    @Option(help: "Seconds of each scene to count.")
    var seconds: Double = 10

    @Option(help: "Frames per second of scene time.")
    var frameRate: Double = 30

    @Option(help: ArgumentHelp("Count only this scene (repeat for several).", valueName: "ID"))
    var scene: [String] = []

    @Option(help: "Also list the N call stacks that allocate most while drawing, per scene.")
    var sites: Int = 0

    func run() throws {
        MallocCounter.restartWithCounter()
        guard let counter = MallocCounter.loaded() else {
            FileHandle.standardError.write(Data("""
                the counting malloc is not loaded: build it beside the executable (`swift build -c release` builds \
                \(MallocCounter.libraryName) with diorama), or run with LD_PRELOAD=path/to/\(MallocCounter.libraryName)

                """.utf8))
            throw ExitCode(1)
        }
        let (width, height) = try size.value()
        guard frameRate > 0, frameRate <= 1000 else { throw ValidationError("--frame-rate must be 0...1000") }
        let loaded: LoadedDocument
        do {
            loaded = try DocumentLoader.load(path: file, archives: DotLottieArchive.read)
        } catch {
            StandardStreams.writeError(error.diagnostics.map(\.description).joined(separator: "\n") + "\n")
            throw ExitCode(2)
        }
        let document = loaded.document
        if let unknown = scene.first(where: { id in !document.scenes.contains { $0.id == id } }) {
            StandardStreams.writeError("no scene \(unknown) in \(file)\n")
            throw ExitCode(2)
        }
        let evaluator = SceneEvaluator(document: document)
        print("heap allocations per frame at \(width)x\(height), \(frameRate) fps over \(seconds) s of each scene, the second time its frames are drawn:")
        print("  scene         frames   nodes   draw median   draw max   bytes median   per node   evaluate median")
        for (index, scene) in document.scenes.enumerated() where self.scene.isEmpty || self.scene.contains(scene.id) {
            let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory, isDirectory: true))
            let count = max(1, Int(min(seconds, scene.duration.doubleValue) * frameRate))
            var frame = RenderedFrame(width: width, height: height)
            var draws: [Int] = [], bytes: [Int] = [], evaluations: [Int] = [], nodes: [Int] = []
            var siteTotals: [[UInt]: Int] = [:]
            for pass in 0..<2 {
                for k in 0..<count {
                    let time = Double(k) / frameRate
                    let (snapshot, evaluationCount, _) = counter.count { evaluator.snapshot(scene: index, at: time) }
                    let (_, drawCount, drawBytes) = try frame.bytes.withUnsafeMutableBytes { buffer in
                        try counter.count(recordingSites: pass == 1 && sites > 0) {
                            try renderer.render(snapshot, into: buffer.baseAddress!, width: width, height: height, stride: width * 4)
                        }
                    }
                    guard pass == 1 else { continue }
                    draws.append(drawCount)
                    bytes.append(drawBytes)
                    evaluations.append(evaluationCount)
                    nodes.append(Self.nodeCount(snapshot.nodes))
                    if sites > 0 {
                        for site in counter.sites() { siteTotals[site.frames, default: 0] += site.allocations }
                    }
                }
            }
            let medianDraws = Self.median(draws), medianNodes = Self.median(nodes)
            let name = scene.id.count < 12 ? scene.id + String(repeating: " ", count: 12 - scene.id.count) : scene.id
            print(String(format: "  %@ %7d %7d %13d %10d %14d %10.2f %17d", name as NSString, count, medianNodes, medianDraws,
                         draws.max() ?? 0, Self.median(bytes), Double(medianDraws) / Double(max(medianNodes, 1)), Self.median(evaluations)))
            if sites > 0 { Self.printSites(siteTotals, frames: count, limit: sites, counter: counter) }
        }
    }

    /// The call stacks that allocated most, by their first frames outside the allocator, per frame drawn.
    private static func printSites(_ totals: [[UInt]: Int], frames: Int, limit: Int, counter: MallocCounter) {
        let symbols = CodeSymbols(addresses: Set(totals.keys.joined()), counter: counter)
        // Frames that only pass an allocation on (the allocators, the standard library's buffers): shown by what
        // called them.
        let allocator: Set = ["malloc", "calloc", "realloc", "memalign", "swift_slowAlloc", "swift_allocObject", "swift_allocBox",
                              "g_malloc", "g_malloc0", "g_realloc", "g_try_malloc", "g_try_malloc0", "g_slice_alloc", "g_slice_alloc0", "_Znwm"]
        let passing = ["_ContiguousArrayBuffer", "Array.", "ContiguousArray.", "static Array.", "static ContiguousArray.",
                       "static UnsafeMutablePointer.allocate", "_StringGuts", "String.", "_NativeDictionary", "Dictionary."]
        func passesOn(_ name: String) -> Bool {
            var bare = Substring(name)
            if let colon = bare.firstIndex(of: ":"), bare[..<colon].contains(".so") { bare = bare[bare.index(after: colon)...] }
            if let plus = bare.firstIndex(of: "+") { bare = bare[..<plus] }
            if let space = bare.firstIndex(of: " "), !bare.hasPrefix("static ") { bare = bare[..<space] }
            return allocator.contains(String(bare)) || name.contains("libDioramaMallocCounter") || passing.contains { bare.hasPrefix($0) }
        }
        var grouped: [String: Int] = [:]
        for (stack, allocations) in totals {
            let names = stack.map { symbols[$0] }
            let start = names.firstIndex { !passesOn($0) } ?? names.endIndex
            // Three frames from the allocator on, then (when not among them) the first of this program's own.
            var chain = Array(names[start...].prefix(3))
            if let ownIndex = stack.indices.first(where: { symbols.own.contains(stack[$0]) }), ownIndex >= start + 3 {
                chain.append("... " + names[ownIndex])
            }
            grouped[chain.joined(separator: " <- "), default: 0] += allocations
        }
        for (chain, allocations) in grouped.sorted(by: { $0.value > $1.value }).prefix(limit) {
            print(String(format: "      %7.1f a frame  %@", Double(allocations) / Double(frames), chain as NSString))
        }
    }

    private static func nodeCount(_ nodes: [NodeSnapshot]) -> Int {
        nodes.reduce(0) { total, node in
            if case .group(let children) = node.content { return total + 1 + nodeCount(children) }
            return total + 1
        }
    }

    private static func median(_ values: [Int]) -> Int {
        values.isEmpty ? 0 : values.sorted()[values.count / 2]
    }
}
