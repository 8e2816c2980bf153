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
    /// The device failed beyond recovery (disappeared); playback went on, silent, on the monotonic clock.
    public var deviceLost: Bool
    /// The errno that lost the device (0 if none).
    public var lossError: Int32
    /// Whether the audio thread got real-time (SCHED_FIFO) priority.
    public var realTimePriority: Bool
}

/// The live output: a dedicated thread renders the mixer period by period and writes to a PCM
/// device; with no device it paces the mixer on the monotonic clock instead, so the rest of
/// playback keeps its timing.
///
/// The audio thread never allocates, locks, prints or touches files: buffers are made here,
/// counters are atomics, and messages for the user are left to the caller (`statistics`).
public final class LiveAudioOutput: @unchecked Sendable {
    // @unchecked Sendable: `device`, the buffers and `stopAfter` are touched by the audio thread
    // only between `start()` and the end of `wait()`/`stop()` (the thread is joined there), and
    // by the owner only outside that window; everything shared meanwhile is an `Atomic`.
    public let mixer: Mixer
    public let periodFrames: Int
    public let sampleRate: Int
    private let device: PCMDevice?
    private let floats: UnsafeMutablePointer<Float>
    private let pcm: UnsafeMutablePointer<Int16>
    private var thread: pthread_t?
    private var stopAfter: Int64 = .max

    private let running = Atomic<Bool>(false)
    private let written = Atomic<Int64>(0)
    private let queued = Atomic<Int64>(0)
    private let underruns = Atomic<Int>(0)
    private let suspends = Atomic<Int>(0)
    private let interruptions = Atomic<Int>(0)
    private let lost = Atomic<Int32>(0)
    private let realTime = Atomic<Bool>(false)
    /// Monotonic nanoseconds at the start of clock pacing, and the frame it started from.
    private let clockOrigin = Atomic<Int64>(0)
    private let clockOriginFrame = Atomic<Int64>(0)

    /// - Parameters: `device`: nil to run on the monotonic clock (no device could be opened);
    ///   `periodFrames` is used only then (a device brings its own).
    public init(mixer: Mixer, device: PCMDevice?, periodFrames: Int = 256) {
        self.mixer = mixer
        self.device = device
        self.periodFrames = device?.periodFrames ?? periodFrames
        self.sampleRate = device?.sampleRate ?? mixer.configuration.sampleRate
        floats = .allocate(capacity: 2 * self.periodFrames)
        pcm = .allocate(capacity: 2 * self.periodFrames)
    }

    deinit {
        stop()
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

    /// The frame being heard now: frames written minus the device's delay (or, on the monotonic
    /// clock, the frames that the elapsed time accounts for).
    public var audioClock: Int64 {
        if device == nil || lost.load(ordering: .acquiring) != 0 {
            let origin = clockOrigin.load(ordering: .acquiring)
            guard origin != 0 else { return written.load(ordering: .acquiring) }
            let elapsed = monotonicNanoseconds() - origin
            let frames = clockOriginFrame.load(ordering: .acquiring) + elapsed * Int64(sampleRate) / 1_000_000_000
            return min(frames, written.load(ordering: .acquiring))
        }
        return max(written.load(ordering: .acquiring) - queued.load(ordering: .acquiring), 0)
    }

    /// The output latency in milliseconds: how long after its frame a cue is heard, at most.
    public var latencyMilliseconds: Double {
        Double(device?.bufferFrames ?? periodFrames) / Double(sampleRate) * 1000
    }

    public var statistics: LiveAudioStatistics {
        LiveAudioStatistics(
            framesWritten: written.load(ordering: .acquiring),
            underruns: underruns.load(ordering: .relaxed),
            suspends: suspends.load(ordering: .relaxed),
            interruptions: interruptions.load(ordering: .relaxed),
            deviceLost: lost.load(ordering: .relaxed) != 0,
            lossError: lost.load(ordering: .relaxed),
            realTimePriority: realTime.load(ordering: .relaxed))
    }

    // MARK: Audio thread

    private func run() {
        var frames: Int64 = 0
        while running.load(ordering: .acquiring) && frames < stopAfter {
            let count = Int(min(Int64(periodFrames), stopAfter - frames))
            mixer.render(into: floats, frames: count)
            if let device, lost.load(ordering: .relaxed) == 0 {
                for index in 0..<(2 * count) { pcm[index] = pcm16(floats[index]) }
                if !writePeriod(device, count) {
                    startClock(at: frames)
                }
                let delay = device.delay()
                if delay >= 0 { queued.store(Int64(delay), ordering: .releasing) }
            } else {
                if clockOrigin.load(ordering: .relaxed) == 0 { startClock(at: frames) }
                sleepUntil(frame: frames + Int64(count))
            }
            frames += Int64(count)
            written.store(frames, ordering: .releasing)
        }
        running.store(false, ordering: .releasing)
    }

    /// Writes one period, recovering from underruns, suspends and interruptions without losing
    /// a frame (the rest of the period is written again), so the stream keeps every cue's frame.
    /// Returns false when the device is gone.
    private func writePeriod(_ device: PCMDevice, _ count: Int) -> Bool {
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
                    lost.store(EIO, ordering: .releasing)
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
                lost.store(error, ordering: .releasing)
                return false
            }
        }
        return true
    }

    private func startClock(at frame: Int64) {
        clockOriginFrame.store(frame, ordering: .releasing)
        clockOrigin.store(monotonicNanoseconds(), ordering: .releasing)
    }

    /// Sleeps (on the monotonic clock, absolute time, so no drift accumulates) until `frame` is due.
    private func sleepUntil(frame: Int64) {
        let origin = clockOrigin.load(ordering: .relaxed)
        let due = origin + (frame - clockOriginFrame.load(ordering: .relaxed)) * 1_000_000_000 / Int64(sampleRate)
        var time = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}

func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
