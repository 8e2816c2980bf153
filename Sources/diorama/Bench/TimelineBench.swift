import ArgumentParser
import DioramaDocument
import DioramaMixer
import DioramaTimeline
import Foundation

struct TimelineBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Measure snapshot evaluation per scene (with and without particles) and the cue schedule; prints a table.",
        discussion: """
            For each scene, evaluates snapshots at evenly spread times across the scene and prints the \
            median and 95th percentile cost in microseconds, with particles and without, plus the node \
            and average particle counts. Then times building the cue schedule of the whole playlist and \
            driving the playlist sequencer through one pass. The goal is under 50 µs per snapshot \
            without particles; build with -c release for meaningful figures.

            Example:
              $ swift run -c release diorama bench timeline scenes.json --times 4000
            """
    )

    @Argument(help: "The scenes file.")
    var file: String = "scenes.json"

    @Option(help: "Snapshot times per scene and mode.")
    var times: Int = 2000

    @Option(help: "Sample rate for the cue schedule.")
    var rate: Int = AudioFormat.sampleRate

    func validate() throws {
        guard (10...1_000_000).contains(times) else { throw ValidationError("--times must be between 10 and 1000000") }
        guard (1...768_000).contains(rate) else { throw ValidationError("--rate must be between 1 and 768000") }
    }

    func run() async throws {
        let loaded = try loadDocumentOrExit(file)
        let document = loaded.document
        let evaluator = SceneEvaluator(document: document)
        var rows: [[String]] = []
        var sink = 0
        for (index, scene) in document.scenes.enumerated() {
            let duration = scene.duration.doubleValue
            let sampleTimes = (0..<times).map { duration * (Double($0) + 0.5) / Double(times) }
            // One warm-up pass so caches and lazy paths do not count.
            for time in sampleTimes.prefix(50) { sink &+= evaluator.snapshot(scene: index, at: time).nodes.count }
            var particleTotal = 0
            let withParticles = Self.measure(sampleTimes) { time in
                let snapshot = evaluator.snapshot(scene: index, at: time)
                particleTotal += Self.particleCount(snapshot.nodes)
                sink &+= snapshot.nodes.count
            }
            let withoutParticles = Self.measure(sampleTimes) { time in
                sink &+= evaluator.snapshot(scene: index, at: time, includeParticles: false).nodes.count
            }
            rows.append([scene.id, "\(Self.nodeCount(scene.nodes))", "\(particleTotal / times)",
                         Self.micro(withoutParticles.median), Self.micro(withoutParticles.p95),
                         Self.micro(withParticles.median), Self.micro(withParticles.p95)])
        }
        print("Snapshot evaluation of \(file), \(times) times per scene (µs per snapshot):\n")
        print(Self.table(["scene", "nodes", "particles", "median", "p95", "median+particles", "p95+particles"], rows))

        let scheduleRuns = 200
        var cueCount = 0
        let schedule = Self.measure(Array(repeating: 0.0, count: scheduleRuns)) { _ in
            cueCount = CueSchedule(document: document, sampleRate: rate).cues.count
        }
        let sequencerRuns = 50
        let total = Int64((PlaylistClock(document: document).length * Rational(rate)).ceiling)
        let sequencer = Self.measure(Array(repeating: 0.0, count: sequencerRuns)) { _ in
            var playlist = PlaylistSequencer(document: document, sampleRate: rate, end: .stop)
            var events = playlist.play(at: 0)
            // Advance in 1024-frame blocks, as an audio callback would.
            var frame: Int64 = 0
            while frame < total {
                frame += 1024
                events += playlist.advance(to: frame)
            }
            sink &+= events.count
        }
        print("\nCue schedule at \(rate) Hz: \(cueCount) firings, \(Self.micro(schedule.median)) µs median, \(Self.micro(schedule.p95)) µs p95 per schedule")
        print("Sequencer, one pass in 1024-frame blocks (\(total / 1024 + 1) blocks, includes building it): \(Self.micro(sequencer.median)) µs median, \(Self.micro(sequencer.p95)) µs p95")
        if sink == Int.min { print("") }  // keeps the work observable to the optimizer
    }

    /// Median and 95th percentile of the per-call cost, in seconds.
    private static func measure(_ inputs: [Double], _ body: (Double) -> Void) -> (median: Double, p95: Double) {
        let clock = ContinuousClock()
        var costs: [Double] = []
        costs.reserveCapacity(inputs.count)
        for input in inputs {
            let start = clock.now
            body(input)
            let elapsed = clock.now - start
            costs.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        costs.sort()
        return (costs[costs.count / 2], costs[min(costs.count - 1, Int(Double(costs.count) * 0.95))])
    }

    private static func micro(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1e6) }

    private static func nodeCount(_ nodes: [Node]) -> Int {
        nodes.reduce(0) { count, node in
            if case .group(let group) = node.content { return count + 1 + nodeCount(group.children) }
            return count + 1
        }
    }

    private static func particleCount(_ nodes: [NodeSnapshot]) -> Int {
        nodes.reduce(0) { count, node in
            switch node.content {
            case .group(let children): count + particleCount(children)
            case .particles(let particles): count + particles.particles.count
            default: count
            }
        }
    }

    private static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                let pad = String(repeating: " ", count: widths[column] - row[column].count)
                return column == 0 ? row[column] + pad : pad + row[column]
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
