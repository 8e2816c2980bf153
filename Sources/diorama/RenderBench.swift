import ArgumentParser

struct RenderBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Not built yet."
    )

    func run() async throws {
        throw ValidationError("'bench render' is not built yet.")
    }
}
