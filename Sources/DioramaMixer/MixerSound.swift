/// An immutable stereo sound at the engine's rate (frames per second), ready to play.
///
/// Samples are interleaved left/right `Float`s. The buffer is allocated once here and never
/// resized, so the mixer can keep a raw pointer to it for as long as it holds the sound.
public final class MixerSound: @unchecked Sendable {
    // @unchecked Sendable: `frames` is written only in `init` and freed only in `deinit`;
    // in between it is read-only, so any number of threads may read it.
    public let name: String
    /// Length in frames (one frame = one left and one right sample).
    public let frameCount: Int
    let frames: UnsafeMutableBufferPointer<Float>

    /// Makes a sound from interleaved stereo samples (`samples.count` must be even).
    public init(name: String, interleavedStereo samples: [Float]) {
        precondition(samples.count % 2 == 0, "interleaved stereo needs an even sample count")
        self.name = name
        self.frameCount = samples.count / 2
        self.frames = .allocate(capacity: max(samples.count, 2))
        _ = frames.initialize(from: samples)
        if samples.isEmpty { frames.initialize(repeating: 0) }
    }

    /// Makes a stereo sound from mono samples, centred: both channels carry the mono signal at unity.
    public convenience init(name: String, mono samples: [Float]) {
        var stereo = [Float](repeating: 0, count: samples.count * 2)
        for (index, sample) in samples.enumerated() {
            stereo[2 * index] = sample
            stereo[2 * index + 1] = sample
        }
        self.init(name: name, interleavedStereo: stereo)
    }

    /// The interleaved samples, copied out (for tests and tools; never on the audio thread).
    public var interleavedSamples: [Float] { Array(frames.prefix(frameCount * 2)) }

    deinit { frames.deallocate() }
}
