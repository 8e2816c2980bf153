import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTimeline
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// The playback engine on a clock the test moves: the sequencer's events as the mixer commands the output
/// receives, the frame being heard, and where the picture is.
@Suite struct PlaylistPlaybackTests {
    static let rate = 48_000

    func make(_ document: Document = PlayerFixtures.story(), latency: Int64 = 0, wraps: Bool = true,
              lookahead: Int64 = 4800) -> (PlaylistPlayback, ManualSoundOutput) {
        let output = ManualSoundOutput(sampleRate: Self.rate)
        output.latency = latency
        let playback = PlaylistPlayback(document: document, soundCommands: PlayerSounds.commands(document), output: output,
                                        end: wraps ? .wrap : .stop, lookahead: lookahead)
        return (playback, output)
    }

    /// The commands sent since `index`.
    func commands(_ output: ManualSoundOutput, since index: Int) -> [MixerCommand] {
        output.commands[index...].map(\.command)
    }

    func bedStarts(_ commands: [MixerCommand]) -> [VoiceStart] {
        commands.compactMap { if case .start(let start) = $0, start.loops { start } else { nil } }
    }

    func stops(_ commands: [MixerCommand]) -> [(tag: UInt32, frame: Int64, fade: Int)] {
        commands.compactMap { if case .stop(let tag, let frame, let fade) = $0 { (tag, frame, fade) } else { nil } }
    }

    static let oceanBed = PlaylistAudio.bedTag(scene: 0, bed: 0)

    // MARK: - Playing

    @Test func scenesFollowEachOtherOnTheSampleClockAndWrap() {
        let (playback, output) = make()
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 0))
        play(playback, output, to: 1.5 * 48_000)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 72_000))
        play(playback, output, to: 4 * 48_000 - 1)
        #expect(playback.current.sceneIndex == 0)
        play(playback, output, to: 4 * 48_000)
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
        play(playback, output, to: 12 * 48_000 + 100.25)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 100.25), "wrapped; smooth between samples")
    }

    @Test func playingOnceEndsAfterTheLastScene() {
        let (playback, output) = make(wraps: false)
        play(playback, output, to: 12 * 48_000 - 1)
        #expect(!playback.current.hasEnded)
        play(playback, output, to: 12 * 48_000)
        #expect(playback.current.hasEnded)
    }

    @Test func cuesAreSentAheadAtTheirExactFramesAndNeverLate() {
        let (playback, output) = make(latency: 1024)
        play(playback, output, to: 12 * 48_000)
        let starts = output.starts.filter { !$0.loops }
        // The playlist starts at the first frame sound can still reach (1024 frames of latency ahead);
        // then bell at 1 s and 2.5 s, creak at 4 + 1 s, chime at 7 + 0.5 s.
        let expected: [Int64] = [48_000, 120_000, 240_000, 360_000].map { $0 + 1024 }
        #expect(starts.map(\.frame) == expected)
        #expect(starts.map(\.sound) == [0, 0, 2, 1])
        #expect(starts[1].gain == 0.5 && starts[1].pan == -0.5)
        for (command, write) in output.commands {
            if case .start(let start) = command { #expect(start.frame >= write, "sent before its frame was rendered") }
        }
        let started = playback.takeStartedCues()
        #expect(started.map(\.frame) == expected)
        #expect(started.map(\.sceneFrame) == [48_000, 120_000, 48_000, 24_000])
        #expect(started.map(\.sceneID) == ["ocean", "ocean", "swing", "flower"])
        #expect(started.allSatisfy { $0.lateFrames == 0 })
    }

    /// The case the player's own cue frames got wrong: scenes that do not end on a whole sample. Every cue lands on
    /// `ceil(time × rate)` of the playlist's exact time, pass after pass, as the cue schedule says.
    @Test func cuesLandOnTheSchedulesSamplesThroughWrapsWhenScenesDoNotEndOnWholeSamples() {
        let document = PlayerFixtures.unevenStory()
        let (playback, output) = make(document, latency: 1024)
        let start: Int64 = 1024
        let schedule = CueSchedule(document: document, sampleRate: Self.rate)
        let rate = Rational(Self.rate)
        // Four passes of 1.7000105 s (81 600.504 samples).
        let end = start + Int64((Rational(4) * schedule.clock.length * rate).ceiling)
        play(playback, output, to: Double(end))

        var expected: [Int64] = []
        // What the player's former per-scene rounding gave: scene lengths rounded up to whole samples.
        var perSceneRounding: [Int64] = []
        let roundedScenes = document.scenes.map { ($0.duration * rate).ceiling }
        for pass in 0..<5 {
            for cue in schedule.cues {
                let frame = Int64((Rational(pass) * schedule.clock.length * rate + cue.absoluteTime * rate).ceiling) + start
                guard frame <= end else { continue }
                if pass == 0 { #expect(frame == cue.sampleIndex + start) }
                expected.append(frame)
                let sceneStart = Int128(pass) * roundedScenes.reduce(0, +) + roundedScenes[..<cue.firing.scene].reduce(0, +)
                perSceneRounding.append(Int64(sceneStart + (cue.firing.sceneTime * rate).ceiling) + start)
            }
        }
        #expect(expected.count == 16)
        #expect(expected != perSceneRounding, "the fixture exercises boundaries between samples")
        let sounding = MixerModel(output.commands).cueStarts.filter { $0.frame <= end }
        #expect(sounding.map(\.frame) == expected)
        let started = playback.takeStartedCues()
        #expect(started.map(\.frame) == expected)
        #expect(started.allSatisfy { $0.lateFrames == 0 })
        #expect(Array(started.prefix(4)).map(\.sceneFrame) == schedule.cues.map { Int64(($0.firing.sceneTime * rate).ceiling) })
    }

    @Test func ambienceStartsWithItsSceneAndFadesWhenTheSceneEnds() {
        let (playback, output) = make()
        let beds = output.starts.filter(\.loops)
        #expect(beds.count == 1)
        #expect(beds[0].frame == 0 && beds[0].sound == 3 && beds[0].fadeInFrames == 24_000 && beds[0].priority == .ambience)
        #expect(beds[0].tag == Self.oceanBed)
        #expect(abs(beds[0].gain - 0.4) < 1e-6, "the bed's gain times the sound's")
        play(playback, output, to: 4 * 48_000)
        let stops = stops(commands(output, since: 0))
        #expect(stops.count == 1)
        #expect(stops.first?.tag == Self.oceanBed && stops.first?.frame == 192_000 && stops.first?.fade == 12_000)
    }

    // MARK: - Navigation

    @Test func nextNeverFiresTheCuesSkippedOverAndStartsTheNewSceneFromItsStart() {
        // A look-ahead long enough to have sent the ocean's bell at 1 s before the command.
        let (playback, output) = make(latency: 2400, lookahead: 48_000)
        play(playback, output, to: 0.5 * 48_000)
        #expect(output.starts.contains { !$0.loops && $0.frame == 48_000 + 2400 }, "the bell was sent ahead")
        let before = output.commands.count
        playback.next()
        let commandFrame = Int64(0.5 * 48_000) + 2400
        #expect(commands(output, since: before).first == .revoke(fromFrame: commandFrame))
        #expect(stops(commands(output, since: before)).map(\.frame) == [commandFrame], "the ocean's ambience fades out there")
        #expect(playback.commanded == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
        #expect(playback.current.sceneIndex == 0, "the picture changes when the change is heard")
        play(playback, output, to: Double(commandFrame))
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
        play(playback, output, to: Double(commandFrame) + 3 * 48_000 - 1)
        let sounding = MixerModel(output.commands).cueStarts.filter { Double($0.frame) <= output.heard }
        #expect(sounding.map(\.frame) == [commandFrame + 48_000], "only the swing's creak, one second after it started")
        #expect(playback.takeStartedCues().map(\.sceneID) == ["swing"], "the revoked bell is not logged")
    }

    @Test func aCueAlreadyScheduledPastTheCommandIsRevoked() {
        let (playback, output) = make(latency: 0)
        // The bell at 1 s is inside the 4800-frame look-ahead from 0.95 s.
        play(playback, output, to: 0.95 * 48_000)
        #expect(output.starts.contains { !$0.loops && $0.frame == 48_000 })
        playback.jump(to: 2)
        #expect(output.commands.contains { $0.command == .revoke(fromFrame: 45_600) })
        play(playback, output, to: 2 * 48_000)
        #expect(!MixerModel(output.commands).cueStarts.contains { $0.frame == 48_000 })
        #expect(playback.takeStartedCues().map(\.sceneID) == ["flower"])
    }

    @Test func aLookAheadSceneChangeUndoneByAPauseIsRevoked() {
        // A second and a half of look-ahead: at 3.8 s the ocean's end (4 s) and the swing's creak (5 s) are sent.
        let (playback, output) = make(latency: 0, lookahead: 72_000)
        play(playback, output, to: 3.8 * 48_000)
        #expect(stops(output.commands.map(\.command)).contains { $0.tag == Self.oceanBed && $0.frame == 192_000 })
        #expect(output.starts.contains { !$0.loops && $0.frame == 240_000 })
        #expect(playback.takeStartedCues().map(\.frame) == [48_000, 120_000])
        let before = output.commands.count
        playback.pause()
        let pausedAt: Int64 = 182_400
        #expect(commands(output, since: before).first == .revoke(fromFrame: pausedAt))
        let model = MixerModel(output.commands)
        #expect(model.bedPlays(tag: Self.oceanBed, at: 192_000), "the ocean's end is undone")
        #expect(!model.cueStarts.contains { $0.frame == 240_000 }, "and the creak with it")

        play(playback, output, to: 6 * 48_000)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: Double(pausedAt), isPaused: true))
        #expect(!output.commands[before...].contains { if case .start = $0.command { true } else { false } },
                "nothing starts while paused")
        #expect(playback.takeStartedCues().isEmpty)

        playback.resume()
        let resumedAt: Int64 = 288_000
        let sceneChange = resumedAt + (192_000 - pausedAt)
        play(playback, output, to: Double(sceneChange + 48_000))
        let after = MixerModel(output.commands)
        #expect(after.cueStarts.map(\.frame) == [48_000, 120_000, sceneChange + 48_000], "the creak, later by the pause")
        #expect(after.bedPlays(tag: Self.oceanBed, at: sceneChange - 1) && !after.bedPlays(tag: Self.oceanBed, at: sceneChange),
                "the ocean's bed fades at its new end")
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 48_000))
    }

    @Test func previousOnTheFirstSceneRestartsItAndOtherwiseGoesBackOne() {
        let (playback, output) = make()
        play(playback, output, to: 48_000 * 2)
        playback.previous()
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 0))
        playback.jump(to: 2)
        play(playback, output, to: 48_000 * 3)
        playback.previous()
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
        playback.restart()
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 0))
    }

    @Test func twoCommandsInOneFrameBothCount() {
        let (playback, output) = make(latency: 0)
        play(playback, output, to: 48_000)
        playback.next()
        playback.next()
        #expect(playback.commanded == PlaylistPosition(sceneIndex: 2, sceneFrame: 0))
        #expect(playback.current == PlaylistPosition(sceneIndex: 2, sceneFrame: 0))
        play(playback, output, to: 48_000 * 2)
        let model = MixerModel(output.commands)
        #expect(!model.bedPlays(tag: Self.oceanBed, at: 48_000), "the first command's fade of the ocean stands")
        #expect(model.cueStarts.map(\.frame) == [48_000 + 24_000], "the flower's chime only")
        playback.jump(to: 0)
        playback.jump(to: 0)
        play(playback, output, to: 48_000 * 2 + 1)
        #expect(MixerModel(output.commands).bedStarts(tag: Self.oceanBed) == [0, 96_000])
        #expect(MixerModel(output.commands).bedPlays(tag: Self.oceanBed, at: 96_001))
    }

    @Test func nextOnTheLastSceneEndsWhenPlayingOnce() {
        let (playback, output) = make(wraps: false)
        playback.jump(to: 2)
        play(playback, output, to: 1000)
        playback.next()
        #expect(playback.current.hasEnded)
    }

    // MARK: - Pause

    @Test func pauseHoldsTheSoundAndResumeContinuesItWithoutRestartingBeds() {
        let (playback, output) = make(latency: 960)
        play(playback, output, to: 48_000 * 0.5)
        var before = output.commands.count
        playback.pause()
        let pausedAt: Int64 = 24_000 + 960
        // The playlist started at the first frame it could still reach: the write frame, 960 frames ahead.
        let pausedSceneFrame = pausedAt - 960
        let pausing = commands(output, since: before)
        #expect(pausing.contains { if case .pause(pausedAt, let fade) = $0 { fade > 0 } else { false } })
        #expect(!pausing.contains { if case .stopAll = $0 { true } else { false } }, "a pause holds voices, it does not end them")
        play(playback, output, to: 48_000 * 10)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: Double(pausedSceneFrame), isPaused: true))
        #expect(MixerModel(output.commands).cueStarts.isEmpty, "the bell at 1 s does not ring while paused")
        before = output.commands.count
        playback.resume()
        let resumedAt: Int64 = 480_000 + 960
        let resuming = commands(output, since: before)
        #expect(resuming.contains { if case .resume(resumedAt, let fade) = $0 { fade > 0 } else { false } })
        play(playback, output, to: Double(resumedAt) + 48_000)
        #expect(bedStarts(commands(output, since: before)).isEmpty, "the bed goes on from where it was held")
        #expect(MixerModel(output.commands).cueStarts.first?.frame == resumedAt + (48_000 - pausedSceneFrame))
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: Double(pausedSceneFrame + 48_000)))
    }

    // MARK: - Reload

    @Test func replacingTheDocumentKeepsTheSceneAndTimeWhereTheyStillExist() {
        let (playback, output) = make()
        playback.jump(to: 1)
        play(playback, output, to: 48_000 * 2)
        // Swing now lasts 5 s: same scene, same time.
        let longer = PlayerFixtures.story(durations: [4, 5, 5])
        playback.replaceDocument(longer, soundCommands: PlayerSounds.commands(longer))
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 96_000))
        // Swing shortened to 1 s: the time is clamped to its end.
        let shorter = PlayerFixtures.story(durations: [4, 1, 5])
        playback.replaceDocument(shorter, soundCommands: PlayerSounds.commands(shorter))
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 48_000))
        // Swing removed (only two scenes, ocean then a renamed one): the index is kept within range.
        var renamed = PlayerFixtures.story(durations: [4, 3])
        renamed.scenes[1].id = "garden"
        playback.replaceDocument(renamed, soundCommands: PlayerSounds.commands(renamed))
        #expect(playback.current.sceneIndex == 1)
        play(playback, output, to: 48_000 * 6)
        #expect(playback.current.sceneIndex == 0, "plays on with the new playlist")
    }

    @Test func aReloadFindsTheSceneByIdWhereverItMoved() {
        let (playback, output) = make(latency: 2400)
        play(playback, output, to: 48_000)
        var reordered = PlayerFixtures.story()
        reordered.scenes = [reordered.scenes[2], reordered.scenes[1], reordered.scenes[0]]
        playback.replaceDocument(reordered, soundCommands: PlayerSounds.commands(reordered))
        #expect(playback.current == PlaylistPosition(sceneIndex: 2, sceneFrame: 48_000 - 2400), "what is heard, in the new order")
        #expect(playback.commanded == PlaylistPosition(sceneIndex: 2, sceneFrame: 48_000), "where the reload acts")
        play(playback, output, to: 48_000 * 4 + 2400)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 0), "after the last scene, the flower")
    }

    @Test func anUnchangedAmbienceKeepsPlayingThroughAReloadEvenWhenItsSceneMoves() {
        let (playback, output) = make()
        play(playback, output, to: 48_000)
        let before = output.commands.count
        playback.replaceDocument(PlayerFixtures.story(), soundCommands: PlayerSounds.commands(PlayerFixtures.story()))
        #expect(bedStarts(commands(output, since: before)).isEmpty)
        #expect(stops(commands(output, since: before)).isEmpty)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 48_000))

        // The ocean moves to index 1: its bed plays on under its old tag, and stops when the ocean ends.
        var moved = PlayerFixtures.story()
        moved.scenes = [moved.scenes[1], moved.scenes[0], moved.scenes[2]]
        play(playback, output, to: 48_000 * 2)
        playback.replaceDocument(moved, soundCommands: PlayerSounds.commands(moved))
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 96_000))
        #expect(bedStarts(commands(output, since: before)).isEmpty)
        #expect(stops(commands(output, since: before)).isEmpty)
        play(playback, output, to: 48_000 * 4)
        #expect(playback.current == PlaylistPosition(sceneIndex: 2, sceneFrame: 0))
        let model = MixerModel(output.commands)
        #expect(model.bedStarts(tag: Self.oceanBed) == [0], "never restarted")
        #expect(model.bedPlays(tag: Self.oceanBed, at: 191_999) && !model.bedPlays(tag: Self.oceanBed, at: 192_000))
    }

    @Test func aCommandInTheFrameOfAReloadDoesNotUndoTheReloadsCrossfade() {
        let (playback, output) = make()
        play(playback, output, to: 48_000)
        // The ocean moves to index 1 and its bed changes: the reload fades the old bed (tag of index 0) out.
        var moved = PlayerFixtures.story()
        moved.scenes = [moved.scenes[1], moved.scenes[0], moved.scenes[2]]
        moved.scenes[1].ambience[0].gain = 0.9
        playback.replaceDocument(moved, soundCommands: PlayerSounds.commands(moved))
        playback.update()  // the look-ahead passes the reload's frame before the key press is handled
        playback.next()
        play(playback, output, to: 48_000 * 3)
        #expect(playback.current.sceneIndex == 2)
        #expect(!MixerModel(output.commands).bedPlays(tag: Self.oceanBed, at: 48_000 * 3), "the old bed's fade stands")
    }

    @Test func aReloadOnTheSampleOfACueBetweenSamplesStillStartsIt() {
        let document = PlayerFixtures.unevenStory()
        let (playback, output) = make(document, latency: 1024)
        // Scene b starts at 1024 + 48 000.48; its cue at 0.1 s is due at 1024 + 52 800.48, so on sample 53 825.
        let cueFrame: Int64 = 53_825
        play(playback, output, to: Double(cueFrame - 1024))  // the reload acts at the write frame, the cue's sample
        playback.replaceDocument(document, soundCommands: PlayerSounds.commands(document))
        play(playback, output, to: Double(cueFrame + 100))
        #expect(MixerModel(output.commands).cueStarts.map(\.frame).contains(cueFrame))
    }

    @Test func aChangedAmbienceCrossfadesAtTheReload() {
        let (playback, output) = make()
        play(playback, output, to: 48_000)
        var louder = PlayerFixtures.story()
        louder.scenes[0].ambience[0].gain = 0.9
        let before = output.commands.count
        playback.replaceDocument(louder, soundCommands: PlayerSounds.commands(louder))
        let sent = commands(output, since: before)
        #expect(stops(sent).map { [Int64($0.tag), $0.frame, Int64($0.fade)] } == [[Int64(Self.oceanBed), 48_000, 12_000]])
        let beds = bedStarts(sent)
        #expect(beds.map(\.frame) == [48_000] && beds.map(\.fadeInFrames) == [24_000])
        #expect(abs((beds.first?.gain ?? 0) - 0.45) < 1e-6)
    }

    @Test func aReloadWhilePausedStaysPausedAndTheNewBedWaitsForTheResume() {
        let (playback, output) = make()
        play(playback, output, to: 48_000)
        playback.pause()
        play(playback, output, to: 48_000 * 2)
        var louder = PlayerFixtures.story()
        louder.scenes[0].ambience[0].gain = 0.9
        playback.replaceDocument(louder, soundCommands: PlayerSounds.commands(louder))
        play(playback, output, to: 48_000 * 3)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 48_000, isPaused: true))
        playback.resume()
        play(playback, output, to: 48_000 * 4)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 96_000))
        let model = MixerModel(output.commands)
        // The pause came on the bell's frame (1 s): it rings at the resume instead.
        #expect(model.cueStarts.map(\.frame) == [48_000 * 3])
        #expect(model.bedStarts(tag: Self.oceanBed) == [0, 96_000], "the changed bed, waiting in the pause")
    }
}
