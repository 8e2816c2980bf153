import DioramaDocument

/// Where the story-viewer overlay's parts sit, in canvas points. Sizes scale with the canvas so the
/// overlay looks the same at any canvas size (a 1280x720 canvas gives a unit of one point).
public struct OverlayLayout: Sendable, Equatable {
    public var canvas: Size
    public var sceneCount: Int

    public init(canvas: Size, sceneCount: Int) {
        self.canvas = canvas
        self.sceneCount = sceneCount
    }

    /// Points per layout unit.
    public var unit: Double { max(0.5, min(canvas.width, canvas.height) / 720) }

    public var margin: Double { 14 * unit }
    public var barHeight: Double { 4 * unit }
    public var barGap: Double { 5 * unit }

    /// The track of each scene's progress bar, left to right.
    public var progressBars: [Rect] {
        guard sceneCount > 0 else { return [] }
        let available = canvas.width - 2 * margin - Double(sceneCount - 1) * barGap
        let width = max(1, available / Double(sceneCount))
        return (0..<sceneCount).map { index in
            Rect(x: margin + Double(index) * (width + barGap), y: margin, width: width, height: barHeight)
        }
    }

    /// Where the title's leading edge sits (vertically centred on this point).
    public var titleOrigin: Point { Point(x: margin, y: margin + barHeight + 22 * unit) }
    public var titleSize: Double { 24 * unit }

    public var dotRadius: Double { 4.5 * unit }

    /// The shade under the top bar: from the top edge to well below the title.
    public var topScrim: Rect { Rect(x: 0, y: 0, width: canvas.width, height: titleOrigin.y + 70 * unit) }
    /// The shade under the page dots: from the bottom edge to well above them.
    public var bottomScrim: Rect {
        let top = (pageDots.first?.y ?? canvas.height) - 64 * unit
        return Rect(x: 0, y: top, width: canvas.width, height: canvas.height - top)
    }

    /// The smallest window the chrome is laid out for, in pixels, and the least side of a page dot's click target
    /// there (WCAG 2.5.8's 24 by 24 pixels): in any larger window the targets are larger.
    public static let smallestWindow = Size(width: 640, height: 360)
    public static let leastTargetPixels = 24.0

    /// The side of each page dot's square click target, in points: 24 pixels in the smallest window, and never so
    /// wide that the row of targets leaves the canvas.
    public var dotTarget: Double {
        let scale = min(Self.smallestWindow.width / canvas.width, Self.smallestWindow.height / canvas.height)
        let least = Self.leastTargetPixels / scale
        let room = (canvas.width - 2 * margin) / Double(max(sceneCount, 1))
        return min(max(least, 20 * unit), room)
    }

    /// Dots sit a target apart, so neighbouring targets touch but never overlap.
    public var dotSpacing: Double { dotTarget }

    /// The centre of each scene's page dot, along the bottom edge.
    public var pageDots: [Point] {
        guard sceneCount > 0 else { return [] }
        let span = Double(sceneCount - 1) * dotSpacing
        let y = canvas.height - max(margin + 10 * unit, dotTarget / 2 + 2 * unit)
        return (0..<sceneCount).map { Point(x: canvas.width / 2 - span / 2 + Double($0) * dotSpacing, y: y) }
    }

    /// Each page dot's click target, a square centred on the dot.
    public var pageDotTargets: [Rect] {
        let side = dotTarget
        return pageDots.map { Rect(x: $0.x - side / 2, y: $0.y - side / 2, width: side, height: side) }
    }

    /// The scene whose page dot's target contains `point`, if any (a target holds its leading and top edges, not
    /// its trailing and bottom ones, so a point on the edge two targets share belongs to one of them).
    public func pageDot(at point: Point) -> Int? {
        pageDotTargets.firstIndex { point.x >= $0.x && point.x < $0.x + $0.width && point.y >= $0.y && point.y < $0.y + $0.height }
    }
}
