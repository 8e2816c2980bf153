import COsc
#if canImport(Glibc)
import Glibc
#endif

/// Where the show is, as a controller shows it.
public struct ShowStatus: Sendable, Equatable {
    /// The scene's place in the playlist, from 1.
    public var sceneNumber: Int
    public var sceneID: String
    /// Seconds since the scene's start.
    public var sceneTime: Double
    /// The scene's length in seconds.
    public var sceneDuration: Double
    public var paused: Bool
    /// The master volume, within `Mixer.volumeRange` (0...1.5).
    public var volume: Float
    public var language: String

    public init(sceneNumber: Int, sceneID: String, sceneTime: Double, sceneDuration: Double, paused: Bool, volume: Float, language: String) {
        self.sceneNumber = sceneNumber
        self.sceneID = sceneID
        self.sceneTime = sceneTime
        self.sceneDuration = sceneDuration
        self.paused = paused
        self.volume = volume
        self.language = language
    }

    /// The messages one status is sent as, in order: `/diorama/status` with every field (for scripts), then one
    /// message per field (for controllers such as TouchOSC, whose controls each follow one address).
    public var messages: [OSCMessage] {
        let progress = sceneDuration > 0 ? min(max(sceneTime / sceneDuration, 0), 1) : 0
        return [
            OSCMessage("/diorama/status", [.int32(Int32(clamping: sceneNumber)), .string(sceneID), .float(Float(sceneTime)),
                                           .float(Float(sceneDuration)), .int32(paused ? 1 : 0), .float(volume), .string(language)]),
            OSCMessage("/diorama/status/scene", [.int32(Int32(clamping: sceneNumber))]),
            OSCMessage("/diorama/status/id", [.string(sceneID)]),
            OSCMessage("/diorama/status/time", [.float(Float(sceneTime))]),
            OSCMessage("/diorama/status/duration", [.float(Float(sceneDuration))]),
            OSCMessage("/diorama/status/progress", [.float(Float(progress))]),
            OSCMessage("/diorama/status/paused", [.int32(paused ? 1 : 0)]),
            OSCMessage("/diorama/status/volume", [.float(volume)]),
            OSCMessage("/diorama/status/language", [.string(language)]),
        ]
    }
}

/// Decides when feedback goes out: at once on a change (scene, pause, volume, language, length, or a jump in time such as
/// a seek), and otherwise once per `interval` so the time display moves. Pure: the clock is passed in.
public struct FeedbackPacer: Sendable {
    public var interval: Double
    /// A scene time further than this from where the last status predicts is a jump (a seek, a restart).
    public var jumpTolerance: Double
    private var last: (status: ShowStatus, time: Double)?

    public init(interval: Double = 1, jumpTolerance: Double = 0.5) {
        self.interval = interval
        self.jumpTolerance = jumpTolerance
    }

    /// Whether `status` at `now` (seconds, any origin, not decreasing) should be sent; if so, it is remembered as sent.
    public mutating func shouldSend(_ status: ShowStatus, now: Double) -> Bool {
        if let last, !changed(from: last.status, at: last.time, to: status, at: now), now - last.time < interval {
            return false
        }
        last = (status, now)
        return true
    }

    private func changed(from old: ShowStatus, at then: Double, to new: ShowStatus, at now: Double) -> Bool {
        if now < then { return true }
        if old.sceneNumber != new.sceneNumber || old.sceneID != new.sceneID || old.paused != new.paused
            || old.volume != new.volume || old.language != new.language || old.sceneDuration != new.sceneDuration {
            return true
        }
        let predicted = old.sceneTime + (old.paused ? 0 : now - then)
        return abs(new.sceneTime - predicted) > jumpTolerance
    }
}

/// Sends the show's status to a controller at `HOST:PORT` over UDP: OSC messages made with liblo, sent without blocking
/// from a socket of its own (a full socket buffer drops a status rather than stall the frame loop).
public final class OSCFeedback {
    public let target: UDPEndpoint
    public var pacer = FeedbackPacer()

    private let socket: Int32
    private var address: sockaddr_storage
    private var warnings: [String] = []
    private var warnedErrors: Set<Int32> = []

    /// `target` is `HOST:PORT` (or `[IPv6]:PORT`, or `PORT` for this machine); the host is resolved once, here.
    public convenience init(_ target: String) throws(ShowControlError) {
        try self.init(target: UDPEndpoint(parsing: target))
    }

    public init(target: UDPEndpoint) throws(ShowControlError) {
        let addresses: [sockaddr_storage]
        switch UDPSocket.resolve(host: target.host, port: target.port, passive: false) {
        case .success(let found) where !found.isEmpty: addresses = found
        case .success: throw ShowControlError("--osc-feedback \(target): \(target.host) names no IPv4 or IPv6 address", hint: "give an IP address or a host name this machine resolves")
        case .failure(let resolution):
            throw ShowControlError("--osc-feedback \(target): cannot resolve \(target.host): \(resolution.text)",
                                   hint: "give an IP address, or a host name this machine resolves (see /etc/hosts)")
        }
        let descriptor = Glibc.socket(Int32(addresses[0].ss_family), Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw ShowControlError("--osc-feedback \(target): cannot open a UDP socket: \(String(cString: strerror(errno)))", hint: "too many open files? close some programs")
        }
        self.target = target
        self.socket = descriptor
        self.address = addresses[0]
    }

    deinit { close(socket) }

    /// Sends `status` if the pacer says so (a change, or a second since the last); true if it was sent.
    @discardableResult
    public func update(_ status: ShowStatus, now: Double) -> Bool {
        guard pacer.shouldSend(status, now: now) else { return false }
        send(status)
        return true
    }

    /// Sends `status` now, whatever the pacer.
    public func send(_ status: ShowStatus) {
        for message in status.messages { send(message) }
    }

    /// Each kind of sending failure once, as `warning: ...` with a hint.
    public func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    func send(_ message: OSCMessage) {
        guard let serialised = OSCFeedback.serialise(message) else { return }
        defer { free(serialised.bytes) }
        let length = UDPSocket.length(of: address)
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(socket, serialised.bytes, serialised.count, Int32(MSG_DONTWAIT), $0, length)
            }
        }
        if sent < 0 { warn(errno) }
    }

    private func warn(_ error: Int32) {
        guard warnedErrors.insert(error).inserted else { return }
        let hint = error == EAGAIN || error == EWOULDBLOCK
            ? "the network is slower than the status messages; some are dropped"
            : "check that \(target) is reachable from this machine"
        warnings.append("warning: osc: cannot send status to \(target): \(String(cString: strerror(error)))\n  hint: \(hint)")
    }

    /// The message's arguments as a liblo message (nil for an argument type liblo cannot write); lo_message_free() it.
    static func libloMessage(_ arguments: [OSCArgument]) -> lo_message? {
        guard let built = lo_message_new() else { return nil }
        for argument in arguments {
            switch argument {
            case .int32(let value): lo_message_add_int32(built, value)
            case .int64(let value): lo_message_add_int64(built, value)
            case .float(let value): lo_message_add_float(built, value)
            case .double(let value): lo_message_add_double(built, value)
            case .string(let value): lo_message_add_string(built, value)
            case .symbol(let value): lo_message_add_symbol(built, value)
            case .true: lo_message_add_true(built)
            case .false: lo_message_add_false(built)
            case .impulse: lo_message_add_infinitum(built)
            case .nil: lo_message_add_nil(built)
            case .other:
                lo_message_free(built)
                return nil
            }
        }
        return built
    }

    /// The message as OSC bytes, made by liblo; free() the bytes.
    static func serialise(_ message: OSCMessage) -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        guard let built = libloMessage(message.arguments) else { return nil }
        defer { lo_message_free(built) }
        var count = 0
        guard let bytes = lo_message_serialise(built, message.address, nil, &count) else { return nil }
        return (bytes, count)
    }
}
