import Foundation

/// Seed files of one JSON format and the inputs made from them: mostly structure-aware mutations of the
/// well-formed seeds, then now and again a byte-level one on top.
struct JSONCorpus {
    struct Seed {
        var name: String
        /// Where the file sits (an input made from it is decoded as if it were there, so its paths resolve alike).
        var path: String
        var bytes: [UInt8]
        var tree: FuzzJSON?
    }

    let seeds: [Seed]
    /// Seeds an input starts from four times in five: those that pass the whole way unmutated, so that most
    /// inputs test what comes after the parser.
    let preferred: [Int]
    let mutations: JSONMutations

    init(seeds: [Seed], numberNudgeShare: Double, preferred: (Seed) -> Bool) {
        self.seeds = seeds
        let chosen = seeds.indices.filter { preferred(seeds[$0]) }
        self.preferred = chosen.isEmpty ? Array(seeds.indices) : chosen
        var mutations = JSONMutations(trees: seeds.compactMap(\.tree))
        mutations.numberNudgeShare = numberNudgeShare
        self.mutations = mutations
    }

    /// An input: a seed with one or more mutations.
    func input(random: inout FuzzRandom) -> (seed: Seed, bytes: [UInt8]) {
        let seed = seeds[random.chance(0.8) ? random.pick(preferred) : random.below(seeds.count)]
        let count = random.mutationCount(maximum: 4)
        var bytes: [UInt8]
        var byteMutations = 0
        if var tree = seed.tree, random.chance(0.85) {
            for _ in 0..<count { mutations.mutate(&tree, random: &random) }
            bytes = tree.bytes
            if random.chance(0.15) { byteMutations = 1 }
        } else {
            bytes = seed.bytes
            byteMutations = count
        }
        for _ in 0..<byteMutations { ByteMutations.mutate(&bytes, others: seeds.map(\.bytes), random: &random) }
        return (seed, bytes)
    }

    static func seed(at url: URL) throws -> Seed {
        let bytes = [UInt8](try Data(contentsOf: url))
        return Seed(name: url.lastPathComponent, path: url.path, bytes: bytes, tree: FuzzJSON.parse(bytes))
    }

    static func seed(text: String, name: String, beside directory: URL) -> Seed {
        let bytes = Array(text.utf8)
        return Seed(name: name, path: directory.appendingPathComponent(name).path, bytes: bytes, tree: FuzzJSON.parse(bytes))
    }
}
