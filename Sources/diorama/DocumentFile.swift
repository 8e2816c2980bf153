import ArgumentParser
import DioramaDocument
import DioramaFiles
import DioramaRender
import Foundation

/// Loads the scenes file at `path` for a command that cannot work without it. When it cannot be loaded,
/// prints every problem as `diorama check` does (`FILE:LINE:COLUMN: error: MESSAGE (at PATH)` with its hint)
/// on standard error and exits with code 2.
func loadDocumentOrExit(_ path: String) throws -> LoadedDocument {
    do {
        return try DocumentLoader.load(path: path, archives: DotLottieArchive.read)
    } catch {
        writeDiagnostics(error.diagnostics)
        throw ExitCode(2)
    }
}

/// Writes diagnostics to standard error, one per line (hints on their own indented lines).
func writeDiagnostics(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    StandardStreams.writeError(diagnostics.map(\.description).joined(separator: "\n") + "\n")
}
