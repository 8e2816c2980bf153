import ArgumentParser

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Not built yet."
    )

    func run() async throws {
        throw ValidationError("'check' is not built yet.")
    }
}
