import Foundation

/// A gaussian-looking blur of premultiplied ARGB32 pixels: three running-sum box blurs per axis
/// (the central limit theorem makes three boxes indistinguishable from a gaussian), optionally on a
/// copy reduced by an integer factor, which a wide blur cannot tell apart from full resolution.
///
/// Pixels outside the region count as transparent, as for SwiftUI's `.blur(radius:)` (not opaque).
public enum GaussianBlur {
    /// The standard deviation, in pixels, that a SwiftUI blur or shadow radius (in pixels) stands for:
    /// like CSS `blur()` and `CALayer.shadowRadius`, the radius is the gaussian's standard deviation.
    public static func sigma(forRadius radius: Double) -> Double { max(0, radius) }

    /// How far (pixels) a blur of standard deviation `sigma` spreads visible energy: three sigmas.
    public static func reach(sigma: Double) -> Double { (3 * sigma).rounded(.up) }

    /// The reduction factor used for a blur of standard deviation `sigma` (pixels): 1 below 8 pixels,
    /// so small blurs stay crisp; about one sample per four pixels of sigma above, at most 8.
    public static func reductionFactor(sigma: Double) -> Int {
        sigma < 8 ? 1 : min(8, Int(sigma / 4))
    }

    /// Blurs `height` rows of `width` premultiplied ARGB32 pixels in place.
    /// - Parameters:
    ///   - pixels: the first pixel of the region.
    ///   - rowPixels: the distance between rows, in pixels (a cairo stride divided by 4).
    ///   - sigma: the gaussian's standard deviation in pixels.
    ///   - reduced: when true, wide blurs run on a copy reduced by `reductionFactor(sigma:)`.
    /// - Complexity: O(width × height) whatever the sigma.
    public static func apply(to pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
                             sigma: Double, reduced: Bool = true) {
        guard width > 0, height > 0, sigma >= 0.35 else { return }
        let factor = reduced ? reductionFactor(sigma: sigma) : 1
        if factor == 1 {
            var scratch = BlurScratch(width: width, height: height)
            blurFullResolution(pixels, width: width, height: height, rowPixels: rowPixels, sigma: sigma, scratch: &scratch)
            return
        }
        // Box reduction and bilinear enlargement blur too (variances f²/12 and f²/6): take them off.
        let f = Double(factor)
        let smallSigma = max(0, (sigma * sigma - f * f / 4).squareRoot() / f)
        let smallWidth = (width + factor - 1) / factor, smallHeight = (height + factor - 1) / factor
        let small = UnsafeMutablePointer<UInt32>.allocate(capacity: smallWidth * smallHeight)
        defer { small.deallocate() }
        reduce(pixels, width: width, height: height, rowPixels: rowPixels, factor: factor,
               into: small, smallWidth: smallWidth, smallHeight: smallHeight)
        if smallSigma >= 0.35 {
            var scratch = BlurScratch(width: smallWidth, height: smallHeight)
            blurFullResolution(small, width: smallWidth, height: smallHeight, rowPixels: smallWidth, sigma: smallSigma,
                               scratch: &scratch)
        }
        enlarge(small, smallWidth: smallWidth, smallHeight: smallHeight, factor: factor,
                into: pixels, width: width, height: height, rowPixels: rowPixels)
    }

    /// Half-widths of three boxes whose succession approximates a gaussian of standard deviation `sigma`
    /// (W. Jarosz, "Fast Image Convolutions"; box widths chosen so the variances add up to sigma²).
    static func boxRadii(sigma: Double) -> [Int] {
        let passes = 3.0
        let ideal = (12 * sigma * sigma / passes + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let upper = lower + 2
        let mIdeal = (12 * sigma * sigma - passes * Double(lower * lower) - 4 * passes * Double(lower) - 3 * passes)
            / (-4 * Double(lower) - 4)
        let m = Int(mIdeal.rounded())
        return (0..<3).map { ($0 < m ? lower : upper) / 2 }
    }

    private struct BlurScratch {
        var line: [UInt32]
        var sums: [UInt32]
        var plane: [UInt32]
        init(width: Int, height: Int) {
            line = Array(repeating: 0, count: max(width, height) * 2)
            sums = Array(repeating: 0, count: width * 4)
            plane = Array(repeating: 0, count: width * height)
        }
    }

    private static func blurFullResolution(_ pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int,
                                           rowPixels: Int, sigma: Double, scratch: inout BlurScratch) {
        let radii = boxRadii(sigma: sigma).filter { $0 > 0 }
        guard !radii.isEmpty else { return }
        scratch.line.withUnsafeMutableBufferPointer { line in
            for y in 0..<height {
                let row = pixels + y * rowPixels
                // Row -> A -> B -> A, then back into the row.
                var source = row
                for (pass, radius) in radii.enumerated() {
                    let target = line.baseAddress! + (pass % 2) * width
                    boxLine(source, target, count: width, radius: radius)
                    source = target
                }
                row.update(from: source, count: width)
            }
        }
        scratch.sums.withUnsafeMutableBufferPointer { sums in
            scratch.plane.withUnsafeMutableBufferPointer { plane in
                var source = pixels, sourceRow = rowPixels
                var target = plane.baseAddress!, targetRow = width
                for radius in radii {
                    boxColumns(source, sourceRow: sourceRow, target, targetRow: targetRow, width: width, height: height,
                               radius: radius, sums: sums.baseAddress!)
                    swap(&source, &target)
                    swap(&sourceRow, &targetRow)
                }
                if source != pixels {
                    for y in 0..<height { (pixels + y * rowPixels).update(from: source + y * sourceRow, count: width) }
                }
            }
        }
    }

    /// One box pass along a line of pixels, transparent beyond both ends.
    @inline(__always)
    private static func boxLine(_ source: UnsafeMutablePointer<UInt32>, _ target: UnsafeMutablePointer<UInt32>,
                                count: Int, radius: Int) {
        let scale = UInt32((1 << 16) / (2 * radius + 1))
        var s0: UInt32 = 0, s1: UInt32 = 0, s2: UInt32 = 0, s3: UInt32 = 0
        @inline(__always) func add(_ p: UInt32) {
            s0 &+= p & 0xFF; s1 &+= (p >> 8) & 0xFF; s2 &+= (p >> 16) & 0xFF; s3 &+= p >> 24
        }
        @inline(__always) func remove(_ p: UInt32) {
            s0 &-= p & 0xFF; s1 &-= (p >> 8) & 0xFF; s2 &-= (p >> 16) & 0xFF; s3 &-= p >> 24
        }
        for i in 0..<min(radius, count) { add(source[i]) }
        for i in 0..<count {
            let entering = i + radius
            if entering < count { add(source[entering]) }
            let alpha = min(255, (s3 &* scale &+ 0x8000) >> 16)
            let red = min(alpha, (s2 &* scale &+ 0x8000) >> 16)
            let green = min(alpha, (s1 &* scale &+ 0x8000) >> 16)
            let blue = min(alpha, (s0 &* scale &+ 0x8000) >> 16)
            target[i] = alpha << 24 | red << 16 | green << 8 | blue
            let leaving = i - radius
            if leaving >= 0 { remove(source[leaving]) }
        }
    }

    /// One box pass down every column at once, row by row, so memory is read in order.
    private static func boxColumns(_ source: UnsafeMutablePointer<UInt32>, sourceRow: Int,
                                   _ target: UnsafeMutablePointer<UInt32>, targetRow: Int,
                                   width: Int, height: Int, radius: Int, sums: UnsafeMutablePointer<UInt32>) {
        let scale = UInt32((1 << 16) / (2 * radius + 1))
        sums.update(repeating: 0, count: width * 4)
        @inline(__always) func accumulate(row: Int, adding: Bool) {
            let line = source + row * sourceRow
            if adding {
                for x in 0..<width {
                    let p = line[x], s = sums + 4 * x
                    s[0] &+= p & 0xFF; s[1] &+= (p >> 8) & 0xFF; s[2] &+= (p >> 16) & 0xFF; s[3] &+= p >> 24
                }
            } else {
                for x in 0..<width {
                    let p = line[x], s = sums + 4 * x
                    s[0] &-= p & 0xFF; s[1] &-= (p >> 8) & 0xFF; s[2] &-= (p >> 16) & 0xFF; s[3] &-= p >> 24
                }
            }
        }
        for y in 0..<min(radius, height) { accumulate(row: y, adding: true) }
        for y in 0..<height {
            if y + radius < height { accumulate(row: y + radius, adding: true) }
            let out = target + y * targetRow
            for x in 0..<width {
                let s = sums + 4 * x
                let alpha = min(255, (s[3] &* scale &+ 0x8000) >> 16)
                let red = min(alpha, (s[2] &* scale &+ 0x8000) >> 16)
                let green = min(alpha, (s[1] &* scale &+ 0x8000) >> 16)
                let blue = min(alpha, (s[0] &* scale &+ 0x8000) >> 16)
                out[x] = alpha << 24 | red << 16 | green << 8 | blue
            }
            if y - radius >= 0 { accumulate(row: y - radius, adding: false) }
        }
    }

    /// Averages factor×factor blocks (partial blocks at the edges average what they hold, padded with transparency).
    private static func reduce(_ pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
                               factor: Int, into small: UnsafeMutablePointer<UInt32>, smallWidth: Int, smallHeight: Int) {
        let area = UInt32(factor * factor)
        var sums = [UInt32](repeating: 0, count: smallWidth * 4)
        sums.withUnsafeMutableBufferPointer { sums in
            for sy in 0..<smallHeight {
                sums.update(repeating: 0)
                for y in (sy * factor)..<min(height, sy * factor + factor) {
                    let line = pixels + y * rowPixels
                    for x in 0..<width {
                        let p = line[x], s = 4 * (x / factor)
                        sums[s] &+= p & 0xFF; sums[s + 1] &+= (p >> 8) & 0xFF
                        sums[s + 2] &+= (p >> 16) & 0xFF; sums[s + 3] &+= p >> 24
                    }
                }
                let out = small + sy * smallWidth
                for sx in 0..<smallWidth {
                    let s = 4 * sx, half = area / 2
                    // Parenthesized: in Swift, << binds tighter than /.
                    out[sx] = ((sums[s + 3] + half) / area) << 24 | ((sums[s + 2] + half) / area) << 16
                        | ((sums[s + 1] + half) / area) << 8 | (sums[s] + half) / area
                }
            }
        }
    }

    /// Bilinear enlargement back to full resolution (sample centres at the middle of each block).
    private static func enlarge(_ small: UnsafeMutablePointer<UInt32>, smallWidth: Int, smallHeight: Int, factor: Int,
                                into pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rowPixels: Int) {
        // Fixed-point weights in 1/256: for each output coordinate, the two sample indices and the weight of the second.
        func axis(_ count: Int, _ smallCount: Int) -> [(Int, Int, UInt32)] {
            (0..<count).map { i in
                let position = (Double(i) + 0.5) / Double(factor) - 0.5
                let lower = Int(position.rounded(.down))
                let weight = UInt32(((position - Double(lower)) * 256).rounded())
                return (min(max(lower, 0), smallCount - 1), min(max(lower + 1, 0), smallCount - 1), weight)
            }
        }
        let columns = axis(width, smallWidth), rows = axis(height, smallHeight)
        @inline(__always) func mix(_ p: UInt32, _ q: UInt32, _ w: UInt32) -> UInt32 {
            // Two channels at a time in 16-bit lanes.
            let inverse = 256 - w
            let evenLanes = ((p & 0x00FF00FF) &* inverse &+ (q & 0x00FF00FF) &* w &+ 0x00800080) >> 8 & 0x00FF00FF
            let oddLanes = (((p >> 8) & 0x00FF00FF) &* inverse &+ ((q >> 8) & 0x00FF00FF) &* w &+ 0x00800080) & 0xFF00FF00
            return evenLanes | oddLanes
        }
        for y in 0..<height {
            let (r0, r1, wy) = rows[y]
            let upper = small + r0 * smallWidth, lower = small + r1 * smallWidth
            let out = pixels + y * rowPixels
            for x in 0..<width {
                let (c0, c1, wx) = columns[x]
                out[x] = mix(mix(upper[c0], upper[c1], wx), mix(lower[c0], lower[c1], wx), wy)
            }
        }
    }
}

/// SwiftUI's `.hueRotation(_:)`: the standard hue-rotate colour matrix (as SVG's feColorMatrix), applied to
/// premultiplied pixels, which is exact because the matrix is linear and its rows sum to one.
public enum HueRotation {
    /// The 3×3 matrix, row-major (red, green, blue rows), for `degrees`.
    public static func matrix(degrees: Double) -> [Double] {
        let radians = degrees * .pi / 180
        let (c, s) = (cos(radians), sin(radians))
        return [
            0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928,
            0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283,
            0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072,
        ]
    }

    /// Rotates the hue of `height` rows of `width` premultiplied ARGB32 pixels in place.
    public static func apply(to pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
                             degrees: Double) {
        let m = matrix(degrees: degrees).map { Int32(($0 * 4096).rounded()) }
        for y in 0..<height {
            let row = pixels + y * rowPixels
            for x in 0..<width {
                let p = row[x]
                let alpha = Int32(p >> 24)
                guard alpha > 0 else { continue }
                let r = Int32((p >> 16) & 0xFF), g = Int32((p >> 8) & 0xFF), b = Int32(p & 0xFF)
                @inline(__always) func channel(_ i: Int) -> UInt32 {
                    let value = (m[i] * r + m[i + 1] * g + m[i + 2] * b + 2048) >> 12
                    return UInt32(min(max(value, 0), alpha))
                }
                row[x] = UInt32(alpha) << 24 | channel(0) << 16 | channel(3) << 8 | channel(6)
            }
        }
    }
}
