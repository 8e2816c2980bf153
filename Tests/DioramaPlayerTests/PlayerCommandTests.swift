import DioramaDocument
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

extension WindowSuites {
    /// A show controller's commands (what `--osc` receives) act as the keys do, at the frame they come (their decisions,
    /// volume, language and problems, are tested without a window in `ShowStateTests`).
    @Suite struct PlayerCommandTests {
        init() throws {
            try VideoSystem.start(driver: "dummy")
        }

        @Test func navigationSeekAndGoActAtTheCommandFrame() throws {
            let h = try PlayerHarness()
            try h.advance(1)
            #expect(h.player.perform(.next, now: h.clock.now) == nil)
            try h.player.step()
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
            h.player.perform(.seek(2.25), now: h.clock.now)
            try h.player.step()
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 108_000))
            h.player.perform(.sceneID("flower"), now: h.clock.now)
            h.player.perform(.pause, now: h.clock.now)
            try h.advance(1)
            #expect(h.position == PlaylistPosition(sceneIndex: 2, sceneFrame: 0, isPaused: true))
            h.player.perform(.pause, now: h.clock.now)
            #expect(h.player.playback.commanded.isPaused, "pause is not a toggle")
            h.player.perform(.go, now: h.clock.now)
            try h.advance(0.5)
            #expect(h.position == PlaylistPosition(sceneIndex: 0, sceneFrame: 24_000), "the first scene, playing")
            h.player.perform(.scene(1), now: h.clock.now)
            try h.player.step()
            #expect(h.position.sceneIndex == 1)
            h.player.perform(.previous, now: h.clock.now)
            try h.player.step()
            #expect(h.position.sceneIndex == 0)
        }
    }
}
