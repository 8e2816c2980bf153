/// Why an export stopped. Nothing is left under the requested name in any of these cases.
public enum VideoExportError: Error, Sendable, CustomStringConvertible {
    /// The ffmpeg program is not installed (or cannot be started).
    case ffmpegMissing(String)
    /// ffmpeg exited with `status` (128 + N for signal N); `lines` are its last words on standard error.
    case ffmpegFailed(status: Int32, lines: [String])
    /// ffmpeg closed its input early; becomes `ffmpegFailed` once its exit status is known.
    case ffmpegStoppedReading
    /// The export was interrupted (Ctrl-C).
    case cancelled
    /// The requested file appeared while exporting and replacing it was not allowed.
    case destinationExists(String)
    /// A frame could not be drawn.
    case render(String)
    /// The system refused something (a pipe, a rename).
    case system(String)

    public var description: String {
        switch self {
        case .ffmpegMissing(let message): message
        case .ffmpegFailed(let status, let lines):
            "ffmpeg failed (\(status > 128 ? "killed by signal \(status - 128)" : "exit status \(status)"))"
                + (lines.isEmpty ? "" : ":\n" + lines.map { "  ffmpeg: " + $0 }.joined(separator: "\n"))
        case .ffmpegStoppedReading: "ffmpeg stopped reading its input"
        case .cancelled: "interrupted"
        case .destinationExists(let path): "\(path) appeared while exporting; it was left as it is"
        case .render(let message): message
        case .system(let message): message
        }
    }
}
