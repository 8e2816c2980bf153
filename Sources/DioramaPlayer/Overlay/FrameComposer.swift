import DioramaDocument
import DioramaTimeline

/// Puts one window frame together as a single snapshot: the current scene (moved by the page offset
/// while dragging or sliding), the neighbouring scene beside it, and the overlay on top.
public enum FrameComposer {
    /// A scene drawn as a page: its background becomes a canvas-sized rectangle so it moves with the page.
    public static func page(_ scene: Snapshot, offset: Double, id: String) -> NodeSnapshot {
        let bounds = Rect(x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height)
        let background = NodeSnapshot(
            id: "\(id).background", bounds: bounds,
            content: .shape(ShapeSnapshot(geometry: .rect(bounds, cornerRadius: 0), fill: scene.background, stroke: nil)))
        return NodeSnapshot(id: id, transform: .translation(x: offset, y: 0), bounds: bounds,
                            content: .group([background] + scene.nodes))
    }

    /// The frame: `scene` at `offset` points (0 at rest), `neighbour` (when the offset shows one) one
    /// canvas width beside it, then the overlay nodes. Without an offset, the scene's own snapshot is
    /// kept as it is (so a frame without overlay equals a headless render of the scene).
    public static func compose(scene: Snapshot, offset: Double = 0, neighbour: Snapshot? = nil,
                               overlay: [NodeSnapshot] = []) -> Snapshot {
        if offset == 0 {
            return Snapshot(canvas: scene.canvas, background: scene.background, nodes: scene.nodes + overlay)
        }
        var nodes = [page(scene, offset: offset, id: "page.current")]
        if let neighbour {
            let side = offset > 0 ? -scene.canvas.width : scene.canvas.width
            nodes.append(page(neighbour, offset: offset + side, id: "page.neighbour"))
        }
        return Snapshot(canvas: scene.canvas, background: .solid(.black), nodes: nodes + overlay)
    }
}
