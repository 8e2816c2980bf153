import DioramaMixer
import Glibc
import Synchronization

/// Counters of the live output, for `play` to print at exit.
public struct LiveAudioStatistics: Sendable, Equatable {
    /// Frames handed to the device (or paced by the monotonic clock).
    public var framesWritten: Int64
    /// Underruns (-EPIPE) recovered.
    public var underruns: Int
    /// Suspends (-ESTRPIPE) recovered.
    public var suspends: Int
    /// Interrupted writes (-EINTR) recovered.
    public var interruptions: Int
    /// The device failed beyond recovery (disappeared) and no other has taken its place yet:
    /// playback goes on, silent, on the monotonic clock.
    public var deviceLost: Bool
    /// The errno of the last loss (0 if none).
    public var lossError: Int32
    /// Devices lost beyond recovery, and devices taken up again after a loss (`offer`).
    public var losses: Int
    public var reopenings: Int
    /// Whether the audio thread got real-time (SCHED_FIFO) priority.
    public var realTimePriority: Bool
}

/// The clock that paces the mixer when no device plays: monotonic nanoseconds, and a wait until a
/// deadline. Tests pass a virtual one, so pacing costs no wall-clock time and is exact.
public struct PacingClock: Sendable {
    /// Monotonic nanoseconds since an arbitrary start.
    public var now: @Sendable () -> Int64
    /// Returns once `now()` has reached the deadline (monotonic nanoseconds). Called on the audio
    /// thread: it must not allocate, lock or print.
    public var sleep: @Sendable (_ until: Int64) -> Void

    public init(now: @escaping @Sendable () -> Int64, sleep: @escaping @Sendable (_ until: Int64) -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// CLOCK_MONOTONIC, with absolute sleeps (so no drift accumulates).
    public static let monotonic = PacingClock(now: monotonicNanoseconds, sleep: { deadline in
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    })
}

/// Why `LiveAudioOutput.offer(_:)` did not take a device (the caller keeps it, and closes it).
public enum DeviceRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// A device plays, another offer waits, or the lost one has not been taken back yet.
    case busy
    /// The device runs at another rate (frames per second) or period (frames) than the output's
    /// clock and buffers, which are fixed.
    case mismatched(sampleRate: Int, periodFrames: Int, wantedSampleRate: Int, wantedPeriodFrames: Int)

    public var description: String {
        switch self {
        case .busy: "another device is in use"
        case .mismatched(let rate, let period, let wantedRate, let wantedPeriod):
            "it opened at \(rate) Hz with \(period)-frame periods, and playback runs at \(wantedRate) Hz with \(wantedPeriod)-frame periods"
        }
    }
}

/// The live output: a dedicated thread renders the mixer period by period and writes to a PCM
/// device; with no device (none could be opened, or it was lost) it paces the mixer on the
/// monotonic clock instead, so the rest of playback keeps its timing, until another device is
/// offered (`offer(_:)`) and taken up at the next period boundary.
///
/// The audio thread never allocates, locks, prints or touches files: buffers are made here,
/// counters are atomics, devices change hands through atomic pointers (a lost one is handed back
/// for the control thread to close: `takeLostDevice()`), and messages for the user are left to the
/// caller (`statistics`).
public final class LiveAudioOutput: @unchecked Sendable {
    // @unchecked Sendable: the buffers, `current`, the pacing origin and `stopAfter` are touched by
    // the audio thread only between `start()` and the end of `wait()`/`stop()` (the thread is
    // joined there), and by the owner only outside that window; devices cross between threads only
    // through `incoming` and `outgoing` (atomic, each written by one side and emptied by the other);
    // everything else shared meanwhile is an `Atomic`.
    public let mixer: Mixer
    public let periodFrames: Int
    public let sampleRate: Int
    private let bufferFrames: Int
    private let clock: PacingClock
    private let floats: UnsafeMutablePointer<Float>
    private let pcm: UnsafeMutablePointer<Int16>
    private var thread: pthread_t?
    private var stopAfter: Int64 = .max

    /// The device being written (a retained `DeviceBox`), nil when none plays. Audio thread only.
    private var current: UnsafeMutableRawPointer?
    /// A device offered by the control thread, waiting for the audio thread to take it up.
    private let incoming = Atomic<UnsafeMutableRawPointer?>(nil)
    /// A lost device handed back by the audio thread, waiting for the control thread to close it.
    private let outgoing = Atomic<UnsafeMutableRawPointer?>(nil)
    /// Monotonic nanoseconds when clock pacing started, and the frame it started from. Audio thread only.
    private var pacingOrigin: (nanoseconds: Int64, frame: Int64)?

    private let running = Atomic<Bool>(false)
    private let playing = Atomic<Bool>(false)
    private let written = Atomic<Int64>(0)
    private let heard = Atomic<Int64>(0)
    private let underruns = Atomic<Int>(0)
    private let suspends = Atomic<Int>(0)
    private let interruptions = Atomic<Int>(0)
    private let lossError = Atomic<Int32>(0)
    private let losses = Atomic<Int>(0)
    private let reopenings = Atomic<Int>(0)
    private let realTime = Atomic<Bool>(false)

    /// - Parameters: `device`: nil to run on the monotonic clock (no device could be opened);
    ///   `periodFrames` is used only then (a device brings its own); `clock` paces the mixer
    ///   whenever no device plays.
    public init(mixer: Mixer, device: (any PCMDevice)?, periodFrames: Int = 256, clock: PacingClock = .monotonic) {
        self.mixer = mixer
        self.clock = clock
        self.periodFrames = device?.periodFrames ?? periodFrames
        self.sampleRate = device?.sampleRate ?? mixer.configuration.sampleRate
        bufferFrames = device?.bufferFrames ?? self.periodFrames
        floats = .allocate(capacity: 2 * self.periodFrames)
        pcm = .allocate(capacity: 2 * self.periodFrames)
        if let device {
            current = Unmanaged.passRetained(DeviceBox(device)).toOpaque()
            playing.store(true, ordering: .relaxed)
        }
    }

    deinit {
        stop()
        for box in [current, incoming.exchange(nil, ordering: .acquiring), outgoing.exchange(nil, ordering: .acquiring)] {
            if let box { Unmanaged<DeviceBox>.fromOpaque(box).release() }
        }
        floats.deallocate()
        pcm.deallocate()
    }

    /// Starts the audio thread. With `frames`, it ends by itself after that many frames (tests).
    public func start(frames: Int64? = nil) {
        guard thread == nil else { return }
        stopAfter = frames ?? .max
        running.store(true, ordering: .releasing)
        let context = Unmanaged.passRetained(self).toOpaque()
        let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
            let output = Unmanaged<LiveAudioOutput>.fromOpaque(context!).takeRetainedValue()
            output.run()
            return nil
        }
        var handle = pthread_t()
        // Ask for real-time scheduling; without the privilege, fall back to a normal thread.
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED))
        pthread_attr_setschedpolicy(&attributes, SCHED_FIFO)
        var parameters = sched_param()
        parameters.sched_priority = min(sched_get_priority_max(SCHED_FIFO), 70)
        pthread_attr_setschedparam(&attributes, &parameters)
        if pthread_create(&handle, &attributes, body, context) == 0 {
            realTime.store(true, ordering: .relaxed)
        } else if pthread_create(&handle, nil, body, context) != 0 {
            Unmanaged<LiveAudioOutput>.fromOpaque(context).release()
            running.store(false, ordering: .releasing)
            pthread_attr_destroy(&attributes)
            return
        }
        pthread_attr_destroy(&attributes)
        thread = handle
    }

    /// Waits for a thread started with a frame count to finish.
    public func wait() {
        guard let thread else { return }
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// Stops the audio thread after its current period and waits for it.
    public func stop() {
        running.store(false, ordering: .releasing)
        wait()
    }

    /// After `stop()`: closes every device the output holds, the playing one after it has played
    /// what is queued, a lost or a never-taken one at once. The output plays silent afterwards.
    public func closeDevices() {
        guard thread == nil else { return }
        if let box = current {
            current = nil
            playing.store(false, ordering: .releasing)
            Unmanaged<DeviceBox>.fromOpaque(box).takeRetainedValue().device.close(draining: true)
        }
        if let box = incoming.exchange(nil, ordering: .acquiring) {
            Unmanaged<DeviceBox>.fromOpaque(box).takeRetainedValue().device.close(draining: false)
        }
        takeLostDevice()?.close(draining: false)
    }

    // MARK: Devices (control thread)

    /// Hands `device` to the audio thread, which takes it up at its next period boundary and plays
    /// on from the frame the mixer has reached (the audio clock goes on from there, never back).
    /// Only while no device plays, the lost one has been taken back and no other offer waits; and
    /// only a device at the output's rate and period. Call from one control thread.
    public func offer(_ device: any PCMDevice) throws(DeviceRefusal) {
        guard device.sampleRate == sampleRate, device.periodFrames == periodFrames else {
            throw .mismatched(sampleRate: device.sampleRate, periodFrames: device.periodFrames,
                              wantedSampleRate: sampleRate, wantedPeriodFrames: periodFrames)
        }
        // `outgoing` is filled before `playing` is cleared, so a loss seen here has been handed back.
        guard !playing.load(ordering: .acquiring), outgoing.load(ordering: .acquiring) == nil,
              incoming.load(ordering: .acquiring) == nil else { throw .busy }
        incoming.store(Unmanaged.passRetained(DeviceBox(device)).toOpaque(), ordering: .releasing)
    }

    /// The device the audio thread gave up after a loss, if any: the caller closes it (never the
    /// audio thread, for closing may block and frees memory).
    public func takeLostDevice() -> (any PCMDevice)? {
        guard let box = outgoing.exchange(nil, ordering: .acquiring) else { return nil }
        return Unmanaged<DeviceBox>.fromOpaque(box).takeRetainedValue().device
    }

    /// Whether a device plays (not none from the start, not lost, not only offered).
    public var isPlaying: Bool { playing.load(ordering: .acquiring) }

    /// Whether an offered device is still waiting for the audio thread.
    public var hasOfferedDevice: Bool { incoming.load(ordering: .acquiring) != nil }

    // MARK: Clock and counters

    /// The frame being heard now: frames written minus the device's delay (or, on the monotonic
    /// clock, the frames whose time has passed). Updated once a period; never goes back, across
    /// losses and reopenings too.
    public var audioClock: Int64 { heard.load(ordering: .acquiring) }

    /// The output latency in milliseconds: how long after its frame a cue is heard, at most.
    public var latencyMilliseconds: Double {
        Double(bufferFrames) / Double(sampleRate) * 1000
    }

    public var statistics: LiveAudioStatistics {
        let losses = losses.load(ordering: .acquiring)
        return LiveAudioStatistics(
            framesWritten: written.load(ordering: .acquiring),
            underruns: underruns.load(ordering: .relaxed),
            suspends: suspends.load(ordering: .relaxed),
            interruptions: interruptions.load(ordering: .relaxed),
            deviceLost: losses > 0 && !playing.load(ordering: .acquiring),
            lossError: lossError.load(ordering: .relaxed),
            losses: losses,
            reopenings: reopenings.load(ordering: .relaxed),
            realTimePriority: realTime.load(ordering: .relaxed))
    }

    // MARK: Audio thread

    private func run() {
        var frames: Int64 = 0
        var heardFrame: Int64 = 0
        while running.load(ordering: .acquiring) && frames < stopAfter {
            if current == nil, let offered = incoming.exchange(nil, ordering: .acquiring) {
                // A period boundary: the offered device plays from here on.
                current = offered
                pacingOrigin = nil
                reopenings.add(1, ordering: .relaxed)
                playing.store(true, ordering: .releasing)
            }
            let count = Int(min(Int64(periodFrames), stopAfter - frames))
            mixer.render(into: floats, frames: count)
            if let box = current {
                for index in 0..<(2 * count) { pcm[index] = pcm16(floats[index]) }
                // The box stays retained by `current` (or by `outgoing`, for the control thread to
                // release): no retain or release that could free memory happens here.
                let delay: Int? = Unmanaged<DeviceBox>.fromOpaque(box)._withUnsafeGuaranteedRef { box in
                    writePeriod(box.device, count) ? box.device.delay() : nil
                }
                if let delay {
                    if delay >= 0 { heardFrame = max(heardFrame, frames + Int64(count) - Int64(delay)) }
                } else {
                    // Lost: hand the device back, then say so (offer() relies on this order).
                    current = nil
                    outgoing.store(box, ordering: .releasing)
                    losses.add(1, ordering: .releasing)
                    playing.store(false, ordering: .releasing)
                }
            }
            if current == nil {
                let origin = pacingOrigin ?? (clock.now(), frames)
                pacingOrigin = origin
                let end = frames + Int64(count)
                clock.sleep(origin.nanoseconds + (end - origin.frame) * 1_000_000_000 / Int64(sampleRate))
                heardFrame = max(heardFrame, end)
            }
            frames += Int64(count)
            written.store(frames, ordering: .releasing)
            heard.store(heardFrame, ordering: .releasing)
        }
        running.store(false, ordering: .releasing)
    }

    /// Writes one period, recovering from underruns, suspends and interruptions without losing
    /// a frame (the rest of the period is written again), so the stream keeps every cue's frame.
    /// Returns false when the device is gone (its errno kept in `lossError`).
    private func writePeriod(_ device: any PCMDevice, _ count: Int) -> Bool {
        var offset = 0
        var failures = 0
        while offset < count {
            let result = device.write(pcm + 2 * offset, frames: count - offset)
            if result > 0 {
                offset += result
                continue
            }
            if result == 0 {
                // A device that accepts nothing, again and again, is as good as gone.
                failures += 1
                if failures > 100 {
                    lossError.store(EIO, ordering: .relaxed)
                    return false
                }
                continue
            }
            let error = Int32(-result)
            switch error {
            case EPIPE: underruns.add(1, ordering: .relaxed)
            case ESTRPIPE: suspends.add(1, ordering: .relaxed)
            case EINTR: interruptions.add(1, ordering: .relaxed)
            default: break
            }
            failures += 1
            if device.recover(fromError: Int32(result)) < 0 || failures > 100 {
                lossError.store(error, ordering: .relaxed)
                return false
            }
        }
        return true
    }
}

/// A device in a class of its own, so that it can cross between threads as one atomic pointer.
private final class DeviceBox {
    let device: any PCMDevice
    init(_ device: any PCMDevice) { self.device = device }
}

func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
