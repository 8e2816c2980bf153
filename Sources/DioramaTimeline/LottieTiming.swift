import DioramaDocument

/// Which frame of a Lottie node shows at a scene time, and when each frame appears, exactly.
///
/// With `fps` the file's frame rate, the playback's `speed`, its segment of `n` frames starting at `first`, and
/// `start` its delay: the position `p = (t − start) × fps × speed` counts frames played; frame index
/// `F = floor(p)` (floor: a frame stays until the next one appears), iteration `k = F div n`, step `q = F mod n`.
/// A forward iteration shows `first + q`; a reversed one (odd `k` with `autoreverses`) shows `first + n − 1 − q`.
/// Before `start` the first frame shows; after the last iteration, the frame that iteration ended on. From a `stop`
/// (a resolved `until`) on, the frame shown just before it stays and no frame appears.
///
/// So frame `first + j` of a 30 fps file at speed 1 appears at `start + j/30` in iteration 0, and at
/// `start + (k·n + j)/30` in forward iteration k.
public struct LottieTiming: Sendable, Equatable {
    public let start: Rational
    /// Frames per scene second: the file's frame rate times the speed.
    public let rate: Rational
    public let first: Int
    public let count: Int
    /// nil when it repeats forever.
    public let iterations: Int?
    public let autoreverses: Bool
    /// Scene seconds from which the playback holds still (`LottiePlayback.stop`); nil: it plays on.
    public let stop: Rational?
    /// Which frame appears at which step of an iteration (shared with the starts `after` a Lottie frame).
    private let playback: LottiePlayback

    public init(_ lottie: LottieContent) {
        playback = lottie.playback
        start = lottie.playback.delay
        rate = lottie.animation.frameRate * lottie.playback.speed
        first = lottie.playback.frames.lowerBound
        count = max(1, lottie.playback.frames.count)
        switch lottie.playback.repeatCount {
        case .count(let n): iterations = max(1, n)
        case .forever: iterations = nil
        }
        autoreverses = lottie.playback.autoreverses
        stop = lottie.playback.stop
    }

    /// The file frame shown at scene time `time`, exactly.
    public func frame(at time: Rational) -> Int {
        guard time > start, rate > .zero else { return first }
        if let stop, time >= stop {
            // The frame shown just before the stop: the last whose appearance came before it.
            guard stop > start else { return first }
            return frameAt(index: max(0, Int(clamping: ((stop - start) * rate).ceiling) - 1))
        }
        return frameAt(index: Int(clamping: ((time - start) * rate).floor))
    }

    /// The file frame shown at `time` seconds. Players and renderers keep time in doubles, where `k/30` may land a
    /// hair below the frame boundary: a position within a millionth of a frame of a whole number counts as it.
    public func frame(at time: Double) -> Int {
        if let stop, time >= stop.doubleValue { return frame(at: stop) }
        let position = (time - start.doubleValue) * rate.doubleValue
        guard position.isFinite, position > 0 else { return first }
        let nearest = position.rounded()
        let index = abs(position - nearest) < 1e-6 ? nearest : position.rounded(.down)
        return frameAt(index: index >= 9e15 ? Int.max / 2 : Int(index))
    }

    /// The frame shown at the `index`-th frame step (0-based) after the start.
    private func frameAt(index: Int) -> Int {
        if let iterations {
            let (total, overflow) = iterations.multipliedReportingOverflow(by: count)
            if !overflow, index >= total {
                // Over: the frame the last iteration ended on stays.
                return autoreverses && (iterations - 1) % 2 == 1 ? first : first + count - 1
            }
        }
        let iteration = index / count
        let step = index % count
        let reversed = autoreverses && iteration % 2 == 1
        return reversed ? first + count - 1 - step : first + step
    }

    /// The scene times in `[from, before)` at which `frame` appears, with the iteration of each, in order; at most
    /// `limit`. A frame appears once per iteration that shows it; at an autoreverse turn the turning frame stays on
    /// screen, so it appears once, not twice (`LottiePlayback.step(of:inIteration:)`). Before the start the first
    /// frame is merely shown, not appearing.
    public func appearances(of frame: Int, from: Rational, before end: Rational,
                            limit: Int = CueSchedule.maximumFiringsPerCue) -> [(time: Rational, iteration: Int)] {
        let end = stop.map { min(end, $0) } ?? end
        guard rate > .zero, frame >= first, frame < first + count, from < end else { return [] }
        let frameLength = Rational(1) / rate
        let iterationLength = Rational(Int128(count)) * frameLength
        var iteration = 0
        if from > start + iterationLength {
            iteration = max(0, Int(clamping: ((from - start) / iterationLength).floor) - 1)
        }
        var result: [(time: Rational, iteration: Int)] = []
        let lastVisited = iteration + 2 * limit
        while iterations.map({ iteration < $0 }) ?? true, result.count < limit, iteration <= lastVisited {
            let iterationStart = start + Rational(Int128(iteration)) * iterationLength
            if iterationStart >= end { break }
            if let step = playback.step(of: frame, inIteration: iteration) {
                let time = iterationStart + Rational(Int128(step)) * frameLength
                if time >= from, time < end { result.append((time, iteration)) }
            }
            iteration += 1
        }
        return result
    }
}

/// A Lottie node at one moment: which file, where, and which of its frames.
public struct LottieSnapshot: Sendable, Equatable {
    /// As written in the scenes file (relative to it).
    public var path: String
    /// Where the composition is fitted, in the node's coordinates.
    public var rect: Rect
    /// The file's frame number shown.
    public var frame: Int
    /// The file's in point: rlottie counts frames from it.
    public var inPoint: Int
    /// The animation of a dotLottie archive it shows (`LottieContent.chosenAnimation`); nil: the manifest's first.
    public var animation: String?

    public init(path: String, rect: Rect, frame: Int, inPoint: Int, animation: String? = nil) {
        self.animation = animation
        self.path = path
        self.rect = rect
        self.frame = frame
        self.inPoint = inPoint
    }
}
