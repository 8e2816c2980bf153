/// A video file ffmpeg can write: its container, codecs and quality scale.
public enum VideoFormat: String, Sendable, CaseIterable {
    /// H.264 video and AAC sound in MP4: plays everywhere.
    case mp4
    /// VP9 video and Opus sound in WebM: the web's open format.
    case webm
    /// An animated GIF: no sound, 256 colours from a palette made in a first pass over the frames.
    case gif

    /// The format a file name's extension asks for (`show.mp4`, `SHOW.WebM`), or nil.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        let suffix = fileName[fileName.index(after: dot)...].lowercased()
        switch suffix {
        case "mp4", "m4v": self = .mp4
        case "webm": self = .webm
        case "gif": self = .gif
        default: return nil
        }
    }

    public var hasSound: Bool { self != .gif }

    /// What the file holds, for messages: "H.264 + AAC in MP4".
    public var summary: String {
        switch self {
        case .mp4: "H.264 + AAC in MP4"
        case .webm: "VP9 + Opus in WebM"
        case .gif: "animated GIF"
        }
    }

    /// The encoder's constant-rate-factor scale (lower is better and bigger), or nil when quality is not a CRF.
    public var qualityRange: ClosedRange<Int>? {
        switch self {
        case .mp4: 0...51
        case .webm: 0...63
        case .gif: nil
        }
    }

    /// The CRF used without `--quality`: visually clean for flat, animated artwork.
    public var defaultQuality: Int? {
        switch self {
        case .mp4: 20
        case .webm: 32
        case .gif: nil
        }
    }

    /// Whether the codec needs even widths and heights (4:2:0 chroma is subsampled by two).
    public var needsEvenSize: Bool { self != .gif }

    /// The pixels the encoder is fed: Y'CbCr made on the rendering threads, or RGB for the GIF palette.
    public var pixelFormat: VideoPixelFormat { self == .gif ? .bgra : .yuv420pBT709 }

    /// ffmpeg's muxer name.
    var muxer: String { rawValue }

    /// Options before the sound input (`-i pipe:4`): where its first sample goes on the file's timeline.
    ///
    /// Opus encodes with a lookahead of 6.5 ms (its pre-skip, 312 samples at 48 kHz, the same time at every rate
    /// it takes): its first packet is stamped 6.5 ms before the first sample it carries. WebM cannot store a
    /// negative time, so ffmpeg shifted everything by its millisecond rounding (7 ms) and a player, which drops the
    /// pre-skip and aligns the streams by their stamps, heard the sound 7 ms before the first frame. Stamping the
    /// sound's first sample at 6.5 ms puts its first packet at exactly 0 with the first frame, and the samples a
    /// player keeps after the pre-skip start at 0 too. AAC's priming is written as an edit list in MP4 instead.
    var soundInputArguments: [String] {
        switch self {
        case .webm: ["-itsoffset", "0.0065"]
        case .mp4, .gif: []
        }
    }

    /// Output options after the inputs (video is input 0, sound input 1).
    func encodingArguments(quality: Int) -> [String] {
        switch self {
        case .mp4:
            // `veryfast` keeps x264 ahead of the renderer on a few cores; CRF holds the quality.
            ["-map", "0:v", "-map", "1:a",
             "-c:v", "libx264", "-preset", "veryfast", "-crf", String(quality),
             "-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart"]
        case .webm:
            ["-map", "0:v", "-map", "1:a",
             "-c:v", "libvpx-vp9", "-crf", String(quality), "-b:v", "0", "-deadline", "realtime", "-cpu-used", "8",
             "-row-mt", "1",
             "-c:a", "libopus", "-b:a", "160k"]
        case .gif:
            []
        }
    }
}
