import DioramaDocument
import DioramaTimeline

/// The timeline's scene evaluator as the player's scene source: one evaluation plan per loaded document.
public final class EvaluatedScenes: SceneSource {
    private var evaluator: SceneEvaluator?

    public init() {}

    public func prepare(_ document: Document) {
        evaluator = SceneEvaluator(document: document)
    }

    public func snapshot(of document: Document, scene: Int, time: Double, language: String) -> Snapshot {
        if evaluator == nil { prepare(document) }
        return evaluator!.snapshot(scene: scene, at: time, language: language)
    }
}

extension PlaybackScene {
    /// Every firing of scene `scene`'s cues (timed and bound to animations, on every repetition), from the
    /// timeline's cue schedule, as (frame in the scene, cue): `ceil(sceneTime × sampleRate)`.
    public static func scheduledCueFrames(of document: Document, scene: Int, sampleRate: Int) -> [(frame: Int64, cue: Cue)] {
        CueSchedule.firings(of: document.scenes[scene], index: scene).map { firing in
            (frames(firing.sceneTime, sampleRate: sampleRate),
             Cue(sound: firing.sound, trigger: .at(firing.sceneTime), gain: firing.gain, pan: firing.pan))
        }
    }
}
