import CCairo
import CPixman
import DioramaVectorArt
import Foundation

// Cached art that is rotated, or placed between pixels, is resampled by pixman directly, bilinear (what cairo's
// "good" filter does at these scales), with one transform from device pixels to the picture. cairo would hand
// pixman a transform taken relative to the centre of the area drawn, so its pixels would depend on the clip and a
// frame drawn in bands or damage areas would differ from the whole one; with the transform fixed, a pixel depends
// on its position alone, so the node is clip-safe and is cut across threads like a solid fill. And only output
// pixels near inked cells of the picture are visited: a turning windmill's sails leave most of their box empty.

extension FrameRenderer {
    /// Cells of the output, in pixels a side, marked when a resampled picture may reach them.
    static let resampleCellSide = 16

    /// True when a picture placed by `matrix` (picture pixels to device) is resampled here rather than by cairo:
    /// not a whole-pixel copy, shrunk by at most 0.75 (beyond that cairo filters with a wider kernel), and with a
    /// transform pixman can hold. Both the drawing and the route (PaintRoute.swift) ask this.
    static func resamples(_ matrix: cairo_matrix_t) -> Bool {
        let scaleX = hypot(matrix.xx, matrix.yx), scaleY = hypot(matrix.xy, matrix.yy)
        return !matrix.isIntegerTranslation && scaleX >= 0.75 && scaleY >= 0.75 && pixmanTransform(matrix) != nil
    }

    /// Pixman's transform from device pixels to the picture placed by `matrix`, taken relative to `anchor` (the whole
    /// device pixel at or before the picture's origin: it depends on the placement alone, never on the clip, and keeps
    /// the translation small so that 16.16 fixed point stays precise); source coordinates are device − anchor.
    /// Nil when the placement is degenerate or beyond 16.16's range.
    static func pixmanTransform(_ matrix: cairo_matrix_t) -> (transform: pixman_transform, anchor: (x: Int, y: Int))? {
        guard matrix.x0.isFinite, matrix.y0.isFinite, abs(matrix.x0) < 1e7, abs(matrix.y0) < 1e7,
              (matrix.xx * matrix.yy - matrix.xy * matrix.yx).isNormal else { return nil }
        let anchor = (x: Int(matrix.x0.rounded(.down)), y: Int(matrix.y0.rounded(.down)))
        var inverse = matrix
        inverse.x0 -= Double(anchor.x)
        inverse.y0 -= Double(anchor.y)
        // No array here: the clip-safety check asks this for every turned picture of every frame.
        func fits(_ value: Double) -> Bool { value.isFinite && abs(value) < 32000 }
        guard cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS, fits(inverse.xx), fits(inverse.xy), fits(inverse.x0),
              fits(inverse.yx), fits(inverse.yy), fits(inverse.y0) else { return nil }
        var floating = pixman_f_transform(m: ((inverse.xx, inverse.xy, inverse.x0), (inverse.yx, inverse.yy, inverse.y0), (0, 0, 1)))
        var transform = pixman_transform()
        guard pixman_transform_from_pixman_f_transform(&transform, &floating) != 0 else { return nil }
        return (transform, anchor)
    }

    /// Paints `raster` with its pixel (0, 0) at user point (`x`, `y`) under the context's matrix and clip, with
    /// `alpha`: straight onto the target within a clip of whole-pixel rectangles, else through a scratch surface.
    /// False, with nothing drawn, when the matrix or target is not one handled here (a whole-pixel copy, a target
    /// that is not an image in memory, a device scale): the caller paints with cairo.
    func paintResampled(_ raster: VectorArtRasterCache.Raster, x: Double, y: Double, alpha: Double,
                        in cr: OpaquePointer) -> Bool {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        cairo_matrix_translate(&matrix, x, y)
        guard choices.resamplesArt, Self.resamples(matrix), let (target, offset) = pixelTarget(cr) else { return false }
        let format = cairo_image_surface_get_format(target)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else { return false }
        let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
        let (offsetX, offsetY) = (Double(offset.x), Double(offset.y))

        // The clip in device space, intersected with the target so that "no clip" is a rectangle too.
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_rectangle(cr, -offsetX, -offsetY, Double(width), Double(height))
        cairo_clip(cr)
        let rectangles = wholePixelClip(cr)
        var extents = (x1: 0.0, y1: 0.0, x2: 0.0, y2: 0.0)
        cairo_clip_extents(cr, &extents.x1, &extents.y1, &extents.x2, &extents.y2)
        cairo_restore(cr)

        // Device pixel centre -> picture: pixman's transform, rounded to 16.16 once, the same for every part drawn.
        guard let placement = Self.pixmanTransform(matrix) else { return false }
        var transform = placement.transform
        let anchor = placement.anchor

        cairo_surface_flush(raster.surface)
        guard let picture = Self.pixmanImage(over: raster.surface) else { return false }
        defer { pixman_image_unref(picture) }
        pixman_image_set_transform(picture, &transform)
        pixman_image_set_filter(picture, PIXMAN_FILTER_BILINEAR, nil, 0)
        guard let rectangles else {
            // A clip with soft edges (a clip shape): the picture is resampled into a scratch surface, the same
            // pixels as below, then copied through the clip by cairo pixel for pixel, which makes the clip's
            // coverage from its outline alone. The scratch spans the clip's whole extents, not just the ink: cairo
            // cuts a clip outline against a smaller source's box, and that box would differ with the clip.
            let x1 = max(extents.x1.rounded(.down), -offsetX), y1 = max(extents.y1.rounded(.down), -offsetY)
            let x2 = min(extents.x2.rounded(.up), -offsetX + Double(width)), y2 = min(extents.y2.rounded(.up), -offsetY + Double(height))
            guard x1 < x2, y1 < y2 else { return true }
            let area = PixelRect(x: Int(x1), y: Int(y1), width: Int(x2 - x1), height: Int(y2 - y1))
            guard let scratch = scratchSurface(width: area.width, height: area.height) else { return false }
            defer { cairo_surface_destroy(scratch) }
            guard let output = Self.pixmanImage(over: scratch) else { return false }
            defer { pixman_image_unref(output) }
            composite(picture, cells: raster.cells, matrix: matrix, anchor: anchor, mask: nil, onto: output,
                      width: area.width, height: area.height, offset: (-area.x, -area.y),
                      rectangles: [PixelRect(x: 0, y: 0, width: area.width, height: area.height)])
            paint(scratch, atX: x1, y: y1, alpha: alpha, in: cr)
            statistics.resampledThroughSoftClips += 1
            return true
        }
        guard let output = pixmanImages.over(target) else { return false }
        var mask: OpaquePointer?
        if alpha < 1 {
            var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((max(0, alpha) * 0xFFFF).rounded()))
            mask = pixman_image_create_solid_fill(&color)
        }
        defer { if let mask { pixman_image_unref(mask) } }
        cairo_surface_flush(target)
        composite(picture, cells: raster.cells, matrix: matrix, anchor: anchor, mask: mask, onto: output, width: width, height: height,
                  offset: offset, rectangles: rectangles.map {
                      PixelRect(x: $0.x + offset.x, y: $0.y + offset.y, width: $0.width, height: $0.height)
                  })
        cairo_surface_mark_dirty(target)
        statistics.resampledPaints += 1
        return true
    }

    /// Paints pixels `cell` of `sheet` (an image surface) over the rectangle (0, 0, cell size) of user space, their
    /// edges padded outward and the whole cut by that rectangle, as drawImage has cairo do, with `alpha`. The
    /// picture is resampled into a scratch surface over the rectangle's device box (pixels that depend on their
    /// position alone), then copied through the rectangle and the clip by cairo pixel for pixel, whose coverage
    /// comes from their outlines alone. False, with nothing drawn, when the matrix or target is not one handled here.
    func paintResampled(sheet: OpaquePointer, cell: PixelRect, alpha: Double, in cr: OpaquePointer) -> Bool {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        let sheetFormat = cairo_image_surface_get_format(sheet)
        guard choices.resamplesArt, Self.resamples(matrix), cell.width > 0, cell.height > 0, let (target, offset) = pixelTarget(cr),
              sheetFormat == CAIRO_FORMAT_ARGB32 || sheetFormat == CAIRO_FORMAT_RGB24 else { return false }
        cairo_surface_flush(sheet)
        guard cairo_image_surface_get_data(sheet) != nil else { return false }

        // The rectangle's device box, within the clip's extents and the target.
        let box = matrix.boundingBox(of: BoundingBox(minX: 0, minY: 0, maxX: Double(cell.width), maxY: Double(cell.height))).roundedOut
        let surface = PixelRect(x: -offset.x, y: -offset.y, width: Int(cairo_image_surface_get_width(target)),
                                height: Int(cairo_image_surface_get_height(target)))
        guard let clip = deviceClip(cr), let area = box.intersection(clip)?.intersection(surface) else { return true }
        let (x1, y1) = (Double(area.x), Double(area.y))

        guard let placement = Self.pixmanTransform(matrix) else { return false }
        var transform = placement.transform
        let anchor = placement.anchor
        guard let picture = Self.pixmanImage(over: sheet, cell: cell) else { return false }
        defer { pixman_image_unref(picture) }
        pixman_image_set_transform(picture, &transform)
        pixman_image_set_filter(picture, PIXMAN_FILTER_BILINEAR, nil, 0)
        pixman_image_set_repeat(picture, PIXMAN_REPEAT_PAD)

        guard let scratch = scratchSurface(width: area.width, height: area.height, clearing: false) else { return false }
        defer { cairo_surface_destroy(scratch) }
        guard let output = Self.pixmanImage(over: scratch) else { return false }
        defer { pixman_image_unref(output) }
        // Source coordinates are device pixels from the anchor: the transform maps them to the cell.
        pixman_image_composite32(PIXMAN_OP_SRC, picture, nil, output, Int32(area.x - anchor.x), Int32(area.y - anchor.y), 0, 0, 0, 0,
                                 Int32(area.width), Int32(area.height))
        // Cut by the picture's rectangle: its coverage filled on a surface of its own (no clip there, so it depends
        // on the geometry alone), multiplied in. A clip path would meet the target's clip, and cairo cuts the two
        // together differently under different clips.
        guard let coverage = scratchSurface(width: area.width, height: area.height, format: CAIRO_FORMAT_A8) else { return false }
        defer { cairo_surface_destroy(coverage) }
        let pen = cairo_create(coverage)!
        cairo_translate(pen, -x1, -y1)
        cairo_transform(pen, &matrix)
        cairo_rectangle(pen, 0, 0, Double(cell.width), Double(cell.height))
        cairo_fill(pen)
        cairo_destroy(pen)
        cairo_surface_flush(coverage)
        guard let cut = Self.pixmanImage(over: coverage) else { return false }
        pixman_image_composite32(PIXMAN_OP_IN_REVERSE, cut, nil, output, 0, 0, 0, 0, 0, 0, Int32(area.width), Int32(area.height))
        pixman_image_unref(cut)
        paint(scratch, atX: x1, y: y1, alpha: alpha, in: cr)
        return true
    }

    /// The context's target when resampled pixels can be written into it: an image in memory, one device unit a
    /// pixel, placed at whole pixels (its pixel = device + `offset`).
    func pixelTarget(_ cr: OpaquePointer) -> (surface: OpaquePointer, offset: (x: Int, y: Int))? {
        guard let target = cairo_get_group_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_data(target) != nil else { return nil }
        var scaleX = 0.0, scaleY = 0.0, offsetX = 0.0, offsetY = 0.0
        cairo_surface_get_device_scale(target, &scaleX, &scaleY)
        cairo_surface_get_device_offset(target, &offsetX, &offsetY)
        guard scaleX == 1, scaleY == 1, offsetX == offsetX.rounded(), offsetY == offsetY.rounded(),
              abs(offsetX) < 1e6, abs(offsetY) < 1e6 else { return nil }
        return (target, (Int(offsetX), Int(offsetY)))
    }

    /// A pixman image over the pixels of a cairo image surface (ARGB32, RGB24 or A8), or over `cell` of them; the
    /// caller unrefs it.
    static func pixmanImage(over surface: OpaquePointer, cell: PixelRect? = nil) -> OpaquePointer? {
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let format: pixman_format_code_t
        switch cairo_image_surface_get_format(surface) {
        case CAIRO_FORMAT_ARGB32: format = PIXMAN_a8r8g8b8
        case CAIRO_FORMAT_RGB24: format = PIXMAN_x8r8g8b8
        case CAIRO_FORMAT_A8: format = PIXMAN_a8
        default: return nil
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let bytesPerPixel = format == PIXMAN_a8 ? 1 : 4
        let area = cell ?? PixelRect(x: 0, y: 0, width: Int(cairo_image_surface_get_width(surface)),
                                     height: Int(cairo_image_surface_get_height(surface)))
        return pixman_image_create_bits(format, Int32(area.width), Int32(area.height),
                                        UnsafeMutableRawPointer(data + area.y * stride + area.x * bytesPerPixel)
                                            .assumingMemoryBound(to: UInt32.self),
                                        Int32(stride))
    }

    /// Paints resampled pixels (`scratch`, whose pixel (0, 0) is device pixel (`x`, `y`)) through the context's clip.
    private func paint(_ scratch: OpaquePointer, atX x: Double, y: Double, alpha: Double, in cr: OpaquePointer) {
        cairo_surface_mark_dirty(scratch)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, scratch, x, y)
        if alpha < 1 { cairo_paint_with_alpha(cr, alpha) } else { cairo_paint(cr) }
        cairo_restore(cr)
        statistics.resampledPaints += 1
    }

    /// Composites `picture` (its transform from device pixels set) over `output` (`width` × `height` pixels, its
    /// pixel = device + `offset`) within `rectangles` (output pixels), visiting only cells an inked cell may reach.
    private func composite(_ picture: OpaquePointer, cells: InkCells, matrix: cairo_matrix_t, anchor: (x: Int, y: Int), mask: OpaquePointer?,
                           onto output: OpaquePointer, width: Int, height: Int, offset: (x: Int, y: Int),
                           rectangles: [PixelRect]) {
        markResampleCells(cells, matrix: matrix, offset: offset, width: width, height: height)
        let side = Self.resampleCellSide, columns = (width + side - 1) / side
        for rectangle in rectangles {
            let x1 = max(0, rectangle.x), y1 = max(0, rectangle.y)
            let x2 = min(width, rectangle.x + rectangle.width), y2 = min(height, rectangle.y + rectangle.height)
            guard x1 < x2, y1 < y2 else { continue }
            for row in (y1 / side)...((y2 - 1) / side) {
                let top = max(y1, row * side), bottom = min(y2, (row + 1) * side)
                var column = x1 / side
                let lastColumn = (x2 - 1) / side
                while column <= lastColumn {
                    guard resampleScratch.cells[row * columns + column] else { column += 1; continue }
                    let start = column
                    while column <= lastColumn, resampleScratch.cells[row * columns + column] { column += 1 }
                    let left = max(x1, start * side), right = min(x2, column * side)
                    // Source coordinates are device pixels from the anchor: the transform maps them to the picture.
                    pixman_image_composite32(PIXMAN_OP_OVER, picture, mask, output,
                                             Int32(left - offset.x - anchor.x), Int32(top - offset.y - anchor.y), 0, 0,
                                             Int32(left), Int32(top), Int32(right - left), Int32(bottom - top))
                }
            }
        }
    }

    /// A surface of `width` × `height` (ARGB32, or A8 for coverage; cleared when `clearing`) over pixels kept
    /// between frames, one of each format (destroy it after use).
    func scratchSurface(width: Int, height: Int, clearing: Bool = true, format: cairo_format_t = CAIRO_FORMAT_ARGB32) -> OpaquePointer? {
        let scratch = keptScratch(width: width, height: height, format: format)
        cairo_surface_flush(scratch.surface)
        // Nil when the surface could not be made (out of memory): the caller draws nothing rather than crash.
        guard let data = cairo_image_surface_get_data(scratch.surface) else { return nil }
        let stride = cairo_image_surface_get_stride(scratch.surface)
        let rowBytes = format == CAIRO_FORMAT_A8 ? width : width * 4
        if clearing { for row in 0..<height { memset(data + row * Int(stride), 0, rowBytes) } }
        return cairo_image_surface_create_for_data(data, format, Int32(width), Int32(height), stride)
    }

    /// The kept pixels of `format` (ARGB32, or A8 for coverage), at least `width` × `height` (nothing to destroy).
    /// They stay valid until a call for the same format asks for more: then larger ones take their place, and a
    /// `scratchSurface` view of the old ones must not be alive.
    func keptScratch(width: Int, height: Int, format: cairo_format_t) -> ScratchSurface {
        let scratch = ScratchSurface.atLeast(format == CAIRO_FORMAT_A8 ? resampleScratch.coverage : resampleScratch.pixels,
                                             width: width, height: height, format: format)
        if format == CAIRO_FORMAT_A8 { resampleScratch.coverage = scratch } else { resampleScratch.pixels = scratch }
        return scratch
    }

    /// Marks in `resampleScratch.cells` (columns × rows of the target, `resampleCellSide` pixels a side) every cell that a
    /// bilinear sample of an inked picture cell can reach: the cell grown by a pixel and a half (a sample reads the
    /// pixels within one of it) and mapped by `matrix`, its box grown by a pixel for the transform's rounding.
    private func markResampleCells(_ cells: InkCells, matrix: cairo_matrix_t, offset: (x: Int, y: Int), width: Int, height: Int) {
        let side = Self.resampleCellSide
        let columns = (width + side - 1) / side, rows = (height + side - 1) / side
        resampleScratch.cells.removeAll(keepingCapacity: true)
        resampleScratch.cells.append(contentsOf: repeatElement(choices.resamplesEveryCell, count: columns * rows))
        guard !choices.resamplesEveryCell else { return }
        let pictureSide = Double(cells.side)
        for row in 0..<cells.rows {
            for column in 0..<cells.columns where cells[column, row] {
                let x1 = Double(column) * pictureSide - 1.5, x2 = Double(column + 1) * pictureSide + 1.5
                let y1 = Double(row) * pictureSide - 1.5, y2 = Double(row + 1) * pictureSide + 1.5
                let reach = matrix.boundingBox(of: BoundingBox(minX: x1, minY: y1, maxX: x2, maxY: y2))
                let (minX, minY, maxX, maxY) = (reach.minX, reach.minY, reach.maxX, reach.maxY)
                // Target pixels, clamped before conversion (a node far off-screen stays a finite, small number).
                func pixel(_ value: Double) -> Int { Int(max(-1e7, min(1e7, value))) }
                let left = max(0, pixel((minX - 1).rounded(.down)) + offset.x), right = min(width - 1, pixel((maxX + 1).rounded(.up)) + offset.x)
                let top = max(0, pixel((minY - 1).rounded(.down)) + offset.y), bottom = min(height - 1, pixel((maxY + 1).rounded(.up)) + offset.y)
                guard left <= right, top <= bottom else { continue }
                for cellRow in (top / side)...(bottom / side) {
                    for cellColumn in (left / side)...(right / side) { resampleScratch.cells[cellRow * columns + cellColumn] = true }
                }
            }
        }
    }
}

/// Storage a renderer keeps from picture to picture (nothing allocated per paint): the cells of the target a
/// resampled picture may reach, and the scratch pixels and coverage (`keptScratch`), which fills through a coverage
/// borrow too (GradientFill.swift).
struct ResampleScratch {
    var cells: [Bool] = []
    var pixels: ScratchSurface?
    var coverage: ScratchSurface?
}

/// A surface a renderer keeps for resampling and gradient fills (ARGB32 pixels, A8 coverage), grown as needed.
final class ScratchSurface {
    let surface: OpaquePointer
    let width: Int
    let height: Int
    /// A pixman image over all of the surface's pixels, made once (nil when the surface could not be made).
    let image: OpaquePointer?

    init(width: Int, height: Int, format: cairo_format_t) {
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(format, Int32(width), Int32(height))!
        image = FrameRenderer.pixmanImage(over: surface)
    }

    /// `kept` when it is at least `width` × `height`; else new pixels at least as large as both.
    static func atLeast(_ kept: ScratchSurface?, width: Int, height: Int, format: cairo_format_t) -> ScratchSurface {
        if let kept, kept.width >= width, kept.height >= height { return kept }
        return ScratchSurface(width: max(width, kept?.width ?? 0), height: max(height, kept?.height ?? 0), format: format)
    }

    deinit {
        if let image { pixman_image_unref(image) }
        cairo_surface_destroy(surface)
    }
}
