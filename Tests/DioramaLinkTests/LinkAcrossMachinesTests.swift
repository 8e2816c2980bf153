import DioramaTestSupport
import Foundation
import Testing

/// `diorama link` on stand-in machines: network namespaces joined by veth pairs (scripts/netns.sh), so only the
/// test's own players are in the session. Needs root and iproute2; skipped otherwise.
@Suite(.enabled(if: NetworkNamespaces.available,
                "network namespaces cannot be made here: \(NetworkNamespaces.unavailableReason ?? "")"))
struct LinkAcrossMachinesTests {
    /// One `diorama link` row: `clock_us peers tempo beat phase playing`.
    struct Row {
        var time: Int64
        var peers: Int
        var tempo: Double
        var beat: Double
        var phase: Double
        var isPlaying: Bool
    }

    static func rows(_ output: String) -> [Row] {
        output.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 6, let time = Int64(fields[0]), let peers = Int(fields[1]),
                  let tempo = Double(fields[2]), let beat = Double(fields[3]), let phase = Double(fields[4])
            else { return nil }
            return Row(time: time, peers: peers, tempo: tempo, beat: beat, phase: phase, isPlaying: fields[5] == "yes")
        }
    }

    /// The Link clock time of `# forced beat B at TIME`.
    static func forceTime(_ output: String) -> Int64? {
        output.split(separator: "\n").first { $0.hasPrefix("# forced beat") }
            .flatMap { $0.split(separator: " ").last }.flatMap { Int64($0) }
    }

    /// Every machine waits for all the others; the last forces beat 30.25 on the shared timeline once they are there.
    /// The others must then read that phase, advancing one beat a second (60 bpm), within 3 ms: their rows are
    /// compared with the forced timeline at their own clock times, which is one clock for all (one host).
    @Test(arguments: [2, 3])
    func machinesFindEachOtherAndShareAForcedPhase(count: Int) throws {
        let quantum = 90.0, forcedBeat = 30.25
        try NetworkNamespaces.with(count: count) { namespaces in
            let diorama = DioramaCommand.executable.path
            let link = [diorama, "link", "--seconds", "4", "--quantum", "90", "--peers", String(count - 1)]
            let listeners = try (0..<count - 1).map { try namespaces.start(link, in: $0) }
            let forcing = try namespaces.start(link + ["--force", String(forcedBeat)], in: count - 1)
            let results = listeners.map { $0.finish() }
            let forced = forcing.finish()

            #expect(forced.status == 0, "\(forced.standardError)")
            let forceTime = try #require(Self.forceTime(forced.standardOutput), "no force in:\n\(forced.standardOutput)")
            for (index, result) in results.enumerated() {
                #expect(result.status == 0, "machine \(index + 1): \(result.standardError)")
                let rows = Self.rows(result.standardOutput)
                #expect(rows.contains { $0.peers == count - 1 }, "machine \(index + 1):\n\(result.standardOutput)")
                #expect(rows.allSatisfy { $0.tempo == 60 })
                // Half a second for the forced timeline to cross the network.
                let after = rows.filter { $0.time >= forceTime + 500_000 }
                #expect(after.count >= 2, "machine \(index + 1):\n\(result.standardOutput)")
                for row in after {
                    let expected = (forcedBeat + Double(row.time - forceTime) / 1_000_000)
                        .truncatingRemainder(dividingBy: quantum)
                    #expect(abs(row.phase - expected) < 0.003,
                            "machine \(index + 1) at \(row.time): phase \(row.phase), the forced timeline's \(expected)")
                }
            }
        }
    }

    /// Alone on its machine, `--peers 1` fails with a hint about multicast.
    @Test func aMachineAloneFailsWhenPeersAreExpected() throws {
        try NetworkNamespaces.with(count: 2) { namespaces in
            let result = try namespaces.start([DioramaCommand.executable.path, "link", "--seconds", "1", "--peers", "1"],
                                              in: 0).finish()
            #expect(result.status == 1)
            #expect(result.standardError.contains("error: found 0 Link peer(s) in 1 s, expected 1"))
            #expect(result.standardError.contains("hint:"))
            let rows = Self.rows(result.standardOutput)
            #expect(rows.count == 3)
            #expect(rows.allSatisfy { $0.peers == 0 })
        }
    }
}
