import CSDL
import DioramaDocument
import DioramaTimeline
import Foundation
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

extension WindowSuites {
    /// Under a real X server (DISPLAY, or a private Xvfb started here), the pixels the window
    /// presents, read back with SDL_RenderReadPixels, equal a headless cairo render of the same frame.
    @Suite struct WindowPixelTests {
        init() throws {
            try XServer.startVideo()
        }

        /// The headless render of `snapshot` at `width`×`height`, with the player's renderer.
        func headless(_ snapshot: Snapshot, width: Int, height: Int) throws -> [UInt32] {
            var pixels = [UInt32](repeating: 0, count: width * height)
            try pixels.withUnsafeMutableBytes { buffer in
                try CairoSnapshotRenderer(imageDirectory: nil).draw(snapshot, into: buffer.baseAddress!, width: width,
                                                                    height: height, stride: width * 4, holdsLastFrame: false)
            }
            return pixels
        }

        /// Pixels of the viewport that differ from `expected` in any colour channel by more than 1.
        func differences(_ captured: (pixels: [UInt32], width: Int, height: Int), viewport: Rect, expected: [UInt32]) -> Int {
            let x0 = Int(viewport.x), y0 = Int(viewport.y), width = Int(viewport.width), height = Int(viewport.height)
            var count = 0
            for y in 0..<height {
                for x in 0..<width {
                    let a = captured.pixels[(y0 + y) * captured.width + x0 + x], b = expected[y * width + x]
                    for shift in [0, 8, 16] as [UInt32] where abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) > 1 {
                        count += 1
                        break
                    }
                }
            }
            return count
        }

        /// Whether an ARGB8888 pixel shows `color` (opaque), within one step per channel.
        func close(_ pixel: UInt32, _ color: Color) -> Bool {
            zip([16, 8, 0] as [UInt32], [color.red, color.green, color.blue]).allSatisfy { shift, value in
                abs(Double((pixel >> shift) & 0xFF) - value * 255) <= 1
            }
        }

        @Test(arguments: [WindowRenderer.software, .gpu])
        func theWindowShowsTheSceneAtTheHeardTimeAsAHeadlessRenderDoes(windowRenderer: WindowRenderer) throws {
            let h = try PlayerHarness(showsOverlay: false, renderer: CairoSnapshotRenderer(imageDirectory: nil),
                                      windowRenderer: windowRenderer)
            #expect(h.player.window.rendererName == (windowRenderer == .software ? "software" : "opengl"))
            #expect(VideoSystem.driverName == "x11")
            h.player.capturesFrames = true
            h.key(SDLK_2)
            try h.player.step()
            try h.advance(1.5)
            let captured = try #require(h.player.frames.captured)
            let viewport = try #require(h.player.frames.last?.viewport)
            #expect(captured.width == 640 && captured.height == 360)
            #expect(viewport == Rect(x: 0, y: 0, width: 640, height: 360))
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 72_000))
            // Rendered headless from the scene and time alone, not from what the player composed.
            let scene = ClockSceneSource().snapshot(of: h.player.document, scene: 1, time: 1.5, language: "en")
            let expected = try headless(scene, width: 640, height: 360)
            #expect(differences(captured, viewport: viewport, expected: expected) == 0)
            // And the picture really is the swing at half its length: its colour, and the clock bar half across.
            let swing = PlayerFixtures.backgrounds[1]
            #expect(close(captured.pixels[100 * 640 + 500], swing))
            #expect(close(captured.pixels[350 * 640 + 315], .white))
            #expect(close(captured.pixels[350 * 640 + 325], swing))
        }

        @Test func theOverlayAndALetterboxedWindowMatchTheHeadlessRenderToo() throws {
            let h = try PlayerHarness(windowSize: Size(width: 700, height: 500), renderer: CairoSnapshotRenderer(imageDirectory: nil))
            h.player.capturesFrames = true
            h.text("?")
            try h.advance(0.75)
            let captured = try #require(h.player.frames.captured)
            let frame = try #require(h.player.frames.last)
            #expect(captured.width == 700 && captured.height == 500)
            #expect(frame.viewport == Rect(x: 0, y: 53, width: 700, height: 394))
            #expect(frame.snapshot.nodes.contains { $0.id == "overlay.help" })
            let expected = try headless(frame.snapshot, width: 700, height: 394)
            #expect(differences(captured, viewport: frame.viewport, expected: expected) == 0)
            // Black bars above and below the canvas.
            #expect(captured.pixels[10 * 700 + 350] & 0xFFFFFF == 0)
            #expect(captured.pixels[490 * 700 + 350] & 0xFFFFFF == 0)
        }
    }
}

extension WindowSuites.WindowPixelTests {
    @Test func aPageDoesNotDrawOverThePageBesideIt() throws {
        // A scene whose red bar reaches 200 points past the canvas's right edge.
        let canvas = Size(width: 400, height: 200)
        let bar = Rect(x: 300, y: 50, width: 300, height: 100)
        let scene = Snapshot(canvas: canvas, background: .solid(.black), nodes: [
            NodeSnapshot(bounds: bar, content: .shape(ShapeSnapshot(geometry: .rect(bar, cornerRadius: 0),
                                                                   fill: .solid(Color(red: 1, green: 0, blue: 0)), stroke: nil))),
        ])
        let neighbour = Snapshot(canvas: canvas, background: .solid(Color(red: 0, green: 0, blue: 1)), nodes: [])
        let frame = FrameComposer.compose(scene: scene, offset: -100, neighbour: (neighbour, "page.1"))
        let pixels = try headless(frame, width: 400, height: 200)
        #expect(close(pixels[100 * 400 + 250], Color(red: 1, green: 0, blue: 0)), "the bar on its own page")
        #expect(close(pixels[100 * 400 + 310], Color(red: 0, green: 0, blue: 1)), "cut at its page's edge")
        #expect(close(pixels[100 * 400 + 298], Color(red: 1, green: 0, blue: 0)))
    }
}

extension WindowSuites.WindowPixelTests {
    @Test func onlyTheBarsBesideTheFrameAreClearedBeforeItIsCopied() {
        func area(_ rects: [SDL_Rect]) -> Int32 { rects.reduce(0) { $0 + $1.w * $1.h } }
        // A frame filling the window leaves nothing to clear.
        #expect(PlayerWindow.letterboxBars(around: SDL_Rect(x: 0, y: 0, w: 640, h: 360), in: Size(width: 640, height: 360)).isEmpty)
        // Bars above and below: together they and the frame cover the window exactly once.
        let wide = PlayerWindow.letterboxBars(around: SDL_Rect(x: 0, y: 53, w: 700, h: 394), in: Size(width: 700, height: 500))
        #expect(wide.count == 2 && area(wide) + 700 * 394 == 700 * 500)
        #expect(wide.allSatisfy { $0.y + $0.h <= 53 || $0.y >= 53 + 394 })
        // Bars left and right.
        let tall = PlayerWindow.letterboxBars(around: SDL_Rect(x: 90, y: 0, w: 320, h: 180), in: Size(width: 500, height: 180))
        #expect(tall.count == 2 && area(tall) + 320 * 180 == 500 * 180)
        #expect(tall.allSatisfy { $0.x + $0.w <= 90 || $0.x >= 410 })
    }
}

extension WindowSuites.WindowPixelTests {
    /// Records whether each draw was told that the window's pixels still hold the last frame.
    private final class VouchRecorder: SnapshotRendering {
        let wrapped = CairoSnapshotRenderer(imageDirectory: nil)
        var vouched: [Bool] = []

        func draw(_ snapshot: Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                  holdsLastFrame: Bool) throws {
            vouched.append(holdsLastFrame)
            try wrapped.draw(snapshot, into: pixels, width: width, height: height, stride: stride, holdsLastFrame: holdsLastFrame)
        }

        var lastWrittenAreas: [Rect]? { wrapped.lastWrittenAreas }
    }

    /// The software renderer's window surface keeps the last frame, so the renderer writes only what changed (the
    /// clock bar's tip), frame after frame, and only that is sent to the X server. When SDL says the window changed
    /// (exposed, resized), the next frame is drawn whole and sent whole: a surface scribbled over then still shows
    /// the headless render. The screen, read back from the X server, shows every frame as the headless render does.
    @Test func frameAfterFrameTheWindowSurfaceMatchesTheHeadlessRender() throws {
        let recorder = VouchRecorder()
        let h = try PlayerHarness(showsOverlay: false, renderer: recorder, windowRenderer: .software)
        h.player.capturesFrames = true
        try h.player.step()
        for step in 0..<10 {
            if step == 6 {
                // Something else drew on the surface, and the window was exposed.
                let surface = try #require(SDL_GetWindowSurface(h.window.window))
                #expect(SDL_FillRect(surface, nil, 0xFF12_3456) == 0)
                var event = SDL_Event()
                event.type = SDL_WINDOWEVENT.rawValue
                event.window.event = UInt8(SDL_WINDOWEVENT_EXPOSED.rawValue)
                event.window.windowID = h.window.id
                #expect(SDL_PushEvent(&event) == 1)
            }
            try h.advance(1.0 / 30)
            let captured = try #require(h.player.frames.captured)
            let frame = try #require(h.player.frames.last)
            let expected = try headless(frame.snapshot, width: Int(frame.viewport.width), height: Int(frame.viewport.height))
            #expect(differences(captured, viewport: frame.viewport, expected: expected) == 0, "step \(step)")
            let window = try #require(h.window.screenGeometry)
            let screen = try #require(h.window.screenPixels(window))
            #expect(differences((screen, Int(window.width), Int(window.height)), viewport: frame.viewport, expected: expected) == 0,
                    "on screen, step \(step)")
        }
        // Sent in part: every frame over the last one but the exposed one's.
        #expect(h.window.framesPresentedInPart == 9)
        // The first frame (the window opening) and the first step are drawn whole, then only changes, until the
        // exposure.
        #expect(recorder.vouched == [false, false, true, true, true, true, true, true, false, true, true, true])
    }

}
