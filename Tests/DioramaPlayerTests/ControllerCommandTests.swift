import DioramaDocument
import DioramaMixer
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// A show controller's commands (what `--osc` receives) act as the keys do, at the frame they come (their decisions,
/// volume, language and problems, are tested without a player in `ShowStateTests`). On a screen in memory: no SDL.
@Suite struct ControllerCommandTests {
    @Test func navigationSeekAndGoActAtTheCommandFrame() throws {
        let h = try PlayerHarness(embedded: true)
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

    @Test func volumeAndLanguageChangeAndUnknownScenesOrLanguagesAreProblemsNotActions() throws {
        let h = try PlayerHarness(embedded: true)
        h.player.perform(.volume(0.25), now: h.clock.now)
        #expect(h.player.volume == 0.25 && h.output.volume == 0.25)
        #expect(h.player.perform(.language("ja"), now: h.clock.now) == nil)
        #expect(h.player.language == "ja")
        #expect(h.player.perform(.language("fr"), now: h.clock.now) == "no language 'fr': the playlist offers en, zh, ja")
        #expect(h.player.perform(.sceneID("lake"), now: h.clock.now) == "no scene 'lake': the scenes are ocean, swing, flower")
        #expect(h.player.perform(.scene(3), now: h.clock.now) == "no scene number 4: the playlist has 3")
        try h.player.step()
        #expect(h.position.sceneIndex == 0 && h.player.language == "ja")
        #expect(h.screen?.title == "海 — Diorama")
    }
}
