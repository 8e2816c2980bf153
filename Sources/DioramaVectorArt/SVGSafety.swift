import Foundation

/// Checks an SVG's bytes before librsvg parses them, for what librsvg's own limits do not cover the way
/// we want: references to files outside the scenes folder or to the network, external entities, and
/// entities that expand into other entities (the "billion laughs") or to far more text than the file holds;
/// and the work a file can ask of librsvg without bound: filter primitives with huge parameters, pictures
/// that declare far more pixels than their bytes hold, and long text. librsvg trusts its caller for these.
/// Pure byte scanning, deliberately strict: what it cannot prove safe is refused.
public enum SVGSafety {
    /// Bytes an SVG file may have.
    public static let maximumFileSize = 16 * 1024 * 1024
    /// Bytes that entity references may expand to, in all.
    public static let maximumEntityExpansion = 1024 * 1024
    /// Levels of nested elements.
    public static let maximumDepth = 200
    /// The largest `order` of an feConvolveMatrix (each side of its kernel).
    public static let maximumConvolveOrder = 9
    /// The most octaves of an feTurbulence.
    public static let maximumTurbulenceOctaves = 10
    /// The largest `radius` of an feMorphology, in user units.
    public static let maximumMorphologyRadius = 100.0
    /// The largest `stdDeviation` of an feGaussianBlur or feDropShadow, in user units.
    public static let maximumBlurDeviation = 1000.0

    /// The first problem found, or nil when the bytes look safe to hand to librsvg.
    /// - Parameters:
    ///   - fileDirectory: the SVG's own folder, which its relative references resolve against.
    ///   - allowedRoot: the folder no reference may leave (the scenes file's); nil allows no file references.
    public static func problem(in bytes: [UInt8], fileDirectory: String, allowedRoot: String?) -> VectorArtError? {
        var budget = PictureBudget()
        return problem(in: bytes, fileDirectory: fileDirectory, allowedRoot: allowedRoot, budget: &budget, nesting: 0)
    }

    /// The checks of one SVG, and of the SVGs and pictures it uses (`nesting` deep), sharing one picture budget.
    static func problem(in bytes: [UInt8], fileDirectory: String, allowedRoot: String?,
                        budget: inout PictureBudget, nesting: Int) -> VectorArtError? {
        let text = String(decoding: bytes, as: UTF8.self)
        var entityLengths: [String: Int] = [:]
        if let problem = entityProblem(in: text, lengths: &entityLengths) { return problem }
        if let problem = depthProblem(in: bytes) { return problem }
        for reference in references(in: text) {
            if let problem = referenceProblem(reference, fileDirectory: fileDirectory, allowedRoot: allowedRoot) { return problem }
        }
        if let problem = filterProblem(in: bytes) { return problem }
        if let problem = textProblem(in: bytes, entityLengths: entityLengths) { return problem }
        return picturesProblem(in: text, fileDirectory: fileDirectory, allowedRoot: allowedRoot, budget: &budget, nesting: nesting)
    }

    // MARK: References

    /// Every `href` attribute value (any namespace prefix), `url(...)` and CSS `@import` target.
    static func references(in text: String) -> [String] {
        var found: [String] = []
        let patterns = [
            #"(?:^|[\s:])href\s*=\s*"([^"]*)""#, #"(?:^|[\s:])href\s*=\s*'([^']*)'"#,
            #"url\(\s*["']?([^"')]*)["']?\s*\)"#, #"@import\s+["']([^"']*)["']"#,
        ]
        for pattern in patterns {
            guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { continue }
            let range = NSRange(text.startIndex..., in: text)
            for match in expression.matches(in: text, range: range) {
                if let captured = Range(match.range(at: 1), in: text) {
                    found.append(String(text[captured]).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        return found
    }

    static func referenceProblem(_ reference: String, fileDirectory: String, allowedRoot: String?) -> VectorArtError? {
        if reference.isEmpty || reference.hasPrefix("#") || reference.lowercased().hasPrefix("data:") { return nil }
        let shown = reference.count > 60 ? String(reference.prefix(57)) + "..." : reference
        // A scheme (http:, https:, file:, ftp:, ...) or a network path: never fetched.
        if let colon = reference.firstIndex(of: ":"),
           reference[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }), !reference[..<colon].isEmpty {
            return VectorArtError(reason: "it refers to \"\(shown)\", and SVG files may not fetch anything from the network or by URL",
                                  hint: "embed the picture as a data: URL, or put it beside the SVG and refer to it by a relative path")
        }
        if reference.hasPrefix("//") || reference.hasPrefix("/") || reference.hasPrefix("\\") {
            return VectorArtError(reason: "it refers to \"\(shown)\" by an absolute path",
                                  hint: "refer to files beside the SVG by relative paths inside the scenes file's folder")
        }
        let file = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? reference
        let resolved = URL(fileURLWithPath: fileDirectory).appendingPathComponent(file.removingPercentEncoding ?? file).standardizedFileURL.path
        guard let allowedRoot else {
            return VectorArtError(reason: "it refers to the file \"\(shown)\"", hint: "embed the picture as a data: URL")
        }
        let root = URL(fileURLWithPath: allowedRoot).standardizedFileURL.path
        if resolved != root && !resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
            return VectorArtError(reason: "it refers to \"\(shown)\", outside the scenes file's folder",
                                  hint: "SVG files may only use files inside the folder of the scenes file")
        }
        return nil
    }

    // MARK: Entities

    /// `lengths` receives each declared entity's replacement length, for the text check.
    static func entityProblem(in text: String, lengths: inout [String: Int]) -> VectorArtError? {
        // A DTD's default attribute values would set attributes the other checks never see written.
        if text.contains("<!ATTLIST") {
            return VectorArtError(reason: "it declares default attributes (<!ATTLIST ...>) in its DOCTYPE",
                                  hint: "write the attributes on the elements and remove the declaration")
        }
        guard text.contains("<!ENTITY") else { return nil }
        guard let declaration = try? NSRegularExpression(pattern: #"<!ENTITY\s+(%\s+)?([^\s]+)\s+([^>]*)>"#) else { return nil }
        for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let nameRange = Range(match.range(at: 2), in: text), let bodyRange = Range(match.range(at: 3), in: text) else { continue }
            let name = String(text[nameRange]), body = text[bodyRange]
            if match.range(at: 1).location != NSNotFound || body.hasPrefix("SYSTEM") || body.hasPrefix("PUBLIC") {
                return VectorArtError(reason: "it declares the external or parameter entity \"\(name)\"",
                                      hint: "remove the entity from the SVG's DOCTYPE; external entities are never loaded")
            }
            if body.contains("&") || body.contains("%") {
                return VectorArtError(reason: "its entity \"\(name)\" refers to other entities, which can expand without bound",
                                      hint: "write the text out in place of nested entities")
            }
            lengths[name] = body.utf8.count
        }
        var expansion = 0
        for (name, length) in lengths {
            let uses = text.components(separatedBy: "&\(name);").count - 1
            expansion += uses * length
            if expansion > maximumEntityExpansion {
                return VectorArtError(reason: "its entities expand to more than \(maximumEntityExpansion / 1024) KiB of text",
                                      hint: "write the text out in place of the entities")
            }
        }
        return nil
    }

    // MARK: Nesting

    /// Counts element nesting without a parser: `<name` opens, `</` and `/>` close; comments, CDATA,
    /// declarations and processing instructions are skipped.
    static func depthProblem(in bytes: [UInt8]) -> VectorArtError? {
        var depth = 0, index = 0
        let count = bytes.count
        func starts(_ prefix: String, at position: Int) -> Bool {
            let utf8 = Array(prefix.utf8)
            return position + utf8.count <= count && Array(bytes[position..<position + utf8.count]) == utf8
        }
        func skip(past terminator: String, from position: Int) -> Int {
            let utf8 = Array(terminator.utf8)
            var i = position
            while i + utf8.count <= count {
                if bytes[i] == utf8[0], Array(bytes[i..<i + utf8.count]) == utf8 { return i + utf8.count }
                i += 1
            }
            return count
        }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            if starts("<!--", at: index) { index = skip(past: "-->", from: index + 4); continue }
            if starts("<![CDATA[", at: index) { index = skip(past: "]]>", from: index + 9); continue }
            if starts("<?", at: index) { index = skip(past: "?>", from: index + 2); continue }
            if starts("<!", at: index) { index = skip(past: ">", from: index + 2); continue }
            if starts("</", at: index) { depth -= 1; index = skip(past: ">", from: index + 2); continue }
            let i = tagEnd(bytes, from: index)
            let selfClosing = i > index && i < count && bytes[i - 1] == UInt8(ascii: "/")
            if !selfClosing {
                depth += 1
                if depth > maximumDepth {
                    return VectorArtError(reason: "its elements are nested more than \(maximumDepth) deep",
                                          hint: "flatten the drawing's groups")
                }
            }
            index = i + 1
        }
        return nil
    }
}

/// Why an SVG cannot be used, in words for a person, with a hint where one helps.
public struct VectorArtError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var hint: String?
    public init(reason: String, hint: String? = nil) {
        self.reason = reason
        self.hint = hint
    }
    public var description: String { reason }
}
