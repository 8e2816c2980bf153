import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Listens for show commands over OSC (UDP) on its own thread. The frame loop calls `poll()` once a frame, which takes
/// the commands that arrived since, in order (with one reload and the last seek, volume and language of those,
/// `ShowCommand.coalesce(into:)`), and never waits for the network; `takeWarnings()` gives each kind of bad
/// message once (the same bad message a thousand times is one warning).
///
/// The receiving thread decodes each packet with liblo, turns it into `ShowCommand`s and appends them to a bounded queue
/// under a mutex held for the append; nothing it does waits on the frame loop, and the frame loop waits on it only for
/// that append.
public final class OSCControl: Sendable {
    /// The packets a show controller sends are tens of bytes; a larger one is refused whole, not decoded.
    public static let maximumPacketSize = 4096
    public static let defaultBindAddress = "127.0.0.1"

    /// The numeric address the socket is bound to, e.g. 127.0.0.1.
    public let bindAddress: String
    /// The bound UDP port: the one asked for, or the one the system chose for port 0.
    public let port: Int

    /// `osc.udp://HOST:PORT/`, the form liblo's tools print.
    public var url: String { "osc.udp://\(UDPEndpoint(host: bindAddress, port: port))/" }

    private let inbox: Inbox
    private let socket: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    /// Binds UDP `bindAddress`:`port` (0 = a free port; see `port`) and starts the receiving thread.
    /// Throws a `ShowControlError` with a hint when the port is taken or the address is not this machine's.
    public init(port: Int, bindAddress: String = OSCControl.defaultBindAddress, queueCapacity: Int = 256) throws(ShowControlError) {
        let bound = try UDPSocket.bound(host: bindAddress, port: port)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(bound.socket)
            throw ShowControlError("cannot start the OSC thread: \(String(cString: strerror(errno)))", hint: "too many open files? close some programs")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let wakeRead = pipeEnds[0]
        self.socket = bound.socket
        self.bindAddress = bound.host
        self.port = bound.port
        self.wakeWrite = pipeEnds[1]
        self.inbox = Inbox(capacity: queueCapacity)
        let receiver = Receiver(socket: bound.socket, wakeRead: wakeRead, inbox: inbox)
        let finished = self.finished
        let thread = Thread {
            receiver.run()
            close(wakeRead)
            finished.signal()
        }
        thread.name = "diorama-osc"
        thread.start()
    }

    deinit { stop() }

    /// The commands received since the last call, oldest first. Never blocks for I/O.
    public func poll() -> [ShowCommand] {
        inbox.takeCommands()
    }

    /// Each kind of bad message once, as `warning: ...` with a `hint:` line saying what is accepted.
    public func takeWarnings() -> [String] {
        inbox.takeWarnings()
    }

    /// Stops the thread and closes the socket; also done when the last reference goes.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        finished.wait()
        close(wakeWrite)
        close(socket)
    }

    /// Waits until `count` packets in all have been handled (queued, ignored or warned about); false at the deadline.
    /// For tests: the frame loop never waits.
    func waitUntilHandled(packets count: Int, timeout: Duration = .seconds(10)) -> Bool {
        inbox.waitUntilHandled(packets: count, timeout: timeout)
    }
}

/// The receiving thread's loop: poll the socket and the wake pipe, read one datagram at a time.
private struct Receiver: Sendable {
    let socket: Int32
    let wakeRead: Int32
    let inbox: Inbox

    func run() {
        // Large enough for any UDP datagram, so that recv reports a huge one's true size (MSG_TRUNC) and is not split.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 8)
        defer { buffer.deallocate() }
        var source = sockaddr_storage()
        while true {
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = Glibc.poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                inbox.warn(kind: "poll", "the OSC thread stopped: poll failed: \(String(cString: strerror(errno)))",
                           hint: "show control is off until the player restarts")
                return
            }
            if descriptors[1].revents != 0 { return }
            guard descriptors[0].revents != 0 else { continue }
            var sourceLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let size = withUnsafeMutablePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(socket, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC) | Int32(MSG_DONTWAIT), $0, &sourceLength)
                }
            }
            if size < 0 {
                // EAGAIN: spurious wake-up; others (e.g. ECONNREFUSED after an ICMP error) concern no packet here.
                continue
            }
            let sender = UDPSocket.numeric(source)
            handle(UnsafeRawBufferPointer(rebasing: buffer[0..<min(size, buffer.count)]), size: size, from: "\(UDPEndpoint(host: sender.host, port: sender.port))")
            inbox.countPacket()
        }
    }

    private func handle(_ bytes: UnsafeRawBufferPointer, size: Int, from sender: String) {
        guard size <= OSCControl.maximumPacketSize else {
            inbox.warn(kind: "too large", "ignored a \(size)-byte packet from \(sender): show control takes packets up to \(OSCControl.maximumPacketSize) bytes",
                       hint: "a show command is one short OSC message, e.g. /diorama/scene s ocean")
            return
        }
        let messages: [OSCMessage]
        do {
            messages = try OSCPacket.decode(bytes)
        } catch {
            inbox.warn(kind: "malformed \(error.reason)", "ignored a \(size)-byte packet from \(sender) that is not OSC: \(error.reason)",
                       hint: "send OSC 1.0 messages over UDP, e.g. oscsend localhost PORT /diorama/next")
            return
        }
        for message in messages {
            do {
                if let command = try ShowCommand.parse(message) {
                    inbox.push(command)
                }
            } catch {
                inbox.warn(kind: error.kind, "ignored OSC from \(sender): \(error.message)", hint: error.hint)
            }
        }
    }
}

/// What the receiving thread hands the frame loop, under one mutex held for an append or a swap.
private final class Inbox: Sendable {
    struct State {
        var commands: [ShowCommand] = []
        var warnings: [String] = []
        var warnedKinds: Set<String> = []
        var packets = 0
    }

    /// Beyond this many kinds, a stream of ever-new bad addresses is one more warning, then silence.
    static let warnedKindLimit = 64

    let capacity: Int
    private let state = Mutex(State())
    private let packetHandled = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func push(_ command: ShowCommand) {
        let dropped = state.withLock { state in
            if command.coalesce(into: &state.commands) { return false }
            guard state.commands.count < capacity else { return true }
            state.commands.append(command)
            return false
        }
        if dropped {
            warn(kind: "queue full", "dropped OSC commands: more than \(capacity) arrived between two frames",
                 hint: "a controller should send a command per press, not a stream; the player keeps the first \(capacity)")
        }
    }

    func warn(kind: String, _ message: String, hint: String) {
        state.withLock { state in
            guard !state.warnedKinds.contains(kind) else { return }
            if state.warnedKinds.count == Inbox.warnedKindLimit {
                state.warnedKinds.insert(kind)
                state.warnings.append("warning: osc: many kinds of bad OSC messages; no more are reported\n  hint: check what sends to this port")
                return
            }
            guard state.warnedKinds.count < Inbox.warnedKindLimit else { return }
            state.warnedKinds.insert(kind)
            state.warnings.append("warning: osc: \(message)\n  hint: \(hint)")
        }
    }

    func takeCommands() -> [ShowCommand] {
        state.withLock { state in
            guard !state.commands.isEmpty else { return [] }
            defer { state.commands = [] }
            return state.commands
        }
    }

    func takeWarnings() -> [String] {
        state.withLock { state in
            defer { state.warnings = [] }
            return state.warnings
        }
    }

    func countPacket() {
        state.withLock { $0.packets += 1 }
        packetHandled.signal()
    }

    func waitUntilHandled(packets count: Int, timeout: Duration) -> Bool {
        let deadline = DispatchTime.now() + .nanoseconds(Int(timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000))
        while state.withLock({ $0.packets }) < count {
            if packetHandled.wait(timeout: deadline) == .timedOut { return state.withLock({ $0.packets }) >= count }
        }
        return true
    }
}
