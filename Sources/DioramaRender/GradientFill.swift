import CCairo
import CPixman
import DioramaDocument
import DioramaTimeline
import Foundation

// Linear and radial gradient fills, evaluated per device pixel by our own code. pixman evaluates cairo's gradients
// in their general two-circle form, solving a quadratic and walking the stops for every pixel; a SwiftUI gradient
// has one centre (or one axis), so with a table of its colours a pixel costs a square root (or an addition) and a
// look-up. At 3840x2160 the six full-size petals of the breathing scene took 14 of a frame's 23 ms that way.
//
// Within a clip of whole-pixel rectangles (bands, damage areas, the letterbox) the gradient goes onto the target
// through a coverage of the fill's own, in strips of rows fixed in device space (laid from the fill's box) whatever
// the clip, with pixman: a pixel then depends on its position alone, and a gradient fill is cut across
// threads and damage areas like a solid one. (cairo filling with the gradient's pixels as an image source does not
// give that: it cuts the outline against the clip and the source's box, and pixels at a band's edge came out a few
// levels apart.) The coverage is scan-converted from the fill's edges by our own code (SolidFill.swift's exact
// areas); inside clip shapes, each shape's coverage is scan-converted too and multiplied in, and solid fills there go
// the same way (`paintThroughCoverage`). cairo makes the coverage on the strip, through the clip shapes, for strokes
// inside clip shapes, trimmed outlines and points out of reach.

extension FrameRenderer {
    /// Rows of a gradient fill's coverage and colours made and composited at a time.
    static let gradientStripRows = 64
    /// The largest box (device pixels) of a fill inside clip shapes whose coverage and the shapes' are scan-converted.
    static let largestScannedClippedFill = 128 * 128

    /// Fills the path `path` adds (in the context's user space) with the gradient `geometry` (the fill's route,
    /// `route(of:matrix:clipped:)`), evaluated by `GradientRamp`, when the target is whole device pixels. False,
    /// with nothing drawn, when cairo's own pattern must do it: a reduced (blurred) layer, or a transform that cannot
    /// be inverted.
    func fillGradient(_ geometry: GradientGeometry, alpha: Double, in cr: OpaquePointer, path: (OpaquePointer) -> Void) -> Bool {
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        var inverse = ctm
        guard cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS else { return false }
        // In device space (the path is the caller's, already on the context, and stays for its stroke). Saved and
        // restored rather than set back, so that the context's inverse matrix, which the stroke uses, is left bit
        // for bit as it was.
        cairo_save(cr)
        cairo_identity_matrix(cr)
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_path_extents(cr, &x1, &y1, &x2, &y2)
        cairo_restore(cr)
        return paintThroughCoverage(.gradient(geometry, inverse), alpha: alpha, box: BoundingBox(minX: x1, minY: y1, maxX: x2, maxY: y2),
                                    in: cr, fillsContextPath: true) { pen, place in
            place(ctm)
            path(pen)
            cairo_fill(pen)
        }
    }

    /// Fills `geometry` (in the context's user space) with a linear or radial gradient, as
    /// `fillGradient(_:alpha:in:path:)` does, through a coverage our own scan conversion makes (SolidFill.swift's
    /// exact areas) rather than cairo's: a petal's fill onto an 8-bit strip cost cairo about as much as evaluating its
    /// colours. Within a clip of whole-pixel rectangles (inside clip shapes, the one around the outermost), with points
    /// within reach; false, with nothing drawn, otherwise (the caller then fills the context's path through the
    /// other). The context's path is left alone.
    func fillGradient(_ gradient: GradientGeometry, geometry: Geometry, alpha: Double, in cr: OpaquePointer) -> Bool {
        guard cairo_get_fill_rule(cr) == CAIRO_FILL_RULE_WINDING, let (_, _, ctm) = ownPaintTarget(cr) else { return false }
        var inverse = ctm
        guard cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS else { return false }
        var outline = keptOutline(matrix: ctm)
        defer { keep(&outline) }
        guard outline.add(geometry) else { return false }
        guard !outline.edges.isEmpty else { return true }
        let box = BoundingBox(minX: outline.minX, minY: outline.minY, maxX: outline.maxX, maxY: outline.maxY)
        // A clip that is not whole pixels (around the outermost clip shape, if any) returns false before anything is
        // drawn: this is not the context's path. Inside clip shapes out of reach, cairo fills the outline on a pen.
        return paintThroughCoverage(.gradient(gradient, inverse), alpha: alpha, box: box, in: cr, outline: outline) { pen, place in
            place(ctm)
            addPath(geometry, to: pen)
            cairo_fill(pen)
        }
    }

    /// A solid colour, or a gradient with the matrix from device to user space, painted through a coverage.
    enum CoverageSource {
        case solid(Color)
        case gradient(GradientGeometry, cairo_matrix_t)
    }

    /// Paints `source` at `alpha` through the coverage `cover` draws on a pen (an A8 strip of the target's rows,
    /// with the clip shapes around the node; `place` sets a matrix from device space onto the strip), within
    /// `box` (device space), when the target is whole device pixels. Inside clip shapes, a solid fill or a stroke
    /// goes this way too, cut by the same clips. With `outline` (the fill's edges in device space), the coverage is
    /// scan-converted from its edges instead, and multiplied by each clip shape's, scan-converted too (when every
    /// shape is within reach; otherwise the pen). `fillsContextPath`: the context
    /// holds the path, which cairo fills when the clip is not whole pixels. False, with nothing drawn, when cairo
    /// must paint.
    func paintThroughCoverage(_ source: CoverageSource, alpha: Double, box deviceBox: BoundingBox, in cr: OpaquePointer,
                              fillsContextPath: Bool = false, outline: FillOutline? = nil,
                              cover: (_ pen: OpaquePointer, _ place: (cairo_matrix_t) -> Void) -> Void) -> Bool {
        guard let (target, offset) = pixelTarget(cr), isPixelExact(target) else { return false }
        var clipX1 = 0.0, clipY1 = 0.0, clipX2 = 0.0, clipY2 = 0.0
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_clip_extents(cr, &clipX1, &clipY1, &clipX2, &clipY2)
        cairo_restore(cr)
        let surface = PixelRect(x: -offset.x, y: -offset.y, width: Int(cairo_image_surface_get_width(target)),
                                height: Int(cairo_image_surface_get_height(target)))
        let clip = BoundingBox(minX: clipX1, minY: clipY1, maxX: clipX2, maxY: clipY2).roundedOut
        guard deviceBox.isFinite else { return false }
        // The box the strips are laid from is cut to the frame, not to the surface: a layer's surface covers only
        // the part of the frame being drawn, and strips laid from its edge would differ from band to band.
        guard let box = deviceBox.roundedOut.intersection(frameBounds ?? surface),
              let area = box.intersection(clip)?.intersection(surface) else { return true }

        // The clip's whole-pixel rectangles (every context the renderer draws on has a clip); inside clip shapes,
        // the rectangles that clipped the context before the first, and the shapes the coverage is cut by.
        // Otherwise (not whole pixels), cairo paints.
        // (In storage kept from fill to fill; outside clip shapes, the clip a run of top-level nodes reads once.)
        var rectangleList: [PixelRect] = []
        swap(&rectangleList, &coverageScratch.parts)
        defer { swap(&rectangleList, &coverageScratch.parts) }
        var penClips: ArraySlice<(geometry: Geometry, matrix: cairo_matrix_t)> = []
        // Inside clip shapes, the shapes whatever the context's clip reads as: a band or an area can make a clip shape
        // that is a rectangle read as whole pixels in one part and not in another, and the fill must take one way in
        // every part.
        if !clipShapes.isEmpty, let base = clipBase {
            rectangleList.removeAll(keepingCapacity: true)
            rectangleList.append(contentsOf: base)
            penClips = clipShapes[...]
        } else if !readClip(cr, into: &rectangleList) {
            guard fillsContextPath, case .gradient(let geometry, let inverse) = source else { return false }
            return cairoFill(geometry, inverse: inverse, alpha: alpha, area: area, in: cr)
        }
        // Inside clip shapes, with the fill's outline at hand, each shape's coverage is scan-converted too and
        // multiplied in (as cairo masks a fill by a clip it cannot hold as rectangles): when every shape is within
        // reach. Otherwise cairo fills through the shapes on a pen.
        // (In outlines kept from fill to fill, whose edges' storage is reused.)
        // Large fills in clip shapes stay on the pen: there cairo's clip and fill beat two scan conversions and a
        // multiply per pixel (the kaleidoscope at 3840x2160 took 15 % longer). Judged from the box, which is the same
        // in every part of the frame.
        var scansClips = outline != nil && (penClips.isEmpty || box.width * box.height <= Self.largestScannedClippedFill)
        var clipCount = 0
        if scansClips {
            for clip in penClips {
                if clipCount == coverageScratch.clipOutlines.count { coverageScratch.clipOutlines.append(FillOutline(matrix: clip.matrix)) }
                var clipOutline = FillOutline(matrix: clip.matrix)
                swap(&clipOutline.edges, &coverageScratch.clipOutlines[clipCount].edges)
                clipOutline.edges.removeAll(keepingCapacity: true)
                scansClips = clipOutline.add(clip.geometry)
                coverageScratch.clipOutlines[clipCount] = clipOutline
                clipCount += 1
                guard scansClips else { break }
            }
        }
        let geometry: GradientGeometry?, inverse: cairo_matrix_t
        switch source {
        case .gradient(let gradient, let deviceToUser):
            (geometry, inverse) = (gradient, deviceToUser)
            GradientRamp.fill(&coverageScratch.ramp, stops: gradient.stops, alpha: alpha, hue: paintHue, count: gradient.rampCount)
            statistics.evaluatedGradientFills += 1
        case .solid:
            (geometry, inverse) = (nil, cairo_matrix_t())
            statistics.coveredSolids += 1
        }

        // A strip of rows at a time, the strips fixed in device space (from the box's top, every `rows` rows): for
        // each, the fill's coverage (on a pen, over the box's whole width; scan-converted, over the area's), then the
        // colours where it has any, composited through it. The coverage of a strip is the same in whatever part of the frame is drawn, and a frame-sized gradient
        // needs no frame-sized scratch. A solid colour has no strip of colours: its coverage is made in one piece up
        // to 256 rows (one pen clipped and filled, where 64-row strips made several).
        let rows: Int
        if case .solid = source { rows = max(Self.gradientStripRows, min(box.height, 256)) } else { rows = Self.gradientStripRows }
        // The kept scratch pixels, whole (every read and write below names its rows and columns), with their pixman
        // images: nothing made per fill.
        let coverageStrip = keptScratch(width: box.width, height: rows, format: CAIRO_FORMAT_A8)
        let coverage = coverageStrip.surface
        cairo_surface_flush(coverage)
        guard let coverageBytes = cairo_image_surface_get_data(coverage), let mask = coverageStrip.image,
              let output = pixmanImages.over(target) else { return true }
        // The colours: a gradient's evaluated into a strip of their own where the coverage has any; a solid colour's,
        // a pixman fill (its premultiplied 8-bit components repeated into 16 bits, which pixman takes back exactly).
        var colors: OpaquePointer?
        let sourceImage: OpaquePointer?
        switch source {
        case .gradient:
            let colorScratch = keptScratch(width: area.width, height: rows, format: CAIRO_FORMAT_ARGB32)
            colors = colorScratch.surface
            // Lent: the renderer keeps the scratch (and its image) until a larger ARGB32 scratch is asked for
            // (`keptScratch`, `scratchSurface`), which nothing below does.
            sourceImage = colorScratch.image
        case .solid(let color):
            sourceImage = pixmanImages.solid(Self.cairoPremultiplied(paintHue == 0 ? color : color.hueRotated(by: paintHue), alpha: alpha))
        }
        guard let sourceImage else { return true }
        if let colors { cairo_surface_flush(colors) }
        let colorBytes = colors.flatMap { cairo_image_surface_get_data($0) }
        let coverageStride = Int(cairo_image_surface_get_stride(coverage)), colorStride = colors.map { Int(cairo_image_surface_get_stride($0)) } ?? 0
        cairo_surface_flush(target)
        // The first strip's top: the box's top and every `rows` rows from it, the last at or above the area.
        let firstTop = box.y + (area.y - box.y) / rows * rows
        for top in stride(from: firstTop, to: area.y + area.height, by: rows) {
            // The strip's rows within the box: on a pen, all of them (cairo's coverage depends on where the strip
            // starts); scan-converted, only those within the area (a pixel's depends on its position alone).
            let coverageTop = max(top, box.y), coverageRows = min(top + rows, box.y + box.height) - coverageTop
            guard coverageRows > 0 else { continue }
            if let outline, scansClips {
                // Only the area's rows and columns, which are all that is read: scan-converted, a pixel's coverage
                // depends on its position alone, whatever part of the outline is worked out.
                let areaRows = max(coverageTop, area.y)..<min(coverageTop + coverageRows, area.y + area.height)
                guard !areaRows.isEmpty else { continue }
                let maskOffset = (areaRows.lowerBound - coverageTop) * coverageStride + (area.x - box.x)
                outline.edges.withUnsafeBufferPointer { edges in
                    writeCoverage(of: edges, rows: areaRows, left: area.x, width: area.width, into: coverageBytes + maskOffset,
                                  stride: coverageStride)
                }
                if clipCount > 0, coverageScratch.clipCoverage.count < coverageStride * coverageRows {
                    coverageScratch.clipCoverage = [UInt8](repeating: 0, count: coverageStride * coverageRows)
                }
                for clip in 0..<clipCount {
                    // The edges taken first: two accesses to the scratch at once would overlap.
                    let clipEdges = coverageScratch.clipOutlines[clip].edges
                    coverageScratch.clipCoverage.withUnsafeMutableBufferPointer { clipBytes in
                        clipEdges.withUnsafeBufferPointer { edges in
                            writeCoverage(of: edges, rows: areaRows, left: area.x, width: area.width,
                                          into: clipBytes.baseAddress! + maskOffset, stride: coverageStride)
                        }
                        // pixman's IN through an 8-bit mask: each byte times the clip's, rounded as MUL_UN8.
                        for line in 0..<areaRows.count {
                            let covered = coverageBytes + maskOffset + line * coverageStride
                            let kept = clipBytes.baseAddress! + maskOffset + line * coverageStride
                            for column in 0..<area.width where covered[column] != 0 {
                                let product = UInt32(covered[column]) * UInt32(kept[column]) + 0x80
                                covered[column] = UInt8(truncatingIfNeeded: ((product >> 8) + product) >> 8)
                            }
                        }
                    }
                }
            } else {
                memset(coverageBytes, 0, coverageStride * coverageRows)
                cairo_surface_mark_dirty(coverage)
                let pen = cairo_create(coverage)!
                // The strip's rows and the box's columns of the kept pixels, which may be larger.
                cairo_rectangle(pen, 0, 0, Double(box.width), Double(coverageRows))
                cairo_clip(pen)
                func place(_ matrix: cairo_matrix_t) {
                    var placed = matrix
                    placed.x0 -= Double(box.x)
                    placed.y0 -= Double(coverageTop)
                    cairo_set_matrix(pen, &placed)
                }
                for clip in penClips {
                    place(clip.matrix)
                    addPath(clip.geometry, to: pen)
                    cairo_clip(pen)
                }
                cover(pen, place)
                cairo_destroy(pen)
                cairo_surface_flush(coverage)
            }

            let strip = PixelRect(x: area.x, y: max(top, area.y), width: area.width,
                                  height: min(top + rows, area.y + area.height) - max(top, area.y))
            if let geometry, let colorBytes {
                coverageScratch.ramp.withUnsafeBufferPointer { ramp in
                    for y in strip.y..<(strip.y + strip.height) {
                        // Device x is coverage column x − box.x and colour column x − area.x on this row.
                        let covered = coverageBytes + (y - coverageTop) * coverageStride
                        var first = area.x, last = area.x + area.width - 1
                        while first <= last, covered[first - box.x] == 0 { first += 1 }
                        while last >= first, covered[last - box.x] == 0 { last -= 1 }
                        guard first <= last else { continue }
                        let row = UnsafeMutableRawPointer(colorBytes + (y - strip.y) * colorStride).assumingMemoryBound(to: UInt32.self)
                        geometry.evaluate(into: row + (first - area.x), rowPixels: colorStride / 4,
                                          area: PixelRect(x: first, y: y, width: last - first + 1, height: 1), deviceToUser: inverse, ramp: ramp)
                    }
                }
            }
            Self.compositeOver(sourceImage, at: (area.x, strip.y), mask: mask, at: (box.x, coverageTop), onto: output, offset: offset,
                               parts: rectangleList, within: strip)
        }
        // In device units: cairo adds the surface's offset itself.
        cairo_surface_mark_dirty_rectangle(target, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
        return true
    }

    /// The gradient over `area` of the path on the context, then cairo fills with its pixels through the clip (one
    /// that is not whole pixels).
    private func cairoFill(_ geometry: GradientGeometry, inverse: cairo_matrix_t, alpha: Double, area: PixelRect,
                           in cr: OpaquePointer) -> Bool {
        GradientRamp.fill(&coverageScratch.ramp, stops: geometry.stops, alpha: alpha, hue: paintHue, count: geometry.rampCount)
        statistics.evaluatedGradientFills += 1
        guard let colors = scratchSurface(width: area.width, height: area.height, clearing: false) else { return true }
        defer { cairo_surface_destroy(colors) }
        cairo_surface_flush(colors)
        guard let data = cairo_image_surface_get_data(colors) else { return true }
        coverageScratch.ramp.withUnsafeBufferPointer { ramp in
            geometry.evaluate(into: UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                              rowPixels: Int(cairo_image_surface_get_stride(colors)) / 4, area: area, deviceToUser: inverse, ramp: ramp)
        }
        cairo_surface_mark_dirty(colors)
        // The path is in device space already: filled under the identity, with the source on whole pixels.
        // The restore also drops the source, whose pixels are reused.
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, colors, Double(area.x), Double(area.y))
        cairo_fill_preserve(cr)
        cairo_restore(cr)
        return true
    }
}

/// Storage a renderer keeps from fill to fill for paints through a coverage (nothing allocated per fill): the colour
/// ramp of the gradient being filled (or masking a layer), the outlines of the clip shapes around a fill and a strip
/// of one's coverage, and the clip's rectangles the fill reads.
struct CoverageScratch {
    var ramp: [UInt32] = []
    var clipOutlines: [FillOutline] = []
    var clipCoverage: [UInt8] = []
    var parts: [PixelRect] = []
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
            guard squared > 1e-12, squared.isFinite, p0.x.isFinite, p0.y.isFinite else { return nil }
            form = .linear(startX: p0.x, startY: p0.y, axisX: dx / squared, axisY: dy / squared)
            span = squared.squareRoot()
        case .radial(let s, let center, let startRadius, let endRadius):
            stops = s
            let c = bounds.point(at: center)
            let r0 = max(0, startRadius), r1 = max(0, endRadius)
            guard abs(r1 - r0) > 1e-9, r0.isFinite, r1.isFinite, c.x.isFinite, c.y.isFinite else { return nil }
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
        visit(area, deviceToUser: m, ramp: ramp, where: { _, _ in true }) { row, column, color in
            pixels[row * rowPixels + column] = color
        }
    }

    /// Multiplies each pixel of `area` (device pixels) in `pixels`, whose first pixel is the area's top left, by the
    /// gradient's alpha at its centre, as pixman's DEST_IN does (a mask); transparent pixels are passed by.
    /// `byRows` false visits every pixel even where the gradient has one alpha a row (tests compare the two).
    func mask(_ pixels: UnsafeMutablePointer<UInt32>, rowPixels: Int, area: PixelRect, deviceToUser m: cairo_matrix_t,
              ramp: UnsafeBufferPointer<UInt32>, byRows: Bool = true) {
        // A linear gradient running straight down the device (the flower's breath fading towards the words) has one
        // alpha a row: a row it leaves opaque is passed by and a row it clears is cleared, without visiting pixels
        // (times 255 leaves a channel be, times 0 clears it). The index is `visit`'s with its column term zero.
        if byRows, case .linear(let startX, let startY, let axisX, let axisY) = form, m.xx * axisX + m.yx * axisY == 0 {
            let last = Double(ramp.count - 1), top = ramp.count - 1
            let table = ramp.baseAddress!
            for row in 0..<area.height {
                let y = Double(area.y + row) + 0.5
                let rowX = m.xy * y + m.x0, rowY = m.yy * y + m.y0
                let index = ((rowX - startX) * axisX + (rowY - startY) * axisY) * last + 0.5
                let alpha = table[index > 0 ? (index < last ? diorama_truncate(index) : top) : 0] >> 24
                guard alpha < 255 else { continue }
                let line = pixels + row * rowPixels
                if alpha == 0 {
                    line.update(repeating: 0, count: area.width)
                    continue
                }
                for column in 0..<area.width where line[column] != 0 {
                    line[column] = FrameRenderer.multiply(line[column], by: alpha)
                }
            }
            return
        }
        visit(area, deviceToUser: m, ramp: ramp, where: { row, column in pixels[row * rowPixels + column] != 0 }) { row, column, color in
            let pixel = pixels + row * rowPixels + column
            pixel.pointee = FrameRenderer.multiply(pixel.pointee, by: color >> 24)
        }
    }

    /// Calls `body` with the ramp's colour at the centre of each pixel of `area` that `wanted` accepts (rows and
    /// columns from the area's top left).
    @inline(__always)
    private func visit(_ area: PixelRect, deviceToUser m: cairo_matrix_t, ramp: UnsafeBufferPointer<UInt32>,
                       where wanted: (_ row: Int, _ column: Int) -> Bool, _ body: (_ row: Int, _ column: Int, UInt32) -> Void) {
        let last = Double(ramp.count - 1), top = ramp.count - 1
        let table = ramp.baseAddress!
        // Indices are clamped with comparisons, which send a NaN (from an overflowing transform) to 0, and only those
        // between 0 and last are truncated, without the range check Swift's conversion makes (`diorama_truncate`).
        for row in 0..<area.height {
            // Each term depends on the pixel's own row or column alone, never on where the area starts: a pixel
            // gets the same bits in whatever part of the frame is drawn (an incremental sum would round differently).
            let y = Double(area.y + row) + 0.5
            let rowX = m.xy * y + m.x0, rowY = m.yy * y + m.y0
            switch form {
            case .linear(let startX, let startY, let axisX, let axisY):
                // t = (p − start) · axis, as a row term plus a column term.
                let rowT = ((rowX - startX) * axisX + (rowY - startY) * axisY) * last + 0.5
                let perColumn = (m.xx * axisX + m.yx * axisY) * last
                for column in 0..<area.width where wanted(row, column) {
                    let index = rowT + perColumn * (Double(area.x &+ column) + 0.5)
                    body(row, column, table[index > 0 ? (index < last ? diorama_truncate(index) : top) : 0])
                }
            case .radial(let centerX, let centerY, let startRadius, let perRadius):
                let px0 = rowX - centerX, py0 = rowY - centerY
                let scale = perRadius * last, offset = 0.5 - startRadius * perRadius * last
                for column in 0..<area.width where wanted(row, column) {
                    let x = Double(area.x &+ column) + 0.5
                    let px = px0 + m.xx * x, py = py0 + m.yx * x
                    let index = (px * px + py * py).squareRoot() * scale + offset
                    body(row, column, table[index > 0 ? (index < last ? diorama_truncate(index) : top) : 0])
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
        // NaN (a computed stop) reads as 0 rather than trap in the conversion below.
        func unit(_ v: Double) -> Double { v > 0 ? min(v, 1) : 0 }
        let a = unit(c.alpha * alpha) * 255
        func channel(_ v: Double) -> UInt32 { UInt32(unit(v) * a + 0.5) }
        return UInt32(a + 0.5) << 24 | channel(c.red) << 16 | channel(c.green) << 8 | channel(c.blue)
    }
}
