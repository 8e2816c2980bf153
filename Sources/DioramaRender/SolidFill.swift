import CCairo
import CPixman
import DioramaDocument
import DioramaTimeline
import Foundation

// Solid fills scan-converted by our own code. cairo's fill of a small shape is mostly set-up: a polygon, a scan
// converter, spans and a pixman composite, about ten allocations for a circle a few pixels across; 400 falling
// circles made that most of a frame. Here the outline is flattened in device space (to within 0.05 pixel, where
// cairo flattens to 0.1) and scan-converted by accumulating each edge's signed area into cells, summed along each
// row: the exact area of the pixel the shape covers (non-zero winding), where cairo samples 15 sub-rows a pixel.
// Opaque runs are filled, the rest composited with pixman's arithmetic, so interiors are cairo's pixels exactly.
//
// A pixel's coverage depends on the edges and its position alone (every row is computed from the edges directly,
// from the fill's left edge or the target's), so a fill cut by a band or a damage area gives the pixels of the whole
// frame, on either side of the cut.

extension FrameRenderer {
    /// Fills `geometry` (in the context's user space) with `paint` at `alpha`, when the paint is a solid colour and
    /// the target is whole ARGB32 pixels under a clip of whole-pixel rectangles, with the OVER operator and
    /// non-zero winding. False, with nothing drawn, when cairo must fill instead. The context's path is left alone.
    func fillSolid(_ paint: Paint, geometry: Geometry, alpha: Double, in cr: OpaquePointer) -> Bool {
        guard case .solid(let color) = paint, rasterizesFills, cairo_get_operator(cr) == CAIRO_OPERATOR_OVER,
              cairo_get_fill_rule(cr) == CAIRO_FILL_RULE_WINDING, let (target, offset) = pixelTarget(cr), isPixelExact(target)
        else { return false }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        // The outline in device space, in the kept storage (taken, so that emptying it does not copy it).
        var outline = FillOutline(matrix: matrix)
        swap(&outline.edges, &edges)
        outline.edges.removeAll(keepingCapacity: true)
        defer { swap(&outline.edges, &edges) }
        guard outline.add(geometry), var parts = wholePixelClip(cr) else { return false }
        let source = Self.cairoPremultiplied(paintHue == 0 ? color : color.hueRotated(by: paintHue), alpha: alpha)
        guard source != 0, !outline.edges.isEmpty else { return true }
        let (minX, minY, maxX, maxY) = (outline.minX, outline.minY, outline.maxX, outline.maxY)
        let surface = PixelRect(x: -offset.x, y: -offset.y, width: Int(cairo_image_surface_get_width(target)),
                                height: Int(cairo_image_surface_get_height(target)))

        // Cells from the fill's left edge (or the target's, whose left everything further left is summed into) to
        // a column past its right; rows where the fill and the clip's rectangles meet the target.
        let left = max(FillEdge.floor(minX), surface.x), right = min(FillEdge.ceil(maxX), surface.x + surface.width)
        let box = PixelRect(x: left, y: FillEdge.floor(minY), width: right - left, height: FillEdge.ceil(maxY) - FillEdge.floor(minY))
        guard box.width > 0, box.height > 0, let drawn = box.intersection(surface) else { return true }
        // The clip's rectangles within the fill, left to right (in place: no array per fill).
        var kept = 0, top = Int.max, bottom = Int.min
        for part in parts {
            guard let cut = part.intersection(drawn) else { continue }
            parts[kept] = cut
            kept += 1
            (top, bottom) = (min(top, cut.y), max(bottom, cut.y + cut.height))
        }
        parts.removeLast(parts.count - kept)
        guard kept > 0 else { return true }
        parts.sort { $0.x < $1.x }
        // Cells for a strip of rows at a time: each edge visits only the rows it crosses. Blocks of cells no edge
        // touched on a row keep the coverage before them: they are painted as runs.
        let columns = box.width + 2, rows = min(bottom - top, Self.fillStripRows)
        let blocks = (columns + Self.fillBlock - 1) / Self.fillBlock
        if fillCells.count < columns * rows { fillCells = [Double](repeating: 0, count: columns * rows) }
        if fillTouched.count < blocks * rows { fillTouched = [Bool](repeating: false, count: blocks * rows) }
        cairo_surface_flush(target)
        guard let bytes = cairo_image_surface_get_data(target) else { return true }
        let rowPixels = Int(cairo_image_surface_get_stride(target)) / 4
        let pixels = UnsafeMutableRawPointer(bytes).assumingMemoryBound(to: UInt32.self)
        outline.edges.withUnsafeBufferPointer { edges in
        fillTouched.withUnsafeMutableBufferPointer { touched in
        fillCells.withUnsafeMutableBufferPointer { cells in
            let cells = cells.baseAddress!, touched = touched.baseAddress!
            for stripTop in stride(from: top, to: bottom, by: rows) {
                let stripBottom = min(stripTop + rows, bottom)
                for edge in edges {
                    let first = max(FillEdge.floor(edge.top), stripTop), last = min(FillEdge.ceil(edge.bottom), stripBottom)
                    guard first < last else { continue }
                    for y in first..<last {
                        let line = y - stripTop
                        guard let (from, to) = edge.accumulate(row: y, left: left, width: right - left,
                                                               into: cells + line * columns) else { continue }
                        for block in (from / Self.fillBlock)...(to / Self.fillBlock) { touched[line * blocks + block] = true }
                    }
                }
                for y in stripTop..<stripBottom {
                    let line = y - stripTop
                    Self.composite(source, cells: cells + line * columns, touched: touched + line * blocks, columns: columns,
                                   left: left, parts: parts, y: y, row: pixels + (y + offset.y) * rowPixels + offset.x)
                }
            }
        }
        }
        }
        filledSolids += 1
        // In device units: cairo adds the surface's offset itself.
        cairo_surface_mark_dirty_rectangle(target, Int32(drawn.x), Int32(top), Int32(drawn.width), Int32(bottom - top))
        return true
    }

    /// Rows of a solid fill's cells made at a time, and cells a block (touched by an edge or not).
    static let fillStripRows = 64
    static let fillBlock = 16

    /// Sums one row's cells into coverage, painting `source` through it over the parts (sorted by x) that hold device
    /// row `y`, in `row` (indexed by device column); clears the cells and blocks for the next strip.
    private static func composite(_ source: UInt32, cells: UnsafeMutablePointer<Double>, touched: UnsafeMutablePointer<Bool>,
                                  columns: Int, left: Int, parts: [PixelRect], y: Int, row: UnsafeMutablePointer<UInt32>) {
        let sourceAlpha = source >> 24
        var sum = 0.0
        /// Paints `count` pixels from device column `x` at the coverage of `sum`.
        @inline(__always) func paint(_ x: Int, _ count: Int) {
            guard count > 0 else { return }
            // Non-zero winding: any number of turns covers once.
            let coverage = UInt32(min(abs(sum), 1) * 255 + 0.5)
            if coverage == 0 { return }
            if coverage == 255 && sourceAlpha == 255 {
                // pixman fills long runs with the widest stores the machine has.
                if count < 32 || pixman_fill(row + x, Int32(count), 32, 0, 0, Int32(count), 1, source) == 0 {
                    (row + x).update(repeating: source, count: count)
                }
                return
            }
            // pixman's OVER through an 8-bit mask: the source in the coverage, over the pixel.
            let painted = coverage == 255 ? source : multiply(source, by: coverage)
            let keep = 255 - (painted >> 24)
            for x in x..<(x + count) { row[x] = painted &+ multiply(row[x], by: keep) }
        }
        var partIndex = 0
        func nextPart() -> PixelRect? {
            while partIndex < parts.count {
                let part = parts[partIndex]
                partIndex += 1
                if part.y <= y && y < part.y + part.height { return part }
            }
            return nil
        }
        var part = nextPart()
        let blocks = (columns + fillBlock - 1) / fillBlock
        var block = 0
        while block < blocks {
            let start = block * fillBlock
            if !touched[block] {
                // Constant coverage up to the next touched block: runs within the parts.
                while block < blocks, !touched[block] { block += 1 }
                let end = min(block * fillBlock, columns)
                while let current = part {
                    let from = max(current.x - left, start), to = min(current.x + current.width - left, end)
                    if to > from { paint(left + from, to - from) }
                    if current.x + current.width - left > end { break }
                    part = nextPart()
                }
                continue
            }
            touched[block] = false
            block += 1
            let end = min(start + fillBlock, columns)
            for column in start..<end {
                sum += cells[column]
                cells[column] = 0
                while let current = part, current.x + current.width - left <= column { part = nextPart() }
                if let current = part, current.x - left <= column { paint(left + column, 1) }
            }
        }
    }

    /// Each 8-bit channel of `pixel` times `factor`/255, rounded as pixman rounds (`MUL_UN8`).
    @inline(__always)
    static func multiply(_ pixel: UInt32, by factor: UInt32) -> UInt32 {
        // Two channels at a time, 16 bits apart.
        var low = (pixel & 0x00FF_00FF) &* factor &+ 0x0080_0080
        low = ((low &+ ((low >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var high = ((pixel >> 8) & 0x00FF_00FF) &* factor &+ 0x0080_0080
        high = (high &+ ((high >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return low | high
    }

    /// The premultiplied ARGB32 pixel cairo makes of a solid colour: 16-bit components rounded, then truncated to 8.
    static func cairoPremultiplied(_ color: Color, alpha: Double) -> UInt32 {
        // NaN reads as 0 rather than trap in the conversions below.
        func unit(_ v: Double) -> Double { v > 0 ? min(v, 1) : 0 }
        let a = unit(unit(color.alpha) * alpha)
        func channel(_ v: Double) -> UInt32 { UInt32(unit(v) * a * 65535 + 0.5) >> 8 }
        return (UInt32(a * 65535 + 0.5) >> 8) << 24 | channel(color.red) << 16 | channel(color.green) << 8 | channel(color.blue)
    }
}

/// A straight edge of a flattened outline, in device pixels, not horizontal.
struct FillEdge {
    /// The edge's top and bottom rows (device y), +1 going down and -1 going up, its x at the top and per row.
    let top: Double, bottom: Double, direction: Double, xAtTop: Double, slope: Double

    init(x0: Double, y0: Double, x1: Double, y1: Double) {
        (top, bottom, direction) = y0 < y1 ? (y0, y1, 1) : (y1, y0, -1)
        xAtTop = y0 < y1 ? x0 : x1
        slope = (x1 - x0) / (y1 - y0)
    }

    /// `rounded(.down)` and `.up` as whole numbers, without a call into libm (cairo's coordinates are within ±2^23).
    @inline(__always) static func floor(_ v: Double) -> Int { Int(v) - (v < Double(Int(v)) ? 1 : 0) }
    @inline(__always) static func ceil(_ v: Double) -> Int { Int(v) + (v > Double(Int(v)) ? 1 : 0) }

    /// Adds the edge's signed area on device row `row` to `cells` (cell 0 is device column `left`, cell `width` is
    /// column `left + width`, and one more follows): in each cell, the share of the cell's pixel right of the edge,
    /// less what the cells before it got, so that a row's running sum is the share of each pixel the outline covers.
    /// Returns the cells it touched. The edge's ends on the row are computed from the edge alone (not from other
    /// rows); where it runs left of the cells it counts at cell 0, and right of them at cell `width`.
    @inline(__always)
    func accumulate(row: Int, left: Int, width: Int, into cells: UnsafeMutablePointer<Double>) -> (Int, Int)? {
        let rowTop = Double(row), rowBottom = rowTop + 1
        guard top < rowBottom, bottom > rowTop else { return nil }
        let enter = max(top, rowTop), leave = min(bottom, rowBottom)
        let origin = xAtTop - Double(left), limit = Double(width)
        let xa = origin + (enter - top) * slope, xb = origin + (leave - top) * slope
        if min(xa, xb) >= 0 && max(xa, xb) <= limit {
            return Self.add(from: xa, to: xb, d: (leave - enter) * direction, into: cells)
        }
        let d = (leave - enter) * direction
        // Wholly outside: along the bound.
        if max(xa, xb) <= 0 {
            cells[0] += d
            return (0, 0)
        }
        if min(xa, xb) >= limit {
            cells[width] += d
            return (width, width)
        }
        // Cut where the edge crosses the bounds (at most twice); the parts outside run along them.
        func crossing(_ bound: Double) -> Double {
            let y = top + (bound - origin) / slope
            return y > enter && y < leave ? y : leave
        }
        let (c0, c1) = (crossing(0), crossing(limit))
        let cuts = (enter, min(c0, c1), max(c0, c1), leave)
        var touched = (Int.max, Int.min)
        for (from, to) in [(cuts.0, cuts.1), (cuts.1, cuts.2), (cuts.2, cuts.3)] where to > from {
            let xFrom = min(max(origin + (from - top) * slope, 0), limit), xTo = min(max(origin + (to - top) * slope, 0), limit)
            let part = Self.add(from: xFrom, to: xTo, d: (to - from) * direction, into: cells)
            touched = (min(touched.0, part.0), max(touched.1, part.1))
        }
        return touched
    }

    /// Adds a piece of edge from x `xa` to `xb` (cell units, at least 0) spanning `d` of a row (signed) to `cells`.
    @inline(__always)
    private static func add(from xa: Double, to xb: Double, d: Double, into cells: UnsafeMutablePointer<Double>) -> (Int, Int) {
        let (from, to) = xa < xb ? (xa, xb) : (xb, xa)
        // Both are at least 0: truncation is the floor.
        let first = Int(from), last = Int(to) + (to > Double(Int(to)) ? 1 : 0)
        let fromFloor = Double(first), toCeil = Double(last)
        if last <= first + 1 {
            // Within one cell: the part right of the edge's middle in this cell, the rest in the next.
            let middle = 0.5 * (from + to) - fromFloor
            cells[first] += d * (1 - middle)
            cells[first + 1] += d * middle
            return (first, first + 1)
        }
        let perColumn = 1 / (to - from)
        let fromFraction = from - fromFloor
        let firstArea = 0.5 * perColumn * (1 - fromFraction) * (1 - fromFraction)
        let toFraction = to - toCeil + 1
        let lastArea = 0.5 * perColumn * toFraction * toFraction
        cells[first] += d * firstArea
        if last == first + 2 {
            cells[first + 1] += d * (1 - firstArea - lastArea)
        } else {
            let second = perColumn * (1.5 - fromFraction)
            cells[first + 1] += d * (second - firstArea)
            if first + 2 < last - 1 {
                for column in (first + 2)..<(last - 1) { cells[column] += d * perColumn }
            }
            let beforeLast = second + Double(last - first - 3) * perColumn
            cells[last - 1] += d * (1 - beforeLast - lastArea)
        }
        cells[last] += d * lastArea
        return (first, last)
    }
}

/// A shape's outline as straight edges in device pixels (the matrix applied), with their bounds.
struct FillOutline {
    let matrix: cairo_matrix_t
    var edges: [FillEdge] = []
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    /// False once a point was not finite (min and max pass NaN by).
    private var finite = true
    private var start: (x: Double, y: Double)?
    private var current: (x: Double, y: Double)?

    /// Largest distance (device pixels) between a curve and its edges.
    static let tolerance = 0.05
    /// Device coordinates beyond this are cairo's to fill (it clamps them to its fixed point).
    static let reach = 1e6

    init(matrix: cairo_matrix_t) {
        self.matrix = matrix
    }

    private func device(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (matrix.xx * x + matrix.xy * y + matrix.x0, matrix.yx * x + matrix.yy * y + matrix.y0)
    }

    /// Device pixels per user unit, at most (the matrix's larger singular value, or a bound of it).
    private var scale: Double {
        (matrix.xx * matrix.xx + matrix.yx * matrix.yx + matrix.xy * matrix.xy + matrix.yy * matrix.yy).squareRoot()
    }

    private mutating func move(to point: (x: Double, y: Double)) {
        close()
        start = point
        current = point
        extend(point)
    }

    private mutating func line(to point: (x: Double, y: Double)) {
        guard let from = current else { return move(to: point) }
        if from.y != point.y { edges.append(FillEdge(x0: from.x, y0: from.y, x1: point.x, y1: point.y)) }
        current = point
        extend(point)
    }

    /// Ends the sub-path with an edge back to its start (every sub-path is closed for filling).
    mutating func close() {
        if let start { line(to: start) }
        current = start
    }

    private mutating func extend(_ point: (x: Double, y: Double)) {
        finite = finite && point.x.isFinite && point.y.isFinite
        minX = min(minX, point.x); maxX = max(maxX, point.x)
        minY = min(minY, point.y); maxY = max(maxY, point.y)
    }

    /// An arc of the ellipse at (`cx`, `cy`) with radii `rx`, `ry` (user units), from angle `from` by `sweep`
    /// (radians, positive clockwise on screen), as edges whose corners lie on it; starts a sub-path when asked.
    private mutating func arc(cx: Double, cy: Double, rx: Double, ry: Double, from: Double, sweep: Double, startsPath: Bool) {
        let radius = max(rx, ry) * scale
        // A chord of angle a sits radius × (1 − cos(a / 2)) inside its arc.
        let step = radius > Self.tolerance ? 2 * acos(1 - Self.tolerance / radius) : .pi / 2
        let count = max(2, min(4096, Int((abs(sweep) / step).rounded(.up))))
        let (c, s) = (cos(sweep / Double(count)), sin(sweep / Double(count)))
        var (u, v) = (cos(from), sin(from))
        let first = device(cx + rx * u, cy + ry * v)
        if startsPath { move(to: first) } else { line(to: first) }
        for _ in 0..<count {
            (u, v) = (u * c - v * s, u * s + v * c)
            line(to: device(cx + rx * u, cy + ry * v))
        }
    }

    /// Adds the geometry as SwiftUI draws it; false when cairo must fill it (coordinates out of reach).
    mutating func add(_ geometry: Geometry) -> Bool {
        switch geometry {
        case .rect(let rect, let cornerRadius):
            let box = BoundingBox(rect)
            let (width, height) = (box.maxX - box.minX, box.maxY - box.minY)
            guard width > 0, height > 0 else { return true }
            let radius = min(max(cornerRadius, 0), width / 2, height / 2)
            if radius <= 0 {
                move(to: device(box.minX, box.minY))
                line(to: device(box.maxX, box.minY))
                line(to: device(box.maxX, box.maxY))
                line(to: device(box.minX, box.maxY))
            } else {
                let quarter = Double.pi / 2
                arc(cx: box.maxX - radius, cy: box.minY + radius, rx: radius, ry: radius, from: -quarter, sweep: quarter, startsPath: true)
                arc(cx: box.maxX - radius, cy: box.maxY - radius, rx: radius, ry: radius, from: 0, sweep: quarter, startsPath: false)
                arc(cx: box.minX + radius, cy: box.maxY - radius, rx: radius, ry: radius, from: quarter, sweep: quarter, startsPath: false)
                arc(cx: box.minX + radius, cy: box.minY + radius, rx: radius, ry: radius, from: 2 * quarter, sweep: quarter, startsPath: false)
            }
        case .ellipse(let center, let radiusX, let radiusY):
            guard radiusX > 0, radiusY > 0, radiusX.isFinite, radiusY.isFinite else { return true }
            arc(cx: center.x, cy: center.y, rx: radiusX, ry: radiusY, from: 0, sweep: 2 * .pi, startsPath: true)
        case .path(let data):
            var last = (x: 0.0, y: 0.0), begin = last
            for command in data.commands {
                switch command {
                case .move(let p):
                    move(to: device(p.x, p.y))
                    last = (p.x, p.y)
                    begin = last
                case .line(let p):
                    line(to: device(p.x, p.y))
                    last = (p.x, p.y)
                case .quad(let control, let p):
                    // The cubic with the same curve: controls two thirds of the way to the quadratic's.
                    curve(from: last, (last.x + 2 / 3 * (control.x - last.x), last.y + 2 / 3 * (control.y - last.y)),
                          (p.x + 2 / 3 * (control.x - p.x), p.y + 2 / 3 * (control.y - p.y)), (p.x, p.y))
                    last = (p.x, p.y)
                case .cubic(let c1, let c2, let p):
                    curve(from: last, (c1.x, c1.y), (c2.x, c2.y), (p.x, p.y))
                    last = (p.x, p.y)
                case .close:
                    close()
                    last = begin
                }
            }
        }
        close()
        guard !edges.isEmpty else { return true }
        return finite && max(max(abs(minX), abs(maxX)), max(abs(minY), abs(maxY))) < Self.reach
    }

    /// A cubic from `p0` (user units) in straight pieces, as many as keep it within the tolerance (Wang's formula).
    private mutating func curve(from p0: (x: Double, y: Double), _ p1: (x: Double, y: Double), _ p2: (x: Double, y: Double),
                                _ p3: (x: Double, y: Double)) {
        let (d0, d1, d2, d3) = (device(p0.x, p0.y), device(p1.x, p1.y), device(p2.x, p2.y), device(p3.x, p3.y))
        if current == nil { move(to: d0) }
        let bend = max(hypot(d0.x - 2 * d1.x + d2.x, d0.y - 2 * d1.y + d2.y), hypot(d1.x - 2 * d2.x + d3.x, d1.y - 2 * d2.y + d3.y))
        let pieces = bend.isFinite ? max(1, min(4096, Int((0.75 * bend / Self.tolerance).squareRoot().rounded(.up)))) : 1
        for index in 1...pieces {
            let t = Double(index) / Double(pieces), u = 1 - t
            let (a, b, c, d) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
            line(to: (a * d0.x + b * d1.x + c * d2.x + d * d3.x, a * d0.y + b * d1.y + c * d2.y + d * d3.y))
        }
    }
}
