import Foundation

/// A PCM device that never runs ahead of real time by more than its buffer. Real sound cards block
/// in `write` and are never held back; ALSA's `null` and `file` devices take seconds of audio in
/// milliseconds, which would make the audio clock race: those are paced to the monotonic clock here,
/// so `diorama play --audio-device null` plays at the speed it would on a sound card.
public final class PacedPCM: PCMDevice, @unchecked Sendable {
    // @unchecked Sendable: `started` and `written` are touched only inside `write` and `recover`,
    // which the live output's audio thread alone calls while the device is handed to it.
    public let device: any PCMDevice
    private let now: @Sendable () -> Double
    private let sleep: @Sendable (Double) -> Void
    /// Monotonic seconds of the first write.
    private var started: Double?
    /// Frames accepted so far.
    private var written: Int64 = 0

    /// `now` gives monotonic seconds and `sleep` waits for a number of seconds (both injectable for tests).
    public init(wrapping device: any PCMDevice, now: @escaping @Sendable () -> Double = monotonicSeconds,
                sleep: @escaping @Sendable (Double) -> Void = { seconds in
                    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
                    var remaining = timespec()
                    while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
                }) {
        self.device = device
        self.now = now
        self.sleep = sleep
    }

    public var sampleRate: Int { device.sampleRate }
    public var periodFrames: Int { device.periodFrames }
    public var bufferFrames: Int { device.bufferFrames }

    public func write(_ samples: UnsafePointer<Int16>, frames: Int) -> Int {
        let start = started ?? now()
        started = start
        // Frames may be at most one buffer ahead of what real time has played.
        let due = start + Double(written + Int64(frames) - Int64(bufferFrames)) / Double(sampleRate)
        let wait = due - now()
        if wait > 0 { sleep(wait) }
        let result = device.write(samples, frames: frames)
        if result > 0 { written += Int64(result) }
        return result
    }

    public func recover(fromError error: Int32) -> Int32 {
        // After an underrun or a suspend the stream starts over: pace from now.
        started = nil
        written = 0
        return device.recover(fromError: error)
    }

    public func delay() -> Int { device.delay() }
    public func close(draining: Bool) { device.close(draining: draining) }
}
