import DioramaDocument

extension AnimationValue {
    /// The value `progress` of the way from `start` to `end` (0 gives `start`, 1 gives `end`; springs overshoot).
    /// Colours interpolate per component in straight (not premultiplied) sRGB.
    public static func interpolate(_ start: AnimationValue, _ end: AnimationValue, progress: Double) -> AnimationValue {
        switch (start, end) {
        case (.number(let a), .number(let b)):
            return .number(a + (b - a) * progress)
        case (.color(let a), .color(let b)):
            return .color(Color(red: a.red + (b.red - a.red) * progress,
                                green: a.green + (b.green - a.green) * progress,
                                blue: a.blue + (b.blue - a.blue) * progress,
                                alpha: a.alpha + (b.alpha - a.alpha) * progress))
        default:
            // Mismatched kinds are refused by `diorama check`; jump rather than guess.
            return progress < 1 ? start : end
        }
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var color: Color? {
        if case .color(let value) = self { return value }
        return nil
    }
}
