import CSDL
import DioramaDocument
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

extension WindowSuites {
    /// A player on a shared show clock (`play --link`): its keys move the show for every player, and it follows moves
    /// made elsewhere. The harness's audio frame 0 is heard at its clock's 100 s, shared time 0.
    @Suite struct SharedShowPlayerTests {
        init() throws {
            try VideoSystem.start(driver: "dummy")
        }

        func linked(_ show: ManualShowClock, onlyScene: String? = nil) throws -> PlayerHarness {
            try PlayerHarness(sharedClock: { clock in
                show.reading = { clock.now - 100 }
                return show
            }, onlyScene: onlyScene)
        }

        @Test func aPlayerJoiningARunningShowStartsAtItsTime() throws {
            // The show is 9.5 s in (the flower, 2.5 s in) when this player's sound starts.
            let show = ManualShowClock(cycle: 12, seconds: 9.5, at: 0)
            let h = try linked(show)
            try h.advance(1.0 / 60)
            #expect(h.position.sceneIndex == 2)
            #expect(abs(h.sceneTime - (2.5 + 1.0 / 60)) < 1.0 / 48_000)
        }

        @Test func keysMoveTheSharedShowAndThePlayerFollowsMovesMadeElsewhere() throws {
            let show = ManualShowClock(cycle: 12, seconds: 0, at: 0)
            let h = try linked(show)
            try h.advance(1)
            h.key(SDLK_RIGHT)
            try h.player.step()
            #expect(show.moves == ["move 4.0"], "next: the show moves to the swing's start at the command frame")
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
            h.key(SDLK_SPACE)
            try h.player.step()
            #expect(show.show(at: 1).isPlaying == false && h.position.isPaused)
            try h.advance(2)
            #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 0, isPaused: true), "held with the show")
            // Another player resumes the show from 7.5 s (the flower, 0.5 s in).
            show.play(from: 7.5, at: show.now())
            try h.advance(1.0 / 60)
            #expect(h.position.sceneIndex == 2 && !h.position.isPaused)
            #expect(abs(h.sceneTime - (0.5 + 1.0 / 60)) < 1.0 / 48_000)
        }

        @Test func onlyPlaysOneSceneLoopingAndAnUnknownSceneIsAnErrorWithTheIDs() throws {
            let show = ManualShowClock(cycle: 12, seconds: 5.5, at: 0)
            let h = try linked(show, onlyScene: "swing")
            #expect(h.player.document.scenes.map(\.id) == ["swing"])
            try h.advance(1.0 / 60)
            // Show second 5.5 in the swing's 3 s loop: 2.5 s in.
            #expect(abs(h.sceneTime - (2.5 + 1.0 / 60)) < 1.0 / 48_000)
            let error = #expect(throws: PlayerStartError.self) { try PlayerHarness(onlyScene: "lake") }
            #expect(error?.description.contains("--only lake: no scene has that id") == true)
            #expect(error?.description.contains("hint: the scenes are ocean, swing, flower") == true)
        }
    }
}
