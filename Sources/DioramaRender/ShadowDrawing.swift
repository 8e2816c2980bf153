import CCairo
import CPixman
import DioramaDocument
import DioramaTimeline
import Foundation

// Shadows. A node whose only effect is a shadow (the common case: waves, a buoy) gets its shadow painted
// straight onto the target beneath it, from a silhouette drawn at reduced resolution (a blurred shadow has
// no fine detail), and only where the opaque content drawn next will not cover it. That is what SwiftUI
// shows, at a fraction of the cost of a full-resolution layer.

extension FrameRenderer {
    /// True when the shadow can be drawn beneath the node directly: no opacity, hue, blur or mask to apply
    /// to content and shadow together.
    func hasOnlyShadow(_ node: NodeSnapshot, hue: Double) -> Bool {
        node.shadow != nil && node.opacity >= 1 && hue == 0 && node.blur <= 0 && node.mask == nil
    }

    /// Paints the node's shadow under where its content will go (the caller then draws the content).
    /// `shadowHue` is the hue rotation of the node's ancestors (its own comes before its shadow). False, with nothing
    /// painted, when the silhouette would be too large to make (a shadow cast far from its node, more than
    /// `maximumSilhouetteCells` cells across content and shadow): the node's layer must make it.
    @discardableResult
    func drawShadowBeneath(_ node: NodeSnapshot, shadowHue: Double, in cr: OpaquePointer) -> Bool {
        guard let shadow = node.shadow else { return true }
        guard shadow.color.alpha > 0, let clip = deviceClip(cr) else { return true }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        guard let (shadowBox, sigma, offset) = shadowPlace(of: node, ctm: ctm),
              let visible = shadowBox.intersection(clip) else { return true }
        // One silhouette sample per sigma: a gaussian of one sample's deviation interpolates smoothly.
        let factor = max(1, min(16, Int(sigma)))
        let reducedSigma = GaussianBlur.reducedSigma(sigma, factor: factor)
        // The offset in cells, rounded out: the content casting onto a cell lies this far back.
        let back = (low: (x: Int((offset.x / Double(factor)).rounded(.down)) - 1, y: Int((offset.y / Double(factor)).rounded(.down)) - 1),
                    high: (x: Int((offset.x / Double(factor)).rounded(.up)) + 1, y: Int((offset.y / Double(factor)).rounded(.up)) + 1))
        let grid: SilhouetteGrid
        /// Where cell (0, 0) of the grid the silhouette is drawn in lies (device pixels): the whole shadow's grid.
        let anchor: (x: Int, y: Int)
        if Self.anchorsShadow(shadowBox) {
            // Cells anchored to the whole shadow's box, whatever the clip (cell (i, j) covers device pixels from the
            // box's origin + (i - 1, j - 1) × factor), made only as far around the visible part as can reach it:
            // through the blur's boxes and one cell either side for the bilinear steps, and back by the offset to
            // the content casting onto those cells. A pixel of the shadow then depends on the node alone, and bands
            // and damage areas may cut it (`isClipSafe`).
            let radii = GaussianBlur.boxRadiusTriple(sigma: reducedSigma)
            let blurCells = reducedSigma >= 0.35 ? radii.0 + radii.1 + radii.2 : 0
            let reachCells = blurCells + 3
            let (originX, originY) = (shadowBox.x - factor, shadowBox.y - factor)
            anchor = (originX, originY)
            let (allX, allY) = ((shadowBox.width + factor - 1) / factor + 2, (shadowBox.height + factor - 1) / factor + 2)
            let s0 = max(0, (visible.x - originX) / factor - reachCells)
            let s1 = min(allX, (visible.x + visible.width - 1 - originX) / factor + reachCells + 1)
            let t0 = max(0, (visible.y - originY) / factor - reachCells)
            let t1 = min(allY, (visible.y + visible.height - 1 - originY) / factor + reachCells + 1)
            let (i0, i1) = (min(s0, s0 - back.high.x), max(s1, s1 - back.low.x))
            let (j0, j1) = (min(t0, t0 - back.high.y), max(t1, t1 - back.low.y))
            guard i1 - i0 <= Self.maximumSilhouetteCells, j1 - j0 <= Self.maximumSilhouetteCells else { return false }
            grid = SilhouetteGrid(factor: factor, cellsX: i1 - i0, cellsY: j1 - j0,
                                  originX: originX + i0 * factor, originY: originY + j0 * factor)
        } else {
            // Too large to anchor: the silhouette covers the visible area and the content just outside it whose
            // shadow reaches into view, from the area's corner, and the content casting onto it.
            let margin = Int(GaussianBlur.reach(sigma: sigma).rounded(.up)) + 2
            guard let region = shadowBox.intersection(PixelRect(
                x: visible.x - margin, y: visible.y - margin, width: visible.width + 2 * margin, height: visible.height + 2 * margin))
            else { return true }
            let x0 = min(region.x, region.x - back.high.x * factor), x1 = max(region.x + region.width, region.x + region.width - back.low.x * factor)
            let y0 = min(region.y, region.y - back.high.y * factor), y1 = max(region.y + region.height, region.y + region.height - back.low.y * factor)
            let (cellsX, cellsY) = ((x1 - x0 + factor - 1) / factor + 2, (y1 - y0 + factor - 1) / factor + 2)
            guard cellsX <= Self.maximumSilhouetteCells, cellsY <= Self.maximumSilhouetteCells else { return false }
            grid = SilhouetteGrid(factor: factor, cellsX: cellsX, cellsY: cellsY, originX: x0 - factor, originY: y0 - factor)
            anchor = (grid.originX, grid.originY)
        }
        let (cellsX, cellsY) = (grid.cellsX, grid.cellsY)

        // One silhouette: where the content lies (to skip what it will cover) and, moved by the offset, the shadow.
        let coverCells = silhouette(of: node, ctm: ctm, grid: grid, anchor: anchor)
        defer { cairo_surface_destroy(coverCells) }
        guard let coverAlpha = cairo_image_surface_get_data(coverCells) else { return true }
        let coverRowBytes = Int(cairo_image_surface_get_stride(coverCells))
        // The working cells in storage the renderer keeps (what a shadow still makes each time: its silhouette's
        // surface).
        let scratch = shadowScratch
        let shadowAlpha = scratch.shifted.atLeast(cellsX * cellsY)
        grid.shift(coverAlpha, rowBytes: coverRowBytes, by: (offset.x / Double(factor), offset.y / Double(factor)),
                   into: shadowAlpha, zeros: scratch.zeros.atLeast(cellsX))
        GaussianBlur.applyToAlpha(shadowAlpha, width: cellsX, height: cellsY, rowBytes: cellsX, sigma: reducedSigma,
                                  scratch: scratch.blur)
        let covered = scratch.covered.atLeast(cellsX * cellsY)
        grid.markCoveredQuads(coverAlpha, rowBytes: coverRowBytes, into: covered)

        // The shadow's coverage at full resolution, only over rows where it shows, painted through by pixman's
        // solid-through-mask compositing (far faster than blending pixel by pixel here), or by cairo's mask.
        guard let mask = grid.coverageMask(shadowAlpha, covered: covered, area: visible, scratch: scratch) else { return true }
        let color = shadow.color.hueRotated(by: shadowHue)
        if paintShadow(color, mask: mask.image, at: PixelRect(x: visible.x, y: mask.top, width: visible.width, height: mask.rows),
                       in: cr) { return true }
        let maskSurface = cairo_image_surface_create_for_data(mask.bytes, CAIRO_FORMAT_A8, Int32(visible.width),
                                                              Int32(mask.rows), Int32(mask.stride))!
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_mask_surface(cr, maskSurface, Double(visible.x), Double(mask.top))
        cairo_restore(cr)
        cairo_surface_finish(maskSurface)
        cairo_surface_destroy(maskSurface)
        return true
    }

    /// Paints `color` through the A8 pixman image `mask` (its pixel (0, 0) at `area`'s corner, device pixels) with
    /// pixman straight onto the target, as cairo's mask paints it (byte for byte), when the clip is whole pixels:
    /// cairo's path makes about a dozen allocations a shadow. False, with nothing painted, when cairo must.
    private func paintShadow(_ color: Color, mask: OpaquePointer?, at area: PixelRect, in cr: OpaquePointer) -> Bool {
        guard choices.paintsShadowsWithPixman, let mask else { return false }
        let pixel = Self.cairoPremultiplied(color, alpha: 1)
        guard pixel != 0 else { return true }
        guard let source = pixmanImages.solid(pixel) else { return false }
        return paintOver(source, at: (0, 0), mask: mask, at: (area.x, area.y), within: area, in: cr)
    }

    /// Where a node's quick shadow reaches (device pixels, rounded out), with its deviation and offset in device
    /// units, under `ctm` (the node's own transform included). Nil when the node paints nothing.
    func shadowPlace(of node: NodeSnapshot, ctm: cairo_matrix_t) -> (box: PixelRect, sigma: Double, offset: (x: Double, y: Double))? {
        guard let shadow = node.shadow, let ink = inkBounds(of: node) else { return nil }
        let sigma = GaussianBlur.sigma(forRadius: shadow.radius) * ctm.uniformScale
        let offset = (x: ctm.xx * shadow.x + ctm.xy * shadow.y, y: ctm.yx * shadow.x + ctm.yy * shadow.y)
        let box = ctm.boundingBox(of: ink).offsetBy(offset.x, offset.y).insetBy(-GaussianBlur.reach(sigma: sigma) - 1)
        return (box.roundedOut, sigma, offset)
    }

    /// Cells, the widest or tallest silhouette a quick shadow is made from (16 MiB of working cells at most).
    static let maximumSilhouetteCells = 4096

    /// True when a quick shadow's silhouette is made over its whole box (`shadowBox`), not the visible part of it:
    /// up to 8192 device pixels a side, near the frame.
    static func anchorsShadow(_ box: PixelRect) -> Bool {
        box.width <= 8192 && box.height <= 8192 && abs(box.x) <= 1 << 20 && abs(box.y) <= 1 << 20
    }

    /// The node's content drawn at 1/`factor` resolution into a new A8 surface of cells. The matrix is the whole
    /// shadow's grid's (`anchor`), whichever part of it the grid holds: the part's place is the surface's device
    /// offset, whole cells applied after the matrix, so text, art and curves land on the same cells in every part (a
    /// different matrix could round a glyph's position the other way).
    private func silhouette(of node: NodeSnapshot, ctm: cairo_matrix_t, grid: SilhouetteGrid, anchor: (x: Int, y: Int)) -> OpaquePointer {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(grid.cellsX), Int32(grid.cellsY))!
        cairo_surface_set_device_offset(surface, -Double((grid.originX - anchor.x) / grid.factor),
                                        -Double((grid.originY - anchor.y) / grid.factor))
        let cr = cairo_create(surface)!
        cairo_scale(cr, 1 / Double(grid.factor), 1 / Double(grid.factor))
        cairo_translate(cr, -Double(anchor.x), -Double(anchor.y))
        var matrix = ctm
        cairo_transform(cr, &matrix)
        withoutClipShapes { drawClippedContent(node, alpha: 1, in: cr) }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return surface
    }

    /// Paints the group's silhouette in `color`, blurred (`sigma` in the group's pixels) and offset (device
    /// units), beneath the group (inside a layer, for nodes whose opacity or effects apply to content and
    /// shadow together).
    func drawShadow(under group: OpaquePointer, color: Color, sigma: Double, offset: (x: Double, y: Double),
                    in cr: OpaquePointer) {
        cairo_surface_flush(group)
        let width = Int(cairo_image_surface_get_width(group)), height = Int(cairo_image_surface_get_height(group))
        let shadow = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(shadow) }
        // Out of memory, cairo hands back an error surface without pixels: no shadow rather than a trap.
        guard cairo_surface_status(shadow) == CAIRO_STATUS_SUCCESS, cairo_surface_status(group) == CAIRO_STATUS_SUCCESS,
              cairo_image_surface_get_data(group) != nil, cairo_image_surface_get_data(shadow) != nil else { return }
        var deviceX = 0.0, deviceY = 0.0, scaleX = 1.0, scaleY = 1.0
        cairo_surface_get_device_offset(group, &deviceX, &deviceY)
        cairo_surface_get_device_scale(group, &scaleX, &scaleY)
        cairo_surface_set_device_scale(shadow, scaleX, scaleY)
        cairo_surface_set_device_offset(shadow, deviceX, deviceY)
        let premultiplied = [color.blue, color.green, color.red].map { UInt32(($0 * color.alpha * 255).rounded()) }
        let alpha = UInt32((color.alpha * 255).rounded())
        let sourceRow = Int(cairo_image_surface_get_stride(group)) / 4, targetRow = Int(cairo_image_surface_get_stride(shadow)) / 4
        let source = UnsafeMutableRawPointer(cairo_image_surface_get_data(group)!).assumingMemoryBound(to: UInt32.self)
        let target = UnsafeMutableRawPointer(cairo_image_surface_get_data(shadow)!).assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            for x in 0..<width {
                let coverage = source[y * sourceRow + x] >> 24
                guard coverage > 0 else { target[y * targetRow + x] = 0; continue }
                @inline(__always) func scaled(_ v: UInt32) -> UInt32 { (v * coverage + 127) / 255 }
                target[y * targetRow + x] = scaled(alpha) << 24 | scaled(premultiplied[2]) << 16
                    | scaled(premultiplied[1]) << 8 | scaled(premultiplied[0])
            }
        }
        if sigma > 0 {
            GaussianBlur.apply(to: target, width: width, height: height, rowPixels: targetRow, sigma: sigma)
        }
        cairo_surface_mark_dirty(shadow)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, shadow, offset.x, offset.y)
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_OVER)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}

/// The reduced-resolution grid a quick shadow is computed on: `factor` device pixels per cell, cell (0, 0)
/// starting at device pixel (`originX`, `originY`).
struct SilhouetteGrid {
    let factor: Int
    let cellsX: Int
    let cellsY: Int
    let originX: Int
    let originY: Int

    /// The cells moved by (`dx`, `dy`) cells, resampled bilinearly, transparent where nothing moved in, into `out`
    /// (`cellsX` bytes per row); `zeros` holds `cellsX` bytes to read as a transparent row.
    func shift(_ cells: UnsafeMutablePointer<UInt8>, rowBytes: Int, by shift: (dx: Double, dy: Double),
               into out: UnsafeMutablePointer<UInt8>, zeros: UnsafeMutablePointer<UInt8>) {
        out.update(repeating: 0, count: cellsX * cellsY)
        let whole = (x: Int(shift.dx.rounded(.down)), y: Int(shift.dy.rounded(.down)))
        let fx = UInt32(((shift.dx - Double(whole.x)) * 256).rounded()), fy = UInt32(((shift.dy - Double(whole.y)) * 256).rounded())
        if shift.dx == 0, shift.dy == 0 {
            for j in 0..<cellsY { (out + j * cellsX).update(from: cells + j * rowBytes, count: cellsX) }
            return
        }
        // Output cell (i, j) blends source cells i - whole.x - 1 and i - whole.x (weights fx, 256 - fx), likewise in y.
        zeros.update(repeating: 0, count: cellsX)
        func sourceRow(_ j: Int) -> UnsafeMutablePointer<UInt8> { j >= 0 && j < cellsY ? cells + j * rowBytes : zeros }
        for j in 0..<cellsY {
            let above = sourceRow(j - whole.y - 1), below = sourceRow(j - whole.y)
            let row = out + j * cellsX
            let (low, high) = (max(0, whole.x), min(cellsX, cellsX + whole.x + 1))
            guard low < high else { continue }
            for i in low..<high {
                let si = i - whole.x
                let (left, right) = (si - 1 >= 0 && si - 1 < cellsX ? si - 1 : -1, si < cellsX ? si : -1)
                let aboveValue = (left >= 0 ? UInt32(above[left]) * fx : 0) + (right >= 0 ? UInt32(above[right]) * (256 - fx) : 0)
                let belowValue = (left >= 0 ? UInt32(below[left]) * fx : 0) + (right >= 0 ? UInt32(below[right]) * (256 - fx) : 0)
                row[i] = UInt8(truncatingIfNeeded: (aboveValue * fy + belowValue * (256 - fy) + 32768) >> 16)
            }
        }
    }

    /// For each quad of cells (i, j)...(i + 1, j + 1): true when all four are fully covered by the content,
    /// so every pixel between their centres will be painted over by the content and needs no shadow: into `quads`
    /// (`cellsX` a row).
    func markCoveredQuads(_ cover: UnsafeMutablePointer<UInt8>, rowBytes: Int, into quads: UnsafeMutablePointer<Bool>) {
        quads.update(repeating: false, count: cellsX * cellsY)
        for j in 0..<(cellsY - 1) {
            let upper = cover + j * rowBytes, lower = upper + rowBytes, out = quads + j * cellsX
            for i in 0..<(cellsX - 1) {
                out[i] = upper[i] & upper[i + 1] & lower[i] & lower[i + 1] == 255
            }
        }
    }

    /// The shadow's coverage at full resolution (A8, bilinear between cell centres) over `area` (device
    /// pixels), zero where the content will cover it; only the rows from the first to the last that have
    /// anything to paint. Nil when nothing shows. `bytes` are the scratch's kept pixels, with a pixman image over all
    /// of them (`image`, nil when they could not be made), valid until the scratch is used again.
    func coverageMask(_ alpha: UnsafeMutablePointer<UInt8>, covered: UnsafeMutablePointer<Bool>, area: PixelRect,
                      scratch: ShadowScratch)
        -> (bytes: UnsafeMutablePointer<UInt8>, stride: Int, top: Int, rows: Int, image: OpaquePointer?)? {
        guard cellsX >= 2, cellsY >= 2, area.width > 0, area.height > 0 else { return nil }
        // Horizontal bilinear weights (1/256) of the pixel at offset u inside its cell: pixels left of the cell's
        // centre blend cells i - 1 and i, the others cells i and i + 1; `weights[u]` is the second cell's share.
        let half = factor / 2
        let weights = scratch.weights.atLeast(factor)
        for u in 0..<factor {
            let position = (Double(u) + 0.5) / Double(factor) - 0.5
            weights[u] = UInt16(((position < 0 ? position + 1 : position) * 256).rounded())
        }
        // Per quad row j0 (cell rows j0 and j0 + 1), the first and last cell that may paint anything: not entirely
        // under the content and with some shadow around it (`spans[2 * j0] > spans[2 * j0 + 1]` when none).
        let spans = scratch.spans.atLeast(2 * cellsY)
        func paints(_ i: Int, upper: UnsafeMutablePointer<UInt8>, coveredRow: UnsafeMutablePointer<Bool>) -> Bool {
            let left = max(i - 1, 0), right = min(i + 1, cellsX - 1)
            if coveredRow[min(left, cellsX - 2)] && coveredRow[min(i, cellsX - 2)] { return false }
            let lower = upper + cellsX
            return upper[left] | upper[i] | upper[right] | lower[left] | lower[i] | lower[right] != 0
        }
        for j0 in 0..<cellsY {
            spans[2 * j0] = 1
            spans[2 * j0 + 1] = 0
            guard j0 < cellsY - 1 else { continue }
            let upper = alpha + j0 * cellsX, coveredRow = covered + j0 * cellsX
            guard let low = (0..<cellsX).first(where: { paints($0, upper: upper, coveredRow: coveredRow) }) else { continue }
            spans[2 * j0] = low
            spans[2 * j0 + 1] = (low..<cellsX).last(where: { paints($0, upper: upper, coveredRow: coveredRow) }) ?? low
        }
        // Device row y blends cell rows j0 and j0 + 1 with weight fy (1/256) for the second.
        func rowPlace(_ y: Int) -> (j0: Int, v: Int) {
            let j = (y - originY) / factor, v = (y - originY) - j * factor
            return (min(max(2 * v + 1 < factor ? j - 1 : j, 0), cellsY - 2), v)
        }
        // The device columns (inside the area) of quad row j0's cells that may paint, or nil.
        let end = area.x + area.width
        func columns(_ j0: Int) -> Range<Int>? {
            guard spans[2 * j0] <= spans[2 * j0 + 1] else { return nil }
            let low = max(area.x, originX + spans[2 * j0] * factor), high = min(end, originX + (spans[2 * j0 + 1] + 1) * factor)
            return low < high ? low..<high : nil
        }
        var first = area.y + area.height, last = area.y - 1
        for y in area.y..<(area.y + area.height) where columns(rowPlace(y).j0) != nil {
            first = min(first, y)
            last = y
        }
        guard first <= last else { return nil }
        let rows = last - first + 1
        let kept = scratch.maskPixels(width: area.width, height: rows)
        cairo_surface_flush(kept.surface)
        guard let bytes = cairo_image_surface_get_data(kept.surface) else { return nil }
        let maskStride = Int(cairo_image_surface_get_stride(kept.surface))
        for row in 0..<rows { (bytes + row * maskStride).update(repeating: 0, count: area.width) }
        // Bilinear interpolation, separably: a quad row's two cell rows are interpolated across once (1/256 weights,
        // rounded to bytes; zero over quads under the content), and each device row between them is a weighted sum of
        // the two, rounded again, in 16-bit lanes the compiler vectorizes eight or more at a time. Indexed by device x.
        let acrossUpper = scratch.across.atLeast(2 * area.width)
        /// Two cells blended across with weight `w` (1/256) for the second, rounded to a byte.
        @inline(__always) func across(_ a: UInt8, _ b: UInt8, _ w: UInt16) -> UInt16 {
            (UInt16(a) &* (256 &- w) &+ UInt16(b) &* w &+ 128) >> 8
        }
        let upperAt = acrossUpper - area.x, lowerAt = acrossUpper + area.width - area.x
        // The quad row's runs of device columns with anything to paint (start, end), from cells that have.
        let runs = scratch.runs.atLeast(2 * cellsX)
        var runCount = 0
        var ready = -1
        for y in first...last {
            let (j0, v) = rowPlace(y)
            guard let span = columns(j0) else { continue }
            if j0 != ready {
                ready = j0
                runCount = 0
                let upper = alpha + j0 * cellsX, lower = upper + cellsX, coveredRow = covered + j0 * cellsX
                for i in ((span.lowerBound - originX) / factor)...((span.upperBound - 1 - originX) / factor) {
                    let cellStart = originX + i * factor
                    let left = max(i - 1, 0), right = min(i + 1, cellsX - 1)
                    // Pixels left of the cell's centre lie in quad (i - 1, j0) and blend cells left and i; the
                    // others lie in quad (i, j0) and blend cells i and right.
                    let openLeft = !coveredRow[min(left, cellsX - 2)], openRight = !coveredRow[min(i, cellsX - 2)]
                    let leftPaints = openLeft && upper[left] | upper[i] | lower[left] | lower[i] != 0
                    let rightPaints = openRight && upper[i] | upper[right] | lower[i] | lower[right] != 0
                    guard leftPaints || rightPaints else { continue }
                    let (start, end) = (max(span.lowerBound, cellStart), min(span.upperBound, cellStart + factor))
                    if runCount > 0 && runs[2 * runCount - 1] == start {
                        runs[2 * runCount - 1] = end
                    } else {
                        (runs[2 * runCount], runs[2 * runCount + 1]) = (start, end)
                        runCount += 1
                    }
                    for x in start..<end {
                        let u = x - cellStart, w = weights[u]
                        if u < half {
                            upperAt[x] = leftPaints ? across(upper[left], upper[i], w) : 0
                            lowerAt[x] = leftPaints ? across(lower[left], lower[i], w) : 0
                        } else {
                            upperAt[x] = rightPaints ? across(upper[i], upper[right], w) : 0
                            lowerAt[x] = rightPaints ? across(lower[i], lower[right], w) : 0
                        }
                    }
                }
            }
            let fy = weights[v], gy = 256 - fy
            let row = bytes + (y - first) * maskStride - area.x
            for run in 0..<runCount {
                for x in runs[2 * run]..<runs[2 * run + 1] {
                    row[x] = UInt8(truncatingIfNeeded: (upperAt[x] &* gy &+ lowerAt[x] &* fy &+ 128) >> 8)
                }
            }
        }
        cairo_surface_mark_dirty(kept.surface)
        return (bytes, maskStride, first, rows, kept.image)
    }
}

/// The working storage of a renderer's quick shadows, kept from shadow to shadow (each use takes what it needs and
/// leaves nothing of value): the ocean's six wave shadows made about a hundred allocations a frame.
final class ShadowScratch {
    let shifted = KeptBuffer<UInt8>()
    let zeros = KeptBuffer<UInt8>()
    let covered = KeptBuffer<Bool>()
    let weights = KeptBuffer<UInt16>()
    let spans = KeptBuffer<Int>()
    let across = KeptBuffer<UInt16>()
    let runs = KeptBuffer<Int>()
    let blur = AlphaBlurScratch()
    private var mask: ScratchSurface?

    /// A8 pixels at least `width` × `height`, kept (see `FrameRenderer.keptScratch`).
    func maskPixels(width: Int, height: Int) -> ScratchSurface {
        let kept = ScratchSurface.atLeast(mask, width: width, height: height, format: CAIRO_FORMAT_A8)
        mask = kept
        return kept
    }
}

/// Storage of plain values (bytes, integers) kept from use to use: `atLeast` grows it when asked for more, without
/// keeping its contents, and hands out the same memory otherwise.
final class KeptBuffer<Element: BitwiseCopyable> {
    private var pointer = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    private var capacity = 1

    func atLeast(_ count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            pointer.deallocate()
            capacity = max(count, 2 * capacity)
            pointer = .allocate(capacity: capacity)
        }
        return pointer
    }

    deinit { pointer.deallocate() }
}
