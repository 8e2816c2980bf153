import Testing
@testable import DioramaShowControl

@Suite("OSC packets decoded with liblo")
struct OSCPacketTests {
    private func decode(_ bytes: [UInt8]) throws(OSCPacketError) -> [OSCMessage] {
        var result: Result<[OSCMessage], OSCPacketError> = .success([])
        bytes.withUnsafeBytes { raw in
            do throws(OSCPacketError) { result = .success(try OSCPacket.decode(raw)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    @Test("every argument type liblo writes comes back with its value")
    func roundTrip() throws {
        let message = OSCMessage("/diorama/test", [.int32(-7), .int64(1 << 40), .float(0.25), .double(-2.5), .string("ocean"),
                                                   .symbol("ja"), .true, .false, .impulse, .nil])
        #expect(try decode(serialised(message)) == [message])
        #expect(try decode(serialised(OSCMessage("/diorama/next"))) == [OSCMessage("/diorama/next")])
    }

    @Test("a bundle's messages come in order, nested bundles too")
    func bundles() throws {
        let first = OSCMessage("/diorama/scene", [.string("ocean")])
        let second = OSCMessage("/diorama/volume", [.float(0.5)])
        let third = OSCMessage("/diorama/next")
        let packet = bundle([serialised(first), bundle([serialised(second)]), serialised(third)])
        #expect(try decode(packet) == [first, second, third])
        #expect(try decode(bundle([])) == [])
    }

    @Test("bundles nested past the limit are refused, not recursed into")
    func deepBundles() {
        var packet = serialised(OSCMessage("/diorama/next"))
        for _ in 0..<20 { packet = bundle([packet]) }
        #expect(throws: OSCPacketError.self) { try decode(packet) }
    }

    @Test("a bundle element whose size runs past the packet is refused")
    func badBundleSizes() {
        let element = serialised(OSCMessage("/diorama/next"))
        var packet = bundle([element])
        packet[19] = 200
        #expect(throws: OSCPacketError.self) { try decode(packet) }
        packet[19] = 3
        #expect(throws: OSCPacketError.self) { try decode(packet) }
        #expect(throws: OSCPacketError.self) { try decode(Array("#bundle\0".utf8)) }
    }

    @Test("every truncation of a valid message is refused or decodes to a prefix, never read past")
    func truncations() {
        let whole = serialised(OSCMessage("/diorama/scene", [.string("ocean"), .float(1), .int64(3)]))
        for length in 0..<whole.count {
            do {
                let messages = try decode(Array(whole[0..<length]))
                Issue.record("a \(length)-byte prefix decoded as \(messages)")
            } catch {
                #expect(!error.reason.isEmpty)
            }
        }
    }

    @Test("garbage: 20000 random packets, plain and with a valid-looking start, never crash")
    func garbage() {
        var random = SplitMix64(state: 14)
        var decoded = 0
        var refused = 0
        let prefixes: [[UInt8]] = [[], Array("/diorama/next\0\0\0,".utf8), Array("#bundle\0".utf8), Array("/a\0\0,".utf8)]
        for round in 0..<20000 {
            let length = Int.random(in: 0...96, using: &random)
            var bytes = prefixes[round % prefixes.count]
            bytes += (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if round % 3 == 0 { bytes += [0, 0, 0, 0] }
            do {
                _ = try decode(bytes)
                decoded += 1
            } catch {
                refused += 1
            }
        }
        #expect(decoded + refused == 20000)
        #expect(refused > 10000, "most garbage is refused")
    }
}
