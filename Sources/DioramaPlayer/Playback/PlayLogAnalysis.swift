import DioramaMixer
import Foundation

/// Sync figures read back from a `--log FILE.jsonl` of `diorama play`.
public struct PlayLogAnalysis: Sendable, Equatable {
    public var sampleRate: Int = AudioFormat.sampleRate
    public var frames = 0
    public var cues = 0
    /// Seconds between the audio clock a frame was drawn for and the audio clock when it was presented:
    /// positive when the picture lags the sound (median, 95th percentile and largest of the magnitude).
    public var presentLag: (median: Double, p95: Double, maximum: Double) = (0, 0, 0)
    /// The largest difference, in seconds, between how far the scene time moved and how far the audio clock
    /// moved between consecutive frames of one scene while playing (0 when the picture follows the clock exactly).
    public var followError: Double = 0
    /// Samples by which cue starts were late against their scheduled frame (largest), and how many were late.
    public var maximumLateSamples = 0
    public var lateCues = 0
    /// Seconds from a cue's start to the first frame drawn at or after it, largest: the picture catches up
    /// with a cue within one frame.
    public var cueToFrame = 0.0

    public static func == (lhs: PlayLogAnalysis, rhs: PlayLogAnalysis) -> Bool {
        lhs.frames == rhs.frames && lhs.cues == rhs.cues && lhs.followError == rhs.followError
            && lhs.maximumLateSamples == rhs.maximumLateSamples && lhs.lateCues == rhs.lateCues
            && lhs.presentLag == rhs.presentLag && lhs.cueToFrame == rhs.cueToFrame && lhs.sampleRate == rhs.sampleRate
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads the log at `path`.
    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read the log \(path)")
        }
        try self.init(jsonLines: data)
    }

    public init(jsonLines data: Data) throws {
        struct Frame { var audio: Double, presented: Double, scene: Int, sceneTime: Double, paused: Bool }
        var frames: [Frame] = []
        var cueStarts: [Double] = []
        for (number, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw Failure(description: "line \(number + 1) of the log is not a JSON object")
            }
            switch object["type"] as? String {
            case "start":
                sampleRate = object["sampleRate"] as? Int ?? sampleRate
            case "frame":
                frames.append(Frame(audio: object["audioClock"] as? Double ?? 0, presented: object["presentedAudioClock"] as? Double ?? 0,
                                    scene: object["sceneIndex"] as? Int ?? 0, sceneTime: object["sceneTime"] as? Double ?? 0,
                                    paused: object["paused"] as? Bool ?? false))
            case "cue":
                cues += 1
                let late = object["lateSamples"] as? Int ?? 0
                maximumLateSamples = max(maximumLateSamples, late)
                if late > 0 { lateCues += 1 }
                cueStarts.append(Double(object["frame"] as? Int ?? 0) / Double(sampleRate))
            default:
                continue
            }
        }
        self.frames = frames.count
        let lags = frames.map { $0.presented - $0.audio }.sorted()
        let magnitudes = lags.map(abs).sorted()
        if !lags.isEmpty {
            presentLag = (lags[lags.count / 2], magnitudes[min(magnitudes.count - 1, Int(Double(magnitudes.count) * 0.95))],
                          magnitudes[magnitudes.count - 1])
        }
        // A scene time of exactly 0 is the start being waited for (the clock has not reached the frame the
        // playlist starts on); from there on the scene time must move exactly as the clock does.
        for (previous, next) in zip(frames, frames.dropFirst())
        where previous.scene == next.scene && !previous.paused && !next.paused && previous.sceneTime > 0
            && next.sceneTime >= previous.sceneTime {
            followError = max(followError, abs((next.sceneTime - previous.sceneTime) - (next.audio - previous.audio)))
        }
        for start in cueStarts {
            if let first = frames.first(where: { $0.audio >= start }) { cueToFrame = max(cueToFrame, first.audio - start) }
        }
    }

    /// The figures as lines for the terminal.
    public var summary: [String] {
        func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
        return [
            "frames: \(frames), cue starts: \(cues)",
            "picture vs sound when presented (audio clock at present minus the clock drawn for): median \(ms(presentLag.median)), "
                + "p95 |\(ms(presentLag.p95))|, max |\(ms(presentLag.maximum))|",
            "scene time follows the audio clock between frames within \(String(format: "%.3f", followError * 1_000_000)) µs",
            "cue starts late against their scheduled sample: \(lateCues) of \(cues) (largest \(maximumLateSamples) samples)",
            "a cue's moment is on screen within \(ms(cueToFrame)) of the cue sounding",
        ]
    }
}
