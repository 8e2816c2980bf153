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
    /// How the voice lowers the ambience while it sounds (`.none`: not at all).
    public var duck: VoiceDuck

    public init(
        sound: Int, frame: Int64, gain: Float = 1, pan: Float = 0, fadeInFrames: Int = 0,
        loops: Bool = false, tag: UInt32 = 0, priority: VoicePriority = .cue, catchUp: Bool = false,
        duck: VoiceDuck = .none
    ) {
        self.catchUp = catchUp
        self.duck = duck
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
    /// start at or after it; cancel every stop scheduled at or after it that has not begun (on sounding voices
    /// and on waiting starts; a voice whose cancelled stop had interrupted an earlier one falls back to that
    /// one); and cancel every pause or resume waiting at or after it. A stop has not begun if its frame is
    /// not yet rendered. The clock runs on through a hold: a stop at a frame the hold has passed is final.
    case revoke(fromFrame: Int64)
    /// Hold the sound from `frame`: the output ramps linearly to silence over `fadeFrames` (voices still
    /// advancing), then from `frame + fadeFrames` every voice stands still (position and envelope: a looping
    /// bed keeps its place, a ringing cue its decay) and the output is exactly zero until `resume`. Starts due
    /// in the hold wait for the resume; stops due in it, or at the resume's frame, end their voices silently
    /// (nothing is heard) and drop the matching waiting starts; a stop asked during the ramp for a frame in the
    /// hold leaves a fade heard under the ramp alone. Ignored while already paused. Pauses and resumes act in
    /// frame order, whatever order they arrive in; one whose frame has passed acts at the next block's start;
    /// up to `Mixer.transportCapacity` may wait at once.
    case pause(frame: Int64, fadeFrames: Int)
    /// Continue from `frame` where `pause` held every voice, the output ramping up from silence over
    /// `fadeFrames`; voices' envelope frames move later by the hold's length, so fades and releases go on
    /// where they were. A resume during the pause's ramp ramps back up from the level reached (nothing was
    /// held). Ignored while not paused.
    case resume(frame: Int64, fadeFrames: Int)
    /// The listener's volume from the next block: a gain before the limiter (so a loud scene turned up is
    /// limited, never clipped), ramping linearly from the gain reached over `fadeFrames` (0: at once, for a
    /// change nobody hears). Clamped to `Mixer.volumeRange`; not a timed command (no frame, never revoked).
    case volume(gain: Float, fadeFrames: Int)
}
