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
