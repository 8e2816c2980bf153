@testable import DioramaRender
import CCairo
import DioramaDocument
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// A quick shadow's full-resolution coverage is interpolated from its reduced-resolution cells (ShadowDrawing.swift).
@Suite struct ShadowMaskTests {
    /// Every pixel of the mask is the bilinear blend its definition gives (cell centres, 1/256 weights, rounded to a byte
    /// across and again down), zero over quads the content covers, for factors from 1 to 16 and areas that cut cells
    /// anywhere; rows outside the mask's are zero by that definition too.
    @Test(arguments: [1, 2, 3, 5, 8, 13, 16])
    func theCoverageMaskIsTheBilinearBlendOfItsCells(factor: Int) {
        var random = SplitMix64(seed: UInt64(factor))
        let scratch = ShadowScratch()
        for trial in 0..<6 {
            let grid = SilhouetteGrid(factor: factor, cellsX: 3 + Int(random.next() % 40), cellsY: 3 + Int(random.next() % 30),
                                      originX: Int(random.next() % 50) - 25, originY: Int(random.next() % 50) - 25)
            let count = grid.cellsX * grid.cellsY
            // Shadow cells: zeros, full and partial values in runs, so some rows and cells have nothing to paint.
            let shadow = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            let cover = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            defer { shadow.deallocate(); cover.deallocate() }
            for index in 0..<count {
                let row = index / grid.cellsX
                shadow[index] = row < 2 && trial % 2 == 0 ? 0 : [0, 0, 255, UInt8(random.next() % 256)][Int(random.next() % 4)]
                cover[index] = random.next() % 3 == 0 ? UInt8(random.next() % 256) : 255
            }
            let covered = UnsafeMutablePointer<Bool>.allocate(capacity: count)
            defer { covered.deallocate() }
            grid.markCoveredQuads(cover, rowBytes: grid.cellsX, into: covered)
            #expect((0..<count).contains { covered[$0] } && (0..<count).contains { !covered[$0] })
            let (fullWidth, fullHeight) = (grid.cellsX * factor, grid.cellsY * factor)
            let x0 = Int(random.next() % UInt64(fullWidth / 2)), y0 = Int(random.next() % UInt64(fullHeight / 2))
            let area = PixelRect(x: grid.originX + x0, y: grid.originY + y0,
                                 width: 1 + Int(random.next() % UInt64(fullWidth - x0)),
                                 height: 1 + Int(random.next() % UInt64(fullHeight - y0)))
            // Scratch used before (by the trials before, and a larger mask): what it held must not show.
            let used = scratch.maskPixels(width: 1024, height: 512)
            memset(cairo_image_surface_get_data(used.surface), 0xA5, Int(cairo_image_surface_get_stride(used.surface)) * used.height)
            let mask = grid.coverageMask(shadow, covered: covered, area: area, scratch: scratch)
            var painted = 0, mismatches = 0
            for y in area.y..<(area.y + area.height) {
                for x in area.x..<(area.x + area.width) {
                    let expected = Self.blend(grid, shadow, covered, x: x, y: y)
                    var actual: UInt8 = 0
                    if let mask, y >= mask.top, y < mask.top + mask.rows {
                        actual = mask.bytes[(y - mask.top) * mask.stride + (x - area.x)]
                    }
                    if actual != expected { mismatches += 1 }
                    if expected > 0 { painted += 1 }
                }
            }
            #expect(mismatches == 0, "factor \(factor), trial \(trial): \(mismatches) pixels differ")
            #expect(painted > 0 || mask == nil)
        }
    }

    /// The definition: device row y lies between cell rows j0 and j0 + 1 (those whose centres surround it), column x
    /// between two cell columns likewise; each row's two are blended with 1/256 weights and rounded, then the two rows.
    /// A pixel whose quad the content covers is zero.
    private static func blend(_ grid: SilhouetteGrid, _ cells: UnsafeMutablePointer<UInt8>, _ covered: UnsafeMutablePointer<Bool>,
                              x: Int, y: Int) -> UInt8 {
        let factor = grid.factor
        func weight(_ offset: Int) -> UInt32 {
            let position = (Double(offset) + 0.5) / Double(factor) - 0.5
            return UInt32(((position < 0 ? position + 1 : position) * 256).rounded())
        }
        let (j, v) = ((y - grid.originY) / factor, (y - grid.originY) % factor)
        let j0 = min(max(2 * v + 1 < factor ? j - 1 : j, 0), grid.cellsY - 2)
        let (i, u) = ((x - grid.originX) / factor, (x - grid.originX) % factor)
        let leftOfCentre = 2 * u + 1 < factor
        let (p, q) = leftOfCentre ? (max(i - 1, 0), i) : (i, min(i + 1, grid.cellsX - 1))
        if covered[j0 * grid.cellsX + min(p, grid.cellsX - 2)] { return 0 }
        let (fx, fy) = (weight(u), weight(v))
        func cell(_ column: Int, _ row: Int) -> UInt32 { UInt32(cells[row * grid.cellsX + column]) }
        let top = (cell(p, j0) * (256 - fx) + cell(q, j0) * fx + 128) >> 8
        let bottom = (cell(p, j0 + 1) * (256 - fx) + cell(q, j0 + 1) * fx + 128) >> 8
        return UInt8((top * (256 - fy) + bottom * fy + 128) >> 8)
    }

    /// A quick shadow painted through its mask by pixman is cairo's mask painted, byte for byte, so that a part of a
    /// frame whose clip cairo must paint through (a clip shape that is not whole pixels in one band and is in another)
    /// shows the same shadow: the shipped scenes with shadows (waves, cards, a record's glow, coloured ones), at several
    /// times and two sizes, and drawn in bands on two threads.
    @Test func aShadowPaintedByPixmanIsTheShadowCairoPaints() throws {
        let loaded = try DocumentLoader.load(path: ShippedScenesTests.repositoryRoot.appendingPathComponent("scenes.json").path)
        let evaluator = SceneEvaluator(document: loaded.document)
        let directory = URL(fileURLWithPath: loaded.baseDirectory)
        var compared = 0
        for threads in [1, 2] {
            for (width, height) in [(640, 360), (1001, 563)] {
                let renderer = FrameRenderer(imageDirectory: directory, threads: threads)
                let reference = FrameRenderer(imageDirectory: directory)
                reference.choices.paintsShadowsWithPixman = false
                for (index, scene) in loaded.document.scenes.enumerated() where scene.nodes.contains(where: Self.castsShadow) {
                    for time in [0.4, 1.7, 3.3] {
                        let snapshot = evaluator.snapshot(scene: index, at: time)
                        let frame = try renderer.render(snapshot, width: width, height: height)
                        let expected = try reference.render(snapshot, width: width, height: height)
                        let differing = frame.bytes == expected.bytes ? 0 : zip(frame.bytes, expected.bytes).filter { $0 != $1 }.count
                        #expect(differing == 0, "\(scene.id) at \(time) s, \(width)x\(height), \(threads) threads: \(differing) bytes differ")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared >= 4 * 3 * 3)
    }

    /// Shadowed children of groups cut by clip shapes (a rectangle of whole pixels, a circle), followed by nodes of
    /// their own: the shadows stay inside the shapes, as cairo paints them, and what comes after is not cut by the
    /// shapes (the clip a run of top-level nodes reads once must not be read inside one).
    @Test func aShadowInsideAClipShapeIsCutByItAndNothingAfterIs() throws {
        let json = """
            { "canvas": { "width": 200, "height": 200, "background": "#102030" },
              "scenes": [{ "id": "cut", "duration": 2, "nodes": [
                { "type": "group", "clipShape": { "type": "rect", "x": 10, "y": 10, "width": 80, "height": 80 }, "children": [
                  { "type": "rect", "x": 20, "y": 20, "width": 50, "height": 50, "fill": "#ffffff",
                    "shadow": { "color": "#ff000090", "radius": 6, "x": 14, "y": 14 } } ] },
                { "type": "group", "clipShape": { "type": "circle", "cx": 150, "cy": 50, "r": 35 }, "children": [
                  { "type": "rect", "x": 125, "y": 25, "width": 40, "height": 40, "fill": "#ffffff",
                    "shadow": { "color": "#00ff0090", "radius": 6, "x": 12, "y": 12 } } ] },
                { "type": "circle", "cx": 100, "cy": 150, "r": 30, "fill": "#3366ff" },
                { "type": "rect", "x": 150, "y": 150, "width": 30, "height": 30, "fill": "#ffcc00",
                  "shadow": { "color": "#000000a0", "radius": 5, "y": 6 } } ] }] }
            """
        let snapshot = SceneEvaluator(document: try DocumentFixtures.decode(json).document).snapshot(scene: 0, at: 0)
        let reference = FrameRenderer()
        reference.choices.paintsShadowsWithPixman = false
        let expected = try reference.render(snapshot, width: 200, height: 200)
        for threads in [1, 2] {
            let frame = try FrameRenderer(threads: threads).render(snapshot, width: 200, height: 200)
            let differing = frame.bytes == expected.bytes ? 0 : zip(frame.bytes, expected.bytes).filter { $0 != $1 }.count
            #expect(differing == 0, "\(threads) threads: \(differing) bytes differ")
            // The circle after the clipped groups is drawn whole; no red shadow outside the square clip.
            func pixel(_ x: Int, _ y: Int) -> (red: UInt32, green: UInt32, blue: UInt32) {
                let value = frame.pixel(x: x, y: y)
                return ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
            }
            #expect(pixel(100, 150).blue == 255 && pixel(75, 150).blue == 255, "the circle after the groups")
            #expect(pixel(165, 165).red == 255 && pixel(165, 183).blue < 0x30, "the square after them, and its shadow")
            #expect(pixel(95, 95).red < 0x20 && pixel(80, 80).red > 0x40, "the red shadow, cut at the square")
            #expect(pixel(180, 80).green < 0x30 && pixel(172, 65).green > 0x60, "the green shadow, cut at the circle")
        }
    }

    private static func castsShadow(_ node: Node) -> Bool {
        if node.style.shadow != nil { return true }
        guard case .group(let group) = node.content else { return false }
        return group.children.contains(where: castsShadow)
    }
}
