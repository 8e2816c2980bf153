import DioramaDocument
import DioramaRender

/// Loads scenes files for the player with the document module's loader.
public enum PlaylistFiles {
    /// The file at `path`, with every sound and image it names to watch. A file that does not load gives
    /// its errors as `diorama check` prints them (`FILE:LINE:COLUMN: error: ...`, hints on their own line).
    public static func load(path: String) -> Result<LoadedPlaylist, PlaylistLoadFailure> {
        let loaded: LoadedDocument
        do {
            loaded = try DocumentLoader.load(path: path, archives: DotLottieArchive.read)
        } catch {
            let errors = error.diagnostics.filter { $0.severity == .error }
            let shown = errors.isEmpty ? error.diagnostics : errors
            return .failure(PlaylistLoadFailure(lines: shown.flatMap { $0.description.split(separator: "\n").map(String.init) }))
        }
        var watched = [path]
        for reference in loaded.mediaReferences where !watched.contains(reference.resolvedPath) {
            watched.append(reference.resolvedPath)
        }
        let problems = loaded.warnings + DocumentLoader.mediaFileDiagnostics(for: loaded)
        return .success(LoadedPlaylist(document: loaded.document, baseDirectory: loaded.baseDirectory, watchedPaths: watched,
                                       warnings: problems.map(\.description)))
    }
}
