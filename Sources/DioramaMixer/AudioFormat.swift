/// The one sound format of Diorama, named once: the mixer, the sound bank (every file is resampled to it), the
/// device, the offline mix, the files it writes and the cue schedule's sample indexes all count frames at
/// `sampleRate`, of `channels` interleaved samples. Here, in the mixer, because it is the lowest module that mixes
/// at a rate; everything above refers to it.
public enum AudioFormat {
    /// Frames per second: 48 kHz, video's rate (one 60 Hz frame is 800 samples, one sample 20.8 µs).
    public static let sampleRate = 48_000
    /// Interleaved stereo: left, right.
    public static let channels = 2
}
