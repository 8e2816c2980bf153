@testable import DioramaShowControl
import Foundation

/// What a UDP packet goes through at `--osc`: the size limit, decoding into messages, each message parsed as a show
/// command.
enum OSCPipeline {
    static let stages = ["decoded", "parsed", "command"]

    static func run(_ bytes: [UInt8]) -> Set<String> {
        var reached: Set<String> = []
        guard bytes.count <= OSCControl.maximumPacketSize,
              let messages = try? bytes.withUnsafeBytes({ try OSCPacket.decode($0) }) else {
            return reached
        }
        reached.insert("decoded")
        for message in messages {
            // nil is a button's release: parsed, but no command.
            let command: ShowCommand?
            do { command = try ShowCommand.parse(message) } catch { continue }
            reached.insert("parsed")
            if command != nil { reached.insert("command") }
        }
        return reached
    }

    /// Every documented command with arguments it accepts, and some it refuses, each alone and a few in bundles.
    static func corpus() -> [OSCPacketModel] {
        let messages: [OSCPacketModel.Message] = [
            .init("/diorama/go"), .init("/diorama/next", [.int32(1)]), .init("/diorama/previous", [.trueTag]),
            .init("/diorama/pause", [.float(0)]), .init("/diorama/resume", [.impulse]), .init("/diorama/reload", [.falseTag]),
            .init("/diorama/scene", [.string("ocean")]), .init("/diorama/scene", [.int32(3)]), .init("/diorama/scene", [.int64(2)]),
            .init("/diorama/scene", [.double(1)]), .init("/diorama/seek", [.float(2.5)]), .init("/diorama/seek", [.double(0)]),
            .init("/diorama/volume", [.float(0.5)]), .init("/diorama/volume", [.int32(1)]), .init("/diorama/language", [.string("ja")]),
            .init("/diorama/language", [.symbol("en")]), .init("/diorama/unknown", [.string("x"), .int32(7)]),
            .init("/diorama/scene", [.blob([1, 2, 3])]),
        ]
        var packets = messages.map { OSCPacketModel.message($0) }
        packets.append(.bundle([.message(messages[0]), .message(messages[6]), .message(messages[12])]))
        packets.append(.bundle([.bundle([.message(messages[1]), .bundle([.message(messages[10])])]), .message(messages[14])]))
        return packets
    }
}

/// An OSC packet as its parts, so mutations can change a type tag, an argument, a length or a bundle's nesting and
/// still write the rest correctly; `encoded(breaking:)` then gets the padding or sizes wrong on purpose.
indirect enum OSCPacketModel {
    struct Message {
        var address: String
        var arguments: [Argument]
        init(_ address: String, _ arguments: [Argument] = []) {
            self.address = address
            self.arguments = arguments
        }
    }

    enum Argument {
        case int32(Int32), int64(Int64), float(Float), double(Double), string(String), symbol(String), blob([UInt8])
        case trueTag, falseTag, impulse, nilTag
        /// A tag with whatever bytes follow it (an unknown tag, or a known one with the wrong data).
        case raw(tag: UInt8, bytes: [UInt8])
    }

    case message(Message)
    case bundle([OSCPacketModel])

    var encoded: [UInt8] {
        switch self {
        case .message(let message):
            var out = Self.padded(message.address)
            var tags = ","
            var data: [UInt8] = []
            for argument in message.arguments {
                switch argument {
                case .int32(let v): tags += "i"; data += Self.bigEndian(UInt32(bitPattern: v))
                case .int64(let v): tags += "h"; data += Self.bigEndian(UInt64(bitPattern: v))
                case .float(let v): tags += "f"; data += Self.bigEndian(v.bitPattern)
                case .double(let v): tags += "d"; data += Self.bigEndian(v.bitPattern)
                case .string(let v): tags += "s"; data += Self.padded(v)
                case .symbol(let v): tags += "S"; data += Self.padded(v)
                case .blob(let v):
                    tags += "b"
                    data += Self.bigEndian(UInt32(v.count)) + v + Array(repeating: 0, count: (4 - v.count % 4) % 4)
                case .trueTag: tags += "T"
                case .falseTag: tags += "F"
                case .impulse: tags += "I"
                case .nilTag: tags += "N"
                case .raw(let tag, let bytes): tags += String(UnicodeScalar(tag)); data += bytes
                }
            }
            out += Self.padded(tags)
            return out + data
        case .bundle(let elements):
            var out = Array("#bundle\0".utf8) + Self.bigEndian(UInt64(1))
            for element in elements {
                let bytes = element.encoded
                out += Self.bigEndian(UInt32(bytes.count)) + bytes
            }
            return out
        }
    }

    static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    static let addresses = [
        "/diorama/go", "/diorama/next", "/diorama/previous", "/diorama/pause", "/diorama/resume", "/diorama/reload",
        "/diorama/scene", "/diorama/seek", "/diorama/volume", "/diorama/language", "/diorama", "/", "/diorama/scene/",
        "/diorama/SCENE", "//diorama/go", "/diorama/go\u{0}x", "/diorama/*", "/diorama/{go,next}", String(repeating: "/a", count: 600),
    ]

    static let int32s: [Int32] = [0, 1, -1, 3, .max, .min, 256]
    static let int64s: [Int64] = [0, 1, -1, .max, .min, Int64(Int32.max) + 1]
    static let floats: [Float] = [0, -0.0, 1, 0.5, 1.0000001, -1, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, 2.5e9]
    static let doubles: [Double] = [0, 1, 3, 0.5, .nan, .infinity, -.infinity, 1e300, 2147483648, 9.3e18, 1e-320]
    static let strings = ["", "ocean", "3", "en", "ja", "zh-Hant-TW", "x-klingon", String(repeating: "a", count: 2_000), "é", "\u{FFFD}"]

    static func interestingArgument(random: inout FuzzRandom) -> Argument {
        switch random.below(12) {
        case 0: .int32(random.pick(Self.int32s))
        case 1: .int64(random.pick(Self.int64s))
        case 2: .float(random.pick(Self.floats))
        case 3: .double(random.pick(Self.doubles))
        case 4: .string(random.pick(Self.strings))
        case 5: .symbol(random.pick(["", "en", "ocean"]))
        case 6: .blob(Array(repeating: 0xAB, count: random.below(40)))
        case 7: random.pick([Argument.trueTag, .falseTag, .impulse, .nilTag])
        case 8: // a blob whose length runs past the packet
            .raw(tag: UInt8(ascii: "b"), bytes: bigEndian(random.pick([UInt32.max, 0x7FFF_FFFF, 4096, 5])))
        case 9: // a string left unterminated, or unpadded
            .raw(tag: UInt8(ascii: "s"), bytes: Array(random.pick(["abc", "abcd", "ab\0"]).utf8))
        case 10: // tags liblo knows but we do not take, and tags nobody knows
            .raw(tag: random.pick(Array("cmtrS[]bxZ\u{7F}".utf8) + [0, 0xFF]), bytes: Array(repeating: 0, count: random.pick([0, 4, 8])))
        default: .int32(Int32(truncatingIfNeeded: random.next()))
        }
    }

    mutating func mutate(random: inout FuzzRandom) {
        switch self {
        case .message(var message):
            switch random.below(6) {
            case 0: message.address = random.pick(Self.addresses)
            case 1 where !message.arguments.isEmpty: message.arguments.remove(at: random.below(message.arguments.count))
            case 2 where !message.arguments.isEmpty:
                message.arguments[random.below(message.arguments.count)] = Self.interestingArgument(random: &random)
            case 3:
                let count = random.chance(0.8) ? 1 : random.within(2...200)
                for _ in 0..<count { message.arguments.append(Self.interestingArgument(random: &random)) }
            case 4: message.arguments = [Self.interestingArgument(random: &random)]
            default:
                // Wrapped in bundles, at times past the decoder's limit of 8 levels.
                var packet = OSCPacketModel.message(message)
                for _ in 0..<(random.chance(0.7) ? 1 : random.within(7...10)) { packet = .bundle([packet]) }
                self = packet
                return
            }
            self = .message(message)
        case .bundle(var elements):
            switch random.below(4) {
            case 0 where !elements.isEmpty:
                var element = elements[random.below(elements.count)]
                element.mutate(random: &random)
                elements[random.below(elements.count)] = element
            case 1 where !elements.isEmpty:
                // Duplicated: a flood of commands in one packet.
                let copies = random.chance(0.7) ? 1 : random.within(2...300)
                elements += Array(repeating: elements[random.below(elements.count)], count: copies)
            case 2 where !elements.isEmpty: elements.remove(at: random.below(elements.count))
            default: elements = [.bundle(elements)]
            }
            self = .bundle(elements)
        }
    }

    /// An input: a seed with structured mutations, then now and again its bytes broken (a size, padding, a cut).
    static func input(corpus: [OSCPacketModel], random: inout FuzzRandom) -> [UInt8] {
        var packet = random.pick(corpus)
        for _ in 0..<random.mutationCount(maximum: 4) { packet.mutate(random: &random) }
        var bytes = packet.encoded
        guard random.chance(0.35) else { return bytes }
        if random.chance(0.5), bytes.count >= 20, bytes.starts(with: Array("#bundle\0".utf8)) {
            // The first element's size, wrong.
            let size = random.pick([0, 1, 3, UInt32(bytes.count), UInt32.max, UInt32(bytes.count - 20 + 4)])
            bytes.replaceSubrange(16..<20, with: bigEndian(size))
        } else {
            ByteMutations.mutate(&bytes, others: corpus.map(\.encoded), random: &random)
        }
        return bytes
    }
}
