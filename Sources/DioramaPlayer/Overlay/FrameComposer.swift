import DioramaDocument
import DioramaTimeline

/// Puts one window frame together as a single snapshot: the current scene (moved by the page offset
/// while dragging or sliding), the neighbouring scene beside it (or, during a scene change, the pages left,
/// beside it or beneath it), and the overlay on top.
public enum FrameComposer {
    /// A scene drawn as a page: its background becomes a canvas-sized rectangle so it moves with the page,
    /// and a clip to the canvas cuts off whatever its nodes draw beyond its edges (a tree reaching past the edge would
    /// otherwise be drawn over the page beside it). A rectangle clip, not a gradient mask, which would draw the whole page
    /// into a layer of its own first.
    public static func page(_ scene: Snapshot, offset: Double, id: String, opacity: Double = 1) -> NodeSnapshot {
        let bounds = Rect(x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height)
        let background = NodeSnapshot(
            id: "\(id).background", bounds: bounds,
            content: .shape(ShapeSnapshot(geometry: .rect(bounds, cornerRadius: 0), fill: scene.background, stroke: nil)))
        return NodeSnapshot(id: id, transform: .translation(x: offset, y: 0), bounds: bounds, opacity: opacity,
                            content: .group([background] + scene.nodes), clipShape: .rect(bounds, cornerRadius: 0))
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

    /// One page of a scene change's frame: a scene at `offset` points from rest, drawn at `opacity` over what is beneath.
    public struct Page: Sendable {
        public var scene: Snapshot
        public var offset: Double
        public var opacity: Double
        /// The page's node id, distinct within the frame.
        public var id: String

        public init(_ scene: Snapshot, offset: Double = 0, opacity: Double = 1, id: String) {
            self.scene = scene
            self.offset = offset
            self.opacity = opacity
            self.id = id
        }
    }

    /// A scene change's frame: `pages` in order, each over the ones before it (those a canvas width or more off the
    /// canvas, or fully transparent, are left out), on black, then the overlay nodes.
    public static func compose(pages: [Page], canvas: Size, overlay: [NodeSnapshot] = []) -> Snapshot {
        let nodes = pages.compactMap { page -> NodeSnapshot? in
            guard abs(page.offset) < canvas.width, page.opacity > 0 else { return nil }
            return self.page(page.scene, offset: page.offset, id: page.id, opacity: min(page.opacity, 1))
        }
        return Snapshot(canvas: canvas, background: .solid(.black), nodes: nodes + overlay)
    }
}
