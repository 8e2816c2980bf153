/// How a voice lowers the ambience (voices of priority `.ambience`) while it sounds: from the voice's first
/// frame the ambience's gain ramps linearly from 1 down to `gain` over `attackFrames`; from the frame the voice
/// ends (its sound's last frame, or the first frame of its release when stopped, stolen or paused out) it
/// ramps back up to 1 over `releaseFrames`, from wherever the attack had got to.
///
/// Ducks do not add up: at every frame the ambience takes the lowest gain of all ducks in force (the deepest
/// wins), so two cues ducking by -12 dB keep the bed at -12 dB, and a -20 dB duck inside a -6 dB one dips to
/// -20 dB and comes back to -6 dB.
public struct VoiceDuck: Sendable, Equatable, BitwiseCopyable {
    /// Linear gain of the ambience while fully ducked (1: no ducking).
    public var gain: Float
    /// Frames of the ramp down (raised to the mixer's minimum stop fade, so the ambience never jumps).
    public var attackFrames: Int
    /// Frames of the ramp back up (raised likewise).
    public var releaseFrames: Int

    public init(gain: Float, attackFrames: Int, releaseFrames: Int) {
        self.gain = gain
        self.attackFrames = attackFrames
        self.releaseFrames = releaseFrames
    }

    public static let none = VoiceDuck(gain: 1, attackFrames: 0, releaseFrames: 0)

    /// Whether it lowers anything.
    public var isActive: Bool { gain < 1 && gain.isFinite }
}

/// One duck's gain curve in mixer frames. Computed from integer frame counts, so any block split gives the
/// same gain at the same frame.
struct DuckEnvelope {
    var level: Float
    /// The first frame of the attack.
    var start: Int64
    var attackFrames: Int
    var inverseAttack: Float
    /// The first frame of the release (`Int64.max` while the voice goes on).
    var end: Int64
    var releaseFrames: Int
    var inverseRelease: Float

    init(_ duck: VoiceDuck, start: Int64, end: Int64, minimumFrames: Int) {
        level = max(duck.gain, 0)
        self.start = start
        self.end = max(end, start)
        attackFrames = max(duck.attackFrames, minimumFrames, 1)
        releaseFrames = max(duck.releaseFrames, minimumFrames, 1)
        inverseAttack = 1 / Float(attackFrames)
        inverseRelease = 1 / Float(releaseFrames)
    }

    /// The first frame at which the gain is back to exactly 1.
    var silentFrom: Int64 { end == .max ? .max : end + Int64(releaseFrames) }

    @inline(__always)
    private func attack(at frame: Int64) -> Float {
        let elapsed = frame - start
        if elapsed <= 0 { return 1 }
        if elapsed >= Int64(attackFrames) { return level }
        return 1 + (level - 1) * (Float(elapsed) * inverseAttack)
    }

    @inline(__always)
    func gain(at frame: Int64) -> Float {
        if frame < end { return attack(at: frame) }
        let elapsed = frame - end
        if elapsed >= Int64(releaseFrames) { return 1 }
        let from = attack(at: end)
        return from + (1 - from) * (Float(elapsed) * inverseRelease)
    }

    /// Lowers `curve[i]` to this duck's gain at `frame + i` where that is lower.
    func lower(_ curve: UnsafeMutablePointer<Float>, from frame: Int64, count: Int) {
        // Nothing to do before the attack or after the release.
        if frame + Int64(count) <= start || frame >= silentFrom { return }
        for index in 0..<count {
            let gain = self.gain(at: frame + Int64(index))
            if gain < curve[index] { curve[index] = gain }
        }
    }

    /// Carries the envelope over a hold of `holdStart ..< resumeFrame` during which nothing moved: frames before
    /// the hold move later by its length, frames inside it to the resume.
    mutating func continueAfterHold(from holdStart: Int64, to resumeFrame: Int64) {
        guard holdStart < resumeFrame else { return }
        func moved(_ frame: Int64) -> Int64 {
            if frame == .max { return frame }
            if frame < holdStart { return frame + (resumeFrame - holdStart) }
            return frame < resumeFrame ? resumeFrame : frame
        }
        start = moved(start)
        end = moved(end)
    }
}

extension Voice {
    /// The voice's duck as it stands: the release starts at the sound's end (one-shots) or at the voice's own
    /// release, whichever comes first.
    func duckEnvelope(minimumFrames: Int) -> DuckEnvelope {
        let soundEnd = loops ? Int64.max : startFrame + Int64(soundFrames)
        return DuckEnvelope(duck, start: startFrame, end: min(soundEnd, release.frame), minimumFrames: minimumFrames)
    }

    /// Like `mix`, with each frame also scaled by `duck[index]` (the ambience's ducking curve).
    @inline(__always)
    func mix(into output: UnsafeMutablePointer<Float>, count: Int, frame: Int64, duck: UnsafePointer<Float>) {
        let step = channels, right = channels - 1
        let source = self.source + step * position
        let fading = frame - startFrame < Int64(fadeInFrames)
        let releasing = frame >= release.frame
        let fadeElapsed = Int(frame - startFrame)
        let releaseElapsed = Int(frame - release.frame)
        let releaseLevel = release.level
        let inverseRelease = release.inverse
        for index in 0..<count {
            var envelope = duck[index]
            if fading { envelope *= Float(fadeElapsed + index) * inverseFadeIn }
            if releasing {
                envelope *= releaseLevel * (1 - Float(releaseElapsed + index) * inverseRelease)
            }
            output[2 * index] += source[step * index] * gainLeft * envelope
            output[2 * index + 1] += source[step * index + right] * gainRight * envelope
        }
    }
}

/// The ducks of voices that have ended but whose release is still under way, in a fixed table.
struct RetiredDucks {
    let capacity: Int
    let entries: UnsafeMutablePointer<DuckEnvelope>
    var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        entries = .allocate(capacity: self.capacity)
    }

    func deallocate() { entries.deallocate() }

    /// Keeps `envelope` until its release is over. When the table is full, the duck that is back to 1 soonest
    /// gives way (only with more ducks ending at once than the mixer has voice slots).
    mutating func add(_ envelope: DuckEnvelope) {
        if count < capacity {
            entries[count] = envelope
            count += 1
            return
        }
        var soonest = 0
        for index in 1..<count where entries[index].silentFrom < entries[soonest].silentFrom { soonest = index }
        if envelope.silentFrom > entries[soonest].silentFrom { entries[soonest] = envelope }
    }

    /// Forgets the ducks back to 1 by `frame`.
    mutating func prune(before frame: Int64) {
        var kept = 0
        for index in 0..<count where entries[index].silentFrom > frame {
            entries[kept] = entries[index]
            kept += 1
        }
        count = kept
    }
}
