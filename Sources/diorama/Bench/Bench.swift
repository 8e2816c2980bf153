import ArgumentParser

/// Benchmarks print figures; they never pass or fail. Build with `-c release` for meaningful numbers.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the cost of timeline evaluation, rendering, mixing, playing and exporting; prints figures.",
        discussion: """
            Example:
              swift run -c release diorama bench timeline scenes.json
            """,
        subcommands: [TimelineBench.self, RenderBench.self, AudioBench.self, PlayerBench.self, ExportBench.self,
                      PeerBench.self, AllocationBench.self]
    )
}
