import DioramaDocument

/// Where the player shows its frames and where its input comes from: the SDL window (`PlayerWindow`) in `diorama play`;
/// a screen in memory given its events by hand in tests of what the player does rather than what SDL shows.
public protocol PlayerScreen: AnyObject {
    /// The drawable size in pixels.
    var drawableSize: Size { get }
    /// The name of the renderer that shows the frames, for the log.
    var rendererName: String { get }
    /// The name of the video driver, for the log.
    var videoDriver: String { get }
    /// The next event waiting, pointer positions in canvas points of `canvas` letterboxed in the screen; nil when none.
    func nextEvent(canvas: Size) -> WindowEvent?
    /// Draws one frame: `draw` fills ARGB8888 pixels (`width`×`height`, `stride` bytes per row) for `viewport`;
    /// `holdsLastDraw` says they still hold what the last call drew. `draw` returns the areas it wrote (in those
    /// pixels), when it wrote only those over what they held; nil when it may have written all. Returns seconds
    /// drawing and uploading.
    @discardableResult
    func drawFrame(viewport: Rect, clock: () -> Double,
                   draw: (_ pixels: UnsafeMutableRawPointer, _ width: Int, _ height: Int, _ stride: Int, _ holdsLastDraw: Bool) -> [Rect]?)
        throws(WindowError) -> (draw: Double, upload: Double)
    /// Shows the drawn frame (a screen may send only the areas the frame's drawing wrote).
    func present()
    /// The drawn frame's pixels, ARGB8888 rows of the drawable's width (call before `present`).
    func readPixels() throws(WindowError) -> (pixels: [UInt32], width: Int, height: Int)
    func setTitle(_ title: String)
    /// Whether the picture fills the screen.
    var isFullscreen: Bool { get }
    func toggleFullscreen()
    /// Shows or hides the mouse cursor over the picture.
    func showCursor(_ shown: Bool)
}

extension PlayerWindow: PlayerScreen {}
