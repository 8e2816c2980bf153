import CCairo
import DioramaDocument
import DioramaTimeline
import Foundation

// Solid strokes outlined by our own code and filled through the solid fill's coverage (SolidFill.swift). cairo strokes
// a flower petal's 1.5-pixel outline in about 34 µs, whatever its size (its stroker, then its scan converter over the
// stroke's box); the flower's six strokes took a third of its frame. Here the centre line is flattened in device
// space, each sub-path's two sides are offset by half the width with the stroke's joins and caps, and the outline is
// filled with non-zero winding: the coverage of a pixel depends on the stroke and its position alone, so a stroke is
// cut by bands and damage areas like a fill.
//
// The coverage sums each edge's signed area, which is exact where the outline does not overlap itself. So an inner
// join is cut where the two offset sides meet, and a stroke whose inner side folds over (thick on a tight curve:
// the sides meet beyond a segment's ends, or it turns straight back) is cairo's. Where a stroke crosses itself or two stretches of it overlap,
// a pixel partly covered by both gets the sum of their areas (at most 1), where cairo samples their union: a few
// pixels at the corners of a crossing, or where two dashes end close by a sharp turn. Dashes and trims are cut from
// the flattened centre line by arc length, as cairo dashes and `trimPath` trims (a similarity keeps lengths in
// proportion). Undashed pens that are not circles in device space (a matrix that is not a similarity) stay cairo's.
// Strokes inside clip shapes, and dashes ours do not take (dots, tiny periods, a dash ending near a corner), are
// cairo's onto a coverage of their own: its dasher leaves out dashes beyond the clip, with their joins and caps.

extension FrameRenderer {
    /// Strokes `geometry` (in the context's user space), trimmed to `trim` (fractions of its length) when given, with
    /// `stroke` at `alpha` the way `way` says when it is one of ours (`route(of:matrix:clipped:)`): outlined by our
    /// own code, or by cairo onto a coverage. Onto whole ARGB32 pixels under a clip of whole-pixel rectangles, with the
    /// OVER operator. False, with nothing drawn, when cairo must stroke instead. The context's path is left alone.
    func strokeSolid(_ stroke: Stroke, geometry: Geometry, trim: (from: Double, to: Double)? = nil, alpha: Double, way: PaintWay,
                     in cr: OpaquePointer) -> Bool {
        guard case .solid(let color) = stroke.paint, let (target, offset, matrix) = ownPaintTarget(cr) else { return false }
        /// cairo's stroke onto a coverage, strip by strip, as a solid fill inside clip shapes is (cut by the same shapes
        /// there): the same pixels in any band or damage area. Where cairo's own stroke would not be (its dashes
        /// leave out what lies beyond the clip, and with them the joins and caps there), or inside clip shapes.
        func strokeOnPen() -> Bool {
            guard let extent = FillOutline.box(of: geometry, matrix: matrix) else { return false }
            let reach = stroke.reach * matrix.largestStretch + 1
            let box = BoundingBox(minX: extent.minX - reach, minY: extent.minY - reach, maxX: extent.maxX + reach, maxY: extent.maxY + reach)
            return paintThroughCoverage(.solid(color), alpha: alpha, box: box, in: cr) { pen, place in
                place(matrix)
                addPath(geometry, to: pen)
                if let trim { trimPath(pen, from: trim.from, to: trim.to) }
                applyStrokeStyle(stroke, to: pen)
                cairo_stroke(pen)
            }
        }
        switch way {
        case .outlined(let givenBack):
            return rasterize(stroke, color: color, geometry: geometry, trim: trim, alpha: alpha, matrix: matrix, target: target,
                             offset: offset, in: cr) || givenBack == .throughCoverage && strokeOnPen()
        case .throughCoverage:
            return strokeOnPen()
        default:
            return false
        }
    }

    /// The most dashes and gaps along a stroke our own code cuts.
    static let mostDashes = 40_000

    /// `strokeSolid`'s own way: the stroke outlined and scan-converted, under a similarity with dashes cairo draws
    /// (the route's checks). False, with nothing drawn, when the outline gives it back.
    private func rasterize(_ stroke: Stroke, color: Color, geometry: Geometry, trim: (from: Double, to: Double)?, alpha: Double,
                           matrix: cairo_matrix_t, target: OpaquePointer, offset: (x: Int, y: Int), in cr: OpaquePointer) -> Bool {
        // A circular pen stays a circle (the route's `isSimilarity`): a rotation and a uniform scale.
        let scale = abs(matrix.xx * matrix.yy - matrix.xy * matrix.yx).squareRoot()
        let halfWidth = stroke.width / 2 * scale
        // cairo's dashes, in device lengths (an odd count repeats once more, so that on and off take turns), and its
        // phase brought within them (in storage kept from stroke to stroke).
        strokeScratch.dashes.removeAll(keepingCapacity: true)
        var phase = 0.0
        if stroke.isDashed {
            for _ in 0..<(stroke.dash.count % 2 == 1 ? 2 : 1) {
                for length in stroke.dash { strokeScratch.dashes.append(length * scale) }
            }
            let total = strokeScratch.dashes.reduce(0, +) / scale
            phase = stroke.dashPhase.truncatingRemainder(dividingBy: total)
            phase = max(phase < 0 ? phase + total : phase, 0) * scale
        }
        return rasterize(color, alpha: alpha, matrix: matrix, target: target, offset: offset, in: cr) { outline in
            // The centre line, and the line trimmed or dashed from it, in storage kept from stroke to stroke.
            var path = StrokePath(matrix: matrix), cut = StrokePath(matrix: matrix)
            swap(&path.points, &strokeScratch.points)
            swap(&path.subpaths, &strokeScratch.subpaths)
            swap(&cut.points, &strokeScratch.cutPoints)
            swap(&cut.subpaths, &strokeScratch.cutSubpaths)
            path.removeAll()
            defer {
                swap(&path.points, &strokeScratch.points)
                swap(&path.subpaths, &strokeScratch.subpaths)
                swap(&cut.points, &strokeScratch.cutPoints)
                swap(&cut.subpaths, &strokeScratch.cutSubpaths)
            }
            path.flatten(geometry)
            path.finish()
            if path.drawable, let trim {
                cut.removeAll()
                path.trim(from: trim.from, to: trim.to, into: &cut)
                swap(&path, &cut)
            }
            if path.drawable, !strokeScratch.dashes.isEmpty {
                // Dashes cairo's: out of reach, under half a pixel a period (cairo draws those as an approximation), or
                // more than `mostDashes` dashes and gaps along the line (each dash a sub-path of its own, kept).
                let period = strokeScratch.dashes.reduce(0, +)
                guard path.isWithinReach, period >= 0.5, path.length / period * Double(strokeScratch.dashes.count) <= Double(Self.mostDashes) else {
                    statistics.strokesLeftToCairo += 1
                    return false
                }
                cut.removeAll()
                // cairo ends a dash with less than 1/512 of a user unit left (half its fixed point's step).
                guard path.dash(strokeScratch.dashes, phase: phase, slack: scale / 512, buttCaps: stroke.lineCap == .butt, into: &cut) else {
                    statistics.strokesLeftToCairo += 1
                    return false
                }
                swap(&path, &cut)
            }
            if trim != nil || !strokeScratch.dashes.isEmpty { path.straightenEnds(halfWidth: halfWidth, cap: stroke.lineCap) }
            guard path.drawable, path.outline(into: &outline, halfWidth: halfWidth, cap: stroke.lineCap, join: stroke.lineJoin),
                  outline.isWithinReach else {
                statistics.strokesLeftToCairo += 1
                return false
            }
            statistics.outlinedStrokes += 1
            return true
        }
    }
}

extension Stroke {
    /// How far (in the node's own points) the stroke paints beyond its outline, at most: cheaper than stroking to
    /// measure. A miter reaches at most cairo's limit of 10 half-widths, a square cap √2 half-widths.
    var reach: Double {
        width / 2 * (lineJoin == .miter ? StrokePen.miterLimit : lineCap == .square ? 1.5 : 1)
    }

    /// True when cairo is given a dash pattern (see `applyStrokeStyle`: negative or all-zero dashes mean solid).
    var isDashed: Bool {
        !dash.isEmpty && dash.allSatisfy { $0 >= 0 && $0.isFinite } && dash.reduce(0, +) > 0
    }
}

/// Storage a renderer keeps from stroke to stroke (nothing allocated per stroke): the centre line of the stroke being
/// outlined and the line trimmed or dashed from it, its dash pattern in device lengths, and the flattened outline a
/// trim cuts (`trimPath`, ShapeDrawing.swift): its points, and where each polyline ends among them.
struct StrokeScratch {
    var points: [(x: Double, y: Double)] = []
    var subpaths: [StrokeSubpath] = []
    var cutPoints: [(x: Double, y: Double)] = []
    var cutSubpaths: [StrokeSubpath] = []
    var dashes: [Double] = []
    var trimPoints: [(x: Double, y: Double)] = []
    var trimEnds: [Int] = []
}

/// One sub-path of a stroke's centre line: `count` points from `start`, consecutive ones apart.
struct StrokeSubpath {
    var start: Int
    var count: Int
    var closed: Bool
}

/// A stroke's centre line flattened to straight pieces in device pixels, sub-path by sub-path.
struct StrokePath: FlatteningOutline {
    let matrix: cairo_matrix_t
    private(set) var current: (x: Double, y: Double)?
    private var start: (x: Double, y: Double)?
    var points: [(x: Double, y: Double)] = []
    var subpaths: [StrokeSubpath] = []
    /// Where the unfinished sub-path's points start, and whether it has a piece (a line or a close).
    private var open: Int?
    private var hasPiece = false
    /// False once a sub-path is one cairo draws in a way this does not: a point with a piece (a dot), a closed
    /// sub-path of two points (a segment and back), or a point that is not finite.
    private(set) var drawable = true

    /// Below this (device pixels), two points are one.
    static let samePoint = 1e-9

    init(matrix: cairo_matrix_t) {
        self.matrix = matrix
    }

    /// Empty again, its storage kept.
    mutating func removeAll() {
        (current, start, open, hasPiece, drawable) = (nil, nil, nil, false, true)
        points.removeAll(keepingCapacity: true)
        subpaths.removeAll(keepingCapacity: true)
    }

    mutating func move(to point: (x: Double, y: Double)) {
        // A point that is not finite would pass the comparisons below (NaN) or make no edges: cairo's.
        if !point.x.isFinite || !point.y.isFinite { drawable = false }
        end(closed: false)
        start = point
        current = point
        open = points.count
        points.append(point)
        hasPiece = false
    }

    mutating func line(to point: (x: Double, y: Double)) {
        guard let from = current else { return move(to: point) }
        if !point.x.isFinite || !point.y.isFinite { drawable = false }
        if open == nil {
            // After a close, a piece starts a new sub-path where the last one started.
            open = points.count
            points.append(from)
        }
        hasPiece = true
        let last = points[points.count - 1]
        if abs(point.x - last.x) > Self.samePoint || abs(point.y - last.y) > Self.samePoint { points.append(point) }
        current = point
    }

    mutating func close() {
        guard open != nil else { return }
        hasPiece = true
        end(closed: true)
        current = start
    }

    /// Ends the last sub-path (open).
    mutating func finish() { end(closed: false) }

    private mutating func end(closed: Bool) {
        guard let first = open else { return }
        open = nil
        if closed, points.count - first >= 2, abs(points[first].x - points[points.count - 1].x) <= Self.samePoint,
           abs(points[first].y - points[points.count - 1].y) <= Self.samePoint {
            points.removeLast()
        }
        let count = points.count - first
        if count == 1 {
            // A lone move draws nothing; a point with a piece, cairo's dot or square.
            if hasPiece { drawable = false }
            points.removeLast()
            return
        }
        if closed && count < 3 { drawable = false }
        subpaths.append(StrokeSubpath(start: first, count: count, closed: closed))
    }

    /// Adds the outline of the stroke `halfWidth` device pixels to either side of the centre line, with `cap` and
    /// `join`, to `fill`: an open sub-path as one contour (one side, the end cap, the other side back, the start
    /// cap), a closed one as two (each side all round). False when a side folds over (see the note at the top).
    func outline(into fill: inout FillOutline, halfWidth: Double, cap: LineCap, join: LineJoin) -> Bool {
        let pen = StrokePen(halfWidth: halfWidth, join: join)
        for subpath in subpaths {
            let base = subpath.start, count = subpath.count
            if subpath.closed {
                guard pen.side(of: { points[base + $0] }, count: count, closed: true, into: &fill),
                      pen.side(of: { points[base + count - 1 - $0] }, count: count, closed: true, into: &fill) else { return false }
            } else {
                guard pen.side(of: { points[base + $0] }, count: count, closed: false, startsContour: true, into: &fill)
                else { return false }
                pen.cap(cap, at: points[base + count - 1], from: points[base + count - 2], into: &fill)
                guard pen.side(of: { points[base + count - 1 - $0] }, count: count, closed: false, startsContour: false, into: &fill)
                else { return false }
                pen.cap(cap, at: points[base], from: points[base + 1], into: &fill)
                fill.close()
            }
        }
        return true
    }
}

extension StrokePath {
    /// The point `distance` along the piece from `a` to `b` (`length` long): `b` itself at its end.
    private static func along(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ distance: Double,
                              of length: Double) -> (x: Double, y: Double) {
        guard distance < length else { return b }
        let t = distance / length
        return (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
    }

    /// The cosine of 15°, the largest turn `straightenEnds` straightens.
    static let straightTurnCosine = cos(15 * Double.pi / 180)
    /// How near (device pixels) a dash's end may come to a sharp turn before cairo must dash the stroke: cairo rounds
    /// points to 1/256 of a pixel.
    static let tie = 1.0 / 16

    /// Whether the line turns by more than 15° where piece `i` of `subpath` ends (false at an open sub-path's end).
    func turnsSharply(atEndOf i: Int, of subpath: StrokeSubpath) -> Bool {
        let pieces = subpath.closed ? subpath.count : subpath.count - 1
        guard i < pieces - 1 || subpath.closed else { return false }
        let (a, b, incoming) = piece(i, of: subpath), (_, c, outgoing) = piece((i + 1) % pieces, of: subpath)
        let dot = ((b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y)) / (incoming * outgoing)
        return !(dot >= Self.straightTurnCosine)
    }

    /// Every point within `FillOutline.reach` of the origin, across and down.
    var isWithinReach: Bool {
        points.allSatisfy { abs($0.x) <= FillOutline.reach && abs($0.y) <= FillOutline.reach }
    }

    /// The length of every sub-path, a closed one round to its start.
    var length: Double {
        subpaths.reduce(0) { total, subpath in
            (0..<(subpath.closed ? subpath.count : subpath.count - 1)).reduce(total) { $0 + piece($1, of: subpath).length }
        }
    }

    /// Piece `i` of `subpath` (the last of a closed one runs back to its first point): its ends and length.
    private func piece(_ i: Int, of subpath: StrokeSubpath) -> (a: (x: Double, y: Double), b: (x: Double, y: Double), length: Double) {
        let a = points[subpath.start + i], b = points[subpath.start + (i + 1) % subpath.count]
        return (a, b, ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
    }

    /// Open sub-paths whose first or last piece is shorter than the inner join before it cuts (a dash or trim ending
    /// just past a point of a flattened curve, which would fold the side over): that point is dropped, so the piece
    /// runs straight from the one before, where the line turns there by 15° at most (a curve's point, not a corner
    /// whose join shows), the point is within the flattening's tolerance of the straight piece and the end's cap
    /// corners move by an eighth of a pixel at most. Otherwise the sub-path stays as it is (and the stroke is cairo's).
    mutating func straightenEnds(halfWidth h: Double, cap: LineCap) {
        var index = 0
        while index < subpaths.count {
            defer { index += 1 }
            guard !subpaths[index].closed else { continue }
            // The last piece, then the first (read backwards, as the other end).
            for end in 0..<2 {
                while subpaths[index].count >= 3 {
                    let first = subpaths[index].start, count = subpaths[index].count
                    let (v, e, u) = end == 0 ? (first + count - 2, first + count - 1, first + count - 3) : (first + 1, first, first + 2)
                    let (ux, uy) = (points[v].x - points[u].x, points[v].y - points[u].y)
                    let (wx, wy) = (points[e].x - points[v].x, points[e].y - points[v].y)
                    let (incoming, leg) = ((ux * ux + uy * uy).squareRoot(), (wx * wx + wy * wy).squareRoot())
                    let cross = abs(ux * wy - uy * wx) / (incoming * leg), dot = (ux * wx + uy * wy) / (incoming * leg)
                    // The point's distance from the straight piece from u to e.
                    let (sx, sy) = (points[e].x - points[u].x, points[e].y - points[u].y)
                    let away = abs(sx * uy - sy * ux) / (sx * sx + sy * sy).squareRoot()
                    // The end's cap turns with the piece: a butt or square cap's corners move by h · sin θ, kept to an
                    // eighth of a pixel (a round cap turns into itself).
                    guard dot >= Self.straightTurnCosine, leg < h * cross / (1 + dot), away <= FillOutline.tolerance,
                          cap == .round || h * cross <= 0.125 else { break }
                    points.remove(at: v)
                    subpaths[index].count -= 1
                    for later in (index + 1)..<subpaths.count { subpaths[later].start -= 1 }
                }
            }
        }
    }

    /// SwiftUI's trim: the stretch of the centre line from `from` to `to` (fractions of its whole length, the
    /// sub-paths in turn, a closed one round to its start) into `cut`, an open sub-path for each sub-path it meets.
    /// `trimPath` (ShapeDrawing.swift) cuts cairo's path the same way; a similarity keeps the fractions.
    func trim(from: Double, to: Double, into cut: inout StrokePath) {
        let total = length
        guard total > 0 else { return }
        let (start, end) = (from * total, to * total)
        var travelled = 0.0
        for subpath in subpaths {
            var drawing = false
            for i in 0..<(subpath.closed ? subpath.count : subpath.count - 1) {
                let (a, b, length) = piece(i, of: subpath)
                let (s0, s1) = (travelled, travelled + length)
                travelled = s1
                guard length > 0, s1 > start, s0 < end else { continue }
                let t0 = max(0, (start - s0) / length), t1 = min(1, (end - s0) / length)
                if !drawing {
                    cut.move(to: (a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0))
                    drawing = true
                }
                cut.line(to: (a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1))
            }
            if drawing { cut.finish() }
        }
    }

    /// The centre line dashed into `cut`, as cairo dashes a stroke: `dashes` (device lengths, each above zero, on and
    /// off in turn, an even count) from `phase` into them (0 up to their sum), starting again at each sub-path; a
    /// dash ends where less than `slack` of it is left (cairo's rounding to its fixed point). On a closed sub-path a
    /// dash running through its start (or ending there) is one dash, joined there, and one that never ends is the
    /// closed sub-path. False when cairo must: a dash that begins exactly at a point where pieces meet (cairo caps it
    /// along the piece before and joins it to the next), or at the very end with round or square caps (cairo's dot).
    func dash(_ dashes: [Double], phase: Double, slack: Double, buttCaps: Bool, into cut: inout StrokePath) -> Bool {
        for subpath in subpaths {
            let pieces = subpath.closed ? subpath.count : subpath.count - 1
            // cairo's start: whole dashes the phase passes are skipped, a dash it ends on included.
            var index = 0, on = true, offset = phase
            while offset >= dashes[index] {
                offset -= dashes[index]
                on.toggle()
                index = (index + 1) % dashes.count
            }
            var left = dashes[index] - offset
            // A closed sub-path's first dash, when it starts at the start: drawn last, joined to a dash reaching the
            // start again. Where it ended: the piece, and the point.
            var deferring = subpath.closed && on, firstEnd: (piece: Int, point: (x: Double, y: Double))?
            var drawing = false
            for i in 0..<pieces {
                let (a, b, length) = piece(i, of: subpath)
                // As cairo steps: what is left of the piece, less each step.
                var remaining = length
                while remaining > 0 {
                    let step = min(left, remaining)
                    let from = length - remaining
                    remaining -= step
                    if on && !deferring {
                        if !drawing {
                            cut.move(to: Self.along(a, b, from, of: length))
                            drawing = true
                        }
                        cut.line(to: Self.along(a, b, length - remaining, of: length))
                    }
                    left -= step
                    guard left < slack else { continue }
                    // Near a point where the line turns, whether cairo's dash ends or begins before it or after (a cap
                    // and a join there, or a cap alone) depends on its own arithmetic (fixed-point points, user-space
                    // lengths): such a stroke is cairo's.
                    if remaining < Self.tie, i < pieces - 1 || subpath.closed, turnsSharply(atEndOf: i, of: subpath) { return false }
                    if length - remaining < Self.tie, i > 0 || subpath.closed, turnsSharply(atEndOf: (i + pieces - 1) % pieces, of: subpath) {
                        return false
                    }
                    // A dash ending at a closed sub-path's very end is on there still (cairo joins it to the first).
                    let closing = subpath.closed && i == pieces - 1 && remaining == 0
                    if on {
                        if deferring {
                            if !closing { (deferring, firstEnd) = (false, (i, Self.along(a, b, length - remaining, of: length))) }
                        } else if drawing && !closing {
                            cut.finish()
                            drawing = false
                        }
                    } else if remaining == 0 && (subpath.closed || i < pieces - 1 || !buttCaps) {
                        return false
                    }
                    on.toggle()
                    index = (index + 1) % dashes.count
                    left += dashes[index]
                }
            }
            guard subpath.closed else {
                if drawing { cut.finish() }
                continue
            }
            let first = points[subpath.start]
            if deferring {
                // On all round.
                cut.move(to: first)
                for i in 1..<subpath.count { cut.line(to: points[subpath.start + i]) }
                cut.close()
                continue
            }
            guard let firstEnd else {
                if drawing { cut.finish() }
                continue
            }
            // The first dash: on from the last one's end at the start (then one dash), or alone.
            if !drawing { cut.move(to: first) }
            for i in 0..<firstEnd.piece { cut.line(to: points[subpath.start + i + 1]) }
            cut.line(to: firstEnd.point)
            cut.finish()
        }
        return true
    }
}

/// Offsets one side of a centre line: the side to the left of the direction of travel, (−dy, dx).
struct StrokePen {
    let halfWidth: Double
    let join: LineJoin
    /// cairo's default miter limit: a miter longer than this many line widths is bevelled.
    static let miterLimit = 10.0
    /// Radians between points of a round join or cap, keeping its chords within the fill's tolerance of the arc.
    let arcStep: Double
    /// The cosine of `arcStep`: a turn whose cosine is at least this is within one step.
    private let arcStepCosine: Double

    init(halfWidth: Double, join: LineJoin) {
        (self.halfWidth, self.join) = (halfWidth, join)
        arcStep = halfWidth > FillOutline.tolerance ? 2 * acos(1 - FillOutline.tolerance / halfWidth) : .pi / 2
        arcStepCosine = cos(arcStep)
    }

    /// The unit direction from `a` to `b` (apart).
    private func direction(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (x: Double, y: Double, length: Double) {
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let length = (dx * dx + dy * dy).squareRoot()
        return (dx / length, dy / length, length)
    }

    /// Adds the left side of the `count` points `point(i)` gives: from the first point's offset to the last's (open;
    /// a new contour when `startsContour`, else going on from where `fill` is), or all round with a join at every
    /// point (closed, one contour of its own). False when inner joins overlap on a segment (the side folds over).
    func side(of point: (Int) -> (x: Double, y: Double), count: Int, closed: Bool, startsContour: Bool = true,
              into fill: inout FillOutline) -> Bool {
        let h = halfWidth
        let segments = closed ? count : count - 1
        /// Segment i runs from point i to point i + 1 (the first again after the last, closed).
        func segment(_ i: Int) -> (x: Double, y: Double, length: Double) {
            direction(point(i), point((i + 1) % count))
        }
        var incoming = segment(closed ? segments - 1 : 0)
        // The inner join's cut into the segment before, at its end, and into the first segment at its start.
        var trimAtStart = 0.0, firstTrim = 0.0
        var first = true
        func emit(_ p: (x: Double, y: Double)) {
            if first && startsContour { fill.move(to: p) } else { fill.line(to: p) }
            first = false
        }
        if !closed {
            let p = point(0)
            emit((p.x - incoming.y * h, p.y + incoming.x * h))
        }
        for vertex in (closed ? 0 : 1)..<(closed ? count : count - 1) {
            let outgoing = segment(vertex)
            let v = point(vertex)
            let (n0, n1) = ((x: -incoming.y, y: incoming.x), (x: -outgoing.y, y: outgoing.x))
            let cross = incoming.x * outgoing.y - incoming.y * outgoing.x, dot = incoming.x * outgoing.x + incoming.y * outgoing.y
            var trim = 0.0
            // A turn straight back: both sides would wrap the stretch it doubles over the same way (covered twice).
            if dot <= -1 + 1e-12 { return false }
            if cross > 0 {
                // Inner: the two offset sides meet h · tan(θ / 2) back along each segment.
                trim = h * cross / (1 + dot)
                emit((v.x + h * (n0.x + n1.x) / (1 + dot), v.y + h * (n0.y + n1.y) / (1 + dot)))
            } else if cross == 0 && dot > 0 {
                emit((v.x + n0.x * h, v.y + n0.y * h))
            } else {
                outerJoin(at: v, from: n0, to: n1, cross: cross, dot: dot, emit: emit)
            }
            if vertex == 0 { firstTrim = trim } else if trimAtStart + trim > incoming.length { return false }
            trimAtStart = trim
            incoming = outgoing
        }
        if closed {
            // The last segment runs back to the first point.
            if trimAtStart + firstTrim > incoming.length { return false }
            fill.close()
        } else {
            // The last segment ends in a cap, which cuts nothing.
            if trimAtStart > incoming.length { return false }
            let p = point(count - 1)
            emit((p.x - incoming.y * h, p.y + incoming.x * h))
        }
        return true
    }

    /// The outer side of a turn at `v` from the offset along `n0` to the offset along `n1` (unit normals).
    private func outerJoin(at v: (x: Double, y: Double), from n0: (x: Double, y: Double), to n1: (x: Double, y: Double),
                           cross: Double, dot: Double, emit: ((x: Double, y: Double)) -> Void) {
        let h = halfWidth
        switch join {
        case .miter where 1 + dot >= 2 / (Self.miterLimit * Self.miterLimit):
            // cairo's rule: the miter's length over the line's width, 1 / sin(φ / 2), at most the limit.
            emit((v.x + h * (n0.x + n1.x) / (1 + dot), v.y + h * (n0.y + n1.y) / (1 + dot)))
        case .round where dot >= arcStepCosine:
            // A turn of one step at most is its chord, as `arc` makes it in one piece: a flattened curve turns a
            // little at every point, and its joins took a third of a thin stroke's outline in trigonometry.
            emit((v.x + n0.x * h, v.y + n0.y * h))
            emit((v.x + n1.x * h, v.y + n1.y * h))
        case .round:
            // Away from the left: a negative turn.
            arc(around: v, from: n0, sweep: -abs(atan2(cross, dot)), emit: emit)
        case .miter, .bevel:
            emit((v.x + n0.x * h, v.y + n0.y * h))
            emit((v.x + n1.x * h, v.y + n1.y * h))
        }
    }

    /// Points of the circle of radius h around `center`, from the unit vector `from` turning by `sweep` radians, both
    /// ends included.
    private func arc(around center: (x: Double, y: Double), from u: (x: Double, y: Double), sweep: Double,
                     emit: ((x: Double, y: Double)) -> Void) {
        let h = halfWidth
        let pieces = (abs(sweep) / arcStep).rounded(.up)
        let count = pieces.isFinite ? Int(min(max(pieces, 1), 1024)) : 1
        let (c, s) = (cos(sweep / Double(count)), sin(sweep / Double(count)))
        var (x, y) = (u.x, u.y)
        emit((center.x + x * h, center.y + y * h))
        for _ in 0..<count {
            (x, y) = (x * c - y * s, x * s + y * c)
            emit((center.x + x * h, center.y + y * h))
        }
    }

    /// The cap at the end `p` of a segment coming from `q`: from the left side's offset round to the right side's.
    func cap(_ cap: LineCap, at p: (x: Double, y: Double), from q: (x: Double, y: Double), into fill: inout FillOutline) {
        let h = halfWidth
        let d = direction(q, p)
        let n = (x: -d.y, y: d.x)
        switch cap {
        case .butt:
            break
        case .square:
            fill.line(to: (p.x + (n.x + d.x) * h, p.y + (n.y + d.y) * h))
            fill.line(to: (p.x + (d.x - n.x) * h, p.y + (d.y - n.y) * h))
        case .round:
            // Half a turn through the direction of travel: n to d to −n.
            arc(around: p, from: n, sweep: -.pi) { fill.line(to: $0) }
        }
    }
}
