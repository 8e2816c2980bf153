import CSDL
import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
import Foundation
@testable import DioramaPlayer
import Testing

extension WindowSuites {
    /// Clicks on a tappable node in the player (the record player: intro 2 s, then the player scene, whose button
    /// taps itself at 4 s): the tap wins over paging, its sounds start on the command frame plus their offsets,
    /// what the `auto` tap had announced is revoked, and the picture shows the tapped animations.
    @Suite struct TapPlayerTests {
        init() throws {
            try VideoSystem.start(driver: "dummy")
        }

        static let button = Point(x: 570, y: 300)
        static let click = PlaylistAudio.cueTag(scene: 1, cue: 0)
        static let music = PlaylistAudio.cueTag(scene: 1, cue: 1)
        static let crackle = PlaylistAudio.bedTag(scene: 1, bed: 0)

        static func harness(auto: String? = "4") throws -> PlayerHarness {
            let document = try DocumentFixtures.decode(TapFixtures.recordPlayer(auto: auto)).document
            return try PlayerHarness(load: { _ in .success(LoadedPlaylist(document: document, baseDirectory: "/", watchedPaths: [])) },
                                     scenes: EvaluatedScenes())
        }

        /// The start frames of the voices of `tag` that the output's commands leave standing.
        static func starts(_ h: PlayerHarness, _ tag: UInt32) -> [Int64] {
            MixerModel(h.output.commands).voices.filter { $0.start.tag == tag }.map(\.start.frame)
        }

        @Test func aClickOnTheButtonTapsItInsteadOfPaging() throws {
            let h = try Self.harness()
            try h.advance(2.5)
            #expect(h.position.sceneIndex == 1)
            #expect(h.player.tappableNode(at: Self.button) == "button")
            #expect(h.player.tappableNode(at: Point(x: 260, y: 180)) == nil)  // the disc cannot be tapped
            try h.click(Self.button)
            #expect(h.position.sceneIndex == 1)
            try h.advance(2)
            // The command frame is the heard frame here (no latency, no margin): 120 000, scene time 0.5 s.
            #expect(Self.starts(h, Self.click) == [120_000])
            #expect(Self.starts(h, Self.crackle) == [144_000])
            #expect(Self.starts(h, Self.music) == [180_000])
            #expect(h.position.taps == ["button": Rational(1, 2)])
            // Elsewhere a click still pages: the left half goes back to the intro.
            try h.click(Point(x: 100, y: 100))
            #expect(h.position.sceneIndex == 0)
        }

        @Test func aTapBeforeAutoRevokesWhatTheAutoTapHadAnnounced() throws {
            let h = try Self.harness()
            try h.advance(5.8)  // scene time 3.8 s: the look-ahead has sent the auto tap's click (frame 288 000)
            #expect(h.output.starts.contains { $0.tag == Self.click && $0.frame == 288_000 })
            try h.click(Self.button)
            #expect(h.output.commands.contains { $0.command == .revoke(fromFrame: 278_400) })
            try h.advance(2)
            #expect(Self.starts(h, Self.click) == [278_400])
            #expect(Self.starts(h, Self.music) == [338_400])
        }

        @Test func aSecondClickDoesNothingAndReenteringTheSceneResetsIt() throws {
            let h = try Self.harness(auto: nil)
            try h.advance(2.5)
            try h.click(Self.button)
            try h.advance(0.5)
            try h.click(Self.button)
            try h.advance(0.5)
            #expect(h.position.sceneIndex == 1)  // the button takes the click, though its tap no longer counts
            #expect(Self.starts(h, Self.click) == [120_000])
            // Away and back: untapped again, and a click taps it afresh.
            h.key(SDLK_LEFT)
            try h.player.step()
            h.key(SDLK_RIGHT)
            try h.player.step()
            #expect(h.position.sceneIndex == 1 && h.position.taps.isEmpty)
            try h.advance(1)
            try h.click(Self.button)
            try h.advance(0.5)
            #expect(Self.starts(h, Self.click).count == 2)
        }

        @Test func thePictureShowsTheTappedAnimationsFromTheTap() throws {
            let h = try Self.harness(auto: nil)
            h.player.capturesFrames = false
            try h.advance(2.5)
            func tonearm() -> NodeSnapshot? { h.player.frames.last?.snapshot.sceneNodes.first { $0.id == "tonearm" } }
            let resting = try #require(tonearm())
            try h.click(Self.button)
            try h.advance(0.2)
            #expect(tonearm() == resting)  // the arm waits its 0.25 s delay
            try h.advance(0.5)
            #expect(tonearm() != resting)
            // Untapped, the arm would still rest.
            let untapped = try Self.harness(auto: nil)
            try untapped.advance(3.2)
            #expect(untapped.player.frames.last?.snapshot.sceneNodes.first { $0.id == "tonearm" } == resting)
        }

        @Test func aSecondClickEndsWhatTheFirstStartedOnItsFrame() throws {
            func tonearm(_ h: PlayerHarness) -> NodeSnapshot? { h.player.frames.last?.snapshot.sceneNodes.first { $0.id == "tonearm" } }
            var resting: NodeSnapshot?
            func run() throws -> (h: PlayerHarness, voices: [MixerModel.Voice]) {
                let document = try DocumentFixtures.decode(TapFixtures.recordPlayer(auto: nil, toggles: true)).document
                let h = try PlayerHarness(load: { _ in .success(LoadedPlaylist(document: document, baseDirectory: "/", watchedPaths: [])) },
                                          scenes: EvaluatedScenes())
                h.player.capturesFrames = false
                try h.advance(2.5)
                resting = tonearm(h)
                try h.click(Self.button)  // frame 120 000, scene time 0.5 s: the music starts 1.25 s later
                try h.advance(2)
                #expect(tonearm(h) != resting)
                try h.click(Self.button)  // frame 216 000: the second tap
                try h.advance(1.7)
                return (h, MixerModel(h.output.commands).voices)
            }
            let (h, voices) = try run()
            #expect(h.position.sceneIndex == 1)
            #expect(Self.starts(h, Self.click) == [120_000])
            let secondClick = PlaylistAudio.cueTag(scene: 1, cue: 3)
            #expect(Self.starts(h, Self.music) == [180_000])
            #expect(Self.starts(h, secondClick) == [216_000])
            #expect(voices.first { $0.start.tag == Self.music }?.stoppedAt == 216_000)
            // The tonearm rises from the second tap on: back where it rested once its second has passed.
            #expect(resting != nil && tonearm(h) == resting)
            // The same clicks at the same times give the same sound.
            #expect(try run().voices.map(\.start) == voices.map(\.start))
        }
    }
}
