import DioramaDocument
import DioramaMixer
import DioramaTimeline
import Foundation

/// A document's sound, ready to play: its sound bank, and its scenes and cues as mixer commands.
///
/// Example (offline):
/// ```swift
/// let audio = PlaylistAudio(document: document, directory: "/path/to/scenes-folder")
/// for warning in audio.warnings { print("warning: \(warning)") }
/// let schedule = CueSchedule(document: document, sampleRate: audio.sampleRate)
/// let mix = OfflineAudio.mix(commands: audio.commands(playingOnce: schedule), sounds: audio.bank.sounds,
///                            span: 0..<PlaylistAudio.endFrame(of: schedule))
/// ```
public struct PlaylistAudio: Sendable {
    public let document: Document
    public let bank: SoundBank
    /// With a loudness target (`Document.loudness`), the gain of each scene, by scene index, on every voice it starts;
    /// empty without one (every voice as the file mixes it).
    public let sceneGains: [SceneGain]
    public var sampleRate: Int { bank.sampleRate }
    /// The shortest fade, in frames, of what a scene's appearance starts and its disappearance ends (its beds, and its
    /// cues whose sound ends with it): the player's scene transition, so the sound never changes faster than the
    /// picture. 0 (the default, and the offline mix's): each fades over its own `fadeIn` / `fadeOut`.
    public var sceneChangeFadeFrames = 0

    /// Loads every sound of `document` (paths relative to `directory`, the scenes file's folder), and with a loudness
    /// target measures each scene for its gain.
    public init(document: Document, directory: String, sampleRate: Int = AudioFormat.sampleRate) {
        self.init(document: document, bank: SoundBank(document: document, directory: directory, sampleRate: sampleRate))
    }

    /// `document` with a bank already loaded (the player keeps its bank through a reload that changes no sound). With a
    /// loudness target, each scene is measured for its gain (`SceneGain`), once per scene and bank: the bank remembers
    /// what it measured, so a reload measures only the scenes whose sound changed.
    public init(document: Document, bank: SoundBank) {
        self.init(document: document, bank: bank,
                  sceneGains: document.loudness.map { Self.gains(document: document, bank: bank, target: $0) } ?? [])
    }

    /// `document` played with `sceneGains` (by scene index; empty: none), whatever its target: for comparing two
    /// versions of a playlist at the same levels.
    public init(document: Document, bank: SoundBank, sceneGains: [SceneGain]) {
        self.document = document
        self.bank = bank
        self.sceneGains = sceneGains
        gainsWhenNeeded = nil
    }

    /// `document` with its scene gains measured when a scene first starts a voice, not all before the first: the player
    /// starts at once, and measures the other scenes on a thread of its own (`measureGain(ofScene:)`) before they play.
    /// The same gains as `init(document:bank:)` gives (each scene is measured alone, deterministically). `sceneGains`
    /// stays empty.
    public static func measuringScenesWhenNeeded(document: Document, bank: SoundBank) -> PlaylistAudio {
        var audio = PlaylistAudio(document: document, bank: bank, sceneGains: [])
        audio.gainsWhenNeeded = document.loudness.map { SceneGainsWhenNeeded(document: document, bank: bank, target: $0) }
        return audio
    }

    /// The scene gains of `measuringScenesWhenNeeded`, nil otherwise.
    private var gainsWhenNeeded: SceneGainsWhenNeeded?

    /// One line per sound that could not be loaded (it plays as silence): print each once.
    public var warnings: [String] { bank.errors.map { "\($0); it will be silent" } }

    /// A mixer holding the bank's sounds.
    public func makeMixer(configuration: MixerConfiguration? = nil) -> Mixer {
        Mixer(sounds: bank.sounds, configuration: configuration ?? MixerConfiguration(sampleRate: sampleRate))
    }

    /// The whole playlist played once from its first scene, as mixer commands: the live sequencer's events over it
    /// (`PlaylistSequencer`, not wrapping), each through `commands(for:)`, in the order it gives them. The offline mix,
    /// a video's sound track and `diorama verify` hear what the player sends for uninterrupted play. The end's fade
    /// (`.finished`) is the player's alone: a mix ends with the last scene, and what is rendered past it (verify looks
    /// a little past a late cue) rings out. The schedule must use `sampleRate`.
    public func commands(playingOnce schedule: CueSchedule) -> [MixerCommand] {
        precondition(schedule.sampleRate == sampleRate, "the schedule's rate must be the bank's")
        var sequencer = PlaylistSequencer(schedule: schedule, end: .stop)
        let events = sequencer.play(at: 0) + sequencer.advance(to: Self.endFrame(of: schedule) + 1)
        return events.flatMap { event -> [MixerCommand] in
            if case .finished = event { return [] }
            return commands(for: event)
        }
    }

    /// The frame after the last scene's end: where the playlist played once ends.
    public static func endFrame(of schedule: CueSchedule) -> Int64 { schedule.scenes.last?.endSample ?? 0 }

    /// The mixer commands for one event of the playlist sequencer (live playback): a scene's
    /// appearance starts its beds, its disappearance fades them, a cue starts its sound at its
    /// frame, a revocation forgets what was scheduled from its frame on (starts, stops, pauses),
    /// a pause holds every voice after a short ramp and resuming continues them where they were
    /// (a bed keeps its place, a ringing bell its decay), and the end fades everything out (and ends
    /// the mixer's hold if it came while paused).
    ///
    /// Navigating while paused gives a scene change at a frame inside the mixer's hold: the old
    /// scene's beds end silently there and the new scene's beds start, with their fade-in, at the resume.
    public func commands(for event: SequencerEvent) -> [MixerCommand] {
        switch event {
        case .sceneAppeared(let scene, let frame):
            // Ambience with a `start` of its own comes with `ambienceDue`.
            return beds(ofScene: scene).enumerated().filter { !startsLater(scene: scene, bed: $0.offset) }.map { index, bed in
                .start(VoiceStart(sound: bed.sound, frame: frame, gain: bed.gain * sceneGain(scene),
                                  fadeInFrames: max(bed.fadeInFrames, sceneChangeFadeFrames),
                                  loops: true, tag: Self.bedTag(scene: scene, bed: index), priority: .ambience))
            }
        case .sceneDisappeared(let scene, let frame):
            // Every bed, and every cue whose sound ends with the scene (loops, cues with `until`).
            return beds(ofScene: scene).enumerated().map { index, bed in
                .stop(tag: Self.bedTag(scene: scene, bed: index), frame: frame, fadeFrames: max(bed.fadeOutFrames, sceneChangeFadeFrames))
            } + heldCueStops(ofScene: scene, frame: frame)
        case .cueDue(let firing, let frame):
            guard let sound = bank.index(of: firing.sound) else { return [] }
            // At the cue's pitch; a sound that varies plays this firing's draw: a gain about its own, and one of its takes.
            let drawn = bank.variations[sound].map { firing.variation($0) }
            let played = bank.index(of: sound, pitch: firing.pitch, take: drawn?.take)
            let gain = gain(sound, firing.gain * (drawn?.linearGain ?? 1))
            return [.start(VoiceStart(sound: played, frame: frame, gain: gain * sceneGain(firing.scene), pan: Float(firing.pan),
                                      loops: firing.loops, tag: Self.cueTag(scene: firing.scene, cue: firing.cue),
                                      duck: duck(firing.duck)))]
        case .cueStopDue(let stop, let frame):
            return [.stop(tag: Self.cueTag(scene: stop.scene, cue: stop.cue), frame: frame, fadeFrames: frames(seconds: stop.fadeOut))]
        case .ambienceDue(let start, let frame):
            guard let index = bedIndex(scene: start.scene, ambience: start.ambience) else { return [] }
            let bed = beds(ofScene: start.scene)[index]
            return [.start(VoiceStart(sound: bed.sound, frame: frame, gain: bed.gain * sceneGain(start.scene), fadeInFrames: bed.fadeInFrames,
                                      loops: true, tag: Self.bedTag(scene: start.scene, bed: index), priority: .ambience))]
        case .revoked(let frame):
            return [.revoke(fromFrame: frame)]
        case .paused(let frame):
            return [.pause(frame: frame, fadeFrames: pauseRampFrames)]
        case .resumed(_, let frame):
            return [.resume(frame: frame, fadeFrames: pauseRampFrames)]
        case .finished(let frame):
            // A playlist may end while paused (the last scene left by "next"): the stop ends every voice
            // silently in the hold and the resume lets a later play be heard. Not paused, the resume does nothing.
            return [.stopAll(frame: frame, fadeFrames: finishFadeFrames), .resume(frame: frame, fadeFrames: pauseRampFrames)]
        }
    }

    /// The pause and resume ramp in frames (20 ms). Linear ramps shorter than about 10 ms are heard
    /// as clicks on loud, low beds (surf, wind); longer ones make the sound lag the key press and,
    /// since voices run on through the ramp while the picture freezes at once, leave held voices
    /// that much further ahead of the picture after each pause (cues are scheduled afresh, exact).
    public var pauseRampFrames: Int { sampleRate / 50 }

    /// 50 ms: the end of a non-wrapping playlist fades everything, long enough not to click.
    private var finishFadeFrames: Int { sampleRate / 20 }

    /// A looping ambience of a scene, as its commands play it: it fades in from its start and out from the scene's end,
    /// so one scene's bed cross-fades into the next one's.
    private struct Bed {
        var sound: Int
        var gain: Float
        var fadeInFrames: Int
        var fadeOutFrames: Int
    }

    private func beds(ofScene index: Int) -> [Bed] {
        guard document.scenes.indices.contains(index) else { return [] }
        return document.scenes[index].ambience.compactMap { ambience in
            guard let sound = bank.index(of: ambience.sound) else { return nil }
            return Bed(sound: sound, gain: gain(sound, ambience.gain),
                                 fadeInFrames: frames(seconds: ambience.fadeIn), fadeOutFrames: frames(seconds: ambience.fadeOut))
        }
    }

    /// The index in the scene's `ambience` of bed `bed` (sounds that did not load have no bed).
    private func ambienceIndex(scene: Int, bed: Int) -> Int? {
        let loaded = document.scenes[scene].ambience.indices.filter { bank.index(of: document.scenes[scene].ambience[$0].sound) != nil }
        return loaded.indices.contains(bed) ? loaded[bed] : nil
    }

    /// The bed of ambience `ambience` of the scene, if its sound loaded.
    private func bedIndex(scene: Int, ambience: Int) -> Int? {
        guard document.scenes.indices.contains(scene), document.scenes[scene].ambience.indices.contains(ambience),
              bank.index(of: document.scenes[scene].ambience[ambience].sound) != nil else { return nil }
        return document.scenes[scene].ambience[..<ambience].filter { bank.index(of: $0.sound) != nil }.count
    }

    /// Whether bed `bed` of the scene starts on a moment of its own rather than with the scene.
    private func startsLater(scene: Int, bed: Int) -> Bool {
        ambienceIndex(scene: scene, bed: bed).map { document.scenes[scene].ambience[$0].start != nil } ?? false
    }

    /// Stops at `frame` of the cues of the scene whose sound ends with it, each over its own fade-out.
    private func heldCueStops(ofScene index: Int, frame: Int64) -> [MixerCommand] {
        heldCues(ofScene: index).map { .stop(tag: $0.tag, frame: frame, fadeFrames: max($0.fadeFrames, sceneChangeFadeFrames)) }
    }

    /// The tags and fade-outs of the scene's cues whose sound ends with it (loops, cues with `until`).
    private func heldCues(ofScene index: Int) -> [(tag: UInt32, fadeFrames: Int)] {
        guard document.scenes.indices.contains(index) else { return [] }
        return document.scenes[index].cues.enumerated().compactMap { cueIndex, cue in
            guard cue.endsWithScene, cue.sounds.contains(where: { bank.index(of: $0) != nil }) else { return nil }
            return (Self.cueTag(scene: index, cue: cueIndex), frames(seconds: cue.fadeOut))
        }
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

    private func duck(_ duck: Ducking?) -> VoiceDuck {
        guard let duck else { return .none }
        return VoiceDuck(gain: Float(duck.linearGain), attackFrames: frames(seconds: duck.attackMilliseconds / 1000),
                         releaseFrames: frames(seconds: duck.releaseMilliseconds / 1000))
    }

    private func gain(_ sound: Int, _ gain: Double) -> Float { Float(bank.gains[sound] * gain) }
    /// The scene's loudness gain as a factor: exactly 1 without a target, so such a playlist mixes as before.
    private func sceneGain(_ scene: Int) -> Float {
        if let gainsWhenNeeded { return gainsWhenNeeded.gain(ofScene: scene).linear }
        return sceneGains.indices.contains(scene) ? sceneGains[scene].linear : 1
    }
    private func frames(seconds: Double) -> Int { seconds.isFinite ? Int((max(seconds, 0) * Double(sampleRate)).rounded()) : 0 }
}

/// What `renderAudio` did, for the command line to print.
public struct AudioRenderReport: Sendable {
    public var result: OfflineRenderResult
    /// Sounds that could not be loaded (rendered silent): print each once.
    public var warnings: [String]
    /// Wall-clock seconds the render took.
    public var elapsedSeconds: Double
}

/// Mixes the playlist's sound (or a span of it) offline into a 16-bit stereo WAV at `url`.
///
/// - Parameters:
///   - directory: the scenes file's folder (sound paths are relative to it).
///   - schedule: the playlist's cue schedule, at the rate the WAV should have (48 kHz usually).
///   - span: frames of the playlist to render (default: all of it).
public func renderAudio(document: Document, directory: String, schedule: CueSchedule, span: Range<Int64>? = nil,
                        to url: URL) throws(SoundWriteError) -> AudioRenderReport {
    let started = ContinuousClock.now
    let audio = PlaylistAudio(document: document, directory: directory, sampleRate: schedule.sampleRate)
    let result = try OfflineAudio.render(commands: audio.commands(playingOnce: schedule), sounds: audio.bank.sounds,
                                         span: span ?? 0..<PlaylistAudio.endFrame(of: schedule),
                                         configuration: MixerConfiguration(sampleRate: schedule.sampleRate), to: url.path)
    let elapsed = ContinuousClock.now - started
    return AudioRenderReport(result: result, warnings: audio.warnings,
                             elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
}
