import CCairo
@testable import DioramaRender
import DioramaDocument
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Reduced (widely blurred) layers painted by pixman with a transform of their own, only around their ink
/// (`paintReducedLayer`, NodeDrawing.swift).
@Suite struct ReducedLayerTests {
    private static func differing(_ frame: RenderedFrame, _ expected: RenderedFrame) -> Int {
        frame.bytes == expected.bytes ? 0 : zip(frame.bytes, expected.bytes).filter { $0 != $1 }.count
    }

    /// The largest difference of any channel of any pixel.
    private static func largestDifference(_ frame: RenderedFrame, _ expected: RenderedFrame) -> Int {
        zip(frame.bytes, expected.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// Blurs of several reduction factors (5 to 16), faint and strong, at fractional places, over a background with
    /// detail: a glow; a square cut by a clip shape after its blur (cairo paints it); the same with a shadow (cut in
    /// its layer, which pixman paints); and a glow inside a group's layer (its opacity), which the reduced layer is
    /// painted onto, away from the frame's origin.
    private static func frame(blur: Double, opacity: Double, glowAt x: Double = 120.3) -> Snapshot {
        var random = SeededRandom(seed: 0xB1A2)
        let stripes = (0..<12).map { index in
            RenderFixtures.rect(Rect(x: Double(index) * 27.5, y: 0, width: 13, height: 300),
                                fill: .solid(Color(red: random(), green: random(), blue: random(), alpha: 1)))
        }
        let fading = Paint.radial(stops: [GradientStop(location: 0, color: .white), GradientStop(location: 1, color: Color(red: 1, green: 1, blue: 1, alpha: 0))],
                                  center: UnitPoint(x: 0.5, y: 0.5), startRadius: 0, endRadius: 45)
        let glow = NodeSnapshot(transform: .translation(x: x, y: 70.5), bounds: Rect(x: 0, y: 0, width: 90, height: 60), opacity: opacity,
                                blur: blur, content: .shape(ShapeSnapshot(geometry: .ellipse(center: Point(x: 45, y: 30), radiusX: 45, radiusY: 30),
                                                                          fill: fading, stroke: nil)))
        var cut = RenderFixtures.rect(Rect(x: 180.25, y: 150.5, width: 70, height: 40), fill: .solid(.white), opacity: opacity, blur: blur)
        cut.clipShape = .ellipse(center: Point(x: 215, y: 170), radiusX: 50, radiusY: 30)
        var shadowed = cut
        shadowed.transform = .translation(x: -150, y: 60)
        shadowed.shadow = Shadow(color: Color(red: 0, green: 0, blue: 0.3, alpha: 0.8), radius: 3, x: 4, y: 4)
        var inner = glow
        inner.transform = .translation(x: 30.5, y: 20.25)
        let group = RenderFixtures.group([inner], transform: .translation(x: 150, y: 150), opacity: 0.7,
                                         bounds: Rect(x: 0, y: 0, width: 150, height: 120))
        return RenderFixtures.snapshot(width: 320, height: 300, background: Color(red: 0.1, green: 0.1, blue: 0.2),
                                       stripes + [glow, cut, shadowed, group])
    }

    private static let cases: [(blur: Double, opacity: Double)] = [13, 24, 37, 60].flatMap { blur in [1.0, 0.45, 0.04].map { (blur, $0) } }

    /// Painted around its ink, a layer is the layer painted over all it may reach, byte for byte, on one and two threads.
    @Test func aLayerPaintedAroundItsInkIsTheLayerPaintedWhole() throws {
        let reference = FrameRenderer()
        reference.choices.tightensReducedLayers = false
        let renderers = [FrameRenderer(), FrameRenderer(threads: 2)]
        for (blur, opacity) in Self.cases {
            let expected = try reference.render(Self.frame(blur: blur, opacity: opacity), width: 320, height: 300)
            for renderer in renderers {
                let drawn = try renderer.render(Self.frame(blur: blur, opacity: opacity), width: 320, height: 300)
                #expect(Self.differing(drawn, expected) == 0, "blur \(blur), opacity \(opacity), \(renderer.threads) threads")
            }
        }
        // The glow, the shadowed square and the glow in the group's layer, in every frame.
        #expect(renderers[0].statistics.reducedLayersPaintedByPixman == 3 * Self.cases.count)
        #expect(reference.statistics.reducedLayersPaintedByPixman == 3 * Self.cases.count)
    }

    /// pixman's paint is cairo's but for a rounding of where the samples fall: within two levels.
    @Test func aLayerPaintedByPixmanIsCloseToCairos() throws {
        let reference = FrameRenderer()
        reference.choices.paintsReducedLayersWithPixman = false
        let renderer = FrameRenderer()
        for (blur, opacity) in Self.cases {
            let frame = Self.frame(blur: blur, opacity: opacity)
            let difference = Self.largestDifference(try renderer.render(frame, width: 320, height: 300),
                                                    try reference.render(frame, width: 320, height: 300))
            #expect(difference <= 2, "blur \(blur), opacity \(opacity): \(difference) levels")
        }
        #expect(reference.statistics.reducedLayersPaintedByPixman == 0)
        #expect(renderer.statistics.reducedLayersPaintedByPixman == 3 * Self.cases.count)
    }

    /// The shipped scenes with wide blurs (the flower's breath among them), at times across the blurs, on one and two
    /// threads: painted around their ink, the same frames as painted whole. 5.9 s catches the breath at its widest
    /// blur still showing.
    @Test func theShippedScenesAreTheSameAroundTheInk() throws {
        let loaded = try DocumentLoader.load(path: ShippedScenesTests.repositoryRoot.appendingPathComponent("scenes.json").path)
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        for threads in [1, 2] {
            let renderer = FrameRenderer(imageDirectory: directory, threads: threads)
            let reference = FrameRenderer(imageDirectory: directory)
            reference.choices.tightensReducedLayers = false
            defer { #expect(renderer.statistics.reducedLayersPaintedByPixman > 0 || threads > 1) }
            for index in loaded.document.scenes.indices {
                for time in [0.5, 4.4, 5.3, 5.9, 6.8, 7.9] {
                    let snapshot = evaluator.snapshot(scene: index, at: time)
                    let frame = try renderer.render(snapshot, width: 640, height: 360)
                    let expected = try reference.render(snapshot, width: 640, height: 360)
                    #expect(Self.differing(frame, expected) == 0, "\(loaded.document.scenes[index].id) at \(time) s, \(threads) threads")
                }
            }
        }
    }

    /// A layer with strong pixels at its ink's edges (single pixels, a pixel at each corner), for every factor and
    /// several places of its origin: painted around the ink, every pixel of the target is as painted whole.
    @Test func theInksMarginHoldsEverySampleThatReachesIt() throws {
        for factor in [2, 3, 5, 8, 16] {
            for (x, y) in [(0, 0), (3, 2), (6, 5)] {
                for origin in [(x: -7, y: 3), (x: 11, y: -2)] {
                    let layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 8, 7)!
                    defer { cairo_surface_destroy(layer) }
                    let stride = Int(cairo_image_surface_get_stride(layer)) / 4
                    let pixels = UnsafeMutableRawPointer(cairo_image_surface_get_data(layer)!).assumingMemoryBound(to: UInt32.self)
                    pixels.update(repeating: 0, count: stride * 7)
                    pixels[y * stride + x] = 0xFFFF_FFFF
                    pixels[(y + 1) * stride + min(x + 1, 7)] = 0x8040_2010
                    cairo_surface_mark_dirty(layer)
                    func painted(tight: Bool) -> [UInt8] {
                        let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 160, 140)!
                        defer { cairo_surface_destroy(target) }
                        let cr = cairo_create(target)!
                        cairo_set_source_rgba(cr, 0.2, 0.3, 0.4, 1)
                        cairo_paint(cr)
                        let renderer = FrameRenderer()
                        renderer.choices.tightensReducedLayers = tight
                        #expect(renderer.paintReducedLayer(layer, origin: origin, factor: factor,
                                                           within: PixelRect(x: 0, y: 0, width: 160, height: 140), in: cr))
                        cairo_destroy(cr)
                        cairo_surface_flush(target)
                        return Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(target)!, count: Int(cairo_image_surface_get_stride(target)) * 140))
                    }
                    let whole = painted(tight: false), tight = painted(tight: true)
                    #expect(whole != [UInt8](repeating: whole[0], count: whole.count), "factor \(factor): the layer shows")
                    #expect(tight == whole, "factor \(factor), ink at (\(x), \(y)), origin \(origin)")
                }
            }
        }
    }
}
