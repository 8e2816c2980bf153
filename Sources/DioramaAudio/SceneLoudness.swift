import DioramaDocument
import DioramaMixer
import DioramaTimeline
import Dispatch
import Foundation
import Synchronization

/// Why a scene's gain stops short of the playlist's loudness target.
public enum LoudnessLimit: Sendable, Equatable {
    /// The target would push its true peak above `SceneGain.truePeakCeiling`.
    case truePeak
    /// It is so quiet that the gain would pass `SceneGain.maximumDecibels`.
    case maximumGain
    /// It is silent (nothing above R128's -70 LUFS gate): no gain gives it a level.
    case silent
}

/// The gain that brings one scene's sound to the playlist's loudness target (`Document.loudness`), from the
/// loudness of the scene's own offline mix without it (`PlaylistAudio.sceneLoudness`).
///
/// The gain is the target minus the measured loudness, in dB, rounded to 1/100 dB so that figures differing in their
/// last bits give the same gain; it is lowered so the true peak stays at or below -1 dBTP, and it never raises a
/// scene more than +20 dB.
public struct SceneGain: Sendable, Equatable {
    /// The highest true peak a gain may lead to, in dBTP: EBU R128's ceiling for distribution, which also keeps the
    /// mixer's limiter (from -1 dBFS) out of the way.
    public static let truePeakCeiling = -1.0
    /// The most a scene is raised, in dB: past it, the scene is nearly silent and raising it lifts noise, not sound.
    public static let maximumDecibels = 20.0

    /// The target, LUFS.
    public var target: Double
    /// The scene's own mix without the gain.
    public var measured: LoudnessFigure
    /// The gain, in dB (0 for a silent scene).
    public var decibels: Double
    /// Why the gain falls short of the target, if it does.
    public var limit: LoudnessLimit?

    public init(target: Double, measured: LoudnessFigure) {
        self.target = target
        self.measured = measured
        guard let integrated = measured.integrated else {
            decibels = 0
            limit = .silent
            return
        }
        var gain = ((target - integrated) * 100).rounded() / 100
        var limit: LoudnessLimit?
        if gain > Self.maximumDecibels {
            gain = Self.maximumDecibels
            limit = .maximumGain
        }
        precondition(measured.truePeakMeasured || !Self.truePeakCouldLimit(target: target, measured: measured),
                     "measure the true peak where it could limit the gain")
        if measured.truePeak + gain > Self.truePeakCeiling {
            // Rounded down, so the peak stays under the ceiling.
            gain = ((Self.truePeakCeiling - measured.truePeak) * 100).rounded(.down) / 100
            limit = .truePeak
        }
        self.decibels = gain
        self.limit = limit
    }

    /// Whether the true peak could hold the gain back, from a figure with the sample peak only: if not, the gain
    /// needs no true peak (the costly part of the measurement).
    static func truePeakCouldLimit(target: Double, measured: LoudnessFigure) -> Bool {
        guard let integrated = measured.integrated else { return false }
        return measured.truePeakBound + min(target - integrated, maximumDecibels) + 0.01 > truePeakCeiling
    }

    /// The gain as a factor on every voice of the scene.
    public var linear: Float { Float(pow(10, decibels / 20)) }

    /// How far below the target the scene stays, in LU (0 when it reaches it), as the gain predicts it.
    public var shortfall: Double {
        guard let integrated = measured.integrated, limit != nil else { return 0 }
        return max(0, target - (integrated + decibels))
    }
}

extension PlaylistAudio {
    /// Each scene's loudness and true peak as this playlist plays it (with its scene gains, when it has a target).
    ///
    /// A scene's sound is measured on its own: its ambience and cues mixed offline as a playlist of that one scene,
    /// from its first sample to its last (what plays while it is on screen, without the neighbours' fades). Scenes are
    /// measured in parallel, each deterministically. Without `truePeak`, the true peak (which costs ten times the
    /// rest) is not measured: `LoudnessFigure.truePeakBound` holds the sample peak's bound instead.
    public func sceneLoudness(truePeak: Bool = true) -> [LoudnessFigure] {
        Self.measure(scenes: document.scenes.indices.map { alone(scene: $0) }, truePeak: truePeak)
    }

    /// Scene `index` as a playlist of its own, with this bank and the gain this playlist gives it.
    func alone(scene index: Int) -> PlaylistAudio {
        var single = document
        single.scenes = [document.scenes[index]]
        single.loudness = nil
        let gains = sceneGains.indices.contains(index) ? [sceneGains[index]] : []
        return PlaylistAudio(document: single, bank: bank, sceneGains: gains)
    }

    /// The gains that bring each scene of `document` to `target`, from its own mix without gain. The true peak, which
    /// costs ten times the rest, is measured only for the scenes whose sample peak leaves it a chance to limit the gain.
    static func gains(document: Document, bank: SoundBank, target: Double) -> [SceneGain] {
        let plain = PlaylistAudio(document: document, bank: bank, sceneGains: [])
        let scenes = document.scenes.indices.map { plain.alone(scene: $0) }
        var figures = measure(scenes: scenes, truePeak: false)
        let peaky = figures.indices.filter { SceneGain.truePeakCouldLimit(target: target, measured: figures[$0]) }
        for (index, figure) in zip(peaky, measure(scenes: peaky.map { scenes[$0] }, truePeak: true)) { figures[index] = figure }
        return figures.map { SceneGain(target: target, measured: $0) }
    }

    /// The gain of scene `index` of `document` alone, as `gains(document:bank:target:)` gives it; the bank remembers
    /// the measurement, so measuring a scene ahead on another thread makes a later call quick.
    public static func measureGain(ofScene index: Int, document: Document, bank: SoundBank, target: Double) -> SceneGain {
        var single = document
        single.scenes = [document.scenes[index]]
        return gains(document: single, bank: bank, target: target)[0]
    }

    /// Each one-scene playlist's offline mix, measured (or remembered by the bank, `SceneMixMemory`); on every core.
    static func measure(scenes: [PlaylistAudio], truePeak: Bool) -> [LoudnessFigure] {
        let mixes = scenes.map { scene in
            let schedule = CueSchedule(document: scene.document, sampleRate: scene.sampleRate)
            return SceneMix(commands: scene.commands(playingOnce: schedule), frames: endFrame(of: schedule), truePeak: truePeak)
        }
        var figures = mixes.indices.map { scenes[$0].bank.mixMemory.figure(of: mixes[$0]) }
        let missing = figures.indices.filter { figures[$0] == nil }
        let measured = [LoudnessFigure](unsafeUninitializedCapacity: missing.count) { buffer, count in
            let results = SendableResults(buffer)
            DispatchQueue.concurrentPerform(iterations: missing.count) { job in
                let index = missing[job]
                results.store(mixes[index].measure(sounds: scenes[index].bank.sounds, sampleRate: scenes[index].sampleRate), at: job)
            }
            count = missing.count
        }
        for (job, index) in missing.enumerated() {
            figures[index] = measured[job]
            scenes[index].bank.mixMemory.remember(measured[job], of: mixes[index])
        }
        return figures.map { $0! }
    }
}

/// What one scene plays, as its offline mix is made: the commands of the scene as a playlist of its own, and its length;
/// and whether its true peak is measured.
struct SceneMix: Equatable {
    var commands: [MixerCommand]
    var frames: Int64
    var truePeak: Bool

    /// Mixed offline with `sounds` and measured.
    func measure(sounds: [MixerSound], sampleRate: Int) -> LoudnessFigure {
        let meter = LoudnessMeter(sampleRate: sampleRate, truePeak: truePeak)
        _ = OfflineAudio.stream(commands: commands, sounds: sounds, span: 0..<frames,
                                configuration: MixerConfiguration(sampleRate: sampleRate)) { block in
            meter.add(block)
        }
        return meter.figure
    }
}

/// The figures a sound bank has measured, by what was mixed: a reload that keeps the bank measures again only the
/// scenes whose sound changed (a moved cue, a new gain), not those whose pictures did.
final class SceneMixMemory: Sendable {
    /// The most mixes remembered: a few playlists' worth; the oldest go first.
    static let capacity = 256
    private let entries = Mutex<[(mix: SceneMix, figure: LoudnessFigure)]>([])

    /// Mixes remembered.
    var count: Int { entries.withLock { $0.count } }

    func figure(of mix: SceneMix) -> LoudnessFigure? {
        entries.withLock { entries in entries.last { $0.mix == mix }?.figure }
    }

    func remember(_ figure: LoudnessFigure, of mix: SceneMix) {
        entries.withLock { entries in
            entries.append((mix, figure))
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        }
    }
}

/// The scene gains of a player's `PlaylistAudio.measuringScenesWhenNeeded`: each measured when its scene first starts a
/// voice (quick when a thread measured it ahead), then kept. Shared by the copies of the `PlaylistAudio`.
final class SceneGainsWhenNeeded: Sendable {
    let document: Document
    let bank: SoundBank
    let target: Double
    private let gains = Mutex<[Int: SceneGain]>([:])

    init(document: Document, bank: SoundBank, target: Double) {
        self.document = document
        self.bank = bank
        self.target = target
    }

    func gain(ofScene scene: Int) -> SceneGain {
        if let gain = gains.withLock({ $0[scene] }) { return gain }
        let gain = PlaylistAudio.measureGain(ofScene: scene, document: document, bank: bank, target: target)
        gains.withLock { $0[scene] = gain }
        return gain
    }
}

/// Results written by parallel measurements.
private struct SendableResults: @unchecked Sendable {
    // @unchecked Sendable: each index is initialized by exactly one iteration of `concurrentPerform`, which returns
    // only once every iteration has, and the buffer outlives it.
    let buffer: UnsafeMutableBufferPointer<LoudnessFigure>
    init(_ buffer: UnsafeMutableBufferPointer<LoudnessFigure>) { self.buffer = buffer }
    func store(_ figure: LoudnessFigure, at index: Int) { (buffer.baseAddress! + index).initialize(to: figure) }
}
