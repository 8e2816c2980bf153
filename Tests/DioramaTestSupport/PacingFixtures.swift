import Dispatch
import Synchronization

/// A monotonic clock for the live audio output's pacing whose time moves only when the audio thread
/// sleeps on it: pacing costs no wall-clock time, and every deadline asked for is recorded. A test
/// can also hold the audio thread inside one chosen sleep (a period boundary with no device) and act
/// from its own thread meanwhile: `awaitHold()`, then `release()`.
///
/// Build the audio module's `PacingClock(now: pacing.now, sleep: pacing.sleep)` from it.
public final class VirtualPacing: Sendable {
    private let state: Mutex<(now: Int64, deadlines: [Int64])>
    private let holdAt: Int?
    private let reached = DispatchSemaphore(value: 0)
    private let proceed = DispatchSemaphore(value: 0)
    private let onSleep: @Sendable () -> Void

    /// - Parameters:
    ///   - start: monotonic nanoseconds at first.
    ///   - holdAt: the sleep (1-based) during which the audio thread waits for `release()`.
    ///   - onSleep: called on the audio thread after each sleep (a probe of the output's clock).
    public init(start: Int64 = 1_000, holdAt: Int? = nil, onSleep: @escaping @Sendable () -> Void = {}) {
        state = Mutex((start, []))
        self.holdAt = holdAt
        self.onSleep = onSleep
        state.withLock { $0.deadlines.reserveCapacity(1 << 16) }
    }

    /// Monotonic nanoseconds.
    public var now: @Sendable () -> Int64 { { [self] in state.withLock { $0.now } } }

    /// Moves the time to `deadline` (never back) and records it.
    public var sleep: @Sendable (Int64) -> Void {
        { [self] deadline in
            let count = state.withLock { state in
                state.now = max(state.now, deadline)
                state.deadlines.append(deadline)
                return state.deadlines.count
            }
            onSleep()
            if count == holdAt {
                reached.signal()
                proceed.wait()
            }
        }
    }

    /// The deadlines slept until, in order (monotonic nanoseconds).
    public var deadlines: [Int64] { state.withLock { $0.deadlines } }

    /// Returns once the audio thread is held in sleep number `holdAt`.
    public func awaitHold() { reached.wait() }

    /// Lets the held audio thread go on.
    public func release() { proceed.signal() }
}
