@testable import DioramaRender
import CCairo
import DioramaDocument
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Frames drawn again only where nodes changed (FrameDamage.swift) are byte for byte the frames drawn whole.
@Suite struct DamageRenderTests {
    private func load() throws -> LoadedDocument {
        try DocumentLoader.load(path: ShippedScenesTests.repositoryRoot.appendingPathComponent("scenes.json").path)
    }

    /// Every shipped scene played through in order (as the player and `render` draw it), at a scale below, at and
    /// above the canvas's: each frame equals the same frame drawn whole.
    @Test(arguments: [(640, 360, 12.0, 30.0), (1280, 720, 4.0, 8.0), (1920, 1080, 3.0, 4.0)])
    func shippedScenesMatchWholeFrames(_ size: (width: Int, height: Int, rate: Double, seconds: Double)) throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        var damaged = 0, frames = 0
        for (index, scene) in loaded.document.scenes.enumerated() {
            let directory = URL(fileURLWithPath: loaded.baseDirectory)
            let renderer = FrameRenderer(imageDirectory: directory)
            let reference = FrameRenderer(imageDirectory: directory)
            reference.usesDamage = false
            let count = Int(min(scene.duration.doubleValue, size.seconds) * size.rate)
            for k in 0..<count {
                let snapshot = evaluator.snapshot(scene: index, at: Double(k) / size.rate)
                let actual = try renderer.render(snapshot, width: size.width, height: size.height)
                let expected = try reference.render(snapshot, width: size.width, height: size.height)
                frames += 1
                if renderer.statistics.lastDamage != nil { damaged += 1 }
                if actual.bytes != expected.bytes {
                    Issue.record("\(scene.id) at \(Double(k) / size.rate) s, \(size.width)x\(size.height): differs from the whole frame (areas \(String(describing: renderer.statistics.lastDamage)))")
                    return
                }
            }
        }
        // Not vacuous: many frames of the playlist were drawn in areas (at low frame rates most changes are large).
        #expect(damaged * 3 > frames, "\(damaged) of \(frames) frames drawn in areas")
    }

    /// Frames out of order (a seek, a scene change with the same nodes' count) still equal whole frames.
    @Test func framesOutOfOrderMatchWholeFrames() throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        let renderer = FrameRenderer(imageDirectory: directory)
        let reference = FrameRenderer(imageDirectory: directory)
        reference.usesDamage = false
        var generator = SplitMix64(seed: 13)
        for _ in 0..<60 {
            let scene = Int(generator.next() % UInt64(loaded.document.scenes.count))
            let time = Double(generator.next() % 1000) / 1000 * loaded.document.scenes[scene].duration.doubleValue
            // Often the next frame of the same scene, sometimes a jump.
            for step in 0..<3 {
                let snapshot = evaluator.snapshot(scene: scene, at: time + Double(step) / 30)
                let actual = try renderer.render(snapshot, width: 480, height: 270)
                let expected = try reference.render(snapshot, width: 480, height: 270)
                #expect(actual.bytes == expected.bytes, "\(loaded.document.scenes[scene].id) at \(time) s")
            }
        }
    }

    @Test func areasMergeAndGrowOverClipDependentNodes() {
        let canvas = PixelRect(x: 0, y: 0, width: 1000, height: 1000)
        func safe(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> NodeFootprint {
            NodeFootprint(box: PixelRect(x: x, y: y, width: w, height: h), clipSafe: true)
        }
        func gradient(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> NodeFootprint {
            NodeFootprint(box: PixelRect(x: x, y: y, width: w, height: h), clipSafe: false)
        }
        // A moved node: its old and new places, overlapping, become one area.
        var areas = FrameRenderer.damageAreas(old: [safe(0, 0, 50, 50), safe(900, 900, 10, 10)],
                                              new: [safe(20, 0, 50, 50), safe(900, 900, 10, 10)],
                                              changed: [true, false], firstDrawn: 0, canvas: canvas)?.all
        #expect(areas == [PixelRect(x: 0, y: 0, width: 70, height: 50)])
        // A clip-dependent node the area reaches is held whole; one it does not reach is left alone.
        areas = FrameRenderer.damageAreas(old: [safe(0, 0, 50, 50), gradient(40, 40, 100, 100), gradient(500, 500, 10, 10)],
                                          new: [safe(0, 0, 50, 50), gradient(40, 40, 100, 100), gradient(500, 500, 10, 10)],
                                          changed: [true, false, false], firstDrawn: 0, canvas: canvas)?.all
        #expect(areas == [PixelRect(x: 0, y: 0, width: 140, height: 140)])
        // A clip-safe node the area reaches across its side widens it to the node's width, on the area's rows only.
        areas = FrameRenderer.damageAreas(old: [safe(100, 100, 20, 20), safe(50, 110, 200, 300)],
                                          new: [safe(100, 100, 20, 20), safe(50, 110, 200, 300)],
                                          changed: [true, false], firstDrawn: 0, canvas: canvas)?.all
        #expect(areas == [PixelRect(x: 50, y: 100, width: 200, height: 20)])
        // Areas kept to the canvas; nothing changed, nothing drawn.
        areas = FrameRenderer.damageAreas(old: [safe(-20, -20, 40, 40)], new: [safe(-20, -20, 40, 40)], changed: [true],
                                          firstDrawn: 0, canvas: canvas)?.all
        #expect(areas == [PixelRect(x: 0, y: 0, width: 20, height: 20)])
        #expect(FrameRenderer.damageAreas(old: [safe(0, 0, 1, 1)], new: [safe(0, 0, 1, 1)], changed: [false],
                                          firstDrawn: 0, canvas: canvas)?.all == [])
        // Near the whole canvas: one pass over the whole frame.
        #expect(FrameRenderer.damageAreas(old: [safe(0, 0, 960, 960)], new: [safe(0, 0, 960, 960)], changed: [true],
                                          firstDrawn: 0, canvas: canvas)?.all == nil)
    }

    /// Solid circles at random places, a small square moving past each: the square's areas reach the circle across
    /// their sides and tops. cairo cuts a fill by a clip's side a level apart on some pixels; areas widen over it.
    @Test func solidFillsReachedAcrossAnAreasSideMatchWholeFrames() throws {
        var random = SeededRandom(seed: 0x5EED)
        let damaged = FrameRenderer(), whole = FrameRenderer()
        whole.usesDamage = false
        var cut = 0
        for _ in 0..<150 {
            let center = Point(x: 60 + random() * 520, y: 60 + random() * 240), radius = 8 + random() * 50
            let circle = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 640, height: 360), content: .shape(ShapeSnapshot(
                geometry: .ellipse(center: center, radiusX: radius, radiusY: radius),
                fill: .solid(Color(red: 0.23, green: 0.49, blue: 0.26, alpha: random() < 0.5 ? 1 : 0.85)), stroke: nil)))
            for step in 0..<2 {
                let square = RenderFixtures.rect(Rect(x: center.x - 4 + Double(step) * 3.3, y: center.y - radius * 0.6 + Double(step) * 2.1,
                                                      width: 6, height: 6), fill: .solid(RenderFixtures.red))
                let frame = RenderFixtures.snapshot(width: 640, height: 360, background: Color(red: 0.6, green: 0.8, blue: 0.9),
                                                    [circle, square])
                let same = try damaged.render(frame, width: 640, height: 360).bytes == whole.render(frame, width: 640, height: 360).bytes
                #expect(same, "circle at (\(center.x), \(center.y)), radius \(radius), step \(step)")
                if let areas = damaged.statistics.lastDamage, areas.count == 1, areas[0].height < 40 { cut += 1 }
            }
        }
        // Not vacuous: most second frames were drawn in an area through the circle's rows.
        #expect(cut > 120, "\(cut) frames drawn in areas")
    }
}

/// Footprints: where a changed node can paint, as tight as its children's own boxes.
extension DamageRenderTests {
    /// Turned groups within turned groups of strokes (caps, joins), curves, ellipses and rounded rectangles: every
    /// pixel a node paints lies in its footprint, which is the union of its leaves' boxes, each under its own matrix.
    @Test func aTurnedGroupPaintsOnlyWithinItsFootprint() throws {
        var random = SeededRandom(seed: 0xF00D)
        let canvas = Rect(x: 0, y: 0, width: 400, height: 300)
        func leaf(_ kind: Int) -> NodeSnapshot {
            let (x, y) = (150 + random() * 100, 100 + random() * 100)
            let paint = Paint.solid(Color(red: random(), green: random(), blue: 1))
            let stroke = Stroke(paint: paint, width: 1 + random() * 12, lineCap: [.round, .square, .butt][kind % 3],
                                lineJoin: [.miter, .round, .bevel][kind % 3])
            let geometry: Geometry
            switch kind % 4 {
            case 0: geometry = .path(PathData(commands: [.move(Point(x: x, y: y)), .line(Point(x: x + random() * 80 - 40, y: y + 60)),
                                                         .line(Point(x: x + 5, y: y + 2))]))
            case 1: geometry = .path(PathData(commands: [.move(Point(x: x, y: y)), .cubic(control1: Point(x: x + 90, y: y - 70),
                                                         control2: Point(x: x - 60, y: y + 40), to: Point(x: x + 20, y: y + 30)), .close]))
            case 2: geometry = .ellipse(center: Point(x: x, y: y), radiusX: 5 + random() * 40, radiusY: 3 + random() * 20)
            default: geometry = .rect(Rect(x: x, y: y, width: 10 + random() * 50, height: 4 + random() * 30), cornerRadius: random() * 8)
            }
            let filled = kind % 2 == 0
            return NodeSnapshot(transform: RenderFixtures.rotation(degrees: random() * 360, around: Point(x: x, y: y)), bounds: canvas,
                                content: .shape(ShapeSnapshot(geometry: geometry, fill: filled ? paint : nil, stroke: filled && kind % 3 != 0 ? nil : stroke)))
        }
        // At twice the canvas, and scaled again inside: reaches grow with the scale.
        let empty = try FrameRenderer().render(RenderFixtures.snapshot(width: 400, height: 300, []), width: 800, height: 600)
        var beyondOldBox = 0
        for trial in 0..<40 {
            let inner = RenderFixtures.group((0..<3).map { leaf(trial + $0) },
                                             transform: RenderFixtures.rotation(degrees: random() * 90 - 45, around: Point(x: 200, y: 150))
                                                .concatenating(.scale(x: 1.3, y: 0.9)))
            let node = RenderFixtures.group([inner, leaf(trial + 3)],
                                            transform: RenderFixtures.rotation(degrees: random() * 90 - 45, around: Point(x: 190, y: 140)))
            let renderer = FrameRenderer()
            let frame = try renderer.render(RenderFixtures.snapshot(width: 400, height: 300, [node]), width: 800, height: 600)
            var placement = cairo_matrix_t()
            cairo_matrix_init_scale(&placement, 2, 2)
            let box = try #require(renderer.footprint(of: node, ctm: placement).box)
            for y in 0..<600 {
                for x in 0..<800 where frame.bytes[(y * 800 + x) * 4..<(y * 800 + x) * 4 + 4] != empty.bytes[(y * 800 + x) * 4..<(y * 800 + x) * 4 + 4] {
                    #expect(box.contains(PixelRect(x: x, y: y, width: 1, height: 1)), "trial \(trial): pixel (\(x), \(y)) outside \(box)")
                }
            }
            // Tighter than the group's box turned as a whole, each group's box the box of its children's boxes.
            func nested(_ node: NodeSnapshot) -> BoundingBox? {
                guard case .group(let children) = node.content else { return renderer.inkBounds(of: node) }
                return children.compactMap { child in nested(child).map { child.transform.cairoMatrix.boundingBox(of: $0) } }
                    .reduce(nil) { union, box in union.map { $0.union(box) } ?? box }
            }
            let turnedWhole = node.transform.cairoMatrix.boundingBox(of: try #require(nested(node)))
            if Double(box.area) < (turnedWhole.maxX - turnedWhole.minX) * (turnedWhole.maxY - turnedWhole.minY) * 4 * 0.9 { beyondOldBox += 1 }
        }
        // Not vacuous: most groups' footprints are well inside the box the group would have turned as a whole.
        #expect(beyondOldBox > 20, "\(beyondOldBox) of 40 footprints tighter")
    }

    /// A node turned in depth whose parts turn inside it (the gears' fan: blades that spin inside a turned cage) has
    /// the footprint of what it paints: its leaves' boxes, each under its own matrix, through the projection. A
    /// group's box made of its children's boxes, turned at every level, grew with the spin, and the projection
    /// enlarged that where it nears the eye: the fan's box reached from the top of the frame to its bottom.
    @Test func aDrawingTurnedInDepthHasTheFootprintOfItsInk() throws {
        let canvas = Rect(x: 0, y: 0, width: 400, height: 300), centre = Point(x: 200, y: 150)
        // A bar 70 × 16 turned 45° in a group turned 45°: upright, 16 across and 70 down.
        let bar = RenderFixtures.rect(Rect(x: 165, y: 142, width: 70, height: 16), fill: .solid(.white),
                                      transform: RenderFixtures.rotation(degrees: 45, around: centre))
        let inner = RenderFixtures.group([RenderFixtures.group([bar], transform: RenderFixtures.rotation(degrees: 45, around: centre))],
                                         bounds: canvas)
        let projection = try #require(Projection3D(Rotation3D(angle: -60, axis: (0, 1, 0)),
                                                   frame: Rect(x: 150, y: 100, width: 100, height: 100)))
        let node = NodeSnapshot(bounds: canvas, content: .projected(projection, inner))
        let renderer = FrameRenderer()
        let frame = try renderer.render(RenderFixtures.snapshot(width: 400, height: 300, [node]), width: 400, height: 300)
        let empty = try FrameRenderer().render(RenderFixtures.snapshot(width: 400, height: 300, []), width: 400, height: 300)
        var identity = cairo_matrix_t()
        cairo_matrix_init_identity(&identity)
        let box = try #require(renderer.footprint(of: node, ctm: identity).box)
        var painted: PixelRect?
        for y in 0..<300 {
            for x in 0..<400 where frame.pixel(x: x, y: y) != empty.pixel(x: x, y: y) {
                let pixel = PixelRect(x: x, y: y, width: 1, height: 1)
                painted = painted.map { $0.union(pixel) } ?? pixel
            }
        }
        let ink = try #require(painted, "the bar is drawn")
        #expect(box.contains(ink), "\(ink) outside \(box)")
        // The footprint is the painted box and its slack (5 pixels each side here), no more: the bar's box of boxes,
        // 86 × 86, through the turn would be 40 pixels wider and 60 taller.
        #expect(box.width <= ink.width + 12 && box.height <= ink.height + 12, "\(box) about \(ink)")
    }

    /// A drawing turned in depth that stays the same (the gears' fan cage, while its blades spin) is painted from the
    /// picture made the first time, and every frame is the one a new renderer draws: the turned square that moves
    /// is made again each frame, the one that holds still once.
    @Test func aStillDrawingTurnedInDepthIsPaintedFromItsKeptPicture() throws {
        let canvas = Rect(x: 0, y: 0, width: 400, height: 300)
        func turned(_ x: Double) throws -> NodeSnapshot {
            let square = RenderFixtures.rect(Rect(x: x, y: 100, width: 100, height: 100), fill: .solid(.white))
            let projection = try #require(Projection3D(Rotation3D(angle: 50, axis: (0, 1, 0)),
                                                       frame: Rect(x: x, y: 100, width: 100, height: 100)))
            return NodeSnapshot(bounds: canvas, content: .projected(projection, RenderFixtures.group([square], bounds: canvas)))
        }
        let renderer = FrameRenderer()
        renderer.usesDamage = false
        for (k, x) in [20.0, 24, 31, 31].enumerated() {
            // The moving one first: a still first node would join a still prefix and not be drawn at all.
            let snapshot = RenderFixtures.snapshot(width: 400, height: 300, [try turned(x), try turned(250)])
            let frame = try renderer.render(snapshot, width: 400, height: 300)
            #expect(frame.bytes == (try FrameRenderer().render(snapshot, width: 400, height: 300)).bytes, "frame \(k)")
            // The still square from the second frame on; the moving one when it holds still (the last frame).
            #expect(renderer.statistics.keptProjections == [0, 1, 2, 4][k], "frame \(k)")
        }
    }

    /// The kept pictures of turned drawings hold at most a 4K frame's pixels: a third picture of 2000 × 2000 drops
    /// the least recently used, and a picture asked for again is the most recently used.
    @Test func keptPicturesOfTurnedDrawingsHoldAtMostAFramesPixels() throws {
        let pictures = ProjectedPictures()
        let projection = try #require(Projection3D(Rotation3D(angle: 30, axis: (0, 1, 0)), frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        func key(_ x: Double) -> ProjectedPictures.Key {
            ProjectedPictures.Key(inner: RenderFixtures.rect(Rect(x: x, y: 0, width: 10, height: 10)), projection: projection,
                                  ctm: [1, 0, 0, 1, 0, 0], hue: 0, whole: PixelRect(x: 0, y: 0, width: 2000, height: 2000))
        }
        #expect(pictures.surface(for: key(0)) != nil && pictures.surface(for: key(1)) != nil)
        #expect(pictures.picture(for: key(0)) != nil, "two pictures of 4 million pixels each are kept")
        #expect(pictures.surface(for: key(2)) != nil)
        #expect(pictures.picture(for: key(1)) == nil, "the least recently used is dropped for a third")
        #expect(pictures.picture(for: key(0)) != nil && pictures.picture(for: key(2)) != nil)
    }

    /// A shape reaching past the fill's reach (a million device pixels), as a ground strip made very wide, has a
    /// footprint too: its points are out of the scan converter's reach, not out of the frame.
    @Test func aShapeBeyondTheFillsReachHasAFootprint() throws {
        let strip = RenderFixtures.rect(Rect(x: -600_000, y: 100, width: 1_200_400, height: 40), fill: .solid(RenderFixtures.red))
        let stroke = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 400, height: 300), content: .shape(ShapeSnapshot(
            geometry: .path(PathData(commands: [.move(Point(x: 20, y: 200)), .line(Point(x: 1e6, y: 200))])), fill: nil,
            stroke: Stroke(paint: .solid(.white), width: 4))))
        for node in [strip, RenderFixtures.group([stroke])] {
            var placement = cairo_matrix_t()
            cairo_matrix_init_scale(&placement, 2, 2)
            let box = try #require(FrameRenderer().footprint(of: node, ctm: placement).box, "a footprint")
            #expect(box.contains(PixelRect(x: 40, y: 200, width: 700, height: 80)) || box.contains(PixelRect(x: 40, y: 396, width: 700, height: 8)),
                    "\(box)")
        }
    }

    /// The shipped swing: its group turns and its legs kick inside, but what changes frame to frame is the girl and
    /// the ropes, about a tenth of the frame (the group's box turned twice held more than a third). Its sky (the
    /// drifting clouds, the falling leaves) is left out: they are areas of their own.
    @Test func theSwingRedrawsAboutItsGirlAndRopes() throws {
        let loaded = try load()
        let index = try #require(loaded.document.scenes.firstIndex { $0.id == "swing" })
        var document = loaded.document
        document.scenes[index].nodes.removeAll { $0.id.map { $0.hasPrefix("cloud-") || $0.hasPrefix("leaf-") } ?? false }
        let evaluator = SceneEvaluator(document: document)
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory))
        var area = 0, frames = 0
        for k in 0..<90 {
            _ = try renderer.render(evaluator.snapshot(scene: index, at: 0.5 + Double(k) / 30), width: 1280, height: 720)
            // The first frame is drawn whole, and the second too: only then does a small change promise another.
            guard k > 1 else { continue }
            let areas = try #require(renderer.statistics.lastDamage, "drawn in areas")
            area += areas.reduce(0) { $0 + $1.area }
            frames += 1
        }
        #expect(area / frames < 1280 * 720 * 15 / 100, "\(area / frames) pixels a frame")
    }
}

extension DamageRenderTests {
    /// Cells laid over particles' boxes: every pixel of every box (within the canvas) is in exactly one rectangle,
    /// the rectangles are whole cells cut to the canvas, and a column of cells becomes one rectangle.
    @Test func cellRunsCoverTheBoxesOnceEach() {
        let canvas = PixelRect(x: 3, y: 2, width: 61, height: 45)
        let boxes = [PixelRect(x: 0, y: 0, width: 5, height: 5), PixelRect(x: 20, y: 10, width: 3, height: 30),
                     PixelRect(x: 21, y: 12, width: 12, height: 4), PixelRect(x: 60, y: 40, width: 10, height: 10)]
        let runs = FrameRenderer.cellRuns(covering: boxes, within: canvas)
        var count = [Int](repeating: 0, count: 80 * 60)
        for run in runs {
            #expect(canvas.contains(run))
            #expect((run.x - canvas.x) % 8 == 0 && (run.y - canvas.y) % 8 == 0)
            for y in run.y..<(run.y + run.height) { for x in run.x..<(run.x + run.width) { count[y * 80 + x] += 1 } }
        }
        #expect(count.allSatisfy { $0 <= 1 }, "rectangles overlap")
        for box in boxes {
            guard let box = box.intersection(canvas) else { continue }
            for y in box.y..<(box.y + box.height) { for x in box.x..<(box.x + box.width) { #expect(count[y * 80 + x] == 1) } }
        }
        // The tall box's column of cells is one rectangle; where the wide box joins it, the rows differ.
        #expect(runs.count < 8, "\(runs)")
        #expect(FrameRenderer.cellRuns(covering: [], within: canvas).isEmpty)
    }

    /// A rectangle less others: disjoint parts holding exactly its pixels outside them.
    @Test func aRectangleLessOthersKeepsExactlyWhatTheyLeave() {
        let whole = PixelRect(x: 2, y: 3, width: 30, height: 20)
        let others = [PixelRect(x: 10, y: 8, width: 5, height: 5), PixelRect(x: 0, y: 0, width: 6, height: 40),
                      PixelRect(x: 28, y: 20, width: 10, height: 10)]
        let parts = whole.subtracting(others)
        for y in 0..<40 {
            for x in 0..<40 {
                let inside = whole.contains(PixelRect(x: x, y: y, width: 1, height: 1))
                    && !others.contains { $0.contains(PixelRect(x: x, y: y, width: 1, height: 1)) }
                let count = parts.filter { $0.contains(PixelRect(x: x, y: y, width: 1, height: 1)) }.count
                #expect(count == (inside ? 1 : 0), "pixel \(x), \(y)")
            }
        }
        #expect(whole.subtracting([whole]).isEmpty)
    }

    /// The shipped flower with only its snow moving (the bouquet, the breath and the labels left out): the two
    /// emitters fall over the whole frame, but each frame is drawn again only about its flakes, old places and new,
    /// and equals the frame drawn whole, on one thread and on two. (An emitter's one box made every frame whole.)
    @Test(arguments: [1, 2])
    func snowRedrawsAboutItsFlakes(threads: Int) throws {
        let loaded = try load()
        let index = try #require(loaded.document.scenes.firstIndex { $0.id == "flower" })
        var document = loaded.document
        document.scenes[index].nodes.removeAll { ["bouquet", "breath", "breathe-in", "breathe-out"].contains($0.id ?? "") }
        #expect(document.scenes[index].nodes.contains { $0.id == "snow-near" })
        let evaluator = SceneEvaluator(document: document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        let renderer = FrameRenderer(imageDirectory: directory, threads: threads)
        let reference = FrameRenderer(imageDirectory: directory)
        reference.usesDamage = false
        var area = 0, frames = 0
        for k in 0..<40 {
            let snapshot = evaluator.snapshot(scene: index, at: 1 + Double(k) / 30)
            let actual = try renderer.render(snapshot, width: 1280, height: 720)
            let expected = try reference.render(snapshot, width: 1280, height: 720)
            #expect(actual.bytes == expected.bytes, "frame \(k) differs from the whole frame")
            // The first frames are whole while the still background settles into a prefix (three frames); damage is
            // looked at again as soon as it has.
            guard k >= 5 else { continue }
            let areas = try #require(renderer.statistics.lastDamage, "frame \(k) drawn in areas")
            area += areas.reduce(0) { $0 + $1.area }
            frames += 1
        }
        #expect(area / frames < 1280 * 720 * 30 / 100, "\(area / frames) pixels a frame")
    }
}

/// Pixels that still hold the last frame (a window surface drawn again): only the changed areas are written.
extension DamageRenderTests {
    /// The shipped scenes played into one buffer the caller vouches for: every frame equals the frame drawn whole,
    /// on one thread and on two, in rows of just the frame's width and in rows with room to spare.
    @Test(arguments: [(1, 0), (2, 0), (1, 12), (2, 12)])
    func aBufferHoldingTheLastFrameGetsTheWholeFrame(threads: Int, spareBytes: Int) throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        let renderer = FrameRenderer(imageDirectory: directory, threads: threads), reference = FrameRenderer(imageDirectory: directory)
        reference.usesDamage = false
        let (width, height) = (640, 360), stride = 640 * 4 + spareBytes
        var pixels = [UInt8](repeating: 0, count: stride * height)
        var damaged = 0, frames = 0
        for (index, scene) in loaded.document.scenes.enumerated() {
            for k in 0..<Int(min(scene.duration.doubleValue, 4) * 15) {
                let snapshot = evaluator.snapshot(scene: index, at: Double(k) / 15)
                try pixels.withUnsafeMutableBytes { buffer in
                    try renderer.render(snapshot, into: buffer.baseAddress!, width: width, height: height, stride: stride,
                                        holdsLastFrame: true)
                }
                // The particles scene's rain changes the whole frame every frame, and the gears' machine turns over
                // more than 30 % of it (on several threads, past that a frame is drawn whole in bands): drawn whole on
                // purpose, they are checked for their pixels but not counted among the frames that could be drawn in
                // areas.
                if scene.id != "particles" && !(threads > 1 && scene.id == "gears") {
                    frames += 1
                    if renderer.statistics.lastDamage?.isEmpty == false { damaged += 1 }
                }
                let expected = try reference.render(snapshot, width: width, height: height)
                let drawn = (0..<height).flatMap { y in pixels[(y * stride)..<(y * stride + width * 4)] }
                guard drawn == expected.bytes else {
                    Issue.record("\(scene.id) at \(Double(k) / 15) s differs from the whole frame")
                    return
                }
            }
        }
        #expect(damaged * 3 > frames, "\(damaged) of \(frames) frames drawn in areas")
    }

    /// Frames that change everywhere are drawn whole without working out damage but every eighth, which looks again:
    /// once only a square moves, damage areas come back at the next look, and every frame is the frame drawn whole.
    /// A caller that does not keep the last frame gets areas a frame later: the look keeps the renderer's copy.
    @Test(arguments: [true, false])
    func framesThatChangeEverywhereAreDrawnWholeAndLookedAtAgainEveryEighth(holdsLastFrame: Bool) throws {
        func frame(_ k: Int) -> Snapshot {
            // The sky changes colour every frame up to frame 12, then holds still.
            let shade = k < 12 ? Double(k % 10) / 10 : 0.5
            return RenderFixtures.snapshot(width: 640, height: 360, background: Color(red: 0.6, green: 0.8, blue: 0.9), [
                RenderFixtures.rect(Rect(x: 0, y: 0, width: 640, height: 360), fill: .solid(Color(red: shade, green: 0.3, blue: 0.4))),
                RenderFixtures.rect(Rect(x: 10 + Double(k) * 3, y: 20, width: 30, height: 30), fill: .solid(RenderFixtures.red)),
            ])
        }
        let count = 640 * 360 * 4
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        defer { pixels.deallocate() }
        let renderer = FrameRenderer()
        var damaged: [Int] = []
        for k in 0..<30 {
            try renderer.render(frame(k), into: pixels, width: 640, height: 360, stride: 640 * 4, holdsLastFrame: holdsLastFrame)
            if renderer.statistics.lastDamage != nil { damaged.append(k) }
            if k == 11 { #expect(renderer.history.wholeFrames == 11, "frames 1 to 11 drawn whole for their changes") }
            let whole = try FrameRenderer().render(frame(k), width: 640, height: 360).bytes
            #expect(Array(UnsafeRawBufferPointer(start: pixels, count: count)) == whole, "frame \(k)")
        }
        // Looks at frames 1 and 9; the sky stops at 12 and, still for three frames, joins the still prefix at 14:
        // damage is looked at again from there, not at the next eighth frame (17).
        #expect(damaged == Array((holdsLastFrame ? 16 : 17)..<30), "\(damaged)")
    }

    /// A pixel outside the changed areas keeps what the caller's buffer has there only when the caller vouches for
    /// the buffer and it is the last frame's; otherwise the whole frame is written (from the renderer's own copy of
    /// the last frame with the areas drawn again, when the caller does not vouch).
    @Test(arguments: [(true, false), (false, false), (true, true)])
    func onlyTheChangedAreasAreWrittenWhenTheCallerVouches(holdsLastFrame: Bool, otherBuffer: Bool) throws {
        func frame(_ x: Double) -> Snapshot {
            RenderFixtures.snapshot(width: 640, height: 360, background: Color(red: 0.6, green: 0.8, blue: 0.9),
                                    [RenderFixtures.rect(Rect(x: x, y: 20, width: 30, height: 30), fill: .solid(RenderFixtures.red))])
        }
        let count = 640 * 360 * 4
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        let other = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        defer {
            pixels.deallocate()
            other.deallocate()
        }
        let renderer = FrameRenderer()
        // The first frame is drawn whole, the second too (and kept), the third in an area around the square.
        for x in [10.0, 14] {
            try renderer.render(frame(x), into: pixels, width: 640, height: 360, stride: 640 * 4, holdsLastFrame: holdsLastFrame)
        }
        let far = (300 * 640 + 600) * 4
        pixels.storeBytes(of: 0x12, toByteOffset: far, as: UInt8.self)
        other.copyMemory(from: pixels, byteCount: count)
        let target = otherBuffer ? other : pixels
        try renderer.render(frame(18), into: target, width: 640, height: 360, stride: 640 * 4, holdsLastFrame: holdsLastFrame)
        // A caller that vouches keeps the last frame itself, so the renderer keeps no copy: another buffer gets a
        // whole frame. Otherwise the areas are drawn, over the buffer or over the renderer's copy.
        if holdsLastFrame && otherBuffer {
            #expect(renderer.statistics.lastDamage == nil, "drawn whole")
        } else {
            #expect(renderer.statistics.lastDamage?.isEmpty == false, "drawn in areas")
        }

        let whole = try FrameRenderer().render(frame(18), width: 640, height: 360).bytes
        #expect(whole[far] != 0x12, "the scribble is not the frame's")
        var expected = whole
        if holdsLastFrame && !otherBuffer { expected[far] = 0x12 }
        #expect(Array(UnsafeRawBufferPointer(start: target, count: count)) == expected)
    }
}
