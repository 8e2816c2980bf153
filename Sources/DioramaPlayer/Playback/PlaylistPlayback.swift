import DioramaMixer

/// Where the playlist is at one frame of the audio clock.
public struct PlaylistPosition: Sendable, Equatable {
    /// The current scene, 0-based.
    public var sceneIndex: Int
    /// Frames into the scene (fractional when the clock is interpolated).
    public var sceneFrame: Double
    public var isPaused: Bool
    /// True after the last scene when the playlist does not wrap (`--once`).
    public var hasEnded: Bool

    public init(sceneIndex: Int, sceneFrame: Double, isPaused: Bool = false, hasEnded: Bool = false) {
        self.sceneIndex = sceneIndex
        self.sceneFrame = sceneFrame
        self.isPaused = isPaused
        self.hasEnded = hasEnded
    }

    /// Seconds into the scene.
    public func sceneTime(sampleRate: Int) -> Double { sceneFrame / Double(sampleRate) }
}

/// A cue that reached the output: when it was scheduled and when it sounds.
public struct CueStartRecord: Sendable, Equatable {
    public var sceneIndex: Int
    public var sceneID: String
    public var sound: String
    /// The cue's frame within its scene (the cue schedule's sample index).
    public var sceneFrame: Int64
    /// The mixer frame the voice starts on.
    public var frame: Int64
    /// The output's write frame when the start was sent: a start sent after its frame was rendered is late.
    public var writeFrameAtSend: Int64

    /// Frames the cue starts after its scheduled frame (0 when it was sent in time).
    public var lateFrames: Int64 { max(0, writeFrameAtSend - frame) }
}

/// Drives the sound of a playlist on the output's sample clock, and answers where the playlist is at
/// any frame being heard, so the picture follows the audio clock.
///
/// Cues and scene changes are scheduled `lookahead` frames ahead of the output's write frame, each at
/// its exact frame. A command (next, pause, ...) takes effect at the write frame plus `commandMargin`;
/// whatever had been scheduled past that frame is cancelled, so cues skipped over never sound. The
/// picture reaches the change when that frame is heard, in step with the sound.
public final class PlaylistPlayback {
    public let output: any SoundOutput
    public private(set) var scenes: [PlaybackScene]
    /// Whether the playlist starts again after the last scene (otherwise it ends there).
    public var wraps: Bool
    /// Frames scheduled ahead of the write frame.
    public var lookahead: Int64
    /// Frames after the write frame at which a command takes effect, so it reaches the mixer in time.
    public var commandMargin: Int64
    /// Frames of the ramps that pause and resume the sound.
    public var pauseFadeFrames: Int

    private struct Segment {
        /// Mixer frame where the segment begins.
        var startFrame: Int64
        var scene: Int
        /// Frames into the scene at `startFrame`.
        var sceneFrame: Int64
        var running: Bool
        var ended: Bool
        /// Mixer tags of this scene's ambience voices, with each bed's fade-out frames.
        var ambience: [(tag: UInt32, fadeOutFrames: Int)]
    }

    private struct PendingCue {
        var tag: UInt32
        var record: CueStartRecord
    }

    private var segments: [Segment] = []
    /// Frames before this one are scheduled.
    private var horizon: Int64
    private var pendingCues: [PendingCue] = []
    private var startedCues: [CueStartRecord] = []
    private var nextTag: UInt32 = 1

    /// Starts playing `scenes` from `sceneIndex` at `sceneFrame` frames into it.
    public init(scenes: [PlaybackScene], output: any SoundOutput, wraps: Bool = true, sceneIndex: Int = 0,
                sceneFrame: Int64 = 0, paused: Bool = false, lookahead: Int64? = nil, commandMargin: Int64? = nil) {
        precondition(!scenes.isEmpty, "a playlist needs at least one scene")
        self.scenes = scenes
        self.output = output
        self.wraps = wraps
        // Half a second: a frame that takes long (a reload, a busy machine) still finds its cues queued.
        self.lookahead = lookahead ?? Int64(output.sampleRate / 2)
        self.commandMargin = commandMargin ?? output.commandMargin
        self.pauseFadeFrames = output.sampleRate / 100
        let start = output.writeFrame() + self.commandMargin
        horizon = start
        let index = min(max(sceneIndex, 0), scenes.count - 1)
        let frame = min(max(sceneFrame, 0), scenes[index].frames - 1)
        segments = [Segment(startFrame: start, scene: index, sceneFrame: frame, running: !paused, ended: false,
                            ambience: paused ? [] : startAmbience(of: index, at: start, fadeIn: nil))]
        update()
    }

    public var sampleRate: Int { output.sampleRate }

    // MARK: - The clock the picture follows

    /// The playlist at the frame being heard now.
    public var current: PlaylistPosition { position(atHeard: output.heardFrame()) }

    /// The playlist as the last command left it: at the frame commands act on, ahead of what is heard.
    public var commanded: PlaylistPosition { position(atHeard: Double(commandFrame)) }

    /// The playlist at mixer frame `frame` (fractional), from what has been scheduled.
    public func position(atHeard frame: Double) -> PlaylistPosition {
        let segment = segments.last { Double($0.startFrame) <= frame } ?? segments[0]
        if segment.ended {
            return PlaylistPosition(sceneIndex: segment.scene, sceneFrame: Double(segment.sceneFrame), isPaused: false, hasEnded: true)
        }
        var sceneFrame = Double(segment.sceneFrame)
        if segment.running { sceneFrame += max(0, frame - Double(segment.startFrame)) }
        let last = Double(scenes[segment.scene].frames) - 1e-6
        return PlaylistPosition(sceneIndex: segment.scene, sceneFrame: min(sceneFrame, last), isPaused: !segment.running)
    }

    /// Cues whose start frame has been heard since the last call, in order.
    public func takeStartedCues() -> [CueStartRecord] {
        let heard = output.heardFrame()
        let (due, waiting) = (pendingCues.filter { Double($0.record.frame) <= heard }, pendingCues.filter { Double($0.record.frame) > heard })
        pendingCues = waiting
        let started = startedCues + due.map(\.record)
        startedCues = []
        return started
    }

    // MARK: - Scheduling

    /// Schedules cues and scene changes up to `lookahead` frames past the write frame. Call once per frame.
    public func update() {
        let target = output.writeFrame() + lookahead
        while horizon < target {
            let segment = segments[segments.count - 1]
            guard segment.running, !segment.ended else {
                horizon = target
                break
            }
            let scene = scenes[segment.scene]
            let end = segment.startFrame + (scene.frames - segment.sceneFrame)
            let until = min(target, end)
            let from = segment.sceneFrame + (horizon - segment.startFrame)
            let to = segment.sceneFrame + (until - segment.startFrame)
            for cue in scene.cues where cue.frame >= from && cue.frame < to {
                schedule(cue, scene: segment.scene, at: segment.startFrame + (cue.frame - segment.sceneFrame))
            }
            horizon = until
            if end <= target { advanceScene(after: segment, at: end) }
        }
        prune()
    }

    private func advanceScene(after segment: Segment, at frame: Int64) {
        stopAmbience(segment.ambience, at: frame, fadeFrames: nil)
        let last = segment.scene == scenes.count - 1
        if last && !wraps {
            segments.append(Segment(startFrame: frame, scene: segment.scene, sceneFrame: scenes[segment.scene].frames - 1,
                                    running: false, ended: true, ambience: []))
        } else {
            let next = last ? 0 : segment.scene + 1
            segments.append(Segment(startFrame: frame, scene: next, sceneFrame: 0, running: true, ended: false,
                                    ambience: startAmbience(of: next, at: frame, fadeIn: nil)))
        }
    }

    private func schedule(_ cue: SceneCue, scene: Int, at frame: Int64) {
        let tag = takeTag()
        let write = output.writeFrame()
        output.send(.start(VoiceStart(sound: cue.sound, frame: frame, gain: cue.gain, pan: cue.pan, tag: tag, priority: .cue)))
        pendingCues.append(PendingCue(tag: tag, record: CueStartRecord(
            sceneIndex: scene, sceneID: scenes[scene].id, sound: cue.soundName, sceneFrame: cue.frame, frame: frame,
            writeFrameAtSend: write)))
    }

    private func startAmbience(of scene: Int, at frame: Int64, fadeIn: Int?) -> [(tag: UInt32, fadeOutFrames: Int)] {
        scenes[scene].ambience.map { bed in
            let tag = takeTag()
            output.send(.start(VoiceStart(sound: bed.sound, frame: frame, gain: bed.gain, pan: 0,
                                          fadeInFrames: fadeIn ?? bed.fadeInFrames, loops: true, tag: tag,
                                          priority: .ambience)))
            return (tag, bed.fadeOutFrames)
        }
    }

    private func stopAmbience(_ ambience: [(tag: UInt32, fadeOutFrames: Int)], at frame: Int64, fadeFrames: Int?) {
        for bed in ambience {
            output.send(.stop(tag: bed.tag, frame: frame, fadeFrames: fadeFrames ?? bed.fadeOutFrames))
        }
    }

    private func takeTag() -> UInt32 {
        defer { nextTag = nextTag == .max ? 1 : nextTag + 1 }
        return nextTag
    }

    /// Keeps only the segment in effect at the frame being heard and those after it.
    private func prune() {
        let heard = output.heardFrame()
        if let index = segments.lastIndex(where: { Double($0.startFrame) <= heard }), index > 0 {
            segments.removeFirst(index)
        }
        let due = pendingCues.filter { Double($0.record.frame) <= heard }
        if !due.isEmpty {
            startedCues += due.map(\.record)
            pendingCues.removeAll { Double($0.record.frame) <= heard }
        }
    }

    // MARK: - Commands

    /// The frame a command sent now takes effect at.
    private var commandFrame: Int64 { output.writeFrame() + commandMargin }

    /// Cancels everything scheduled at or after `frame` and returns the segment in effect there.
    private func cut(at frame: Int64) -> (segment: Segment, sceneFrame: Int64, cutSceneChange: Bool) {
        let minimal = pauseFadeFrames
        let cutSceneChange = segments.contains { $0.startFrame >= frame && $0.startFrame > segments[0].startFrame }
        for segment in segments where segment.startFrame >= frame && segment.startFrame > segments[0].startFrame {
            stopAmbience(segment.ambience, at: frame, fadeFrames: minimal)
        }
        var kept = segments.filter { $0.startFrame < frame }
        if kept.isEmpty { kept = [segments[0]] }
        segments = kept
        for cue in pendingCues where cue.record.frame >= frame {
            output.send(.stop(tag: cue.tag, frame: frame, fadeFrames: minimal))
        }
        pendingCues.removeAll { $0.record.frame >= frame }
        horizon = frame
        let segment = segments[segments.count - 1]
        var sceneFrame = segment.sceneFrame
        if segment.running { sceneFrame += max(0, frame - segment.startFrame) }
        return (segment, min(sceneFrame, scenes[segment.scene].frames - 1), cutSceneChange)
    }

    /// Goes to `scene` (0-based, clamped) from its start, fading the current scene's ambience out and the new one's in.
    public func jump(to scene: Int) {
        let frame = commandFrame
        let (segment, _, _) = cut(at: frame)
        stopAmbience(segment.ambience, at: frame, fadeFrames: nil)
        let index = min(max(scene, 0), scenes.count - 1)
        let running = segment.running || segment.ended
        segments.append(Segment(startFrame: frame, scene: index, sceneFrame: 0, running: running, ended: false,
                                ambience: running ? startAmbience(of: index, at: frame, fadeIn: nil) : []))
        update()
    }

    /// The next scene; after the last, the first (or the end, when the playlist does not wrap).
    public func next() {
        let scene = position(atHeard: Double(commandFrame)).sceneIndex
        if scene == scenes.count - 1 && !wraps {
            let frame = commandFrame
            let (segment, _, _) = cut(at: frame)
            stopAmbience(segment.ambience, at: frame, fadeFrames: nil)
            segments.append(Segment(startFrame: frame, scene: scene, sceneFrame: scenes[scene].frames - 1,
                                    running: false, ended: true, ambience: []))
            update()
        } else {
            jump(to: (scene + 1) % scenes.count)
        }
    }

    /// The previous scene from its start; on the first scene, its start again.
    public func previous() {
        jump(to: max(0, position(atHeard: Double(commandFrame)).sceneIndex - 1))
    }

    /// The first scene from its start.
    public func restart() { jump(to: 0) }

    /// Freezes the playlist and silences the sound with a short ramp.
    public func pause() {
        let frame = commandFrame
        let (segment, sceneFrame, _) = cut(at: frame)
        guard segment.running, !segment.ended else { return }
        stopAmbience(segment.ambience, at: frame, fadeFrames: pauseFadeFrames)
        // Cues still ringing out stop with the same ramp.
        output.send(.stopAll(frame: frame, fadeFrames: pauseFadeFrames))
        segments.append(Segment(startFrame: frame, scene: segment.scene, sceneFrame: sceneFrame, running: false,
                                ended: false, ambience: []))
        update()
    }

    /// Continues from where `pause` froze, the ambience coming back with a short ramp.
    public func resume() {
        let frame = commandFrame
        let (segment, sceneFrame, _) = cut(at: frame)
        guard !segment.running, !segment.ended else { return }
        segments.append(Segment(startFrame: frame, scene: segment.scene, sceneFrame: sceneFrame, running: true,
                                ended: false, ambience: startAmbience(of: segment.scene, at: frame, fadeIn: pauseFadeFrames)))
        update()
    }

    /// Whether the playlist is paused at the frame commands act on (what the user last asked for).
    public var isPausedForCommands: Bool {
        let segment = segments.last { $0.startFrame <= commandFrame } ?? segments[segments.count - 1]
        return !segment.running && !segment.ended
    }

    public func togglePause() {
        if isPausedForCommands { resume() } else { pause() }
    }

    /// Replaces the playlist (after a reload), staying in the scene with the same id at the same frame
    /// where it still exists. An unchanged ambience keeps playing; a changed one crossfades.
    public func replaceScenes(_ newScenes: [PlaybackScene]) {
        precondition(!newScenes.isEmpty, "a playlist needs at least one scene")
        let frame = commandFrame
        let (segment, sceneFrame, cutSceneChange) = cut(at: frame)
        let oldScene = scenes[segment.scene]
        let index = newScenes.firstIndex { $0.id == oldScene.id } ?? min(segment.scene, newScenes.count - 1)
        let keptFrame = min(sceneFrame, newScenes[index].frames - 1)
        scenes = newScenes
        var ambience = segment.ambience
        // A scene change cut from the schedule had already asked these beds to stop: start them afresh.
        if segment.running && (newScenes[index].ambience != oldScene.ambience || cutSceneChange) {
            stopAmbience(segment.ambience, at: frame, fadeFrames: nil)
            ambience = startAmbience(of: index, at: frame, fadeIn: nil)
        }
        segments.append(Segment(startFrame: frame, scene: index, sceneFrame: segment.ended ? newScenes[index].frames - 1 : keptFrame,
                                running: segment.running, ended: segment.ended, ambience: ambience))
        update()
    }
}
