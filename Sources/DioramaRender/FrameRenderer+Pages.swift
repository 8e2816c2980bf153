import CCairo
import DioramaDocument
import DioramaTimeline

// Pages: a top-level node whose content is a whole scene (`SnapshotContent.page`, the player's pages) is drawn into a
// picture of its own, kept by the node's id from frame to frame, and the frame copies that picture into place. A
// page's picture is drawn as a frame is: with a history of its own (still prefixes, the last drawing and what changed
// since), so a page that moves or fades costs a copy of its pixels, a page left behind at a scene change costs nothing
// more to draw, and the scene on a page costs what it costs as a frame of its own. Only what changed in a page that
// held its place is copied again into the frame (`pageDamage`).
//
// Pixels: a picture holds the page drawn at the frame's size exactly as the frame would draw the scene, so a page at
// rest is byte-identical to the scene drawn as the frame; a page moved by whole pixels is that picture moved.

/// A page drawn at the frame's size into pixels of its own, with what lets its next drawing draw only what changed.
final class PagePicture {
    let width: Int
    let height: Int
    let pixels: UnsafeMutableRawPointer
    var history = FrameHistory()
    /// The page the pixels hold (nil until drawn whole, and after a failed drawing).
    var page: Snapshot?
    /// The areas its last drawing changed (empty: none; nil: all of it).
    var damage: [PixelRect]?
    /// The last frame (`FrameRenderer.pageFrames`) that showed it.
    var shownInFrame = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = .allocate(byteCount: width * height * 4, alignment: 16)
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: width * height * 4)
    }

    deinit { pixels.deallocate() }
}

extension FrameRenderer {
    /// Frames a picture is kept without being shown: a page coming in is left out of a frame while it is still beyond
    /// the frame's edge (or fully transparent), and its picture must wait for it.
    static let framesPicturesWait = 2

    /// Brings the pictures of `snapshot`'s top-level pages up to date at `width`×`height` (drawing only what changed
    /// in each since its last drawing) and forgets the pictures of pages no frame showed for a while.
    func drawPages(of snapshot: Snapshot, width: Int, height: Int) throws {
        guard !drawingPage else { return }
        pageFrames += 1
        var shown: Set<String> = []
        for node in snapshot.nodes {
            guard case .page(let page) = node.content, let id = node.id, shown.insert(id).inserted else { continue }
            let picture: PagePicture
            if let kept = pagePictures[id], kept.width == width, kept.height == height {
                picture = kept
            } else {
                picture = PagePicture(width: width, height: height)
                pagePictures[id] = picture
            }
            picture.shownInFrame = pageFrames
            guard picture.page != page else {
                picture.damage = []
                continue
            }
            picture.page = nil
            swap(&history, &picture.history)
            drawingPage = true
            defer {
                drawingPage = false
                swap(&history, &picture.history)
            }
            try render(page, into: picture.pixels, width: width, height: height, stride: width * 4, holdsLastFrame: true)
            picture.damage = statistics.lastDamage
            picture.page = page
            statistics.drawnPages += 1
        }
        if pagePictures.count > shown.count {
            pagePictures = pagePictures.filter { pageFrames - $0.value.shownInFrame <= Self.framesPicturesWait }
        }
        // The threads draw parts of the frame with these pictures: they only read them while the frame is drawn.
        if threads > 1 { for helper in helpers { helper.pagePictures = pagePictures } }
    }

    /// Takes the pictures of `other`'s pages that this renderer has none of, or that `other` drew later: a renderer
    /// taking over from another at a scene change keeps the page being left as it was drawn.
    public func adoptPages(of other: FrameRenderer) {
        for (id, picture) in other.pagePictures where picture.page != nil {
            // Shown last by this renderer's count.
            picture.shownInFrame = pageFrames
            // A page left holds still: its still prefixes would only hold memory (two frames' worth, 66 MB at 4K).
            // Drawn again (its scene shown again), it is drawn whole once.
            picture.history = FrameHistory()
            pagePictures[id] = picture
        }
        other.pagePictures = [:]
        if threads > 1 { for helper in helpers { helper.pagePictures = pagePictures } }
    }

    /// Bytes of frame-sized pixels this renderer holds to draw the next frame with: still prefixes, the last frame's
    /// copy, and its pages' pictures with theirs (not its art's caches, which `vectorRasters` and others bound).
    public var heldFrameBytes: Int {
        pagePictures.values.reduce(history.heldBytes) { $0 + $1.width * $1.height * 4 + $1.history.heldBytes }
    }

    /// The picture a top-level page node is drawn from, when it holds that page.
    func picture(of node: NodeSnapshot) -> PagePicture? {
        guard case .page(let page) = node.content, let id = node.id, let picture = pagePictures[id],
              picture.page == page else { return nil }
        return picture
    }

    /// Draws a page: its picture copied into place when it has one and the page is placed as the picture was drawn
    /// (the frame's scale, moved only); otherwise its background and nodes, clipped to its canvas.
    func drawPage(_ node: NodeSnapshot, _ page: Snapshot, alpha: Double, in cr: OpaquePointer) {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        if let picture = picture(of: node), clipShapes.isEmpty {
            let placement = CanvasPlacement(canvas: page.canvas, outputWidth: picture.width, outputHeight: picture.height)
            if matrix.xy == 0, matrix.yx == 0, matrix.xx == placement.scale, matrix.yy == placement.scale {
                let surface = cairo_image_surface_create_for_data(picture.pixels.assumingMemoryBound(to: UInt8.self),
                                                                  CAIRO_FORMAT_ARGB32, Int32(picture.width),
                                                                  Int32(picture.height), Int32(picture.width * 4))!
                let x = matrix.x0 - placement.originX, y = matrix.y0 - placement.originY
                cairo_save(cr)
                cairo_identity_matrix(cr)
                if x != 0 || y != 0 {
                    // Moved, it is cut to its canvas as the frame is (whole-pixel right and bottom edges); at rest its
                    // letterbox is the frame's, and it is copied whole, pixel for pixel.
                    let right = (placement.originX + placement.width).rounded(), bottom = (placement.originY + placement.height).rounded()
                    cairo_new_path(cr)
                    cairo_rectangle(cr, placement.originX + x, placement.originY + y, right - placement.originX,
                                    bottom - placement.originY)
                    cairo_clip(cr)
                }
                cairo_set_source_surface(cr, surface, x, y)
                if alpha < 1 { cairo_paint_with_alpha(cr, alpha) } else { cairo_paint(cr) }
                cairo_restore(cr)
                statistics.copiedPages += 1
                cairo_surface_finish(surface)
                cairo_surface_destroy(surface)
                return
            }
        }
        // No picture (a page inside a page, or one placed otherwise): drawn as the scene it holds, cut to its canvas.
        let bounds = Rect(x: 0, y: 0, width: page.canvas.width, height: page.canvas.height)
        let background = NodeSnapshot(bounds: bounds, content: .shape(ShapeSnapshot(geometry: .rect(bounds, cornerRadius: 0),
                                                                                     fill: page.background, stroke: nil)))
        draw(NodeSnapshot(bounds: bounds, opacity: alpha, content: .group([background] + page.nodes),
                          clipShape: .rect(bounds, cornerRadius: 0)), in: cr)
    }

    /// The areas of the frame a page changed, when only what it shows changed (same id, place and opacity) and its
    /// picture knows what changed in it: a page at rest, its scene playing, copies only those areas again.
    func pageDamage(old: NodeSnapshot, new: NodeSnapshot) -> [PixelRect]? {
        guard case .page = old.content, case .page = new.content, new.transform == .identity,
              let picture = picture(of: new), let damage = picture.damage else { return nil }
        var oldPlace = old, newPlace = new
        oldPlace.content = .group([])
        newPlace.content = .group([])
        return oldPlace == newPlace ? damage : nil
    }
}

