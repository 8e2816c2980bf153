import DioramaDocument
import DioramaTimeline
import Foundation
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

@Suite struct PageDotTargetTests {
    let canvas = Size(width: 1280, height: 720)
    let middle = ViewerContext(sceneIndex: 4, sceneCount: 9, wraps: true)

    /// At the default window, at smaller ones down to 640x360 and at a letterboxed one, each dot's target is at
    /// least 24x24 window pixels, and neighbours touch without overlapping.
    @Test(arguments: [(1280.0, 720.0), (960, 540), (800, 600), (640, 360)])
    func targetsAreAtLeast24WindowPixelsAndDoNotOverlap(window: (Double, Double)) {
        for count in [1, 3, 9, 12] {
            let layout = OverlayLayout(canvas: canvas, sceneCount: count)
            let box = Letterbox(canvas: canvas, window: Size(width: window.0, height: window.1))
            let pixelsPerPoint = box.viewport.width / canvas.width
            let targets = layout.pageDotTargets
            #expect(targets.count == count)
            for target in targets {
                #expect(target.width * pixelsPerPoint >= 24 - 1e-9 && target.height * pixelsPerPoint >= 24 - 1e-9,
                        "\(count) dots in \(window): \(target.width * pixelsPerPoint) px")
                #expect(target.y + target.height <= canvas.height + 1e-9, "inside the canvas")
            }
            for (left, right) in zip(targets, targets.dropFirst()) {
                #expect(left.x + left.width <= right.x + 1e-9, "neighbours do not overlap")
            }
        }
    }

    @Test func aPressOnATargetAwayFromTheDotSelectsItAndJustOutsideEveryTargetPages() {
        var viewer = StoryViewer(layout: OverlayLayout(canvas: canvas, sceneCount: 9))
        let targets = viewer.layout.pageDotTargets
        // Near the target's corner, well off the dot itself (a click 7 points off a dot used to page instead).
        let corner = Point(x: targets[6].x + 1, y: targets[6].y + 1)
        #expect(viewer.handle(.pointerDown(corner), at: 1, context: middle) == [])
        #expect(viewer.handle(.pointerUp(Point(x: corner.x + 3, y: corner.y + 2)), at: 1.05, context: middle) == [.scene(6)])
        // On the edge two targets share: the right-hand one.
        let shared = Point(x: targets[3].x, y: targets[3].y + targets[3].height / 2)
        #expect(viewer.layout.pageDot(at: shared) == 3)
        // Just above every target, and just right of the last: a click pages as before.
        let above = Point(x: targets[2].x + targets[2].width / 2, y: targets[2].y - 1)
        #expect(viewer.layout.pageDot(at: above) == nil)
        #expect(viewer.handle(.pointerDown(above), at: 2, context: middle) == [])
        #expect(viewer.handle(.pointerUp(above), at: 2.05, context: middle) == [.previous])
        let beyond = Point(x: targets[8].x + targets[8].width + 1, y: targets[8].y + targets[8].height / 2)
        #expect(viewer.layout.pageDot(at: beyond) == nil)
        #expect(viewer.handle(.pointerDown(beyond), at: 3, context: middle) == [])
        #expect(viewer.handle(.pointerUp(beyond), at: 3.05, context: middle) == [.next])
        // Pressed on one target and released on its neighbour's: nothing.
        _ = viewer.handle(.pointerDown(viewer.layout.pageDots[1]), at: 4, context: middle)
        #expect(viewer.handle(.pointerUp(viewer.layout.pageDots[2]), at: 4.05, context: middle) == [])
    }
}

@Suite struct HoldFeedbackTests {
    let layout = OverlayLayout(canvas: Size(width: 1280, height: 720), sceneCount: 3)
    let middle = ViewerContext(sceneIndex: 1, sceneCount: 3, wraps: true)

    @Test func theFeedbackFadesInOverAHundredAndFiftyMillisecondsFromTheHoldOn() {
        var viewer = StoryViewer(layout: layout)
        _ = viewer.handle(.pointerDown(Point(x: 900, y: 360)), at: 1, context: middle)
        #expect(viewer.holdFeedback(at: 1.2) == 0, "a press is not yet a hold")
        #expect(viewer.advance(to: 1.3) == [.holdBegan])
        // Frame by frame at 60 Hz from the moment the hold was recognised.
        let fades = (0...10).map { viewer.holdFeedback(at: 1.3 + Double($0) / 60) }
        #expect(fades.first == 0)
        #expect(zip(fades, fades.dropFirst()).allSatisfy { $0 <= $1 }, "rises steadily")
        #expect(abs(viewer.holdFeedback(at: 1.375) - 0.5) < 1e-9)
        #expect(viewer.holdFeedback(at: 1.4501) == 1 && viewer.holdFeedback(at: 5) == 1)
        #expect(viewer.isAnimating(at: 1.4) && !viewer.isAnimating(at: 1.5), "frames keep coming while it fades")
        _ = viewer.handle(.pointerUp(Point(x: 900, y: 360)), at: 2, context: middle)
        #expect(viewer.holdFeedback(at: 2) == 0, "gone on release")
    }

    @Test func theOverlayDimsTheChromeAndShowsAPauseGlyphAsTheFeedbackFadesIn() {
        let composer = OverlayComposer(layout: layout)
        func nodes(_ hold: Double) -> [NodeSnapshot] {
            composer.nodes(for: OverlayContent(progress: [1, 0.5, 0], currentScene: 1, title: "Swing", hold: hold))
        }
        #expect(!nodes(0).contains { $0.id == "overlay.hold" })
        #expect(nodes(0).allSatisfy { $0.opacity == 1 })
        let half = nodes(0.5)
        #expect(half.first { $0.id == "overlay.hold" }?.opacity == 0.5)
        #expect(half.first { $0.id == "overlay.bar.1.track" }?.opacity == 0.7)
        #expect(half.first { $0.id == "overlay.title" }?.opacity == 0.7)
        #expect(half.first { $0.id == "overlay.scrim.top" }?.opacity == 1, "the shade stays")
        #expect(nodes(1).first { $0.id == "overlay.hold" }?.opacity == 1)
        #expect(nodes(1).first { $0.id == "overlay.dot.0" }?.opacity == 0.4)
    }
}

@Suite struct ChromeTextTests {
    let document = PlayerFixtures.story()

    func toasts(_ language: String) -> (volume: String?, muted: String?) {
        var state = ShowState(language: language)
        let playhead = PlaylistPosition(sceneIndex: 0, sceneFrame: 0)
        _ = state.decide(.volumeDown, from: .viewer, document: document, playhead: playhead, now: 0)
        let volume = state.toast(at: 0)
        _ = state.decide(.toggleMute, from: .viewer, document: document, playhead: playhead, now: 1)
        return (volume, state.toast(at: 1))
    }

    @Test func toastsSpeakThePlayersLanguageWithItsNumbersAndFallBackToEnglish() {
        #expect(toasts("en") == ("Volume 90 %", "Muted"))
        #expect(toasts("zh") == ("音量 90%", "已静音"))
        #expect(toasts("ja") == ("音量 90%", "ミュート"))
        #expect(toasts("fr") == ("Volume 90 %", "Muted"), "a language without chrome words falls back to English")
    }

    @Test(arguments: ["en", "zh", "ja"])
    func theHelpAndTheBannerSpeakTheLanguage(language: String) {
        let text = ChromeText(language: language)
        let composer = OverlayComposer(layout: OverlayLayout(canvas: Size(width: 1280, height: 720), sceneCount: 1))
        let nodes = composer.nodes(for: OverlayContent(progress: [0], currentScene: 0, title: "", showsBars: false, showsHelp: true,
                                                       banner: (1...12).map { "scenes.json:\($0):1: error: problem" }, text: text))
        let strings = nodes.flatMap { node -> [String] in
            guard case .group(let children) = node.content else { return [] }
            return children.compactMap { if case .text(let text) = $0.content { return text.text } else { return nil } }
        }
        #expect(strings.contains(text.moreLinesLine(5)))
        #expect(strings.contains(text.help[0].keys) && strings.contains(text.help[0].action))
        #expect(text.help.count == ChromeText.english.help.count, "every language lists every key")
        if language != "en" {
            let english = Set(ChromeText.english.help.map(\.action))
            #expect(text.help.allSatisfy { !english.contains($0.action) }, "no English left in the \(language) help")
        }
    }

    /// The help panel is sized from its widest line: rendered in each built-in language, no glyph pixel lies within
    /// the padding of the panel's left or right edge, and the widest line comes within two paddings of an edge.
    @Test(arguments: ["en", "zh", "ja"])
    func theHelpsWidestLineKeepsItsPadding(language: String) throws {
        let canvas = Size(width: 1280, height: 720)
        let layout = OverlayLayout(canvas: canvas, sceneCount: 1)
        let nodes = OverlayComposer(layout: layout).nodes(for: OverlayContent(
            progress: [0], currentScene: 0, title: "", showsBars: false, showsHelp: true, text: ChromeText(language: language)))
        guard case .group(let children) = nodes[0].content, case .shape(let shape) = children[0].content,
              case .rect(let panel, _) = shape.geometry else {
            Issue.record("the help is a panel with lines")
            return
        }
        let frame = Snapshot(canvas: canvas, background: .solid(.black), nodes: nodes)
        var pixels = [UInt32](repeating: 0, count: 1280 * 720)
        try pixels.withUnsafeMutableBytes {
            try CairoSnapshotRenderer(imageDirectory: nil).draw(frame, into: $0.baseAddress!, width: 1280, height: 720,
                                                                stride: 1280 * 4, holdsLastFrame: false)
        }
        // Glyph pixels: brighter than the panel (which is near black).
        var left = Int.max, right = Int.min
        for y in 0..<720 {
            for x in 0..<1280 where (pixels[y * 1280 + x] >> 8) & 0xFF > 60 {
                left = min(left, x)
                right = max(right, x)
            }
        }
        let padding = OverlayComposer.helpPadding * layout.unit
        let leftGap = Double(left) - panel.x, rightGap = panel.x + panel.width - Double(right + 1)
        print("help \(language): panel \(Int(panel.width)) points, glyphs \(Int(leftGap)) and \(Int(rightGap)) points from its edges")
        #expect(leftGap >= padding - 1 && rightGap >= padding - 1)
        #expect(min(leftGap, rightGap) < 2 * padding, "the panel is no wider than its widest line needs")
    }
}

@Suite struct PlaylistChromeTests {
    func json(_ languages: String) -> String {
        DocumentFixtures.oceanJSON.replacingOccurrences(
            of: #""languages": { "default": "en", "fallback": "en", "available": ["en", "zh", "ja"] }"#, with: languages)
    }

    @Test func aPlaylistGivesTheChromeALanguageOfItsOwnAndRewordsABuiltInOne() throws {
        let document = try DocumentFixtures.decode(json(#"""
            "languages": { "available": ["en", "fr", "ja"], "chrome": {
              "fr": { "Muted": "Son coupé", "Volume {n} %": "Volume {n} %", "pause / resume": "pause / reprise",
                      "… {n} more lines: run `diorama check` for all of them": "… {n} lignes de plus" },
              "ja": { "quit": "おしまい" } } }
            """#)).document
        #expect(document.languages.chrome["fr"]?["Muted"] == "Son coupé")
        var state = ShowState(language: "fr")
        let playhead = PlaylistPosition(sceneIndex: 0, sceneFrame: 0)
        _ = state.decide(.toggleMute, from: .viewer, document: document, playhead: playhead, now: 0)
        #expect(state.toast(at: 0) == "Son coupé")
        _ = state.decide(.volumeDown, from: .viewer, document: document, playhead: playhead, now: 1)
        #expect(state.toast(at: 1) == "Volume 90 %")
        let french = state.text(for: document.languages)
        #expect(french.help[0] == .init("Space", "pause / reprise"), "translated where given, English elsewhere")
        #expect(french.moreLinesLine(4) == "… 4 lignes de plus")
        let japanese = ChromeText(language: "ja", playlist: document.languages.chrome)
        #expect(japanese.help.last == .init("Q  Esc", "おしまい"))
        #expect(japanese.muted == "ミュート", "the built-in words where the playlist gives none")
    }

    @Test func theChromesLanguagesMustBeOfferedAndItsTranslationsStrings() {
        let unoffered = DocumentFixtures.renderedDiagnostics(json(#"""
            "languages": { "available": ["en"], "chrome": { "fr": { "Muted": "Son coupé" } } }
            """#))
        #expect(unoffered.contains { $0.contains(#"the chrome's language "fr" is not in "available""#) }, "\(unoffered)")
        let notString = DocumentFixtures.renderedDiagnostics(json(#"""
            "languages": { "available": ["en", "fr"], "chrome": { "fr": { "Muted": 3 } } }
            """#))
        #expect(notString.contains { $0.contains("languages.chrome.fr.Muted") || $0.contains("must be a string") }, "\(notString)")
    }

    @Test func everyEnglishStringIsOneAPlaylistCanName() {
        let strings = ChromeText.englishStrings
        #expect(strings.contains("Muted") && strings.contains("Volume {n} %") && strings.contains("quit"))
        #expect(Set(strings).count == strings.count, "each English string names one thing")
    }
}
