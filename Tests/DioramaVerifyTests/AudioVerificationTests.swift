import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
@testable import DioramaVerify
import Foundation
import Testing

/// The cues heard on their samples, and nothing unscheduled, proven from the offline mix of a small playlist.
@Suite struct AudioVerificationTests {
    let folder: TemporaryFolder

    init() throws { folder = try VerifyFixtures.folder() }

    private func audio(bed: String = "hum", lateIntended: Bool = true) throws -> (PlaylistAudio, CueSchedule) {
        let loaded = try VerifyFixtures.load(VerifyFixtures.json(bed: bed, lateIntended: lateIntended), in: folder)
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path, sampleRate: VerifyFixtures.rate)
        #expect(audio.warnings.isEmpty)
        return (audio, CueSchedule(document: loaded.document, sampleRate: VerifyFixtures.rate))
    }

    @Test func aPlaylistAsPlannedPasses() throws {
        let (audio, schedule) = try audio()
        let checks = AudioVerification(audio: audio, schedule: schedule).checks()
        #expect(checks.allSatisfy { $0.passed }, "\(checks.filter { !$0.passed }.map(\.line))")
        // Four firings (the turns end at 2 s), each on its sample and heard in time, and the scene's unscheduled-sound check.
        #expect(checks.count == 9)
        #expect(checks[0].name == "cue 0 \"ding\" (bell) firing 1 starts on its sample")
        #expect(checks[0].detail == "sample 24000 (scene 0.5000 s)")
        #expect(checks[1].name == "cue 0 \"ding\" (bell) firing 1 is heard within 10 ms of its moment")
        #expect(checks[2].detail == "sample 28800 (scene 0.6000 s)", "rings over the first, panned")
        #expect(checks.map(\.detail).contains("sample 124800 (scene 2.6000 s), its cue's 120000 plus 4800 of its sound's leading silence"),
                "a sound that starts with silence is heard from its first non-zero sample")
        #expect(checks.last?.name == "nothing unscheduled sounds")
    }

    /// The playlist's commands with the start of the first cue matching `tag` edited.
    private func plan(_ audio: PlaylistAudio, _ schedule: CueSchedule, editing occurrence: Int = 0,
                      _ edit: (inout VoiceStart) -> Void) -> [MixerCommand] {
        var commands = audio.commands(playingOnce: schedule)
        var seen = 0
        for (index, command) in commands.enumerated() {
            guard case .start(var start) = command, PlaylistAudio.isCueTag(start.tag) else { continue }
            if seen == occurrence {
                edit(&start)
                commands[index] = .start(start)
                break
            }
            seen += 1
        }
        return commands
    }

    /// The frame a command acts on.
    private func frame(of command: MixerCommand) -> Int64 {
        switch command {
        case .start(let start): start.frame
        case .stop(_, let frame, _), .stopAll(let frame, _), .pause(let frame, _), .resume(let frame, _), .revoke(let frame): frame
        case .volume: .min
        }
    }

    @Test func aCueMovedByOneSampleIsCaughtWithBothSamples() throws {
        let (audio, schedule) = try audio()
        for (shift, word) in [(Int64(1), "late"), (-1, "early")] {
            let moved = plan(audio, schedule) { $0.frame += shift }
            let checks = AudioVerification(audio: audio, schedule: schedule, commands: moved).checks()
            let failures = checks.filter { !$0.passed }
            #expect(failures.count == 1, "\(failures.map(\.line))")
            #expect(failures.first?.line == "FAIL  pond: cue 0 \"ding\" (bell) firing 1 starts on its sample: expected sample 24000 "
                    + "(scene 0.5000 s), found sample \(24_000 + shift) (scene 0.5000 s): 1 sample \(word)")
        }
    }

    @Test func aCueUnderAnotherRingingSoundIsStillPlacedExactly() throws {
        // The second bell starts while the first rings and ducks the bed: moved by one sample, it alone is caught.
        let (audio, schedule) = try audio()
        let moved = plan(audio, schedule, editing: 1) { $0.frame += 1 }
        let failures = AudioVerification(audio: audio, schedule: schedule, commands: moved).checks().filter { !$0.passed }
        #expect(failures.map(\.name) == ["cue 1 (bell) firing 1 starts on its sample"])
        #expect(failures.first?.detail.contains("expected sample 28800") == true && failures.first?.detail.contains("found sample 28801") == true)
    }

    @Test func aCueIsJudgedByItsOwnContributionWhateverSoundsOnTheOtherChannel() throws {
        // A click hard left (loud enough to pull the limiter down, then its hum goes on), and 282 samples later a bell
        // hard right: the bell is on its sample and is its own sound, though the mix's left channel around it is the hum's.
        let json = """
            { "canvas": { "width": 160, "height": 90 },
              "sounds": { "bell": "bell.flac", "clickhum": "clickhum.flac" },
              "scenes": [{ "id": "pond", "duration": 1,
                "cues": [{ "sound": "clickhum", "at": 0.5, "pan": -1 }, { "id": "right", "sound": "bell", "at": 0.505875, "pan": 1 }] }] }
            """
        let loaded = try VerifyFixtures.load(json, in: folder)
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path, sampleRate: VerifyFixtures.rate)
        let schedule = CueSchedule(document: loaded.document, sampleRate: VerifyFixtures.rate)
        #expect(schedule.cues.map(\.sampleIndex) == [24_000, 24_282])
        let checks = AudioVerification(audio: audio, schedule: schedule).checks()
        let bell = try #require(checks.first { $0.name == "cue 1 \"right\" (bell) firing 1 starts on its sample" })
        #expect(bell.passed, "\(bell.line)")
        #expect(bell.detail == "sample 24282 (scene 0.5059 s)")
        #expect(checks.filter { !$0.passed }.isEmpty, "\(checks.filter { !$0.passed }.map(\.line))")
    }

    @Test func aCuePlayingAnotherSoundIsCaughtWhenPannedToOneSide() throws {
        // Judged on the channels it plays on: replaced by noise, a bell hard right is still caught.
        let json = """
            { "canvas": { "width": 160, "height": 90 },
              "sounds": { "bell": "bell.flac", "noise": "noise.flac" },
              "scenes": [{ "id": "pond", "duration": 1, "cues": [{ "sound": "bell", "at": 0.5, "pan": 1 }] }] }
            """
        let loaded = try VerifyFixtures.load(json, in: folder)
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path, sampleRate: VerifyFixtures.rate)
        let schedule = CueSchedule(document: loaded.document, sampleRate: VerifyFixtures.rate)
        var sounds = audio.bank.sounds
        sounds[try #require(audio.bank.index(of: "bell"))] = sounds[try #require(audio.bank.index(of: "noise"))]
        let failures = AudioVerification(audio: audio, schedule: schedule, mixedSounds: sounds).checks().filter { !$0.passed }
        #expect(failures.map(\.name) == ["cue 0 (bell) firing 1 starts on its sample"])
        #expect(failures.first?.detail.hasPrefix("heard from sample 24000 (scene 0.5000 s), but it is not its sound \"bell\"") == true,
                "\(failures.first?.detail ?? "")")
    }

    @Test func aCueHeardLaterThanItsMomentFailsThoughItStartsOnItsSample() throws {
        // "soft" plays "late", whose first 100 ms are silence: it starts on its sample, and is heard 100 ms after it.
        let (audio, schedule) = try audio(lateIntended: false)
        let checks = AudioVerification(audio: audio, schedule: schedule).checks()
        let starts = try #require(checks.first { $0.name == "cue 3 \"soft\" (late) firing 1 starts on its sample" })
        #expect(starts.passed)
        #expect(starts.detail == "sample 124800 (scene 2.6000 s), its cue's 120000 plus 4800 of its sound's leading silence")
        let heard = try #require(checks.first { $0.name == "cue 3 \"soft\" (late) firing 1 is heard within 10 ms of its moment" })
        #expect(!heard.passed)
        #expect(heard.detail.hasPrefix("heard at sample 124800 (scene 2.6000 s), 100.0 ms after its moment (sample 120000, scene 2.5000 s): "
                                       + "its sound \"late\" starts with 100.0 ms of silence"), "\(heard.detail)")
        #expect(heard.detail.contains("hint: "), "\(heard.detail)")
        let ding = try #require(checks.first { $0.name == "cue 0 \"ding\" (bell) firing 1 is heard within 10 ms of its moment" })
        #expect(ding.passed)
        #expect(ding.detail == "heard on its moment")
        #expect(checks.filter { !$0.passed }.map(\.name) == [heard.name])
    }

    @Test func aSoundThatSaysItsSilenceIsIntendedIsHeardLateWithoutFailing() throws {
        let loaded = try VerifyFixtures.load(VerifyFixtures.json(lateIntended: true), in: folder)
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path, sampleRate: VerifyFixtures.rate)
        let schedule = CueSchedule(document: loaded.document, sampleRate: VerifyFixtures.rate)
        let checks = AudioVerification(audio: audio, schedule: schedule).checks()
        #expect(checks.allSatisfy { $0.passed }, "\(checks.filter { !$0.passed }.map(\.line))")
        let heard = try #require(checks.first { $0.name == "cue 3 \"soft\" (late) firing 1 is heard within 10 ms of its moment" })
        #expect(heard.detail == "heard 100.0 ms after its moment: its sound \"late\" says its leading silence is intended")
    }

    @Test func aBedThatStartsWithAClickIsCaughtWhereItLoops() throws {
        let (audio, schedule) = try audio(bed: "clickhum")
        let checks = AudioVerification(audio: audio, schedule: schedule).checks()
        let failures = checks.filter { !$0.passed }
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.name == "nothing unscheduled sounds")
        #expect(failure.detail.hasPrefix("unscheduled sound at sample 48000 (scene 1.0000 s), where the ambience \"clickhum\" loops"),
                "\(failure.detail)")
        #expect(failure.detail.contains("also at 96000 (scene 2.0000 s)"))
        // The cues are still proven on their samples.
        #expect(checks.filter { $0.name.contains("firing") }.allSatisfy { $0.passed })
    }

    @Test func aCueWhoseSoundWasReplacedIsCaught() throws {
        let (audio, schedule) = try audio()
        let bell = try #require(audio.bank.index(of: "bell")), noise = try #require(audio.bank.index(of: "noise"))
        var sounds = audio.bank.sounds
        sounds[bell] = sounds[noise]
        let failures = AudioVerification(audio: audio, schedule: schedule, mixedSounds: sounds).checks().filter { !$0.passed }
        #expect(failures.count == 3, "every bell firing: \(failures.map(\.line))")
        #expect(failures.first?.detail.hasPrefix("heard from sample 24000 (scene 0.5000 s), but it is not its sound \"bell\"") == true,
                "\(failures.first?.detail ?? "")")
    }

    @Test func aSoundNoCueSchedulesIsCaught() throws {
        let (audio, schedule) = try audio()
        let planned = audio.commands(playingOnce: schedule)
        guard case .start(var extra) = planned.first(where: {
            if case .start(let start) = $0 { return PlaylistAudio.isCueTag(start.tag) } else { return false }
        }) else { Issue.record("no cue start"); return }
        extra.frame = 84_000
        let commands = (planned + [.start(extra)]).sorted { frame(of: $0) < frame(of: $1) }
        let checks = AudioVerification(audio: audio, schedule: schedule, commands: commands).checks()
        let failures = checks.filter { !$0.passed }
        #expect(failures.map(\.name) == ["nothing unscheduled sounds"])
        #expect(failures.first?.detail.hasPrefix("unscheduled sound at sample 84000 (scene 1.7500 s)") == true, "\(failures.first?.detail ?? "")")
    }

    @Test func aCueTheMixNeverPlaysIsCaught() throws {
        let (audio, schedule) = try audio()
        let planned = audio.commands(playingOnce: schedule)
        var dropped = false
        let commands = planned.filter { command in
            guard !dropped, case .start(let start) = command, start.tag == PlaylistAudio.cueTag(scene: 0, cue: 3) else { return true }
            dropped = true
            return false
        }
        let failures = AudioVerification(audio: audio, schedule: schedule, commands: commands)
            .checks().filter { !$0.passed }
        #expect(failures.map(\.detail) == ["expected sample 120000 (scene 2.5000 s), found none: the mix never plays it"])
    }

    @Test func onsetsAreFoundInASteadyBedOnlyWhereSomethingStarts() {
        var samples = [Float](repeating: 0, count: 2 * 48_000)
        for frame in 0..<48_000 {
            let value = Float(0.2 * sin(2 * Double.pi * 220 * Double(frame) / 48_000))
            samples[2 * frame] = value
            samples[2 * frame + 1] = value
        }
        let detector = OnsetDetector(sampleRate: 48_000)
        #expect(detector.onsets(in: samples, frames: 1000..<48_000).isEmpty, "a steady tone has no onset")
        samples[2 * 30_000] += 0.5
        #expect(detector.onsets(in: samples, frames: 1000..<48_000) == [30_000])
    }

    /// A pitched cue and one picking from a set are proven as any other: on their samples, as their own sounds; the file
    /// at its own pitch mixed in place of the pitched copy is caught.
    @Test func pitchedAndPickedCuesAreHeardOnTheirSamplesAsTheirOwnSounds() throws {
        let json = VerifyFixtures.json()
            .replacingOccurrences(of: #"{ "sound": "bell", "at": 0.6, "gain": 0.6, "pan": 0.5 }"#,
                                  with: #"{ "sound": ["bell", "noise"], "at": 0.6, "gain": 0.6, "pan": 0.5, "pitch": 7 }"#)
            .replacingOccurrences(of: #"{ "sound": "bell", "node": "disc", "animation": "turn", "on": "end" }"#,
                                  with: #"{ "sound": "bell", "node": "disc", "animation": "turn", "on": "end", "pitch": -5 }"#)
        let loaded = try VerifyFixtures.load(json, in: folder)
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path, sampleRate: VerifyFixtures.rate)
        #expect(audio.warnings.isEmpty)
        let schedule = CueSchedule(document: loaded.document, sampleRate: VerifyFixtures.rate)
        #expect(schedule.cues.map(\.firing.pitch) == [0, 7, -5, 0])
        let checks = AudioVerification(audio: audio, schedule: schedule).checks()
        #expect(checks.count == 9)
        #expect(checks.allSatisfy { $0.passed }, "\(checks.filter { !$0.passed }.map(\.line))")

        // The bell down 5 semitones replaced by the bell as it is: heard on its sample, but not as its sound.
        let bell = try #require(audio.bank.index(of: "bell"))
        let lowered = audio.bank.index(of: bell, pitch: -5)
        #expect(lowered != bell)
        var sounds = audio.bank.sounds
        sounds[lowered] = sounds[bell]
        let failures = AudioVerification(audio: audio, schedule: schedule, mixedSounds: sounds).checks().filter { !$0.passed }
        #expect(failures.map(\.name) == ["cue 2 (bell) firing 1 starts on its sample"], "\(failures.map(\.line))")
        #expect(failures.first?.detail.contains("but it is not its sound \"bell\"") == true, "\(failures.first?.detail ?? "")")
    }
}
