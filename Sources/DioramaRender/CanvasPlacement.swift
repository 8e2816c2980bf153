import DioramaDocument
import DioramaTimeline

/// Where the canvas lands in an output frame: scaled uniformly to fit, centred, letterboxed.
/// The canvas is a coordinate space; 1280x720 and 1920x1080 outputs show the same picture.
public struct CanvasPlacement: Sendable, Equatable {
    /// Output pixels per canvas point.
    public var scale: Double
    /// The canvas origin in output pixels (whole pixels, so canvas edges stay crisp).
    public var originX: Double
    public var originY: Double
    /// The canvas size in output pixels.
    public var width: Double
    public var height: Double

    public init(canvas: Size, outputWidth: Int, outputHeight: Int) {
        let scale = canvas.width > 0 && canvas.height > 0
            ? min(Double(outputWidth) / canvas.width, Double(outputHeight) / canvas.height) : 0
        self.scale = scale
        self.width = canvas.width * scale
        self.height = canvas.height * scale
        self.originX = ((Double(outputWidth) - width) / 2).rounded(.down)
        self.originY = ((Double(outputHeight) - height) / 2).rounded(.down)
    }

    /// The canvas point shown at an output pixel position (for pointer input).
    public func canvasPoint(atPixel x: Double, _ y: Double) -> Point {
        guard scale > 0 else { return Point(x: 0, y: 0) }
        return Point(x: (x - originX) / scale, y: (y - originY) / scale)
    }

    /// The canvas-to-output transform.
    public var transform: Transform2D {
        Transform2D(a: scale, b: 0, c: 0, d: scale, tx: originX, ty: originY)
    }

    /// The output pixels the canvas covers: from its origin (whole pixels) to its far edges rounded, as drawing
    /// clips them (see `FrameRenderer.drawFrame`).
    var pixelBox: PixelRect {
        PixelRect(x: Int(originX), y: Int(originY), width: Int((originX + width).rounded()) - Int(originX),
                  height: Int((originY + height).rounded()) - Int(originY))
    }
}
