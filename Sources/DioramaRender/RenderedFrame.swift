import CCairo
import Foundation

/// One rendered frame: premultiplied ARGB32 pixels in cairo's layout (little-endian B, G, R, A bytes),
/// which is also SDL's `SDL_PIXELFORMAT_ARGB8888`.
public struct RenderedFrame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    public var bytes: [UInt8]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.stride = width * 4
        self.bytes = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// The pixel at column `x`, row `y` as 0xAARRGGBB (premultiplied).
    public func pixel(x: Int, y: Int) -> UInt32 {
        let i = y * stride + 4 * x
        return UInt32(bytes[i + 3]) << 24 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i])
    }

    /// Reads a PNG file (any PNG cairo reads; converted to premultiplied ARGB32).
    /// - Parameter maximumSide: the largest width and height accepted, in pixels, checked in the file's header before
    ///   anything is decoded; nil accepts any size cairo reads.
    public init(contentsOfPNG url: URL, maximumSide: Int? = nil) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw RenderError("\(url.path): no such file")
        }
        let loaded: OpaquePointer
        switch PNGFile.load(url.path, maximumSide: maximumSide) {
        case .success(let surface): loaded = surface
        case .failure(let problem): throw RenderError("\(url.path): \(problem.reason)")
        }
        defer { cairo_surface_destroy(loaded) }
        // Paint into an ARGB32 surface so RGB24 and A8 files come out in one layout.
        let width = Int(cairo_image_surface_get_width(loaded)), height = Int(cairo_image_surface_get_height(loaded))
        self.init(width: width, height: height)
        bytes.withUnsafeMutableBytes { buffer in
            let target = cairo_image_surface_create_for_data(
                buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                Int32(width), Int32(height), Int32(width * 4))
            let cr = cairo_create(target)
            cairo_set_source_surface(cr, loaded, 0, 0)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cr)
            cairo_destroy(cr)
            cairo_surface_finish(target)
            cairo_surface_destroy(target)
        }
    }

    /// Writes the frame as a PNG file without ever clobbering a file that is not to be replaced: the PNG goes
    /// to a hidden temporary name in the same folder first, then is linked into place, which fails if the
    /// name exists (even if it appeared meanwhile), or with `replacing`, renamed over it (atomically).
    /// - Throws: `RenderError` naming the file when it exists and `replacing` is false, or cannot be written.
    public func writePNG(to url: URL, replacing: Bool) throws {
        try writeInPlace(of: url, replacing: replacing) { try writePNG(to: $0) }
    }

    /// Writes the frame as a PNG file, replacing any file at `url` (callers decide whether that is allowed;
    /// see `writePNG(to:replacing:)`).
    public func writePNG(to url: URL) throws {
        if let png = PNGEncoder.encode(self) {
            guard FileManager.default.createFile(atPath: url.path, contents: Data(png)) else {
                throw RenderError("\(url.path): cannot write the PNG (\(String(cString: strerror(errno))))")
            }
            return
        }
        try writePNGWithCairo(to: url)
    }

    /// cairo's own PNG writer (libpng at zlib's default level): smaller files, about four times slower.
    func writePNGWithCairo(to url: URL) throws {
        var copy = bytes  // cairo wants a mutable pointer; PNG encoding dwarfs the copy.
        let status = copy.withUnsafeMutableBytes { buffer -> cairo_status_t in
            let surface = cairo_image_surface_create_for_data(
                buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                Int32(width), Int32(height), Int32(stride))
            defer { cairo_surface_destroy(surface) }
            return cairo_surface_write_to_png(surface, url.path)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("\(url.path): cannot write the PNG (\(String(cString: cairo_status_to_string(status))))")
        }
    }
}

/// Writes a file through `write` to a hidden temporary name beside `url`, then links it into place, which fails if
/// the name exists (even if it appeared meanwhile), or with `replacing`, renames it over the old one (atomically):
/// a file that is not to be replaced is never clobbered, and nothing half-written is ever left under `url`.
/// - Throws: `RenderError` naming the file when it exists and `replacing` is false, or cannot be written.
func writeInPlace(of url: URL, replacing: Bool, _ write: (URL) throws -> Void) throws {
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
    defer { unlink(temporary.path) }
    try write(temporary)
    if replacing {
        guard rename(temporary.path, url.path) == 0 else {
            throw RenderError("\(url.path): cannot be written (\(String(cString: strerror(errno))))")
        }
    } else if link(temporary.path, url.path) != 0 {
        let reason = errno == EEXIST ? "a file of that name exists and was left as it is" : String(cString: strerror(errno))
        throw RenderError("\(url.path): not written: \(reason)")
    }
}
