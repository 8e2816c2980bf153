import DioramaAudio
import Synchronization

/// A PCM device that applies the player's volume to what it writes, ramping from the last gain to
/// the new one across a write so a change never clicks. Real-time safe: the scratch buffer is made
/// once, the gain is an atomic.
public final class VolumePCM: PCMDevice, @unchecked Sendable {
    // @unchecked Sendable: `scratch` and `applied` are touched only by `init` and inside `write`,
    // which the live output's audio thread alone calls once the device is handed to it; the control
    // thread only stores `target` (an atomic).
    public let device: any PCMDevice
    private let target: Atomic<UInt32>
    private var applied: Float
    private let scratch: UnsafeMutablePointer<Int16>
    private let capacity: Int

    /// `gain` applies from the first frame (a device opened again starts at the player's volume, no ramp).
    public init(wrapping device: any PCMDevice, gain: Float = 1) {
        self.device = device
        let gain = min(max(gain, 0), 2)
        target = Atomic(gain.bitPattern)
        applied = gain
        capacity = max(device.periodFrames, 64)
        scratch = .allocate(capacity: 2 * capacity)
    }

    deinit { scratch.deallocate() }

    /// Linear gain, 0 ... 2; takes effect from the next write.
    public var gain: Float {
        get { Float(bitPattern: target.load(ordering: .relaxed)) }
        set { target.store(min(max(newValue, 0), 2).bitPattern, ordering: .relaxed) }
    }

    public var sampleRate: Int { device.sampleRate }
    public var periodFrames: Int { device.periodFrames }
    public var bufferFrames: Int { device.bufferFrames }

    public func write(_ samples: UnsafePointer<Int16>, frames: Int) -> Int {
        let goal = gain
        if goal == 1 && applied == 1 { return device.write(samples, frames: frames) }
        let count = min(frames, capacity)
        let start = applied
        for frame in 0..<count {
            let gain = start + (goal - start) * Float(frame + 1) / Float(count)
            for channel in 0..<2 {
                let value = Float(samples[2 * frame + channel]) * gain
                scratch[2 * frame + channel] = Int16(max(-32768, min(32767, value.rounded())))
            }
        }
        let written = device.write(scratch, frames: count)
        // Only the frames actually written moved the ramp along.
        if written > 0 { applied = start + (goal - start) * Float(written) / Float(count) }
        return written
    }

    public func recover(fromError error: Int32) -> Int32 { device.recover(fromError: error) }
    public func delay() -> Int { device.delay() }
    public func close(draining: Bool) { device.close(draining: draining) }
}
