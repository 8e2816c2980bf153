import DioramaDocument
import DioramaRender
import DioramaTimeline
import Foundation
import Testing

/// The shipped ocean (scenes.json at the repository root) as its illustration promises: a sky that moves, a buoy
/// that rides the water in front of it, and a light whose glow on the water follows it.
@Suite struct ShippedOceanTests {
    static let scenesFile = ShippedScenesTests.repositoryRoot.appendingPathComponent("scenes.json")

    static func load() throws -> (loaded: LoadedDocument, scene: Int) {
        let loaded = try DocumentLoader.load(path: scenesFile.path)
        return (loaded, try #require(loaded.document.scenes.firstIndex { $0.id == "ocean" }))
    }

    /// Clouds drift and gulls fly: the top third of the frame at 10 s is not the picture of 0.5 s.
    @Test func theSkyMovesBetweenHalfASecondAndTenSeconds() throws {
        let (loaded, scene) = try Self.load()
        let evaluator = SceneEvaluator(document: loaded.document)
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory))
        let (width, height) = (640, 360)
        let early = try renderer.render(evaluator.snapshot(scene: scene, at: 0.5), width: width, height: height)
        let late = try renderer.render(evaluator.snapshot(scene: scene, at: 10), width: width, height: height)
        let top = FrameComparison.changedInTopThird(early, late)
        let share = Double(top.changed) / Double(top.pixels)
        // The drifting clouds' streaks and four gulls: several per cent; a still sky is 0.
        #expect(share > 0.02, "only \(String(format: "%.2f", share * 100)) % of the top third changed")
    }

    /// Where a node's origin (or `point` in its own coordinates) is on the canvas, and its opacity times its groups'.
    static func find(_ id: String, in nodes: [NodeSnapshot], parent: Transform2D = .identity, opacity: Double = 1,
                     point: Point = Point(x: 0, y: 0)) -> (position: Point, opacity: Double)? {
        for node in nodes {
            let transform = node.transform.concatenating(parent)
            if node.id == id { return (transform.apply(to: point), opacity * node.opacity) }
            if case .group(let children) = node.content,
               let found = find(id, in: children, parent: transform, opacity: opacity * node.opacity, point: point) {
                return found
            }
        }
        return nil
    }

    /// The buoy floats in the front band of water: the band heaves with the buoy's bob, so the water in front of the
    /// hull rises and falls with it and never uncovers the hull's bottom; the light's reflection on the water stays
    /// under the lantern as the buoy rocks and blinks as the light does.
    @Test func theWaterCarriesTheBuoyAndItsLightShinesOnIt() throws {
        let (loaded, scene) = try Self.load()
        let evaluator = SceneEvaluator(document: loaded.document)
        for step in 0...80 {
            let time = Double(step) * 0.05
            let nodes = evaluator.snapshot(scene: scene, at: time).nodes
            let buoy = try #require(Self.find("buoy", in: nodes))
            let water = try #require(Self.find("wave-5", in: nodes))
            #expect(abs((buoy.position.y - 575) - water.position.y) < 1e-9, "at \(time) s")
            // The lantern's centre is 256 points above the pivot on the waterline.
            let light = try #require(Self.find("buoy-light", in: nodes, point: Point(x: 0, y: -256)))
            let reflection = try #require(Self.find("light-reflection", in: nodes))
            #expect(abs(light.position.x - reflection.position.x) < 3, "at \(time) s: light at x \(light.position.x), reflection at \(reflection.position.x)")
            #expect(abs(light.opacity - reflection.opacity) < 1e-9, "at \(time) s")
        }
    }
}
