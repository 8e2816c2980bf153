import CCairo
@testable import DioramaRender
import DioramaDocument
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Solid strokes outlined by our own code (StrokeOutline.swift) and filled through the solid fill's coverage: the
/// area a stroke covers, close to cairo's stroke, the same pixels in any part of the target, and cairo's stroke where
/// ours does not apply.
@Suite struct StrokeOutlineTests {
    static func stroke(_ geometry: Geometry, width: Double, cap: LineCap = .butt, join: LineJoin = .miter,
                       color: Color = .white, dash: [Double] = [], phase: Double = 0, trimTo: Double = 1) -> ShapeSnapshot {
        ShapeSnapshot(geometry: geometry, fill: nil,
                      stroke: Stroke(paint: .solid(color), width: width, dash: dash, dashPhase: phase, lineCap: cap, lineJoin: join),
                      trimTo: trimTo)
    }

    static func length(_ a: Point, _ b: Point) -> Double { hypot(b.x - a.x, b.y - a.y) }

    static func path(_ points: [Point], closed: Bool = false) -> Geometry {
        .path(PathData(commands: [.move(points[0])] + points.dropFirst().map { .line($0) } + (closed ? [.close] : [])))
    }

    /// Draws with our strokes and with cairo's: their bytes, and how many strokes each outlined itself.
    static func both(_ shape: ShapeSnapshot, matrix: cairo_matrix_t = Transform2D.identity.cairoMatrix, alpha: Double = 1,
                     background: UInt32 = 0) -> (ours: [UInt32], cairo: [UInt32], outlined: Int, outlinedByCairoRun: Int) {
        let ours = FrameRenderer(), cairo = FrameRenderer()
        let a = SolidFillTests.draw(shape, matrix: matrix, alpha: alpha, background: background, renderer: ours)
        let b = SolidFillTests.draw(shape, matrix: matrix, alpha: alpha, background: background, ours: false, renderer: cairo)
        return (a.bytes, b.bytes, ours.statistics.outlinedStrokes, cairo.statistics.outlinedStrokes)
    }

    /// Strokes whose area is known: each pixel's coverage summed is that area, and no pixel is further from cairo's
    /// than its sampling allows (it flattens to a tenth of a pixel and samples coverage on a grid).
    @Test(arguments: ["line butt", "line round", "line square", "polyline miter", "polyline round", "polyline bevel",
                      "closed square miter", "circle", "turned and scaled"])
    func strokesCoverTheirAreaAndStayCloseToCairo(_ name: String) {
        let zigzag = [Point(x: 10.3, y: 70.2), Point(x: 40.1, y: 20.7), Point(x: 70.6, y: 66.4), Point(x: 105.2, y: 30.9)]
        let lengths = zip(zigzag, zigzag.dropFirst()).map { hypot($1.x - $0.x, $1.y - $0.y) }.reduce(0, +)
        let (w, h) = (6.5, 3.25)
        // At each turn (by θ) the two segments' rectangles overlap inside by h² tan(θ / 2) and leave a gap outside
        // that the join fills: a miter's kite h² tan(θ / 2), a round join's sector h² θ / 2, a bevel's triangle h² sin θ / 2.
        let turns = (1..<(zigzag.count - 1)).map { i -> Double in
            let (a, b, c) = (zigzag[i - 1], zigzag[i], zigzag[i + 1])
            let (d0, d1) = (atan2(b.y - a.y, b.x - a.x), atan2(c.y - b.y, c.x - b.x))
            return abs(remainder(d1 - d0, 2 * .pi))
        }
        func joined(_ join: (Double) -> Double) -> Double { lengths * w + turns.map { join($0) - h * h * tan($0 / 2) }.reduce(0, +) }
        let shape: ShapeSnapshot, area: Double?
        var matrix = Transform2D.identity.cairoMatrix
        switch name {
        case "line butt":
            (shape, area) = (Self.stroke(Self.path([Point(x: 12.4, y: 20.3), Point(x: 101.7, y: 71.1)]), width: w, cap: .butt),
                             hypot(89.3, 50.8) * w)
        case "line round":
            (shape, area) = (Self.stroke(Self.path([Point(x: 12.4, y: 20.3), Point(x: 101.7, y: 71.1)]), width: w, cap: .round),
                             hypot(89.3, 50.8) * w + Double.pi * h * h)
        case "line square":
            (shape, area) = (Self.stroke(Self.path([Point(x: 12.4, y: 20.3), Point(x: 101.7, y: 71.1)]), width: w, cap: .square),
                             (hypot(89.3, 50.8) + w) * w)
        case "polyline miter":
            (shape, area) = (Self.stroke(Self.path(zigzag), width: w, join: .miter), joined { h * h * tan($0 / 2) })
        case "polyline round":
            (shape, area) = (Self.stroke(Self.path(zigzag), width: w, join: .round), joined { h * h * $0 / 2 })
        case "polyline bevel":
            (shape, area) = (Self.stroke(Self.path(zigzag), width: w, join: .bevel), joined { h * h * sin($0) / 2 })
        case "closed square miter":
            // Outside square minus inside square.
            (shape, area) = (Self.stroke(Self.path([Point(x: 20.5, y: 15.5), Point(x: 90.5, y: 15.5), Point(x: 90.5, y: 75.5),
                                                    Point(x: 20.5, y: 75.5)], closed: true), width: w, join: .miter),
                             (70 + w) * (60 + w) - (70 - w) * (60 - w))
        case "circle":
            (shape, area) = (Self.stroke(.ellipse(center: Point(x: 60.2, y: 44.6), radiusX: 30, radiusY: 30), width: w),
                             2 * Double.pi * 30 * w)
        default:
            matrix = RenderFixtures.rotation(degrees: 37, around: Point(x: 60, y: 45)).concatenating(.scale(x: 0.8, y: 0.8)).cairoMatrix
            (shape, area) = (Self.stroke(.path(PathData(commands: [.move(Point(x: 40, y: 80)),
                                                                   .cubic(control1: Point(x: 90, y: 0), control2: Point(x: 120, y: 100), to: Point(x: 140, y: 30))])),
                                         width: 3, cap: .round, join: .round), nil)
        }
        let drawn = Self.both(shape, matrix: matrix)
        #expect(drawn.outlined == 1 && drawn.outlinedByCairoRun == 0, "\(name): ours outlined it")
        if let area {
            let covered = drawn.ours.reduce(0.0) { $0 + Double($1 >> 24) / 255 }
            // Within half a level a pixel of rounding, over the few hundred edge pixels.
            #expect(abs(covered - area) < 1.5, "\(name): covers \(covered) against \(area)")
        }
        // cairo samples a stroke's coverage on a grid of a few sub-pixels: an edge pixel can be an eighth off.
        let largest = zip(drawn.ours, drawn.cairo).map { abs(Int($0 >> 24) - Int($1 >> 24)) }.max() ?? 0
        #expect(largest <= 32, "\(name): \(largest) levels from cairo")
    }

    /// Dashed and trimmed strokes are outlined by our own code, dash by dash as cairo dashes them (the pattern from its
    /// phase, again at each sub-path; on a closed one a dash through the start joined there), and trimmed by arc
    /// length as `trimPath` trims cairo's path: every pixel close to cairo's, and the area they cover the same.
    @Test(arguments: ["dashed line", "dashed polyline round", "odd pattern, phase", "negative phase", "dashed circle",
                      "dashed square joined at its start", "dashed square starting off", "on all round",
                      "dashed over two sub-paths", "trimmed line", "trimmed circle", "trimmed from and to",
                      "trimmed over two sub-paths",
                      "trimmed and dashed", "turned and scaled"])
    func dashedAndTrimmedStrokesAreOursAndCloseToCairo(_ name: String) {
        let zigzag = [Point(x: 10.3, y: 70.2), Point(x: 40.1, y: 20.7), Point(x: 70.6, y: 66.4), Point(x: 105.2, y: 30.9)]
        let square = Self.path([Point(x: 20.5, y: 15.5), Point(x: 90.5, y: 15.5), Point(x: 90.5, y: 75.5), Point(x: 20.5, y: 75.5)],
                               closed: true)
        let circle = Geometry.ellipse(center: Point(x: 60.2, y: 44.6), radiusX: 32, radiusY: 32)
        func dashed(_ geometry: Geometry, _ dash: [Double], phase: Double = 0, width: Double = 4, cap: LineCap = .butt,
                    join: LineJoin = .miter, from: Double = 0, to: Double = 1) -> ShapeSnapshot {
            ShapeSnapshot(geometry: geometry, fill: nil, stroke: Stroke(paint: .solid(.white), width: width, dash: dash, dashPhase: phase,
                                                                      lineCap: cap, lineJoin: join), trimFrom: from, trimTo: to)
        }
        var matrix = Transform2D.identity.cairoMatrix
        let shape: ShapeSnapshot
        switch name {
        case "dashed line": shape = dashed(Self.path([Point(x: 8.4, y: 12.3), Point(x: 110.7, y: 80.1)]), [9, 4.5])
        case "dashed polyline round": shape = dashed(Self.path(zigzag), [22, 6], phase: 6, width: 5, cap: .round, join: .round)
        case "odd pattern, phase": shape = dashed(Self.path(zigzag), [9], phase: 17.5, width: 3, cap: .square, join: .bevel)
        case "negative phase": shape = dashed(Self.path(zigzag), [10, 3, 2, 3], phase: -16, width: 3)
        case "dashed circle": shape = dashed(circle, [2, 10], width: 2)
        // The last dash runs on through the start into the first: one dash, mitred at the corner there as cairo joins
        // it (two dashes would each end in a butt there).
        case "dashed square joined at its start": shape = dashed(square, [30, 8], phase: 21, width: 7)
        // The last dash ends at the start, where the first does not begin: not joined.
        case "dashed square starting off": shape = dashed(square, [30, 8], phase: 32, width: 7)
        case "on all round": shape = dashed(square, [400, 8], width: 7)

        case "trimmed line": shape = dashed(Self.path([Point(x: 8.4, y: 12.3), Point(x: 110.7, y: 80.1)]), [], width: 5, to: 0.63)
        case "trimmed circle": shape = dashed(circle, [], width: 3, cap: .round, to: 0.37)
        case "trimmed from and to": shape = dashed(square, [], width: 6, from: 0.2, to: 0.9)
        case "trimmed over two sub-paths":
            shape = dashed(.path(PathData(commands: [.move(Point(x: 10, y: 20)), .line(Point(x: 100, y: 20)), .move(Point(x: 10, y: 60)),
                                                     .line(Point(x: 100, y: 70)), .line(Point(x: 60, y: 85))])), [], width: 4, from: 0.3, to: 0.8)
        case "dashed over two sub-paths":
            shape = dashed(.path(PathData(commands: [.move(Point(x: 10, y: 20)), .line(Point(x: 100, y: 20)), .move(Point(x: 10, y: 60)),
                                                     .line(Point(x: 100, y: 70)), .line(Point(x: 60, y: 85))])), [25, 7], width: 4)
        case "trimmed and dashed": shape = dashed(circle, [12, 5], phase: 4, width: 3, cap: .round, from: 0.1, to: 0.75)
        default:
            matrix = RenderFixtures.rotation(degrees: 37, around: Point(x: 60, y: 45)).concatenating(.scale(x: 0.8, y: 0.8)).cairoMatrix
            shape = dashed(circle, [9, 4], phase: 2, width: 3, cap: .round, join: .round, from: 0.05, to: 0.85)
        }
        let drawn = Self.both(shape, matrix: matrix)
        #expect(drawn.outlined == 1 && drawn.outlinedByCairoRun == 0, "\(name): ours outlined it")
        let (ours, theirs) = (drawn.ours.reduce(0.0) { $0 + Double($1 >> 24) / 255 }, drawn.cairo.reduce(0.0) { $0 + Double($1 >> 24) / 255 })
        let largest = zip(drawn.ours, drawn.cairo).map { abs(Int($0 >> 24) - Int($1 >> 24)) }.max() ?? 0
        print("\(name): covers \(ours) against \(theirs), \(largest) levels")
        #expect(theirs > 20 && abs(ours - theirs) < 1.5 + theirs / 200, "\(name): covers \(ours) against cairo's \(theirs)")
        #expect(largest <= 32, "\(name): \(largest) levels from cairo")
    }

    /// A dashed stroke can be cut by any clip (damage areas, bands) only where ours or the coverage draws it: not with
    /// the references' choices, nor with points out of reach (cairo's own dashes change with the clip).
    @Test func aDashedStrokeIsClipSafeOnlyWhereOursOrTheCoverageDrawsIt() {
        let identity = Transform2D.identity.cairoMatrix
        let dashed = RenderFixtures.strokedCircle(center: Point(x: 50, y: 40), radius: 30, width: 3, dash: [6, 4])
        let plain = RenderFixtures.strokedCircle(center: Point(x: 50, y: 40), radius: 30, width: 3)
        #expect(FrameRenderer().isClipSafe(dashed, parent: identity))
        for reference in [\DrawingChoices.rasterizesFills, \DrawingChoices.evaluatesGradients] {
            let renderer = FrameRenderer()
            renderer.choices[keyPath: reference] = false
            #expect(!renderer.isClipSafe(dashed, parent: identity))
            #expect(renderer.isClipSafe(plain, parent: identity))
        }
        let far = RenderFixtures.strokedCircle(center: Point(x: 50, y: 3e6), radius: 30, width: 3, dash: [6, 4])
        #expect(!FrameRenderer().isClipSafe(far, parent: identity))
    }

    /// A butt-capped line whose last dash turns on exactly at its end draws nothing there, as cairo's does: ours.
    @Test func aButtCappedDashTurningOnAtTheEndDrawsNothing() {
        let drawn = Self.both(Self.stroke(Self.path([Point(x: 10, y: 40), Point(x: 110, y: 40)]), width: 6, dash: [10, 10]))
        #expect(drawn.outlined == 1)
        let largest = zip(drawn.ours, drawn.cairo).map { abs(Int($0 >> 24) - Int($1 >> 24)) }.max() ?? 0
        #expect(largest <= 32 && drawn.ours.contains { $0 != 0 })
    }

    /// Drawn in bands and in strips, each its own context clipped to its part, a stroke gives the bytes of the stroke
    /// drawn whole.
    @Test func aStrokeHasTheSamePixelsInAnyPartOfTheTarget() {
        var random = SeededRandom(seed: 0x57E0)
        var outlined = 0
        for trial in 0..<30 {
            let points = (0..<(2 + trial % 4)).map { _ in Point(x: -10 + random() * 140, y: -10 + random() * 110) }
            var shape = Self.stroke(Self.path(points, closed: trial % 5 == 0), width: 0.5 + random() * 9,
                                    cap: [.butt, .round, .square][trial % 3], join: [.miter, .round, .bevel][trial % 3],
                                    color: Color(red: random(), green: random(), blue: random(), alpha: random() < 0.5 ? 1 : 0.6))
            // Some dashed, some trimmed: cut from the whole line, the same in every part.
            if trial % 4 == 1 { shape.stroke!.dash = [4 + random() * 20, 2 + random() * 9]; shape.stroke!.dashPhase = random() * 10 }
            if trial % 4 == 2 { (shape.trimFrom, shape.trimTo) = (random() * 0.3, 0.5 + random() * 0.5) }
            let turn = RenderFixtures.rotation(degrees: random() * 360, around: Point(x: 60, y: 45))
            let renderer = FrameRenderer()
            let whole = SolidFillTests.draw(shape, matrix: turn.cairoMatrix, background: 0xFF33_6699, renderer: renderer)
            let bands = SolidFillTests.draw(shape, matrix: turn.cairoMatrix, background: 0xFF33_6699,
                                            parts: stride(from: 0, to: 90, by: 7).map { PixelRect(x: 0, y: $0, width: 120, height: min(7, 90 - $0)) })
            let strips = SolidFillTests.draw(shape, matrix: turn.cairoMatrix, background: 0xFF33_6699,
                                             parts: stride(from: 0, to: 120, by: 11).map { PixelRect(x: $0, y: 0, width: min(11, 120 - $0), height: 90) })
            let (sameBands, sameStrips) = (bands.bytes == whole.bytes, strips.bytes == whole.bytes)
            #expect(sameBands, "bands, trial \(trial), ours \(renderer.statistics.outlinedStrokes)")
            // cairo's stroke (sharp turns of thick strokes, two points closed) cut by a clip's side moves some edge
            // pixels by a level: the renderer cuts those by rows only (FrameDamage.swift).
            #expect(sameStrips || renderer.statistics.outlinedStrokes == 0, "strips, trial \(trial)")
            outlined += renderer.statistics.outlinedStrokes
        }
        // Not vacuous: most strokes were ours (sharp turns of thick strokes fold over and are cairo's).
        #expect(outlined >= 20, "\(outlined) of 30 outlined by our own code")
    }

    /// A point that is not finite or far beyond the frame does not trap: the stroke is cairo's (which draws what it
    /// can of it).
    @Test func strokesWithPointsOutOfReachAreCairos() {
        for far in [Double.nan, .infinity, 1e300, 3e6] {
            let shape = Self.stroke(.path(PathData(commands: [.move(Point(x: 10, y: 10)), .line(Point(x: far, y: 60)),
                                                              .cubic(control1: Point(x: 5, y: far), control2: Point(x: 30, y: 40), to: Point(x: 60, y: 80))])),
                                    width: 3, cap: .round, join: .round)
            let drawn = Self.both(shape)
            #expect(drawn.outlined == 0, "\(far): left to cairo")
            let same = drawn.ours == drawn.cairo
            #expect(same, "\(far): cairo's pixels")
        }
    }

    /// A dash pattern with a zero in it (cairo's dots, or two dashes' caps meeting), a dash ending just past a sharp
    /// turn (its side would fold over), a pen stretched into an ellipse, an inner side that folds over or turns straight back, a
    /// gradient and a lone point (cairo's dot) are cairo's strokes: exactly cairo's pixels.
    @Test func strokesOurCodeCannotDrawAreCairos() {
        let line = Self.path([Point(x: 10, y: 10), Point(x: 100, y: 70)])
        let gradient = Paint.linear(stops: [GradientStop(location: 0, color: .white), GradientStop(location: 1, color: .black)],
                                    start: .top, end: .bottom)
        let cases: [(String, ShapeSnapshot, cairo_matrix_t)] = [
            ("a zero in the dashes", Self.stroke(line, width: 4, cap: .round, dash: [0, 8]), Transform2D.identity.cairoMatrix),
            ("dashes under half a pixel a period", Self.stroke(line, width: 4, dash: [0.2, 0.2]), Transform2D.identity.cairoMatrix),
            // A dash beginning exactly at a corner: cairo caps it along the side before, then joins.
            ("a dash beginning at a corner", Self.stroke(Self.path([Point(x: 10, y: 10), Point(x: 100, y: 10), Point(x: 100, y: 80),
                                                                    Point(x: 10, y: 80)], closed: true), width: 6, dash: [10, 10]),
             Transform2D.identity.cairoMatrix),
            // The last dash ends at the start, a corner, where the first begins: whether cairo joins them there
            // depends on its rounding.
            ("a dash ending at a corner", Self.stroke(Self.path([Point(x: 20.5, y: 15.5), Point(x: 90.5, y: 15.5), Point(x: 90.5, y: 75.5),
                                                                 Point(x: 20.5, y: 75.5)], closed: true), width: 7, dash: [14, 4], phase: 6),
             Transform2D.identity.cairoMatrix),
            // Sides whole multiples of the pattern, turned: dashes end within rounding of the corners.
            ("dashes ending near corners, turned", Self.stroke(Self.path([Point(x: 30, y: 20), Point(x: 90, y: 20), Point(x: 90, y: 60),
                                                                          Point(x: 30, y: 60)], closed: true), width: 5, dash: [5, 5]),
             RenderFixtures.rotation(degrees: 30, around: Point(x: 60, y: 45)).cairoMatrix),
            // Off until exactly the end, with round caps: cairo's dot there.
            ("a dot at the end", Self.stroke(Self.path([Point(x: 10, y: 40), Point(x: 110, y: 40)]), width: 6, cap: .round, dash: [10, 10]),
             Transform2D.identity.cairoMatrix),
            // A dash ending just past a right angle: the corner's join shows, so the point is not dropped.
            ("a dash just past a corner", Self.stroke(Self.path([Point(x: 10, y: 10), Point(x: 80, y: 10), Point(x: 80, y: 80)]), width: 6,
                                                      dash: [70.04, 20]), Transform2D.identity.cairoMatrix),
            ("a dash just past a turn", Self.stroke(Self.path([Point(x: 10, y: 70), Point(x: 50, y: 10), Point(x: 90, y: 70)]), width: 6,
                                                    dash: [Self.length(Point(x: 10, y: 70), Point(x: 50, y: 10)) + 1, 30]),
             Transform2D.identity.cairoMatrix),
            ("stretched", Self.stroke(line, width: 4), Transform2D.scale(x: 1, y: 0.5).cairoMatrix),
            ("folds over", Self.stroke(.ellipse(center: Point(x: 60, y: 45), radiusX: 5, radiusY: 5), width: 13),
             Transform2D.identity.cairoMatrix),
            ("gradient", ShapeSnapshot(geometry: line, fill: nil, stroke: Stroke(paint: gradient, width: 4)), Transform2D.identity.cairoMatrix),
            ("a point", Self.stroke(Self.path([Point(x: 50, y: 40), Point(x: 50, y: 40)]), width: 8, cap: .round),
             Transform2D.identity.cairoMatrix),
            // Straight back over itself: both sides would wrap the doubled stretch the same way.
            ("there and back", Self.stroke(Self.path([Point(x: 10, y: 10), Point(x: 100, y: 10), Point(x: 10, y: 10)]), width: 6),
             Transform2D.identity.cairoMatrix),
            ("back part way", Self.stroke(Self.path([Point(x: 10, y: 30), Point(x: 100, y: 30), Point(x: 40, y: 30)]), width: 6, cap: .round),
             Transform2D.identity.cairoMatrix),
            ("closed on a line", Self.stroke(Self.path([Point(x: 10, y: 50), Point(x: 100, y: 50), Point(x: 50, y: 50)], closed: true), width: 6),
             Transform2D.identity.cairoMatrix),
        ]
        for (name, shape, matrix) in cases {
            let drawn = Self.both(shape, matrix: matrix)
            #expect(drawn.outlined == 0, "\(name): left to cairo")
            let same = drawn.ours == drawn.cairo
            #expect(same, "\(name): cairo's pixels")
            #expect(drawn.cairo.contains { $0 != 0 }, "\(name): something was drawn")
        }
    }
}
