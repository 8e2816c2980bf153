// Art brought from outside: SVG drawings (whole, or one element by id) and PNG sprite sheets,
// both through the image node (see docs/FORMAT.md "image").

extension ImageContent {
    public init(path: String, rect: Rect, element: String?, sprite: SpriteSheet? = nil) {
        self.init(path: path, rect: rect)
        self.element = element
        self.sprite = sprite
    }

    /// Whether the path names an SVG drawing (by its extension, as the renderer decides).
    public var isVector: Bool { Self.isVectorPath(path) }

    /// Ends in ".svg", in any case: read from the path's last bytes, as the renderer asks it of every image every frame
    /// (lowercasing the path made a string each time).
    public static func isVectorPath(_ path: String) -> Bool {
        let ending = path.utf8.suffix(4)
        guard ending.count == 4 else { return false }
        // ASCII letters lowercased by setting bit 5; "." and the letters are ASCII, and no byte from 0x80 up (any
        // byte of a character that is not) matches one either way.
        return zip(ending, ".svg".utf8).allSatisfy { $0 | 0x20 == $1 | 0x20 } && ending.first == UInt8(ascii: ".")
    }
}

/// A PNG cut into a grid of equal frames, numbered row by row from the top left.
public struct SpriteSheet: Sendable, Equatable {
    public var columns: Int
    public var rows: Int
    /// How many cells hold frames (the last row may be partly empty); 1 ... columns × rows.
    public var count: Int
    /// The frame shown: 0 ..< count.
    public var frame: Int

    public init(columns: Int, rows: Int, count: Int? = nil, frame: Int = 0) {
        self.columns = columns
        self.rows = rows
        self.count = count ?? columns * rows
        self.frame = frame
    }

    /// The frame an animated value shows: rounded down, kept inside the sheet, so a from/to animation from 0
    /// to `count` walks every frame for an equal share of its duration, like the range `0..<count`.
    public func frame(forValue value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return min(max(Int(value.rounded(.down).clamped(-1, Double(count))), 0), count - 1)
    }

    /// Columns and rows, most each: a sheet is a picture, and its cells must stay at least a pixel.
    public static let maximumSide = 1024
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
