import DioramaDocument
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// The mouse cursor hides once the pointer has rested 2 s, in a window and in fullscreen, and shows again when used.
@Suite struct CursorTests {
    @Test func theCursorHidesAfterTwoSecondsWithoutMovementAndShowsWhenThePointerMoves() throws {
        let h = try PlayerHarness(embedded: true)
        let screen = try #require(h.screen)
        try h.player.step()
        #expect(screen.cursorShown)
        try h.advance(1.9)
        #expect(screen.cursorShown, "1.9 s at rest: still shown")
        try h.advance(0.2)
        #expect(!screen.cursorShown, "2.1 s at rest: hidden")
        screen.events.append(.pointerHovered)
        try h.player.step()
        #expect(screen.cursorShown, "a move without a button shows it")
        try h.advance(2.5)
        #expect(!screen.cursorShown)
        // Keys do not show it: a viewer paging with the arrows does not want it back over the picture.
        h.press(.right)
        try h.player.step()
        #expect(!screen.cursorShown)
    }

    @Test func aPressShowsTheCursorForAsLongAsItLasts() throws {
        let h = try PlayerHarness(embedded: true)
        let screen = try #require(h.screen)
        try h.advance(3)
        #expect(!screen.cursorShown)
        screen.events.append(.input(.pointerDown(Point(x: 320, y: 180))))
        try h.player.step()
        #expect(screen.cursorShown)
        try h.advance(3)
        #expect(screen.cursorShown, "held 3 s (a hold pauses): still shown")
        screen.events.append(.input(.pointerUp(Point(x: 320, y: 180))))
        try h.player.step()
        try h.advance(2.1)
        #expect(!screen.cursorShown, "2.1 s after the release: hidden")
    }

    @Test func aPlayerStartedInFullscreenShowsNoCursorUntilThePointerMoves() throws {
        let h = try PlayerHarness(embedded: true, fullscreen: true)
        let screen = try #require(h.screen)
        #expect(screen.isFullscreen)
        try h.player.step()
        #expect(!screen.cursorShown)
        screen.events.append(.pointerHovered)
        try h.advance(0.5)
        #expect(screen.cursorShown)
    }

    @Test func restingIsMeasuredFromTheLastUse() {
        var cursor = CursorVisibility(shownFrom: 10)
        #expect(cursor.isShown(at: 11.99))
        #expect(!cursor.isShown(at: 12))
        cursor.pointerUsed(at: 20)
        #expect(cursor.isShown(at: 21) && !cursor.isShown(at: 22.5))
        #expect(cursor.isShown(at: 30, pressed: true))
        #expect(!CursorVisibility(shownFrom: nil).isShown(at: 0))
    }
}
