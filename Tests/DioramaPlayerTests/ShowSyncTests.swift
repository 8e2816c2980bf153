import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTimeline
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// Players following one shared show clock (what Ableton Link gives `play --link`), each on its own audio clock:
/// every cue must sound at the same shared moment on every player, navigation on one moves them all.
@Suite struct ShowSyncTests {
    static let rate = 48_000

    /// One player: its playback on an audio clock whose frame 0 was heard at shared time `start`.
    final class Screen {
        let output = ManualSoundOutput(sampleRate: ShowSyncTests.rate)
        let playback: PlaylistPlayback
        let sync: ShowSync
        let clock: ManualShowClock
        let start: Double
        /// Audio frames per shared second (a device clock a little fast or slow).
        let speed: Double
        /// Added to the heard frame at each reading (the smoothed clock's jitter), by reading index.
        let jitter: (Int) -> Double
        private var readings = 0
        /// Corrections the sync made, in order.
        var corrections: [ShowSync.Correction] = []

        init(document: Document, clock: ManualShowClock, start: Double, layout: ShowLayout? = nil, speed: Double = 1,
             jitter: @escaping (Int) -> Double = { _ in 0 }) {
            self.clock = clock
            self.start = start
            self.speed = speed
            self.jitter = jitter
            output.heard = 0
            playback = PlaylistPlayback(document: document, soundCommands: PlayerSounds.commands(document), output: output,
                                        lookahead: 4800, commandMargin: 256)
            sync = ShowSync(clock: clock, layout: layout ?? ShowLayout(durations: document.scenes.map(\.duration)))
        }

        /// The frame heard at shared time `time`, as this player's clock reads it.
        func step(at time: Double) {
            readings += 1
            output.heard = max(0, (time - start) * Double(ShowSyncTests.rate) * speed + jitter(readings))
            if let correction = sync.follow(playback) { corrections.append(correction) }
            playback.update()
        }

        /// A frame at shared time `time` whose thread is held up for `stall` seconds between reading the shared clock
        /// and the audio clock (a loaded machine): the audio clock is read `stall` later, and so is the shared clock
        /// after it.
        func step(at time: Double, heldUp stall: Double) {
            readings += 1
            output.heard = max(0, (time + stall - start) * Double(ShowSyncTests.rate) * speed)
            var reads = 0
            clock.reading = {
                reads += 1
                return reads == 1 ? time : time + stall
            }
            if let correction = sync.follow(playback) { corrections.append(correction) }
            clock.reading = nil
            playback.update()
        }

        /// Shared seconds at which each cue voice starts, in order (as the audio device plays frames).
        var cueTimes: [Double] {
            output.starts.filter { $0.priority == .cue }.map { start + Double($0.frame) / Double(ShowSyncTests.rate) / speed }
        }

        /// Cue voices sent, with those revoked later removed (a seek revokes what the look-ahead announced).
        var soundingCueTimes: [Double] {
            var times: [(frame: Int64, time: Double)] = []
            for (command, _) in output.commands {
                switch command {
                case .start(let start) where start.priority == .cue:
                    times.append((start.frame, self.start + Double(start.frame) / Double(ShowSyncTests.rate) / speed))
                case .revoke(let frame):
                    times.removeAll { $0.frame >= frame }
                default: break
                }
            }
            return times.map(\.time)
        }
    }

    /// Steps every screen at 60 Hz of shared time until `end`.
    func run(_ screens: [Screen], _ clock: ManualShowClock, until end: Double) {
        while clock.time + 1.0 / 60 <= end {
            clock.time += 1.0 / 60
            for screen in screens where screen.start <= clock.time { screen.step(at: clock.time) }
        }
    }

    /// The shared times the fixture story's cues sound at when the show starts at shared time `origin`, up to `end`:
    /// ocean (4 s) bells at 1 and 2.5, swing (3 s) creak at 1, flower (5 s) chime at 0.5; the show repeats every 12 s.
    func designedCueTimes(origin: Double, from: Double, until end: Double) -> [Double] {
        var times: [Double] = []
        var cycle = origin
        while cycle < end {
            for offset in [1.0, 2.5, 5.0, 7.5] where cycle + offset >= from && cycle + offset < end { times.append(cycle + offset) }
            cycle += 12
        }
        return times
    }

    func expectSame(_ times: [Double], _ expected: [Double], within tolerance: Double, _ comment: Comment? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(times.count == expected.count, comment, sourceLocation: sourceLocation)
        for (time, wanted) in zip(times, expected) {
            #expect(abs(time - wanted) <= tolerance, "\(time) against \(wanted)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Joining

    @Test func aPlayerThatStartsLateJoinsAtTheRunningShowTimeAndItsCuesLandOnTheSharedSample() {
        let document = PlayerFixtures.story()
        // The show started at shared time 10; this player's audio starts at 27.3701234: 17.37 s into the show, 5.37 s
        // into its second 12 s cycle, the swing 1.37 s in.
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 10)
        let screen = Screen(document: document, clock: clock, start: 27.370_123_4)
        run([screen], clock, until: 27.370_123_4 + 1.0 / 60)
        let position = screen.playback.commanded
        #expect(position.sceneIndex == 1, "joined in the swing, not at the playlist's start")
        run([screen], clock, until: 60)
        // Every cue after the join sounds on the sample the shared clock gives it (within half a sample of rounding).
        let expected = designedCueTimes(origin: 10, from: 27.5, until: 60)
        expectSame(screen.soundingCueTimes.filter { $0 >= 27.5 }, expected, within: 0.6 / 48_000)
        #expect(screen.corrections.map(\.kind) == [.jump], "one seek on joining, none after")
    }

    @Test func twoPlayersOnDifferentAudioClocksSoundEveryCueAtTheSameSharedMoment() {
        let document = PlayerFixtures.story()
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0)
        let first = Screen(document: document, clock: clock, start: 0)
        let second = Screen(document: document, clock: clock, start: 3.141_59)
        run([first, second], clock, until: 40)
        let expected = designedCueTimes(origin: 0, from: 3.3, until: 40)
        expectSame(first.soundingCueTimes.filter { $0 >= 3.3 }, expected, within: 0.6 / 48_000)
        expectSame(second.soundingCueTimes.filter { $0 >= 3.3 }, expected, within: 0.6 / 48_000)
    }

    @Test func aLaggingAudioClockReadingIsNotChasedAndCuesStayWithinAMillisecond() {
        let document = PlayerFixtures.story()
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0)
        // Readings up to a window frame (16.7 ms) behind, never ahead, as the smoothed ALSA clock lags between the
        // device's steps (deterministic, not periodic).
        var generator = SplitMix(seed: 7)
        let noise = (0..<4000).map { _ in -Double(generator.next() % 801) }
        let screen = Screen(document: document, clock: clock, start: 0.5, jitter: { noise[$0 % noise.count] })
        run([screen], clock, until: 50)
        // The first readings may all lag: from half a second after joining, the estimate has seen enough of them.
        expectSame(screen.soundingCueTimes.filter { $0 >= 1.5 }, designedCueTimes(origin: 0, from: 1.5, until: 50), within: 0.001)
        #expect(screen.corrections.count <= 6, "the noise itself is not corrected: \(screen.corrections)")
    }

    @Test func aDriftingDeviceClockIsPulledBackBeforeItIsAMillisecondOff() {
        let document = PlayerFixtures.story()
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0)
        // 200 ppm fast: a millisecond every 5 s uncorrected, 20 ms after 100 s.
        let screen = Screen(document: document, clock: clock, start: 0, speed: 1.000_2)
        run([screen], clock, until: 100)
        expectSame(screen.soundingCueTimes.filter { $0 >= 0.5 }, designedCueTimes(origin: 0, from: 0.5, until: 100), within: 0.001)
        #expect(screen.corrections.contains { $0.kind == .drift })
        #expect(!screen.corrections.dropFirst().contains { $0.kind == .jump })
    }

    // MARK: - A loaded machine

    /// How one frame reads the clocks: as `step(at:)` does, with the audio clock reading a given frame, held up
    /// between the two clocks by some seconds, held up while the audio thread renders some frames on after the
    /// frame loop first read where it writes, or not at all (a frame loop that stalled).
    enum Reading { case plain, heard(Double), heldUp(Double), rendersOn(Int64), skipped }

    /// Steps `screen` at 60 Hz of shared time until `end`, asking `frame` how each one reads the clocks.

    func run(_ screen: Screen, _ clock: ManualShowClock, until end: Double, _ frame: (Double) -> Reading) {
        while clock.time + 1.0 / 60 <= end {
            clock.time += 1.0 / 60
            switch frame(clock.time) {
            case .plain: screen.step(at: clock.time)
            case .heard(let heard):
                screen.output.heard = heard
                if let correction = screen.sync.follow(screen.playback) { screen.corrections.append(correction) }
                screen.playback.update()
            case .heldUp(let stall): screen.step(at: clock.time, heldUp: stall)
            case .rendersOn(let frames):
                screen.output.rendersOn = (frames, 0)
                screen.step(at: clock.time)
                screen.output.rendersOn = nil
            case .skipped: break
            }
        }
    }

    @Test func theFirstPlayerIsNotMovedByAThreadHeldUpBetweenReadingTheTwoClocks() {
        let document = PlayerFixtures.story()
        // The player that started the show: its audio clock is the show's. Three times its frame loop is held up
        // between reading the shared clock and the audio clock, by 21.3, 26.7 and 37.3 ms (4, 5 and 7 periods of 256
        // frames), as a late peer's work on a 2-core machine did.
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0, playing: false)
        let screen = Screen(document: document, clock: clock, start: 0)
        // It starts the show where its playback is.
        screen.sync.startHere(screen.playback)
        let origin = Double(screen.playback.nextCommandFrame) / 48_000
        let stalls: [Int: Double] = [200: 1024.0 / 48_000, 1300: 1280.0 / 48_000, 1900: 1792.0 / 48_000]
        var frame = 0
        run(screen, clock, until: 40) { _ in
            frame += 1
            return stalls[frame].map { .heldUp($0) } ?? .plain
        }
        #expect(screen.corrections.isEmpty, "the first player was moved: \(screen.corrections)")
        expectSame(screen.soundingCueTimes, designedCueTimes(origin: origin, from: 0, until: 40), within: 0.6 / 48_000)
    }

    @Test func theFirstPlayerIsNotMovedWhenTheAudioThreadRendersOnWhileItsFrameLoopIsHeldUp() {
        let document = PlayerFixtures.story()
        // Four times the frame loop is held up after reading the frame its commands act on, while the audio thread
        // renders 4, 5, 7 and 11 periods of 256 frames on (the corrections seen on a loaded machine: +21.3 ms, then
        // -21.3 ms on the next frame); the frame after each is late.
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0, playing: false)
        let screen = Screen(document: document, clock: clock, start: 0)
        screen.sync.startHere(screen.playback)
        let origin = Double(screen.playback.nextCommandFrame) / 48_000
        let holdUps: [Int: Int64] = [200: 1024, 900: 1280, 1500: 1792, 2100: 2816]
        var frame = 0
        run(screen, clock, until: 40) { _ in
            frame += 1
            if let frames = holdUps[frame] { return .rendersOn(frames) }
            if let frames = holdUps[frame - 1] { return frames > 800 ? .skipped : .plain }
            if let frames = holdUps[frame - 2], frames > 1600 { return .skipped }
            if let frames = holdUps[frame - 3], frames > 2400 { return .skipped }
            return .plain
        }
        #expect(screen.corrections.isEmpty, "the first player was moved: \(screen.corrections)")
        expectSame(screen.soundingCueTimes, designedCueTimes(origin: origin, from: 0, until: 40), within: 0.6 / 48_000)
    }

    @Test func aStalledAudioClockOrFrameLoopDoesNotMoveThePlayerAndItsCuesStayOnTheirSamples() {
        let document = PlayerFixtures.story()
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0, playing: false)
        let screen = Screen(document: document, clock: clock, start: 0)
        // It starts the show where its playback is.
        screen.sync.startHere(screen.playback)
        let origin = Double(screen.playback.nextCommandFrame) / 48_000
        let rate = Double(ShowSyncTests.rate)
        run(screen, clock, until: 40) { time in
            switch time {
            // The audio thread held up for 300 ms: its count stands still (the smoothed clock runs on two periods of
            // 1024 frames past it), then catches up.
            case 5.5..<5.8: .heard(min(time, 5.5) * rate + min(max(time - 5.5, 0) * rate, 2048))
            // The frame loop held up for 250 ms; the first reading after it is a period behind (the loop saw the
            // count change late).
            case 17.3..<17.55: .skipped
            case 17.55..<(17.55 + 1.0 / 60): .heard(time * rate - 1024)
            default: .plain
            }
        }
        #expect(screen.corrections.isEmpty, "the player was moved: \(screen.corrections)")
        expectSame(screen.soundingCueTimes, designedCueTimes(origin: origin, from: 0, until: 40), within: 0.6 / 48_000)
    }

    @Test func anAudioClockThatFallsBehindIsFollowedOnceTheReadingsBeforeHaveAgedOut() {
        let document = PlayerFixtures.story()
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0, playing: false)
        let screen = Screen(document: document, clock: clock, start: 0)
        screen.sync.startHere(screen.playback)
        let origin = Double(screen.playback.nextCommandFrame) / 48_000
        run([screen], clock, until: 3)
        // From here each frame is heard 0.25 s later than before (time lost: the device's latency grew). The readings
        // of the last two seconds say otherwise at first (a stall looks the same); once they have aged out, the
        // playback is moved once, by a jump, and its cues land on the show's samples again.
        screen.output.latency = 12_000
        run(screen, clock, until: 20) { time in .heard((time - 0.25) * Double(ShowSyncTests.rate)) }
        #expect(screen.corrections.map(\.kind) == [.jump], "\(screen.corrections)")
        let jumped = Double(screen.corrections.first?.frame ?? 0) / 48_000
        #expect(jumped > 4.9 && jumped < 5.3, "moved at \(jumped) s")
        let heard = screen.soundingCueTimes.filter { $0 > 6 }.map { $0 + 0.25 }
        expectSame(heard, designedCueTimes(origin: origin, from: 6.25, until: 20.25), within: 0.6 / 48_000)
    }

    // MARK: - Navigation

    @Test func nextOnOnePlayerMovesEveryPlayerToTheNextSceneAtTheSameSharedMoment() {
        let document = PlayerFixtures.story()
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0)
        let first = Screen(document: document, clock: clock, start: 0)
        let second = Screen(document: document, clock: clock, start: 0.731)
        run([first, second], clock, until: 2)
        first.sync.next(first.playback)
        #expect(first.playback.commanded.sceneIndex == 1)
        run([first, second], clock, until: 2 + 1.0 / 60)
        #expect(second.playback.commanded.sceneIndex == 1, "the other player followed within one frame")
        run([first, second], clock, until: 10)
        // The swing's creak, 1 s after the move, on both players at the same shared moment.
        let firstCreak = first.soundingCueTimes.filter { $0 > 2 }.first ?? 0
        let secondCreak = second.soundingCueTimes.filter { $0 > 2 }.first ?? 0
        #expect(abs(firstCreak - secondCreak) <= 1.0 / 48_000)
        #expect(abs(firstCreak - 3.0) < 0.02, "a second after the move (which acts a command margin later)")
        // The bell at 2.5 s of the ocean, announced before the move, never sounds on either.
        #expect(!first.soundingCueTimes.contains { abs($0 - 2.5) < 0.01 } && !second.soundingCueTimes.contains { abs($0 - 2.5) < 0.01 })
    }

    @Test func pauseAndResumeOnOnePlayerHoldEveryPlayerAtTheSameSample() {
        let document = PlayerFixtures.story()
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0)
        let first = Screen(document: document, clock: clock, start: 0)
        let second = Screen(document: document, clock: clock, start: 1.234_567)
        run([first, second], clock, until: 5.5)
        second.sync.pause(second.playback)
        run([first, second], clock, until: 8)
        #expect(first.playback.commanded.isPaused && second.playback.commanded.isPaused)
        let held = first.playback.commanded
        #expect(held.sceneIndex == 1 && held == second.playback.commanded.withoutTaps, "held at the same scene and sample")
        first.sync.resume(first.playback)
        run([first, second], clock, until: 20)
        #expect(!first.playback.commanded.isPaused && !second.playback.commanded.isPaused)
        let firstAfter = first.soundingCueTimes.filter { $0 > 8 }
        let secondAfter = second.soundingCueTimes.filter { $0 > 8 }
        #expect(!firstAfter.isEmpty && firstAfter.count == secondAfter.count)
        for (a, b) in zip(firstAfter, secondAfter) { #expect(abs(a - b) <= 1.0 / 48_000) }
    }

    // MARK: - Parts of the show

    @Test func aSceneOffsetShowsTheShowScenesAheadAndOnlyLoopsOneScene() {
        let document = PlayerFixtures.story()
        let durations = document.scenes.map(\.duration)
        let clock = ManualShowClock(cycle: 12, seconds: 0, at: 0)
        let ahead = Screen(document: document, clock: clock, start: 0, layout: ShowLayout(durations: durations, sceneOffset: 1))
        var swingOnly = document
        swingOnly.scenes = [document.scenes[1]]
        let only = Screen(document: swingOnly, clock: clock, start: 0, layout: ShowLayout(durations: durations, only: 1))
        run([ahead, only], clock, until: 1.5)
        // At show second 1.5: one scene ahead is 5.5 s into the playlist (the swing, 1.5 s in); the swing alone loops
        // every 3 s, so 1.5 s in too.
        #expect(ahead.playback.commanded.sceneIndex == 1)
        #expect(abs(ahead.playback.commanded.sceneTime(sampleRate: 48_000) - 1.5) < 0.02)
        #expect(abs(only.playback.commanded.sceneTime(sampleRate: 48_000) - 1.5) < 0.02)
        run([ahead, only], clock, until: 12)
        // The swing alone creaks at 1, 4, 7 and 10 s of the show: a second into each loop.
        let creaks = only.soundingCueTimes
        expectSame(creaks, [1, 4, 7, 10], within: 0.6 / 48_000)
    }
}

extension PlaylistPosition {
    /// The position without its taps (none in these scenes), for comparing positions of two players.
    var withoutTaps: PlaylistPosition {
        var copy = self
        copy.taps = [:]
        return copy
    }
}

/// A small deterministic generator for test noise.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49EB_133B_111F
        return z ^ (z >> 31)
    }
}
