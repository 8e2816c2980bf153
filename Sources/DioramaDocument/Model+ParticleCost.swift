// What an emitter's particles cost a frame at most: `diorama check` holds a scene's emitters together to
// `DocumentLimits.maximumLiveParticlesPerScene` and `DocumentLimits.maximumParticleCover`.

extension Emitter {
    /// The most particles alive at once: `birthRate × (lifetime + lifetimeRange)`, or over the births' `duration`
    /// (plus a lifetime of prewarmed births) when that is shorter, plus the `burst`, plus the splashes' droplets.
    public var mostAlive: Double {
        let longest = lifetime + lifetimeRange
        let window = duration.map { min(longest, $0 + (prewarm ? longest : 0)) } ?? longest
        let particles = birthRate * window + Double(burst)
        guard let splash else { return particles }
        // Each particle's droplets live on after it for the splash's lifetime.
        return particles + Double(splash.count) * (birthRate * min(splash.lifetime, window) + Double(burst))
    }

    /// Square points of the largest particle's square, `(2 × size × largest scale)²`: what drawing one covers at most.
    /// The largest scale is `scale + scaleRange` times the largest of `scaleRamp`, grown by `scaleSpeed` over the
    /// longest lifetime.
    public var largestParticleArea: Double {
        let ramp = scaleRamp.isEmpty ? 1 : scaleRamp.map(\.value).max()!
        let scale = max(0, (scale + scaleRange) * max(0, ramp) + max(0, scaleSpeed) * (lifetime + lifetimeRange))
        let side = max(2 * size * scale, 2 * (splash?.size ?? 0))
        return side * side
    }
}
