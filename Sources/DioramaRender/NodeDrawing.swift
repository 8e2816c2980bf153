import CCairo
import CPixman
import DioramaDocument
import DioramaTimeline
import DioramaVectorArt
import Foundation

// Where a node becomes pixels: the tree walk, layers and their effects.
//
// Invariant the layer and particle code relies on: every clip set on a context is a rectangle
// aligned to device pixels (the canvas letterbox and layer regions), so `deviceClip` is exact, except
// inside a node's clip shape: there `deviceClip` is the clip's bounding box (enough to size layers), and
// particles are drawn as paths, which cairo clips.

extension FrameRenderer {
    /// Draws one node (and its subtree) with the context's current transform as its parent's space.
    func draw(_ node: NodeSnapshot, in cr: OpaquePointer) {
        guard node.opacity > 0, node.transform.isDrawable, !fillWithoutSaving(node, in: cr) else { return }
        cairo_save(cr)
        var matrix = node.transform.cairoMatrix
        cairo_transform(cr, &matrix)
        // Hue rotation is linear in premultiplied colour and leaves alpha alone, so rotating every paint
        // of the subtree equals rotating its layer (up to clamping), with no layer. Images need the layer.
        let outerHue = paintHue
        let hue = layerHue(of: node)
        if hue != node.hueRotation { paintHue += node.hueRotation }
        switch painting(of: node) {
        case .straight:
            drawClippedContent(node, alpha: min(node.opacity, 1), in: cr)
        case .shadowBeneath:
            if drawShadowBeneath(node, shadowHue: outerHue, in: cr) {
                drawClippedContent(node, alpha: 1, in: cr)
            } else {
                drawLayer(node, shadowHue: outerHue, in: cr)
            }
        case .layer:
            var effects = node
            effects.hueRotation = hue
            drawLayer(effects, shadowHue: outerHue, in: cr)
        }
        paintHue = outerHue
        cairo_restore(cr)
    }

    /// Fills a leaf shape that our own code fills whole (a solid fill, no stroke or trim, no clip shape, painted
    /// straight) without cairo_save, cairo_transform and cairo_restore, which cost more than filling a small shape:
    /// its matrix is worked out here, as cairo_transform would. False, with nothing drawn, when `draw` must.
    private func fillWithoutSaving(_ node: NodeSnapshot, in cr: OpaquePointer) -> Bool {
        guard choices.fillsLeavesWithoutSaving, case .shape(let shape) = node.content, case .solid(let fill)? = shape.fill,
              (shape.stroke?.width ?? 0) <= 0, node.clipShape == nil, clipShapes.isEmpty,
              painting(of: node) == .straight else { return false }
        var parent = cairo_matrix_t(), nodeMatrix = node.transform.cairoMatrix, matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &parent)
        cairo_matrix_multiply(&matrix, &nodeMatrix, &parent)
        // cairo_transform fails the context when the product is not invertible (its determinant, as cairo works it
        // out, zero or not finite): the usual way meets that failure.
        let determinant = matrix.xx * matrix.yy - matrix.yx * matrix.xy
        guard determinant.isFinite, determinant != 0,
              case .scanConverted? = route(of: shape, bounds: node.bounds, matrix: matrix, clipped: false).fill else { return false }
        // A shape holds no image: its paint takes the node's hue rotation, as in `draw`.
        let outerHue = paintHue
        paintHue += node.hueRotation
        defer { paintHue = outerHue }
        guard fillSolid(fill, geometry: shape.geometry, alpha: min(node.opacity, 1), placed: matrix, in: cr) else { return false }
        statistics.leavesFilledWithoutSaving += 1
        return true
    }

    /// How `draw` paints a node: its content straight (its opacity as alpha), with a quick shadow beneath, or through
    /// a layer that takes its effects. Asked of every node drawn and measured, without copying it.
    enum NodePainting {
        case straight, shadowBeneath, layer
    }

    func painting(of node: NodeSnapshot) -> NodePainting {
        let hue = layerHue(of: node)
        guard node.opacity < 1 || hue != 0 || node.blur > 0 || node.shadow != nil || node.mask != nil,
              !canDrawWithoutLayer(node, hue: hue) else { return .straight }
        return hasOnlyShadow(node, hue: hue) ? .shadowBeneath : .layer
    }

    /// The hue rotation a layer of the node applies: none when the node has no images, whose paints take it instead
    /// (see `draw`).
    func layerHue(of node: NodeSnapshot) -> Double {
        node.hueRotation != 0 && !node.content.containsImage ? 0 : node.hueRotation
    }

    /// Opacity alone on a leaf that paints once (a fill or a stroke, text, an image) looks the same
    /// drawn with alpha as through a layer, and costs far less. `hue`: the layer's hue rotation (`layerHue`).
    func canDrawWithoutLayer(_ node: NodeSnapshot, hue: Double) -> Bool {
        guard hue == 0, node.blur <= 0, node.shadow == nil, node.mask == nil else { return false }
        switch node.content {
        case .shape(let shape): return shape.fill == nil || shape.stroke == nil
        case .text, .image, .lottie, .page: return true
        case .group, .particles, .projected: return false
        }
    }

    func drawContent(_ node: NodeSnapshot, alpha: Double, in cr: OpaquePointer) {
        switch node.content {
        case .group(let children):
            drawSiblings(children[...], in: cr)
        case .shape(let shape):
            drawShape(shape, bounds: node.bounds, alpha: alpha, in: cr)
        case .text(let text):
            drawText(text, bounds: node.bounds, alpha: alpha, in: cr)
        case .particles(let particles):
            var matrix = cairo_matrix_t()
            cairo_get_matrix(cr, &matrix)
            drawParticles(particles, alpha: alpha, way: route(of: node, matrix: matrix, clipped: !clipShapes.isEmpty).fill, in: cr)
        case .image(let image):
            drawImage(image, alpha: alpha, in: cr)
        case .lottie(let lottie):
            drawLottie(lottie, alpha: alpha, in: cr)
        case .page(let page):
            drawPage(node, page, alpha: alpha, in: cr)
        case .projected(let projection, let inner):
            drawProjected(inner, through: projection, in: cr)
        }
    }

    // MARK: Layers

    /// Pixels, the widest or tallest layer that holds a node together with its shadow: past it (cairo cannot make
    /// images past 32767 pixels a side, and a shadow cast a million points away asked for one), the shadow is made
    /// from a layer of its own (`drawLayer`).
    static let maximumLayerSide = 8192

    /// Draws the node into an offscreen group no larger than its visible ink (plus the reach of its
    /// blur and shadow), applies hue rotation, blur, mask and shadow to that group's pixels, then
    /// composites it once with the node's opacity.
    private func drawLayer(_ node: NodeSnapshot, shadowHue: Double, in cr: OpaquePointer) {
        guard let ink = inkBounds(of: node) else { return }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        let pixelsPerPoint = ctm.uniformScale
        let blurSigma = GaussianBlur.sigma(forRadius: node.blur) * pixelsPerPoint
        let blurReach = GaussianBlur.reach(sigma: blurSigma)
        var region = ctm.boundingBox(of: ink).insetBy(-blurReach)
        var shadowSigma = 0.0, shadowOffset = (x: 0.0, y: 0.0)
        if let shadow = node.shadow {
            shadowSigma = GaussianBlur.sigma(forRadius: shadow.radius) * pixelsPerPoint
            // The offset is in the node's space, like the blur radius.
            shadowOffset = (ctm.xx * shadow.x + ctm.xy * shadow.y, ctm.yx * shadow.x + ctm.yy * shadow.y)
            let shadowRegion = region.offsetBy(shadowOffset.x, shadowOffset.y)
                .insetBy(-GaussianBlur.reach(sigma: shadowSigma))
            region = region.union(shadowRegion)
        }
        guard let clip = deviceClip(cr), let visible = region.roundedOut.intersection(clip) else { return }
        // The layer also holds content just outside the visible area that its blur or shadow spreads into view.
        let blurMargin = Int(blurReach.rounded(.up))
        let shadowReach = node.shadow == nil ? 0 : GaussianBlur.reach(sigma: shadowSigma)
        let margin = Int((blurReach + (node.shadow == nil ? 0 : shadowReach
            + max(abs(shadowOffset.x), abs(shadowOffset.y)))).rounded(.up))
        let reachable = PixelRect(x: clip.x - margin, y: clip.y - margin, width: clip.width + 2 * margin,
                                  height: clip.height + 2 * margin)
        guard var work = region.roundedOut.intersection(reachable) else { return }
        // A shadow cast far (an offset wider than a layer can be) is made from a layer of its own, around the part
        // of the node whose shadow falls in view; the node's layer then holds only what shows of the node itself.
        var farShadow = false
        if work.width > Self.maximumLayerSide || work.height > Self.maximumLayerSide, node.shadow != nil {
            let near = PixelRect(x: clip.x - blurMargin, y: clip.y - blurMargin, width: clip.width + 2 * blurMargin,
                                 height: clip.height + 2 * blurMargin)
            guard let nearWork = region.roundedOut.intersection(near) else { return }
            work = nearWork
            farShadow = true
        }

        // Without blur, mask or pixel hue, nothing changes the content before its shadow: the quick shadow
        // can go into the layer first (opacity then applies to both, as SwiftUI does).
        let shadowFirst = node.shadow != nil && blurSigma == 0 && node.mask == nil && node.hueRotation == 0 && !farShadow
        // The clip comes after the blur: a blurred node is clipped once its pixels are blurred.
        let clipAfterBlur = blurSigma > 0 ? node.clipShape : nil
        // Cut before the shadow, so the shadow is the clipped silhouette's: in the layer, at its resolution.
        // Without a shadow the cut waits for compositing, where it is made at full resolution.
        let clipInLayer = node.shadow != nil ? clipAfterBlur : nil
        // A wide blur cannot tell a reduced layer from a full one: draw it small, blur it small, enlarge it
        // while compositing (bilinear), which costs a fraction of blurring at full size.
        let factor = blurSigma > 0 ? GaussianBlur.reductionFactor(sigma: blurSigma) : 1
        let scale = 1 / Double(factor)

        /// The node drawn over `work` into a layer of its own, with its hue, blur, clip shape and mask (and the quick
        /// shadow first, when `quickShadow`), with a context drawing into it; nil where cairo cannot make a layer that
        /// large (past 32767 pixels a side, or out of memory: an error surface, without pixels).
        func makeLayer(over work: PixelRect, quickShadow: Bool) -> (layer: OpaquePointer, context: OpaquePointer)? {
            // An explicit surface rather than cairo_push_group, whose group cannot reach past the target's edges.
            let layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32((work.width + factor - 1) / factor + 1),
                                                   Int32((work.height + factor - 1) / factor + 1))!
            guard cairo_surface_status(layer) == CAIRO_STATUS_SUCCESS else {
                cairo_surface_destroy(layer)
                return nil
            }
            if factor > 1 { cairo_surface_set_device_scale(layer, scale, scale) }
            cairo_surface_set_device_offset(layer, Double(-work.x) * scale, Double(-work.y) * scale)
            let layerContext = cairo_create(layer)!
            // A clip of the whole layer (in device units: a reduced layer's pixels are `factor` of them), so that its
            // clip is a list of rectangles as every other context's is.
            cairo_rectangle(layerContext, Double(work.x), Double(work.y), Double(Int(cairo_image_surface_get_width(layer)) * factor),
                            Double(Int(cairo_image_surface_get_height(layer)) * factor))
            cairo_clip(layerContext)
            cairo_set_matrix(layerContext, &ctm)
            if quickShadow { quickShadowDrawn = drawShadowBeneath(node, shadowHue: shadowHue, in: layerContext) }
            withoutClipShapes {
                if clipAfterBlur != nil { drawContent(node, alpha: 1, in: layerContext) } else { drawClippedContent(node, alpha: 1, in: layerContext) }
            }
            if node.hueRotation != 0 || blurSigma > 0 {
                withPixels(of: layer) { pixels, width, height, rowPixels in
                    if node.hueRotation != 0 {
                        HueRotation.apply(to: pixels, width: width, height: height, rowPixels: rowPixels,
                                          degrees: node.hueRotation)
                    }
                    if blurSigma > 0 {
                        GaussianBlur.apply(to: pixels, width: width, height: height, rowPixels: rowPixels,
                                           sigma: GaussianBlur.reducedSigma(blurSigma, factor: factor), reduced: false)
                    }
                }
            }
            if let clip = clipInLayer { clearOutside(clip, in: layerContext) }
            if let mask = node.mask, !maskLayer(layer, with: mask, bounds: node.bounds, ctm: ctm, origin: work, factor: factor) {
                let pattern = makePattern(mask, bounds: node.bounds, alpha: 1, hue: 0)
                cairo_set_operator(layerContext, CAIRO_OPERATOR_DEST_IN)
                cairo_set_source(layerContext, pattern)
                cairo_paint(layerContext)
                cairo_pattern_destroy(pattern)
                cairo_set_operator(layerContext, CAIRO_OPERATOR_OVER)
            }
            return (layer, layerContext)
        }

        var quickShadowDrawn = false
        guard let (layer, layerContext) = makeLayer(over: work, quickShadow: shadowFirst) else { return }
        defer { cairo_surface_destroy(layer) }
        if let shadow = node.shadow, shadow.color.alpha > 0, !quickShadowDrawn {
            if !farShadow {
                drawShadow(under: layer, color: shadow.color.hueRotated(by: shadowHue), sigma: shadowSigma * scale, offset: shadowOffset,
                           in: layerContext)
            } else {
                // The node's own pixels whose shadow reaches the layer, wherever the node lies.
                let reach = blurMargin + Int(shadowReach.rounded(.up)) + 1
                let source = PixelRect(x: work.x - Int(shadowOffset.x.rounded(.down)) - reach, y: work.y - Int(shadowOffset.y.rounded(.down)) - reach,
                                       width: work.width + 2 * reach + 1, height: work.height + 2 * reach + 1)
                // Room around the ink for the shadow's blur to spread into, as the node's own layer has, in whole
                // reduced pixels: a reduced layer then samples the node on the same grid as one layer of it would.
                let inked = ctm.boundingBox(of: ink).insetBy(-blurReach).roundedOut
                let room = (Int(shadowReach.rounded(.up)) + 1 + factor - 1) / factor * factor
                let casting = PixelRect(x: inked.x - room, y: inked.y - room, width: inked.width + 2 * room, height: inked.height + 2 * room)
                if let shadowWork = casting.intersection(source),
                   let (caster, casterContext) = makeLayer(over: shadowWork, quickShadow: false) {
                    cairo_destroy(casterContext)
                    drawShadow(under: caster, color: shadow.color.hueRotated(by: shadowHue), sigma: shadowSigma * scale, offset: shadowOffset,
                               in: layerContext)
                    cairo_surface_destroy(caster)
                }
            }
        }
        cairo_destroy(layerContext)
        cairo_surface_flush(layer)

        var opacity = node.opacity
        if factor > 1, opacity < 1 {
            // A reduced layer is enlarged as it is painted: with the opacity as a mask, pixman takes its general
            // path; with the opacity applied to the few reduced pixels first, its bilinear fast path.
            // As cairo takes a paint's alpha: to 16 bits, rounded, then the top 8.
            let strength = UInt32(min(max(opacity, 0), 1) * 65535 + 0.5) >> 8
            withPixels(of: layer) { pixels, width, height, rowPixels in
                for y in 0..<height {
                    let row = pixels + y * rowPixels
                    for x in 0..<width { row[x] = Self.multiply(row[x], by: strength) }
                }
            }
            opacity = 1
        }
        if factor > 1, clipInLayer != nil || clipAfterBlur == nil,
           paintReducedLayer(layer, origin: (work.x, work.y), factor: factor, within: visible, in: cr) { return }

        cairo_save(cr)
        if clipInLayer == nil, let clip = clipAfterBlur {
            cairo_new_path(cr)
            addPath(clip, to: cr)
            cairo_clip(cr)
        }
        cairo_identity_matrix(cr)
        cairo_rectangle(cr, Double(visible.x), Double(visible.y), Double(visible.width), Double(visible.height))
        cairo_clip(cr)
        cairo_set_source_surface(cr, layer, 0, 0)
        if factor > 1 { cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR) }
        if opacity < 1 { cairo_paint_with_alpha(cr, opacity) } else { cairo_paint(cr) }
        cairo_restore(cr)
    }

    /// Paints a reduced layer (its pixel (0, 0) at device pixel `origin`, each of its pixels `factor` device pixels a
    /// side) over `visible` with pixman straight onto the target, when the clip is whole pixels, and only within a
    /// reduced pixel of its ink: a wide blur's layer reaches further than its tail shows, and its enlarging was half
    /// the flower's breath (up to 240,000 pixels a frame). Its transform depends on the layer's place alone
    /// (`pixmanTransform`), never on the part painted: cairo's takes an offset from the middle of what it paints,
    /// so that its samples moved by a rounding when that changed. False, with nothing painted, when cairo must.
    func paintReducedLayer(_ layer: OpaquePointer, origin: (x: Int, y: Int), factor: Int, within visible: PixelRect,
                           in cr: OpaquePointer) -> Bool {
        let scale = Double(factor)
        guard choices.paintsReducedLayersWithPixman,
              let placement = Self.pixmanTransform(cairo_matrix_t(xx: scale, yx: 0, xy: 0, yy: scale, x0: Double(origin.x), y0: Double(origin.y)))
        else { return false }
        var area = visible
        if choices.tightensReducedLayers {
            // A pixel's bilinear sample reads the two reduced pixels on either side of its centre, across and down:
            // beyond a reduced pixel of the ink both are transparent, and OVER leaves the pixel be.
            let ink = VectorArtRasterCache.inkBounds(of: layer)
            guard ink.width > 0, let inked = visible.intersection(PixelRect(
                x: origin.x + (ink.x - 1) * factor, y: origin.y + (ink.y - 1) * factor,
                width: (ink.width + 2) * factor, height: (ink.height + 2) * factor)) else { return true }
            area = inked
        }
        // pixman's source coordinates are 16.16 fixed point: within ±32767 of the anchor (a blur reaching further is
        // cairo's to paint).
        let (anchorX, anchorY) = placement.anchor
        guard area.x - anchorX > -32000, area.x + area.width - anchorX < 32000,
              area.y - anchorY > -32000, area.y + area.height - anchorY < 32000,
              let picture = Self.pixmanImage(over: layer) else { return false }
        defer { pixman_image_unref(picture) }
        var transform = placement.transform
        pixman_image_set_transform(picture, &transform)
        pixman_image_set_filter(picture, PIXMAN_FILTER_BILINEAR, nil, 0)
        // Source coordinates are device pixels from the anchor, which the transform maps into the layer.
        guard paintOver(picture, at: placement.anchor, mask: nil, at: (0, 0), within: area, in: cr) else { return false }
        statistics.reducedLayersPaintedByPixman += 1
        return true
    }

    /// Multiplies the layer's pixels by a linear or radial gradient's alpha evaluated by `GradientGeometry`, as
    /// cairo's DEST_IN paint would, but only where the layer holds paint (a swing's rope is a thin line across a tall
    /// layer: pixman evaluated the gradient over all of it, most of a frame's cost). False, with nothing done, when
    /// cairo's pattern must: a reduced layer, or a gradient `GradientGeometry` leaves to cairo.
    private func maskLayer(_ layer: OpaquePointer, with mask: Paint, bounds: Rect, ctm: cairo_matrix_t, origin: PixelRect,
                           factor: Int) -> Bool {
        var inverse = ctm
        guard factor == 1, choices.evaluatesGradients, cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS,
              let geometry = GradientGeometry(mask, bounds: bounds, userToDevice: ctm) else { return false }
        GradientRamp.fill(&coverageScratch.ramp, stops: geometry.stops, alpha: 1, hue: 0, count: geometry.rampCount)
        statistics.evaluatedGradientMasks += 1
        withPixels(of: layer) { pixels, width, height, rowPixels in
            coverageScratch.ramp.withUnsafeBufferPointer { ramp in
                geometry.mask(pixels, rowPixels: rowPixels, area: PixelRect(x: origin.x, y: origin.y, width: width, height: height),
                              deviceToUser: inverse, ramp: ramp)
            }
        }
        return true
    }

    /// True when one unit of the surface's device space is one of its pixels (not a reduced layer), so
    /// pixels may be written directly at device positions.
    func isPixelExact(_ surface: OpaquePointer) -> Bool {
        var sx = 0.0, sy = 0.0
        cairo_surface_get_device_scale(surface, &sx, &sy)
        return sx == 1 && sy == 1 && cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE
            && cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
    }

    /// Gives direct access to an image surface's premultiplied pixels, then tells cairo they changed.
    func withPixels(of surface: OpaquePointer,
                    _ body: (UnsafeMutablePointer<UInt32>, _ width: Int, _ height: Int, _ rowPixels: Int) -> Void) {
        guard cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32 else { return }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        body(UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
             Int(cairo_image_surface_get_width(surface)), Int(cairo_image_surface_get_height(surface)),
             Int(cairo_image_surface_get_stride(surface)) / 4)
        cairo_surface_mark_dirty(surface)
    }

    /// The current clip in device pixels (exact for the device-aligned rectangles; a clip shape's bounding box).
    func deviceClip(_ cr: OpaquePointer) -> PixelRect? {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        cairo_identity_matrix(cr)
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        cairo_set_matrix(cr, &matrix)
        return BoundingBox(minX: x1, minY: y1, maxX: x2, maxY: y2).roundedOut.nonEmpty
    }

    // MARK: Ink bounds

    /// A box (in the node's own coordinates) that holds everything the content paints, or nil if it paints nothing.
    func inkBounds(of content: SnapshotContent, bounds: Rect) -> BoundingBox? {
        switch content {
        case .group(let children):
            var union: BoundingBox?
            // Each leaf's box under its own placement: a turned group's box turned again grows at every level (the
            // gears' fan, its spinning blades each turned, measured a box past its cage, which its turn in depth made
            // 745 pixels tall at 1280x720 where the fan is 290).
            for child in children where child.opacity > 0 && child.transform.isDrawable {
                guard let placed = deviceInk(of: child, matrix: child.transform.cairoMatrix) else { continue }
                union = union.map { $0.union(placed) } ?? placed
            }
            return union
        case .shape(let shape):
            guard shape.fill != nil || shape.stroke != nil else { return nil }
            cairo_new_path(measuring)
            addPath(shape.geometry, to: measuring)
            var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
            cairo_path_extents(measuring, &x1, &y1, &x2, &y2)
            cairo_new_path(measuring)
            var box = BoundingBox(minX: x1, minY: y1, maxX: x2, maxY: y2)
            if let stroke = shape.stroke, stroke.width > 0 {
                box = box.insetBy(-stroke.reach)
            }
            return box.maxX >= box.minX && box.maxY >= box.minY && (shape.stroke != nil || box.nonEmptyBox != nil) ? box : nil
        case .text(let text):
            let layout = textLayouts.layout(for: text)
            let origin = layout.origin(for: text)
            return layout.inkBox.offsetBy(origin.x, origin.y)
        case .particles(let particles):
            var box: BoundingBox?
            for particle in particles.particles where particle.alpha > 0 && particle.radius > 0 {
                let reach = particle.radius * 1.5
                let one = BoundingBox(minX: particle.position.x - reach, minY: particle.position.y - reach,
                                      maxX: particle.position.x + reach, maxY: particle.position.y + reach)
                box = box.map { $0.union(one) } ?? one
            }
            return box
        case .image(let image):
            return BoundingBox(image.rect).nonEmptyBox
        case .lottie(let lottie):
            return BoundingBox(lottie.rect).nonEmptyBox
        case .page(let page):
            return BoundingBox(Rect(x: 0, y: 0, width: page.canvas.width, height: page.canvas.height)).nonEmptyBox
        case .projected(let projection, let inner):
            // Where the turned drawing lands: its ink (and its effects' reach) through the projection.
            guard let ink = inkBounds(of: inner)?.insetBy(-inner.effectReach),
                  let box = projection.boundingBox(of: Rect(x: ink.minX, y: ink.minY, width: ink.maxX - ink.minX,
                                                            height: ink.maxY - ink.minY)) else { return nil }
            return BoundingBox(box).insetBy(-1)
        }
    }
}

extension SnapshotContent {
    var containsImage: Bool {
        switch self {
        case .image, .lottie: true
        case .group(let children): children.contains { $0.content.containsImage }
        case .shape, .text, .particles: false
        // A page's hue is its own scene's business.
        case .page: false
        case .projected(_, let inner): inner.content.containsImage
        }
    }
}

extension NodeSnapshot {
    /// How far (in the node's own points) blur and shadow spread paint beyond the content's ink.
    var effectReach: Double {
        var reach = GaussianBlur.reach(sigma: GaussianBlur.sigma(forRadius: blur))
        if let shadow {
            reach += GaussianBlur.reach(sigma: GaussianBlur.sigma(forRadius: shadow.radius))
                + max(abs(shadow.x), abs(shadow.y))
        }
        return reach
    }
}

extension Transform2D {
    var cairoMatrix: cairo_matrix_t {
        cairo_matrix_t(xx: a, yx: b, xy: c, yy: d, x0: tx, y0: ty)
    }

    /// Finite and invertible: SwiftUI draws nothing for a view scaled to zero, and cairo would fail.
    var isDrawable: Bool {
        let determinant = a * d - b * c
        return [a, b, c, d, tx, ty].allSatisfy(\.isFinite) && abs(determinant) > 1e-12
    }
}

extension cairo_matrix_t {
    /// The length a point becomes in device pixels, for uniform or nearly uniform scales.
    var uniformScale: Double { abs(xx * yy - xy * yx).squareRoot() }

    func apply(_ x: Double, _ y: Double) -> (Double, Double) {
        (xx * x + xy * y + x0, yx * x + yy * y + y0)
    }

    func boundingBox(of box: BoundingBox) -> BoundingBox {
        // Without arrays: this runs for every node of every frame.
        let a = apply(box.minX, box.minY), b = apply(box.maxX, box.minY)
        let c = apply(box.minX, box.maxY), d = apply(box.maxX, box.maxY)
        return BoundingBox(minX: min(a.0, b.0, c.0, d.0), minY: min(a.1, b.1, c.1, d.1),
                           maxX: max(a.0, b.0, c.0, d.0), maxY: max(a.1, b.1, c.1, d.1))
    }
}

/// An axis-aligned box by its edges, in whatever space the caller says.
struct BoundingBox: Equatable {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    /// Every edge finite (written out: an array of them would be allocated on every call).
    var isFinite: Bool { minX.isFinite && minY.isFinite && maxX.isFinite && maxY.isFinite }

    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
    }

    init(_ rect: Rect) {
        self.init(minX: min(rect.x, rect.x + rect.width), minY: min(rect.y, rect.y + rect.height),
                  maxX: max(rect.x, rect.x + rect.width), maxY: max(rect.y, rect.y + rect.height))
    }

    var nonEmptyBox: BoundingBox? { maxX > minX && maxY > minY ? self : nil }

    func insetBy(_ amount: Double) -> BoundingBox {
        BoundingBox(minX: minX + amount, minY: minY + amount, maxX: maxX - amount, maxY: maxY - amount)
    }

    func offsetBy(_ x: Double, _ y: Double) -> BoundingBox {
        BoundingBox(minX: minX + x, minY: minY + y, maxX: maxX + x, maxY: maxY + y)
    }

    func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(minX: min(minX, other.minX), minY: min(minY, other.minY),
                    maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// The smallest whole-pixel rectangle holding the box (clamped to a sane range).
    var roundedOut: PixelRect {
        func clamp(_ v: Double) -> Int { Int(min(max(v, -1_000_000), 1_000_000)) }
        let x = clamp(minX.rounded(.down)), y = clamp(minY.rounded(.down))
        return PixelRect(x: x, y: y, width: clamp(maxX.rounded(.up)) - x, height: clamp(maxY.rounded(.up)) - y)
    }
}

/// A rectangle of whole device pixels.
struct PixelRect: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    var nonEmpty: PixelRect? { width > 0 && height > 0 ? self : nil }

    /// The rows of this rectangle above row `bottom` (none when it is at or above the top).
    func rows(above bottom: Int) -> PixelRect {
        PixelRect(x: x, y: y, width: width, height: max(0, min(height, bottom - y)))
    }

    func intersection(_ other: PixelRect) -> PixelRect? {
        let x1 = max(x, other.x), y1 = max(y, other.y)
        let x2 = min(x + width, other.x + other.width), y2 = min(y + height, other.y + other.height)
        return PixelRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1).nonEmpty
    }
}
