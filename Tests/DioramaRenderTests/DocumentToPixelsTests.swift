import DioramaDocument
import DioramaRender
import DioramaTimeline
import DioramaTestSupport
import Foundation
import Testing

/// From a document through the timeline to pixels: the renderer draws what the animation curves say.
@Suite struct DocumentToPixelsTests {
    private func document(_ nodes: [Node]) -> Document {
        Document(canvas: Canvas(width: 100, height: 100, background: .solid(.black)),
                 languages: Languages(defaultLanguage: "en", fallback: "en", available: ["en"]), sounds: [],
                 scenes: [Scene(id: "test", title: LocalizedString("Test"), duration: Rational(10), nodes: nodes)])
    }

    private func frame(_ nodes: [Node], at time: Double) throws -> RenderedFrame {
        let snapshot = SceneEvaluator(document: document(nodes)).snapshot(scene: 0, at: time)
        return try FrameRenderer().render(snapshot, width: 100, height: 100)
    }

    private func red(_ pixel: UInt32) -> Double { Double((pixel >> 16) & 0xFF) }

    @Test(arguments: [0.0, 0.3, 0.5, 0.85, 1.0])
    func aSquareMovedByEaseInOutIsCentredWhereTheCurvePredicts(_ time: Double) throws {
        let square = Node(content: .rect(RectShape(rect: Rect(x: 10, y: 40, width: 20, height: 20))),
                          style: NodeStyle(fill: .solid(RenderFixtures.red)),
                          animations: [Animation(property: .offsetX, kind: .basic(
                            from: .number(0), to: .number(60), curve: .easeInOut, duration: Rational(1)))])
        let frame = try frame([square], at: time)
        var (sum, mass) = (0.0, 0.0)
        for y in 0..<100 { for x in 0..<100 { sum += red(frame.pixel(x: x, y: y)) * (Double(x) + 0.5); mass += red(frame.pixel(x: x, y: y)) } }
        let expected = 20 + 60 * RenderFixtures.easeInOut(time)
        #expect(abs(sum / mass - expected) < 0.05, "at \(time) s the centre is at \(sum / mass), the curve says \(expected)")
        #expect(abs(mass / 255 - 400) < 1, "the whole square is drawn")
    }

    @Test func rotationAroundTopTrailingKeepsThatCornerFixed() throws {
        // A 40×40 square at (30, 30) turned by an animation to 45 degrees around its top-trailing corner (70, 30).
        let square = Node(content: .rect(RectShape(rect: Rect(x: 30, y: 30, width: 40, height: 40))),
                          style: NodeStyle(rotationAnchor: .topTrailing, fill: .solid(.white)),
                          animations: [Animation(property: .rotation, kind: .basic(
                            from: .number(0), to: .number(45), curve: .linear, duration: Rational(1)))])
        let frame = try frame([square], at: 1)
        // Clockwise by 45 degrees around (70, 30): the square becomes a diamond left of the corner, whose
        // other corners are at (41.7, 1.7), (13.4, 30) and (41.7, 58.3).
        #expect(red(frame.pixel(x: 67, y: 30)) > 200, "just left of the fixed corner")
        #expect(red(frame.pixel(x: 71, y: 30)) == 0, "nothing right of it")
        #expect(red(frame.pixel(x: 69, y: 38)) == 0, "below the corner is empty now")
        #expect(red(frame.pixel(x: 16, y: 30)) > 200, "the bottom-leading corner swung to (13.4, 30)")
        #expect(red(frame.pixel(x: 11, y: 30)) == 0)
        #expect(red(frame.pixel(x: 41, y: 4)) > 200 && red(frame.pixel(x: 41, y: 56)) > 200)
    }

    @Test func opacityHalfInsideHalfIsAQuarterThroughTheTimeline() throws {
        let inner = Node(content: .rect(RectShape(rect: Rect(x: 20, y: 20, width: 60, height: 60))),
                         style: NodeStyle(opacity: 0.5, fill: .solid(.white)))
        let outer = Node(content: .group(Group(children: [inner])), style: NodeStyle(opacity: 0.5))
        let frame = try frame([outer], at: 0)
        #expect(abs(red(frame.pixel(x: 50, y: 50)) - 64) <= 1)
    }
}
