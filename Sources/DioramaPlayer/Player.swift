import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTimeline
import Foundation

/// How `diorama play` was asked to run.
public struct PlayerOptions: Sendable {
    public var scenesPath: String
    /// Window size in pixels; the canvas size when nil.
    public var windowSize: Size?
    public var vsync = true
    /// Start again after the last scene (story viewers do); false for `--once`.
    public var wraps = true
    public var showsOverlay = true
    public var fullscreen = false
    public var renderer = WindowRenderer.auto
    /// `--lang`: this run's language, not saved unless the user picks one with `L`.
    public var languageOverride: String?
    /// Stop after this many monotonic seconds.
    public var maximumDuration: Double?
    /// Stop after this many presented frames.
    public var maximumFrames: Int?
    public var logPath: String?
    public var settingsPath: String
    /// `--only SCENE`: play this scene alone (by id), looping.
    public var onlyScene: String?
    /// `--scene-offset N`: on a shared show clock, show the show N scenes ahead.
    public var sceneOffset = 0
    /// `--transition`: how the picture (and the beds) change at a scene change; a drag always slides.
    public var transition = TransitionStyle.slide

    public init(scenesPath: String, settingsPath: String = SettingsStore.defaultPath()) {
        self.scenesPath = scenesPath
        self.settingsPath = settingsPath
    }
}

/// Why a player run ended.
public enum PlayerEnd: Sendable, Equatable {
    /// Q, Esc or the window closed.
    case quit
    /// The last scene ended with `--once`.
    case finished
    /// `--duration` or `--frames` was reached.
    case limitReached
}

/// Why the player could not start.
public enum PlayerStartError: Error, CustomStringConvertible {
    case load(PlaylistLoadFailure)
    case display(DisplayUnavailable)
    case window(WindowError)
    case log(path: String, reason: String)

    public var description: String {
        switch self {
        case .load(let failure): failure.lines.joined(separator: "\n")
        case .display(let error): error.description
        case .window(let error): error.description
        case .log(let path, let reason): "cannot write the log \(path): \(reason)"
        }
    }
}

/// The player: an SDL window showing the playlist at the audio clock, the story-viewer interface,
/// live reload and the saved language. One frame per `step()`; `run()` loops until the end.
public final class Player {
    public let options: PlayerOptions
    /// The SDL window (`PlayerWindow`), or the screen a test gave in `dependencies.openScreen`.
    public let window: any PlayerScreen
    public private(set) var playlist: LoadedPlaylist {
        didSet { clock = PlaylistClock(document: playlist.document) }
    }
    /// The playlist's clock, made once a load (not once a frame): the progress bars ask it.
    private var clock: PlaylistClock
    public private(set) var playback: PlaylistPlayback
    public private(set) var viewer: StoryViewer
    /// Language, volume, mute, the held pause, the toast: what the intents decide (`ShowState.decide`).
    public private(set) var state: ShowState
    /// The load error shown in the banner, one line per diagnostic; empty when the file is good.
    public private(set) var banner: [String] = []
    /// Monotonic seconds when the player was created.
    public let startTime: Double
    /// The frame loop's record: frames presented and skipped, the last one's cost and picture, the presentation lead.
    public private(set) var frames = FrameRecord()
    public private(set) var end: PlayerEnd?
    /// When set, each `step()` reads the drawn frame back from the window before presenting it (tests).
    public var capturesFrames = false

    /// Keeps the playback on the shared show clock (`--link`); nil when the player keeps time alone.
    public private(set) var sync: ShowSync?
    /// The whole playlist's scenes (before `--only`), whose lengths make the shared show's cycle.
    private var showDurations: [(id: String, duration: Rational)] = []

    private let dependencies: PlayerDependencies
    private var audio: AudioSetup
    /// What the sound bank was loaded from (definitions and file states), to notice when sounds change.
    private var soundSignature: [String]
    /// Sounds that failed to load after a reload, shown in the banner until they load.
    private var soundProblems: [String] = []
    private let settings: SettingsStore
    private var watch: FileWatch
    private var log: PlayLog?
    /// Called at the start of every frame, before input: a show controller's commands go in here (`perform`).
    public var beforeFrame: ((Player, Double) -> Void)?
    /// The scene change being drawn (`SceneTransition`), nil at rest.
    private var transition: SceneTransition? {
        didSet { if transition == nil { leftSnapshots = [:] } }
    }
    /// The pages left by the transition, evaluated once each: they are frozen.
    private var leftSnapshots: [String: Snapshot] = [:]
    /// The scene and scene time the last frame showed as its current page: a page left is frozen as it was shown.
    private var shown = (scene: 0, time: 0.0)
    /// The heard scene and its frame at the last frame, to notice the heard scene change of a scene's end (or a shared
    /// show's move), and a lone scene starting over (`--only`).
    private var lastHeard: (scene: Int, frame: Double)?
    /// The mixer frame the last navigation acts on, until the picture hears it: the incoming page holds its start.
    private var awaitedChange: Int64?
    /// Set while the intents of a drag's release are performed: the viewer already slides the page.
    private var navigatingByDrag = false
    /// The mouse cursor hides once the pointer rests.
    public private(set) var cursor: CursorVisibility

    /// Lines for the terminal: a corrupt settings file, the audio device, sounds that failed to load.
    public private(set) var notes: [String] = []

    /// Loads the file, opens the window (showing the first frame at once) and the sound, and restores the
    /// saved language. Prints nothing: what the terminal should show is in `notes`.
    public init(options: PlayerOptions, dependencies: PlayerDependencies) throws(PlayerStartError) {
        self.options = options
        self.dependencies = dependencies
        startTime = dependencies.now()
        let loaded: LoadedPlaylist
        switch Self.load(options: options, dependencies: dependencies) {
        case .success(let part):
            loaded = part.playlist
            showDurations = part.showDurations
        case .failure(let failure): throw .load(failure)
        }
        playlist = loaded
        clock = PlaylistClock(document: loaded.document)
        notes += loaded.warnings
        settings = SettingsStore(path: options.settingsPath)
        var saved: String?
        switch settings.load() {
        case .missing: break
        case .loaded(let value): saved = value.language
        case .corrupt(let error):
            notes.append("warning: ignoring the settings file \(error.path): it \(error.reason); it will be replaced when you next choose a language with L")
        }
        let language = LanguageChoice.initial(languages: loaded.document.languages, override: options.languageOverride, saved: saved)

        let canvas = loaded.document.canvas
        let size = options.windowSize ?? Size(width: canvas.width, height: canvas.height)
        let layout = OverlayLayout(canvas: Size(width: canvas.width, height: canvas.height), sceneCount: loaded.document.scenes.count)
        dependencies.scenes.prepare(loaded.document)
        var startFrame = Self.startFrame(of: loaded.document, language: language, layout: layout, showsOverlay: options.showsOverlay,
                                         dependencies: dependencies)
        // On a shared show the playlist's start is not the show's moment until this player has joined: the canvas's
        // background alone until then.
        if dependencies.sharedClock != nil {
            startFrame = Snapshot(canvas: startFrame.canvas, background: loaded.document.canvas.background, nodes: [])
        }
        // Draw the first frame on another core while SDL opens the window (the window is expected to be the
        // size asked for; if it is not, the frame is drawn again at the size it got).
        let expected = Letterbox(canvas: startFrame.canvas, window: size).viewport
        let imageDirectory = loaded.baseDirectory
        let prerendered = dependencies.makeBackgroundRenderer.map { make in
            BackgroundFrame(startFrame, width: Int(expected.width), height: Int(expected.height), renderer: { make(imageDirectory) })
        }
        let window = try dependencies.openScreen(size, options)
        self.window = window
        cursor = CursorVisibility(shownFrom: window.isFullscreen ? nil : startTime)
        state = ShowState(language: language)
        // The first frame (the playlist's start) is on screen while the sounds finish loading.
        do {
            frames.firstTime = try Self.present(startFrame, prerendered: prerendered, in: window, dependencies: dependencies)
        } catch {
            throw .window(error)
        }
        audio = dependencies.audio(loaded)
        soundSignature = Self.soundSignature(of: loaded)
        notes += audio.notes
        viewer = StoryViewer(layout: layout, showsOverlay: options.showsOverlay)
        // On a shared show, the playback holds silent at the start until the show is started here or joined (the
        // first `follow`): a player looking for others neither rings its own show nor falls behind its schedule.
        playback = PlaylistPlayback(document: loaded.document, soundCommands: Self.soundCommands(loaded.document, audio: audio, transition: options.transition),
                                    output: audio.output, end: options.wraps ? .wrap : .stop,
                                    paused: dependencies.sharedClock != nil)
        watch = FileWatch(paths: loaded.watchedPaths)
        if let clock = dependencies.sharedClock {
            sync = ShowSync(clock: clock, layout: showLayout)
        }
        if let path = options.logPath {
            do {
                log = try PlayLog(path: path)
            } catch {
                throw .log(path: path, reason: "cannot create the file")
            }
            let drawable = window.drawableSize
            log?.start(sampleRate: audio.output.sampleRate, audioLive: audio.output.isLive, videoDriver: window.videoDriver,
                       renderer: window.rendererName, vsync: options.vsync, size: (Int(drawable.width), Int(drawable.height)))
        }
        updateTitle()
    }

    /// Loads the scenes file; with `--only`, keeps that scene alone. Also gives the whole playlist's scene lengths.
    private static func load(options: PlayerOptions, dependencies: PlayerDependencies)
        -> Result<(playlist: LoadedPlaylist, showDurations: [(id: String, duration: Rational)]), PlaylistLoadFailure> {
        switch dependencies.load(options.scenesPath) {
        case .failure(let failure):
            return .failure(failure)
        case .success(var loaded):
            let durations = loaded.document.scenes.map { ($0.id, $0.duration) }
            guard let only = options.onlyScene else { return .success((loaded, durations)) }
            guard let scene = loaded.document.scenes.first(where: { $0.id == only }) else {
                let ids = loaded.document.scenes.map(\.id).joined(separator: ", ")
                return .failure(PlaylistLoadFailure(lines: [
                    "\(options.scenesPath): error: --only \(only): no scene has that id",
                    "  hint: the scenes are \(ids)",
                ]))
            }
            loaded.document.scenes = [scene]
            return .success((loaded, durations))
        }
    }

    /// Where this player's playlist sits on the shared show clock.
    private var showLayout: ShowLayout {
        ShowLayout(durations: showDurations.map(\.duration), sceneOffset: options.sceneOffset,
                   only: options.onlyScene.flatMap { id in showDurations.firstIndex { $0.id == id } })
    }

    /// The first scene at its start, with the overlay.
    private static func startFrame(of document: Document, language: String, layout: OverlayLayout, showsOverlay: Bool,
                                   dependencies: PlayerDependencies) -> Snapshot {
        let scene = dependencies.scenes.snapshot(of: document, scene: 0, time: 0, language: language)
        let title = document.scenes[0].title.resolved(language: language, fallback: document.languages.fallback)
        let overlay = OverlayComposer(layout: layout).nodes(for: OverlayContent(
            progress: Array(repeating: 0, count: document.scenes.count), currentScene: 0, title: title, showsBars: showsOverlay))
        return FrameComposer.compose(scene: scene, id: FrameComposer.pageID(scene: 0), overlay: overlay)
    }

    /// Presents the first frame, from the background render when it has the window's size; returns when it was presented.
    private static func present(_ frame: Snapshot, prerendered: BackgroundFrame?, in window: any PlayerScreen,
                                dependencies: PlayerDependencies) throws(WindowError) -> Double {
        let viewport = Letterbox(canvas: frame.canvas, window: window.drawableSize).viewport
        let ready = prerendered?.wait()
        try window.drawFrame(viewport: viewport, clock: dependencies.now) { pixels, width, height, stride, _ in
            if let ready, ready.width == width, ready.height == height {
                ready.pixels.withUnsafeBytes { source in
                    for row in 0..<height {
                        (pixels + row * stride).copyMemory(from: source.baseAddress! + row * width * 4, byteCount: width * 4)
                    }
                }
                return nil
            }
            do {
                try dependencies.renderer.draw(frame, into: pixels, width: width, height: height, stride: stride,
                                               holdsLastFrame: false)
            } catch {
                pixels.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
            }
            return nil
        }
        window.present()
        return dependencies.now()
    }

    /// The sequencer's events as mixer commands, with the sounds of the output's bank.
    /// With a transition, what a scene change starts and ends fades over at least the transition's length.
    static func soundCommands(_ document: Document, audio: AudioSetup, transition: TransitionStyle) -> PlaylistPlayback.SoundCommands {
        let fade = transition == .none ? 0 : Int((SceneTransition.duration * Double(audio.bank.sampleRate)).rounded())
        var playlistAudio = PlaylistAudio.measuringScenesWhenNeeded(document: document, bank: audio.bank)
        playlistAudio.sceneChangeFadeFrames = fade
        return playlistAudio.commands(for:)
    }

    public var document: Document { playlist.document }
    public var language: String { state.language }
    /// The master volume, 0...1.5.
    public var volume: Float { state.volume }
    /// Show controllers' commands ignored for naming what the playlist does not have, by kind.
    public var ignoredCommands: [String: Int] { state.ignoredCommands }
    public var sampleRate: Int { audio.output.sampleRate }
    public var output: any SoundOutput { audio.output }

    /// The playlist at the frame being heard now.
    public var position: PlaylistPosition { playback.current }

    private var viewerContext: ViewerContext {
        ViewerContext(sceneIndex: playback.commanded.sceneIndex, sceneCount: document.scenes.count, wraps: options.wraps)
    }

    private var canvasSize: Size { Size(width: document.canvas.width, height: document.canvas.height) }

    private var letterbox: Letterbox { Letterbox(canvas: canvasSize, window: window.drawableSize) }

    /// Writes buffered log lines to the file.
    public func flushLog() { log?.flush() }

    /// Why the `--log` file could not be written to the end (a full disk), nil when it was.
    public var logFailure: String? { log?.failure.map { "cannot write the log \(log?.path ?? ""): \($0)" } }

    // MARK: - The frame loop

    /// Plays until quit, the end (`--once`) or a limit; returns why it ended.
    public func run() throws(WindowError) -> PlayerEnd {
        while end == nil {
            try step()
            if end == nil { pace() }
        }
        log?.flush()
        return end ?? .quit
    }

    /// One frame: handle input, reload if the file changed, schedule sound, draw and present.
    public func step() throws(WindowError) {
        let now = dependencies.now()
        frames.start = now
        beforeFrame?(self, now)
        handleEvents(now: now)
        for intent in viewer.advance(to: now) { perform(intent, from: .viewer, now: now) }
        window.showCursor(cursor.isShown(at: now, pressed: viewer.isPressed))
        if watch.poll(at: now) { reload(now: now, reason: "file changed") }
        if let correction = sync?.follow(playback) {
            log?.event("sync", monotonic: now, detail: "\(correction.kind.rawValue) \(Self.milliseconds(correction.difference)) ms at frame \(correction.frame)")
        }
        playback.update()

        // Draw the moment that will be heard when this frame reaches the screen: now, plus what drawing and
        // presenting have been taking.
        let heardNow = audio.output.heardFrame()
        let heardFrame = heardNow + frames.presentationLead
        let heard = playback.position(atHeard: heardFrame)
        if heard.hasEnded {
            end = .finished
            return
        }
        noticeSceneChange(heard: heard, heardFrame: heardFrame, now: now)
        // On whole pixels of the window: a page moved by a fraction of a pixel resamples every picture in it, where a
        // whole-pixel move copies them.
        let scale = letterbox.scale
        let offset = scale > 0 ? (viewer.pageOffset(at: now, context: viewerContext) * scale).rounded() / scale : 0
        let composeStart = dependencies.now()
        let frame = composeFrame(heard: heard, offset: offset, now: now)
        let composed = dependencies.now()
        // Paused with nothing moving: the picture on screen is already this frame; save the work.
        if !frames.needsDraw, !capturesFrames, let last = frames.last, last.snapshot == frame, last.viewport == letterbox.viewport {
            frames.skipped += 1
            // Nothing more is written while the picture holds: what is buffered (the held frame) goes out now.
            if !frames.lastSkipped { log?.flush() }
            frames.lastSkipped = true
            if let limit = options.maximumDuration, now - startTime >= limit { end = .limitReached }
            return
        }
        frames.needsDraw = false
        frames.lastSkipped = false
        var renderFailure: String?
        // The renderer of the scene on the current page (the page coming in, during a scene change).
        dependencies.renderer.show(scene: shown.scene)
        let cost = try window.drawFrame(viewport: letterbox.viewport, clock: dependencies.now) { pixels, width, height, stride, holdsLastDraw in
            do {
                try dependencies.renderer.draw(frame, into: pixels, width: width, height: height, stride: stride,
                                               holdsLastFrame: holdsLastDraw && frames.rendererDrewLast)
                frames.rendererDrewLast = true
                return dependencies.renderer.lastWrittenAreas
            } catch {
                pixels.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
                frames.rendererDrewLast = false
                renderFailure = "\(error)"
                return nil
            }
        }
        if let renderFailure, !notes.contains(renderFailure) { notes.append(renderFailure) }
        frames.last = (frame, letterbox.viewport)
        if capturesFrames { frames.captured = try window.readPixels() }
        let beforePresent = dependencies.now()
        window.present()
        let presented = dependencies.now()
        frames.lastCost = FrameCost(compose: composed - composeStart, render: cost.draw, upload: cost.upload,
                                    present: presented - beforePresent)
        if frames.firstPlayingTime == nil { frames.firstPlayingTime = presented }
        let heardAtPresent = audio.output.heardFrame()
        let heardAtPresentRead = dependencies.now()
        frames.observePresentation(heardBefore: heardNow, heardAfter: heardAtPresent, sampleRate: sampleRate)
        prepareNextScene(after: heard, now: now)
        if let log {
            let rate = Double(sampleRate)
            log.frame(FrameLogEntry(index: frames.presented, monotonic: presented, audioFrame: heardFrame, audioClock: heardFrame / rate,
                                    presentedAudioClock: heardAtPresent / rate, sceneIndex: heard.sceneIndex,
                                    sceneID: document.scenes[heard.sceneIndex].id, sceneTime: heard.sceneTime(sampleRate: sampleRate),
                                    paused: heard.isPaused, pageOffset: offset, presentedAudioClockSpan: heardAtPresentRead - presented))
            for cue in playback.takeStartedCues() {
                log.cue(cue, audioClock: audio.output.heardFrame() / rate, monotonic: presented)
            }
        } else {
            _ = playback.takeStartedCues()
        }
        frames.presented += 1
        if let limit = options.maximumFrames, frames.presented >= limit { end = .limitReached }
        if let limit = options.maximumDuration, presented - startTime >= limit { end = .limitReached }
    }

    /// Has the renderer prepare the scene after `heard`'s on another thread (its first frames, composed as they will be
    /// drawn, at the window's size), so that the scene change does not stall a frame on its art. A transition needs
    /// nothing more: the page left is the picture of the last frame shown, and the page coming in is the scene's page as
    /// prepared, moved.
    private func prepareNextScene(after heard: PlaylistPosition, now: Double) {
        // Not while a scene change is drawn: its frames need the cores more than the scene after it.
        guard transition == nil else { return }
        let count = document.scenes.count
        guard options.wraps || heard.sceneIndex + 1 < count else { return }
        let next = (heard.sceneIndex + 1) % count
        guard next != heard.sceneIndex else { return }
        let viewport = letterbox.viewport
        dependencies.renderer.prepare(scene: next, width: max(1, Int(viewport.width)), height: max(1, Int(viewport.height))) {
            // The moments after its start, over which the art it shows first appears, and its start (the first frame
            // shown) last.
            [0.25, 0.1, 1.0 / 60, 0].map { time in
                let scene = dependencies.scenes.snapshot(of: document, scene: next, time: time, language: language)
                let overlay = overlayNodes(heard: PlaylistPosition(sceneIndex: next, sceneFrame: time * Double(sampleRate)), now: now)
                return FrameComposer.compose(scene: scene, id: FrameComposer.pageID(scene: next), overlay: overlay)
            }
        }
    }

    /// Keeps a loop without working vsync near 60 frames per second (`FrameRecord.pacingDelay`).
    private func pace() {
        if let delay = frames.pacingDelay(now: dependencies.now(), vsync: options.vsync) { usleep(useconds_t(delay * 1_000_000)) }
    }

    private func handleEvents(now: Double) {
        while let event = window.nextEvent(canvas: canvasSize) { handle(event, now: now) }
    }

    /// Handles one event of the window: the end, a redraw, or input for the story viewer (a click on a tappable
    /// node taps it instead).
    public func handle(_ event: WindowEvent, now: Double) {
        switch event {
        case .close: end = .quit
        case .resized: frames.needsDraw = true
        case .pointerHovered: cursor.pointerUsed(at: now)
        case .input(let input):
            if input.isPointer { cursor.pointerUsed(at: now) }
            if case .pointerUp(let point) = input, tap(at: point, now: now) { return }
            // A release of a moved page pages by the drag: the viewer slides it already.
            if case .pointerUp = input, viewer.pageOffset(at: now, context: viewerContext) != 0 { navigatingByDrag = true }
            defer { navigatingByDrag = false }
            for intent in viewer.handle(input, at: now, context: viewerContext) { perform(intent, from: .viewer, now: now) }
        }
    }

    // MARK: - Taps

    /// A click released at `point` (canvas points) on a tappable node of the picture being shown taps it instead
    /// of paging; true when it did.
    private func tap(at point: Point, now: Double) -> Bool {
        for intent in viewer.advance(to: now) { perform(intent, from: .viewer, now: now) }
        guard viewer.releaseIsClick(at: point), viewer.pageOffset(at: now, context: viewerContext) == 0,
              let node = tappableNode(at: point) else { return false }
        viewer.cancelPress()
        log?.event("tap", monotonic: now, detail: node)
        playback.tap(node)
        return true
    }

    /// The topmost tappable node whose visible shape is at `point` in the scene as it is shown now (what is heard
    /// when this frame is presented), or nil. Nodes that cannot be tapped let the click through.
    public func tappableNode(at point: Point) -> String? {
        let shown = playback.position(atHeard: audio.output.heardFrame() + frames.presentationLead)
        guard !shown.hasEnded else { return nil }
        let scene = document.scenes[shown.sceneIndex]
        guard !scene.tappableNodeIDs.isEmpty else { return nil }
        let snapshot = dependencies.scenes.snapshot(of: document, scene: shown.sceneIndex, time: shown.sceneTime(sampleRate: sampleRate),
                                                    language: language, taps: shown.taps)
        return snapshot.hitTest(at: point).first { scene.isTappable($0) }
    }

    // MARK: - The shared show

    /// Starts the shared show (`--link`) at the moment this player is at: the first player of a show does, once it
    /// has looked for others and found none.
    public func startSharedShow() {
        sync?.startHere(playback)
    }

    /// Reads the audio clock against the shared clock (call every few milliseconds while waiting for other players).
    public func observeSharedClock() {
        sync?.observeClock(playback)
    }

    // MARK: - Intents

    /// Carries out an intent from the keys and clicks or a show controller: `ShowState.decide` decides, and the
    /// effects are performed here on the playback (or the shared show), the sound output, the window and the files.
    /// Returns a problem to log (a controller naming a scene or language this playlist does not have, the first of
    /// its kind, names cut to 40 characters), or nil.
    @discardableResult
    public func perform(_ intent: ShowIntent, from source: ShowIntent.Source = .controller, now: Double) -> String? {
        var problem: String?
        for effect in state.decide(intent, from: source, document: document, playhead: playback.commanded, now: now) {
            switch effect {
            case .log(let name, let detail): log?.event(name, monotonic: now, detail: detail)
            case .navigate(let navigation): navigate(navigation, now: now)
            case .pause: if let sync { sync.pause(playback) } else { playback.pause() }
            case .resume: if let sync { sync.resume(playback) } else { playback.resume() }
            case .seek(let scene, let seconds):
                if let sync {
                    sync.navigate(playback, toScene: scene, time: seconds)
                } else {
                    playback.seek(scene: scene, to: Rational(Int128((seconds * Double(sampleRate)).rounded()), Int128(sampleRate)))
                }
            case .outputVolume(let volume): setOutputVolume(volume)
            case .saveLanguage(let code):
                do {
                    try settings.save(PlayerSettings(language: code))
                } catch {
                    state.show(state.text(for: document.languages).cannotSaveLanguage(error.reason), now: now)
                }
            case .retitle: updateTitle()
            case .toggleFullscreen: window.toggleFullscreen()
            case .reload(let reason): reload(now: now, reason: reason)
            case .quit: end = .quit
            case .problem(let text): problem = text
            }
        }
        return problem
    }

    /// Moves the playlist, or on a shared show the show for every player (this playback follows it like the others),
    /// and begins the scene change's transition: the page shown now is left, frozen, and the scene navigated to comes in
    /// (forward from the right, backward from the left; a jump by its direction, the wrap from the last to the first
    /// forward), its time starting at the frame the navigation acts on, as without a transition.
    private func navigate(_ navigation: Navigation, now: Double) {
        let from = playback.commanded.sceneIndex
        let changeFrame = playback.nextCommandFrame
        switch (navigation, sync) {
        case (.next, let sync?): sync.next(playback)
        case (.next, nil): playback.next()
        case (.previous, let sync?): sync.previous(playback)
        case (.previous, nil): playback.previous()
        case (.scene(let scene), let sync?): sync.navigate(playback, toScene: scene)
        case (.scene(let scene), nil): playback.jump(to: scene)
        case (.restart, let sync?): sync.navigate(playback, toScene: 0)
        case (.restart, nil): playback.restart()
        }
        updateTitle()
        let commanded = playback.commanded
        guard !commanded.hasEnded else { return }
        let to = commanded.sceneIndex
        let forward = switch navigation {
        case .next: true
        case .previous, .restart: false
        case .scene: to > from
        }
        awaitedChange = changeFrame
        begin(from: shown, to: to, forward: forward, changeFrame: changeFrame, now: now)
    }

    /// Begins (or retargets) the transition of a scene change to `to`, leaving `left` frozen.
    private func begin(from left: (scene: Int, time: Double), to: Int, forward: Bool, changeFrame: Int64, now: Double) {
        // A drag's release already slides its page, whatever the option.
        let style: TransitionStyle = navigatingByDrag ? .slide : options.transition
        guard style != .none else {
            transition = nil
            return
        }
        if var transition, transition.style == style {
            transition.retarget(to: to, leaving: left.time, forward: forward, changeFrame: changeFrame, at: now)
            self.transition = transition
        } else {
            transition = SceneTransition(style: style, from: left.scene, frozenAt: left.time, to: to, forward: forward,
                                         changeFrame: changeFrame, at: now)
        }
        if style == .slide, !navigatingByDrag { viewer.slideIn(forward: forward, at: now, context: viewerContext) }
    }

    /// Notices the heard scene change no navigation made here (a scene's end, a shared show moved by another player)
    /// and lets it transition too: the scene left frozen as it was last shown (a scene that ended, at its end when it
    /// was not shown last), the next coming in forward after an end, otherwise by the direction of the move.
    private func noticeSceneChange(heard: PlaylistPosition, heardFrame: Double, now: Double) {
        defer { lastHeard = (heard.sceneIndex, heard.sceneFrame) }
        if let awaited = awaitedChange {
            // Until the navigation is heard, the scene heard is still the one being left.
            guard heardFrame >= Double(awaited) else { return }
            awaitedChange = nil
            return
        }
        guard let (last, lastFrame) = lastHeard, !heard.hasEnded, document.scenes.indices.contains(last) else { return }
        let count = document.scenes.count
        if heard.sceneIndex == last {
            // A playlist of one scene (`--only`) wraps onto the same scene: the heard time went back to its start (by
            // more than the presentation lead's swing from frame to frame) and the scene changes into itself.
            guard count == 1, heard.sceneFrame + Double(sampleRate) / 2 < lastFrame else { return }
            begin(from: (last, shown.time), to: last, forward: true, changeFrame: Int64(heardFrame.rounded(.down)), now: now)
            return
        }
        let duration = document.scenes[last].duration.doubleValue
        // The scene ended when the next one follows within a moment of its end; otherwise the show was moved by another
        // player (`--link`) and the scene is left as it was shown.
        let ended = heard.sceneIndex == (last + 1) % count && (shown.scene != last || duration - shown.time < 0.5)
        // As shown: the picture of that frame is the page left (a frame later, it would be drawn again).
        let time = shown.scene == last ? shown.time : duration
        let frame = Int64(heardFrame.rounded(.down))
        begin(from: (last, time), to: heard.sceneIndex, forward: ended || heard.sceneIndex > last, changeFrame: frame, now: now)
    }

    /// The one place the sound output's gain is set.
    private func setOutputVolume(_ volume: Float) {
        audio.output.volume = volume
    }

    private static func milliseconds(_ seconds: Double) -> String {
        String(Double((seconds * 10_000).rounded()) / 10)
    }

    private func updateTitle() {
        let scene = document.scenes[min(playback.commanded.sceneIndex, document.scenes.count - 1)]
        window.setTitle("\(scene.title.resolved(language: language, fallback: document.languages.fallback)) — Diorama")
    }

    // MARK: - Live reload

    /// Loads the file again; a good file replaces the playlist (keeping the scene and time where they
    /// still exist), a bad one keeps the last good version playing and shows its errors in the banner.
    public func reload(now: Double, reason: String) {
        switch Self.load(options: options, dependencies: dependencies) {
        case .failure(let failure):
            banner = failure.lines
            log?.event("reloadFailed", monotonic: now, detail: failure.lines.first)
            // Keep watching the file (and the sounds of the last good version) for the fix.
        case .success(let part):
            let loaded = part.playlist
            let previous = playlist.document
            playlist = loaded
            showDurations = part.showDurations
            sync?.replaceLayout(showLayout)
            dependencies.scenes.prepare(loaded.document)
            if !loaded.document.languages.available.contains(language), options.languageOverride != language {
                state.language = loaded.document.languages.defaultLanguage
            }
            let canvas = loaded.document.canvas
            viewer.layout = OverlayLayout(canvas: Size(width: canvas.width, height: canvas.height), sceneCount: loaded.document.scenes.count)
            let signature = Self.soundSignature(of: loaded)
            if signature != soundSignature {
                reopenAudio(for: loaded, previous: previous)
                soundSignature = signature
            } else {
                playback.replaceDocument(loaded.document, soundCommands: Self.soundCommands(loaded.document, audio: audio, transition: options.transition))
            }
            banner = soundProblems
            watch.watch(loaded.watchedPaths)
            log?.event("reloaded", monotonic: now, detail: reason)
            updateTitle()
            // The scenes may have moved (and the sound clock started over): the picture starts from what it hears.
            transition = nil
            awaitedChange = nil
            lastHeard = nil
        }
    }

    /// A sound was added, removed or edited: load the bank again in a new output and go on from the same
    /// scene (by id) and time being heard (the sound pauses for as long as decoding takes).
    private func reopenAudio(for loaded: LoadedPlaylist, previous: Document) {
        let position = playback.current
        let id = previous.scenes[position.sceneIndex].id
        audio.close()
        audio = dependencies.audio(loaded)
        soundProblems = audio.notes.filter { $0.hasPrefix("warning:") }
        let scenes = loaded.document.scenes
        let index = scenes.firstIndex { $0.id == id } ?? min(position.sceneIndex, scenes.count - 1)
        // Whole frames: the new output starts on a frame of its own anyway.
        let time = min(Rational(Int128(position.sceneFrame.rounded(.down)), Int128(audio.output.sampleRate)), scenes[index].duration)
        playback = PlaylistPlayback(document: loaded.document, soundCommands: Self.soundCommands(loaded.document, audio: audio, transition: options.transition),
                                    output: audio.output, end: options.wraps ? .wrap : .stop, sceneIndex: index,
                                    sceneTime: position.hasEnded ? scenes[index].duration : time, paused: position.isPaused)
        setOutputVolume(state.outputVolume)
        sync?.audioClockStartedOver()
    }

    /// Each sound's name, path, gain, variation, the pitches cues play it at (its takes and copies are in the bank)
    /// and file state.
    private static func soundSignature(of playlist: LoadedPlaylist) -> [String] {
        let pitches = SoundBank.pitches(in: playlist.document)
        return playlist.document.sounds.map { sound in
            let path = sound.file.hasPrefix("/") ? sound.file : playlist.baseDirectory + "/" + sound.file
            return "\(sound.name)|\(sound.path)|\(sound.gain)|\(String(describing: sound.vary))|\(pitches[sound.name] ?? [])"
                + "|\(String(describing: FileWatch.Signature.of(path)))"
        }
    }

    // MARK: - Composing a frame

    /// The progress bars' values with `heard` being heard: the scenes before it full, its own the fraction elapsed.
    private func progress(at heard: PlaylistPosition) -> [Double] {
        clock.progress(scene: heard.sceneIndex, sceneFrame: heard.sceneFrame, sampleRate: sampleRate)
    }

    /// The snapshot of one window frame: the heard scene at the heard time (with its neighbour while a
    /// page moves), and the overlay.
    public func composeFrame(heard: PlaylistPosition, offset: Double, now: Double) -> Snapshot {
        let heardTime = heard.sceneTime(sampleRate: sampleRate)
        let overlay = overlayNodes(heard: heard, now: now)

        if let transition, hasSettled(transition, offset: offset, now: now) { self.transition = nil }
        if let transition {
            return compose(transition, heard: heard, offset: offset, now: now, overlay: overlay)
        }
        shown = (heard.sceneIndex, heardTime)
        let scene = dependencies.scenes.snapshot(of: document, scene: heard.sceneIndex, time: heardTime, language: language, taps: heard.taps)
        // A drag at rest: the page beside it is the scene a release would page to, from its start.
        let id = FrameComposer.pageID(scene: heard.sceneIndex)
        let beside = offset == 0 ? nil : neighbour(of: heard.sceneIndex, offset: offset).map { neighbour in
            (scene: neighbour.scene, id: neighbour.index == heard.sceneIndex ? id + ".neighbour" : FrameComposer.pageID(scene: neighbour.index))
        }
        return FrameComposer.compose(scene: scene, id: id, offset: offset, neighbour: beside, overlay: overlay)
    }

    /// The overlay with `heard` being heard at monotonic `now`.
    private func overlayNodes(heard: PlaylistPosition, now: Double) -> [NodeSnapshot] {
        let content = OverlayContent(
            progress: progress(at: heard),
            currentScene: heard.sceneIndex,
            title: document.scenes[heard.sceneIndex].title.resolved(language: language, fallback: document.languages.fallback),
            showsBars: viewer.showsOverlay, showsHelp: viewer.showsHelp, isPaused: heard.isPaused && !viewer.isHolding,
            banner: banner, toast: state.toast(at: now), hold: viewer.holdFeedback(at: now), text: state.text(for: document.languages))
        return OverlayComposer(layout: viewer.layout).nodes(for: content)
    }

    /// Whether the transition is over: its page at rest (or its fade done) and the navigation heard.
    private func hasSettled(_ transition: SceneTransition, offset: Double, now: Double) -> Bool {
        guard awaitedChange == nil, offset == 0 else { return false }
        switch transition.style {
        case .crossfade: return transition.fadeProgress(at: now) >= 1
        default: return !viewer.isAnimating(at: now)
        }
    }

    /// The scene a drag by `offset` shows beside `page` (its previous to the left, its next to the right), at its start.
    private func neighbour(of page: Int, offset: Double) -> (scene: Snapshot, index: Int)? {
        let count = document.scenes.count
        var index = offset > 0 ? page - 1 : page + 1
        if options.wraps { index = (index + count) % count }
        guard (0..<count).contains(index), index != page else { return nil }
        return (dependencies.scenes.snapshot(of: document, scene: index, time: 0, language: language), index)
    }

    /// A frame of a scene change: the pages left, frozen, beside the incoming page (slide, moved by the page offset) or
    /// beneath it (crossfade, the incoming page's opacity rising). The incoming scene shows its heard time once its
    /// change is heard, its start until then.
    private func compose(_ transition: SceneTransition, heard: PlaylistPosition, offset: Double, now: Double,
                         overlay: [NodeSnapshot]) -> Snapshot {
        let live = awaitedChange == nil && heard.sceneIndex == transition.incoming
        let time = live ? heard.sceneTime(sampleRate: sampleRate) : 0
        shown = (transition.incoming, time)
        let incoming = dependencies.scenes.snapshot(of: document, scene: transition.incoming, time: time, language: language,
                                                    taps: live ? heard.taps : [:])
        func snapshot(_ page: SceneTransition.LeftPage) -> Snapshot {
            let key = "\(page.scene)@\(page.time)@\(language)"
            if let snapshot = leftSnapshots[key] { return snapshot }
            let snapshot = dependencies.scenes.snapshot(of: document, scene: page.scene, time: page.time, language: language)
            leftSnapshots[key] = snapshot
            return snapshot
        }
        let width = canvasSize.width
        // Each page by its scene's id (the renderer keeps its picture by it), a scene shown twice the second time apart.
        let incomingID = FrameComposer.pageID(scene: transition.incoming)
        var ids: Set<String> = [incomingID]
        func id(of scene: Int, _ role: String) -> String {
            let id = FrameComposer.pageID(scene: scene)
            return ids.insert(id).inserted ? id : id + "." + role
        }
        let leftIDs = transition.left.enumerated().map { index, page in id(of: page.scene, "left\(index)") }
        var pages: [FrameComposer.Page] = []
        switch transition.style {
        case .crossfade:
            pages = transition.left.enumerated().map { index, page in
                FrameComposer.Page(snapshot(page), offset: offset, opacity: page.opacity, id: leftIDs[index])
            }
            pages.append(FrameComposer.Page(incoming, offset: offset, opacity: transition.fadeProgress(at: now), id: incomingID))
        default:
            // Side by side, the incoming page first (as the page being dragged is).
            pages = [FrameComposer.Page(incoming, offset: offset, id: incomingID)]
            pages += transition.left.enumerated().filter { abs(offset + Double($0.element.slot) * width) < width }.map { index, page in
                FrameComposer.Page(snapshot(page), offset: offset + Double(page.slot) * width, id: leftIDs[index])
            }
        }
        // Where the page shows a side no page was left on (a caught page dragged on), the neighbour a release pages to.
        let side = offset > 0 ? -1 : 1
        if offset != 0, !(transition.style == .slide && transition.left.contains(where: { $0.slot == side })),
           let neighbour = neighbour(of: transition.incoming, offset: offset) {
            pages.append(FrameComposer.Page(neighbour.scene, offset: offset + Double(side) * width, id: id(of: neighbour.index, "neighbour")))
        }
        return FrameComposer.compose(pages: pages, canvas: canvasSize, overlay: overlay)
    }
}

/// A frame drawn on a thread of its own, with a renderer made on that thread.
final class BackgroundFrame: @unchecked Sendable {
    // @unchecked Sendable: `result` is written once by the drawing thread before it signals `done`,
    // and read only after waiting for `done`.
    private var result: (pixels: [UInt32], width: Int, height: Int)?
    private let done = DispatchSemaphore(value: 0)

    init(_ snapshot: Snapshot, width: Int, height: Int, renderer makeRenderer: @escaping @Sendable () -> any SnapshotRendering) {
        let thread = Thread { [self] in
            var pixels = [UInt32](repeating: 0, count: max(1, width * height))
            let drawn: Bool = pixels.withUnsafeMutableBytes { buffer in
                (try? makeRenderer().draw(snapshot, into: buffer.baseAddress!, width: width, height: height, stride: width * 4,
                                          holdsLastFrame: false)) != nil
            }
            if drawn { result = (pixels, width, height) }
            done.signal()
        }
        thread.start()
    }

    /// The drawn pixels (ARGB32 rows of `width`), or nil when drawing failed.
    func wait() -> (pixels: [UInt32], width: Int, height: Int)? {
        done.wait()
        done.signal()
        return result
    }
}
