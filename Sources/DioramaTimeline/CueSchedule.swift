import DioramaDocument

/// One firing of a cue, relative to its scene: what sounds, and when within the scene.
public struct CueFiring: Sendable, Equatable {
    /// What made a cue fire.
    public enum Trigger: Sendable, Equatable {
        /// `"at"`: an absolute scene time, in seconds.
        case at(Rational)
        /// An event of a node's animation; `iteration` is the 0-based iteration it happened in.
        case animation(node: String, animation: String, event: AnimationEvent, iteration: Int)
        /// A scene marker, and its time in seconds.
        case marker(name: String, time: Rational)
        /// The `nth` tap (from 1) on a node in this visit of the scene, and its scene time in seconds.
        case tap(node: String, time: Rational, nth: Int = 1)
        /// A Lottie node's marker or frame appearing; `frame` is the file's frame number, `iteration` 0-based.
        case lottie(node: String, event: LottieEvent, frame: Int, iteration: Int)
    }

    /// Index of the scene in the playlist.
    public var scene: Int
    public var sceneID: String
    /// Index of the cue in the scene's `cues`.
    public var cue: Int
    /// The sound it plays: the cue's, or the one this firing picked of the cue's set (`pick(from:)`).
    public var sound: String
    /// Semitones the sound plays higher (or lower) than its file: the cue's `pitch`.
    public var pitch: Double = 0
    /// The cue's linear gain (the sound's own gain is applied by the sound bank).
    public var gain: Double
    /// -1 (left) ... 1 (right).
    public var pan: Double
    /// Seconds from the scene's start, exactly (trigger time plus the cue's offset).
    public var sceneTime: Rational
    public var trigger: Trigger
    /// The cue's offset in seconds, already included in `sceneTime`.
    public var offset: Rational
    /// The cue's id, when it has one (stop cues name it).
    public var id: String? = nil
    /// Whether the sound repeats until it is ended.
    public var loops = false
    /// Whether the scene's end (or leaving the scene) ends the sound: it loops or has an `until`.
    public var endsWithScene = false
    /// Seconds of fade-out when the sound is ended early.
    public var fadeOut: Double = 0
    /// How it lowers the scene's ambience while it sounds.
    public var duck: Ducking? = nil
    /// When its sound is ended early (its `until` or a stop cue); nil: at its own end, or the scene's end.
    public var end: End? = nil
    /// For a cue that repeats (`every`): which firing after its trigger's this is, 0 the trigger's own.
    public var repetition = 0
}

/// A cue firing placed on the playlist's timeline.
public struct ScheduledCue: Sendable, Equatable {
    public var firing: CueFiring
    /// Seconds from the start of the playlist, exactly.
    public var absoluteTime: Rational
    /// The first sample at or after `absoluteTime`: `ceil(absoluteTime × sampleRate)`.
    public var sampleIndex: Int64
}

/// Where a scene sits on the playlist's timeline.
public struct SceneSpan: Sendable, Equatable {
    public var index: Int
    public var id: String
    /// Seconds from the start of the playlist, exactly.
    public var start: Rational
    /// Seconds, exactly.
    public var duration: Rational
    /// `ceil(start × sampleRate)`.
    public var startSample: Int64
    /// `ceil((start + duration) × sampleRate)`: the next scene's start sample.
    public var endSample: Int64
}

/// Every cue firing of a playlist played once from its first scene, exactly: times are rationals and sample
/// indexes are computed from them, so a cue an hour in lands on the same sample as the arithmetic says.
///
/// Example:
/// ```swift
/// let schedule = CueSchedule(document: document, sampleRate: 48_000)
/// for cue in schedule.cues { print(cue.sampleIndex, cue.firing.sound) }
/// ```
public struct CueSchedule: Sendable, Equatable {
    /// At most this many firings of one cue are listed (a scene holds no more: `DocumentLimits.maximumFiringsPerScene`).
    public static let maximumFiringsPerCue = DocumentLimits.maximumFiringsPerScene

    /// Samples per second.
    public let sampleRate: Int
    public let scenes: [SceneSpan]
    /// In playlist order: by absolute time, then scene, then cue index.
    public let cues: [ScheduledCue]
    /// Firings in the last sample period of their scene (`soundsInside` is false), which nothing plays: `diorama
    /// check` warns of each. In playlist order.
    public let firingsAtSceneEnd: [ScheduledCue]
    /// Where sounds are ended early (an `until`, a stop cue), in playlist order.
    public let stops: [ScheduledStop]
    /// Ambience starting on a moment of its scene, in playlist order.
    public let ambienceStarts: [ScheduledAmbienceStart]
    /// Where each scene starts, and the whole playlist's length.
    public let clock: PlaylistClock
    /// The scenes with tappable nodes, as written (by playlist index): what a tap at run time is scheduled from.
    public let tappableScenes: [Int: Scene]

    public init(document: Document, sampleRate: Int) {
        self.sampleRate = sampleRate
        let rate = Rational(sampleRate)
        var spans: [SceneSpan] = []
        var cues: [ScheduledCue] = []
        var atSceneEnd: [ScheduledCue] = []
        var stops: [ScheduledStop] = []
        var ambienceStarts: [ScheduledAmbienceStart] = []
        clock = PlaylistClock(document: document)
        for (index, scene) in document.scenes.enumerated() {
            // Once per scene: animations that start after other moments, at their resolved starts, for every cue,
            // `until`, stop and ambience start alike.
            let scene = scene.resolvingStarts()
            let start = clock.starts[index], end = clock.span(ofScene: index).upperBound
            spans.append(SceneSpan(index: index, id: scene.id, start: start, duration: scene.duration,
                                   startSample: Self.sample(start * rate), endSample: Self.sample(end * rate)))
            let firings = Self.resolvedFirings(of: scene, index: index)
            let sceneStops = Self.stops(of: scene, index: index, firings: firings)
            let sounding = firings.filter { Self.soundsInside(scene, at: $0.sceneTime, sampleRate: sampleRate) }
            for firing in Self.withEnds(sounding, of: scene, stops: sceneStops) {
                let absolute = start + firing.sceneTime
                cues.append(ScheduledCue(firing: firing, absoluteTime: absolute, sampleIndex: Self.sample(absolute * rate)))
            }
            for firing in firings where !Self.soundsInside(scene, at: firing.sceneTime, sampleRate: sampleRate) {
                let absolute = start + firing.sceneTime
                atSceneEnd.append(ScheduledCue(firing: firing, absoluteTime: absolute, sampleIndex: Self.sample(absolute * rate)))
            }
            for stop in sceneStops {
                let absolute = start + stop.sceneTime
                stops.append(ScheduledStop(stop: stop, absoluteTime: absolute, sampleIndex: Self.sample(absolute * rate)))
            }
            for ambience in Self.ambienceStarts(of: scene, index: index) {
                let absolute = start + ambience.sceneTime
                ambienceStarts.append(ScheduledAmbienceStart(start: ambience, absoluteTime: absolute, sampleIndex: Self.sample(absolute * rate)))
            }
        }
        scenes = spans
        self.cues = cues
        firingsAtSceneEnd = atSceneEnd
        self.stops = stops
        self.ambienceStarts = ambienceStarts
        var tappable: [Int: Scene] = [:]
        for (index, scene) in document.scenes.enumerated() where !scene.tappableNodeIDs.isEmpty { tappable[index] = scene }
        tappableScenes = tappable
    }

    /// The firings of one scene's cues with `0 <= sceneTime < duration`, ordered by scene time, then cue index.
    /// Stop cues play nothing (see `stops(of:index:firings:)`).
    public static func firings(of scene: Scene, index: Int) -> [CueFiring] {
        // Animations that start after other moments fire on their resolved starts, as the snapshots show them.
        resolvedFirings(of: scene.resolvingStarts(), index: index)
    }

    /// `firings(of:index:)` of a scene whose starts are resolved already (`Scene.resolvingStarts()`).
    static func resolvedFirings(of scene: Scene, index: Int) -> [CueFiring] {
        var result: [CueFiring] = []
        for (cueIndex, cue) in scene.cues.enumerated() where !cue.isStop {
            // A cue that a tap switches off (its `until`) no longer fires once that tap has happened: a second tap
            // before the sound the first one started keeps it from starting.
            var switchedOff: Rational?
            if let until = cue.until, case .tap(let node, let nth) = until.trigger, let time = scene.tapTime(of: node, nth: nth) {
                switchedOff = time + until.offset
            }
            var fired = 0
            for (triggerTime, trigger) in occurrences(of: cue.trigger, offset: cue.offset, in: scene) {
                // A cue with `every` fires again after each firing of its trigger, within the scene.
                let delays = cue.repetition?.offsets(from: triggerTime, before: scene.duration, limit: maximumFiringsPerCue - fired) ?? [.zero]
                for (repetition, delay) in delays.enumerated() {
                    let sceneTime = triggerTime + delay
                    guard switchedOff.map({ sceneTime < $0 }) ?? true else { break }
                    var firing = CueFiring(scene: index, sceneID: scene.id, cue: cueIndex, sound: cue.sound, pitch: cue.pitch, gain: cue.gain,
                                           pan: cue.pan, sceneTime: sceneTime, trigger: trigger, offset: cue.offset)
                    firing.repetition = repetition
                    // Picked after the repetition is set: each repetition draws anew (`firingIndex`).
                    firing.sound = firing.pick(from: cue.sounds)
                    result.append(firing)
                    fired += 1
                }
                if fired >= maximumFiringsPerCue { break }
            }
        }
        return bounded(result.enumerated().sorted { lhs, rhs in
            if lhs.element.sceneTime != rhs.element.sceneTime { return lhs.element.sceneTime < rhs.element.sceneTime }
            if lhs.element.cue != rhs.element.cue { return lhs.element.cue < rhs.element.cue }
            return lhs.offset < rhs.offset
        }.map(\.element))
    }

    /// The first of `firings` (ordered by scene time) within `DocumentLimits`: at most `maximumFiringsPerScene`, and
    /// at most `maximumFiringsPerSecond` in any second. `diorama check` refuses a file that needs more; a document
    /// made another way is cut short here, so nothing downstream (the timeline, the mixer, the frame loop) floods.
    static func bounded(_ firings: [CueFiring]) -> [CueFiring] {
        var kept: [CueFiring] = []
        var windowStart = 0
        for firing in firings {
            if kept.count == DocumentLimits.maximumFiringsPerScene { break }
            while windowStart < kept.count, firing.sceneTime - kept[windowStart].sceneTime >= Rational(1) { windowStart += 1 }
            if kept.count - windowStart < DocumentLimits.maximumFiringsPerSecond { kept.append(firing) }
        }
        return kept
    }

    /// Whether a cue at `sceneTime` sounds in `scene`: only when a whole sample period of the scene is left after it.
    ///
    /// A cue's sample is the first at or after its moment, and the scene's end the first sample of whatever follows;
    /// in the scene's last sample period the two can be the same sample, depending on where the scene starts (which
    /// changes with every pass of a playlist whose length is not a whole number of samples, and with every jump). One
    /// rule that does not depend on the start keeps the timeline, the offline mix, live play and verify alike: with
    /// at least `1 / sampleRate` s left, the cue's sample is inside the scene wherever it starts; with less, the
    /// cue never sounds.
    public static func soundsInside(_ scene: Scene, at sceneTime: Rational, sampleRate: Int) -> Bool {
        (scene.duration - sceneTime) * Rational(sampleRate) >= Rational(1)
    }

    /// `ceil(frames)` as a sample index.
    static func sample(_ frames: Rational) -> Int64 {
        Int64(clamping: frames.ceiling)
    }
}
