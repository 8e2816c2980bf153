import CCairo
import DioramaFiles
import Foundation

/// Why a PNG file cannot be loaded, in words to follow its path.
public struct PNGFileError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var hint: String?
    /// Set when the path is no regular file that can be opened (missing, a folder, a named pipe).
    public var fileProblem: RegularFileError?
    public var description: String { reason }
}

/// Loads PNG files with cairo from a descriptor `RegularFile` opened, so a named pipe or a device is refused
/// without blocking, and (with a limit) checks the size the header declares before a pixel is decoded.
enum PNGFile {
    /// The width and height in the header of the PNG open at `fd`, nil when it does not start like a PNG.
    static func declaredSize(_ fd: Int32) -> (width: Int, height: Int)? {
        var header = [UInt8](repeating: 0, count: 24)
        let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 24, 0) }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard count == 24, Array(header[0..<8]) == signature, Array(header[12..<16]) == Array("IHDR".utf8) else { return nil }
        func number(_ at: Int) -> Int { header[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// A cairo image surface of the PNG at `path` (the caller destroys it), or why not.
    /// - Parameter maximumSide: the largest width and height accepted, in pixels; nil accepts what cairo does.
    static func load(_ path: String, maximumSide: Int? = nil) -> Result<OpaquePointer, PNGFileError> {
        var fd: Int32
        switch RegularFile.open(path) {
        case .success(let opened): fd = opened
        case .failure(let problem): return .failure(PNGFileError(reason: problem.reason, hint: problem.hint, fileProblem: problem))
        }
        defer { close(fd) }
        if let maximumSide, let size = declaredSize(fd), size.width > maximumSide || size.height > maximumSide {
            return .failure(PNGFileError(reason: "is \(size.width) x \(size.height) pixels; the limit is \(maximumSide) on each side",
                                         hint: "a smaller picture will do"))
        }
        let surface = cairo_image_surface_create_from_png_stream({ closure, data, length in
            let fd = closure!.load(as: Int32.self)
            var done = 0
            while done < Int(length) {
                let count = read(fd, data! + done, Int(length) - done)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return CAIRO_STATUS_READ_ERROR }
                done += count
            }
            return CAIRO_STATUS_SUCCESS
        }, &fd)
        guard let surface else { return .failure(PNGFileError(reason: "cannot be read as a PNG")) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let status = cairo_surface_status(surface)
            cairo_surface_destroy(surface)
            return .failure(PNGFileError(reason: "is not a readable PNG (cairo status \(status.rawValue))"))
        }
        return .success(surface)
    }
}
