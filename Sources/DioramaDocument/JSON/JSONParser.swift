/// A strict RFC 8259 parser over UTF-8 bytes that keeps byte offsets and number literals.
///
/// Strict: no comments, trailing commas, single quotes, NaN, leading zeros or invalid UTF-8.
/// Duplicate keys are reported (the first value is kept) and parsing goes on; any other syntax
/// error stops parsing and is the only problem reported, because what follows it cannot be trusted.
/// Nesting is limited to `maximumDepth`, so `[[[[...` fails quickly instead of exhausting the stack.
///
/// - Complexity: O(n) in the file's length.
struct JSONParser {
    static let maximumDepth = 128

    /// The parsed value (nil after a syntax error) and every problem found.
    static func parse(_ bytes: [UInt8]) -> (value: JSONValue?, problems: [Problem]) {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer: buffer)
            do throws(SyntaxError) {
                let value = try parser.parseDocument()
                return (value, parser.problems)
            } catch {
                return (nil, parser.problems + [Problem(offset: error.offset, path: parser.currentPath(),
                                                       message: error.message, hint: error.hint)])
            }
        }
    }

    struct SyntaxError: Error {
        var offset: Int
        var message: String
        var hint: String?
    }

    private enum PathComponent {
        case key(String)
        case index(Int)
        /// Between members, where a key is expected: the path is the object's own.
        case betweenMembers
    }

    private let buffer: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private var problems: [Problem] = []
    /// Where the parser is, for messages; maintained only as containers open and close.
    private var pathStack: [PathComponent] = []

    private init(buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    private func currentPath() -> String {
        var path = ""
        for component in pathStack {
            switch component {
            case .key(let key): JSONPath.append(key: key, to: &path)
            case .index(let index): path += "[\(index)]"
            case .betweenMembers: break
            }
        }
        return path
    }

    private mutating func parseDocument() throws(SyntaxError) -> JSONValue {
        // A UTF-8 byte order mark is tolerated: some editors write one.
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < buffer.count else {
            throw SyntaxError(offset: 0, message: buffer.isEmpty ? "the file is empty" : "the file holds no JSON value",
                              hint: "a scenes file is one JSON object: { \"canvas\": {...}, \"scenes\": [...] }")
        }
        let value = try parseValue()
        skipWhitespace()
        if index < buffer.count {
            throw SyntaxError(offset: index, message: "unexpected \(describeByte(at: index)) after the end of the JSON value",
                              hint: "a file holds one JSON value; look for a misplaced comma or bracket before this point")
        }
        return value
    }

    private mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        guard index < buffer.count else {
            throw SyntaxError(offset: index, message: "unexpected end of file where a value should be",
                              hint: "the file looks truncated")
        }
        let start = index
        switch buffer[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONValue(kind: .string(try parseString()), offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(kind: .number(try parseNumber()), offset: start)
        case UInt8(ascii: "t"):
            try expectWord("true")
            return JSONValue(kind: .bool(true), offset: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return JSONValue(kind: .bool(false), offset: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return JSONValue(kind: .null, offset: start)
        default:
            throw unexpectedValueStart()
        }
    }

    private func unexpectedValueStart() -> SyntaxError {
        let byte = buffer[index]
        let word = wordAt(index)
        switch byte {
        case UInt8(ascii: "'"):
            return SyntaxError(offset: index, message: "unexpected single quote", hint: "JSON strings use double quotes: \"like this\"")
        case UInt8(ascii: "/"):
            return SyntaxError(offset: index, message: "unexpected '/'", hint: "JSON has no comments")
        case UInt8(ascii: "+"):
            return SyntaxError(offset: index, message: "a number cannot start with '+'", hint: "leave the sign out")
        case UInt8(ascii: "."):
            return SyntaxError(offset: index, message: "a number needs a digit before '.'", hint: "write 0.5, not .5")
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            var previous = index - 1
            while previous >= 0, [0x20, 0x0A, 0x0D, 0x09].contains(buffer[previous]) { previous -= 1 }
            let afterComma = previous >= 0 && buffer[previous] == UInt8(ascii: ",")
            return SyntaxError(offset: index, message: "unexpected '\(Character(Unicode.Scalar(byte)))' where a value should be",
                               hint: afterComma ? "JSON allows no comma before a closing bracket" : "the brackets do not match")
        default:
            if ["NaN", "Infinity", "inf", "nan"].contains(word) {
                return SyntaxError(offset: index, message: "'\(word)' is not a JSON number", hint: "numbers must be finite")
            }
            if !word.isEmpty {
                return SyntaxError(offset: index, message: "unexpected word '\(word)' where a value should be",
                                   hint: "strings need double quotes; the literals are true, false and null")
            }
            return SyntaxError(offset: index, message: "unexpected \(describeByte(at: index)) where a value should be")
        }
    }

    /// The run of ASCII letters at `offset`, for messages.
    private func wordAt(_ offset: Int) -> String {
        var end = offset
        while end < buffer.count, end - offset < 40,
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(buffer[end] | 0x20) || buffer[end] == UInt8(ascii: "_") {
            end += 1
        }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<end]), as: UTF8.self)
    }

    private func describeByte(at offset: Int) -> String {
        let byte = buffer[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "character U+\(hex(UInt32(byte), width: 4))" }
        if let scalar = decodeScalar(at: offset)?.scalar { return "'\(Character(scalar))'" }
        return "byte 0x\(hex(UInt32(byte), width: 2)) (not valid UTF-8)"
    }

    private mutating func expectWord(_ word: StaticString) throws(SyntaxError) {
        let start = index
        let count = word.utf8CodeUnitCount
        var matches = buffer.count - index >= count
        if matches {
            for i in 0..<count where buffer[index + i] != word.utf8Start[i] {
                matches = false
                break
            }
        }
        // "trueish" is not "true": the literal must end at a delimiter.
        if matches, index + count < buffer.count, isWordByte(buffer[index + count]) { matches = false }
        guard matches else {
            let found = wordAt(start)
            throw SyntaxError(offset: start, message: "unexpected word '\(found.isEmpty ? "?" : found)' where a value should be",
                              hint: "strings need double quotes; the literals are true, false and null")
        }
        index += count
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private mutating func enterContainer(at start: Int) throws(SyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw SyntaxError(offset: start, message: "nesting deeper than \(JSONParser.maximumDepth) levels",
                              hint: "scenes never need this depth; the file is probably damaged or generated by mistake")
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        let start = index
        try enterContainer(at: start)
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < buffer.count, buffer[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONValue(kind: .array(elements), offset: start)
        }
        pathStack.append(.index(0))
        while true {
            pathStack[pathStack.count - 1] = .index(elements.count)
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < buffer.count else { throw unclosed("array", openedAt: start) }
            switch buffer[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                pathStack.removeLast()
                return JSONValue(kind: .array(elements), offset: start)
            default:
                throw SyntaxError(offset: index, message: "expected ',' or ']' after an array element, found \(describeByte(at: index))",
                                  hint: buffer[index] == UInt8(ascii: "}") ? "this '}' closes an object, but an array is open" : "a comma may be missing")
            }
        }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        let start = index
        try enterContainer(at: start)
        index += 1
        var members: [JSONMember] = []
        // Small objects search linearly; large ones (a big sound bank) through a dictionary.
        var keyIndex: [String: Int] = [:]
        skipWhitespace()
        if index < buffer.count, buffer[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONValue(kind: .object(members), offset: start)
        }
        pathStack.append(.betweenMembers)
        while true {
            pathStack[pathStack.count - 1] = .betweenMembers
            skipWhitespace()
            guard index < buffer.count else { throw unclosed("object", openedAt: start) }
            guard buffer[index] == UInt8(ascii: "\"") else {
                if buffer[index] == UInt8(ascii: "}") {
                    throw SyntaxError(offset: index, message: "unexpected '}' after a comma", hint: "JSON allows no comma before '}'")
                }
                let hint = switch buffer[index] {
                case UInt8(ascii: "'"): "JSON strings use double quotes"
                case UInt8(ascii: "/"): "JSON has no comments"
                default: "object keys are strings: \"key\": value"
                }
                throw SyntaxError(offset: index, message: "expected a key in double quotes, found \(describeByte(at: index))", hint: hint)
            }
            let keyOffset = index
            let key = try parseString()
            pathStack[pathStack.count - 1] = .key(key)
            skipWhitespace()
            guard index < buffer.count else { throw unclosed("object", openedAt: start) }
            guard buffer[index] == UInt8(ascii: ":") else {
                throw SyntaxError(offset: index, message: "expected ':' after the key \"\(key)\", found \(describeByte(at: index))")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            let existing: Int?
            if members.count < 12 {
                existing = members.firstIndex { $0.key == key }
            } else {
                if keyIndex.isEmpty { for (i, member) in members.enumerated() { keyIndex[member.key] = i } }
                existing = keyIndex[key]
            }
            if let existing {
                let first = members[existing].keyOffset
                problems.append(Problem(offset: keyOffset, path: currentPath(),
                                        message: "duplicate key \"\(key)\" (first at \(SourceLines.locationText(of: first, in: buffer)))",
                                        hint: "each key may appear once in an object; remove or rename one"))
            } else {
                if !keyIndex.isEmpty { keyIndex[key] = members.count }
                members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
            }
            skipWhitespace()
            guard index < buffer.count else { throw unclosed("object", openedAt: start) }
            switch buffer[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                pathStack.removeLast()
                return JSONValue(kind: .object(members), offset: start)
            default:
                let hint: String
                switch buffer[index] {
                case UInt8(ascii: "\""): hint = "a comma is missing"
                case UInt8(ascii: "]"): hint = "this ']' closes an array, but an object is open"
                default: hint = "a comma may be missing"
                }
                throw SyntaxError(offset: index, message: "expected ',' or '}' after the value of \"\(key)\", found \(describeByte(at: index))",
                                  hint: hint)
            }
        }
    }

    private func unclosed(_ kind: String, openedAt start: Int) -> SyntaxError {
        SyntaxError(offset: buffer.count, message: "unexpected end of file: the \(kind) opened at \(SourceLines.locationText(of: start, in: buffer)) is not closed",
                    hint: "the file looks truncated")
    }

    private mutating func parseNumber() throws(SyntaxError) -> String {
        let start = index
        if buffer[index] == UInt8(ascii: "-") { index += 1 }
        func isDigit(_ i: Int) -> Bool { i < buffer.count && buffer[i] >= UInt8(ascii: "0") && buffer[i] <= UInt8(ascii: "9") }
        guard isDigit(index) else {
            throw SyntaxError(offset: index, message: "expected a digit after '-'",
                              hint: wordAt(index) == "Infinity" ? "numbers must be finite" : nil)
        }
        if buffer[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) {
                throw SyntaxError(offset: start, message: "a number cannot start with 0 followed by more digits",
                                  hint: "remove the leading zero")
            }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw SyntaxError(offset: index, message: "expected a digit after '.'", hint: "write 1.0 or 1, not 1.") }
            while isDigit(index) { index += 1 }
        }
        if index < buffer.count, buffer[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < buffer.count, buffer[index] == UInt8(ascii: "+") || buffer[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw SyntaxError(offset: index, message: "expected a digit in the exponent") }
            while isDigit(index) { index += 1 }
        }
        if index < buffer.count, isWordByte(buffer[index]) || buffer[index] == UInt8(ascii: ".") {
            throw SyntaxError(offset: index, message: "unexpected \(describeByte(at: index)) in a number")
        }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
    }

    /// Parses a string starting at its opening quote; validates UTF-8 and escapes.
    private mutating func parseString() throws(SyntaxError) -> String {
        let start = index
        index += 1
        let contentStart = index
        // Fast path: no escapes, so the bytes (once validated) are the string.
        var decoded: [UInt8]? = nil
        while true {
            guard index < buffer.count else {
                throw SyntaxError(offset: buffer.count,
                                  message: "unexpected end of file inside the string that starts at \(SourceLines.locationText(of: start, in: buffer))",
                                  hint: "a closing '\"' is missing")
            }
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") {
                let result: String
                if let decoded {
                    result = String(decoding: decoded, as: UTF8.self)
                } else {
                    result = String(decoding: UnsafeBufferPointer(rebasing: buffer[contentStart..<index]), as: UTF8.self)
                }
                index += 1
                return result
            }
            if byte == UInt8(ascii: "\\") {
                if decoded == nil { decoded = Array(buffer[contentStart..<index]) }
                try parseEscape(into: &decoded!)
                continue
            }
            if byte < 0x20 {
                let hint = byte == 0x0A ? "a closing '\"' may be missing; write \\n for a newline inside a string"
                    : byte == 0x09 ? "write \\t for a tab inside a string" : "escape it as \\u\(hex(UInt32(byte), width: 4))"
                throw SyntaxError(offset: index, message: "control character U+\(hex(UInt32(byte), width: 4)) inside a string", hint: hint)
            }
            if byte < 0x80 {
                decoded?.append(byte)
                index += 1
                continue
            }
            guard let (_, length) = decodeScalar(at: index) else {
                throw SyntaxError(offset: index, message: "invalid UTF-8 byte 0x\(hex(UInt32(byte), width: 2)) inside a string",
                                  hint: "save the file as UTF-8")
            }
            decoded?.append(contentsOf: buffer[index..<(index + length)])
            index += length
        }
    }

    private mutating func parseEscape(into decoded: inout [UInt8]) throws(SyntaxError) {
        let escapeStart = index
        index += 1
        guard index < buffer.count else {
            throw SyntaxError(offset: buffer.count, message: "unexpected end of file inside a string", hint: "the file looks truncated")
        }
        let byte = buffer[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var code = try parseHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(code) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < buffer.count, buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u") else {
                    throw SyntaxError(offset: escapeStart, message: "unpaired surrogate \\u\(hex(code, width: 4)) in a string",
                                      hint: "a character above U+FFFF is written as two escapes, e.g. \\ud83c\\udf0a")
                }
                let lowStart = index
                index += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw SyntaxError(offset: escapeStart, message: "unpaired surrogate \\u\(hex(code, width: 4)) in a string")
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw SyntaxError(offset: escapeStart, message: "unpaired surrogate \\u\(hex(code, width: 4)) in a string")
            }
            decoded.append(contentsOf: Array(String(Character(Unicode.Scalar(code)!)).utf8))
        default:
            let shown = byte < 0x80 && byte >= 0x20 ? "\\\(Character(Unicode.Scalar(byte)))" : "\\ followed by byte 0x\(hex(UInt32(byte), width: 2))"
            throw SyntaxError(offset: escapeStart, message: "'\(shown)' is not a JSON escape",
                              hint: "the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write \\\\ for a backslash")
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(SyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard index < buffer.count, let digit = hexValue(buffer[index]) else {
                throw SyntaxError(offset: escapeStart, message: "\\u must be followed by four hex digits")
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Decodes one multi-byte UTF-8 scalar, rejecting overlong forms, surrogates and values above U+10FFFF.
    private func decodeScalar(at offset: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        UTF8Validation.decodeScalar(in: buffer, at: offset)
    }
}

enum UTF8Validation {
    /// Decodes one UTF-8 scalar at `offset` (ASCII included), or nil when the bytes there are not valid UTF-8.
    static func decodeScalar(in buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        let lead = buffer[offset]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var value: UInt32
        var lowestNext: UInt8 = 0x80, highestNext: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0: length = 3; value = 0; lowestNext = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xED: length = 3; value = 0x0D; highestNext = 0x9F
        case 0xF0: length = 4; value = 0; lowestNext = 0x90
        case 0xF1...0xF3: length = 4; value = UInt32(lead & 0x07)
        case 0xF4: length = 4; value = 4; highestNext = 0x8F
        default: return nil
        }
        guard offset + length <= buffer.count else { return nil }
        for i in 1..<length {
            let byte = buffer[offset + i]
            let low: UInt8 = i == 1 ? lowestNext : 0x80
            let high: UInt8 = i == 1 ? highestNext : 0xBF
            guard byte >= low && byte <= high else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}

func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Paths in messages: `scenes[0].nodes[2].animations[0].duration`; keys that are not identifiers are quoted.
enum JSONPath {
    static func append(key: String, to path: inout String) {
        let isIdentifier = !key.isEmpty && key.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
        }
        if isIdentifier {
            path += path.isEmpty ? key : "." + key
        } else {
            path += "[\"" + key.replacingAll("\"", with: "\\\"") + "\"]"
        }
    }

    /// Very deep paths keep their first and last four steps: `scenes[0].nodes[0]...children[0].children[0]`.
    static func abbreviated(_ path: String) -> String {
        guard path.count > 120 else { return path }
        // Step boundaries: each '.' or '[' outside a quoted key.
        var boundaries: [String.Index] = []
        var inQuotes = false
        var previous: Character = " "
        for index in path.indices {
            let character = path[index]
            if character == "\"" && previous != "\\" { inQuotes.toggle() }
            if !inQuotes, character == "." || character == "[", index != path.startIndex { boundaries.append(index) }
            previous = character
        }
        guard boundaries.count > 8 else { return path }
        let head = path[..<boundaries[3]]
        var tail = path[boundaries[boundaries.count - 4]...]
        if tail.hasPrefix(".") { tail = tail.dropFirst() }
        return head + "..." + tail
    }

    static func appending(key: String, to path: String) -> String {
        var result = path
        append(key: key, to: &result)
        return result
    }
}

extension String {
    /// Foundation-free replacement, so the model module stays light.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
