// A `lottie` node: a Lottie JSON animation played inside a rectangle on the scene clock.

/// What the timeline needs from a Lottie file, read in pure Swift by `LottieFileReader` when the document is
/// decoded (rendering is rlottie's, in DioramaLottie).
public struct LottieAnimationInfo: Sendable, Equatable {
    /// Frames per second (`fr`), exactly as written.
    public var frameRate: Rational
    /// The first frame (`ip`, rounded to a whole frame).
    public var inPoint: Int
    /// The frame the animation ends at (`op`, rounded), not shown: frames `inPoint..<outPoint` play.
    public var outPoint: Int
    /// The composition's size in its pixels (`w`, `h`).
    public var width: Int
    public var height: Int
    /// Named frames (`markers`: `cm`, `tm`, `dr`), in file order.
    public var markers: [LottieMarker]

    public init(frameRate: Rational, inPoint: Int, outPoint: Int, width: Int, height: Int, markers: [LottieMarker] = []) {
        self.frameRate = frameRate
        self.inPoint = inPoint
        self.outPoint = outPoint
        self.width = width
        self.height = height
        self.markers = markers
    }

    public func marker(named name: String) -> LottieMarker? {
        markers.first { $0.name == name }
    }
}

/// A named frame of a Lottie file, with the frames it spans (its `dr`, 0 for a single moment).
public struct LottieMarker: Sendable, Equatable {
    public var name: String
    /// The file's own frame number (`tm`).
    public var frame: Int
    /// Frames (`dr`).
    public var duration: Int

    public init(name: String, frame: Int, duration: Int = 0) {
        self.name = name
        self.frame = frame
        self.duration = duration
    }
}

/// How a Lottie node plays its file on the scene clock, with the same rules as an animation's timing.
///
/// The segment's frames `frames.lowerBound..<frames.upperBound` (the file's frame numbers) make one iteration of
/// `n = frames.count` frames lasting `n / (frameRate × speed)` seconds. Frame `frames.lowerBound + k` of a forward
/// iteration appears at `start + k / (frameRate × speed)` and stays until the next one appears (floor). With
/// `autoreverses`, odd iterations show the frames backwards, last first. Before `delay` the first frame shows;
/// after the last iteration the frame it ended on stays.
public struct LottiePlayback: Sendable, Equatable {
    /// Scene seconds before the first iteration, exactly as written, counted from `after` when it is given.
    public var delay: Rational
    /// The moment `delay` counts from (a tap, a marker, an animation's event, another Lottie's marker or frame),
    /// resolved with the animations' starts by `SceneTiming`; nil: the scene's start.
    public var after: StartAnchor?
    /// Playback rate (> 0).
    public var speed: Rational
    /// The frames one iteration plays, in the file's frame numbers; the whole file (`inPoint..<outPoint`) by default.
    public var frames: Range<Int>
    public var repeatCount: RepeatCount
    public var autoreverses: Bool
    /// The moment the playback stops (`"until"`, written as an `after` is), resolved with the starts into `stop`.
    public var until: StartAnchor?
    /// Scene seconds from which it stops, resolved (`Scene.resolvingStarts()`): the frame shown just before stays, and
    /// no frame appears from then on (cues on its markers do not fire, nothing starts after them). nil: it plays on.
    public var stop: Rational?

    public init(delay: Rational = .zero, speed: Rational = .one, frames: Range<Int>, repeatCount: RepeatCount = .count(1),
                autoreverses: Bool = false, after: StartAnchor? = nil, until: StartAnchor? = nil) {
        self.delay = delay
        self.after = after
        self.until = until
        self.speed = speed
        self.frames = frames
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
    }

    /// The step (0-based frame count from the iteration's start) at which file frame `frame` appears in iteration
    /// `iteration`, or nil when it does not appear there: outside the segment, or the turning frame of an
    /// autoreverse, which has stayed on screen since the end of the previous iteration (it appears once, not twice).
    public func step(of frame: Int, inIteration iteration: Int) -> Int? {
        guard frames.contains(frame) else { return nil }
        let reversed = autoreverses && iteration % 2 == 1
        let step = reversed ? frames.upperBound - 1 - frame : frame - frames.lowerBound
        return autoreverses && iteration > 0 && step == 0 ? nil : step
    }

    /// Frame steps from the first iteration's start to the `nth` appearance (from 1) of file frame `frame`; nil
    /// when it appears fewer times (outside the segment, too few iterations). Its scene time is the start plus
    /// this over `frameRate × speed`.
    public func stepsToAppearance(of frame: Int, nth: Int) -> Int128? {
        guard nth >= 1, frames.contains(frame) else { return nil }
        let count = Int128(max(1, frames.count))
        var seen = 0
        var iteration = 0
        // An appearance comes at least every second iteration, so this visits at most 2·nth + 1 of them.
        while repeatCount.allows(iteration), iteration <= 2 * nth {
            if let step = step(of: frame, inIteration: iteration) {
                seen += 1
                if seen == nth { return Int128(iteration) * count + Int128(step) }
            }
            iteration += 1
        }
        return nil
    }
}

extension RepeatCount {
    /// Whether iteration `iteration` (from 0) is played.
    func allows(_ iteration: Int) -> Bool {
        switch self {
        case .count(let count): iteration < max(1, count)
        case .forever: true
        }
    }
}

public struct LottieContent: Sendable, Equatable {
    /// The Lottie JSON file, relative to the scenes file.
    public var path: String
    /// Where it plays, in the node's coordinates: the composition is scaled to fit, keeping its aspect ratio, centred.
    public var rect: Rect
    public var animation: LottieAnimationInfo
    public var playback: LottiePlayback
    /// The id of the animation a dotLottie archive plays (`"animation"`); nil: the manifest's first.
    public var chosenAnimation: String?

    public init(path: String, rect: Rect, animation: LottieAnimationInfo, playback: LottiePlayback? = nil) {
        self.path = path
        self.rect = rect
        self.animation = animation
        self.playback = playback ?? LottiePlayback(frames: animation.inPoint..<animation.outPoint)
    }

    /// The file frame an event names: a marker's frame (nil for an unknown marker), or the frame itself.
    public func frame(of event: LottieEvent) -> Int? {
        switch event {
        case .marker(let name): animation.marker(named: name)?.frame
        case .frame(let frame): frame
        }
    }
}

/// A moment of a Lottie node that a cue can be bound to: `"on": { "marker": NAME }` or `"on": { "frame": N }`.
public enum LottieEvent: Sendable, Equatable, Hashable {
    /// Each time the marker's frame appears.
    case marker(String)
    /// Each time this frame (the file's frame number) appears.
    case frame(Int)
}
