import DioramaTimeline

/// The fuzzer's only source of choices, the timeline's SplitMix64, so a seed replays a run exactly.
struct FuzzRandom {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    mutating func next() -> UInt64 { generator.next() }

    /// A whole number in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// A whole number in the closed range.
    mutating func within(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// A number in 0..<1.
    mutating func unit() -> Double { generator.unit() }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// 1, 2, 3... with each next count half as likely: most inputs differ from a seed by one mutation.
    mutating func mutationCount(maximum: Int) -> Int {
        var count = 1
        while count < maximum, chance(0.5) { count += 1 }
        return count
    }
}
