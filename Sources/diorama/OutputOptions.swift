import ArgumentParser
import DioramaDocument
import Foundation

/// What `render`, `export` and `timeline --picture` read the same way: the scenes file with its `--tap` taps, the
/// `--lang` language, and the span: the whole playlist or one `--scene`, from `--from` to `--to`.
struct SpanOptions: ParsableArguments {
    @Argument(help: "The scenes file.")
    var file: String = "scenes.json"

    @Option(help: "Only the scene with this id; times are then scene seconds.")
    var scene: String?

    @Option(help: "Start time in seconds (default 0).")
    var from: Seconds?

    @Option(help: "End time in seconds, not included (default: the end of the playlist or scene).")
    var to: Seconds?

    @Option(name: .customLong("lang"), help: "Language of the texts (one of the file's languages; default: its default).")
    var language: String?

    @Option(name: .customLong("tap"), help: ArgumentHelp(TapOption.help, valueName: "NODE@SECONDS"))
    var taps: [TapOption] = []
}

/// How `render` and `export` make frames: their size, rate and rendering threads.
struct FrameOptions: ParsableArguments {
    @Option(help: "Frames per second (a number above 0, at most 1000).")
    var fps = FrameRate(argument: "30")

    @Option(help: "Output size in pixels, WIDTHxHEIGHT (even numbers for MP4 and WebM).")
    var size = FrameSize(argument: "1280x720")

    @Option(help: "Rendering threads (default: one per core).")
    var threads: Int?

    /// `--threads`, or one per core; 1 to 256.
    func threadCount() throws(RenderArgumentError) -> Int {
        if let threads, !(1...256).contains(threads) {
            throw RenderArgumentError("--threads \(threads): give 1 to 256 rendering threads")
        }
        return threads ?? ProcessInfo.processInfo.activeProcessorCount
    }
}

// Typed values. ArgumentParser reads each option's text into its type as it parses the command line; a text that
// is not a value keeps why, and the command refuses it when it asks for the value, as it refuses every bad argument:
// the reason with an example, exit status 2. (A nil from `init?(argument:)` would have ArgumentParser refuse it
// itself, naming no reason and exiting 64.)

/// Seconds, 0 or more, read exactly from a decimal (`2.5`).
struct Seconds: ExpressibleByArgument {
    let text: String
    private let seconds: Rational?

    init(argument: String) {
        text = argument
        seconds = Rational(decimalLiteral: argument.trimmingCharacters(in: .whitespaces)).flatMap { $0 >= .zero ? $0 : nil }
    }

    /// The seconds given to `option` (e.g. "--from").
    func value(of option: String) throws(RenderArgumentError) -> Rational {
        guard let seconds else { throw RenderArgumentError("\(option) \(text) is not a time: give seconds, 0 or more, e.g. \(option) 2.5") }
        return seconds
    }

    var defaultValueDescription: String { text }
}

/// `--size WIDTHxHEIGHT` in pixels, each 1 to 16384.
struct FrameSize: ExpressibleByArgument {
    let text: String
    private let parsed: Result<(width: Int, height: Int), RenderArgumentError>

    init(argument: String) {
        text = argument
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        if parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) {
            parsed = (1...16384).contains(width) && (1...16384).contains(height) ? .success((width, height))
                : .failure(RenderArgumentError("--size \(argument): width and height must be 1 to 16384 pixels"))
        } else {
            parsed = .failure(RenderArgumentError("--size \(argument) is not a size: write WIDTHxHEIGHT in pixels, e.g. --size 1280x720"))
        }
    }

    func value() throws(RenderArgumentError) -> (width: Int, height: Int) { try parsed.get() }

    /// The size as a window's (`play --size`).
    func windowSize() throws(RenderArgumentError) -> Size {
        let (width, height) = try value()
        return Size(width: Double(width), height: Double(height))
    }

    var defaultValueDescription: String { text }
}

/// `--fps`: frames per second, a number above 0 and at most 1000, exact (`29.97`).
struct FrameRate: ExpressibleByArgument {
    let text: String
    private let fps: Rational?

    init(argument: String) {
        text = argument
        fps = Rational(decimalLiteral: argument).flatMap { $0 > .zero && $0 <= Rational(1000) ? $0 : nil }
    }

    func value() throws(RenderArgumentError) -> Rational {
        guard let fps else {
            throw RenderArgumentError("--fps \(text) is not a frame rate: give a number above 0 and at most 1000, e.g. --fps 30")
        }
        return fps
    }

    var defaultValueDescription: String { text }
}

/// `--at 0,2.5,10`: seconds, comma-separated, each 0 or more.
struct SecondsList: ExpressibleByArgument {
    private let items: [(time: Rational?, text: String)]

    init(argument: String) {
        items = argument.split(separator: ",", omittingEmptySubsequences: false).map { item in
            let text = item.trimmingCharacters(in: .whitespaces)
            return (Rational(decimalLiteral: text).flatMap { $0 >= .zero ? $0 : nil }, text)
        }
    }

    /// Each time with its text, in order.
    func value() throws(RenderArgumentError) -> [(time: Rational, text: String)] {
        try items.map { item throws(RenderArgumentError) in
            guard let time = item.time else { throw RenderArgumentError("--at \"\(item.text)\" is not a time: give seconds like --at 0,2.5,10") }
            return (time, item.text)
        }
    }
}

/// A bad command line, reported with a hint and exit status 2.
struct RenderArgumentError: Error, CustomStringConvertible {
    var description: String

    init(_ message: String, hint: String? = nil) {
        description = "error: " + message + (hint.map { "\n  hint: " + $0 } ?? "")
    }
}
