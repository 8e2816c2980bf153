import DioramaDocument

/// Where an animation stands at one scene time: which iteration, how far into it, and in which direction.
public struct AnimationPhase: Sendable, Equatable {
    public enum Stage: Sendable, Equatable {
        /// Before `delay`: the property holds the animation's first value.
        case waiting
        case running
        /// After the last iteration: the property holds where that iteration ended.
        case finished
    }

    public var stage: Stage
    /// 0-based; the last iteration when finished, 0 while waiting.
    public var iteration: Int
    /// Fraction of the iteration's time elapsed, 0..<1 while running (0 waiting, 1 finished).
    public var fraction: Double
    /// True on the odd iterations of an autoreversing animation, which run backwards.
    public var reversed: Bool

    /// Position along the track, 0 (first value) ... 1 (last value): the fraction, mirrored when reversed.
    public var trackFraction: Double { reversed ? 1 - fraction : fraction }
}

/// The timing of one animation in closed form: no state, so the phase at 3600 s is as exact as at 1 s.
///
/// Semantics (docs/FORMAT.md "Timing"): an iteration lasts `length / speed` seconds; iteration k runs over
/// `[delay + k·d, delay + (k+1)·d)`; with `autoreverses` odd iterations run backwards; `delay` is applied once
/// and not scaled by `speed`. `delay` is read as the start in scene seconds: for an animation that starts `after`
/// something, pass it from `Scene.resolvingStarts()`, as `ScenePlan` does.
/// Example: `AnimationTiming(delay: 1, length: 2, speed: 2, repeatCount: .forever, autoreverses: true).phase(at: 2.5)`
/// is iteration 1 (1 s long), half way, reversed.
public struct AnimationTiming: Sendable, Equatable {
    /// Seconds before the first iteration.
    public let delay: Double
    /// Seconds per iteration (`length / speed`).
    public let iterationLength: Double
    /// nil when the animation repeats forever.
    public let iterationCount: Int?
    public let autoreverses: Bool

    /// A time within this many iterations of an iteration boundary counts as on it (a nanosecond for 1 s
    /// iterations): frame times such as `54.0 / 60` then land in the iteration that starts there.
    static let boundaryTolerance = 1e-9

    public init(delay: Rational, length: Rational, speed: Rational, repeatCount: RepeatCount, autoreverses: Bool) {
        self.delay = delay.doubleValue
        let speedValue = speed.doubleValue
        self.iterationLength = speedValue > 0 ? (length / speed).doubleValue : .infinity
        switch repeatCount {
        case .count(let count): iterationCount = max(0, count)
        case .forever: iterationCount = nil
        }
        self.autoreverses = autoreverses
    }

    public init(_ animation: Animation) {
        self.init(delay: animation.delay, length: animation.trackLength, speed: animation.speed,
                  repeatCount: animation.repeatCount, autoreverses: animation.autoreverses)
    }

    /// The phase at `time` seconds of scene time.
    public func phase(at time: Double) -> AnimationPhase {
        let local = time - delay
        guard iterationCount != 0, local >= -Self.boundaryTolerance * max(1, iterationLength) else {
            return AnimationPhase(stage: .waiting, iteration: 0, fraction: 0, reversed: false)
        }
        guard iterationLength > 0, iterationLength.isFinite else { return finished(after: 1) }
        var position = local / iterationLength
        let nearest = position.rounded()
        if abs(position - nearest) <= Self.boundaryTolerance { position = nearest }
        position = max(0, position)
        // Iteration counts are bounded by the scene's length, far below 2^53, so the floor is exact.
        let whole = position.rounded(.down)
        if let count = iterationCount, whole >= Double(count) { return finished(after: count) }
        guard whole < 9.0e15 else { return finished(after: 1) }
        let iteration = Int(whole)
        return AnimationPhase(stage: .running, iteration: iteration, fraction: position - whole,
                              reversed: autoreverses && iteration % 2 == 1)
    }

    private func finished(after count: Int) -> AnimationPhase {
        let last = count - 1
        return AnimationPhase(stage: .finished, iteration: last, fraction: 1, reversed: autoreverses && last % 2 == 1)
    }
}

extension Animation {
    /// Seconds of one iteration at speed 1: the duration, or the last keyframe's time.
    public var trackLength: Rational {
        switch kind {
        case .basic(_, _, _, let duration): duration
        case .keyframes(let keyframes): keyframes.last?.time ?? .zero
        }
    }

    /// The value before the animation starts: `from`, or the first keyframe's value.
    public var firstValue: AnimationValue? {
        switch kind {
        case .basic(let from, _, _, _): from
        case .keyframes(let keyframes): keyframes.first?.value
        }
    }
}
