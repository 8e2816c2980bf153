import DioramaRender
import DioramaTimeline
import Foundation

/// The renderer module's cairo/pango `FrameRenderer`, as the player draws with it.
public final class CairoSnapshotRenderer: SnapshotRendering {
    public let renderer: FrameRenderer

    /// `imageDirectory`: the scenes file's folder, which image paths are relative to.
    public init(imageDirectory: String?) {
        renderer = FrameRenderer(imageDirectory: imageDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) })
    }

    public func draw(_ snapshot: Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) throws {
        try renderer.render(snapshot, into: pixels, width: width, height: height, stride: stride)
    }
}
