import ArgumentParser

struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Not built yet."
    )

    func run() async throws {
        throw ValidationError("'render' is not built yet.")
    }
}
