/// An exact rational number of seconds (or any other unit), so that cue times computed from
/// decimal literals such as `0.2 + 57 * 0.9` land on the same sample index after an hour as after a second.
///
/// Numerator and denominator are 128-bit; the value is always reduced and the denominator positive.
public struct Rational: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let numerator: Int128
    public let denominator: Int128

    public init(_ numerator: Int128, _ denominator: Int128 = 1) {
        precondition(denominator != 0, "Rational with a zero denominator")
        let sign: Int128 = denominator < 0 ? -1 : 1
        let divisor = Rational.gcd(numerator.magnitude, denominator.magnitude)
        self.numerator = sign * numerator / Int128(divisor)
        self.denominator = sign * denominator / Int128(divisor)
    }

    public init(_ integer: Int) {
        self.init(Int128(integer), 1)
    }

    public static let zero = Rational(0, 1)
    public static let one = Rational(1, 1)

    /// Parses a JSON number literal exactly (`"0.9"`, `"-3"`, `"1.5e-3"`); nil when it has more
    /// precision than a rational of 128-bit parts can hold.
    public init?(decimalLiteral text: some StringProtocol) {
        var mantissa: Int128 = 0
        var scale = 0
        var exponent = 0
        var negative = false
        var seenDigit = false
        var inFraction = false
        var index = text.startIndex
        if index < text.endIndex, text[index] == "-" {
            negative = true
            index = text.index(after: index)
        }
        while index < text.endIndex {
            let character = text[index]
            if let digit = character.wholeNumberValue, character.isASCII {
                let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int128(digit))
                if overflow1 || overflow2 { return nil }
                mantissa = sum
                if inFraction { scale += 1 }
                seenDigit = true
            } else if character == ".", !inFraction {
                inFraction = true
            } else if character == "e" || character == "E" {
                guard let value = Int(text[text.index(after: index)...]) else { return nil }
                exponent = value
                break
            } else {
                return nil
            }
            index = text.index(after: index)
        }
        guard seenDigit else { return nil }
        let power = exponent - scale
        guard abs(power) <= 30 else { return nil }
        var value = Rational(negative ? -mantissa : mantissa, 1)
        let factor = Rational.powerOfTen(abs(power))
        value = power >= 0 ? value * factor : value / factor
        self = value
    }

    /// The nearest rational with a denominator of at most 10^9, for values computed in floating point.
    public init(approximating value: Double) {
        let scale: Int128 = 1_000_000_000
        self.init(Int128((value * Double(scale)).rounded()), scale)
    }

    public var doubleValue: Double {
        Double(numerator) / Double(denominator)
    }

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }

    /// The largest integer not above the value.
    public var floor: Int128 {
        let quotient = numerator / denominator
        return (numerator % denominator != 0 && numerator < 0) ? quotient - 1 : quotient
    }

    /// The smallest integer not below the value.
    public var ceiling: Int128 {
        let quotient = numerator / denominator
        return (numerator % denominator != 0 && numerator > 0) ? quotient + 1 : quotient
    }

    public static func + (lhs: Rational, rhs: Rational) -> Rational {
        Rational(lhs.numerator * rhs.denominator + rhs.numerator * lhs.denominator, lhs.denominator * rhs.denominator)
    }

    public static func - (lhs: Rational, rhs: Rational) -> Rational {
        Rational(lhs.numerator * rhs.denominator - rhs.numerator * lhs.denominator, lhs.denominator * rhs.denominator)
    }

    public static func * (lhs: Rational, rhs: Rational) -> Rational {
        Rational(lhs.numerator * rhs.numerator, lhs.denominator * rhs.denominator)
    }

    public static func / (lhs: Rational, rhs: Rational) -> Rational {
        Rational(lhs.numerator * rhs.denominator, lhs.denominator * rhs.numerator)
    }

    public static prefix func - (value: Rational) -> Rational {
        Rational(-value.numerator, value.denominator)
    }

    public static func += (lhs: inout Rational, rhs: Rational) { lhs = lhs + rhs }
    public static func -= (lhs: inout Rational, rhs: Rational) { lhs = lhs - rhs }

    public static func < (lhs: Rational, rhs: Rational) -> Bool {
        lhs.numerator * rhs.denominator < rhs.numerator * lhs.denominator
    }

    private static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    private static func powerOfTen(_ exponent: Int) -> Rational {
        var result: Int128 = 1
        for _ in 0..<exponent { result *= 10 }
        return Rational(result, 1)
    }
}

extension Rational {
    /// The value as a plain decimal when it has one (`5.5`, `0.000125`, `-3`), else `n/d` (`1/3`).
    /// Every time read from a scenes file has a decimal form.
    public var decimalDescription: String {
        var remaining = denominator
        var twos = 0, fives = 0
        while remaining % 2 == 0 { remaining /= 2; twos += 1 }
        while remaining % 5 == 0 { remaining /= 5; fives += 1 }
        guard remaining == 1 else { return description }
        let places = max(twos, fives)
        guard places > 0 else { return "\(numerator)" }
        var scale: Int128 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = numerator * (scale / denominator)
        var digits = String(scaled.magnitude)
        while digits.count <= places { digits = "0" + digits }
        let split = digits.index(digits.endIndex, offsetBy: -places)
        var text = digits[..<split] + "." + digits[split...]
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return (scaled < 0 ? "-" : "") + text
    }
}
