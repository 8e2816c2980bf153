import ArgumentParser
import DioramaDocument
import Foundation

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a scenes file and report every problem with its line, column and JSON path.",
        discussion: """
            Checks the JSON syntax, unknown keys (with "did you mean ...?"), types, ranges, duplicate \
            ids, references from cues and ambience to nodes, animations and sounds, keyframe order, \
            the limits that protect the machine, and that every sound and image file exists and can be read.

            On success prints one line, `ok: N scenes, M cues, total D s`, and exits 0. Otherwise \
            prints each problem as `FILE:LINE:COLUMN: error: MESSAGE (at PATH)`, with a `hint:` line \
            where one helps, and exits 2. Warnings (a cue that can never fire, an unused sound) are \
            printed but do not fail the check.

            Example:
              $ diorama check scenes.json
              ok: 3 scenes, 14 cues, total 72 s
              $ diorama check broken.json
              broken.json:12:9: error: unknown key "widht" in a rect node (at scenes[0].nodes[1].widht)
                hint: did you mean "width"?
            """
    )

    @Argument(help: "The scenes file to check.")
    var file: String = "scenes.json"

    func run() async throws {
        let loaded: LoadedDocument
        do {
            loaded = try DocumentLoader.load(path: file)
        } catch {
            report(error.diagnostics)
            throw ExitCode(2)
        }
        let diagnostics = loaded.warnings + DocumentLoader.mediaFileDiagnostics(for: loaded)
        report(diagnostics)
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(2) }
        let document = loaded.document
        let cues = document.scenes.reduce(0) { $0 + $1.cues.count }
        // The fixed shape `ok: N scenes, M cues, total D s`, so scripts can read it.
        print("ok: \(document.scenes.count) scenes, \(cues) cues, total \(document.totalDuration.decimalDescription) s")
    }

    private func report(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        let text = diagnostics.map(\.description).joined(separator: "\n") + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
