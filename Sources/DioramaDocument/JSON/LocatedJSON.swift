/// A JSON document read by the same strict parser as scenes files, for other files that sit beside them
/// (`diorama verify`'s expectations): every value knows its line, column and JSON path, so a reader of the
/// tree can report its own problems as located diagnostics.
///
/// Example:
/// ```swift
/// switch LocatedJSON.parse(bytes: bytes, file: "scenes.verify.json") {
/// case .success(let root): print(root.line, root.column)
/// case .failure(let error): print(error.diagnostics.map(\.description).joined(separator: "\n"))
/// }
/// ```
public struct LocatedJSON: Sendable {
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        /// The literal as written, so times can be read as exact decimals (`Rational(decimalLiteral:)`).
        case number(String)
        case string(String)
        case array([LocatedJSON])
        /// Members in file order, each with the location of its key.
        case object([Member])
    }

    public struct Member: Sendable {
        public var key: String
        public var keyLine: Int
        public var keyColumn: Int
        public var value: LocatedJSON
    }

    public var kind: Kind
    public var line: Int
    public var column: Int
    /// `expect[2].at`; empty for the root.
    public var path: String

    /// "a string", "an object", ... for messages.
    public var typeDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> LocatedJSON? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` of an array.
    public func element(_ index: Int) -> LocatedJSON? {
        guard case .array(let elements) = kind, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// `path` extended by a key, in the notation diagnostics use.
    public static func path(_ path: String, key: String) -> String {
        var extended = path
        JSONPath.append(key: key, to: &extended)
        return extended
    }

    /// Parses `bytes`; syntax errors and duplicate keys come back as diagnostics naming `file`.
    public static func parse(bytes: [UInt8], file: String) -> Result<LocatedJSON, DocumentLoadError> {
        let (value, problems) = JSONParser.parse(bytes)
        var offsets: [Int] = problems.map(\.offset)
        if let value { collectOffsets(value, into: &offsets) }
        let locations = SourceLines.locations(of: offsets, in: bytes)
        func location(_ offset: Int) -> SourceLines.Location { locations[offset] ?? SourceLines.Location(line: 1, column: 1) }
        let errors = problems.filter { $0.severity == .error }
        guard let value, errors.isEmpty else {
            let diagnostics = (errors.isEmpty ? problems : errors).map { problem in
                let at = location(problem.offset)
                return Diagnostic(file: file, line: at.line, column: at.column, path: problem.path,
                                  message: problem.message, hint: problem.hint)
            }
            return .failure(DocumentLoadError(diagnostics: diagnostics.isEmpty
                ? [Diagnostic(file: file, line: 1, column: 1, path: "", message: "the file could not be read as JSON")] : diagnostics))
        }
        func convert(_ value: JSONValue, path: String) -> LocatedJSON {
            let at = location(value.offset)
            let kind: Kind
            switch value.kind {
            case .null: kind = .null
            case .bool(let flag): kind = .bool(flag)
            case .number(let literal): kind = .number(literal)
            case .string(let text): kind = .string(text)
            case .array(let items):
                kind = .array(items.enumerated().map { convert($0.element, path: path + "[\($0.offset)]") })
            case .object(let members):
                kind = .object(members.map { member in
                    let keyAt = location(member.keyOffset)
                    return Member(key: member.key, keyLine: keyAt.line, keyColumn: keyAt.column,
                                  value: convert(member.value, path: Self.path(path, key: member.key)))
                })
            }
            return LocatedJSON(kind: kind, line: at.line, column: at.column, path: path)
        }
        return .success(convert(value, path: ""))
    }

    private static func collectOffsets(_ value: JSONValue, into offsets: inout [Int]) {
        offsets.append(value.offset)
        switch value.kind {
        case .array(let items): for item in items { collectOffsets(item, into: &offsets) }
        case .object(let members):
            for member in members {
                offsets.append(member.keyOffset)
                collectOffsets(member.value, into: &offsets)
            }
        default: break
        }
    }
}
