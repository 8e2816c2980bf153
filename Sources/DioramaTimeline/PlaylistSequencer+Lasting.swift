import DioramaDocument

/// One thing a scene does at a scene time while it plays: fire a cue, stop a cue's sound, start an ambience.
enum SceneAction: Sendable {
    case cue(CueFiring)
    case stop(CueStop)
    case ambience(AmbienceStart)

    var sceneTime: Rational {
        switch self {
        case .cue(let firing): firing.sceneTime
        case .stop(let stop): stop.sceneTime
        case .ambience(let start): start.sceneTime
        }
    }

    func event(at frame: Int64) -> SequencerEvent {
        switch self {
        case .cue(let firing): .cueDue(firing, frame: frame)
        case .stop(let stop): .cueStopDue(stop, frame: frame)
        case .ambience(let start): .ambienceDue(start, frame: frame)
        }
    }

    /// In the order they act: by scene time; at one time stops first (a stop ends the sounds started before it,
    /// so a loop "until" an event that also starts it again ends and restarts there), then ambience, then cues.
    static func ordered(firings: [CueFiring], stops: [CueStop], ambience: [AmbienceStart]) -> [SceneAction] {
        let all = stops.map { (rank: 0, action: SceneAction.stop($0)) } + ambience.map { (1, .ambience($0)) }
            + firings.map { (2, .cue($0)) }
        return all.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            if a.action.sceneTime != b.action.sceneTime { return a.action.sceneTime < b.action.sceneTime }
            if a.rank != b.rank { return a.rank < b.rank }
            return lhs.offset < rhs.offset
        }.map(\.element.action)
    }
}

extension PlaylistSequencer {
    /// What a seek forward within `scene` from scene time `before` to `after` at `frame` lands inside of: ambience
    /// whose `start` it jumps over, and loops (or cues with `until`) that started in the part jumped over and are
    /// not ended by then. They start at `frame` (an ambience with its fade-in, a loop from its first sample), so
    /// opening a scene part way through sounds as the scene does there. Seeking back starts nothing.
    func lastingSounds(of scene: Int, jumpedFrom before: Rational, to after: Rational, at frame: Int64) -> [SequencerEvent] {
        guard after > before, firings.indices.contains(scene) else { return [] }
        let rate = Rational(sampleRate)
        let commandFrame = Rational(Int128(frame))
        // Whether a moment at scene time `time` comes before `frame` when the scene is at `position` there.
        func passed(_ time: Rational, at position: Rational) -> Bool {
            Int64(clamping: (commandFrame + (time - position) * rate).ceiling) < frame
        }
        func jumpedOver(_ time: Rational) -> Bool { passed(time, at: after) && !passed(time, at: before) }
        let visit = visitActions(scene)
        var events: [SequencerEvent] = visit.ambienceStarts.filter { jumpedOver($0.sceneTime) }.map { .ambienceDue($0, frame: frame) }
        for firing in visit.firings where firing.endsWithScene && jumpedOver(firing.sceneTime) {
            if let end = firing.end, passed(end.sceneTime, at: after) { continue }
            events.append(.cueDue(firing, frame: frame))
        }
        return events
    }
}
