import ArgumentParser
import DioramaFiles
import DioramaLink
import Foundation

struct LinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Join the Ableton Link session on the network and show it: peers, tempo, beat, phase, playing.",
        discussion: """
            Checks that players on several machines can share one show time. Enables Ableton Link \
            (and its start/stop sync) and prints, every half second for --seconds, one row: the time \
            on Link's clock (microseconds), the peers found, the tempo, the beat and its phase in \
            the quantum, and whether the shared transport plays. Peers are other Link apps on the \
            local network: Link finds them by UDP multicast to 224.76.78.75 port 20808 on every \
            interface with an IPv4 address, so that traffic must pass the firewall. Peers agree on \
            the phase (the beat modulo the quantum), not on the beat itself.

            --force jumps the shared timeline for every peer: the beat is BEAT now (once --peers \
            peers are there). With --peers N, the command fails (exit 1) when fewer than N peers \
            showed up within --seconds.

            Examples:
              diorama link
              diorama link --seconds 30 --peers 1
              diorama link --quantum 90 --force 0 --peers 1
            """
    )

    @Option(help: "How long to watch the session, in seconds.")
    var seconds: Double = 10

    @Option(help: "The quantum in beats: the span over which peers agree on phase (a Diorama player uses its playlist's duration).")
    var quantum: Double = 4

    @Option(help: "The tempo (beats per minute) to start with; a session already running keeps its own.")
    var tempo: Double = 60

    @Option(help: "Force this beat now on the shared timeline (after --peers peers are found).")
    var force: Double?

    @Option(help: "The peers to wait for: --force waits for them, and the command fails when they never show up.")
    var peers: Int = 0

    func validate() throws {
        guard seconds.isFinite, seconds >= 0 else { throw ValidationError("--seconds must be 0 or more") }
        guard quantum.isFinite, quantum > 0 else { throw ValidationError("--quantum must be a positive number of beats") }
        // Link's own bounds for a tempo.
        guard tempo >= 20, tempo <= 999 else { throw ValidationError("--tempo must be 20...999 beats per minute") }
        if let force, !force.isFinite { throw ValidationError("--force must be a number of beats") }
        guard peers >= 0 else { throw ValidationError("--peers must be 0 or more") }
    }

    func run() async throws {
        let session: LinkSession
        do {
            session = try LinkSession(tempo: tempo)
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw ExitCode(1)
        }
        session.isStartStopSyncEnabled = true
        session.isEnabled = true
        defer { session.isEnabled = false }

        emit("# clock_us peers tempo beat phase playing (quantum \(format(quantum)))")
        let start = session.hostMicros()
        let end = start + Int64(seconds * 1_000_000)
        var pendingForce = force
        var mostPeers = 0
        var next = start
        while true {
            let now = session.hostMicros()
            let peerCount = session.peerCount
            mostPeers = max(mostPeers, peerCount)
            if let beat = pendingForce, peerCount >= peers {
                session.force(beat: beat, at: now, quantum: quantum)
                emit("# forced beat \(format(beat)) at \(now)")
                pendingForce = nil
            }
            let state = session.state(at: now, quantum: quantum)
            emit("\(now) \(peerCount) \(String(format: "%.2f", state.tempo)) \(String(format: "%.6f", state.beat)) "
                + "\(String(format: "%.6f", state.phase)) \(state.isPlaying ? "yes" : "no")")
            next += 500_000
            if next > end { break }
            let wait = next - session.hostMicros()
            if wait > 0 { try await Task.sleep(for: .microseconds(wait)) }
        }
        if mostPeers < peers {
            StandardStreams.writeError("error: found \(mostPeers) Link peer(s) in \(format(seconds)) s, expected \(peers)\n")
            StandardStreams.writeError("hint: the machines must share a network that passes UDP multicast to 224.76.78.75 port 20808\n")
            throw ExitCode(1)
        }
        if pendingForce != nil { throw ExitCode(1) }
    }

    /// One line, written at once (unbuffered) so a pipe (`| tee`) sees the session live.
    private func emit(_ line: String) {
        try? StandardStreams.writeOutput(line + "\n")
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
