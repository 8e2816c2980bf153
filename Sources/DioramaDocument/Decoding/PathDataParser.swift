/// Parses SVG path data (`M L H V Q T C S Z`, absolute and relative) into absolute commands.
///
/// Relative commands, H/V, and the smooth forms S/T are resolved here so the renderer sees only
/// move, line, quad, cubic and close. Arcs (A) are not supported and say so.
enum PathDataParser {
    struct Failure: Error, Equatable {
        /// Byte offset in the path string's UTF-8, so the message can point at the column.
        var utf8Index: Int
        var message: String
        var hint: String?
    }

    static func parse(_ text: String) -> Result<PathData, Failure> {
        var parser = Parser(bytes: Array(text.utf8))
        do {
            return .success(PathData(commands: try parser.parse()))
        } catch {
            return .failure(error)
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var commands: [PathData.Command] = []
        var current = Point(x: 0, y: 0)
        var subpathStart = Point(x: 0, y: 0)
        /// The previous segment's last control point, for S and T reflections.
        var lastCubicControl: Point?
        var lastQuadControl: Point?

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func skipSeparators() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C, UInt8(ascii: ",")].contains(bytes[index]) { index += 1 }
        }

        func atNumber() -> Bool {
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".")
        }

        mutating func number(after command: Character) throws(Failure) -> Double {
            skipSeparators()
            let start = index
            guard atNumber() else {
                if index >= bytes.count {
                    throw Failure(utf8Index: index, message: "path data ends where '\(command)' needs another number",
                                  hint: hint(for: command))
                }
                throw Failure(utf8Index: index, message: "expected a number for '\(command)', found '\(Character(Unicode.Scalar(bytes[index])))'",
                              hint: hint(for: command))
            }
            if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            var digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1; digits += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1; digits += 1 }
            }
            guard digits > 0 else {
                throw Failure(utf8Index: start, message: "expected a number for '\(command)'", hint: hint(for: command))
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                let exponentStart = index
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
                var exponentDigits = 0
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1; exponentDigits += 1 }
                if exponentDigits == 0 { index = exponentStart }
            }
            let literal = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(literal), value.isFinite, abs(value) <= DocumentLimits.maximumCoordinate else {
                throw Failure(utf8Index: start, message: "the number \(literal) in the path data is too large",
                              hint: "coordinates are at most 1,000,000 points")
            }
            return value
        }

        func hint(for command: Character) -> String {
            switch command.uppercased() {
            case "M", "L", "T": return "'\(command)' takes x y"
            case "H": return "'\(command)' takes x"
            case "V": return "'\(command)' takes y"
            case "Q", "S": return "'\(command)' takes x1 y1 x y"
            case "C": return "'\(command)' takes x1 y1 x2 y2 x y"
            default: return "see the SVG path syntax"
            }
        }

        mutating func point(after command: Character, relative: Bool) throws(Failure) -> Point {
            let x = try number(after: command)
            let y = try number(after: command)
            return relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
        }

        mutating func parse() throws(Failure) -> [PathData.Command] {
            skipSeparators()
            guard index < bytes.count else {
                throw Failure(utf8Index: 0, message: "the path data is empty", hint: "start with a move: \"M 10 10 L 100 10\"")
            }
            var first = true
            var command: Character = "M"
            while true {
                skipSeparators()
                if index >= bytes.count { break }
                let byte = bytes[index]
                let letterStart = index
                if atNumber() {
                    // Implicit repetition; after a move, further pairs are lines.
                    guard !first, command.uppercased() != "Z" else {
                        throw Failure(utf8Index: index, message: first ? "path data must start with a command letter" : "a number cannot follow 'Z'",
                                      hint: first ? "start with a move: \"M 10 10\"" : "start a new subpath with M")
                    }
                    if command == "M" { command = "L" } else if command == "m" { command = "l" }
                } else {
                    let letter = Character(Unicode.Scalar(byte))
                    index += 1
                    guard "MmLlHhVvQqTtCcSsZz".contains(letter) else {
                        if "Aa".contains(letter) {
                            throw Failure(utf8Index: letterStart, message: "arcs ('\(letter)') are not supported in path data",
                                          hint: "approximate the arc with C (cubic) curves")
                        }
                        let shown = byte < 0x80 ? "'\(letter)'" : "a non-ASCII character"
                        throw Failure(utf8Index: letterStart, message: "unknown path command \(shown)",
                                      hint: "the commands are M, L, H, V, Q, T, C, S and Z (lower case for relative)")
                    }
                    if first, letter != "M", letter != "m" {
                        throw Failure(utf8Index: letterStart, message: "path data must start with a move ('M'), not '\(letter)'",
                                      hint: "start with \"M x y\"")
                    }
                    command = letter
                }
                first = false
                try apply(command)
                if commands.count > 1_000_000 {
                    throw Failure(utf8Index: index, message: "the path has more than 1,000,000 segments")
                }
            }
            return commands
        }

        mutating func apply(_ command: Character) throws(Failure) {
            let relative = command.isLowercase
            var cubicControl: Point?
            var quadControl: Point?
            switch command.uppercased() {
            case "M":
                current = try point(after: command, relative: relative)
                subpathStart = current
                commands.append(.move(current))
            case "L":
                current = try point(after: command, relative: relative)
                commands.append(.line(current))
            case "H":
                let x = try number(after: command)
                current = Point(x: relative ? current.x + x : x, y: current.y)
                commands.append(.line(current))
            case "V":
                let y = try number(after: command)
                current = Point(x: current.x, y: relative ? current.y + y : y)
                commands.append(.line(current))
            case "Q":
                let control = try point(after: command, relative: relative)
                let end = try point(after: command, relative: relative)
                commands.append(.quad(control: control, to: end))
                current = end
                quadControl = control
            case "T":
                let control = lastQuadControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let end = try point(after: command, relative: relative)
                commands.append(.quad(control: control, to: end))
                current = end
                quadControl = control
            case "C":
                let control1 = try point(after: command, relative: relative)
                let control2 = try point(after: command, relative: relative)
                let end = try point(after: command, relative: relative)
                commands.append(.cubic(control1: control1, control2: control2, to: end))
                current = end
                cubicControl = control2
            case "S":
                let control1 = lastCubicControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let control2 = try point(after: command, relative: relative)
                let end = try point(after: command, relative: relative)
                commands.append(.cubic(control1: control1, control2: control2, to: end))
                current = end
                cubicControl = control2
            default:  // Z
                commands.append(.close)
                current = subpathStart
            }
            lastCubicControl = cubicControl
            lastQuadControl = quadControl
        }
    }
}
