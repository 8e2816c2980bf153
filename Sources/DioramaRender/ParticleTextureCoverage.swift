import CCairo
import Foundation

/// A particle texture's opacity, painted once and kept as a pyramid of coverage (each level half the one before, by
/// 2 × 2 means): what a textured particle's sprite is sampled from.
///
/// Why not paint each sprite with the texture's painter: smoke that grows and turns asks for a new sprite for most of
/// its particles in most frames (its radius in quarter pixels, its turn in 36 steps and its sub-pixel place all move),
/// and an SVG element painted by librsvg took about 240 µs a sprite, 17 ms of each frame of the particles scene at
/// 1280x720. A sprite sampled here costs a few nanoseconds a pixel.
struct ParticleTextureCoverage {
    /// Pixels across the largest level: a texture's square at 4K seldom reaches 300.
    static let side = 512

    /// Levels, largest first: level k is `side >> k` pixels a side, kept with a clear border a pixel wide (rows of
    /// `(side >> k) + 2`), so that the four pixels about any point within a pixel of the level need no bounds checks.
    private let levels: [[UInt8]]

    /// Paints `painter` (which fits the texture into a square 1.8 radii across, centred on the origin) at `side`
    /// pixels across; nil when cairo cannot make the surface.
    init?(painter: ParticleSpriteCache.Painter) {
        let side = Self.side
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(side), Int32(side)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_translate(cr, Double(side) / 2, Double(side) / 2)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        painter(cr, Double(side) / 1.8)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        var level = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side { level[y * side + x] = data[y * stride + x] }
        }
        var plain = [level]
        var size = side
        while size > 1 {
            let half = size / 2, above = plain[plain.count - 1]
            var next = [UInt8](repeating: 0, count: half * half)
            for y in 0..<half {
                for x in 0..<half {
                    let top = 2 * y * size + 2 * x, bottom = top + size
                    let sum = Int(above[top]) + Int(above[top + 1]) + Int(above[bottom]) + Int(above[bottom + 1])
                    next[y * half + x] = UInt8((sum + 2) / 4)
                }
            }
            plain.append(next)
            size = half
        }
        levels = plain.map { level in
            let size = Int(Double(level.count).squareRoot()), pitch = size + 2
            var bordered = [UInt8](repeating: 0, count: pitch * pitch)
            for y in 0..<size {
                for x in 0..<size { bordered[(y + 1) * pitch + x + 1] = level[y * size + x] }
            }
            return bordered
        }
    }

    /// Writes the coverage of a texture of `radius` pixels, centred at (`centreX`, `centreY`) of a `size` × `size`
    /// square, turned `degrees` clockwise and squashed to `squash` of its height before the turn (as cairo's
    /// translate, rotate, scale(1, squash) place it), into `coverage`, row by row.
    func sample(radius: Double, centreX: Double, centreY: Double, degrees: Double, squash: Double, size: Int,
                into coverage: UnsafeMutablePointer<UInt8>) {
        let side = Double(Self.side)
        // Largest-level pixels a sprite pixel spans, across and (squashed) down: the level whose pixels are at most
        // twice smaller than the sprite's is sampled bilinearly.
        let across = side / (1.8 * radius), down = across / squash
        let footprint = (across * down).squareRoot()
        let level = min(levels.count - 1, max(0, Int(log2(max(footprint, 1)).rounded(.down))))
        let levelSide = Self.side >> level, pitch = levelSide + 2
        let scale = across / Double(1 << level)
        let radians = degrees * .pi / 180
        let (cosine, sine) = (cos(radians), sin(radians))
        // The point a pixel centre samples, in level pixels (their centres at whole numbers) and moved by one for the
        // border: u = u0 + du·column along a row (the turn and the squash undone), v likewise.
        let (du, dv) = (cosine * scale, -sine / squash * scale)
        let middle = Double(levelSide) / 2 + 0.5
        // Fixed point with 8 bits of fraction, kept within the bordered level.
        let highest = (levelSide + 1) * 256 - 1
        levels[level].withUnsafeBufferPointer { texels in
            let base = texels.baseAddress!
            for row in 0..<size {
                let dy = Double(row) + 0.5 - centreY, dx = 0.5 - centreX
                let u0 = (cosine * dx + sine * dy) * scale + middle, v0 = (cosine * dy - sine * dx) / squash * scale + middle
                // The columns whose point lies within the bordered level (0 < u, v < levelSide + 1); the rest are clear.
                var first = 0.0, last = Double(size - 1)
                for (start, step) in [(u0, du), (v0, dv)] {
                    let upper = Double(levelSide + 1)
                    if step > 0 {
                        first = max(first, ((0 - start) / step).rounded(.down) + 1)
                        last = min(last, ((upper - start) / step).rounded(.up) - 1)
                    } else if step < 0 {
                        first = max(first, ((upper - start) / step).rounded(.down) + 1)
                        last = min(last, ((0 - start) / step).rounded(.up) - 1)
                    } else if start <= 0 || start >= upper {
                        last = -1
                    }
                }
                let out = coverage + row * size
                guard first <= last else {
                    out.initialize(repeating: 0, count: size)
                    continue
                }
                let (from, to) = (Int(first), Int(last))
                if from > 0 { out.initialize(repeating: 0, count: from) }
                if to < size - 1 { (out + to + 1).initialize(repeating: 0, count: size - 1 - to) }
                for column in from...to {
                    let c = Double(column)
                    let u = min(max(Int((u0 + du * c) * 256), 0), highest), v = min(max(Int((v0 + dv * c) * 256), 0), highest)
                    let (x, y) = (u >> 8, v >> 8)
                    let (fx, fy) = (u & 0xFF, v & 0xFF)
                    let at = base + (y &* pitch &+ x)
                    let upper = Int(at[0]) &* (256 &- fx) &+ Int(at[1]) &* fx
                    let lower = Int(at[pitch]) &* (256 &- fx) &+ Int(at[pitch &+ 1]) &* fx
                    out[column] = UInt8(truncatingIfNeeded: (upper &* (256 &- fy) &+ lower &* fy &+ 32768) >> 16)
                }
            }
        }
    }
}
