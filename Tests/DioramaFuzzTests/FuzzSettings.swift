import DioramaTestSupport
import Foundation

/// The fuzzer's knobs. CI runs the defaults (a fixed seed, counts sized for well under two minutes in a debug
/// build); long runs set `DIORAMA_FUZZ_ITERATIONS` (a multiplier of every count) and `DIORAMA_FUZZ_SEED`.
enum FuzzSettings {
    static let defaultSeed: UInt64 = 0xD10_2A3A

    static let seed: UInt64 = {
        guard let text = ProcessInfo.processInfo.environment["DIORAMA_FUZZ_SEED"] else { return defaultSeed }
        if text.lowercased().hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) ?? defaultSeed }
        return UInt64(text) ?? defaultSeed
    }()

    static let multiplier: Int = {
        guard let text = ProcessInfo.processInfo.environment["DIORAMA_FUZZ_ITERATIONS"], let value = Int(text), value > 0 else {
            return 1
        }
        return value
    }()

    /// A folder where each input is written (`CORPUS.current`) before it runs: after a crash, the input that caused it.
    static let saveDirectory: String? = ProcessInfo.processInfo.environment["DIORAMA_FUZZ_SAVE"]

    static func iterations(_ base: Int) -> Int { base * multiplier }

    /// Each corpus its own stream of choices, so adding inputs to one leaves the others' runs as they were.
    static func seed(for corpus: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in corpus.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return seed ^ hash
    }

    static var repositoryRoot: URL { DioramaCommand.repositoryRoot }
}

/// How many inputs of one corpus reached each stage of what a user's file goes through.
struct FuzzRun {
    let corpus: String
    let stages: [String]
    private(set) var inputs = 0
    private(set) var reached: [String: Int] = [:]

    init(corpus: String, stages: [String]) {
        self.corpus = corpus
        self.stages = stages
    }

    /// Writes the input where a crash would leave it, when `DIORAMA_FUZZ_SAVE` asks for it.
    func save(_ input: [UInt8]) {
        guard let directory = FuzzSettings.saveDirectory else { return }
        let url = URL(fileURLWithPath: directory).appendingPathComponent("\(corpus).current")
        try? Data(input).write(to: url)
    }

    mutating func record(_ stagesReached: Set<String>) {
        inputs += 1
        for stage in stagesReached { reached[stage, default: 0] += 1 }
    }

    func share(_ stage: String) -> Double {
        inputs == 0 ? 0 : Double(reached[stage, default: 0]) / Double(inputs)
    }

    var summary: String {
        let parts = stages.map { stage in
            let count = reached[stage, default: 0]
            return "\(stage) \(count) (\(Int((share(stage) * 100).rounded())) %)"
        }
        return "fuzz \(corpus): seed 0x\(String(FuzzSettings.seed, radix: 16)), x\(FuzzSettings.multiplier): \(inputs) inputs, "
            + parts.joined(separator: ", ")
    }
}
