import DioramaDocument
import DioramaPlayer
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// The next scene prepared ahead on another thread: its first frame finds its art ready and has the pixels a frame
/// drawn without preparation has. Headless (a screen in memory) and without timing: the test waits for the
/// preparation to finish, as a scene long enough would.
@Suite struct ScenePreparationTests {
    static let scenesPath = DioramaCommand.repositoryRoot.appendingPathComponent("scenes.json").path
    static let size = Size(width: 640, height: 360)

    /// The shipped playlist in a 640x360 screen in memory, drawn by a renderer that prepares the next scene.
    static func player(preparesScenes: Bool = true) throws -> (PlayerHarness, CairoSnapshotRenderer) {
        let renderer = CairoSnapshotRenderer(imageDirectory: DioramaCommand.repositoryRoot.path, preparesScenes: preparesScenes)
        let h = try PlayerHarness(scenesPath: scenesPath, windowSize: size, renderer: renderer, load: PlaylistFiles.load,
                                  scenes: EvaluatedScenes(), embedded: true)
        h.player.capturesFrames = true
        return (h, renderer)
    }

    static func index(of id: String, in h: PlayerHarness) throws -> Int {
        try #require(h.player.document.scenes.firstIndex { $0.id == id })
    }

    /// The frame just shown drawn again by a renderer of its own, never prepared.
    static func drawnAfresh(_ h: PlayerHarness) throws -> [UInt32] {
        let snapshot = try #require(h.player.frames.last?.snapshot)
        let captured = try #require(h.player.frames.captured)
        var pixels = [UInt32](repeating: 0, count: captured.width * captured.height)
        try pixels.withUnsafeMutableBytes { buffer in
            try CairoSnapshotRenderer(imageDirectory: DioramaCommand.repositoryRoot.path)
                .draw(snapshot, into: buffer.baseAddress!, width: captured.width, height: captured.height, stride: captured.width * 4,
                      holdsLastFrame: false)
        }
        return pixels
    }

    @Test func theNextSceneIsPreparedBeforeItsFirstFrameAndDrawsTheSamePixels() throws {
        let (h, renderer) = try Self.player()
        let kaleidoscope = try Self.index(of: "kaleidoscope", in: h), windmill = try Self.index(of: "windmill", in: h)
        #expect(windmill == kaleidoscope + 1)
        h.player.perform(.scene(kaleidoscope), now: h.clock.now)
        try h.advance(0.05)
        #expect(h.position.sceneIndex == kaleidoscope)
        // The frame loop asked for the windmill after drawing the kaleidoscope's first frame.
        #expect(renderer.preparedScene == windmill)
        renderer.waitForPreparation()
        let prepared = try #require(renderer.preparedArtWork)
        // The windmill's art: the SVG read and rasterized, the overlay's texts laid out.
        #expect(prepared.loadedDrawings >= 1)
        #expect(prepared.rasterizedDrawings >= 1)
        #expect(prepared.laidOutTexts >= 1)

        h.player.perform(.next, now: h.clock.now)
        try h.advance(0.05)
        #expect(h.position.sceneIndex == windmill)
        #expect(renderer.sceneChanges.prepared == 1)
        // The windmill's first frame added no work to what the preparation did.
        #expect(renderer.renderer.artWork == prepared)
        let captured = try #require(h.player.frames.captured)
        #expect(captured.pixels == (try Self.drawnAfresh(h)))
        // And its next scene is on its way.
        #expect(renderer.preparedScene == windmill + 1)
    }

    @Test func theAutomaticAdvanceFindsTheNextScenePrepared() throws {
        let (h, renderer) = try Self.player()
        let bounce = try Self.index(of: "bounce", in: h)
        let windmill = bounce - 1
        h.player.perform(.scene(windmill), now: h.clock.now)
        try h.advance(0.05)
        renderer.waitForPreparation()
        #expect(renderer.preparedScene == bounce)
        let prepared = try #require(renderer.preparedArtWork)
        #expect(prepared.loadedDrawings >= 1)  // the Lottie file
        let remaining = h.player.document.scenes[windmill].duration.doubleValue - h.sceneTime
        try h.advance(remaining + 0.02)
        #expect(h.position.sceneIndex == bounce)
        #expect(renderer.sceneChanges.prepared == 1)
        #expect(renderer.renderer.artWork == prepared)
        #expect(try #require(h.player.frames.captured).pixels == (try Self.drawnAfresh(h)))
    }

    @Test func aSceneNavigatedToBeforeItIsPreparedIsDrawnAsWithout() throws {
        let (h, renderer) = try Self.player()
        let kaleidoscope = try Self.index(of: "kaleidoscope", in: h)
        try h.advance(0.05)
        renderer.waitForPreparation()
        // Prepared: the scene after the first. Jumping elsewhere draws that scene with the renderer at hand.
        #expect(renderer.preparedScene == 1)
        let before = renderer.renderer
        h.player.perform(.scene(kaleidoscope), now: h.clock.now)
        try h.advance(0.05)
        #expect(h.position.sceneIndex == kaleidoscope)
        #expect(renderer.renderer === before)
        #expect(renderer.sceneChanges == SceneChanges(prepared: 0, unprepared: 1))
        #expect(try #require(h.player.frames.captured).pixels == (try Self.drawnAfresh(h)))
    }

    @Test func withoutPreparationNothingIsPrepared() throws {
        let (h, renderer) = try Self.player(preparesScenes: false)
        try h.advance(0.05)
        #expect(renderer.preparedScene == nil)
        h.player.perform(.next, now: h.clock.now)
        try h.advance(0.05)
        #expect(renderer.sceneChanges == SceneChanges(prepared: 0, unprepared: 1))
    }
}
