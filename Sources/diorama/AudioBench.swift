import ArgumentParser

struct AudioBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audio",
        abstract: "Not built yet."
    )

    func run() async throws {
        throw ValidationError("'bench audio' is not built yet.")
    }
}
