/// An immutable sound at the engine's rate (frames per second), ready to play: stereo, or mono played centred.
///
/// Samples are interleaved left/right `Float`s, or one `Float` a frame for a mono sound (half the memory of its stereo
/// copy: the shipped sounds are mono, 27 MB as stereo). The buffer is allocated once here and never resized, so the
/// mixer can keep a raw pointer to it for as long as it holds the sound.
public final class MixerSound: @unchecked Sendable {
    // @unchecked Sendable: `frames` is written only in `init` and freed only in `deinit`;
    // in between it is read-only, so any number of threads may read it.
    public let name: String
    /// Length in frames (one frame = one sample a channel).
    public let frameCount: Int
    /// 2 (interleaved left and right) or 1 (mono: the same signal at unity on both channels).
    public let channels: Int
    let frames: UnsafeMutableBufferPointer<Float>

    /// Makes a sound from interleaved stereo samples (`samples.count` must be even).
    public convenience init(name: String, interleavedStereo samples: [Float]) {
        precondition(samples.count % 2 == 0, "interleaved stereo needs an even sample count")
        self.init(name: name, samples: samples, channels: 2)
    }

    /// Makes a sound from mono samples, centred: both channels carry the mono signal at unity.
    public convenience init(name: String, mono samples: [Float]) {
        self.init(name: name, samples: samples, channels: 1)
    }

    private init(name: String, samples: [Float], channels: Int) {
        self.name = name
        self.channels = channels
        self.frameCount = samples.count / channels
        self.frames = .allocate(capacity: max(samples.count, 2))
        if samples.isEmpty {
            frames.initialize(repeating: 0)
        } else {
            _ = frames.initialize(from: samples)
        }
    }

    /// The samples as interleaved stereo (a mono sound's on both channels), copied out (for tests and tools; never on
    /// the audio thread).
    public var interleavedSamples: [Float] {
        guard channels == 1 else { return Array(frames.prefix(frameCount * 2)) }
        var stereo = [Float](repeating: 0, count: frameCount * 2)
        for index in 0..<frameCount {
            stereo[2 * index] = frames[index]
            stereo[2 * index + 1] = frames[index]
        }
        return stereo
    }

    /// The samples as stored (interleaved stereo, or mono), copied out (for preparing sounds; never on the audio thread).
    public var storedSamples: [Float] { Array(frames.prefix(frameCount * channels)) }

    deinit { frames.deallocate() }
}
