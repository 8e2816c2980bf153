import DioramaDocument

/// A moment a cue's sound is ended within its scene: the cue's own `until`, or a stop cue naming it. Every
/// voice of the cue that started before the moment (and is not ended yet) fades out from it.
public struct CueStop: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The cue's `until`.
        case until
        /// The stop cue at this index of the scene's cues.
        case stopCue(Int)
    }

    /// Index of the scene in the playlist.
    public var scene: Int
    public var sceneID: String
    /// Index (in the scene's `cues`) of the cue whose sound ends.
    public var cue: Int
    /// That cue's id, when it has one.
    public var cueID: String?
    /// Seconds from the scene's start, exactly (trigger time plus offset).
    public var sceneTime: Rational
    /// Seconds of fade-out from `sceneTime`.
    public var fadeOut: Double
    public var reason: Reason
    public var trigger: CueFiring.Trigger
    /// The moment's offset in seconds, already included in `sceneTime`.
    public var offset: Rational
}

/// A stop placed on the playlist's timeline.
public struct ScheduledStop: Sendable, Equatable {
    public var stop: CueStop
    /// Seconds from the start of the playlist, exactly.
    public var absoluteTime: Rational
    /// `ceil(absoluteTime × sampleRate)`.
    public var sampleIndex: Int64
}

/// An ambience that starts on a moment of its scene (its `start`) rather than when the scene appears.
public struct AmbienceStart: Sendable, Equatable {
    public var scene: Int
    public var sceneID: String
    /// Index in the scene's `ambience`.
    public var ambience: Int
    public var sound: String
    /// Seconds from the scene's start, exactly: the moment's first occurrence in the scene.
    public var sceneTime: Rational
    public var trigger: CueFiring.Trigger
    public var offset: Rational
}

/// An ambience start placed on the playlist's timeline.
public struct ScheduledAmbienceStart: Sendable, Equatable {
    public var start: AmbienceStart
    /// Seconds from the start of the playlist, exactly.
    public var absoluteTime: Rational
    /// `ceil(absoluteTime × sampleRate)`.
    public var sampleIndex: Int64
}

extension CueSchedule {
    /// The times in `[0, duration)` of the scene at which `trigger` (plus `offset`) happens, in order, with what
    /// happened: the one place a trigger becomes scene times (cues, stops, `until`, an ambience's `start`).
    public static func occurrences(of trigger: CueTrigger, offset: Rational, in scene: Scene) -> [(sceneTime: Rational, trigger: CueFiring.Trigger)] {
        switch trigger {
        case .at(let time):
            let sceneTime = time + offset
            return sceneTime >= .zero && sceneTime < scene.duration ? [(sceneTime, .at(time))] : []
        case .animation(let nodeID, let animationID, let event):
            // Unknown references are reported by `diorama check`; here they simply never happen.
            guard let animation = scene.node(withID: nodeID)?.animations.first(where: { $0.id == animationID }) else { return [] }
            return AnimationEventTimes(animation).occurrences(of: event, from: -offset, before: scene.duration - offset).map { time, iteration in
                (time + offset, .animation(node: nodeID, animation: animationID, event: event, iteration: iteration))
            }
        case .marker(let name):
            guard let marker = scene.markers.first(where: { $0.name == name }) else { return [] }
            let sceneTime = marker.time + offset
            return sceneTime >= .zero && sceneTime < scene.duration ? [(sceneTime, .marker(name: name, time: marker.time))] : []
        case .tap(let node, let nth):
            // A tap that has not happened in this visit fires nothing.
            guard let time = scene.tapTime(of: node, nth: nth) else { return [] }
            let sceneTime = time + offset
            return sceneTime >= .zero && sceneTime < scene.duration ? [(sceneTime, .tap(node: node, time: time, nth: nth))] : []
        case .lottie(let nodeID, let event):
            guard case .lottie(let lottie)? = scene.node(withID: nodeID)?.content,
                  let frame = lottie.frame(of: event) else { return [] }
            return LottieTiming(lottie).appearances(of: frame, from: -offset, before: scene.duration - offset).map { time, iteration in
                (time + offset, .lottie(node: nodeID, event: event, frame: frame, iteration: iteration))
            }
        }
    }

    /// The stops of one scene (each cue's `until` after each of its firings, and every stop cue), ordered by scene
    /// time, then cue index. `firings` are the scene's firings (`firings(of:index:)`); `scene` has its starts
    /// resolved (`Scene.resolvingStarts()`).
    public static func stops(of scene: Scene, index: Int, firings: [CueFiring]) -> [CueStop] {
        var result: [CueStop] = []
        for (cueIndex, cue) in scene.cues.enumerated() {
            if let name = cue.stop {
                guard let target = scene.cues.firstIndex(where: { $0.id == name && !$0.isStop }) else { continue }
                for (time, trigger) in occurrences(of: cue.trigger, offset: cue.offset, in: scene) {
                    result.append(CueStop(scene: index, sceneID: scene.id, cue: target, cueID: name, sceneTime: time,
                                          fadeOut: cue.fadeOut, reason: .stopCue(cueIndex), trigger: trigger, offset: cue.offset))
                }
            } else if let until = cue.until {
                // Each firing ends at the first `until` after it: only the moments that end one are stops.
                let ends = occurrences(of: until.trigger, offset: until.offset, in: scene)
                var used = Set<Int>()
                for firing in firings where firing.cue == cueIndex {
                    if let next = firstIndex(in: ends.map(\.sceneTime), after: firing.sceneTime) { used.insert(next) }
                }
                for endIndex in used.sorted() {
                    result.append(CueStop(scene: index, sceneID: scene.id, cue: cueIndex, cueID: cue.id, sceneTime: ends[endIndex].sceneTime,
                                          fadeOut: cue.fadeOut, reason: .until, trigger: ends[endIndex].trigger, offset: until.offset))
                }
            }
        }
        return result.enumerated().sorted { lhs, rhs in
            if lhs.element.sceneTime != rhs.element.sceneTime { return lhs.element.sceneTime < rhs.element.sceneTime }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The scene's ambience that starts on a moment: each at the moment's first occurrence in the scene (none when
    /// it never happens there), in ambience order. `scene` has its starts resolved (`Scene.resolvingStarts()`).
    public static func ambienceStarts(of scene: Scene, index: Int) -> [AmbienceStart] {
        scene.ambience.enumerated().compactMap { ambienceIndex, ambience in
            guard let start = ambience.start,
                  let first = occurrences(of: start.trigger, offset: start.offset, in: scene).first else { return nil }
            return AmbienceStart(scene: index, sceneID: scene.id, ambience: ambienceIndex, sound: ambience.sound,
                                 sceneTime: first.sceneTime, trigger: first.trigger, offset: start.offset)
        }
    }

    /// The firings with what makes their sound last, and each one's end: the first of its `until` and the stops
    /// naming it that comes after its start (a stop at the very time a sound starts acts before it, so it does not
    /// end it).
    static func withEnds(_ firings: [CueFiring], of scene: Scene, stops: [CueStop]) -> [CueFiring] {
        firings.map { firing in
            var firing = firing
            let cue = scene.cues[firing.cue]
            firing.id = cue.id
            firing.loops = cue.loops
            firing.endsWithScene = cue.endsWithScene
            firing.fadeOut = cue.fadeOut
            firing.duck = cue.duck
            firing.end = stops.first { $0.cue == firing.cue && $0.sceneTime > firing.sceneTime }.map { stop in
                CueFiring.End(sceneTime: stop.sceneTime, reason: stop.reason, fadeOut: stop.fadeOut)
            }
            return firing
        }
    }

    /// The index of the first of the ascending `times` after `time`.
    private static func firstIndex(in times: [Rational], after time: Rational) -> Int? {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return low < times.count ? low : nil
    }
}

extension CueFiring {
    /// Where a firing's sound is ended early.
    public struct End: Sendable, Equatable {
        /// Seconds from the scene's start, exactly.
        public var sceneTime: Rational
        public var reason: CueStop.Reason
        /// Seconds of fade-out from `sceneTime`.
        public var fadeOut: Double
    }
}
