import COsc

/// Why a UDP packet holds no readable OSC.
public struct OSCPacketError: Error, Equatable, Sendable {
    /// Short and fixed per reason, so that warnings can be said once per reason.
    public var reason: String
}

/// OSC packets decoded with liblo: a message, or a bundle of messages and bundles (their time tags are ignored: a show
/// command acts when it arrives).
enum OSCPacket {
    static let bundleDepthLimit = 8

    static func decode(_ bytes: UnsafeRawBufferPointer) throws(OSCPacketError) -> [OSCMessage] {
        var messages: [OSCMessage] = []
        try decode(bytes, depth: 0, into: &messages)
        return messages
    }

    private static let bundleHeader: [UInt8] = Array("#bundle\0".utf8)

    private static func decode(_ bytes: UnsafeRawBufferPointer, depth: Int, into messages: inout [OSCMessage]) throws(OSCPacketError) {
        guard bytes.count >= 4, let base = bytes.baseAddress else { throw OSCPacketError(reason: "shorter than an OSC address") }
        if bytes.starts(with: bundleHeader) {
            guard depth < bundleDepthLimit else { throw OSCPacketError(reason: "bundles nested deeper than \(bundleDepthLimit)") }
            guard bytes.count >= 16 else { throw OSCPacketError(reason: "a bundle without its time tag") }
            var offset = 16
            while offset < bytes.count {
                guard offset + 4 <= bytes.count else { throw OSCPacketError(reason: "a bundle element's size runs past the packet") }
                let size = Int(UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3]))
                offset += 4
                guard size > 0, size % 4 == 0, size <= bytes.count - offset else {
                    throw OSCPacketError(reason: "a bundle element's size does not fit the packet")
                }
                try decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)]), depth: depth + 1, into: &messages)
                offset += size
            }
            return
        }
        let mutableBase = UnsafeMutableRawPointer(mutating: base)
        // lo_get_path checks that the address is a terminated, padded string inside the packet.
        guard bytes[0] == UInt8(ascii: "/"), let path = lo_get_path(mutableBase, bytes.count) else {
            throw OSCPacketError(reason: "no OSC address at its start")
        }
        var result: Int32 = 0
        // lo_message_deserialise validates the type tags and every argument against the packet's size before copying.
        guard let message = lo_message_deserialise(mutableBase, bytes.count, &result) else {
            throw OSCPacketError(reason: describe(liblo: result))
        }
        defer { lo_message_free(message) }
        let address = String(cString: path)
        let count = Int(lo_message_get_argc(message))
        guard count > 0 else {
            messages.append(OSCMessage(address))
            return
        }
        guard let types = lo_message_get_types(message), let argv = lo_message_get_argv(message) else {
            throw OSCPacketError(reason: "no type tags")
        }
        var arguments: [OSCArgument] = []
        arguments.reserveCapacity(count)
        for index in 0..<count {
            let tag = UInt8(bitPattern: types[index])
            if let simple = argumentWithoutData(tag: tag) {
                arguments.append(simple)
                continue
            }
            guard let value = argv[index] else { throw OSCPacketError(reason: "a missing argument") }
            arguments.append(argument(tag: tag, value))
        }
        messages.append(OSCMessage(address, arguments))
    }

    /// The types that carry no bytes: liblo may give them no argument pointer.
    private static func argumentWithoutData(tag: UInt8) -> OSCArgument? {
        switch tag {
        case UInt8(ascii: "T"): .true
        case UInt8(ascii: "F"): .false
        case UInt8(ascii: "I"): .impulse
        case UInt8(ascii: "N"): .nil
        default: nil
        }
    }

    /// liblo has already turned the argument to host byte order; strings are terminated in place.
    private static func argument(tag: UInt8, _ value: UnsafeMutablePointer<lo_arg>) -> OSCArgument {
        switch tag {
        case UInt8(ascii: "i"): .int32(value.pointee.i)
        case UInt8(ascii: "h"): .int64(value.pointee.h)
        case UInt8(ascii: "f"): .float(value.pointee.f)
        case UInt8(ascii: "d"): .double(value.pointee.d)
        case UInt8(ascii: "s"): .string(String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)))
        case UInt8(ascii: "S"): .symbol(String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)))
        default: .other(tag: Character(Unicode.Scalar(tag)))
        }
    }

    /// liblo's error codes (lo_errors.h) in words.
    static func describe(liblo code: Int32) -> String {
        switch code {
        case LO_ESIZE: "its size is not a multiple of 4"
        case LO_EINVALIDPATH: "its address is not a terminated, padded string"
        case LO_ENOTYPE: "no type tag string after the address"
        case LO_EINVALIDTYPE: "its type tag string is not terminated or padded"
        case LO_EBADTYPE: "an unknown type tag"
        case LO_EINVALIDARG: "an argument runs past the packet's end"
        case LO_ETERM: "a string argument is not terminated"
        case LO_EPAD: "a string argument is not padded to 4 bytes"
        case LO_EINVALIDBUND: "a malformed bundle"
        case LO_EINVALIDTIME: "a malformed time tag"
        case LO_EALLOC: "out of memory"
        default: "liblo error \(code)"
        }
    }
}
