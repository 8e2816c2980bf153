/// A fade to silence scheduled on a voice: from mixer frame `frame`, linearly over `frames` frames,
/// down from `level` (1 unless it interrupts an earlier release).
struct Release {
    static let none = Release()

    /// The mixer frame the ramp starts on (`Int64.max` while none is scheduled).
    var frame = Int64.max
    var frames = 0
    var inverse: Float = 0
    var level: Float = 1

    init() {}

    init(frame: Int64, frames: Int, level: Float) {
        self.frame = frame
        self.frames = max(frames, 1)
        self.inverse = 1 / Float(self.frames)
        self.level = level
    }

    var isScheduled: Bool { frame != .max }
    /// The first frame of silence.
    var end: Int64 { isScheduled ? frame + Int64(frames) : .max }

    /// The release part of the envelope at mixer frame `at` (1 before the ramp starts).
    func envelope(at frame: Int64) -> Float {
        guard frame >= self.frame else { return 1 }
        let elapsed = frame - self.frame
        if elapsed >= Int64(frames) { return 0 }
        return level * (1 - Float(elapsed) * inverse)
    }
}

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
    /// The release in force.
    var release = Release.none
    /// The release `release` replaced, kept so a revocation of `release` can fall back to it.
    var replaced = Release.none
    var tag: UInt32 = 0
    var priority = VoicePriority.cue
    /// Start order, for "oldest first" stealing.
    var serial: UInt64 = 0

    var isReleasing: Bool { release.isScheduled }

    /// The fade-in part of the envelope at mixer frame `frame`.
    func fadeInEnvelope(at frame: Int64) -> Float {
        let elapsed = frame - startFrame
        if elapsed >= Int64(fadeInFrames) { return 1 }
        return Float(max(elapsed, 0)) * inverseFadeIn
    }

    /// Schedules (or shortens) the release so the envelope ramps from its level at `frame` to
    /// silence over `frames`; the envelope stays continuous, so stopping never clicks. Only an
    /// earlier end replaces a scheduled release, unless `replacingAny` (a stop inside a hold, whose
    /// frames are compared again with `settleReleases` once the hold's length is known).
    mutating func release(at frame: Int64, over frames: Int, replacingAny: Bool = false) {
        let frame = max(frame, startFrame)
        if isReleasing && !replacingAny {
            if frame + Int64(frames) >= release.end { return }
        }
        let next = Release(frame: frame, frames: frames, level: release.envelope(at: frame))
        if isReleasing { replaced = release }
        release = next
    }

    /// Cancels the release if it starts at or after `threshold` (it has not begun), falling back
    /// to the release it replaced if that one starts before `threshold`.
    mutating func cancelRelease(from threshold: Int64) {
        guard isReleasing && release.frame >= threshold else { return }
        release = replaced.isScheduled && replaced.frame < threshold ? replaced : .none
        replaced = .none
    }

    /// Carries the voice over a hold of mixer frames `holdStart ..< resumeFrame` during which it
    /// stood still: frames before the hold move later by its length, so the envelope continues.
    /// Returns false if a release falls inside the hold (the voice was stopped while nothing was heard).
    mutating func continueAfterHold(from holdStart: Int64, to resumeFrame: Int64) -> Bool {
        let range = holdStart..<resumeFrame
        if range.contains(release.frame) || range.contains(replaced.frame) { return false }
        let shift = resumeFrame - holdStart
        startFrame += shift
        if release.frame < holdStart { release.frame += shift }
        if replaced.frame < holdStart { replaced.frame += shift }
        settleReleases()
        return true
    }

    /// With two releases, the one that ends first is in force, starting from the level the other
    /// leaves it (they were compared on frames that a hold has since moved apart).
    mutating func settleReleases() {
        guard release.isScheduled && replaced.isScheduled else { return }
        var current = release
        var other = replaced
        if current.frame < other.frame {
            // `current` took its level from `other`, which only starts later.
            current.level = 1
            if other.end < current.end {
                other.level = current.envelope(at: other.frame)
                release = other
                replaced = current
            } else {
                release = current
                replaced = other
            }
        } else if current.end < other.end {
            current.level = other.envelope(at: current.frame)
            release = current
            replaced = other
        } else {
            release = other
            replaced = current
        }
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
        let releasing = frame >= release.frame
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
        let releaseElapsed = Int(frame - release.frame)
        let releaseLevel = release.level
        let inverseRelease = release.inverse
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
