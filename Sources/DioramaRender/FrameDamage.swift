import CCairo
import DioramaDocument
import DioramaLottie
import DioramaTimeline
import DioramaVectorArt
import Foundation

// Damage: a frame is the last frame with only the areas of top-level nodes that changed drawn again (the still
// prefix copied into each area, then every later node that reaches into it, clipped to it).
//
// Why that is byte-identical to drawing the whole frame: cairo and pixman compute a pixel of a solid fill,
// undashed stroke, text run, particle or pixel-aligned image from the geometry alone, so a clip of whole rows only
// chooses which pixels are written (cairo's dashes leave out what lies beyond the clip: a dashed stroke is ours or
// goes through a coverage, StrokeOutline.swift, or it is clip dependent); so for images resampled by ImageDrawing+Resample.swift, gradient fills evaluated
// by GradientFill.swift and, inside clip shapes, solid fills and strokes painted through a coverage there (whatever the
// clip, rows or sides); solid fills and strokes scan-converted by SolidFill.swift are exact across a clip's sides too.
// A clip's left or right side is another matter for
// cairo's fills: on the rows where an outline crosses that side, edge pixels further along can come out a level
// apart (measured: of 189 random circles cut by an area's top and side, 2 differed, on 2 pixels by 1; cut by rows
// alone, none did). So an area that reaches a node across its side widens to the node's whole width. Not so for
// gradients cairo draws (angular, or with a hard stop), images shrunk below 0.75 (cairo filters them), blur and
// shadow: cairo hands pixman a pattern transform relative to the centre of the area drawn, and layers take their
// origin and reduced grid from the visible area. A node with any of these ("clip dependent") is therefore never cut
// by a damage area: an area that reaches it grows to hold all of it.

/// What of a frame is drawn again: disjoint areas of the canvas.
struct Damage: Equatable {
    /// Areas drawn as the still prefix and every later node that reaches them.
    var areas: [PixelRect]
    /// Areas that only sprites reach (`NodeFootprint.parts`): the still prefix and the emitters' sprites, with no
    /// context set up for each (`drawSpritePieces`).
    var spritePieces: [PixelRect] = []

    var all: [PixelRect] { areas + spritePieces }
}

/// Where a top-level node paints on the output, and whether a clip can cut it without changing its pixels.
struct NodeFootprint: Equatable {
    /// Device pixels that hold everything the node paints (ink, stroke reach, blur and shadow), conservatively;
    /// nil when it paints nothing.
    var box: PixelRect?
    /// True when any pixel-aligned clip leaves the node's pixels inside the clip exactly as drawn unclipped.
    var clipSafe: Bool
    /// For an emitter whose particles are sprites drawn straight onto the frame: the device pixels each particle
    /// paints, one box a particle. A sprite's pixels come from its place alone, whatever whole-pixel clip cuts it,
    /// sides included, so its damage is these boxes (snow falling over a whole frame changes a few percent of it).
    var parts: [PixelRect]? = nil
}

extension PixelRect {
    func union(_ other: PixelRect) -> PixelRect {
        let x1 = min(x, other.x), y1 = min(y, other.y)
        let x2 = max(x + width, other.x + other.width), y2 = max(y + height, other.y + other.height)
        return PixelRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
    }

    func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }

    func intersects(_ other: PixelRect) -> Bool { intersection(other) != nil }

    var area: Int { width * height }

    /// The parts of this rectangle outside every one of `others`, as disjoint rectangles (none when they cover it).
    func subtracting(_ others: [PixelRect]) -> [PixelRect] {
        var parts = [self]
        for other in others {
            var kept: [PixelRect] = []
            for part in parts {
                guard let common = part.intersection(other) else {
                    kept.append(part)
                    continue
                }
                // Above and below the common rows across the part's width; left and right of it on those rows.
                let top = PixelRect(x: part.x, y: part.y, width: part.width, height: common.y - part.y)
                let bottom = PixelRect(x: part.x, y: common.y + common.height, width: part.width,
                                       height: part.y + part.height - common.y - common.height)
                let left = PixelRect(x: part.x, y: common.y, width: common.x - part.x, height: common.height)
                let right = PixelRect(x: common.x + common.width, y: common.y, width: part.x + part.width - common.x - common.width,
                                      height: common.height)
                kept += [top, bottom, left, right].compactMap(\.nonEmpty)
            }
            parts = kept
        }
        return parts
    }
}

extension FrameRenderer {
    /// The footprint of a top-level node drawn under `ctm` (the canvas placement).
    func footprint(of node: NodeSnapshot, ctm: cairo_matrix_t) -> NodeFootprint {
        guard node.opacity > 0, node.transform.isDrawable else { return NodeFootprint(box: nil, clipSafe: true) }
        var nodeMatrix = node.transform.cairoMatrix, parent = ctm, matrix = cairo_matrix_t()
        cairo_matrix_multiply(&matrix, &nodeMatrix, &parent)
        // Slack for antialiasing, particle sprites' margins and reaches rounded to whole device pixels.
        let slack = 4 + ctm.uniformScale.rounded(.up)
        guard case .image(let image) = node.content, image.isVector, let raster = cachedRaster(image, under: matrix) else {
            guard let box = deviceInk(of: node, matrix: matrix) else { return NodeFootprint(box: nil, clipSafe: true) }
            return NodeFootprint(box: box.insetBy(-slack).roundedOut.nonEmpty, clipSafe: isClipSafe(node, parent: ctm),
                                 parts: spriteBoxes(of: node, matrix: matrix, ctm: ctm))
        }
        // A part of a drawing fills a rectangle the size of the whole drawing: its cached raster knows its ink.
        guard raster.ink.width > 0, raster.ink.height > 0, let whole = inkBounds(of: node) else {
            return NodeFootprint(box: nil, clipSafe: true)
        }
        let q = raster.scale
        let ink = BoundingBox(minX: max(whole.minX, image.rect.x + Double(raster.ink.x) / q),
                              minY: max(whole.minY, image.rect.y + Double(raster.ink.y) / q),
                              maxX: min(whole.maxX, image.rect.x + Double(raster.ink.x + raster.ink.width) / q),
                              maxY: min(whole.maxY, image.rect.y + Double(raster.ink.y + raster.ink.height) / q))
        guard ink.nonEmptyBox != nil else { return NodeFootprint(box: nil, clipSafe: true) }
        let box = matrix.boundingBox(of: ink.insetBy(-node.effectReach)).insetBy(-slack).roundedOut
        return NodeFootprint(box: box.nonEmpty, clipSafe: isClipSafe(node, parent: ctm))
    }

    /// The device box of each particle of a top-level emitter (see `NodeFootprint.parts`), when they are sprites
    /// drawn straight onto the frame through a clip of whole pixels (the canvas's letterbox at whole pixels); nil
    /// otherwise. A box holds what `drawParticles` may write for its particle: its reach there, a pixel more.
    func spriteBoxes(of node: NodeSnapshot, matrix: cairo_matrix_t, ctm: cairo_matrix_t) -> [PixelRect]? {
        guard case .particles(let system) = node.content, node.clipShape == nil, painting(of: node) == .straight,
              ctm.x0 == ctm.x0.rounded(), ctm.y0 == ctm.y0.rounded(),
              case .sprites(throughClipShapes: false)? = route(of: node, matrix: matrix, clipped: false).fill else { return nil }
        var boxes: [PixelRect] = []
        boxes.reserveCapacity(system.particles.count)
        for particle in system.particles {
            // No box for a particle that is never drawn; a pixel more than its sprite's reach for rounding.
            guard let spriteReach = Self.spriteReach(of: particle, opacity: particle.alpha * particle.color.alpha * min(node.opacity, 1),
                                                     scale: matrix.xx) else { continue }
            let (x, y) = matrix.apply(particle.position.x, particle.position.y)
            guard x.isFinite, y.isFinite else { continue }
            let reach = spriteReach + 1
            guard reach < 1e6, abs(x) < 1e6, abs(y) < 1e6 else { return nil }
            let left = Int((x - reach).rounded(.down)), top = Int((y - reach).rounded(.down))
            let right = Int((x + reach).rounded(.up)), bottom = Int((y + reach).rounded(.up))
            boxes.append(PixelRect(x: left, y: top, width: right - left, height: bottom - top))
        }
        return boxes
    }

    /// A device box holding everything `node` paints under `matrix` (its own transform included), blur and shadow
    /// too; nil when it paints nothing. A group with no clip shape, blur or shadow of its own is the union of its
    /// children's boxes, each under its own matrix: the group's box turned as a whole would be far larger (the
    /// swing's ropes and girl, turned twice, made a square more than four times their area).
    func deviceInk(of node: NodeSnapshot, matrix: cairo_matrix_t) -> BoundingBox? {
        guard node.clipShape == nil, node.effectReach == 0 else {
            return inkBounds(of: node).map { matrix.boundingBox(of: $0.insetBy(-node.effectReach)) }
        }
        switch node.content {
        case .group(let children):
            var union: BoundingBox?
            for index in children.indices where children[index].opacity > 0 && children[index].transform.isDrawable {
                var childMatrix = children[index].transform.cairoMatrix, parent = matrix, placed = cairo_matrix_t()
                cairo_matrix_multiply(&placed, &childMatrix, &parent)
                guard let box = deviceInk(of: children[index], matrix: placed) else { continue }
                union = union.map { $0.union(box) } ?? box
            }
            return union
        case .shape(let shape):
            // Nil from the shape's points: nothing painted, or points out of reach or not finite, which cairo's
            // measure of the path still bounds.
            return Self.deviceInk(of: shape, matrix: matrix) ?? inkBounds(of: node).map { matrix.boundingBox(of: $0) }
        case .text, .particles, .image, .lottie, .page, .projected:
            return inkBounds(of: node).map { matrix.boundingBox(of: $0) }
        }
    }

    /// A device box holding everything `shape` paints under `matrix`, from the points that define it (a curve lies
    /// within its control points; an ellipse's box is exact), without building its path: the changed nodes of
    /// every frame are measured. Nil when it paints nothing.
    static func deviceInk(of shape: ShapeSnapshot, matrix: cairo_matrix_t) -> BoundingBox? {
        guard shape.fill != nil || shape.stroke != nil else { return nil }
        var box: BoundingBox
        switch shape.geometry {
        case .ellipse(let center, let radiusX, let radiusY):
            // As addPath draws them: no path at all for these.
            guard radiusX > 0, radiusY > 0, radiusX.isFinite, radiusY.isFinite else { return nil }
            let (x, y) = matrix.apply(center.x, center.y)
            // Half the box: the ellipse's extreme points under the matrix; one pixel more for cairo's arcs, whose
            // curves may bulge out by a fraction of a pixel (its tolerance).
            let halfWidth = hypot(matrix.xx * radiusX, matrix.xy * radiusY) + 1
            let halfHeight = hypot(matrix.yx * radiusX, matrix.yy * radiusY) + 1
            box = BoundingBox(minX: x - halfWidth, minY: y - halfHeight, maxX: x + halfWidth, maxY: y + halfHeight)
        case .rect(let rect, _) where !(rect.width != 0 && rect.height != 0):
            return nil
        case .rect, .path:
            guard let points = FillOutline.box(of: shape.geometry, matrix: matrix) else { return nil }
            box = BoundingBox(minX: points.minX, minY: points.minY, maxX: points.maxX, maxY: points.maxY)
        }
        guard box.isFinite else { return nil }
        if let stroke = shape.stroke, stroke.width > 0 {
            // As a distance in device pixels: times the matrix's largest stretch.
            box = box.insetBy(-stroke.reach * matrix.largestStretch)
        }
        return box
    }

    /// The raster drawVectorImage would paint for `image` under `matrix`, when it is cached already.
    private func cachedRaster(_ image: ImageContent, under matrix: cairo_matrix_t)
        -> (ink: (x: Int, y: Int, width: Int, height: Int), scale: Double)? {
        let quantized = VectorArtRasterCache.quantizedScale(max(hypot(matrix.xx, matrix.yx), hypot(matrix.xy, matrix.yy)))
        guard quantized > 0, image.rect.width > 0, image.rect.height > 0 else { return nil }
        let key = VectorArtRasterCache.Key(path: resolvedImagePath(image.path), element: image.element,
                                           width: image.rect.width, height: image.rect.height, scale: quantized)
        return vectorRasters.cached(key).map { ($0.ink, quantized) }
    }

    /// See `NodeFootprint.clipSafe`; conservative (false when in doubt). `clipped`: an ancestor has a clip shape.
    func isClipSafe(_ node: NodeSnapshot, parent: cairo_matrix_t, clipped: Bool = false) -> Bool {
        guard node.opacity > 0, node.transform.isDrawable else { return true }
        // A layer inside an ancestor's clip shape is painted through that shape by cairo.
        let painting = painting(of: node)
        if clipped, painting != .straight { return false }
        let clipped = clipped || node.clipShape != nil
        if node.blur > 0 || node.mask.map({ !$0.isSolid }) == true { return false }
        if node.hueRotation != 0, node.content.containsImage { return false }
        var nodeMatrix = node.transform.cairoMatrix, parent = parent, matrix = cairo_matrix_t()
        cairo_matrix_multiply(&matrix, &nodeMatrix, &parent)
        if let shadow = node.shadow, shadow.color.alpha > 0 {
            // A quick shadow beneath the content is made over its whole box (ShadowDrawing.swift) and composited
            // through a whole-pixel clip, pixel by pixel; through a clip shape, or in a layer, it depends on the clip.
            guard !clipped, painting == .shadowBeneath,
                  let place = shadowPlace(of: node, ctm: matrix), Self.anchorsShadow(place.box) else { return false }
        }
        if case .group(let children) = node.content {
            return children.allSatisfy { isClipSafe($0, parent: matrix, clipped: clipped) }
        }
        // A turned node's layer is drawn whole and resampled by a map fixed by its placement (Rotation3DDrawing.swift):
        // exact under any clip, but each band or area that cut it would draw the whole layer again (the gears scene
        // at 3840x2160 on 2 threads drew each turned node's layer four times a frame). Held whole, it is drawn once.
        if case .projected = node.content { return false }
        if case .page = node.content {
            // Its picture moved by whole pixels is copied pixel for pixel, whatever clips it.
            return !clipped && node.blur <= 0 && picture(of: node) != nil && matrix.xy == 0 && matrix.yx == 0
                && matrix.x0 == matrix.x0.rounded() && matrix.y0 == matrix.y0.rounded()
        }
        // A leaf: as its route says (PaintRoute.swift).
        return route(of: node, matrix: matrix, clipped: clipped).isClipSafe
    }

    /// The areas to draw again, given the footprints of the last frame's and this frame's nodes (same count) and
    /// which nodes changed; nil when the whole canvas should be drawn. Each area lies within `canvas` and holds
    /// every clip-dependent node it reaches (of those from `firstDrawn` on), whole.
    ///
    /// Particles drawn as sprites (`NodeFootprint.parts`) are damaged in pieces of their own: whole cells about them
    /// (`cellRuns`), cut around the other areas. A piece that reaches no other node's box is drawn as it is; merged
    /// with the others by bounding boxes, the pieces of a frame of snow grew into most of it.
    static func damageAreas(old: [NodeFootprint], new: [NodeFootprint], changed: [Bool], firstDrawn: Int,
                            canvas: PixelRect, also: [PixelRect] = []) -> Damage? {
        var areas = also.compactMap { $0.intersection(canvas) }
        var sprites: [PixelRect] = []
        for index in changed.indices where changed[index] {
            if let oldParts = old[index].parts, let newParts = new[index].parts {
                sprites += oldParts
                sprites += newParts
                continue
            }
            if let box = old[index].box?.intersection(canvas) { areas.append(box) }
            if let box = new[index].box?.intersection(canvas) { areas.append(box) }
        }
        // Boxes of the nodes drawn after the still prefix that a sprite piece must not reach (it would have to grow).
        let others = new[firstDrawn...].compactMap { $0.parts == nil ? $0.box?.intersection(canvas) : nil }
        var pieces = cellRuns(covering: sprites, within: canvas)
        var rounds = 0
        while true {
            guard let settled = settle(areas, new: new, firstDrawn: firstDrawn, canvas: canvas) else { return nil }
            areas = settled
            // The pieces outside the settled areas; those that reach another node join the areas, which settle again.
            var free: [PixelRect] = [], joining: [PixelRect] = []
            for piece in pieces {
                for part in piece.subtracting(areas) {
                    if others.contains(where: { $0.intersects(part) }) { joining.append(part) } else { free.append(part) }
                }
            }
            pieces = free
            rounds += 1
            guard !joining.isEmpty else { break }
            if rounds > 8 { return nil }
            areas += joining
        }
        let damage = Damage(areas: areas, spritePieces: pieces)
        // Areas do not overlap, so drawing them costs about their share of the canvas; near all of it, one pass.
        return damage.all.reduce(0) { $0 + $1.area } * 10 > canvas.area * 9 ? nil : damage
    }

    /// `areas` merged where they overlap and grown over the nodes they reach, until nothing changes: each then holds
    /// every clip-dependent node it reaches whole, and every clip-safe one across its width (of those from
    /// `firstDrawn` on). Nil when that does not settle.
    private static func settle(_ areas: [PixelRect], new: [NodeFootprint], firstDrawn: Int, canvas: PixelRect) -> [PixelRect]? {
        var areas = areas
        var settled = false, rounds = 0
        while !settled {
            rounds += 1
            if rounds > 64 { return nil }
            settled = true
            var merged: [PixelRect] = []
            for area in areas {
                var area = area
                var index = 0
                while index < merged.count {
                    if merged[index].intersects(area) {
                        area = area.union(merged.remove(at: index))
                        index = 0
                    } else {
                        index += 1
                    }
                }
                merged.append(area)
            }
            if merged.count != areas.count { settled = false }
            areas = merged
            for index in areas.indices {
                // Sprites are exact whatever whole-pixel area cuts them (see `NodeFootprint.parts`).
                for footprint in new[firstDrawn...] where footprint.parts == nil {
                    guard let box = footprint.box?.intersection(canvas), areas[index].intersects(box),
                          !areas[index].contains(box) else { continue }
                    let area = areas[index]
                    if footprint.clipSafe {
                        // Cut by rows only: an area's side through a fill moves the fill's edge pixels on its rows
                        // by a level (see the note at the top), its top and bottom never do.
                        guard box.x < area.x || box.x + box.width > area.x + area.width else { continue }
                        let left = min(area.x, box.x), right = max(area.x + area.width, box.x + box.width)
                        areas[index] = PixelRect(x: left, y: area.y, width: right - left, height: area.height)
                    } else {
                        areas[index] = area.union(box)
                    }
                    settled = false
                }
            }
        }
        return areas
    }
}

extension FrameRenderer {
    /// Disjoint rectangles of whole cells (`side` pixels a side, laid from the canvas's corner) that cover `boxes`
    /// within `canvas`: a run of cells along a row, carried down while the rows below have the same run. The boxes
    /// of falling snow overlap everywhere; merged by their bounding boxes, they grew into the whole frame.
    static func cellRuns(covering boxes: [PixelRect], within canvas: PixelRect, side: Int = 8) -> [PixelRect] {
        guard !boxes.isEmpty, canvas.width > 0, canvas.height > 0 else { return [] }
        let columns = (canvas.width + side - 1) / side, rows = (canvas.height + side - 1) / side
        var cells = [Bool](repeating: false, count: columns * rows)
        for box in boxes {
            guard let box = box.intersection(canvas) else { continue }
            let firstColumn = (box.x - canvas.x) / side, lastColumn = (box.x + box.width - 1 - canvas.x) / side
            let firstRow = (box.y - canvas.y) / side, lastRow = (box.y + box.height - 1 - canvas.y) / side
            for row in firstRow...lastRow {
                for column in firstColumn...lastColumn { cells[row * columns + column] = true }
            }
        }
        var runs: [PixelRect] = []
        // The runs of the row above, by their columns, with where they are in `runs`.
        var above: [Range<Int>: Int] = [:], here: [Range<Int>: Int] = [:]
        for row in 0..<rows {
            var column = 0
            while column < columns {
                guard cells[row * columns + column] else {
                    column += 1
                    continue
                }
                var end = column + 1
                while end < columns, cells[row * columns + end] { end += 1 }
                if let index = above[column..<end] {
                    runs[index].height += side
                    here[column..<end] = index
                } else {
                    here[column..<end] = runs.count
                    runs.append(PixelRect(x: canvas.x + column * side, y: canvas.y + row * side, width: (end - column) * side, height: side))
                }
                column = end
            }
            swap(&above, &here)
            here.removeAll(keepingCapacity: true)
        }
        return runs.compactMap { $0.intersection(canvas) }
    }
}

extension cairo_matrix_t {
    /// The most a length grows under the matrix (its larger singular value).
    var largestStretch: Double {
        let sum = xx * xx + yx * yx + xy * xy + yy * yy, determinant = xx * yy - xy * yx
        return ((sum + max(sum * sum - 4 * determinant * determinant, 0).squareRoot()) / 2).squareRoot()
    }

    /// An exact whole-pixel translation: an image under it is copied pixel for pixel.
    var isIntegerTranslation: Bool {
        xx == 1 && yy == 1 && xy == 0 && yx == 0 && x0 == x0.rounded() && y0 == y0.rounded()
    }
}

extension Paint {
    var isSolid: Bool {
        if case .solid = self { true } else { false }
    }
}
