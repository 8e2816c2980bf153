import DioramaDocument

/// The playlist laid end to end in seconds: where each scene starts, how long the whole is, which scene shows at a
/// time, and how far the story viewer's segments are filled. Scene lengths are summed here and nowhere else: the
/// sequencer, the cue schedule, a shared show's layout, the command line's output spans and the overlay ask it.
///
/// Exact: times are rationals, so a time an hour in finds the same scene and scene time as the arithmetic says.
///
/// Example:
/// ```swift
/// let clock = PlaylistClock(document: document)
/// let here = clock.position(at: Rational(5))   // the scene at 5 s and how far into it
/// ```
public struct PlaylistClock: Sendable, Equatable {
    /// Scene lengths in seconds, in play order.
    public let durations: [Rational]
    /// Each scene's start in seconds from the playlist's start: the lengths of the scenes before it.
    public let starts: [Rational]
    /// The whole playlist in seconds.
    public let length: Rational

    public init(durations: [Rational]) {
        var starts: [Rational] = []
        starts.reserveCapacity(durations.count)
        var end = Rational.zero
        for duration in durations {
            starts.append(end)
            end += duration
        }
        self.durations = durations
        self.starts = starts
        length = end
    }

    public init(document: Document) {
        self.init(durations: document.scenes.map(\.duration))
    }

    public var sceneCount: Int { durations.count }

    /// Playlist seconds `start ..< end` of scene `scene`.
    public func span(ofScene scene: Int) -> Range<Rational> {
        starts[scene]..<(starts[scene] + durations[scene])
    }

    /// The scene showing `time` seconds into the playlist and the time into it, kept within the scene: a time on a
    /// scene's end is the next scene's start; at or past the playlist's end, the last scene at its end. With
    /// `wrapping`, the playlist plays round after round, and a time past its end lies in a later round (a playlist of
    /// length 0 never wraps).
    public func position(at time: Rational, wrapping: Bool = false) -> PlaybackPosition {
        var time = time
        if wrapping, length > .zero, time >= length {
            time -= Rational((time / length).floor) * length
        }
        // The last scene starting at or before `time` (the first whose end is after it).
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= time { low = middle + 1 } else { high = middle }
        }
        let scene = max(low - 1, 0)
        return PlaybackPosition(scene: scene, sceneTime: min(max(time - starts[scene], .zero), durations[scene]))
    }

    /// The story viewer's segments `sceneFrame` sample frames (at `sampleRate`) into scene `scene`: 1 for the scenes
    /// before it, its elapsed fraction (0 ... 1) for it, 0 for those after.
    public func progress(scene: Int, sceneFrame: Double, sampleRate: Int) -> [Double] {
        let frames = durations[scene].doubleValue * Double(sampleRate)
        let fraction = frames > 0 ? min(max(sceneFrame / frames, 0), 1) : 1
        return (0..<sceneCount).map { $0 < scene ? 1 : $0 == scene ? fraction : 0 }
    }
}

/// Where a playlist is: the scene and how far into it, exactly, and whether it holds there.
public struct PlaybackPosition: Sendable, Equatable {
    public var scene: Int
    /// Seconds from the scene's start, exactly (0 ... the scene's duration).
    public var sceneTime: Rational
    public var isPaused: Bool

    public init(scene: Int, sceneTime: Rational, isPaused: Bool = false) {
        self.scene = scene
        self.sceneTime = sceneTime
        self.isPaused = isPaused
    }
}
