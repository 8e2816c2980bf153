@testable import DioramaRender
import DioramaDocument
import Testing

/// Particles are blended from coverage sprites cached by shape, radius, rotation and sub-pixel position
/// (ParticleDrawing.swift).
@Suite struct ParticleSpriteTests {
    /// The sprite cache finds every sprite it made, through its table's growth, and makes each once; a sprite's bytes
    /// are the ones made for its key.
    @Test func theSpriteCacheMakesEachSpriteOnceAndFindsItAgain() {
        let cache = ParticleSpriteCache()
        var keys: [ParticleSpriteCache.Key] = []
        for shape in ParticleShape.allCases {
            for quarters in 1...40 {
                for step in 0..<6 {
                    keys.append(ParticleSpriteCache.Key(shape: shape, deviceRadius: Double(quarters) / 4, rotation: Double(step) * 10,
                                                        fractionX: Double(step % 4) / 4, fractionY: Double(quarters % 4) / 4))
                }
            }
        }
        let distinct = Set(keys).count
        let first = keys.map { cache.sprite(for: $0) }
        #expect(cache.made == distinct && distinct > 600)
        let again = keys.map { cache.sprite(for: $0) }
        #expect(cache.made == distinct)
        for (made, found) in zip(first, again) {
            #expect(made.start == found.start && made.size == found.size && made.half == found.half)
        }
        // Bytes of a sprite made alone, by a fresh cache, are the same.
        for index in stride(from: 0, to: keys.count, by: 97) {
            let alone = ParticleSpriteCache(), sprite = alone.sprite(for: keys[index])
            let ours: [UInt8] = cache.withCoverage(of: again[index]) { Array($0) }
            let theirs: [UInt8] = alone.withCoverage(of: sprite) { Array($0) }
            #expect(ours == theirs)
            #expect(ours.contains { $0 > 0 })
        }
    }
}
