import DioramaDocument

/// Where the canvas sits inside a window: scaled uniformly to fit, centred, with bars on the other axis.
public struct Letterbox: Sendable, Equatable {
    /// The canvas size, in points.
    public var canvas: Size
    /// The window's drawable size, in pixels.
    public var window: Size

    public init(canvas: Size, window: Size) {
        self.canvas = canvas
        self.window = window
    }

    /// Pixels per canvas point.
    public var scale: Double {
        guard canvas.width > 0, canvas.height > 0 else { return 1 }
        return min(window.width / canvas.width, window.height / canvas.height)
    }

    /// The canvas's rectangle in window pixels, rounded to whole pixels.
    public var viewport: Rect {
        let width = (canvas.width * scale).rounded()
        let height = (canvas.height * scale).rounded()
        let x = ((window.width - width) / 2).rounded(.down)
        let y = ((window.height - height) / 2).rounded(.down)
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// A window pixel position as a canvas point (may lie outside the canvas, in a bar).
    public func canvasPoint(fromWindow point: Point) -> Point {
        let viewport = viewport
        let s = scale
        return Point(x: (point.x - viewport.x) / s, y: (point.y - viewport.y) / s)
    }
}
