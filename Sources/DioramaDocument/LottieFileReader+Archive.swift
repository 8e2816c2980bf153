import Foundation

/// One file inside a zip archive, unpacked.
public struct ArchiveEntry: Sendable, Equatable {
    public var name: String
    public var bytes: [UInt8]
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// Unpacks a zip archive in memory, bounded (`LottieFileReader.maximumArchiveEntries`, `maximumUnpackedSize`).
/// Unpacking needs zlib, which this module does not import: the renderer's module gives one (`DotLottieArchive`).
/// A problem's message continues a sentence that starts with the file's name ("is truncated: ...").
public typealias ArchiveReader = @Sendable (_ archive: [UInt8]) -> Result<[ArchiveEntry], LottieFileReader.Problem>

// dotLottie (a zip of Lottie JSON animations, their images and a manifest): the animation inside is found and
// handed to the same checks as a `.json` file, with its images embedded as data URIs so rlottie needs no folder.
extension LottieFileReader {
    /// Files an archive may hold.
    public static let maximumArchiveEntries = 1000
    /// Bytes all files of an archive may unpack to together (each one at most `maximumFileSize`).
    public static let maximumUnpackedSize = 32 * 1024 * 1024

    /// The JSON of the animation a dotLottie archive plays, and its name inside (`animations/ID.json` in version 1,
    /// `a/ID.json` in version 2): the one whose id is `animation`, else the first of the manifest's `animations`, else
    /// the first such file by name. Image assets found in the archive (`images/` or `i/`) are embedded into the JSON.
    static func unpack(_ archive: [UInt8], file: String, reader: ArchiveReader,
                       animation: String? = nil) -> Result<(json: [UInt8], entry: String), Problem> {
        let entries: [ArchiveEntry]
        switch reader(archive) {
        case .failure(let problem): return .failure(Problem("\(file) \(problem.message)", hint: problem.hint))
        case .success(let unpacked): entries = unpacked
        }
        func entry(_ name: String) -> ArchiveEntry? { entries.first { $0.name == name } }
        let animationFolders = ["animations/", "a/"]
        var candidates: [String] = []
        if let manifest = entry("manifest.json"), case .object(let members)? = JSONParser.parse(manifest.bytes).value?.kind,
           case .array(let animations)? = members.first(where: { $0.key == "animations" })?.value.kind {
            for animation in animations {
                guard case .object(let fields) = animation.kind,
                      case .string(let id)? = fields.first(where: { $0.key == "id" })?.value.kind else { continue }
                candidates += animationFolders.map { $0 + id + ".json" }
            }
        }
        let found = entries.map(\.name).filter { name in
            name.hasSuffix(".json") && animationFolders.contains { name.hasPrefix($0) && !name.dropFirst($0.count).contains("/") }
        }.sorted()
        if let animation {
            guard let chosen = animationFolders.lazy.compactMap({ entry($0 + animation + ".json") }).first else {
                // The ids there are: the manifest's, and those of the animation files.
                var ids = candidates.compactMap { name in animationFolders.first { name.hasPrefix($0) }.map { String(name.dropFirst($0.count).dropLast(5)) } }
                for name in found {
                    let id = String(name.dropFirst(name.hasPrefix("a/") ? 2 : "animations/".count).dropLast(5))
                    if !ids.contains(id) { ids.append(id) }
                }
                var unique: [String] = []
                for id in ids where !unique.contains(id) { unique.append(id) }
                return .failure(Problem("\(file) has no animation \"\(animation)\"",
                                        hint: Suggestion.hint(for: animation, among: unique, listing: "its animations are")
                                            ?? "it holds no animation; a dotLottie archive holds animations/ID.json"))
            }
            return .success((embeddingImages(in: chosen.bytes, from: entries), chosen.name))
        }
        guard let chosen = (candidates + found).lazy.compactMap({ entry($0) }).first else {
            return .failure(Problem("\(file) holds no Lottie animation (no animations/NAME.json or a/NAME.json)",
                                    hint: "a dotLottie archive holds manifest.json and animations/NAME.json"
                                        + (Suggestion.list(entries.map(\.name), listing: "; this one holds") ?? "; this one is empty")))
        }
        return .success((embeddingImages(in: chosen.bytes, from: entries), chosen.name))
    }

    /// The bytes of the file `entry` inside the dotLottie archive at `path` (shown as `shownPath`), unpacked by
    /// `reader`: a sound the scene plays from the archive. An entry given without its folder is also looked for where
    /// dotLottie keeps audio: `audio/` (version 1) and `u/` (version 2). A problem names the files the archive has.
    public static func archiveEntry(_ entry: String, path: String, shownPath: String, reader: ArchiveReader?) -> Result<ArchiveEntry, Problem> {
        let file = "the dotLottie archive \"\(shownPath)\""
        guard let reader else {
            return .failure(Problem("\(file) is a zip, which is not read here", hint: "unzip it and name the sound file inside"))
        }
        let data: [UInt8]
        switch readFile(path, file: file, shownPath: shownPath) {
        case .failure(let problem): return .failure(problem)
        case .success(let bytes): data = bytes
        }
        let entries: [ArchiveEntry]
        switch reader(data) {
        case .failure(let problem): return .failure(Problem("\(file) \(problem.message)", hint: problem.hint))
        case .success(let unpacked): entries = unpacked
        }
        for name in [entry, "audio/" + entry, "u/" + entry] {
            if let found = entries.first(where: { $0.name == name }) { return .success(found) }
        }
        let audio = entries.map(\.name).filter { $0.hasPrefix("audio/") || $0.hasPrefix("u/") }
        let names = audio.isEmpty ? entries.map(\.name).filter { !$0.hasSuffix("/") } : audio
        return .failure(Problem("\(file) holds no file \"\(entry)\"",
                                hint: Suggestion.hint(for: entry, among: names, listing: audio.isEmpty ? "it holds" : "its sounds are")
                                    ?? "it holds no sounds (dotLottie keeps them in audio/ or u/)"))
    }

    /// `json` with every image asset found among `entries` (at its `u` + `p`, or `images/` or `i/` + `p`) embedded
    /// as a data URI (`"e": 1`). A file that does not parse is returned as is, for `parse` to report where.
    static func embeddingImages(in json: [UInt8], from entries: [ArchiveEntry]) -> [UInt8] {
        guard case .object(let members)? = JSONParser.parse(json).value?.kind,
              case .array(let assets)? = members.first(where: { $0.key == "assets" })?.value.kind else { return json }
        // Replacements (start, end, text), applied from the end so earlier offsets stay valid.
        var edits: [(start: Int, end: Int, text: String)] = []
        for asset in assets {
            guard case .object(let fields) = asset.kind,
                  let p = fields.first(where: { $0.key == "p" })?.value, case .string(let name) = p.kind else { continue }
            if case .number(let embedded)? = fields.first(where: { $0.key == "e" })?.value.kind, Double(embedded) == 1 { continue }
            var folder = ""
            if case .string(let u)? = fields.first(where: { $0.key == "u" })?.value.kind { folder = u }
            let plain = (folder + name).drop { $0 == "/" }
            let names = [String(plain), "images/" + name, "i/" + name]
            guard let image = names.lazy.compactMap({ wanted in entries.first { $0.name == wanted } }).first else { continue }
            let uri = "data:image/\(image.name.lowercased().hasSuffix(".png") ? "png" : "jpeg");base64," + Data(image.bytes).base64EncodedString()
            edits.append((p.offset, stringEnd(json, from: p.offset), "\"\(uri)\""))
            if let e = fields.first(where: { $0.key == "e" })?.value {
                edits.append((e.offset, literalEnd(json, from: e.offset), "1"))
            } else {
                edits.append((asset.offset + 1, asset.offset + 1, "\"e\":1,"))
            }
        }
        var bytes = json
        for edit in edits.sorted(by: { $0.start > $1.start }) {
            bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.text.utf8))
        }
        return bytes
    }

    /// The offset just past the string literal whose opening quote is at `start`.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
            if bytes[index] == UInt8(ascii: "\"") { return index + 1 }
            index += 1
        }
        return bytes.count
    }

    /// The offset just past the literal (number, true, false, null) starting at `start`.
    private static func literalEnd(_ bytes: [UInt8], from start: Int) -> Int {
        if bytes[start] == UInt8(ascii: "\"") { return stringEnd(bytes, from: start) }
        var index = start
        while index < bytes.count, !",}] \t\r\n".utf8.contains(bytes[index]) { index += 1 }
        return index
    }
}
