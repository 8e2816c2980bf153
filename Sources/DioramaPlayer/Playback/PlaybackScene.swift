import DioramaAudio
import DioramaDocument

/// A scene as the playback engine needs it: lengths in frames and sounds as mixer indexes.
public struct PlaybackScene: Sendable, Equatable {
    public var id: String
    /// Length in frames (samples per channel).
    public var frames: Int64
    /// Looping beds started when the scene appears (the same beds the offline mix plays).
    public var ambience: [AudioPlan.Bed]
    /// Sorted by frame.
    public var cues: [SceneCue]

    public init(id: String, frames: Int64, ambience: [AudioPlan.Bed] = [], cues: [SceneCue] = []) {
        self.id = id
        self.frames = max(1, frames)
        self.ambience = ambience
        self.cues = cues.sorted { $0.frame < $1.frame }
    }
}

/// A cue firing at a frame of its scene.
public struct SceneCue: Sendable, Equatable {
    /// Frames from the start of the scene: the sample index the cue schedule gives.
    public var frame: Int64
    /// Index in the mixer's sound list.
    public var sound: Int
    /// The sound's name, for the log.
    public var soundName: String
    public var gain: Float
    /// -1 (left) ... 1 (right).
    public var pan: Float

    public init(frame: Int64, sound: Int, soundName: String, gain: Float, pan: Float) {
        self.frame = frame
        self.sound = sound
        self.soundName = soundName
        self.gain = gain
        self.pan = pan
    }
}

extension PlaybackScene {
    /// Frames of `seconds` at `sampleRate`, rounded up: the first frame at or after that time, as the
    /// cue schedule counts (so a scene starting on a whole frame puts every cue on the schedule's sample).
    public static func frames(_ seconds: Rational, sampleRate: Int) -> Int64 {
        Int64(clamping: (seconds * Rational(sampleRate)).ceiling)
    }

    /// The playback scenes of `document`. `cueFrames` gives each scene's cue firings as (frame in the
    /// scene, cue), from the timeline's cue schedule; `soundIndex` maps a sound name to the mixer's
    /// index (nil for a sound that failed to load: its cues and beds stay silent).
    public static func scenes(of document: Document, sampleRate: Int,
                              cueFrames: (Int) -> [(frame: Int64, cue: Cue)],
                              soundIndex: (String) -> Int?) -> [PlaybackScene] {
        document.scenes.enumerated().map { index, scene in
            let ambience = scene.ambience.compactMap { bed -> AudioPlan.Bed? in
                guard let sound = soundIndex(bed.sound) else { return nil }
                let gain = bed.gain * (document.sound(named: bed.sound)?.gain ?? 1)
                return AudioPlan.Bed(sound: sound, gain: Float(gain),
                                     fadeInFrames: Int(bed.fadeIn * Double(sampleRate)),
                                     fadeOutFrames: Int(bed.fadeOut * Double(sampleRate)))
            }
            let cues = cueFrames(index).compactMap { frame, cue -> SceneCue? in
                guard let sound = soundIndex(cue.sound) else { return nil }
                let gain = cue.gain * (document.sound(named: cue.sound)?.gain ?? 1)
                return SceneCue(frame: frame, sound: sound, soundName: cue.sound, gain: Float(gain), pan: Float(cue.pan))
            }
            return PlaybackScene(id: scene.id, frames: frames(scene.duration, sampleRate: sampleRate),
                                 ambience: ambience, cues: cues)
        }
    }

    /// Frames of the cues fired at absolute scene times (`"at"` triggers), for when no cue schedule is at hand.
    public static func timedCueFrames(of scene: Scene, sampleRate: Int) -> [(frame: Int64, cue: Cue)] {
        scene.cues.compactMap { cue in
            guard case .at(let time) = cue.trigger else { return nil }
            let frame = frames(time + cue.offset, sampleRate: sampleRate)
            return (0..<frames(scene.duration, sampleRate: sampleRate)).contains(frame) ? (frame, cue) : nil
        }
    }
}
