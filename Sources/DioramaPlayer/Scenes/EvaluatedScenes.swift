import DioramaDocument
import DioramaTimeline

/// The timeline's scene evaluator as the player's scene source: one evaluation plan per loaded document, and one
/// for the visit of a scene whose nodes were tapped (planned once per tap).
public final class EvaluatedScenes: SceneSource {
    private var evaluator: SceneEvaluator?
    private var tapped: (scene: Int, taps: VisitTaps, evaluator: SceneEvaluator)?

    public init() {}

    public func prepare(_ document: Document) {
        evaluator = SceneEvaluator(document: document)
        tapped = nil
    }

    public func snapshot(of document: Document, scene: Int, time: Double, language: String) -> Snapshot {
        if evaluator == nil { prepare(document) }
        return evaluator!.snapshot(scene: scene, at: time, language: language)
    }

    public func snapshot(of document: Document, scene: Int, time: Double, language: String, taps: VisitTaps) -> Snapshot {
        if evaluator == nil { prepare(document) }
        guard document.scenes.indices.contains(scene), taps != document.scenes[scene].taps else {
            return evaluator!.snapshot(scene: scene, at: time, language: language)
        }
        if tapped == nil || tapped!.scene != scene || tapped!.taps != taps {
            tapped = (scene, taps, evaluator!.tapping(scene: scene, taps: taps))
        }
        return tapped!.evaluator.snapshot(scene: scene, at: time, language: language)
    }
}
