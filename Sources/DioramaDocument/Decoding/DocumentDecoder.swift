/// Turns the located JSON tree into a `Document`, collecting every problem instead of stopping at the first.
///
/// Each reader reports what is wrong where it is found and returns a stand-in value, so decoding can go
/// on and find the next problem; the loader throws if any error was reported. Checks that span the
/// document (references from cues to nodes, animations and sounds) run after the parts they refer to.
final class DocumentDecoder {
    let bytes: [UInt8]
    let file: String
    let baseDirectory: String
    /// Unpacks dotLottie archives for lottie nodes; nil refuses them.
    let archives: ArchiveReader?
    private(set) var problems: [Problem] = []
    var mediaReferences: [(reference: MediaReference, offset: Int)] = []
    /// Filled as the top level is read; plain strings become variants of the fallback language.
    var languages = Languages(defaultLanguage: "en", fallback: "en", available: ["en"])
    var nodeCount = 0
    var reportedNodeLimit = false
    /// Sound names used by cues and ambience, to warn about unused ones.
    var usedSounds = Set<String>()
    /// The pitches other than 0 that cues play each sound at, by sound name (DocumentDecoder+CueSound.swift).
    var cuePitches: [String: [Double]] = [:]
    /// The document's components and the instances being expanded (DocumentDecoder+Components.swift).
    var components = ComponentState()
    /// The current scene's decoded animations with where their `after` is written, for the scene's timing checks.
    var sceneAnimations: [TimedAnimation] = []
    /// The scene's emitters decoded so far, where their particles are written (see `checkParticles`).
    var sceneEmitters: [(emitter: Emitter, offset: Int, path: String)] = []
    /// Square points of the canvas, once read.
    var canvasArea: Double?

    init(bytes: [UInt8], file: String, baseDirectory: String, archives: ArchiveReader? = nil) {
        self.bytes = bytes
        self.file = file
        self.baseDirectory = baseDirectory
        self.archives = archives
    }

    // MARK: - Reporting

    func error(_ offset: Int, _ path: String, _ message: String, hint: String? = nil, notes: [String] = []) {
        if let problem = located(Problem(offset: offset, path: path, message: message, hint: hint, notes: notes)) {
            problems.append(problem)
        }
        errorCount += 1
    }

    func warning(_ offset: Int, _ path: String, _ message: String, hint: String? = nil) {
        if let problem = located(Problem(offset: offset, path: path, message: message, hint: hint, severity: .warning)) {
            problems.append(problem)
        }
    }

    /// Warnings worth giving only about an otherwise sound file (an unused sound, a shape that draws nothing):
    /// next to errors they are noise, since the errors often cause them.
    private(set) var advice: [Problem] = []

    func advice(_ offset: Int, _ path: String, _ message: String, hint: String? = nil) {
        if let problem = located(Problem(offset: offset, path: path, message: message, hint: hint, severity: .warning)) {
            advice.append(problem)
        }
    }

    /// Adds the advice to the problems when there is no error.
    func finish() {
        if errorCount == 0 { problems += advice }
    }

    /// Errors reported so far (decoding compares it before and after a part to know whether the part failed).
    private(set) var errorCount = 0

    /// The "one line:column" text of an offset, for messages that mention a second place.
    func locationText(_ offset: Int) -> String {
        bytes.withUnsafeBufferPointer { SourceLines.locationText(of: offset, in: $0) }
    }

    // MARK: - Objects and keys

    /// An object's members by key, with its path, for the typed readers below.
    struct Fields {
        let value: JSONValue
        let path: String
        let members: [JSONMember]
        /// Keys already reported as unknown, so a typo ("widht") is not also reported as a missing key ("width").
        var unknownKeys: [String] = []

        subscript(key: String) -> JSONMember? {
            members.first { $0.key == key }
        }

        func path(_ key: String) -> String {
            JSONPath.appending(key: key, to: path)
        }

        func has(_ key: String) -> Bool { self[key] != nil }
    }

    /// Reads an object, reporting a wrong type and every key not in `keys`.
    /// `what` names the object in messages ("a rect node", "the canvas").
    /// `otherKeys` are keys that exist elsewhere (other node types): they get "does not apply" instead of "unknown".
    func object(_ value: JSONValue, path: String, what: String, keys: [String],
                otherKeys: [(key: String, owner: String)] = []) -> Fields? {
        guard case .object(let members) = value.kind else {
            typeMismatch(value, path: path, expected: "an object", what: what)
            return nil
        }
        var unknownKeys: [String] = []
        for member in members where !keys.contains(member.key) {
            unknownKeys.append(member.key)
            let memberPath = JSONPath.appending(key: member.key, to: path)
            // The singular of a key this object has ("animation" on a circle) is a typo for it, whoever else has it.
            if !keys.contains(member.key + "s"), let owners = Optional(otherKeys.filter { $0.key == member.key }.map(\.owner)), !owners.isEmpty {
                error(member.keyOffset, memberPath, "\"\(member.key)\" does not apply to \(what)",
                      hint: "\"\(member.key)\" is a key of \(Self.list(owners, conjunction: "and"))")
            } else {
                error(member.keyOffset, memberPath, "unknown key \"\(member.key)\" in \(what)",
                      hint: Self.swiftUIKeyHint(member.key, keys: keys) ?? Self.suggestion(for: member.key, among: keys) ?? "the keys of \(what) are \(Self.list(keys.map { "\"\($0)\"" }, conjunction: "and"))")
            }
        }
        return Fields(value: value, path: path, members: members, unknownKeys: unknownKeys)
    }

    func typeMismatch(_ value: JSONValue, path: String, expected: String, what: String? = nil, hint: String? = nil) {
        let subject = what.map { "\($0) must be" } ?? "\"\(Self.lastKey(of: path))\" must be"
        components.isReportingTypeMismatch = true
        defer { components.isReportingTypeMismatch = false }
        error(value.offset, path, "\(subject) \(expected), not \(value.typeDescription)", hint: hint ?? parameterHint(value))
    }

    /// Reports a missing required key at the object's opening brace.
    func missing(_ key: String, in fields: Fields, what: String, hint: String? = nil) {
        if fields.unknownKeys.contains(where: { Self.closest(to: $0, among: [key]) != nil || Self.swiftUIKeyHint($0, keys: [key]) != nil }) { return }
        error(fields.value.offset, fields.path, "missing required key \"\(key)\" in \(what)", hint: hint)
    }

    static func lastKey(of path: String) -> String {
        var end = path.endIndex
        if path.hasSuffix("]") {
            // name[3] -> name; ["odd key"] -> odd key
            if let open = path.lastIndex(of: "[") {
                let inside = path[path.index(after: open)..<path.index(before: path.endIndex)]
                if inside.hasPrefix("\"") { return String(inside.dropFirst().dropLast()) }
                end = open
            }
        }
        let head = path[..<end]
        if let dot = head.lastIndex(of: ".") { return String(head[head.index(after: dot)...]) }
        return String(head)
    }

    static func list(_ items: [String], conjunction: String) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        case 2: return "\(items[0]) \(conjunction) \(items[1])"
        default: return items.dropLast().joined(separator: ", ") + ", \(conjunction) " + items.last!
        }
    }

    /// "did you mean "width"?" when one candidate is nearer than the others and close enough to be a typo (among
    /// equally near ones, none is guessed: the caller's list of names says what there is).
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let nearest = Suggestion.nearest(to: word, among: candidates)
        return nearest.count == 1 ? Suggestion.didYouMean(nearest[0]) : nil
    }

    static func closest(to word: String, among candidates: [String]) -> String? {
        Suggestion.closest(to: word, among: candidates)
    }

    // MARK: - Scalars

    /// A range of accepted numbers, with the words to explain it.
    struct NumberRange {
        var minimum: Double?
        var minimumIsExclusive = false
        var maximum: Double?

        static let any = NumberRange(minimum: -DocumentLimits.maximumCoordinate, maximum: DocumentLimits.maximumCoordinate)
        static let nonNegative = NumberRange(minimum: 0, maximum: DocumentLimits.maximumCoordinate)
        static let positive = NumberRange(minimum: 0, minimumIsExclusive: true, maximum: DocumentLimits.maximumCoordinate)
        static let unit = NumberRange(minimum: 0, maximum: 1)
        static func closed(_ low: Double, _ high: Double) -> NumberRange { NumberRange(minimum: low, maximum: high) }

        func contains(_ value: Double) -> Bool {
            if let minimum, minimumIsExclusive ? value <= minimum : value < minimum { return false }
            if let maximum, value > maximum { return false }
            return true
        }

        var requirement: String {
            switch (minimum, maximum) {
            case (let low?, let high?) where minimumIsExclusive: "greater than \(Self.format(low)) and at most \(Self.format(high))"
            case (let low?, let high?): "between \(Self.format(low)) and \(Self.format(high))"
            case (let low?, nil): minimumIsExclusive ? "greater than \(Self.format(low))" : "at least \(Self.format(low))"
            case (nil, let high?): "at most \(Self.format(high))"
            case (nil, nil): "a number"
            }
        }

        static func format(_ value: Double) -> String {
            if value == value.rounded(), abs(value) < 1e15 {
                let integer = Int(value)
                return abs(integer) >= 10_000 ? grouped(integer) : "\(integer)"
            }
            return "\(value)"
        }

        static func grouped(_ value: Int) -> String {
            let digits = String(value.magnitude)
            var result = ""
            for (i, character) in digits.enumerated() {
                if i > 0, (digits.count - i) % 3 == 0 { result += "," }
                result.append(character)
            }
            return value < 0 ? "-" + result : result
        }
    }

    /// A number value; nil (after reporting) when it is not a number, not finite as a Double, or out of range.
    /// `name` replaces the key in messages where the path alone does not say what the number is.
    func number(_ value: JSONValue, path: @autoclosure () -> String, range: NumberRange, unit: String? = nil, name: String? = nil,
                hint: String? = nil) -> Double? {
        guard case .number(let literal) = value.kind else {
            typeMismatch(value, path: path(), expected: unit.map { "a number (\($0))" } ?? "a number")
            return nil
        }
        guard let double = Double(literal), double.isFinite else {
            error(value.offset, path(), "the number \(Self.shortened(literal)) is too large", hint: "it must be \(range.requirement)")
            return nil
        }
        guard range.contains(double) else {
            error(value.offset, path(), "\(name ?? "\"\(Self.lastKey(of: path()))\"") must be \(range.requirement), not \(Self.shortened(literal))",
                  hint: hint)
            return nil
        }
        return double
    }

    static func shortened(_ literal: String) -> String {
        literal.count > 24 ? String(literal.prefix(20)) + "..." : literal
    }

    func number(_ fields: Fields, _ key: String, default defaultValue: Double?, range: NumberRange, what: String,
                unit: String? = nil) -> Double? {
        guard let member = fields[key] else {
            if defaultValue == nil { missing(key, in: fields, what: what) }
            return defaultValue
        }
        return number(member.value, path: fields.path(key), range: range, unit: unit)
    }

    func integer(_ value: JSONValue, path: @autoclosure () -> String, range: ClosedRange<Int>) -> Int? {
        guard case .number(let literal) = value.kind else {
            typeMismatch(value, path: path(), expected: "a whole number")
            return nil
        }
        guard let integer = Self.integerValue(literal) else {
            if let double = Double(literal), double.isFinite, abs(double) < 1e18 {
                error(value.offset, path(), "\"\(Self.lastKey(of: path()))\" must be a whole number, not \(Self.shortened(literal))")
            } else {
                error(value.offset, path(), "the number \(Self.shortened(literal)) is too large",
                      hint: "it must be between \(NumberRange.format(Double(range.lowerBound))) and \(NumberRange.format(Double(range.upperBound)))")
            }
            return nil
        }
        guard range.contains(integer) else {
            error(value.offset, path(), "\"\(Self.lastKey(of: path()))\" must be between \(NumberRange.format(Double(range.lowerBound))) and \(NumberRange.format(Double(range.upperBound))), not \(Self.shortened(literal))")
            return nil
        }
        return integer
    }

    /// The integer a literal names exactly (`3`, `3.0`, `3e2`), or nil.
    static func integerValue(_ literal: String) -> Int? {
        if let integer = Int(literal) { return integer }
        guard let rational = Rational(decimalLiteral: literal), rational.denominator == 1,
              rational.numerator.magnitude <= UInt128(Int.max) else { return nil }
        return Int(rational.numerator)
    }

    func string(_ value: JSONValue, path: @autoclosure () -> String, what: String? = nil) -> String? {
        guard case .string(let text) = value.kind else {
            typeMismatch(value, path: path(), expected: "a string", what: what)
            return nil
        }
        return text
    }

    func string(_ fields: Fields, _ key: String, what: String, required: Bool, allowEmpty: Bool = false) -> String? {
        guard let member = fields[key] else {
            if required { missing(key, in: fields, what: what) }
            return nil
        }
        guard let text = string(member.value, path: fields.path(key)) else { return nil }
        if !allowEmpty, text.isEmpty {
            error(member.value.offset, fields.path(key), "\"\(key)\" must not be empty")
            return nil
        }
        return text
    }

    func bool(_ fields: Fields, _ key: String, default defaultValue: Bool) -> Bool {
        guard let member = fields[key] else { return defaultValue }
        guard case .bool(let flag) = member.value.kind else {
            typeMismatch(member.value, path: fields.path(key), expected: "true or false",
                         hint: { if case .string(let s) = member.value.kind, s == "true" || s == "false" { return "write \(s) without quotes" }; return nil }())
            return defaultValue
        }
        return flag
    }

    /// A string from a fixed set, with "did you mean" for typos.
    func choice<T>(_ value: JSONValue, path: @autoclosure () -> String, options: [(name: String, value: T)], what: String) -> T? {
        guard case .string(let text) = value.kind else {
            typeMismatch(value, path: path(), expected: "one of \(Self.list(options.map { "\"\($0.name)\"" }, conjunction: "or"))")
            return nil
        }
        if let match = options.first(where: { $0.name == text }) { return match.value }
        let names = options.map(\.name)
        error(value.offset, path(), "unknown \(what) \"\(text)\"",
              hint: Self.suggestion(for: text, among: names) ?? "use one of \(Self.list(names.map { "\"\($0)\"" }, conjunction: "or"))")
        return nil
    }

    func array(_ value: JSONValue, path: String, what: String? = nil, hint: String? = nil) -> [JSONValue]? {
        guard case .array(let elements) = value.kind else {
            typeMismatch(value, path: path, expected: "an array", what: what, hint: hint)
            return nil
        }
        return elements
    }

    // MARK: - Exact times

    /// A timing literal as an exact rational: at most 6 decimal places, within `range`.
    func time(_ value: JSONValue, path: @autoclosure () -> String, minimum: Rational?, minimumIsExclusive: Bool = false,
              maximum: Rational? = DocumentLimits.maximumSceneDuration, unit: String? = "seconds") -> Rational? {
        guard case .number(let literal) = value.kind else {
            typeMismatch(value, path: path(), expected: unit.map { "a number of \($0)" } ?? "a number",
                         hint: { if case .string(let text) = value.kind, Double(text) != nil { return "write the number without quotes" }; return nil }())
            return nil
        }
        let parts = DecimalParts(literal)
        let places = parts.decimalPlaces
        if places > DocumentLimits.maximumTimingDecimalPlaces {
            error(value.offset, path(), "\(Self.shortened(literal)) has \(places) decimal places; timing values take at most \(DocumentLimits.maximumTimingDecimalPlaces) (microseconds)",
                  hint: "round it to 6 decimal places")
            return nil
        }
        guard let double = Double(literal), double.isFinite, abs(double) <= 1e15, let exact = parts.rational else {
            error(value.offset, path(), "the number \(Self.shortened(literal)) is too large",
                  hint: "times are at most \(Self.seconds(maximum ?? DocumentLimits.maximumSceneDuration)) s")
            return nil
        }
        var requirement: String?
        if let minimum, minimumIsExclusive ? exact <= minimum : exact < minimum {
            requirement = minimumIsExclusive ? "greater than \(Self.seconds(minimum))" : "at least \(Self.seconds(minimum))"
        }
        if let maximum, exact > maximum { requirement = "at most \(Self.seconds(maximum))" }
        if let requirement {
            let range = [minimum.map { (minimumIsExclusive ? "greater than " : "at least ") + Self.seconds($0) },
                         maximum.map { "at most " + Self.seconds($0) }].compactMap { $0 }
            error(value.offset, path(), "\"\(Self.lastKey(of: path()))\" must be \(Self.list(range, conjunction: "and"))\(unit.map { " " + $0 } ?? ""), not \(Self.shortened(literal))",
                  hint: requirement.hasPrefix("at most") && maximum == DocumentLimits.maximumSceneDuration ? "86,400 s is one day, the longest a scene may last" : nil)
            return nil
        }
        return exact
    }

    /// The parts of a JSON number literal (already checked by the parser): digits without the point,
    /// digits after the point, and the exponent (clamped: absurd exponents fail the magnitude checks).
    struct DecimalParts {
        var negative = false
        /// nil when the digits overflow 128 bits.
        var mantissa: Int128? = 0
        var fractionDigits = 0
        var exponent = 0

        init(_ literal: String) {
            var inFraction = false
            var exponentSign = 1
            var exponentValue = 0
            var inExponent = false
            for byte in literal.utf8 {
                switch byte {
                case UInt8(ascii: "-"):
                    if inExponent { exponentSign = -1 } else { negative = true }
                case UInt8(ascii: "+"):
                    break
                case UInt8(ascii: "."):
                    inFraction = true
                case UInt8(ascii: "e"), UInt8(ascii: "E"):
                    inExponent = true
                default:
                    let digit = Int(byte) - 48
                    if inExponent {
                        exponentValue = min(exponentValue * 10 + digit, 10_000_000)
                    } else {
                        if inFraction { fractionDigits += 1 }
                        if let current = mantissa {
                            let (times10, overflow1) = current.multipliedReportingOverflow(by: 10)
                            let (sum, overflow2) = times10.addingReportingOverflow(Int128(digit))
                            mantissa = overflow1 || overflow2 ? nil : sum
                        }
                    }
                }
            }
            exponent = exponentSign * exponentValue
        }

        /// Digits after the point minus the exponent: `1.25` has 2, `1.5e-3` has 4, `12e3` has 0.
        var decimalPlaces: Int { max(0, fractionDigits - exponent) }

        /// The exact value, or nil when it does not fit a rational of 128-bit parts.
        var rational: Rational? {
            guard let mantissa else { return nil }
            let power = exponent - fractionDigits
            guard abs(power) <= 30 else { return mantissa == 0 ? .zero : nil }
            var scale: Int128 = 1
            for _ in 0..<abs(power) { scale *= 10 }
            let signed = negative ? -mantissa : mantissa
            if power >= 0 {
                let (product, overflow) = signed.multipliedReportingOverflow(by: scale)
                return overflow ? nil : Rational(product, 1)
            }
            return Rational(signed, scale)
        }
    }

    static func decimalPlaces(of literal: String) -> Int {
        DecimalParts(literal).decimalPlaces
    }

    /// Seconds as a plain decimal ("5.5", "86400", "1/3" only for non-decimal values).
    static func seconds(_ value: Rational) -> String {
        value.decimalDescription
    }

    // MARK: - Text inside strings

    /// The byte offset of UTF-8 byte `index` of the decoded string whose opening quote is at `stringOffset`,
    /// so a problem inside a colour or path string gets its own column.
    func offset(inStringAt stringOffset: Int, utf8Index target: Int) -> Int {
        var raw = stringOffset + 1
        var decoded = 0
        while decoded < target, raw < bytes.count, bytes[raw] != UInt8(ascii: "\"") {
            if bytes[raw] == UInt8(ascii: "\\"), raw + 1 < bytes.count {
                if bytes[raw + 1] == UInt8(ascii: "u") {
                    let code = UInt32(String(decoding: bytes[(raw + 2)..<min(raw + 6, bytes.count)], as: UTF8.self), radix: 16) ?? 0
                    if (0xD800...0xDBFF).contains(code) {
                        raw += 12
                        decoded += 4
                    } else {
                        raw += 6
                        decoded += code < 0x80 ? 1 : code < 0x800 ? 2 : 3
                    }
                } else {
                    raw += 2
                    decoded += 1
                }
            } else {
                raw += 1
                decoded += 1
            }
        }
        return raw
    }
}

extension DocumentDecoder {
    /// An optional key read with `read(value, path)`: `defaultValue` when absent, nil after a reported problem.
    func optional<T>(_ fields: Fields, _ key: String, default defaultValue: T, _ read: (JSONValue, String) -> T?) -> T? {
        guard let member = fields[key] else { return defaultValue }
        return read(member.value, fields.path(key))
    }
}
