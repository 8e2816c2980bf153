import CCairo
import CPixman
import DioramaDocument
import DioramaTimeline
import Foundation

/// Storage a renderer keeps from fill to fill for scan conversion (nothing allocated per fill): the edges of the
/// outline being filled, its cells (summed along each row) and the blocks of them an edge touched, and the clip's
/// rectangles the fill is cut to.
struct FillScratch {
    var edges: [FillEdge] = []
    var cells: [Int64] = []
    var touched: [UInt64] = []
    var parts: [PixelRect] = []

    /// At least `cellCount` cells and `wordCount` words of touched blocks, for the duration of `body`.
    mutating func withCells(_ cellCount: Int, _ wordCount: Int,
                            _ body: (UnsafeMutablePointer<Int64>, UnsafeMutablePointer<UInt64>) -> Void) {
        if cells.count < cellCount { cells = [Int64](repeating: 0, count: cellCount) }
        if touched.count < wordCount { touched = [UInt64](repeating: 0, count: wordCount) }
        touched.withUnsafeMutableBufferPointer { touched in
            cells.withUnsafeMutableBufferPointer { cells in body(cells.baseAddress!, touched.baseAddress!) }
        }
    }
}

/// The clip of drawFrame's context while it draws a run of top-level nodes, read once for all their fills (reading it
/// costs two allocations). Valid for that context alone, outside clip shapes: no code clips it and then fills without
/// a cairo_restore in between, and a layer or silhouette draws on a context of its own.
struct RunClip {
    var context: OpaquePointer?
    /// Nil until the run's first fill reads the clip; then whether it is whole pixels (`rectangles`).
    var isWhole: Bool?
    var rectangles: [PixelRect] = []
}

// Solid fills scan-converted by our own code. cairo's fill of a small shape is mostly set-up: a polygon, a scan
// converter, spans and a pixman composite, about ten allocations for a circle a few pixels across; 400 falling
// circles made that most of a frame. Here the outline is flattened in device space (to within 0.05 pixel, where
// cairo flattens to 0.1) and scan-converted by accumulating each edge's signed area into cells, summed along each
// row: the exact area of the pixel the shape covers (non-zero winding), where cairo samples 15 sub-rows a pixel.
// Opaque runs are filled, the rest composited with pixman's arithmetic, so interiors are cairo's pixels exactly.
// Large shapes stay cairo's: there the set-up is nothing and its span compositing is faster than ours (the ocean's
// waves and clouds took 15 % longer per frame ours). cairo's fills are cut by bands and damage areas by rows only
// (FrameDamage.swift widens areas across them). Inside clip shapes, a solid fill goes through a coverage cut by the
// shapes, as a gradient fill does (`paintThroughCoverage`, GradientFill.swift). Solid strokes are outlined and filled
// here (StrokeOutline.swift).
//
// A pixel's coverage depends on the edges and its position alone, whatever part of the fill is drawn: each edge's
// share of a row is computed from the edge alone, and its cells hold differences of its running coverage rounded to
// fixed point, so that the integer sum up to any pixel is the same whether it starts at the fill's left or at a
// band's (everything left of the columns drawn is summed into one cell). A fill cut by a band or a damage area gives
// the pixels of the whole frame, and costs what the cut part does.

extension FrameRenderer {
    /// Fills `geometry` (in the context's user space) with `color` at `alpha` (a fill `route` scan-converts), when the
    /// target is whole ARGB32 pixels under a clip of whole-pixel rectangles, with the OVER operator and non-zero
    /// winding. False, with nothing drawn, when cairo must fill instead. The context's path is left alone. `placed`:
    /// the geometry's matrix to device space when it is not the context's own (a node placed without cairo_transform,
    /// see `fillWithoutSaving`).
    func fillSolid(_ color: Color, geometry: Geometry, alpha: Double, placed: cairo_matrix_t? = nil, in cr: OpaquePointer) -> Bool {
        guard cairo_get_fill_rule(cr) == CAIRO_FILL_RULE_WINDING, let (target, offset, ctm) = ownPaintTarget(cr) else { return false }
        return rasterize(color, alpha: alpha, matrix: placed ?? ctm, target: target, offset: offset, in: cr) { $0.add(geometry) }
    }

    /// Fills `geometry` inside clip shapes through a coverage cut by the same shapes, strip by strip, as a gradient
    /// fill is (GradientFill.swift). False, with nothing drawn, when cairo must fill instead.
    func fillSolidThroughCoverage(_ color: Color, geometry: Geometry, alpha: Double, in cr: OpaquePointer) -> Bool {
        guard cairo_get_fill_rule(cr) == CAIRO_FILL_RULE_WINDING, let (_, _, matrix) = ownPaintTarget(cr),
              let extent = FillOutline.box(of: geometry, matrix: matrix) else { return false }
        var outline = keptOutline(matrix: matrix)
        defer { keep(&outline) }
        let scanned = outline.add(geometry)
        return paintThroughCoverage(.solid(color), alpha: alpha, box: BoundingBox(minX: extent.minX, minY: extent.minY, maxX: extent.maxX,
                                                                              maxY: extent.maxY), in: cr,
                                    outline: scanned ? outline : nil) { pen, place in
            place(matrix)
            addPath(geometry, to: pen)
            cairo_fill(pen)
        }
    }

    /// The context's target, its offset and matrix, when our own code may paint on it as cairo would: whole ARGB32
    /// device pixels, with the OVER operator.
    func ownPaintTarget(_ cr: OpaquePointer) -> (surface: OpaquePointer, offset: (x: Int, y: Int), matrix: cairo_matrix_t)? {
        guard cairo_get_operator(cr) == CAIRO_OPERATOR_OVER, let (target, offset) = pixelTarget(cr), isPixelExact(target) else { return nil }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        return (target, offset, matrix)
    }

    /// An empty outline under `matrix` whose edges are the kept storage, taken (so that emptying it does not copy it);
    /// `keep` gives the storage back when the outline is done with.
    func keptOutline(matrix: cairo_matrix_t) -> FillOutline {
        var outline = FillOutline(matrix: matrix)
        swap(&outline.edges, &fillScratch.edges)
        outline.edges.removeAll(keepingCapacity: true)
        return outline
    }

    func keep(_ outline: inout FillOutline) {
        swap(&outline.edges, &fillScratch.edges)
    }

    /// `readWholePixelClip`, read once for a run of top-level nodes on drawFrame's context (see `RunClip`).
    /// Inside clip shapes the context's clip is read as it stands: it is not the run's, and must not become it.
    func readClip(_ cr: OpaquePointer, into parts: inout [PixelRect]) -> Bool {
        guard cr == runClip.context, clipShapes.isEmpty else { return readWholePixelClip(cr, into: &parts) }
        // Read by the run's first fill, for the others.
        if runClip.isWhole == nil { runClip.isWhole = readWholePixelClip(cr, into: &runClip.rectangles) }
        parts.removeAll(keepingCapacity: true)
        parts.append(contentsOf: runClip.rectangles)
        return runClip.isWhole!
    }

    /// Scan-converts the outline `build` adds (false: cairo must draw it instead) and paints `color` at `alpha`
    /// through its coverage, within the context's clip (which must be whole-pixel rectangles). False, with nothing
    /// drawn, when cairo must.
    func rasterize(_ color: Color, alpha: Double, matrix: cairo_matrix_t, target: OpaquePointer, offset: (x: Int, y: Int),
                   in cr: OpaquePointer, build: (inout FillOutline) -> Bool) -> Bool {
        // The outline in device space, in the kept storage.
        var outline = keptOutline(matrix: matrix)
        defer { keep(&outline) }
        // The clip's rectangles, in storage kept from fill to fill.
        var parts: [PixelRect] = []
        swap(&parts, &fillScratch.parts)
        defer { swap(&parts, &fillScratch.parts) }
        guard readClip(cr, into: &parts), build(&outline) else { return false }
        let source = Self.cairoPremultiplied(paintHue == 0 ? color : color.hueRotated(by: paintHue), alpha: alpha)
        guard source != 0, !outline.edges.isEmpty else { return true }
        let (minX, minY, maxX, maxY) = (outline.minX, outline.minY, outline.maxX, outline.maxY)
        let surface = PixelRect(x: -offset.x, y: -offset.y, width: Int(cairo_image_surface_get_width(target)),
                                height: Int(cairo_image_surface_get_height(target)))

        // The rows and columns where the fill and the clip's rectangles meet the target; the clip's rectangles
        // within, left to right (in place).
        let box = PixelRect(x: FillEdge.floor(minX), y: FillEdge.floor(minY), width: FillEdge.ceil(maxX) - FillEdge.floor(minX),
                            height: FillEdge.ceil(maxY) - FillEdge.floor(minY))
        guard let drawn = box.intersection(surface) else { return true }
        var kept = 0, top = Int.max, bottom = Int.min, left = Int.max, right = Int.min
        // By index: iterating the array would hold a reference to it, and the first write would copy it.
        for index in parts.indices {
            guard let cut = parts[index].intersection(drawn) else { continue }
            parts[kept] = cut
            kept += 1
            (top, bottom) = (min(top, cut.y), max(bottom, cut.y + cut.height))
            (left, right) = (min(left, cut.x), max(right, cut.x + cut.width))
        }
        parts.removeLast(parts.count - kept)
        guard kept > 0 else { return true }
        parts.sort { $0.x < $1.x }
        // Cells for a strip of rows at a time: each edge visits only the rows it crosses. Cell 0 holds what lies left
        // of column `left`, cell 1 + i column `left + i`. Blocks of cells no edge touched on a row keep the coverage
        // before them: they are painted as runs.
        let columns = right - left + 1, rows = min(bottom - top, Self.fillStripRows)
        // One bit a block, a row's bits in whole words.
        let words = (columns + 64 * Self.fillBlock - 1) / (64 * Self.fillBlock)
        cairo_surface_flush(target)
        guard let bytes = cairo_image_surface_get_data(target) else { return true }
        let rowPixels = Int(cairo_image_surface_get_stride(target)) / 4
        let pixels = UnsafeMutableRawPointer(bytes).assumingMemoryBound(to: UInt32.self)
        parts.withUnsafeBufferPointer { parts in
        outline.edges.withUnsafeBufferPointer { edges in
        fillScratch.withCells(columns * rows, words * rows) { cells, touched in
            for stripTop in stride(from: top, to: bottom, by: rows) {
                let stripBottom = min(stripTop + rows, bottom)
                Self.accumulate(edges, rows: stripTop..<stripBottom, left: left, right: right, cells: cells, touched: touched)
                for y in stripTop..<stripBottom {
                    let line = y - stripTop
                    var painter = RowPainter(source: source, row: pixels + (y + offset.y) * rowPixels + offset.x, left: left,
                                             parts: parts, y: y)
                    Self.composite(&painter, cells: cells + line * columns, touched: touched + line * words, columns: columns)
                }
            }
        }
        }
        }
        statistics.filledSolids += 1
        // In device units: cairo adds the surface's offset itself.
        cairo_surface_mark_dirty_rectangle(target, Int32(left), Int32(top), Int32(right - left), Int32(bottom - top))
        return true
    }

    /// Rows of a solid fill's cells made at a time, and cells a block (touched by an edge or not).
    static let fillStripRows = 64
    static let fillBlock = 16

    /// Writes the coverage of `edges` (non-zero winding, the exact area `rasterize` paints through) on device rows
    /// `rows` and columns `left..<left + width` into `bytes`, rows of `stride` bytes from the area's top left, 0 to
    /// 255: the coverage of a fill, or of a clip shape around it, that `paintThroughCoverage` composites through
    /// (GradientFill.swift). As with `rasterize`, a pixel's value depends on the edges and its position alone.
    func writeCoverage(of edges: UnsafeBufferPointer<FillEdge>, rows: Range<Int>, left: Int, width: Int,
                       into bytes: UnsafeMutablePointer<UInt8>, stride: Int) {
        guard width > 0, !rows.isEmpty else { return }
        let right = left + width, columns = width + 1, strip = min(rows.count, Self.fillStripRows)
        let words = (columns + 64 * Self.fillBlock - 1) / (64 * Self.fillBlock)
        fillScratch.withCells(columns * strip, words * strip) { cells, touched in
            for stripTop in Swift.stride(from: rows.lowerBound, to: rows.upperBound, by: strip) {
                let stripBottom = min(stripTop + strip, rows.upperBound)
                Self.accumulate(edges, rows: stripTop..<stripBottom, left: left, right: right, cells: cells, touched: touched)
                for y in stripTop..<stripBottom {
                    let line = y - stripTop
                    var painter = CoverageRow(row: bytes + (y - rows.lowerBound) * stride, width: width)
                    Self.composite(&painter, cells: cells + line * columns, touched: touched + line * words, columns: columns)
                }
            }
        }
    }

    /// Adds the share of every edge on device rows `rows` to the cells of those rows (`right − left + 1` a row, see
    /// `FillEdge.accumulate`), marking the blocks each touches.
    @inline(__always)
    private static func accumulate(_ edges: UnsafeBufferPointer<FillEdge>, rows: Range<Int>, left: Int, right: Int,
                                   cells: UnsafeMutablePointer<Int64>, touched: UnsafeMutablePointer<UInt64>) {
        let columns = right - left + 1, words = (columns + 64 * fillBlock - 1) / (64 * fillBlock)
        for edge in edges where edge.left < Double(right) {
            let first = max(FillEdge.floor(edge.top), rows.lowerBound), last = min(FillEdge.ceil(edge.bottom), rows.upperBound)
            guard first < last else { continue }
            for y in first..<last {
                let line = y - rows.lowerBound
                guard let (from, to) = edge.accumulate(row: y, left: left, width: right - left,
                                                       into: cells + line * columns) else { continue }
                for block in (from / fillBlock)...(to / fillBlock) {
                    touched[line * words + block >> 6] |= 1 << UInt64(block & 63)
                }
            }
        }
    }

    /// Sums one row's cells into coverage for `painter`, run by run; clears the cells and blocks for the next strip.
    @inline(__always)
    private static func composite<Painter: SpanPainter>(_ painter: inout Painter, cells: UnsafeMutablePointer<Int64>,
                                                         touched: UnsafeMutablePointer<UInt64>, columns: Int) {
        // Cell c holds pixel c − 1 of the row (column left + c − 1); cell 0, what lies left of them.
        let blocks = (columns + fillBlock - 1) / fillBlock
        /// The first touched block from `block` on (`blocks` when none is), clearing its bit.
        func nextTouched(from block: Int) -> Int {
            var word = block >> 6
            var bits = touched[word] & (~0 << UInt64(block & 63))
            while bits == 0 {
                word += 1
                guard word << 6 < blocks else { return blocks }
                bits = touched[word]
            }
            touched[word] &= ~(bits & (0 &- bits))
            return min(word << 6 + bits.trailingZeroBitCount, blocks)
        }
        var block = 0
        var touchedBlock = nextTouched(from: 0)
        while block < blocks {
            let start = block * fillBlock
            if block < touchedBlock {
                // Constant coverage up to the next touched block.
                block = touchedBlock
                painter.span(start - 1, min(block * fillBlock, columns) - 1)
                continue
            }
            block += 1
            if block < blocks { touchedBlock = nextTouched(from: block) }
            // Within a touched block, runs of cells that add nothing.
            let end = min(start + fillBlock, columns)
            var cell = start
            while cell < end {
                painter.sum &+= cells[cell]
                cells[cell] = 0
                var next = cell + 1
                while next < end, cells[next] == 0 { next += 1 }
                painter.span(cell - 1, next - 1)
                cell = next
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

    /// `multiply(_:by:)` for eight pixels.
    @inline(__always)
    static func multiply(_ pixels: SIMD8<UInt32>, by factor: UInt32) -> SIMD8<UInt32> {
        let mask = SIMD8<UInt32>(repeating: 0x00FF_00FF), round = SIMD8<UInt32>(repeating: 0x0080_0080)
        var low = (pixels & mask) &* factor &+ round
        low = ((low &+ ((low &>> 8) & mask)) &>> 8) & mask
        var high = ((pixels &>> 8) & mask) &* factor &+ round
        high = (high &+ ((high &>> 8) & mask)) & SIMD8(repeating: 0xFF00_FF00)
        return low | high
    }

    /// A pixman solid fill of the premultiplied ARGB32 `pixel`: its 8-bit components repeated into 16 bits, which pixman
    /// takes back exactly. The caller unrefs it.
    static func pixmanSolidFill(_ pixel: UInt32) -> OpaquePointer? {
        func wide(_ shift: UInt32) -> UInt16 { UInt16((pixel >> shift) & 0xFF) * 257 }
        var color = pixman_color_t(red: wide(16), green: wide(8), blue: wide(0), alpha: wide(24))
        return pixman_image_create_solid_fill(&color)
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

/// What a row's summed cells go to, run by run (`FrameRenderer.composite`).
private protocol SpanPainter {
    /// The running sum of the row's cells (fixed point).
    var sum: Int64 { get set }
    /// Takes the pixels from `from` up to `to` (indices from the cells' first column; −1 is left of it) at the
    /// coverage of `sum`.
    mutating func span(_ from: Int, _ to: Int)
}

extension SpanPainter {
    /// The coverage of `sum`, 0...255 (non-zero winding: any number of turns covers once).
    @inline(__always)
    var coverage: UInt32 { UInt32(truncatingIfNeeded: (min(abs(sum), FillEdge.unit) &* 255 &+ FillEdge.unit / 2) >> 32) }
}

/// Writes one row of a coverage as bytes.
private struct CoverageRow: SpanPainter {
    let row: UnsafeMutablePointer<UInt8>
    let width: Int
    var sum: Int64 = 0

    init(row: UnsafeMutablePointer<UInt8>, width: Int) {
        (self.row, self.width) = (row, width)
    }

    @inline(__always)
    mutating func span(_ from: Int, _ to: Int) {
        let start = max(from, 0), end = min(to, width)
        guard end > start else { return }
        if end - start == 1 {
            row[start] = UInt8(truncatingIfNeeded: coverage)
        } else {
            (row + start).update(repeating: UInt8(truncatingIfNeeded: coverage), count: end - start)
        }
    }
}

/// Paints one row of a solid fill: runs of pixels at the coverage summed so far, within the clip's parts.
private struct RowPainter: SpanPainter {
    let source: UInt32
    let row: UnsafeMutablePointer<UInt32>
    let left: Int
    let parts: UnsafeBufferPointer<PixelRect>
    let y: Int
    /// The running sum of the row's cells (fixed point).
    var sum: Int64 = 0
    private var partIndex = 0
    /// The part being painted (the first holding row `y` that ends right of what was painted), nil after the last.
    private var part: PixelRect?

    init(source: UInt32, row: UnsafeMutablePointer<UInt32>, left: Int, parts: UnsafeBufferPointer<PixelRect>, y: Int) {
        (self.source, self.row, self.left, self.parts, self.y) = (source, row, left, parts, y)
        part = nextPart()
    }

    private mutating func nextPart() -> PixelRect? {
        while partIndex < parts.count {
            let part = parts[partIndex]
            partIndex += 1
            if part.y <= y && y < part.y + part.height { return part }
        }
        return nil
    }

    /// Paints the pixels from `from` up to `to` (indices from column `left`) that lie in the parts, at the coverage
    /// of `sum`.
    @inline(__always)
    mutating func span(_ from: Int, _ to: Int) {
        while let current = part {
            let start = max(current.x - left, from), end = min(current.x + current.width - left, to)
            if end > start { paint(left + start, end - start) }
            if current.x + current.width - left > to { break }
            part = nextPart()
        }
    }

    /// Paints `count` pixels from device column `x` at the coverage of `sum`.
    @inline(__always)
    private func paint(_ x: Int, _ count: Int) {
        let coverage = self.coverage
        if coverage == 0 { return }
        if coverage == 255 && source >> 24 == 255 {
            // pixman fills long runs with the widest stores the machine has.
            if count < 32 || pixman_fill(row + x, Int32(count), 32, 0, 0, Int32(count), 1, source) == 0 {
                (row + x).update(repeating: source, count: count)
            }
            return
        }
        // pixman's OVER through an 8-bit mask: the source in the coverage, over the pixel.
        let painted = coverage == 255 ? source : FrameRenderer.multiply(source, by: coverage)
        let keep = 255 - (painted >> 24)
        var x = x
        let end = x + count
        // Eight pixels at a time in vector registers, the same arithmetic.
        while x + 8 <= end {
            let raw = UnsafeMutableRawPointer(row + x)
            raw.storeBytes(of: SIMD8(repeating: painted) &+ FrameRenderer.multiply(raw.loadUnaligned(as: SIMD8<UInt32>.self), by: keep),
                           as: SIMD8<UInt32>.self)
            x += 8
        }
        while x < end {
            row[x] = painted &+ FrameRenderer.multiply(row[x], by: keep)
            x += 1
        }
    }
}

/// A straight edge of a flattened outline, in device pixels, not horizontal.
struct FillEdge {
    /// The edge's top and bottom rows (device y), +1 going down and -1 going up, its x at the top and per row, and
    /// its leftmost x.
    let top: Double, bottom: Double, direction: Double, xAtTop: Double, slope: Double, left: Double

    /// Cells are in fixed point: a whole pixel's coverage is 2^32.
    static let unit: Int64 = 1 << 32

    init(x0: Double, y0: Double, x1: Double, y1: Double) {
        (top, bottom, direction) = y0 < y1 ? (y0, y1, 1) : (y1, y0, -1)
        xAtTop = y0 < y1 ? x0 : x1
        slope = (x1 - x0) / (y1 - y0)
        left = min(x0, x1)
    }

    /// `rounded(.down)` and `.up` as whole numbers, without a call into libm (coordinates are within ±10^6).
    @inline(__always) static func floor(_ v: Double) -> Int {
        let n = nearest(v)
        return Int(n &- (Double(n) > v ? 1 : 0))
    }
    @inline(__always) static func ceil(_ v: Double) -> Int {
        let n = nearest(v)
        return Int(n &+ (Double(n) < v ? 1 : 0))
    }

    /// `v` rounded to the nearest whole number (ties to even), for finite |v| < 2^51: adding 1.5 × 2^52 leaves that
    /// number in the double's low bits. Swift's conversion checks its range on every call, and this runs for every
    /// cell an edge crosses (a fifth of a small fill's cost).
    @inline(__always) static func nearest(_ v: Double) -> Int64 {
        Int64(bitPattern: (v + 6_755_399_441_055_744.0).bitPattern) &- 0x4338_0000_0000_0000
    }

    /// Adds the edge's share of device row `row` to `cells`: cell 1 + i for column `left + i` (i < `width`), cell 0
    /// for everything left of them. Column by column, the edge's running coverage (the share of the pixel right of
    /// the edge, times the part of the row it spans, signed by its direction) rounded to fixed point, less the
    /// running coverage of the column before: the sum of the cells up to a pixel is that pixel's rounded running
    /// coverage, whichever column the cells start at. Returns the cells it touched; nil when it misses the row or
    /// lies right of the cells.
    @inline(__always)
    func accumulate(row: Int, left: Int, width: Int, into cells: UnsafeMutablePointer<Int64>) -> (Int, Int)? {
        let rowTop = Double(row), rowBottom = rowTop + 1
        guard top < rowBottom, bottom > rowTop else { return nil }
        let enter = max(top, rowTop), leave = min(bottom, rowBottom)
        // In device columns, not relative to `left`: every value below is the same for any cells.
        let xa = xAtTop + (enter - top) * slope, xb = xAtTop + (leave - top) * slope
        let (low, high) = xa < xb ? (xa, xb) : (xb, xa)
        guard low < Double(left + width) else { return nil }
        let d = (leave - enter) * direction
        // Columns from `first` on may be partly right of the edge; from `last` on, wholly.
        let first = Self.floor(low), last = Self.ceil(high)
        if last <= left {
            cells[0] &+= Self.fixed(d)
            return (0, 0)
        }
        let start = max(first, left), end = min(last, left + width - 1)
        if last == first + 1 && start == first {
            // Within one column (most edges of small shapes and thin strokes): the share `shareRight` gives there,
            // then the whole of the edge's from the next column on, as the loop below works them out.
            let running = Self.fixed(d * (Double(last) - (low + high) / 2))
            cells[1 + first - left] &+= running
            if end == last { cells[1 + last - left] &+= Self.fixed(d) &- running }
            return (1 + start - left, 1 + end - left)
        }
        // The running coverage left of `start` need not be added: cell 1 + start − left would take it back.
        var before: Int64 = 0
        // Columns wholly within the edge's span: the share grows by the same step each column (one formula for the
        // column wherever the cells start, so the same numbers).
        let perColumn = high > low ? 1 / (high - low) : 0
        for column in start...end {
            let x = Double(column)
            let share = column >= last ? 1 : x >= low && x + 1 <= high ? (x + 0.5 - low) * perColumn
                : Self.shareRight(ofColumn: column, from: low, to: high)
            let running = Self.fixed(d * share)
            cells[1 + column - left] &+= running &- before
            before = running
        }
        return (1 + start - left, 1 + end - left)
    }

    /// The share of device column `column` (x from `column` to `column + 1`) right of an edge running from x `low`
    /// to `high` across the row, averaged over the row: 0 left of the edge, 1 right of it.
    @inline(__always)
    private static func shareRight(ofColumn column: Int, from low: Double, to high: Double) -> Double {
        let u = Double(column) + 1
        guard high > low else { return min(max(u - low, 0), 1) }
        // Within the column (the common case for small shapes): right of the edge's middle.
        if low >= u - 1 && high <= u { return u - (low + high) / 2 }
        // ∫ clamp(u − x, 0, 1) dx over the edge's span: 1 left of u − 1, u − x up to u, then 0.
        let whole = max(min(high, u - 1) - low, 0)
        let (a, b) = (max(low, u - 1), min(high, u))
        let partial = b > a ? ((u - a) * (u - a) - (u - b) * (u - b)) / 2 : 0
        return (whole + partial) / (high - low)
    }

    /// A coverage (−1...1 pixel) in the cells' fixed point, rounded to nearest (ties to even).
    @inline(__always)
    private static func fixed(_ coverage: Double) -> Int64 {
        nearest(coverage * Double(unit))
    }
}

/// A shape's outline as straight edges in device pixels (the matrix applied), with their bounds.
struct FillOutline: FlatteningOutline {
    let matrix: cairo_matrix_t
    var edges: [FillEdge] = []
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    /// False once a point was not finite (min and max pass NaN by).
    fileprivate var finite = true
    private var start: (x: Double, y: Double)?
    private(set) var current: (x: Double, y: Double)?

    /// Largest distance (device pixels) between a curve and its edges.
    static let tolerance = 0.05
    /// Device coordinates beyond this are cairo's to fill (it clamps them to its fixed point).
    static let reach = 1e6

    init(matrix: cairo_matrix_t) {
        self.matrix = matrix
    }

    mutating func move(to point: (x: Double, y: Double)) {
        close()
        start = point
        current = point
        extend(point)
    }

    mutating func line(to point: (x: Double, y: Double)) {
        guard let from = current else { return move(to: point) }
        // An edge a billionth of a row high covers nothing to speak of, and its slope could be infinite.
        if abs(from.y - point.y) > 1e-9 { edges.append(FillEdge(x0: from.x, y0: from.y, x1: point.x, y1: point.y)) }
        current = point
        extend(point)
    }

    /// Ends the sub-path with an edge back to its start (every sub-path is closed for filling).
    mutating func close() {
        if let start { line(to: start) }
        current = start
    }

    fileprivate mutating func extend(_ point: (x: Double, y: Double)) {
        finite = finite && point.x.isFinite && point.y.isFinite
        minX = min(minX, point.x); maxX = max(maxX, point.x)
        minY = min(minY, point.y); maxY = max(maxY, point.y)
    }

    /// The device box of the points that define `geometry` (which holds its outline), when they are finite and within
    /// reach; nil otherwise (cairo's to fill).
    static func box(of geometry: Geometry, matrix: cairo_matrix_t) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var outline = FillOutline(matrix: matrix)
        func corners(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            outline.extend(outline.device(x0, y0))
            outline.extend(outline.device(x1, y0))
            outline.extend(outline.device(x1, y1))
            outline.extend(outline.device(x0, y1))
        }
        switch geometry {
        case .rect(let rect, _):
            corners(rect.x, rect.y, rect.x + rect.width, rect.y + rect.height)
        case .ellipse(let center, let radiusX, let radiusY):
            corners(center.x - radiusX, center.y - radiusY, center.x + radiusX, center.y + radiusY)
        case .path(let data):
            // A path starts at the origin until it moves.
            if case .move = data.commands.first {} else { outline.extend(outline.device(0, 0)) }
            for command in data.commands {
                switch command {
                case .move(let p), .line(let p):
                    outline.extend(outline.device(p.x, p.y))
                case .quad(let c, let p):
                    outline.extend(outline.device(c.x, c.y))
                    outline.extend(outline.device(p.x, p.y))
                case .cubic(let c1, let c2, let p):
                    outline.extend(outline.device(c1.x, c1.y))
                    outline.extend(outline.device(c2.x, c2.y))
                    outline.extend(outline.device(p.x, p.y))
                case .close:
                    break
                }
            }
        }
        guard outline.finite, outline.minX <= outline.maxX,
              max(max(abs(outline.minX), abs(outline.maxX)), max(abs(outline.minY), abs(outline.maxY))) < reach else { return nil }
        return (outline.minX, outline.minY, outline.maxX, outline.maxY)
    }


    /// Adds the geometry as SwiftUI draws it; false when cairo must fill it (coordinates out of reach).
    mutating func add(_ geometry: Geometry) -> Bool {
        flatten(geometry)
        close()
        return isWithinReach
    }

    /// True when every point is finite and within `reach` (or there are no edges).
    var isWithinReach: Bool {
        edges.isEmpty || finite && max(max(abs(minX), abs(maxX)), max(abs(minY), abs(maxY))) < Self.reach
    }
}

/// An outline flattened to straight pieces in device pixels: a fill's edges (FillOutline) or a stroke's centre line
/// (StrokePath, StrokeOutline.swift).
protocol FlatteningOutline {
    /// User space to device pixels.
    var matrix: cairo_matrix_t { get }
    /// The point the last piece ended at (device pixels); nil before anything was added.
    var current: (x: Double, y: Double)? { get }
    mutating func move(to point: (x: Double, y: Double))
    mutating func line(to point: (x: Double, y: Double))
    /// Ends the sub-path with a piece back to its start.
    mutating func close()
}

extension FlatteningOutline {
    func device(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (matrix.xx * x + matrix.xy * y + matrix.x0, matrix.yx * x + matrix.yy * y + matrix.y0)
    }

    /// Device pixels per user unit, at most: the matrix's larger singular value.
    var scale: Double { matrix.largestStretch }

    /// An arc of the ellipse at (`cx`, `cy`) with radii `rx`, `ry` (user units), from angle `from` by `sweep`
    /// (radians, positive clockwise on screen), as edges whose corners lie on it; starts a sub-path when asked.
    mutating func arc(cx: Double, cy: Double, rx: Double, ry: Double, from: Double, sweep: Double, startsPath: Bool) {
        let radius = max(rx, ry) * scale
        // A chord of angle a sits radius × (1 − cos(a / 2)) inside its arc.
        let step = radius > FillOutline.tolerance ? 2 * acos(1 - FillOutline.tolerance / radius) : .pi / 2
        let pieces = (abs(sweep) / step).rounded(.up)
        let count = pieces.isFinite ? Int(min(max(pieces, 2), 4096)) : 4096
        let (c, s) = (cos(sweep / Double(count)), sin(sweep / Double(count)))
        var (u, v) = (cos(from), sin(from))
        let first = device(cx + rx * u, cy + ry * v)
        if startsPath { move(to: first) } else { line(to: first) }
        for _ in 0..<count {
            (u, v) = (u * c - v * s, u * s + v * c)
            line(to: device(cx + rx * u, cy + ry * v))
        }
    }

    /// Adds the geometry as SwiftUI draws it: a rectangle or an ellipse as a closed sub-path, a path as its commands
    /// say (a sub-path is closed only by `close`).
    mutating func flatten(_ geometry: Geometry) {
        switch geometry {
        case .rect(let rect, let cornerRadius):
            let box = BoundingBox(rect)
            let (width, height) = (box.maxX - box.minX, box.maxY - box.minY)
            guard width > 0, height > 0 else { return }
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
            close()
        case .ellipse(let center, let radiusX, let radiusY):
            guard radiusX > 0, radiusY > 0, radiusX.isFinite, radiusY.isFinite else { return }
            arc(cx: center.x, cy: center.y, rx: radiusX, ry: radiusY, from: 0, sweep: 2 * .pi, startsPath: true)
            close()
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
                    let (c1, c2) = cubicControls(from: Point(x: last.x, y: last.y), quadratic: control, to: p)
                    curve(from: last, (c1.x, c1.y), (c2.x, c2.y), (p.x, p.y))
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
    }


    /// A cubic from `p0` (user units) in straight pieces, as many as keep it within the tolerance (Wang's formula).
    mutating func curve(from p0: (x: Double, y: Double), _ p1: (x: Double, y: Double), _ p2: (x: Double, y: Double),
                                _ p3: (x: Double, y: Double)) {
        // Without a current point, cairo starts the curve at its first control point.
        let (d1, d2, d3) = (device(p1.x, p1.y), device(p2.x, p2.y), device(p3.x, p3.y))
        let d0 = current == nil ? d1 : device(p0.x, p0.y)
        if current == nil { move(to: d0) }
        let bend = max(hypot(d0.x - 2 * d1.x + d2.x, d0.y - 2 * d1.y + d2.y), hypot(d1.x - 2 * d2.x + d3.x, d1.y - 2 * d2.y + d3.y))
        let estimate = (0.75 * bend / FillOutline.tolerance).squareRoot().rounded(.up)
        let pieces = estimate.isFinite ? Int(min(max(estimate, 1), 4096)) : 1
        for index in 1...pieces {
            let t = Double(index) / Double(pieces), u = 1 - t
            let (a, b, c, d) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
            line(to: (a * d0.x + b * d1.x + c * d2.x + d * d3.x, a * d0.y + b * d1.y + c * d2.y + d * d3.y))
        }
    }
}
