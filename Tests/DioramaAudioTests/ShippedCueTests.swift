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
        // The swing sets off from its back turn at 0 s and reaches a turn every 1.6 s, the front one (its "to") and the
        // back one (its "from") in turn: a creak on each, the last at 17.6 s of 18.
        "swing": (1...11).map { (Rational(decimalLiteral: "1.6")! * Rational($0), "creak") },
        // The flower's petals open for 2 s from 2 s and close for 2 s, again and again: each breath's sound starts with
        // its half of the breath (2 s before the petals arrive), in at 2, 6, …, 18; out at 4, 8, …, 20 (the scene ends at 22).
        "flower": [("0.5", "chime"), ("2", "breathe-in"), ("4", "breathe-out"), ("6", "breathe-in"), ("8", "breathe-out"),
                   ("10", "breathe-in"), ("12", "breathe-out"), ("14", "breathe-in"), ("16", "breathe-out"), ("18", "breathe-in"),
                   ("20", "breathe-out")]
            .map { (Rational(decimalLiteral: $0.0)!, $0.1) },
        // A 4 s breath after a 1 s pause: in at 1, 9; out at 5, 13 (the scene ends at 17, the end of an exhale).
        "breathing": [("0.4", "chime"), ("1", "breathe-in"), ("5", "breathe-out"), ("9", "breathe-in"), ("13", "breathe-out")]
            .map { (Rational(decimalLiteral: $0.0)!, $0.1) },
        // The car arrives at the marker (5.5 s: the chime); the doors open 0.5 s later over 2 s, stay open 4 s and
        // close over 2 s: the latch clicks on their last keyframe, 6 + 8 = 14 s.
        "elevator": [("5.5", "ding"), ("14", "click")].map { (Rational(decimalLiteral: $0.0)!, $0.1) },
        // The button at 2.8 s; the arm starts 0.6 s later and lands 2.2 s after that (5.6 s): surface noise at once,
        // the music 0.6 s later, both looping to the end.
        "record-player": [("2.8", "click"), ("5.6", "crackle"), ("6.2", "music")].map { (Rational(decimalLiteral: $0.0)!, $0.1) },
        // The tube turns 30° every 3 s; a chime as each turn settles.
        "kaleidoscope": [("3", "chime"), ("6", "chime"), ("9", "chime"), ("12", "chime"), ("15", "chime")]
            .map { (Rational(decimalLiteral: $0.0)!, $0.1) },
        // The sails stand still for 2 s and creak as they start to turn; the near gull sets off after 4 s (its
        // flight's first keyframe); the lamps come on from 8 s over 1 s, a chime as they are fully lit at 9 s.
        "windmill": [("2", "creak"), ("4", "birds"), ("9", "chime")].map { (Rational(decimalLiteral: $0.0)!, $0.1) },
        // The ball starts at 1 s and loops its 60 frames at 30 fps (2 s); its "impact" marker is frame 30, so it lands
        // at 1 + 1 + 2k s: a click there, and a ding 0.05 s after each (the cue on frame 30), until the scene ends at 12.
        "bounce": [2, 4, 6, 8, 10].flatMap { landing in
            [(Rational(landing), "click"), (Rational(landing) + Rational(1, 20), "ding")]
        },
        // The shaft turns once a second; each turn of its worm moves the wheel on by one tooth (its track's second
        // keyframe, 22.5° every 1 s): a tick on each, at 1, 2, …, 15 s (the scene ends at 16).
        "gears": (1...15).map { (Rational($0), "gears-tick") },
        // The rain from the start (looping until it stops at 11.5 s); the two confetti poppers on their bursts (the
        // emitters' `start`, 13 and 13.3 s); a chime as the moon is fully out (its rise's last keyframe, 14 s).
        "particles": [("0", "particles-rain"), ("13", "particles-popper"), ("13.3", "particles-popper"), ("14", "chime")]
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

    /// The swing's creaks fall on its turns: on each a creak, at the sample the swing reverses (its rotation at an
    /// extreme, coming back from it either side), and none where it does not turn. Each creak has ended before the
    /// next starts, so they never run together into a buzz.
    @Test func theSwingCreaksOnceOnEachTurnAndNeverOverAnother() throws {
        let loaded = try Self.load()
        let index = try #require(loaded.document.scenes.firstIndex { $0.id == "swing" })
        let scene = loaded.document.scenes[index]
        func angle(_ time: Double) throws -> Double {
            try #require(NodePropertyValues.value(of: .rotation, node: "swing", in: scene, at: time))
        }
        let creaks = CueSchedule(document: loaded.document, sampleRate: 48_000).cues
            .filter { $0.firing.sceneID == "swing" && $0.firing.sound == "creak" }.map(\.firing.sceneTime.doubleValue)
        // The turns, found from the motion alone: where the rotation's direction of travel changes (every 1/100 s).
        let step = 0.01
        let samples = try (0...Int(scene.duration.doubleValue / step)).map { try angle(Double($0) * step) }
        var turns: [Double] = []
        for i in 1..<(samples.count - 1) where (samples[i] - samples[i - 1]) * (samples[i + 1] - samples[i]) < 0 {
            turns.append(Double(i) * step)
        }
        #expect(turns.count == creaks.count, "\(turns.count) turns, \(creaks.count) creaks")
        for (turn, creak) in zip(turns, creaks) { #expect(abs(turn - creak) <= step, "a turn at \(turn) s, a creak at \(creak) s") }
        for creak in creaks {
            let at = try angle(creak), before = try angle(creak - 1.0 / 48_000), after = try angle(creak + 1.0 / 48_000)
            #expect(abs(at) == 30, "the creak at \(creak) s is at \(at)°")
            #expect(abs(before) < 30 && abs(after) < 30 && (before - at).sign == (after - at).sign, "the swing turns at \(creak) s")
        }
        let audio = PlaylistAudio(document: loaded.document, directory: loaded.baseDirectory)
        let creak = try #require(audio.bank.index(of: "creak"))
        let length = Double(audio.bank.sounds[creak].interleavedSamples.count / 2) / Double(audio.bank.sampleRate)
        for (one, next) in zip(creaks, creaks.dropFirst()) { #expect(next - one > length, "\(one) s and \(next) s, \(length) s long") }
    }

    @Test func theRecordsMusicLoopsUntilTheSceneEndsAndDucksTheAmbience() throws {
        let schedule = CueSchedule(document: try Self.load().document, sampleRate: 48_000)
        let music = try #require(schedule.cues.first { $0.firing.sceneID == "record-player" && $0.firing.sound == "music" })
        #expect(music.firing.loops && music.firing.endsWithScene)
        #expect(music.firing.duck != nil)
    }

    /// Mixing with and without one cue: the first sample where they differ is where that cue's sound starts
    /// (plus the silence, if any, at the head of its file).
    @Test(arguments: expected.keys.sorted())
    func eachCueSoundsFromItsSample(sceneID: String) throws {
        let loaded = try Self.load()
        try Self.expectEachCueSoundsFromItsSample(loaded.document, directory: loaded.baseDirectory, sceneID: sceneID)
    }

    /// Someone presses the record player's start button at 1.3 s instead of waiting for it to start by itself
    /// (at 2.8 s): the click at once, the arm 0.6 s later landing 2.2 s after that (4.1 s) with the surface noise,
    /// the music 0.6 s after the landing (4.7 s), each on its exact sample.
    @Test func aTapOnTheRecordPlayersButtonStartsItsSoundsFromTheTap() throws {
        let loaded = try Self.load()
        var document = loaded.document
        let index = try #require(document.scenes.firstIndex { $0.id == "record-player" })
        document.scenes[index].taps = ["button": Rational(decimalLiteral: "1.3")!]
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        let span = schedule.scenes[index]
        let firings = schedule.cues.filter { $0.firing.sceneID == "record-player" }
        let wanted = [("1.3", "click"), ("4.1", "crackle"), ("4.7", "music")].map { (Rational(decimalLiteral: $0.0)!, $0.1) }
        #expect(firings.map(\.firing.sceneTime) == wanted.map(\.0))
        #expect(firings.map(\.firing.sound) == wanted.map(\.1))
        #expect(firings.map(\.sampleIndex) == wanted.map { time, _ in Int64(((span.start + time) * Rational(48_000)).doubleValue) })
        try Self.expectEachCueSoundsFromItsSample(document, directory: loaded.baseDirectory, sceneID: "record-player")
    }

    static func expectEachCueSoundsFromItsSample(_ document: Document, directory: String, sceneID: String) throws {
        let audio = PlaylistAudio(document: document, directory: directory)
        #expect(audio.warnings.isEmpty)
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        let plan = audio.commands(playingOnce: schedule)
        for cue in schedule.cues where cue.firing.sceneID == sceneID {
            // The same plan without this one firing's start: every other voice plays as it does with it (its cue's other
            // firings too, a bell rings on every swing, each with its own draw where its sound varies), at the same gains.
            let tag = PlaylistAudio.cueTag(scene: cue.firing.scene, cue: cue.firing.cue)
            let index = try #require(plan.firstIndex {
                if case .start(let start) = $0 { start.tag == tag && start.frame == cue.sampleIndex } else { false }
            })
            guard case .start(let start) = plan[index] else { continue }
            var otherPlan = plan
            otherPlan.remove(at: index)
            // The sound the firing plays (its take, where its sound varies), from its first sample that is not silent.
            let lead = Int64((audio.bank.sounds[start.sound].interleavedSamples.firstIndex { $0 != 0 } ?? 0) / 2)
            // The window reaches past the silence at the head of the sound (birds.flac starts 0.15 s in).
            let window = (cue.sampleIndex - 4_800)..<(cue.sampleIndex + lead + 4_800)
            let with = OfflineAudio.mix(commands: plan, sounds: audio.bank.sounds, span: window)
            let without = OfflineAudio.mix(commands: otherPlan, sounds: audio.bank.sounds, span: window)
            let first = with.indices.first { with[$0] != without[$0] }.map { Int64($0 / 2) + window.lowerBound }
            #expect(first == cue.sampleIndex + lead, "\(cue.firing.sound) at \(cue.firing.sceneTime) s of \(sceneID)")
        }
    }
}
