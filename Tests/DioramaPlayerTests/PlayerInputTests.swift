import CSDL
import DioramaDocument
import Foundation
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

extension WindowSuites {
    /// Synthesized SDL events (keys, clicks, holds, drags) drive a player in SDL's dummy video driver;
    /// the tests check the scene, time and pause state that result. The clocks are the test's.
    @Suite struct PlayerInputTests {
        init() throws {
            try VideoSystem.start(driver: "dummy")
        }

        @Test func keysNavigatePauseJumpAndQuit() throws {
            let h = try PlayerHarness()
            try h.advance(1)
            #expect(h.position == PlaylistPosition(sceneIndex: 0, sceneFrame: 48_000))
            h.key(SDLK_RIGHT)
            try h.player.step()
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
            try h.advance(0.5)
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 24_000))
            h.key(SDLK_SPACE)
            try h.player.step()
            try h.advance(2)
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 24_000, isPaused: true))
            h.key(SDLK_SPACE)
            try h.player.step()
            try h.advance(0.25)
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 36_000))
            h.key(SDLK_3)
            try h.player.step()
            #expect(h.position == PlaylistPosition(sceneIndex: 2, sceneFrame: 0))
            h.key(SDLK_LEFT)
            try h.player.step()
            #expect(h.position.sceneIndex == 1)
            h.key(SDLK_HOME)
            try h.player.step()
            #expect(h.position == PlaylistPosition(sceneIndex: 0, sceneFrame: 0))
            #expect(h.player.end == nil)
            h.key(SDLK_q)
            try h.player.step()
            #expect(h.player.end == .quit)
        }

        @Test func escapeAndClosingTheWindowQuit() throws {
            let escape = try PlayerHarness()
            escape.key(SDLK_ESCAPE)
            try escape.player.step()
            #expect(escape.player.end == .quit)

            let close = try PlayerHarness()
            var event = SDL_Event()
            event.type = SDL_QUIT.rawValue
            #expect(SDL_PushEvent(&event) == 1)
            try close.player.step()
            #expect(close.player.end == .quit)
        }

        @Test func clicksOnTheHalvesNavigate() throws {
            let h = try PlayerHarness()
            try h.click(Point(x: 600, y: 180))
            #expect(h.position.sceneIndex == 1)
            try h.click(Point(x: 500, y: 100))
            #expect(h.position.sceneIndex == 2)
            try h.click(Point(x: 40, y: 180))
            #expect(h.position.sceneIndex == 1)
            try h.click(Point(x: 319, y: 180))
            #expect(h.position.sceneIndex == 0)
        }

        @Test func pressAndHoldPausesWhileHeld() throws {
            let h = try PlayerHarness()
            try h.advance(1)
            h.mouseDown(Point(x: 600, y: 180))
            try h.player.step()
            try h.advance(0.1)
            #expect(!h.position.isPaused, "a short press is still a click")
            try h.advance(0.2)
            #expect(h.position.isPaused)
            let held = h.sceneTime
            try h.advance(1)
            #expect(h.sceneTime == held)
            h.mouseUp(Point(x: 600, y: 180))
            try h.player.step()
            #expect(!h.position.isPaused)
            #expect(h.position.sceneIndex == 0, "releasing a hold does not navigate")
            try h.advance(0.5)
            #expect(abs(h.sceneTime - (held + 0.5)) < 1e-9)
        }

        @Test func aHoldDoesNotUndoAPauseTheUserChose() throws {
            let h = try PlayerHarness()
            h.key(SDLK_SPACE)
            try h.player.step()
            h.mouseDown(Point(x: 100, y: 100))
            try h.advance(0.5)
            h.mouseUp(Point(x: 100, y: 100))
            try h.advance(0.5)
            #expect(h.position.isPaused)
        }

        @Test func aDragFollowsThePointerAndPagesPastAQuarter() throws {
            let h = try PlayerHarness()
            try h.advance(1)
            h.mouseDown(Point(x: 500, y: 180))
            try h.player.step()
            h.mouseMove(Point(x: 300, y: 180))
            try h.advance(0.02)
            let pages = h.player.frames.last?.snapshot.nodes.compactMap(\.id).filter { $0.hasPrefix("page.") }
            #expect(pages == ["page.0", "page.1"])
            #expect(h.player.frames.last?.snapshot.nodes.first?.transform == .translation(x: -200, y: 0))
            #expect(h.position.sceneIndex == 0, "dragging alone does not navigate")
            h.mouseMove(Point(x: 100, y: 180))
            h.mouseUp(Point(x: 100, y: 180))
            try h.player.step()
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
            // The swing slides in from where the ocean was let go (400 points left of rest).
            #expect(h.player.frames.last?.snapshot.nodes.first?.transform == .translation(x: 240, y: 0))
            try h.advance(1.5)
            let settled = h.player.frames.last?.snapshot.nodes.filter { $0.id?.hasPrefix("page.") == true }
            #expect(settled?.map(\.id) == ["page.1"] && settled?.first?.transform == .identity, "settled: the swing alone, at rest")

            h.mouseDown(Point(x: 300, y: 180))
            h.mouseMove(Point(x: 250, y: 180))
            h.mouseUp(Point(x: 250, y: 180))
            try h.player.step()
            #expect(h.position.sceneIndex == 1, "a short drag springs back")
            #expect(h.player.frames.last?.snapshot.nodes.first?.transform == .translation(x: -50, y: 0))
        }

        @Test func pageDotsJumpToTheirScene() throws {
            let h = try PlayerHarness()
            try h.click(h.player.viewer.layout.pageDots[2])
            #expect(h.position.sceneIndex == 2)
            try h.click(h.player.viewer.layout.pageDots[0])
            #expect(h.position.sceneIndex == 0)
        }

        @Test func playingOnceEndsAfterTheLastScene() throws {
            let h = try PlayerHarness(wraps: false)
            h.key(SDLK_3)
            try h.player.step()
            try h.advance(4.9)
            #expect(h.player.end == nil)
            try h.advance(0.2)
            #expect(h.player.end == .finished)

            let wrapping = try PlayerHarness()
            wrapping.key(SDLK_3)
            try wrapping.player.step()
            try wrapping.advance(5.5)
            #expect(wrapping.player.end == nil)
            #expect(wrapping.position == PlaylistPosition(sceneIndex: 0, sceneFrame: 24_000))
        }

        @Test func helpOverlayAndToastsShowInTheFrame() throws {
            let h = try PlayerHarness()
            func ids() -> [String] { h.player.frames.last?.snapshot.nodes.compactMap(\.id) ?? [] }
            try h.player.step()
            #expect(ids().contains("overlay.title") && ids().contains("overlay.bar.0.track"))
            h.text("?")
            try h.player.step()
            #expect(h.player.viewer.showsHelp)
            #expect(ids().contains("overlay.help"))
            h.key(SDLK_h)
            try h.player.step()
            #expect(!ids().contains("overlay.title"), "H hides the bars, title and dots")
            h.key(SDLK_ESCAPE)
            try h.player.step()
            #expect(!ids().contains("overlay.help") && h.player.end == nil, "Escape closes the help first")
            h.key(SDLK_m)
            try h.player.step()
            #expect(ids().contains("overlay.toast"))
            try h.advance(2)
            #expect(!ids().contains("overlay.toast"), "a toast goes away by itself")
        }

        @Test func volumeAndMuteSetTheOutputsGain() throws {
            let h = try PlayerHarness()
            h.text("+")
            try h.player.step()
            #expect(abs(h.output.volume - 1.1) < 1e-6)
            h.key(SDLK_m)
            try h.player.step()
            #expect(h.output.volume == 0)
            h.key(SDLK_m)
            try h.player.step()
            #expect(abs(h.output.volume - 1.1) < 1e-6)
            for _ in 0..<20 { h.text("-") }
            try h.player.step()
            #expect(h.output.volume == 0)
        }

        @Test func thePictureFollowsTheHeardClockNotTheWriteClock() throws {
            // 100 ms of output latency: a command acts on the sound 100 ms ahead of what is heard.
            let h = try PlayerHarness(latency: 4_800)
            try h.advance(1)
            #expect(h.position == PlaylistPosition(sceneIndex: 0, sceneFrame: 48_000 - 4_800))
            h.key(SDLK_RIGHT)
            try h.player.step()
            #expect(h.position.sceneIndex == 0, "the change is not heard yet")
            try h.advance(0.1)
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
        }
    }
}

extension WindowSuites.PlayerInputTests {
    @Test func aPausedStillFrameIsNotDrawnAgainUntilSomethingChanges() throws {
        let h = try PlayerHarness(showsOverlay: false)
        try h.advance(0.5)
        h.key(SDLK_SPACE)
        try h.player.step()
        let presented = h.player.frames.presented
        try h.advance(0.5)
        try h.advance(0.5)
        #expect(h.player.frames.presented == presented, "the paused picture is already on screen")
        // Pausing at the frame being heard changes nothing on screen either (no overlay, so no pause badge).
        #expect(h.player.frames.skipped == 3)
        h.key(SDLK_SPACE)
        try h.advance(0.1)
        try h.advance(0.1)
        #expect(h.player.frames.presented == presented + 1, "moving again once resumed")
    }
}
