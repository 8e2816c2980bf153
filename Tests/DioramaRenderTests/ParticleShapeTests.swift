@testable import DioramaRender
import DioramaDocument
import Testing

/// The shapes for smoke, rain and confetti, and a fluttering particle's squash, as the sprites blended for them.
@Suite struct ParticleShapeTests {
    static func coverage(_ key: ParticleSpriteCache.Key) -> (sprite: ParticleSprite, bytes: [UInt8]) {
        let cache = ParticleSpriteCache()
        let sprite = cache.sprite(for: key)
        return (sprite, cache.withCoverage(of: sprite) { Array($0) })
    }

    @Test func aSoftPuffFadesFromItsCentreToNothingAtItsRim() {
        let key = ParticleSpriteCache.Key(shape: .soft, deviceRadius: 20, rotation: 0, fractionX: 0.5, fractionY: 0.5)
        let (sprite, bytes) = Self.coverage(key)
        func at(_ dx: Int) -> Int { Int(bytes[sprite.half * sprite.size + sprite.half + dx]) }
        // The centre full, half way out about half, the rim and beyond nothing.
        #expect(at(0) > 240)
        #expect((100...160).contains(at(10)), "\(at(10))")
        #expect(at(5) > at(10) && at(10) > at(15) && at(15) > at(19))
        #expect(at(21) == 0)
        // Round: the same a radius away in every direction.
        #expect(abs(at(10) - Int(bytes[(sprite.half + 10) * sprite.size + sprite.half])) <= 2)
    }

    @Test func aFlutteringRectangleIsSquashedAcrossItsRotation() {
        let flat = ParticleSpriteCache.Key(shape: .rectangle, deviceRadius: 20, rotation: 0, fractionX: 0.5, fractionY: 0.5)
        let edge = ParticleSpriteCache.Key(shape: .rectangle, deviceRadius: 20, rotation: 0, squash: 0.5, fractionX: 0.5, fractionY: 0.5)
        let turned = ParticleSpriteCache.Key(shape: .rectangle, deviceRadius: 20, rotation: 90, squash: 0.5, fractionX: 0.5, fractionY: 0.5)
        #expect(flat.squashStep == 16 && edge.squashStep == 8 && flat.packed != edge.packed)
        let (a, b, c) = (Self.coverage(flat).sprite, Self.coverage(edge).sprite, Self.coverage(turned).sprite)
        // 1.8 radii wide and 0.9 tall; squashed to half its height; turned a quarter, its width is the squashed side.
        #expect((36...38).contains(a.inkColumns.count) && (18...20).contains(a.inkRows.count), "\(a.inkColumns) \(a.inkRows)")
        #expect(b.inkColumns == a.inkColumns && (9...11).contains(b.inkRows.count), "\(b.inkRows)")
        #expect((9...11).contains(c.inkColumns.count) && (36...38).contains(c.inkRows.count), "\(c.inkColumns) \(c.inkRows)")
        // Edge on, a sliver stays.
        let sliver = ParticleSpriteCache.Key(shape: .rectangle, deviceRadius: 20, rotation: 0, squash: 0, fractionX: 0.5, fractionY: 0.5)
        #expect(Self.coverage(sliver).bytes.contains { $0 > 0 })
    }

    @Test func aLineIsAThinStreakAlongTheParticlesVertical() {
        let key = ParticleSpriteCache.Key(shape: .line, deviceRadius: 10, rotation: 0, fractionX: 0.5, fractionY: 0.5)
        let sprite = Self.coverage(key).sprite
        #expect((20...23).contains(sprite.inkRows.count) && (2...4).contains(sprite.inkColumns.count), "\(sprite.inkRows) \(sprite.inkColumns)")
    }
}
