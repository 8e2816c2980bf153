import DioramaAudio
import DioramaDocument
import DioramaTimeline

/// Turns a scene at a time into a snapshot (the timeline's scene evaluator in production).
public protocol SceneSource: AnyObject {
    /// Called with each document that loads (at start and on every reload), before any snapshot of it.
    func prepare(_ document: Document)
    /// The scene `scene` (0-based) of `document` at `time` seconds into it, in `language`.
    func snapshot(of document: Document, scene: Int, time: Double, language: String) -> Snapshot
    /// The same, in a visit of the scene whose nodes were tapped at `taps`.
    func snapshot(of document: Document, scene: Int, time: Double, language: String, taps: VisitTaps) -> Snapshot
}

extension SceneSource {
    public func prepare(_ document: Document) {}

    /// Taps ignored: for sources that draw no animation.
    public func snapshot(of document: Document, scene: Int, time: Double, language: String, taps: VisitTaps) -> Snapshot {
        snapshot(of: document, scene: scene, time: time, language: language)
    }
}

/// Draws a snapshot into caller-provided pixels (the cairo renderer in production).
public protocol SnapshotRendering: AnyObject {
    /// Draws `snapshot` scaled to fit `width`×`height` pixels, letterboxed, into premultiplied ARGB32
    /// pixels (`stride` bytes per row; the same layout as SDL_PIXELFORMAT_ARGB8888), covering every pixel.
    /// `holdsLastFrame`: the pixels still hold, untouched, what this renderer drew into them last (a window surface
    /// drawn again), so it may write only what changed.
    func draw(_ snapshot: Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
              holdsLastFrame: Bool) throws
    /// Prepares `scene` (0-based) ahead, on another thread, so that its first frames at `width`×`height` cost no more
    /// than the frames after them: `frames` composes them as the frame loop will (called at once, and only when a
    /// preparation starts). Asked every frame for the scene to come; does nothing when that scene is prepared already.
    func prepare(scene: Int, width: Int, height: Int, frames: () -> [Snapshot])
    /// The frames drawn from now on show `scene` (called before each frame is drawn).
    func show(scene: Int)
    /// The scene changes met so far with the scene prepared, and without.
    var sceneChanges: SceneChanges { get }
    /// The areas of the pixels the last `draw` wrote (in pixels), when it wrote only those over the last frame it drew
    /// into them; nil when it may have written all of them.
    var lastWrittenAreas: [Rect]? { get }
}

extension SnapshotRendering {
    /// Nothing prepared: for renderers whose first frames cost no more than the others.
    public func prepare(scene: Int, width: Int, height: Int, frames: () -> [Snapshot]) {}
    public func show(scene: Int) {}
    /// Every pixel written, as far as the screen knows.
    public var lastWrittenAreas: [Rect]? { nil }
    public var sceneChanges: SceneChanges { SceneChanges() }
}

/// Scene changes a renderer met with the scene prepared ahead, and without (navigated to before it was ready, or not
/// prepared at all).
public struct SceneChanges: Sendable, Equatable {
    public var prepared = 0
    public var unprepared = 0
    public init(prepared: Int = 0, unprepared: Int = 0) {
        self.prepared = prepared
        self.unprepared = unprepared
    }
}

/// A scenes file that loaded, and the files to watch for live reload.
public struct LoadedPlaylist: Sendable {
    public var document: Document
    /// The folder sound paths resolve against.
    public var baseDirectory: String
    /// The scenes file and every sound file it names, absolute or as given.
    public var watchedPaths: [String]
    /// Problems that do not stop playing (a sound that failed to load), one line each.
    public var warnings: [String]

    public init(document: Document, baseDirectory: String, watchedPaths: [String], warnings: [String] = []) {
        self.document = document
        self.baseDirectory = baseDirectory
        self.watchedPaths = watchedPaths
        self.warnings = warnings
    }
}

/// A scenes file that did not load: its diagnostics, one line each, as `diorama check` prints them.
public struct PlaylistLoadFailure: Error, Sendable, Equatable {
    public var lines: [String]
    public init(lines: [String]) { self.lines = lines }
}

/// The sound side of a player: an output (with the audio clock) and the sound bank its mixer holds.
public struct AudioSetup {
    public var output: any SoundOutput
    /// The sounds in the mixer, by the document's order (sounds that failed to load are silent): what
    /// `PlaylistAudio(document:bank:)` turns the sequencer's events into mixer commands with.
    public var bank: SoundBank
    /// One-line notes for the terminal (the device that opened, or why none did); sounds that failed
    /// to load start with "warning:".
    public var notes: [String]
    /// Stops the output (before another one replaces it, after a sound changed).
    public var close: () -> Void

    public init(output: any SoundOutput, bank: SoundBank, notes: [String] = [], close: @escaping () -> Void = {}) {
        self.output = output
        self.bank = bank
        self.notes = notes
        self.close = close
    }
}

/// What the player needs from the document, timeline, renderer and audio modules. Production wires
/// the real ones in `diorama play`; tests and benchmarks pass stand-ins.
public struct PlayerDependencies {
    /// Loads and validates the scenes file at a path.
    public var load: (String) -> Result<LoadedPlaylist, PlaylistLoadFailure>
    public var scenes: any SceneSource
    public var renderer: any SnapshotRendering
    /// Opens the sound output for a playlist.
    public var audio: (LoadedPlaylist) -> AudioSetup
    /// Monotonic seconds, for the interface's animations and timers.
    public var now: () -> Double
    /// Makes a renderer for another thread, to draw the first frame while the window opens (nil: draw it
    /// on the main thread once the window is open).
    /// The argument is the folder image paths are relative to.
    public var makeBackgroundRenderer: (@Sendable (_ imageDirectory: String) -> any SnapshotRendering)?
    /// A show clock shared with other players (Ableton Link for `--link`): the playback follows it, and navigation
    /// moves it for every player. Nil: the player keeps time alone.
    public var sharedClock: (any SharedShowClock)?
    /// Opens where the frames are shown, `size` pixels: SDL's window (starting SDL's video first) unless a test gives
    /// a screen of its own.
    public var openScreen: (_ size: Size, _ options: PlayerOptions) throws(PlayerStartError) -> any PlayerScreen = { size, options throws(PlayerStartError) in
        try PlayerWindow.open(title: "Diorama", width: Int(size.width), height: Int(size.height), vsync: options.vsync,
                              fullscreen: options.fullscreen, renderer: options.renderer)
    }

    public init(load: @escaping (String) -> Result<LoadedPlaylist, PlaylistLoadFailure>, scenes: any SceneSource,
                renderer: any SnapshotRendering, audio: @escaping (LoadedPlaylist) -> AudioSetup, now: @escaping () -> Double = monotonicSeconds) {
        self.load = load
        self.scenes = scenes
        self.renderer = renderer
        self.audio = audio
        self.now = now
    }
}
