import DioramaDocument
import DioramaRender
import DioramaTimeline
import Foundation
import Testing

/// The shipped breathing scenes' "Breathe in" / "Breathe out" labels: one cross-fades into the other at each turn
/// of the breath, so at no frame is the label's place empty, and the flower's vapour never drifts over the words.
@Suite struct BreathLabelTests {
    /// (scene id, the ids of its labels, the least opacity the most visible label keeps at every frame).
    static let scenes: [(scene: String, labels: [String], least: Double)] = [
        ("flower", ["breathe-in", "breathe-out"], 0.7),
        ("breathing", ["inhale", "exhale"], 0.6),
    ]

    private func load() throws -> LoadedDocument {
        try DocumentLoader.load(path: ShippedScenesTests.repositoryRoot.appendingPathComponent("scenes.json").path)
    }

    /// Each labelled text's opacity as drawn: its own times its groups'.
    static func opacities(of ids: [String], in nodes: [NodeSnapshot], inherited: Double = 1) -> [String: Double] {
        var found: [String: Double] = [:]
        for node in nodes {
            let opacity = inherited * node.opacity
            if let id = node.id, ids.contains(id) { found[id] = opacity }
            if case .group(let children) = node.content {
                found.merge(opacities(of: ids, in: children, inherited: opacity)) { $1 }
            }
        }
        return found
    }

    /// Every 1/60 s from the scene's start to its end, the most visible label's opacity; its least over the scene.
    @Test(arguments: scenes.indices)
    func aLabelShowsAtEveryFrame(_ index: Int) throws {
        let (sceneID, labels, least) = Self.scenes[index]
        let document = try load().document
        let scene = try #require(document.scenes.firstIndex { $0.id == sceneID })
        let evaluator = SceneEvaluator(document: document)
        let frames = Int(document.scenes[scene].duration.doubleValue * 60)
        var lowest = (opacity: 1.0, time: 0.0)
        for frame in 0...frames {
            let time = min(Double(frame) / 60, document.scenes[scene].duration.doubleValue - 1e-6)
            let shown = Self.opacities(of: labels, in: evaluator.snapshot(scene: scene, at: time).nodes)
            #expect(shown.count == labels.count, "\(sceneID) at \(time) s has labels \(shown.keys.sorted())")
            let most = shown.values.max() ?? 0
            if most < lowest.opacity { lowest = (most, time) }
        }
        #expect(lowest.opacity >= least,
                "\(sceneID): the label fades to \(lowest.opacity) at \(lowest.time) s (at least \(least) wanted)")
        print("\(sceneID): least label opacity \(String(format: "%.3f", lowest.opacity)) at \(String(format: "%.3f", lowest.time)) s")
    }

    /// The flower's breath, drawn and left out, over one whole breath every 1/8 s: the band of the labels (the top
    /// quarter of the frame) stays the same (within the one level by which compositing rounds), while the vapour shows
    /// below it.
    @Test func theFlowersBreathNeverCoversTheWords() throws {
        let loaded = try load()
        let scene = try #require(loaded.document.scenes.firstIndex { $0.id == "flower" })
        let evaluator = SceneEvaluator(document: loaded.document)
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory))
        let (width, height) = (320, 180)
        let band = height / 4 * width * 4  // the bytes of the rows above canvas y = 180, where the labels stand
        var shownBelow = 0
        for step in 0..<34 {
            let time = 4 + Double(step) / 8
            let snapshot = evaluator.snapshot(scene: scene, at: time)
            var without = snapshot
            without.nodes.removeAll { $0.id == "breath" }
            #expect(without.nodes.count == snapshot.nodes.count - 1)
            let drawn = try renderer.render(snapshot, width: width, height: height)
            let left = try renderer.render(without, width: width, height: height)
            let difference = zip(drawn.bytes, left.bytes).map { abs(Int($0) - Int($1)) }
            let inBand = difference[..<band].max() ?? 0
            #expect(inBand <= 1, "the breath changes the labels' band by \(inBand) levels at \(time) s")
            if (difference[band...].max() ?? 0) > 24 { shownBelow += 1 }
        }
        #expect(shownBelow >= 12, "the breath shows in only \(shownBelow) of 34 frames")
    }
}
