/// One problem found in a scenes file, located by line, column and JSON path.
///
/// Rendered as `FILE:LINE:COLUMN: error: MESSAGE (at PATH)` and, when there is a hint, a second
/// line `  hint: HINT`, the shape compilers use so editors can jump to it.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable, Equatable {
        /// The file cannot be played as written.
        case error
        /// The file plays, but probably not as meant (a cue that can never fire, an unused sound).
        case warning
    }

    public var file: String
    /// 1-based.
    public var line: Int
    /// 1-based, in Unicode scalars (characters as editors count them), not bytes.
    public var column: Int
    /// Where in the document: `scenes[0].nodes[2].animations[0].duration`; empty for the whole file.
    public var path: String
    public var message: String
    public var hint: String?
    public var severity: Severity
    /// Other places that explain the problem, each shown on a `  note:` line after the hint (a component's
    /// declaration for a problem where it is placed, the placement for a problem inside its node).
    public var notes: [String] = []

    public init(file: String, line: Int, column: Int, path: String, message: String, hint: String? = nil,
                severity: Severity = .error) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
        self.hint = hint
        self.severity = severity
    }

    /// The one- or two-line form shown to people.
    public var description: String {
        var text = "\(file):\(line):\(column): \(severity.rawValue): \(message)"
        if !path.isEmpty { text += " (at \(path))" }
        if let hint { text += "\n  hint: \(hint)" }
        for note in notes { text += "\n  note: \(note)" }
        return text
    }
}

/// Why a scenes file could not be loaded: every problem found, errors and warnings, in file order.
public struct DocumentLoadError: Error, Sendable, CustomStringConvertible {
    public let diagnostics: [Diagnostic]
    /// The sound and image files the document names, located, as far as it could be read: `diorama check`
    /// reports a missing file together with the other problems instead of after they are fixed.
    public let mediaReferences: [MediaReference]

    public init(diagnostics: [Diagnostic], mediaReferences: [MediaReference] = []) {
        self.diagnostics = diagnostics
        self.mediaReferences = mediaReferences
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
