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
    /// Linear master gain, 0...2, applied after mixing.
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

/// No sound device: the clock is the monotonic clock, commands go nowhere (they are counted).
public final class SilentOutput: SoundOutput {
    public let sampleRate: Int
    private let start: Double
    private let now: () -> Double
    public var volume: Float = 1
    public private(set) var commandsDropped = 0
    public var isLive: Bool { false }
    public var commandMargin: Int64 { 0 }

    /// `now` returns monotonic seconds (injectable for tests).
    public init(sampleRate: Int = 48_000, now: @escaping () -> Double = monotonicSeconds) {
        self.sampleRate = sampleRate
        self.now = now
        self.start = now()
    }

    public func heardFrame() -> Double { (now() - start) * Double(sampleRate) }
    public func writeFrame() -> Int64 { Int64(heardFrame().rounded(.up)) }

    public func send(_ command: MixerCommand) -> Bool {
        commandsDropped += 1
        return true
    }
}

/// A sound output whose clock the caller moves by hand; it records every command. For tests and
/// offline measurement.
public final class ManualSoundOutput: SoundOutput {
    public let sampleRate: Int
    /// The frame being heard.
    public var heard: Double = 0
    /// Frames rendered ahead of what is heard (the device's latency), in frames.
    public var latency: Int64 = 0
    public var volume: Float = 1
    public var isLive: Bool = true
    public var commandMargin: Int64 = 0
    /// Every command sent, with the write frame at the time.
    public private(set) var commands: [(command: MixerCommand, writeFrame: Int64)] = []

    public init(sampleRate: Int = 48_000) {
        self.sampleRate = sampleRate
    }

    public func heardFrame() -> Double { heard }
    public func writeFrame() -> Int64 { Int64(heard.rounded(.down)) + latency }

    public func send(_ command: MixerCommand) -> Bool {
        commands.append((command, writeFrame()))
        return true
    }

    /// The voice starts sent so far.
    public var starts: [VoiceStart] {
        commands.compactMap { if case .start(let start) = $0.command { start } else { nil } }
    }

    public func clearCommands() { commands.removeAll() }
}
