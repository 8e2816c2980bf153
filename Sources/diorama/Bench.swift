import ArgumentParser

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Not built yet."
    )

    func run() async throws {
        throw ValidationError("'bench' is not built yet.")
    }
}
