// A cue that repeats: `"every": 0.5, "count": 8` fires it again every half second after each firing of its
// trigger, eight firings in all, exactly (rational times). The schedule lists every repetition as a firing of its
// own, numbered (`CueFiring.repetition`), so each lands on its own sample and draws its own variation.

/// How a cue repeats after each firing of its trigger.
public struct CueRepetition: Sendable, Equatable {
    /// Seconds between firings, exactly; above 0.
    public var every: Rational
    /// Firings of each trigger in all, the first included; nil: until the scene ends.
    public var count: Int?

    public init(every: Rational, count: Int? = nil) {
        self.every = every
        self.count = count
    }

    /// The offsets from a firing at `time` at which it repeats, the first (0) included, while `time + offset < end`;
    /// at most `limit` of them.
    public func offsets(from time: Rational, before end: Rational, limit: Int) -> [Rational] {
        var offsets: [Rational] = []
        var next = Rational.zero
        while offsets.count < min(count ?? Int.max, limit), time + next < end {
            offsets.append(next)
            next += every
        }
        return offsets
    }
}

extension DocumentLimits {
    /// A cue's `count`: at most the firings a scene may hold.
    public static let maximumCueCount = maximumFiringsPerScene
}

extension Scene {
    /// The most `cue` can fire in this scene, its repetitions counted. `self` has its starts resolved.
    public func firingBound(of cue: Cue) -> FiringBound {
        let bound = firingBound(of: cue.trigger, offset: cue.offset)
        guard let repetition = cue.repetition, bound.count > 0, repetition.every > .zero else { return bound }
        // Repetitions of one firing that fit the scene, and those one second can hold.
        let fit = Int(clamping: (duration / repetition.every).ceiling)
        let repetitions = max(1, min(repetition.count ?? fit, fit))
        // Points `every` apart in a half-open second: at most ⌈1 / every⌉.
        let inOneSecond = min(repetitions, Int(clamping: (Rational(1) / repetition.every).ceiling))
        // The firings of the trigger whose repetitions can reach into one second: those of that second and of the
        // span of repetitions before it.
        let span = repetition.every * Rational(Int128(repetitions - 1))
        let triggersReaching = min(bound.count, Self.saturating(bound.perSecond, Int(clamping: span.ceiling) + 1))
        let count = Self.saturating(bound.count, repetitions)
        return FiringBound(count: count, perSecond: min(count, Self.saturating(triggersReaching, inOneSecond)),
                           interval: repetition.every)
    }

    private static func saturating(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : product
    }
}
