// How often a cue can fire, bounded in closed form: what `diorama check` holds against
// `DocumentLimits.maximumFiringsPerScene` and `DocumentLimits.maximumFiringsPerSecond` without listing the firings.

/// The most a cue (or stop cue) can fire in its scene, counted without listing its firings.
///
/// A cue bound to an animation or a Lottie fires at most once per iteration, so its firings are bounded by the
/// iterations that overlap the scene, and those in any one second by the iterations one second can overlap.
public struct FiringBound: Sendable, Equatable {
    /// At most this many firings in the scene.
    public var count: Int
    /// At most this many firings in any one second of scene time.
    public var perSecond: Int
    /// Seconds between firings of a cue that repeats (at least), nil for one that fires once.
    public var interval: Rational?
    /// The scene time of a cue that fires once at a time known before playing (`at`, a marker), in seconds.
    public var time: Rational?

    static let never = FiringBound(count: 0, perSecond: 0)

    static func once(at time: Rational?, in duration: Rational) -> FiringBound {
        guard let time else { return FiringBound(count: 1, perSecond: 1) }
        return time >= .zero && time < duration ? FiringBound(count: 1, perSecond: 1, time: time) : .never
    }

    /// A moment once per iteration: iteration k lasts `[start + k·interval, start + (k+1)·interval]` and the moment
    /// falls inside it; `iterations` nil repeats forever. `window` is `[from, before)` on the same clock.
    static func repeating(start: Rational, interval: Rational, iterations: Int?, from: Rational, before: Rational,
                          turnsBack: Bool) -> FiringBound {
        guard iterations != 0, from < before else { return .never }
        guard interval > .zero else { return start >= from && start < before ? FiringBound(count: 1, perSecond: 1) : .never }
        // Iterations that start before the window ends and end at or after it starts.
        let last = min(Int128(iterations ?? Int.max), max(0, ((before - start) / interval).ceiling))
        let first = max(0, ((from - start) / interval).ceiling - 1)
        let count = Int(clamping: max(0, last - first))
        // A moment at the same place in every iteration repeats every interval; one that turns back (a keyframe of
        // an autoreversing track) can come closer, but one second still overlaps at most one more iteration.
        let inOneSecond = Int(clamping: (Rational(1) / interval).ceiling) + (turnsBack ? 1 : 0)
        return FiringBound(count: count, perSecond: min(count, inOneSecond), interval: interval)
    }
}

extension Scene {
    /// The most `trigger` plus `offset` can fire in this scene. `self` has its starts resolved (`resolvingStarts()`).
    public func firingBound(of trigger: CueTrigger, offset: Rational) -> FiringBound {
        switch trigger {
        case .at(let time):
            return .once(at: time + offset, in: duration)
        case .marker(let name):
            guard let marker = markers.first(where: { $0.name == name }) else { return .never }
            return .once(at: marker.time + offset, in: duration)
        case .tap:
            // One tap of a visit (the one counted), at a time known only when playing.
            return .once(at: nil, in: duration)
        case .animation(let nodeID, let animationID, let event):
            guard let animation = node(withID: nodeID)?.animations.first(where: { $0.id == animationID }),
                  animation.speed > .zero else { return .never }
            let length: Rational
            switch animation.kind {
            case .basic(_, _, _, let duration): length = duration
            case .keyframes(let keyframes): length = keyframes.last?.time ?? .zero
            }
            var interval = length / animation.speed
            var iterations: Int?
            if case .count(let count) = animation.repeatCount { iterations = max(0, count) }
            if event == .end { return .once(at: nil, in: duration) }
            // Without autoreverse the track never arrives back at its start (check warns of such a cue).
            if event == .reachesFrom, !animation.autoreverses { return .never }
            if animation.autoreverses, event == .reachesTo || event == .reachesFrom {
                // Every other iteration: count them in pairs.
                interval = interval * Rational(2)
                iterations = iterations.map { ($0 + 1) / 2 }
            }
            return .repeating(start: animation.delay, interval: interval, iterations: iterations, from: -offset,
                              before: duration - offset, turnsBack: animation.autoreverses)
        case .lottie(let nodeID, _):
            guard case .lottie(let lottie)? = node(withID: nodeID)?.content else { return .never }
            let rate = lottie.animation.frameRate * lottie.playback.speed
            guard rate > .zero else { return .never }
            var iterations: Int?
            if case .count(let count) = lottie.playback.repeatCount { iterations = max(1, count) }
            let interval = Rational(Int128(max(1, lottie.playback.frames.count))) / rate
            return .repeating(start: lottie.playback.delay, interval: interval, iterations: iterations, from: -offset,
                              before: duration - offset, turnsBack: lottie.playback.autoreverses)
        }
    }

    /// The most the scene's cues and stop cues can fire: in all, and in any one second (one-shots at known times
    /// counted where they fall, every other cue as if at its densest in that second).
    public var firingBounds: (count: Int, perSecond: Int) {
        let bounds = cues.map { firingBound(of: $0) }
        let count = bounds.reduce(0) { $0.addingReportingOverflow($1.count).overflow ? Int.max : $0 + $1.count }
        return (count, Self.mostInOneSecond(bounds))
    }

    /// The most firings of `bounds` in any half-open second.
    static func mostInOneSecond(_ bounds: [FiringBound]) -> Int {
        var anywhere = 0
        var times: [Rational] = []
        for bound in bounds {
            if let time = bound.time { times.append(time) } else { anywhere = min(Int.max / 2, anywhere + bound.perSecond) }
        }
        times.sort()
        var most = 0
        var first = 0
        for (index, time) in times.enumerated() {
            while time - times[first] >= Rational(1) { first += 1 }
            most = max(most, index - first + 1)
        }
        return anywhere + most
    }
}
