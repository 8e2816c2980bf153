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

    /// Levels, largest first: level k is `side >> k` pixels a side, row by row.
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
        var levels = [level]
        var size = side
        while size > 1 {
            let half = size / 2, above = levels[levels.count - 1]
            var next = [UInt8](repeating: 0, count: half * half)
            for y in 0..<half {
                for x in 0..<half {
                    let top = 2 * y * size + 2 * x, bottom = top + size
                    let sum = Int(above[top]) + Int(above[top + 1]) + Int(above[bottom]) + Int(above[bottom + 1])
                    next[y * half + x] = UInt8((sum + 2) / 4)
                }
            }
            levels.append(next)
            size = half
        }
        self.levels = levels
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
        let levelSide = Self.side >> level
        let scale = across / Double(1 << level)
        let radians = degrees * .pi / 180
        let (cosine, sine) = (cos(radians), sin(radians))
        levels[level].withUnsafeBufferPointer { texels in
            @inline(__always) func texel(_ x: Int, _ y: Int) -> Double {
                guard x >= 0, y >= 0, x < levelSide, y < levelSide else { return 0 }
                return Double(texels[y * levelSide + x])
            }
            let middle = Double(levelSide) / 2
            for row in 0..<size {
                let dy = Double(row) + 0.5 - centreY
                for column in 0..<size {
                    let dx = Double(column) + 0.5 - centreX
                    // Undo the turn, then the squash: the point in the texture's own square, in level pixels.
                    let u = (cosine * dx + sine * dy) * scale + middle - 0.5
                    let v = (cosine * dy - sine * dx) / squash * scale + middle - 0.5
                    guard u > -1, v > -1, u < Double(levelSide), v < Double(levelSide) else {
                        coverage[row * size + column] = 0
                        continue
                    }
                    let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
                    let (tx, ty) = (u - Double(x0), v - Double(y0))
                    let topRow = texel(x0, y0) + (texel(x0 + 1, y0) - texel(x0, y0)) * tx
                    let bottomRow = texel(x0, y0 + 1) + (texel(x0 + 1, y0 + 1) - texel(x0, y0 + 1)) * tx
                    coverage[row * size + column] = UInt8(min(255, max(0, (topRow + (bottomRow - topRow) * ty).rounded())))
                }
            }
        }
    }
}
