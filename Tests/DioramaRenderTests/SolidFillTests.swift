import CCairo
@testable import DioramaRender
import DioramaDocument
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Solid fills scan-converted by our own code (SolidFill.swift): exact coverage, cairo's compositing, the same pixels
/// in any part of the target, and cairo's fill where ours does not apply.
@Suite struct SolidFillTests {
    /// Draws `shape` under `matrix` into a `width`×`height` ARGB32 surface (cleared to `background`, premultiplied),
    /// one context per part, each clipped to its part; returns the bytes and how many fills were ours.
    /// (`renderer` draws, and keeps its counts.)
    static func draw(_ shape: ShapeSnapshot, matrix: cairo_matrix_t = Transform2D.identity.cairoMatrix, alpha: Double = 1,
                     width: Int = 120, height: Int = 90, background: UInt32 = 0, parts: [PixelRect]? = nil,
                     ours: Bool = true, renderer: FrameRenderer = FrameRenderer(),
                     prepare: (OpaquePointer) -> Void = { _ in }) -> (bytes: [UInt32], filled: Int) {
        renderer.choices.rasterizesFills = ours
        renderer.choices.largestScanConvertedFill = .infinity
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let pixels = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!).assumingMemoryBound(to: UInt32.self)
        pixels.update(repeating: background, count: width * height)
        cairo_surface_mark_dirty(surface)
        for part in parts ?? [PixelRect(x: 0, y: 0, width: width, height: height)] {
            let cr = cairo_create(surface)!
            cairo_rectangle(cr, Double(part.x), Double(part.y), Double(part.width), Double(part.height))
            cairo_clip(cr)
            var placed = matrix
            cairo_set_matrix(cr, &placed)
            prepare(cr)
            renderer.drawShape(shape, bounds: Rect(x: 0, y: 0, width: 100, height: 100), alpha: alpha, in: cr)
            cairo_destroy(cr)
        }
        cairo_surface_flush(surface)
        return (Array(UnsafeBufferPointer(start: pixels, count: width * height)), renderer.statistics.filledSolids)
    }

    private static func fill(_ geometry: Geometry, _ color: Color = RenderFixtures.red) -> ShapeSnapshot {
        ShapeSnapshot(geometry: geometry, fill: .solid(color), stroke: nil)
    }

    /// Coverage in 0...1 of a pixel, from its alpha.
    private static func coverage(_ pixel: UInt32) -> Double { Double(pixel >> 24) / 255 }

    /// A rectangle between pixels covers each pixel by the area it overlaps, to the nearest level.
    @Test func aRectangleCoversEachPixelByItsArea() {
        let (x0, y0, x1, y1) = (10.25, 5.5, 30.75, 20.125)
        let (bytes, filled) = Self.draw(Self.fill(.rect(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), cornerRadius: 0), .white))
        #expect(filled == 1)
        for y in 0..<90 {
            for x in 0..<120 {
                let overlapX = max(0, min(Double(x + 1), x1) - max(Double(x), x0))
                let overlapY = max(0, min(Double(y + 1), y1) - max(Double(y), y0))
                let expected = UInt32((overlapX * overlapY * 255).rounded())
                #expect(bytes[y * 120 + x] >> 24 == expected, "pixel (\(x), \(y))")
                if bytes[y * 120 + x] >> 24 != expected { return }
            }
        }
    }

    /// Triangles at random, wound either way, many across the target's sides: each pixel's coverage is the area of
    /// the triangle inside it (clipped exactly, Sutherland–Hodgman), within a level.
    @Test func trianglesCoverEachPixelByTheAreaInsideIt() {
        var random = SeededRandom(seed: 0x7A1A)
        /// The area of the polygon inside the unit pixel at (`x`, `y`).
        func area(_ polygon: [Point], inPixel x: Int, _ y: Int) -> Double {
            var points = polygon
            let (left, top) = (Double(x), Double(y))
            for (inside, cross) in [({ (p: Point) in p.x >= left }, { (a: Point, b: Point) in Point(x: left, y: a.y + (b.y - a.y) * (left - a.x) / (b.x - a.x)) }),
                                    ({ (p: Point) in p.x <= left + 1 }, { (a: Point, b: Point) in Point(x: left + 1, y: a.y + (b.y - a.y) * (left + 1 - a.x) / (b.x - a.x)) }),
                                    ({ (p: Point) in p.y >= top }, { (a: Point, b: Point) in Point(x: a.x + (b.x - a.x) * (top - a.y) / (b.y - a.y), y: top) }),
                                    ({ (p: Point) in p.y <= top + 1 }, { (a: Point, b: Point) in Point(x: a.x + (b.x - a.x) * (top + 1 - a.y) / (b.y - a.y), y: top + 1) })] {
                var kept: [Point] = []
                for (index, current) in points.enumerated() {
                    let previous = points[(index + points.count - 1) % points.count]
                    if inside(current) {
                        if !inside(previous) { kept.append(cross(previous, current)) }
                        kept.append(current)
                    } else if inside(previous) {
                        kept.append(cross(previous, current))
                    }
                }
                points = kept
                if points.isEmpty { return 0 }
            }
            return abs(zip(points, points.dropFirst() + [points[0]]).reduce(0.0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }) / 2
        }
        for _ in 0..<12 {
            let corners = (0..<3).map { _ in Point(x: -30 + random() * 180, y: -20 + random() * 130) }
            let commands: [PathData.Command] = [.move(corners[0]), .line(corners[1]), .line(corners[2]), .close]
            let (bytes, filled) = Self.draw(Self.fill(.path(PathData(commands: commands)), .white))
            #expect(filled == 1)
            var worst = 0
            for y in 0..<90 {
                for x in 0..<120 {
                    let expected = Int((area(corners, inPixel: x, y) * 255).rounded())
                    worst = max(worst, abs(Int(bytes[y * 120 + x] >> 24) - expected))
                }
            }
            #expect(worst <= 1, "triangle \(corners): \(worst) levels off")
            // A gradient fill is composited through the same coverage (GradientFill.swift): opaque, its alpha is the
            // solid fill's.
            let renderer = FrameRenderer()
            let gradient = Paint.linear(stops: [GradientStop(location: 0, color: .white), GradientStop(location: 1, color: RenderFixtures.red)],
                                        start: .topLeading, end: .bottomTrailing)
            let shaded = Self.draw(ShapeSnapshot(geometry: .path(PathData(commands: commands)), fill: gradient, stroke: nil), renderer: renderer)
            #expect(renderer.statistics.evaluatedGradientFills == 1)
            #expect(zip(shaded.bytes, bytes).allSatisfy { $0 >> 24 == $1 >> 24 }, "triangle \(corners): the gradient's coverage")
        }
    }

    /// Turned and scaled shapes cover their area (the sum of coverage), and stay within the levels cairo's fill can
    /// be off by: it flattens curves to within a tenth of a pixel and samples 15 sub-rows a pixel, so an edge pixel
    /// can be an eighth of its area (32 levels) away; a pixel shifted by half is about 128.
    @Test(arguments: ["circle", "ellipse turned", "rounded rect turned", "star path"])
    func shapesCoverTheirAreaAndStayCloseToCairo(_ name: String) {
        let turn = RenderFixtures.rotation(degrees: 31, around: Point(x: 50, y: 40)).concatenating(.scale(x: 1.1, y: 0.9))
        let (geometry, matrix, area): (Geometry, cairo_matrix_t, Double)
        switch name {
        case "circle":
            (geometry, matrix, area) = (.ellipse(center: Point(x: 60.3, y: 44.7), radiusX: 30.2, radiusY: 30.2), Transform2D.identity.cairoMatrix,
                                        Double.pi * 30.2 * 30.2)
        case "ellipse turned":
            (geometry, matrix, area) = (.ellipse(center: Point(x: 50, y: 40), radiusX: 35, radiusY: 12), turn.cairoMatrix,
                                        Double.pi * 35 * 12 * 1.1 * 0.9)
        case "rounded rect turned":
            let (w, h, r) = (50.0, 30.0, 8.0)
            (geometry, matrix, area) = (.rect(Rect(x: 25, y: 25, width: w, height: h), cornerRadius: r), turn.cairoMatrix,
                                        (w * h - (4 - Double.pi) * r * r) * 1.1 * 0.9)
        default:
            // A five-pointed star: its area from the shoelace formula.
            var points: [Point] = []
            for k in 0..<10 {
                let radius = k % 2 == 0 ? 38.0 : 15.0, angle = Double(k) * .pi / 5 - .pi / 2
                points.append(Point(x: 60 + radius * cos(angle), y: 45 + radius * sin(angle)))
            }
            let commands: [PathData.Command] = [.move(points[0])] + points.dropFirst().map { .line($0) } + [.close]
            let shoelace = zip(points, points.dropFirst() + [points[0]]).reduce(0.0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }
            (geometry, matrix, area) = (.path(PathData(commands: commands)), Transform2D.identity.cairoMatrix, abs(shoelace) / 2)
        }
        let ours = Self.draw(Self.fill(geometry, .white), matrix: matrix)
        let cairo = Self.draw(Self.fill(geometry, .white), matrix: matrix, ours: false)
        #expect(ours.filled == 1 && cairo.filled == 0)
        let covered = ours.bytes.reduce(0.0) { $0 + Self.coverage($1) }
        // Curves are flattened to within 0.05 pixel: the area is a little less than the curve's, by at most that
        // along the outline (a perimeter under 250 pixels).
        #expect(covered <= area + 0.5 && covered >= area - 0.05 * 250 - 0.5, "\(name): \(covered) against \(area)")
        let largest = zip(ours.bytes, cairo.bytes).map { abs(Int($0 >> 24) - Int($1 >> 24)) }.max() ?? 0
        #expect(largest <= 32, "\(name): \(largest) levels from cairo")
        #expect(largest > 0, "\(name): cairo's fill, not ours")
    }

    /// Where the coverage is whole, the colour is composited exactly as cairo does (premultiplied, over what is there).
    @Test(arguments: [1.0, 0.8, 0.35])
    func wholeCoverageCompositesAsCairoDoes(alpha: Double) {
        let colors = [Color(red: 0.9, green: 0.3, blue: 0.1, alpha: 1), Color(red: 0.2, green: 0.7, blue: 0.95, alpha: 0.6),
                      Color(red: 1, green: 1, blue: 1, alpha: 0.13)]
        for color in colors {
            for background: UInt32 in [0, 0xFF10_2030, 0x8040_2010] {
                let shape = Self.fill(.rect(Rect(x: 10, y: 10, width: 50, height: 40), cornerRadius: 0), color)
                let ours = Self.draw(shape, alpha: alpha, background: background)
                let cairo = Self.draw(shape, alpha: alpha, background: background, ours: false)
                #expect(ours.filled == 1)
                #expect(ours.bytes == cairo.bytes, "\(color) at \(alpha) over \(String(background, radix: 16))")
            }
        }
    }

    /// Drawn in bands and in strips, each its own context clipped to its part, a fill gives the bytes of the fill
    /// drawn whole, also across a target's left and right sides (cairo's fill cut by a clip's side did not).
    @Test(arguments: [1.0, 0.6])
    func aFillHasTheSamePixelsInAnyPartOfTheTarget(alpha: Double) {
        var random = SeededRandom(seed: 0xF111)
        var filled = 0
        for _ in 0..<40 {
            let center = Point(x: -20 + random() * 160, y: -10 + random() * 110)
            // Half of them opaque: their inner runs are filled, not blended.
            let shape = Self.fill(.ellipse(center: center, radiusX: 2 + random() * 40, radiusY: 2 + random() * 40),
                                  Color(red: random(), green: random(), blue: random(), alpha: random() < 0.5 ? 1 : 0.5 + random() / 2))
            let turn = RenderFixtures.rotation(degrees: random() * 360, around: center)
            let background: UInt32 = 0xFF33_6699
            let whole = Self.draw(shape, matrix: turn.cairoMatrix, alpha: alpha, background: background)
            let bands = Self.draw(shape, matrix: turn.cairoMatrix, alpha: alpha, background: background,
                                  parts: stride(from: 0, to: 90, by: 7).map { PixelRect(x: 0, y: $0, width: 120, height: min(7, 90 - $0)) })
            let strips = Self.draw(shape, matrix: turn.cairoMatrix, alpha: alpha, background: background,
                                   parts: stride(from: 0, to: 120, by: 11).map { PixelRect(x: $0, y: 0, width: min(11, 120 - $0), height: 90) })
            #expect(bands.bytes == whole.bytes, "bands, circle at \(center)")
            #expect(strips.bytes == whole.bytes, "strips, circle at \(center)")
            filled += whole.filled
        }
        // Not vacuous: nearly every circle reaches the target and is ours.
        #expect(filled >= 30, "\(filled) of 40 filled by our own code")
    }

    /// Non-zero winding: two squares wound the same way cover their overlap once; one wound against the other cuts
    /// a hole.
    @Test func overlapsCoverOnceAndCounterWoundOutlinesCutHoles() {
        func square(_ x: Double, _ y: Double, _ side: Double, clockwise: Bool) -> [PathData.Command] {
            let corners = [Point(x: x, y: y), Point(x: x + side, y: y), Point(x: x + side, y: y + side), Point(x: x, y: y + side)]
            let ordered = clockwise ? corners : corners.reversed()
            return [.move(ordered[0])] + ordered.dropFirst().map { .line($0) } + [.close]
        }
        let same = Self.draw(Self.fill(.path(PathData(commands: square(10, 10, 40, clockwise: true) + square(30, 30, 40, clockwise: true))), .white))
        #expect(same.bytes[40 * 120 + 40] == 0xFFFF_FFFF, "the overlap")
        #expect(same.bytes[20 * 120 + 20] == 0xFFFF_FFFF && same.bytes[60 * 120 + 60] == 0xFFFF_FFFF)
        let hole = Self.draw(Self.fill(.path(PathData(commands: square(10, 10, 60, clockwise: true) + square(30, 30, 20, clockwise: false))), .white))
        #expect(hole.bytes[40 * 120 + 40] == 0, "the hole")
        #expect(hole.bytes[20 * 120 + 20] == 0xFFFF_FFFF)
    }

    /// Even-odd, another operator, a clip that is not whole pixels, a trimmed outline, an A8 target: cairo fills.
    @Test func cairoFillsWhatOursDoesNot() {
        let circle = Self.fill(.ellipse(center: Point(x: 50, y: 40), radiusX: 20, radiusY: 20))
        #expect(Self.draw(circle).filled == 1)
        #expect(Self.draw(circle) { cairo_set_fill_rule($0, CAIRO_FILL_RULE_EVEN_ODD) }.filled == 0)
        #expect(Self.draw(circle) { cairo_set_operator($0, CAIRO_OPERATOR_ADD) }.filled == 0)
        #expect(Self.draw(circle) { cr in
            cairo_arc(cr, 50, 40, 15, 0, 2 * .pi)
            cairo_clip(cr)
        }.filled == 0)
        var trimmed = circle
        trimmed.trimTo = 0.5
        #expect(Self.draw(trimmed).filled == 0)
        // Large shapes are cairo's (with the renderer's own limit).
        let large = FrameRenderer()
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 200, 200)!
        defer { cairo_surface_destroy(surface) }
        for radius in [30.0, 40] {
            let cr = cairo_create(surface)!
            large.drawShape(Self.fill(.ellipse(center: Point(x: 100, y: 100), radiusX: radius, radiusY: radius)),
                            bounds: Rect(x: 0, y: 0, width: 200, height: 200), alpha: 1, in: cr)
            cairo_destroy(cr)
        }
        #expect(large.statistics.filledSolids == 1, "60 pixels across: ours; 80: cairo's")
        // Far beyond cairo's fixed point: left to cairo, which clamps.
        #expect(Self.draw(Self.fill(.rect(Rect(x: -5e6, y: 10, width: 1e7, height: 20), cornerRadius: 0))).filled == 0)

        let renderer = FrameRenderer()
        let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, 100, 100)!
        defer { cairo_surface_destroy(mask) }
        let cr = cairo_create(mask)!
        renderer.drawShape(circle, bounds: Rect(x: 0, y: 0, width: 100, height: 100), alpha: 1, in: cr)
        cairo_destroy(cr)
        #expect(renderer.statistics.filledSolids == 0)
    }

    /// Curves and lines of a path, and shapes that are empty or not finite, neither trap nor spill.
    @Test func degenerateAndNonFiniteShapesDrawNothingOrStayInside() {
        let nan = Double.nan
        for geometry: Geometry in [.ellipse(center: Point(x: nan, y: 40), radiusX: 20, radiusY: 20),
                                   .rect(Rect(x: 10, y: 10, width: 0, height: 30), cornerRadius: 0),
                                   .path(PathData(commands: [.move(Point(x: 10, y: 10)), .line(Point(x: .infinity, y: 20)), .close])),
                                   .path(PathData(commands: [.move(Point(x: 10, y: 10)), .line(Point(x: 50, y: nan)), .line(Point(x: 30, y: 60)), .close])),
                                   .path(PathData(commands: [.line(Point(x: 10, y: 10))]))] {
            let drawn = Self.draw(Self.fill(geometry))
            #expect(drawn.bytes.allSatisfy { $0 == 0 } || drawn.filled == 0, "\(geometry)")
        }
        // A quadratic and a cubic: inside the box of their control points, and filled.
        let curve = Self.draw(Self.fill(.path(PathData(commands: [.move(Point(x: 10, y: 80)), .quad(control: Point(x: 40, y: 0), to: Point(x: 70, y: 80)),
                                                                   .cubic(control1: Point(x: 60, y: 90), control2: Point(x: 20, y: 90), to: Point(x: 10, y: 80)),
                                                                   .close])), .white))
        #expect(curve.filled == 1)
        #expect(curve.bytes[60 * 120 + 40] == 0xFFFF_FFFF)
        for y in 0..<90 { for x in 71..<120 { #expect(curve.bytes[y * 120 + x] == 0) } }
    }

    /// A clip of several rectangles on the same rows, over a shape more than a thousand pixels wide (several words of
    /// touched blocks): inside the rectangles, the pixels of the shape drawn whole; outside, the background.
    @Test func aWideShapeThroughAClipOfSeveralRectangles() {
        let width = 1300, height = 40
        let bar = Self.fill(.path(PathData(commands: [.move(Point(x: 3.3, y: 5.2)), .line(Point(x: 1290.6, y: 9.7)),
                                                      .line(Point(x: 1288.1, y: 30.4)), .line(Point(x: 6.2, y: 26.9)), .close])),
                            Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.85))
        let background: UInt32 = 0xFF40_4040
        let whole = Self.draw(bar, width: width, height: height, background: background)
        let rectangles = [PixelRect(x: 0, y: 0, width: 90, height: 40), PixelRect(x: 400, y: 0, width: 333, height: 40),
                          PixelRect(x: 1100, y: 0, width: 200, height: 40)]
        let clipped = Self.draw(bar, width: width, height: height, background: background) { cr in
            cairo_identity_matrix(cr)
            for rectangle in rectangles {
                cairo_rectangle(cr, Double(rectangle.x), Double(rectangle.y), Double(rectangle.width), Double(rectangle.height))
            }
            cairo_clip(cr)
        }
        #expect(whole.filled == 1 && clipped.filled == 1)
        var inside = 0
        for y in 0..<height {
            for x in 0..<width {
                let kept = rectangles.contains { $0.x <= x && x < $0.x + $0.width }
                let expected = kept ? whole.bytes[y * width + x] : background
                if clipped.bytes[y * width + x] != expected {
                    Issue.record("pixel (\(x), \(y))")
                    return
                }
                if kept && expected != background { inside += 1 }
            }
        }
        #expect(inside > 600 * 20)
    }

    /// A shape whose edges are a hair's breadth high, or whose scale is far beyond the document's, neither traps nor
    /// draws outside itself.
    @Test func extremeEdgesAndScalesDoNotTrap() {
        let sliver = Self.fill(.path(PathData(commands: [.move(Point(x: 60, y: 0)), .line(Point(x: 0, y: 1e-310)),
                                                          .line(Point(x: 30, y: 40)), .close])), .white)
        let drawn = Self.draw(sliver)
        #expect(drawn.filled == 1)
        #expect(drawn.bytes[20 * 120 + 30] == 0xFFFF_FFFF)
        var huge = Transform2D.identity.cairoMatrix
        huge.xx = 1e12
        huge.yy = 1e12
        let circle = Self.fill(.ellipse(center: Point(x: 0, y: 0), radiusX: 1000, radiusY: 1000))
        #expect(Self.draw(circle, matrix: huge).filled == 0, "out of reach: cairo's")
        var tiny = Transform2D.identity.cairoMatrix
        tiny.xx = 1e-12
        tiny.yy = 1e-12
        #expect(Self.draw(circle, matrix: tiny).bytes.allSatisfy { $0 == 0 })
    }

    /// Inside a clip shape the fill is cairo's, however the clip falls on pixels: a rectangle with fractional rows is
    /// whole pixels in a band between them, and the fill must not change hands there. On 2 threads (bands) and with
    /// damage areas, the frames are the single-threaded whole frames.
    @Test func insideAClipShapeTheFillIsTheSameInEveryPart() throws {
        var random = SeededRandom(seed: 0xC11B)
        let circles = (0..<40).map { _ in
            NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 640, height: 360), content: .shape(ShapeSnapshot(
                geometry: .ellipse(center: Point(x: 20 + random() * 600, y: 30 + random() * 280), radiusX: 3 + random() * 8, radiusY: 3 + random() * 8),
                fill: .solid(Color(red: random(), green: random(), blue: random(), alpha: 1)), stroke: nil)))
        }
        let group = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 640, height: 360), content: .group(circles),
                                 clipShape: .rect(Rect(x: -50, y: 20.5, width: 800, height: 300), cornerRadius: 0))
        let single = FrameRenderer(), threaded = FrameRenderer(threads: 2), reference = FrameRenderer()
        reference.usesDamage = false
        for step in 0..<4 {
            let mover = RenderFixtures.rect(Rect(x: 100 + Double(step) * 7.3, y: 150, width: 12, height: 12))
            let frame = RenderFixtures.snapshot(width: 640, height: 360, background: Color(red: 0.6, green: 0.8, blue: 0.9), [group, mover])
            let expected = try reference.render(frame, width: 640, height: 360).bytes
            #expect(try single.render(frame, width: 640, height: 360).bytes == expected, "damage areas, step \(step)")
            #expect(try threaded.render(frame, width: 640, height: 360).bytes == expected, "2 threads, step \(step)")
        }
        #expect(reference.statistics.filledSolids == 4, "the mover ours, once a frame; the circles cairo's")
    }

    /// A leaf shape filled without cairo's save, transform and restore (`fillWithoutSaving`) is the shape drawn the
    /// usual way, byte for byte: shapes of every kind under rotated, scaled and translated groups, with opacity, hue
    /// rotation and translucent colours, beside leaves that take the usual way (a stroke of width 0 with opacity, a
    /// trim, a shadow, a clip shape, a gradient), on 1 and 2 threads, over several frames.
    @Test func aLeafFilledWithoutSavingIsTheLeafDrawnTheUsualWay() throws {
        var random = SeededRandom(seed: 0x1EAF)
        func leaf(_ index: Int) -> NodeSnapshot {
            let center = Point(x: -60 + random() * 120, y: -60 + random() * 120), size = 2 + random() * 14
            let geometry: Geometry
            switch index % 4 {
            case 0: geometry = .ellipse(center: center, radiusX: size, radiusY: size * (0.5 + random()))
            case 1: geometry = .rect(Rect(x: center.x, y: center.y, width: size * 1.5, height: size), cornerRadius: index % 8 == 1 ? 3 : 0)
            case 2: geometry = .path(PathData(commands: [.move(center), .line(Point(x: center.x + size, y: center.y + 2)),
                                                         .cubic(control1: Point(x: center.x + size, y: center.y + size),
                                                                control2: center, to: Point(x: center.x + 3, y: center.y + size)), .close]))
            default: geometry = .ellipse(center: center, radiusX: size, radiusY: size)
            }
            let color = Color(red: random(), green: random(), blue: random(), alpha: 0.4 + 0.6 * random())
            var shape = ShapeSnapshot(geometry: geometry, fill: .solid(color), stroke: nil)
            // Leaves of their own placed, turned and scaled, or mirrored.
            let (dx, dy, turn) = (random() * 9, random() * 9, random() * 6)
            let transform: Transform2D
            switch index % 6 {
            case 4: transform = Transform2D(a: cos(turn) * 1.4, b: sin(turn) * 1.4, c: -sin(turn) * 0.7, d: cos(turn) * 0.7, tx: dx, ty: dy)
            case 5: transform = Transform2D(a: -1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
            default: transform = .translation(x: dx, y: dy)
            }
            var node = NodeSnapshot(transform: transform, bounds: Rect(x: -60, y: -60, width: 120, height: 120),
                                    opacity: index % 3 == 0 ? 0.3 + 0.6 * random() : 1, hueRotation: index % 5 == 0 ? 70 : 0,
                                    content: .shape(shape))
            switch index % 11 {
            case 3: shape.stroke = Stroke(paint: .solid(.white), width: 0)
            case 5: shape.trimTo = 0.7
            case 7: node.shadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.5), radius: 3, x: 2, y: 2)
            case 9: node.clipShape = .ellipse(center: center, radiusX: size * 0.7, radiusY: size * 0.7)
            case 10: shape.fill = .linear(stops: [GradientStop(location: 0, color: .white), GradientStop(location: 1, color: color)],
                                          start: UnitPoint(x: 0, y: 0), end: UnitPoint(x: 1, y: 1))
            default: break
            }
            node.content = .shape(shape)
            return node
        }
        let leaves = (0..<120).map(leaf)
        let reference = FrameRenderer()
        reference.choices.fillsLeavesWithoutSaving = false
        let renderers = [FrameRenderer(), FrameRenderer(threads: 2)]
        for step in 0..<3 {
            let turn = Double(step) * 0.7
            let (cosine, sine) = (cos(turn), sin(turn))
            var groups: [NodeSnapshot] = []
            for part in 0..<4 {
                let x = 90 + Double(part % 2) * 180 + Double(step) * 3.3, y = 80 + Double(part / 2) * 150
                let placed = Transform2D(a: cosine * 1.3, b: sine * 1.3, c: -sine * 0.9, d: cosine * 0.9, tx: x, ty: y)
                let children = Array(leaves[(part * 30)..<(part * 30 + 30)])
                groups.append(NodeSnapshot(transform: placed, bounds: Rect(x: -60, y: -60, width: 120, height: 120),
                                           hueRotation: part == 3 ? 30 : 0, content: .group(children)))
            }
            // Leaves in a group cut by a clip shape, in a group's layer (its opacity; its shadow), and one too large
            // for our fill (declined after its checks, so the usual way fills it).
            let bounds = Rect(x: -60, y: -60, width: 120, height: 120), place = Transform2D.translation(x: 180, y: 150 + Double(step))
            let clipped = NodeSnapshot(transform: place, bounds: bounds, content: .group(Array(leaves[6..<20])),
                                       clipShape: .ellipse(center: Point(x: 0, y: 0), radiusX: 40, radiusY: 30))
            let faded = NodeSnapshot(transform: .translation(x: 60, y: 230), bounds: bounds, opacity: 0.6, content: .group(Array(leaves[20..<34])))
            let shadowed = NodeSnapshot(transform: .translation(x: 300, y: 230), bounds: bounds,
                                        shadow: Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.6), radius: 4, x: 3, y: 3),
                                        content: .group(Array(leaves[34..<40])))
            let large = NodeSnapshot(transform: .translation(x: 20.5 + Double(step), y: 10.25), bounds: bounds, content: .shape(ShapeSnapshot(
                geometry: .ellipse(center: Point(x: 60, y: 40), radiusX: 55, radiusY: 35), fill: .solid(Color(red: 0.9, green: 0.8, blue: 0.2, alpha: 0.7)),
                stroke: nil)))
            let nodes = [large] + groups + leaves[0..<6] + [clipped, faded, shadowed]
            let frame = RenderFixtures.snapshot(width: 360, height: 300, background: Color(red: 0.2, green: 0.3, blue: 0.5), nodes)
            let expected = try reference.render(frame, width: 360, height: 300).bytes
            for renderer in renderers {
                let bytes = try renderer.render(frame, width: 360, height: 300).bytes
                let differing = bytes == expected ? 0 : zip(bytes, expected).filter { $0 != $1 }.count
                #expect(differing == 0, "step \(step), \(renderer.threads) threads: \(differing) bytes differ")
            }
        }
        #expect(reference.statistics.leavesFilledWithoutSaving == 0)
        #expect(renderers[0].statistics.leavesFilledWithoutSaving >= 3 * 70, "most leaves filled without saving")
    }
}
