import DioramaDocument
import DioramaTimeline

/// Puts one window frame together as a single snapshot: the current scene (moved by the page offset
/// while dragging or sliding), the neighbouring scene beside it, and the overlay on top.
public enum FrameComposer {
    /// A scene drawn as a page: its background becomes a canvas-sized rectangle so it moves with the page,
    /// and a mask cuts off whatever its nodes draw beyond the canvas's left and right edges (a tree reaching
    /// past the edge would otherwise be drawn over the page beside it).
    public static func page(_ scene: Snapshot, offset: Double, id: String) -> NodeSnapshot {
        let bounds = Rect(x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height)
        let background = NodeSnapshot(
            id: "\(id).background", bounds: bounds,
            content: .shape(ShapeSnapshot(geometry: .rect(bounds, cornerRadius: 0), fill: scene.background, stroke: nil)))
        return NodeSnapshot(id: id, transform: .translation(x: offset, y: 0), bounds: bounds, mask: pageMask,
                            content: .group([background] + scene.nodes))
    }

    /// Opaque from the bounds' leading edge to their trailing edge, clear a thousandth of the width beyond
    /// them (gradients keep their end colours past their ends).
    static let pageMask: Paint = {
        let beyond = 0.001, edge = beyond / (1 + 2 * beyond)
        return .linear(stops: [GradientStop(location: 0, color: .clear), GradientStop(location: edge, color: .white),
                               GradientStop(location: 1 - edge, color: .white), GradientStop(location: 1, color: .clear)],
                       start: UnitPoint(x: -beyond, y: 0.5), end: UnitPoint(x: 1 + beyond, y: 0.5))
    }()

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
