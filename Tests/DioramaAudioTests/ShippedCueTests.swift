import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// The shipped playlist's cues: each scene's cues fire at the scene times its design gives (written out here,
/// not read back from the schedule), and each one's sound starts on exactly that sample of the offline mix.
@Suite struct ShippedCueTests {
    static let scenesFile = DioramaCommand.repositoryRoot.appendingPathComponent("scenes.json")

    /// Scene id → (scene seconds, sound) of every cue firing, in order.
    static let expected: [String: [(time: Rational, sound: String)]] = [
        // A 4 s breath after a 1 s pause: in at 1, 9; out at 5, 13 (the scene ends at 17, the end of an exhale).
        "breathing": [("0.4", "chime"), ("1", "breathe-in"), ("5", "breathe-out"), ("9", "breathe-in"), ("13", "breathe-out")]
            .map { (Rational(decimalLiteral: $0.0)!, $0.1) },
    ]

    static func load() throws -> LoadedDocument { try DocumentLoader.load(path: scenesFile.path) }

    @Test(arguments: expected.keys.sorted())
    func cuesFireAtTheirDesignedTimes(sceneID: String) throws {
        let loaded = try Self.load()
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        let span = try #require(schedule.scenes.first { $0.id == sceneID })
        let firings = schedule.cues.filter { $0.firing.sceneID == sceneID }
        let wanted = try #require(Self.expected[sceneID])
        #expect(firings.map(\.firing.sceneTime) == wanted.map(\.time))
        #expect(firings.map(\.firing.sound) == wanted.map(\.sound))
        // Exactly (scene start + scene time) × 48000: these times fall on whole samples.
        #expect(firings.map(\.sampleIndex) == wanted.map { time, _ in Int64(((span.start + time) * Rational(48_000)).doubleValue) })
    }

    /// Mixing with and without one cue: the first sample where they differ is where that cue's sound starts
    /// (plus the silence, if any, at the head of its file).
    @Test(arguments: expected.keys.sorted())
    func eachCueSoundsFromItsSample(sceneID: String) throws {
        let loaded = try Self.load()
        let audio = PlaylistAudio(document: loaded.document, directory: loaded.baseDirectory)
        #expect(audio.warnings.isEmpty)
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        let plan = audio.plan(schedule)
        for cue in schedule.cues where cue.firing.sceneID == sceneID {
            var withoutCue = loaded.document
            withoutCue.scenes[cue.firing.scene].cues.remove(at: cue.firing.cue)
            let others = PlaylistAudio(document: withoutCue, bank: audio.bank)
            let otherPlan = others.plan(CueSchedule(document: withoutCue, sampleRate: 48_000))
            // The cue's other firings are seconds away: only this one falls in the window.
            let window = (cue.sampleIndex - 4_800)..<(cue.sampleIndex + 4_800)
            let with = OfflineAudio.mix(plan: plan, sounds: audio.bank.sounds, span: window)
            let without = OfflineAudio.mix(plan: otherPlan, sounds: audio.bank.sounds, span: window)
            let sound = try #require(audio.bank.index(of: cue.firing.sound))
            let lead = Int64((audio.bank.sounds[sound].interleavedSamples.firstIndex { $0 != 0 } ?? 0) / 2)
            let first = with.indices.first { with[$0] != without[$0] }.map { Int64($0 / 2) + window.lowerBound }
            #expect(first == cue.sampleIndex + lead, "\(cue.firing.sound) at \(cue.firing.sceneTime) s of \(sceneID)")
        }
    }
}
