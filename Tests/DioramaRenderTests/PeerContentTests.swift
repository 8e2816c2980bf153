import DioramaDocument
import DioramaLottie
import DioramaRender
import DioramaTimeline
import Foundation
import Testing

/// The peer of the render benchmark (bench/peer, written by scripts/make-peer-bench.py): the scenes file loads
/// clean, the Lottie file loads through rlottie with its ten seconds of frames, and both draw the same picture, so
/// that `diorama bench peer` keeps timing like against like.
@Suite struct PeerContentTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("bench/peer")

    static func animation() throws -> LottieAnimation {
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent("animation.json")))
        return try LottieAnimation(json: bytes, resourceDirectory: folder.path)
    }

    @Test func theScenesFileLoadsWithoutWarnings() throws {
        let loaded = try DocumentLoader.load(path: Self.folder.appendingPathComponent("scenes.json").path)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.document.canvas.width == 1280 && loaded.document.canvas.height == 720)
        let scene = try #require(loaded.document.scenes.first)
        #expect(scene.duration == Rational(10))
        // The sky is the background; a turning group, six waves and 400 circles are the nodes.
        #expect(scene.nodes.count == 1 + 6 + 400)
    }

    @Test func theLottieFileLoadsWithTenSecondsOfFrames() throws {
        let animation = try Self.animation()
        #expect(animation.frameCount == 300)
        #expect(animation.frameRate == 30)
        #expect(animation.width == 1280 && animation.height == 720)
    }

    /// At 320x180 the two renderers' anti-aliasing differs only at edges: the frames match closely everywhere
    /// else, and a shape out of place (a wave's curve, a circle's wrap, the group's turn) would move whole pixels.
    @Test(arguments: [0, 51, 99, 151, 250, 297])
    func bothFilesDrawTheSamePicture(frame: Int) throws {
        let loaded = try DocumentLoader.load(path: Self.folder.appendingPathComponent("scenes.json").path)
        let (width, height) = (320, 180)
        let ours = try FrameRenderer().render(SceneEvaluator(document: loaded.document).snapshot(scene: 0, at: Double(frame) / 30),
                                              width: width, height: height)
        let animation = try Self.animation()
        let theirs = try #require(animation.render(frame: frame, width: width, height: height))
        var total = 0, far = 0
        for pixel in stride(from: 0, to: ours.bytes.count, by: 4) {
            var largest = 0
            for channel in 0..<4 {
                let delta = abs(Int(ours.bytes[pixel + channel]) - Int(theirs[pixel + channel]))
                total += delta
                largest = max(largest, delta)
            }
            if largest > 48 { far += 1 }
        }
        let mean = Double(total) / Double(ours.bytes.count)
        #expect(mean < 2, "mean difference \(mean) of 255 per channel")
        #expect(Double(far) / Double(width * height) < 0.005, "\(far) pixels differ by more than 48")
    }
}
