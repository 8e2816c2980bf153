@testable import DioramaRender

/// How far apart two frames of one size are, pixel by pixel: the largest difference of any channel, and how many
/// pixels differ by more than 2 in some channel.
struct FrameComparison {
    var largest = 0
    var beyondTwo = 0

    /// `skipping`: pixels left out of the comparison (by index), when given.
    init(_ actual: RenderedFrame, _ expected: RenderedFrame, skipping: [Bool]? = nil) {
        for pixel in stride(from: 0, to: actual.bytes.count, by: 4) where skipping?[pixel / 4] != true {
            var worst = 0
            for channel in 0..<4 { worst = max(worst, abs(Int(actual.bytes[pixel + channel]) - Int(expected.bytes[pixel + channel]))) }
            largest = max(largest, worst)
            if worst > 2 { beyondTwo += 1 }
        }
    }

    /// For each pixel, whether the two frames differ there.
    static func differingPixels(_ a: RenderedFrame, _ b: RenderedFrame) -> [Bool] {
        stride(from: 0, to: a.bytes.count, by: 4).map { a.bytes[$0..<$0 + 4] != b.bytes[$0..<$0 + 4] }
    }

    /// `pixels` (rows of `width`) with every neighbour of a marked pixel marked too.
    static func grown(_ pixels: [Bool], width: Int) -> [Bool] {
        let height = pixels.count / width
        var grown = pixels
        for y in 0..<height {
            for x in 0..<width where pixels[y * width + x] {
                for ny in max(y - 1, 0)...min(y + 1, height - 1) {
                    for nx in max(x - 1, 0)...min(x + 1, width - 1) { grown[ny * width + nx] = true }
                }
            }
        }
        return grown
    }

    /// Pixels of `frame` that differ from `empty` (the same frame with nothing drawn on its background).
    static func drawnPixels(_ frame: RenderedFrame, over empty: RenderedFrame) -> Int {
        stride(from: 0, to: frame.bytes.count, by: 4).filter { frame.bytes[$0..<$0 + 4] != empty.bytes[$0..<$0 + 4] }.count
    }

    /// How many pixels of the top third of two frames of one size differ by more than 8 levels in a colour channel
    /// (alpha left out), and how many pixels that third holds: "the background moved" for a scene's sky.
    static func changedInTopThird(_ a: RenderedFrame, _ b: RenderedFrame) -> (changed: Int, pixels: Int) {
        var changed = 0
        for y in 0..<(a.height / 3) {
            for x in 0..<a.width {
                let index = (y * a.width + x) * 4
                if (0..<3).contains(where: { abs(Int(a.bytes[index + $0]) - Int(b.bytes[index + $0])) > 8 }) { changed += 1 }
            }
        }
        return (changed, a.width * (a.height / 3))
    }
}
