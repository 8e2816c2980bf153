import DioramaDocument

/// When an animation's events happen, exactly, in scene seconds: the rational counterpart of `AnimationTiming`.
///
/// Iteration k starts at `delay + k·d` with `d = length / speed`. Forward iterations end on `to`, reversed ones
/// (odd iterations of an autoreversing animation) end on `from`. A keyframe at track time τ is passed at
/// `start + τ/speed` going forward and at `start + (length − τ)/speed` going backward; at an autoreverse turn the
/// track passes the turning keyframe once, not twice. `"end"` is `delay + n·d`, once, for `n` iterations.
///
/// `delay` is read as the start in scene seconds: for an animation that starts `after` something, pass it from
/// `Scene.resolvingStarts()`, as `CueSchedule` does.
public struct AnimationEventTimes: Sendable {
    public let delay: Rational
    /// Seconds per iteration.
    public let iterationLength: Rational
    public let speed: Rational
    /// nil when it repeats forever.
    public let iterationCount: Int?
    public let autoreverses: Bool
    /// Track times of the keyframes at speed 1 (a from/to animation is the track [0, duration]).
    public let keyframeTimes: [Rational]

    public init(_ animation: Animation) {
        delay = animation.delay
        speed = animation.speed
        iterationLength = animation.speed > .zero ? animation.trackLength / animation.speed : .zero
        switch animation.repeatCount {
        case .count(let count): iterationCount = max(0, count)
        case .forever: iterationCount = nil
        }
        autoreverses = animation.autoreverses
        switch animation.kind {
        case .basic(_, _, _, let duration): keyframeTimes = [.zero, duration]
        case .keyframes(let keyframes): keyframeTimes = keyframes.map(\.time)
        }
    }

    /// Times of `event` (with the iteration each belongs to) that fall in `[start, end)`, in order.
    /// At most `limit` are returned, so a pathological file cannot exhaust memory.
    public func occurrences(of event: AnimationEvent, from start: Rational, before end: Rational,
                            limit: Int = CueSchedule.maximumFiringsPerCue) -> [(time: Rational, iteration: Int)] {
        guard speed > .zero, iterationCount != 0, start < end else { return [] }
        if event == .reachesFrom, !autoreverses { return [] }
        if event == .end {
            // Once, when the last iteration finishes; never for an animation that repeats forever.
            guard let count = iterationCount else { return [] }
            let time = delay + (iterationLength == .zero ? .zero : Rational(Int128(count)) * iterationLength)
            return time >= start && time < end ? [(time, max(0, count - 1))] : []
        }
        // A zero-length track has one instantaneous iteration, whatever the repeat count.
        let count = iterationLength == .zero ? 1 : iterationCount
        let length = keyframeTimes.last ?? .zero
        var result: [(time: Rational, iteration: Int)] = []
        // Skip iterations that end before the window (only when an offset moves the window forward).
        var iteration = 0
        if iterationLength > .zero, start > delay + iterationLength {
            iteration = max(0, Int(clamping: ((start - delay) / iterationLength).floor) - 1)
        }
        // Every iteration yields at most one time of any event, so this bounds the work as well as the result.
        let lastVisited = iteration + 2 * limit
        while count.map({ iteration < $0 }) ?? true, result.count < limit, iteration <= lastVisited {
            let iterationStart = delay + Rational(Int128(iteration)) * iterationLength
            if iterationStart >= end { break }
            let reversed = autoreverses && iteration % 2 == 1
            var times: [Rational] = []
            switch event {
            case .iterationStart:
                times = [iterationStart]
            case .reachesTo:
                if !reversed { times = [iterationStart + iterationLength] }
            case .reachesFrom:
                if reversed { times = [iterationStart + iterationLength] }
            case .end:
                break
            case .keyframe(let index):
                guard keyframeTimes.indices.contains(index) else { return [] }
                let trackTime = reversed ? length - keyframeTimes[index] : keyframeTimes[index]
                // The turning keyframe of an autoreverse was already passed at the end of the previous iteration.
                let passedAtTurn = autoreverses && iteration > 0 && trackTime == .zero
                if !passedAtTurn { times = [iterationStart + trackTime / speed] }
            }
            for time in times where time >= start && time < end {
                result.append((time, iteration))
            }
            if iterationLength == .zero { break }
            iteration += 1
        }
        return result
    }
}
