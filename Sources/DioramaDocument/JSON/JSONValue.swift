// A JSON tree that remembers where each value and key came from, and the literal text of numbers,
// so diagnostics can point at a line and column and timing can be read as exact decimals.

/// One JSON value and the byte offset of its first character in the source.
struct JSONValue: Sendable {
    enum Kind: Sendable {
        case null
        case bool(Bool)
        /// The literal as written (`"0.9"`, `"-3"`, `"1.5e-3"`), already checked against RFC 8259's grammar.
        case number(String)
        case string(String)
        case array([JSONValue])
        case object([JSONMember])
    }

    var kind: Kind
    /// Byte offset of the value's first character (the quote of a string, the `[` of an array).
    var offset: Int

    /// The JSON type name used in messages ("a string", "an object", ...).
    var typeDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A key and its value, in file order.
struct JSONMember: Sendable {
    var key: String
    /// Byte offset of the key's opening quote.
    var keyOffset: Int
    var value: JSONValue
}

/// A problem found while reading the file, located by byte offset until the line table turns it into line:column.
struct Problem: Sendable {
    var offset: Int
    var path: String
    var message: String
    var hint: String?
    var severity: Diagnostic.Severity = .error
    /// Further places that explain the problem ("the component is placed at 30:9"), one line each.
    var notes: [String] = []
}
