import COsc  // owns the socket constants in whole-module builds: liblo's header brings sys/socket.h into it
#if canImport(Glibc)
import Glibc
#endif

/// A show-control setting that cannot work: what is wrong, and what to do instead.
public struct ShowControlError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String

    public init(_ message: String, hint: String) {
        self.message = message
        self.hint = hint
    }

    public var description: String { "error: " + message + "\n  hint: " + hint }
}

/// A host and UDP port written as `HOST:PORT`.
public struct UDPEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Reads `HOST:PORT`, `[IPv6]:PORT`, or a bare `PORT` (this machine). `option` names the flag in the errors, which
    /// point at the character where the problem starts.
    public init(parsing text: String, option: String = "--osc-feedback") throws(ShowControlError) {
        let hint = "give HOST:PORT, e.g. localhost:9001, 192.168.1.20:9001 or [::1]:9001"
        func failure(_ problem: String, at offset: Int) -> ShowControlError {
            ShowControlError("\(option) \(text): \(problem) (at character \(offset + 1))", hint: hint)
        }
        let characters = Array(text)
        var host: String
        var portStart: Int
        if characters.first == "[" {
            guard let close = characters.firstIndex(of: "]") else { throw failure("the IPv6 address has no closing ]", at: 0) }
            host = String(characters[1..<close])
            guard close + 1 < characters.count, characters[close + 1] == ":" else {
                throw failure("a port must follow the IPv6 address, as [::1]:9001", at: close + 1)
            }
            portStart = close + 2
        } else if let colon = characters.lastIndex(of: ":") {
            guard characters.firstIndex(of: ":") == colon else {
                throw failure("an IPv6 address goes in brackets, as [::1]:9001", at: characters.firstIndex(of: ":")!)
            }
            host = String(characters[..<colon])
            portStart = colon + 1
        } else if !characters.isEmpty, characters.allSatisfy(\.isASCII), characters.allSatisfy(\.isNumber) {
            host = "127.0.0.1"
            portStart = 0
        } else {
            throw failure("no port: there is no ':' before one", at: characters.count)
        }
        if host.isEmpty { throw failure("the host is empty", at: 0) }
        if let bad = host.firstIndex(where: { $0.isWhitespace || !$0.isASCII }) {
            throw failure("a host name has no spaces or non-ASCII characters", at: (characters.first == "[" ? 1 : 0) + host.distance(from: host.startIndex, to: bad))
        }
        let portText = String(characters[portStart...])
        guard let port = Int(portText), portText.allSatisfy(\.isASCII), (1...65535).contains(port) else {
            throw failure(portText.isEmpty ? "the port is missing" : "the port \(portText) is not a number from 1 to 65535", at: portStart)
        }
        self.host = host
        self.port = port
    }
}

/// Plain BSD sockets: liblo 0.31's servers always bind every interface (they pass no host to getaddrinfo), and a show
/// player must default to this machine only, so the player binds its own socket and uses liblo to read and write OSC.
enum UDPSocket {
    /// Every address `host` names for UDP (numeric addresses only when `passive`, for binding), IPv4 first: liblo's tools (oscsend, oscdump) are built without IPv6, so
    /// `localhost` should mean 127.0.0.1 before ::1.
    static func resolve(host: String, port: Int, passive: Bool) -> Result<[sockaddr_storage], ShowControlError.Resolution> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE | AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(.init(code: status, text: String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(first) }
        var addresses: [sockaddr_storage] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = entry.pointee.ai_addr, entry.pointee.ai_family == AF_INET || entry.pointee.ai_family == AF_INET6 {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen)))
                }
                addresses.append(storage)
            }
            cursor = entry.pointee.ai_next
        }
        return .success(addresses.sorted { $0.ss_family == sa_family_t(AF_INET) && $1.ss_family != sa_family_t(AF_INET) })
    }

    static func length(of address: sockaddr_storage) -> socklen_t {
        socklen_t(address.ss_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    /// The numeric host and port of a socket address, e.g. ("127.0.0.1", 9000).
    static func numeric(_ address: sockaddr_storage) -> (host: String, port: Int) {
        var copy = address
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let status = withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length(of: address), &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard status == 0 else { return ("?", 0) }
        func text(_ characters: [CChar]) -> String {
            String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return (text(host), Int(text(service)) ?? 0)
    }

    /// A UDP socket bound to `host`:`port` (0 = any free port). Throws what went wrong in the words of the flags.
    static func bound(host: String, port: Int) throws(ShowControlError) -> (socket: Int32, host: String, port: Int) {
        guard (0...65535).contains(port) else {
            throw ShowControlError("--osc \(port): a UDP port is from 1 to 65535", hint: "e.g. --osc 9000 (0 picks a free port)")
        }
        let addresses: [sockaddr_storage]
        // Numeric only, so that a mistyped address fails at once instead of waiting on DNS.
        switch resolve(host: host == "localhost" ? "127.0.0.1" : host, port: port, passive: true) {
        case .success(let found) where !found.isEmpty: addresses = found
        case .success: throw notAnAddress(host, because: "it names no IPv4 or IPv6 address")
        case .failure(let resolution): throw notAnAddress(host, because: resolution.text)
        }
        var lastError: Int32 = 0
        for address in addresses {
            let descriptor = socket(Int32(address.ss_family), Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { lastError = errno; continue }
            if address.ss_family == sa_family_t(AF_INET6) {
                // "::" then also takes IPv4, as "every interface" should.
                var off: Int32 = 0
                setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
            }
            var copy = address
            let status = withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length(of: address)) }
            }
            if status == 0 {
                var local = sockaddr_storage()
                var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
                _ = withUnsafeMutablePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &localLength) }
                }
                let bound = numeric(local)
                return (descriptor, bound.host, bound.port)
            }
            lastError = errno
            close(descriptor)
        }
        let numericHost = numeric(addresses[0]).host
        switch lastError {
        case EADDRINUSE:
            throw ShowControlError("UDP port \(port) on \(numericHost) is already in use by another program",
                                   hint: "choose another --osc PORT, or see which program has it with: ss -ulpn 'sport = :\(port)'")
        case EADDRNOTAVAIL:
            throw notAnAddress(host, because: "no interface of this machine has it")
        case EACCES:
            throw ShowControlError("binding UDP port \(port) needs privileges this user does not have",
                                   hint: "choose a port from 1024 up, e.g. --osc 9000")
        default:
            throw ShowControlError("cannot listen on UDP \(numericHost) port \(port): \(String(cString: strerror(lastError)))",
                                   hint: "choose another --osc PORT or --osc-bind ADDRESS")
        }
    }

    private static func notAnAddress(_ host: String, because reason: String) -> ShowControlError {
        ShowControlError("--osc-bind \(host) is not an address of this machine: \(reason)",
                         hint: "give one of this machine's addresses (`ip -brief address` lists them): 127.0.0.1 is this machine only (the default), 0.0.0.0 every IPv4 interface, :: every interface")
    }
}

extension ShowControlError {
    /// getaddrinfo's failure, kept for the message.
    struct Resolution: Error {
        var code: Int32
        var text: String
    }
}
