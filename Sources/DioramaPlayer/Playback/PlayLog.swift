import DioramaFiles
import Foundation

/// One presented frame, as `--log` records it.
public struct FrameLogEntry: Sendable, Equatable {
    /// 0-based count of presented frames.
    public var index: Int
    /// Monotonic seconds when the frame was presented.
    public var monotonic: Double
    /// The audio clock the frame was drawn for: the mixer frame being heard, and it in seconds.
    public var audioFrame: Double
    public var audioClock: Double
    /// The audio clock read just after presenting, in seconds.
    public var presentedAudioClock: Double
    public var sceneIndex: Int
    public var sceneID: String
    /// Seconds into the scene the frame shows.
    public var sceneTime: Double
    public var paused: Bool
    /// Page offset in canvas points while dragging or sliding (0 at rest).
    public var pageOffset: Double
    /// Monotonic seconds from `monotonic` to when `presentedAudioClock` had been read: microseconds, unless the thread
    /// was held up in between, when the reading is that much later than `monotonic` (leave it out to time the clock).
    public var presentedAudioClockSpan: Double = 0
}

/// Writes the `--log FILE.jsonl` record: one JSON object per line, `"type"` telling frames, cues and
/// the header apart. Buffered; flushed every second of frames and when closed. A write that fails (a full disk)
/// ends the log: `failure` says why, and nothing more is written.
public final class PlayLog {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    public let path: String
    /// Why the log stopped being written, nil while every write has succeeded.
    public private(set) var failure: WriteError?

    /// Creates (or truncates) the log at `path`.
    public init(path: String) throws {
        // O_NONBLOCK: a named pipe with no reader is refused at once (ENXIO) rather than waited on.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        descriptor = fd
        self.path = path
    }

    deinit {
        flush()
        close(descriptor)
    }

    /// The first line: what the numbers that follow are measured against.
    public func start(sampleRate: Int, audioLive: Bool, videoDriver: String, renderer: String, vsync: Bool, size: (Int, Int)) {
        line([("type", .string("start")), ("sampleRate", .int(sampleRate)), ("audioLive", .bool(audioLive)),
              ("videoDriver", .string(videoDriver)), ("renderer", .string(renderer)), ("vsync", .bool(vsync)),
              ("width", .int(size.0)), ("height", .int(size.1))])
    }

    public func frame(_ entry: FrameLogEntry) {
        line([("type", .string("frame")), ("index", .int(entry.index)), ("monotonic", .double(entry.monotonic)),
              ("audioFrame", .double(entry.audioFrame)), ("audioClock", .double(entry.audioClock)),
              ("presentedAudioClock", .double(entry.presentedAudioClock)), ("sceneIndex", .int(entry.sceneIndex)),
              ("scene", .string(entry.sceneID)), ("sceneTime", .double(entry.sceneTime)), ("paused", .bool(entry.paused)),
              ("pageOffset", .double(entry.pageOffset)), ("presentedAudioClockSpan", .double(entry.presentedAudioClockSpan))])
        if entry.index % 60 == 59 { flush() }
    }

    /// A cue whose start was heard: its scene, its sample index in the scene, the mixer frame it started
    /// on, how many samples late it was sent, and the audio clock (seconds) when it was noticed.
    public func cue(_ record: CueStartRecord, audioClock: Double, monotonic: Double) {
        line([("type", .string("cue")), ("sceneIndex", .int(record.sceneIndex)), ("scene", .string(record.sceneID)),
              ("sound", .string(record.sound)), ("sampleIndex", .int(Int(record.sceneFrame))), ("frame", .int(Int(record.frame))),
              ("lateSamples", .int(Int(record.lateFrames))), ("audioClock", .double(audioClock)), ("monotonic", .double(monotonic))])
    }

    /// A user action or reload, for reading the log.
    public func event(_ name: String, monotonic: Double, detail: String? = nil) {
        var fields: [(String, Value)] = [("type", .string("event")), ("event", .string(name)), ("monotonic", .double(monotonic))]
        if let detail { fields.append(("detail", .string(detail))) }
        line(fields)
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        do {
            try DescriptorOutput.write(buffer, to: descriptor)
        } catch {
            failure = error
        }
    }

    enum Value {
        case string(String), int(Int), double(Double), bool(Bool)
    }

    private func line(_ fields: [(String, Value)]) {
        buffer.append(UInt8(ascii: "{"))
        for (index, (key, value)) in fields.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            append(string: key)
            buffer.append(UInt8(ascii: ":"))
            switch value {
            case .string(let text): append(string: text)
            case .int(let number): buffer += Array(String(number).utf8)
            case .double(let number): buffer += Array((number.isFinite ? "\(number)" : "null").utf8)
            case .bool(let flag): buffer += Array((flag ? "true" : "false").utf8)
            }
        }
        buffer += Array("}\n".utf8)
    }

    private func append(string: String) {
        buffer.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": buffer += Array("\\\"".utf8)
            case "\\": buffer += Array("\\\\".utf8)
            case "\n": buffer += Array("\\n".utf8)
            case _ where scalar.value < 0x20: buffer += Array(String(format: "\\u%04x", scalar.value).utf8)
            default: buffer += Array(String(scalar).utf8)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
