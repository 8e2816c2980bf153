import ArgumentParser

struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Not built yet."
    )

    func run() async throws {
        throw ValidationError("'play' is not built yet.")
    }
}
