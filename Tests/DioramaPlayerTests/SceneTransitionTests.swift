import DioramaAudio
import DioramaDocument
import DioramaMixer
@testable import DioramaPlayer
import DioramaTestSupport
import DioramaTimeline
import Testing

/// Scene changes drawn as a slide or a crossfade: the incoming scene's time starts where a cut starts it (its cues on
/// the same samples), the pages left are frozen, the picture moves along the drag's spring, navigation during a
/// change retargets it, and the beds fade over it. Players on screens in memory, with the test's clocks.
@Suite struct SceneTransitionTests {
    static let rate = PlayerHarness.rate
    static let width = 640.0

    /// A player on the fixture story (ocean 4 s, swing 3 s, flower 5 s) with `transition`, `latency` frames of output.
    static func harness(_ transition: TransitionStyle, latency: Int64 = 0, renderer: any SnapshotRendering = FlatRenderer())
        throws -> PlayerHarness {
        try PlayerHarness(showsOverlay: false, latency: latency, renderer: renderer, embedded: true, transition: transition)
    }

    /// The cues that sound (after every revocation), as (sound, frame).
    static func cueSamples(_ h: PlayerHarness) -> [String] {
        MixerModel(h.output.commands).cueStarts.map { "\($0.sound)@\($0.frame)" }
    }

    /// The pages of the last frame, by scene (told by their background): their offset and opacity.
    static func pages(_ h: PlayerHarness) -> [Int: (x: Double, opacity: Double)] {
        var pages: [Int: (Double, Double)] = [:]
        for node in h.player.frames.last?.snapshot.nodes ?? [] {
            guard let scene = scene(of: node) else { continue }
            pages[scene] = (node.transform.tx, node.opacity)
        }
        return pages
    }

    /// True when the last frame is one scene at rest: one page, in place, opaque (no scene change being drawn).
    static func isAtRest(_ h: PlayerHarness) -> Bool {
        let pages = pages(h)
        return pages.count == 1 && pages.values.allSatisfy { $0.x == 0 && $0.opacity == 1 }
    }

    /// The fixture scene a page node draws, by its background's colour; nil for anything else.
    static func scene(of node: NodeSnapshot) -> Int? {
        guard node.id?.hasPrefix("page.") == true, case .page(let page) = node.content,
              case .solid(let color) = page.background else { return nil }
        return PlayerFixtures.backgrounds.firstIndex(of: color)
    }

    /// The width of the clock bar (the scene's elapsed fraction, `ClockSceneSource`) of the page of `scene` in the last frame.
    static func clockWidth(_ h: PlayerHarness, scene: Int) -> Double? {
        guard let page = h.player.frames.last?.snapshot.nodes.first(where: { Self.scene(of: $0) == scene }),
              case .page(let scene) = page.content,
              let clock = scene.nodes.first(where: { $0.id == "clock" }) else { return nil }
        return clock.bounds.width
    }

    // MARK: - The rule: cues do not move

    @Test(arguments: [Int64(0), 1_024])
    func theIncomingScenesCuesSoundOnTheSameSamplesWithEveryTransition(latency: Int64) throws {
        var runs: [TransitionStyle: [String]] = [:]
        for style in TransitionStyle.allCases {
            let h = try Self.harness(style, latency: latency)
            try h.advance(1.5)
            h.press(.right)                 // ocean -> swing by key
            try h.advance(0)
            try h.advance(1.5)
            h.press(.digit(1))              // swing -> ocean by a jump back
            try h.advance(0)
            try h.advance(4.2)              // ocean ends: swing by itself
            try h.advance(3.5)              // swing ends: flower
            runs[style] = Self.cueSamples(h)
        }
        #expect(runs[.slide] == runs[.none])
        #expect(runs[.crossfade] == runs[.none])
        // And they are where the rule puts them: swing's creak 1 s after the key press, acting at the write frame.
        let press = Int64(1.5 * Double(Self.rate)) + latency
        #expect(runs[.none]?.contains("2@\(press + Int64(Self.rate))") == true)
        #expect((runs[.none]?.count ?? 0) >= 5)
    }

    // MARK: - The picture

    @Test func aKeySlidesTheNextSceneInFromTheRightAlongTheDragsSpring() throws {
        let h = try Self.harness(.slide)
        try h.advance(1)
        #expect(Self.isAtRest(h))  // at rest: the scene alone
        h.press(.right)
        let start = h.clock.now
        try h.advance(0)
        let spring = PageSpring(startOffset: Self.width, startTime: start, response: SceneTransition.response)
        var lastIncoming = Double.infinity
        var frozen: Double?
        for _ in 0..<6 {
            try h.advance(1.0 / 60)
            let pages = Self.pages(h)
            let incoming = try #require(pages[1]), outgoing = try #require(pages[0])
            // On the spring, at whole pixels of the window (the canvas's size here: one point a pixel).
            #expect(abs(incoming.x - spring.offset(at: h.clock.now).rounded()) < 1e-6)
            #expect(abs(outgoing.x - (incoming.x - Self.width)) < 1e-6)
            #expect(incoming.x < lastIncoming)
            lastIncoming = incoming.x
            // The ocean is left as it was at 1 s; swing's time runs from the key press.
            let oceanBar = try #require(Self.clockWidth(h, scene: 0))
            #expect(abs(oceanBar - Self.width / 4) < 1e-6)
            if let frozen { #expect(oceanBar == frozen) }
            frozen = oceanBar
            let swingBar = try #require(Self.clockWidth(h, scene: 1))
            #expect(abs(swingBar - Self.width * h.sceneTime / 3) < 1)
        }
        try h.advance(SceneTransition.duration)
        try h.advance(0.3)
        #expect(Self.isAtRest(h))  // at rest again: one page
        #expect(h.position.sceneIndex == 1)
    }

    @Test func backwardAndJumpsBackComeInFromTheLeftAndTheWrapGoesForward() throws {
        let h = try Self.harness(.slide)
        try h.advance(1)
        h.press(.digit(3))       // a jump forward
        try h.advance(0)
        try h.advance(1.0 / 60)
        #expect(try #require(Self.pages(h)[2]).x > 0)
        try h.advance(1)
        h.press(.left)           // back: from the left
        try h.advance(0)
        try h.advance(1.0 / 60)
        let back = Self.pages(h)
        #expect(try #require(back[1]).x < 0)
        #expect(try #require(back[2]).x > 0)
        try h.advance(1)
        h.press(.digit(3))
        try h.advance(0)
        try h.advance(1)
        h.press(.right)          // flower -> ocean wraps: forward
        try h.advance(0)
        try h.advance(1.0 / 60)
        #expect(try #require(Self.pages(h)[0]).x > 0)
        #expect(try #require(Self.pages(h)[2]).x < 0)
        #expect(h.position.sceneIndex == 0)
    }

    @Test func theSceneEndSlidesTooWithTheSceneLeftAsItWasLastShown() throws {
        let h = try Self.harness(.slide)
        try h.advance(3.9)
        #expect(Self.isAtRest(h))
        let lastShown = try #require(Self.clockWidth(h, scene: 0))
        try h.advance(0.15)      // the heard clock crosses ocean's end: the slide starts
        #expect(h.position.sceneIndex == 1)
        try h.advance(1.0 / 60)
        let pages = Self.pages(h)
        let incoming = try #require(pages[1]), outgoing = try #require(pages[0])
        #expect(incoming.x > 0 && incoming.x < Self.width)
        #expect(abs(outgoing.x - (incoming.x - Self.width)) < 1e-6)
        // The ocean as the last frame before the change showed it: the page left is that frame's picture, not a
        // moment later drawn again.
        #expect(Self.clockWidth(h, scene: 0) == lastShown)
        try h.advance(0.7)
        #expect(Self.isAtRest(h))
    }

    @Test func aCrossfadeRaisesTheIncomingPagesOpacityOverTheOutgoingBothFullSize() throws {
        let h = try Self.harness(.crossfade)
        try h.advance(1)
        h.press(.right)
        try h.advance(0)
        var last = -1.0
        for _ in 0..<8 {
            try h.advance(1.0 / 30)
            let pages = Self.pages(h)
            let incoming = try #require(pages[1]), outgoing = try #require(pages[0])
            #expect(incoming.x == 0 && outgoing.x == 0)
            #expect(outgoing.opacity == 1)
            #expect(incoming.opacity > last && incoming.opacity < 1)
            last = incoming.opacity
        }
        try h.advance(0.2)
        #expect(Self.isAtRest(h))
    }

    @Test func navigationDuringASlideRetargetsWithoutAJumpBack() throws {
        let h = try Self.harness(.slide)
        try h.advance(1)
        h.press(.right)
        try h.advance(0)
        try h.advance(0.08)
        let swingBefore = try #require(Self.pages(h)[1]).x
        h.press(.right)          // swing -> flower while swing is still coming in
        try h.advance(0)
        // Ocean, swing and flower side by side: swing stays where it was, flower beside it on the right (off the canvas
        // at first), ocean on the left.
        let swing = try #require(Self.pages(h)[1])
        #expect(abs(swing.x - swingBefore) < 1e-6)
        #expect(Self.pages(h)[2] == nil)
        #expect(abs(try #require(Self.pages(h)[0]).x - (swingBefore - Self.width)) < 1e-6)
        try h.advance(0.1)
        let later = Self.pages(h)
        let flower = try #require(later[2]), swingLater = try #require(later[1])
        #expect(flower.x < Self.width && swingLater.x < swingBefore)
        #expect(abs(swingLater.x - (flower.x - Self.width)) < 1e-6)
        try h.advance(1)
        #expect(h.position.sceneIndex == 2)
        #expect(Self.isAtRest(h))
    }

    @Test func navigationDuringACrossfadeKeepsTheBlendReachedAndFadesTheNextInOverIt() throws {
        let h = try Self.harness(.crossfade)
        try h.advance(1)
        h.press(.right)
        try h.advance(0)
        try h.advance(0.1)
        let reached = try #require(Self.pages(h)[1]).opacity
        #expect(reached > 0.3 && reached < 0.9)
        h.press(.right)
        try h.advance(0)
        try h.advance(1.0 / 60)
        let pages = Self.pages(h)
        #expect(try #require(pages[0]).opacity == 1)
        #expect(abs(try #require(pages[1]).opacity - reached) < 1e-9)
        #expect(try #require(pages[2]).opacity < 0.2)
        try h.advance(0.5)
        #expect(Self.isAtRest(h))
        #expect(h.position.sceneIndex == 2)
    }

    @Test func aPressCatchesASlidingPageAndADragStillPages() throws {
        let h = try Self.harness(.slide)
        try h.advance(1)
        h.press(.right)
        try h.advance(0)
        try h.advance(0.05)
        let caught = try #require(Self.pages(h)[1]).x
        h.screen?.events.append(.input(.pointerDown(Point(x: 300, y: 100))))
        try h.advance(0)
        try h.advance(0.2)
        #expect(abs(try #require(Self.pages(h)[1]).x - caught) < 1e-6)  // held where it was caught
        // Dragged on to the left and let go: it settles at rest on swing.
        h.screen?.events.append(.input(.pointerMoved(Point(x: 300 - caught, y: 100))))
        h.screen?.events.append(.input(.pointerUp(Point(x: 300 - caught, y: 100))))
        try h.advance(0)
        try h.advance(1)
        #expect(Self.isAtRest(h))
        #expect(h.position.sceneIndex == 1)
        // A drag from rest pages as before, also where key changes are crossfades or cuts.
        for style in [TransitionStyle.none, .crossfade] {
            let d = try Self.harness(style)
            try d.advance(1)
            d.screen?.events += [.input(.pointerDown(Point(x: 500, y: 100))), .input(.pointerMoved(Point(x: 300, y: 100))),
                                 .input(.pointerUp(Point(x: 300, y: 100)))]
            try d.advance(0)
            try d.advance(1.0 / 60)
            let pages = Self.pages(d)
            let incoming = try #require(pages[1]), outgoing = try #require(pages[0])
            #expect(incoming.x > 0 && incoming.x < Self.width - 200)
            #expect(abs(outgoing.x - (incoming.x - Self.width)) < 1e-6)
            #expect(outgoing.opacity == 1 && incoming.opacity == 1)
        }
    }

    @Test func aMoveMadeByAnotherPlayerOfASharedShowSlidesHereWithTheSceneLeftAsItWasShown() throws {
        let show = ManualShowClock(cycle: 12, seconds: 0, at: 0)
        let h = try PlayerHarness(showsOverlay: false, sharedClock: { clock in
            show.reading = { clock.now - 100 }
            return show
        }, embedded: true, transition: .slide)
        try h.advance(1)
        show.move(to: 7.5, at: show.now())  // another player jumps to the flower, 0.5 s in
        try h.advance(1.0 / 60)
        #expect(h.position.sceneIndex == 2)
        try h.advance(1.0 / 60)
        let pages = Self.pages(h)
        #expect(try #require(pages[2]).x > 0)
        #expect(abs(try #require(pages[0]).x - (try #require(pages[2]).x - Self.width)) < 1e-6)
        #expect(abs(try #require(Self.clockWidth(h, scene: 0)) - Self.width / 4) < 1e-6)  // as shown at 1 s
        #expect(show.moves == ["move 7.5"], "the transition is drawn here alone: the show is not moved again")
    }

    @Test(arguments: [TransitionStyle.slide, .crossfade])
    func aLoneSceneStartingOverChangesIntoItselfWithItsEndFrozen(_ style: TransitionStyle) throws {
        let h = try PlayerHarness(showsOverlay: false, renderer: FlatRenderer(), onlyScene: "ocean", embedded: true, transition: style)
        try h.advance(3.9)
        #expect(Self.isAtRest(h))
        let lastShown = try #require(Self.clockWidth(h, scene: 0))
        try h.advance(0.15)      // the heard clock crosses the ocean's end and starts it over
        #expect(h.position.sceneIndex == 0 && h.position.sceneTime(sampleRate: Self.rate) < 0.2)
        try h.advance(1.0 / 60)
        // Two pages of the ocean: the end as last shown, and its start coming in.
        let pages = try #require(h.player.frames.last?.snapshot.nodes.filter { Self.scene(of: $0) == 0 })
        #expect(pages.count == 2)
        let clocks = pages.compactMap { page -> Double? in
            guard case .page(let scene) = page.content else { return nil }
            return scene.nodes.first { $0.id == "clock" }?.bounds.width
        }
        #expect(clocks.contains(lastShown))
        if style == .slide {
            let xs = pages.map(\.transform.tx).sorted()
            #expect(xs.count == 2 && xs[0] < 0 && xs[1] > 0 && abs(xs[1] - xs[0] - Self.width) < 1e-6)
        } else {
            #expect(pages.contains { $0.opacity > 0 && $0.opacity < 1 })
        }
        try h.advance(0.7)
        #expect(Self.isAtRest(h))
    }

    @Test func noneCutsAsBefore() throws {
        let h = try Self.harness(.none)
        try h.advance(1)
        h.press(.right)
        try h.advance(0)
        try h.advance(1.0 / 60)
        #expect(Self.isAtRest(h))
        #expect(h.position.sceneIndex == 1)
    }

    @Test func thePlayCommandTakesATransitionAndRefusesAnUnknownOne() throws {
        let command = try PlayCommandTests()
        let folder = try command.folder()
        let file = try command.scenes(in: folder)
        let environment = ["SDL_VIDEODRIVER": "dummy", "XDG_CONFIG_HOME": folder.path]
        let crossfade = try PlayCommandTests.run(["play", file.path, "--transition", "crossfade", "--audio-device", "null",
                                                  "--frames", "10"], environment: environment)
        #expect(crossfade.status == 0, "\(crossfade.standardError)")
        let wipe = try PlayCommandTests.run(["play", file.path, "--transition", "wipe", "--no-audio"], environment: environment)
        #expect(wipe.status != 0)
        #expect(wipe.standardError.contains("wipe") && wipe.standardError.contains("crossfade"), "\(wipe.standardError)")
    }

    // MARK: - Pixels

    /// The ARGB pixel of the last frame at (x, y).
    static func pixel(_ h: PlayerHarness, x: Int, y: Int) throws -> (r: Double, g: Double, b: Double) {
        let frame = try #require(try h.screen?.readPixels())
        let value = frame.pixels[y * frame.width + x]
        return (Double((value >> 16) & 0xFF), Double((value >> 8) & 0xFF), Double(value & 0xFF))
    }

    static func expectColor(_ pixel: (r: Double, g: Double, b: Double), _ color: (r: Double, g: Double, b: Double),
                            tolerance: Double = 2.5) {
        #expect(abs(pixel.r - color.r) <= tolerance && abs(pixel.g - color.g) <= tolerance && abs(pixel.b - color.b) <= tolerance,
                "pixel \(pixel) expected \(color)")
    }

    static func byte(_ color: Color) -> (r: Double, g: Double, b: Double) {
        ((color.red * 255).rounded(), (color.green * 255).rounded(), (color.blue * 255).rounded())
    }

    @Test func aFrameMidSlideShowsBothScenesSplitWhereThePageIs() throws {
        let h = try Self.harness(.slide, renderer: CairoSnapshotRenderer(imageDirectory: nil))
        try h.advance(1)
        h.press(.right)
        let start = h.clock.now
        try h.advance(0)
        try h.advance(0.09)
        let split = PageSpring(startOffset: Self.width, startTime: start, response: SceneTransition.response).offset(at: h.clock.now)
        #expect(split > 250 && split < 390)  // about half-way
        let x = Int(split.rounded())
        let ocean = Self.byte(PlayerFixtures.backgrounds[0]), swing = Self.byte(PlayerFixtures.backgrounds[1])
        for dx in [-40, -4] { Self.expectColor(try Self.pixel(h, x: x + dx, y: 100), ocean) }
        for dx in [3, 40] { Self.expectColor(try Self.pixel(h, x: x + dx, y: 100), swing) }
        Self.expectColor(try Self.pixel(h, x: 5, y: 100), ocean)
        Self.expectColor(try Self.pixel(h, x: 634, y: 100), swing)
    }

    @Test func aFrameMidCrossfadeBlendsBothScenes() throws {
        let h = try Self.harness(.crossfade, renderer: CairoSnapshotRenderer(imageDirectory: nil))
        try h.advance(1)
        h.press(.right)
        let start = h.clock.now
        try h.advance(0)
        try h.advance(0.09)
        var fade = SceneTransition(style: .crossfade, from: 0, frozenAt: 1, to: 1, forward: true, changeFrame: 0, at: start)
        fade.changeFrame = 0
        let p = fade.fadeProgress(at: h.clock.now)
        #expect(p > 0.3 && p < 0.7)
        let ocean = Self.byte(PlayerFixtures.backgrounds[0]), swing = Self.byte(PlayerFixtures.backgrounds[1])
        let blend = (ocean.r * (1 - p) + swing.r * p, ocean.g * (1 - p) + swing.g * p, ocean.b * (1 - p) + swing.b * p)
        for x in [5, 320, 634] { Self.expectColor(try Self.pixel(h, x: x, y: 100), blend, tolerance: 3) }
    }
}
