import DioramaLottie
import DioramaTestSupport
import Testing

/// rlottie behind DioramaLottie: what it reads, premultiplied native-order pixels, determinism, and the reuse of
/// the last frame.
@Suite struct LottieAnimationTests {
    static func square() throws -> LottieAnimation {
        try LottieAnimation(json: Array(LottieFixtures.json(markers: [("impact", 30, 0)]).utf8))
    }

    @Test func readsWhatTheFileSays() throws {
        let animation = try Self.square()
        #expect(animation.frameRate == 30)
        #expect(animation.frameCount == 60)
        #expect(animation.width == 100 && animation.height == 100)
        #expect(animation.markers.count == 1 && animation.markers[0].name == "impact" && animation.markers[0].startFrame == 30)
    }

    @Test func pixelsArePremultipliedARGBInNativeOrder() throws {
        let animation = try Self.square()
        let pixels = try #require(animation.render(frame: 0, width: 100, height: 100))
        let pixel = pixels.load(fromByteOffset: (50 * 100 + 50) * 4, as: UInt32.self)
        // A 50 % red fill: alpha 0x7f, red premultiplied to 0x7f (rlottie's rounding), no green or blue.
        #expect(pixel >> 24 == 0x7f)
        #expect((pixel >> 16) & 0xff == 0x7f)
        #expect(pixel & 0xffff == 0)
        let later = try #require(animation.render(frame: 30, width: 100, height: 100))
        let blueish = later.load(fromByteOffset: (50 * 100 + 50) * 4, as: UInt32.self)
        #expect(blueish & 0xff > 0x30)
    }

    @Test func theSameFrameGivesTheSamePixelsAndIsRenderedOnce() throws {
        let first = try Self.square(), second = try Self.square()
        let a = Array(try #require(first.render(frame: 17, width: 64, height: 48)))
        _ = first.render(frame: 3, width: 64, height: 48)
        let b = Array(try #require(second.render(frame: 17, width: 64, height: 48)))
        #expect(a == b)
        let before = second.renderCount
        let c = Array(try #require(second.render(frame: 17, width: 64, height: 48)))
        #expect(second.renderCount == before)
        #expect(c == b)
        _ = second.render(frame: 17, width: 32, height: 48)
        #expect(second.renderCount == before + 1)
    }

    @Test func rlottieClearsTheBufferItself() throws {
        // Frame 0 of a composition fitted into a wider buffer leaves the sides transparent, even over an old frame.
        let animation = try Self.square()
        _ = animation.render(frame: 5, width: 300, height: 100)
        let pixels = try #require(animation.render(frame: 6, width: 300, height: 100))
        #expect(pixels.load(fromByteOffset: (50 * 300 + 10) * 4, as: UInt32.self) == 0)
        #expect(pixels.load(fromByteOffset: (50 * 300 + 150) * 4, as: UInt32.self) != 0)
    }

    @Test func emptyAndOversizedRequestsDrawNothing() throws {
        let animation = try Self.square()
        #expect(animation.render(frame: 0, width: 0, height: 10) == nil)
        #expect(animation.render(frame: 0, width: LottieAnimation.maximumSide + 1, height: 10) == nil)
        // Frames outside the file are clamped.
        #expect(animation.render(frame: 500, width: 10, height: 10) != nil)
    }
}
