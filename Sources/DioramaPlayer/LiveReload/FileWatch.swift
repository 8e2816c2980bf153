import Foundation

/// Notices saves to a set of files by polling their status (device, inode, size, modification time),
/// which also sees editors that save by writing a new file and renaming it over the old one.
///
/// A change is reported once it has stayed the same for one more poll, so a file caught half written
/// is not reloaded: with the default 50 ms interval, a save is reported 50 to 100 ms after it lands.
public struct FileWatch: Sendable {
    /// What a file looked like at one poll; nil fields mean the file is missing.
    public struct Signature: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64

        /// The file's status now, or nil when it cannot be read.
        public static func of(_ path: String) -> Signature? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return Signature(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                             modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                             changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
        }
    }

    /// Seconds between polls.
    public var interval: Double
    public private(set) var paths: [String]
    private var baseline: [Signature?]
    private var pending: [Signature?]?
    private var lastPoll: Double?

    public init(paths: [String], interval: Double = 0.05) {
        self.interval = interval
        self.paths = paths
        self.baseline = paths.map(Signature.of)
    }

    /// Watches `paths` from now on, taking their current state as the baseline.
    public mutating func watch(_ paths: [String]) {
        let unique = paths.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        guard unique != self.paths else { return }
        self.paths = unique
        baseline = unique.map(Signature.of)
        pending = nil
    }

    /// Polls when `interval` has passed since the last poll (monotonic seconds); true when a change
    /// has settled and the files should be reloaded.
    public mutating func poll(at time: Double) -> Bool {
        if let lastPoll, time - lastPoll < interval { return false }
        lastPoll = time
        return pollNow()
    }

    /// Polls regardless of the interval.
    public mutating func pollNow() -> Bool {
        let current = paths.map(Signature.of)
        if current == baseline {
            pending = nil
            return false
        }
        if let pending, pending == current {
            baseline = current
            self.pending = nil
            return true
        }
        pending = current
        return false
    }
}
