import DioramaDocument
import Foundation

/// An emitter's particles at any scene time, in closed form: particle n is born at `n / birthRate` plus a seeded
/// jitter below one birth interval (so births stay in order), and every attribute comes from a hash of (seed, n).
/// A burst's particles are all born at the emitter's `start`, each hashed from (seed, its number, a burst salt).
///
/// Example: `ParticleField(emitter).particles(at: 12.5)` gives the same particles, bit for bit, on every call.
public struct ParticleField: Sendable {
    public let emitter: Emitter
    /// The longest a particle can live, in seconds.
    public let maximumLifetime: Double
    /// Scene time (seconds) at which particle 0 of the stream may be born: `start`, or one maximum lifetime earlier
    /// with `prewarm`.
    public let origin: Double
    /// Seconds after `origin` at which the stream's births end; infinity when they go on.
    let streamEnd: Double
    /// The longest a particle or its splash's droplets can be seen after its birth.
    let reach: Double

    /// Upper bound on particles considered per evaluation; `diorama check` keeps real emitters far below it.
    static let maximumCandidates = 100_000
    /// Mixed into a burst particle's seed, so that it differs from the stream's particle of the same number.
    static let burstSalt: UInt64 = 0x5851_F42D_4C95_7F2D

    public init(_ emitter: Emitter) {
        self.emitter = emitter
        maximumLifetime = max(0, emitter.lifetime + abs(emitter.lifetimeRange))
        let origin = emitter.prewarm ? emitter.start - maximumLifetime : emitter.start
        self.origin = origin
        reach = maximumLifetime + (emitter.splash?.lifetime ?? 0)
        streamEnd = emitter.duration.map { emitter.start + $0 - origin } ?? .infinity
    }

    /// Live, visible particles (age below their lifetime, alpha and radius above zero), the burst's first then the
    /// stream's oldest first, at `time` seconds of scene time, in the emitter node's coordinates.
    public func particles(at time: Double) -> [Particle] {
        guard maximumLifetime > 0, time.isFinite, time >= emitter.start || (emitter.start == 0 && emitter.prewarm) else { return [] }
        var result: [Particle] = []
        let burstAge = time - emitter.start
        if emitter.burst > 0, burstAge >= 0, burstAge < reach {
            result.reserveCapacity(emitter.burst)
            for index in 0..<emitter.burst { appendBurstParticle(index, age: burstAge, to: &result) }
        }
        let rate = emitter.birthRate
        guard rate > 0, rate.isFinite else { return result }
        let elapsed = time - origin
        guard elapsed >= 0 else { return result }
        // Past the stream's end, the last candidate is checked against it in `particle(_:elapsed:)`.
        let newest = Int((min(elapsed, streamEnd) * rate).rounded(.down))
        var oldest = max(0, Int(((elapsed - reach) * rate).rounded(.down)) - 1)
        oldest = max(oldest, newest - Self.maximumCandidates)
        guard oldest <= newest else { return result }
        result.reserveCapacity(result.count + newest - oldest + 1)
        for index in oldest...newest { appendParticle(index, elapsed: elapsed, to: &result) }
        return result
    }

    /// Appends particle `index` of the stream when `elapsed` seconds have passed since the emitter's origin, or its
    /// splash's droplets; nothing when unborn, dead or invisible.
    func appendParticle(_ index: Int, elapsed: Double, to result: inout [Particle]) {
        var random = SplitMix64(seed: emitter.seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        let birth = (Double(index) + random.unit()) / emitter.birthRate
        guard birth < streamEnd else { return }
        appendParticle(age: elapsed - birth, random: &random, to: &result)
    }

    /// `appendParticle(_:elapsed:to:)` for particle `index` of the burst, `age` seconds after it.
    func appendBurstParticle(_ index: Int, age: Double, to result: inout [Particle]) {
        var random = SplitMix64(seed: emitter.seed ^ Self.burstSalt ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        _ = random.unit()  // The stream's birth jitter: the draws after it follow in the same order.
        appendParticle(age: age, random: &random, to: &result)
    }

    /// Appends a particle `age` seconds old whose attributes are drawn from `random`, or, once it has died, its
    /// splash's droplets. New attributes draw after the older ones, so that an emitter without them keeps its
    /// particles bit for bit.
    private func appendParticle(age: Double, random: inout SplitMix64, to result: inout [Particle]) {
        guard age >= 0 else { return }
        let lifetime = emitter.lifetime + emitter.lifetimeRange * random.symmetric()
        if age < lifetime {
            if let particle = particle(age: age, lifetime: lifetime, random: &random) { result.append(particle) }
        } else if let splash = emitter.splash, age < lifetime + splash.lifetime {
            appendSplash(splash, after: age - lifetime, lifetime: lifetime, random: &random, to: &result)
        }
    }

    /// The droplets of a particle's splash, `after` seconds after it died at `lifetime`: each flies from where the
    /// particle was last, fading out as it goes.
    private func appendSplash(_ splash: Splash, after: Double, lifetime: Double, random: inout SplitMix64, to result: inout [Particle]) {
        // The particle's last moment (not drawn: its splash drew one more random number, which it ignores).
        guard let last = particle(age: lifetime, lifetime: lifetime, random: &random, atDeath: true) else { return }
        var droplets = SplitMix64(seed: random.next())
        let fade = 1 - after / splash.lifetime
        for _ in 0..<splash.count {
            let angle = (-90 + splash.spread * droplets.symmetric()) * .pi / 180
            let speed = splash.speed * (0.5 + droplets.unit())
            let x = last.position.x + speed * cos(angle) * after
            let y = last.position.y + speed * sin(angle) * after + 0.5 * splash.gravity * after * after
            let color = splash.color ?? last.color
            guard fade > 0, splash.size > 0 else { continue }
            result.append(Particle(position: Point(x: x, y: y), radius: splash.size * (0.6 + 0.4 * fade), rotation: 0,
                                   alpha: last.alpha * fade, color: color, shape: .circle))
        }
    }

    /// A particle `age` seconds into its `lifetime`, its other attributes drawn from `random`; nil when invisible
    /// (`atDeath`: its last place and colour even so, for a splash).
    private func particle(age: Double, lifetime: Double, random: inout SplitMix64, atDeath: Bool = false) -> Particle? {
        let e = emitter
        let startX = e.position.x + e.positionRange.width * random.symmetric()
        let startY = e.position.y + e.positionRange.height * random.symmetric()
        let angle = (e.angle + e.angleRange * random.symmetric()) * .pi / 180
        let speed = e.speed + e.speedRange * random.symmetric()
        let scale = e.scale + e.scaleRange * random.symmetric()
        let rotation = e.rotation + e.rotationRange * random.symmetric()
        let swayPhase = 2 * Double.pi * random.unit()
        let alphaAtBirth = e.alpha + e.alphaRange * random.symmetric()
        let pick = random.unit()
        let flutterPhase = 2 * Double.pi * random.unit()

        let life = age / lifetime
        let scaleFactor = e.scaleRamp.isEmpty ? 1 : Self.value(of: e.scaleRamp, at: life)
        let alphaFactor = e.alphaRamp.isEmpty ? 1 : Self.value(of: e.alphaRamp, at: life)
        let radius = e.size * max(0, scale * scaleFactor + e.scaleSpeed * age)
        let alpha = min(1, max(0, alphaAtBirth * alphaFactor + e.alphaSpeed * age))
        guard atDeath || (radius > 0 && alpha > 0) else { return nil }
        var x = startX + speed * cos(angle) * age + 0.5 * e.acceleration.x * age * age
        let y = startY + speed * sin(angle) * age + 0.5 * e.acceleration.y * age * age
        if e.swayAmplitude != 0 {
            x += e.swayAmplitude * sin(2 * .pi * e.swayFrequency * age + swayPhase)
        }
        let color = !e.colorRamp.isEmpty ? Self.color(of: e.colorRamp, at: life)
            : !e.colors.isEmpty ? e.colors[min(e.colors.count - 1, Int(pick * Double(e.colors.count)))] : e.color
        let squash = e.flutter > 0 ? abs(cos(2 * .pi * e.flutter * age + flutterPhase)) : 1
        return Particle(position: Point(x: x, y: y), radius: radius, rotation: rotation + e.spin * age,
                        alpha: alpha, color: color, squash: squash)
    }

    /// Where `ramp`'s straight lines between stops are at `life`: the first stop's value before it, the last's after.
    static func value(of ramp: [LifeStop<Double>], at life: Double) -> Double {
        let (lower, upper, t) = bracket(ramp, at: life)
        return ramp[lower].value + (ramp[upper].value - ramp[lower].value) * t
    }

    /// `value(of:at:)` for colours, channel by channel.
    static func color(of ramp: [LifeStop<Color>], at life: Double) -> Color {
        let (lower, upper, t) = bracket(ramp, at: life)
        let (a, b) = (ramp[lower].value, ramp[upper].value)
        guard t > 0 else { return a }
        return Color(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
                     blue: a.blue + (b.blue - a.blue) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
    }

    /// The stops either side of `life` and how far between them it lies (0...1).
    private static func bracket<Value>(_ ramp: [LifeStop<Value>], at life: Double) -> (Int, Int, Double) {
        guard let next = ramp.firstIndex(where: { $0.at > life }) else { return (ramp.count - 1, ramp.count - 1, 0) }
        guard next > 0 else { return (0, 0, 0) }
        let span = ramp[next].at - ramp[next - 1].at
        return (next - 1, next, span > 0 ? (life - ramp[next - 1].at) / span : 1)
    }
}
