// What an emitter's particles cost a frame at most: `diorama check` holds a scene's emitters together to
// `DocumentLimits.maximumLiveParticlesPerScene` and `DocumentLimits.maximumParticleCover`.

extension Emitter {
    /// The most particles alive at once: `birthRate × (lifetime + lifetimeRange)`.
    public var mostAlive: Double {
        birthRate * (lifetime + lifetimeRange)
    }

    /// Square points of the largest particle's square, `(2 × size × largest scale)²`: what drawing one covers at most.
    /// The largest scale is `scale + scaleRange`, grown by `scaleSpeed` over the longest lifetime.
    public var largestParticleArea: Double {
        let scale = max(0, scale + scaleRange + max(0, scaleSpeed) * (lifetime + lifetimeRange))
        let side = 2 * size * scale
        return side * side
    }
}
