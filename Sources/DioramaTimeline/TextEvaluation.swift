import DioramaDocument

// Text that changes, at one time: the text track's string, a counter's number written into `{value}`,
// and how many characters the typewriter shows. Pure and exact: numbers are rounded from their shortest
// decimal form, so a keyframe's value is written exactly as the file wrote it.

extension EvaluationContext {
    /// `shown` is the text track's current string, or the node's own text.
    func textSnapshot(_ text: TextContent, shown: LocalizedString, style: NodeStyle) -> TextSnapshot {
        var string = shown.resolved(language: language, fallback: fallback)
        if let value = style.textValue {
            string = string.replacing(NumberFormat.placeholder, with: text.numberFormat.string(for: value))
        }
        return TextSnapshot(text: string, position: text.position, alignment: text.alignment, font: text.font,
                            paint: style.fill ?? .solid(.white),
                            visibleCharacters: TextReveal.visibleCharacters(of: string, reveal: style.reveal))
    }
}

public enum TextReveal {
    /// A millionth of a character: what reveal × count may fall short of a whole number by rounding alone
    /// (0.29 × 100 is 28.999999999999996 in binary, 2 / 12 × 6 is 0.9999999999999999).
    static let tolerance = 1e-6

    /// How many leading characters (grapheme clusters, Swift's `Character`) a typewriter at `reveal` shows:
    /// ⌊reveal × count⌋, taken a millionth of a character early so that rounding never holds one back.
    /// nil when all show (reveal ≥ 1).
    public static func visibleCharacters(of text: String, reveal: Double) -> Int? {
        guard reveal < 1 else { return nil }
        guard reveal > 0 else { return 0 }
        let count = text.count
        return min(count, Int((reveal * Double(count) + tolerance).rounded(.down)))
    }
}

extension NumberFormat {
    /// The number as a counter writes it: `fractionLength` digits after a `.`, rounded by `rounding` from the
    /// number's shortest decimal form (Swift's `description`, which gives back a keyframe's literal), a `,`
    /// every three integer digits with automatic grouping, `-` before negative numbers, never `-0`.
    /// Example: `NumberFormat(fractionLength: 1).string(for: 1234.25)` is `"1,234.2"` (half to even).
    public func string(for value: Double) -> String {
        let number = value.isFinite ? value : 0
        let decimal = DecimalDigits(number)
        var digits = decimal.digits
        var point = decimal.point
        // Make the integer part at least one digit and every kept digit present.
        if point <= 0 {
            digits = [UInt8](repeating: 0, count: 1 - point) + digits
            point = 1
        }
        let keep = point + fractionLength
        if digits.count < keep { digits += [UInt8](repeating: 0, count: keep - digits.count) }
        var kept = Array(digits[..<keep])
        let dropped = digits[keep...]
        if let first = dropped.first, dropped.contains(where: { $0 != 0 }) {
            let restIsZero = dropped.dropFirst().allSatisfy { $0 == 0 }
            let aboveHalf = first > 5 || (first == 5 && !restIsZero)
            let half = first == 5 && restIsZero
            let roundsAway: Bool
            switch rounding {
            case .toNearestOrEven: roundsAway = aboveHalf || (half && (kept.last ?? 0) % 2 == 1)
            case .toNearestOrAwayFromZero: roundsAway = aboveHalf || half
            case .up: roundsAway = !decimal.negative
            case .down: roundsAway = decimal.negative
            case .towardZero: roundsAway = false
            case .awayFromZero: roundsAway = true
            }
            if roundsAway { Self.increment(&kept) }
        }
        let integerCount = kept.count - fractionLength
        var integerDigits = kept[..<integerCount].drop { $0 == 0 }.map { Character(String($0)) }
        if integerDigits.isEmpty { integerDigits = ["0"] }
        var text = ""
        for (index, digit) in integerDigits.enumerated() {
            if grouping == .automatic, index > 0, (integerDigits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        if fractionLength > 0 {
            text.append(".")
            for digit in kept[integerCount...] { text.append(Character(String(digit))) }
        }
        return decimal.negative && kept.contains(where: { $0 != 0 }) ? "-" + text : text
    }

    private static func increment(_ digits: inout [UInt8]) {
        var index = digits.count - 1
        while index >= 0 {
            if digits[index] < 9 {
                digits[index] += 1
                return
            }
            digits[index] = 0
            index -= 1
        }
        digits.insert(1, at: 0)
    }
}

/// A finite Double's shortest round-trip decimal form (Swift's `description`) as digits:
/// |value| = 0.d₁d₂…dₖ × 10^point.
struct DecimalDigits {
    var negative: Bool
    var digits: [UInt8]
    var point: Int

    init(_ value: Double) {
        let negative = value.sign == .minus
        let text = value.magnitude.description  // "12.5", "0.001", "1e-05", "1.25e+16"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(String(text[text.index(after: e)...].filter { $0 != "+" })) ?? 0
        }
        var digits: [UInt8] = []
        var point = 0
        var seenPoint = false
        for character in mantissa {
            if character == "." { seenPoint = true; continue }
            guard let digit = character.wholeNumberValue else { continue }
            digits.append(UInt8(digit))
            if !seenPoint { point += 1 }
        }
        // Leading zeros ("0.001") move the point; trailing zeros ("12.0") say nothing.
        while let first = digits.first, first == 0, digits.count > 1 {
            digits.removeFirst()
            point -= 1
        }
        while let last = digits.last, last == 0, digits.count > 1 { digits.removeLast() }
        if digits == [0] { point = 1 }
        self.negative = negative
        self.digits = digits
        self.point = point + exponent
    }
}
