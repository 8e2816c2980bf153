import ArgumentParser

struct SynthesizeMedia: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synthesize-media",
        abstract: "Not built yet."
    )

    func run() async throws {
        throw ValidationError("'synthesize-media' is not built yet.")
    }
}
