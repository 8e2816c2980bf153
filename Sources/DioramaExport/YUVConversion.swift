/// The pixels a video encoder is fed.
public enum VideoPixelFormat: Sendable {
    /// cairo's premultiplied ARGB32 as it is drawn (B, G, R, A bytes): for the GIF palette filters.
    case bgra
    /// Planar Y'CbCr 4:2:0, BT.709 matrix, limited ("TV") range: what H.264 and VP9 store. Converting on the
    /// rendering threads takes that work off ffmpeg's single conversion thread and shrinks the pipe traffic from
    /// 4 to 1.5 bytes per pixel.
    case yuv420pBT709

    /// Bytes of one `width`×`height` frame (even sizes for 4:2:0).
    public func frameBytes(width: Int, height: Int) -> Int {
        switch self {
        case .bgra: width * height * 4
        case .yuv420pBT709: width * height + 2 * (width / 2) * (height / 2)
        }
    }

    /// ffmpeg's name for it, and the colour tags that say how to turn it back into RGB.
    public var ffmpegArguments: [String] {
        switch self {
        case .bgra: ["-pix_fmt", "bgr0"]
        case .yuv420pBT709: ["-pix_fmt", "yuv420p", "-color_range", "tv", "-colorspace", "bt709",
                             "-color_primaries", "bt709", "-color_trc", "bt709"]
        }
    }
}

/// BGRA (alpha ignored: premultiplied pixels show over black) to planar BT.709 limited-range 4:2:0, in 16-bit
/// fixed point; each chroma sample is the average of its 2×2 block.
enum YUVConversion {
    // Rows of the BT.709 matrix scaled to limited range (219 steps of luma, 224 of chroma over 255) × 2^16.
    private static let scale = 65_536.0
    private static let yR = Int32((0.2126 * 219 / 255 * scale).rounded())
    private static let yG = Int32((0.7152 * 219 / 255 * scale).rounded())
    private static let yB = Int32((0.0722 * 219 / 255 * scale).rounded())
    private static let uR = Int32((-0.2126 / 1.8556 * 224 / 255 * scale).rounded())
    private static let uG = Int32((-0.7152 / 1.8556 * 224 / 255 * scale).rounded())
    private static let uB = Int32((0.5 * 224 / 255 * scale).rounded())
    private static let vR = Int32((0.5 * 224 / 255 * scale).rounded())
    private static let vG = Int32((-0.7152 / 1.5748 * 224 / 255 * scale).rounded())
    private static let vB = Int32((-0.0722 / 1.5748 * 224 / 255 * scale).rounded())

    /// Converts `width`×`height` BGRA pixels (rows of `width × 4` bytes) into `output`: the Y plane, then Cb, then Cr.
    static func convert(bgra: UnsafeRawPointer, width: Int, height: Int, into output: UnsafeMutableRawPointer) {
        let source = bgra.assumingMemoryBound(to: UInt8.self)
        let luma = output.assumingMemoryBound(to: UInt8.self)
        let chromaWidth = width / 2
        let cb = luma + width * height
        let cr = cb + chromaWidth * (height / 2)
        let (yR, yG, yB) = (Self.yR, Self.yG, Self.yB)
        let (uR, uG, uB) = (Self.uR, Self.uG, Self.uB)
        let (vR, vG, vB) = (Self.vR, Self.vG, Self.vB)
        let lumaOffset: Int32 = 16 << 16 + 1 << 15
        // Four pixels' sums: the coefficients take the average with two more bits of shift.
        let chromaOffset: Int32 = 128 << 18 + 1 << 17
        for row in stride(from: 0, to: height, by: 2) {
            let top = source + row * width * 4, bottom = top + width * 4
            let lumaTop = luma + row * width, lumaBottom = lumaTop + width
            let cbRow = cb + (row / 2) * chromaWidth, crRow = cr + (row / 2) * chromaWidth
            for pair in 0..<chromaWidth {
                var sumR: Int32 = 0, sumG: Int32 = 0, sumB: Int32 = 0
                // The block's four pixels: two of the top row, two of the bottom one.
                for index in 0..<4 {
                    let column = 2 * pair + (index & 1)
                    let pixel = (index < 2 ? top : bottom) + 4 * column
                    let b = Int32(pixel[0]), g = Int32(pixel[1]), r = Int32(pixel[2])
                    (index < 2 ? lumaTop : lumaBottom)[column] = UInt8(truncatingIfNeeded: (yR * r + yG * g + yB * b + lumaOffset) >> 16)
                    sumR += r
                    sumG += g
                    sumB += b
                }
                cbRow[pair] = UInt8(truncatingIfNeeded: (uR * sumR + uG * sumG + uB * sumB + chromaOffset) >> 18)
                crRow[pair] = UInt8(truncatingIfNeeded: (vR * sumR + vG * sumG + vB * sumB + chromaOffset) >> 18)
            }
        }
    }
}
