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
        guard isPixelExact(target) else { return false }
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

        // One silhouette sample per sigma: a gaussian of one sample's deviation interpolates smoothly.
        let factor = max(1, min(16, Int(sigma)))
        let cellsX = (region.width + factor - 1) / factor + 2, cellsY = (region.height + factor - 1) / factor + 2
        // Cell (i, j) covers device pixels from region origin + (i - 1, j - 1) × factor.
        let originX = region.x - factor, originY = region.y - factor
        let grid = SilhouetteGrid(factor: factor, cellsX: cellsX, cellsY: cellsY, originX: originX, originY: originY)

        let shadowCells = silhouette(of: node, ctm: ctm, shift: offset, grid: grid)
        let coverCells = silhouette(of: node, ctm: ctm, shift: (0, 0), grid: grid)
        defer {
            cairo_surface_destroy(shadowCells)
            cairo_surface_destroy(coverCells)
        }
        guard let shadowAlpha = cairo_image_surface_get_data(shadowCells),
              let coverAlpha = cairo_image_surface_get_data(coverCells) else { return true }
        let rowBytes = Int(cairo_image_surface_get_stride(shadowCells))
        GaussianBlur.applyToAlpha(shadowAlpha, width: cellsX, height: cellsY, rowBytes: rowBytes, sigma: sigma / Double(factor))
        let hidden = grid.hiddenCells(cover: coverAlpha, rowBytes: rowBytes)
        defer { hidden.deallocate() }

        var deviceX = 0.0, deviceY = 0.0
        cairo_surface_get_device_offset(target, &deviceX, &deviceY)
        withPixels(of: target) { pixels, width, height, rowPixels in
            guard let area = PixelRect(x: visible.x + Int(deviceX), y: visible.y + Int(deviceY), width: visible.width,
                                       height: visible.height).intersection(PixelRect(x: 0, y: 0, width: width, height: height))
            else { return }
            grid.composite(shadowAlpha, rowBytes: rowBytes, hidden: hidden, color: shadow.color, into: pixels,
                           rowPixels: rowPixels, area: area, cellOrigin: (originX + Int(deviceX), originY + Int(deviceY)))
        }
        return true
    }

    /// The node's content drawn at 1/`factor` resolution into a new A8 surface of cells, shifted by `shift`
    /// device pixels.
    private func silhouette(of node: NodeSnapshot, ctm: cairo_matrix_t, shift: (x: Double, y: Double),
                            grid: SilhouetteGrid) -> OpaquePointer {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(grid.cellsX), Int32(grid.cellsY))!
        let cr = cairo_create(surface)!
        cairo_scale(cr, 1 / Double(grid.factor), 1 / Double(grid.factor))
        cairo_translate(cr, shift.x - Double(grid.originX), shift.y - Double(grid.originY))
        var matrix = ctm
        cairo_transform(cr, &matrix)
        drawContent(node, alpha: 1, in: cr)
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

    /// Cells whose whole 3×3 neighbourhood is fully covered by the content: their pixels are painted over
    /// by the content anyway, and no bilinear lookup near them reaches a partly covered cell.
    /// The caller deallocates the result.
    func hiddenCells(cover: UnsafeMutablePointer<UInt8>, rowBytes: Int) -> UnsafeMutablePointer<Bool> {
        let count = cellsX * cellsY
        let across = UnsafeMutablePointer<Bool>.allocate(capacity: count)
        defer { across.deallocate() }
        let hidden = UnsafeMutablePointer<Bool>.allocate(capacity: count)
        hidden.initialize(repeating: false, count: count)
        across.initialize(repeating: false, count: count)
        for j in 0..<cellsY {
            let row = cover + j * rowBytes, out = across + j * cellsX
            for i in 1..<max(1, cellsX - 1) {
                out[i] = row[i - 1] & row[i] & row[i + 1] == 255
            }
        }
        for j in 1..<max(1, cellsY - 1) {
            let above = across + (j - 1) * cellsX, here = across + j * cellsX, below = across + (j + 1) * cellsX
            let out = hidden + j * cellsX
            for i in 0..<cellsX { out[i] = above[i] && here[i] && below[i] }
        }
        return hidden
    }

    /// Paints `color` with the bilinearly enlarged cell alphas onto premultiplied ARGB32 pixels (OVER),
    /// inside `area` (pixels of the target), skipping hidden cells and cells with no shadow around them.
    func composite(_ alpha: UnsafeMutablePointer<UInt8>, rowBytes: Int, hidden: UnsafeMutablePointer<Bool>, color: Color,
                   into pixels: UnsafeMutablePointer<UInt32>, rowPixels: Int, area: PixelRect, cellOrigin: (x: Int, y: Int)) {
        // The premultiplied shadow colour at every coverage, and what it leaves of the pixel below.
        let a = min(max(color.alpha, 0), 1)
        var paint = [UInt32](repeating: 0, count: 256), keep = [UInt32](repeating: 0, count: 256)
        for coverage in 0..<256 {
            let k = a * Double(coverage) / 255
            func byte(_ v: Double) -> UInt32 { UInt32(min(max(v, 0), 1) * k * 255 + 0.5) }
            paint[coverage] = byte(1) << 24 | byte(color.red) << 16 | byte(color.green) << 8 | byte(color.blue)
            keep[coverage] = 255 - byte(1)
        }
        // Horizontal bilinear weights (1/256) of the pixel at offset u inside its cell: pixels left of the cell's
        // centre blend cells i - 1 and i, the others cells i and i + 1; `weights[u]` is the second cell's share.
        let half = factor / 2
        var weights = [UInt32](repeating: 0, count: factor)
        for u in 0..<factor {
            let position = (Double(u) + 0.5) / Double(factor) - 0.5
            weights[u] = UInt32(((position < 0 ? position + 1 : position) * 256).rounded())
        }
        paint.withUnsafeBufferPointer { paint in
        keep.withUnsafeBufferPointer { keep in
        weights.withUnsafeBufferPointer { weights in
            for y in area.y..<(area.y + area.height) {
                let j = (y - cellOrigin.y) / factor, v = (y - cellOrigin.y) - j * factor
                // Vertical blend of cell rows j0 and j0 + 1 with weight fy (1/256) for the second.
                let position = (Double(v) + 0.5) / Double(factor) - 0.5
                let j0 = min(max(position < 0 ? j - 1 : j, 0), cellsY - 2)
                let fy = weights[v], gy = 256 - fy
                let upper = alpha + j0 * rowBytes, lower = upper + rowBytes
                let hiddenRow = hidden + j * cellsX
                let row = pixels + y * rowPixels
                let end = area.x + area.width
                var i = (area.x - cellOrigin.x) / factor
                var cellStart = cellOrigin.x + i * factor
                while cellStart < end {
                    defer { i += 1; cellStart += factor }
                    if hiddenRow[i] { continue }
                    let left = max(i - 1, 0), right = min(i + 1, cellsX - 1)
                    // The three cell columns this cell's pixels blend, already blended vertically (in 1/256).
                    let a = UInt32(upper[left]) * gy + UInt32(lower[left]) * fy
                    let b = UInt32(upper[i]) * gy + UInt32(lower[i]) * fy
                    let c = UInt32(upper[right]) * gy + UInt32(lower[right]) * fy
                    if a | b | c == 0 { continue }
                    let first = max(cellStart, area.x), last = min(cellStart + factor, end)
                    for x in first..<last {
                        let u = x - cellStart, fx = weights[u]
                        let value = u < half ? a * (256 - fx) + b * fx : b * (256 - fx) + c * fx
                        let coverage = Int((value + 0x8000) >> 16)
                        guard coverage > 0 else { continue }
                        // OVER in two lanes of two channels, dividing by 255 exactly.
                        let d = row[x], k = keep[coverage]
                        var evens = (d & 0x00FF_00FF) &* k &+ 0x0080_0080
                        evens = ((evens &+ ((evens >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
                        var odds = ((d >> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080
                        odds = (odds &+ ((odds >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
                        row[x] = (evens | odds) &+ paint[coverage]
                    }
                }
            }
        }
        }
        }
    }
}
