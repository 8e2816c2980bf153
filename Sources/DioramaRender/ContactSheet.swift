import CCairo
import Foundation

/// `diorama render --sheet`: frames laid out in a grid, one row per scene, each cell labelled under its picture (the
/// scene's id and the moment's time, drawn with pango), so a playlist can be reviewed at a glance. The cells' pixels
/// come from the frame renderer (`place`); the sheet draws its background, title and labels itself. The same cells
/// give the same bytes.
public struct ContactSheet {
    /// One cell's label, or nil for an empty cell (a moment past the scene's end), with a note drawn in its place.
    public struct Cell: Sendable {
        public var label: String
        /// Drawn in the cell instead of a picture (e.g. "past the end"): the cell gets no frame.
        public var emptyNote: String?

        public init(label: String, emptyNote: String? = nil) {
            self.label = label
            self.emptyNote = emptyNote
        }
    }

    public let cellWidth: Int
    public let cellHeight: Int
    /// Row by row (a scene each), the cells left to right.
    public let rows: [[Cell]]
    public let width: Int
    public let height: Int
    private(set) public var frame: RenderedFrame

    // Layout, scaled with the cell's height so a sheet of small cells stays compact and one of large cells legible.
    private let gap: Int
    private let labelHeight: Int
    private let titleHeight: Int
    private let labelSize: Double

    /// A sheet of `rows` of cells `cellWidth` x `cellHeight`, titled `title`: its background, title and labels drawn,
    /// its cells dark until `place` fills them.
    public init(title: String, rows: [[Cell]], cellWidth: Int, cellHeight: Int) throws {
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.rows = rows
        let scale = min(max(Double(cellHeight) / 270, 0.6), 3)
        labelSize = (13 * scale).rounded()
        gap = Int((12 * scale).rounded())
        labelHeight = Int((labelSize * 1.7).rounded())
        titleHeight = Int((labelSize * 2.4).rounded())
        let columns = max(rows.map(\.count).max() ?? 0, 1)
        width = gap + columns * (cellWidth + gap)
        height = gap + titleHeight + rows.count * (cellHeight + labelHeight + gap)
        frame = RenderedFrame(width: width, height: height)
        try drawChrome(title: title)
    }

    /// The top-left pixel of the cell in `row` and `column`.
    public func origin(row: Int, column: Int) -> (x: Int, y: Int) {
        (gap + column * (cellWidth + gap), gap + titleHeight + row * (cellHeight + labelHeight + gap))
    }

    /// Copies a rendered frame (`cellWidth` x `cellHeight` premultiplied ARGB32, rows of `cellWidth * 4` bytes) into
    /// its cell.
    public mutating func place(_ pixels: UnsafeRawBufferPointer, row: Int, column: Int) {
        let (left, top) = origin(row: row, column: column)
        let rowBytes = cellWidth * 4, stride = frame.stride
        precondition(pixels.count >= rowBytes * cellHeight, "a cell needs \(cellWidth)x\(cellHeight) pixels")
        frame.bytes.withUnsafeMutableBytes { sheet in
            for y in 0..<cellHeight {
                let target = sheet.baseAddress! + (top + y) * stride + left * 4
                target.copyMemory(from: pixels.baseAddress! + y * rowBytes, byteCount: rowBytes)
            }
        }
    }

    private mutating func drawChrome(title: String) throws {
        let (width, height, rows) = (self.width, self.height, self.rows)
        let labelSize = self.labelSize
        let cellWidth = Double(self.cellWidth), cellHeight = Double(self.cellHeight)
        let labelHeight = Double(self.labelHeight)
        let origins = rows.indices.map { row in rows[row].indices.map { origin(row: row, column: $0) } }
        let gap = Double(self.gap)
        try frame.bytes.withUnsafeMutableBytes { buffer in
            let surface = cairo_image_surface_create_for_data(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                              CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))!
            defer { cairo_surface_destroy(surface) }
            let cr = cairo_create(surface)!
            defer { cairo_destroy(cr) }
            let text = PictureText(cr)
            let background = TimelinePicture.background
            cairo_set_source_rgba(cr, background.r, background.g, background.b, 1)
            cairo_paint(cr)
            text.show(title, x: gap, y: gap + labelSize * 0.2, size: labelSize * 1.25, weight: 700, color: TimelinePicture.ink,
                      maxWidth: Double(width) - 2 * gap)
            for (row, cells) in rows.enumerated() {
                for (column, cell) in cells.enumerated() {
                    let (x, y) = (Double(origins[row][column].x), Double(origins[row][column].y))
                    // The cell's frame until a picture is placed over it; an empty cell keeps it, with its note.
                    cairo_set_source_rgba(cr, 1, 1, 1, 0.05)
                    cairo_rectangle(cr, x, y, cellWidth, cellHeight)
                    cairo_fill(cr)
                    if let note = cell.emptyNote {
                        text.show(note, x: x + cellWidth / 2, y: y + cellHeight / 2 - labelSize * 0.6, size: labelSize,
                                  color: TimelinePicture.faint, alignCenter: true, maxWidth: cellWidth - 8)
                    }
                    text.show(cell.label, x: x, y: y + cellHeight + (labelHeight - labelSize * 1.25) / 2, size: labelSize,
                              color: TimelinePicture.label, maxWidth: cellWidth)
                }
            }
            cairo_surface_flush(surface)
            let status = cairo_status(cr)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw RenderError("cairo failed while drawing the contact sheet: \(String(cString: cairo_status_to_string(status)))")
            }
        }
    }
}
