import CSDL
import DioramaDocument
import DioramaTimeline
import Foundation
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

extension WindowSuites {
    /// Fullscreen on an X server without a window manager, as a kiosk started with xinit has (the tests' Xvfb runs none):
    /// nobody carries out a fullscreen request there while SDL believes it happened, so these tests read what the X
    /// server has and shows (the window's geometry, the screen's pixels), not what SDL reports.
    @Suite struct FullscreenWindowTests {
        init() throws {
            try XServer.startVideo()
        }

        /// The bounds of the first display, in pixels.
        func displayBounds() throws -> Rect {
            var bounds = SDL_Rect()
            try #require(SDL_GetDisplayBounds(0, &bounds) == 0)
            return Rect(x: Double(bounds.x), y: Double(bounds.y), width: Double(bounds.w), height: Double(bounds.h))
        }

        /// Handles the window's events until the X server has `window` at `geometry` and SDL agrees on its size: a
        /// bounded number of round trips to the server, no waiting on a clock.
        func settle(_ window: PlayerWindow, at geometry: Rect) -> Bool {
            for _ in 0..<500 {
                while window.nextEvent(canvas: Size(width: 640, height: 360)) != nil {}
                if window.screenGeometry == geometry, window.drawableSize == Size(width: geometry.width, height: geometry.height) {
                    return true
                }
            }
            return false
        }

        /// Whether an 0xRRGGBB screen pixel shows `color`, within one step per channel.
        func shows(_ pixel: UInt32, _ color: Color) -> Bool {
            zip([16, 8, 0] as [UInt32], [color.red, color.green, color.blue]).allSatisfy { shift, value in
                abs(Double((pixel >> shift) & 0xFF) - value * 255) <= 1
            }
        }

        /// The screen's pixels just inside each corner of `rect`.
        func corners(of rect: Rect, in window: PlayerWindow) throws -> [UInt32] {
            let inset = 3.0
            let points = [(rect.x + inset, rect.y + inset), (rect.x + rect.width - 1 - inset, rect.y + inset),
                          (rect.x + inset, rect.y + rect.height - 1 - inset),
                          (rect.x + rect.width - 1 - inset, rect.y + rect.height - 1 - inset)]
            return try points.map { x, y in try #require(window.screenPixels(Rect(x: x, y: y, width: 1, height: 1))?.first) }
        }

        @Test func fullscreenFillsTheScreenWithoutAWindowManagerAndFAgainGivesTheWindowBack() throws {
            let window = try PlayerWindow(title: "fullscreen", width: 640, height: 360, vsync: false, renderer: .software)
            #expect(window.windowManagerRunning == false, "the tests' X server runs no window manager")
            let screen = try displayBounds()
            let windowed = try #require(window.screenGeometry)
            #expect(windowed.width == 640 && windowed.height == 360)

            window.setFullscreen(true)
            #expect(window.isFullscreen)
            #expect(settle(window, at: screen), "the window covers the display: \(String(describing: window.screenGeometry))")
            let red = Color(red: 0.8, green: 0.1, blue: 0.2, alpha: 1)
            try fill(window, red)
            for pixel in try corners(of: screen, in: window) {
                #expect(shows(pixel, red), "the screen's corners show the frame: \(String(pixel, radix: 16))")
            }

            window.setFullscreen(false)
            #expect(!window.isFullscreen)
            #expect(settle(window, at: windowed), "the window is back where it was: \(String(describing: window.screenGeometry))")
            let blue = Color(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)
            try fill(window, blue)
            for pixel in try corners(of: windowed, in: window) { #expect(shows(pixel, blue)) }
            #expect(try !shows(#require(window.screenPixels(Rect(x: screen.x + 1, y: screen.y + 1, width: 1, height: 1))?.first), blue),
                    "outside the window the screen no longer shows the frame")
        }

        /// Fills the whole drawable with `color` and presents it.
        func fill(_ window: PlayerWindow, _ color: Color) throws {
            let size = window.drawableSize
            let argb = 0xFF00_0000 | UInt32((color.red * 255).rounded()) << 16 | UInt32((color.green * 255).rounded()) << 8
                | UInt32((color.blue * 255).rounded())
            try window.drawFrame(viewport: Rect(x: 0, y: 0, width: size.width, height: size.height), clock: { 0 }) { pixels, width, height, stride, _ in
                for row in 0..<height {
                    (pixels + row * stride).initializeMemory(as: UInt32.self, repeating: argb, count: width)
                }
                return nil
            }
            window.present()
        }

        @Test func aPlayerStartedFullscreenLaysItsPictureOutForTheWholeScreenAndFLeavesIt() throws {
            let h = try PlayerHarness(renderer: CairoSnapshotRenderer(imageDirectory: nil), windowRenderer: .software, fullscreen: true)
            let screen = try displayBounds()
            #expect(settle(h.window, at: screen))
            try h.player.step()
            let canvas = Size(width: 640, height: 360)
            let viewport = try #require(h.player.frames.last?.viewport)
            #expect(viewport == Letterbox(canvas: canvas, window: Size(width: screen.width, height: screen.height)).viewport)
            // The picture's left and right edges, halfway down (below the chrome's top shade, above its bottom one), are on
            // the screen and show the first scene's background; the last progress bar ends inside the screen.
            let middle = screen.y + viewport.y + viewport.height / 2
            for x in [screen.x + viewport.x + 3, screen.x + viewport.x + viewport.width - 4] {
                let pixel = try #require(h.window.screenPixels(Rect(x: x, y: middle, width: 1, height: 1))?.first)
                #expect(shows(pixel, PlayerFixtures.backgrounds[0]), "\(String(pixel, radix: 16)) at x \(x)")
            }
            let bars = OverlayLayout(canvas: canvas, sceneCount: 3).progressBars
            let lastBar = try #require(bars.last)
            let scale = viewport.width / canvas.width
            #expect(viewport.x + (lastBar.x + lastBar.width) * scale <= screen.width)

            h.key(SDLK_f)
            try h.player.step()
            #expect(!h.window.isFullscreen)
            #expect(settle(h.window, at: Rect(x: (screen.width - 640) / 2, y: (screen.height - 360) / 2, width: 640, height: 360)),
                    "F gives the window back at its size and place: \(String(describing: h.window.screenGeometry))")
            try h.player.step()
            #expect(h.player.frames.last?.viewport == Rect(x: 0, y: 0, width: 640, height: 360))
        }
    }
}
