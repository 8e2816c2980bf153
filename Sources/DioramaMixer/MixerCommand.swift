/// How important a voice is when the voice limit forces one to be stolen.
public enum VoicePriority: UInt8, Sendable, Comparable, BitwiseCopyable {
    /// One-shot sound cues.
    case cue = 0
    /// Ambience beds of a scene; a cue never steals one.
    case ambience = 1

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A voice to start at an exact frame of the mixer's clock.
public struct VoiceStart: Sendable, Equatable, BitwiseCopyable {
    /// Index of the sound in the mixer's sound list.
    public var sound: Int
    /// The mixer frame (frames rendered since the mixer started) of the voice's first sample.
    public var frame: Int64
    /// Linear gain (1 = unity).
    public var gain: Float
    /// Pan from -1 (left) through 0 (centre) to 1 (right), constant power.
    public var pan: Float
    /// Length of the linear fade-in ramp, in frames (0 = start at full level).
    public var fadeInFrames: Int
    /// Whether the voice loops seamlessly until stopped.
    public var loops: Bool
    /// A caller-chosen tag for later stops (0 = untagged; several voices may share a tag).
    public var tag: UInt32
    public var priority: VoicePriority
    /// If the start frame has already passed when the voice starts: true begins where the voice
    /// would be by now (for rendering or resuming part of a playlist), false begins the sound
    /// from its first frame at once (an onset late is better than no onset).
    public var catchUp: Bool

    public init(
        sound: Int, frame: Int64, gain: Float = 1, pan: Float = 0, fadeInFrames: Int = 0,
        loops: Bool = false, tag: UInt32 = 0, priority: VoicePriority = .cue, catchUp: Bool = false
    ) {
        self.catchUp = catchUp
        self.sound = sound
        self.frame = frame
        self.gain = gain
        self.pan = pan
        self.fadeInFrames = fadeInFrames
        self.loops = loops
        self.tag = tag
        self.priority = priority
    }
}

/// A message from the control thread to the mixer, carried by the lock-free command ring.
public enum MixerCommand: Sendable, Equatable, BitwiseCopyable {
    /// Start a voice at `VoiceStart.frame`.
    case start(VoiceStart)
    /// Fade out every voice tagged `tag` (started or still waiting) from `frame` over `fadeFrames`
    /// (raised to the mixer's minimum stop fade, so a stop never clicks).
    case stop(tag: UInt32, frame: Int64, fadeFrames: Int)
    /// Fade out every voice, started or waiting, from `frame` over `fadeFrames`.
    case stopAll(frame: Int64, fadeFrames: Int)
    /// The future from `fromFrame` changed (a navigation or a pause after a look-ahead): forget every waiting
    /// start at or after it, and cancel every stop scheduled at or after it that has not begun.
    case revoke(fromFrame: Int64)
    /// Hold the sound from `frame`: the output ramps to silence over `fadeFrames`, then every voice stops
    /// advancing (a looping bed keeps its place, a ringing cue its decay) until `resume`. Starts whose frame
    /// falls in the pause wait for the resume; stops that fall in it end their voices silently.
    case pause(frame: Int64, fadeFrames: Int)
    /// Continue from `frame` where `pause` held every voice, the output ramping up over `fadeFrames`.
    case resume(frame: Int64, fadeFrames: Int)
}
