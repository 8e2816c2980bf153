import DioramaDocument
@testable import DioramaPlayer
import Testing

@Suite struct StoryViewerTests {
    let canvas = Size(width: 1280, height: 720)
    var viewer: StoryViewer { StoryViewer(layout: OverlayLayout(canvas: canvas, sceneCount: 3)) }
    let middle = ViewerContext(sceneIndex: 1, sceneCount: 3, wraps: true)

    func point(_ x: Double, _ y: Double = 360) -> Point { Point(x: x, y: y) }

    /// A press and release at the same place after `held` seconds.
    func click(_ viewer: inout StoryViewer, at x: Double, held: Double = 0.05, context: ViewerContext) -> [ShowIntent] {
        viewer.handle(.pointerDown(point(x)), at: 10, context: context)
            + viewer.handle(.pointerUp(point(x)), at: 10 + held, context: context)
    }

    @Test func clickOnTheRightHalfGoesToTheNextSceneAndTheLeftHalfToThePrevious() {
        var viewer = viewer
        let result1 = click(&viewer, at: 900, context: middle)
        #expect(result1 == [.next])
        let result2 = click(&viewer, at: 641, context: middle)
        #expect(result2 == [.next])
        let result3 = click(&viewer, at: 639, context: middle)
        #expect(result3 == [.previous])
        let result4 = click(&viewer, at: 20, context: middle)
        #expect(result4 == [.previous])
    }

    @Test func aHeldPressPausesUntilReleasedAndDoesNotNavigate() {
        var viewer = viewer
        let result5 = viewer.handle(.pointerDown(point(900)), at: 1, context: middle)
        #expect(result5 == [])
        let result6 = viewer.advance(to: 1.2)
        #expect(result6 == [])
        let result7 = viewer.advance(to: 1.26)
        #expect(result7 == [.holdBegan])
        #expect(viewer.isHolding)
        let result8 = viewer.advance(to: 2)
        #expect(result8 == [])
        let result9 = viewer.handle(.pointerUp(point(900)), at: 3, context: middle)
        #expect(result9 == [.holdEnded])
        #expect(!viewer.isPressed)
    }

    @Test func aLongPressReleasedWithoutATickStillCountsAsAHold() {
        var viewer = viewer
        _ = viewer.handle(.pointerDown(point(100)), at: 1, context: middle)
        let result10 = viewer.handle(.pointerUp(point(100)), at: 2, context: middle)
        #expect(result10 == [.holdBegan, .holdEnded])
    }

    @Test func aDragMovesThePageWithThePointer() {
        var viewer = viewer
        _ = viewer.handle(.pointerDown(point(800)), at: 1, context: middle)
        _ = viewer.handle(.pointerMoved(point(805)), at: 1.01, context: middle)
        #expect(viewer.pageOffset(at: 1.01, context: middle) == 0, "5 points is not yet a drag")
        _ = viewer.handle(.pointerMoved(point(700)), at: 1.05, context: middle)
        #expect(viewer.pageOffset(at: 1.05, context: middle) == -100)
        // A drag never turns into a hold.
        let result11 = viewer.advance(to: 2)
        #expect(result11 == [])
    }

    @Test func aDragReleasedPastAQuarterOfTheWidthPagesAndSlidesIn() {
        var viewer = viewer
        _ = viewer.handle(.pointerDown(point(1000)), at: 1, context: middle)
        _ = viewer.handle(.pointerMoved(point(600)), at: 1.1, context: middle)
        let intents = viewer.handle(.pointerUp(point(600)), at: 1.2, context: middle)
        #expect(intents == [.next])
        // The new page starts where the neighbour was (400 points left of the old page's rest + width)...
        #expect(abs(viewer.pageOffset(at: 1.2, context: middle) - (1280 - 400)) < 1e-9)
        // ...and settles at rest, monotonically, within a second.
        let offsets = stride(from: 1.2, through: 2.2, by: 0.05).map { viewer.pageOffset(at: $0, context: middle) }
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(viewer.pageOffset(at: 2.2, context: middle) == 0)
        #expect(!viewer.isAnimating(at: 2.2))

        var back = self.viewer
        _ = back.handle(.pointerDown(point(200)), at: 1, context: middle)
        _ = back.handle(.pointerMoved(point(600)), at: 1.1, context: middle)
        let result12 = back.handle(.pointerUp(point(600)), at: 1.2, context: middle)
        #expect(result12 == [.previous])
        #expect(abs(back.pageOffset(at: 1.2, context: middle) - (400 - 1280)) < 1e-9)
    }

    @Test func aShortDragSpringsBackWithoutNavigating() {
        var viewer = viewer
        _ = viewer.handle(.pointerDown(point(1000)), at: 1, context: middle)
        _ = viewer.handle(.pointerMoved(point(720)), at: 1.1, context: middle)
        // 280 points is less than a quarter of 1280.
        let result13 = viewer.handle(.pointerUp(point(720)), at: 1.2, context: middle)
        #expect(result13 == [])
        #expect(viewer.pageOffset(at: 1.2, context: middle) == -280)
        #expect(viewer.isAnimating(at: 1.3))
        let halfway = viewer.pageOffset(at: 1.35, context: middle)
        #expect(halfway > -280 && halfway < 0)
        #expect(viewer.pageOffset(at: 3, context: middle) == 0)
    }

    @Test func thereIsNothingBeforeTheFirstScene() {
        var viewer = viewer
        let first = ViewerContext(sceneIndex: 0, sceneCount: 3, wraps: true)
        _ = viewer.handle(.pointerDown(point(100)), at: 1, context: first)
        _ = viewer.handle(.pointerMoved(point(1000)), at: 1.1, context: first)
        #expect(viewer.pageOffset(at: 1.1, context: first) == 900 * viewer.edgeResistance)
        let result14 = viewer.handle(.pointerUp(point(1000)), at: 1.2, context: first)
        #expect(result14 == [])
    }

    @Test func afterTheLastSceneDragsWrapUnlessPlayingOnce() {
        var viewer = viewer
        let lastWrapping = ViewerContext(sceneIndex: 2, sceneCount: 3, wraps: true)
        _ = viewer.handle(.pointerDown(point(1000)), at: 1, context: lastWrapping)
        _ = viewer.handle(.pointerMoved(point(500)), at: 1.1, context: lastWrapping)
        let result15 = viewer.handle(.pointerUp(point(500)), at: 1.2, context: lastWrapping)
        #expect(result15 == [.next])

        var once = self.viewer
        let lastOnce = ViewerContext(sceneIndex: 2, sceneCount: 3, wraps: false)
        _ = once.handle(.pointerDown(point(1000)), at: 1, context: lastOnce)
        _ = once.handle(.pointerMoved(point(500)), at: 1.1, context: lastOnce)
        #expect(once.pageOffset(at: 1.1, context: lastOnce) == -500 * once.edgeResistance)
        let result16 = once.handle(.pointerUp(point(500)), at: 1.2, context: lastOnce)
        #expect(result16 == [])
    }

    @Test func clickingAPageDotJumpsToItsScene() {
        var viewer = viewer
        let dots = viewer.layout.pageDots
        #expect(dots.count == 3)
        let result17 = viewer.handle(.pointerDown(dots[2]), at: 1, context: middle)
        #expect(result17 == [])
        let result18 = viewer.handle(.pointerUp(Point(x: dots[2].x + 3, y: dots[2].y - 2)), at: 1.05, context: middle)
        #expect(result18 == [.scene(2)])
        // Released away from the dot: nothing.
        _ = viewer.handle(.pointerDown(dots[0]), at: 2, context: middle)
        let result19 = viewer.handle(.pointerUp(point(200)), at: 2.05, context: middle)
        #expect(result19 == [])
        // With the overlay hidden, the dots are not there to click: the bottom centre is the right half.
        viewer.showsOverlay = false
        let result20 = click(&viewer, at: dots[2].x, context: middle)
        #expect(result20 == [.next])
    }

    @Test func keysMapToTheirIntents() {
        var viewer = viewer
        func press(_ key: ViewerKey) -> [ShowIntent] { viewer.handle(.key(key), at: 1, context: middle) }
        let result21 = press(.space)
        #expect(result21 == [.togglePause])
        let result22 = press(.right)
        #expect(result22 == [.next])
        let result23 = press(.left)
        #expect(result23 == [.previous])
        let result24 = press(.home)
        #expect(result24 == [.restart])
        let result25 = press(.digit(1))
        #expect(result25 == [.scene(0)])
        let result26 = press(.digit(3))
        #expect(result26 == [.scene(2)])
        let result27 = press(.digit(4))
        #expect(result27 == [], "there is no fourth scene")
        let result28 = press(.l)
        #expect(result28 == [.cycleLanguage])
        let result29 = press(.m)
        #expect(result29 == [.toggleMute])
        let result30 = press(.plus)
        #expect(result30 == [.volumeUp])
        let result31 = press(.minus)
        #expect(result31 == [.volumeDown])
        let result32 = press(.f)
        #expect(result32 == [.toggleFullscreen])
        let result33 = press(.r)
        #expect(result33 == [.reload])
        let result34 = press(.q)
        #expect(result34 == [.quit])
        let result35 = press(.escape)
        #expect(result35 == [.quit])
    }

    @Test func helpAndOverlayToggleAndEscapeClosesTheHelpFirst() {
        var viewer = viewer
        let result36 = viewer.handle(.key(.questionMark), at: 1, context: middle)
        #expect(result36 == [])
        #expect(viewer.showsHelp)
        let result37 = viewer.handle(.key(.escape), at: 1, context: middle)
        #expect(result37 == [])
        #expect(!viewer.showsHelp)
        let result38 = viewer.handle(.key(.h), at: 1, context: middle)
        #expect(result38 == [])
        #expect(!viewer.showsOverlay)
        _ = viewer.handle(.key(.h), at: 1, context: middle)
        #expect(viewer.showsOverlay)
    }

    @Test func thePageSpringSettlesFromAnyStart() {
        for start in [-1280.0, -300, 12, 900] {
            let spring = PageSpring(startOffset: start, startTime: 5)
            #expect(spring.offset(at: 5) == start)
            #expect(!spring.isSettled(at: 5))
            #expect(spring.isSettled(at: 6.5))
            #expect(abs(spring.offset(at: 6.5)) < 0.5)
            // Critically damped: never overshoots past rest.
            let samples = stride(from: 5.0, through: 7, by: 0.01).map { spring.offset(at: $0) }
            #expect(samples.allSatisfy { $0 * start >= 0 })
        }
    }
}
