@testable import DioramaRender
import DioramaDocument
import DioramaTimeline
import Foundation
import Testing

/// Pages (`SnapshotContent.page`, the player's scenes): drawn into pictures kept by id, copied into the frame; the same
/// pixels as the scene drawn as the frame, and no drawing of a scene that did not change.
@Suite struct PageRenderTests {
    private func load() throws -> LoadedDocument {
        try DocumentLoader.load(path: ShippedScenesTests.repositoryRoot.appendingPathComponent("scenes.json").path)
    }

    private func page(_ scene: Snapshot, id: String, x: Double = 0, opacity: Double = 1) -> NodeSnapshot {
        NodeSnapshot(id: id, transform: x == 0 ? .identity : .translation(x: x, y: 0),
                     bounds: Rect(x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height), opacity: opacity,
                     content: .page(scene))
    }

    private func frame(_ pages: [NodeSnapshot], canvas: Size, overlay: [NodeSnapshot] = []) -> Snapshot {
        Snapshot(canvas: canvas, background: .solid(.black), nodes: pages + overlay)
    }

    /// A bar over the top of the frame, as the player's chrome is.
    private func overlay(_ canvas: Size, width: Double) -> [NodeSnapshot] {
        let bar = Rect(x: 20, y: 10, width: width, height: 6)
        return [NodeSnapshot(id: "bar", bounds: bar, content: .shape(ShapeSnapshot(geometry: .rect(bar, cornerRadius: 3),
                                                                                    fill: .solid(.white), stroke: nil)))]
    }

    /// Every shipped scene played as a page at rest, with a bar over it that changes: each frame is byte for byte the
    /// scene and the bar drawn as one frame, and after the first the page's picture is drawn only where it changed.
    @Test func aPageAtRestIsTheSceneDrawnAsTheFrame() throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        for (index, scene) in loaded.document.scenes.enumerated() {
            let paged = FrameRenderer(imageDirectory: directory)
            let reference = FrameRenderer(imageDirectory: directory)
            for k in 0..<12 {
                let time = min(Double(k) / 10, scene.duration.doubleValue)
                let snapshot = evaluator.snapshot(scene: index, at: time)
                let bar = overlay(snapshot.canvas, width: 40 + Double(k) * 10)
                let actual = try paged.render(frame([page(snapshot, id: "page.\(index)")], canvas: snapshot.canvas, overlay: bar),
                                              width: 640, height: 360)
                let expected = try reference.render(Snapshot(canvas: snapshot.canvas, background: snapshot.background,
                                                             nodes: snapshot.nodes + bar), width: 640, height: 360)
                guard actual.bytes == expected.bytes else {
                    Issue.record("\(scene.id) at \(time) s: the page differs from the scene drawn as the frame")
                    return
                }
            }
            // Drawn from its picture (copied whole into each frame: the frame keeps no still prefix of a page).
            #expect(paged.statistics.copiedPages >= 1 && paged.statistics.drawnPages <= 12, "\(scene.id)")
        }
    }

    /// A page moved by whole pixels is its picture moved: the pixels beside the frame's edge are the picture's, the
    /// page beside it shows where it ends, and neither page's scene is drawn again while they slide.
    @Test func slidingPagesCopyTheirPicturesAndDrawNothingElse() throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        let renderer = FrameRenderer(imageDirectory: directory)
        let ocean = evaluator.snapshot(scene: 0, at: 1), swing = evaluator.snapshot(scene: 1, at: 0)
        let canvas = ocean.canvas
        let width = 640, height = 360, scale = Double(width) / canvas.width
        let still = try FrameRenderer(imageDirectory: directory).render(swing, width: width, height: height)
        _ = try renderer.render(frame([page(ocean, id: "page.0")], canvas: canvas), width: width, height: height)
        let drawn = renderer.statistics.drawnPages
        for step in 1...4 {
            let pixels = Double(step * 100)
            let x = pixels / scale
            let picture = try renderer.render(frame([page(swing, id: "page.1", x: canvas.width - x),
                                                     page(ocean, id: "page.0", x: -x)], canvas: canvas),
                                              width: width, height: height)
            // The swing's page: its picture's left columns at the frame's right.
            for row in stride(from: 0, to: height, by: 37) {
                for column in stride(from: 0, to: Int(pixels), by: 23) {
                    let offset = (row * width + width - Int(pixels) + column) * 4
                    let source = (row * width + column) * 4
                    #expect(picture.bytes[offset..<offset + 4] == still.bytes[source..<source + 4], "swing at \(column),\(row), step \(step)")
                }
            }
        }
        // The swing's picture drawn once, the ocean's not again: sliding draws no scene.
        #expect(renderer.statistics.drawnPages == drawn + 1)
        #expect(renderer.statistics.copiedPages >= 1 + 2 * 4)
    }

    /// A renderer taking over from another (the scene prepared ahead) keeps the page being left as the other drew it.
    @Test func aRendererTakingOverKeepsThePageLeftWithoutDrawingIt() throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        let leaving = FrameRenderer(imageDirectory: directory), taking = FrameRenderer(imageDirectory: directory)
        let windmill = evaluator.snapshot(scene: 7, at: 3), bounce = evaluator.snapshot(scene: 8, at: 0)
        let canvas = windmill.canvas
        let shown = try leaving.render(frame([page(windmill, id: "page.7")], canvas: canvas), width: 640, height: 360)
        _ = try taking.render(frame([page(bounce, id: "page.8")], canvas: canvas), width: 640, height: 360)
        taking.adoptPages(of: leaving)
        let art = taking.artWork
        let crossfade = try taking.render(frame([page(windmill, id: "page.7"), page(bounce, id: "page.8", opacity: 0)],
                                                canvas: canvas), width: 640, height: 360)
        #expect(crossfade.bytes == shown.bytes, "the windmill as it was shown")
        #expect(taking.artWork == art, "none of the windmill's art drawn by the renderer taking over")
        #expect(taking.statistics.drawnPages == 1)
    }

    /// What a renderer holds to draw the next frame is bounded: at rest, the page's picture and at most two still
    /// prefixes of its scene (the frame's black behind the page, and the page itself, are not copies of their own);
    /// after taking over at a scene change, the page left costs its picture only.
    @Test func aPageCostsItsPictureAndItsScenesStillPrefixesOnly() throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        let width = 640, height = 360, frameBytes = width * height * 4
        let window = UnsafeMutableRawPointer.allocate(byteCount: frameBytes, alignment: 16)
        defer { window.deallocate() }
        let leaving = FrameRenderer(imageDirectory: directory), taking = FrameRenderer(imageDirectory: directory)
        // The elevator holds still for its first second but for its lights: still prefixes are worth keeping.
        let elevator = try #require(loaded.document.scenes.firstIndex { $0.id == "elevator" })
        for k in 0..<12 {
            let snapshot = evaluator.snapshot(scene: elevator, at: Double(k) / 60)
            try leaving.render(frame([page(snapshot, id: "page.\(elevator)")], canvas: snapshot.canvas,
                                     overlay: overlay(snapshot.canvas, width: 40 + Double(k))),
                               into: window, width: width, height: height, stride: width * 4, holdsLastFrame: true)
        }
        #expect(leaving.heldFrameBytes >= frameBytes && leaving.heldFrameBytes <= 3 * frameBytes,
                "\(Double(leaving.heldFrameBytes) / Double(frameBytes)) frames held")
        let bounce = evaluator.snapshot(scene: 8, at: 0)
        try taking.render(frame([page(bounce, id: "page.8")], canvas: bounce.canvas), into: window, width: width,
                          height: height, stride: width * 4)
        let own = taking.heldFrameBytes
        taking.adoptPages(of: leaving)
        #expect(taking.heldFrameBytes == own + frameBytes, "the page left costs its picture only")
        #expect(leaving.heldFrameBytes == 0)
    }

    /// A page at rest whose scene changes in a small area changes only that area of the frame.
    @Test func aPageAtRestChangesTheFrameOnlyWhereItsSceneChanged() throws {
        let canvas = Size(width: 320, height: 180)
        func scene(dotAt x: Double) -> Snapshot {
            let sky = Rect(x: 0, y: 0, width: 320, height: 180), dot = Rect(x: x, y: 80, width: 10, height: 10)
            return Snapshot(canvas: canvas, background: .solid(Color(red: 0.2, green: 0.4, blue: 0.8)), nodes: [
                NodeSnapshot(bounds: sky, content: .shape(ShapeSnapshot(geometry: .rect(sky, cornerRadius: 0),
                                                                        fill: .linear(stops: [GradientStop(location: 0, color: .white), GradientStop(location: 1, color: .black)],
                                                                                      start: UnitPoint(x: 0, y: 0), end: UnitPoint(x: 0, y: 1)), stroke: nil))),
                NodeSnapshot(bounds: dot, content: .shape(ShapeSnapshot(geometry: .ellipse(center: Point(x: x + 5, y: 85), radiusX: 5, radiusY: 5),
                                                                        fill: .solid(.white), stroke: nil))),
            ])
        }
        let renderer = FrameRenderer()
        for k in 0..<6 {
            _ = try renderer.render(frame([page(scene(dotAt: 100 + Double(k)), id: "page.0")], canvas: canvas), width: 320, height: 180)
        }
        // The rows around the dot (a page is copied pixel for pixel, so an area takes whole rows of it), not the frame.
        let areas = try #require(renderer.statistics.lastDamage, "drawn in areas")
        #expect(!areas.isEmpty && areas.allSatisfy { $0.y >= 60 && $0.y + $0.height <= 110 }, "\(areas)")
    }
}
