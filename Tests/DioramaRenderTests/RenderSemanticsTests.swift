import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Pixel tests that need no golden images: each checks one meaning SwiftUI gives a modifier.
@Suite struct RenderSemanticsTests {
    private func render(_ snapshot: Snapshot, _ width: Int = 100, _ height: Int = 100) throws -> RenderedFrame {
        try FrameRenderer().render(snapshot, width: width, height: height)
    }

    private func channels(_ pixel: UInt32) -> (a: Int, r: Int, g: Int, b: Int) {
        (Int(pixel >> 24), Int((pixel >> 16) & 0xFF), Int((pixel >> 8) & 0xFF), Int(pixel & 0xFF))
    }

    /// The centre of mass of red coverage (red minus green, so white does not count), in pixel centres.
    private func redCentroid(_ frame: RenderedFrame) -> (x: Double, y: Double, mass: Double) {
        var (sx, sy, mass) = (0.0, 0.0, 0.0)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let c = channels(frame.pixel(x: x, y: y))
                let weight = Double(max(0, c.r - c.g))
                sx += weight * (Double(x) + 0.5)
                sy += weight * (Double(y) + 0.5)
                mass += weight
            }
        }
        return (sx / mass, sy / mass, mass)
    }

    @Test func redSquareOffsetByEaseInOutSitsWhereTheCurvePredicts() throws {
        // A 20-point square moving 60 points right over 1 s with easeInOut, sampled at 0.3 s.
        let progress = RenderFixtures.easeInOut(0.3)
        let offset = 60 * progress
        let square = RenderFixtures.rect(Rect(x: 10, y: 40, width: 20, height: 20),
                                         transform: .translation(x: offset, y: 0))
        let frame = try render(RenderFixtures.snapshot([square]))
        let centre = redCentroid(frame)
        #expect(abs(centre.x - (20 + offset)) < 0.05, "centre x \(centre.x), expected \(20 + offset)")
        #expect(abs(centre.y - 50) < 0.05)
        #expect(progress > 0.15 && progress < 0.25, "easeInOut(0.3) is about 0.2, not linear 0.3")
    }

    @Test func rotationAroundTopTrailingKeepsThatCornerFixed() throws {
        // A 40×40 square whose top-trailing corner is at (70, 30), turned 30 degrees around that corner.
        let rect = Rect(x: 30, y: 30, width: 40, height: 40)
        let corner = rect.point(at: .topTrailing)
        let node = RenderFixtures.rect(rect, fill: .solid(.white),
                                       transform: RenderFixtures.rotation(degrees: 30, around: corner))
        let frame = try render(RenderFixtures.snapshot([node]))
        // Just inside the corner along the rotated edges the square is still there...
        let inside = Transform2D.rotation(degrees: 30).apply(to: Point(x: -3, y: 3))
        let c = channels(frame.pixel(x: Int(corner.x + inside.x), y: Int(corner.y + inside.y)))
        #expect(c.r > 240)
        // ...while the unrotated square's bottom-leading area is now empty and the corner region beyond is empty.
        #expect(channels(frame.pixel(x: 32, y: 67)).r == 0)
        #expect(channels(frame.pixel(x: 73, y: 27)).r == 0)
        // The rotated bottom-trailing corner moved to where the rotation puts it.
        let moved = RenderFixtures.rotation(degrees: 30, around: corner).apply(to: rect.point(at: .bottomTrailing))
        let towardsCentre = Transform2D.rotation(degrees: 30).apply(to: Point(x: -3, y: -3))
        #expect(channels(frame.pixel(x: Int(moved.x + towardsCentre.x), y: Int(moved.y + towardsCentre.y))).r > 240)
    }

    @Test func opacityHalfInsideHalfGivesAQuarter() throws {
        let inner = RenderFixtures.rect(Rect(x: 20, y: 20, width: 60, height: 60), fill: .solid(.white), opacity: 0.5)
        let outer = RenderFixtures.group([inner], opacity: 0.5)
        let frame = try render(RenderFixtures.snapshot([outer]))
        let c = channels(frame.pixel(x: 50, y: 50))
        #expect(abs(c.r - 64) <= 1, "white at 0.25 over black is 64, got \(c.r)")
        #expect(c.a == 255)
    }

    /// A wide blur is drawn small and enlarged (a reduced layer); its opacity scales every pixel of it alike: within a
    /// level of the opaque blur's pixel times the opacity (the opacity is applied to the small layer before it is
    /// enlarged), on black, across the whole blurred square.
    @Test func opacityScalesAWideBlurEverywhere() throws {
        func blurred(_ opacity: Double) throws -> RenderedFrame {
            try render(RenderFixtures.snapshot(width: 200, height: 200, [
                RenderFixtures.rect(Rect(x: 60, y: 60, width: 80, height: 80), fill: .solid(.white), opacity: opacity, blur: 24)]),
                200, 200)
        }
        let opaque = try blurred(1)
        for opacity in [0.5, 0.2] {
            let faint = try blurred(opacity)
            var worst = 0, lit = 0
            for y in stride(from: 0, to: 200, by: 3) {
                for x in stride(from: 0, to: 200, by: 3) {
                    let full = channels(opaque.pixel(x: x, y: y)).r
                    if full > 8 { lit += 1 }
                    worst = max(worst, abs(channels(faint.pixel(x: x, y: y)).r - Int((Double(full) * opacity).rounded())))
                }
            }
            #expect(worst <= 1, "opacity \(opacity): a pixel is \(worst) levels from the opaque blur's times the opacity")
            #expect(lit > 1000)
        }
    }

    @Test func aGroupWithOpacityIsOneLayerNotTranslucentChildren() throws {
        // Two overlapping white squares in a group at 0.5: the overlap is as bright as the rest (one layer).
        let a = RenderFixtures.rect(Rect(x: 10, y: 10, width: 50, height: 50), fill: .solid(.white))
        let b = RenderFixtures.rect(Rect(x: 40, y: 40, width: 50, height: 50), fill: .solid(.white))
        let frame = try render(RenderFixtures.snapshot([RenderFixtures.group([a, b], opacity: 0.5)]))
        let single = channels(frame.pixel(x: 20, y: 20)).r, overlap = channels(frame.pixel(x: 50, y: 50)).r
        #expect(abs(single - 128) <= 1)
        #expect(overlap == single)
    }

    @Test func trimOfAQuarterColoursOnlyOneQuadrant() throws {
        // SwiftUI's circle starts at its trailing point and runs clockwise on screen: 0...0.25 is the bottom-right arc.
        let circle = RenderFixtures.strokedCircle(center: Point(x: 50, y: 50), radius: 35, width: 6, trimTo: 0.25)
        let frame = try render(RenderFixtures.snapshot([circle]))
        var quadrants = [0.0, 0.0, 0.0, 0.0]  // bottom-right, bottom-left, top-left, top-right
        for y in 0..<100 {
            for x in 0..<100 {
                let red = Double(channels(frame.pixel(x: x, y: y)).r)
                let right = x >= 50, bottom = y >= 50
                quadrants[bottom ? (right ? 0 : 1) : (right ? 3 : 2)] += red
            }
        }
        #expect(quadrants[0] > 0)
        // Butt caps end exactly on the axes; antialiasing may spill under one pixel column or row.
        for other in quadrants[1...] { #expect(other < quadrants[0] * 0.02, "\(quadrants)") }
        // A quarter of the ring's area: 2π·35·6/4 ≈ 330 pixels of full red.
        let coveredPixels = quadrants[0] / 255
        #expect(abs(coveredPixels - 2 * .pi * 35 * 6 / 4) < 15, "\(coveredPixels)")
    }

    @Test func dashPhaseShiftsTheDashes() throws {
        func coverage(phase: Double) throws -> [Int] {
            let line = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 100, height: 100), content: .shape(ShapeSnapshot(
                geometry: .path(PathData(commands: [.move(Point(x: 0, y: 50)), .line(Point(x: 100, y: 50))])),
                fill: nil, stroke: Stroke(paint: .solid(.white), width: 4, dash: [10, 10], dashPhase: phase, lineCap: .butt))))
            let frame = try render(RenderFixtures.snapshot([line]))
            return (0..<100).map { channels(frame.pixel(x: $0, y: 50)).r }
        }
        let plain = try coverage(phase: 0), shifted = try coverage(phase: 5)
        #expect(plain[5] == 255 && plain[15] == 0, "on for 0..<10, off for 10..<20")
        #expect(shifted[2] == 255 && shifted[7] == 0, "a phase of 5 moves the pattern 5 points back")
        #expect(plain.filter { $0 > 128 }.count == 50)
    }

    @Test func blurSpreadsEnergyButKeepsTheTotal() throws {
        let width = 120, height = 120
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 50..<70 { for x in 50..<70 { pixels[y * width + x] = 0xFFFF_FFFF } }
        let before = pixels.reduce(0) { $0 + Int($1 >> 24) }
        for reduced in [false, true] {
            var blurred = pixels
            blurred.withUnsafeMutableBufferPointer {
                GaussianBlur.apply(to: $0.baseAddress!, width: width, height: height, rowPixels: width, sigma: 8,
                                   reduced: reduced)
            }
            let after = blurred.reduce(0) { $0 + Int($1 >> 24) }
            let spread = blurred.filter { $0 >> 24 > 0 }.count
            #expect(abs(Double(after - before)) / Double(before) < 0.01, "total \(before) became \(after)")
            #expect(spread > 20 * 20 * 4, "energy spreads beyond the square")
            #expect(blurred[60 * width + 60] >> 24 < 255, "the centre loses some")
            #expect(blurred[10 * width + 10] == 0, "beyond about three sigmas nothing arrives")
        }
    }

    @Test func blurIsSymmetricAndGaussianLike() {
        // A single bright pixel spreads into a bell: the profile falls off monotonically and symmetrically.
        let size = 81
        var pixels = [UInt32](repeating: 0, count: size * size)
        for y in 35..<46 { for x in 35..<46 { pixels[y * size + x] = 0xFFFF_FFFF } }
        pixels.withUnsafeMutableBufferPointer {
            GaussianBlur.apply(to: $0.baseAddress!, width: size, height: size, rowPixels: size, sigma: 6, reduced: false)
        }
        let row = (0..<size).map { Int(pixels[40 * size + $0] >> 24) }
        for x in 0..<40 { #expect(row[x] <= row[x + 1], "rising towards the centre at \(x)") }
        for x in 0..<40 { #expect(abs(row[x] - row[size - 1 - x]) <= 1, "symmetric at \(x)") }
        let column = (0..<size).map { Int(pixels[$0 * size + 40] >> 24) }
        #expect(zip(row, column).allSatisfy { abs($0 - $1) <= 1 }, "both axes blur alike (up to rounding)")
    }

    @Test func blurOnANodeStaysInsideItsLayer() throws {
        // A blurred square next to a sharp one: the sharp one keeps its hard edge.
        let soft = RenderFixtures.rect(Rect(x: 10, y: 40, width: 20, height: 20), fill: .solid(.white), blur: 4)
        let sharp = RenderFixtures.rect(Rect(x: 60, y: 40, width: 20, height: 20), fill: .solid(.white))
        let frame = try render(RenderFixtures.snapshot([soft, sharp]))
        #expect(channels(frame.pixel(x: 59, y: 50)).r < 20)
        #expect(channels(frame.pixel(x: 60, y: 50)).r == 255)
        #expect(channels(frame.pixel(x: 8, y: 50)).r > 20, "the soft square bleeds out")
        #expect(channels(frame.pixel(x: 20, y: 50)).r < 255)
    }

    @Test func aWideBlurDrawnSmallMatchesTheFullResolutionBlur() throws {
        // Blurred layers from sigma 5 up are drawn at reduced resolution; compare with blurring full-size pixels
        // (white on black, so the red channel is the blurred coverage).
        let square = Rect(x: 60, y: 50, width: 80, height: 60)
        for radius in [6.0, 12, 30] {
            let blurred = try render(RenderFixtures.snapshot(width: 200, height: 160, [
                RenderFixtures.rect(square, fill: .solid(.white), blur: radius)]), 200, 160)
            var reference = try render(RenderFixtures.snapshot(width: 200, height: 160, [
                RenderFixtures.rect(square, fill: .solid(.white))]), 200, 160)
            reference.bytes.withUnsafeMutableBytes {
                GaussianBlur.apply(to: $0.baseAddress!.assumingMemoryBound(to: UInt32.self), width: 200, height: 160,
                                   rowPixels: 200, sigma: radius, reduced: false)
            }
            var worst = 0
            for y in 0..<160 {
                for x in 0..<200 {
                    worst = max(worst, abs(channels(blurred.pixel(x: x, y: y)).r - channels(reference.pixel(x: x, y: y)).r))
                }
            }
            #expect(worst <= 8, "radius \(radius): largest difference \(worst)")
        }
    }

    @Test func hueRotationTurnsRedTowardsGreenAndKeepsGrey() throws {
        let identity = HueRotation.matrix(degrees: 0)
        #expect((0..<9).map { identity[$0] }.enumerated().allSatisfy { abs($1 - ([0, 4, 8].contains($0) ? 1 : 0)) < 1e-9 })
        for row in 0..<3 {
            let m = HueRotation.matrix(degrees: 77)
            let sum = m[3 * row] + m[3 * row + 1] + m[3 * row + 2]
            #expect(abs(sum - 1) < 1e-9, "greys stay grey")
        }
        let red = RenderFixtures.rect(Rect(x: 0, y: 0, width: 50, height: 100), hueRotation: 120)
        let grey = RenderFixtures.rect(Rect(x: 50, y: 0, width: 50, height: 100), fill: .solid(Color(red: 0.5, green: 0.5, blue: 0.5)),
                                       hueRotation: 120)
        let frame = try render(RenderFixtures.snapshot([red, grey]))
        let turned = channels(frame.pixel(x: 25, y: 50))
        #expect(turned.g > turned.r && turned.g > turned.b, "120 degrees moves red towards green: \(turned)")
        let g = channels(frame.pixel(x: 75, y: 50))
        #expect(abs(g.r - 128) <= 1 && abs(g.g - 128) <= 1 && abs(g.b - 128) <= 1)
    }

    @Test func hueRotationOfPaintsMatchesHueRotationOfTheLayer() throws {
        // A group without images has its hue rotated paint by paint; an image in it forces the layer's pixels
        // to be rotated instead (here a fully transparent image, so the picture is the same). Both must agree for
        // colours the matrix does not push out of range (clamping happens per paint in one, per pixel in the other).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-render-hue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try RenderedFrame(width: 1, height: 1).writePNG(to: directory.appendingPathComponent("clear.png"))
        let children = [
            RenderFixtures.rect(Rect(x: 10, y: 10, width: 50, height: 50), fill: .solid(Color(red: 0.7, green: 0.5, blue: 0.4))),
            RenderFixtures.rect(Rect(x: 35, y: 35, width: 50, height: 50), fill: .linear(
                stops: [GradientStop(location: 0, color: Color(red: 0.4, green: 0.5, blue: 0.7, alpha: 0.6)),
                        GradientStop(location: 1, color: Color(red: 0.5, green: 0.6, blue: 0.4, alpha: 0.9))],
                start: .leading, end: .trailing)),
        ]
        let image = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 1, height: 1),
                                 content: .image(ImageContent(path: "clear.png", rect: Rect(x: 0, y: 0, width: 1, height: 1))))
        func frame(_ nodes: [NodeSnapshot]) throws -> RenderedFrame {
            var group = RenderFixtures.group(nodes)
            group.hueRotation = 100
            return try FrameRenderer(imageDirectory: directory).render(RenderFixtures.snapshot(background: .white, [group]),
                                                                      width: 100, height: 100)
        }
        let byPaint = try frame(children), byLayer = try frame(children + [image])
        var worst = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let a = channels(byPaint.pixel(x: x, y: y)), b = channels(byLayer.pixel(x: x, y: y))
                worst = max(worst, abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
            }
        }
        #expect(worst <= 3, "largest channel difference \(worst)")
        let turned = channels(byPaint.pixel(x: 20, y: 20))
        #expect(turned.r < turned.g, "the hue did turn: \(turned)")
    }

    @Test func gradientMaskFadesTheNodeToClear() throws {
        let mask = Paint.linear(stops: [GradientStop(location: 0, color: .clear), GradientStop(location: 1, color: .white)],
                                start: .top, end: .bottom)
        let node = RenderFixtures.rect(Rect(x: 0, y: 0, width: 100, height: 100), fill: .solid(.white), mask: mask)
        let frame = try render(RenderFixtures.snapshot([node]))
        let top = channels(frame.pixel(x: 50, y: 0)).r, middle = channels(frame.pixel(x: 50, y: 50)).r
        let bottom = channels(frame.pixel(x: 50, y: 99)).r
        #expect(top < 5)
        #expect(abs(middle - 128) < 5)
        #expect(bottom > 250)
    }

    @Test func shadowFallsUnderAndBesideTheShape() throws {
        let shadow = Shadow(color: Color(red: 0, green: 0, blue: 1), radius: 2, x: 10, y: 10)
        let node = RenderFixtures.rect(Rect(x: 20, y: 20, width: 40, height: 40), fill: .solid(.white), shadow: shadow)
        let frame = try render(RenderFixtures.snapshot([node]))
        let beside = channels(frame.pixel(x: 65, y: 50))
        #expect(beside.b > 200 && beside.r == 0, "the shadow shows to the lower right: \(beside)")
        let onTop = channels(frame.pixel(x: 40, y: 40))
        #expect(onTop.r == 255 && onTop.b == 255, "the shape covers its own shadow")
        #expect(channels(frame.pixel(x: 15, y: 15)).b == 0, "nothing up-left")
    }

    @Test func theQuickShadowLooksLikeTheLayerShadow() throws {
        // A shadow alone is drawn at reduced resolution beneath the content; a solid white mask forces the
        // full-resolution layer path without changing the picture. Both must agree closely.
        let shadow = Shadow(color: Color(red: 0, green: 0, blue: 0.5, alpha: 0.8), radius: 6, x: 4, y: -3)
        let wave = Geometry.path(PathData(commands: [
            .move(Point(x: -10, y: 60)), .cubic(control1: Point(x: 40, y: 30), control2: Point(x: 60, y: 90), to: Point(x: 110, y: 55)),
            .line(Point(x: 110, y: 120)), .line(Point(x: -10, y: 120)), .close,
        ]))
        func node(mask: Paint?) -> NodeSnapshot {
            NodeSnapshot(bounds: Rect(x: 0, y: 30, width: 100, height: 70), shadow: shadow, mask: mask,
                         content: .shape(ShapeSnapshot(geometry: wave, fill: .solid(Color(red: 0.3, green: 0.6, blue: 0.9)), stroke: nil)))
        }
        let background = RenderFixtures.rect(Rect(x: 0, y: 0, width: 100, height: 100), fill: .solid(Color(red: 1, green: 0.9, blue: 0.7)))
        let quick = try render(RenderFixtures.snapshot([background, node(mask: nil)]), 200, 200)
        let layered = try render(RenderFixtures.snapshot([background, node(mask: .solid(.white))]), 200, 200)
        var worst = 0, total = 0
        for y in 0..<200 {
            for x in 0..<200 {
                let a = channels(quick.pixel(x: x, y: y)), b = channels(layered.pixel(x: x, y: y))
                let difference = max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
                worst = max(worst, difference)
                total += difference
            }
        }
        // The quick shadow samples the silhouette once per sigma; interpolating between samples departs from
        // the exact gaussian by a few percent of the shadow's strength at most, and far less on average.
        #expect(worst <= 16, "largest channel difference \(worst)")
        #expect(Double(total) / 40000 < 1.5, "mean difference \(Double(total) / 40000)")
        // And the shadow is really there: above the wave's crest it darkens the background.
        #expect(channels(quick.pixel(x: 100, y: 100)).r < 240)
    }

    @Test func roundedCornersLeaveTheCornerEmpty() throws {
        let node = RenderFixtures.rect(Rect(x: 10, y: 10, width: 80, height: 80), fill: .solid(.white), cornerRadius: 20)
        let frame = try render(RenderFixtures.snapshot([node]))
        #expect(channels(frame.pixel(x: 11, y: 11)).r == 0)
        #expect(channels(frame.pixel(x: 50, y: 11)).r == 255)
        #expect(channels(frame.pixel(x: 13, y: 13)).r < 128, "outside the arc of radius 20")
        #expect(channels(frame.pixel(x: 17, y: 17)).r > 128, "inside it")
    }

    @Test func theCanvasScalesUniformlyAndIsLetterboxed() throws {
        // A 200×100 canvas in a 100×100 frame: scale 0.5, bars of 25 pixels above and below.
        let node = RenderFixtures.rect(Rect(x: 0, y: 0, width: 200, height: 100), fill: .solid(.white))
        let snapshot = RenderFixtures.snapshot(width: 200, height: 100, [node])
        let frame = try render(snapshot)
        #expect(channels(frame.pixel(x: 50, y: 10)) == (255, 0, 0, 0))
        #expect(channels(frame.pixel(x: 50, y: 26)).r == 255)
        #expect(channels(frame.pixel(x: 50, y: 80)) == (255, 0, 0, 0))
        let placement = CanvasPlacement(canvas: Size(width: 200, height: 100), outputWidth: 100, outputHeight: 100)
        #expect(placement.scale == 0.5 && placement.originY == 25)
    }

    @Test func twoSizesShowTheSamePicture() throws {
        // Resolution independence: the 200×200 frame reduced 2× matches the 100×100 one.
        let snapshot = RenderFixtures.snapshot([
            RenderFixtures.rect(Rect(x: 13, y: 21, width: 40, height: 30), cornerRadius: 6),
            RenderFixtures.strokedCircle(center: Point(x: 60, y: 60), radius: 25, width: 4, color: .white, trimTo: 0.7),
        ])
        let small = try render(snapshot, 100, 100), large = try render(snapshot, 200, 200)
        var worst = 0
        for y in 0..<100 {
            for x in 0..<100 {
                var sum = 0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] { sum += channels(large.pixel(x: 2 * x + dx, y: 2 * y + dy)).r }
                worst = max(worst, abs(sum / 4 - channels(small.pixel(x: x, y: y)).r))
            }
        }
        #expect(worst < 40, "edges differ only by antialiasing: worst \(worst)")
    }

    @Test func textIsDrawnInLatinChineseAndJapanese() throws {
        for label in ["Breathe In", "吸气", "息を吸って"] {
            let text = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 200, height: 100), content: .text(TextSnapshot(
                text: label, position: Point(x: 100, y: 50), alignment: .center, font: Font(size: 30), paint: .solid(.white))))
            let frame = try render(RenderFixtures.snapshot(width: 200, height: 100, [text]), 200, 100)
            var inked = 0, minX = 200, maxX = 0
            for y in 0..<100 {
                for x in 0..<200 where channels(frame.pixel(x: x, y: y)).r > 128 {
                    inked += 1
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                }
            }
            #expect(inked > 80, "\(label) draws glyphs")
            #expect(abs(Double(minX + maxX) / 2 - 100) < 6, "\(label) is centred: \(minX)...\(maxX)")
        }
    }

    @Test func particlesDrawnAsSpritesMatchParticlesDrawnAsPaths() throws {
        // Sprites are used under a plain scale; a tiny rotation forces the path fallback.
        let flakes = RenderFixtures.particles(count: 300, width: 100, height: 100, shape: .snowflake, radius: 3)
        var turned = flakes
        turned.transform = RenderFixtures.rotation(degrees: 0.0001, around: Point(x: 50, y: 50))
        let sprites = try render(RenderFixtures.snapshot([flakes]), 200, 200)
        let paths = try render(RenderFixtures.snapshot([turned]), 200, 200)
        func total(_ frame: RenderedFrame) -> Double {
            var sum = 0.0
            for y in 0..<200 { for x in 0..<200 { sum += Double(channels(frame.pixel(x: x, y: y)).r) } }
            return sum
        }
        let (a, b) = (total(sprites), total(paths))
        #expect(a > 0)
        #expect(abs(a - b) / b < 0.03, "sprite ink \(a) vs path ink \(b)")
    }

    @Test func theSameInputTwiceGivesIdenticalBytes() throws {
        let snapshot = RenderFixtures.snapshot([
            RenderFixtures.rect(Rect(x: 5, y: 5, width: 50, height: 40), blur: 3, hueRotation: 40),
            RenderFixtures.particles(count: 200, width: 100, height: 100, shape: .snowflake),
            RenderFixtures.strokedCircle(center: Point(x: 50, y: 50), radius: 30, width: 3, trimFrom: 0.1, trimTo: 0.8,
                                         dash: [6, 3], dashPhase: 2),
        ])
        let first = try render(snapshot, 160, 90)
        // A renderer that drew something else first (its caches are warm) gives the same bytes too.
        let reused = FrameRenderer()
        _ = try reused.render(RenderFixtures.snapshot([RenderFixtures.rect(Rect(x: 0, y: 0, width: 9, height: 9))]), width: 160, height: 90)
        _ = try reused.render(snapshot, width: 160, height: 90)
        let second = try reused.render(snapshot, width: 160, height: 90)
        #expect(first == second)
        #expect(first == (try render(snapshot, 160, 90)))
    }

    @Test func theStaticPrefixCacheNeverChangesPixels() throws {
        // Same leading nodes, moving last node: frames from one renderer equal frames from fresh renderers.
        let renderer = FrameRenderer()
        let background = RenderFixtures.rect(Rect(x: 0, y: 0, width: 100, height: 60), fill: .linear(
            stops: [GradientStop(location: 0, color: .white), GradientStop(location: 1, color: .black)], start: .top, end: .bottom))
        for step in 0..<4 {
            let mover = RenderFixtures.rect(Rect(x: Double(step * 10), y: 30, width: 20, height: 20))
            let snapshot = RenderFixtures.snapshot([background, mover])
            let cached = try renderer.render(snapshot, width: 100, height: 100)
            #expect(cached == (try render(snapshot)), "step \(step)")
        }
    }

    @Test func nodesThatHoldStillThenMoveStillDrawExactly() throws {
        // Still for six frames (long enough to be cached as a picture), then moving: every frame from one
        // renderer equals a fresh renderer's, including the first frames after the cached nodes move.
        let renderer = FrameRenderer()
        let sky = RenderFixtures.rect(Rect(x: 0, y: 0, width: 100, height: 50), fill: .linear(
            stops: [GradientStop(location: 0, color: .white), GradientStop(location: 1, color: RenderFixtures.red)], start: .top, end: .bottom))
        for step in 0..<12 {
            let delayed = RenderFixtures.rect(Rect(x: 10 + Double(max(0, step - 6) * 5), y: 60, width: 20, height: 20), fill: .solid(.white))
            let spinner = RenderFixtures.strokedCircle(center: Point(x: 70, y: 30), radius: 15, width: 4, trimTo: Double(step % 5 + 1) / 6)
            let snapshot = RenderFixtures.snapshot([sky, delayed, spinner])
            #expect(try renderer.render(snapshot, width: 100, height: 100) == (try render(snapshot)), "step \(step)")
        }
    }

    @Test func renderingIntoACallerBufferWithPaddingLeavesThePaddingAlone() throws {
        let (width, height, stride) = (10, 4, 48)
        var buffer = [UInt8](repeating: 0xAB, count: stride * height)
        try buffer.withUnsafeMutableBytes {
            try FrameRenderer().render(RenderFixtures.snapshot(width: 10, height: 4, background: .white, []),
                                       into: $0.baseAddress!, width: width, height: height, stride: stride)
        }
        for y in 0..<height {
            #expect(buffer[(y * stride)..<(y * stride + 40)].allSatisfy { $0 == 0xFF })
            #expect(buffer[(y * stride + 40)..<(y * stride + 48)].allSatisfy { $0 == 0xAB })
        }
        #expect(throws: RenderError.self) {
            try buffer.withUnsafeMutableBytes {
                try FrameRenderer().render(RenderFixtures.snapshot([]), into: $0.baseAddress!, width: 0, height: 4, stride: 48)
            }
        }
    }

    @Test func aNodeScaledToZeroDrawsNothingAndBreaksNothing() throws {
        let flat = RenderFixtures.rect(Rect(x: 0, y: 0, width: 50, height: 50), transform: .scale(x: 0, y: 1))
        let after = RenderFixtures.rect(Rect(x: 50, y: 50, width: 50, height: 50), fill: .solid(.white))
        let frame = try render(RenderFixtures.snapshot([flat, after]))
        #expect(channels(frame.pixel(x: 25, y: 25)).r == 0)
        #expect(channels(frame.pixel(x: 75, y: 75)).r == 255)
    }

    @Test func aMissingImageIsAWarningNotAFailure() throws {
        let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: "/nonexistent-directory"))
        let image = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 10, height: 10),
                                 content: .image(ImageContent(path: "missing.png", rect: Rect(x: 0, y: 0, width: 10, height: 10))))
        _ = try renderer.render(RenderFixtures.snapshot([image]), width: 10, height: 10)
        #expect(renderer.warnings.count == 1)
        #expect(renderer.warnings.first?.contains("missing.png") == true)
    }

    @Test func imagesAreDrawnScaledIntoTheirRect() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-render-image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A 2×2 PNG: red, white / white, red.
        var tile = RenderedFrame(width: 2, height: 2)
        for (i, argb) in [0xFFFF_0000, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_0000].enumerated() as EnumeratedSequence<[UInt32]> {
            for byte in 0..<4 { tile.bytes[4 * i + byte] = UInt8((argb >> (8 * UInt32(byte))) & 0xFF) }
        }
        try tile.writePNG(to: directory.appendingPathComponent("tile.png"))
        let image = NodeSnapshot(bounds: Rect(x: 0, y: 0, width: 100, height: 100),
                                 content: .image(ImageContent(path: "tile.png", rect: Rect(x: 0, y: 0, width: 100, height: 100))))
        let frame = try FrameRenderer(imageDirectory: directory).render(RenderFixtures.snapshot([image]), width: 100, height: 100)
        #expect(channels(frame.pixel(x: 10, y: 10)) == (255, 255, 0, 0))
        #expect(channels(frame.pixel(x: 90, y: 10)) == (255, 255, 255, 255))
        #expect(channels(frame.pixel(x: 90, y: 90)) == (255, 255, 0, 0))
    }
}
