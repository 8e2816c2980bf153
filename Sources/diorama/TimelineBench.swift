import ArgumentParser

struct TimelineBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Not built yet."
    )

    func run() async throws {
        throw ValidationError("'bench timeline' is not built yet.")
    }
}
