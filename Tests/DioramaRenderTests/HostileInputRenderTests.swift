import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Files `check` accepts that once trapped the renderer: a shadow cast a million points away, a long line of text
/// at the largest font size.
@Suite struct HostileInputRenderTests {
    private func frame(_ nodes: String, width: Int = 320, height: Int = 180) throws -> RenderedFrame {
        let json = """
            { "canvas": { "width": \(width), "height": \(height), "background": "#000" },
              "scenes": [{ "id": "a", "duration": 1, "nodes": [\(nodes)] }] }
            """
        let document = try DocumentFixtures.decode(json).document
        let snapshot = SceneEvaluator(document: document).snapshot(scene: 0, at: 0)
        return try FrameRenderer().render(snapshot, width: width, height: height)
    }

    /// The issue's file: the shadow falls a million points to the right, out of view; the frame is the circle alone,
    /// as without a shadow (a layer 1,000,000 pixels wide could not be made, and its pixels were unwrapped).
    @Test func aShadowCastOutOfViewLeavesTheNodeAsItIs() throws {
        let far = try frame(##"{ "type": "circle", "cx": 50, "cy": 50, "r": 20, "fill": "#ff0000", "blur": 1, "shadow": { "radius": 1, "x": 1000000 } }"##)
        let none = try frame(##"{ "type": "circle", "cx": 50, "cy": 50, "r": 20, "fill": "#ff0000", "blur": 1 }"##)
        #expect(far.bytes == none.bytes)
    }

    /// A node far out of view whose shadow lands in it: the shadow is made from a layer of the node's own pixels
    /// around what casts it, and matches the same shadow cast from 3,000 points (one layer holds node and shadow).
    @Test(arguments: [false, true])
    func aShadowCastFromFarAwayShowsAsFromNearby(blurred: Bool) throws {
        let blur = blurred ? #""blur": 2, "# : ""
        let far = try frame(##"{ "type": "rect", "x": -999900, "y": 60, "width": 80, "height": 50, "fill": "#40c0ff", \##(blur)"shadow": { "color": "#ffffff", "radius": 6, "x": 1000000, "y": 10 } }"##)
        let near = try frame(##"{ "type": "rect", "x": -2900, "y": 60, "width": 80, "height": 50, "fill": "#40c0ff", \##(blur)"shadow": { "color": "#ffffff", "radius": 6, "x": 3000, "y": 10 } }"##)
        let empty = try frame("")
        // Compared right of and below the shadow's centre (140, 95): a shadow from the node's one layer loses the
        // tail leading its offset beyond the layer (the layer starts at the node's blurred ink), the far one keeps it.
        let trailing = (0..<(320 * 180)).map { $0 % 320 < 140 || $0 / 320 < 95 }
        let comparison = FrameComparison(far, near, skipping: trailing)
        // Unblurred, the nearby shadow is a quick one (from reduced cells), the far one full resolution, as a blurred
        // node's always is: within 24 levels, over the same pixels.
        #expect(comparison.largest <= (blurred ? 1 : 24), "largest difference \(comparison.largest)")
        #expect(Self.halfBright(far) == Self.halfBright(near), "\(Self.halfBright(far)) and \(Self.halfBright(near))")
        #expect(FrameComparison.drawnPixels(far, over: empty) > 80 * 50, "the shadow shows")
    }

    /// A quick shadow (the node's only effect) cast farther than the node is wide: its silhouette held only the cells of
    /// the shadow's own box, so the content casting from outside it was lost (200 points away, nothing showed; 60,
    /// a sliver). The whole rectangle's shadow shows, bright inside and near its edges, as from a layer.
    @Test(arguments: [60.0, 200.0])
    func aQuickShadowCastFartherThanItsNodeIsWhole(offset: Double) throws {
        let node = ##"{ "type": "rect", "x": 20, "y": 60, "width": 80, "height": 50, "fill": "#40c0ff", "shadow": { "color": "#ffffff", "radius": 2, "x": \##(offset), "y": 10 }"##
        let quick = try frame(node + " }")
        let layered = try frame(node + #", "opacity": 0.999 }"#)
        func red(_ frame: RenderedFrame, _ x: Int, _ y: Int) -> Int { Int(frame.bytes[y * frame.stride + x * 4 + 2]) }
        let left = 20 + Int(offset), top = 70
        for (x, y) in [(left + 40, top + 25), (left + 3, top + 25), (left + 77, top + 25), (left + 40, top + 3), (left + 40, top + 47)]
        where x >= 100 {
            #expect(red(quick, x, y) > 200, "(\(x), \(y)): \(red(quick, x, y))")
            #expect(abs(red(quick, x, y) - red(layered, x, y)) <= 4, "(\(x), \(y))")
        }
    }

    /// The box of the pixels brighter than half (red channel): where a shadow mostly lies.
    static func halfBright(_ frame: RenderedFrame) -> [Int] {
        var box = [Int.max, Int.max, Int.min, Int.min]
        for y in 0..<frame.height {
            for x in 0..<frame.width where frame.bytes[y * frame.stride + x * 4 + 2] > 128 {
                box = [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
            }
        }
        return box
    }

    /// 1,100 "W" at 2000 points: pango's 32-bit extents reach past what an Int32 sum holds.
    @Test func aLongLineAtTheLargestSizeLaysOutWithoutTrapping() throws {
        let text = String(repeating: "W", count: 1_100)
        let wide = try frame(##"{ "type": "text", "text": "\##(text)", "x": 10, "y": 10, "font": { "size": 2000 }, "fill": "#fff" }"##)
        #expect(wide.bytes.count == 320 * 180 * 4)
    }
}
