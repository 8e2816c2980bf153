import DioramaDocument
import Foundation
import Testing
@testable import DioramaTimeline

/// What changes over a particle's life (ramps of colour, alpha and scale; flutter), what each draws at birth (alpha's
/// range, a colour of the palette), and when particles are born (start, duration, burst): all closed form.
@Suite struct ParticleLifeTests {
    /// A particle moving right at 10 points a second from x = 0, living 4 s: its age is x / 10 and its life x / 40.
    static func travelling(_ change: (inout Emitter) -> Void) -> Emitter {
        var emitter = Emitter(seed: 4, birthRate: 5, lifetime: 4, angle: 0, speed: 10, size: 2, prewarm: false)
        change(&emitter)
        return emitter
    }

    @Test func rampsFollowTheParticlesLife() {
        let red = Color(red: 1, green: 0, blue: 0), green = Color(red: 0, green: 1, blue: 0, alpha: 0.5)
        let emitter = Self.travelling {
            $0.colorRamp = [LifeStop(at: 0.25, value: red), LifeStop(at: 0.75, value: green)]
            $0.alphaRamp = [LifeStop(at: 0, value: 0.2), LifeStop(at: 0.5, value: 1), LifeStop(at: 1, value: 0.6)]
            $0.scaleRamp = [LifeStop(at: 0, value: 1), LifeStop(at: 1, value: 3)]
        }
        let particles = ParticleField(emitter).particles(at: 6)
        #expect(particles.count >= 15)
        for particle in particles {
            let life = particle.position.x / 40
            let t = min(1, max(0, (life - 0.25) / 0.5))
            #expect(abs(particle.color.red - (1 - t)) < 1e-9 && abs(particle.color.green - t) < 1e-9)
            #expect(abs(particle.color.alpha - (1 - 0.5 * t)) < 1e-9)
            let alpha = life < 0.5 ? 0.2 + 0.8 * life / 0.5 : 1 - 0.4 * (life - 0.5) / 0.5
            #expect(abs(particle.alpha - alpha) < 1e-9)
            #expect(abs(particle.radius - 2 * (1 + 2 * life)) < 1e-9)
        }
        // Before the first stop a ramp holds its first value, after the last its last.
        #expect(particles.contains { $0.position.x < 10 && $0.color == red })
        #expect(particles.contains { $0.position.x > 30 && $0.color == green })
    }

    @Test func rampsMultiplyWhatEachParticleDrewAndSpeedsStillAdd() {
        let emitter = Self.travelling {
            $0.alpha = 0.5
            $0.alphaSpeed = -0.05
            $0.scale = 2
            $0.alphaRamp = [LifeStop(at: 0, value: 1), LifeStop(at: 1, value: 0.5)]
            $0.scaleRamp = [LifeStop(at: 0, value: 1), LifeStop(at: 1, value: 0)]
        }
        for particle in ParticleField(emitter).particles(at: 6) {
            let (age, life) = (particle.position.x / 10, particle.position.x / 40)
            #expect(abs(particle.alpha - (0.5 * (1 - 0.5 * life) - 0.05 * age)) < 1e-9)
            #expect(abs(particle.radius - 2 * 2 * (1 - life)) < 1e-9)
        }
    }

    @Test func alphaRangeSpreadsAlphaAndMovesNothingElse() {
        let plain = Self.travelling { $0.alpha = 0.5; $0.positionRange = Size(width: 50, height: 50); $0.angleRange = 30 }
        var spread = plain
        spread.alphaRange = 0.3
        let a = ParticleField(plain).particles(at: 6), b = ParticleField(spread).particles(at: 6)
        #expect(a.count == b.count && a.count >= 15)
        // The draws for new keys come after the old ones: every particle is where it was, bit for bit.
        #expect(a.map(\.position.x.bitPattern) == b.map(\.position.x.bitPattern))
        #expect(a.map(\.radius) == b.map(\.radius))
        #expect(a.allSatisfy { $0.alpha == 0.5 })
        #expect(b.allSatisfy { $0.alpha >= 0.2 && $0.alpha <= 0.8 })
        #expect((b.map(\.alpha).max()! - b.map(\.alpha).min()!) > 0.3)
    }

    @Test func eachParticlePicksAColourOfThePalette() {
        let palette = [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 1, blue: 0), Color(red: 0, green: 0, blue: 1)]
        let emitter = Self.travelling { $0.birthRate = 60; $0.colors = palette }
        let colors = ParticleField(emitter).particles(at: 4).map(\.color)
        #expect(colors.count > 200)
        #expect(Set(colors) == Set(palette))
        for color in palette { #expect(colors.filter { $0 == color }.count > colors.count / 5) }
    }

    @Test func aBurstIsBornAtOnceAtItsStartAndDiesTogether() {
        var emitter = Emitter(seed: 8, birthRate: 0, lifetime: 3, position: Point(x: 100, y: 50), speed: 0, prewarm: false)
        emitter.burst = 50
        emitter.start = 2
        let field = ParticleField(emitter)
        #expect(field.particles(at: 1.999).isEmpty)
        #expect(field.particles(at: 2).count == 50)
        #expect(field.particles(at: 4.99).count == 50)
        #expect(field.particles(at: 5.01).isEmpty)
        #expect(field.particles(at: 2.5).allSatisfy { $0.position == Point(x: 100, y: 50) })
        // Its particles are not the stream's of the same numbers.
        var stream = emitter
        (stream.burst, stream.birthRate, stream.angleRange) = (0, 1000, 180)
        emitter.angleRange = 180
        emitter.speed = 10
        stream.speed = 10
        let burst = ParticleField(emitter).particles(at: 3).map(\.position)
        let streamed = ParticleField(stream).particles(at: 3).map(\.position)
        #expect(Set(burst.map(\.x)).isDisjoint(with: streamed.map(\.x)))
    }

    @Test func birthsBeginAtStartAndEndAfterTheDuration() {
        var emitter = Emitter(seed: 6, birthRate: 10, lifetime: 1, speed: 0, prewarm: false)
        emitter.start = 1
        emitter.duration = 2
        let field = ParticleField(emitter)
        #expect(field.particles(at: 0.9).isEmpty)
        #expect((9...11).contains(field.particles(at: 2.5).count))
        // At 3.5 only those born in the last half second of the births are alive.
        #expect((4...6).contains(field.particles(at: 3.5).count))
        #expect(field.particles(at: 4.01).isEmpty)
        // With prewarm, the emitter is full at its start, and empty before.
        emitter.prewarm = true
        emitter.duration = nil
        #expect(ParticleField(emitter).particles(at: 0.99).isEmpty)
        #expect((9...11).contains(ParticleField(emitter).particles(at: 1).count))
    }

    @Test func aFlutteringParticleSquashesWithTheCosineOfItsTurn() {
        var emitter = Emitter(seed: 3, birthRate: 0, lifetime: 10, speed: 0, prewarm: false)
        emitter.burst = 20
        emitter.flutter = 1
        let field = ParticleField(emitter)
        let a = field.particles(at: 2.1), b = field.particles(at: 2.6), c = field.particles(at: 2.35)
        #expect(a.count == 20 && b.count == 20)
        // |cos| turns once in half a turn; a quarter turn later, the squash is |sin| of the same angle.
        for ((p, q), r) in zip(zip(a, b), c) {
            #expect(abs(p.squash - q.squash) < 1e-9)
            #expect(abs(p.squash * p.squash + r.squash * r.squash - 1) < 1e-9)
        }
        #expect(Set(a.map(\.squash)).count == 20)
        emitter.flutter = 0
        #expect(ParticleField(emitter).particles(at: 2).allSatisfy { $0.squash == 1 })
    }

    @Test func aDropSplashesWhereItDiesAndItsDropletsFadeOut() {
        // Straight down at 100 pt/s for 1 s from y = 0: every drop dies at y = 100, its x where it was born.
        var emitter = Emitter(seed: 12, birthRate: 0, lifetime: 1, positionRange: Size(width: 300, height: 0), speed: 100,
                              shape: .line, prewarm: false)
        emitter.burst = 10
        emitter.splash = Splash(count: 3, lifetime: 0.4, speed: 50, spread: 30, gravity: 0, size: 2)
        let field = ParticleField(emitter)
        let drops = field.particles(at: 0.5)
        #expect(drops.count == 10 && drops.allSatisfy { $0.shape == nil })
        let droplets = field.particles(at: 1.2)
        #expect(droplets.count == 30 && droplets.allSatisfy { $0.shape == .circle })
        for (drop, splash) in zip(drops, stride(from: 0, to: 30, by: 3).map { Array(droplets[$0..<($0 + 3)]) }) {
            for droplet in splash {
                // 0.2 s after, within 30° of straight up at 25 … 75 pt/s, from where the drop landed.
                let (dx, dy) = (droplet.position.x - drop.position.x, droplet.position.y - 100)
                let distance = (dx * dx + dy * dy).squareRoot()
                #expect(distance >= 5 - 1e-9 && distance <= 15 + 1e-9)
                #expect(dy < 0 && abs(dx) <= -dy * tan(30 * .pi / 180) + 1e-9)
                #expect(abs(droplet.alpha - 0.5) < 1e-9 && abs(droplet.radius - 2 * 0.8) < 1e-9)
            }
        }
        // Gone when the splash's lifetime is over, and the same droplets on every call.
        #expect(field.particles(at: 1.41).isEmpty)
        #expect(field.particles(at: 1.2) == droplets)
    }
}
