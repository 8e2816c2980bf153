@testable import DioramaRender
import CCairo
import DioramaDocument
import DioramaTestSupport
import DioramaTimeline
import Testing

/// Linear and radial gradient fills are evaluated per device pixel by our own code (GradientFill.swift): the
/// gradient cairo paints, wherever the fill is drawn, and cairo's own pattern wherever ours cannot be exact.
@Suite struct GradientFillTests {
    static let teal = Color(red: 0.5, green: 0.89, blue: 0.83), deep = Color(red: 0.18, green: 0.65, blue: 0.63)
    static let rose = Color(red: 1, green: 0.37, blue: 0.64, alpha: 0.8)

    static func stops(_ colors: [Color], at locations: [Double]? = nil) -> [GradientStop] {
        colors.enumerated().map { index, color in
            GradientStop(location: locations?[index] ?? Double(index) / Double(max(colors.count - 1, 1)), color: color)
        }
    }

    /// Gradients as the scenes write them, and steep ones: over a few pixels, a pixel sampled half a pixel off
    /// (its corner, not its centre) or an entry of the colour table off by one is tens of levels off.
    static let paints: [(name: String, paint: Paint)] = [
        ("radial petal", .radial(stops: stops([teal, deep]), center: UnitPoint(x: 0.35, y: 0.35), startRadius: 0, endRadius: 140)),
        ("radial ring", .radial(stops: stops([.white, rose, .black]), center: UnitPoint(x: 0.5, y: 0.5), startRadius: 30, endRadius: 36)),
        ("radial inward", .radial(stops: stops([teal, rose]), center: UnitPoint(x: 0.6, y: 0.4), startRadius: 50, endRadius: 10)),
        ("linear down", .linear(stops: stops([rose, deep]), start: UnitPoint(x: 0.5, y: 0), end: UnitPoint(x: 0.5, y: 1))),
        ("linear steep", .linear(stops: stops([.black, .white]), start: UnitPoint(x: 0.45, y: 0.4), end: UnitPoint(x: 0.55, y: 0.5))),
        ("stops inside, unsorted", .linear(stops: stops([teal, .white, .black, rose], at: [0.8, 0.25, 0.5, 0.6]),
                                            start: UnitPoint(x: 0, y: 1), end: UnitPoint(x: 1, y: 0))),
    ]

    /// The fill as a circle, a turned and stretched rectangle, faded, hue-turned, inside a circle's clip, in a
    /// shadowed group (a layer whose pixels start off the frame's origin), stroked after it is filled, and in a
    /// faded group of two overlapping circles (a layer of the visible part).
    static let placements = ["circle", "turned", "faded and hue", "clipped", "shadowed layer", "stroked", "faded group"]

    func snapshot(_ paint: Paint, placement: String) -> Snapshot {
        let bounds = Rect(x: 60.3, y: 40.6, width: 180, height: 150)
        let circle = NodeSnapshot(bounds: bounds, content: .shape(ShapeSnapshot(
            geometry: .ellipse(center: Point(x: 150.3, y: 115.6), radiusX: 88, radiusY: 70), fill: paint, stroke: nil)))
        let node: NodeSnapshot
        switch placement {
        case "turned":
            node = RenderFixtures.rect(bounds, fill: paint, transform: RenderFixtures.rotation(degrees: 23, around: Point(x: 150, y: 115))
                .concatenating(.scale(x: 1.3, y: 0.8)))
        case "faded and hue":
            node = NodeSnapshot(bounds: bounds, opacity: 0.55, hueRotation: 70, content: circle.content)
        case "clipped":
            node = NodeSnapshot(bounds: bounds, content: .group([circle]),
                                clipShape: .ellipse(center: Point(x: 120, y: 100), radiusX: 61.7, radiusY: 61.7))
        case "shadowed layer":
            node = NodeSnapshot(bounds: bounds, shadow: Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.5), radius: 6, x: 3, y: 4),
                                content: .group([circle]))
        case "stroked":
            let stroke = Stroke(paint: .solid(Color(red: 0.9, green: 0.9, blue: 0.2, alpha: 0.7)), width: 5.5, dash: [], dashPhase: 0,
                                lineCap: .butt, lineJoin: .miter)
            node = NodeSnapshot(bounds: bounds, content: .shape(ShapeSnapshot(
                geometry: .ellipse(center: Point(x: 150.3, y: 115.6), radiusX: 88, radiusY: 70), fill: paint, stroke: stroke)))
        case "faded group":
            var second = circle
            second.transform = .translation(x: 23.4, y: 17.2)
            node = NodeSnapshot(bounds: bounds, opacity: 0.6, content: .group([circle, second]))
        default:
            node = circle
        }
        return RenderFixtures.snapshot(width: 300, height: 220, background: Color(red: 0.1, green: 0.15, blue: 0.2), [node])
    }

    @Test(arguments: paints.indices, placements)
    func aGradientFillIsTheGradientCairoPaints(_ index: Int, placement: String) throws {
        let (name, paint) = Self.paints[index]
        let snapshot = snapshot(paint, placement: placement)
        for (width, height) in [(300, 220), (601, 457)] {
            let ours = FrameRenderer(), cairo = FrameRenderer()
            cairo.choices.evaluatesGradients = false
            let actual = try ours.render(snapshot, width: width, height: height)
            let expected = try cairo.render(snapshot, width: width, height: height)
            let empty = try FrameRenderer().render(RenderFixtures.snapshot(width: 300, height: 220, background: Color(red: 0.1, green: 0.15, blue: 0.2), []),
                                                   width: width, height: height)
            // Our coverage is the exact area (SolidFill.swift), cairo's is sampled on 15 sub-rows: they part only where
            // the same shapes filled with a solid colour do, ours against cairo's (translucent, so that an edge over
            // another fill shows).
            let solid = self.snapshot(.solid(Color(red: 1, green: 1, blue: 1, alpha: 0.6)), placement: placement)
            let ourSolid = FrameRenderer(), cairoSolid = FrameRenderer()
            ourSolid.choices.largestScanConvertedFill = .infinity
            cairoSolid.choices.rasterizesFills = false
            // Grown by a pixel: along an edge over another fill, a pixel whose coverage differs too little to change
            // the solid colour's byte can still change a steep gradient's.
            let edges = FrameComparison.grown(FrameComparison.differingPixels(try ourSolid.render(solid, width: width, height: height),
                                                                              try cairoSolid.render(solid, width: width, height: height)),
                                              width: width)
            let inside = FrameComparison(actual, expected, skipping: edges), onEdges = FrameComparison(actual, expected)
            let drawn = FrameComparison.drawnPixels(expected, over: empty)
            // Both interpolate straight colours and premultiply; ours reads a table whose neighbouring entries
            // differ by up to two levels, pixman interpolates exactly; then both round.
            #expect(inside.largest <= 3, "\(name), \(placement), \(width)x\(height): largest difference \(inside.largest), \(inside.beyondTwo) of \(drawn) pixels off by more than 2")
            // On the edges, what cairo's sampling can be off by: an eighth of a pixel's area, 32 levels; inside a
            // clip shape, the fill's and the shape's coverages multiplied, each off by as much.
            let edgeLevels = placement == "clipped" ? 64 : 32
            #expect(onEdges.largest <= edgeLevels, "\(name), \(placement), \(width)x\(height): \(onEdges.largest) on the edges")
            #expect(edges.filter { $0 }.count < drawn / 4, "\(edges.filter { $0 }.count) edge pixels of \(drawn)")
            // Not vacuous: the fill covers a good part of the frame, and our evaluation drew it.
            #expect(drawn > actual.bytes.count / 4 / 20, "\(drawn) pixels drawn")
            #expect(ours.statistics.evaluatedGradientFills == (placement == "faded group" ? 2 : 1) && cairo.statistics.evaluatedGradientFills == 0)
        }
    }

    /// A gradient as a mask, evaluated by our own code over the layer's painted pixels only: the mask cairo applies,
    /// over a thin turned stroke in a tall layer (mostly transparent, as a swing's rope) and over a faded turned fill.
    /// Masks fade alpha (a mask's colour does nothing): from opaque to clear along each kind of gradient.
    static let masks: [(name: String, paint: Paint)] = [
        ("linear fade", .linear(stops: stops([.white, .clear]), start: UnitPoint(x: 0.5, y: 0), end: UnitPoint(x: 0.5, y: 1))),
        ("linear steep", .linear(stops: stops([.clear, .white]), start: UnitPoint(x: 0.45, y: 0.4), end: UnitPoint(x: 0.55, y: 0.5))),
        ("linear rope", .linear(stops: stops([.clear, .clear, .white], at: [0, 0.12, 0.32]), start: .top, end: .bottom)),
        ("radial fade", .radial(stops: stops([.white, rose, .clear]), center: UnitPoint(x: 0.4, y: 0.6), startRadius: 10, endRadius: 90)),
        ("radial inward", .radial(stops: stops([.clear, .white]), center: UnitPoint(x: 0.6, y: 0.4), startRadius: 70, endRadius: 5)),
    ]

    @Test(arguments: masks.indices)
    func aGradientMaskIsTheMaskCairoApplies(_ index: Int) throws {
        let (name, mask) = Self.masks[index]
        let bounds = Rect(x: 60.3, y: 20.6, width: 180, height: 180)
        let rope = Stroke(paint: .solid(Color(red: 0.55, green: 0.42, blue: 0.27)), width: 4, lineCap: .round)
        let line = NodeSnapshot(bounds: bounds, mask: mask, content: .shape(ShapeSnapshot(
            geometry: .path(PathData(commands: [.move(Point(x: 150, y: 22)), .line(Point(x: 120, y: 198))])), fill: nil, stroke: rope)))
        let turned = RenderFixtures.rect(bounds, fill: .solid(Self.teal), transform: RenderFixtures.rotation(degrees: -17, around: Point(x: 150, y: 110)),
                                         opacity: 0.7, mask: mask)
        let swinging = RenderFixtures.group([line], transform: RenderFixtures.rotation(degrees: 7.5, around: Point(x: 150, y: 22)),
                                            bounds: bounds)
        for nodes in [[swinging], [turned]] {
            let snapshot = RenderFixtures.snapshot(width: 300, height: 220, background: Color(red: 0.1, green: 0.15, blue: 0.2), nodes)
            let empty = RenderFixtures.snapshot(width: 300, height: 220, background: Color(red: 0.1, green: 0.15, blue: 0.2), [])
            for (width, height) in [(300, 220), (601, 457)] {
                let ours = FrameRenderer(), cairo = FrameRenderer()
                cairo.choices.evaluatesGradients = false
                let actual = try ours.render(snapshot, width: width, height: height)
                let expected = try cairo.render(snapshot, width: width, height: height)
                let comparison = FrameComparison(actual, expected)
                let drawn = FrameComparison.drawnPixels(expected, over: try FrameRenderer().render(empty, width: width, height: height))
                // Alpha read from a table whose neighbouring entries differ by up to two levels, then multiplied.
                #expect(comparison.largest <= 3, "\(name), \(width)x\(height): largest difference \(comparison.largest)")
                // Not vacuous: the node shows, and our evaluation masked it.
                #expect(drawn > 200, "\(drawn) pixels drawn")
                #expect(ours.statistics.evaluatedGradientMasks == 1 && cairo.statistics.evaluatedGradientMasks == 0)
            }
        }
    }

    /// A mask running straight down the device (as the flower's breath fades towards its words) is applied a row at a
    /// time: rows it leaves opaque are passed by, rows it clears are cleared. The same pixels as visiting each one,
    /// over a layer of every level of every channel, at a scale and offset that put rows on either side of each stop.
    @Test func aMaskRunningDownTheDeviceIsAppliedRowByRowWithTheSamePixels() throws {
        let fade = Paint.linear(stops: Self.stops([.clear, .white, .white, .clear], at: [0, 0.4, 0.7, 1]), start: .top, end: .bottom)
        let bounds = Rect(x: 12.3, y: 7.6, width: 90, height: 70)
        let (width, height) = (280, 230)
        for ctm in [cairo_matrix_t(xx: 3, yx: 0, xy: 0, yy: 3, x0: 0, y0: 0), cairo_matrix_t(xx: 1.37, yx: 0, xy: 0, yy: 2.9, x0: 5.5, y0: -3.25)] {
            let geometry = try #require(GradientGeometry(fade, bounds: bounds, userToDevice: ctm))
            var ramp: [UInt32] = []
            GradientRamp.fill(&ramp, stops: geometry.stops, alpha: 1, hue: 0, count: geometry.rampCount)
            var inverse = ctm
            #expect(cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS)
            // Premultiplied pixels of every alpha and channel level, and transparent ones among them.
            let layer: [UInt32] = (0..<(width * height)).map { i in
                let alpha = UInt32(i * 7 % 256)
                return i % 13 == 0 ? 0 : alpha << 24 | UInt32(i % 251) * alpha / 255 << 16 | UInt32(i * 3 % 253) * alpha / 255 << 8 | UInt32(i * 5 % 241) * alpha / 255
            }
            var byRows = layer, byPixels = layer
            let area = PixelRect(x: 20, y: 10, width: width, height: height)
            ramp.withUnsafeBufferPointer { ramp in
                byRows.withUnsafeMutableBufferPointer {
                    geometry.mask($0.baseAddress!, rowPixels: width, area: area, deviceToUser: inverse, ramp: ramp)
                }
                byPixels.withUnsafeMutableBufferPointer {
                    geometry.mask($0.baseAddress!, rowPixels: width, area: area, deviceToUser: inverse, ramp: ramp, byRows: false)
                }
            }
            #expect(byRows == byPixels)
            // Not vacuous: some rows are left alone, some cleared, some faded.
            let rows = (0..<height).map { row in (0..<width).map { byRows[row * width + $0] } }
            let kept = (0..<height).filter { row in rows[row] == Array(layer[(row * width)..<((row + 1) * width)]) }.count
            let cleared = rows.filter { $0.allSatisfy { $0 == 0 } }.count
            #expect(kept > 10 && cleared > 10 && kept + cleared < height, "\(kept) rows kept, \(cleared) cleared of \(height)")
        }
    }

    /// An outline with a point beyond our scan conversion's reach, or trimmed, is covered by cairo onto the strip
    /// (the other route): still our gradient, close to cairo's, and nothing traps.
    @Test func anOutlineOutOfReachOrTrimmedTakesTheOtherRoute() throws {
        let paint = Self.paints[0].paint
        let far = PathData(commands: [.move(Point(x: 60, y: 40)), .line(Point(x: 240, y: 60)), .line(Point(x: 1e7, y: 180)), .close])
        var trimmed = ShapeSnapshot(geometry: .ellipse(center: Point(x: 150.3, y: 115.6), radiusX: 88, radiusY: 70), fill: paint, stroke: nil)
        trimmed.trimTo = 0.7
        for shape in [ShapeSnapshot(geometry: .path(far), fill: paint, stroke: nil), trimmed] {
            let node = NodeSnapshot(bounds: Rect(x: 60.3, y: 40.6, width: 180, height: 150), content: .shape(shape))
            let snapshot = RenderFixtures.snapshot(width: 300, height: 220, background: Color(red: 0.1, green: 0.15, blue: 0.2), [node])
            let ours = FrameRenderer(), cairo = FrameRenderer()
            cairo.choices.evaluatesGradients = false
            let comparison = FrameComparison(try ours.render(snapshot, width: 300, height: 220), try cairo.render(snapshot, width: 300, height: 220))
            #expect(ours.statistics.evaluatedGradientFills == 1)
            #expect(comparison.largest <= 3, "\(comparison.largest)")
        }
    }

    /// Where a table cannot be exact or the pixels are not whole device pixels, cairo's pattern fills: exactly
    /// cairo's pixels.
    @Test func aHardStopAnAngularGradientAndABlurredLayerAreCairos() throws {
        let hard = Paint.linear(stops: Self.stops([.white, .black, Self.rose, Self.teal], at: [0, 0.5, 0.5, 1]),
                                start: UnitPoint(x: 0, y: 0), end: UnitPoint(x: 1, y: 1))
        let angular = Paint.angular(stops: Self.stops([Self.teal, Self.rose]), center: UnitPoint(x: 0.5, y: 0.5), startAngle: 0, endAngle: 360)
        let smooth = Self.paints[0].paint
        var blurred = snapshot(smooth, placement: "circle")
        blurred.nodes[0].blur = 12  // a sigma of 12: drawn at a quarter of the resolution
        let zeroLength = Paint.radial(stops: Self.stops([Self.teal, Self.rose]), center: UnitPoint(x: 0.5, y: 0.5), startRadius: 20, endRadius: 20)
        // A mask with a hard stop: cairo's pattern masks the layer.
        var hardMask = snapshot(smooth, placement: "circle")
        hardMask.nodes = [RenderFixtures.rect(Rect(x: 60.3, y: 40.6, width: 180, height: 150), fill: .solid(Self.teal), mask: hard)]
        for frame in [snapshot(hard, placement: "circle"), snapshot(angular, placement: "turned"), blurred,
                      snapshot(zeroLength, placement: "circle"), hardMask] {
            let ours = FrameRenderer(), cairo = FrameRenderer()
            cairo.choices.evaluatesGradients = false
            let same = try ours.render(frame, width: 300, height: 220).bytes == cairo.render(frame, width: 300, height: 220).bytes
            #expect(same)
            #expect(ours.statistics.evaluatedGradientFills == 0 && ours.statistics.evaluatedGradientMasks == 0)
        }
    }

    @Test func theColourTableIsTheStopsInterpolatedStraightThenPremultiplied() {
        var ramp: [UInt32] = []
        let half = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        // Stops at 0.25 and 0.75: padded before and after, half way between them at the middle entry.
        GradientRamp.fill(&ramp, stops: Self.stops([half, .white], at: [0.25, 0.75]), alpha: 1, hue: 0, count: 257)
        #expect(ramp.count == 257)
        #expect(ramp[0] == 0x8080_0000 && ramp[64] == 0x8080_0000)
        #expect(ramp[256] == 0xFFFF_FFFF && ramp[192] == 0xFFFF_FFFF)
        // Straight (1, 0.5, 0.5) at alpha 0.75: premultiplied 191, 191, 96, 96.
        #expect(ramp[128] == 0xBFBF_6060, "\(String(ramp[128], radix: 16))")
        // The node's opacity multiplies alpha; hue turns colours, not alpha.
        GradientRamp.fill(&ramp, stops: Self.stops([.white, .white]), alpha: 0.5, hue: 0, count: 256)
        #expect(ramp.allSatisfy { $0 == 0x8080_8080 })
        GradientRamp.fill(&ramp, stops: Self.stops([half, half]), alpha: 1, hue: 180, count: 256)
        #expect(ramp[0] >> 24 == 0x80 && ramp[0] & 0xFF > 0)
        // Unsorted stops read as sorted.
        var sorted: [UInt32] = []
        GradientRamp.fill(&ramp, stops: Self.stops([.white, .black], at: [1, 0]), alpha: 1, hue: 0, count: 256)
        GradientRamp.fill(&sorted, stops: Self.stops([.black, .white], at: [0, 1]), alpha: 1, hue: 0, count: 256)
        #expect(ramp == sorted && sorted[0] == 0xFF00_0000)
    }

    @Test func theTableHasEntriesEnoughForItsSpanAndItsClosestStops() {
        let two = Self.stops([.black, .white])
        #expect(GradientRamp.count(for: two, devicePixels: 10) == 256)
        #expect(GradientRamp.count(for: two, devicePixels: 300) == 602)
        #expect(GradientRamp.count(for: two, devicePixels: 3000) == 1024)
        // Stops 0.01 apart need 6400 entries: more than a table holds.
        #expect(GradientRamp.count(for: Self.stops([.black, .white], at: [0.5, 0.51]), devicePixels: 10) == nil)
        #expect(GradientRamp.count(for: Self.stops([.black, .white], at: [0.5, 0.52]), devicePixels: 10) == 3200)
        // Close stops of one colour are a plateau, not an edge.
        #expect(GradientRamp.count(for: Self.stops([.black, .black, .white], at: [0.5, 0.5, 1]), devicePixels: 10) == 256)
    }

    /// Filled in horizontal bands and in vertical strips, each its own context clipped to its part, a gradient fill
    /// gives the bytes of the fill drawn whole: a pixel depends on its position alone. (cairo filling with the same
    /// pixels as an image source cuts the outline against the clip: a band's edge came out a few levels apart.)
    @Test(arguments: paints.indices)
    func aGradientFillHasTheSamePixelsInAnyPartOfTheTarget(_ index: Int) throws {
        let shape = ShapeSnapshot(geometry: .ellipse(center: Point(x: 150.3, y: 115.6), radiusX: 88, radiusY: 70),
                                  fill: Self.paints[index].paint, stroke: nil)
        let bounds = Rect(x: 60.3, y: 40.6, width: 180, height: 150)
        let turn = RenderFixtures.rotation(degrees: 23, around: Point(x: 150, y: 115)).concatenating(.scale(x: 1.3, y: 0.8))
        let (width, height) = (330, 260)
        func draw(parts: [PixelRect], reference: Bool = false) -> [UInt8] {
            let renderer = FrameRenderer()
            renderer.choices.evaluatesGradients = !reference
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
            defer { cairo_surface_destroy(surface) }
            for part in parts {
                let cr = cairo_create(surface)!
                cairo_rectangle(cr, Double(part.x), Double(part.y), Double(part.width), Double(part.height))
                cairo_clip(cr)
                var matrix = turn.cairoMatrix
                cairo_set_matrix(cr, &matrix)
                renderer.drawShape(shape, bounds: bounds, alpha: 0.8, in: cr)
                cairo_destroy(cr)
            }
            // Parts the fill misses draw nothing.
            #expect(reference ? renderer.statistics.evaluatedGradientFills == 0 : renderer.statistics.evaluatedGradientFills >= min(parts.count, 4))
            cairo_surface_flush(surface)
            let data = cairo_image_surface_get_data(surface)!
            return Array(UnsafeBufferPointer(start: data, count: Int(cairo_image_surface_get_stride(surface)) * height))
        }
        let whole = draw(parts: [PixelRect(x: 0, y: 0, width: width, height: height)])
        let bands = draw(parts: stride(from: 0, to: height, by: 37).map { PixelRect(x: 0, y: $0, width: width, height: min(37, height - $0)) })
        let strips = draw(parts: stride(from: 0, to: width, by: 53).map { PixelRect(x: $0, y: 0, width: min(53, width - $0), height: height) })
        #expect(bands == whole, "\(Self.paints[index].name): bands")
        #expect(strips == whole, "\(Self.paints[index].name): strips")
        // Not vacuous: the fill is drawn, close to cairo's own gradient.
        let cairo = draw(parts: [PixelRect(x: 0, y: 0, width: width, height: height)], reference: true)
        #expect(stride(from: 3, to: whole.count, by: 4).filter { whole[$0] != 0 }.count > width * height / 5)
        // Within what cairo's sampled coverage can be off by on the edges (the colours are compared above).
        #expect(zip(whole, cairo).allSatisfy { abs(Int($0) - Int($1)) <= 32 })
    }

    /// A small square moving across the gradient each frame: its damage areas cut through the fill, which (clip-safe)
    /// is drawn again clipped to them, over the last frame; and on 2 and 3 threads, cut into bands.
    @Test(arguments: paints.indices, ["circle", "turned", "faded and hue", "stroked", "faded group", "clipped"])
    func aGradientFillCutByDamageAreasOrBandsIsTheWholeFrame(_ index: Int, placement: String) throws {
        let still = snapshot(Self.paints[index].paint, placement: placement)
        for (width, height) in [(300, 220), (601, 457)] {
            let damaged = FrameRenderer(), whole = FrameRenderer()
            whole.usesDamage = false
            let threaded = [2, 3].map { FrameRenderer(threads: $0) }
            var cut = 0
            for step in 0..<6 {
                let square = RenderFixtures.rect(Rect(x: 90 + Double(step) * 7.3, y: 60 + Double(step) * 11.1, width: 30, height: 30),
                                                 fill: .solid(RenderFixtures.red))
                let frame = Snapshot(canvas: still.canvas, background: still.background, nodes: [square] + still.nodes)
                let expected = try whole.render(frame, width: width, height: height).bytes
                let same = try damaged.render(frame, width: width, height: height).bytes == expected
                #expect(same, "\(Self.paints[index].name), \(placement), \(width)x\(height), step \(step)")
                for renderer in threaded {
                    let same = try renderer.render(frame, width: width, height: height).bytes == expected
                    #expect(same, "\(Self.paints[index].name), \(placement), \(width)x\(height), step \(step), \(renderer.threads) threads")
                }
                // An area cutting through the fill's rows (the fill spans about half the frame's height).
                if let areas = damaged.statistics.lastDamage, !areas.isEmpty, areas.allSatisfy({ $0.height < height / 4 }) { cut += 1 }
            }
            #expect(cut >= 3, "\(cut) frames drawn in areas cutting through the fill")
        }
    }

    /// Solid fills and strokes inside a clip shape (a kaleidoscope's wedge) go through a coverage of their own, cut
    /// by the wedge strip by strip (a fill's and the wedge's scan-converted, a stroke cairo's through the wedge): drawn again in damage areas and on 2 and 3 threads in bands, they are the whole
    /// frame's bytes; and close to cairo filling and stroking through the clip.
    /// Also in a faded group (a layer covering only the part being drawn), with a child filled and stroked at an
    /// opacity (a layer of its own), and inside a clip on whole pixels (which the context's clip alone could hold).
    /// Two rectangles on whole pixels but for one side: one ending between rows (a band or an area above that row
    /// reads the context's clip as whole pixels, below it not: the fill must take the same way in both), one reaching
    /// beyond our scan conversion (cairo fills through it, in every part).
    @Test(arguments: ["wedge", "faded group", "faded child", "whole-pixel rectangle", "rectangle ending between rows",
                      "rectangle out of reach"])
    func solidFillsAndStrokesInAClipShapeAreTheSameInAnyPart(_ variant: String) throws {
        let straight = variant.hasPrefix("whole-pixel") || variant.hasPrefix("rectangle")
        let wedge: Geometry = switch variant {
        case "whole-pixel rectangle": .rect(Rect(x: 40, y: 10, width: 220, height: 190), cornerRadius: 0)
        case "rectangle ending between rows": .rect(Rect(x: 40, y: 10, width: 220, height: 100.5), cornerRadius: 0)
        case "rectangle out of reach": .rect(Rect(x: 40, y: 10, width: 2e6, height: 190), cornerRadius: 0)
        default: .path(PathData(commands: [.move(Point(x: 150.3, y: 200.4)), .line(Point(x: 40.7, y: 10.2)),
                                           .line(Point(x: 262.1, y: 15.9)), .close]))
        }
        func frame(_ step: Int) -> Snapshot {
            let circle = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 300, height: 220), opacity: 0.85, content: .shape(ShapeSnapshot(
                geometry: .ellipse(center: Point(x: 120.4 + Double(step) * 3.3, y: 80.6), radiusX: 28, radiusY: 28),
                fill: .solid(Color(red: 1, green: 0.37, blue: 0.64)), stroke: nil)))
            let hairline = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 300, height: 220), content: .shape(ShapeSnapshot(
                geometry: .path(PathData(commands: [.move(Point(x: 150.3, y: 200.4)), .line(Point(x: 170.1, y: 12.6))])), fill: nil,
                stroke: Stroke(paint: .solid(Color(red: 1, green: 1, blue: 1, alpha: 0.13)), width: 1))))
            let dashed = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 300, height: 220), content: .shape(ShapeSnapshot(
                geometry: .ellipse(center: Point(x: 160, y: 60), radiusX: 40, radiusY: 25), fill: .solid(Color(red: 0.37, green: 0.83, blue: 1)),
                stroke: Stroke(paint: .solid(.white), width: 3.5, dash: [7, 4], lineCap: .butt, lineJoin: .miter))))
            var dashedChild = dashed
            if variant == "faded child" { dashedChild.opacity = 0.8 }
            var group = RenderFixtures.group([circle, hairline, dashedChild],
                                             transform: straight ? .identity
                                                : RenderFixtures.rotation(degrees: 7 + Double(step) * 0.6, around: Point(x: 150, y: 110)),
                                             opacity: variant == "faded group" ? 0.9 : 1,
                                             bounds: Rect(x: 0, y: 0, width: 300, height: 220))
            group.clipShape = wedge
            let square = RenderFixtures.rect(Rect(x: 60 + Double(step) * 17.3, y: 150 - Double(step) * 9.1, width: 24, height: 24),
                                             fill: .solid(RenderFixtures.red))
            return RenderFixtures.snapshot(width: 300, height: 220, background: Color(red: 0.1, green: 0.15, blue: 0.2), [group, square])
        }
        for (width, height) in [(300, 220), (601, 457)] {
            let damaged = FrameRenderer(), whole = FrameRenderer(), cairo = FrameRenderer()
            whole.usesDamage = false
            cairo.choices.evaluatesGradients = false
            let threaded = [2, 3, 4].map { FrameRenderer(threads: $0) }
            for renderer in threaded { renderer.smallestLayeredShare = 0 }
            for step in 0..<8 {
                let snapshot = frame(step % 2 == 0 ? 0 : step)
                let expected = try whole.render(snapshot, width: width, height: height)
                let same = try damaged.render(snapshot, width: width, height: height).bytes == expected.bytes
                #expect(same, "\(variant), \(width)x\(height), step \(step), in areas \(String(describing: damaged.statistics.lastDamage))")
                for renderer in threaded {
                    let same = try renderer.render(snapshot, width: width, height: height).bytes == expected.bytes
                    #expect(same, "\(variant), \(width)x\(height), step \(step), \(renderer.threads) threads")
                }
                let reference = try cairo.render(snapshot, width: width, height: height)
                let largest = FrameComparison(expected, reference).largest
                // cairo samples coverage on a grid of sub-pixels, an eighth of a pixel's area off at most (32 levels);
                // ours is the fills' and the wedge's exact areas multiplied (the strokes, cairo's own on a strip).
                #expect(largest <= 32, "\(variant), \(width)x\(height), step \(step): \(largest) levels from cairo")
            }
            // Not vacuous: the fills and strokes went through coverages, and some frames were drawn in areas.
            // (A faded child's layer is drawn without the clip, then painted through it: its fill and stroke are not.)
            #expect(whole.statistics.coveredSolids >= 8 * (variant == "faded child" ? 2 : 4) && cairo.statistics.coveredSolids == 0, "\(whole.statistics.coveredSolids) covered")
            #expect(damaged.statistics.lastDamage != nil)
        }
    }

    /// Values no document holds but arithmetic can make (a computed stop, a transform that overflows): drawn or
    /// skipped, never a trap.
    @Test func nonFiniteValuesDoNotTrap() throws {
        let nan = Paint.linear(stops: [GradientStop(location: .nan, color: Self.teal), GradientStop(location: 1, color: Color(red: .nan, green: 0, blue: 0))],
                               start: UnitPoint(x: 0, y: 0), end: UnitPoint(x: 1, y: 1))
        let huge = Paint.radial(stops: Self.stops([Self.teal, Self.rose]), center: UnitPoint(x: 0.5, y: 0.5), startRadius: 0, endRadius: 1e-300)
        for paint in [nan, huge] {
            _ = try FrameRenderer().render(snapshot(paint, placement: "circle"), width: 300, height: 220)
        }
        // A device-to-node matrix that overflows: every index is NaN or infinite, each read clamped into the table.
        var ramp: [UInt32] = []
        GradientRamp.fill(&ramp, stops: Self.stops([Self.teal, Self.rose]), alpha: 1, hue: 0, count: 256)
        var pixels = [UInt32](repeating: 7, count: 16)
        for paint in [Self.paints[0].paint, Self.paints[3].paint] {
            let geometry = try #require(GradientGeometry(paint, bounds: Rect(x: 0, y: 0, width: 100, height: 100),
                                                         userToDevice: cairo_matrix_t(xx: 1, yx: 0, xy: 0, yy: 1, x0: 0, y0: 0)))
            let overflowing = cairo_matrix_t(xx: .infinity, yx: -.infinity, xy: .nan, yy: 1e308, x0: -.infinity, y0: 1e308)
            ramp.withUnsafeBufferPointer { table in
                pixels.withUnsafeMutableBufferPointer {
                    geometry.evaluate(into: $0.baseAddress!, rowPixels: 4, area: PixelRect(x: 0, y: 0, width: 4, height: 4),
                                      deviceToUser: overflowing, ramp: table)
                }
            }
            #expect(pixels.allSatisfy { ramp.contains($0) })
        }
        var table: [UInt32] = []
        GradientRamp.fill(&table, stops: [GradientStop(location: .nan, color: Color(red: .nan, green: 1, blue: 0, alpha: .nan))],
                          alpha: 1, hue: 0, count: 256)
        #expect(table.count == 256)
    }
}
