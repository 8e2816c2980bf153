@testable import DioramaRender

/// How far apart two frames of one size are, pixel by pixel: the largest difference of any channel, and how many
/// pixels differ by more than 2 in some channel.
struct FrameComparison {
    var largest = 0
    var beyondTwo = 0

    init(_ actual: RenderedFrame, _ expected: RenderedFrame) {
        for pixel in stride(from: 0, to: actual.bytes.count, by: 4) {
            var worst = 0
            for channel in 0..<4 { worst = max(worst, abs(Int(actual.bytes[pixel + channel]) - Int(expected.bytes[pixel + channel]))) }
            largest = max(largest, worst)
            if worst > 2 { beyondTwo += 1 }
        }
    }

    /// Pixels of `frame` that differ from `empty` (the same frame with nothing drawn on its background).
    static func drawnPixels(_ frame: RenderedFrame, over empty: RenderedFrame) -> Int {
        stride(from: 0, to: frame.bytes.count, by: 4).filter { frame.bytes[$0..<$0 + 4] != empty.bytes[$0..<$0 + 4] }.count
    }
}
