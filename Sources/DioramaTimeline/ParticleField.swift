import DioramaDocument
import Foundation

/// An emitter's particles at any scene time, in closed form: particle n is born at `n / birthRate` plus a seeded
/// jitter below one birth interval (so births stay in order), and every attribute comes from a hash of (seed, n).
///
/// Example: `ParticleField(emitter).particles(at: 12.5)` gives the same particles, bit for bit, on every call.
public struct ParticleField: Sendable {
    public let emitter: Emitter
    /// The longest a particle can live, in seconds.
    public let maximumLifetime: Double
    /// Scene time (seconds) at which particle 0 may be born: 0, or one maximum lifetime earlier with `prewarm`.
    public let origin: Double

    /// Upper bound on particles considered per evaluation; `diorama check` keeps real emitters far below it.
    static let maximumCandidates = 100_000

    public init(_ emitter: Emitter) {
        self.emitter = emitter
        maximumLifetime = max(0, emitter.lifetime + abs(emitter.lifetimeRange))
        origin = emitter.prewarm ? -maximumLifetime : 0
    }

    /// Live, visible particles (age below their lifetime, alpha and radius above zero), oldest first,
    /// at `time` seconds of scene time, in the emitter node's coordinates.
    public func particles(at time: Double) -> [Particle] {
        let rate = emitter.birthRate
        guard rate > 0, rate.isFinite, maximumLifetime > 0, time.isFinite else { return [] }
        let elapsed = time - origin
        guard elapsed >= 0 else { return [] }
        let newest = Int((elapsed * rate).rounded(.down))
        var oldest = max(0, Int(((elapsed - maximumLifetime) * rate).rounded(.down)) - 1)
        oldest = max(oldest, newest - Self.maximumCandidates)
        guard oldest <= newest else { return [] }
        var result: [Particle] = []
        result.reserveCapacity(newest - oldest + 1)
        for index in oldest...newest {
            if let particle = particle(index, elapsed: elapsed) { result.append(particle) }
        }
        return result
    }

    /// Particle `index` when `elapsed` seconds have passed since the emitter's origin; nil when unborn, dead or invisible.
    func particle(_ index: Int, elapsed: Double) -> Particle? {
        let e = emitter
        var random = SplitMix64(seed: e.seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        let birth = (Double(index) + random.unit()) / e.birthRate
        let age = elapsed - birth
        guard age >= 0 else { return nil }
        let lifetime = e.lifetime + e.lifetimeRange * random.symmetric()
        guard age < lifetime else { return nil }
        let startX = e.position.x + e.positionRange.width * random.symmetric()
        let startY = e.position.y + e.positionRange.height * random.symmetric()
        let angle = (e.angle + e.angleRange * random.symmetric()) * .pi / 180
        let speed = e.speed + e.speedRange * random.symmetric()
        let scale = e.scale + e.scaleRange * random.symmetric()
        let rotation = e.rotation + e.rotationRange * random.symmetric()
        let swayPhase = 2 * Double.pi * random.unit()

        let radius = e.size * max(0, scale + e.scaleSpeed * age)
        let alpha = min(1, max(0, e.alpha + e.alphaSpeed * age))
        guard radius > 0, alpha > 0 else { return nil }
        var x = startX + speed * cos(angle) * age + 0.5 * e.acceleration.x * age * age
        let y = startY + speed * sin(angle) * age + 0.5 * e.acceleration.y * age * age
        if e.swayAmplitude != 0 {
            x += e.swayAmplitude * sin(2 * .pi * e.swayFrequency * age + swayPhase)
        }
        return Particle(position: Point(x: x, y: y), radius: radius, rotation: rotation + e.spin * age,
                        alpha: alpha, color: e.color)
    }
}
