@testable import DioramaRender
import DioramaDocument
import DioramaTimeline
import Foundation
import Testing

/// Frames drawn again only where nodes changed (FrameDamage.swift) are byte for byte the frames drawn whole.
@Suite struct DamageRenderTests {
    private func load() throws -> LoadedDocument {
        try DocumentLoader.load(path: ShippedScenesTests.repositoryRoot.appendingPathComponent("scenes.json").path)
    }

    /// Every shipped scene played through in order (as the player and `render` draw it), at a scale below, at and
    /// above the canvas's: each frame equals the same frame drawn whole.
    @Test(arguments: [(640, 360, 12.0, 30.0), (1280, 720, 4.0, 8.0), (1920, 1080, 3.0, 4.0)])
    func shippedScenesMatchWholeFrames(_ size: (width: Int, height: Int, rate: Double, seconds: Double)) throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        var damaged = 0, frames = 0
        for (index, scene) in loaded.document.scenes.enumerated() {
            let directory = URL(fileURLWithPath: loaded.baseDirectory)
            let renderer = FrameRenderer(imageDirectory: directory)
            let reference = FrameRenderer(imageDirectory: directory)
            reference.usesDamage = false
            let count = Int(min(scene.duration.doubleValue, size.seconds) * size.rate)
            for k in 0..<count {
                let snapshot = evaluator.snapshot(scene: index, at: Double(k) / size.rate)
                let actual = try renderer.render(snapshot, width: size.width, height: size.height)
                let expected = try reference.render(snapshot, width: size.width, height: size.height)
                frames += 1
                if renderer.lastDamage != nil { damaged += 1 }
                if actual.bytes != expected.bytes {
                    Issue.record("\(scene.id) at \(Double(k) / size.rate) s, \(size.width)x\(size.height): differs from the whole frame (areas \(String(describing: renderer.lastDamage)))")
                    return
                }
            }
        }
        // Not vacuous: many frames of the playlist were drawn in areas (at low frame rates most changes are large).
        #expect(damaged * 3 > frames, "\(damaged) of \(frames) frames drawn in areas")
    }

    /// Frames out of order (a seek, a scene change with the same nodes' count) still equal whole frames.
    @Test func framesOutOfOrderMatchWholeFrames() throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        let renderer = FrameRenderer(imageDirectory: directory)
        let reference = FrameRenderer(imageDirectory: directory)
        reference.usesDamage = false
        var generator = SplitMix64(seed: 13)
        for _ in 0..<60 {
            let scene = Int(generator.next() % UInt64(loaded.document.scenes.count))
            let time = Double(generator.next() % 1000) / 1000 * loaded.document.scenes[scene].duration.doubleValue
            // Often the next frame of the same scene, sometimes a jump.
            for step in 0..<3 {
                let snapshot = evaluator.snapshot(scene: scene, at: time + Double(step) / 30)
                let actual = try renderer.render(snapshot, width: 480, height: 270)
                let expected = try reference.render(snapshot, width: 480, height: 270)
                #expect(actual.bytes == expected.bytes, "\(loaded.document.scenes[scene].id) at \(time) s")
            }
        }
    }

    @Test func areasMergeAndGrowOverClipDependentNodes() {
        let canvas = PixelRect(x: 0, y: 0, width: 1000, height: 1000)
        func safe(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> NodeFootprint {
            NodeFootprint(box: PixelRect(x: x, y: y, width: w, height: h), clipSafe: true)
        }
        func gradient(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> NodeFootprint {
            NodeFootprint(box: PixelRect(x: x, y: y, width: w, height: h), clipSafe: false)
        }
        // A moved node: its old and new places, overlapping, become one area.
        var areas = FrameRenderer.damageAreas(old: [safe(0, 0, 50, 50), safe(900, 900, 10, 10)],
                                              new: [safe(20, 0, 50, 50), safe(900, 900, 10, 10)],
                                              changed: [true, false], firstDrawn: 0, canvas: canvas)
        #expect(areas == [PixelRect(x: 0, y: 0, width: 70, height: 50)])
        // A clip-dependent node the area reaches is held whole; one it does not reach is left alone.
        areas = FrameRenderer.damageAreas(old: [safe(0, 0, 50, 50), gradient(40, 40, 100, 100), gradient(500, 500, 10, 10)],
                                          new: [safe(0, 0, 50, 50), gradient(40, 40, 100, 100), gradient(500, 500, 10, 10)],
                                          changed: [true, false, false], firstDrawn: 0, canvas: canvas)
        #expect(areas == [PixelRect(x: 0, y: 0, width: 140, height: 140)])
        // Areas kept to the canvas; nothing changed, nothing drawn.
        areas = FrameRenderer.damageAreas(old: [safe(-20, -20, 40, 40)], new: [safe(-20, -20, 40, 40)], changed: [true],
                                          firstDrawn: 0, canvas: canvas)
        #expect(areas == [PixelRect(x: 0, y: 0, width: 20, height: 20)])
        #expect(FrameRenderer.damageAreas(old: [safe(0, 0, 1, 1)], new: [safe(0, 0, 1, 1)], changed: [false],
                                          firstDrawn: 0, canvas: canvas) == [])
        // Near the whole canvas: one pass over the whole frame.
        #expect(FrameRenderer.damageAreas(old: [safe(0, 0, 960, 960)], new: [safe(0, 0, 960, 960)], changed: [true],
                                          firstDrawn: 0, canvas: canvas) == nil)
    }
}
