import Foundation

/// What to suggest for a name that does not exist, from the names that do: the one place every message about
/// something missing (a key, a node, a marker in a Lottie file, an element of an SVG, a file in a folder) finds
/// its "did you mean ...?" and its list of what exists.
///
/// ```swift
/// Suggestion.hint(for: "impcat", among: ["impact", "loop"], listing: "its markers are")
/// // did you mean "impact"? its markers are "impact" and "loop"
/// Suggestion.hint(for: "n8", among: ["n0", "n1", "n2"], listing: "its markers are")
/// // its markers are "n0", "n1", and "n2"        (each as near as the others: no guess)
/// ```
public enum Suggestion {
    /// Names listed in full when there are at most this many; a longer list shows this many and how many more.
    public static let listLimit = 12

    /// The candidate nearest to `word` by edit distance (case aside), if near enough to be a typo: at most a third
    /// of the candidate's length, between 1 and 3 edits. The first of equally near candidates.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        nearest(to: word, among: candidates).first
    }

    /// "did you mean "impact"?" when one name is nearest and near enough to be a typo, followed by the names that
    /// exist when they are few (`listing` introduces them: "its markers are"). When several are equally near
    /// (`n8` among `n0`...`n7`) none is guessed: the names are listed, or among many, the near ones. Nil when there
    /// are no names.
    public static func hint(for word: String, among candidates: [String], listing: String) -> String? {
        let near = nearest(to: word, among: candidates)
        let names = list(candidates, listing: listing)
        switch near.count {
        case 1 where candidates.count <= listLimit: return names.map { "\(didYouMean(near[0])) \($0)" }
        case 1: return didYouMean(near[0])
        case 2... where candidates.count > listLimit:
            // Too many names to list, several as near: those.
            return "did you mean one of \(DocumentDecoder.list(near.prefix(listLimit).map { "\"\($0)\"" }, conjunction: "or"))?"
        default: return names
        }
    }

    /// `did you mean "width"?`
    public static func didYouMean(_ name: String) -> String { "did you mean \"\(name)\"?" }

    /// `its markers are "a", "b", and "c"`, at most `listLimit` names, then how many more; nil for none.
    public static func list(_ candidates: [String], listing: String) -> String? {
        guard !candidates.isEmpty else { return nil }
        var shown = candidates.prefix(listLimit).map { "\"\($0)\"" }
        if candidates.count > listLimit { shown.append("\(candidates.count - listLimit) more") }
        return "\(listing) \(DocumentDecoder.list(shown, conjunction: "and"))"
    }

    /// The candidates equally nearest to `word` and near enough to be a typo, in their order.
    static func nearest(to word: String, among candidates: [String]) -> [String] {
        let lowered = word.lowercased()
        var best: [String] = []
        var bestDistance = Int.max
        for candidate in candidates {
            let distance = candidate.lowercased() == lowered ? 0 : EditDistance.between(lowered, candidate.lowercased())
            let allowed = max(1, min(3, candidate.count / 3))
            guard distance <= allowed, distance <= bestDistance else { continue }
            if distance < bestDistance { best = [] }
            bestDistance = distance
            if !best.contains(candidate) { best.append(candidate) }
        }
        return best
    }

    // MARK: - Files

    /// The hint for a file that does not exist at `resolved` (written as `written` in the scenes file): the nearest
    /// name in its folder (or a file with the same name and another extension: `drum.json` for `drum.lottie`) and
    /// the folder's files when they are few; a folder on the way that does not exist is named, with the nearest
    /// that does.
    public static func missingFileHint(written: String, resolved: String) -> String {
        let relative = "paths are relative to the folder of the scenes file"
        let fileManager = FileManager.default
        let writtenFolder = written.contains("/") ? String(written[...written.lastIndex(of: "/")!]) : ""
        let folder = URL(fileURLWithPath: resolved).deletingLastPathComponent()
        let name = URL(fileURLWithPath: resolved).lastPathComponent
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return missingFolderHint(written: writtenFolder, file: name, folder: folder) ?? relative
        }
        let entries = ((try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []).filter { entry in
            var isFolder: ObjCBool = false
            return !entry.hasPrefix(".") && fileManager.fileExists(atPath: folder.appendingPathComponent(entry).path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }.sorted()
        let shownFolder = writtenFolder.isEmpty ? "the scenes file's folder" : "the folder \"\(writtenFolder.dropLast())\""
        guard !entries.isEmpty else { return "\(shownFolder) has no files; \(relative)" }
        let stem = (name as NSString).deletingPathExtension.lowercased()
        let guess = closest(to: name, among: entries)
            ?? entries.first { ($0 as NSString).deletingPathExtension.lowercased() == stem }
        // Files of the same kind first: a missing sound is most likely one of the sounds beside it.
        let fileExtension = (name as NSString).pathExtension.lowercased()
        let sameKind = entries.filter { ($0 as NSString).pathExtension.lowercased() == fileExtension }
        let listed = sameKind.isEmpty ? entries : sameKind
        var parts: [String] = []
        if let guess { parts.append(didYouMean(writtenFolder + guess)) }
        if listed.count <= listLimit, let names = list(listed, listing: "\(shownFolder) holds") {
            parts.append(names)
        } else if guess == nil {
            parts.append("\(shownFolder) holds \(entries.count) files, none named like it; \(relative)")
        }
        return parts.joined(separator: " ")
    }

    /// "there is no folder "medai": did you mean "media"?" for the first folder of `written` that does not exist.
    private static func missingFolderHint(written: String, file: String, folder: URL) -> String? {
        // Walk up to the deepest folder that exists; the component below it is the one missing.
        var missing = folder
        var parent = folder.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        while !(FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory) && isDirectory.boolValue) {
            guard parent.path != "/" else { return nil }
            missing = parent
            parent = parent.deletingLastPathComponent()
        }
        let name = missing.lastPathComponent
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []).filter { entry in
            var isFolder: ObjCBool = false
            return !entry.hasPrefix(".") && FileManager.default.fileExists(atPath: parent.appendingPathComponent(entry).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
        let text = "there is no folder \"\(name)\""
        guard let guess = closest(to: name, among: folders) else { return text + "; paths are relative to the folder of the scenes file" }
        // The written path with the misspelt folder replaced, when the folder is written in it.
        let components = written.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let index = components.lastIndex(of: name) {
            var fixed = components
            fixed[index] = guess
            return text + ": " + didYouMean(fixed.joined(separator: "/") + file)
        }
        return text + ": " + didYouMean(guess)
    }
}

enum EditDistance {
    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1.
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Long words are never typos of short keys; bound the work.
        if abs(a.count - b.count) > 3 || a.count > 64 || b.count > 64 { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
