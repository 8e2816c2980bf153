import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
@testable import DioramaPlayer
import Testing

/// Loops, stop cues, ambience started on a moment and ducks in the player: the sequencer's events as the mixer
/// commands the output receives, on a clock the test moves, through navigation, pause, revocation and reload.
@Suite struct LastingSoundPlaybackTests {
    static let rate = 48_000

    /// Scene a (4 s): a loop "m" from 0.5 s until 3 s, ducking; a stop of "m" at 2 s; rain from 1 s.
    /// Scene b (4 s): a loop from 1 s to the scene's end. Scene c (2 s): nothing.
    static func story(stopAt: String = "2") throws -> Document {
        try DocumentFixtures.decode("""
            { "canvas": { "width": 10, "height": 10 },
              "sounds": { "music": "music.flac", "rain": "rain.flac", "hum": "hum.flac" },
              "scenes": [
                { "id": "a", "duration": 4,
                  "ambience": [{ "sound": "rain", "start": 1, "fadeIn": 0.5 }],
                  "cues": [{ "sound": "music", "id": "m", "at": 0.5, "loop": true, "until": 3, "fadeOut": 0.2, "duck": { "db": -12 } },
                           { "stop": "m", "at": \(stopAt) }] },
                { "id": "b", "duration": 4, "cues": [{ "sound": "hum", "at": 1, "loop": true, "fadeOut": 0.5 }] },
                { "id": "c", "duration": 2 }
              ] }
            """).document
    }

    static let loopA = PlaylistAudio.cueTag(scene: 0, cue: 0)
    static let loopB = PlaylistAudio.cueTag(scene: 1, cue: 0)
    static let rain = PlaylistAudio.bedTag(scene: 0, bed: 0)

    func make(_ document: Document, latency: Int64 = 0, lookahead: Int64 = 4800, sceneIndex: Int = 0,
              sceneTime: Rational = .zero) -> (PlaylistPlayback, ManualSoundOutput) {
        let output = ManualSoundOutput(sampleRate: Self.rate)
        output.latency = latency
        let playback = PlaylistPlayback(document: document, soundCommands: PlayerSounds.commands(document), output: output,
                                        sceneIndex: sceneIndex, sceneTime: sceneTime, lookahead: lookahead)
        return (playback, output)
    }

    func stops(_ output: ManualSoundOutput, tag: UInt32) -> [Int64] {
        output.commands.compactMap { if case .stop(tag, let frame, _) = $0.command { frame } else { nil } }
    }

    @Test func theLoopStartsDucksAndIsStoppedOnItsFramesAndTheBedStartsOnItsOwn() throws {
        let (playback, output) = make(try Self.story())
        play(playback, output, to: 5.5 * 48_000)
        let loop = try #require(output.starts.first { $0.tag == Self.loopA })
        #expect(loop.frame == 24_000 && loop.loops && loop.priority == .cue)
        #expect(abs(loop.duck.gain - 0.251_188_6) < 1e-6 && loop.duck.attackFrames == 2400 && loop.duck.releaseFrames == 14_400)
        let bed = try #require(output.starts.first { $0.tag == Self.rain })
        #expect(bed.frame == 48_000 && bed.loops && bed.priority == .ambience && bed.fadeInFrames == 24_000)
        // The stop cue at 2 s, the until at 3 s, the scene's end at 4 s: each over the loop's 0.2 s fade-out.
        #expect(stops(output, tag: Self.loopA) == [96_000, 144_000, 192_000])
        #expect(output.commands.contains { $0.command == .stop(tag: Self.loopA, frame: 96_000, fadeFrames: 9600) })
        let model = MixerModel(output.commands)
        #expect(model.bedPlays(tag: Self.loopA, at: 95_999) && !model.bedPlays(tag: Self.loopA, at: 96_000))
        #expect(model.bedPlays(tag: Self.rain, at: 191_999) && !model.bedPlays(tag: Self.rain, at: 192_000))
        #expect(model.bedStarts(tag: Self.loopB) == [240_000])
    }

    @Test func leavingTheSceneStopsItsLoopAtTheCommandAndNothingOfItsFutureSounds() throws {
        let (playback, output) = make(try Self.story(stopAt: "3.5"), latency: 2400, lookahead: 48_000)
        play(playback, output, to: 1.5 * 48_000)
        playback.next()
        let commandFrame = Int64(1.5 * 48_000) + 2400
        #expect(output.commands.contains { $0.command == .revoke(fromFrame: commandFrame) })
        #expect(output.commands.contains { $0.command == .stop(tag: Self.loopA, frame: commandFrame, fadeFrames: 9600) },
                "the loop fades out over its own fade-out where the scene is left")
        play(playback, output, to: 6 * 48_000)
        let model = MixerModel(output.commands)
        #expect(!model.bedPlays(tag: Self.loopA, at: commandFrame))
        #expect(model.bedStarts(tag: Self.loopA) == [24_000 + 2400], "never again (the playlist starts a latency late)")
        #expect(model.bedStarts(tag: Self.loopB) == [commandFrame + 48_000])
        // b's loop ends with b, four seconds after it started.
        #expect(model.bedPlays(tag: Self.loopB, at: commandFrame + 4 * 48_000 - 1) && !model.bedPlays(tag: Self.loopB, at: commandFrame + 4 * 48_000))
    }

    @Test func aStopAnnouncedBeforeAPauseIsRevokedAndSentAgainLaterByThePause() throws {
        // A second of look-ahead: at 1.5 s the stop at 2 s has been sent.
        let (playback, output) = make(try Self.story(), lookahead: 48_000)
        play(playback, output, to: 1.5 * 48_000)
        #expect(stops(output, tag: Self.loopA) == [96_000])
        playback.pause()
        #expect(output.commands.contains { $0.command == .revoke(fromFrame: 72_000) })
        #expect(MixerModel(output.commands).bedPlays(tag: Self.loopA, at: 96_000), "the stop is revoked with the rest of the future")
        play(playback, output, to: 3 * 48_000)
        playback.resume()
        play(playback, output, to: 5 * 48_000)
        // Paused from 72 000 to 144 000: the stop at 96 000 + 72 000.
        let model = MixerModel(output.commands)
        #expect(model.bedPlays(tag: Self.loopA, at: 167_999) && !model.bedPlays(tag: Self.loopA, at: 168_000))
    }

    @Test func startingPartWayThroughASceneStartsWhatIsUnderWayThere() throws {
        // Opened at 1.5 s (as after a sound file changed): the loop (0.5 ... 2 s) and the rain (from 1 s) start at once.
        let (playback, output) = make(try Self.story(), sceneTime: Rational(3, 2))
        #expect(output.starts.filter { $0.tag == Self.loopA }.map(\.frame) == [0])
        #expect(output.starts.filter { $0.tag == Self.rain }.map(\.frame) == [0])
        play(playback, output, to: 48_000)
        #expect(stops(output, tag: Self.loopA).first == 24_000, "and stops half a second later, at the stop cue")
    }

    @Test func aReloadThatKeepsTheScenesCuesKeepsItsLoopPlaying() throws {
        let document = try Self.story()
        let (playback, output) = make(document)
        play(playback, output, to: 1.2 * 48_000)
        let before = output.commands.count
        var edited = document
        edited.scenes[2].duration = Rational(3)
        playback.replaceDocument(edited, soundCommands: PlayerSounds.commands(edited))
        let sent = output.commands[before...].map(\.command)
        #expect(!sent.contains { if case .start = $0 { true } else { false } }, "nothing restarts")
        #expect(!sent.contains { if case .stop(let tag, let frame, _) = $0 { frame <= 57_600 && (tag == Self.loopA || tag == Self.rain) } else { false } })
        play(playback, output, to: 3 * 48_000)
        let model = MixerModel(output.commands)
        #expect(model.bedStarts(tag: Self.loopA) == [24_000])
        #expect(model.bedPlays(tag: Self.loopA, at: 95_999) && !model.bedPlays(tag: Self.loopA, at: 96_000), "the stop cue still ends it")
        #expect(model.bedPlays(tag: Self.rain, at: 140_000))
    }

    @Test func aReloadThatMovesTheSceneStopsTheLoopUnderItsOldTag() throws {
        let document = try Self.story()
        let (playback, output) = make(document)
        play(playback, output, to: 1.2 * 48_000)
        var moved = document
        moved.scenes = [document.scenes[2], document.scenes[0], document.scenes[1]]
        playback.replaceDocument(moved, soundCommands: PlayerSounds.commands(moved))
        play(playback, output, to: 3 * 48_000)
        // The new playlist stops tag (scene 1, cue 0); the voice started under (scene 0, cue 0) stops with it.
        let model = MixerModel(output.commands)
        #expect(model.bedStarts(tag: Self.loopA) == [24_000])
        #expect(model.bedPlays(tag: Self.loopA, at: 95_999) && !model.bedPlays(tag: Self.loopA, at: 96_000))
        #expect(model.bedPlays(tag: Self.rain, at: 140_000))
    }

    @Test func aReloadThatChangesTheScenesCuesEndsItsLoopAndStartsTheNewOneUnderWay() throws {
        let document = try Self.story()
        let (playback, output) = make(document)
        play(playback, output, to: 1.2 * 48_000)
        var edited = document
        edited.scenes[0].cues[0].gain = 0.5
        playback.replaceDocument(edited, soundCommands: PlayerSounds.commands(edited))
        let reloadFrame: Int64 = 57_600
        play(playback, output, to: 3 * 48_000)
        let loops = output.starts.filter { $0.tag == Self.loopA }
        #expect(loops.map(\.frame) == [24_000, reloadFrame] && loops.map(\.gain) == [1, 0.5])
        let model = MixerModel(output.commands)
        #expect(model.voices.filter { $0.start.tag == Self.loopA }.map(\.stoppedAt) == [reloadFrame, 96_000],
                "the old loop ends at the reload, the new one at the stop cue")
        #expect(model.bedStarts(tag: Self.rain) == [48_000], "the unchanged rain plays on")
    }
}
