import DioramaDocument
import DioramaTimeline
@testable import DioramaPlayer

/// A tiny software renderer for tests without cairo: the background's and solid rect
/// fills' colours only (gradients use their first stop; ellipses fill their bounding box; text,
/// particles and images are skipped), with translations and scales. Letterboxed like the real one.
final class FlatRenderer: SnapshotRendering {
    init() {}

    func draw(_ snapshot: Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
              holdsLastFrame: Bool) {
        let rows = pixels.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            (rows + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0.update(repeating: 0xFF00_0000, count: width) }
        }
        let letterbox = Letterbox(canvas: snapshot.canvas, window: Size(width: Double(width), height: Double(height)))
        let viewport = letterbox.viewport
        let scale = letterbox.scale
        let toPixels = Transform2D(a: scale, b: 0, c: 0, d: scale, tx: viewport.x, ty: viewport.y)
        let canvasRect = Rect(x: 0, y: 0, width: snapshot.canvas.width, height: snapshot.canvas.height)
        fill(canvasRect, paint: snapshot.background, transform: toPixels, clip: viewport, rows: rows, stride: stride)
        for node in snapshot.nodes { draw(node, parent: toPixels, clip: viewport, rows: rows, stride: stride) }
    }

    private func draw(_ node: NodeSnapshot, parent: Transform2D, clip: Rect, rows: UnsafeMutablePointer<UInt8>, stride: Int) {
        let transform = node.transform.concatenating(parent)
        switch node.content {
        case .group(let children):
            for child in children { draw(child, parent: transform, clip: clip, rows: rows, stride: stride) }
        case .shape(let shape):
            guard let paint = shape.fill else { return }
            switch shape.geometry {
            case .rect(let rect, _):
                fill(rect, paint: paint, transform: transform, clip: clip, rows: rows, stride: stride, opacity: node.opacity)
            case .ellipse(let center, let rx, let ry):
                fill(Rect(x: center.x - rx, y: center.y - ry, width: 2 * rx, height: 2 * ry), paint: paint,
                     transform: transform, clip: clip, rows: rows, stride: stride, opacity: node.opacity)
            case .path:
                return
            }
        case .page(let page):
            // Its background and nodes, cut to its canvas where the page is placed.
            let canvas = Rect(x: 0, y: 0, width: page.canvas.width, height: page.canvas.height)
            let corner1 = transform.apply(to: Point(x: 0, y: 0))
            let corner2 = transform.apply(to: Point(x: canvas.width, y: canvas.height))
            let x0 = max(clip.x, min(corner1.x, corner2.x)), x1 = min(clip.x + clip.width, max(corner1.x, corner2.x))
            let y0 = max(clip.y, min(corner1.y, corner2.y)), y1 = min(clip.y + clip.height, max(corner1.y, corner2.y))
            guard x1 > x0, y1 > y0 else { return }
            let pageClip = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            fill(canvas, paint: page.background, transform: transform, clip: pageClip, rows: rows, stride: stride, opacity: node.opacity)
            for child in page.nodes { draw(child, parent: transform, clip: pageClip, rows: rows, stride: stride) }
        case .text, .particles, .image, .lottie, .projected:
            return
        }
    }

    private func fill(_ rect: Rect, paint: Paint, transform: Transform2D, clip: Rect,
                      rows: UnsafeMutablePointer<UInt8>, stride: Int, opacity: Double = 1) {
        let color: Color
        switch paint {
        case .solid(let solid): color = solid
        case .linear(let stops, _, _), .radial(let stops, _, _, _), .angular(let stops, _, _, _):
            color = stops.first?.color ?? .clear
        }
        let alpha = color.alpha * opacity
        guard alpha > 0 else { return }
        let corner1 = transform.apply(to: Point(x: rect.x, y: rect.y))
        let corner2 = transform.apply(to: Point(x: rect.x + rect.width, y: rect.y + rect.height))
        let x0 = Int(max(clip.x, min(corner1.x, corner2.x)).rounded()), x1 = Int(min(clip.x + clip.width, max(corner1.x, corner2.x)).rounded())
        let y0 = Int(max(clip.y, min(corner1.y, corner2.y)).rounded()), y1 = Int(min(clip.y + clip.height, max(corner1.y, corner2.y)).rounded())
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            (rows + y * stride).withMemoryRebound(to: UInt32.self, capacity: x1) { row in
                for x in x0..<x1 { row[x] = Self.blend(color, alpha: alpha, over: row[x]) }
            }
        }
    }

    /// Source-over of a straight-alpha colour on a premultiplied ARGB32 pixel.
    static func blend(_ color: Color, alpha: Double, over pixel: UInt32) -> UInt32 {
        func channel(_ source: Double, _ shift: UInt32) -> UInt32 {
            let destination = Double((pixel >> shift) & 0xFF) / 255
            return UInt32(((source * alpha + destination * (1 - alpha)) * 255).rounded()) << shift
        }
        let destinationAlpha = Double(pixel >> 24) / 255
        let outAlpha = UInt32(((alpha + destinationAlpha * (1 - alpha)) * 255).rounded()) << 24
        return outAlpha | channel(color.red, 16) | channel(color.green, 8) | channel(color.blue, 0)
    }
}

/// A scene source for tests without the timeline: each scene's background, and a
/// white bar along the bottom whose width is the fraction of the scene elapsed, so the scene time
/// can be read from the pixels.
final class ClockSceneSource: SceneSource {
    init() {}

    func snapshot(of document: Document, scene: Int, time: Double, language: String) -> Snapshot {
        let canvas = Size(width: document.canvas.width, height: document.canvas.height)
        let definition = document.scenes[scene]
        let fraction = min(max(time / definition.duration.doubleValue, 0), 1)
        let bar = Rect(x: 0, y: canvas.height * 0.9, width: canvas.width * fraction, height: canvas.height * 0.1)
        let node = NodeSnapshot(id: "clock", bounds: bar,
                                content: .shape(ShapeSnapshot(geometry: .rect(bar, cornerRadius: 0), fill: .solid(.white), stroke: nil)))
        return Snapshot(canvas: canvas, background: definition.background ?? document.canvas.background, nodes: [node])
    }
}

extension Snapshot {
    /// The nodes of the scene on the frame's first page (the current scene at rest).
    var sceneNodes: [NodeSnapshot] {
        for node in nodes { if case .page(let scene) = node.content { return scene.nodes } }
        return []
    }
}
