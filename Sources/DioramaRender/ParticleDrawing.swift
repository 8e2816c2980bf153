import CCairo
import DioramaDocument
import DioramaTimeline
import DioramaVectorArt
import Foundation

extension FrameRenderer {
    /// Draws particles. When the current transform only scales and translates (the usual case), each
    /// particle is a cached coverage sprite blended straight into the target's pixels: hundreds of
    /// snowflakes cost a fraction of a millisecond. Otherwise each is drawn as a cairo path.
    func drawParticles(_ system: ParticlesSnapshot, alpha: Double, way: PaintWay?, in cr: OpaquePointer) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let target = cairo_get_group_target(cr)!
        // Whether the clip is whole pixels, read into kept storage (and once for a run of top-level nodes).
        guard case .sprites? = way, isPixelExact(target), readClip(cr, into: &fillScratch.parts), let clip = deviceClip(cr) else {
            drawParticlePaths(system, alpha: alpha, in: cr)
            return
        }
        var offsetX = 0.0, offsetY = 0.0
        cairo_surface_get_device_offset(target, &offsetX, &offsetY)
        withPixels(of: target) { pixels, width, height, rowPixels in
            // The clip in the surface's pixel coordinates.
            guard let area = PixelRect(x: clip.x + Int(offsetX), y: clip.y + Int(offsetY), width: clip.width, height: clip.height)
                .intersection(PixelRect(x: 0, y: 0, width: width, height: height)) else { return }
            blendSprites(of: system, matrix: m, offset: (offsetX, offsetY), alpha: alpha, into: pixels, rowPixels: rowPixels,
                         within: CollectionOfOne(area))
        }
    }

    /// Blends the sprite of each particle of `system` under `m` (its space to the context's device space, which is
    /// `offset` from the pixels') within each of `areas` (disjoint, in the pixels' coordinates) it reaches: one area
    /// for a clip, or the pieces of a frame's damage that only sprites reach (`drawSpritePieces`).
    func blendSprites<Areas: Collection<PixelRect>>(of system: ParticlesSnapshot, matrix m: cairo_matrix_t, offset: (x: Double, y: Double),
                                                    alpha: Double, into pixels: UnsafeMutablePointer<UInt32>, rowPixels: Int,
                                                    within areas: Areas) {
        guard let first = areas.first else { return }
        var bounds = first
        for area in areas.dropFirst() { bounds = bounds.union(area) }
        let (boundsLeft, boundsTop) = (Double(bounds.x), Double(bounds.y))
        let (boundsRight, boundsBottom) = (Double(bounds.x + bounds.width), Double(bounds.y + bounds.height))
        let textured = system.texture.map { texturedSprites($0) }
        for particle in system.particles {
            let opacity = particle.alpha * particle.color.alpha * alpha
            guard let reach = Self.spriteReach(of: particle, opacity: opacity, scale: m.xx) else { continue }
            let (x, y) = m.apply(particle.position.x, particle.position.y)
            guard x.isFinite, y.isFinite else { continue }
            let (px, py) = (x + offset.x, y + offset.y)
            // A particle whose sprite cannot reach the areas is passed by before its sprite is looked up: a band
            // or a damage area holds few of a frame's snowflakes.
            guard px + reach > boundsLeft, px - reach < boundsRight, py + reach > boundsTop, py - reach < boundsBottom else { continue }
            var sprite: ParticleSprite?
            // A particle with a shape of its own (a splash's droplet) is drawn with it, not the texture.
            let cache = particle.shape == nil ? textured ?? sprites : sprites
            let cellX = px.rounded(.down), cellY = py.rounded(.down)
            for area in areas {
                guard px + reach > Double(area.x), px - reach < Double(area.x + area.width),
                      py + reach > Double(area.y), py - reach < Double(area.y + area.height) else { continue }
                if sprite == nil {
                    let key = ParticleSpriteCache.Key(shape: particle.shape ?? system.shape, deviceRadius: particle.radius * m.xx,
                                                      rotation: particle.rotation, squash: particle.squash,
                                                      fractionX: px - cellX, fractionY: py - cellY, textured: cache !== sprites)
                    sprite = cache.sprite(for: key)
                }
                cache.withCoverage(of: sprite!) { coverage in
                    blend(coverage, of: sprite!, at: Int(cellX) - sprite!.half, Int(cellY) - sprite!.half,
                          color: particle.color.hueRotated(by: paintHue), opacity: opacity,
                          mode: system.blendMode, into: pixels, rowPixels: rowPixels, area: area)
                }
            }
        }
    }

    /// How far from its place, in device pixels, a particle's sprite can write under `scale` (device pixels a point),
    /// drawn at `opacity`; nil when it is not drawn at all. A sprite reaches 1.3 radii, rounded to a quarter pixel
    /// then up, and 3 pixels from the particle's pixel: within 1.3 radii and 5 pixels of it (every shape lies within
    /// 1.3 radii of its centre at any rotation, a texture's square 1.8 radii across too, and a flutter's squash only
    /// shrinks it). Both the drawing and the
    /// damage (`spriteBoxes`) ask here, so that a damage box always holds what is drawn.
    static func spriteReach(of particle: Particle, opacity: Double, scale: Double) -> Double? {
        guard opacity > 0.001, particle.radius > 0, particle.radius.isFinite else { return nil }
        return particle.radius * scale * 1.3 + 5
    }

    /// Blends a sprite's coverage with its square's top left at (`left`, `top`): the pixels of its ink within the area.
    private func blend(_ coverage: UnsafeBufferPointer<UInt8>, of sprite: ParticleSprite, at left: Int, _ top: Int, color: Color,
                       opacity: Double, mode: BlendMode, into pixels: UnsafeMutablePointer<UInt32>, rowPixels: Int, area: PixelRect) {
        let size = sprite.size
        let x0 = max(left + sprite.inkColumns.lowerBound, area.x), x1 = min(left + sprite.inkColumns.upperBound, area.x + area.width)
        let y0 = max(top + sprite.inkRows.lowerBound, area.y), y1 = min(top + sprite.inkRows.upperBound, area.y + area.height)
        guard x0 < x1, y0 < y1 else { return }
        let strength = UInt32((min(opacity, 1) * 255).rounded())
        let red = UInt32((min(max(color.red, 0), 1) * 255).rounded())
        let green = UInt32((min(max(color.green, 0), 1) * 255).rounded())
        let blue = UInt32((min(max(color.blue, 0), 1) * 255).rounded())
        @inline(__always) func times(_ a: UInt32, _ b: UInt32) -> UInt32 { (a * b + 127) / 255 }
        /// Calls `paint` with each pixel the sprite covers within the area: its row, column and coverage.
        @inline(__always) func eachCovered(_ paint: (_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ coverage: UInt32) -> Void) {
            for y in y0..<y1 {
                let row = pixels + y * rowPixels
                let spriteRow = (y - top) * size - left
                for x in x0..<x1 {
                    let c = UInt32(coverage[spriteRow + x])
                    if c > 0 { paint(row, x, c) }
                }
            }
        }
        if mode == .normal {
            // OVER, two channels at a time (SolidFill.swift's `multiply`): pixel = colour × a + pixel × (1 − a).
            let opaque = 0xFF00_0000 | red << 16 | green << 8 | blue
            eachCovered { row, x, c in
                let a = times(c, strength), keep = 255 - a
                row[x] = Self.multiply(opaque, by: a) &+ Self.multiply(row[x], by: keep)
            }
            return
        }
        // ADD or SCREEN, channel by channel.
        eachCovered { row, x, c in
            let a = times(c, strength)
            let (sa, sr, sg, sb) = (a, times(red, a), times(green, a), times(blue, a))
            let d = row[x]
            let (da, dr, dg, db) = (d >> 24, (d >> 16) & 0xFF, (d >> 8) & 0xFF, d & 0xFF)
            let out = mode == .add
                ? (min(255, sa + da), min(255, sr + dr), min(255, sg + dg), min(255, sb + db))
                : (sa + da - times(sa, da), sr + dr - times(sr, dr), sg + dg - times(sg, dg), sb + db - times(sb, db))
            row[x] = out.0 << 24 | min(out.1, out.0) << 16 | min(out.2, out.0) << 8 | min(out.3, out.0)
        }
    }

    /// The general case: each particle as a path under the current transform.
    private func drawParticlePaths(_ system: ParticlesSnapshot, alpha: Double, in cr: OpaquePointer) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.uniformScale > 0 else { return }
        cairo_save(cr)
        switch system.blendMode {
        case .normal: cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        case .add: cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        case .screen: cairo_set_operator(cr, CAIRO_OPERATOR_SCREEN)
        }
        let painter = system.texture.flatMap { texturedSprites($0).painter }
        for particle in system.particles {
            let opacity = particle.alpha * particle.color.alpha * alpha
            guard opacity > 0.001, particle.radius > 0, particle.radius.isFinite else { continue }
            cairo_save(cr)
            cairo_translate(cr, particle.position.x, particle.position.y)
            cairo_rotate(cr, particle.rotation * .pi / 180)
            if particle.squash < 1 { cairo_scale(cr, 1, ParticleSpriteCache.Key.drawnSquash(particle.squash)) }
            let color = particle.color.hueRotated(by: paintHue)
            if let painter, particle.shape == nil {
                // The texture's opacity masks the particle's colour.
                cairo_push_group(cr)
                painter(cr, particle.radius)
                let mask = cairo_pop_group(cr)!
                cairo_set_source_rgba(cr, color.red, color.green, color.blue, opacity)
                cairo_mask(cr, mask)
                cairo_pattern_destroy(mask)
            } else {
                cairo_set_source_rgba(cr, color.red, color.green, color.blue, opacity)
                paintParticleShape(particle.shape ?? system.shape, radius: particle.radius, pixel: 1 / m.uniformScale, in: cr)
            }
            cairo_restore(cr)
        }
        cairo_restore(cr)
    }
}

extension FrameRenderer {
    /// The sprites of a texture's particles: a cache of their own, whose sprites its painter draws.
    func texturedSprites(_ texture: ParticleTexture) -> ParticleSpriteCache {
        if let cache = sprites.textured[texture] { return cache }
        let cache = ParticleSpriteCache(painter: texturePainter(texture))
        sprites.textured[texture] = cache
        return cache
    }

    /// Paints `texture` fitted into a square 1.8 radii across centred on the origin (its ink's box, for an SVG
    /// element), or nil (with the image's warning, once) when it cannot be read.
    private func texturePainter(_ texture: ParticleTexture) -> ParticleSpriteCache.Painter? {
        if !ImageContent.isVectorPath(texture.path) {
            guard let surface = image(atPath: texture.path) else { return nil }
            let (width, height) = (Double(cairo_image_surface_get_width(surface)), Double(cairo_image_surface_get_height(surface)))
            guard width > 0, height > 0 else { return nil }
            return { cr, radius in
                let scale = 1.8 * radius / max(width, height)
                cairo_save(cr)
                cairo_scale(cr, scale, scale)
                cairo_set_source_surface(cr, surface, -width / 2, -height / 2)
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                // Edges as sharp as the picture's own: padded, then cut at its rectangle.
                cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
                cairo_rectangle(cr, -width / 2, -height / 2, width, height)
                cairo_fill(cr)
                cairo_restore(cr)
            }
        }
        guard let art = vectorArt(atPath: texture.path) else { return nil }
        // The ink's box, measured once on a 512-pixel square: the drawing fitted into it as its own
        // preserveAspectRatio says, only the element when there is one.
        let side = 512.0
        let measure = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(side), Int32(side))!
        let measuring = cairo_create(measure)!
        art.draw(in: measuring, viewport: (0, 0, side, side), element: texture.element)
        cairo_destroy(measuring)
        cairo_surface_flush(measure)
        let ink = VectorArtRasterCache.inkBounds(of: measure)
        cairo_surface_destroy(measure)
        guard ink.width > 0, ink.height > 0 else { return nil }
        let (centreX, centreY) = (Double(ink.x) + Double(ink.width) / 2, Double(ink.y) + Double(ink.height) / 2)
        let extent = Double(max(ink.width, ink.height))
        return { cr, radius in
            let scale = 1.8 * radius / extent
            cairo_save(cr)
            cairo_scale(cr, scale, scale)
            cairo_translate(cr, -centreX, -centreY)
            art.draw(in: cr, viewport: (0, 0, side, side), element: texture.element)
            cairo_restore(cr)
        }
    }
}

/// Paints one particle of `radius` centred on the origin with the current source; `pixel` is the length
/// of a device pixel in the current units (thin strokes stay at least 0.7 pixels wide).
func paintParticleShape(_ shape: ParticleShape, radius r: Double, pixel: Double, in cr: OpaquePointer) {
    cairo_new_path(cr)
    switch shape {
    case .circle:
        cairo_arc(cr, 0, 0, r, 0, 2 * .pi)
        cairo_fill(cr)
    case .square:
        cairo_rectangle(cr, -0.8 * r, -0.8 * r, 1.6 * r, 1.6 * r)
        cairo_fill(cr)
    case .rectangle:
        // At least 0.7 pixels each way, so that a small strip stays visible.
        let (halfWidth, halfHeight) = (max(0.35 * pixel, 0.9 * r), max(0.35 * pixel, 0.45 * r))
        cairo_rectangle(cr, -halfWidth, -halfHeight, 2 * halfWidth, 2 * halfHeight)
        cairo_fill(cr)
    case .line:
        // A streak along the particle's vertical, thick enough to stay visible when small.
        cairo_set_line_width(cr, max(0.7 * pixel, 0.16 * r))
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_move_to(cr, 0, -r)
        cairo_line_to(cr, 0, r)
        cairo_stroke(cr)
    case .soft:
        // Full at the centre, falling off smoothly to nothing at the rim: a puff, with the current source's colour;
        // at least a pixel across, so that a small puff stays visible.
        let fall = cairo_pattern_create_radial(0, 0, 0, 0, 0, max(r, pixel))!
        for (offset, alpha) in [(0.0, 1.0), (0.25, 0.85), (0.5, 0.5), (0.75, 0.17), (1.0, 0.0)] {
            cairo_pattern_add_color_stop_rgba(fall, offset, 0, 0, 0, alpha)
        }
        cairo_mask(cr, fall)
        cairo_pattern_destroy(fall)
    case .drop:
        // A teardrop falling downwards: round at the bottom, pointed at the top.
        cairo_arc(cr, 0, 0.35 * r, 0.6 * r, -20 * .pi / 180, 200 * .pi / 180)
        cairo_line_to(cr, 0, -r)
        cairo_close_path(cr)
        cairo_fill(cr)
    case .snowflake:
        // Six arms with a pair of twigs each; thick enough to stay visible when small.
        cairo_set_line_width(cr, max(0.7 * pixel, 0.2 * r))
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        for arm in 0..<6 {
            let angle = Double(arm) * .pi / 3
            let (dx, dy) = (cos(angle), sin(angle))
            cairo_move_to(cr, 0, 0)
            cairo_line_to(cr, dx * r, dy * r)
            let (bx, by) = (dx * 0.55 * r, dy * 0.55 * r)
            for side in [-1.0, 1.0] {
                let twig = angle + side * .pi / 4
                cairo_move_to(cr, bx, by)
                cairo_line_to(cr, bx + cos(twig) * 0.32 * r, by + sin(twig) * 0.32 * r)
            }
        }
        cairo_stroke(cr)
        cairo_arc(cr, 0, 0, max(0.5 * pixel, 0.22 * r), 0, 2 * .pi)
        cairo_fill(cr)
    }
}

/// A particle's coverage (0...255) on a square of whole pixels; its centre is `half` pixels (plus the
/// sub-pixel fraction it was drawn for) from the top-left. The bytes are the cache's, from `start`.
struct ParticleSprite {
    let size: Int
    let half: Int
    let start: Int
    /// The rows and columns of the square that hold any coverage (empty ranges when none do): a sprite's square
    /// reaches 1.3 radii and 2 pixels beyond, so most of it is empty, and only these are blended.
    let inkRows: Range<Int>
    let inkColumns: Range<Int>

    /// A sprite whose ink is read from its `size` × `size` coverage bytes at `bytes`.
    init(size: Int, half: Int, start: Int, bytes: UnsafePointer<UInt8>) {
        (self.size, self.half, self.start) = (size, half, start)
        var (top, bottom, left, right) = (size, 0, size, 0)
        for y in 0..<size {
            for x in 0..<size where bytes[y * size + x] != 0 {
                (top, bottom) = (min(top, y), y + 1)
                (left, right) = (min(left, x), max(right, x + 1))
            }
        }
        (inkRows, inkColumns) = top < bottom ? (top..<bottom, left..<right) : (0..<0, 0..<0)
    }
}

/// Coverage sprites per shape, radius (quarter pixels), rotation step and sub-pixel position (quarter pixels).
/// Looked up for every particle of every frame: keys are packed into a whole number and found in a table of their
/// own (a dictionary hashed the five fields for every snowflake), and the sprites' bytes share one array.
final class ParticleSpriteCache {
    struct Key: Hashable {
        var shape: ParticleShape
        var radiusQuarters: Int
        var rotationStep: Int
        var quarterX: Int
        var quarterY: Int
        /// The squash in sixteenths (16 for none).
        var squashStep: Int
        /// A texture's sprite (in a texture's own cache): turned in 36 steps, whatever the shape.
        var textured = false

        /// Quantizes a particle: radius and position to a quarter pixel, rotation to the shape's symmetry, squash to
        /// sixteenths.
        init(shape: ParticleShape, deviceRadius: Double, rotation: Double, squash: Double = 1, fractionX: Double, fractionY: Double,
             textured: Bool = false) {
            self.shape = shape
            self.textured = textured
            radiusQuarters = max(1, Int((min(deviceRadius, 256) * 4).rounded()))
            squashStep = squash.isFinite ? min(16, max(0, Int((squash * 16).rounded()))) : 16
            let (symmetry, steps): (Double, Int) = switch shape {
            case _ where textured: (360, 36)
            case .circle, .soft: squashStep < 16 ? (180, 18) : (360, 1)
            case .snowflake: squashStep < 16 ? (180, 30) : (60, 10)
            case .square: squashStep < 16 ? (180, 24) : (90, 12)
            case .rectangle, .line: (180, 24)
            case .drop: (360, 36)
            }
            let turned = rotation.truncatingRemainder(dividingBy: symmetry)
            let normalized = turned < 0 ? turned + symmetry : turned
            rotationStep = Int((normalized / symmetry * Double(steps)).rounded()) % steps
            let (x, y) = (fractionX.isFinite ? fractionX : 0, fractionY.isFinite ? fractionY : 0)
            quarterX = min(3, max(0, Int(x * 4)))
            quarterY = min(3, max(0, Int(y * 4)))
        }

        var radius: Double { Double(radiusQuarters) / 4 }
        var rotationDegrees: Double {
            if textured { return Double(rotationStep) * 10 }
            return switch shape {
            case .circle, .soft: squashStep < 16 ? Double(rotationStep) * 10 : 0
            case .snowflake: Double(rotationStep) * 6
            case .square, .rectangle, .line: Double(rotationStep) * 7.5
            case .drop: Double(rotationStep) * 10
            }
        }

        /// The squash a sprite is drawn with: a fluttering particle seen edge on keeps a sliver.
        static func drawnSquash(_ squash: Double) -> Double { max(0.1, squash) }

        /// How a sprite is made from another's pixels.
        enum Turn { case mirror, transpose, halfTurn }

        /// For most snowflakes: the key whose sprite, mirrored left to right, transposed or turned half round, is this
        /// one's, so that cairo draws three rotation steps of ten at half the sub-pixel places. A snowflake is symmetric
        /// about each arm, so its mirror image is the snowflake turned by −θ, and its transpose (mirrored about the
        /// diagonal) by 30° − θ; the sub-pixel place is mirrored or swapped with it (a quarter q's centre, (q + 0.5) / 4,
        /// mirrors to 3 − q's). cairo's pen takes about 30 µs a snowflake, and the flower's first seconds make thousands:
        /// now a sixth of them. The pixels are cairo's for the key within a few levels (its rasterizer is not
        /// symmetric: a transpose turns its sub-rows into columns).
        var symmetricSource: (Key, Turn)? {
            guard shape == .snowflake, squashStep == 16, !textured else { return nil }
            var source = self
            if rotationStep < 3 {
                // Turned half round, a snowflake is itself (three arms' turn) at the mirrored sub-pixel place: half of
                // the sixteen places are made from the other half.
                guard quarterX * 4 + quarterY > 7 else { return nil }
                (source.quarterX, source.quarterY) = (3 - quarterX, 3 - quarterY)
                return (source, .halfTurn)
            }
            if rotationStep >= 6 {
                source.rotationStep = 10 - rotationStep
                source.quarterX = 3 - quarterX
                return (source, .mirror)
            }
            source.rotationStep = 5 - rotationStep
            (source.quarterX, source.quarterY) = (quarterY, quarterX)
            return (source, .transpose)
        }

        /// The key in 29 bits: squash step (at most 16) 5, radius (at most 1024 quarters) 11, rotation step (under 36) 6,
        /// shape 3, quarters 2 each.
        var packed: UInt64 {
            let shapeIndex: UInt64 = switch shape {
            case .circle: 0
            case .snowflake: 1
            case .drop: 2
            case .square: 3
            case .soft: 4
            case .line: 5
            case .rectangle: 6
            }
            return UInt64(squashStep) << 24 | UInt64(radiusQuarters) << 13 | UInt64(rotationStep) << 7 | shapeIndex << 4
                | UInt64(quarterX) << 2 | UInt64(quarterY)
        }
    }

    /// Open addressing: each slot is empty (0) or (packed key + 1) << 32 | the sprite's index.
    private var slots = [UInt64](repeating: 0, count: 1024)
    private var sprites: [ParticleSprite] = []
    private var bytes: [UInt8] = []
    /// Sprites made, for tests.
    private(set) var made = 0
    /// The most sprites, and the most bytes of them, kept: past either, the cache starts again (a sprite of a large
    /// particle at 4K is hundreds of kilobytes).
    let capacity: (sprites: Int, bytes: Int)

    /// Paints a texture's particle of a radius centred on the origin of a context (`ParticleTexture`).
    typealias Painter = (_ cr: OpaquePointer, _ radius: Double) -> Void
    /// What this cache's sprites are drawn with: a texture, or (nil) each key's shape.
    let painter: Painter?
    /// The caches of the textures drawn so far, each with its painter.
    var textured: [ParticleTexture: ParticleSpriteCache] = [:]

    /// A texture's sprites are sampled from this, painted once by `painter`.
    private let texture: ParticleTextureCoverage?

    init(capacity: (sprites: Int, bytes: Int) = (20_000, 64 << 20), painter: Painter? = nil) {
        self.capacity = capacity
        self.painter = painter
        texture = painter.flatMap { ParticleTextureCoverage(painter: $0) }
    }

    func sprite(for key: Key) -> ParticleSprite {
        let packed = key.packed, tag = (packed + 1) << 32
        let mask = slots.count - 1
        var slot = Self.home(of: packed, in: slots.count)
        while slots[slot] != 0 {
            if slots[slot] & 0xFFFF_FFFF_0000_0000 == tag { return sprites[Int(slots[slot] & 0xFFFF_FFFF)] }
            slot = (slot + 1) & mask
        }
        if sprites.count >= capacity.sprites || bytes.count >= capacity.bytes {
            // Storage given back too: what a burst of large particles took is not held for good.
            sprites = []
            bytes = []
            slots = [UInt64](repeating: 0, count: 1024)
            return sprite(for: key)
        }
        let sprite: ParticleSprite
        if let (source, turn) = key.symmetricSource {
            let original = self.sprite(for: source)
            sprite = Self.turned(original, turn, into: &bytes)
            // The table may have grown, or started again, meanwhile: the key's slot is found anew.
            slot = Self.freeSlot(for: packed, in: slots)
        } else {
            sprite = Self.make(key, into: &bytes, painter: painter, texture: texture)
        }
        made += 1
        slots[slot] = tag | UInt64(sprites.count)
        sprites.append(sprite)
        // At most half full, so that a probe ends soon.
        if sprites.count * 2 > slots.count { rehash(to: slots.count * 2) }
        return sprite
    }

    /// Calls `body` with the sprite's coverage bytes.
    @inline(__always)
    func withCoverage<R>(of sprite: ParticleSprite, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[sprite.start..<(sprite.start + sprite.size * sprite.size)]))
        }
    }

    private func rehash(to count: Int) {
        var table = [UInt64](repeating: 0, count: count)
        for slot in slots where slot != 0 { table[Self.freeSlot(for: (slot >> 32) - 1, in: table)] = slot }
        slots = table
    }

    /// Where `packed`'s probe starts in a table of `count` slots (a power of two). Fibonacci hashing: the top bits of
    /// the key times 2^64 / φ.
    private static func home(of packed: UInt64, in count: Int) -> Int {
        Int(truncatingIfNeeded: (packed &* 0x9E37_79B9_7F4A_7C15) >> 40) & (count - 1)
    }

    /// The first empty slot on `packed`'s probe in `table`.
    private static func freeSlot(for packed: UInt64, in table: [UInt64]) -> Int {
        var slot = home(of: packed, in: table.count)
        while table[slot] != 0 { slot = (slot + 1) & (table.count - 1) }
        return slot
    }

    /// The sprite's pixels mirrored left to right, transposed or turned half round (see `Key.symmetricSource`).
    private static func turned(_ source: ParticleSprite, _ turn: Key.Turn, into storage: inout [UInt8]) -> ParticleSprite {
        let size = source.size, start = storage.count
        storage.append(contentsOf: repeatElement(0, count: size * size))
        storage.withUnsafeMutableBufferPointer { all in
            let from = all.baseAddress! + source.start, to = all.baseAddress! + start
            for y in 0..<size {
                for x in 0..<size {
                    switch turn {
                    case .mirror: to[y * size + x] = from[y * size + size - 1 - x]
                    case .transpose: to[y * size + x] = from[x * size + y]
                    case .halfTurn: to[y * size + x] = from[(size - 1 - y) * size + size - 1 - x]
                    }
                }
            }
        }
        return storage.withUnsafeBufferPointer { all in
            ParticleSprite(size: size, half: source.half, start: start, bytes: all.baseAddress! + start)
        }
    }

    /// The sprite cairo draws for `key`; a texture's, sampled from its coverage when there is one.
    static func make(_ key: Key, into storage: inout [UInt8], painter: Painter? = nil,
                     texture: ParticleTextureCoverage? = nil) -> ParticleSprite {
        let half = Int((key.radius * 1.3).rounded(.up)) + 2
        let size = 2 * half + 1
        if key.textured, let texture {
            let start = storage.count
            storage.append(contentsOf: repeatElement(0, count: size * size))
            let squash = key.squashStep < 16 ? Key.drawnSquash(Double(key.squashStep) / 16) : 1
            storage.withUnsafeMutableBufferPointer { all in
                texture.sample(radius: key.radius, centreX: Double(half) + (Double(key.quarterX) + 0.5) / 4,
                               centreY: Double(half) + (Double(key.quarterY) + 0.5) / 4, degrees: key.rotationDegrees,
                               squash: squash, size: size, into: all.baseAddress! + start)
            }
            return storage.withUnsafeBufferPointer { all in
                ParticleSprite(size: size, half: half, start: start, bytes: all.baseAddress! + start)
            }
        }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(size)))
        var bytes = [UInt8](repeating: 0, count: stride * size)
        bytes.withUnsafeMutableBytes { buffer in
            let surface = cairo_image_surface_create_for_data(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                              CAIRO_FORMAT_A8, Int32(size), Int32(size), Int32(stride))!
            let cr = cairo_create(surface)!
            cairo_translate(cr, Double(half) + (Double(key.quarterX) + 0.5) / 4, Double(half) + (Double(key.quarterY) + 0.5) / 4)
            cairo_rotate(cr, key.rotationDegrees * .pi / 180)
            if key.squashStep < 16 { cairo_scale(cr, 1, Key.drawnSquash(Double(key.squashStep) / 16)) }
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            if let painter { painter(cr, key.radius) } else { paintParticleShape(key.shape, radius: key.radius, pixel: 1, in: cr) }
            cairo_destroy(cr)
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
        let start = storage.count
        for y in 0..<size { storage.append(contentsOf: bytes[(y * stride)..<(y * stride + size)]) }
        return storage.withUnsafeBufferPointer { all in
            ParticleSprite(size: size, half: half, start: start, bytes: all.baseAddress! + start)
        }
    }
}
