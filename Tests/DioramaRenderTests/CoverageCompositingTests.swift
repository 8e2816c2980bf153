import DioramaDocument
@testable import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

private typealias AffineTransform = DioramaTimeline.AffineTransform

/// Gradient and translucent fills and strokes blended through a coverage mask by the renderer itself must look
/// as cairo draws them: translucent colours exactly, gradients within one level on a few pixels.
@Suite struct CoverageCompositingTests {
    /// The frame drawn with the renderer's own compositing and with cairo's.
    private func both(_ snapshot: Snapshot, width: Int = 160, height: Int = 120) throws -> (own: RenderedFrame, cairo: RenderedFrame) {
        let own = FrameRenderer()
        let cairo = FrameRenderer()
        cairo.compositesCoverage = false
        return (try own.render(snapshot, width: width, height: height), try cairo.render(snapshot, width: width, height: height))
    }

    /// The largest difference of any channel, and how many pixels differ at all.
    private func difference(_ a: RenderedFrame, _ b: RenderedFrame) -> (largest: Int, pixels: Int) {
        var largest = 0, pixels = 0
        for index in stride(from: 0, to: a.bytes.count, by: 4) {
            var differs = false
            for channel in 0..<4 {
                let d = abs(Int(a.bytes[index + channel]) - Int(b.bytes[index + channel]))
                largest = max(largest, d)
                differs = differs || d > 0
            }
            if differs { pixels += 1 }
        }
        return (largest, pixels)
    }

    private static let petal = Geometry.path(PathData(commands: [
        .move(Point(x: 80, y: 110)),
        .cubic(control1: Point(x: 104, y: 90), control2: Point(x: 105, y: 52), to: Point(x: 80, y: 30)),
        .cubic(control1: Point(x: 55, y: 52), control2: Point(x: 56, y: 90), to: Point(x: 80, y: 110)),
        .close,
    ]))
    private static let petalBounds = Rect(x: 55, y: 30, width: 50, height: 80)

    private func shape(_ geometry: Geometry, bounds: Rect, fill: Paint?, stroke: Stroke? = nil,
                       transform: AffineTransform = .identity, opacity: Double = 1, trimTo: Double = 1) -> NodeSnapshot {
        NodeSnapshot(transform: transform, bounds: bounds, opacity: opacity,
                     content: .shape(ShapeSnapshot(geometry: geometry, fill: fill, stroke: stroke, trimTo: trimTo)))
    }

    private static let translucent = Color(red: 0.9, green: 0.35, blue: 0.6, alpha: 0.43)
    private static let ramp = [GradientStop(location: 0, color: Color(red: 0.56, green: 0.11, blue: 0.36)),
                               GradientStop(location: 0.6, color: Color(red: 0.85, green: 0.28, blue: 0.56, alpha: 0.8)),
                               GradientStop(location: 1, color: Color(red: 1, green: 0.61, blue: 0.78))]
    private static let background = Paint.linear(stops: [GradientStop(location: 0, color: Color(red: 0.1, green: 0.2, blue: 0.4)),
                                                         GradientStop(location: 1, color: Color(red: 0.9, green: 0.7, blue: 0.3))],
                                                 start: .top, end: .bottom)

    private func scene(_ nodes: [NodeSnapshot]) -> Snapshot {
        Snapshot(canvas: Size(width: 160, height: 120), background: Self.background, nodes: nodes)
    }

    @Test(arguments: [0.0, 17.0, -50.0])
    func translucentFillsAndStrokesMatchCairoExactly(degrees: Double) throws {
        let turn = RenderFixtures.rotation(degrees: degrees, around: Point(x: 80, y: 110))
        let stroke = Stroke(paint: .solid(Color(red: 1, green: 1, blue: 1, alpha: 0.19)), width: 1.5, dash: [], dashPhase: 0,
                            lineCap: .butt, lineJoin: .miter)
        let frames = try both(scene([
            shape(Self.petal, bounds: Self.petalBounds, fill: .solid(Self.translucent), stroke: stroke, transform: turn),
            shape(.ellipse(center: Point(x: 40.3, y: 60.7), radiusX: 30.2, radiusY: 12.5), bounds: Self.petalBounds,
                  fill: .solid(Self.translucent), transform: turn, opacity: 0.7),
            shape(.rect(Rect(x: 100.25, y: 10.5, width: 50.3, height: 30.7), cornerRadius: 0), bounds: Self.petalBounds,
                  fill: .solid(Self.translucent)),
            shape(.rect(Rect(x: 10, y: 80, width: 60, height: 30), cornerRadius: 8), bounds: Self.petalBounds,
                  fill: nil, stroke: Stroke(paint: .solid(Self.translucent), width: 4, dash: [6, 3], dashPhase: 1,
                                            lineCap: .round, lineJoin: .round), transform: turn),
        ]))
        let difference = difference(frames.own, frames.cairo)
        #expect(difference.largest == 0, "largest channel difference \(difference.largest) on \(difference.pixels) pixels")
    }

    @Test(arguments: [0.0, 17.0, -50.0])
    func gradientFillsAndStrokesMatchCairoWithinOneLevel(degrees: Double) throws {
        let turn = RenderFixtures.rotation(degrees: degrees, around: Point(x: 80, y: 110))
            .concatenating(AffineTransform(a: 1.04, b: 0, c: 0, d: 1.04, tx: -3.2, ty: -4.4))
        let linear = Paint.linear(stops: Self.ramp, start: .bottom, end: .top)
        let radial = Paint.radial(stops: Self.ramp, center: .center, startRadius: 0, endRadius: 30)
        let frames = try both(scene([
            shape(Self.petal, bounds: Self.petalBounds, fill: linear,
                  stroke: Stroke(paint: radial, width: 3, dash: [], dashPhase: 0, lineCap: .butt, lineJoin: .miter), transform: turn),
            shape(.ellipse(center: Point(x: 40, y: 40), radiusX: 30, radiusY: 30), bounds: Rect(x: 10, y: 10, width: 60, height: 60),
                  fill: radial, opacity: 0.8),
            shape(.rect(Rect(x: 100, y: 70, width: 50, height: 40), cornerRadius: 6), bounds: Rect(x: 100, y: 70, width: 50, height: 40),
                  fill: .linear(stops: Self.ramp, start: .leading, end: .trailing), transform: turn),
        ]))
        let difference = difference(frames.own, frames.cairo)
        #expect(difference.largest <= 1, "largest channel difference \(difference.largest)")
        #expect(difference.pixels <= 160 * 120 / 100, "\(difference.pixels) pixels differ")
    }

    @Test func insideALayerThePaintLandsWhereCairoPutsIt() throws {
        // Opacity on a group makes a layer with a device offset; a hue rotation changes the paints.
        let children = [
            shape(Self.petal, bounds: Self.petalBounds, fill: .linear(stops: Self.ramp, start: .bottom, end: .top),
                  stroke: Stroke(paint: .solid(Self.translucent), width: 2, dash: [], dashPhase: 0, lineCap: .butt, lineJoin: .miter)),
            shape(.ellipse(center: Point(x: 60, y: 60), radiusX: 25, radiusY: 15), bounds: Self.petalBounds, fill: .solid(Self.translucent)),
        ]
        let group = NodeSnapshot(transform: .translation(x: 13.5, y: -7.25), bounds: Self.petalBounds, opacity: 0.6,
                                 hueRotation: 40, content: .group(children))
        let frames = try both(scene([group]))
        let difference = difference(frames.own, frames.cairo)
        #expect(difference.largest <= 1, "largest channel difference \(difference.largest)")
        #expect(difference.pixels <= 160 * 120 / 100, "\(difference.pixels) pixels differ")
    }

    @Test func aPaintOnATrimmedOrClippedShapeCoversOnlyWhatCairoCovers() throws {
        // Half a petal outline, and a shape reaching past the canvas (clipped to the letterboxed frame).
        let stroke = Stroke(paint: .linear(stops: Self.ramp, start: .top, end: .bottom), width: 5, dash: [], dashPhase: 0,
                            lineCap: .round, lineJoin: .round)
        let frames = try both(scene([
            shape(Self.petal, bounds: Self.petalBounds, fill: nil, stroke: stroke, trimTo: 0.5),
            shape(.ellipse(center: Point(x: 150, y: 110), radiusX: 40, radiusY: 30), bounds: Self.petalBounds,
                  fill: .solid(Self.translucent)),
        ]), width: 200, height: 120)
        let difference = difference(frames.own, frames.cairo)
        #expect(difference.largest <= 1, "largest channel difference \(difference.largest)")
        #expect(difference.pixels <= 200 * 120 / 100, "\(difference.pixels) pixels differ")
    }

    @Test func theSameSnapshotGivesTheSamePixelsEveryTime() throws {
        let node = shape(Self.petal, bounds: Self.petalBounds, fill: .linear(stops: Self.ramp, start: .bottom, end: .top),
                         transform: RenderFixtures.rotation(degrees: 23, around: Point(x: 80, y: 110)))
        let renderer = FrameRenderer()
        let first = try renderer.render(scene([node]), width: 160, height: 120)
        _ = try renderer.render(scene([]), width: 160, height: 120)
        #expect(try renderer.render(scene([node]), width: 160, height: 120) == first)
        #expect(try FrameRenderer().render(scene([node]), width: 160, height: 120) == first)
    }
}
