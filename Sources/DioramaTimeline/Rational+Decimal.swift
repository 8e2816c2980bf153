import DioramaDocument

extension Rational {
    /// The value as a decimal string with at most `digits` fractional digits (rounded half away from zero,
    /// trailing zeros removed): `"1.4"`, `"-0.25"`, `"0.333333333"`. Exact whenever the expansion terminates
    /// within `digits` digits, which `isExactDecimal(digits:)` tells.
    public func decimalString(digits: Int = 9) -> String {
        let negative = numerator < 0
        let magnitude = numerator.magnitude
        let denominator = self.denominator.magnitude
        var scale: UInt128 = 1
        for _ in 0..<digits { scale *= 10 }
        var whole = magnitude / denominator
        let remainder = magnitude % denominator
        // Round the scaled remainder half away from zero.
        var fraction = (remainder * scale * 2 + denominator) / (denominator * 2)
        if fraction == scale {
            whole += 1
            fraction = 0
        }
        var text = String(whole)
        if fraction > 0 {
            var digitsText = String(fraction)
            digitsText = String(repeating: "0", count: digits - digitsText.count) + digitsText
            while digitsText.hasSuffix("0") { digitsText.removeLast() }
            text += "." + digitsText
        }
        return negative && (whole > 0 || fraction > 0) ? "-" + text : text
    }

    /// True when `decimalString(digits:)` is the exact value.
    public func isExactDecimal(digits: Int = 9) -> Bool {
        var scale: Int128 = 1
        for _ in 0..<digits { scale *= 10 }
        return (numerator.magnitude % denominator.magnitude == 0) || (Int128(scale) % denominator == 0)
    }
}
