import CCairo
import Foundation

/// Pixels of still SVG art, drawn once per file, element, size and device scale and painted again on later
/// frames. Bounded in bytes; the least recently used pictures go first. The pixels are exactly what
/// rasterizing afresh gives, so what the cache holds never changes a frame.
///
/// Not thread-safe: one per renderer.
public final class VectorArtRasterCache {
    public struct Key: Hashable, Sendable {
        /// The SVG's absolute path.
        public var path: String
        public var element: String?
        /// The viewport in points.
        public var width: Double
        public var height: Double
        /// Pixels per point, as quantized by `quantizedScale`.
        public var scale: Double

        public init(path: String, element: String?, width: Double, height: Double, scale: Double) {
            self.path = path
            self.element = element
            self.width = width
            self.height = height
            self.scale = scale
        }

        /// The raster's size in pixels.
        public var pixelWidth: Int { Int((width * scale).rounded(.up)) }
        public var pixelHeight: Int { Int((height * scale).rounded(.up)) }
        public var byteCount: Int { pixelWidth * pixelHeight * 4 }
    }

    /// 64 MiB by default.
    public let capacity: Int
    public private(set) var byteCount = 0
    /// How many lookups found their picture, and how many drew it.
    public private(set) var hits = 0
    public private(set) var misses = 0

    private var entries: [Key: (surface: OpaquePointer, lastUse: Int)] = [:]
    private var clock = 0

    public init(capacity: Int = 64 * 1024 * 1024) {
        self.capacity = capacity
    }

    deinit {
        for entry in entries.values { cairo_surface_destroy(entry.surface) }
    }

    public var count: Int { entries.count }

    public func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// The picture for `key`, drawn by `draw` (onto a transparent ARGB32 surface of the key's pixel size,
    /// already scaled to points) when it is not cached. Nil when the picture would not fit in the cache at all.
    public func surface(for key: Key, draw: (_ cr: OpaquePointer) -> Void) -> OpaquePointer? {
        clock += 1
        if let entry = entries[key] {
            hits += 1
            entries[key] = (entry.surface, clock)
            return entry.surface
        }
        let (width, height) = (key.pixelWidth, key.pixelHeight)
        guard width > 0, height > 0, width <= 16384, height <= 16384, key.byteCount <= capacity else { return nil }
        misses += 1
        while byteCount + key.byteCount > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            cairo_surface_destroy(oldest.value.surface)
            byteCount -= oldest.key.byteCount
            entries[oldest.key] = nil
        }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let cr = cairo_create(surface)!
        cairo_scale(cr, key.scale, key.scale)
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        entries[key] = (surface, clock)
        byteCount += key.byteCount
        return surface
    }

    /// A device scale rounded up to 4 bits of mantissa (1, 1.0625, ... 1.9375, 2, 2.125, ...): a picture is
    /// never enlarged, at most 6.25 % reduced, and the common scales (0.5, 0.75, 1, 1.5, 2, 3) are exact, so a
    /// scale animation redraws at most every few percent of change.
    public static func quantizedScale(_ scale: Double) -> Double {
        guard scale.isFinite, scale > 0 else { return 0 }
        let exponent = scale.exponent
        let unit = Double(sign: .plus, exponent: exponent - 4, significand: 1)
        return (scale / unit - 1e-9).rounded(.up) * unit
    }
}
