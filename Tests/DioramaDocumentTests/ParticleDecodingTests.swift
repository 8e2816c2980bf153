import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing

/// The emitter's keys beyond motion: ramps over a particle's life, a palette, alpha's range, flutter, and when births
/// happen (start, duration, burst). Their errors are in Corpus/bad-particle-ramps.json.
@Suite struct ParticleDecodingTests {
    static func emitter(_ particles: String) throws -> Emitter? {
        let loaded = try DocumentFixtures.decode("""
            { "canvas": { "width": 640, "height": 360 },
              "scenes": [{ "id": "fire", "duration": 4, "nodes": [{ "type": "emitter", "particles": \(particles) }] }] }
            """)
        if case .emitter(let emitter) = loaded.document.scenes[0].nodes[0].content { return emitter }
        return nil
    }

    @Test func rampsPaletteAndTimingAreRead() throws {
        let emitter = try #require(try Self.emitter("""
            { "alphaRange": 0.25, "colors": ["#ff0000", "#00ff00"], "flutter": 1.5, "shape": "rectangle",
              "colorRamp": [{ "at": 0, "color": "#ffffff" }, { "at": 0.4, "color": "#ff8800" }, { "at": 1, "color": "#20202000" }],
              "alphaRamp": [{ "at": 0, "value": 0 }, { "at": 0.1, "value": 1 }], "scaleRamp": [{ "at": 1, "value": 3 }],
              "start": 2, "duration": 0.5, "birthRate": 40, "prewarm": false }
            """))
        #expect(emitter.alphaRange == 0.25 && emitter.flutter == 1.5 && emitter.shape == .rectangle)
        #expect(emitter.colors == [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 1, blue: 0)])
        #expect(emitter.colorRamp.map(\.at) == [0, 0.4, 1] && emitter.colorRamp[2].value.alpha == 0)
        #expect(emitter.alphaRamp == [LifeStop(at: 0, value: 0), LifeStop(at: 0.1, value: 1)])
        #expect(emitter.scaleRamp == [LifeStop(at: 1, value: 3)])
        #expect(emitter.start == 2 && emitter.duration == 0.5 && emitter.birthRate == 40 && emitter.burst == 0)
        // Births over half a second: 20 alive at most, not 40 × 5.
        #expect(emitter.mostAlive == 20)
    }

    @Test func aBurstAloneHasNoStreamUnlessOneIsAskedFor() throws {
        let alone = try #require(try Self.emitter(#"{ "burst": 120, "start": 3 }"#))
        #expect(alone.burst == 120 && alone.birthRate == 0 && alone.mostAlive == 120)
        let both = try #require(try Self.emitter(#"{ "burst": 120, "birthRate": 4, "lifetime": 2 }"#))
        #expect(both.birthRate == 4 && both.mostAlive == 128)
        // Defaults stay those of an emitter without the new keys.
        let plain = try #require(try Self.emitter("{}"))
        #expect(plain == Emitter() && plain.start == 0 && plain.duration == nil && plain.colorRamp.isEmpty)
    }

    @Test func aScaleRampCountsInTheCover() throws {
        let emitter = try #require(try Self.emitter(#"{ "size": 10, "birthRate": 1, "scaleRamp": [{ "at": 0, "value": 0.5 }, { "at": 1, "value": 4 }] }"#))
        #expect(emitter.largestParticleArea == 80 * 80)
    }

    @Test func aSplashIsReadAndItsDropletsCount() throws {
        let emitter = try #require(try Self.emitter("""
            { "birthRate": 100, "lifetime": 0.7, "shape": "line",
              "splash": { "count": 3, "lifetime": 0.25, "speed": 80, "spread": 50, "gravity": 600, "size": 1.2, "color": "#c8d8f0" } }
            """))
        #expect(emitter.splash == Splash(count: 3, lifetime: 0.25, speed: 80, spread: 50, gravity: 600, size: 1.2,
                                         color: Color(red: 200 / 255, green: 216 / 255, blue: 240 / 255)))
        // 70 drops alive, and 100 a second × 0.25 s × 3 droplets.
        #expect(abs(emitter.mostAlive - 145) < 1e-9)
    }
}
