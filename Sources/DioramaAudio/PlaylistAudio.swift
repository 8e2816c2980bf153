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
/// let plan = audio.plan(CueSchedule(document: document, sampleRate: audio.sampleRate))
/// ```
public struct PlaylistAudio: Sendable {
    public let document: Document
    public let bank: SoundBank
    public var sampleRate: Int { bank.sampleRate }

    /// Loads every sound of `document` (paths relative to `directory`, the scenes file's folder).
    public init(document: Document, directory: String, sampleRate: Int = 48_000) {
        self.document = document
        self.bank = SoundBank(document: document, directory: directory, sampleRate: sampleRate)
    }

    /// `document` with a bank already loaded (the player keeps its bank through a reload that changes no sound).
    public init(document: Document, bank: SoundBank) {
        self.document = document
        self.bank = bank
    }

    /// One line per sound that could not be loaded (it plays as silence): print each once.
    public var warnings: [String] { bank.errors.map { "\($0); it will be silent" } }

    /// A mixer holding the bank's sounds.
    public func makeMixer(configuration: MixerConfiguration? = nil) -> Mixer {
        Mixer(sounds: bank.sounds, configuration: configuration ?? MixerConfiguration(sampleRate: sampleRate))
    }

    /// The whole playlist played once, as mixer commands. The schedule must use `sampleRate`.
    public func plan(_ schedule: CueSchedule) -> AudioPlan {
        precondition(schedule.sampleRate == sampleRate, "the schedule's rate must be the bank's")
        let scenes = schedule.scenes.map { span in
            AudioPlan.SceneSound(startFrame: span.startSample, endFrame: span.endSample,
                                 ambience: beds(ofScene: span.index))
        }
        let cues = schedule.cues.compactMap { cue -> AudioPlan.CueSound? in
            guard let sound = bank.index(of: cue.firing.sound) else { return nil }
            return AudioPlan.CueSound(frame: cue.sampleIndex, sound: sound, gain: gain(sound, cue.firing.gain),
                                      pan: Float(cue.firing.pan))
        }
        return AudioPlan(scenes: scenes, cues: cues)
    }

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
            return beds(ofScene: scene).enumerated().map { index, bed in
                .start(VoiceStart(sound: bed.sound, frame: frame, gain: bed.gain, fadeInFrames: bed.fadeInFrames,
                                  loops: true, tag: AudioPlan.bedTag(scene: scene, bed: index), priority: .ambience))
            }
        case .sceneDisappeared(let scene, let frame):
            return beds(ofScene: scene).enumerated().map { index, bed in
                .stop(tag: AudioPlan.bedTag(scene: scene, bed: index), frame: frame, fadeFrames: bed.fadeOutFrames)
            }
        case .cueDue(let firing, let frame):
            guard let sound = bank.index(of: firing.sound) else { return [] }
            return [.start(VoiceStart(sound: sound, frame: frame, gain: gain(sound, firing.gain), pan: Float(firing.pan)))]
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

    private func beds(ofScene index: Int) -> [AudioPlan.Bed] {
        guard document.scenes.indices.contains(index) else { return [] }
        return document.scenes[index].ambience.compactMap { ambience in
            guard let sound = bank.index(of: ambience.sound) else { return nil }
            return AudioPlan.Bed(sound: sound, gain: gain(sound, ambience.gain),
                                 fadeInFrames: frames(seconds: ambience.fadeIn), fadeOutFrames: frames(seconds: ambience.fadeOut))
        }
    }

    private func gain(_ sound: Int, _ gain: Double) -> Float { Float(bank.gains[sound] * gain) }
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
    let result = try OfflineAudio.render(plan: audio.plan(schedule), sounds: audio.bank.sounds, span: span,
                                         configuration: MixerConfiguration(sampleRate: schedule.sampleRate), to: url.path)
    let elapsed = ContinuousClock.now - started
    return AudioRenderReport(result: result, warnings: audio.warnings,
                             elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
}
