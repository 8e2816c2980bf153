// Text that changes: a counter's number format. Text keyframes are `AnimationValue.text`, the counter's
// number is `NodeStyle.textValue` and the typewriter's fraction is `NodeStyle.reveal` (see docs/FORMAT.md "text").

/// How a counter writes its number, in the words of SwiftUI's number format style:
/// `.number.precision(.fractionLength(1)).rounded(rule: .toNearestOrEven).grouping(.automatic)`.
public struct NumberFormat: Sendable, Equatable {
    /// Digits after the decimal point, always written (0 ... 6).
    public var fractionLength: Int
    /// How the number is rounded to `fractionLength` digits.
    public var rounding: NumberRounding
    public var grouping: NumberGrouping

    public init(fractionLength: Int = 0, rounding: NumberRounding = .toNearestOrEven, grouping: NumberGrouping = .automatic) {
        self.fractionLength = fractionLength
        self.rounding = rounding
        self.grouping = grouping
    }

    /// The placeholder a counter's text writes its number at.
    public static let placeholder = "{value}"
    /// The most fraction digits a counter shows.
    public static let maximumFractionLength = 6
}

/// Swift's `FloatingPointRoundingRule`, by the same names.
public enum NumberRounding: String, Sendable, Equatable, CaseIterable {
    /// Half way goes to the even neighbour (2.5 → 2, 3.5 → 4): SwiftUI's default.
    case toNearestOrEven
    /// Half way goes away from zero (2.5 → 3, −2.5 → −3): schoolbook rounding.
    case toNearestOrAwayFromZero
    /// Towards +∞ (2.1 → 3, −2.9 → −2).
    case up
    /// Towards −∞ (2.9 → 2, −2.1 → −3): a counter going up shows each number once it is reached.
    case down
    /// Drops the digits beyond the fraction length (2.9 → 2, −2.9 → −2).
    case towardZero
    /// Away from zero (2.1 → 3, −2.1 → −3).
    case awayFromZero
}

/// Thousands separators, as SwiftUI's `.grouping(.automatic)` and `.grouping(.never)`.
public enum NumberGrouping: String, Sendable, Equatable, CaseIterable {
    /// A comma every three digits of the integer part (1,234,567), as en, zh and ja write numbers.
    case automatic
    case never
}
