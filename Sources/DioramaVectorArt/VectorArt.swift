import CCairo
import CRsvg
import DioramaFiles
import Foundation

/// One SVG file parsed by librsvg, after `SVGSafety` has looked at its bytes. Draws the whole drawing, or
/// one element by id in the place it has in the whole drawing, as vectors onto a cairo context.
///
/// librsvg's limits for hostile files stay on (no `RSVG_HANDLE_FLAG_UNLIMITED`); it fetches nothing from the
/// network and reads files only beside the SVG, and `SVGSafety` narrows that to the scenes file's folder.
///
/// Not thread-safe (a librsvg handle is not): use one per thread.
///
/// ```swift
/// let art = try VectorArt.load(path: "/scenes/art/girl.svg", allowedRoot: "/scenes")
/// art.draw(in: cr, viewport: (0, 0, 400, 300), element: "#left-leg")
/// ```
public final class VectorArt {
    /// Pixels, each side of the size an SVG declares; a larger one is refused.
    public static let maximumDeclaredSide = 16384.0

    private let handle: UnsafeMutablePointer<RsvgHandle>
    /// The width and height the SVG declares, in pixels at 96 dpi; nil when it declares none (only a viewBox).
    public let intrinsicSize: (width: Double, height: Double)?

    private init(handle: UnsafeMutablePointer<RsvgHandle>, intrinsicSize: (width: Double, height: Double)?) {
        self.handle = handle
        self.intrinsicSize = intrinsicSize
    }

    deinit { g_object_unref(handle) }

    /// Reads, checks and parses the SVG at `path`.
    /// - Parameter allowedRoot: the folder no reference inside the SVG may leave; nil refuses every file reference.
    public static func load(path: String, allowedRoot: String?) throws(VectorArtError) -> VectorArt {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw VectorArtError(reason: "it does not exist", hint: "paths are relative to the folder of the scenes file")
        }
        guard !isDirectory.boolValue else { throw VectorArtError(reason: "it is a folder, not a file") }
        // One byte past the limit, so an oversized file is refused without reading it all; only a regular file is
        // opened, so a named pipe or a device cannot block or never end.
        let data: [UInt8]
        switch RegularFile.read(path, upTo: SVGSafety.maximumFileSize) {
        case .success(let bytes): data = bytes
        case .failure(let problem) where problem.kind == .unreadable:
            throw VectorArtError(reason: "it cannot be read", hint: "check its permissions")
        case .failure(let problem): throw VectorArtError(reason: "it \(problem.reason)", hint: problem.hint)
        }
        guard data.count <= SVGSafety.maximumFileSize else {
            throw VectorArtError(reason: "it is larger than \(SVGSafety.maximumFileSize / 1_048_576) MiB",
                                 hint: "simplify the drawing, or export it without embedded pictures")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        return try parse(bytes: data, baseFile: path, fileDirectory: directory, allowedRoot: allowedRoot)
    }

    /// Checks and parses SVG bytes; `baseFile` (may be nil) is where relative references resolve from.
    public static func parse(bytes: [UInt8], baseFile: String?, fileDirectory: String,
                             allowedRoot: String?) throws(VectorArtError) -> VectorArt {
        if let problem = SVGSafety.problem(in: bytes, fileDirectory: fileDirectory, allowedRoot: allowedRoot) { throw problem }
        guard !bytes.isEmpty else { throw VectorArtError(reason: "it is empty") }
        var error: UnsafeMutablePointer<GError>?
        let parsed: UnsafeMutablePointer<RsvgHandle>? = bytes.withUnsafeBytes { buffer in
            // librsvg reads the whole stream before this returns, so the memory need not outlive the call.
            let stream = g_memory_input_stream_new_from_data(buffer.baseAddress, gssize(buffer.count), nil)
            defer { g_object_unref(stream) }
            let base = baseFile.map { g_file_new_for_path($0) } ?? nil
            defer { if let base { g_object_unref(UnsafeMutableRawPointer(base)) } }
            return rsvg_handle_new_from_stream_sync(stream, base, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        }
        guard let parsed else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "librsvg could not parse it"
            if let error { g_error_free(error) }
            throw VectorArtError(reason: "it is not a valid SVG: \(message.trimmingCharacters(in: .whitespacesAndNewlines))",
                                 hint: "open it in a browser or an SVG editor to see where it breaks")
        }
        var width = 0.0, height = 0.0
        let declared = rsvg_handle_get_intrinsic_size_in_pixels(parsed, &width, &height) != 0
        if declared, !(width <= maximumDeclaredSide && height <= maximumDeclaredSide) {
            g_object_unref(parsed)
            throw VectorArtError(reason: "it declares a size of \(Int(min(width, 1e12))) x \(Int(min(height, 1e12))) pixels; the limit is \(Int(maximumDeclaredSide)) on each side",
                                 hint: "set the svg element's width and height to the drawing's size, or leave them out and keep the viewBox")
        }
        return VectorArt(handle: parsed, intrinsicSize: declared && width > 0 && height > 0 ? (width, height) : nil)
    }

    /// Whether the drawing has an element with this id (`"#left-leg"` or `"left-leg"`).
    public func hasElement(_ id: String) -> Bool {
        rsvg_handle_has_sub(handle, Self.fragment(id)) != 0
    }

    /// The ids of the drawing's elements in the file at `path`, in document order (without `#`), for a message
    /// naming an element it lacks; empty when the file cannot be read.
    public static func elementIDs(inFileAt path: String) -> [String] {
        guard case .success(let bytes) = RegularFile.read(path, upTo: SVGSafety.maximumFileSize) else { return [] }
        var ids: [String] = []
        var seen = Set<String>()
        _ = SVGSafety.walkTags(bytes, attributesOf: nil, tag: { tag in
            if tag.kind != .closing, let id = tag.attributes["id"], !id.isEmpty, seen.insert(id).inserted { ids.append(id) }
            return nil
        }, characters: { _ in nil })
        return ids
    }

    /// Draws the whole drawing, or only `element`, fitted into `viewport` (user space of `cr`) by the SVG's own
    /// `preserveAspectRatio` (by default scaled uniformly and centred). An element is drawn where it sits in the
    /// whole drawing, so parts drawn separately with the same viewport line up. Returns false when librsvg refuses.
    @discardableResult
    public func draw(in cr: OpaquePointer, viewport: (x: Double, y: Double, width: Double, height: Double),
                     element: String? = nil) -> Bool {
        var rect = RsvgRectangle(x: viewport.x, y: viewport.y, width: viewport.width, height: viewport.height)
        var error: UnsafeMutablePointer<GError>?
        let drawn: gboolean
        if let element {
            drawn = rsvg_handle_render_layer(handle, cr, Self.fragment(element), &rect, &error)
        } else {
            drawn = rsvg_handle_render_document(handle, cr, &rect, &error)
        }
        if let error { g_error_free(error) }
        return drawn != 0
    }

    /// librsvg names elements as URL fragments.
    static func fragment(_ id: String) -> String { id.hasPrefix("#") ? id : "#" + id }
}
