import DioramaDocument
import DioramaFiles
import DioramaTimeline
import Foundation

/// What a user expects of their scenes, from a small JSON file beside them (`scenes.verify.json` beside
/// `scenes.json`; docs/VERIFY.md):
///
/// ```json
/// { "lateness": 0.01,
///   "expect": [
///     { "scene": "ocean", "at": 1.2, "node": "buoy-tilt", "property": "rotation", "value": 8 },
///     { "scene": "ocean", "at": 1.2, "frame": "verify/ocean-1.2.png" },
///     { "scene": "ocean", "cue": 0, "fires": 6 },
///     { "scene": "ocean", "at": 2, "node": "caption", "text": "Buoy" },
///     { "scene": "bounce", "at": 2, "node": "ball", "lottieFrame": 30 },
///     { "scene": "ocean", "at": 1.2, "level": -18, "measure": "peak", "window": 0.05, "tolerance": 1.5 }
/// ] }
/// ```
public struct Expectations: Sendable {
    public enum Kind: Sendable, Equatable {
        /// The node's property at the time is `value` within `tolerance`.
        case value(node: String, property: AnimatableProperty, value: Double, tolerance: Double)
        /// The frame at the time matches the PNG at `golden` (an absolute path): every channel of every pixel
        /// within `tolerance` of 255, and at most `differing` percent of pixels off by more than 2.
        case frame(golden: String, language: String?, tolerance: Int, differing: Double)
        /// The scene's cue at index `cue` fires `fires` times in a visit of the scene.
        case count(cue: Int, fires: Int)
        /// The text node shows exactly `text` at the time (the characters a typewriter has revealed, a counter's
        /// number written in), in `language` (nil: the file's default).
        case text(node: String, text: String, language: String?)
        /// The Lottie node shows the file's frame `frame` at the time.
        case lottieFrame(node: String, frame: Int)
        /// The offline mix's level over `window` seconds from the time, both channels together, is `decibels` dBFS
        /// within `tolerance` dB; a window quieter than `Expectations.silence` measures that.
        case level(decibels: Double, measure: LevelMeasure, window: Rational, tolerance: Double)
    }

    /// How a window of the mix is measured.
    public enum LevelMeasure: String, Sendable, Equatable, CaseIterable {
        /// The root mean square of the samples: how loud it sounds, on average.
        case rms
        /// The largest sample's magnitude.
        case peak
    }

    public struct Item: Sendable, Equatable {
        public var scene: Int
        public var sceneID: String
        /// Scene seconds (nil for a count).
        public var at: Rational?
        public var kind: Kind
        /// As written, for the check's name: `cue "bell"`, `cue 0`.
        public var cueLabel: String?
        /// Where the expectation is written, `FILE:LINE:COLUMN`.
        public var location: String
    }

    public var items: [Item]
    public var path: String
    /// How much later than its moment a cue may be heard, in seconds (`"lateness"`; 10 ms unless given).
    public var lateness: Double = AudioVerification.defaultLateness

    /// Keys of each kind of expectation, and of the file.
    static let fileKeys = ["expect", "lateness"]
    static let valueKeys = ["scene", "at", "node", "property", "value", "tolerance"]
    static let frameKeys = ["scene", "at", "frame", "language", "tolerance", "differing"]
    static let countKeys = ["scene", "cue", "fires"]
    static let textKeys = ["scene", "at", "node", "text", "language"]
    static let lottieFrameKeys = ["scene", "at", "node", "lottieFrame"]
    static let levelKeys = ["scene", "at", "level", "measure", "window", "tolerance"]
    /// Default tolerances.
    public static let valueTolerance = 0.001
    public static let frameTolerance = 8
    public static let frameDiffering = 0.5
    /// dB, for a level.
    public static let levelTolerance = 1.0
    /// Seconds of the mix a level measures.
    public static let levelWindow = Rational(1, 20)
    /// dBFS a level is counted as when the window is quieter (-120 dBFS: digital silence, or nearly).
    public static let silence = -120.0

    /// `scenes.verify.json` for `scenes.json` (the `.json` replaced; appended for other names).
    public static func defaultPath(besides file: String) -> String? {
        file.hasSuffix(".json") ? String(file.dropLast(5)) + ".verify.json" : file + ".verify.json"
    }

    public static func load(path: String, for document: Document) throws(DocumentLoadError) -> Expectations {
        let data: [UInt8]
        switch RegularFile.read(path, upTo: DocumentLimits.maximumFileSize) {
        case .success(let bytes): data = bytes
        case .failure(let problem) where problem.kind == .notRegular:
            throw DocumentLoadError(diagnostics: [Diagnostic(file: path, line: 1, column: 1, path: "",
                message: "the expectations file \(problem.reason)", hint: problem.hint)])
        case .failure:
            let exists = FileManager.default.fileExists(atPath: path)
            throw DocumentLoadError(diagnostics: [Diagnostic(file: path, line: 1, column: 1, path: "",
                message: exists ? "the expectations file cannot be read" : "the expectations file does not exist",
                hint: exists ? "check its permissions" : "write one (docs/VERIFY.md), or leave out --expect")])
        }
        return try decode(bytes: data, path: path, for: document)
    }

    /// Decodes expectations for `document`; every problem is a located diagnostic (all of them, in file order).
    public static func decode(bytes: [UInt8], path: String, for document: Document) throws(DocumentLoadError) -> Expectations {
        let root: LocatedJSON
        switch LocatedJSON.parse(bytes: bytes, file: path) {
        case .success(let value): root = value
        case .failure(let error): throw error
        }
        var reader = ExpectationsReader(file: path, document: document,
                                        directory: URL(fileURLWithPath: path).deletingLastPathComponent())
        let items = reader.read(root)
        let lateness = reader.lateness(root)
        if !reader.diagnostics.isEmpty {
            // In file order, as `diorama check` prints a scenes file's problems.
            throw DocumentLoadError(diagnostics: reader.diagnostics.enumerated().sorted {
                ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
            }.map(\.element))
        }
        return Expectations(items: items, path: path, lateness: lateness ?? AudioVerification.defaultLateness)
    }
}

/// Reads the located JSON tree into expectations, collecting every problem.
struct ExpectationsReader {
    let file: String
    let document: Document
    let directory: URL
    var diagnostics: [Diagnostic] = []

    init(file: String, document: Document, directory: URL) {
        self.file = file
        self.document = document
        self.directory = directory
    }

    mutating func error(_ value: LocatedJSON, _ message: String, hint: String? = nil) {
        error(line: value.line, column: value.column, path: value.path, message, hint: hint)
    }

    mutating func error(line: Int, column: Int, path: String, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(file: file, line: line, column: column, path: path, message: message, hint: hint))
    }

    mutating func read(_ root: LocatedJSON) -> [Expectations.Item] {
        guard case .object(let members) = root.kind else {
            error(root, "the expectations file must be an object, not \(root.typeDescription)",
                  hint: "write { \"expect\": [ ... ] }")
            return []
        }
        checkKeys(members, of: root, allowed: Expectations.fileKeys, what: "the expectations file")
        guard let list = root["expect"] else {
            error(root, "the expectations file has no \"expect\" list", hint: "write { \"expect\": [ ... ] }")
            return []
        }
        guard case .array(let entries) = list.kind else {
            error(list, "\"expect\" must be an array of expectations, not \(list.typeDescription)")
            return []
        }
        return entries.compactMap { item($0) }
    }

    /// The file's `"lateness"` in seconds, if given.
    mutating func lateness(_ root: LocatedJSON) -> Double? {
        guard case .object = root.kind, root["lateness"] != nil else { return nil }
        return number(root, "lateness", required: false, minimum: 0)
    }

    private mutating func checkKeys(_ members: [LocatedJSON.Member], of value: LocatedJSON, allowed: [String], what: String) {
        for member in members where !allowed.contains(member.key) {
            error(line: member.keyLine, column: member.keyColumn, path: member.value.path, "unknown key \"\(member.key)\" in \(what)",
                  hint: Suggestion.hint(for: member.key, among: allowed, listing: "its keys are"))
        }
    }

    private mutating func item(_ entry: LocatedJSON) -> Expectations.Item? {
        guard case .object(let members) = entry.kind else {
            error(entry, "an expectation must be an object, not \(entry.typeDescription)")
            return nil
        }
        let kinds = ["property", "frame", "fires", "text", "lottieFrame", "level"].filter { entry[$0] != nil }
        guard let kind = kinds.first else {
            error(entry, "an expectation needs \"property\" (a value), \"frame\" (a golden PNG), \"fires\" (a cue count), "
                      + "\"text\" (a text's string), \"lottieFrame\" (a Lottie's frame) or \"level\" (the sound's level)",
                  hint: "e.g. { \"scene\": \"ocean\", \"at\": 1.2, \"node\": \"buoy\", \"property\": \"rotation\", \"value\": 8 }")
            return nil
        }
        if kinds.count > 1, let second = entry[kinds[1]] {
            error(second, "an expectation checks one thing: \"\(kinds[0])\" and \"\(kinds[1])\" cannot be combined",
                  hint: "write two expectations")
            return nil
        }
        let (keys, what): ([String], String) = switch kind {
        case "property": (Expectations.valueKeys, "a value expectation")
        case "frame": (Expectations.frameKeys, "a frame expectation")
        case "text": (Expectations.textKeys, "a text expectation")
        case "lottieFrame": (Expectations.lottieFrameKeys, "a Lottie frame expectation")
        case "level": (Expectations.levelKeys, "a level expectation")
        default: (Expectations.countKeys, "a cue count expectation")
        }
        checkKeys(members, of: entry, allowed: keys, what: what)
        guard let (sceneIndex, scene) = scene(entry) else { return nil }
        let location = "\(file):\(entry.line):\(entry.column)"
        switch kind {
        case "property":
            let at = time(entry, scene: scene)
            let node = nodeID(entry, scene: scene)
            let property = property(entry)
            let value = number(entry, "value", required: true)
            let tolerance = number(entry, "tolerance", required: false, minimum: 0) ?? Expectations.valueTolerance
            guard let at, let node, let property, let value else { return nil }
            return Expectations.Item(scene: sceneIndex, sceneID: scene.id, at: at,
                                     kind: .value(node: node, property: property, value: value, tolerance: tolerance),
                                     location: location)
        case "frame":
            let at = time(entry, scene: scene)
            let golden = goldenPath(entry)
            let language = language(entry)
            let tolerance = number(entry, "tolerance", required: false, minimum: 0, maximum: 255, integer: true)
            let differing = number(entry, "differing", required: false, minimum: 0, maximum: 100)
            guard let at, let golden, language != .some(nil) else { return nil }
            return Expectations.Item(scene: sceneIndex, sceneID: scene.id, at: at,
                                     kind: .frame(golden: golden, language: language ?? nil,
                                                  tolerance: Int(tolerance ?? Double(Expectations.frameTolerance)),
                                                  differing: differing ?? Expectations.frameDiffering),
                                     location: location)
        case "text":
            let at = time(entry, scene: scene)
            let node = nodeID(entry, scene: scene, content: "text")
            let text = string(entry, "text")
            let language = language(entry)
            guard let at, let node, let (text, _) = text, language != .some(nil) else { return nil }
            return Expectations.Item(scene: sceneIndex, sceneID: scene.id, at: at,
                                     kind: .text(node: node, text: text, language: language ?? nil), location: location)
        case "lottieFrame":
            let at = time(entry, scene: scene)
            let node = nodeID(entry, scene: scene, content: "lottie")
            let frame = number(entry, "lottieFrame", required: true, minimum: -100_000_000, maximum: 100_000_000, integer: true)
            guard let at, let node, let frame else { return nil }
            if case .lottie(let lottie)? = scene.node(withID: node)?.content, let value = entry["lottieFrame"],
               !(lottie.animation.inPoint..<lottie.animation.outPoint).contains(Int(frame)) {
                error(value, "frame \(Int(frame)) is not in the Lottie file \"\(lottie.path)\", whose frames are "
                          + "\(lottie.animation.inPoint) to \(lottie.animation.outPoint - 1)",
                      hint: "frames are the file's own numbers, from its \"ip\" up to, not including, its \"op\"")
                return nil
            }
            return Expectations.Item(scene: sceneIndex, sceneID: scene.id, at: at, kind: .lottieFrame(node: node, frame: Int(frame)),
                                     location: location)
        case "level":
            let at = time(entry, scene: scene)
            let level = number(entry, "level", required: true, minimum: Expectations.silence, maximum: 0)
            let measure = levelMeasure(entry)
            let window = seconds(entry, "window", minimum: Rational(1, 1000), maximum: Rational(10))
            let tolerance = number(entry, "tolerance", required: false, minimum: 0) ?? Expectations.levelTolerance
            guard let at, let level, let measure, let window else { return nil }
            let length = window ?? Expectations.levelWindow
            if at + length > scene.duration {
                let value = entry["window"] ?? entry["at"]!
                error(value, "the window of \(length.decimalDescription) s from \(at.decimalDescription) s runs past the end of the scene "
                          + "\"\(scene.id)\" (\(scene.duration.decimalDescription) s)",
                      hint: "measure from \((scene.duration - length).decimalDescription) s at the latest, or shorten \"window\"")
                return nil
            }
            return Expectations.Item(scene: sceneIndex, sceneID: scene.id, at: at,
                                     kind: .level(decibels: level, measure: measure, window: length, tolerance: tolerance),
                                     location: location)
        default:
            let cue = cue(entry, scene: scene)
            let fires = number(entry, "fires", required: true, minimum: 0, integer: true)
            guard let cue, let fires else { return nil }
            return Expectations.Item(scene: sceneIndex, sceneID: scene.id, at: nil, kind: .count(cue: cue.index, fires: Int(fires)),
                                     cueLabel: cue.label, location: location)
        }
    }

    private mutating func scene(_ entry: LocatedJSON) -> (Int, Scene)? {
        guard let value = entry["scene"] else {
            error(entry, "an expectation needs \"scene\": the id of the scene it is about",
                  hint: "the scenes are " + document.scenes.map { "\"\($0.id)\"" }.joined(separator: ", "))
            return nil
        }
        guard case .string(let id) = value.kind else {
            error(value, "\"scene\" must be a scene's id (a string), not \(value.typeDescription)")
            return nil
        }
        guard let index = document.scenes.firstIndex(where: { $0.id == id }) else {
            let ids = document.scenes.map(\.id)
            error(value, "no scene \"\(id)\" in the scenes file",
                  hint: Suggestion.hint(for: id, among: ids, listing: "the scenes are"))
            return nil
        }
        return (index, document.scenes[index])
    }

    private mutating func time(_ entry: LocatedJSON, scene: Scene) -> Rational? {
        guard let value = entry["at"] else {
            error(entry, "this expectation needs \"at\": the scene time in seconds", hint: "e.g. \"at\": 1.5")
            return nil
        }
        guard case .number(let literal) = value.kind, let time = Rational(decimalLiteral: literal) else {
            error(value, "\"at\" must be a number of seconds, not \(value.typeDescription)")
            return nil
        }
        guard time >= .zero, time < scene.duration else {
            error(value, "\"at\" \(literal) is outside the scene \"\(scene.id)\", which lasts \(scene.duration.decimalDescription) s",
                  hint: "give a scene time from 0 up to (not including) \(scene.duration.decimalDescription)")
            return nil
        }
        return time
    }

    private mutating func number(_ entry: LocatedJSON, _ key: String, required: Bool, minimum: Double? = nil,
                                 maximum: Double? = nil, integer: Bool = false) -> Double? {
        guard let value = entry[key] else {
            if required { error(entry, "this expectation needs \"\(key)\"") }
            return nil
        }
        guard case .number(let literal) = value.kind, let number = Double(literal), number.isFinite else {
            error(value, "\"\(key)\" must be a number, not \(value.typeDescription)")
            return nil
        }
        if integer, number != number.rounded() {
            error(value, "\"\(key)\" must be a whole number, not \(literal)")
            return nil
        }
        if let minimum, number < minimum {
            error(value, "\"\(key)\" must be at least \(Self.text(minimum)), not \(literal)")
            return nil
        }
        if let maximum, number > maximum {
            error(value, "\"\(key)\" must be at most \(Self.text(maximum)), not \(literal)")
            return nil
        }
        return number
    }

    private static func text(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }

    private mutating func string(_ entry: LocatedJSON, _ key: String) -> (String, LocatedJSON)? {
        guard let value = entry[key] else {
            error(entry, "this expectation needs \"\(key)\"")
            return nil
        }
        guard case .string(let text) = value.kind else {
            error(value, "\"\(key)\" must be a string, not \(value.typeDescription)")
            return nil
        }
        return (text, value)
    }

    /// `content`: the node's type when the expectation reads one kind of node (`"text"`, `"lottie"`).
    private mutating func nodeID(_ entry: LocatedJSON, scene: Scene, content: String? = nil) -> String? {
        guard let (id, value) = string(entry, "node") else { return nil }
        if let content {
            // Only the nodes of that type: a typo is most likely one of them.
            let ids = NodePropertyValues.nodeIDs(in: scene).filter { Self.type(of: scene.node(withID: $0)) == content }
            guard ids.contains(id) else {
                let other = scene.node(withID: id).map { Self.type(of: $0) }
                error(value, other.map { "\"\(id)\" is \("aeiou".contains($0.first!) ? "an" : "a") \($0) node, not a \(content) node" }
                          ?? "no \(content) node \"\(id)\" in the scene \"\(scene.id)\"",
                      hint: Suggestion.hint(for: id, among: ids, listing: "its \(content) nodes with ids are")
                          ?? "the scene \"\(scene.id)\" has no \(content) node with an id")
                return nil
            }
            return id
        }
        let ids = NodePropertyValues.nodeIDs(in: scene)
        guard ids.contains(id) else {
            error(value, "no node \"\(id)\" in the scene \"\(scene.id)\"",
                  hint: Suggestion.hint(for: id, among: ids, listing: "its nodes with ids are") ?? "give the node an \"id\" in the scenes file")
            return nil
        }
        return id
    }

    private mutating func property(_ entry: LocatedJSON) -> AnimatableProperty? {
        guard let (name, value) = string(entry, "property") else { return nil }
        let names = NodePropertyValues.numericProperties.map(\.rawValue)
        guard let property = AnimatableProperty(rawValue: name), NodePropertyValues.numericProperties.contains(property) else {
            let known = AnimatableProperty(rawValue: name) != nil
            error(value, known ? "the property \"\(name)\" is not a number, which is all verify compares"
                               : "unknown property \"\(name)\"",
                  hint: name == "text" ? "a text's string is checked with \"text\": { \"scene\": ..., \"at\": ..., \"node\": ..., \"text\": \"Hello\" }"
                      : Suggestion.hint(for: name, among: names, listing: "the properties are"))
            return nil
        }
        return property
    }

    /// A node's `"type"` as the scenes file writes it.
    private static func type(of node: Node?) -> String {
        switch node?.content {
        case .text: "text"
        case .lottie: "lottie"
        case .group: "group"
        case .image: "image"
        case .emitter: "emitter"
        default: "shape"
        }
    }

    /// `.some(nil)`: none given; nil: a bad one, reported.
    private mutating func seconds(_ entry: LocatedJSON, _ key: String, minimum: Rational, maximum: Rational) -> Rational?? {
        guard let value = entry[key] else { return .some(nil) }
        guard case .number(let literal) = value.kind, let time = Rational(decimalLiteral: literal) else {
            error(value, "\"\(key)\" must be a number of seconds, not \(value.typeDescription)")
            return nil
        }
        guard time >= minimum, time <= maximum else {
            error(value, "\"\(key)\" must be from \(minimum.decimalDescription) to \(maximum.decimalDescription) seconds, not \(literal)")
            return nil
        }
        return .some(time)
    }

    private mutating func levelMeasure(_ entry: LocatedJSON) -> Expectations.LevelMeasure? {
        guard let value = entry["measure"] else { return .rms }
        let names = Expectations.LevelMeasure.allCases.map(\.rawValue)
        guard case .string(let name) = value.kind, let measure = Expectations.LevelMeasure(rawValue: name) else {
            let text = if case .string(let name) = value.kind { "\"\(name)\"" } else { value.typeDescription }
            error(value, "\"measure\" must be \"rms\" or \"peak\", not \(text)",
                  hint: { if case .string(let name) = value.kind { return Suggestion.hint(for: name, among: names, listing: "the measures are") }
                          return nil }() ?? "\"rms\" (how loud on average, the default) or \"peak\" (the largest sample)")
            return nil
        }
        return measure
    }

    private mutating func goldenPath(_ entry: LocatedJSON) -> String? {
        guard let (path, value) = string(entry, "frame") else { return nil }
        guard path.lowercased().hasSuffix(".png") else {
            error(value, "\"frame\" must name a PNG file, not \"\(path)\"", hint: "e.g. \"frame\": \"verify/ocean-1.2.png\"")
            return nil
        }
        return path.hasPrefix("/") ? path : directory.appendingPathComponent(path).standardizedFileURL.path
    }

    /// nil: none given (the default language); .some(nil): a bad one, reported.
    private mutating func language(_ entry: LocatedJSON) -> String?? {
        guard let value = entry["language"] else { return .none }
        guard case .string(let code) = value.kind else {
            error(value, "\"language\" must be a language code (a string), not \(value.typeDescription)")
            return .some(nil)
        }
        guard document.languages.available.contains(code) else {
            error(value, "\"\(code)\" is not a language of the scenes file",
                  hint: "its languages are " + document.languages.available.map { "\"\($0)\"" }.joined(separator: ", "))
            return .some(nil)
        }
        return .some(code)
    }

    private mutating func cue(_ entry: LocatedJSON, scene: Scene) -> (index: Int, label: String)? {
        guard let value = entry["cue"] else {
            error(entry, "a cue count needs \"cue\": the cue's id or its index in the scene's cues")
            return nil
        }
        let ids = scene.cues.compactMap(\.id)
        switch value.kind {
        case .string(let id):
            guard let index = scene.cues.firstIndex(where: { $0.id == id }) else {
                error(value, "no cue with the id \"\(id)\" in the scene \"\(scene.id)\"",
                      hint: Suggestion.hint(for: id, among: ids, listing: "its cue ids are")
                          ?? "its cues have no ids: give the cue's index, 0 to \(max(scene.cues.count - 1, 0))")
                return nil
            }
            return (index, "cue \"\(id)\"")
        case .number(let literal):
            guard let index = Int(literal), scene.cues.indices.contains(index) else {
                error(value, "the scene \"\(scene.id)\" has no cue \(literal)",
                      hint: scene.cues.isEmpty ? "it has no cues" : "its cues are numbered 0 to \(scene.cues.count - 1)")
                return nil
            }
            return (index, "cue \(index)")
        default:
            error(value, "\"cue\" must be the cue's id (a string) or its index (a number), not \(value.typeDescription)")
            return nil
        }
    }
}
