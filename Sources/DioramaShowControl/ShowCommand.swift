import DioramaMixer

/// What a show controller asks the player to do. Every command's OSC address is under `/diorama/`.
public enum ShowCommand: Sendable, Equatable {
    /// The scene a `/diorama/scene` command names.
    public enum Scene: Sendable, Equatable {
        /// A scene's `id` in scenes.json.
        case id(String)
        /// A scene's place in the playlist, counted from 1 as the player's keys 1–9 and page dots are.
        case number(Int)
    }

    /// The show from its first scene, playing.
    case go
    case next
    case previous
    case pause
    case resume
    case scene(Scene)
    /// A time in the current scene, in seconds from its start.
    case seek(Double)
    /// The master volume, 0 (silent) to 1.5 (150 %): `Mixer.volumeRange`, as the player's keys reach.
    case volume(Float)
    /// A language code the document offers, such as `en` or `ja`.
    case language(String)
    /// Reads the scenes file again, as saving it or pressing R does.
    case reload
}

/// One argument of an OSC message, by its type tag.
public enum OSCArgument: Sendable, Equatable {
    case int32(Int32)      // i
    case int64(Int64)      // h
    case float(Float)      // f
    case double(Double)    // d
    case string(String)    // s
    case symbol(String)    // S
    case `true`            // T
    case `false`           // F
    case impulse           // I (infinitum, sent as a "bang" by some controllers)
    case `nil`             // N
    /// A type the show commands never take (blob, char, MIDI, time tag, colour, ...), kept by its tag for the warning.
    case other(tag: Character)

    public var typeTag: Character {
        switch self {
        case .int32: "i"
        case .int64: "h"
        case .float: "f"
        case .double: "d"
        case .string: "s"
        case .symbol: "S"
        case .true: "T"
        case .false: "F"
        case .impulse: "I"
        case .nil: "N"
        case .other(let tag): tag
        }
    }

    /// The value of a numeric argument (i, h, f, d), whatever its width.
    var number: Double? {
        switch self {
        case .int32(let value): Double(value)
        case .int64(let value): Double(value)
        case .float(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    var text: String? {
        switch self {
        case .string(let value), .symbol(let value): value
        default: nil
        }
    }
}

/// A decoded OSC message: an address and its typed arguments.
public struct OSCMessage: Sendable, Equatable {
    public var address: String
    public var arguments: [OSCArgument]

    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        self.address = address
        self.arguments = arguments
    }

    /// The type tags without the leading comma, e.g. `sf`; empty for no arguments.
    public var typeTags: String { String(arguments.map(\.typeTag)) }
}

/// Why a message is not a show command. `kind` is what "said once" counts by.
public enum ShowCommandError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownAddress(String)
    case wrongArguments(address: String, typeTags: String)
    case badValue(address: String, problem: String)

    public var kind: String {
        switch self {
        case .unknownAddress(let address): "unknown \(address)"
        case .wrongArguments(let address, let typeTags): "arguments \(address) ,\(typeTags)"
        case .badValue(let address, _): "value \(address)"
        }
    }

    public var message: String {
        switch self {
        case .unknownAddress(let address):
            "\(address) is not a show-control address"
        case .wrongArguments(let address, let typeTags):
            "\(address) does not take " + (typeTags.isEmpty ? "no arguments" : "the argument types ,\(typeTags)")
        case .badValue(let address, let problem):
            "\(address): \(problem)"
        }
    }

    public var hint: String {
        switch self {
        case .unknownAddress:
            "the player answers " + ShowCommand.addresses.map(\.address).joined(separator: ", ")
        case .wrongArguments(let address, _), .badValue(let address, _):
            ShowCommand.addresses.first { $0.address == address }.map { "\($0.address) takes \($0.arguments)" } ?? ""
        }
    }

    public var description: String { message + "\n  hint: " + hint }
}

extension ShowCommand {
    /// `Mixer.volumeRange`'s bounds as the messages write them ("0", "1.5").
    static var volumeRangeText: (lower: String, upper: String) {
        func text(_ value: Float) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        return (text(Mixer.volumeRange.lowerBound), text(Mixer.volumeRange.upperBound))
    }

    /// Every address the player answers and what it takes, in the words the warnings and the README use.
    public static let addresses: [(address: String, arguments: String)] = [
        ("/diorama/go", triggerArguments),
        ("/diorama/next", triggerArguments),
        ("/diorama/previous", triggerArguments),
        ("/diorama/pause", triggerArguments),
        ("/diorama/resume", triggerArguments),
        ("/diorama/scene", "one argument: a scene id (s) or its number from 1 (i, h, or a whole f or d)"),
        ("/diorama/seek", "one number (i, h, f or d): seconds from the current scene's start, 0 or more"),
        ("/diorama/volume", "one number (i, h, f or d) from 0 to \(volumeRangeText.upper)"),
        ("/diorama/language", "one string (s): a language code such as en or ja"),
        ("/diorama/reload", triggerArguments),
    ]

    static let triggerArguments = "no arguments, or one that a button sends: a number (non-zero fires, 0 — the release — is ignored), T, F (ignored) or I"

    /// The command an OSC message asks for; nil for a button's release (a trigger address with 0 or F), which does nothing.
    /// Pure: a message that is not a command throws, saying why.
    public static func parse(_ message: OSCMessage) throws(ShowCommandError) -> ShowCommand? {
        let address = message.address
        let arguments = message.arguments
        let wrongArguments = ShowCommandError.wrongArguments(address: address, typeTags: message.typeTags)
        func single() throws(ShowCommandError) -> OSCArgument {
            guard arguments.count == 1 else { throw wrongArguments }
            return arguments[0]
        }
        func number() throws(ShowCommandError) -> Double {
            guard let value = try single().number else { throw wrongArguments }
            guard value.isFinite else { throw .badValue(address: address, problem: "\(value) is not a finite number") }
            return value
        }

        switch address {
        case "/diorama/go": return try trigger(.go, arguments, wrongArguments)
        case "/diorama/next": return try trigger(.next, arguments, wrongArguments)
        case "/diorama/previous": return try trigger(.previous, arguments, wrongArguments)
        case "/diorama/pause": return try trigger(.pause, arguments, wrongArguments)
        case "/diorama/resume": return try trigger(.resume, arguments, wrongArguments)
        case "/diorama/reload": return try trigger(.reload, arguments, wrongArguments)
        case "/diorama/scene":
            let argument = try single()
            if let id = argument.text {
                guard !id.isEmpty else { throw .badValue(address: address, problem: "the scene id is empty") }
                return .scene(.id(id))
            }
            guard let value = argument.number else { throw wrongArguments }
            guard value.isFinite, value == value.rounded() else {
                throw .badValue(address: address, problem: "\(value) is not a whole scene number")
            }
            guard value >= 1, value <= Double(Int32.max) else {
                throw .badValue(address: address, problem: "scene \(Int(exactly: value).map(String.init) ?? "\(value)") does not exist: scenes are numbered from 1")
            }
            return .scene(.number(Int(value)))
        case "/diorama/seek":
            let seconds = try number()
            guard seconds >= 0 else { throw .badValue(address: address, problem: "\(seconds) s is before the scene's start") }
            return .seek(seconds)
        case "/diorama/volume":
            let volume = try number()
            let range = Mixer.volumeRange
            guard (Double(range.lowerBound)...Double(range.upperBound)).contains(volume) else {
                throw .badValue(address: address, problem: "\(volume) is outside \(volumeRangeText.lower)...\(volumeRangeText.upper)")
            }
            return .volume(Float(volume))
        case "/diorama/language":
            guard let code = try single().text else { throw wrongArguments }
            guard isLanguageCode(code) else {
                throw .badValue(address: address, problem: "\"\(code.prefix(40))\" is not a language code")
            }
            return .language(code)
        default:
            throw .unknownAddress(address)
        }
    }

    /// A trigger takes nothing, or what a controller's button sends: 1 on press and 0 on release (TouchOSC, Open Stage
    /// Control), T/F, or an impulse. The release does nothing, so one press is one command.
    private static func trigger(_ command: ShowCommand, _ arguments: [OSCArgument],
                                _ wrongArguments: ShowCommandError) throws(ShowCommandError) -> ShowCommand? {
        guard let argument = arguments.first else { return command }
        guard arguments.count == 1 else { throw wrongArguments }
        switch argument {
        case .true, .impulse: return command
        case .false: return nil
        default:
            guard let value = argument.number, !value.isNaN else { throw wrongArguments }
            return value == 0 ? nil : command
        }
    }

    /// BCP 47-like: letters, digits, '-' and '_', at most 35 characters (the longest registered tag).
    private static func isLanguageCode(_ code: String) -> Bool {
        !code.isEmpty && code.utf8.count <= 35
            && code.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }
}

extension ShowCommand {
    /// Merges this command into `queue`, the commands waiting for the next frame, when one of its kind is there:
    /// a reload stays where the first came (what followed it was sent to the reloaded show, and the file is read
    /// once); a seek, volume or language replaces the earlier one and moves to the end, where it came, since only
    /// the last value stays. Returns false (nothing done) for any other command, or when none of its kind waits.
    ///
    /// A controller's stream of reloads or fader moves is then one command a frame, not one a packet.
    public func coalesce(into queue: inout [ShowCommand]) -> Bool {
        switch self {
        case .reload:
            return queue.contains(.reload)
        case .seek, .volume, .language:
            guard let index = queue.firstIndex(where: { $0.setsTheSameAs(self) }) else { return false }
            queue.remove(at: index)
            queue.append(self)
            return true
        default:
            return false
        }
    }

    private func setsTheSameAs(_ other: ShowCommand) -> Bool {
        switch (self, other) {
        case (.seek, .seek), (.volume, .volume), (.language, .language): true
        default: false
        }
    }
}
