import DioramaDocument
import DioramaMixer
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// The player's decisions, without a window, a sound output or a file: an intent applied to the show's state gives
/// the new state and the effects the player performs.
@Suite struct ShowStateTests {
    let story = PlayerFixtures.story()
    let playing = PlaylistPosition(sceneIndex: 0, sceneFrame: 0)
    let paused = PlaylistPosition(sceneIndex: 0, sceneFrame: 0, isPaused: true)

    /// The effects other than log lines.
    func actions(_ state: inout ShowState, _ intent: ShowIntent, from source: ShowIntent.Source = .viewer,
                 playhead: PlaylistPosition? = nil, now: Double = 0) -> [ShowEffect] {
        state.decide(intent, from: source, document: story, playhead: playhead ?? playing, now: now).filter {
            if case .log = $0 { false } else { true }
        }
    }

    func problems(_ state: inout ShowState, _ intent: ShowIntent) -> [String] {
        state.decide(intent, from: .controller, document: story, playhead: playing, now: 0).compactMap {
            if case .problem(let text) = $0 { text } else { nil }
        }
    }

    @Test func volumeAndLanguageChangeAndUnknownScenesOrLanguagesAreProblemsNotActions() {
        var state = ShowState(language: "en")
        #expect(actions(&state, .volume(0.25), from: .controller) == [.outputVolume(0.25)])
        #expect(state.volume == 0.25)
        #expect(actions(&state, .language("ja"), from: .controller) == [.retitle])
        #expect(state.language == "ja")
        #expect(problems(&state, .language("fr")) == ["no language 'fr': the playlist offers en, zh, ja"])
        #expect(problems(&state, .sceneID("lake")) == ["no scene 'lake': the scenes are ocean, swing, flower"])
        #expect(problems(&state, .scene(3)) == ["no scene number 4: the playlist has 3"])
        #expect(actions(&state, .scene(3), from: .controller).isEmpty, "an unknown scene does not navigate")
        #expect(state.language == "ja")
    }

    @Test func anUnknownSceneIsAProblemOncePerKindWithItsIdCutShort() {
        var state = ShowState(language: "en")
        let id = String(repeating: "x", count: 3000)
        let said = (0..<100).flatMap { _ in problems(&state, .sceneID(id)) }
        #expect(said == ["no scene '\(String(repeating: "x", count: 40))…': the scenes are ocean, swing, flower"])
        #expect(problems(&state, .language(id)) == ["no language '\(String(repeating: "x", count: 40))…': the playlist offers en, zh, ja"])
        #expect(problems(&state, .language("fr")) == [], "a second unknown language is counted, not said")
        #expect(problems(&state, .scene(7)) == ["no scene number 8: the playlist has 3"])
        #expect(state.ignoredCommands == ["scene": 100, "language": 2, "scene number": 1])
    }

    @Test func aControllersCommandsAreLoggedAsCommandsAndActAsTheirKeys() {
        var state = ShowState(language: "en")
        #expect(state.decide(.scene(1), from: .controller, document: story, playhead: playing, now: 0)
            == [.log("command", detail: "scene(1)"), .log("scene(1)"), .navigate(.scene(1))])
        #expect(state.decide(.sceneID("flower"), from: .controller, document: story, playhead: playing, now: 0)
            == [.log("command", detail: "sceneID(\"flower\")"), .log("scene(2)"), .navigate(.scene(2))])
        #expect(actions(&state, .reload, from: .controller) == [.reload(reason: "show control")])
        #expect(actions(&state, .reload) == [.reload(reason: "R")])
        #expect(actions(&state, .seek(2.25), from: .controller, playhead: PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
            == [.seek(scene: 1, seconds: 2.25)])
        #expect(actions(&state, .seek(9), from: .controller, playhead: PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
            == [.seek(scene: 1, seconds: 3)], "clamped to the scene")
    }

    @Test func pauseAndResumeAreNotTogglesAndGoPlaysFromTheStart() {
        var state = ShowState(language: "en")
        #expect(actions(&state, .pause, from: .controller) == [.pause])
        #expect(actions(&state, .pause, from: .controller, playhead: paused) == [], "pause is not a toggle")
        #expect(actions(&state, .resume, from: .controller) == [])
        #expect(actions(&state, .resume, from: .controller, playhead: paused) == [.resume])
        #expect(actions(&state, .go, from: .controller, playhead: paused) == [.navigate(.restart), .resume], "the first scene, playing")
        #expect(actions(&state, .go, from: .controller) == [.navigate(.restart)])
        #expect(actions(&state, .restart, playhead: paused) == [.navigate(.restart)], "Home keeps the pause")
        #expect(actions(&state, .togglePause) == [.pause])
        #expect(actions(&state, .togglePause, playhead: paused) == [.resume])
    }

    @Test func aHoldPausesUntilReleasedButDoesNotUndoAPauseTheUserChose() {
        var state = ShowState(language: "en")
        #expect(actions(&state, .holdBegan) == [.pause])
        #expect(state.holdPaused)
        #expect(actions(&state, .holdEnded, playhead: paused) == [.resume])
        #expect(!state.holdPaused)

        #expect(actions(&state, .holdBegan, playhead: paused) == [], "paused by the user already")
        #expect(actions(&state, .holdEnded, playhead: paused) == [])

        #expect(actions(&state, .holdBegan) == [.pause])
        #expect(actions(&state, .next, playhead: paused) == [.navigate(.next)])
        #expect(actions(&state, .holdEnded, playhead: paused) == [], "navigating ends what the hold would undo")
    }

    @Test func volumeStepsByATenthWithinZeroAndOneAndAHalfAndMuteKeepsIt() {
        var state = ShowState(language: "en")
        #expect(actions(&state, .volumeUp, now: 5) == [.outputVolume(1.1)])
        #expect(state.toast(at: 6) == "Volume 110 %" && state.toast(at: 6.5) == nil, "a toast goes away by itself")
        #expect(actions(&state, .toggleMute) == [.outputVolume(0)])
        #expect(state.toast(at: 0) == "Muted")
        #expect(actions(&state, .toggleMute) == [.outputVolume(1.1)])
        for _ in 0..<10 { _ = actions(&state, .volumeUp) }
        #expect(state.volume == 1.5)
        for _ in 0..<20 { _ = actions(&state, .volumeDown) }
        #expect(state.volume == 0 && state.outputVolume == 0)
        _ = actions(&state, .toggleMute)
        #expect(actions(&state, .volume(2), from: .controller) == [.outputVolume(1.5)], "a volume unmutes, clamped")
        #expect(!state.muted)
    }

    @Test func theKeysAndAShowControllerReachTheOneVolumeRange() {
        var keys = ShowState(language: "en")
        for _ in 0..<30 { _ = actions(&keys, .volumeUp) }
        #expect(keys.volume == Mixer.volumeRange.upperBound)
        for _ in 0..<30 { _ = actions(&keys, .volumeDown) }
        #expect(keys.volume == Mixer.volumeRange.lowerBound)
        // What OSC accepts (`ShowCommand`, up to the same bound) is taken whole; beyond it, the same clamp.
        var controller = ShowState(language: "en")
        #expect(actions(&controller, .volume(Mixer.volumeRange.upperBound), from: .controller) == [.outputVolume(1.5)])
        #expect(actions(&controller, .volume(7), from: .controller) == [.outputVolume(Mixer.volumeRange.upperBound)])
        #expect(actions(&controller, .volume(-1), from: .controller) == [.outputVolume(Mixer.volumeRange.lowerBound)])
    }

    @Test func theLanguageKeyCyclesAndSavesTheChoice() {
        var state = ShowState(language: "en")
        #expect(actions(&state, .cycleLanguage, now: 1) == [.saveLanguage("zh"), .retitle])
        #expect(state.language == "zh" && state.toast(at: 1) == LanguageChoice.displayName("zh"))
        _ = actions(&state, .cycleLanguage)
        #expect(actions(&state, .cycleLanguage) == [.saveLanguage("en"), .retitle])
    }

    @Test func theWindowsKeysAreEffectsForThePlayer() {
        var state = ShowState(language: "en")
        #expect(actions(&state, .toggleFullscreen) == [.toggleFullscreen])
        #expect(actions(&state, .quit) == [.quit])
        #expect(state.decide(.quit, from: .viewer, document: story, playhead: playing, now: 0) == [.log("quit"), .quit])
    }

    @Test func anIntentActsTheSameFromTheKeysAsFromAControllerButForTheLogAndTheReloadsReason() {
        var keys = ShowState(language: "en"), controller = ShowState(language: "en")
        let intents: [ShowIntent] = [.go, .pause, .resume, .sceneID("swing"), .scene(5), .seek(1), .volume(0.5), .language("zh"),
                                     .language("fr"), .next, .togglePause, .holdBegan, .holdEnded, .toggleMute, .cycleLanguage]
        for intent in intents {
            for playhead in [playing, paused] {
                #expect(actions(&keys, intent, playhead: playhead) == actions(&controller, intent, from: .controller, playhead: playhead),
                        "\(intent)")
                #expect(keys == controller)
            }
        }
    }
}
