import DioramaDocument

/// One animation ready to evaluate at any scene time: its timing and its track, prepared once.
///
/// Example: `AnimationSampler(animation).value(at: 3600.25)` — closed form, no accumulated state.
public struct AnimationSampler: Sendable {
    public let property: AnimatableProperty
    public let timing: AnimationTiming
    /// Set for `"from": "current"`: the value at its start comes from the animations before it (`value(at:from:)`).
    public let fromCurrent: Animation.CurrentStart?
    private let track: ValueTrack

    public init(_ animation: Animation) {
        property = animation.property
        timing = AnimationTiming(animation)
        fromCurrent = animation.fromCurrent
        track = ValueTrack(animation.kind)
    }

    /// Seconds of scene time at which the animation takes over its property from earlier ones (its delay).
    public var startTime: Double { timing.delay }

    /// The animation's value at `time` seconds of scene time.
    public func value(at time: Double) -> AnimationValue {
        track.value(atTrackFraction: timing.phase(at: time).trackFraction)
    }

    /// The value at `time` of an animation `"from": "current"` that starts from `start` (nil: the node's own value,
    /// when nothing animated the property before it).
    public func value(at time: Double, from start: AnimationValue?) -> AnimationValue {
        track.value(atTrackFraction: timing.phase(at: time).trackFraction, from: start, by: fromCurrent == .by)
    }
}

/// The values of a from/to animation or a keyframe track, addressed by the fraction 0...1 of the track.
/// A class, and its keyframes another: every animated node samples its tracks every frame, and copying a track (a
/// sampler held in an array is copied to be asked) retained each of its arrays.
final class ValueTrack: Sendable {
    private enum Form: Sendable {
        case basic(from: AnimationValue, to: AnimationValue, curve: PreparedCurve, duration: Double)
        case keyframes(Keyframes)
    }

    /// Times in seconds from the start of the track; `curves[i]` and `holds[i]` belong to the segment arriving at
    /// keyframe i.
    private final class Keyframes: Sendable {
        let times: [Double], values: [AnimationValue], curves: [PreparedCurve], holds: [Bool]

        init(times: [Double], values: [AnimationValue], curves: [PreparedCurve], holds: [Bool]) {
            (self.times, self.values, self.curves, self.holds) = (times, values, curves, holds)
        }
    }

    private let form: Form
    private let length: Double

    init(_ kind: Animation.Kind) {
        switch kind {
        case .basic(let from, let to, let curve, let duration):
            length = duration.doubleValue
            form = .basic(from: from, to: to, curve: PreparedCurve(curve), duration: length)
        case .keyframes(let keyframes):
            length = keyframes.last?.time.doubleValue ?? 0
            form = .keyframes(Keyframes(times: keyframes.map(\.time.doubleValue), values: keyframes.map(\.value),
                                        curves: keyframes.map { PreparedCurve($0.curve) }, holds: keyframes.map(\.hold)))
        }
    }

    /// A from/to track's value with `start` (when given) in place of its `from`, and its `to` added to the start
    /// when `by`.
    func value(atTrackFraction fraction: Double, from start: AnimationValue?, by: Bool) -> AnimationValue {
        guard case .basic(let from, let to, let curve, let duration) = form else { return value(atTrackFraction: fraction) }
        let start = start ?? from
        var end = to
        if by, case .number(let base) = start, case .number(let amount) = to { end = .number(base + amount) }
        if fraction <= 0 { return start }
        if fraction >= 1 { return end }
        return .interpolate(start, end, progress: curve.progress(at: fraction, duration: duration))
    }

    func value(atTrackFraction fraction: Double) -> AnimationValue {
        switch form {
        case .basic(let from, let to, let curve, let duration):
            if fraction <= 0 { return from }
            if fraction >= 1 { return to }
            return .interpolate(from, to, progress: curve.progress(at: fraction, duration: duration))
        case .keyframes(let keyframes):
            let (times, values, curves, holds) = (keyframes.times, keyframes.values, keyframes.curves, keyframes.holds)
            guard let first = values.first else { return .number(0) }
            var time = fraction * length
            // Snap onto a keyframe within a nanosecond-scale tolerance, so a hold jumps exactly on its frame.
            let tolerance = AnimationTiming.boundaryTolerance * max(1, length)
            // The first keyframe at or after `time`: segment `index` runs from keyframe index-1 to it.
            var low = 0, high = times.count
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < time - tolerance { low = middle + 1 } else { high = middle }
            }
            if low == times.count { return values[times.count - 1] }
            if abs(times[low] - time) <= tolerance { time = times[low] }
            if time >= times[low] { return values[low] }
            if low == 0 { return first }
            if holds[low] { return values[low - 1] }
            let segment = times[low] - times[low - 1]
            let local = segment > 0 ? (time - times[low - 1]) / segment : 1
            return .interpolate(values[low - 1], values[low], progress: curves[low].progress(at: local, duration: segment))
        }
    }
}
