import DioramaDocument
import DioramaMixer
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// The playback engine on a clock the test moves: sound commands, the frame being heard, and where the picture is.
@Suite struct PlaylistPlaybackTests {
    static let rate = 48_000

    /// The fixture story at 48 kHz, with its timed cues.
    static func scenes(durations: [Int] = [4, 3, 5]) -> [PlaybackScene] {
        let document = PlayerFixtures.story(durations: durations)
        return PlaybackScene.scenes(of: document, sampleRate: rate,
                                    cueFrames: { PlaybackScene.timedCueFrames(of: document.scenes[$0], sampleRate: rate) },
                                    soundIndex: PlayerFixtures.soundIndex)
    }

    func make(latency: Int64 = 0, wraps: Bool = true) -> (PlaylistPlayback, ManualSoundOutput) {
        let output = ManualSoundOutput(sampleRate: Self.rate)
        output.latency = latency
        let playback = PlaylistPlayback(scenes: Self.scenes(), output: output, wraps: wraps, lookahead: 4800)
        return (playback, output)
    }

    /// Moves the heard clock to `frame`, updating the schedule every 800 frames (a 60 Hz frame) on the way.
    func play(_ playback: PlaylistPlayback, _ output: ManualSoundOutput, to frame: Double) {
        while output.heard + 800 < frame {
            output.heard += 800
            playback.update()
        }
        output.heard = frame
        playback.update()
    }

    func cueStarts(_ output: ManualSoundOutput) -> [VoiceStart] { output.starts.filter { !$0.loops } }

    @Test func scenesFollowEachOtherOnTheSampleClockAndWrap() {
        let (playback, output) = make()
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 0))
        play(playback, output, to: 1.5 * 48_000)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 72_000))
        play(playback, output, to: 4 * 48_000 - 1)
        #expect(playback.current.sceneIndex == 0)
        play(playback, output, to: 4 * 48_000)
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
        play(playback, output, to: 12 * 48_000 + 100)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: 100), "wrapped after the last scene")
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
        let starts = cueStarts(output)
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
        #expect(started.allSatisfy { $0.lateFrames == 0 })
    }

    @Test func ambienceStartsWithItsSceneAndFadesWhenTheSceneEnds() {
        let (playback, output) = make()
        let beds = output.starts.filter(\.loops)
        #expect(beds.count == 1)
        #expect(beds[0].frame == 0 && beds[0].sound == 3 && beds[0].fadeInFrames == 24_000 && beds[0].priority == .ambience)
        #expect(abs(beds[0].gain - 0.4) < 1e-6, "the bed's gain times the sound's")
        play(playback, output, to: 4 * 48_000)
        let stops = output.commands.compactMap { if case .stop(let tag, let frame, let fade) = $0.command { (tag, frame, fade) } else { nil } }
        #expect(stops.count == 1)
        #expect(stops[0].0 == beds[0].tag && stops[0].1 == 192_000 && stops[0].2 == 12_000)
    }

    @Test func nextNeverFiresTheCuesSkippedOverAndStartsTheNewSceneFromItsStart() {
        let (playback, output) = make(latency: 2400)
        play(playback, output, to: 0.5 * 48_000)
        output.clearCommands()
        playback.next()
        let commandFrame = Int64(0.5 * 48_000) + 2400
        // The ocean's ambience fades out from the command frame; the swing starts there.
        #expect(playback.commanded == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
        #expect(playback.current.sceneIndex == 0, "the picture changes when the change is heard")
        play(playback, output, to: Double(commandFrame))
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
        play(playback, output, to: Double(commandFrame) + 3 * 48_000 - 1)
        let starts = cueStarts(output)
        #expect(starts.map(\.frame) == [commandFrame + 48_000], "only the swing's creak, one second after it started")
        #expect(!playback.takeStartedCues().contains { $0.sceneID == "ocean" })
    }

    @Test func aCueAlreadyScheduledPastTheCommandIsCancelled() {
        let (playback, output) = make(latency: 0)
        // The bell at 1 s is inside the 4800-frame look-ahead from 0.95 s.
        play(playback, output, to: 0.95 * 48_000)
        let bell = cueStarts(output).first { $0.frame == 48_000 }
        #expect(bell != nil)
        playback.jump(to: 2)
        let cancelled = output.commands.contains {
            if case .stop(let tag, let frame, _) = $0.command { tag == bell!.tag && frame == 45_600 } else { false }
        }
        #expect(cancelled)
        play(playback, output, to: 2 * 48_000)
        #expect(playback.takeStartedCues().map(\.sceneID) == ["flower"])
    }

    @Test func pauseFreezesPictureAndSoundAndResumeContinuesInStep() {
        let (playback, output) = make(latency: 960)
        play(playback, output, to: 48_000 * 0.5)
        playback.pause()
        let pausedAt = Int64(24_000 + 960)
        // The playlist started at the first frame it could still reach: the write frame, 960 frames ahead.
        let pausedSceneFrame = pausedAt - 960
        #expect(output.commands.contains { if case .stopAll(pausedAt, 480) = $0.command { true } else { false } })
        play(playback, output, to: 48_000 * 10)
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: Double(pausedSceneFrame), isPaused: true))
        #expect(cueStarts(output).isEmpty, "the bell at 1 s does not ring while paused")
        output.clearCommands()
        playback.resume()
        let resumedAt = Int64(480_000 + 960)
        // The bed comes back with a short ramp; the bell rings when 1 s of scene time is reached.
        #expect(output.starts.filter(\.loops).map(\.fadeInFrames) == [480])
        play(playback, output, to: Double(resumedAt) + 48_000)
        #expect(cueStarts(output).first?.frame == resumedAt + (48_000 - pausedSceneFrame))
        #expect(playback.current == PlaylistPosition(sceneIndex: 0, sceneFrame: Double(pausedSceneFrame + 48_000)))
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

    @Test func nextOnTheLastSceneEndsWhenPlayingOnce() {
        let (playback, output) = make(wraps: false)
        playback.jump(to: 2)
        play(playback, output, to: 1000)
        playback.next()
        #expect(playback.current.hasEnded)
    }

    @Test func replacingTheScenesKeepsTheSceneAndTimeWhereTheyStillExist() {
        let (playback, output) = make()
        playback.jump(to: 1)
        play(playback, output, to: 48_000 * 2)
        // Swing now lasts 5 s: same scene, same time.
        playback.replaceScenes(Self.scenes(durations: [4, 5, 5]))
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 96_000))
        // Swing shortened to 1 s: the time is clamped inside it.
        playback.replaceScenes(Self.scenes(durations: [4, 1, 5]))
        #expect(playback.current == PlaylistPosition(sceneIndex: 1, sceneFrame: 47_999))
        // Swing removed (only two scenes, ocean then a renamed one): the index is kept within range.
        var renamed = Self.scenes(durations: [4, 3])
        renamed[1].id = "garden"
        playback.replaceScenes(renamed)
        #expect(playback.current.sceneIndex == 1)
        play(playback, output, to: 48_000 * 6)
        #expect(playback.current.sceneIndex == 0, "plays on with the new playlist")
    }

    @Test func anUnchangedAmbienceKeepsPlayingThroughAReload() {
        let (playback, output) = make()
        play(playback, output, to: 48_000)
        output.clearCommands()
        playback.replaceScenes(Self.scenes())
        #expect(output.starts.filter(\.loops).isEmpty)
        #expect(!output.commands.contains { if case .stop = $0.command { true } else { false } })
    }
}
