import DioramaLink
import Foundation
import Testing

/// Two Link participants in one process find each other: Link's discovery sends on every up IPv4 interface and
/// loops its multicast back on the loopback one, so even a machine without a network has a session.
/// This is the one test on the host's own network: another Link app running on it could join the session (and a
/// force from it would fail this test); the tests across machines run in network namespaces of their own.
@Suite struct TwoSessionsInOneProcessTests {
    @Test func theyDiscoverEachOtherAndShareAForcedPhase() async throws {
        let quantum = 90.0
        let first = try LinkSession(tempo: 60), second = try LinkSession(tempo: 60)
        first.isEnabled = true
        second.isEnabled = true
        #expect(first.isEnabled && second.isEnabled)
        defer {
            first.isEnabled = false
            second.isEnabled = false
        }
        // Discovery is network traffic: wait for it, with a deadline rather than a fixed sleep.
        let found = try await waitUntil(seconds: 5) { first.peerCount >= 1 && second.peerCount >= 1 }
        #expect(found, "no peers after 5 s: first \(first.peerCount), second \(second.peerCount)")
        guard found else { return }

        let time = first.hostMicros()
        first.force(beat: 30.25, at: time, quantum: quantum)
        // The second reads the forced phase once the first's commit reached it over the (loopback) network.
        let shared = try await waitUntil(seconds: 5) {
            abs(second.state(at: time, quantum: quantum).phase - 30.25) < 0.002
        }
        let phase = second.state(at: time, quantum: quantum).phase
        #expect(shared, "the second reads phase \(phase) at the forced time, not 30.25")
        // Both read the same phase for one time on Link's clock (shared by both: one process, one machine).
        let later = time + 2_500_000
        let difference = first.state(at: later, quantum: quantum).phase - second.state(at: later, quantum: quantum).phase
        #expect(abs(difference) < 0.002)
    }
}

/// Polls `condition` every 10 ms until it holds or `seconds` pass; whether it held.
func waitUntil(seconds: Double, _ condition: () -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
