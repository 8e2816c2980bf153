import CCairo
import DioramaDocument
import DioramaFiles
import DioramaTimeline
import DioramaVectorArt
import Foundation

/// Draws snapshots into premultiplied ARGB32 pixels with cairo and pango, with SwiftUI's meaning:
/// transforms composed in order, opacity multiplying down the tree (a node with effects is drawn as
/// one layer), hue rotation, blur and shadow on the node's layer only, gradient masks, trimmed and
/// dashed strokes, text, particles and PNG images. The canvas is scaled uniformly to the output and
/// letterboxed with black. Who paints each leaf, our own rasterizing or cairo's, and why, is decided in one place:
/// `route(of:matrix:clipped:)` (PaintRoute.swift).
///
/// Deterministic: the same snapshot and output size give byte-identical pixels, whatever was drawn
/// before (caches only ever hold pixels that drawing afresh would produce).
///
/// Not thread-safe: it owns caches (fonts, sprites, images, the static part of the last frame).
/// Use one renderer per thread. With `threads` above 1, it draws each frame on that many threads itself
/// (FrameRenderer+Threads.swift), with the same pixels.
///
/// ```swift
/// let renderer = FrameRenderer(imageDirectory: loaded.baseDirectory)
/// let frame = try renderer.render(snapshot, width: 1280, height: 720)
/// try frame.writePNG(to: URL(fileURLWithPath: "frame.png"))
/// ```
public final class FrameRenderer {
    /// Relative image paths in snapshots are resolved against this directory (the scenes file's).
    public let imageDirectory: URL?
    /// Problems met while drawing that did not stop the frame (a missing image), each reported once.
    public private(set) var warnings: [String] = []

    let textLayouts: TextLayoutCache
    /// Degrees of hue rotation applied to every paint while drawing the current subtree (see `draw`).
    var paintHue = 0.0
    let sprites = ParticleSpriteCache()
    /// The pictures of drawings turned in depth, kept while they stay the same (Rotation3DDrawing.swift).
    let projectedPictures = ProjectedPictures()
    /// The quick shadows' working cells (ShadowDrawing.swift).
    let shadowScratch = ShadowScratch()
    /// pixman images kept from fill to fill: over the target's pixels, and solid colours.
    let pixmanImages = PixmanImages()
    /// Which of its own ways the renderer takes where cairo has one too, and their limits (see `DrawingChoices`).
    var choices = DrawingChoices()
    private var images: [String: OpaquePointer?] = [:]
    /// Image paths as snapshots give them -> made absolute against `imageDirectory` (built once, not every frame).
    private var resolvedPaths: [String: String] = [:]
    /// SVG drawings by resolved path (nil: refused, with a warning), and their rasters (see ImageDrawing+Art.swift).
    var vectorArt: [String: VectorArt?] = [:]
    let vectorRasters = VectorArtRasterCache()
    /// Storage kept from paint to paint, each by what uses it: scan conversion (SolidFill.swift), paints through a
    /// coverage (GradientFill.swift), strokes and trims (StrokeOutline.swift), resampled pictures
    /// (ImageDrawing+Resample.swift).
    var fillScratch = FillScratch()
    var coverageScratch = CoverageScratch()
    var strokeScratch = StrokeScratch()
    var resampleScratch = ResampleScratch()
    /// The clip shapes around the node being drawn (outermost first), each with the matrix it was set under, and the
    /// whole-pixel rectangles that clipped the context before the first of them (nil when they are not whole pixels):
    /// a fill through a coverage is cut by the same shapes (GradientFill.swift).
    var clipShapes: [(geometry: Geometry, matrix: cairo_matrix_t)] = []
    var clipBase: [PixelRect]?
    /// The clip of drawFrame's context, read once for a run of top-level nodes (see `RunClip`).
    var runClip = RunClip()
    /// The device pixels of the frame being drawn (set by `drawFrame`, and for helpers drawing layers of it).
    var frameBounds: PixelRect?
    /// Lottie animations by resolved path, each with its last rendered frame.
    let lotties = LottieCache()
    /// A 1×1 context for measuring paths outside of drawing.
    let measuringSurface: OpaquePointer
    let measuring: OpaquePointer

    /// What this renderer kept of the frames it drew (see `FrameHistory`); each page picture keeps its own.
    var history = FrameHistory()
    /// The pictures of the pages of the last frame, by page id (FrameRenderer+Pages.swift).
    var pagePictures: [String: PagePicture] = [:]
    /// Frames drawn with pages counted (`PagePicture.shownInFrame`).
    var pageFrames = 0
    /// True while a page's picture is drawn: a page within it is drawn as its scene.
    var drawingPage = false
    /// Frames drawn whole without working out damage, between checks (see `FrameHistory.wholeFrames`).
    static let wholeFramesBetweenChecks = 8
    /// False draws every frame whole (the reference the damage tests compare with).
    var usesDamage = true
    /// What this renderer's own ways drew, counted for tests and benches (see `RenderStatistics`).
    var statistics = RenderStatistics()
    /// `statistics.occludedParts` of this renderer and its helpers.
    var occludedPartsOnAllThreads: Int {
        statistics.occludedParts + (threads > 1 ? helpers.map(\.statistics.occludedParts).reduce(0, +) : 0)
    }

    /// True while preparing a scene ahead: parts meant for the threads are drawn on the calling thread, each by this
    /// renderer and every helper (FrameRenderer+Preparation.swift).
    var drawsPartsWithEveryWorker = false

    /// Threads drawing each frame (1: the calling thread alone).
    public let threads: Int
    /// Renderers drawing parts of frames on the other threads (each with its own caches and font map).
    lazy var helpers: [FrameRenderer] = (1..<threads).map { _ in
        FrameRenderer(imageDirectory: imageDirectory, threads: 1, privateFontMap: true)
    }

    /// True while this renderer draws the only part of a frame: its helpers are free to draw siblings in layers.
    var helpersIdle = false
    /// Frame-sized layers for siblings drawn on the threads (FrameRenderer+Layers.swift), kept between frames.
    var siblingLayers: [OpaquePointer] = []
    /// The least share of the target the boxes of a run of siblings cover for the run to be drawn in layers.
    var smallestLayeredShare = 0.125

    public convenience init(imageDirectory: URL? = nil, threads: Int = 1) {
        self.init(imageDirectory: imageDirectory, threads: threads, privateFontMap: threads > 1)
    }

    /// `privateFontMap`: a font map of its own instead of the calling thread's default one (pango's font maps are not
    /// thread-safe): for a renderer made on one thread and drawing on another, as a scene prepared ahead is.
    public init(imageDirectory: URL?, threads: Int, privateFontMap: Bool) {
        self.imageDirectory = imageDirectory
        self.threads = max(1, threads)
        textLayouts = TextLayoutCache(privateFontMap: privateFontMap)
        measuringSurface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        measuring = cairo_create(measuringSurface)
    }

    deinit {
        for case let surface? in images.values { cairo_surface_destroy(surface) }
        for layer in siblingLayers { cairo_surface_destroy(layer) }
        cairo_destroy(measuring)
        cairo_surface_destroy(measuringSurface)
    }

    /// Forgets every picture of earlier frames (still prefixes, the last frame and its footprints, the target): the
    /// next frame is drawn whole, as by a new renderer, with the caches of art kept.
    func forgetFrames() {
        history = FrameHistory()
        pagePictures = [:]
    }

    /// The areas of the pixels the last render wrote, in pixels, when it wrote only those over the last frame it had
    /// drawn there (the caller vouched for them: `holdsLastFrame`); nil when it wrote all of them. A window showing
    /// those pixels needs only these areas sent to the screen.
    public internal(set) var lastWrittenAreas: [Rect]?

    /// Forgets the pixels the last frame was rendered into (they are gone): the next render does not draw over them.
    func forgetTarget() { history.lastTarget = nil }

    /// Renders a snapshot into a new frame of `width`×`height` pixels.
    public func render(_ snapshot: Snapshot, width: Int, height: Int) throws -> RenderedFrame {
        var frame = RenderedFrame(width: width, height: height)
        try frame.bytes.withUnsafeMutableBytes { buffer in
            try render(snapshot, into: buffer.baseAddress!, width: width, height: height, stride: width * 4)
        }
        return frame
    }

    /// Renders a snapshot into caller-owned pixels (e.g. a locked SDL texture): all of them are the frame afterwards.
    /// - Parameters:
    ///   - pixels: `height` rows of `stride` bytes, premultiplied ARGB32 (SDL_PIXELFORMAT_ARGB8888).
    ///   - stride: bytes per row; at least `width × 4` and a multiple of 4.
    ///   - holdsLastFrame: the caller's word that `pixels` still hold, untouched, what this renderer drew into them
    ///     last (a window surface drawn again, a buffer reused frame after frame). Then only the areas that changed
    ///     are written; a whole frame's copy otherwise. Ignored when the last render went to other pixels.
    public func render(_ snapshot: Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int,
                       stride: Int, holdsLastFrame: Bool = false) throws {
        lastWrittenAreas = nil
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw RenderError("cannot render a \(width)x\(height) frame: width and height must be 1...16384 pixels")
        }
        guard stride >= width * 4, stride % 4 == 0 else {
            throw RenderError("a stride of \(stride) bytes cannot hold \(width) ARGB32 pixels per row")
        }
        // SVG rasters: room for a few frames' worth of this output size (a full-canvas drawing at 4K is 33 MB).
        vectorRasters.ensureCapacity(8 * width * height * 4)
        // Helpers must cache the same drawings (one too large to cache is drawn as vectors, with other pixels).
        if threads > 1 {
            for helper in helpers {
                helper.vectorRasters.ensureCapacity(8 * width * height * 4)
                // Helpers must draw as this renderer decides clip-safety: every choice at once.
                helper.choices = choices
            }
        }
        try drawPages(of: snapshot, width: width, height: height)
        lastWrittenAreas = nil
        let key = FrameKey(width: width, height: height, canvas: snapshot.canvas, background: snapshot.background)
        let unchanged = history.previousFrame.map { $0.key == key ? commonPrefixCount(snapshot.nodes, $0.nodes) : 0 } ?? 0
        history.unchangedRun = unchanged == history.unchangedRun.count ? (unchanged, history.unchangedRun.frames + 1) : (unchanged, 1)
        // Drop pictures that no longer match (their key changed or a node of theirs moved).
        history.staticPrefixes.removeAll { $0.key != key || !snapshot.nodes.starts(with: $0.nodes) }
        // A longer prefix is worth a picture once it has held still for a few frames in a row.
        history.recentUnchanged = Array((history.recentUnchanged + [unchanged]).suffix(3))
        let held = history.unchangedRun.frames >= 3 ? history.unchangedRun.count : (history.recentUnchanged.count == 3 ? history.recentUnchanged.min()! : 0)
        // Pages are pictures already: a still prefix holding one would be a second copy of its pixels.
        let stable = min(held, snapshot.nodes.firstIndex { if case .page = $0.content { true } else { false } } ?? held)
        if history.staticPrefixes.isEmpty || stable > history.staticPrefixes.last!.nodes.count {
            // Two frame-sized pictures at most: two still prefixes, or one and the last frame (peak memory).
            if history.staticPrefixes.count >= (history.lastFrame == nil ? 2 : 1) { history.staticPrefixes.removeFirst() }
            let nodes = snapshot.nodes.prefix(stable)
            history.staticPrefixes.append(try StaticPrefix.drawn(key: key, nodes: Array(nodes)) { surface in
                try drawFrame(snapshot, nodes: nodes, on: surface, clearing: true)
            })
            // Damage is looked at again now, not at the next eighth frame: a still background that joins the prefix
            // stops widening areas (the flower's first ten frames were whole while its prefix settled).
            history.wholeFrames = 0
        }
        let prefix = history.staticPrefixes.last!
        let target = Target(pixels: pixels, stride: stride, key: key)
        let targetIsCurrent = holdsLastFrame && history.lastTarget == target
        history.lastTarget = nil
        do {
            try drawChanges(snapshot, key: key, prefix: prefix, into: pixels, stride: stride, targetIsCurrent: targetIsCurrent,
                            holdsLastFrame: holdsLastFrame)
        } catch {
            // Half drawn: the next frame starts afresh. Its footprints belong to no frame kept as the last one
            // (`history.previousFrame` is the frame before), so none is reused.
            history.lastFrameIsCurrent = false
            history.lastFootprints = []
            throw error
        }
        history.lastTarget = target
        history.previousFrame = (key, snapshot.nodes)
    }

    /// Where a frame was rendered: pixels that hold it whole while their owner leaves them alone.
    struct Target: Equatable {
        var pixels: UnsafeMutableRawPointer
        var stride: Int
        var key: FrameKey
    }

    /// Draws the frame into `pixels`: when the last frame is at hand and only small areas changed since, as the last
    /// frame with those areas drawn again (see FrameDamage.swift); otherwise whole, as the still prefix and the nodes
    /// after it. The last frame is at hand in `pixels` themselves when the caller vouches for them
    /// (`targetIsCurrent`); otherwise in a copy this renderer keeps, only while the changes from frame to frame stay
    /// small and the caller keeps nothing (`holdsLastFrame` false), so scenes that change everywhere pay nothing for
    /// damage and a vouched buffer costs no copies.
    private func drawChanges(_ snapshot: Snapshot, key: FrameKey, prefix: StaticPrefix, into pixels: UnsafeMutableRawPointer,
                             stride: Int, targetIsCurrent: Bool, holdsLastFrame: Bool) throws {
        let placement = CanvasPlacement(canvas: snapshot.canvas, outputWidth: key.width, outputHeight: key.height)
        let ctm = placement.transform.cairoMatrix
        // A node equal to the last frame's keeps its footprint (measuring text and paths for every node costs).
        let sameNodes = history.previousFrame.map { $0.key == key && $0.nodes.count == snapshot.nodes.count } == true
            && history.lastFootprints.count == snapshot.nodes.count
        let checksDamage = history.wholeFrames % Self.wholeFramesBetweenChecks == 0
        // Footprints serve the damage of this frame and the next, and cut the nodes among threads' pieces.
        let needsFootprints = checksDamage || (history.wholeFrames + 1) % Self.wholeFramesBetweenChecks == 0 || threads > 1
        var footprints: [NodeFootprint] = []
        if usesDamage, placement.scale > 0, needsFootprints {
            footprints.reserveCapacity(snapshot.nodes.count)
            for (index, node) in snapshot.nodes.enumerated() {
                footprints.append(sameNodes && history.previousFrame!.nodes[index] == node ? history.lastFootprints[index] : footprint(of: node, ctm: ctm))
            }
        }
        defer { history.lastFootprints = footprints }
        let canvas = placement.pixelBox
        var damage: Damage?
        if !checksDamage {
            history.wholeFrames += 1
        } else if usesDamage, let previous = history.previousFrame, previous.key == key, previous.nodes.count == snapshot.nodes.count,
                  history.lastFootprints.count == footprints.count, placement.scale > 0, canvas.nonEmpty != nil {
            var changed = [Bool](repeating: false, count: snapshot.nodes.count)
            var pageAreas: [PixelRect] = []
            for index in changed.indices where previous.nodes[index] != snapshot.nodes[index] {
                // A page that held its place changed where its scene changed, not all over.
                if let damage = pageDamage(old: previous.nodes[index], new: snapshot.nodes[index]) {
                    pageAreas += damage
                } else {
                    changed[index] = true
                }
            }
            damage = Self.damageAreas(old: history.lastFootprints, new: footprints, changed: changed, firstDrawn: prefix.nodes.count,
                                      canvas: canvas, also: pageAreas)
            // On several threads a whole frame is drawn in bands shared evenly, and areas area by area: one holding a
            // clip-dependent node is one thread's. Past 30 % of the canvas the bands are faster (the flower at
            // 3840x2160 on 2 threads: 23 ms a frame whole, 31 ms in areas over 36 % of it).
            if threads > 1, let areas = damage?.all, areas.reduce(0, { $0 + $1.area }) * 10 > canvas.area * 3 { damage = nil }
            history.wholeFrames = damage == nil ? history.wholeFrames + 1 : 0
        } else {
            history.wholeFrames = 0
        }
        let keptIsCurrent = history.lastFrameIsCurrent && history.lastFrame?.key == key
        guard let damage, targetIsCurrent || keptIsCurrent else {
            statistics.lastDamage = nil
            if threads > 1 {
                try drawWholeOnThreads(snapshot, prefix: prefix, footprints: footprints, ctm: ctm, into: pixels, stride: stride)
            } else {
                let nodes = snapshot.nodes[prefix.nodes.count...]
                let frame = PixelRect(x: 0, y: 0, width: key.width, height: key.height)
                let occlusion = occlusion(of: nodes, in: frame, canvas: snapshot.canvas, width: key.width, height: key.height)
                if let occlusion {
                    prefix.copy(into: pixels, stride: stride, area: PixelRect(x: 0, y: 0, width: key.width, height: occlusion.prefixBottom))
                } else {
                    prefix.copy(into: pixels, stride: stride)
                }
                let target = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                 Int32(key.width), Int32(key.height), Int32(stride))!
                defer {
                    cairo_surface_finish(target)
                    cairo_surface_destroy(target)
                }
                try drawFrame(snapshot, nodes: nodes, on: target, clearing: false, bottoms: occlusion?.bottoms)
            }
            // Small changes now promise small changes next frame: keep this one to draw the next over, unless the
            // caller keeps it (it vouched for these pixels, and most likely will again).
            history.lastFrameIsCurrent = damage != nil && !holdsLastFrame
            if holdsLastFrame {
                // Not needed while the caller keeps vouching: the memory is better spent on still prefixes.
                history.lastFrame = nil
            } else if history.lastFrameIsCurrent {
                if history.lastFrame?.key != key {
                    // The last frame's copy takes the place of the shorter still prefix (see `render`); one of
                    // another size goes first.
                    history.lastFrame = nil
                    if history.staticPrefixes.count >= 2 { history.staticPrefixes.removeFirst() }
                    history.lastFrame = StaticPrefix(key: key, nodes: [])
                }
                history.lastFrame!.copy(from: pixels, stride: stride)
            }
            return
        }
        let areas = damage.all
        statistics.lastDamage = areas
        if targetIsCurrent {
            // The areas are drawn where the last frame already is: no copy of it, in or out. A kept copy is stale
            // now, and its memory better spent on still prefixes.
            history.lastFrameIsCurrent = false
            history.lastFrame = nil
            try drawAreas(damage, of: snapshot, prefix: prefix, footprints: footprints, onto: pixels, stride: stride)
            lastWrittenAreas = areas.map { Rect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height)) }
            return
        }
        let lastFrame = history.lastFrame!
        try drawAreas(damage, of: snapshot, prefix: prefix, footprints: footprints, onto: lastFrame.pixels, stride: key.width * 4)
        if threads > 1 {
            copyOnThreads(lastFrame, into: pixels, stride: stride)
        } else {
            lastFrame.copy(into: pixels, stride: stride)
        }
    }

    /// Draws the damaged areas of the frame again over pixels (rows of `stride` bytes) that hold the last frame: in
    /// each, the still prefix copied in (but for rows an opaque band hides) and the nodes after it that reach into
    /// the area; then the pieces only sprites reach.
    private func drawAreas(_ damage: Damage, of snapshot: Snapshot, prefix: StaticPrefix, footprints: [NodeFootprint],
                           onto pixels: UnsafeMutableRawPointer, stride: Int) throws {
        try drawAreas(damage.areas, of: snapshot, prefix: prefix, footprints: footprints, onto: pixels, stride: stride)
        drawSpritePieces(damage.spritePieces, of: snapshot, prefix: prefix, footprints: footprints, onto: pixels, stride: stride)
    }

    /// Pieces of the frame that no node but emitters drawn as sprites reaches (see `Damage.spritePieces`): the still
    /// prefix copied into each, then each emitter's sprites blended within them, in the nodes' order, as drawing the
    /// pieces one by one would (they do not overlap), without a context for each.
    private func drawSpritePieces(_ pieces: [PixelRect], of snapshot: Snapshot, prefix: StaticPrefix, footprints: [NodeFootprint],
                                  onto pixels: UnsafeMutableRawPointer, stride: Int) {
        guard !pieces.isEmpty else { return }
        for piece in pieces { prefix.copy(into: pixels, stride: stride, area: piece) }
        let ctm = CanvasPlacement(canvas: snapshot.canvas, outputWidth: prefix.key.width, outputHeight: prefix.key.height)
            .transform.cairoMatrix
        for index in prefix.nodes.count..<snapshot.nodes.count where footprints[index].parts != nil {
            let node = snapshot.nodes[index]
            guard case .particles(let system) = node.content else { continue }
            var nodeMatrix = node.transform.cairoMatrix, parent = ctm, matrix = cairo_matrix_t()
            cairo_matrix_multiply(&matrix, &nodeMatrix, &parent)
            // As `draw` paints an emitter straight at the top: its opacity (1) as alpha, its hue rotation on the paint.
            let outerHue = paintHue
            paintHue += node.hueRotation
            defer { paintHue = outerHue }
            blendSprites(of: system, matrix: matrix, offset: (0, 0), alpha: min(node.opacity, 1),
                         into: pixels.assumingMemoryBound(to: UInt32.self), rowPixels: stride / 4, within: pieces)
        }
    }

    /// Draws `areas` of the frame again (see `drawAreas(_:of:prefix:footprints:onto:stride:)` above).
    private func drawAreas(_ areas: [PixelRect], of snapshot: Snapshot, prefix: StaticPrefix, footprints: [NodeFootprint],
                           onto pixels: UnsafeMutableRawPointer, stride: Int) throws {
        guard !areas.isEmpty else { return }
        if threads > 1 {
            try drawAreasOnThreads(snapshot, areas: areas, prefix: prefix, footprints: footprints, onto: pixels, stride: stride)
            return
        }
        let key = prefix.key
        let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(key.width), Int32(key.height), Int32(stride))!
        defer {
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
        for area in areas {
            let nodes = snapshot.nodes.indices.filter { index in
                index >= prefix.nodes.count && footprints[index].box.map { $0.intersects(area) } == true
            }.map { snapshot.nodes[$0] }[...]
            let occlusion = occlusion(of: nodes, in: area, canvas: snapshot.canvas, width: key.width, height: key.height)
            prefix.copy(into: pixels, stride: stride, area: occlusion.map { area.rows(above: $0.prefixBottom) } ?? area)
            guard !nodes.isEmpty else { continue }
            try drawFrame(snapshot, nodes: nodes, on: surface, clearing: false, area: area, bottoms: occlusion?.bottoms)
        }
    }

    /// Renders a snapshot and writes it as a PNG file (replacing any file at `url`).
    public func writePNG(_ snapshot: Snapshot, width: Int, height: Int, to url: URL) throws {
        try render(snapshot, width: width, height: height).writePNG(to: url)
    }

    /// Draws the letterbox and background (when `clearing`) and `nodes` on an ARGB32 surface.
    /// With `area`, only those pixels are drawn; with `bottoms` (see `occlusion`), each node only above its row.
    func drawFrame(_ snapshot: Snapshot, nodes: ArraySlice<NodeSnapshot>, on surface: OpaquePointer,
                           clearing: Bool, area: PixelRect? = nil, bottoms: [Int]? = nil) throws {
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let placement = CanvasPlacement(canvas: snapshot.canvas, outputWidth: width, outputHeight: height)
        frameBounds = PixelRect(x: 0, y: 0, width: width, height: height)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        if let area {
            cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(area.height))
            cairo_clip(cr)
        }
        if clearing {
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        }
        guard placement.scale > 0 else { return }
        // Whole-pixel letterbox edges; everything drawn is clipped to the canvas.
        let right = (placement.originX + placement.width).rounded(), bottom = (placement.originY + placement.height).rounded()
        cairo_rectangle(cr, placement.originX, placement.originY, right - placement.originX, bottom - placement.originY)
        cairo_clip(cr)
        cairo_translate(cr, placement.originX, placement.originY)
        cairo_scale(cr, placement.scale, placement.scale)
        if clearing {
            let canvasRect = Rect(x: 0, y: 0, width: snapshot.canvas.width, height: snapshot.canvas.height)
            let pattern = makePattern(snapshot.background, bounds: canvasRect, alpha: 1, hue: 0)
            cairo_set_source(cr, pattern)
            cairo_paint(cr)
            cairo_pattern_destroy(pattern)
        }
        /// The run with the context's clip read once (see `RunClip`).
        func drawRun(_ run: ArraySlice<NodeSnapshot>) {
            runClip.context = cr
            runClip.isWhole = nil
            defer {
                runClip.context = nil
                runClip.isWhole = nil
            }
            drawSiblings(run, in: cr)
        }
        if let bottoms, bottoms.count == nodes.count {
            // Runs of nodes drawn down to the same row (see Occlusion.swift); a node above the area's top is hidden.
            let area = area ?? PixelRect(x: 0, y: 0, width: width, height: height)
            var start = 0
            while start < bottoms.count {
                var end = start + 1
                while end < bottoms.count, bottoms[end] == bottoms[start] { end += 1 }
                let run = nodes[(nodes.startIndex + start)..<(nodes.startIndex + end)]
                if bottoms[start] >= area.y + area.height {
                    drawRun(run)
                } else if bottoms[start] > area.y {
                    cairo_save(cr)
                    cairo_identity_matrix(cr)
                    cairo_new_path(cr)
                    cairo_rectangle(cr, Double(area.x), Double(area.y), Double(area.width), Double(bottoms[start] - area.y))
                    cairo_restore(cr)
                    cairo_save(cr)
                    cairo_clip(cr)
                    drawRun(run)
                    cairo_restore(cr)
                }
                start = end
            }
        } else {
            drawRun(nodes)
        }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cairo failed while drawing: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    private func commonPrefixCount(_ a: [NodeSnapshot], _ b: [NodeSnapshot]) -> Int {
        var count = 0
        while count < a.count, count < b.count, a[count] == b[count] { count += 1 }
        return count
    }

    // MARK: Images

    /// The loaded PNG for a snapshot's image path, or nil (with a warning, once) when it cannot be read.
    /// Records a problem met while drawing (see `warnings`).
    func warn(_ text: String) { warnings.append(text) }

    func image(atPath path: String) -> OpaquePointer? {
        if let cached = images[path] { return cached }
        statistics.decodedPictures += 1
        let resolved = resolvedImagePath(path)
        var surface: OpaquePointer? = nil
        switch PNGFile.load(resolved) {
        case .success(let loaded): surface = loaded
        case .failure(let problem) where problem.fileProblem?.kind == .notRegular:
            warnings.append("image \(resolved): \(problem.reason); drawn as nothing")
        case .failure:
            warnings.append("image \(resolved): cannot be read as a PNG; drawn as nothing")
        }
        images[path] = surface
        return surface
    }

    /// A snapshot's image path made absolute against `imageDirectory`.
    func resolvedImagePath(_ path: String) -> String {
        if let resolved = resolvedPaths[path] { return resolved }
        let resolved = path.hasPrefix("/") || imageDirectory == nil ? path : imageDirectory!.appendingPathComponent(path).path
        resolvedPaths[path] = resolved
        return resolved
    }

    /// Forgets the warnings (a helper's, once its owner has them).
    func clearWarnings() { warnings.removeAll() }

    /// Records a problem met while drawing, once.
    func warnOnce(_ message: String) {
        if !warnings.contains(message) { warnings.append(message) }
    }
}

/// What a renderer's own ways drew, counted from its making (tests and benches read them: which way a node took shows
/// in its pixels only when that way is wrong). Each counts on the renderer that drew, a helper's on the helper.
struct RenderStatistics: Equatable {
    /// Solid fills scan-converted by `fillSolid` (SolidFill.swift), and leaf shapes filled without saving cairo's state.
    var filledSolids = 0
    var leavesFilledWithoutSaving = 0
    /// Strokes outlined by our own code (StrokeOutline.swift), and those it gave back to cairo after trying.
    var outlinedStrokes = 0
    var strokesLeftToCairo = 0
    /// Gradient fills evaluated by `fillGradient`, and solid fills and strokes painted through a coverage of their own
    /// (`paintThroughCoverage`, GradientFill.swift).
    var evaluatedGradientFills = 0
    var coveredSolids = 0
    /// Layers masked by a gradient evaluated by `GradientGeometry`, and reduced layers painted by pixman (NodeDrawing.swift).
    var evaluatedGradientMasks = 0
    var reducedLayersPaintedByPixman = 0
    /// Pictures painted by `paintResampled`, and how many of them through a soft-edged clip (ImageDrawing+Resample.swift).
    var resampledPaints = 0
    var resampledThroughSoftClips = 0
    /// Drawings turned in depth painted from the picture kept from an earlier frame (Rotation3DDrawing.swift).
    var keptProjections = 0
    /// Parts of frames (whole frames, damage areas, bands) drawn with something hidden (Occlusion.swift).
    var occludedParts = 0
    /// Runs of siblings drawn in layers on the threads (FrameRenderer+Layers.swift).
    var layeredRuns = 0
    /// Page pictures drawn (whole or where their scene changed) and pages copied from their pictures
    /// (FrameRenderer+Pages.swift).
    var drawnPages = 0
    var copiedPages = 0
    /// The damage areas the last frame drew (empty: nothing changed; nil: the whole frame).
    var lastDamage: [PixelRect]?
    /// Pictures decoded from files, SVG and Lottie files loaded and texts laid out with pango: what a scene's first
    /// frame pays for beside the rasters (`ArtWork`).
    var decodedPictures = 0
    var loadedDrawings = 0
    var laidOutTexts = 0
}

/// What a renderer keeps of the frames it drew into one picture, so that the next draws only what changed: still
/// prefixes, the last frame's nodes, pixels and footprints. The frame's own, and one per page picture
/// (FrameRenderer+Pages.swift).
struct FrameHistory {
    /// Bytes of frame-sized pixels it holds.
    var heldBytes: Int { staticPrefixes.reduce(lastFrame?.heldBytes ?? 0) { $0 + $1.heldBytes } }

    /// Pictures of the background plus leading top-level nodes that stayed equal over recent frames, shortest
    /// first; each holds a prefix of the next one's nodes. Keeping the shorter one means a node that starts
    /// moving again (an animation after its delay) costs a copy, not a redraw of everything behind it.
    var staticPrefixes: [StaticPrefix] = []
    /// The last frame's nodes, and for how many frames in a row each leading count has stayed equal.
    var previousFrame: (key: FrameKey, nodes: [NodeSnapshot])?
    var unchangedRun = (count: 0, frames: 0)
    /// The leading counts that stayed equal in the last three frames: their least has held still throughout, even
    /// when a node after it alternates between changing and not (a 30 fps Lottie in a 60 fps player).
    var recentUnchanged: [Int] = []
    /// The last frame's pixels and its top-level nodes' footprints: a frame draws again only where nodes changed.
    var lastFrame: StaticPrefix?
    /// True when `lastFrame` holds the frame of `previousFrame`'s nodes.
    var lastFrameIsCurrent = false
    var lastFootprints: [NodeFootprint] = []
    /// The pixels the last frame was rendered into, whole (nil after a failed render).
    var lastTarget: FrameRenderer.Target?
    /// Frames in a row drawn whole because their changes covered nearly all of the canvas. The frames after such a
    /// one are drawn whole without working out damage (400 falling circles cost 0.16 ms of footprints and merging a
    /// frame for nothing); every `wholeFramesBetweenChecks`th looks again, so a scene that calms down draws damage
    /// areas again within that many frames. Either way the pixels are the same.
    var wholeFrames = 0
    /// What each band of the last frame drawn whole on the threads took (ms), by run of bands and band: the next
    /// frame's bands are handed out costliest first (see `drawWholeOnThreads`).
    var bandCosts: [[Double]] = []
}

/// What a cached static prefix depends on besides its nodes.
struct FrameKey: Equatable {
    var width: Int
    var height: Int
    var canvas: Size
    var background: Paint
}

/// The pixels of the background plus some leading top-level nodes, for one output size.
final class StaticPrefix {
    let key: FrameKey
    let nodes: [NodeSnapshot]
    /// The pixels, or nil when every pixel is `uniform` (nothing over an opaque black background: the player's frames
    /// of pages, whose still prefix is black and would cost a frame's memory, 33 MB at 4K, for nothing).
    private let bytes: UnsafeMutableRawPointer?
    private let uniform: UInt32

    /// Pixels of `key`'s size, all transparent.
    init(key: FrameKey, nodes: [NodeSnapshot]) {
        self.key = key
        self.nodes = nodes
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: key.width * key.height * 4, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: key.width * key.height * 4)
        self.bytes = bytes
        uniform = 0
    }

    /// Every pixel `pixel` (premultiplied ARGB32), held as that one value.
    private init(key: FrameKey, pixel: UInt32) {
        self.key = key
        nodes = []
        bytes = nil
        uniform = pixel
    }

    /// `nodes` drawn by `draw` over the background: the background alone, when it is opaque black, is held as one
    /// pixel (clearing paints opaque black, the canvas's black over it changes none).
    static func drawn(key: FrameKey, nodes: [NodeSnapshot], draw: (OpaquePointer) throws -> Void) throws -> StaticPrefix {
        if nodes.isEmpty, key.background == .solid(.black) { return StaticPrefix(key: key, pixel: 0xFF00_0000) }
        let prefix = StaticPrefix(key: key, nodes: nodes)
        try prefix.withSurface(draw)
        return prefix
    }

    deinit { bytes?.deallocate() }

    /// The bytes of a prefix made with pixels of its own (`init(key:nodes:)`): the last frame's copy.
    var pixels: UnsafeMutableRawPointer { bytes! }

    /// Bytes of memory it holds.
    var heldBytes: Int { bytes == nil ? 0 : key.width * key.height * 4 }

    /// A cairo surface over the pixels, for the duration of `body`.
    private func withSurface(_ body: (OpaquePointer) throws -> Void) throws {
        let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(key.width), Int32(key.height), Int32(key.width * 4))!
        defer {
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
        try body(surface)
    }

    /// Replaces all pixels with a copy of `pixels` (rows of `stride` bytes, the same size as these).
    func copy(from pixels: UnsafeRawPointer, stride: Int) {
        let rowBytes = key.width * 4
        for y in 0..<key.height {
            (self.pixels + y * rowBytes).copyMemory(from: pixels + y * stride, byteCount: rowBytes)
        }
    }

    /// Copies the pixels of `area` only (rows of `stride` bytes at `pixels`, the same size as these).
    func copy(into pixels: UnsafeMutableRawPointer, stride: Int, area: PixelRect) {
        guard let bytes else {
            for y in area.y..<(area.y + area.height) {
                (pixels + y * stride + area.x * 4).initializeMemory(as: UInt32.self, repeating: uniform, count: area.width)
            }
            return
        }
        let rowBytes = key.width * 4
        for y in area.y..<(area.y + area.height) {
            (pixels + y * stride + area.x * 4).copyMemory(from: bytes + y * rowBytes + area.x * 4, byteCount: area.width * 4)
        }
    }

    func copy(into pixels: UnsafeMutableRawPointer, stride: Int) {
        let rowBytes = key.width * 4
        if let bytes, stride == rowBytes {
            pixels.copyMemory(from: bytes, byteCount: rowBytes * key.height)
        } else {
            copy(into: pixels, stride: stride, area: PixelRect(x: 0, y: 0, width: key.width, height: key.height))
        }
    }
}
