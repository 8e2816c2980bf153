import DioramaDocument

/// One visit of a scene with taps: the scene's firings, stops and ambience starts scheduled with them. It replaces
/// the scene's own (those of its `auto` taps) for that visit only; entering the scene again starts untapped.
struct TappedVisit: Sendable {
    /// The scene's index in the playlist.
    let scene: Int
    /// The clicks of the visit, as `Scene.taps` takes them.
    let taps: VisitTaps
    let firings: [CueFiring]
    let stops: [CueStop]
    let ambienceStarts: [AmbienceStart]
    let actions: [SceneAction]

    init(scene: Scene, index: Int, taps: VisitTaps, sampleRate: Int) {
        var scene = scene
        scene.taps = taps
        let resolved = scene.resolvingStarts()
        let firings = CueSchedule.resolvedFirings(of: resolved, index: index)
        stops = CueSchedule.stops(of: resolved, index: index, firings: firings)
        // As the schedule does: a cue in the scene's last sample period does not sound.
        let sounding = firings.filter { CueSchedule.soundsInside(resolved, at: $0.sceneTime, sampleRate: sampleRate) }
        self.firings = CueSchedule.withEnds(sounding, of: resolved, stops: stops)
        ambienceStarts = CueSchedule.ambienceStarts(of: resolved, index: index)
        actions = SceneAction.ordered(firings: self.firings, stops: stops, ambience: ambienceStarts)
        self.taps = taps
        self.scene = index
    }
}

extension PlaylistSequencer {
    /// The firings and ambience starts of `scene` as the anchor's visit plays them (with its taps), else as the
    /// schedule gives them.
    func visitActions(_ scene: Int) -> (firings: [CueFiring], ambienceStarts: [AmbienceStart]) {
        if let tappedVisit, tappedVisit.scene == scene { return (tappedVisit.firings, tappedVisit.ambienceStarts) }
        return (firings[scene], ambienceStarts[scene])
    }
}

extension Scene {
    /// `tapTimes` with `taps` in place of the scene's own.
    func tapTimes(with taps: VisitTaps) -> [String: [Rational]] {
        var scene = self
        scene.taps = taps
        return scene.tapTimes
    }
}
