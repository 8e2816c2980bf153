import CCairo
import DioramaDocument
import DioramaTimeline

// Occlusion: a top-level node that paints an opaque band across the whole width of the part being drawn, down to its
// bottom (a wave, a full-width rectangle), hides those rows of everything drawn before it. The still prefix is not
// copied there and the earlier nodes are drawn only above it, each as far down as the nodes after it leave visible.
// Only nodes whose pixels do not depend on the clip (`isClipSafe`) are cut so; a cut by rows is the cut bands and
// damage areas already make. Drawn pixels are unchanged: the occluder's covered pixels are its paint alone.

extension FrameRenderer {
    /// For `nodes` (top-level, drawn in order into `area` of a frame of `width` × `height` pixels showing `canvas`):
    /// the row above which the still prefix is needed, and for each node the row above which it is drawn. Nil when no
    /// node hides anything.
    func occlusion(of nodes: ArraySlice<NodeSnapshot>, in area: PixelRect, canvas: Size, width: Int, height: Int)
        -> (prefixBottom: Int, bottoms: [Int])? {
        guard choices.usesOcclusion, !nodes.isEmpty else { return nil }
        let placement = CanvasPlacement(canvas: canvas, outputWidth: width, outputHeight: height)
        guard placement.scale > 0 else { return nil }
        let ctm = placement.transform.cairoMatrix
        // Drawing is clipped to the canvas's whole pixels.
        let canvasBox = placement.pixelBox
        let bottom = area.y + area.height
        var floor = bottom
        var bottoms = [Int](repeating: bottom, count: nodes.count)
        // By index: enumerating the slice would copy every node.
        for offset in stride(from: nodes.count - 1, through: 0, by: -1) {
            bottoms[offset] = floor
            guard let cover = opaqueBand(of: nodes[nodes.startIndex + offset], ctm: ctm)?.intersection(canvasBox),
                  cover.x <= area.x, cover.x + cover.width >= area.x + area.width,
                  cover.y < floor, cover.y + cover.height >= floor else { continue }
            floor = max(cover.y, area.y)
        }
        guard floor < bottom else { return nil }
        statistics.occludedParts += 1
        // A node the clip could change is drawn over the whole area, unless hidden in all of it (the occluders drawn
        // after it cover its pixels in their rows all the same).
        for offset in bottoms.indices where bottoms[offset] > area.y && bottoms[offset] < bottom
            && !isClipSafe(nodes[nodes.startIndex + offset], parent: ctm) {
            bottoms[offset] = bottom
        }
        return (floor, bottoms)
    }

    /// The whole device pixels `node` covers with opaque paint whatever lies beneath (its own shadow too, which is
    /// drawn beneath its content), when that is plain to see: an opaque solid fill of an axis-aligned rectangle, or
    /// of a wave (an outline from its top-left corner along any curve to its top-right, then straight down, across
    /// and back up), whose rows below every point of the curve are covered from side to side (the curve passes over
    /// each of them once more left to right than right to left).
    func opaqueBand(of node: NodeSnapshot, ctm: cairo_matrix_t) -> PixelRect? {
        guard node.opacity >= 1, node.transform.isDrawable, node.blur <= 0, node.mask == nil,
              node.clipShape == nil, node.hueRotation == 0,
              case .shape(let shape) = node.content, case .solid(let color)? = shape.fill, color.alpha >= 1,
              shape.trimFrom <= 0, shape.trimTo >= 1 else { return nil }
        var nodeMatrix = node.transform.cairoMatrix, parent = ctm, matrix = cairo_matrix_t()
        cairo_matrix_multiply(&matrix, &nodeMatrix, &parent)
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx > 0, matrix.yy > 0 else { return nil }
        let band: (left: Double, top: Double, right: Double, bottom: Double)
        switch shape.geometry {
        case .rect(let rect, let cornerRadius) where cornerRadius <= 0 && rect.width > 0 && rect.height > 0:
            band = (rect.x, rect.y, rect.x + rect.width, rect.y + rect.height)
        case .path(let path):
            guard let wave = Self.waveBand(path) else { return nil }
            // Every point within reach in device space: cairo's fixed point would wrap a far one across the band.
            let reach = 1e6
            guard abs(matrix.xx * wave.leftmost + matrix.x0) < reach, abs(matrix.xx * wave.rightmost + matrix.x0) < reach,
                  abs(matrix.yy * wave.highest + matrix.y0) < reach else { return nil }
            band = (wave.left, wave.top, wave.right, wave.bottom)
        default:
            return nil
        }
        let left = (matrix.xx * band.left + matrix.x0).rounded(.up), right = (matrix.xx * band.right + matrix.x0).rounded(.down)
        let top = (matrix.yy * band.top + matrix.y0).rounded(.up), bottom = (matrix.yy * band.bottom + matrix.y0).rounded(.down)
        guard left.isFinite, right.isFinite, top.isFinite, bottom.isFinite,
              abs(left) < 1e6, abs(right) < 1e6, abs(top) < 1e6, abs(bottom) < 1e6, left < right, top < bottom else { return nil }
        return PixelRect(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
    }

    /// The rectangle below a wave's top edge: move to (L, y), any lines and curves ending at (R, y'), then lines to
    /// (R, B) and (L, B) and a close, with L < R and B below every other point; with the extremes of all its points.
    /// Nil for any other outline, or one with a point that is not finite.
    static func waveBand(_ path: PathData)
        -> (left: Double, top: Double, right: Double, bottom: Double, leftmost: Double, rightmost: Double, highest: Double)? {
        let commands = path.commands
        guard commands.count >= 5, case .move(let start) = commands[0], case .close = commands[commands.count - 1],
              case .line(let corner) = commands[commands.count - 3], case .line(let end) = commands[commands.count - 2]
        else { return nil }
        var lowest = start.y, highest = start.y, leftmost = start.x, rightmost = start.x
        var last = start
        var finite = start.x.isFinite && start.y.isFinite
        func visit(_ p: Point) {
            // min and max pass a NaN over: tested apart.
            finite = finite && p.x.isFinite && p.y.isFinite
            (lowest, highest) = (max(lowest, p.y), min(highest, p.y))
            (leftmost, rightmost) = (min(leftmost, p.x), max(rightmost, p.x))
        }
        for command in commands[1..<(commands.count - 3)] {
            switch command {
            case .line(let p): visit(p); last = p
            case .quad(let c, let p): visit(c); visit(p); last = p
            case .cubic(let c1, let c2, let p): visit(c1); visit(c2); visit(p); last = p
            case .move, .close: return nil
            }
        }
        guard finite, [corner.x, corner.y, end.x, end.y].allSatisfy(\.isFinite),
              last.x > start.x, corner.x == last.x, end.x == start.x, corner.y == end.y, corner.y > lowest else { return nil }
        return (start.x, lowest, last.x, corner.y, leftmost, rightmost, highest)
    }
}
