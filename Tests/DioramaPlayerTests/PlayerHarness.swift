import CDioramaShims
import CSDL
import DioramaAudio
import DioramaDocument
import Foundation
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// A player with a clock and a sound output the test drives, in a real SDL window (dummy, offscreen or X11 driver:
/// events are pushed into SDL's queue) or, `embedded`, on a screen in memory given window events by hand (no SDL, so
/// such tests need not run one at a time). Each `step()` handles the events like a frame would.
final class PlayerHarness {
    let player: Player
    let output: ManualSoundOutput
    let clock: ManualClock
    let settingsPath: String
    /// The screen in memory, when `embedded`.
    private(set) var screen: EmbeddedScreen?

    static let rate = 48_000

    /// Holds the default settings file; removed with the harness.
    private let temporary: TemporaryFolder

    /// - Parameters:
    ///   - load: the loader (default: the fixture story, always loading).
    ///   - latency: frames between the write frame and what is heard.
    ///   - transition: cuts unless a test asks for a transition (the tests of what a scene shows read it at once).
    init(scenesPath: String = "story.json", windowSize: Size? = nil, wraps: Bool = true, showsOverlay: Bool = true, language: String? = nil,
         settingsPath: String? = nil, latency: Int64 = 0,
         renderer: any SnapshotRendering = FlatRenderer(), windowRenderer: WindowRenderer = .auto,
         load: ((String) -> Result<LoadedPlaylist, PlaylistLoadFailure>)? = nil,
         audioOpened: @escaping (LoadedPlaylist) -> [String] = { _ in [] },
         scenes: any SceneSource = ClockSceneSource(),
         sharedClock: (ManualClock) -> (any SharedShowClock)? = { _ in nil }, onlyScene: String? = nil, sceneOffset: Int = 0,
         embedded: Bool = false, fullscreen: Bool = false, transition: TransitionStyle = .none) throws {
        let temporary = try TemporaryFolder()
        let settingsPath = settingsPath ?? temporary.path("diorama/settings.json")
        let clock = ManualClock()
        let output = ManualSoundOutput(sampleRate: Self.rate)
        output.latency = latency
        var options = PlayerOptions(scenesPath: scenesPath, settingsPath: settingsPath)
        options.wraps = wraps
        options.windowSize = windowSize
        options.renderer = windowRenderer
        options.showsOverlay = showsOverlay
        options.languageOverride = language
        options.vsync = false
        options.onlyScene = onlyScene
        options.sceneOffset = sceneOffset
        options.fullscreen = fullscreen
        options.transition = transition
        var dependencies = PlayerDependencies(
            load: load ?? { _ in .success(LoadedPlaylist(document: PlayerFixtures.story(), baseDirectory: "/", watchedPaths: [])) },
            scenes: scenes,
            renderer: renderer,
            audio: { playlist in
                let notes = audioOpened(playlist)
                return AudioSetup(output: output, bank: PlayerSounds.bank(playlist.document), notes: notes)
            },
            now: { clock.now })
        dependencies.sharedClock = sharedClock(clock)
        var screen: EmbeddedScreen?
        if embedded {
            dependencies.openScreen = { size, options in
                screen = EmbeddedScreen(size: size)
                if options.fullscreen { screen?.toggleFullscreen() }
                return screen!
            }
        }
        player = try Player(options: options, dependencies: dependencies)
        self.screen = screen
        self.output = output
        self.clock = clock
        self.settingsPath = settingsPath
        self.temporary = temporary
        // Start from an empty queue: nothing left over from earlier windows.
        if !embedded { SDL_FlushEvents(0, UInt32.max) }
    }

    /// Moves both clocks on by `seconds` (the sound clock in 60 Hz steps, as frames would) and steps once.
    func advance(_ seconds: Double) throws {
        let end = output.heard + seconds * Double(Self.rate)
        let endTime = clock.now + seconds
        while output.heard + 800 < end {
            output.heard += 800
            clock.now += 800.0 / Double(Self.rate)
            player.playback.update()
        }
        output.heard = end
        clock.now = endTime
        try player.step()
    }

    /// The playlist at the frame being heard.
    var position: PlaylistPosition { player.position }
    var sceneTime: Double { position.sceneTime(sampleRate: Self.rate) }

    // MARK: - Synthesized input

    /// The SDL window (not `embedded`).
    var window: PlayerWindow { player.window as! PlayerWindow }

    /// A key as the window reports it, on the embedded screen.
    func press(_ key: ViewerKey) {
        screen?.events.append(.input(.key(key)))
    }

    func key(_ code: SDL_KeyCode, shift: Bool = false) {
        let keycode = Int32(bitPattern: code.rawValue)
        #expect(diorama_sdl_push_key(keycode, 0, shift ? UInt16(KMOD_LSHIFT.rawValue) : 0, 1) == 1)
        #expect(diorama_sdl_push_key(keycode, 0, 0, 0) == 1)
    }

    func text(_ text: String) {
        #expect(diorama_sdl_push_text(text, window.id) == 1)
    }

    /// Window pixel of a canvas point (the fixture window is the canvas size, so 1:1 unless resized).
    func windowPoint(_ canvas: Point) -> (Int32, Int32) {
        let box = Letterbox(canvas: Size(width: player.document.canvas.width, height: player.document.canvas.height),
                            window: window.drawableSize)
        let viewport = box.viewport
        let ratio = window.pixelRatio
        return (Int32(((viewport.x + canvas.x * box.scale) / ratio).rounded()), Int32(((viewport.y + canvas.y * box.scale) / ratio).rounded()))
    }

    func mouseDown(_ point: Point) {
        let (x, y) = windowPoint(point)
        #expect(diorama_sdl_push_mouse_button(x, y, 1, window.id) == 1)
    }

    func mouseMove(_ point: Point) {
        let (x, y) = windowPoint(point)
        #expect(diorama_sdl_push_mouse_motion(x, y, 1, window.id) == 1)
    }

    func mouseUp(_ point: Point) {
        let (x, y) = windowPoint(point)
        #expect(diorama_sdl_push_mouse_button(x, y, 0, window.id) == 1)
    }

    /// A click: press and release at `point`, handled in one frame.
    func click(_ point: Point) throws {
        mouseDown(point)
        mouseUp(point)
        try player.step()
    }
}
