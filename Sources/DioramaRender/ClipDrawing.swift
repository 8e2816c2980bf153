import CCairo
import DioramaDocument
import DioramaTimeline

// Clip shapes. A node's clip applies after its blur and before its mask and shadow (NodeStyle's order).
// Without blur the content is simply drawn through a cairo clip (anti-aliased); with blur the layer is
// blurred whole, then everything outside the clip is cleared from it, so the blur ends at the clip's edge.

extension FrameRenderer {
    /// Draws the node's content through its clip shape, if it has one.
    func drawClippedContent(_ node: NodeSnapshot, alpha: Double, in cr: OpaquePointer) {
        guard let clip = node.clipShape else {
            drawContent(node, alpha: alpha, in: cr)
            return
        }
        if clipShapes.isEmpty { clipBase = wholePixelClip(cr) }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        clipShapes.append((clip, matrix))
        defer { clipShapes.removeLast() }
        cairo_save(cr)
        cairo_new_path(cr)
        addPath(clip, to: cr)
        // An empty outline clips everything away, as an empty clip shape should.
        cairo_clip(cr)
        drawContent(node, alpha: alpha, in: cr)
        cairo_restore(cr)
    }

    /// Draws with no clip shapes around: for content drawn into a context of its own (a layer, a silhouette), whose
    /// clip holds none of the target's shapes.
    func withoutClipShapes(_ body: () -> Void) {
        var outer: [(geometry: Geometry, matrix: cairo_matrix_t)] = []
        swap(&outer, &clipShapes)
        let outerBase = clipBase
        body()
        swap(&outer, &clipShapes)
        clipBase = outerBase
    }

    /// The context's clip as device rectangles of whole pixels, or nil when it is not that (a clip shape).
    func wholePixelClip(_ cr: OpaquePointer) -> [PixelRect]? {
        var rectangles: [PixelRect] = []
        return readWholePixelClip(cr, into: &rectangles) ? rectangles : nil
    }

    /// `wholePixelClip` into storage the caller keeps (emptied first); false when the clip is not whole pixels.
    func readWholePixelClip(_ cr: OpaquePointer, into rectangles: inout [PixelRect]) -> Bool {
        rectangles.removeAll(keepingCapacity: true)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        let list = cairo_copy_clip_rectangle_list(cr)
        cairo_restore(cr)
        guard let list else { return false }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return false }
        func whole(_ value: Double) -> Bool { value == value.rounded() && abs(value) < 1e6 }
        for rectangle in UnsafeBufferPointer(start: list.pointee.rectangles, count: Int(list.pointee.num_rectangles)) {
            guard whole(rectangle.x), whole(rectangle.y), whole(rectangle.width), whole(rectangle.height) else { return false }
            rectangles.append(PixelRect(x: Int(rectangle.x), y: Int(rectangle.y), width: Int(rectangle.width), height: Int(rectangle.height)))
        }
        return true
    }

    /// Clears what lies outside the outline (in the context's user space) from the context's target.
    func clearOutside(_ clip: Geometry, in cr: OpaquePointer) {
        cairo_save(cr)
        cairo_new_path(cr)
        addPath(clip, to: cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_IN)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// A box (in the node's own coordinates) holding everything the node paints before its blur and
    /// shadow spread it: its content's ink, cut to its clip's bounds. Nil when it paints nothing.
    func inkBounds(of node: NodeSnapshot) -> BoundingBox? {
        guard let ink = inkBounds(of: node.content, bounds: node.bounds) else { return nil }
        guard let clip = node.clipShape else { return ink }
        cairo_new_path(measuring)
        addPath(clip, to: measuring)
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_path_extents(measuring, &x1, &y1, &x2, &y2)
        cairo_new_path(measuring)
        let cut = BoundingBox(minX: max(ink.minX, x1), minY: max(ink.minY, y1), maxX: min(ink.maxX, x2), maxY: min(ink.maxY, y2))
        return cut.nonEmptyBox
    }
}
