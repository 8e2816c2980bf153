import DioramaMixer
import Foundation

/// Where the player's sound goes, and the clock the picture follows.
///
/// Frames are the mixer's clock: frames rendered since the output started. `heardFrame` is the frame
/// reaching the listener now (frames written minus the device's delay); every window frame shows the
/// playlist at that frame, so the audio clock is the master. Without a device, the monotonic clock
/// stands in for it.
public protocol SoundOutput: AnyObject {
    /// Frames per second.
    var sampleRate: Int { get }
    /// The mixer frame being heard now, fractional where the clock is interpolated.
    func heardFrame() -> Double
    /// The earliest mixer frame a command sent now can still act on (frames already rendered end here).
    func writeFrame() -> Int64
    /// Queues a command for the mixer; false when it could not be queued.
    @discardableResult func send(_ command: MixerCommand) -> Bool
    /// The listener's volume, a linear gain within `Mixer.volumeRange`, applied in the mixer before its limiter.
    var volume: Float { get set }
    /// True when a sound device plays (the clock is the device's); false when the monotonic clock stands in.
    var isLive: Bool { get }
    /// Frames past the write frame at which a command sent now is sure to reach the mixer in time
    /// (the mixer takes commands at the start of each period).
    var commandMargin: Int64 { get }
}

/// Monotonic seconds since an arbitrary start; never jumps back.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
