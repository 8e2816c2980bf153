import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// A `lottie` node drawn by the renderer: rlottie's frame composited with the node's modifiers, deterministically.
@Suite struct LottieRenderTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        try Data(LottieFixtures.json().utf8).write(to: folder.url.appendingPathComponent("square.json"))
    }

    func snapshot(frame: Int, opacity: Double = 1, hueRotation: Double = 0) -> Snapshot {
        let rect = Rect(x: 50, y: 50, width: 100, height: 100)
        return Snapshot(canvas: Size(width: 200, height: 200), background: .solid(.black), nodes: [
            NodeSnapshot(bounds: rect, opacity: opacity, hueRotation: hueRotation,
                         content: .lottie(LottieSnapshot(path: "square.json", rect: rect, frame: frame, inPoint: 0))),
        ])
    }

    func pixel(_ frame: RenderedFrame, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * frame.width + x) * 4
        return Array(frame.bytes[i..<(i + 4)])
    }

    @Test func theFrameIsCompositedInItsRectangleWithTheNodesOpacity() throws {
        let renderer = FrameRenderer(imageDirectory: folder.url)
        let full = try renderer.render(snapshot(frame: 0), width: 200, height: 200)
        // 50 % red over black: red 127 or 128 (BGRA in memory on little-endian).
        let inside = pixel(full, 100, 100)
        #expect(abs(Int(inside[2]) - 127) <= 1 && inside[1] == 0 && inside[0] == 0)
        #expect(pixel(full, 20, 20) == [0, 0, 0, 255])
        let faded = try renderer.render(snapshot(frame: 0, opacity: 0.5), width: 200, height: 200)
        #expect(abs(Int(pixel(faded, 100, 100)[2]) - 64) <= 1)
        let hued = try renderer.render(snapshot(frame: 0, hueRotation: 120), width: 200, height: 200)
        #expect(pixel(hued, 100, 100)[1] > 40 && pixel(hued, 100, 100)[2] < 40)
        #expect(renderer.warnings.isEmpty)
    }

    @Test func sameFileAndFrameGiveTheSamePixels() throws {
        let one = FrameRenderer(imageDirectory: folder.url), two = FrameRenderer(imageDirectory: folder.url)
        _ = try one.render(snapshot(frame: 40), width: 320, height: 180)
        let a = try one.render(snapshot(frame: 12), width: 320, height: 180)
        let b = try two.render(snapshot(frame: 12), width: 320, height: 180)
        #expect(a.bytes == b.bytes)
        let later = try two.render(snapshot(frame: 50), width: 320, height: 180)
        #expect(later.bytes != b.bytes)
    }

    @Test func aMissingOrDamagedFileDrawsNothingAndWarnsOnce() throws {
        try Data("{\"fr\": 0}".utf8).write(to: folder.url.appendingPathComponent("bad.json"))
        let renderer = FrameRenderer(imageDirectory: folder.url)
        var bad = snapshot(frame: 0)
        bad.nodes[0].content = .lottie(LottieSnapshot(path: "bad.json", rect: Rect(x: 0, y: 0, width: 10, height: 10), frame: 0, inPoint: 0))
        _ = try renderer.render(bad, width: 50, height: 50)
        let frame = try renderer.render(bad, width: 50, height: 50)
        #expect(pixel(frame, 2, 2) == [0, 0, 0, 255])
        #expect(renderer.warnings.count == 1)
    }
}
