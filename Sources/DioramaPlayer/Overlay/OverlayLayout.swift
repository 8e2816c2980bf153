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
    public var dotSpacing: Double { 20 * unit }
    /// A click within this distance of a dot's centre selects it.
    public var dotHitRadius: Double { 10 * unit }

    /// The centre of each scene's page dot, along the bottom edge.
    public var pageDots: [Point] {
        guard sceneCount > 0 else { return [] }
        let span = Double(sceneCount - 1) * dotSpacing
        let y = canvas.height - margin - 10 * unit
        return (0..<sceneCount).map { Point(x: canvas.width / 2 - span / 2 + Double($0) * dotSpacing, y: y) }
    }

    /// The scene whose page dot contains `point`, if any.
    public func pageDot(at point: Point) -> Int? {
        var best: (index: Int, distance: Double)?
        for (index, center) in pageDots.enumerated() {
            let distance = ((point.x - center.x) * (point.x - center.x) + (point.y - center.y) * (point.y - center.y)).squareRoot()
            if distance <= dotHitRadius, distance < best?.distance ?? .infinity { best = (index, distance) }
        }
        return best?.index
    }
}
