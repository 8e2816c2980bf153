@testable import DioramaRender
import DioramaDocument
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Frames drawn on several threads (FrameRenderer+Threads.swift) are byte for byte the single-threaded renderer's.
@Suite struct ThreadedRenderTests {
    private func load() throws -> LoadedDocument {
        try DocumentLoader.load(path: ShippedScenesTests.repositoryRoot.appendingPathComponent("scenes.json").path)
    }

    /// The first row and the count of rows that differ, or nil when the frames are equal.
    private func difference(_ a: RenderedFrame, _ b: RenderedFrame) -> (row: Int, rows: Int)? {
        guard a.bytes != b.bytes else { return nil }
        let rowBytes = a.width * 4
        let rows = (0..<a.height).filter { y in a.bytes[y * rowBytes..<(y + 1) * rowBytes] != b.bytes[y * rowBytes..<(y + 1) * rowBytes] }
        return (rows.first ?? -1, rows.count)
    }

    /// Every shipped scene played in order from its start and from its middle (damage areas and whole frames both
    /// drawn on threads), at two sizes (one letterboxed, with odd rows per piece), on 2 and 3 threads.
    @Test(arguments: [(640, 360, 15.0, 1.0), (1001, 563, 10.0, 0.5)])
    func shippedScenesMatchTheSingleThreadedRenderer(_ size: (width: Int, height: Int, rate: Double, seconds: Double)) throws {
        let loaded = try load()
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        var damaged = 0, whole = 0, layered = 0
        for (index, scene) in loaded.document.scenes.enumerated() {
            let single = FrameRenderer(imageDirectory: directory)
            let threaded = [2, 3].map { FrameRenderer(imageDirectory: directory, threads: $0) }
            // Layers for runs of siblings in areas of any size: every kind of run, drawn in layers, is compared.
            for renderer in threaded { renderer.smallestLayeredShare = 0 }
            let duration = scene.duration.doubleValue
            for start in [0, duration * 0.5] {
                for k in 0..<Int(min(duration - start, size.seconds) * size.rate) {
                    let time = start + Double(k) / size.rate
                    let snapshot = evaluator.snapshot(scene: index, at: time)
                    let expected = try single.render(snapshot, width: size.width, height: size.height)
                    for renderer in threaded {
                        let actual = try renderer.render(snapshot, width: size.width, height: size.height)
                        if renderer.statistics.lastDamage == nil { whole += 1 } else { damaged += 1 }
                        if let difference = difference(expected, actual) {
                            Issue.record("""
                                \(scene.id) at \(String(format: "%.3f", time)) s, \(size.width)x\(size.height), \(renderer.threads) \
                                threads: \(difference.rows) rows differ, the first \(difference.row)
                                """)
                            return
                        }
                    }
                }
            }
            layered += threaded.map(\.statistics.layeredRuns).reduce(0, +)
        }
        // Not vacuous: both ways of drawing a frame were taken, and siblings were drawn in layers.
        #expect(damaged > 20 && whole > 20, "\(damaged) frames drawn in areas, \(whole) whole")
        // (4 since the swing's sky moved out of its still picture: its frames draw fewer siblings again.)
        #expect(layered > 3, "\(layered) runs of siblings drawn in layers")
    }

    /// Nodes that a clip would change (blur, shadow, gradients, masks, scaled images' stand-ins) across the pieces'
    /// edges, between nodes drawn in pieces.
    static let effects: [(name: String, nodes: [NodeSnapshot])] = {
        let across = Rect(x: 20, y: 30, width: 60, height: 40)
        let mask = Paint.linear(stops: [GradientStop(location: 0, color: .clear), GradientStop(location: 1, color: .white)],
                                start: .top, end: .bottom)
        let text = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 100, height: 100), content: .text(TextSnapshot(
            text: "Ag 雨 あ", position: Point(x: 50, y: 50), alignment: .center, font: Font(size: 37), paint: .solid(.white))))
        let shadow = Shadow(color: Color(red: 0, green: 0, blue: 1), radius: 6, x: 3, y: 9)
        let gradient = Paint.linear(stops: [GradientStop(location: 0, color: .white), GradientStop(location: 1, color: RenderFixtures.red)],
                                    start: .leading, end: .bottom)
        return [
            ("blur", [RenderFixtures.rect(across, fill: .solid(.white), blur: 9)]),
            ("shadow", [RenderFixtures.rect(across, fill: .solid(.white), shadow: shadow)]),
            ("gradient mask", [RenderFixtures.rect(across, fill: .solid(.white), mask: mask)]),
            ("gradient", [RenderFixtures.rect(across, fill: gradient)]),
            ("text", [text]),
            // A quick shadow's silhouette made in parts of its grid: glyphs at half pixels land on the same cells.
            ("shadowed text", [{ var node = text; node.shadow = Shadow(color: .black, radius: 7, x: 0.5, y: 1.5); return node }()]),
            ("particles", [RenderFixtures.particles(count: 300, width: 100, height: 100)]),
            // Each piece passes by the particles that cannot reach it (ParticleDrawing.swift): arms reach further than
            // circles.
            ("snowflakes", [RenderFixtures.particles(count: 200, width: 100, height: 100, shape: .snowflake, radius: 4)]),
            ("blur between nodes drawn in pieces", [RenderFixtures.rect(Rect(x: 0, y: 0, width: 100, height: 50)),
                                                    RenderFixtures.rect(across, fill: .solid(.white), blur: 5), text,
                                                    RenderFixtures.rect(across, fill: gradient, opacity: 0.5)]),
        ]
    }()

    @Test(arguments: effects.indices)
    func effectsAcrossPiecesMatchTheSingleThreadedRenderer(_ index: Int) throws {
        let (name, nodes) = Self.effects[index]
        // A letterboxed canvas, and sizes whose pieces cut the nodes at odd rows.
        let snapshot = RenderFixtures.snapshot(width: 100, height: 100, background: Color(red: 0.1, green: 0.2, blue: 0.3), nodes)
        for (width, height) in [(301, 257), (640, 360)] {
            let expected = try FrameRenderer().render(snapshot, width: width, height: height)
            for threads in [2, 4] {
                let actual = try FrameRenderer(threads: threads).render(snapshot, width: width, height: height)
                if let difference = difference(expected, actual) {
                    Issue.record("\(name), \(width)x\(height), \(threads) threads: \(difference.rows) rows differ, the first \(difference.row)")
                }
            }
        }
    }

    /// Frames drawn whole on the threads hand their bands out costliest first, by what each band took in the last
    /// frame, each run of bands between clip-dependent nodes by itself: what each took is kept, and the frames are
    /// the single-threaded renderer's whatever the order.
    @Test func bandsAreHandedOutByWhatTheyTookInTheLastFrame() throws {
        // A sky changing colour (every frame drawn whole) and squares moving, then a blurred square (drawn whole by
        // one thread), then more squares: two runs of bands.
        func frame(_ k: Int) -> Snapshot {
            let sky = RenderFixtures.rect(Rect(x: 0, y: 0, width: 100, height: 100), fill: .solid(Color(red: Double(k) / 8, green: 0.2, blue: 0.3)))
            let squares = (0..<60).map { index in
                RenderFixtures.rect(Rect(x: Double(index % 10) * 10 + Double(k), y: Double(index / 10) * 16 + Double(k), width: 4, height: 4))
            }
            let blurred = RenderFixtures.rect(Rect(x: 30, y: 30, width: 30, height: 30), fill: .solid(.white), blur: 4)
            return RenderFixtures.snapshot(width: 100, height: 100, background: Color(red: 0.1, green: 0.2, blue: 0.3),
                                           [sky] + Array(squares[..<30]) + [blurred] + Array(squares[30...]))
        }
        let threaded = FrameRenderer(threads: 2), single = FrameRenderer()
        for k in 0..<4 {
            #expect(try threaded.render(frame(k), width: 400, height: 300) == single.render(frame(k), width: 400, height: 300), "frame \(k)")
            #expect(threaded.statistics.lastDamage == nil, "frame \(k) drawn whole")
        }
        #expect(threaded.history.bandCosts.count == 2, "\(threaded.history.bandCosts)")
        #expect(threaded.history.bandCosts.allSatisfy { $0.count == 4 && $0.allSatisfy { $0 >= 0 } }, "\(threaded.history.bandCosts)")
        // A smaller frame has fewer bands than the costs kept: handed out top to bottom, the same pixels.
        #expect(try threaded.render(frame(4), width: 200, height: 100) == single.render(frame(4), width: 200, height: 100))
        #expect(threaded.history.bandCosts.allSatisfy { $0.count == 3 }, "\(threaded.history.bandCosts)")
    }

    @Test func theCostliestBandsOfTheLastFrameGoFirst() {
        #expect(FrameRenderer.handOutOrder(bands: 4, lastCosts: [0.2, 0.4, 0.3, 0.1]) == [1, 2, 0, 3])
        #expect(FrameRenderer.handOutOrder(bands: 4, lastCosts: [0.2, 0.2, 0.5, 0.2]) == [2, 0, 1, 3])
        // No costs, or costs of another number of bands: top to bottom.
        #expect(FrameRenderer.handOutOrder(bands: 4, lastCosts: nil) == [0, 1, 2, 3])
        #expect(FrameRenderer.handOutOrder(bands: 3, lastCosts: [0.2, 0.4, 0.3, 0.1]) == [0, 1, 2])
    }

    @Test func piecesCoverTheAreaWithoutOverlapping() {
        let area = PixelRect(x: 3, y: 7, width: 50, height: 101)
        let pieces = FrameRenderer.pieces(of: area, count: 4)
        #expect(pieces.count == 3)  // At least 32 rows each.
        #expect(pieces.first?.y == 7 && pieces.last.map { $0.y + $0.height } == 108)
        for (upper, lower) in zip(pieces, pieces.dropFirst()) { #expect(upper.y + upper.height == lower.y) }
        #expect(FrameRenderer.pieces(of: PixelRect(x: 0, y: 0, width: 5, height: 3), count: 8).count == 1)
    }

    @Test func moreThreadsThanRowsDrawTheWholeFrame() throws {
        let snapshot = RenderFixtures.snapshot([RenderFixtures.rect(Rect(x: 10, y: 10, width: 80, height: 80), blur: 2)])
        let expected = try FrameRenderer().render(snapshot, width: 50, height: 3)
        #expect(try FrameRenderer(threads: 8).render(snapshot, width: 50, height: 3).bytes == expected.bytes)
    }

    /// Siblings inside a small damage area (the swing's girl, a tenth of the frame) are drawn in order on the calling
    /// thread: layers would cost more than they save. Over a larger part of the frame, the same run goes to layers.
    @Test func siblingsInASmallAreaAreNotLayered() throws {
        let mask = Paint.linear(stops: [GradientStop(location: 0, color: .clear), GradientStop(location: 1, color: .white)],
                                start: .top, end: .bottom)
        func frame(_ x: Double) -> Snapshot {
            let parts = [RenderFixtures.rect(Rect(x: x, y: 40, width: 30, height: 30), fill: .solid(.white), mask: mask),
                         RenderFixtures.rect(Rect(x: x + 10, y: 50, width: 30, height: 30), fill: .solid(RenderFixtures.red), opacity: 0.5)]
            return RenderFixtures.snapshot(width: 400, height: 300, [RenderFixtures.group(parts)])
        }
        let single = FrameRenderer(), threaded = FrameRenderer(threads: 2)
        var buffer = RenderedFrame(width: 400, height: 300)
        for step in 0..<4 {
            let snapshot = frame(100 + Double(step) * 2)
            try buffer.bytes.withUnsafeMutableBytes { bytes in
                try threaded.render(snapshot, into: bytes.baseAddress!, width: 400, height: 300, stride: 1600, holdsLastFrame: true)
            }
            #expect(buffer.bytes == (try single.render(snapshot, width: 400, height: 300)).bytes, "step \(step)")
            if step == 0 {
                // The first frame is whole: the run is layered.
                #expect(threaded.statistics.layeredRuns == 1)
            } else {
                #expect(threaded.statistics.lastDamage?.isEmpty == false, "step \(step) drawn in an area")
            }
        }
        #expect(threaded.statistics.layeredRuns == 1, "no layers in the small areas")
    }

    /// A piece of a frame draws only the nodes whose footprints reach into it, in their order.
    @Test func aPieceDrawsOnlyTheNodesReachingIntoIt() {
        let nodes = (0..<4).map { index in
            RenderFixtures.rect(Rect(x: Double(index) * 10, y: 0, width: 5, height: 5))
        }
        let snapshot = RenderFixtures.snapshot(nodes)
        let footprints = [PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 0, y: 40, width: 10, height: 10),
                          PixelRect(x: 0, y: 5, width: 10, height: 30)].map { NodeFootprint(box: $0, clipSafe: true) }
            + [NodeFootprint(box: nil, clipSafe: true)]
        let top = FrameRenderer.nodes([0, 1, 2, 3], of: snapshot, footprints: footprints, reaching: PixelRect(x: 0, y: 0, width: 100, height: 20))
        #expect(Array(top) == [nodes[0], nodes[2]])
        let bottom = FrameRenderer.nodes([1, 2, 3], of: snapshot, footprints: footprints, reaching: PixelRect(x: 0, y: 20, width: 100, height: 80))
        #expect(Array(bottom) == [nodes[1], nodes[2]])
    }
}
