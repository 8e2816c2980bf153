import CRlottie

/// A Lottie animation loaded by rlottie, rendering one frame at a time into premultiplied ARGB32 pixels in native
/// byte order (cairo's `CAIRO_FORMAT_ARGB32`, SDL's ARGB8888 on little-endian).
///
/// The last rendered frame is kept: asking again for the same frame at the same size returns the same pixels
/// without calling rlottie (a 30 fps animation in a 60 fps scene renders every other frame).
///
/// rlottie trusts its input and can crash on malformed files, so callers load only files whose basics
/// `DioramaDocument`'s `LottieFileReader` has checked. Not thread-safe: use one per thread.
///
/// ```swift
/// let animation = try LottieAnimation(json: bytes, resourceDirectory: "/path/to/art")
/// let pixels = animation.render(frame: 12, width: 400, height: 400)
/// ```
public final class LottieAnimation {
    /// The largest side, in pixels, a frame is rendered at; larger requests are refused (nothing is drawn).
    public static let maximumSide = 8192

    /// Frames per second, as rlottie reads them.
    public let frameRate: Double
    /// Frames from the file's in point to its out point.
    public let frameCount: Int
    /// The composition's size in its own pixels.
    public let width: Int
    public let height: Int
    /// Markers as rlottie reads them: start frames are the file's own frame numbers.
    public let markers: [(name: String, startFrame: Int, endFrame: Int)]

    private let handle: OpaquePointer
    private var buffer: UnsafeMutableRawBufferPointer?
    private var bufferSize = (width: 0, height: 0)
    /// The frame (relative to the in point) now in `buffer`, nil when none is.
    private var renderedFrame: Int?
    /// How many times rlottie rendered (for tests of the reuse).
    public private(set) var renderCount = 0

    /// Loads a Lottie JSON document. `resourceDirectory` is where rlottie looks for image assets the file names
    /// (`u` + `p` inside it); callers check those paths first (`LottieFileReader`).
    public init(json: [UInt8], resourceDirectory: String = "") throws(LottieError) {
        // rlottie joins the folder, an asset's `u` and its `p` as plain strings: without a slash at the end, the
        // usual "u": "images/" would be looked up in "<folder>images/".
        let resourceDirectory = resourceDirectory.isEmpty || resourceDirectory.hasSuffix("/") ? resourceDirectory : resourceDirectory + "/"
        // NUL-terminated for C. rlottie caches parsed models by key: a key from the content means an edited
        // file is parsed again while identical bytes share one model.
        var text = json
        text.append(0)
        let key = "diorama-\(json.count)-\(Self.fingerprint(json))"
        let loaded = text.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                lottie_animation_from_data(chars, key, resourceDirectory)
            }
        }
        guard let loaded else { throw LottieError("rlottie could not read the animation") }
        handle = loaded
        frameRate = lottie_animation_get_framerate(loaded)
        frameCount = lottie_animation_get_totalframe(loaded)
        var w = 0, h = 0
        lottie_animation_get_size(loaded, &w, &h)
        width = w
        height = h
        var markers: [(String, Int, Int)] = []
        if let list = lottie_animation_get_markerlist(loaded), let pointer = list.pointee.ptr {
            for index in 0..<list.pointee.size {
                let marker = pointer[index]
                markers.append((marker.name.map { String(cString: $0) } ?? "", marker.startframe, marker.endframe))
            }
        }
        self.markers = markers
    }

    deinit {
        lottie_animation_destroy(handle)
        buffer?.deallocate()
    }

    /// The pixels of `frame` (counted from the in point, clamped to the animation) at `width`×`height`:
    /// `height` rows of `width × 4` bytes. The composition is scaled to fit, keeping its aspect ratio, centred.
    /// nil for an empty or oversized request. Valid until the next call.
    public func render(frame: Int, width: Int, height: Int) -> UnsafeRawBufferPointer? {
        guard width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide else { return nil }
        let frame = min(max(frame, 0), max(frameCount - 1, 0))
        if bufferSize != (width, height) {
            buffer?.deallocate()
            buffer = .allocate(byteCount: width * height * 4, alignment: 16)
            buffer!.initializeMemory(as: UInt8.self, repeating: 0)
            bufferSize = (width, height)
            renderedFrame = nil
        }
        guard let buffer else { return nil }
        if renderedFrame != frame {
            // rlottie clears the whole buffer before drawing (a test checks it), so no clearing here.
            lottie_animation_render(handle, frame, buffer.baseAddress!.assumingMemoryBound(to: UInt32.self), width, height, width * 4)
            renderedFrame = frame
            renderCount += 1
        }
        return UnsafeRawBufferPointer(buffer)
    }

    /// FNV-1a over the bytes, for rlottie's cache key.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// Why a Lottie animation could not be loaded.
public struct LottieError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
