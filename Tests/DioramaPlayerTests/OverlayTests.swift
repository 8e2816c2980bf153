import DioramaDocument
import DioramaTimeline
import Foundation
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

@Suite struct OverlayTests {
    let layout = OverlayLayout(canvas: Size(width: 1280, height: 720), sceneCount: 3)

    @Test func progressIsFullForFinishedScenesAFractionForTheCurrentAndEmptyForLaterOnes() {
        let clock = PlaylistClock(durations: [Rational(4), Rational(3), Rational(5)])
        #expect(clock.progress(scene: 1, sceneFrame: 0.25 * 3 * 48_000, sampleRate: 48_000) == [1, 0.25, 0])
        #expect(clock.progress(scene: 0, sceneFrame: 0, sampleRate: 48_000) == [0, 0, 0])
        #expect(clock.progress(scene: 2, sceneFrame: 1.5 * 5 * 48_000, sampleRate: 48_000) == [1, 1, 1])
    }

    @Test func barsSpanTheWidthInsideTheMarginsWithGapsBetween() {
        let bars = layout.progressBars
        #expect(bars.count == 3)
        #expect(bars[0].x == layout.margin)
        #expect(abs(bars[2].x + bars[2].width - (1280 - layout.margin)) < 1e-9)
        #expect(abs(bars[1].x - (bars[0].x + bars[0].width) - layout.barGap) < 1e-9)
        #expect(bars.allSatisfy { $0.width == bars[0].width && $0.height == layout.barHeight })
    }

    @Test func dotsAreCentredAlongTheBottomAndHitTestedByDistance() {
        let dots = layout.pageDots
        #expect(abs((dots[0].x + dots[2].x) / 2 - 640) < 1e-9)
        #expect(dots.allSatisfy { $0.y > 650 && $0.y < 720 })
        #expect(layout.pageDot(at: dots[1]) == 1)
        #expect(layout.pageDot(at: Point(x: dots[1].x + layout.dotTarget * 0.45, y: dots[1].y)) == 1)
        #expect(layout.pageDot(at: Point(x: dots[1].x, y: dots[1].y - layout.dotTarget * 0.55)) == nil)
        #expect(layout.pageDot(at: Point(x: 640, y: 360)) == nil)
    }

    @Test func theOverlayDrawsTracksFillsTitleAndDots() {
        let composer = OverlayComposer(layout: layout)
        let nodes = composer.nodes(for: OverlayContent(progress: [1, 0.5, 0], currentScene: 1, title: "Swing"))
        let ids = nodes.compactMap(\.id)
        #expect(ids == ["overlay.scrim.top", "overlay.scrim.bottom", "overlay.bar.0.track", "overlay.bar.0.fill", "overlay.bar.1.track", "overlay.bar.1.fill",
                        "overlay.bar.2.track", "overlay.title", "overlay.dot.0", "overlay.dot.1", "overlay.dot.2"])
        // The current scene's fill covers half its track; the finished one the whole track.
        func rect(_ id: String) -> (Rect, Double, Paint?) {
            guard case .shape(let shape) = nodes.first(where: { $0.id == id })!.content,
                  case .rect(let rect, let radius) = shape.geometry else { fatalError("not a rect") }
            return (rect, radius, shape.fill)
        }
        let (track, radius, trackPaint) = rect("overlay.bar.1.track")
        let (fill, _, fillPaint) = rect("overlay.bar.1.fill")
        #expect(fill.width == track.width / 2)
        #expect(rect("overlay.bar.0.fill").0.width == rect("overlay.bar.0.track").0.width)
        #expect(radius == track.height / 2, "rounded ends")
        guard case .solid(let trackColor) = trackPaint, case .solid(let fillColor) = fillPaint else {
            Issue.record("bars are solid")
            return
        }
        #expect(trackColor.alpha < fillColor.alpha, "a translucent track under a brighter fill")
        guard case .text(let title) = nodes.first(where: { $0.id == "overlay.title" })!.content else {
            Issue.record("the title is text")
            return
        }
        #expect(title.text == "Swing")
    }

    @Test func hiddenOverlayKeepsOnlyTheBannerToastAndHelp() {
        let composer = OverlayComposer(layout: layout)
        let hidden = composer.nodes(for: OverlayContent(progress: [0, 0, 0], currentScene: 0, title: "Ocean", showsBars: false))
        #expect(hidden.isEmpty)
        let withExtras = composer.nodes(for: OverlayContent(
            progress: [0, 0, 0], currentScene: 0, title: "Ocean", showsBars: false, showsHelp: true,
            banner: ["scenes.json:3:5: error: unknown key"], toast: "Muted"))
        #expect(withExtras.compactMap(\.id) == ["overlay.banner", "overlay.toast", "overlay.help"])
        guard case .group(let banner) = withExtras[0].content, case .text(let line) = banner[1].content else {
            Issue.record("the banner is a panel with lines of text")
            return
        }
        #expect(line.text == "scenes.json:3:5: error: unknown key")
        guard case .group(let help) = withExtras[2].content else { return }
        #expect(help.count == 1 + 2 * ChromeText.english.help.count)
    }

    @Test func aSceneIsAPageAtRestOrMovedWithItsNeighbourBesideIt() {
        let canvas = Size(width: 100, height: 50)
        let dot = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 1, height: 1),
                               content: .shape(ShapeSnapshot(geometry: .rect(Rect(x: 0, y: 0, width: 1, height: 1), cornerRadius: 0),
                                                             fill: .solid(.white), stroke: nil)))
        let scene = Snapshot(canvas: canvas, background: .solid(.white), nodes: [dot])
        let other = Snapshot(canvas: canvas, background: .solid(.black), nodes: [])
        let rest = FrameComposer.compose(scene: scene, id: "page.0")
        #expect(rest.nodes == [NodeSnapshot(id: "page.0", bounds: Rect(x: 0, y: 0, width: 100, height: 50), content: .page(scene))])
        let moved = FrameComposer.compose(scene: scene, id: "page.0", offset: -30, neighbour: (other, "page.1"))
        #expect(moved.nodes.map(\.transform) == [.translation(x: -30, y: 0), .translation(x: 70, y: 0)])
        #expect(moved.nodes.map(\.id) == ["page.0", "page.1"])
        let movedRight = FrameComposer.compose(scene: scene, offset: 30, neighbour: (other, "page.1"))
        #expect(movedRight.nodes[1].transform == .translation(x: -70, y: 0))
    }

    @Test func theLetterboxCentresTheCanvasAndMapsPointsBack() {
        let box = Letterbox(canvas: Size(width: 1280, height: 720), window: Size(width: 1000, height: 1000))
        #expect(box.viewport == Rect(x: 0, y: 218, width: 1000, height: 563))
        let point = box.canvasPoint(fromWindow: Point(x: 500, y: 218 + 281.25))
        #expect(abs(point.x - 640) < 1e-9 && abs(point.y - 360) < 1e-9)
        let wide = Letterbox(canvas: Size(width: 640, height: 360), window: Size(width: 1920, height: 720))
        #expect(wide.viewport == Rect(x: 320, y: 0, width: 1280, height: 720))
    }
}

@Suite struct BackgroundFrameTests {
    @Test func aFrameDrawnOnAnotherThreadEqualsOneDrawnHere() throws {
        let document = PlayerFixtures.story()
        let snapshot = ClockSceneSource().snapshot(of: document, scene: 1, time: 1.5, language: "en")
        let background = BackgroundFrame(snapshot, width: 320, height: 180) { FlatRenderer() }
        var here = [UInt32](repeating: 0, count: 320 * 180)
        here.withUnsafeMutableBytes { FlatRenderer().draw(snapshot, into: $0.baseAddress!, width: 320, height: 180, stride: 320 * 4, holdsLastFrame: false) }
        let drawn = try #require(background.wait())
        #expect(drawn.width == 320 && drawn.height == 180)
        #expect(drawn.pixels == here)
        #expect(background.wait()?.pixels == here, "waiting again gives the same frame")
    }
}

@Suite struct BannerTests {
    @Test func longLinesWrapAtSpacesWithinTheColumns() {
        let line = "scenes.json:19:19: error: \"duration\" must be greater than 0 and at most 86400 seconds, not -20 (at scenes[0].duration)"
        let pieces = OverlayComposer.wrap(line, columns: 40)
        #expect(pieces.allSatisfy { $0.count <= 40 })
        #expect(pieces.dropFirst().allSatisfy { $0.hasPrefix("  ") })
        #expect(pieces.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == line)
        #expect(OverlayComposer.wrap("short", columns: 40) == ["short"])
        #expect(OverlayComposer.wrap(String(repeating: "x", count: 50), columns: 20).map(\.count) == [20, 20, 14])
    }

    @Test func aLongListOfErrorsEndsWithHowManyMoreThereAre() {
        let composer = OverlayComposer(layout: OverlayLayout(canvas: Size(width: 1280, height: 720), sceneCount: 1))
        let lines = (1...12).map { "scenes.json:\($0):1: error: problem \($0)" }
        let nodes = composer.nodes(for: OverlayContent(progress: [0], currentScene: 0, title: "", showsBars: false, banner: lines))
        guard case .group(let children) = nodes[0].content, case .text(let last) = children.last?.content else {
            Issue.record("the banner is a panel with lines")
            return
        }
        #expect(children.count == 1 + 8)
        #expect(last.text.hasPrefix("… 5 more lines"))
    }
}
