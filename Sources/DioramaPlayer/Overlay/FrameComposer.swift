import DioramaDocument
import DioramaTimeline

/// Puts one window frame together as a single snapshot: the current scene as a page (moved by the page offset
/// while dragging or sliding), the neighbouring scene beside it (or, during a scene change, the pages left,
/// beside it or beneath it), and the overlay on top.
///
/// Every scene is drawn as a page (`SnapshotContent.page`), at rest too: the renderer keeps each page's picture by its
/// id, so the page a scene change leaves is already drawn, and the page coming in goes on being drawn as it was
/// prepared. A page's id names its scene (`pageID(scene:)`), so a scene keeps its picture from rest into a slide and
/// back.
public enum FrameComposer {
    /// The id of the page showing the scene at `index` of the playlist.
    public static func pageID(scene index: Int) -> String { "page.\(index)" }

    /// A scene drawn as a page at `offset` points from rest, at `opacity`.
    public static func page(_ scene: Snapshot, offset: Double, id: String, opacity: Double = 1) -> NodeSnapshot {
        let bounds = Rect(x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height)
        return NodeSnapshot(id: id, transform: offset == 0 ? .identity : .translation(x: offset, y: 0), bounds: bounds,
                            opacity: opacity, content: .page(scene))
    }

    /// The frame: `scene` as the page `id` at `offset` points (0 at rest), `neighbour` (when the offset shows one)
    /// one canvas width beside it, then the overlay nodes.
    public static func compose(scene: Snapshot, id: String = "page", offset: Double = 0,
                               neighbour: (scene: Snapshot, id: String)? = nil, overlay: [NodeSnapshot] = []) -> Snapshot {
        var nodes = [page(scene, offset: offset, id: id)]
        if offset != 0, let neighbour {
            let side = offset > 0 ? -scene.canvas.width : scene.canvas.width
            nodes.append(page(neighbour.scene, offset: offset + side, id: neighbour.id))
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
