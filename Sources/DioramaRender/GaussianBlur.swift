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

    /// How far (pixels) a blur of standard deviation `sigma` spreads visible energy: two and a half sigmas
    /// (beyond, an edge's blurred tail is under 0.7 % of its height: about one level in 255 at most).
    public static func reach(sigma: Double) -> Double { (2.5 * sigma).rounded(.up) }

    /// The reduction factor used for a blur of standard deviation `sigma` (pixels): 1 below 5 pixels, so
    /// small blurs stay crisp; above, one sample per two and a half pixels of sigma, at most 16.
    public static func reductionFactor(sigma: Double) -> Int {
        sigma < 5 ? 1 : min(16, Int(sigma / 2.5))
    }

    /// The standard deviation (in reduced pixels) that gives `sigma` (full pixels) once the image has been
    /// reduced by `factor` (a box, variance f²/12) and enlarged again (bilinear, variance f²/6).
    public static func reducedSigma(_ sigma: Double, factor: Int) -> Double {
        guard factor > 1 else { return sigma }
        let f = Double(factor)
        return max(0, (sigma * sigma - f * f / 4).squareRoot() / f)
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
        let smallSigma = reducedSigma(sigma, factor: factor)
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
        let radii = boxRadiusTriple(sigma: sigma)
        return [radii.0, radii.1, radii.2]
    }

    /// `boxRadii` without an array.
    static func boxRadiusTriple(sigma: Double) -> (Int, Int, Int) {
        let passes = 3.0
        let ideal = (12 * sigma * sigma / passes + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let upper = lower + 2
        let mIdeal = (12 * sigma * sigma - passes * Double(lower * lower) - 4 * passes * Double(lower) - 3 * passes)
            / (-4 * Double(lower) - 4)
        let m = Int(mIdeal.rounded())
        func radius(_ pass: Int) -> Int { (pass < m ? lower : upper) / 2 }
        return (radius(0), radius(1), radius(2))
    }

    private struct BlurScratch {
        var line: [UInt32]
        var sums: [UInt64]
        var plane: [UInt32]
        init(width: Int, height: Int) {
            line = Array(repeating: 0, count: max(width, height) * 2)
            sums = Array(repeating: 0, count: width)
            plane = Array(repeating: 0, count: width * height)
        }
    }

    private static func blurFullResolution(_ pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int,
                                           rowPixels: Int, sigma: Double, scratch: inout BlurScratch) {
        // A box wider than a 16-bit lane allows becomes several narrower boxes with the same total variance.
        let radii = boxRadii(sigma: sigma).filter { $0 > 0 }.flatMap { radius -> [Int] in
            let pieces = (radius + 127) / 128
            // k boxes of half-width ρ add up to the variance of one of half-width r when k·ρ(ρ+1) = r(r+1).
            let piece = Int(((Double(radius * (radius + 1)) / Double(pieces) + 0.25).squareRoot() - 0.5).rounded())
            return Array(repeating: max(piece, 1), count: pieces)
        }
        guard !radii.isEmpty else { return }
        scratch.line.withUnsafeMutableBufferPointer { line in
            for y in 0..<height {
                let row = pixels + y * rowPixels
                // Row -> A -> B -> A, then back into the row.
                var source = row
                for (pass, radius) in radii.enumerated() {
                    let target = line.baseAddress! + (pass % 2) * width
                    boxLine(source, target, count: width, radius: radius, last: false)
                    source = target
                }
                row.update(from: source, count: width)
            }
        }
        scratch.sums.withUnsafeMutableBufferPointer { sums in
            scratch.plane.withUnsafeMutableBufferPointer { plane in
                var source = pixels, sourceRow = rowPixels
                var target = plane.baseAddress!, targetRow = width
                for (pass, radius) in radii.enumerated() {
                    boxColumns(source, sourceRow: sourceRow, target, targetRow: targetRow, width: width, height: height,
                               radius: radius, sums: sums.baseAddress!, last: pass == radii.count - 1)
                    swap(&source, &target)
                    swap(&sourceRow, &targetRow)
                }
                if source != pixels {
                    for y in 0..<height { (pixels + y * rowPixels).update(from: source + y * sourceRow, count: width) }
                }
            }
        }
    }

    /// Blurs one channel of bytes (an A8 image) in place, at full resolution, transparent beyond the edges.
    /// - Parameters:
    ///   - rowBytes: the distance between rows, in bytes.
    ///   - sigma: the gaussian's standard deviation in pixels.
    public static func applyToAlpha(_ bytes: UnsafeMutablePointer<UInt8>, width: Int, height: Int, rowBytes: Int,
                                    sigma: Double) {
        applyToAlpha(bytes, width: width, height: height, rowBytes: rowBytes, sigma: sigma, scratch: AlphaBlurScratch())
    }

    /// `applyToAlpha` with working storage the caller keeps.
    static func applyToAlpha(_ bytes: UnsafeMutablePointer<UInt8>, width: Int, height: Int, rowBytes: Int,
                             sigma: Double, scratch: AlphaBlurScratch) {
        guard width > 0, height > 0, sigma >= 0.35 else { return }
        let radii = boxRadiusTriple(sigma: sigma)
        let line = scratch.line.atLeast(max(width, height))
        let sums = scratch.sums.atLeast(width)
        let plane = scratch.plane.atLeast(width * height)
        for pass in 0..<3 {
            let radius = pass == 0 ? radii.0 : pass == 1 ? radii.1 : radii.2
            guard radius > 0 else { continue }
            let scale = UInt32((1 << 16) / (2 * radius + 1))
            // Across each row, into the line buffer and back.
            for y in 0..<height {
                let row = bytes + y * rowBytes
                var sum: UInt32 = 0
                for x in 0..<min(radius, width) { sum &+= UInt32(row[x]) }
                for x in 0..<width {
                    if x + radius < width { sum &+= UInt32(row[x + radius]) }
                    line[x] = UInt8(truncatingIfNeeded: (sum &* scale &+ 0x8000) >> 16)
                    if x - radius >= 0 { sum &-= UInt32(row[x - radius]) }
                }
                row.update(from: line, count: width)
            }
            // Down all columns at once, into the plane and back.
            sums.update(repeating: 0, count: width)
            for y in 0..<min(radius, height) {
                let row = bytes + y * rowBytes
                for x in 0..<width { sums[x] &+= UInt32(row[x]) }
            }
            for y in 0..<height {
                if y + radius < height {
                    let row = bytes + (y + radius) * rowBytes
                    for x in 0..<width { sums[x] &+= UInt32(row[x]) }
                }
                let out = plane + y * width
                for x in 0..<width { out[x] = UInt8(truncatingIfNeeded: (sums[x] &* scale &+ 0x8000) >> 16) }
                if y - radius >= 0 {
                    let row = bytes + (y - radius) * rowBytes
                    for x in 0..<width { sums[x] &-= UInt32(row[x]) }
                }
            }
            for y in 0..<height { (bytes + y * rowBytes).update(from: plane + y * width, count: width) }
        }
    }

    // The passes keep four 16-bit channel sums in one 64-bit word (blue, red, green, alpha lanes), so a pixel
    // enters or leaves a window in one addition. A lane holds up to 255 × 257, so boxes are at most 257 wide;
    // wider ones (blurs of a hundred pixels and more at full resolution) are split into equal narrower boxes.

    @inline(__always)
    private static func spread(_ p: UInt32) -> UInt64 {
        let q = UInt64(p)
        return (q | q << 24) & 0x00FF_00FF_00FF_00FF
    }

    /// Sums divided by the box width (`scale` = 65536 / width), packed back into a pixel.
    @inline(__always)
    private static func average(_ sum: UInt64, _ scale: UInt64, clampToAlpha: Bool) -> UInt32 {
        let even = ((sum & 0x0000_FFFF_0000_FFFF) &* scale &+ 0x0000_8000_0000_8000) >> 16  // blue, green
        let odd = (((sum >> 16) & 0x0000_FFFF_0000_FFFF) &* scale &+ 0x0000_8000_0000_8000) >> 16  // red, alpha
        let blue = UInt32(truncatingIfNeeded: even) & 0xFF, green = UInt32(truncatingIfNeeded: even >> 32) & 0xFF
        let red = UInt32(truncatingIfNeeded: odd) & 0xFF, alpha = UInt32(truncatingIfNeeded: odd >> 32) & 0xFF
        if clampToAlpha {
            return alpha << 24 | min(red, alpha) << 16 | min(green, alpha) << 8 | min(blue, alpha)
        }
        return alpha << 24 | red << 16 | green << 8 | blue
    }

    /// One box pass along a line of pixels, transparent beyond both ends.
    private static func boxLine(_ source: UnsafeMutablePointer<UInt32>, _ target: UnsafeMutablePointer<UInt32>,
                                count: Int, radius: Int, last: Bool) {
        let scale = UInt64((1 << 16) / (2 * radius + 1))
        var sum: UInt64 = 0
        for i in 0..<min(radius, count) { sum &+= spread(source[i]) }
        for i in 0..<count {
            let entering = i + radius
            if entering < count { sum &+= spread(source[entering]) }
            target[i] = average(sum, scale, clampToAlpha: last)
            let leaving = i - radius
            if leaving >= 0 { sum &-= spread(source[leaving]) }
        }
    }

    /// One box pass down every column at once, row by row, so memory is read in order.
    private static func boxColumns(_ source: UnsafeMutablePointer<UInt32>, sourceRow: Int,
                                   _ target: UnsafeMutablePointer<UInt32>, targetRow: Int,
                                   width: Int, height: Int, radius: Int, sums: UnsafeMutablePointer<UInt64>, last: Bool) {
        let scale = UInt64((1 << 16) / (2 * radius + 1))
        sums.update(repeating: 0, count: width)
        for y in 0..<min(radius, height) {
            let line = source + y * sourceRow
            for x in 0..<width { sums[x] &+= spread(line[x]) }
        }
        for y in 0..<height {
            if y + radius < height {
                let line = source + (y + radius) * sourceRow
                for x in 0..<width { sums[x] &+= spread(line[x]) }
            }
            let out = target + y * targetRow
            for x in 0..<width { out[x] = average(sums[x], scale, clampToAlpha: last) }
            if y - radius >= 0 {
                let line = source + (y - radius) * sourceRow
                for x in 0..<width { sums[x] &-= spread(line[x]) }
            }
        }
    }

    /// Averages factor×factor blocks (partial blocks at the edges average what they hold, padded with transparency).
    private static func reduce(_ pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
                               factor: Int, into small: UnsafeMutablePointer<UInt32>, smallWidth: Int, smallHeight: Int) {
        let scale = UInt64((1 << 16) / (factor * factor))
        let sums = UnsafeMutablePointer<UInt64>.allocate(capacity: smallWidth)
        defer { sums.deallocate() }
        for sy in 0..<smallHeight {
            sums.update(repeating: 0, count: smallWidth)
            for y in (sy * factor)..<min(height, sy * factor + factor) {
                let line = pixels + y * rowPixels
                var x = 0
                for sx in 0..<smallWidth {
                    var sum: UInt64 = 0
                    let stop = min(x + factor, width)
                    while x < stop {
                        sum &+= spread(line[x])
                        x += 1
                    }
                    sums[sx] &+= sum
                }
            }
            let out = small + sy * smallWidth
            for sx in 0..<smallWidth { out[sx] = average(sums[sx], scale, clampToAlpha: true) }
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
        let lefts = columns.map(\.0), rights = columns.map(\.1), columnWeights = columns.map(\.2)
        @inline(__always) func mix(_ p: UInt32, _ q: UInt32, _ w: UInt32) -> UInt32 {
            // Two channels at a time in 16-bit lanes.
            let inverse = 256 - w
            let evenLanes = ((p & 0x00FF00FF) &* inverse &+ (q & 0x00FF00FF) &* w &+ 0x00800080) >> 8 & 0x00FF00FF
            let oddLanes = (((p >> 8) & 0x00FF00FF) &* inverse &+ ((q >> 8) & 0x00FF00FF) &* w &+ 0x00800080) & 0xFF00FF00
            return evenLanes | oddLanes
        }
        lefts.withUnsafeBufferPointer { lefts in
        rights.withUnsafeBufferPointer { rights in
        columnWeights.withUnsafeBufferPointer { columnWeights in
            for y in 0..<height {
                let (r0, r1, wy) = rows[y]
                let upper = small + r0 * smallWidth, lower = small + r1 * smallWidth
                let out = pixels + y * rowPixels
                for x in 0..<width {
                    let (c0, c1, wx) = (lefts[x], rights[x], columnWeights[x])
                    out[x] = mix(mix(upper[c0], upper[c1], wx), mix(lower[c0], lower[c1], wx), wy)
                }
            }
        }
        }
        }
    }
}

/// SwiftUI's `.hueRotation(_:)`: the standard hue-rotate colour matrix (as SVG's feColorMatrix), applied to
/// premultiplied pixels, which is exact because the matrix is linear and its rows sum to one.
public enum HueRotation {
    /// The 3×3 matrix, row-major (red, green, blue rows), for `degrees`; inline, so a hue-rotated paint allocates nothing.
    public static func matrix(degrees: Double) -> InlineArray<9, Double> {
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
        let unit = matrix(degrees: degrees)
        var m = InlineArray<9, Int32>(repeating: 0)
        for i in 0..<9 { m[i] = Int32((unit[i] * 4096).rounded()) }
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

/// The working storage of `GaussianBlur.applyToAlpha`, kept by its caller.
final class AlphaBlurScratch {
    let line = KeptBuffer<UInt8>()
    let sums = KeptBuffer<UInt32>()
    let plane = KeptBuffer<UInt8>()
}
