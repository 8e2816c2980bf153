/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, well-mixed 64-bit generator. Seeded randomness is part of
/// the determinism contract (the same file and time give the same pixels and samples), so particles, the
/// synthesized media and test data all draw from this one generator rather than the system's.
///
/// Example: `var random = SplitMix64(seed: 42); let x = random.unit()` is the same on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1 with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in -1..<1.
    public mutating func symmetric() -> Double { unit() * 2 - 1 }
}
