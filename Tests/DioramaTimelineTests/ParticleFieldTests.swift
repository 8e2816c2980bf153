import DioramaDocument
import Foundation
import Testing
@testable import DioramaTimeline

@Suite struct ParticleFieldTests {
    @Test func sameTimeSameParticlesBitForBit() {
        let field = ParticleField(Emitter(seed: 42, birthRate: 50, lifetime: 3, lifetimeRange: 1, positionRange: Size(width: 100, height: 20),
                                          angleRange: 45, speedRange: 10, scaleRange: 0.3, rotationRange: 90, spin: 30,
                                          swayAmplitude: 5, swayFrequency: 0.7))
        for time in [0.0, 1.5, 60, 3600.016] {
            let a = field.particles(at: time), b = ParticleField(field.emitter).particles(at: time)
            #expect(a == b)
            #expect(a.map(\.position.x.bitPattern) == b.map(\.position.x.bitPattern))
        }
    }

    @Test func differentSeedsDiffer() {
        let a = ParticleField(Emitter(seed: 1, positionRange: Size(width: 100, height: 100))).particles(at: 3)
        let b = ParticleField(Emitter(seed: 2, positionRange: Size(width: 100, height: 100))).particles(at: 3)
        #expect(a != b)
    }

    @Test func followsTheClosedFormOfMotion() {
        // No randomness in anything but the birth jitter: particle n's age is t − (n + jitter)/rate.
        let emitter = Emitter(seed: 3, birthRate: 4, lifetime: 10, position: Point(x: 10, y: 20), angle: 0, speed: 30,
                              acceleration: Point(x: 0, y: 9.8), size: 2, scale: 1, scaleSpeed: 0.1, rotation: 15, spin: 10,
                              alpha: 1, alphaSpeed: -0.05, prewarm: false)
        let field = ParticleField(emitter)
        let particles = field.particles(at: 2)
        #expect(particles.count == 8)
        for particle in particles {
            // Recover the age from x = 10 + 30·age, then check every other attribute against it.
            let age = (particle.position.x - 10) / 30
            #expect(age > 0 && age < 2)
            #expect(abs(particle.position.y - (20 + 0.5 * 9.8 * age * age)) < 1e-9)
            #expect(abs(particle.radius - 2 * (1 + 0.1 * age)) < 1e-9)
            #expect(abs(particle.rotation - (15 + 10 * age)) < 1e-9)
            #expect(abs(particle.alpha - (1 - 0.05 * age)) < 1e-9)
        }
        // Oldest first.
        #expect(zip(particles, particles.dropFirst()).allSatisfy { $0.position.x >= $1.position.x })
    }

    @Test func particlesDieAtTheEndOfTheirLifetime() {
        let field = ParticleField(Emitter(seed: 9, birthRate: 10, lifetime: 1, speed: 100, prewarm: false))
        for particle in field.particles(at: 5) {
            #expect(particle.position.y < 100)  // straight down at 100 pt/s: younger than 1 s
        }
        // Steady state: about rate × lifetime alive.
        #expect((9...11).contains(field.particles(at: 5).count))
    }

    @Test func prewarmStartsFullAndWithoutItTheSceneStartsEmpty() {
        let emitter = Emitter(seed: 5, birthRate: 20, lifetime: 2)
        var cold = emitter
        cold.prewarm = false
        #expect((38...42).contains(ParticleField(emitter).particles(at: 0).count))
        #expect(ParticleField(cold).particles(at: 0).isEmpty)
        #expect((18...22).contains(ParticleField(cold).particles(at: 1).count))
    }

    @Test func invisibleParticlesAreLeftOut() {
        let field = ParticleField(Emitter(seed: 5, birthRate: 20, lifetime: 4, alpha: 1, alphaSpeed: -0.5))
        let particles = field.particles(at: 10)
        #expect(particles.allSatisfy { $0.alpha > 0 })
        #expect((36...44).contains(particles.count))  // only the 2 s during which alpha is above 0
    }

    @Test func anHourInCostsTheSameAsTheStart() {
        let field = ParticleField(Emitter(seed: 11, birthRate: 100, lifetime: 3))
        #expect(abs(field.particles(at: 3600).count - field.particles(at: 10).count) < 15)
    }
}
