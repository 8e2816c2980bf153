import DioramaFiles
import Foundation

/// A decoded scenes file and where it came from.
public struct LoadedDocument: Sendable {
    public let document: Document
    /// The path the file was loaded from, as given (used in messages).
    public let path: String
    /// The absolute folder that sound and image paths resolve against: the scenes file's folder.
    public let baseDirectory: String
    /// Problems that do not stop the file from playing (a cue that can never fire, an unused sound).
    public let warnings: [Diagnostic]
    /// Every sound and image file the document names, with where it is named, for checks such as
    /// "does it exist" and "can it be decoded".
    public let mediaReferences: [MediaReference]

    public init(document: Document, path: String, baseDirectory: String, warnings: [Diagnostic] = [],
                mediaReferences: [MediaReference] = []) {
        self.document = document
        self.path = path
        self.baseDirectory = baseDirectory
        self.warnings = warnings
        self.mediaReferences = mediaReferences
    }

    /// A path from the document made absolute against `baseDirectory` (absolute paths are kept).
    public func resolve(_ relativePath: String) -> String {
        DocumentLoader.resolve(relativePath, against: baseDirectory)
    }
}

/// A sound or image file named in the document, and where.
public struct MediaReference: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A sound of the bank, by its name.
        case sound(name: String)
        case image
        /// An SVG element an image node draws, located at its `"element"` value (the file itself is the `.image` reference).
        case imageElement(id: String)
        /// A PNG an image node cuts into a grid, located at its `"sprite"` value.
        case spriteSheet(columns: Int, rows: Int)
    }

    public var kind: Kind
    /// As written in the file.
    public var path: String
    /// Absolute.
    public var resolvedPath: String
    public var file: String
    public var line: Int
    public var column: Int
    /// JSON path of the `"path"` value.
    public var jsonPath: String

    public init(kind: Kind, path: String, resolvedPath: String, file: String, line: Int, column: Int, jsonPath: String) {
        self.kind = kind
        self.path = path
        self.resolvedPath = resolvedPath
        self.file = file
        self.line = line
        self.column = column
        self.jsonPath = jsonPath
    }

    /// A diagnostic located at the reference, e.g. for a file that cannot be decoded.
    public func diagnostic(_ message: String, hint: String? = nil, severity: Diagnostic.Severity = .error) -> Diagnostic {
        Diagnostic(file: file, line: line, column: column, path: jsonPath, message: message, hint: hint, severity: severity)
    }
}

/// Limits that protect the machine from a damaged or hostile file. Each one is checked with a clear message.
public enum DocumentLimits {
    /// Bytes.
    public static let maximumFileSize = 16 * 1024 * 1024
    /// Points, each side of the canvas.
    public static let maximumCanvasSide: Double = 8192
    /// Levels of groups: a top-level node is at depth 1.
    public static let maximumNodeDepth = 32
    /// Nodes in the whole document.
    public static let maximumNodeCount = 10_000
    /// birthRate × (lifetime + lifetimeRange), per emitter.
    public static let maximumLiveParticles: Double = 5_000
    /// Particles alive at once in a scene, its emitters together (`Emitter.mostAlive` summed). With
    /// `maximumParticleCover`, the most a scene's particles cost a 1280x720 frame: about 13 ms (release build).
    public static let maximumLiveParticlesPerScene: Double = 5_000
    /// Times the particles alive at once in a scene can cover its canvas: each particle's square
    /// (`Emitter.largestParticleArea`, at most the canvas) summed over them, over the canvas's area. Blending one
    /// canvas of particle pixels at 1280x720 costs 5-9 ms of a 16.7 ms frame (`diorama bench render`, release build).
    public static let maximumParticleCover: Double = 1
    /// Keyframes in one track.
    public static let maximumKeyframes = 10_000
    public static let maximumRepeatCount = 1_000_000
    /// Firings of a scene's cues and stop cues (`Scene.firingBounds`): one a second for a day-long scene fits.
    public static let maximumFiringsPerScene = 100_000
    /// Firings of a scene's cues and stop cues in any one second: a 1 ms drum roll is the most a scene may hold.
    public static let maximumFiringsPerSecond = 1_000
    /// Seconds, per scene; also the largest delay, duration and cue time.
    public static let maximumSceneDuration = Rational(86_400)
    /// Decimal places of a timing literal: microseconds.
    public static let maximumTimingDecimalPlaces = 6
    /// Levels of JSON arrays and objects.
    public static let maximumJSONDepth = JSONParser.maximumDepth
    /// Points, the magnitude of any coordinate, offset or length.
    public static let maximumCoordinate: Double = 1_000_000
    /// Characters (Unicode code points) of one text: a text node's or text keyframe's text and a scene's title, in
    /// each language. pango lays a text out in 32-bit units of 1/1024 point, about two million points: a line of
    /// 10000 characters at the largest font size may still exceed them, which the renderer survives, but a longer
    /// text only costs time to lay out and could never be read.
    public static let maximumTextLength = 10_000
}

/// Reads and validates scenes files.
public enum DocumentLoader {
    /// Reads and decodes the file at `path`; a missing or unreadable file is a diagnostic at 1:1.
    /// `archives` unpacks the dotLottie archives lottie nodes name (`DotLottieArchive.read` in DioramaRender);
    /// without it they are refused.
    ///
    /// Example: `let loaded = try DocumentLoader.load(path: "scenes.json", archives: DotLottieArchive.read)`
    public static func load(path: String, archives: ArchiveReader? = nil) throws(DocumentLoadError) -> LoadedDocument {
        let bytes = try read(path: path)
        return try decode(bytes: bytes, path: path, archives: archives)
    }

    /// Decodes a scenes file already in memory. `path` names it in messages and sets the base directory.
    public static func decode(bytes: [UInt8], path: String, archives: ArchiveReader? = nil) throws(DocumentLoadError) -> LoadedDocument {
        let baseDirectory = absoluteDirectory(of: path)
        guard bytes.count <= DocumentLimits.maximumFileSize else {
            throw DocumentLoadError(diagnostics: [tooLarge(path: path, size: bytes.count)])
        }
        let (value, parseProblems) = JSONParser.parse(bytes)
        var problems = parseProblems
        var document: Document?
        var media: [(reference: MediaReference, offset: Int)] = []
        if let value {
            let decoder = DocumentDecoder(bytes: bytes, file: path, baseDirectory: baseDirectory, archives: archives)
            document = decoder.decodeDocument(value)
            decoder.finish()
            problems += decoder.problems
            media = decoder.mediaReferences
        }
        let locations = SourceLines.locations(of: problems.map(\.offset) + media.map(\.offset), in: bytes)
        var diagnostics = problems.enumerated().sorted { lhs, rhs in
            // File order, then the order found (a parent's problem before its children's at the same place).
            lhs.element.offset != rhs.element.offset ? lhs.element.offset < rhs.element.offset : lhs.offset < rhs.offset
        }.map { _, problem in
            let location = locations[problem.offset] ?? SourceLines.Location(line: 1, column: 1)
            var diagnostic = Diagnostic(file: path, line: location.line, column: location.column, path: JSONPath.abbreviated(problem.path),
                                        message: problem.message, hint: problem.hint, severity: problem.severity)
            diagnostic.notes = problem.notes
            return diagnostic
        }
        let references = media.map { reference, offset in
            var located = reference
            let location = locations[offset] ?? SourceLines.Location(line: 1, column: 1)
            located.line = location.line
            located.column = location.column
            return located
        }
        if let document, !diagnostics.contains(where: { $0.severity == .error }) {
            return LoadedDocument(document: document, path: path, baseDirectory: baseDirectory,
                                  warnings: diagnostics, mediaReferences: references)
        }
        if diagnostics.isEmpty {
            diagnostics = [Diagnostic(file: path, line: 1, column: 1, path: "", message: "the file could not be decoded")]
        }
        // The media named so far go with the errors, so a check can report a missing file in the same run.
        throw DocumentLoadError(diagnostics: diagnostics, mediaReferences: references)
    }

    /// Problems with the media files a loaded document names: missing, not a regular file, or unreadable.
    /// Decoding them is left to the audio and image code, which can add their own reasons.
    public static func mediaFileDiagnostics(for loaded: LoadedDocument) -> [Diagnostic] {
        mediaFileDiagnostics(for: loaded.mediaReferences)
    }

    /// The same for media references alone, such as those of a document that failed to load.
    public static func mediaFileDiagnostics(for references: [MediaReference]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var reported = Set<String>()
        for reference in references where !reported.contains(reference.resolvedPath + "\(reference.line):\(reference.column)") {
            reported.insert(reference.resolvedPath + "\(reference.line):\(reference.column)")
            let what: String
            switch reference.kind {
            case .sound(let name): what = "sound \"\(name)\""
            case .image: what = "image"
            case .imageElement, .spriteSheet: continue  // the file is checked through its `.image` reference
            }
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: reference.resolvedPath, isDirectory: &isDirectory) {
                diagnostics.append(reference.diagnostic("the \(what) file \"\(reference.path)\" does not exist",
                                                        hint: Suggestion.missingFileHint(written: reference.path, resolved: reference.resolvedPath)))
            } else if isDirectory.boolValue {
                diagnostics.append(reference.diagnostic("the \(what) file \"\(reference.path)\" is a folder, not a file"))
            } else if let problem = RegularFile.problem(reference.resolvedPath), problem.kind == .notRegular {
                diagnostics.append(reference.diagnostic("the \(what) file \"\(reference.path)\" \(problem.reason)", hint: problem.hint))
            } else if !FileManager.default.isReadableFile(atPath: reference.resolvedPath) {
                diagnostics.append(reference.diagnostic("the \(what) file \"\(reference.path)\" cannot be read",
                                                        hint: "check its permissions"))
            }
        }
        return diagnostics
    }

    // MARK: - Files

    private static func read(path: String) throws(DocumentLoadError) -> [UInt8] {
        func failure(_ message: String, _ hint: String? = nil) -> DocumentLoadError {
            DocumentLoadError(diagnostics: [Diagnostic(file: path, line: 1, column: 1, path: "", message: message, hint: hint)])
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw failure("cannot read the scenes file: it does not exist",
                          "pass the path of a scenes file, or run from the folder that holds scenes.json")
        }
        guard !isDirectory.boolValue else {
            throw failure("cannot read the scenes file: it is a folder", "pass the path of the scenes.json inside it")
        }
        // Read one byte past the limit, so an oversized file is refused without reading it all. Only a regular file is
        // opened: a named pipe would block the open (and a player reloading it) forever, a device might never end.
        let data: [UInt8]
        switch RegularFile.read(path, upTo: DocumentLimits.maximumFileSize) {
        case .success(let bytes): data = bytes
        case .failure(let problem):
            switch problem.kind {
            case .unreadable where problem.code == EACCES || problem.code == EPERM:
                throw failure("cannot read the scenes file: permission denied", "check the file's permissions")
            case .notRegular:
                throw failure("cannot read the scenes file: it \(problem.reason)", problem.hint)
            default:
                throw failure("cannot read the scenes file: it \(problem.reason)")
            }
        }
        if data.count > DocumentLimits.maximumFileSize {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? data.count
            throw DocumentLoadError(diagnostics: [tooLarge(path: path, size: max(size, data.count))])
        }
        return data
    }

    private static func tooLarge(path: String, size: Int) -> Diagnostic {
        let mebibytes = Double(size) / 1_048_576
        let shown = (mebibytes * 10).rounded(.down) / 10
        return Diagnostic(file: path, line: 1, column: 1, path: "",
                          message: "the file is \(size > DocumentLimits.maximumFileSize && shown <= 16 ? "over 16" : "\(shown)") MiB; the limit is 16 MiB",
                          hint: "scenes files are small; is this the right file?")
    }

    static func absoluteDirectory(of path: String) -> String {
        // A document decoded from memory without a name resolves against the current folder.
        if path.isEmpty || path.hasSuffix("/") {
            return URL(fileURLWithPath: path.isEmpty ? FileManager.default.currentDirectoryPath : path).standardizedFileURL.path
        }
        return URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
    }

    static func resolve(_ path: String, against base: String) -> String {
        if path.hasPrefix("/") { return path }
        return URL(fileURLWithPath: base).appendingPathComponent(path).standardizedFileURL.path
    }
}
