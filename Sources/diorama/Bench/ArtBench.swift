import DioramaDocument
import DioramaRender
import DioramaTimeline
import Foundation

extension RenderBench {
    /// A still SVG drawn full-frame: its cost per frame once its raster is cached, against a PNG of the same
    /// size, and its first frame (parsing and rasterizing). The node moves a pixel every other frame so the
    /// renderer's picture of still nodes does not hide the cost.
    static func benchVectorArt(svgPath: String, width: Int, height: Int) throws {
        guard FileManager.default.fileExists(atPath: svgPath) else { return }
        let canvas = Size(width: Double(width), height: Double(height))
        let rect = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        func snapshots(_ path: String) -> [Snapshot] {
            [0.0, 1.0].map { x in
                Snapshot(canvas: canvas, background: .solid(.black), nodes: [
                    NodeSnapshot(transform: Transform2D(a: 1, b: 0, c: 0, d: 1, tx: x, ty: 0), bounds: rect,
                                 content: .image(ImageContent(path: path, rect: rect)))])
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-bench-art-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = URL(fileURLWithPath: svgPath).deletingLastPathComponent()
        // The PNG: the SVG's own pixels at the same size.
        let pngPath = directory.appendingPathComponent("art.png").path
        try FrameRenderer(imageDirectory: root).render(snapshots(svgPath)[0], width: width, height: height)
            .writePNG(to: URL(fileURLWithPath: pngPath))

        func steadyCost(_ path: String) throws -> Double {
            let renderer = FrameRenderer(imageDirectory: root)
            let pair = snapshots(path)
            var costs: [Double] = []
            for index in 0..<106 {
                let start = threadCPUTime()
                _ = try renderer.render(pair[index % 2], width: width, height: height)
                if index >= 6 { costs.append(threadCPUTime() - start) }
            }
            return costs.sorted()[costs.count / 2]
        }
        var first: [Double] = []
        for _ in 0..<10 {
            let renderer = FrameRenderer(imageDirectory: root)
            let start = threadCPUTime()
            _ = try renderer.render(snapshots(svgPath)[0], width: width, height: height)
            first.append(threadCPUTime() - start)
        }
        let name = URL(fileURLWithPath: svgPath).lastPathComponent
        print("still SVG (\(name)) drawn full-frame at \(width)x\(height), CPU ms (median):")
        print(String(format: "  per frame, raster cached  %7.3f   PNG of the same size  %7.3f   first frame (parse + rasterize)  %7.3f",
                     try steadyCost(svgPath), try steadyCost(pngPath), first.sorted()[first.count / 2]))
    }
}
