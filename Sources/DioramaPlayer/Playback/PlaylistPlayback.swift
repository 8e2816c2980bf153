import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTimeline

/// Where the playlist is at one frame of the audio clock.
public struct PlaylistPosition: Sendable, Equatable {
    /// The current scene, 0-based.
    public var sceneIndex: Int
    /// Frames (samples) into the scene, fractional between samples and where a scene starts between two samples.
    public var sceneFrame: Double
    public var isPaused: Bool
    /// True after the last scene when the playlist does not wrap (`--once`).
    public var hasEnded: Bool
    /// The taps of this visit of the scene, as `Scene.taps` takes them; empty when
    /// none of its nodes was tapped (their `auto` taps apply).
    public var taps = VisitTaps()

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
    /// The cue's sample index within its scene: `ceil(sceneTime × sampleRate)`, the first sample at or after its
    /// scene time, as the cue schedule counts.
    public var sceneFrame: Int64
    /// The mixer frame the voice starts on.
    public var frame: Int64
    /// The output's write frame when the start was sent: a start sent after its frame was rendered is late.
    public var writeFrameAtSend: Int64

    /// Frames the cue starts after its scheduled frame (0 when it was sent in time).
    public var lateFrames: Int64 { max(0, writeFrameAtSend - frame) }
}

/// Plays a playlist's sound on the output's sample clock through the timeline's `PlaylistSequencer`, and answers
/// where the playlist is at the frame being heard, so the picture follows the audio clock.
///
/// The sequencer runs on mixer frames. Each `update()` advances it `lookahead` frames past the write frame and
/// sends the mixer the commands its events map to (`PlaylistAudio.commands(for:)` in production), so every cue
/// starts on its exact sample. A command (next, pause, ...) acts at the write frame plus `commandMargin`: the
/// sequencer revokes what it had announced from there on (`.revoke` to the mixer), so cues skipped over never
/// sound. The picture reaches the change when that frame is heard: each command's sequencer value is kept,
/// keyed by the frame it took effect, until the heard frame passes it.
///
/// Example:
/// ```swift
/// let audio = PlaylistAudio(document: document, bank: bank)
/// let playback = PlaylistPlayback(document: document, soundCommands: audio.commands(for:), output: output)
/// playback.update()                       // once per window frame
/// let heard = playback.current            // what to draw
/// ```
public final class PlaylistPlayback {
    /// The mixer commands for one sequencer event.
    public typealias SoundCommands = (SequencerEvent) -> [MixerCommand]

    public let output: any SoundOutput
    /// The playlist being played (the last one a reload gave).
    public private(set) var document: Document
    /// What happens after the last scene.
    public let end: PlaylistEnd
    /// Frames scheduled ahead of the write frame.
    public var lookahead: Int64
    /// Frames after the write frame at which a command takes effect, so it reaches the mixer in time.
    public var commandMargin: Int64

    private var soundCommands: SoundCommands
    /// The sequencer commands act on, advanced to the look-ahead.
    private var sequencer: PlaylistSequencer

    /// A sequencer value from the frame its last command took effect on; it answers for the frames until the next.
    private struct Stage {
        var frame: Int64
        var sequencer: PlaylistSequencer
        /// The current document's index of each of the sequencer's scenes (the identity unless a reload moved them).
        var sceneIndexes: [Int]
    }

    /// In frame order; the first is in effect at the frame being heard, the last is the newest command's.
    private var stages: [Stage]

    /// A bed that kept playing through a reload that moved its scene to another index: its voices carry the old
    /// scene's tag, so a stop of the new tag must stop them too.
    private struct BedAlias {
        var tag: UInt32
        var voiceTag: UInt32
        /// The frame of the stop that ended the voices; nil while they play (a revocation may clear it again).
        var stoppedAt: Int64?
    }

    private var aliases: [BedAlias] = []
    /// Cue starts sent and not heard yet.
    private var pendingCues: [CueStartRecord] = []
    /// Cue starts heard and not taken yet.
    private var startedCues: [CueStartRecord] = []

    /// Starts playing `document` at scene `sceneIndex` (clamped), `sceneTime` seconds into it, paused if asked (then
    /// silent until `resume`).
    ///
    /// - Parameters:
    ///   - soundCommands: the mixer commands of a sequencer event: `PlaylistAudio(document:bank:).commands(for:)`.
    ///   - lookahead: frames scheduled ahead of the write frame (default half a second, so a slow frame still finds
    ///     its cues queued).
    ///   - commandMargin: frames after the write frame at which commands act (default: the output's).
    public init(document: Document, soundCommands: @escaping SoundCommands, output: any SoundOutput, end: PlaylistEnd = .wrap,
                sceneIndex: Int = 0, sceneTime: Rational = .zero, paused: Bool = false,
                lookahead: Int64? = nil, commandMargin: Int64? = nil) {
        precondition(!document.scenes.isEmpty, "a playlist needs at least one scene")
        self.output = output
        self.document = document
        self.soundCommands = soundCommands
        self.end = end
        self.lookahead = lookahead ?? Int64(output.sampleRate / 2)
        self.commandMargin = commandMargin ?? output.commandMargin
        let frame = output.writeFrame() + self.commandMargin
        var sequencer = PlaylistSequencer(document: document, sampleRate: output.sampleRate, end: end)
        let scene = min(max(sceneIndex, 0), document.scenes.count - 1)
        var events = sequencer.play(at: frame, scene: scene)
        if sceneTime > .zero { events += sequencer.seek(to: sceneTime, at: frame) }
        if paused { events += sequencer.pause(at: frame) }
        self.sequencer = sequencer
        stages = [Stage(frame: frame, sequencer: sequencer, sceneIndexes: Array(document.scenes.indices))]
        // Started paused, nothing has been heard: the hold begins at the first frame, without the pause's ramp, so
        // not even a bed's first milliseconds sound until the resume.
        if paused { output.send(.pause(frame: frame, fadeFrames: 0)) }
        deliver(events)
        update()
    }

    public var sampleRate: Int { output.sampleRate }

    // MARK: - The clock the picture follows

    /// The playlist at the frame being heard now.
    public var current: PlaylistPosition { position(atHeard: output.heardFrame()) }

    /// The playlist as the last command left it, at the frame commands act on (ahead of what is heard): the
    /// story viewer's page and the window title.
    public var commanded: PlaylistPosition { position(of: stages[stages.count - 1], at: Double(commandFrame)) }

    /// The playlist as the last command left it, at mixer frame `frame` (at or after the command frame): `commanded`
    /// at a frame read once, where the command frame may move on between two readings.
    public func commanded(atFrame frame: Int64) -> PlaylistPosition { position(of: stages[stages.count - 1], at: Double(frame)) }

    /// The playlist at mixer frame `frame` (fractional), from the command in effect there.
    public func position(atHeard frame: Double) -> PlaylistPosition {
        let whole = Int64(frame.rounded(.down))
        let stage = stages.last { $0.frame <= whole } ?? stages[0]
        return position(of: stage, at: frame)
    }

    /// Whether the playlist is paused at the frame commands act on (what the user last asked for).
    public var isPausedForCommands: Bool { commanded.isPaused }

    /// Cues whose start frame has been heard since the last call, in order.
    public func takeStartedCues() -> [CueStartRecord] {
        let heard = output.heardFrame()
        let due = pendingCues.prefix { Double($0.frame) <= heard }
        pendingCues.removeFirst(due.count)
        defer { startedCues = [] }
        return startedCues + due
    }

    private func position(of stage: Stage, at frame: Double) -> PlaylistPosition {
        let rate = Rational(sampleRate)
        let whole = Int64(frame.rounded(.down))
        guard let here = stage.sequencer.position(at: whole) else {
            let last = document.scenes.count - 1
            return PlaylistPosition(sceneIndex: last, sceneFrame: durationFrames(last), hasEnded: true)
        }
        var sceneFrame = (here.sceneTime * rate).doubleValue
        // Between two samples the scene moves on smoothly (not before the scene starts, nor across its end).
        if !here.isPaused, let next = stage.sequencer.position(at: whole + 1), next.scene == here.scene, !next.isPaused {
            sceneFrame += (frame - Double(whole)) * ((next.sceneTime - here.sceneTime) * rate).doubleValue
        }
        let index = stage.sceneIndexes.indices.contains(here.scene)
            ? stage.sceneIndexes[here.scene] : min(here.scene, document.scenes.count - 1)
        var position = PlaylistPosition(sceneIndex: index, sceneFrame: min(sceneFrame, durationFrames(index)), isPaused: here.isPaused)
        position.taps = stage.sequencer.taps(at: whole)
        return position
    }

    /// The scene's length in frames (fractional).
    private func durationFrames(_ scene: Int) -> Double {
        (document.scenes[scene].duration * Rational(sampleRate)).doubleValue
    }

    // MARK: - Scheduling

    /// Sends the cues and scene changes up to `lookahead` frames past the write frame, and forgets what has been
    /// heard. Call once per window frame.
    public func update() {
        deliver(sequencer.advance(to: output.writeFrame() + lookahead))
        let heard = output.heardFrame()
        while stages.count > 1, Double(stages[1].frame) <= heard { stages.removeFirst() }
        let due = pendingCues.prefix { Double($0.frame) <= heard }
        if !due.isEmpty {
            startedCues += due
            pendingCues.removeFirst(due.count)
        }
        // A stop already heard can no longer be revoked.
        aliases.removeAll { alias in alias.stoppedAt.map { Double($0) <= heard } ?? false }
    }

    /// Sends the mixer commands of `events` and notes the cue starts for the log.
    private func deliver(_ events: [SequencerEvent]) {
        for event in events {
            switch event {
            case .revoked(let frame):
                forgetCues(from: frame)
                for index in aliases.indices where (aliases[index].stoppedAt ?? .min) >= frame { aliases[index].stoppedAt = nil }
                for command in soundCommands(event) { output.send(command) }
            case .cueDue(let firing, let frame):
                let commands = soundCommands(event)
                guard !commands.isEmpty else { continue }  // a sound that is not loaded stays silent
                let write = output.writeFrame()
                for command in commands { output.send(command) }
                pendingCues.append(CueStartRecord(
                    sceneIndex: firing.scene, sceneID: firing.sceneID, sound: firing.sound,
                    sceneFrame: Int64(clamping: (firing.sceneTime * Rational(sampleRate)).ceiling),
                    frame: frame, writeFrameAtSend: write))
            default:
                for command in translate(soundCommands(event)) { output.send(command) }
            }
        }
    }

    /// Forgets the cue starts at or after `frame`, which a revocation keeps from sounding (the frame commands act on
    /// is never rendered yet, even when the stand-in clock says it is heard).
    private func forgetCues(from frame: Int64) {
        pendingCues.removeAll { $0.frame >= frame }
        startedCues.removeAll { $0.frame >= frame }
    }

    /// `commands` with a stop of each aliased bed's voices beside the stop of its tag.
    private func translate(_ commands: [MixerCommand]) -> [MixerCommand] {
        guard !aliases.isEmpty else { return commands }
        var result: [MixerCommand] = []
        for command in commands {
            result.append(command)
            guard case .stop(let tag, let frame, let fade) = command,
                  let index = aliases.firstIndex(where: { $0.tag == tag && $0.stoppedAt == nil }) else { continue }
            aliases[index].stoppedAt = frame
            result.append(.stop(tag: aliases[index].voiceTag, frame: frame, fadeFrames: fade))
        }
        return result
    }

    // MARK: - Commands

    /// The frame a command given now acts on (the sequencer keeps commands in order).
    private var commandFrame: Int64 { output.writeFrame() + commandMargin }

    /// The frame of the last reload. A command there would come after a look-ahead that the reload's fresh
    /// sequencer cannot revoke without voiding the reload's own bed changes, so commands act a frame after it.
    private var reloadFrame: Int64 = .min

    /// The mixer frame the next command will act on.
    public var nextCommandFrame: Int64 { max(commandFrame, reloadFrame + 1) }

    /// Runs `command` on the sequencer at the command frame and sends its sound.
    private func perform(_ command: (inout PlaylistSequencer, Int64) -> [SequencerEvent]) {
        deliver(command(&sequencer, nextCommandFrame))
        commit(sequencer, sceneIndexes: Array(document.scenes.indices))
        update()
    }

    /// Makes `next` the newest sequencer, in effect from the frame its last command acted at.
    private func commit(_ next: PlaylistSequencer, sceneIndexes: [Int]) {
        sequencer = next
        let stage = Stage(frame: next.lastCommandFrame, sequencer: next, sceneIndexes: sceneIndexes)
        if stages[stages.count - 1].frame >= stage.frame {
            stages[stages.count - 1] = stage
        } else {
            stages.append(stage)
        }
    }

    /// Goes to `scene` (0-based, clamped) from its start: its ambience fades in, the current one's fades out.
    public func jump(to scene: Int) {
        let index = min(max(scene, 0), document.scenes.count - 1)
        perform { $0.jump(to: index, at: $1) }
    }

    /// Goes to `time` seconds into scene `scene` (0-based, clamped) at the command frame, paused or playing as it
    /// is: within the scene showing there it is a seek (what lasts goes on without a gap), another scene is entered
    /// there and sought in the same frame (a shared show clock moved, or a show controller's `/seek`).
    public func seek(scene: Int, to time: Rational) {
        seek { _ in (scene, time) }
    }

    /// Seeks, as `seek(scene:to:)` does, to the place `place` gives for the mixer frame the seek acts on (known only
    /// then: a shared show's time at that frame), and resumes there in the same frame when `resuming`.
    public func seek(resuming: Bool = false, to place: (Int64) -> (scene: Int, time: Rational)) {
        perform { sequencer, frame in
            let (scene, time) = place(frame)
            let index = min(max(scene, 0), document.scenes.count - 1)
            var events: [SequencerEvent] = []
            if sequencer.position(at: frame)?.scene != index { events += sequencer.jump(to: index, at: frame) }
            events += sequencer.seek(to: time, at: frame)
            if resuming { events += sequencer.resume(at: frame) }
            return events
        }
    }

    /// The next scene; after the last, the first (or the end, when the playlist does not wrap).
    public func next() { perform { $0.next(at: $1) } }

    /// The previous scene from its start; on the first scene, its start again.
    public func previous() { perform { $0.previous(at: $1) } }

    /// The first scene from its start.
    public func restart() { jump(to: 0) }

    /// Freezes the playlist; the sound holds with a short ramp.
    public func pause() { perform { $0.pause(at: $1) } }

    /// Continues from where `pause` froze, in step with the sound.
    public func resume() { perform { $0.resume(at: $1) } }

    /// Taps the tappable node `node` of the scene at the frame commands act on, as its next tap of this visit of
    /// the scene (the first, the second, ...): what waits for that tap starts from there (its sound on that frame
    /// plus its offset), what its `auto` tap had announced is revoked when this one comes first, and the picture
    /// shows it once that frame is heard.
    public func tap(_ node: String) { perform { $0.tap(node, at: $1) } }

    public func togglePause() {
        if isPausedForCommands { resume() } else { pause() }
    }

    // MARK: - Reload

    /// Plays `newDocument` from now on (after a reload), in the scene with the same id at the same scene time
    /// where it still exists (else the scene at the same index, within range), paused if it was.
    ///
    /// What the look-ahead announced past the command frame is revoked. The scene's ambience keeps playing when the
    /// scene's beds are unchanged (even if the scene moved to another index); a changed one crossfades.
    public func replaceDocument(_ newDocument: Document, soundCommands newCommands: @escaping SoundCommands) {
        precondition(!newDocument.scenes.isEmpty, "a playlist needs at least one scene")
        var old = sequencer
        var events = old.stop(at: max(commandFrame, reloadFrame + 1))
        let frame = old.lastCommandFrame
        let showing = sequencer.position(at: frame)
        // The scene whose beds play at the frame (its disappearance is decided below, not sent as it is).
        var leaving: Int?
        if case .sceneDisappeared(let scene, _)? = events.last {
            leaving = scene
            events.removeLast()
        }
        deliver(events)

        let oldDocument = document
        func newIndex(_ scene: Int) -> Int {
            newDocument.scenes.firstIndex { $0.id == oldDocument.scenes[scene].id } ?? min(scene, newDocument.scenes.count - 1)
        }
        var next = PlaylistSequencer(document: newDocument, sampleRate: sampleRate, end: end)
        var target: Int?
        // Lasting sounds the scene has under way at its time (ambience started on a moment, loops), for those that
        // start afresh.
        var underWay: [SequencerEvent] = []
        if let showing {
            let scene = newIndex(showing.scene)
            target = scene
            _ = next.play(at: frame, scene: scene)
            let time = min(showing.sceneTime, newDocument.scenes[scene].duration)
            if time > .zero { underWay = next.seek(to: time, at: frame).filter { $0.frame == frame } }
            if showing.isPaused { _ = next.pause(at: frame) }
        } else {
            // The playlist had ended (`--once`): it stays ended.
            _ = next.jump(to: newDocument.scenes.count - 1, at: frame)
            _ = next.next(at: frame)
        }

        if let leaving, let target, oldDocument.scenes[leaving].id == newDocument.scenes[target].id {
            // Unchanged beds go on, and so do the loops of unchanged cues: their voices keep the tags the old playlist
            // gave them. What changed ends as the old playlist says and starts again as the new one says.
            let sameBeds = oldDocument.scenes[leaving].ambience == newDocument.scenes[target].ambience
            let sameCues = oldDocument.scenes[leaving].cues == newDocument.scenes[target].cues
            func kept(_ tag: UInt32) -> Bool { PlaylistAudio.isCueTag(tag) ? sameCues : sameBeds }
            let oldStops = soundCommands(.sceneDisappeared(scene: leaving, frame: frame))
            let oldTags = stopTags(oldStops).filter(kept)
            let newTags = stopTags(newCommands(.sceneDisappeared(scene: target, frame: frame))).filter(kept)
            for command in translate(oldStops.filter { stopTags([$0]).allSatisfy { !kept($0) } }) { output.send(command) }
            aliases = zip(newTags, oldTags).compactMap { tag, oldTag in
                let voiceTag = aliases.first { $0.tag == oldTag && $0.stoppedAt == nil }?.voiceTag ?? oldTag
                return tag == voiceTag ? nil : BedAlias(tag: tag, voiceTag: voiceTag)
            }
            soundCommands = newCommands
            if !sameBeds {
                deliver([.sceneAppeared(scene: target, frame: frame)] + underWay.filter { if case .ambienceDue = $0 { true } else { false } })
            }
            if !sameCues { deliver(underWay.filter { if case .cueDue = $0 { true } else { false } }) }
        } else {
            // The old scene's beds and loops fade out as its playlist says; the new scene's fade in as the new one says.
            if let leaving { deliver([.sceneDisappeared(scene: leaving, frame: frame)]) }
            aliases = []
            soundCommands = newCommands
            if let target { deliver([.sceneAppeared(scene: target, frame: frame)] + underWay) }
        }
        document = newDocument
        reloadFrame = frame
        for index in stages.indices {
            stages[index].sceneIndexes = stages[index].sceneIndexes.map(newIndex)
        }
        commit(next, sceneIndexes: Array(newDocument.scenes.indices))
        update()
    }

    private func stopTags(_ commands: [MixerCommand]) -> [UInt32] {
        commands.compactMap { if case .stop(let tag, _, _) = $0 { tag } else { nil } }
    }
}
