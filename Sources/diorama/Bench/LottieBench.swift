import CCairo
import DioramaDocument
import DioramaLottie
import DioramaRender
import DioramaTimeline
import Foundation

/// What a `lottie` node costs over rlottie alone: the same file's frames rendered by rlottie into a buffer of the
/// output's size, and as a node filling a scene of that size (cairo composites the buffer over the background,
/// which the renderer keeps as a still picture and copies). The yardstick "one blit" is cairo compositing a
/// frame-sized premultiplied buffer over the frame, the least a node drawn over a background must do; a plain
/// memory copy of the frame is printed beside it.
enum LottieBench {
    /// The first Lottie node of the scenes, as (resolved path, content).
    static func firstLottie(in scenes: [Scene], baseDirectory: String) -> (path: String, content: LottieContent)? {
        func search(_ nodes: [Node]) -> LottieContent? {
            for node in nodes {
                if case .lottie(let lottie) = node.content { return lottie }
                if case .group(let group) = node.content, let found = search(group.children) { return found }
            }
            return nil
        }
        for scene in scenes {
            if let lottie = search(scene.nodes) {
                let path = lottie.path.hasPrefix("/") ? lottie.path : URL(fileURLWithPath: baseDirectory).appendingPathComponent(lottie.path).path
                return (path, lottie)
            }
        }
        return nil
    }

    /// Prints medians of CPU milliseconds per frame over every frame of the file, each the fastest of `passes`.
    static func compare(path: String, content: LottieContent, width: Int, height: Int, passes: Int) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let animation = try LottieAnimation(json: bytes, resourceDirectory: (path as NSString).deletingLastPathComponent)
        let frames = content.animation.outPoint - content.animation.inPoint
        var bare = [Double](repeating: .infinity, count: frames), node = bare, empty = bare, blit = bare, copy = bare

        let canvas = Size(width: Double(width), height: Double(height))
        let renderer = FrameRenderer(), emptyRenderer = FrameRenderer()
        var output = RenderedFrame(width: width, height: height)
        let still = RenderedFrame(width: width, height: height)
        for _ in 0..<max(passes, 1) {
            for frame in 0..<frames {
                var start = RenderBench.threadCPUTime()
                _ = animation.render(frame: frame, width: width, height: height)
                bare[frame] = min(bare[frame], RenderBench.threadCPUTime() - start)

                let snapshot = Snapshot(canvas: canvas, background: .solid(Color(red: 0.05, green: 0.06, blue: 0.12)), nodes: [
                    NodeSnapshot(bounds: Rect(x: 0, y: 0, width: canvas.width, height: canvas.height),
                                 content: .lottie(LottieSnapshot(path: path, rect: Rect(x: 0, y: 0, width: canvas.width, height: canvas.height),
                                                                 frame: content.animation.inPoint + frame, inPoint: content.animation.inPoint))),
                ])
                start = RenderBench.threadCPUTime()
                try output.bytes.withUnsafeMutableBytes { buffer in
                    try renderer.render(snapshot, into: buffer.baseAddress!, width: width, height: height, stride: width * 4)
                }
                node[frame] = min(node[frame], RenderBench.threadCPUTime() - start)

                // The same scene without the node: what the frame costs anyway (the background, copied).
                let background = Snapshot(canvas: canvas, background: snapshot.background, nodes: [])
                start = RenderBench.threadCPUTime()
                try output.bytes.withUnsafeMutableBytes { buffer in
                    try emptyRenderer.render(background, into: buffer.baseAddress!, width: width, height: height, stride: width * 4)
                }
                empty[frame] = min(empty[frame], RenderBench.threadCPUTime() - start)

                start = RenderBench.threadCPUTime()
                output.bytes.withUnsafeMutableBytes { target in still.bytes.withUnsafeBytes { target.copyMemory(from: $0) } }
                copy[frame] = min(copy[frame], RenderBench.threadCPUTime() - start)

                // The frame's own Lottie pixels composited over the frame by cairo, nothing else.
                if let pixels = animation.render(frame: frame, width: width, height: height) {
                    output.bytes.withUnsafeMutableBytes { target in
                        let source = cairo_image_surface_create_for_data(
                            UnsafeMutablePointer(mutating: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)),
                            CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))
                        let destination = cairo_image_surface_create_for_data(target.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                                              CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))
                        let cr = cairo_create(destination)
                        start = RenderBench.threadCPUTime()
                        cairo_set_source_surface(cr, source, 0, 0)
                        cairo_paint(cr)
                        cairo_surface_flush(destination)
                        blit[frame] = min(blit[frame], RenderBench.threadCPUTime() - start)
                        cairo_destroy(cr)
                        cairo_surface_destroy(destination)
                        cairo_surface_destroy(source)
                    }
                }
            }
        }
        func median(_ values: [Double]) -> Double {
            let sorted = values.filter(\.isFinite).sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }
        let (b, n, e, c, m) = (median(bare), median(node), median(empty), median(blit), median(copy))
        let overhead = n - e - b
        print("lottie \((path as NSString).lastPathComponent) at \(width)x\(height), \(frames) frames, CPU ms per frame (median, fastest of \(passes)):")
        print(String(format: "  rlottie alone %.3f   as a node in a scene %.3f   the scene without it %.3f   node overhead %+.3f   "
                     + "allowed (10 %% of rlottie + one %dx%d blit %.3f) %.3f   (a plain copy of the frame %.3f)",
                     b, n, e, overhead, width, height, c, b * 0.1 + c, m))
    }
}
