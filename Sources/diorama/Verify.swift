import ArgumentParser
import DioramaDocument
import DioramaFiles
import DioramaVerify
import Foundation

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Prove the playlist's timing headless: every cue heard on its sample, and the file's own expectations.",
        discussion: """
            Mixes the playlist offline and checks, scene by scene, that every cue is heard from its \
            scheduled sample on (plus its sound's leading silence) and is its own sound, and that \
            nothing else starts to sound (a click where an ambience loops, a sound nobody scheduled). \
            Then checks the expectations file: property values, golden frames, cue counts, the text a \
            text node shows, the frame a Lottie node shows and the mix's level at a time (docs/VERIFY.md). Prints one line per check and a summary such as `12 passed, 0 failed`.

            The expectations are read from --expect, else from the file beside FILE named like it \
            with .verify.json (scenes.json -> scenes.verify.json) when there is one. A failing \
            golden frame writes NAME-actual.png and NAME-diff.png beside the golden (a missing golden, \
            NAME-actual.png; its folder is made when it does not exist).

            --tap NODE@SECONDS taps a tappable node as a click in the player would (as with `render` \
            and `export`), so what a tap starts is verified too: its cues heard on their samples, and the \
            expectations at times after it.

            Exit status: 0 when every check passes, 1 when one fails, 2 when FILE or the \
            expectations file does not load (located errors, as `diorama check` prints them) or a \
            --tap is refused.

            Examples:
              diorama verify
              diorama verify scenes.json --junit verify-report.xml
              diorama verify my-scenes.json --expect timing.verify.json
              diorama verify scenes.json --tap record-player/button@14
            """
    )

    @Argument(help: "The scenes file.")
    var file: String = "scenes.json"

    @Option(help: "The expectations file (default: FILE's name with .verify.json, when it exists).")
    var expect: String?

    @Option(help: "Also write a JUnit XML report (one testcase per check) to this file, for CI systems.")
    var junit: String?

    @Flag(help: "Check only the expectations file, not the cues' sound.")
    var skipAudio = false

    @Option(name: .customLong("tap"), help: ArgumentHelp(TapOption.help, valueName: "NODE@SECONDS"))
    var taps: [TapOption] = []

    func run() async throws {
        let original = try loadDocumentOrExit(file)
        let loaded: LoadedDocument
        do {
            loaded = LoadedDocument(document: try TapOption.apply(taps, to: original.document), path: original.path,
                                    baseDirectory: original.baseDirectory, warnings: original.warnings,
                                    mediaReferences: original.mediaReferences)
        } catch {
            StandardStreams.writeError(error.description + "\n")
            throw ExitCode(2)
        }
        let expectationsPath = expect ?? Expectations.defaultPath(besides: file)
        var expectations: Expectations?
        if let expectationsPath, expect != nil || FileManager.default.fileExists(atPath: expectationsPath) {
            do {
                expectations = try Expectations.load(path: expectationsPath, for: loaded.document)
            } catch {
                writeDiagnostics(error.diagnostics)
                throw ExitCode(2)
            }
        }
        let verifier = Verifier(loaded: loaded, expectations: expectations)
        let result = verifier.run(audio: !skipAudio) { check in print(check.line) }
        for warning in result.warnings { StandardStreams.writeError("warning: \(warning)\n") }
        let summary = VerificationSummary(result.checks)
        // No timing here: the same file gives the same output, for CI logs that are compared.
        print(summary.line)
        if let junit {
            do {
                try JUnitReport.xml(result.checks, suite: file, elapsedSeconds: result.elapsedSeconds)
                    .write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                StandardStreams.writeError("error: cannot write \(junit): \(error.localizedDescription)\n")
                throw ExitCode(1)
            }
        }
        if summary.failed > 0 { throw ExitCode(1) }
    }
}
