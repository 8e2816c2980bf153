import CCairo
import DioramaTimeline
import DioramaVectorArt
import Foundation

// Siblings drawn on several threads: each sibling a clip would change into a frame-sized layer of its own (the same
// clip and transform as the target's, so cairo computes exactly the same pixels), on the threads at once; then, in
// bands of rows on the threads, the layers composited and the other siblings drawn, in order.
//
// Why that is byte-identical to drawing the siblings one over the other: a sibling that composites onto its target
// exactly once (one fill or stroke, or one paint of its own layer) gives each pixel d' = s + d × (1 − αs), with s
// its source already through its coverage and alpha. Drawn on a cleared layer it leaves exactly s there (d = 0),
// and the layer painted over the target without a mask gives s + d × (1 − αs) again, rounded the same way.
// A sibling that composites more than once (a fill and a stroke, text runs, a shadow beneath) is not split: 8-bit
// compositing is not associative. Nor is an opaque fill or stroke: cairo draws it as a blend by its coverage,
// rounded once, where the layer would round twice.

extension FrameRenderer {
    /// Draws `nodes` in order; when the helpers are free, runs of two or more that a clip leaves alone or that
    /// composite once are drawn on the threads (the latter in layers).
    func drawSiblings(_ nodes: ArraySlice<NodeSnapshot>, in cr: OpaquePointer) {
        guard threads > 1, helpersIdle, nodes.count >= 2, mayDrawInLayers(cr) else {
            for node in nodes { draw(node, in: cr) }
            return
        }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        var start = nodes.startIndex
        while start < nodes.endIndex {
            var end = start
            while end < nodes.endIndex, compositesOnce(nodes[end], parent: ctm) || isClipSafe(nodes[end], parent: ctm) { end += 1 }
            if end - start >= 2, drawInLayers(nodes[start..<end], in: cr) {
                start = end
                continue
            }
            let stop = max(end, start + 1)
            for node in nodes[start..<stop] { draw(node, in: cr) }
            start = stop
        }
    }

    /// False inside clip shapes, and when the context's clip holds too little of its target for any run of siblings in
    /// it to be worth layers (see `smallestLayeredShare`): then not even the siblings' footprints are worked out.
    private func mayDrawInLayers(_ cr: OpaquePointer) -> Bool {
        // Inside clip shapes (even one on whole pixels), this renderer draws through the shapes' coverage; helpers,
        // which do not hold them, would draw otherwise.
        guard clipShapes.isEmpty, let target = cairo_get_group_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              let clip = deviceClip(cr) else { return false }
        let area = Double(cairo_image_surface_get_width(target)) * Double(cairo_image_surface_get_height(target))
        return Double(clip.area) >= area * smallestLayeredShare
    }

    /// True when drawing `node` under `parent` composites onto its target at most once (see the note above);
    /// conservative.
    func compositesOnce(_ node: NodeSnapshot, parent: cairo_matrix_t) -> Bool {
        guard node.opacity > 0, node.transform.isDrawable else { return true }
        var nodeMatrix = node.transform.cairoMatrix, parent = parent, matrix = cairo_matrix_t()
        cairo_matrix_multiply(&matrix, &nodeMatrix, &parent)
        switch painting(of: node) {
        case .layer: return true
        case .shadowBeneath: return false
        case .straight: break
        }
        switch node.content {
        case .group(let children):
            return children.filter { $0.opacity > 0 && $0.transform.isDrawable }.count <= 1
                && children.allSatisfy { compositesOnce($0, parent: matrix) }
        case .shape(let shape):
            // Drawn with alpha: an opaque paint would be composited as a blend (s × c + d × (1 − c), rounded once).
            return node.opacity < 1 && (shape.fill == nil || shape.stroke == nil || shape.stroke!.width <= 0)
        case .image(let image):
            // A drawing's cached raster, painted once through the image's outline (its pixels have alpha: never
            // an opaque source). Pictures may be opaque, and a drawing too large to cache is drawn as vectors.
            guard image.isVector, image.rect.width > 0, image.rect.height > 0 else { return false }
            let quantized = VectorArtRasterCache.quantizedScale(max(hypot(matrix.xx, matrix.yx), hypot(matrix.xy, matrix.yy)))
            let bytes = Int((image.rect.width * quantized).rounded(.up)) * Int((image.rect.height * quantized).rounded(.up)) * 4
            return quantized > 0 && bytes <= vectorRasters.capacity
        case .text, .particles, .lottie, .page, .projected:
            return false
        }
    }

    /// Draws `nodes` (each compositing once) in layers on the threads; false (nothing drawn) when the target or
    /// its clip is not one a layer can copy exactly.
    private func drawInLayers(_ nodes: ArraySlice<NodeSnapshot>, in cr: OpaquePointer) -> Bool {
        guard let target = cairo_get_group_target(cr), target == cairo_get_target(cr), isPixelExact(target) else { return false }
        var offsetX = 0.0, offsetY = 0.0
        cairo_surface_get_device_offset(target, &offsetX, &offsetY)
        guard offsetX == 0, offsetY == 0 else { return false }
        // The clip in device space: rectangles on whole pixels (a clip shape is not representable: drawn in order).
        guard let rectangles = wholePixelClip(cr), !rectangles.isEmpty else { return false }
        guard let clip = deviceClip(cr) else { return true }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        let nodes = Array(nodes)
        let boxes = nodes.map { footprint(of: $0, ctm: ctm).box?.intersection(clip) }
        // Only nodes a clip would change get layers; the others are drawn straight onto the target in bands.
        let layered = nodes.indices.filter { boxes[$0] != nil && !isClipSafe(nodes[$0], parent: ctm) }
        guard !layered.isEmpty, nodes.indices.contains(where: { boxes[$0] != nil && !layered.contains($0) }) || layered.count >= 2
        else { return false }
        let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
        let layers = layers(count: layered.count, width: width, height: height)
        let hue = paintHue
        /// A context over `surface` clipped as `cr` is, and to `band` when given.
        func context(on surface: OpaquePointer, band: PixelRect?) -> OpaquePointer {
            let context = cairo_create(surface)!
            for rectangle in rectangles {
                cairo_rectangle(context, Double(rectangle.x), Double(rectangle.y), Double(rectangle.width), Double(rectangle.height))
            }
            cairo_clip(context)
            if let band {
                cairo_rectangle(context, Double(band.x), Double(band.y), Double(band.width), Double(band.height))
                cairo_clip(context)
            }
            var matrix = ctm
            cairo_set_matrix(context, &matrix)
            return context
        }
        onThreads(layered.count) { renderer, index in
            let node = nodes[layered[index]], box = boxes[layered[index]]!, layer = layers[index]
            // Cleared where the node may paint; the rest of the layer is never composited.
            cairo_surface_flush(layer)
            let data = cairo_image_surface_get_data(layer)!, stride = Int(cairo_image_surface_get_stride(layer))
            for y in box.y..<(box.y + box.height) {
                (data + y * stride + box.x * 4).initialize(repeating: 0, count: box.width * 4)
            }
            cairo_surface_mark_dirty(layer)
            let layerContext = context(on: layer, band: nil)
            renderer.frameBounds = PixelRect(x: 0, y: 0, width: width, height: height)
            renderer.paintHue = hue
            renderer.draw(node, in: layerContext)
            renderer.paintHue = 0
            cairo_destroy(layerContext)
            cairo_surface_flush(layer)
        }
        // In order, in bands of rows: the layers painted over the target (a copy through a pixel-aligned clip,
        // exact in any band), and the clip-safe nodes drawn (exact in any band by definition).
        cairo_surface_flush(target)
        let pixels = cairo_image_surface_get_data(target)!, stride = cairo_image_surface_get_stride(target)
        let bands = Self.pieces(of: clip, count: threads * 2)
        onThreads(bands.count) { renderer, band in
            let surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), stride)!
            let bandContext = context(on: surface, band: bands[band])
            renderer.paintHue = hue
            for index in nodes.indices {
                if let layer = layered.firstIndex(of: index) {
                    let box = boxes[index]!
                    cairo_save(bandContext)
                    cairo_identity_matrix(bandContext)
                    cairo_rectangle(bandContext, Double(box.x), Double(box.y), Double(box.width), Double(box.height))
                    cairo_clip(bandContext)
                    cairo_set_source_surface(bandContext, layers[layer], 0, 0)
                    cairo_paint(bandContext)
                    cairo_restore(bandContext)
                } else if boxes[index] != nil {
                    renderer.draw(nodes[index], in: bandContext)
                }
            }
            renderer.paintHue = 0
            cairo_destroy(bandContext)
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
        cairo_surface_mark_dirty(target)
        paintHue = hue
        statistics.layeredRuns += 1
        return true
    }

    /// `count` layers of the target's size (kept for the next frame).
    private func layers(count: Int, width: Int, height: Int) -> [OpaquePointer] {
        if let first = siblingLayers.first,
           Int(cairo_image_surface_get_width(first)) != width || Int(cairo_image_surface_get_height(first)) != height {
            for layer in siblingLayers { cairo_surface_destroy(layer) }
            siblingLayers = []
        }
        while siblingLayers.count < count {
            siblingLayers.append(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!)
        }
        return Array(siblingLayers.prefix(count))
    }
}
