/// One playing sound: where it is in its sound, its gains and its envelope. Plain data, so the
/// voice table is a flat buffer the audio thread updates in place.
struct Voice {
    var isActive = false
    var source: UnsafePointer<Float>
    var soundFrames: Int
    /// Next frame of the sound to play.
    var position = 0
    var loops = false
    /// The mixer frame the voice started on (the fade-in counts from here).
    var startFrame: Int64 = 0
    var gainLeft: Float = 0
    var gainRight: Float = 0
    var fadeInFrames = 0
    var inverseFadeIn: Float = 0
    /// The mixer frame the release ramp starts on (`Int64.max` while none is scheduled).
    var releaseFrame = Int64.max
    var releaseFrames = 0
    var inverseRelease: Float = 0
    /// The envelope level the release ramps down from (1 unless it interrupts another release).
    var releaseLevel: Float = 1
    var tag: UInt32 = 0
    var priority = VoicePriority.cue
    /// Start order, for "oldest first" stealing.
    var serial: UInt64 = 0

    var isReleasing: Bool { releaseFrame != Int64.max }

    /// The release part of the envelope at mixer frame `frame` (1 before the release starts).
    func releaseEnvelope(at frame: Int64) -> Float {
        guard frame >= releaseFrame else { return 1 }
        let elapsed = frame - releaseFrame
        if elapsed >= Int64(releaseFrames) { return 0 }
        return releaseLevel * (1 - Float(elapsed) * inverseRelease)
    }

    /// The fade-in part of the envelope at mixer frame `frame`.
    func fadeInEnvelope(at frame: Int64) -> Float {
        let elapsed = frame - startFrame
        if elapsed >= Int64(fadeInFrames) { return 1 }
        return Float(max(elapsed, 0)) * inverseFadeIn
    }

    /// Schedules (or shortens) the release so the envelope ramps from its level at `frame` to
    /// silence over `frames`; the envelope stays continuous, so stopping never clicks.
    mutating func release(at frame: Int64, over frames: Int) {
        let frame = max(frame, startFrame)
        if isReleasing {
            // Only an earlier end may replace a scheduled release.
            if frame + Int64(frames) >= releaseFrame + Int64(releaseFrames) { return }
        }
        let level = releaseEnvelope(at: frame)
        releaseFrame = frame
        releaseFrames = max(frames, 1)
        inverseRelease = 1 / Float(releaseFrames)
        releaseLevel = level
    }

    /// Adds `count` frames of this voice into `output` (interleaved stereo), starting at mixer
    /// frame `frame`. The caller guarantees that within the span the sound does not end or wrap,
    /// the fade-in neither ends nor starts, and the release neither starts nor ends.
    @inline(__always)
    func mix(into output: UnsafeMutablePointer<Float>, count: Int, frame: Int64) {
        let source = self.source + 2 * position
        let gainLeft = self.gainLeft
        let gainRight = self.gainRight
        let fading = frame - startFrame < Int64(fadeInFrames)
        let releasing = frame >= releaseFrame
        if !fading && !releasing {
            for index in 0..<count {
                output[2 * index] += source[2 * index] * gainLeft
                output[2 * index + 1] += source[2 * index + 1] * gainRight
            }
            return
        }
        // Envelopes from integer frame counts, not running sums: the result is the same
        // whatever the block size, so live and offline renders match sample for sample.
        let fadeElapsed = Int(frame - startFrame)
        let releaseElapsed = Int(frame - releaseFrame)
        for index in 0..<count {
            var envelope: Float = 1
            if fading { envelope = Float(fadeElapsed + index) * inverseFadeIn }
            if releasing {
                envelope *= releaseLevel * (1 - Float(releaseElapsed + index) * inverseRelease)
            }
            output[2 * index] += source[2 * index] * gainLeft * envelope
            output[2 * index + 1] += source[2 * index + 1] * gainRight * envelope
        }
    }
}
