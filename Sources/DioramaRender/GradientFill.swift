import CCairo
import DioramaDocument
import Foundation

// Linear and radial gradient fills, evaluated per device pixel by our own code and composited by cairo through
// the fill's coverage. pixman evaluates cairo's gradients in their general two-circle form, solving a quadratic
// and walking the stops for every pixel; a SwiftUI gradient has one centre (or one axis), so with a table of its
// colours a pixel costs a square root (or an addition) and a look-up. At 3840x2160 the six full-size petals of the
// breathing scene took 14 of a frame's 23 ms that way.

extension FrameRenderer {
    /// Fills the current path (kept) with a linear or radial gradient evaluated by `GradientRamp`, when the target
    /// is whole device pixels. False when cairo's own pattern must do it: an angular gradient, a degenerate one, a
    /// hard stop, a reduced (blurred) layer, or a transform that cannot be inverted.
    func fillGradient(_ paint: Paint, bounds: Rect, alpha: Double, in cr: OpaquePointer) -> Bool {
        guard evaluatesGradients, let target = cairo_get_group_target(cr), isPixelExact(target) else { return false }
        var offsetX = 0.0, offsetY = 0.0
        cairo_surface_get_device_offset(target, &offsetX, &offsetY)
        guard offsetX == offsetX.rounded(), offsetY == offsetY.rounded() else { return false }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        var inverse = ctm
        guard cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS else { return false }
        guard let geometry = GradientGeometry(paint, bounds: bounds, userToDevice: ctm) else { return false }

        // The pixels the fill can touch: its path's box in device space, within the clip.
        cairo_identity_matrix(cr)
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_path_extents(cr, &x1, &y1, &x2, &y2)
        cairo_set_matrix(cr, &ctm)
        guard let clip = deviceClip(cr),
              let area = BoundingBox(minX: x1, minY: y1, maxX: x2, maxY: y2).roundedOut.intersection(clip) else { return true }
        guard let scratch = scratchSurface(width: area.width, height: area.height, clearing: false) else { return true }
        defer { cairo_surface_destroy(scratch) }

        GradientRamp.fill(&gradientRamp, stops: geometry.stops, alpha: alpha, hue: paintHue, count: geometry.rampCount)
        cairo_surface_flush(scratch)
        guard let data = cairo_image_surface_get_data(scratch) else { return true }
        let rowPixels = Int(cairo_image_surface_get_stride(scratch)) / 4
        gradientRamp.withUnsafeBufferPointer { ramp in
            geometry.evaluate(into: UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self), rowPixels: rowPixels,
                              area: area, deviceToUser: inverse, ramp: ramp)
        }
        cairo_surface_mark_dirty(scratch)

        // The scratch sits on whole device pixels: cairo copies its pixels through the coverage, untransformed.
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, scratch, Double(area.x), Double(area.y))
        cairo_set_matrix(cr, &ctm)
        cairo_fill_preserve(cr)
        // The scratch's pixels are reused: nothing may paint from them after this fill.
        cairo_set_source_rgba(cr, 0, 0, 0, 0)
        evaluatedGradientFills += 1
        return true
    }
}

/// A linear or radial gradient reduced to what a device pixel needs: where along the gradient (0...1) a point of
/// the node's space falls.
struct GradientGeometry {
    enum Form {
        /// t = (p − start) · axis, with `axis` already divided by its squared length.
        case linear(startX: Double, startY: Double, axisX: Double, axisY: Double)
        /// t = (|p − centre| − startRadius) / (endRadius − startRadius).
        case radial(centerX: Double, centerY: Double, startRadius: Double, perRadius: Double)
    }

    let form: Form
    let stops: [GradientStop]
    /// Entries in the colour table (see `GradientRamp.count`).
    let rampCount: Int

    /// Nil for an angular or solid paint, a gradient of no length and one with a hard stop (cairo's pattern
    /// handles those).
    init?(_ paint: Paint, bounds: Rect, userToDevice ctm: cairo_matrix_t) {
        let pixelsPerPoint = ctm.uniformScale
        var span: Double
        switch paint {
        case .linear(let s, let start, let end):
            stops = s
            let p0 = bounds.point(at: start), p1 = bounds.point(at: end)
            let (dx, dy) = (p1.x - p0.x, p1.y - p0.y)
            let squared = dx * dx + dy * dy
            guard squared > 1e-12, squared.isFinite else { return nil }
            form = .linear(startX: p0.x, startY: p0.y, axisX: dx / squared, axisY: dy / squared)
            span = squared.squareRoot()
        case .radial(let s, let center, let startRadius, let endRadius):
            stops = s
            let c = bounds.point(at: center)
            let r0 = max(0, startRadius), r1 = max(0, endRadius)
            guard abs(r1 - r0) > 1e-9, r0.isFinite, r1.isFinite else { return nil }
            form = .radial(centerX: c.x, centerY: c.y, startRadius: r0, perRadius: 1 / (r1 - r0))
            span = abs(r1 - r0)
        case .solid, .angular:
            return nil
        }
        span *= pixelsPerPoint
        guard span.isFinite, pixelsPerPoint > 0, let count = GradientRamp.count(for: stops, devicePixels: span) else { return nil }
        rampCount = count
    }

    /// Writes the gradient's premultiplied colour at the centre of every pixel of `area` (device pixels) into
    /// `pixels`, whose first pixel is the area's top left.
    func evaluate(into pixels: UnsafeMutablePointer<UInt32>, rowPixels: Int, area: PixelRect,
                  deviceToUser m: cairo_matrix_t, ramp: UnsafeBufferPointer<UInt32>) {
        let last = Double(ramp.count - 1)
        let table = ramp.baseAddress!
        for row in 0..<area.height {
            let out = pixels + row * rowPixels
            // The node-space point of the row's first pixel centre, and the step to the next pixel.
            let dx = Double(area.x) + 0.5, dy = Double(area.y + row) + 0.5
            var x = m.xx * dx + m.xy * dy + m.x0, y = m.yx * dx + m.yy * dy + m.y0
            switch form {
            case .linear(let startX, let startY, let axisX, let axisY):
                // t is linear along the row: one multiply-add per pixel.
                let t0 = ((x - startX) * axisX + (y - startY) * axisY) * last
                let step = (m.xx * axisX + m.yx * axisY) * last
                for column in 0..<area.width {
                    let index = t0 + Double(column) * step
                    out[column] = table[Int(min(max(index + 0.5, 0), last))]
                }
            case .radial(let centerX, let centerY, let startRadius, let perRadius):
                x -= centerX
                y -= centerY
                let scale = perRadius * last, offset = 0.5 - startRadius * perRadius * last
                for column in 0..<area.width {
                    let px = x + Double(column) * m.xx, py = y + Double(column) * m.yx
                    let index = (px * px + py * py).squareRoot() * scale + offset
                    out[column] = table[Int(min(max(index, 0), last))]
                }
            }
        }
    }
}

/// The colours of a gradient at evenly spaced points 0...1, premultiplied ARGB32, as pixman makes them: straight
/// components interpolated between the stops around each point, then premultiplied and rounded. Before the first
/// stop and after the last, their colours hold (cairo's default extend for gradients, pad).
enum GradientRamp {
    /// Entries for a gradient spanning `span` device pixels: about two per pixel up to 1024 (a neighbouring pixel
    /// never shares an entry it should not), at least 256, and at least 64 between any two stops of different
    /// colours (a step between entries is then at most two levels of 255), at most 4096. Nil when stops of
    /// different colours are closer than that allows, as at a hard stop: a table would move the edge by up to half
    /// an entry.
    static func count(for stops: [GradientStop], devicePixels span: Double) -> Int? {
        var closest = 1.0
        // All pairs rather than neighbours once sorted: no array to sort, and stops are few.
        for (i, a) in stops.enumerated() {
            for b in stops[(i + 1)...] where a.color != b.color {
                closest = min(closest, abs(min(max(a.location, 0), 1) - min(max(b.location, 0), 1)))
            }
        }
        let needed = max(min(2 * span + 2, 1024), 256, 64 / max(closest, 1e-9)).rounded(.up)
        return needed <= 4096 ? Int(needed) : nil
    }

    static func fill(_ ramp: inout [UInt32], stops: [GradientStop], alpha: Double, hue: Double, count: Int) {
        ramp.removeAll(keepingCapacity: true)
        guard !stops.isEmpty else { return ramp.append(contentsOf: repeatElement(0, count: count)) }
        // Stops come sorted from the document in almost every case; sorting only otherwise spares an array.
        let sorted = zip(stops, stops.dropFirst()).allSatisfy { $0.location <= $1.location }
            ? stops : stops.sorted { $0.location < $1.location }
        // cairo clamps locations to 0...1.
        func location(_ index: Int) -> Double { min(max(sorted[index].location, 0), 1) }
        func color(_ index: Int) -> Color { hue == 0 ? sorted[index].color : sorted[index].color.hueRotated(by: hue) }
        // The first stop past t, and the colours on either side of t (hue-rotated once per stop, not per entry).
        var upper = 0
        var below = color(0), above = below
        for i in 0..<count {
            let t = Double(i) / Double(count - 1)
            if upper < sorted.count, location(upper) <= t {
                while upper < sorted.count, location(upper) <= t { upper += 1 }
                below = color(upper - 1)
                above = upper < sorted.count ? color(upper) : below
            }
            guard upper > 0, upper < sorted.count else {
                ramp.append(premultiplied(below, alpha: alpha))
                continue
            }
            let f = (t - location(upper - 1)) / (location(upper) - location(upper - 1))
            func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * f }
            ramp.append(premultiplied(Color(red: mix(below.red, above.red), green: mix(below.green, above.green),
                                            blue: mix(below.blue, above.blue), alpha: mix(below.alpha, above.alpha)),
                                      alpha: alpha))
        }
    }

    static func premultiplied(_ c: Color, alpha: Double) -> UInt32 {
        func unit(_ v: Double) -> Double { min(max(v, 0), 1) }
        let a = unit(c.alpha * alpha) * 255
        func channel(_ v: Double) -> UInt32 { UInt32(unit(v) * a + 0.5) }
        return UInt32(a + 0.5) << 24 | channel(c.red) << 16 | channel(c.green) << 8 | channel(c.blue)
    }
}
