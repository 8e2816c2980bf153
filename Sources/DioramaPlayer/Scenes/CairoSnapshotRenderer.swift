import DioramaRender
import DioramaTimeline
import Foundation

/// The renderer module's cairo/pango `FrameRenderer`, as the player draws with it.
public final class CairoSnapshotRenderer: SnapshotRendering {
    public let renderer: FrameRenderer

    /// `imageDirectory`: the scenes file's folder, which image paths are relative to; `threads`: how many threads draw
    /// each frame (the same pixels as one: for large windows on several cores).
    public init(imageDirectory: String?, threads: Int = 1) {
        renderer = FrameRenderer(imageDirectory: imageDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }, threads: threads)
    }

    public func draw(_ snapshot: Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                     holdsLastFrame: Bool) throws {
        try renderer.render(snapshot, into: pixels, width: width, height: height, stride: stride, holdsLastFrame: holdsLastFrame)
    }
}
