import CCairo
import DioramaDocument
import DioramaVectorArt
import Foundation

// Art brought from outside: SVG drawings drawn as vectors at the frame's resolution (rasterized once per
// size and scale, then reused), and PNG sprite sheets showing one cell.

extension FrameRenderer {
    /// Draws an SVG (or one element of it) fitted into the image's rect. The raster is made at the device
    /// scale the node is drawn at (rounded up a little, see `VectorArtRasterCache.quantizedScale`), so it is as
    /// sharp as the vectors at any output size and under scale animations; a raster too large to keep is
    /// replaced by drawing the vectors straight onto the frame.
    func drawVectorImage(_ image: ImageContent, alpha: Double, in cr: OpaquePointer) {
        let rect = image.rect
        guard rect.width > 0, rect.height > 0, let art = vectorArt(atPath: image.path) else { return }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        var deviceX = 1.0, deviceY = 1.0
        cairo_surface_get_device_scale(cairo_get_target(cr), &deviceX, &deviceY)
        let scale = max(hypot(ctm.xx, ctm.yx) * deviceX, hypot(ctm.xy, ctm.yy) * deviceY)
        let quantized = VectorArtRasterCache.quantizedScale(scale)
        guard quantized > 0 else { return }
        let key = VectorArtRasterCache.Key(path: resolvedImagePath(image.path), element: image.element,
                                           width: rect.width, height: rect.height, scale: quantized)
        let viewport = (x: 0.0, y: 0.0, width: rect.width, height: rect.height)
        if let raster = vectorRasters.raster(for: key, draw: { art.draw(in: $0, viewport: viewport, element: image.element) }) {
            guard raster.ink.width > 0 else { return }
            cairo_save(cr)
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, 1 / quantized, 1 / quantized)
            if paintResampled(raster, x: Double(raster.ink.x), y: Double(raster.ink.y), alpha: alpha, in: cr) {
                cairo_restore(cr)
                return
            }
            cairo_set_source_surface(cr, raster.surface, Double(raster.ink.x), Double(raster.ink.y))
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            // Only the inked part is painted: a part of a drawing is often a small piece of a large rectangle.
            cairo_rectangle(cr, Double(raster.ink.x), Double(raster.ink.y), Double(raster.ink.width), Double(raster.ink.height))
            cairo_clip(cr)
            if alpha < 1 { cairo_paint_with_alpha(cr, alpha) } else { cairo_paint(cr) }
            cairo_restore(cr)
            return
        }
        cairo_save(cr)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
        if alpha < 1 { cairo_push_group(cr) }
        art.draw(in: cr, viewport: (rect.x, rect.y, rect.width, rect.height), element: image.element)
        if alpha < 1 {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, alpha)
        }
        cairo_restore(cr)
    }

    /// The parsed SVG for a snapshot's image path, or nil (with a warning, once) when it is refused.
    func vectorArt(atPath path: String) -> VectorArt? {
        let resolved = resolvedImagePath(path)
        if let cached = vectorArt[resolved] { return cached }
        statistics.loadedDrawings += 1
        var art: VectorArt?
        do {
            art = try VectorArt.load(path: resolved, allowedRoot: imageDirectory?.standardizedFileURL.path)
        } catch {
            warnOnce("image \(resolved): \(error.reason); drawn as nothing")
        }
        vectorArt[resolved] = art
        return art
    }

    /// Cell `sheet.frame` of a sprite sheet as a sub-surface (the caller destroys it) with its size and its origin
    /// in the sheet, in pixels; nil (with a warning, once) when the grid does not divide the picture into whole pixels.
    func spriteCell(of sheet: OpaquePointer, sheet grid: SpriteSheet, path: String)
        -> (surface: OpaquePointer, width: Double, height: Double, x: Int, y: Int)? {
        let width = Int(cairo_image_surface_get_width(sheet)), height = Int(cairo_image_surface_get_height(sheet))
        guard width % grid.columns == 0, height % grid.rows == 0, width >= grid.columns, height >= grid.rows else {
            warnOnce("image \(resolvedImagePath(path)): \(width)x\(height) pixels do not divide into \(grid.columns) columns and \(grid.rows) rows; drawn as nothing")
            return nil
        }
        let cellWidth = width / grid.columns, cellHeight = height / grid.rows
        let frame = min(max(grid.frame, 0), grid.count - 1)
        let (column, row) = (frame % grid.columns, frame / grid.columns)
        let cell = cairo_surface_create_for_rectangle(sheet, Double(column * cellWidth), Double(row * cellHeight),
                                                      Double(cellWidth), Double(cellHeight))!
        return (cell, Double(cellWidth), Double(cellHeight), column * cellWidth, row * cellHeight)
    }
}
