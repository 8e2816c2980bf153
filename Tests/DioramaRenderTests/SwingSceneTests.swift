import DioramaDocument
import DioramaRender
import DioramaTimeline
import Foundation
import Testing

/// The shipped swing (scenes.json's "swing"): a pendulum's arc about the branch, the girl, seat and ropes turning
/// as one body, legs kicking in time with it, and a sky that moves behind it.
@Suite struct SwingSceneTests {
    static let scenesFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scenes.json")

    private func load() throws -> (loaded: LoadedDocument, index: Int) {
        let loaded = try DocumentLoader.load(path: Self.scenesFile.path)
        return (loaded, try #require(loaded.document.scenes.firstIndex { $0.id == "swing" }))
    }

    /// The rotation of `node` every 1/100 s of the scene.
    private static func rotations(of node: String, in scene: Scene) throws -> [Double] {
        let steps = Int(scene.duration.doubleValue * 100)
        return try (0...steps).map { try #require(NodePropertyValues.value(of: .rotation, node: node, in: scene, at: Double($0) / 100)) }
    }

    @Test func theSwingArcsThroughAtLeastFiftyDegreesEasingAtItsTurns() throws {
        let (loaded, index) = try load()
        let angles = try Self.rotations(of: "swing", in: loaded.document.scenes[index])
        let range = try #require(angles.max()) - (try #require(angles.min()))
        #expect(range >= 50 && range <= 70, "turns through \(range)°")
        // A pendulum's pace: slow at the turns, fastest at the bottom (the step across 0° is the largest).
        let steps = zip(angles, angles.dropFirst()).map { abs($1 - $0) }
        let atTurns = zip(angles, steps).filter { abs($0.0) > 27 }.map(\.1)
        let atBottom = zip(angles, steps).filter { abs($0.0) < 3 }.map(\.1)
        #expect(try #require(atTurns.max()) < 0.4 * (try #require(atBottom.min())))
    }

    @Test func theGirlSeatAndRopesTurnAsOneBodyAboutTheBranch() throws {
        let (loaded, index) = try load()
        let snapshot = SceneEvaluator(document: loaded.document).snapshot(scene: index, at: 1.6)
        func find(_ id: String, in nodes: [NodeSnapshot]) -> NodeSnapshot? {
            for node in nodes {
                if node.id == id { return node }
                if case .group(let children) = node.content, let found = find(id, in: children) { return found }
            }
            return nil
        }
        func ids(_ nodes: [NodeSnapshot]) -> Set<String> {
            Set(nodes.flatMap { node -> [String] in
                var found = node.id.map { [$0] } ?? []
                if case .group(let children) = node.content { found += ids(children) }
                return found
            })
        }
        let swing = try #require(find("swing", in: snapshot.nodes))
        guard case .group(let children) = swing.content else { Issue.record("the swing is not a group"); return }
        let parts: Set = ["rope-far", "rope-near", "seat", "dress", "head", "hair", "ponytail", "hand-near", "leg-near", "leg-far"]
        #expect(parts.isSubset(of: ids(children)), "missing \(parts.subtracting(ids(children)))")
        // It turns about the branch point (700, 160): that point stays put at the turn.
        let pivot = swing.transform.apply(to: Point(x: 0, y: 0))
        #expect(abs(pivot.x - 700) < 1e-9 && abs(pivot.y - 160) < 1e-9)
    }

    /// Extend going forward (the swing turning from 30° to -30°), tuck going back: each knee turns the way the
    /// swing does at every moment, fully out at the front turn and fully in at the back one.
    @Test(arguments: ["leg-near", "leg-far"])
    func theLegsKickAtTheKneeInTimeWithTheSwing(leg: String) throws {
        let (loaded, index) = try load()
        let scene = loaded.document.scenes[index]
        let swing = try Self.rotations(of: "swing", in: scene), knee = try Self.rotations(of: leg, in: scene)
        for i in 1..<swing.count where abs(swing[i] - swing[i - 1]) > 1e-6 {
            #expect((swing[i] - swing[i - 1]).sign == (knee[i] - knee[i - 1]).sign, "at \(Double(i) / 100) s")
        }
        let front = try #require(swing.indices.min { swing[$0] < swing[$1] }), back = try #require(swing.indices.max { swing[$0] < swing[$1] })
        #expect(knee[front] == knee.min() && knee[back] == knee.max())
    }

    /// Backgrounds move: with the swing (and its shadow) left out, the top third of the frame at 10 s is not the
    /// one at 0.5 s (the clouds drift, a leaf falls).
    @Test func theTopThirdMovesBetweenHalfASecondAndTenSeconds() throws {
        let (loaded, index) = try load()
        var document = loaded.document
        document.scenes[index].nodes.removeAll { $0.id == "swing" || $0.id == "swing-shadow" }
        let evaluator = SceneEvaluator(document: document)
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory))
        let (width, height) = (320, 180)
        let early = try renderer.render(evaluator.snapshot(scene: index, at: 0.5), width: width, height: height)
        let late = try renderer.render(evaluator.snapshot(scene: index, at: 10), width: width, height: height)
        let top = FrameComparison.changedInTopThird(early, late)
        #expect(Double(top.changed) / Double(top.pixels) > 0.02, "\(top.changed) of \(top.pixels) pixels changed")
    }
}
