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

/// A stop asked for: a fade to silence from mixer frame `frame` over `fadeFrames` frames.
struct Stop {
    static let none = Stop()

    /// `Int64.max` while none is asked for.
    var frame = Int64.max
    var fadeFrames = 0

    init() {}
    init(frame: Int64, fadeFrames: Int) {
        self.frame = frame
        self.fadeFrames = fadeFrames
    }

    var isScheduled: Bool { frame != .max }
    var end: Int64 { isScheduled ? frame + Int64(fadeFrames) : .max }
}

/// The stops scheduled on a voice, or on a start still waiting for its frame.
///
/// The release that ends first is in force; the one it replaced is kept so that a revocation can fall
/// back to it. A stop that arrives while paused for a frame inside the hold is kept apart (`holdStop`,
/// the earliest such): nothing is heard there, so it must not take over a fade still heard under the
/// pause's ramp. At the resume it ends the voice if its frame is not after the resume frame, and
/// otherwise becomes an ordinary stop.
struct StopSchedule {
    /// The release in force.
    var release = Release.none
    /// The release `release` replaced.
    var replaced = Release.none
    /// The earliest stop asked for a frame inside the current hold (see `Mixer`'s pause).
    var holdStop = Stop.none

    /// Schedules a release from `frame` over `frames` frames if it ends before the one in force; it
    /// starts from the level the other leaves at `frame`, so stopping never clicks.
    mutating func add(at frame: Int64, over frames: Int) {
        if release.isScheduled && frame + Int64(frames) >= release.end { return }
        let next = Release(frame: frame, frames: frames, level: release.envelope(at: frame))
        if release.isScheduled { replaced = release }
        release = next
    }

    /// Notes a stop asked for frame `frame` (inside the hold) over `fadeFrames`; the earliest one counts.
    mutating func addInHold(_ stop: Stop) {
        if (stop.frame, stop.end) < (holdStop.frame, holdStop.end) { holdStop = stop }
    }

    /// Cancels the stops starting at or after `threshold` (they have not begun); a cancelled release
    /// falls back to the release it replaced if that one starts before `threshold`.
    mutating func cancel(from threshold: Int64) {
        if holdStop.frame >= threshold { holdStop = .none }
        guard release.isScheduled && release.frame >= threshold else { return }
        release = replaced.isScheduled && replaced.frame < threshold ? replaced : .none
        replaced = .none
    }

    /// Carries the stops over the hold `holdStart ..< resumeFrame` (empty when the resume came during
    /// the pause's ramp): frames before the hold move later by its length; a stop in the hold, or a
    /// hold stop not after the resume, ends the voice (false); a later hold stop becomes an ordinary one.
    mutating func continueAfterHold(from holdStart: Int64, to resumeFrame: Int64) -> Bool {
        if holdStart < resumeFrame {
            if holdStop.frame <= resumeFrame { return false }
            let hold = holdStart...resumeFrame
            if hold.contains(release.frame) || hold.contains(replaced.frame) { return false }
            let shift = resumeFrame - holdStart
            if release.frame < holdStart { release.frame += shift }
            if replaced.frame < holdStart { replaced.frame += shift }
        }
        if holdStop.isScheduled { add(at: holdStop.frame, over: holdStop.fadeFrames) }
        holdStop = .none
        return true
    }

    /// Moves releases starting before `frame` to it (a start that begins late carries its stops from there).
    mutating func delay(to frame: Int64) {
        if release.frame < frame { release.frame = frame }
        if replaced.frame < frame { replaced.frame = frame }
    }
}

/// One playing sound: where it is in its sound, its gains and its envelope. Plain data, so the
/// voice table is a flat buffer the audio thread updates in place.
struct Voice {
    var isActive = false
    var source: UnsafePointer<Float>
    /// The sound's samples a frame: 2 (left, right) or 1 (mono, the same on both channels).
    var channels = 2
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
    /// Its release, and the stops that may still change it.
    var stops = StopSchedule()
    var tag: UInt32 = 0
    var priority = VoicePriority.cue
    /// Start order, for "oldest first" stealing.
    var serial: UInt64 = 0
    /// How it lowers the ambience while it sounds.
    var duck = VoiceDuck.none

    /// The release in force.
    var release: Release { stops.release }
    var isReleasing: Bool { stops.release.isScheduled }

    /// The fade-in part of the envelope at mixer frame `frame`.
    func fadeInEnvelope(at frame: Int64) -> Float {
        let elapsed = frame - startFrame
        if elapsed >= Int64(fadeInFrames) { return 1 }
        return Float(max(elapsed, 0)) * inverseFadeIn
    }

    /// Schedules (or shortens) the release so the envelope ramps from its level at `frame` to
    /// silence over `frames`; the envelope stays continuous, so stopping never clicks. Only an
    /// earlier end replaces a scheduled release.
    mutating func release(at frame: Int64, over frames: Int) {
        stops.add(at: max(frame, startFrame), over: frames)
    }

    /// Carries the voice over a hold of mixer frames `holdStart ..< resumeFrame` during which it
    /// stood still: frames before the hold move later by its length, so the envelope continues.
    /// Returns false if the voice was stopped in the hold (nothing of it was heard).
    mutating func continueAfterHold(from holdStart: Int64, to resumeFrame: Int64) -> Bool {
        guard stops.continueAfterHold(from: holdStart, to: resumeFrame) else { return false }
        startFrame += max(resumeFrame - holdStart, 0)
        return true
    }

    /// Adds `count` frames of this voice into `output` (interleaved stereo), starting at mixer
    /// frame `frame`. The caller guarantees that within the span the sound does not end or wrap,
    /// the fade-in neither ends nor starts, and the release neither starts nor ends.
    @inline(__always)
    func mix(into output: UnsafeMutablePointer<Float>, count: Int, frame: Int64) {
        // Frame i's left sample is source[step * i], its right one `right` after it (the same sample, mono).
        let step = channels, right = channels - 1
        let source = self.source + step * position
        let gainLeft = self.gainLeft
        let gainRight = self.gainRight
        let fading = frame - startFrame < Int64(fadeInFrames)
        let releasing = frame >= release.frame
        if !fading && !releasing {
            // The common case, in loops of a fixed stride, which the compiler vectorizes.
            if step == 2 {
                for index in 0..<count {
                    output[2 * index] += source[2 * index] * gainLeft
                    output[2 * index + 1] += source[2 * index + 1] * gainRight
                }
            } else {
                for index in 0..<count {
                    let sample = source[index]
                    output[2 * index] += sample * gainLeft
                    output[2 * index + 1] += sample * gainRight
                }
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
            output[2 * index] += source[step * index] * gainLeft * envelope
            output[2 * index + 1] += source[step * index + right] * gainRight * envelope
        }
    }
}
