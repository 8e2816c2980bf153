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

    /// 64 MiB by default; raised with the output size (`ensureCapacity`).
    public private(set) var capacity: Int
    public private(set) var byteCount = 0
    /// How many lookups found their picture, and how many drew it.
    public private(set) var hits = 0
    public private(set) var misses = 0

    /// A cached picture: the pixels that hold ink (any alpha), all that needs painting, kept as a surface of the ink
    /// box's size placed at `ink.x`, `ink.y` of the full raster (a part of a large drawing keeps only its own pixels).
    public struct Raster {
        public let surface: OpaquePointer
        public let ink: (x: Int, y: Int, width: Int, height: Int)
        /// The cells of `surface` that hold ink.
        public let cells: InkCells
        /// Bytes the kept surface holds.
        public var byteCount: Int { ink.width * ink.height * 4 }
    }

    private var entries: [Key: (raster: Raster, lastUse: Int)] = [:]
    private var clock = 0

    public init(capacity: Int = 64 * 1024 * 1024) {
        self.capacity = capacity
    }

    deinit {
        for entry in entries.values { cairo_surface_destroy(entry.raster.surface) }
    }

    public var count: Int { entries.count }

    public func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// The cached picture for `key`, if any, without counting a use.
    public func cached(_ key: Key) -> Raster? { entries[key]?.raster }

    /// The picture for `key`, drawn by `draw` (onto a transparent ARGB32 surface of the key's pixel size,
    /// already scaled to points) when it is not cached. Nil when the picture would not fit in the cache at all.
    public func raster(for key: Key, draw: (_ cr: OpaquePointer) -> Void) -> Raster? {
        clock += 1
        if let entry = entries[key] {
            hits += 1
            entries[key] = (entry.raster, clock)
            return entry.raster
        }
        let (width, height) = (key.pixelWidth, key.pixelHeight)
        guard width > 0, height > 0, width <= 16384, height <= 16384, key.byteCount <= capacity else { return nil }
        misses += 1
        let full = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(full) }
        let cr = cairo_create(full)!
        cairo_scale(cr, key.scale, key.scale)
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(full)
        let ink = Self.inkBounds(of: full)
        let kept = Self.kept(full, ink: ink)
        let raster = Raster(surface: kept, ink: ink, cells: Self.cells(of: kept))
        while byteCount + raster.byteCount > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            cairo_surface_destroy(oldest.value.raster.surface)
            byteCount -= oldest.value.raster.byteCount
            entries[oldest.key] = nil
        }
        entries[key] = (raster, clock)
        byteCount += raster.byteCount
        return raster
    }

    /// Raises the bound to at least `bytes` (never lowers it): a renderer asks for a few frames' worth of its output,
    /// so a full-canvas drawing at 4K (33 MB) is kept and not rasterized again every frame.
    public func ensureCapacity(_ bytes: Int) {
        capacity = max(capacity, bytes)
    }

    /// The ink box of a full raster as a surface of its own: RGB24 when every pixel of it is opaque (cairo
    /// composites an opaque source as a copy, where an ARGB32 one is blended pixel by pixel: a full-frame drawing
    /// cost 0.22 ms a frame against 0.14 ms for the same picture as an opaque PNG), else ARGB32. An empty box keeps
    /// a 1 × 1 surface that is never painted.
    static func kept(_ full: OpaquePointer, ink: (x: Int, y: Int, width: Int, height: Int)) -> OpaquePointer {
        guard ink.width > 0, ink.height > 0, let data = cairo_image_surface_get_data(full) else {
            return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)!
        }
        let stride = Int(cairo_image_surface_get_stride(full)) / 4
        let pixels = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        var opaque = true
        rows: for y in ink.y..<(ink.y + ink.height) {
            let row = pixels + y * stride + ink.x
            for x in 0..<ink.width where row[x] >> 24 != 0xFF {
                opaque = false
                break rows
            }
        }
        let surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(ink.width), Int32(ink.height))!
        cairo_surface_flush(surface)
        let target = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!).assumingMemoryBound(to: UInt32.self)
        let targetStride = Int(cairo_image_surface_get_stride(surface)) / 4
        for y in 0..<ink.height {
            (target + y * targetStride).update(from: pixels + (ink.y + y) * stride + ink.x, count: ink.width)
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    /// The inked cells of a kept surface (all of them when it is opaque).
    static func cells(of surface: OpaquePointer) -> InkCells {
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        guard cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32, let data = cairo_image_surface_get_data(surface) else {
            return InkCells(allInkedWidth: width, height: height)
        }
        return InkCells(pixels: UnsafeRawPointer(data).assumingMemoryBound(to: UInt32.self), width: width, height: height,
                        rowPixels: Int(cairo_image_surface_get_stride(surface)) / 4)
    }

    /// The smallest pixel rectangle holding every pixel with alpha; empty (0 × 0) when there is none.
    public static func inkBounds(of surface: OpaquePointer) -> (x: Int, y: Int, width: Int, height: Int) {
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let rowPixels = Int(cairo_image_surface_get_stride(surface)) / 4
        guard let data = cairo_image_surface_get_data(surface) else { return (0, 0, 0, 0) }
        let pixels = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            let row = pixels + y * rowPixels
            var first = -1, last = -1
            for x in 0..<width where row[x] >> 24 != 0 {
                if first < 0 { first = x }
                last = x
            }
            guard first >= 0 else { continue }
            minX = min(minX, first); maxX = max(maxX, last)
            minY = min(minY, y); maxY = y
        }
        return maxX < 0 ? (0, 0, 0, 0) : (minX, minY, maxX - minX + 1, maxY - minY + 1)
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
