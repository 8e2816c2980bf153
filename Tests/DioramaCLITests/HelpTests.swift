import DioramaTestSupport
import Testing

@Suite struct HelpTests {
    static let subcommands = ["play", "check", "timeline", "render", "export", "synthesize-media", "verify", "bench", "link"]

    @Test func topLevelHelpListsEverySubcommandWithADescription() throws {
        let result = try DioramaCommand.run(["--help"])
        #expect(result.status == 0)
        for name in Self.subcommands {
            let line = result.standardOutput.split(separator: "\n").first { $0.trimmingPrefix(while: \.isWhitespace).hasPrefix(name + " ") }
            #expect(line != nil, "no line for \(name) in:\n\(result.standardOutput)")
            #expect(line.map { !$0.contains("Not built yet") } ?? false, "\(name) has no description")
        }
    }

    @Test(arguments: subcommands)
    func eachSubcommandHelpHasAnExample(name: String) throws {
        let result = try DioramaCommand.run([name, "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("diorama \(name)"), "no example in:\n\(result.standardOutput)")
    }
}
