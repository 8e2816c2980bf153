import DioramaDocument
import Foundation

/// What a firing plays of a sound that varies (`SoundVariation`): its gain offset and its take.
public struct FiringVariation: Sendable, Equatable {
    /// Decibels added to the firing's gain, within ± the variation's `gainDecibels`.
    public var gainDecibels: Double
    /// The take to play, 0 ..< the variation's `takeCount`; its pitch is `semitones(ofTake:)`.
    public var take: Int

    public init(gainDecibels: Double, take: Int) {
        self.gainDecibels = gainDecibels
        self.take = take
    }

    /// The gain offset as a linear factor.
    public var linearGain: Double { gainDecibels == 0 ? 1 : pow(10, gainDecibels / 20) }
}

extension CueFiring {
    /// Which firing of its cue this is in a visit of the scene: the iteration of the animation or Lottie loop that
    /// fired it; 0 for a cue that fires once (a time, a marker, a tap); for a cue that repeats (`every`), its
    /// repetition, counted on from its trigger's firing (`repetition`).
    public var firingIndex: Int {
        switch trigger {
        case .animation(_, _, _, let iteration), .lottie(_, _, _, let iteration):
            // A repeated firing of an iteration: numbered past every iteration's own, so no two firings share one.
            repetition == 0 ? iteration : (iteration &+ 1) &* DocumentLimits.maximumCueCount &+ repetition
        case .at, .marker, .tap: repetition
        }
    }

    /// This firing's draw from `variation`: seeded by the scene's id, the cue's index and the firing index (never the
    /// clock), so a firing plays the same samples on every run and in every render, and the firings of a cue differ.
    public func variation(_ variation: SoundVariation) -> FiringVariation {
        var random = SplitMix64(seed: seed)
        let gain = variation.gainDecibels * random.symmetric()
        let take = min(Int(random.unit() * Double(variation.takeCount)), variation.takeCount - 1)
        return FiringVariation(gainDecibels: gain, take: take)
    }

    /// The sound this firing plays of a cue that picks from `sounds` (`Cue.sounds`): one of them, evenly, from the same
    /// seed as `variation(_:)` but a draw of its own, so picking leaves each sound's variation as it was. The only
    /// one when there is one.
    public func pick(from sounds: [String]) -> String {
        guard sounds.count > 1 else { return sounds.first ?? sound }
        // A stream apart from the variation's: the seed mixed with "pick sou" in ASCII.
        var random = SplitMix64(seed: seed ^ 0x7069_636B_2073_6F75)
        return sounds[min(Int(random.unit() * Double(sounds.count)), sounds.count - 1)]
    }

    /// FNV-1a over the scene's id, then the cue and the firing mixed in; SplitMix64 spreads the bits.
    private var seed: UInt64 {
        var seed: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in sceneID.utf8 { seed = (seed ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        seed ^= UInt64(truncatingIfNeeded: cue) &* 0x9E37_79B9_7F4A_7C15
        seed ^= UInt64(truncatingIfNeeded: firingIndex) &* 0xD6E8_FEB8_6659_FD93
        return seed
    }
}
