import CCairo
import CPixman

/// pixman images a renderer keeps from fill to fill, so that painting through pixman makes none (each made one or two
/// allocations: the kaleidoscope's fills made two thirds of its 341 a frame). Images are lent: the caller neither
/// unrefs them nor passes them to a `pixman_image_set_*` (a clip, transform, filter or repeat would stay for the
/// next caller); an image to change is made with `FrameRenderer.pixmanImage(over:)`.
final class PixmanImages {
    /// Images over the pixels of image surfaces, most recently used first: the frame's target and a layer or two.
    private var targets: [(key: SurfaceKey, image: OpaquePointer)] = []
    private var solids: [UInt32: OpaquePointer] = [:]
    static let keptTargets = 4
    /// Colours of solid fills kept at most; all are let go beyond (colours that change every frame).
    static let keptSolids = 256
    /// Images made so far (tests).
    private(set) var made = 0

    /// What an image over a surface's pixels depends on: an image over freed pixels is only ever lent again for a
    /// surface with the same pixels, which it then shows.
    private struct SurfaceKey: Equatable {
        let data: UnsafeMutableRawPointer
        let width: Int32, height: Int32, stride: Int32
        let format: cairo_format_t
    }

    /// A pixman image over all the pixels of the image surface `surface` (`FrameRenderer.pixmanImage(over:)`).
    func over(_ surface: OpaquePointer) -> OpaquePointer? {
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let key = SurfaceKey(data: UnsafeMutableRawPointer(data), width: cairo_image_surface_get_width(surface),
                             height: cairo_image_surface_get_height(surface), stride: cairo_image_surface_get_stride(surface),
                             format: cairo_image_surface_get_format(surface))
        if let index = targets.firstIndex(where: { $0.key == key }) {
            if index > 0 { targets.insert(targets.remove(at: index), at: 0) }
            return targets[0].image
        }
        guard let image = FrameRenderer.pixmanImage(over: surface) else { return nil }
        made += 1
        if targets.count == Self.keptTargets { pixman_image_unref(targets.removeLast().image) }
        targets.insert((key, image), at: 0)
        return image
    }

    /// A pixman solid fill of the premultiplied ARGB32 `pixel` (`FrameRenderer.pixmanSolidFill`).
    func solid(_ pixel: UInt32) -> OpaquePointer? {
        if let image = solids[pixel] { return image }
        guard let image = FrameRenderer.pixmanSolidFill(pixel) else { return nil }
        made += 1
        if solids.count == Self.keptSolids {
            for image in solids.values { pixman_image_unref(image) }
            solids.removeAll(keepingCapacity: true)
        }
        solids[pixel] = image
        return image
    }

    deinit {
        for target in targets { pixman_image_unref(target.image) }
        for image in solids.values { pixman_image_unref(image) }
    }
}

extension FrameRenderer {
    /// pixman's OVER of `source` (its pixel (0, 0) at device pixel `sourceAt`) through `mask` (its pixel (0, 0) at
    /// `maskAt`; nil: none) onto `output`, the image over a target whose pixels are device pixels + `offset`, within
    /// each of `parts` cut to `area` (device pixels).
    static func compositeOver(_ source: OpaquePointer, at sourceAt: (x: Int, y: Int), mask: OpaquePointer?, at maskAt: (x: Int, y: Int),
                              onto output: OpaquePointer, offset: (x: Int, y: Int), parts: [PixelRect], within area: PixelRect) {
        for part in parts {
            guard let cut = part.intersection(area) else { continue }
            pixman_image_composite32(PIXMAN_OP_OVER, source, mask, output, Int32(cut.x - sourceAt.x), Int32(cut.y - sourceAt.y),
                                     Int32(cut.x - maskAt.x), Int32(cut.y - maskAt.y), Int32(cut.x + offset.x), Int32(cut.y + offset.y),
                                     Int32(cut.width), Int32(cut.height))
        }
    }

    /// `compositeOver` straight onto the context's target within `area` (device pixels) and the context's clip, when
    /// our own code may paint there as cairo would (`ownPaintTarget`) and the clip is whole pixels (`readClip`). False,
    /// with nothing painted, when cairo must.
    func paintOver(_ source: OpaquePointer, at sourceAt: (x: Int, y: Int), mask: OpaquePointer?, at maskAt: (x: Int, y: Int),
                   within area: PixelRect, in cr: OpaquePointer) -> Bool {
        guard let (target, offset, _) = ownPaintTarget(cr), readClip(cr, into: &fillScratch.parts) else { return false }
        let surface = PixelRect(x: -offset.x, y: -offset.y, width: Int(cairo_image_surface_get_width(target)),
                                height: Int(cairo_image_surface_get_height(target)))
        guard let drawn = area.intersection(surface) else { return true }
        guard let output = pixmanImages.over(target) else { return false }
        cairo_surface_flush(target)
        Self.compositeOver(source, at: sourceAt, mask: mask, at: maskAt, onto: output, offset: offset, parts: fillScratch.parts, within: drawn)
        // In device units: cairo adds the surface's offset itself.
        cairo_surface_mark_dirty_rectangle(target, Int32(drawn.x), Int32(drawn.y), Int32(drawn.width), Int32(drawn.height))
        return true
    }
}
