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
        // A turned snowflake's source is made too (and its source's), when it is not among the keys.
        var needed = Set(keys)
        for key in keys {
            var turned = key
            while let (source, _) = turned.symmetricSource {
                needed.insert(source)
                turned = source
            }
        }
        let sources = needed.count - distinct
        let first = keys.map { cache.sprite(for: $0) }
        #expect(cache.made == distinct + sources && distinct > 600 && sources > 0)
        let again = keys.map { cache.sprite(for: $0) }
        #expect(cache.made == distinct + sources)
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

    /// A sprite's ink is the smallest rectangle holding all its coverage: every byte outside it is empty, and each of
    /// its edge rows and columns holds some (blending only the ink is then blending the whole square). Made and
    /// turned sprites alike.
    @Test func aSpritesInkHoldsAllItsCoverageAndNoMore() {
        let cache = ParticleSpriteCache()
        var checked = 0
        for shape in ParticleShape.allCases {
            for quarters in [1, 3, 6, 13, 26, 60] {
                for step in 0..<10 {
                    let key = ParticleSpriteCache.Key(shape: shape, deviceRadius: Double(quarters) / 4, rotation: Double(step) * 6,
                                                      fractionX: Double(step % 4) / 4, fractionY: Double((step + quarters) % 4) / 4)
                    let sprite = cache.sprite(for: key)
                    let (rows, columns) = (sprite.inkRows, sprite.inkColumns)
                    let bytes: [UInt8] = cache.withCoverage(of: sprite) { Array($0) }
                    func at(_ x: Int, _ y: Int) -> UInt8 { bytes[y * sprite.size + x] }
                    #expect(!rows.isEmpty && !columns.isEmpty && rows.upperBound <= sprite.size && columns.upperBound <= sprite.size)
                    guard !rows.isEmpty, !columns.isEmpty else { continue }
                    let outside = (0..<sprite.size).flatMap { y in
                        (0..<sprite.size).filter { x in !(rows.contains(y) && columns.contains(x)) }.map { at($0, y) }
                    }
                    #expect(outside.allSatisfy { $0 == 0 }, "\(key)")
                    #expect(columns.contains { at($0, rows.first!) > 0 } && columns.contains { at($0, rows.last!) > 0 }, "\(key)")
                    #expect(rows.contains { at(columns.first!, $0) > 0 } && rows.contains { at(columns.last!, $0) > 0 }, "\(key)")
                    checked += 1
                }
            }
        }
        #expect(checked == ParticleShape.allCases.count * 60)
    }

    /// Keys at the ends of their ranges stay apart (the packed key's fields do not overlap), and a full cache starts
    /// again and still finds what it makes.
    @Test func keysAtTheirLimitsStayApartAndAFullCacheStartsAgain() {
        let cache = ParticleSpriteCache(capacity: (sprites: 5, bytes: 1 << 30))
        let largest = ParticleSpriteCache.Key(shape: .drop, deviceRadius: 1000, rotation: 350, fractionX: 0.99, fractionY: 0.99)
        let smallest = ParticleSpriteCache.Key(shape: .circle, deviceRadius: 0, rotation: 0, fractionX: 0, fractionY: 0)
        #expect(largest.radiusQuarters == 1024 && largest.rotationStep == 35 && largest.quarterX == 3 && largest.quarterY == 3)
        #expect(largest.packed != smallest.packed)
        var keys = [largest, smallest]
        for step in 0..<6 {
            keys.append(ParticleSpriteCache.Key(shape: .square, deviceRadius: 2, rotation: Double(step) * 7.5, fractionX: 0, fractionY: 0))
        }
        #expect(Set(keys.map(\.packed)).count == keys.count)
        for key in keys {
            let sprite = cache.sprite(for: key)
            // Found again at once, the same sprite.
            let again = cache.sprite(for: key)
            #expect(again.start == sprite.start && again.size == sprite.size)
        }
        // Eight sprites through a cache of five: it started again once, and made each once since.
        #expect(cache.made == keys.count)
        let bytes = ParticleSpriteCache(capacity: (sprites: 100, bytes: 1))
        _ = bytes.sprite(for: smallest)
        _ = bytes.sprite(for: largest)
        _ = bytes.sprite(for: smallest)
        // Past its bytes, it starts again: the first sprite is made anew.
        #expect(bytes.made == 3)
    }

    /// Most snowflakes are made from another's pixels, mirrored, transposed or turned half round (`symmetricSource`): one is
    /// the sprite cairo draws for its own key within 2 levels on average over the flake's pixels and 24 at any one
    /// (cairo's rasterizer is not symmetric: a transpose turns its sub-rows into columns), with the same ink within 1 %.
    /// Sprites of the other shapes, and snowflakes turned less, are cairo's own.
    @Test func aSnowflakeMadeFromItsMirrorImageIsTheOneCairoDraws() {
        var worst: [ParticleSpriteCache.Key.Turn: Int] = [:]
        var worstMean = 0.0, worstInk = 0.0, turned = 0
        for quarters in [6, 10, 17, 26, 40, 64] {
            for step in 0..<10 {
                for (qx, qy) in [(0, 0), (1, 3), (2, 1), (3, 2)] {
                    let key = ParticleSpriteCache.Key(shape: .snowflake, deviceRadius: Double(quarters) / 4, rotation: Double(step) * 6,
                                                      fractionX: Double(qx) / 4, fractionY: Double(qy) / 4)
                    #expect(key.rotationStep == step && key.quarterX == qx && key.quarterY == qy)
                    let cache = ParticleSpriteCache()
                    let sprite = cache.sprite(for: key)
                    let ours: [UInt8] = cache.withCoverage(of: sprite) { Array($0) }
                    var drawn: [UInt8] = []
                    let alone = ParticleSpriteCache.make(key, into: &drawn)
                    #expect(alone.size == sprite.size && alone.half == sprite.half)
                    guard let (_, turn) = key.symmetricSource else {
                        #expect(ours == drawn)
                        continue
                    }
                    turned += 1
                    var largest = 0, total = 0, inked = 0, inkOurs = 0, inkDrawn = 0
                    for (a, b) in zip(ours, drawn) where a > 0 || b > 0 {
                        largest = max(largest, abs(Int(a) - Int(b)))
                        total += abs(Int(a) - Int(b))
                        inked += 1
                        (inkOurs, inkDrawn) = (inkOurs + Int(a), inkDrawn + Int(b))
                    }
                    worst[turn] = max(worst[turn] ?? 0, largest)
                    worstMean = max(worstMean, Double(total) / Double(inked))
                    worstInk = max(worstInk, abs(Double(inkOurs - inkDrawn)) / Double(inkDrawn))
                }
            }
        }
        // Steps 3 to 9 at every place, steps 0 to 2 at the places (2, 1) and (3, 2) (indices 9 and 14 of 16).
        #expect(turned == 6 * (7 * 4 + 3 * 2))
        #expect((worst[.mirror] ?? 99) <= 24, "mirrored: a pixel differs by \(worst[.mirror] ?? -1)")
        #expect((worst[.transpose] ?? 99) <= 24, "transposed: a pixel differs by \(worst[.transpose] ?? -1)")
        #expect((worst[.halfTurn] ?? 99) <= 24, "turned half round: a pixel differs by \(worst[.halfTurn] ?? -1)")
        print("sprites: mirror \(worst[.mirror] ?? -1), transpose \(worst[.transpose] ?? -1), half turn \(worst[.halfTurn] ?? -1), mean \(worstMean), ink \(worstInk)")
        #expect(worstMean <= 2, "\(worstMean) levels on average")
        #expect(worstInk <= 0.01, "ink differs by \(worstInk)")
    }
}
