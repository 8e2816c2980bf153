import COsc
import Foundation
@testable import DioramaShowControl
#if canImport(Glibc)
import Glibc
#endif

/// Sends one message with liblo's own client API, as oscsend does.
func sendWithLiblo(_ message: OSCMessage, host: String = "127.0.0.1", port: Int) -> Bool {
    guard let target = lo_address_new(host, String(port)) else { return false }
    defer { lo_address_free(target) }
    guard let built = OSCFeedback.libloMessage(message.arguments) else { return false }
    defer { lo_message_free(built) }
    return lo_send_message(target, message.address, built) >= 0
}

/// Sends raw bytes from a plain UDP socket: what liblo would refuse to make (garbage, huge packets).
func sendRaw(_ bytes: [UInt8], host: String = "127.0.0.1", port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, host, &address.sin_addr)
    let sent = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            sendto(descriptor, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    return sent == bytes.count
}

/// OSC bytes for a message, made by liblo.
func serialised(_ message: OSCMessage) -> [UInt8] {
    guard let made = OSCFeedback.serialise(message) else { return [] }
    defer { free(made.bytes) }
    return Array(UnsafeRawBufferPointer(start: made.bytes, count: made.count))
}

/// A bundle of OSC elements, laid out by hand (liblo 0.31 has no bundle decoder to compare with).
func bundle(_ elements: [[UInt8]]) -> [UInt8] {
    var bytes = Array("#bundle\0".utf8) + [0, 0, 0, 0, 0, 0, 0, 1]
    for element in elements {
        let size = UInt32(element.count)
        bytes += [UInt8(size >> 24), UInt8(size >> 16 & 0xff), UInt8(size >> 8 & 0xff), UInt8(size & 0xff)] + element
    }
    return bytes
}

/// A small deterministic generator, so the garbage is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A liblo server on a port of its own that records every message it receives, as a controller would.
final class LibloReceiver {
    struct Received: Equatable {
        var address: String
        var arguments: [OSCArgument]
    }

    final class Box {
        var received: [Received] = []
    }

    let server: lo_server
    let box = Box()

    init?() {
        // NULL port: liblo picks a free one.
        guard let server = lo_server_new(nil, nil) else { return nil }
        self.server = server
        lo_server_add_method(server, nil, nil, { path, types, argv, argc, _, context in
            guard let path, let types, let context else { return 1 }
            let box = Unmanaged<LibloReceiver.Box>.fromOpaque(context).takeUnretainedValue()
            var arguments: [OSCArgument] = []
            for index in 0..<Int(argc) {
                let value = argv?[index]
                switch UInt8(bitPattern: types[index]) {
                case UInt8(ascii: "i"): arguments.append(.int32(value!.pointee.i))
                case UInt8(ascii: "h"): arguments.append(.int64(value!.pointee.h))
                case UInt8(ascii: "f"): arguments.append(.float(value!.pointee.f))
                case UInt8(ascii: "d"): arguments.append(.double(value!.pointee.d))
                case UInt8(ascii: "s"): arguments.append(.string(String(cString: UnsafeRawPointer(value!).assumingMemoryBound(to: CChar.self))))
                case let tag: arguments.append(.other(tag: Character(Unicode.Scalar(tag))))
                }
            }
            box.received.append(Received(address: String(cString: path), arguments: arguments))
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
    }

    deinit { lo_server_free(server) }

    var port: Int { Int(lo_server_get_port(server)) }

    /// Receives until `count` messages in all have arrived or 10 s have passed.
    func receive(until count: Int) -> [Received] {
        let deadline = ContinuousClock.now + .seconds(10)
        while box.received.count < count, ContinuousClock.now < deadline {
            _ = lo_server_recv_noblock(server, 100)
        }
        return box.received
    }

    /// Whatever is already waiting on the socket, without waiting.
    func drain() -> [Received] {
        while lo_server_recv_noblock(server, 0) > 0 {}
        return box.received
    }
}
