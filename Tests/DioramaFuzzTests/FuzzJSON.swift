/// A JSON tree for structure-aware mutation: numbers keep their literal text, objects their order and any
/// duplicate keys, so a seed written back without mutation is the same document.
indirect enum FuzzJSON {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([FuzzJSON])
    case object([(key: String, value: FuzzJSON)])

    /// One step from a value to a child: an array's element or an object's member, by position.
    enum Step { case element(Int), member(Int) }

    /// Parses well-formed JSON (seeds only); nil for anything else, which the fuzzer then mutates as bytes.
    static func parse(_ bytes: [UInt8]) -> FuzzJSON? {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.position == bytes.count ? value : nil
    }

    var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .number(let literal): out += Array(literal.utf8)
        case .string(let text): Self.writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out += [UInt8(ascii: ","), UInt8(ascii: " ")] }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out += [UInt8(ascii: ","), UInt8(ascii: "\n")] }
                Self.writeString(member.key, into: &out)
                out += [UInt8(ascii: ":"), UInt8(ascii: " ")]
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                out += Array(("\\u00" + (hex.count == 1 ? "0" : "") + hex).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Every value's path from the root (the root's is empty), in document order.
    var paths: [[Step]] {
        var found: [[Step]] = []
        var prefix: [Step] = []
        collectPaths(prefix: &prefix, into: &found)
        return found
    }

    private func collectPaths(prefix: inout [Step], into found: inout [[Step]]) {
        found.append(prefix)
        switch self {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                prefix.append(.element(index))
                element.collectPaths(prefix: &prefix, into: &found)
                prefix.removeLast()
            }
        case .object(let members):
            for (index, member) in members.enumerated() {
                prefix.append(.member(index))
                member.value.collectPaths(prefix: &prefix, into: &found)
                prefix.removeLast()
            }
        default: break
        }
    }

    subscript(path: ArraySlice<Step>) -> FuzzJSON {
        get {
            guard let step = path.first else { return self }
            switch (self, step) {
            case (.array(let elements), .element(let index)): return elements[index][path.dropFirst()]
            case (.object(let members), .member(let index)): return members[index].value[path.dropFirst()]
            default: return self
            }
        }
        set {
            guard let step = path.first else {
                self = newValue
                return
            }
            switch (self, step) {
            case (.array(var elements), .element(let index)):
                elements[index][path.dropFirst()] = newValue
                self = .array(elements)
            case (.object(var members), .member(let index)):
                members[index].value[path.dropFirst()] = newValue
                self = .object(members)
            default: break
            }
        }
    }

    /// Every string and key in the tree: plausible values (ids, sound names, curve names) to put in wrong places.
    func collectStrings(into pool: inout Set<String>) {
        switch self {
        case .string(let text): if text.utf8.count <= 64 { pool.insert(text) }
        case .array(let elements): for element in elements { element.collectStrings(into: &pool) }
        case .object(let members):
            for member in members {
                pool.insert(member.key)
                member.value.collectStrings(into: &pool)
            }
        default: break
        }
    }

    /// Every number literal in the tree.
    func collectNumbers(into pool: inout Set<String>) {
        switch self {
        case .number(let literal): pool.insert(literal)
        case .array(let elements): for element in elements { element.collectNumbers(into: &pool) }
        case .object(let members): for member in members { member.value.collectNumbers(into: &pool) }
        default: break
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        mutating func value(depth: Int) -> FuzzJSON? {
            guard depth < 512 else { return nil }
            skipSpace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "\""): return string().map(FuzzJSON.string)
            case UInt8(ascii: "["):
                position += 1
                var elements: [FuzzJSON] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                while true {
                    guard let element = value(depth: depth + 1) else { return nil }
                    elements.append(element)
                    skipSpace()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                    return nil
                }
            case UInt8(ascii: "{"):
                position += 1
                var members: [(key: String, value: FuzzJSON)] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                    position += 1
                    guard let member = value(depth: depth + 1) else { return nil }
                    members.append((key, member))
                    skipSpace()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                    return nil
                }
            default:
                let start = position
                while position < bytes.count, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
                guard position > start else { return nil }
                return .number(String(decoding: bytes[start..<position], as: UTF8.self))
            }
        }

        mutating func literal(_ word: String, _ value: FuzzJSON) -> FuzzJSON? {
            let word = Array(word.utf8)
            guard bytes.count - position >= word.count, Array(bytes[position..<(position + word.count)]) == word else { return nil }
            position += word.count
            return value
        }

        /// A string at `position`; escapes are decoded (so it is written back escaped as needed).
        mutating func string() -> String? {
            position += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\"") {
                    flush()
                    return String(scalars)
                }
                guard byte == UInt8(ascii: "\\") else {
                    raw.append(byte)
                    continue
                }
                guard position < bytes.count else { return nil }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "n"): raw.append(0x0A)
                case UInt8(ascii: "t"): raw.append(0x09)
                case UInt8(ascii: "r"): raw.append(0x0D)
                case UInt8(ascii: "b"): raw.append(0x08)
                case UInt8(ascii: "f"): raw.append(0x0C)
                case UInt8(ascii: "u"):
                    guard bytes.count - position >= 4,
                          let code = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16) else { return nil }
                    position += 4
                    flush()
                    // A lone surrogate becomes U+FFFD here; the byte mutations still make raw ones.
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: raw.append(escape)
                }
            }
            return nil
        }
    }
}
