import DioramaDocument

/// The playlist as a state machine driven by a sample clock it is given (Int64 frames at `sampleRate`):
/// it never reads the wall clock, so tests, offline renders and the live player drive it the same way.
///
/// Commands (`play`, `pause`, `resume`, `next`, `previous`, `jump`, `seek`, `stop`) take effect at a frame (never
/// before the last command's);
/// `advance(to:)` returns the events of the frames in `[cursor, frame)` in order. Every command first brings
/// the events up to its frame (so nothing played through is lost) or, when a look-ahead already went past it,
/// returns `.revoked(fromFrame:)` first. Cues in a part of a scene that is skipped (next, previous, jump, seek)
/// never fire. See docs/TIMELINE.md for the look-ahead protocol.
///
/// Example:
/// ```swift
/// var sequencer = PlaylistSequencer(document: document, sampleRate: 48_000)
/// var events = sequencer.play(at: 0)
/// events += sequencer.advance(to: 48_000)      // the first second
/// events += sequencer.next(at: 48_000)         // skip to the next scene
/// ```
///
/// Timing is exact: a scene's origin is a rational frame, cue frames are `ceil(origin + sceneTime × rate)`, so
/// uninterrupted play lands every cue on the sample `CueSchedule` gives, after any number of scenes.
public struct PlaylistSequencer: Sendable {
    public enum State: Sendable, Equatable {
        case idle, playing, paused, finished
    }

    /// Samples per second of the driving clock.
    public let sampleRate: Int
    public var end: PlaylistEnd
    /// Where each scene starts and how long it lasts.
    public let clock: PlaylistClock
    /// Each scene's cue firings, ordered by scene time.
    public let firings: [[CueFiring]]
    /// Each scene's stops (`until`s and stop cues), ordered by scene time.
    public let stops: [[CueStop]]
    /// Each scene's ambience that starts on a moment, ordered by scene time.
    public let ambienceStarts: [[AmbienceStart]]
    /// Each scene's firings, stops and ambience starts in the order they act (see `SceneAction`).
    private let actions: [[SceneAction]]
    /// The scenes with tappable nodes, as written, for scheduling a tap (`tap(_:at:)`).
    let tappableScenes: [Int: Scene]
    /// The taps of the anchor's visit of its scene and what it does with them, replacing the scene's own actions
    /// for that visit only (`PlaylistSequencer+Tap.swift`).
    var tappedVisit: TappedVisit?

    /// Scene lengths in frames (exact rationals).
    private let sceneFrames: [Rational]
    private let rate: Rational

    /// The state set by the last command, at `anchorFrame`; everything later is a pure function of it.
    private var anchor: Anchor = .idle
    private var anchorFrame: Int64 = .min
    /// Events of frames before this one have been returned.
    public private(set) var cursor: Int64 = .min

    /// The frame the last command took effect at (`Int64.min` before the first).
    public var lastCommandFrame: Int64 { anchorFrame }

    /// The events commands returned at frame `commandEventsFrame` (their own, not those they caught up on): a
    /// revocation from that frame voids them too, so a later command there returns them again after it.
    private var commandEvents: [SequencerEvent] = []
    private var commandEventsFrame: Int64 = .min
    /// How many events at the head of the current command's result `begin` returned again (with the revocation).
    private var repeatedCount = 0

    private enum Anchor: Equatable {
        case idle
        /// `origin`: the exact (possibly fractional) frame of the scene's time 0. Which cues fire is decided by
        /// frames alone: those whose sample is at or after the frame the scene (re)started from.
        case playing(scene: Int, origin: Rational)
        /// `position`: scene seconds where it stopped.
        case paused(scene: Int, position: Rational)
        case finished
    }

    /// `schedule.sampleRate` must be positive (the command line refuses other rates before getting here).
    public init(schedule: CueSchedule, end: PlaylistEnd = .wrap) {
        precondition(schedule.sampleRate > 0, "a playlist sequencer needs a positive sample rate")
        sampleRate = schedule.sampleRate
        self.end = end
        rate = Rational(schedule.sampleRate)
        clock = schedule.clock
        var firings = Array(repeating: [CueFiring](), count: schedule.scenes.count)
        for cue in schedule.cues { firings[cue.firing.scene].append(cue.firing) }
        self.firings = firings
        var stops = Array(repeating: [CueStop](), count: schedule.scenes.count)
        for stop in schedule.stops { stops[stop.stop.scene].append(stop.stop) }
        self.stops = stops
        var ambienceStarts = Array(repeating: [AmbienceStart](), count: schedule.scenes.count)
        for start in schedule.ambienceStarts { ambienceStarts[start.start.scene].append(start.start) }
        self.ambienceStarts = ambienceStarts
        actions = schedule.scenes.indices.map { SceneAction.ordered(firings: firings[$0], stops: stops[$0], ambience: ambienceStarts[$0]) }
        tappableScenes = schedule.tappableScenes
        sceneFrames = clock.durations.map { $0 * Rational(schedule.sampleRate) }
    }

    public init(document: Document, sampleRate: Int, end: PlaylistEnd = .wrap) {
        self.init(schedule: CueSchedule(document: document, sampleRate: sampleRate), end: end)
    }

    public var sceneCount: Int { clock.sceneCount }

    /// The state after the last command (it does not change by itself between commands, except that a
    /// non-wrapping playlist is reported finished by `position(at:)` once its last scene has ended).
    public var state: State {
        switch anchor {
        case .idle: .idle
        case .playing: .playing
        case .paused: .paused
        case .finished: .finished
        }
    }

    // MARK: - Queries

    /// The scene showing at `frame` and its scene time; nil when idle or finished.
    public func position(at frame: Int64) -> PlaybackPosition? {
        switch locate(frame) {
        case .playing(let scene, let origin):
            let time = (Rational(Int128(frame)) - origin) / rate
            return PlaybackPosition(scene: scene, sceneTime: min(max(time, .zero), clock.durations[scene]))
        case .paused(let scene, let position):
            return PlaybackPosition(scene: scene, sceneTime: position, isPaused: true)
        case .idle, .finished:
            return nil
        }
    }

    /// A story viewer's segments at `frame`, as the clock fills them (all 1 once a non-wrapping playlist has
    /// finished, all 0 when idle).
    public func progress(at frame: Int64) -> [Double] {
        guard sceneCount > 0 else { return [] }
        if let position = position(at: frame) {
            return clock.progress(scene: position.scene, sceneFrame: (position.sceneTime * rate).doubleValue, sampleRate: sampleRate)
        }
        // Nothing showing: idle fills nothing, finished fills every segment.
        let finished = locate(frame) == .finished
        return clock.progress(scene: finished ? sceneCount - 1 : 0, sceneFrame: finished ? .infinity : 0, sampleRate: sampleRate)
    }

    // MARK: - The clock

    /// The events of frames `cursor ..< frame`, in order, and moves the cursor to `frame`. The audio path may call
    /// it with a frame ahead of what is heard (a look-ahead); a later command at an earlier frame revokes the excess.
    public mutating func advance(to frame: Int64) -> [SequencerEvent] {
        guard frame > cursor else { return [] }
        let events = events(from: cursor, to: frame)
        cursor = frame
        return events
    }

    // MARK: - Commands

    /// Starts the playlist at `scene` (from idle or finished); resumes when paused; nothing when playing.
    public mutating func play(at frame: Int64, scene: Int = 0) -> [SequencerEvent] {
        let frame = max(frame, anchorFrame)
        switch state(before: frame) {
        case .idle, .finished:
            guard clock.durations.indices.contains(scene) else { return [] }
            var events = begin(at: frame)
            events += enter(scene, at: frame, paused: false)
            return finish(events, at: frame)
        case .paused:
            return resume(at: frame)
        case .playing:
            return []
        }
    }

    /// Freezes scene time at `frame`; later cues move later by the length of the pause.
    public mutating func pause(at frame: Int64) -> [SequencerEvent] {
        let frame = max(frame, anchorFrame)
        guard case .playing(let scene, let origin) = state(before: frame) else { return [] }
        var events = begin(at: frame)
        let position = min(max((Rational(Int128(frame)) - origin) / rate, .zero), clock.durations[scene])
        set(.paused(scene: scene, position: position), at: frame)
        events.append(.paused(frame: frame))
        return finish(events, at: frame)
    }

    /// Continues from where `pause` stopped, at `frame`.
    public mutating func resume(at frame: Int64) -> [SequencerEvent] {
        let frame = max(frame, anchorFrame)
        guard case .paused(let scene, let position) = state(before: frame) else { return [] }
        var events = begin(at: frame)
        set(.playing(scene: scene, origin: Rational(Int128(frame)) - position * rate), at: frame)
        events.append(.resumed(scene: scene, frame: frame))
        return finish(events, at: frame)
    }

    /// The next scene from its start; after the last one, the first (`.wrap`) or finished (`.stop`).
    public mutating func next(at frame: Int64) -> [SequencerEvent] {
        let frame = max(frame, anchorFrame)
        guard let (scene, paused) = current(before: frame) else { return [] }
        var events = begin(at: frame)
        events.append(.sceneDisappeared(scene: scene, frame: frame))
        if scene + 1 < sceneCount {
            events += enter(scene + 1, at: frame, paused: paused)
        } else if end == .wrap {
            events += enter(0, at: frame, paused: paused)
        } else {
            set(.finished, at: frame)
            events.append(.finished(frame: frame))
        }
        return finish(events, at: frame)
    }

    /// The previous scene from its start; the first scene restarts itself. From finished, the last scene.
    public mutating func previous(at frame: Int64) -> [SequencerEvent] {
        let frame = max(frame, anchorFrame)
        if case .finished = state(before: frame) {
            guard sceneCount > 0 else { return [] }
            var events = begin(at: frame)
            events += enter(sceneCount - 1, at: frame, paused: false)
            return finish(events, at: frame)
        }
        guard let (scene, paused) = current(before: frame) else { return [] }
        var events = begin(at: frame)
        events.append(.sceneDisappeared(scene: scene, frame: frame))
        events += enter(max(scene - 1, 0), at: frame, paused: paused)
        return finish(events, at: frame)
    }

    /// Scene `scene` from its start (the current one restarts); from idle or finished it starts playing.
    public mutating func jump(to scene: Int, at frame: Int64) -> [SequencerEvent] {
        let frame = max(frame, anchorFrame)
        guard clock.durations.indices.contains(scene) else { return [] }
        let current = current(before: frame)
        var events = begin(at: frame)
        if let (showing, _) = current { events.append(.sceneDisappeared(scene: showing, frame: frame)) }
        events += enter(scene, at: frame, paused: current?.paused ?? false)
        return finish(events, at: frame)
    }

    /// Moves within the current scene to `sceneTime` seconds (clamped to 0 ... its duration) at `frame`: cues whose
    /// sample falls before `frame` are skipped, the others fire as if the scene had been playing from there (a cue
    /// less than one sample before `sceneTime` lands on `frame` itself, as uninterrupted play would put it). Seeking
    /// to the time a scene is at continues it without a gap or a repeat. Paused stays paused.
    public mutating func seek(to sceneTime: Rational, at frame: Int64) -> [SequencerEvent] {
        let frame = max(frame, anchorFrame)
        guard let (scene, paused) = current(before: frame) else { return [] }
        let time = min(max(sceneTime, .zero), clock.durations[scene])
        var events = begin(at: frame)
        let before = timeShowing(before: frame)
        if paused {
            set(.paused(scene: scene, position: time), at: frame)
        } else {
            set(.playing(scene: scene, origin: Rational(Int128(frame)) - time * rate), at: frame)
        }
        events += lastingSounds(of: scene, jumpedFrom: before, to: time, at: frame)
        return finish(events, at: frame)
    }

    /// Stops at `frame`: the scene disappears and the sequencer is idle.
    public mutating func stop(at frame: Int64) -> [SequencerEvent] {
        let frame = max(frame, anchorFrame)
        let current = current(before: frame)
        if current == nil, case .idle = state(before: frame) { return [] }
        var events = begin(at: frame)
        if let (scene, _) = current { events.append(.sceneDisappeared(scene: scene, frame: frame)) }
        set(.idle, at: frame)
        tappedVisit = nil
        return finish(events, at: frame)
    }

    // MARK: - Taps

    /// Taps the tappable node `node` of the scene showing at `frame`, at the scene time there: the node's next
    /// tap of this visit (its first, or the one after its `auto` tap or its last click). What waits for that tap
    /// is scheduled from that time for the rest of this visit of the scene (a cue with offset 1.25 lands on
    /// `frame + 1.25 × rate` exactly), and what its `auto` tap had announced past `frame` is revoked when this
    /// tap comes before it. Nothing when the node was tapped at this very scene time already (by a click or its
    /// `auto`), when the scene waits for no tap of this count or later, when it is not a tappable node of that
    /// scene, or when nothing is showing. Paused, the tap holds with the scene.
    public mutating func tap(_ node: String, at frame: Int64) -> [SequencerEvent] {
        let frame = max(frame, anchorFrame)
        let showing = state(before: frame)
        let scene: Int, time: Rational
        switch showing {
        case .playing(let index, let origin):
            (scene, time) = (index, min(max((Rational(Int128(frame)) - origin) / rate, .zero), clock.durations[index]))
        case .paused(let index, let position):
            (scene, time) = (index, position)
        case .idle, .finished:
            return []
        }
        guard let model = tappableScenes[scene], model.isTappable(node), time < clock.durations[scene] else { return [] }
        var taps = showing == anchor ? tappedVisit?.taps ?? model.taps : model.taps
        // Taps count in time order (a tap after a seek back replaces those the seek rewound past); one at the scene
        // time of the node's last (or of its `auto` tap) adds nothing, and so does one past the last count anything
        // waits for.
        let before = model.tapTimes(with: taps)[node]
        if taps[node].last.map({ $0 > time }) == true { taps.forget(node, from: time) }
        guard taps.add(time, to: node) else { return [] }
        let counted = model.tapTimes(with: taps)[node] ?? []
        guard counted != before, let count = counted.firstIndex(of: time).map({ $0 + 1 }),
              count <= model.tapCountsWaitedFor[node]?.max() ?? 0 else { return [] }
        let events = begin(at: frame)
        set(showing, at: frame)
        tappedVisit = TappedVisit(scene: model, index: scene, taps: taps, sampleRate: sampleRate)
        return finish(events, at: frame)
    }

    /// The taps of the visit of a scene showing at `frame`, as `Scene.taps` takes them to draw it: empty when its
    /// nodes were not tapped in that visit (their `auto` taps apply).
    public func taps(at frame: Int64) -> VisitTaps {
        let showing = locate(frame)
        if let tappedVisit, showing == anchor { return tappedVisit.taps }
        if case .playing(let scene, _) = showing { return tappableScenes[scene]?.taps ?? [:] }
        if case .paused(let scene, _) = showing { return tappableScenes[scene]?.taps ?? [:] }
        return [:]
    }

    // MARK: - Internals


    /// Brings the events up to `frame` (or revokes those a look-ahead returned past it) before a command there.
    private mutating func begin(at frame: Int64) -> [SequencerEvent] {
        // Taps belong to one visit of a scene: a command after the playlist moved on from it forgets them.
        if tappedVisit != nil, state(before: frame) != anchor { tappedVisit = nil }
        repeatedCount = 0
        if frame >= cursor { return advance(to: frame) }
        cursor = frame
        // Commands earlier at this very frame lose their events to the revocation too: say them again.
        let again = frame == commandEventsFrame ? commandEvents : []
        repeatedCount = 1 + again.count
        return [.revoked(fromFrame: frame)] + again
    }

    /// Notes the command's own events at `frame` (for a later command there to repeat) and returns `events`.
    private mutating func finish(_ events: [SequencerEvent], at frame: Int64) -> [SequencerEvent] {
        if commandEventsFrame != frame {
            commandEvents = []
            commandEventsFrame = frame
        }
        commandEvents += events.dropFirst(repeatedCount).filter { $0.frame == frame }
        repeatedCount = 0
        return events
    }

    private mutating func enter(_ scene: Int, at frame: Int64, paused: Bool) -> [SequencerEvent] {
        tappedVisit = nil
        set(paused ? .paused(scene: scene, position: .zero)
                   : .playing(scene: scene, origin: Rational(Int128(frame))), at: frame)
        return [.sceneAppeared(scene: scene, frame: frame)]
    }

    private mutating func set(_ anchor: Anchor, at frame: Int64) {
        self.anchor = anchor
        anchorFrame = frame
        cursor = frame
    }

    /// The state a command at `frame` acts on: what showed during the frame before it (a scene ending exactly at
    /// `frame` is still the one the user saw), or the last command's state when it happened at `frame`.
    private func state(before frame: Int64) -> Anchor {
        frame > anchorFrame ? locate(frame - 1) : anchor
    }

    /// The scene time showing during the frame before `frame` (as `current(before:)` sees it), 0 when none.
    private func timeShowing(before frame: Int64) -> Rational {
        switch state(before: frame) {
        case .playing(let scene, let origin): min(max((Rational(Int128(frame)) - origin) / rate, .zero), clock.durations[scene])
        case .paused(_, let position): position
        case .idle, .finished: .zero
        }
    }

    private func current(before frame: Int64) -> (scene: Int, paused: Bool)? {
        switch state(before: frame) {
        case .playing(let scene, _): (scene, false)
        case .paused(let scene, _): (scene, true)
        case .idle, .finished: nil
        }
    }

    /// The state at `frame` (at or after the last command), following automatic scene changes from the anchor: the
    /// clock finds the scene at the playlist time `frame` is at on the anchor's round (frame f belongs to a scene
    /// while f < origin + length), in a later round when the playlist wraps.
    private func locate(_ frame: Int64) -> Anchor {
        guard frame > anchorFrame, case .playing(let anchorScene, let anchorOrigin) = anchor else { return anchor }
        let f = Rational(Int128(frame))
        let time = clock.starts[anchorScene] + (f - anchorOrigin) / rate
        guard time < clock.length || (end == .wrap && clock.length > .zero) else { return .finished }
        let here = clock.position(at: time, wrapping: true)
        return .playing(scene: here.scene, origin: f - here.sceneTime * rate)
    }

    /// The frame of a cue at `sceneTime` in a scene whose time 0 is at `origin`: the first frame at or after it.
    private func frame(of sceneTime: Rational, origin: Rational) -> Int64 {
        Int64(clamping: (origin + sceneTime * rate).ceiling)
    }

    private func events(from start: Int64, to stop: Int64) -> [SequencerEvent] {
        guard case .playing(var scene, var origin) = state(before: start) else { return [] }
        var events: [SequencerEvent] = []
        // The anchor's visit plays its taps; the visits the playlist moves on to start untapped.
        var visit = state(before: start) == anchor ? tappedVisit : nil
        while true {
            let cues = visit?.actions ?? actions[scene]
            visit = nil
            // The first action at or after the start frame (action frames grow with scene time).
            var low = 0, high = cues.count
            while low < high {
                let middle = (low + high) / 2
                if frame(of: cues[middle].sceneTime, origin: origin) < start {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            for cue in cues[low...] {
                let cueFrame = frame(of: cue.sceneTime, origin: origin)
                if cueFrame >= stop { break }
                events.append(cue.event(at: cueFrame))
            }
            let sceneEnd = origin + sceneFrames[scene]
            let endFrame = Int64(clamping: sceneEnd.ceiling)
            if endFrame >= stop { break }
            events.append(.sceneDisappeared(scene: scene, frame: endFrame))
            if scene + 1 < sceneCount {
                scene += 1
            } else if end == .wrap, clock.length > .zero {
                scene = 0
            } else {
                events.append(.finished(frame: endFrame))
                break
            }
            events.append(.sceneAppeared(scene: scene, frame: endFrame))
            origin = sceneEnd
        }
        return events
    }
}
