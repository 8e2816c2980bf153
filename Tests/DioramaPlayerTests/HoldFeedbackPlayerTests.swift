import DioramaDocument
import Foundation
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

extension WindowSuites {
    /// A held press in a player (SDL's dummy video driver, the test's clocks): the frames it composes show the hold.
    @Suite struct HoldFeedbackPlayerTests {
        init() throws {
            try VideoSystem.start(driver: "dummy")
        }

        @Test func aHeldPressFadesInAPauseGlyphFrameByFrameAndDimsTheBars() throws {
            let h = try PlayerHarness()
            try h.advance(1)
            func frame() -> (hold: Double?, bars: Double?) {
                let nodes = h.player.composeFrame(heard: h.position, offset: 0, now: h.clock.now).nodes
                return (nodes.first { $0.id == "overlay.hold" }?.opacity, nodes.first { $0.id == "overlay.bar.0.track" }?.opacity)
            }
            h.mouseDown(Point(x: 600, y: 180))
            try h.player.step()
            try h.advance(0.1)
            #expect(frame().hold == nil && frame().bars == 1, "a press that is not yet a hold shows nothing")
            try h.advance(0.2)
            #expect(h.position.isPaused)
            // The hold began at one of the last frames; from here, 60 Hz frames fade the glyph in.
            var fades: [Double] = [frame().hold ?? 0]
            for _ in 0..<12 {
                try h.advance(1.0 / 60)
                fades.append(frame().hold ?? 0)
            }
            #expect(zip(fades, fades.dropFirst()).allSatisfy { $0 <= $1 }, "\(fades)")
            #expect(fades.first! < 1 && fades.contains { $0 > 0 && $0 < 1 } && fades.last == 1, "\(fades)")
            #expect(frame().bars == 0.4, "the bars dimmed")
            h.mouseUp(Point(x: 600, y: 180))
            try h.player.step()
            #expect(frame().hold == nil && frame().bars == 1)
        }
    }
}
