/// Which square cells of a picture hold ink (a pixel with alpha): a painter that resamples the picture under a
/// rotation visits only the output pixels near inked cells, since the rest would blend a transparent sample.
public struct InkCells: Sendable, Equatable {
    /// Cells are `side` × `side` pixels; the last row and column may be cut short by the picture's edge.
    public let side: Int
    public let columns: Int
    public let rows: Int
    private var inked: [Bool]

    /// Every cell of a `width` × `height` picture inked (an opaque picture).
    public init(allInkedWidth width: Int, height: Int, side: Int = 16) {
        self.side = side
        columns = (width + side - 1) / side
        rows = (height + side - 1) / side
        inked = [Bool](repeating: true, count: columns * rows)
    }

    /// The cells of premultiplied 32-bit pixels (alpha in the top byte), rows `rowPixels` apart.
    public init(pixels: UnsafePointer<UInt32>, width: Int, height: Int, rowPixels: Int, side: Int = 16) {
        self.side = side
        columns = (width + side - 1) / side
        rows = (height + side - 1) / side
        inked = [Bool](repeating: false, count: columns * rows)
        for y in 0..<height {
            let row = pixels + y * rowPixels, cellRow = (y / side) * columns
            for x in 0..<width where row[x] >> 24 != 0 { inked[cellRow + x / side] = true }
        }
    }

    public subscript(column: Int, row: Int) -> Bool { inked[row * columns + column] }
}
