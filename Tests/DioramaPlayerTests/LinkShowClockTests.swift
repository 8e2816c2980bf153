import DioramaLink
import Foundation
@testable import DioramaPlayer
import Testing

/// The show clock on a Link session that stays off the network: Link's timeline answers for any time, so the show's
/// seconds are computed at chosen times on Link's clock, not waited for.
@Suite struct LinkShowClockTests {
    func clock(tempo: Double = 60) throws -> (LinkShowClock, Double) {
        let session = try LinkSession(tempo: tempo)
        session.isStartStopSyncEnabled = true
        let clock = LinkShowClock(session: session, cycle: 12)
        return (clock, clock.now())
    }

    /// Link applies a commit on its own thread, which may hand the app back its previous state once more: the reading is
    /// taken again (every millisecond, for at most two seconds) until it shows the change, then checked.
    func expectShow(_ read: @autoclosure () -> SharedShowState, _ seconds: Double, playing: Bool,
                    sourceLocation: SourceLocation = #_sourceLocation) {
        var state = read()
        for _ in 0..<2000 where abs(state.seconds - seconds) >= 1e-5 || state.isPlaying != playing {
            usleep(1000)
            state = read()
        }
        #expect(abs(state.seconds - seconds) < 1e-5, "\(state.seconds) against \(seconds)", sourceLocation: sourceLocation)
        #expect(state.isPlaying == playing, sourceLocation: sourceLocation)
    }

    @Test func theShowRunsASecondABeatAndRepeatsEveryCycle() throws {
        let (clock, t) = try clock()
        clock.play(from: 3, at: t)
        expectShow(clock.show(at: t + 1), 4, playing: true)
        expectShow(clock.show(at: t + 10.5), 1.5, playing: true)
        clock.move(to: 11.5, at: t + 2)
        expectShow(clock.show(at: t + 3), 0.5, playing: true)
    }

    @Test func pausedTheShowHoldsWhereItStoppedAndAMoveChangesWhereItHolds() throws {
        let (clock, t) = try clock()
        clock.play(from: 0, at: t)
        clock.pause(at: t + 4)
        expectShow(clock.show(at: t + 10), 4, playing: false)
        clock.move(to: 7, at: t + 11)
        expectShow(clock.show(at: t + 12), 7, playing: false)
        clock.play(from: 7, at: t + 20)
        expectShow(clock.show(at: t + 21), 8, playing: true)
    }

    @Test func anotherTempoInTheSessionStillRunsTheShowASecondASecond() throws {
        let (clock, t) = try clock(tempo: 120)
        clock.play(from: 2, at: t)
        expectShow(clock.show(at: t + 3), 5, playing: true)
        expectShow(clock.show(at: t + 11), 1, playing: true)
    }
}
