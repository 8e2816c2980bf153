import CCairo
import DioramaDocument
import DioramaTimeline
import Foundation

// Fills and strokes painted with a gradient or a translucent colour. cairo composites those a few spans at a
// time through pixman's general path: a setup per row, and a gradient evaluated through a function pointer per
// pixel, about 0.2 ms for one flower petal. Here cairo only rasterizes the shape's coverage into an A8 mask
// (its fast path, for an opaque source), and the paint is blended through that mask in one pass with pixman's
// own arithmetic: the same coverage, the same OVER with the same rounding, the same solid colours, and gradient
// colours from pixman's float gradient walker (equal but where pixman's 16.16 fixed-point position rounds to a
// neighbouring value: then one level apart).

extension FrameRenderer {
    /// Fills (or, with `stroke`, strokes) `shape` with `paint` through a coverage mask, blending into the
    /// target's pixels directly. Returns false, drawing nothing, when cairo's own path is the one to use: an
    /// opaque colour (cairo's fast path already), an angular gradient, or a target that is not whole ARGB32
    /// pixels (a reduced layer, an A8 silhouette) or not drawn with OVER.
    func compositeThroughCoverage(_ shape: ShapeSnapshot, paint: Paint, bounds: Rect, alpha: Double, stroke: Stroke?,
                                  in cr: OpaquePointer) -> Bool {
        guard compositesCoverage, cairo_get_operator(cr) == CAIRO_OPERATOR_OVER,
              let target = cairo_get_group_target(cr), isPixelExact(target),
              let source = CoverageSource(paint.hueRotated(by: paintHue), bounds: bounds, alpha: alpha) else { return false }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        // The path's extents in device pixels (the path is stored in device space: read it with no transform).
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_identity_matrix(cr)
        cairo_path_extents(cr, &x1, &y1, &x2, &y2)
        cairo_set_matrix(cr, &ctm)
        var box = BoundingBox(minX: x1, minY: y1, maxX: x2, maxY: y2)
        if let stroke {
            // As `inkBounds`: a miter reaches at most miterLimit (10) half-widths, a square cap √2 half-widths.
            let reach = stroke.width / 2 * (stroke.lineJoin == .miter ? 10 : stroke.lineCap == .square ? 1.5 : 1)
            box = box.insetBy(-reach * max(hypot(ctm.xx, ctm.yx), hypot(ctm.xy, ctm.yy)))
        }
        guard box.maxX >= box.minX, box.maxY >= box.minY else { return true }
        guard let clip = deviceClip(cr), let region = box.insetBy(-1).roundedOut.intersection(clip) else { return true }

        // The coverage: cairo fills (or strokes) the same path, built the same way, into an A8 mask of the region.
        let maskStride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(region.width)))
        let mask = coverageScratch.bytes(count: maskStride * region.height)
        mask.initialize(repeating: 0, count: maskStride * region.height)
        let maskSurface = cairo_image_surface_create_for_data(mask, CAIRO_FORMAT_A8, Int32(region.width),
                                                              Int32(region.height), Int32(maskStride))!
        cairo_surface_set_device_offset(maskSurface, Double(-region.x), Double(-region.y))
        let maskContext = cairo_create(maskSurface)!
        cairo_set_matrix(maskContext, &ctm)
        cairo_set_tolerance(maskContext, cairo_get_tolerance(cr))
        cairo_set_antialias(maskContext, cairo_get_antialias(cr))
        cairo_set_fill_rule(maskContext, cairo_get_fill_rule(cr))
        addPath(shape.geometry, to: maskContext)
        let from = min(max(shape.trimFrom, 0), 1), to = min(max(shape.trimTo, 0), 1)
        if from > 0 || to < 1 { trimPath(maskContext, from: from, to: to) }
        if let stroke {
            applyStrokeStyle(stroke, to: maskContext)
            cairo_stroke(maskContext)
        } else {
            cairo_fill(maskContext)
        }
        cairo_destroy(maskContext)
        cairo_surface_finish(maskSurface)
        cairo_surface_destroy(maskSurface)

        var offsetX = 0.0, offsetY = 0.0
        cairo_surface_get_device_offset(target, &offsetX, &offsetY)
        withPixels(of: target) { pixels, width, height, rowPixels in
            // The region in the surface's own pixels (a layer's device offset moves them).
            let left = region.x + Int(offsetX), top = region.y + Int(offsetY)
            guard left >= 0, top >= 0, left + region.width <= width, top + region.height <= height else { return }
            var inverse = ctm
            guard cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS else { return }
            source.blend(mask, maskStride: maskStride, region: region, deviceToUser: inverse,
                         into: pixels + top * rowPixels + left, rowPixels: rowPixels)
        }
        return true
    }
}

/// A reusable byte buffer for coverage masks (one at a time), so masks cost no allocation per shape.
final class CoverageScratch {
    private var storage: UnsafeMutablePointer<UInt8>?
    private var capacity = 0

    /// At least `count` bytes, valid until the next call; contents undefined.
    func bytes(count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > capacity {
            storage?.deallocate()
            capacity = max(count, capacity * 2, 4096)
            storage = .allocate(capacity: capacity)
        }
        return storage!
    }

    deinit { storage?.deallocate() }
}

/// A paint as pixman would produce it, per device pixel, premultiplied ARGB32.
enum CoverageSource {
    case solid(UInt32)
    /// Gradient position (16.16, 0...65536 across the ramp) at device point p: `dot(p, (x, y)) + constant`.
    case linear(GradientRamp, x: Double, y: Double, constant: Double)
    /// Gradient position of device point p: (|deviceToUser(p) − centre| − startRadius) × scale.
    case radial(GradientRamp, center: Point, startRadius: Double, scale: Double)

    /// Nil for paints cairo draws as fast or faster (an opaque colour), or that are not handled (angular).
    init?(_ paint: Paint, bounds: Rect, alpha: Double) {
        switch paint {
        case .solid(let c):
            let color = CairoColor(c, alpha: alpha)
            guard color.alpha < 0xFF00 else { return nil }
            self = .solid(color.premultipliedPixel)
        case .linear(let stops, let start, let end):
            // cairo_pattern_create_linear(p0, p1): position = (p − p0)·(p1 − p0) / |p1 − p0|².
            let p0 = bounds.point(at: start), p1 = bounds.point(at: end)
            let dx = p1.x - p0.x, dy = p1.y - p0.y, length2 = dx * dx + dy * dy
            guard length2 > 0, length2.isFinite else { return nil }
            let ramp = GradientRamp(stops, alpha: alpha)
            // In user space; `blend` moves it to device space once the transform is known.
            self = .linear(ramp, x: dx / length2 * 65536, y: dy / length2 * 65536,
                           constant: -(p0.x * dx + p0.y * dy) / length2 * 65536)
        case .radial(let stops, let center, let startRadius, let endRadius):
            let r0 = max(0, startRadius), r1 = max(0, endRadius)
            guard r1 != r0, (r1 - r0).isFinite else { return nil }
            self = .radial(GradientRamp(stops, alpha: alpha), center: bounds.point(at: center), startRadius: r0,
                           scale: 65536 / (r1 - r0))
        case .angular:
            return nil
        }
    }

    /// Blends the paint through `mask` (coverage 0...255, `maskStride` bytes per row, covering `region`) over
    /// the pixels at `pixels` (the region's top-left pixel), OVER as pixman composites a source through an A8
    /// mask. `deviceToUser` maps device points to the paint's user space.
    func blend(_ mask: UnsafeMutablePointer<UInt8>, maskStride: Int, region: PixelRect, deviceToUser m: cairo_matrix_t,
               into pixels: UnsafeMutablePointer<UInt32>, rowPixels: Int) {
        switch self {
        case .solid(let color):
            for j in 0..<region.height {
                let coverage = mask + j * maskStride, row = pixels + j * rowPixels
                for i in 0..<region.width where coverage[i] != 0 {
                    row[i] = PixelArithmetic.over(color, coverage: UInt32(coverage[i]), onto: row[i])
                }
            }
        case .linear(let ramp, let ux, let uy, let uc):
            // Position at a device point p: u·(m p) + c, an affine function of p.
            let ax = ux * m.xx + uy * m.yx, ay = ux * m.xy + uy * m.yy, c = ux * m.x0 + uy * m.y0 + uc
            var walker = GradientRamp.Walker(ramp)
            for j in 0..<region.height {
                let coverage = mask + j * maskStride, row = pixels + j * rowPixels
                // pixman: a whole-number start for the row (truncated), then start + increment × i, truncated.
                let y = Double(region.y + j) + 0.5
                let start = Double(Int64(ax * (Double(region.x) + 0.5) + ay * y + c))
                for i in 0..<region.width where coverage[i] != 0 {
                    let color = walker.pixel(Int64(start + ax * Double(i)))
                    row[i] = PixelArithmetic.over(color, coverage: UInt32(coverage[i]), onto: row[i])
                }
            }
        case .radial(let ramp, let center, let r0, let scale):
            var walker = GradientRamp.Walker(ramp)
            for j in 0..<region.height {
                let coverage = mask + j * maskStride, row = pixels + j * rowPixels
                let y = Double(region.y + j) + 0.5
                for i in 0..<region.width where coverage[i] != 0 {
                    let x = Double(region.x + i) + 0.5
                    let ux = m.xx * x + m.xy * y + m.x0 - center.x, uy = m.yx * x + m.yy * y + m.y0 - center.y
                    let position = ((ux * ux + uy * uy).squareRoot() - r0) * scale
                    let color = walker.pixel(Int64(min(max(position, -2_147_483_648), 2_147_483_647)))
                    row[i] = PixelArithmetic.over(color, coverage: UInt32(coverage[i]), onto: row[i])
                }
            }
        }
    }
}

/// A colour as cairo keeps it: channels clamped to 0...1 and 16-bit, colour channels premultiplied.
struct CairoColor {
    var alpha: UInt16, red: UInt16, green: UInt16, blue: UInt16

    /// `color` with its alpha multiplied by `alpha`, premultiplied (a solid pattern).
    init(_ color: Color, alpha: Double) {
        let a = Self.clamp(color.alpha * alpha)
        self.alpha = Self.short(a)
        red = Self.short(Self.clamp(color.red) * a)
        green = Self.short(Self.clamp(color.green) * a)
        blue = Self.short(Self.clamp(color.blue) * a)
    }

    /// A gradient stop's colour: not premultiplied.
    init(stop color: Color, alpha: Double) {
        self.alpha = Self.short(Self.clamp(color.alpha * alpha))
        red = Self.short(Self.clamp(color.red))
        green = Self.short(Self.clamp(color.green))
        blue = Self.short(Self.clamp(color.blue))
    }

    /// pixman's solid fill: the top byte of each premultiplied 16-bit channel.
    var premultipliedPixel: UInt32 {
        UInt32(alpha >> 8) << 24 | UInt32(red >> 8) << 16 | UInt32(green >> 8) << 8 | UInt32(blue >> 8)
    }

    private static func clamp(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }

    /// cairo's `_cairo_color_double_to_short`.
    static func short(_ value: Double) -> UInt16 {
        let i = UInt32(value * 65536)
        return UInt16(i - (i >> 16))
    }
}

/// A pad-extended colour ramp as pixman walks it (`pixman_gradient_walker_pixel_32`, pixman 0.40 and later):
/// stops at 16.16 positions, colours interpolated in float, unpremultiplied, then premultiplied and rounded.
struct GradientRamp {
    /// One span between neighbouring stops (or beyond the first or last, padded): positions in [left, right)
    /// have channels (alpha, red, green, blue) `slope × position + base`, as pixman computes them.
    struct Interval {
        var left: Int64, right: Int64
        var slope: SIMD4<Float>, base: SIMD4<Float>
    }

    /// Stop positions, ascending (16.16).
    let positions: [Int64]
    /// count + 1 intervals: before the first stop, between each pair, after the last.
    let intervals: [Interval]

    /// The ramp cairo hands pixman for `stops` (sorted as `makePattern` adds them) with alphas times `alpha`.
    init(_ stops: [GradientStop], alpha: Double) {
        let sorted = sortedStops(stops)
        let positions = sorted.map { Int64(Self.fixed(min(max($0.location, 0), 1))) }
        let colors = sorted.map { CairoColor(stop: $0.color, alpha: alpha) }
        self.positions = positions
        var intervals: [Interval] = []
        let minimum = Int64(Int32.min), maximum = Int64(Int32.max)
        for k in 0...positions.count {
            let left = k == 0 ? minimum : positions[k - 1], right = k == positions.count ? maximum : positions[k]
            let leftColor = colors[max(k - 1, 0)], rightColor = colors[min(k, colors.count - 1)]
            intervals.append(Self.interval(left: left, right: right, leftColor, rightColor,
                                           constant: left == minimum || right == maximum))
        }
        self.intervals = intervals
    }

    /// pixman's `gradient_walker_reset`, in the same float operations (lane by lane).
    private static func interval(left: Int64, right: Int64, _ l: CairoColor, _ r: CairoColor, constant: Bool) -> Interval {
        let unit = SIMD4<Float>(repeating: 1 / 257)
        let lc = SIMD4<Float>(Float(l.alpha), Float(l.red), Float(l.green), Float(l.blue)) * unit
        let rc = SIMD4<Float>(Float(r.alpha), Float(r.red), Float(r.green), Float(r.blue)) * unit
        let lx = Float(left) * (1 / 65536 as Float), rx = Float(right) * (1 / 65536 as Float)
        let width = rx - lx
        if constant || (width > -Float.leastNormalMagnitude && width < Float.leastNormalMagnitude) {
            return Interval(left: left, right: right, slope: .zero, base: (lc + rc) / 510)
        }
        let reciprocal = 1 / width, scale: Float = 1 / 255
        return Interval(left: left, right: right, slope: (rc - lc) * reciprocal * scale,
                        base: (lc * rx - rc * lx) * reciprocal * scale)
    }

    /// cairo's `_cairo_fixed_16_16_from_double`: to the nearest 1/65536 (ties to even).
    private static func fixed(_ value: Double) -> Int32 {
        Int32((value * 65536).rounded(.toNearestOrEven))
    }

    /// Evaluates the ramp, keeping the interval of the last position (neighbouring pixels share one).
    struct Walker {
        let ramp: GradientRamp
        private var left: Int64 = 0, right: Int64 = 0
        private var alphaSlope: Float = 0, alphaBase: Float = 0, redSlope: Float = 0, redBase: Float = 0
        private var greenSlope: Float = 0, greenBase: Float = 0, blueSlope: Float = 0, blueBase: Float = 0

        init(_ ramp: GradientRamp) {
            self.ramp = ramp
            select(ramp.intervals[0])
        }

        private mutating func select(_ interval: Interval) {
            (left, right) = (interval.left, interval.right)
            (alphaSlope, redSlope, greenSlope, blueSlope) = (interval.slope.x, interval.slope.y, interval.slope.z, interval.slope.w)
            (alphaBase, redBase, greenBase, blueBase) = (interval.base.x, interval.base.y, interval.base.z, interval.base.w)
        }

        /// The premultiplied ARGB32 colour at `position` (16.16).
        @inline(__always) mutating func pixel(_ position: Int64) -> UInt32 {
            if position < left || position >= right {
                var k = 0
                while k < ramp.positions.count, position >= ramp.positions[k] { k += 1 }
                select(ramp.intervals[k])
            }
            let y = Float(position) * (1 / 65536 as Float)
            // pixman: a = 255 (sa y + ba), then each colour channel a (s y + b).
            let a = 255 * (alphaSlope * y + alphaBase)
            let r = a * (redSlope * y + redBase)
            let g = a * (greenSlope * y + greenBase)
            let b = a * (blueSlope * y + blueBase)
            return Self.byte(a) << 24 | Self.byte(r) << 16 | Self.byte(g) << 8 | Self.byte(b)
        }

        /// `(uint32_t)(int32_t)(v + .5f)` for the values a ramp gives (0...255 and a rounding error).
        @inline(__always) private static func byte(_ value: Float) -> UInt32 {
            let v = value + 0.5
            return v >= 1 ? UInt32(Int32(v < 255 ? v : 255)) : 0
        }
    }
}

/// The stops in the order cairo receives them from `makePattern` (which must sort the same way).
func sortedStops(_ stops: [GradientStop]) -> [GradientStop] {
    stops.sorted { $0.location < $1.location }
}

/// pixman's 8-bit channel arithmetic on packed ARGB32 (`UN8x4_MUL_UN8`, `UN8x4_MUL_UN8_ADD_UN8x4`).
enum PixelArithmetic {
    /// Every channel of `x` times `a` / 255, rounded as pixman rounds.
    @inline(__always) static func multiply(_ x: UInt32, _ a: UInt32) -> UInt32 {
        var rb = (x & 0x00FF_00FF) &* a &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((x >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        ag = ((ag &+ ((ag >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        return rb | ag << 8
    }

    /// Channel-wise saturating sum.
    @inline(__always) static func add(_ x: UInt32, _ y: UInt32) -> UInt32 {
        func lanes(_ a: UInt32, _ b: UInt32) -> UInt32 {
            var t = a &+ b
            t |= 0x1000_0100 &- ((t >> 8) & 0x00FF_00FF)
            return t & 0x00FF_00FF
        }
        return lanes(x & 0x00FF_00FF, y & 0x00FF_00FF) | lanes((x >> 8) & 0x00FF_00FF, (y >> 8) & 0x00FF_00FF) << 8
    }

    /// `source` (premultiplied) through `coverage` (0...255), OVER `destination`: pixman's combine_over_u with a mask.
    @inline(__always) static func over(_ source: UInt32, coverage: UInt32, onto destination: UInt32) -> UInt32 {
        let s = coverage == 255 ? source : multiply(source, coverage)
        let alpha = s >> 24
        if alpha == 255 { return s }
        if s == 0 { return destination }
        return add(multiply(destination, 255 - alpha), s)
    }
}
