import DioramaMixer

/// The playlist's sound as mixer commands in frame order: what both the offline render and the
/// live output follow. Frames count from the playlist's start at the engine's rate.
public struct AudioPlan: Sendable {
    /// A scene's place on the sample clock and the ambience beds it plays while it shows.
    public struct SceneSound: Sendable, Equatable {
        public var startFrame: Int64
        public var endFrame: Int64
        public var ambience: [Bed]
        public init(startFrame: Int64, endFrame: Int64, ambience: [Bed]) {
            self.startFrame = startFrame
            self.endFrame = endFrame
            self.ambience = ambience
        }
    }

    /// A looping bed: starts with the scene (fading in), fades out from the scene's end, so one
    /// scene's bed cross-fades into the next one's.
    public struct Bed: Sendable, Equatable {
        public var sound: Int
        public var gain: Float
        public var fadeInFrames: Int
        public var fadeOutFrames: Int
        /// The frame it starts on when that is a moment of the scene (its `start`); nil: the scene's start.
        public var startFrame: Int64?
        public init(sound: Int, gain: Float, fadeInFrames: Int, fadeOutFrames: Int, startFrame: Int64? = nil) {
            self.sound = sound
            self.gain = gain
            self.fadeInFrames = fadeInFrames
            self.fadeOutFrames = fadeOutFrames
            self.startFrame = startFrame
        }
    }

    /// A one-shot sound starting on an exact frame.
    public struct CueSound: Sendable, Equatable {
        public var frame: Int64
        public var sound: Int
        public var gain: Float
        public var pan: Float
        /// Whether it repeats until a stop of its tag.
        public var loops: Bool
        /// Its voice's tag (`cueTag`), for the stops that end it.
        public var tag: UInt32
        public var duck: VoiceDuck
        public init(frame: Int64, sound: Int, gain: Float, pan: Float, loops: Bool = false, tag: UInt32 = 0, duck: VoiceDuck = .none) {
            self.frame = frame
            self.sound = sound
            self.gain = gain
            self.pan = pan
            self.loops = loops
            self.tag = tag
            self.duck = duck
        }
    }

    /// The end of the voices tagged `tag` started before `frame`: a fade to silence from it.
    public struct StopSound: Sendable, Equatable {
        public var frame: Int64
        public var tag: UInt32
        public var fadeFrames: Int
        public init(frame: Int64, tag: UInt32, fadeFrames: Int) {
            self.frame = frame
            self.tag = tag
            self.fadeFrames = fadeFrames
        }
    }

    /// Commands sorted by the frame they act on (stable for equal frames).
    public let commands: [MixerCommand]
    /// The frame after the last scene's end.
    public let endFrame: Int64

    /// - Parameters: `stops`: ends of cue voices (a loop's `until`, a stop cue, a scene's end); at one frame they
    ///   act before the cues' starts, so a loop ended and started again on one frame plays on from there.
    public init(scenes: [SceneSound], cues: [CueSound], stops: [StopSound] = []) {
        var timed: [(frame: Int64, command: MixerCommand)] = []
        for (index, scene) in scenes.enumerated() {
            for (bedIndex, bed) in scene.ambience.enumerated() {
                let tag = Self.bedTag(scene: index, bed: bedIndex)
                let start = bed.startFrame ?? scene.startFrame
                timed.append((start, .start(VoiceStart(
                    sound: bed.sound, frame: start, gain: bed.gain, fadeInFrames: bed.fadeInFrames,
                    loops: true, tag: tag, priority: .ambience, catchUp: true))))
                timed.append((scene.endFrame, .stop(tag: tag, frame: scene.endFrame, fadeFrames: bed.fadeOutFrames)))
            }
        }
        for stop in stops {
            timed.append((stop.frame, .stop(tag: stop.tag, frame: stop.frame, fadeFrames: stop.fadeFrames)))
        }
        for cue in cues {
            timed.append((cue.frame, .start(VoiceStart(sound: cue.sound, frame: cue.frame, gain: cue.gain, pan: cue.pan,
                                                       loops: cue.loops, tag: cue.tag, catchUp: true, duck: cue.duck))))
        }
        let sorted = timed.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
        commands = sorted.map(\.element.command)
        endFrame = scenes.map(\.endFrame).max() ?? (cues.map(\.frame).max() ?? 0)
    }

    /// The voice tag of a scene's bed: each bed has its own, so each fades out over its own time.
    public static func bedTag(scene: Int, bed: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: scene + 1) << 8 | UInt32(truncatingIfNeeded: bed & 0xFF)
    }

    /// The voice tag of a scene's cue, for the stops that end its sound: the top bit set (no bed's tag has it,
    /// below 8 388 607 scenes), then the scene (15 bits) and the cue's index (16 bits).
    public static func cueTag(scene: Int, cue: Int) -> UInt32 {
        1 << 31 | (UInt32(truncatingIfNeeded: scene + 1) & 0x7FFF) << 16 | UInt32(truncatingIfNeeded: cue & 0xFFFF)
    }

    /// Whether `tag` is a cue's (`cueTag`) rather than a bed's.
    public static func isCueTag(_ tag: UInt32) -> Bool { tag & 1 << 31 != 0 }

    /// The frame a command acts on.
    public static func frame(of command: MixerCommand) -> Int64 {
        switch command {
        case .start(let start): start.frame
        case .stop(_, let frame, _), .stopAll(let frame, _), .pause(let frame, _), .resume(let frame, _): frame
        case .revoke(let frame): frame
        case .volume: .min
        }
    }

    /// The command moved by `offset` frames (to run a span on a clock that starts at its first frame).
    public static func shifted(_ command: MixerCommand, by offset: Int64) -> MixerCommand {
        switch command {
        case .start(var start):
            start.frame += offset
            return .start(start)
        case .stop(let tag, let frame, let fade): return .stop(tag: tag, frame: frame + offset, fadeFrames: fade)
        case .stopAll(let frame, let fade): return .stopAll(frame: frame + offset, fadeFrames: fade)
        case .revoke(let frame): return .revoke(fromFrame: frame + offset)
        case .pause(let frame, let fade): return .pause(frame: frame + offset, fadeFrames: fade)
        case .resume(let frame, let fade): return .resume(frame: frame + offset, fadeFrames: fade)
        case .volume: return command
        }
    }
}

/// Hands a plan's commands to a mixer a little ahead of their frames, so neither the command
/// ring nor the mixer's waiting list ever holds more than a look-ahead's worth.
public struct AudioPlanFeeder: Sendable {
    /// The commands still relevant to the span, in frame order.
    public let commands: [MixerCommand]
    /// Playlist frame that is frame 0 of the mixer's clock.
    public let firstFrame: Int64
    private var next = 0

    /// - Parameters: `soundFrames`: each sound's length in frames, to leave out one-shots that
    ///   ended before `firstFrame` (so a span late in a long playlist starts without a backlog).
    public init(plan: AudioPlan, firstFrame: Int64 = 0, soundFrames: [Int]) {
        self.firstFrame = firstFrame
        guard firstFrame > 0 else {
            commands = plan.commands
            return
        }
        var bedEnds: [UInt32: [(frame: Int64, fade: Int)]] = [:]
        for command in plan.commands {
            if case .stop(let tag, let frame, let fade) = command { bedEnds[tag, default: []].append((frame, fade)) }
        }
        commands = plan.commands.filter { command in
            // A ducking voice matters until its duck has come back up, after its release.
            let duckRelease = { (start: VoiceStart) in start.duck.isActive ? Int64(start.duck.releaseFrames) : 0 }
            switch command {
            case .start(let start) where start.loops:
                // A bed is over if a stop of its tag has faded out before the span.
                return !(bedEnds[start.tag] ?? []).contains { stop in
                    let end = stop.frame + max(Int64(stop.fade), duckRelease(start))
                    return end > start.frame && end <= firstFrame
                }
            case .start(let start):
                let length = soundFrames.indices.contains(start.sound) ? soundFrames[start.sound] : 0
                return start.frame + Int64(length) + duckRelease(start) > firstFrame
            case .stop(_, let frame, let fade), .stopAll(let frame, let fade):
                return frame + Int64(fade) > firstFrame
            case .revoke, .pause, .resume, .volume:
                return true
            }
        }
    }

    /// Whether every command has been sent.
    public var isFinished: Bool { next == commands.count }

    /// Sends every command acting before mixer frame `limit`; stops early (to retry later) if
    /// the ring is full. Returns how many were sent.
    @discardableResult
    public mutating func feed(_ mixer: Mixer, before limit: Int64) -> Int {
        var sent = 0
        while next < commands.count {
            let command = AudioPlan.shifted(commands[next], by: -firstFrame)
            guard AudioPlan.frame(of: command) < limit else { break }
            guard mixer.commands.push(command) else { break }
            next += 1
            sent += 1
        }
        return sent
    }
}
