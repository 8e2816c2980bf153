import DioramaLink
import Testing

/// What one Link participant does alone: Link's timeline answers for any time, so nothing here sleeps.
/// These sessions stay disabled (off the network), so no other Link app or test can change their timelines.
@Suite struct LinkSessionTests {
    /// Show time in Diorama: 60 bpm (1 beat = 1 s) over a playlist 90 s long.
    let quantum = 90.0

    @Test func aNewSessionIsAloneDisabledAndAtItsTempo() throws {
        let session = try LinkSession(tempo: 60)
        #expect(!session.isEnabled)
        #expect(session.peerCount == 0)
        #expect(session.tempo == 60)
        #expect(session.state(at: session.hostMicros(), quantum: quantum).tempo == 60)
    }

    @Test func hostMicrosIsLinksMonotonicClock() throws {
        let session = try LinkSession()
        let first = session.hostMicros()
        let second = session.hostMicros()
        #expect(first > 0)
        #expect(second >= first)
    }

    @Test(arguments: [12.5, 0, 89.75, 135.25, -3])
    func aForcedBeatGivesItsPhaseThenAdvancesOneBeatASecond(beat: Double) throws {
        let session = try LinkSession(tempo: 60)
        let time = session.hostMicros() + 5_000
        session.force(beat: beat, at: time, quantum: quantum)

        let atTime = session.state(at: time, quantum: quantum)
        #expect(abs(atTime.beat - beat) < 1e-6)
        #expect(abs(atTime.phase - positiveRemainder(beat, quantum)) < 1e-6)

        let secondLater = session.state(at: time + 1_000_000, quantum: quantum)
        #expect(abs(secondLater.beat - (beat + 1)) < 1e-6)
        #expect(abs(secondLater.phase - positiveRemainder(beat + 1, quantum)) < 1e-6)
    }

    @Test func thePhaseWrapsAtTheQuantum() throws {
        let session = try LinkSession(tempo: 60)
        let time = session.hostMicros()
        session.force(beat: 89.5, at: time, quantum: quantum)
        let state = session.state(at: time + 1_000_000, quantum: quantum)
        #expect(abs(state.beat - 90.5) < 1e-6)
        #expect(abs(state.phase - 0.5) < 1e-6)
    }

    /// One commit only: Link's network thread handles each commit later and re-anchors the app's timeline at that
    /// moment with the tempo it last saw, so a tempo change right after a force can read as the old tempo for a while.
    @Test func aTempoChangeKeepsTheBeatAtItsTime() throws {
        let session = try LinkSession(tempo: 60)
        let time = session.hostMicros()
        let beat = session.state(at: time, quantum: quantum).beat
        session.setTempo(120, at: time)
        #expect(session.tempo == 120)
        // Link keeps beats in millionths, and this beat was not set to a whole number of them.
        #expect(abs(session.state(at: time, quantum: quantum).beat - beat) < 1e-5)
        #expect(abs(session.state(at: time + 1_000_000, quantum: quantum).beat - (beat + 2)) < 1e-5)
    }

    @Test func playingStartsAndStopsAtTheGivenTimes() throws {
        let session = try LinkSession()
        #expect(!session.state(at: session.hostMicros(), quantum: quantum).isPlaying)

        let start = session.hostMicros() + 250_000
        session.setPlaying(true, at: start)
        var state = session.state(at: start, quantum: quantum)
        #expect(state.isPlaying)
        #expect(state.timeForIsPlaying == start)

        let stop = start + 2_000_000
        session.setPlaying(false, at: stop)
        state = session.state(at: stop, quantum: quantum)
        #expect(!state.isPlaying)
        #expect(state.timeForIsPlaying == stop)
    }

    @Test func resumeSetsPlayingAndTheBeatInOneCommit() throws {
        let session = try LinkSession()
        let time = session.hostMicros() + 100_000
        session.resume(beat: 42, at: time, quantum: quantum)
        let state = session.state(at: time, quantum: quantum)
        #expect(state.isPlaying)
        #expect(state.timeForIsPlaying == time)
        #expect(abs(state.beat - 42) < 1e-6)
        #expect(abs(state.phase - 42) < 1e-6)
    }

    @Test func pauseStopsAndMarksTheBeat() throws {
        let session = try LinkSession()
        let time = session.hostMicros()
        session.resume(beat: 5, at: time, quantum: quantum)
        let pause = time + 3_000_000
        session.pause(beat: 8, at: pause, quantum: quantum)
        let state = session.state(at: pause, quantum: quantum)
        #expect(!state.isPlaying)
        #expect(state.timeForIsPlaying == pause)
        #expect(abs(state.beat - 8) < 1e-6)
    }

    @Test func startStopSyncIsOffUntilEnabled() throws {
        let session = try LinkSession()
        #expect(!session.isStartStopSyncEnabled)
        session.isStartStopSyncEnabled = true
        #expect(session.isStartStopSyncEnabled)
    }
}

func positiveRemainder(_ value: Double, _ modulus: Double) -> Double {
    let remainder = value.truncatingRemainder(dividingBy: modulus)
    return remainder < 0 ? remainder + modulus : remainder
}
