@testable import DioramaRender
import CCairo
import DioramaDocument
import DioramaTestSupport
@testable import DioramaTimeline
import Foundation
import Testing

/// Opaque bands hide what is drawn before them (Occlusion.swift): frames come out exactly as drawn in full.
@Suite struct OcclusionTests {
    static let root = ShippedScenesTests.repositoryRoot

    /// How the frames are handed to the renderer.
    enum Buffer: CaseIterable {
        /// One buffer the caller vouches for (drawn over where it changed).
        case vouched
        /// A buffer filled with junk before every frame, not vouched for (the renderer's own copy of the last frame).
        case junk
        /// A buffer of junk, and no damage areas: every frame drawn whole.
        case junkWhole
    }

    /// The shipped playlist and the peer's animation, played in order at two sizes, on one thread and on two, into
    /// each kind of buffer: every frame equals the frame drawn with nothing hidden (junk would show through a row
    /// hidden by mistake), and something was hidden on most frames of the scenes with waves.
    @Test(arguments: ["scenes.json", "bench/peer/scenes.json"], [1, 2])
    func framesEqualTheFramesDrawnWithNothingHidden(file: String, threads: Int) throws {
        let loaded = try DocumentLoader.load(path: Self.root.appendingPathComponent(file).path)
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        for buffer in Buffer.allCases {
            for (width, height) in [(640, 360), (1001, 563)] {
                let renderer = FrameRenderer(imageDirectory: directory, threads: threads)
                renderer.usesDamage = buffer != .junkWhole
                let reference = FrameRenderer(imageDirectory: directory)
                (reference.choices.usesOcclusion, reference.usesDamage) = (false, false)
                var pixels = [UInt8](repeating: 0, count: width * height * 4)
                for (index, scene) in loaded.document.scenes.enumerated() {
                    var hidden = 0
                    let frames = Int(min(scene.duration.doubleValue, 3) * 10)
                    for k in 0..<frames {
                        let snapshot = evaluator.snapshot(scene: index, at: Double(k) / 10)
                        if buffer != .vouched { pixels.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0xA5) } }
                        let before = renderer.occludedPartsOnAllThreads
                        try pixels.withUnsafeMutableBytes { bytes in
                            try renderer.render(snapshot, into: bytes.baseAddress!, width: width, height: height, stride: width * 4,
                                                holdsLastFrame: buffer == .vouched)
                        }
                        if renderer.occludedPartsOnAllThreads > before { hidden += 1 }
                        let expected = try reference.render(snapshot, width: width, height: height)
                        guard pixels == expected.bytes else {
                            Issue.record("""
                                \(scene.id) at \(Double(k) / 10) s (\(width)x\(height), \(buffer)) differs from the frame with \
                                nothing hidden
                                """)
                            return
                        }
                    }
                    if ["ocean", "peer"].contains(scene.id) {
                        #expect(hidden >= frames - 1, "\(scene.id), \(buffer): \(hidden) of \(frames) frames hid rows")
                    }
                }
            }
        }
    }

    /// A wave as the evaluator writes it is an opaque band below its lowest curve point; other outlines are not.
    @Test func aWaveCoversTheRowsBelowItsCurve() throws {
        let wave = EvaluationContext.wavePath(WaveShape(rect: Rect(x: -80, y: 300, width: 1440, height: 640), control1X: 0.4, control2X: 0.6),
                                           yOffset: 0.05)
        let band = try #require(FrameRenderer.waveBand(wave))
        #expect(band.left == -80 && band.right == 1360 && band.bottom == 940)
        #expect(band.top == 300 + 0.05 * 640, "the lowest control point")
        // Open, reversed, with its bottom above the curve or a point that is not a number: no band.
        var open = wave
        open.commands.removeLast()
        #expect(FrameRenderer.waveBand(open) == nil)
        let reversed = PathData(commands: [.move(Point(x: 100, y: 0)), .line(Point(x: 0, y: 0)), .line(Point(x: 0, y: 50)),
                                           .line(Point(x: 100, y: 50)), .close])
        #expect(FrameRenderer.waveBand(reversed) == nil)
        let shallow = PathData(commands: [.move(Point(x: 0, y: 0)), .cubic(control1: Point(x: 30, y: 80), control2: Point(x: 60, y: 0),
                                                                           to: Point(x: 100, y: 0)),
                                          .line(Point(x: 100, y: 50)), .line(Point(x: 0, y: 50)), .close])
        #expect(FrameRenderer.waveBand(shallow) == nil)
        var broken = wave
        broken.commands[1] = .cubic(control1: Point(x: .nan, y: 300), control2: Point(x: 900, y: 280), to: Point(x: 1360, y: 300))
        #expect(FrameRenderer.waveBand(broken) == nil)
    }

    /// Only an opaque solid fill, upright, with nothing applied to it after drawing, hides what lies beneath; its
    /// band is whole device pixels inside the outline.
    @Test func onlyOpaqueUprightFillsHide() throws {
        let renderer = FrameRenderer()
        let ctm = cairo_matrix_t(xx: 0.5, yx: 0, xy: 0, yy: 0.5, x0: 0, y0: 10)
        let square = Rect(x: 10.5, y: 20.5, width: 100, height: 60)
        let band = try #require(renderer.opaqueBand(of: RenderFixtures.rect(square), ctm: ctm))
        #expect(band == PixelRect(x: 6, y: 21, width: 49, height: 29))
        #expect(renderer.opaqueBand(of: RenderFixtures.rect(square, shadow: Shadow(color: .black, radius: 4)), ctm: ctm) != nil)
        let hidesNothing = [
            RenderFixtures.rect(square, fill: .solid(Color(red: 1, green: 0, blue: 0, alpha: 0.99))),
            RenderFixtures.rect(square, opacity: 0.99),
            RenderFixtures.rect(square, blur: 1),
            RenderFixtures.rect(square, hueRotation: 30),
            RenderFixtures.rect(square, mask: .solid(.black)),
            RenderFixtures.rect(square, cornerRadius: 4),
            RenderFixtures.rect(square, transform: Transform2D(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)),
            { var node = RenderFixtures.rect(square)
              node.content = .shape(ShapeSnapshot(geometry: .ellipse(center: Point(x: 60, y: 50), radiusX: 40, radiusY: 40), fill: .solid(.white), stroke: nil))
              return node }(),
            { var node = RenderFixtures.rect(square); node.clipShape = .rect(square, cornerRadius: 0); return node }(),
            { var node = RenderFixtures.rect(square)
              if case .shape(var shape) = node.content { shape.trimTo = 0.9; node.content = .shape(shape) }
              return node }(),
            RenderFixtures.rect(square, fill: .linear(stops: [GradientStop(location: 0, color: .black), GradientStop(location: 1, color: .white)],
                                                      start: UnitPoint(x: 0, y: 0), end: UnitPoint(x: 1, y: 1))),
        ]
        for node in hidesNothing { #expect(renderer.opaqueBand(of: node, ctm: ctm) == nil, "\(node)") }
    }
}
