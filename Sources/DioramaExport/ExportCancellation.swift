import Synchronization

/// A stop request for a running export (from a SIGINT handler, say): safe to trigger from any thread.
/// The export registers what stopping means (killing ffmpeg, which unblocks every pipe write).
public final class ExportCancellation: Sendable {
    private let state = Mutex<(cancelled: Bool, actions: [@Sendable () -> Void])>((false, []))

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    public func cancel() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            return state.actions
        }
        actions.forEach { $0() }
    }

    /// Runs `action` on cancellation (at once if already cancelled). Returns a token for `remove`.
    func whenCancelled(_ action: @escaping @Sendable () -> Void) -> Int {
        let (index, runNow) = state.withLock { state in
            state.actions.append(action)
            return (state.actions.count - 1, state.cancelled)
        }
        if runNow { action() }
        return index
    }

    /// Forgets the action registered under `token` (the process it would kill has been waited for).
    func remove(_ token: Int) {
        state.withLock { $0.actions[token] = {} }
    }
}
