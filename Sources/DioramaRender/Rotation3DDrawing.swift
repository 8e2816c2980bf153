import CCairo
import DioramaDocument
import DioramaTimeline
import Foundation

// A node turned in depth (`rotation3D`, SwiftUI's rotation3DEffect): its drawing, with its opacity and effects, is
// made into a layer of its own at the resolution it is seen at (vectors flattened there, as SwiftUI draws a view
// before it projects it), then that layer is resampled through the projective map (bilinear, dividing by w per
// pixel: `resampleRun`). The map from device pixels to the layer is
// fixed by the node's placement alone, never by the clip, so a pixel depends on its position only: the node can be
// drawn in bands and damage areas like any other.

extension FrameRenderer {
    /// The most a layer is enlarged beyond the node's own resolution where the projection brings it near the eye.
    static let projectedLayerZoom = 1.5

    /// Draws `inner` (placed by no transform of its own) through `projection`, under the context's matrix and clip.
    func drawProjected(_ inner: NodeSnapshot, through projection: Projection3D, in cr: OpaquePointer) {
        guard inner.opacity > 0, let inverse = projection.inverted,
              let ink = inkBounds(of: inner)?.insetBy(-inner.effectReach).nonEmptyBox, ink.isFinite else { return }
        let inkRect = Rect(x: ink.minX, y: ink.minY, width: ink.maxX - ink.minX, height: ink.maxY - ink.minY)
        let visible = projection.visiblePart(of: inkRect)
        guard visible.count >= 3 else { return }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)

        // Where the visible part lands in device pixels, and how much the map stretches along x and along y of the
        // node there (device pixels per point: the Jacobian's columns, largest at a corner, where w is extreme).
        var device: BoundingBox?
        var stretch = (x: 0.0, y: 0.0)
        let m = projection.m
        for point in visible {
            let w = max(projection.weight(of: point), Projection3D.nearest)
            let (u, v) = (m[0] * point.x + m[1] * point.y + m[2], m[3] * point.x + m[4] * point.y + m[5])
            let (dx, dy) = ctm.apply(u / w, v / w)
            let one = BoundingBox(minX: dx, minY: dy, maxX: dx, maxY: dy)
            device = device.map { $0.union(one) } ?? one
            for (column, axis) in [(0, 0), (1, 1)] {
                let du = (m[column] * w - u * m[6 + column]) / (w * w), dv = (m[3 + column] * w - v * m[6 + column]) / (w * w)
                let length = hypot(ctm.xx * du + ctm.xy * dv, ctm.yx * du + ctm.yy * dv)
                if axis == 0 { stretch.x = max(stretch.x, length) } else { stretch.y = max(stretch.y, length) }
            }
        }
        guard let device, device.isFinite, let clip = deviceClip(cr) else { return }
        let whole = device.insetBy(-1).roundedOut
        guard whole.intersection(clip) != nil else { return }
        // All of it is made, whatever the clip (most often it is all of it: a turned node is not cut by damage areas
        // or bands), and kept for the frames that show it again.
        // The same drawing turned the same way on the same pixels (a turned fan's still cage, frame after frame) is
        // the picture made last time: it depends on its place alone.
        let key = ProjectedPictures.Key(inner: inner, projection: projection, ctm: [ctm.xx, ctm.yx, ctm.xy, ctm.yy, ctm.x0, ctm.y0],
                                        hue: paintHue, whole: whole)
        if let kept = projectedPictures.picture(for: key) {
            statistics.keptProjections += 1
            paintProjected(kept, at: whole, in: cr)
            return
        }

        // The layer: the ink at the resolution the projection shows it at along each axis (a node turned about y
        // is narrowed across and enlarged down its near edge), at most `projectedLayerZoom` times its own.
        let base = ctm.uniformScale
        let side = Double(Self.maximumLayerSide - 2)
        // Never below a quarter of the node's own resolution: a page seen nearly edge-on keeps some detail.
        let sx = min(max(min(stretch.x, base * Self.projectedLayerZoom), base / 4), side / max(inkRect.width, 1e-9))
        let sy = min(max(min(stretch.y, base * Self.projectedLayerZoom), base / 4), side / max(inkRect.height, 1e-9))
        guard sx.isFinite, sy.isFinite, sx > 0, sy > 0 else { return }
        let width = Int((inkRect.width * sx).rounded(.up)) + 2, height = Int((inkRect.height * sy).rounded(.up)) + 2
        guard let layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(layer) == CAIRO_STATUS_SUCCESS else { return }
        defer { cairo_surface_destroy(layer) }
        let pen = cairo_create(layer)!
        // Layer pixel = (own − ink's corner) × (sx, sy) + 1.
        let (shiftX, shiftY) = (1 - ink.minX * sx, 1 - ink.minY * sy)
        cairo_translate(pen, shiftX, shiftY)
        cairo_scale(pen, sx, sy)
        // The ancestors' clip shapes cut the projected result (on `cr`), not the flat drawing.
        let outerClips = clipShapes
        clipShapes = []
        draw(inner, in: pen)
        clipShapes = outerClips
        if visible.count != 4 || zip(visible, [Point(x: ink.minX, y: ink.minY), Point(x: ink.maxX, y: ink.minY),
                                                Point(x: ink.maxX, y: ink.maxY), Point(x: ink.minX, y: ink.maxY)])
            .contains(where: { $0.0 != $0.1 }) {
            // What turns too near the eye (or behind it) is cut away: the rect less the visible polygon, cleared.
            cairo_set_operator(pen, CAIRO_OPERATOR_CLEAR)
            cairo_set_fill_rule(pen, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_rectangle(pen, ink.minX - 1, ink.minY - 1, inkRect.width + 2, inkRect.height + 2)
            cairo_move_to(pen, visible[0].x, visible[0].y)
            for point in visible.dropFirst() { cairo_line_to(pen, point.x, point.y) }
            cairo_close_path(pen)
            cairo_fill(pen)
        }
        cairo_destroy(pen)
        cairo_surface_flush(layer)

        // Device pixel (relative to `whole`'s corner, the whole pixel at the node's device corner: fixed by the
        // placement alone) -> own point -> layer pixel.
        var deviceToUser = ctm
        guard cairo_matrix_invert(&deviceToUser) == CAIRO_STATUS_SUCCESS else { return }
        let fromDevice = [deviceToUser.xx, deviceToUser.xy, deviceToUser.x0 + deviceToUser.xx * Double(whole.x) + deviceToUser.xy * Double(whole.y),
                          deviceToUser.yx, deviceToUser.yy, deviceToUser.y0 + deviceToUser.yx * Double(whole.x) + deviceToUser.yy * Double(whole.y),
                          0, 0, 1]
        let toLayer = [sx, 0, shiftX, 0, sy, shiftY, 0, 0, 1]
        var map = Self.product(toLayer, Self.product(inverse, fromDevice))
        // The same map times any positive factor (w stays positive where the drawing faces the eye): scaled so that
        // the largest undivided vector (x·w, y·w, w), at the corners of the picture, is 1.
        let corners = [(0.5, 0.5), (Double(whole.width) - 0.5, 0.5), (0.5, Double(whole.height) - 0.5),
                       (Double(whole.width) - 0.5, Double(whole.height) - 0.5)]
        var largest = map.reduce(0) { max($0, abs($1)) }
        for (x, y) in corners {
            largest = max(largest, abs(map[0] * x + map[1] * y + map[2]), abs(map[3] * x + map[4] * y + map[5]),
                          abs(map[6] * x + map[7] * y + map[8]))
        }
        guard largest.isFinite, largest > 0 else { return }
        map = map.map { $0 / largest }

        guard let scratch = projectedPictures.surface(for: key) else { return }
        guard let layerData = cairo_image_surface_get_data(layer), let scratchData = cairo_image_surface_get_data(scratch) else { return }
        let layerPixels = UnsafeRawPointer(layerData).assumingMemoryBound(to: UInt32.self)
        let layerRow = Int(cairo_image_surface_get_stride(layer)) / 4
        let scratchPixels = UnsafeMutableRawPointer(scratchData).assumingMemoryBound(to: UInt32.self)
        let scratchRow = Int(cairo_image_surface_get_stride(scratch)) / 4
        // Row by row, only the run of pixels that land inside the layer with w above 0 (what lands elsewhere shows
        // nothing, and a pixel behind the eye has no place at all).
        let (layerWidth, layerHeight) = (Double(width), Double(height))
        for row in 0..<whole.height {
            let y = Double(row) + 0.5
            // Each bound as α·x + β >= 0 for the pixel centre x (relative to `whole`'s corner).
            let wSlope = map[6], wBase = map[7] * y + map[8]
            let xSlope = map[0], xBase = map[1] * y + map[2], ySlope = map[3], yBase = map[4] * y + map[5]
            let margin = 0.05
            let bounds = [(wSlope, wBase - 1e-9),
                          (xSlope - margin * wSlope, xBase - margin * wBase), ((layerWidth - margin) * wSlope - xSlope, (layerWidth - margin) * wBase - xBase),
                          (ySlope - margin * wSlope, yBase - margin * wBase), ((layerHeight - margin) * wSlope - ySlope, (layerHeight - margin) * wBase - yBase)]
            var low = 0.5, high = Double(whole.width) - 0.5
            for (alpha, beta) in bounds {
                if alpha > 0 { low = max(low, -beta / alpha) } else if alpha < 0 { high = min(high, -beta / alpha) } else if beta < 0 { high = -.infinity }
            }
            guard low <= high, low.isFinite, high.isFinite else { continue }
            let first = Int((low - 0.5).rounded(.up)), last = Int((high - 0.5).rounded(.down))
            guard first <= last else { continue }
            Self.resampleRun(layerPixels, rowPixels: layerRow, width: width, height: height, map: map, y: y,
                             columns: first...last, into: scratchPixels + row * scratchRow)
        }
        cairo_surface_mark_dirty(scratch)
        paintProjected(scratch, at: whole, in: cr)
    }

    /// Paints a turned drawing's picture, whose top left is the device pixel at `whole`'s, through the clip.
    private func paintProjected(_ picture: OpaquePointer, at whole: PixelRect, in cr: OpaquePointer) {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, picture, Double(whole.x), Double(whole.y))
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Writes the pixels `columns` of a row at `y` (pixel centres, relative to the picture's corner) through `map` (device
    /// pixel to layer pixel, projective), each the bilinear mean of the four layer pixels about where it lands
    /// (premultiplied, with 8-bit weights; pixels beyond the layer count as clear), into `output[column]`.
    /// Here rather than through pixman: its projective fetch took each pixel through its general path in fixed point,
    /// about 150 ns a pixel (13 ms of the gears scene's 23 at 1280x720).
    private static func resampleRun(_ layer: UnsafePointer<UInt32>, rowPixels: Int, width: Int, height: Int, map: [Double],
                                    y: Double, columns: ClosedRange<Int>, into output: UnsafeMutablePointer<UInt32>) {
        /// A pixel's channels in lanes of 32 bits (blue and red; green and alpha), so that weighted sums do not carry.
        @inline(__always) func lanes(_ x: Int, _ y: Int) -> (UInt64, UInt64) {
            guard x >= 0, y >= 0, x < width, y < height else { return (0, 0) }
            let p = UInt64(layer[y &* rowPixels &+ x])
            return ((p & 0xFF) | (p >> 16 & 0xFF) << 32, (p >> 8 & 0xFF) | (p >> 24 & 0xFF) << 32)
        }
        let (m0, m3, m6) = (map[0], map[3], map[6])
        let (xRow, yRow, wRow) = (map[1] * y + map[2], map[4] * y + map[5], map[7] * y + map[8])
        let half: UInt64 = 0x0000_8000_0000_8000, bytes: UInt64 = 0x0000_00FF_0000_00FF
        for column in columns {
            let x = Double(column) + 0.5
            let reciprocal = 1 / (m6 * x + wRow)
            // The runs land within the layer (a margin beyond it at most), so u and v lie above −1: shifted by 1024,
            // truncation is the floor, and a fraction times 256 plus a half truncates to its rounding.
            let u = (m0 * x + xRow) * reciprocal + 1023.5, v = (m3 * x + yRow) * reciprocal + 1023.5
            let (uFloor, vFloor) = (Int(u), Int(v))
            let left = uFloor &- 1024, top = vFloor &- 1024
            let across = UInt64((u - Double(uFloor)) * 256 + 0.5), down = UInt64((v - Double(vFloor)) * 256 + 0.5)
            // Weights summing to 65536: each lane's sum stays under 2^24.
            let (w00, w10) = ((256 &- across) &* (256 &- down), across &* (256 &- down))
            let (w01, w11) = ((256 &- across) &* down, across &* down)
            let (a0, a1) = lanes(left, top), (b0, b1) = lanes(left &+ 1, top)
            let (c0, c1) = lanes(left, top &+ 1), (d0, d1) = lanes(left &+ 1, top &+ 1)
            let blueRed = (a0 &* w00 &+ b0 &* w10 &+ c0 &* w01 &+ d0 &* w11 &+ half) >> 16 & bytes
            let greenAlpha = (a1 &* w00 &+ b1 &* w10 &+ c1 &* w01 &+ d1 &* w11 &+ half) >> 16 & bytes
            output[column] = UInt32(truncatingIfNeeded: blueRed | blueRed >> 16 | greenAlpha << 8 | greenAlpha >> 8)
        }
    }

    /// `a`·`b` for row-major 3 × 3 matrices.
    static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let (row, column) = (index / 3, index % 3)
            return a[row * 3] * b[column] + a[row * 3 + 1] * b[3 + column] + a[row * 3 + 2] * b[6 + column]
        }
    }
}

/// The pictures of the last few turned drawings, each made whole: what a drawing turned in depth looked like where it
/// was, kept while it stays the same (a still part of a scene turned in depth costs one paint a frame, not a layer and
/// a resample). Bounded: a few pictures, each no larger than its drawing on the frame, a 4K frame's pixels in all.
final class ProjectedPictures {
    struct Key: Equatable {
        var inner: NodeSnapshot
        var projection: Projection3D
        var ctm: [Double]
        var hue: Double
        var whole: PixelRect
    }

    /// How many pictures are kept, most recently used last: the turned drawings of one scene, and at most a 4K
    /// frame's pixels in all (a card turned over a whole screen makes a new frame-sized picture every frame).
    static let capacity = (pictures: 6, pixels: 3840 * 2160)
    private var entries: [(key: Key, surface: OpaquePointer)] = []

    deinit {
        for entry in entries { cairo_surface_destroy(entry.surface) }
    }

    /// The picture made for `key`, when one was and is whole.
    func picture(for key: Key) -> OpaquePointer? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.surface
    }

    /// A clear surface the size of `key.whole` to make its picture in, kept as `key`'s in place of the least recently
    /// used picture; nil when cairo cannot make one.
    func surface(for key: Key) -> OpaquePointer? {
        var pixels = entries.reduce(key.whole.area) { $0 + $1.key.whole.area }
        while let oldest = entries.first, entries.count >= Self.capacity.pictures || pixels > Self.capacity.pixels {
            pixels -= oldest.key.whole.area
            cairo_surface_destroy(oldest.surface)
            entries.removeFirst()
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(key.whole.width), Int32(key.whole.height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        entries.append((key, surface))
        return surface
    }
}
