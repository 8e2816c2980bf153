import CCairo
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
    func hasOnlyShadow(_ node: NodeSnapshot) -> Bool {
        node.shadow != nil && node.opacity >= 1 && node.hueRotation == 0 && node.blur <= 0 && node.mask == nil
    }

    /// Paints the node's shadow under where its content will go. Returns false when it cannot (the target
    /// is not an ARGB32 image), and the caller falls back to a layer.
    func drawShadowBeneath(_ node: NodeSnapshot, in cr: OpaquePointer) -> Bool {
        guard let shadow = node.shadow else { return true }
        let target = cairo_get_group_target(cr)!
        guard cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(target) == CAIRO_FORMAT_ARGB32 else { return false }
        guard shadow.color.alpha > 0, let ink = inkBounds(of: node.content, bounds: node.bounds),
              let clip = deviceClip(cr) else { return true }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        let sigma = GaussianBlur.sigma(forRadius: shadow.radius) * ctm.uniformScale
        let offset = (x: ctm.xx * shadow.x + ctm.xy * shadow.y, y: ctm.yx * shadow.x + ctm.yy * shadow.y)
        let contentBox = ctm.boundingBox(of: ink)
        let shadowBox = contentBox.offsetBy(offset.x, offset.y).insetBy(-GaussianBlur.reach(sigma: sigma) - 1)
        guard let visible = shadowBox.roundedOut.intersection(clip) else { return true }
        // The silhouette also covers content just outside the visible area whose shadow reaches into view.
        let margin = Int(GaussianBlur.reach(sigma: sigma).rounded(.up)) + 2
        guard let region = shadowBox.roundedOut.intersection(PixelRect(
            x: visible.x - margin, y: visible.y - margin, width: visible.width + 2 * margin, height: visible.height + 2 * margin))
        else { return true }

        // About one and a half silhouette samples per sigma: enough for a smooth shadow, cheap to blur.
        let factor = max(1, min(8, Int(sigma / 1.5)))
        let cellsX = (region.width + factor - 1) / factor + 2, cellsY = (region.height + factor - 1) / factor + 2
        // Cell (i, j) covers device pixels from region origin + (i - 1, j - 1) × factor.
        let originX = Double(region.x - factor), originY = Double(region.y - factor)

        let shadowCells = silhouette(of: node, ctm: ctm, shiftX: offset.x, shiftY: offset.y, originX: originX,
                                     originY: originY, factor: factor, cellsX: cellsX, cellsY: cellsY)
        let coverCells = silhouette(of: node, ctm: ctm, shiftX: 0, shiftY: 0, originX: originX, originY: originY,
                                    factor: factor, cellsX: cellsX, cellsY: cellsY)
        defer {
            cairo_surface_destroy(shadowCells)
            cairo_surface_destroy(coverCells)
        }
        withPixels(of: shadowCells) { pixels, width, height, rowPixels in
            GaussianBlur.apply(to: pixels, width: width, height: height, rowPixels: rowPixels,
                               sigma: sigma / Double(factor), reduced: false)
        }
        // A cell is hidden when it and its neighbours are fully covered by the content (erosion by one cell,
        // so bilinear lookups near an edge never skip a visible pixel).
        var hidden = [Bool](repeating: false, count: cellsX * cellsY)
        withPixels(of: coverCells) { pixels, _, _, rowPixels in
            for j in 1..<(cellsY - 1) {
                for i in 1..<(cellsX - 1) {
                    var full = true
                    for dj in -1...1 where full {
                        for di in -1...1 where pixels[(j + dj) * rowPixels + i + di] >> 24 != 255 { full = false; break }
                    }
                    hidden[j * cellsX + i] = full
                }
            }
        }

        var deviceX = 0.0, deviceY = 0.0
        cairo_surface_get_device_offset(target, &deviceX, &deviceY)
        let color = shadow.color
        let premultiplied = (a: min(max(color.alpha, 0), 1) * 255, r: color.red * color.alpha * 255,
                             g: color.green * color.alpha * 255, b: color.blue * color.alpha * 255)
        withPixels(of: target) { pixels, width, height, rowPixels in
            guard let area = PixelRect(x: visible.x + Int(deviceX), y: visible.y + Int(deviceY), width: visible.width,
                                       height: visible.height).intersection(PixelRect(x: 0, y: 0, width: width, height: height))
            else { return }
            cairo_surface_flush(shadowCells)
            let cells = UnsafeMutableRawPointer(cairo_image_surface_get_data(shadowCells)!).assumingMemoryBound(to: UInt32.self)
            let cellRow = Int(cairo_image_surface_get_stride(shadowCells)) / 4
            let scale = 1 / Double(factor)
            for y in area.y..<(area.y + area.height) {
                // Device y of this row relative to the cell origin, in cells, sampled at the pixel centre.
                let deviceRow = y - Int(deviceY)
                let cellY = (Double(deviceRow) + 0.5 - originY) * scale - 0.5
                let j0 = min(max(Int(cellY.rounded(.down)), 0), cellsY - 2)
                let fy = min(max(cellY - Double(j0), 0), 1)
                let coverJ = Int((Double(deviceRow) - originY) * scale)
                let row = pixels + y * rowPixels
                var x = area.x
                while x < area.x + area.width {
                    let deviceColumn = x - Int(deviceX)
                    let coverI = Int((Double(deviceColumn) - originX) * scale)
                    if coverI >= 0, coverI < cellsX, coverJ >= 0, coverJ < cellsY, hidden[coverJ * cellsX + coverI] {
                        // Skip to the next cell.
                        x = Int(originX) + (coverI + 1) * factor + Int(deviceX)
                        continue
                    }
                    let cellX = (Double(deviceColumn) + 0.5 - originX) * scale - 0.5
                    let i0 = min(max(Int(cellX.rounded(.down)), 0), cellsX - 2)
                    let fx = min(max(cellX - Double(i0), 0), 1)
                    let top = cells + j0 * cellRow + i0, bottom = top + cellRow
                    let coverage = (Double(top[0] >> 24) * (1 - fx) + Double(top[1] >> 24) * fx) * (1 - fy)
                        + (Double(bottom[0] >> 24) * (1 - fx) + Double(bottom[1] >> 24) * fx) * fy
                    if coverage >= 0.5 {
                        let k = coverage / 255
                        let sa = UInt32((premultiplied.a * k).rounded()), sr = UInt32((premultiplied.r * k).rounded())
                        let sg = UInt32((premultiplied.g * k).rounded()), sb = UInt32((premultiplied.b * k).rounded())
                        let keep = 255 - sa
                        let d = row[x]
                        @inline(__always) func over(_ s: UInt32, _ shift: UInt32) -> UInt32 {
                            min(255, s + ((d >> shift) & 0xFF) * keep / 255) << shift
                        }
                        row[x] = over(sa, 24) | over(sr, 16) | over(sg, 8) | over(sb, 0)
                    }
                    x += 1
                }
            }
        }
        return true
    }

    /// The node's content drawn at 1/`factor` resolution into a new ARGB32 surface of `cellsX`×`cellsY` cells,
    /// shifted by (`shiftX`, `shiftY`) device pixels; cell (0, 0) starts at device (`originX`, `originY`).
    private func silhouette(of node: NodeSnapshot, ctm: cairo_matrix_t, shiftX: Double, shiftY: Double,
                            originX: Double, originY: Double, factor: Int, cellsX: Int, cellsY: Int) -> OpaquePointer {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(cellsX), Int32(cellsY))!
        let cr = cairo_create(surface)!
        cairo_scale(cr, 1 / Double(factor), 1 / Double(factor))
        cairo_translate(cr, shiftX - originX, shiftY - originY)
        var matrix = ctm
        cairo_transform(cr, &matrix)
        drawContent(node, alpha: 1, in: cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return surface
    }

    /// Paints the group's silhouette in `color`, blurred and offset (device pixels), beneath the group
    /// (inside a layer, for nodes whose opacity or effects apply to content and shadow together).
    func drawShadow(under group: OpaquePointer, color: Color, sigma: Double, offset: (x: Double, y: Double),
                    in cr: OpaquePointer) {
        cairo_surface_flush(group)
        let width = Int(cairo_image_surface_get_width(group)), height = Int(cairo_image_surface_get_height(group))
        let shadow = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(shadow) }
        var deviceX = 0.0, deviceY = 0.0
        cairo_surface_get_device_offset(group, &deviceX, &deviceY)
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
