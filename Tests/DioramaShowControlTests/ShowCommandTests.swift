import Testing
import DioramaMixer
@testable import DioramaShowControl

@Suite("ShowCommand.parse")
struct ShowCommandTests {
    static let triggers: [(String, ShowCommand)] = [
        ("/diorama/go", .go), ("/diorama/next", .next), ("/diorama/previous", .previous),
        ("/diorama/pause", .pause), ("/diorama/resume", .resume), ("/diorama/reload", .reload),
    ]

    private func parse(_ address: String, _ arguments: OSCArgument...) throws(ShowCommandError) -> ShowCommand? {
        try ShowCommand.parse(OSCMessage(address, arguments))
    }

    private func error(_ address: String, _ arguments: OSCArgument...) -> ShowCommandError? {
        do {
            _ = try ShowCommand.parse(OSCMessage(address, arguments))
            return nil
        } catch {
            return error
        }
    }

    @Test("a trigger fires with no argument, a non-zero number, T or I", arguments: triggers)
    func triggerFires(address: String, command: ShowCommand) throws {
        #expect(try parse(address) == command)
        #expect(try parse(address, .float(1)) == command)
        #expect(try parse(address, .int32(1)) == command)
        #expect(try parse(address, .int64(-3)) == command)
        #expect(try parse(address, .double(0.5)) == command)
        #expect(try parse(address, .true) == command)
        #expect(try parse(address, .impulse) == command)
    }

    @Test("a trigger ignores a button's release: 0 or F", arguments: triggers)
    func triggerRelease(address: String, command: ShowCommand) throws {
        #expect(try parse(address, .float(0)) == nil)
        #expect(try parse(address, .int32(0)) == nil)
        #expect(try parse(address, .double(-0.0)) == nil)
        #expect(try parse(address, .false) == nil)
    }

    @Test("a trigger refuses strings, nil, other types and two arguments", arguments: triggers)
    func triggerWrongArguments(address: String, command: ShowCommand) {
        #expect(error(address, .string("1")) == .wrongArguments(address: address, typeTags: "s"))
        #expect(error(address, .symbol("x")) == .wrongArguments(address: address, typeTags: "S"))
        #expect(error(address, .nil) == .wrongArguments(address: address, typeTags: "N"))
        #expect(error(address, .other(tag: "b")) == .wrongArguments(address: address, typeTags: "b"))
        #expect(error(address, .float(.nan)) == .wrongArguments(address: address, typeTags: "f"))
        #expect(error(address, .float(1), .float(1)) == .wrongArguments(address: address, typeTags: "ff"))
    }

    @Test("/diorama/scene takes an id as s or S, and a number from 1 as i, h, or a whole f or d")
    func scene() throws {
        #expect(try parse("/diorama/scene", .string("ocean")) == .scene(.id("ocean")))
        #expect(try parse("/diorama/scene", .symbol("swing")) == .scene(.id("swing")))
        #expect(try parse("/diorama/scene", .string("3")) == .scene(.id("3")), "a string is an id, even of digits")
        #expect(try parse("/diorama/scene", .int32(3)) == .scene(.number(3)))
        #expect(try parse("/diorama/scene", .int64(12)) == .scene(.number(12)))
        #expect(try parse("/diorama/scene", .float(2)) == .scene(.number(2)))
        #expect(try parse("/diorama/scene", .double(1)) == .scene(.number(1)))
    }

    @Test("/diorama/scene refuses a fraction, 0, a negative, an empty id and the wrong arity or types")
    func sceneErrors() {
        let address = "/diorama/scene"
        for value: OSCArgument in [.float(2.5), .int32(0), .int32(-1), .int64(Int64(Int32.max) + 1), .double(.infinity), .float(.nan), .string("")] {
            guard case .badValue(address, _)? = error(address, value) else {
                Issue.record("\(value) should be a bad value, got \(String(describing: error(address, value)))")
                continue
            }
        }
        #expect(error(address) == .wrongArguments(address: address, typeTags: ""))
        #expect(error(address, .int32(1), .int32(2)) == .wrongArguments(address: address, typeTags: "ii"))
        #expect(error(address, .true) == .wrongArguments(address: address, typeTags: "T"))
        #expect(error(address, .other(tag: "c")) == .wrongArguments(address: address, typeTags: "c"))
    }

    @Test("/diorama/seek takes one number of seconds, 0 or more")
    func seek() throws {
        #expect(try parse("/diorama/seek", .float(1.5)) == .seek(1.5))
        #expect(try parse("/diorama/seek", .int32(4)) == .seek(4))
        #expect(try parse("/diorama/seek", .int64(7)) == .seek(7))
        #expect(try parse("/diorama/seek", .double(0)) == .seek(0))
        for value: OSCArgument in [.float(-0.5), .double(.nan), .double(.infinity), .int32(-1)] {
            guard case .badValue("/diorama/seek", _)? = error("/diorama/seek", value) else {
                Issue.record("\(value) should be a bad value")
                continue
            }
        }
        #expect(error("/diorama/seek") == .wrongArguments(address: "/diorama/seek", typeTags: ""))
        #expect(error("/diorama/seek", .string("4")) == .wrongArguments(address: "/diorama/seek", typeTags: "s"))
        #expect(error("/diorama/seek", .float(1), .float(2)) == .wrongArguments(address: "/diorama/seek", typeTags: "ff"))
    }

    @Test("/diorama/volume takes one number from 0 to 1.5; outside is a bad value, not clamped")
    func volume() throws {
        #expect(try parse("/diorama/volume", .float(0.25)) == .volume(0.25))
        #expect(try parse("/diorama/volume", .int32(1)) == .volume(1))
        #expect(try parse("/diorama/volume", .int32(0)) == .volume(0))
        #expect(try parse("/diorama/volume", .double(0.5)) == .volume(0.5))
        #expect(try parse("/diorama/volume", .double(1.5)) == .volume(1.5))
        for value: OSCArgument in [.float(1.51), .float(-0.1), .int32(2), .float(.nan), .double(-.infinity)] {
            guard case .badValue("/diorama/volume", _)? = error("/diorama/volume", value) else {
                Issue.record("\(value) should be a bad value")
                continue
            }
        }
        #expect(error("/diorama/volume") == .wrongArguments(address: "/diorama/volume", typeTags: ""))
        #expect(error("/diorama/volume", .string("0.5")) == .wrongArguments(address: "/diorama/volume", typeTags: "s"))
        #expect(error("/diorama/volume", .true) == .wrongArguments(address: "/diorama/volume", typeTags: "T"))
    }

    @Test("/diorama/volume accepts exactly what the player's keys reach: the mixer's one volume range, 0...1.5")
    func volumeRangeIsTheKeys() throws {
        #expect(Mixer.volumeRange == 0...1.5)
        let bounds = [Mixer.volumeRange.lowerBound, Mixer.volumeRange.upperBound]
        let values = stride(from: Float(-0.5), through: 2, by: 0.05).map { $0 } + bounds + bounds.map(\.nextUp) + bounds.map(\.nextDown)
        for value in values {
            // Accepted exactly when the player's clamp (`Mixer.clampedVolume`, which the keys go through) keeps it.
            let accepted = (try? parse("/diorama/volume", .float(value))) == .volume(value)
            #expect(accepted == (Mixer.clampedVolume(value) == value), "\(value)")
        }
    }

    @Test("/diorama/language takes one language code as s or S")
    func language() throws {
        #expect(try parse("/diorama/language", .string("ja")) == .language("ja"))
        #expect(try parse("/diorama/language", .symbol("en")) == .language("en"))
        #expect(try parse("/diorama/language", .string("zh-Hans_CN")) == .language("zh-Hans_CN"))
        for code in ["", "e n", "ja;rm", "日本", String(repeating: "a", count: 36)] {
            guard case .badValue("/diorama/language", _)? = error("/diorama/language", .string(code)) else {
                Issue.record("\(code) should be a bad value")
                continue
            }
        }
        #expect(error("/diorama/language") == .wrongArguments(address: "/diorama/language", typeTags: ""))
        #expect(error("/diorama/language", .int32(1)) == .wrongArguments(address: "/diorama/language", typeTags: "i"))
        #expect(error("/diorama/language", .string("en"), .string("ja")) == .wrongArguments(address: "/diorama/language", typeTags: "ss"))
    }

    @Test("addresses outside the list, patterns and case variants are unknown")
    func unknownAddresses() {
        for address in ["/diorama/nxt", "/next", "/diorama/Next", "/diorama/next/", "/diorama/*", "/diorama", "/diorama/status"] {
            #expect(error(address) == .unknownAddress(address))
        }
    }

    @Test("the warning kind ignores values but not types, and the hint says what is accepted")
    func kindsAndHints() {
        #expect(error("/diorama/volume", .float(2))?.kind == error("/diorama/volume", .float(3))?.kind)
        #expect(error("/diorama/volume", .string("a"))?.kind == error("/diorama/volume", .string("b"))?.kind)
        #expect(error("/diorama/volume", .string("a"))?.kind != error("/diorama/volume", .true)?.kind)
        #expect(error("/a")?.kind != error("/b")?.kind)
        let unknown = error("/diorama/nxt")
        #expect(unknown?.hint.contains("/diorama/next") == true)
        #expect(unknown?.hint.contains("/diorama/language") == true)
        let wrong = error("/diorama/volume", .string("loud"))
        #expect(wrong?.message == "/diorama/volume does not take the argument types ,s")
        #expect(wrong?.hint == "/diorama/volume takes one number (i, h, f or d) from 0 to 1.5")
        #expect(ShowCommand.addresses.count == 10)
    }
}
