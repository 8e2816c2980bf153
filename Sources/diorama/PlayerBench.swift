import ArgumentParser

struct PlayerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player",
        abstract: "Not built yet."
    )

    func run() async throws {
        throw ValidationError("'bench player' is not built yet.")
    }
}
