import CDioramaShims
import CSDL
import DioramaDocument
import Foundation

/// A failure of SDL after the display was found (window, renderer or texture creation).
public struct WindowError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var reason: String
    public var description: String { "cannot \(operation): \(reason)" }

    static func sdl(_ operation: String) -> WindowError {
        WindowError(operation: operation, reason: String(cString: SDL_GetError()))
    }
}

/// Which of SDL's renderers shows the frames (cairo draws them on the CPU either way; SDL only
/// copies them to the screen).
public enum WindowRenderer: String, Sendable, CaseIterable {
    /// The GPU when the machine has one (a DRI render node), else the software renderer: a software
    /// OpenGL (Mesa's llvmpipe, as under Xvfb) costs more time and about 90 MB more memory than SDL's
    /// own software path for the same copy.
    case auto
    /// SDL's accelerated renderer (OpenGL): vsync on real displays.
    case gpu
    /// SDL's software renderer with no OpenGL loaded at all.
    case software

    /// Whether the machine has a GPU render node.
    static var hasRenderNode: Bool {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return nodes.contains { $0.hasPrefix("renderD") }
    }
}

/// The SDL window the player draws in: a renderer and one streaming 32-bit texture the size of the
/// letterboxed canvas, drawn into directly by the frame renderer (cairo's ARGB32 has the same layout).
public final class PlayerWindow {
    let window: OpaquePointer
    let renderer: OpaquePointer
    private var texture: OpaquePointer?
    private var textureSize = (width: 0, height: 0)
    public private(set) var vsync: Bool
    /// How the window fills the screen now, or nil in a window.
    private var fullscreen: FullscreenWay?
    /// Whether the cursor shows (SDL's state, set only when it changes).
    private var cursorShown = true
    /// Whether SDL's software renderer shows the frames (it draws on the window surface).
    private let isSoftware: Bool
    /// The window surface's pixels and pitch the last frame was drawn into; nil once they may have changed since.
    private var lastDrawnSurface: (pixels: UnsafeMutableRawPointer, pitch: Int, target: SDL_Rect)?
    /// The areas of the window surface the last frame's drawing wrote over the frame on screen (window pixels); nil
    /// when the whole window is to be sent.
    private var areasToPresent: [SDL_Rect]?
    /// Frames presented by sending only the areas their drawing wrote.
    public private(set) var framesPresentedInPart = 0

    /// Opens a resizable window `width`×`height` pixels, centred; vsync when asked and available.
    /// SDL_RENDER_DRIVER in the environment, when set, chooses the renderer instead of `renderer`.
    public init(title: String, width: Int, height: Int, vsync: Bool, fullscreen: Bool = false,
                renderer choice: WindowRenderer = .auto) throws(WindowError) {
        let driverChosen = !(ProcessInfo.processInfo.environment["SDL_RENDER_DRIVER"] ?? "").isEmpty
        // KMS/DRM has no window surface for the software renderer: there the screen is always the GPU's.
        let onDRM = VideoSystem.driverName == VideoSystem.kmsDRM
        let software = !driverChosen && !onDRM && (choice == .software || (choice == .auto && !WindowRenderer.hasRenderNode))
        // Without this, SDL's software window surface itself goes through OpenGL when it can.
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, software ? "0" : "1")
        // Fullscreen comes after the window exists: which way depends on whether a window manager runs (`setFullscreen`).
        let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        let centered = diorama_sdl_windowpos_centered()
        guard let window = SDL_CreateWindow(title, centered, centered, Int32(width), Int32(height), flags) else {
            throw .sdl("open a window")
        }
        var rendererFlags = software ? SDL_RENDERER_SOFTWARE.rawValue : SDL_RENDERER_ACCELERATED.rawValue
        if vsync { rendererFlags |= SDL_RENDERER_PRESENTVSYNC.rawValue }
        if driverChosen { rendererFlags = 0 }
        var renderer = SDL_CreateRenderer(window, -1, rendererFlags)
        if renderer == nil {
            // No accelerated renderer (dummy driver, no GL): the software one always exists.
            renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
        }
        guard let renderer else {
            SDL_DestroyWindow(window)
            throw .sdl("create a renderer")
        }
        self.window = window
        self.renderer = renderer
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        isSoftware = info.flags & SDL_RENDERER_SOFTWARE.rawValue != 0
        self.vsync = vsync
        // The software renderer reports vsync even when it is off: set it explicitly.
        SDL_RenderSetVSync(renderer, vsync ? 1 : 0)
        _ = diorama_sdl_x11_set_title(window, title)
        if fullscreen { setFullscreen(true) }
    }

    /// Starts SDL's video (`VideoSystem.start`: quiet, and failing with one clear line without a display), then
    /// opens the window as `init` does.
    public static func open(title: String, width: Int, height: Int, vsync: Bool, fullscreen: Bool = false,
                            renderer: WindowRenderer = .auto) throws(PlayerStartError) -> PlayerWindow {
        do {
            try VideoSystem.start()
        } catch {
            throw .display(error)
        }
        do {
            return try PlayerWindow(title: title, width: width, height: height, vsync: vsync, fullscreen: fullscreen, renderer: renderer)
        } catch {
            throw .window(error)
        }
    }

    deinit {
        if let texture { SDL_DestroyTexture(texture) }
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
    }

    /// SDL's id of the window, for synthesized events.
    public var id: UInt32 { SDL_GetWindowID(window) }

    /// The drawable size in pixels (larger than the window size on high-DPI screens).
    public var drawableSize: Size {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        return Size(width: Double(width), height: Double(height))
    }

    /// Pixels per window coordinate of mouse events.
    public var pixelRatio: Double {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetWindowSize(window, &width, &height)
        return width > 0 ? drawableSize.width / Double(width) : 1
    }

    /// The name of SDL's renderer ("opengl", "software", ...).
    public var rendererName: String {
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        return info.name.map { String(cString: $0) } ?? "?"
    }

    /// The running video driver's name ("x11", "wayland", "offscreen", "dummy").
    public var videoDriver: String { VideoSystem.driverName ?? "?" }

    /// The next event waiting for the player, translated, or nil when none waits. Pointer positions are in canvas
    /// points of a `canvas` letterboxed in the window as it is now. A resize or uncovering forgets the last draw.
    public func nextEvent(canvas: Size) -> WindowEvent? {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            let letterbox = Letterbox(canvas: canvas, window: drawableSize)
            guard let translated = SDLInput.translate(event, pixelRatio: pixelRatio, letterbox: letterbox) else { continue }
            if translated == .resized { forgetLastDraw() }
            return translated
        }
        return nil
    }

    public func setTitle(_ title: String) {
        SDL_SetWindowTitle(window, title)
        // The title window managers show; SDL leaves it at the first one (see the shim).
        _ = diorama_sdl_x11_set_title(window, title)
    }

    /// The title the window manager is given (_NET_WM_NAME); nil off X11.
    public var managedTitle: String? {
        var bytes = [CChar](repeating: 0, count: 1024)
        guard diorama_sdl_x11_title(window, &bytes, Int32(bytes.count)) == 0 else { return nil }
        return String(cString: bytes)
    }

    /// The two ways a window fills the screen.
    private enum FullscreenWay {
        /// The window manager's fullscreen (SDL's desktop fullscreen), on X11 with a window manager, Wayland and KMS/DRM.
        case desktop
        /// On an X server without a window manager (a kiosk started with xinit), nobody carries out a fullscreen
        /// request while SDL believes it happened: the window would stay as it was while frames are laid out for the
        /// whole screen. There the window itself is made borderless and placed over the display; `restore` is where
        /// it was.
        case placed(restore: SDL_Rect)
    }

    public var isFullscreen: Bool { fullscreen != nil }

    public func toggleFullscreen() {
        setFullscreen(!isFullscreen)
    }

    /// Fills the screen the window is on, or returns it to where and how large it was. The player reads the size the
    /// window really has (`drawableSize`) on every frame, so the next frame is laid out for it.
    public func setFullscreen(_ on: Bool) {
        guard on != isFullscreen else { return }
        forgetLastDraw()
        if !on {
            switch fullscreen {
            case .desktop?:
                SDL_SetWindowFullscreen(window, 0)
            case .placed(let restore)?:
                SDL_SetWindowBordered(window, SDL_TRUE)
                SDL_SetWindowSize(window, restore.w, restore.h)
                SDL_SetWindowPosition(window, restore.x, restore.y)
            case nil:
                break
            }
            fullscreen = nil
            return
        }
        if windowManagerRunning == false {
            var display = SDL_Rect()
            let index = max(0, SDL_GetWindowDisplayIndex(window))
            guard SDL_GetDisplayBounds(index, &display) == 0 else { return }
            var restore = SDL_Rect()
            SDL_GetWindowPosition(window, &restore.x, &restore.y)
            SDL_GetWindowSize(window, &restore.w, &restore.h)
            SDL_SetWindowBordered(window, SDL_FALSE)
            SDL_SetWindowPosition(window, display.x, display.y)
            SDL_SetWindowSize(window, display.w, display.h)
            SDL_RaiseWindow(window)
            fullscreen = .placed(restore: restore)
        } else {
            SDL_SetWindowFullscreen(window, SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue)
            fullscreen = .desktop
        }
    }

    /// Whether a window manager runs on the window's X server (EWMH's check window); nil off X11.
    public var windowManagerRunning: Bool? {
        let running = diorama_sdl_x11_window_manager_running(window)
        return running < 0 ? nil : running == 1
    }

    /// Shows or hides the mouse cursor over the window.
    public func showCursor(_ shown: Bool) {
        guard shown != cursorShown else { return }
        cursorShown = shown
        SDL_ShowCursor(shown ? SDL_ENABLE : SDL_DISABLE)
    }

    /// Where the X server has the window and how large (root coordinates), whatever SDL believes; nil off X11.
    public var screenGeometry: Rect? {
        var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        guard diorama_sdl_x11_window_geometry(window, &x, &y, &width, &height) == 0 else { return nil }
        return Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }

    /// Pixels of the X screen as it is shown (0xRRGGBB, rows of `rect`'s width), what a screenshot takes; nil off X11.
    public func screenPixels(_ rect: Rect) -> [UInt32]? {
        let width = Int(rect.width), height = Int(rect.height)
        var pixels = [UInt32](repeating: 0, count: max(1, width * height))
        let status = diorama_sdl_x11_read_screen(window, Int32(rect.x), Int32(rect.y), Int32(width), Int32(height), &pixels)
        return status == 0 ? pixels : nil
    }

    /// The next frame's pixels are not to be taken for the last one's (the window was resized or uncovered: SDL may
    /// have made its surface again, perhaps at the same address).
    public func forgetLastDraw() {
        lastDrawnSurface = nil
    }

    /// Draws one frame: `draw` fills the texture's pixels (ARGB8888, `width`×`height`, `stride` bytes
    /// per row) for `viewport`, which is then placed in the window over a black letterbox.
    /// `holdsLastDraw` tells `draw` that the pixels are the ones the last call's `draw` filled, untouched since
    /// (the software renderer's window surface, which SDL keeps until the window is resized).
    /// Returns seconds spent drawing (in `draw`) and uploading (unlock and copy), for the benchmark.
    @discardableResult
    public func drawFrame(viewport: Rect, clock: () -> Double,
                          draw: (_ pixels: UnsafeMutableRawPointer, _ width: Int, _ height: Int, _ stride: Int,
                                 _ holdsLastDraw: Bool) -> [Rect]?)
        throws(WindowError) -> (draw: Double, upload: Double) {
        areasToPresent = nil
        let width = max(1, Int(viewport.width)), height = max(1, Int(viewport.height))
        var target = SDL_Rect(x: Int32(viewport.x), y: Int32(viewport.y), w: Int32(width), h: Int32(height))
        let last = lastDrawnSurface
        lastDrawnSurface = nil
        if let surface = windowSurface(holding: target), SDL_LockSurface(surface) == 0 {
            // The software renderer shows the window surface as it is: draw the frame straight into it.
            defer { SDL_UnlockSurface(surface) }
            guard let base = surface.pointee.pixels else { throw .sdl("reach the window's pixels") }
            let pitch = Int(surface.pointee.pitch)
            let pixels = base + Int(target.y) * pitch + Int(target.x) * 4
            let holdsLastDraw = last.map { $0.pixels == pixels && $0.pitch == pitch && $0.target.x == target.x
                && $0.target.y == target.y && $0.target.w == target.w && $0.target.h == target.h } == true
            let start = clock()
            let written = draw(pixels, width, height, pitch, holdsLastDraw)
            lastDrawnSurface = (pixels, pitch, target)
            // The screen shows the last frame: only what this one wrote over it goes to the screen.
            if holdsLastDraw, let written {
                areasToPresent = written.map { SDL_Rect(x: target.x + Int32($0.x), y: target.y + Int32($0.y),
                                                        w: Int32($0.width), h: Int32($0.height)) }
            }
            let drawn = clock()
            var bars = Self.letterboxBars(around: target, in: Size(width: Double(surface.pointee.w), height: Double(surface.pointee.h)))
            if !bars.isEmpty { SDL_FillRects(surface, &bars, Int32(bars.count), SDL_MapRGB(surface.pointee.format, 0, 0, 0)) }
            return (drawn - start, clock() - drawn)
        }
        if texture == nil || textureSize != (width, height) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, framePixelFormat, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(width), Int32(height))
            guard texture != nil else { throw .sdl("create a \(width)x\(height) texture") }
            // Every frame is opaque (letterbox and background are painted first), so copying equals blending;
            // SDL defaults a texture with alpha to blending, which costs the software renderer a pass per pixel.
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
            textureSize = (width, height)
        }
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &pixels, &pitch) == 0, let pixels else { throw .sdl("lock the frame texture") }
        let start = clock()
        // A locked texture's pixels are SDL's to choose: they never hold the last frame.
        _ = draw(pixels, width, height, Int(pitch), false)
        let drawn = clock()
        SDL_UnlockTexture(texture)
        // Only the letterbox bars need black: the frame covers the rest (clearing the whole window costs the
        // software renderer a full-window fill per frame).
        var bars = Self.letterboxBars(around: target, in: drawableSize)
        if !bars.isEmpty {
            SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
            SDL_RenderFillRects(renderer, &bars, Int32(bars.count))
        }
        SDL_RenderCopy(renderer, texture, nil, &target)
        return (drawn - start, clock() - drawn)
    }

    /// The parts of a `size` window outside `frame`: up to four rectangles (bars above and below, or beside).
    static func letterboxBars(around frame: SDL_Rect, in size: Size) -> [SDL_Rect] {
        let width = Int32(size.width), height = Int32(size.height)
        let top = max(0, frame.y), bottom = min(height, frame.y + frame.h)
        let candidates = [
            SDL_Rect(x: 0, y: 0, w: width, h: top),
            SDL_Rect(x: 0, y: bottom, w: width, h: height - bottom),
            SDL_Rect(x: 0, y: top, w: max(0, frame.x), h: bottom - top),
            SDL_Rect(x: frame.x + frame.w, y: top, w: width - (frame.x + frame.w), h: bottom - top),
        ]
        return candidates.filter { $0.w > 0 && $0.h > 0 }
    }

    /// With SDL's software renderer, the window surface when the frame can be drawn into it directly: 32-bit
    /// pixels in cairo's layout (ARGB8888, or XRGB8888 since frames are opaque) and room for `frame`. That saves
    /// a streaming texture and copying it into the surface on every frame. Nil otherwise (the GPU renderer).
    private func windowSurface(holding frame: SDL_Rect) -> UnsafeMutablePointer<SDL_Surface>? {
        guard isSoftware, let surface = SDL_GetWindowSurface(window), let format = surface.pointee.format,
              format.pointee.format == SDL_PIXELFORMAT_RGB888.rawValue || format.pointee.format == SDL_PIXELFORMAT_ARGB8888.rawValue,
              frame.x >= 0, frame.y >= 0, frame.x + frame.w <= surface.pointee.w, frame.y + frame.h <= surface.pointee.h
        else { return nil }
        return surface
    }

    /// The texture format: cairo's ARGB32 bytes read as ARGB8888, or as XRGB8888 (SDL's RGB888) when that is
    /// the window's format. The frames are opaque, so both read the same colours, and a texture in the window's
    /// own format reaches the window by a plain copy instead of a conversion per pixel in the software renderer.
    private var framePixelFormat: UInt32 {
        let windowFormat = SDL_GetWindowPixelFormat(window)
        return windowFormat == SDL_PIXELFORMAT_RGB888.rawValue ? windowFormat : SDL_PIXELFORMAT_ARGB8888.rawValue
    }

    /// Shows the drawn frame (waits for vertical blank when vsync is on). Drawn into the window surface over the frame
    /// on screen, only the areas the drawing wrote are sent: the X server copies every pixel it is sent, the whole
    /// window otherwise (7.7 ms a frame at 3840x2160 under Xvfb).
    public func present() {
        defer { areasToPresent = nil }
        if var areas = areasToPresent {
            if !areas.isEmpty { SDL_UpdateWindowSurfaceRects(window, &areas, Int32(areas.count)) }
            framesPresentedInPart += 1
            return
        }
        SDL_RenderPresent(renderer)
    }

    /// The pixels of the rendered frame, ARGB8888 rows of the drawable's width. Call before `present`
    /// (SDL's backbuffer is undefined after presenting).
    public func readPixels() throws(WindowError) -> (pixels: [UInt32], width: Int, height: Int) {
        let size = drawableSize
        let width = Int(size.width), height = Int(size.height)
        var pixels = [UInt32](repeating: 0, count: width * height)
        let status = pixels.withUnsafeMutableBytes { buffer in
            SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, buffer.baseAddress, Int32(width * 4))
        }
        guard status == 0 else { throw .sdl("read the window's pixels") }
        return (pixels, width, height)
    }
}
