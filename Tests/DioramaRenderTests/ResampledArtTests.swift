@testable import DioramaRender
import CCairo
import DioramaDocument
import DioramaTestSupport
import DioramaTimeline
import DioramaVectorArt
import Foundation
import Testing

/// Cached SVG art that is turned or placed between pixels is resampled by pixman with one transform for the whole
/// frame (ImageDrawing+Resample.swift): the picture cairo paints, the same pixels whatever part of the frame is
/// drawn, visiting only output cells near ink.
@Suite struct ResampledArtTests {
    let folder: TemporaryFolder
    let path: String

    /// Four sails round a hub with empty corners between them, sharp edges, a gradient and a half-transparent part.
    static let sailsSVG = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200">
          <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stop-color="#f4e3c1"/><stop offset="1" stop-color="#a0522d"/></linearGradient></defs>
          <rect x="94" y="10" width="12" height="90" fill="url(#g)"/>
          <rect x="100" y="94" width="90" height="12" fill="#222"/>
          <rect x="94" y="100" width="12" height="90" fill="#3a6db2" fill-opacity="0.5"/>
          <path d="M 10 94 L 100 97 L 100 103 L 10 106 Z" fill="#ef476f" stroke="#000" stroke-width="1.5"/>
          <circle cx="100" cy="100" r="9" fill="#ffd166"/>
        </svg>
        """

    /// A 10 × 8 picture of hard-edged squares, some half transparent, with a transparent column.
    let picturePath: String

    init() throws {
        folder = try TemporaryFolder()
        path = folder.path("sails.svg")
        try Self.sailsSVG.write(toFile: path, atomically: true, encoding: .utf8)
        picturePath = folder.path("squares.png")
        var picture = RenderedFrame(width: 10, height: 8)
        for y in 0..<8 {
            for x in 0..<10 {
                let i = (y * 10 + x) * 4
                let alpha: UInt8 = x == 9 ? 0 : (x + y) % 3 == 0 ? 128 : 255
                let value: UInt8 = (x / 2 + y / 2) % 2 == 0 ? alpha : alpha / 4
                picture.bytes[i] = value; picture.bytes[i + 1] = alpha / 2; picture.bytes[i + 2] = alpha - value / 2
                picture.bytes[i + 3] = alpha
            }
        }
        try picture.writePNG(to: URL(fileURLWithPath: picturePath))
    }

    /// The drawing turned by `degrees` about its centre (100, 100), moved by a fraction of a point, at the left of a
    /// 400 × 300 canvas; inside a circle's clip when `clipped`.
    func snapshot(degrees: Double, opacity: Double = 1, clipped: Bool = false, picture: Bool = false) -> Snapshot {
        let turn = Transform2D.rotation(degrees: degrees)
        let transform = Transform2D(a: turn.a, b: turn.b, c: turn.c, d: turn.d,
                                    tx: 100.3 - (turn.a * 100 + turn.c * 100), ty: 99.6 - (turn.b * 100 + turn.d * 100))
        let rect = Rect(x: 0, y: 0, width: 200, height: 200)
        let sails = NodeSnapshot(transform: transform, bounds: rect, opacity: opacity,
                                 content: .image(ImageContent(path: picture ? picturePath : path, rect: rect)))
        let node = clipped
            ? NodeSnapshot(bounds: rect, content: .group([sails]),
                           clipShape: .ellipse(center: Point(x: 100, y: 100), radiusX: 70.3, radiusY: 70.3))
            : sails
        return RenderFixtures.snapshot(width: 400, height: 300, background: Color(red: 0.1, green: 0.2, blue: 0.3), [node])
    }

    /// SVG art (turned, faded, clipped), then a PNG picture enlarged 20 times (turned, faded, clipped).
    static let cases: [(degrees: Double, opacity: Double, clipped: Bool, picture: Bool)] = [
        (0, 1, false, false), (0.5, 1, false, false), (17, 1, false, false), (45, 0.55, false, false), (133.3, 1, true, false),
        (270.25, 0.8, true, false), (0, 1, false, true), (17, 1, false, true), (45, 0.55, true, true), (45, 1, true, true),
        (45, 0.55, false, true),
    ]
    /// Whole device pixels per point (a clip that is whole-pixel rectangles), and a letterbox between pixels.
    static let sizes = [(800, 600), (601, 457)]

    @Test(arguments: cases.indices)
    func aTurnedDrawingIsThePictureCairoPaints(_ index: Int) throws {
        let (degrees, opacity, clipped, picture) = Self.cases[index]
        let snapshot = snapshot(degrees: degrees, opacity: opacity, clipped: clipped, picture: picture)
        for (width, height) in Self.sizes {
            let renderer = FrameRenderer()
            let everyCell = FrameRenderer()
            everyCell.choices.resamplesEveryCell = true
            let cairo = FrameRenderer()
            cairo.choices.resamplesArt = false
            let actual = try renderer.render(snapshot, width: width, height: height)
            // Only cells no sample of ink reaches are left out: exactly the pixels of visiting every cell (a picture
            // has no cells: every pixel of it is visited).
            let same = actual.bytes == (try everyCell.render(snapshot, width: width, height: height)).bytes
            #expect(same, "\(degrees)°, \(width)x\(height): visiting only cells near ink changed pixels")
            let expected = try cairo.render(snapshot, width: width, height: height)
            let empty = try FrameRenderer().render(RenderFixtures.snapshot(width: 400, height: 300, background: Color(red: 0.1, green: 0.2, blue: 0.3), []),
                                                   width: width, height: height)
            let comparison = FrameComparison(actual, expected)
            let (largest, far) = (comparison.largest, comparison.beyondTwo)
            let drawn = FrameComparison.drawnPixels(actual, over: empty)
            let pixels = actual.bytes.count / 4
            // Both bilinear, in the same place: they differ on the edge rows of the cached ink box, where cairo's
            // sampling of the cut raster gives a little less of the edge (up to 47 of 255 on 0.02 % of pixels here);
            // a picture one pixel off would differ along every edge.
            #expect(largest <= 64 && Double(far) < Double(pixels) * 0.0005,
                    "\(degrees)°, \(width)x\(height): largest difference \(largest), \(far) pixels off by more than 2")
            // Not vacuous: the sails are drawn, by the resampler (at 0° too: they sit between pixels).
            #expect(drawn > pixels / 50, "\(drawn) pixels drawn")
            #expect(renderer.statistics.resampledPaints == 1 && everyCell.statistics.resampledPaints == 1 && cairo.statistics.resampledPaints == 0)
        }
    }

    @Test(arguments: cases.indices)
    func aTurnedDrawingHasTheSamePixelsInAnyPartOfTheFrame(_ index: Int) throws {
        let (degrees, opacity, clipped, picture) = Self.cases[index]
        let snapshot = snapshot(degrees: degrees, opacity: opacity, clipped: clipped, picture: picture)
        for (width, height) in Self.sizes {
            let single = FrameRenderer()
            let expected = try single.render(snapshot, width: width, height: height)
            for threads in [2, 3] {
                let actual = try FrameRenderer(threads: threads).render(snapshot, width: width, height: height)
                let same = actual.bytes == expected.bytes
                #expect(same, "\(degrees)°, \(width)x\(height), \(threads) threads")
            }
            // Then turned a little further twice: the second time drawn again only where it changed, over the last
            // frame (the area holds it whole; the next test cuts through it).
            let whole = FrameRenderer()
            whole.usesDamage = false
            for step in [3.0, 6.0] {
                let next = self.snapshot(degrees: degrees + step, opacity: opacity, clipped: clipped, picture: picture)
                let same = try single.render(next, width: width, height: height).bytes == whole.render(next, width: width, height: height).bytes
                #expect(same, "\(degrees + step)°, \(width)x\(height), after \(degrees + step - 3)°")
            }
            #expect(single.statistics.lastDamage?.isEmpty == false)
        }
        // Clip-safe (the parts may cut it anywhere, placed between pixels or turned), but for a picture inside a
        // clip shape: its rectangle's edge and the shape's outline are cut together differently under other clips.
        let renderer = FrameRenderer()
        _ = try renderer.render(snapshot, width: 800, height: 600)
        for x0 in [0.0, 0.5] {
            #expect(renderer.isClipSafe(snapshot.nodes[0], parent: cairo_matrix_t(xx: 2, yx: 0, xy: 0, yy: 2, x0: x0, y0: 0))
                    == !(picture && clipped))
        }
        renderer.choices.resamplesArt = false
        #expect(!renderer.isClipSafe(snapshot.nodes[0], parent: cairo_matrix_t(xx: 2, yx: 0, xy: 0, yy: 2, x0: 0.5, y0: 0)))
    }

    /// A small square moving across the left of the turned drawing each frame: its damage areas cut through the
    /// drawing, which (clip-safe) is drawn again clipped to them, over the last frame.
    @Test(arguments: cases.indices)
    func aTurnedDrawingCutByDamageAreasIsTheWholeFrame(_ index: Int) throws {
        let (degrees, opacity, clipped, picture) = Self.cases[index]
        let still = snapshot(degrees: degrees, opacity: opacity, clipped: clipped, picture: picture)
        for (width, height) in Self.sizes {
            let damaged = FrameRenderer(), whole = FrameRenderer()
            whole.usesDamage = false
            var cut = 0
            for step in 0..<6 {
                let square = RenderFixtures.rect(Rect(x: 20 + Double(step) * 7.3, y: 60 + Double(step) * 11.1, width: 30, height: 30),
                                                 fill: .solid(RenderFixtures.red))
                let frame = Snapshot(canvas: still.canvas, background: still.background, nodes: [square] + still.nodes)
                let same = try damaged.render(frame, width: width, height: height).bytes == whole.render(frame, width: width, height: height).bytes
                #expect(same, "\(degrees)°, \(width)x\(height), step \(step), areas \(String(describing: damaged.statistics.lastDamage))")
                // An area cutting through the drawing: shorter than the drawing (at least 200 of the 600 or 457 rows;
                // areas cut by rows, widening over what they reach).
                if let areas = damaged.statistics.lastDamage, !areas.isEmpty, areas.allSatisfy({ $0.height < height / 4 }) { cut += 1 }
            }
            // A picture inside a clip shape is not clip-safe: its areas grow to hold it whole.
            let clipSafe = !(picture && clipped)
            #expect(clipSafe ? cut >= 3 : cut == 0, "\(cut) frames drawn in areas cutting through the drawing")
        }
    }

    @Test func aSoftClipIsResampledThroughAScratchSurface() throws {
        let renderer = FrameRenderer()
        _ = try renderer.render(snapshot(degrees: 30, clipped: true), width: 800, height: 600)
        #expect(renderer.statistics.resampledPaints == 1 && renderer.statistics.resampledThroughSoftClips == 1)
        _ = try renderer.render(snapshot(degrees: 31), width: 800, height: 600)
        #expect(renderer.statistics.resampledPaints == 2 && renderer.statistics.resampledThroughSoftClips == 1)
    }

    @Test func inkCellsMarkTheCellsHoldingAlpha() {
        // 40 × 20 pixels, cells of 16: 3 × 2 cells; ink at (0, 0) and (35, 17).
        var pixels = [UInt32](repeating: 0x00FF_FFFF, count: 40 * 20)  // colour without alpha is no ink
        pixels[0] = 0x0100_0000
        pixels[17 * 40 + 35] = 0xFF00_0000
        let cells = pixels.withUnsafeBufferPointer { InkCells(pixels: $0.baseAddress!, width: 40, height: 20, rowPixels: 40) }
        #expect(cells.columns == 3 && cells.rows == 2)
        let inked = (0..<2).flatMap { row in (0..<3).filter { cells[$0, row] }.map { ($0, row) } }
        #expect(inked.count == 2 && inked[0] == (0, 0) && inked[1] == (2, 1))
        let opaque = InkCells(allInkedWidth: 40, height: 20)
        #expect((0..<2).allSatisfy { row in (0..<3).allSatisfy { opaque[$0, row] } })
    }
}
