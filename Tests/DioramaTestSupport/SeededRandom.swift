/// Numbers in 0..<1 from a seed, the same on every run (a 64-bit linear congruential generator), for tests that draw
/// many random cases: `var random = SeededRandom(seed: 0x5EED)`, then `random()`.
public struct SeededRandom {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func callAsFunction() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}
