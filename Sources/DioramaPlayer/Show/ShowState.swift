import DioramaDocument
import DioramaMixer

/// A navigation of the playlist, as the playback (or the shared show) performs it.
public enum Navigation: Sendable, Equatable {
    case next
    case previous
    case restart
    case scene(Int)
}

/// What a decision asks the player to do, in order: the playback, the sound output, the window and the files are
/// the player's to touch.
public enum ShowEffect: Sendable, Equatable {
    /// A line for the `--log` file.
    case log(String, detail: String? = nil)
    /// Moves the playlist (remembering the scene being left, so it slides away as it was) and retitles the window.
    case navigate(Navigation)
    case pause
    case resume
    /// Seconds into `scene`, already clamped to it.
    case seek(scene: Int, seconds: Double)
    /// The sound output's gain is now this (the volume, or 0 when muted).
    case outputVolume(Float)
    /// Saves the user's language choice.
    case saveLanguage(String)
    /// The window's title follows the scene and language.
    case retitle
    case toggleFullscreen
    case reload(reason: String)
    case quit
    /// A controller's command that names what the playlist lacks, to be logged; said once per kind.
    case problem(String)
}

/// The show as the user sees and hears it, apart from the playback's clock: language, volume, mute, the pause a held
/// press started, the toast, the controller's ignored commands. A value: `decide` applies an intent and gives the
/// effects, with no window, sound or file involved.
public struct ShowState: Sendable, Equatable {
    /// A message shown over the picture until a monotonic time.
    public struct Toast: Sendable, Equatable {
        public var message: String
        public var until: Double
    }

    public var language: String
    /// The master volume, within `Mixer.volumeRange` (1 unless changed with + / - or a show controller).
    public var volume: Float = 1
    public var muted = false
    /// The pause that a held press started, to be undone on release.
    public var holdPaused = false
    public var toast: Toast?
    /// Show controllers' commands ignored for naming what the playlist does not have, by kind ("scene", "scene
    /// number", "language"): only the first of each kind is a problem.
    public var ignoredCommands: [String: Int] = [:]

    public init(language: String) {
        self.language = language
    }

    /// What the sound output's gain should be.
    public var outputVolume: Float { muted ? 0 : volume }

    /// The toast's message while it shows at monotonic `time`.
    public func toast(at time: Double) -> String? {
        toast.flatMap { $0.until > time ? $0.message : nil }
    }

    /// Shows `message` for a second and a half from `now`.
    public mutating func show(_ message: String, now: Double) {
        toast = Toast(message: message, until: now + 1.5)
    }

    /// Applies `intent` from `source` to the show of `document` whose playback was last commanded to `playhead`
    /// (the scene navigated to and its pause), at monotonic `now`: updates the state and gives what the player must do.
    /// A controller's intents are logged as commands.
    public mutating func decide(_ intent: ShowIntent, from source: ShowIntent.Source, document: Document,
                                playhead: PlaylistPosition, now: Double) -> [ShowEffect] {
        let command: [ShowEffect] = source == .controller ? [.log("command", detail: String(describing: intent))] : []
        return command + apply(intent, source: source, document: document, playhead: playhead, now: now)
    }

    private mutating func apply(_ intent: ShowIntent, source: ShowIntent.Source, document: Document,
                                playhead: PlaylistPosition, now: Double) -> [ShowEffect] {
        func then(_ intent: ShowIntent) -> [ShowEffect] {
            apply(intent, source: source, document: document, playhead: playhead, now: now)
        }
        let scenes = document.scenes
        switch intent {
        case .go:
            return then(.restart) + (playhead.isPaused ? [.resume] : [])
        case .pause:
            return playhead.isPaused ? [] : then(.togglePause)
        case .resume:
            return playhead.isPaused ? then(.togglePause) : []
        case .scene(let index) where !scenes.indices.contains(index):
            return problem("scene number", "no scene number \(index + 1): the playlist has \(scenes.count)")
        case .sceneID(let id):
            guard let index = scenes.firstIndex(where: { $0.id == id }) else {
                let ids = scenes.prefix(12).map { Self.cutShort($0.id) } + (scenes.count > 12 ? ["…"] : [])
                return problem("scene", "no scene '\(Self.cutShort(id))': the scenes are \(ids.joined(separator: ", "))")
            }
            return then(.scene(index))
        case .language(let code) where !document.languages.available.contains(code):
            return problem("language", "no language '\(Self.cutShort(code))': the playlist offers "
                               + document.languages.available.joined(separator: ", "))
        case .next, .previous, .restart, .scene:
            holdPaused = false
            let navigation: Navigation = switch intent {
            case .next: .next
            case .previous: .previous
            case .scene(let index): .scene(index)
            default: .restart
            }
            return [.log(String(describing: intent)), .navigate(navigation)]
        case .seek(let seconds):
            let scene = playhead.sceneIndex
            return [.seek(scene: scene, seconds: min(max(seconds, 0), document.scenes[scene].duration.doubleValue))]
        case .togglePause:
            holdPaused = false
            return [.log("togglePause"), playhead.isPaused ? .resume : .pause]
        case .holdBegan:
            guard !playhead.isPaused else { return [.log("holdBegan")] }
            holdPaused = true
            return [.log("holdBegan"), .pause]
        case .holdEnded:
            let resumes = holdPaused
            holdPaused = false
            return [.log("holdEnded")] + (resumes ? [.resume] : [])
        case .volume(let level):
            return setVolume(level, document: document, now: now)
        case .volumeUp, .volumeDown:
            let step: Float = intent == .volumeUp ? 0.1 : -0.1
            return [.log(String(describing: intent))] + setVolume(((volume + step) * 10).rounded() / 10, document: document, now: now)
        case .toggleMute:
            muted.toggle()
            let words = self.text(for: document.languages)
            show(muted ? words.muted : words.volumeToast(volume), now: now)
            return [.log("toggleMute"), .outputVolume(outputVolume)]
        case .language(let code):
            language = code
            show(LanguageChoice.displayName(code), now: now)
            return [.retitle]
        case .cycleLanguage:
            language = LanguageChoice.next(after: language, in: document.languages)
            show(LanguageChoice.displayName(language), now: now)
            return [.log("cycleLanguage"), .saveLanguage(language), .retitle]
        case .toggleFullscreen:
            return [.log("toggleFullscreen"), .toggleFullscreen]
        case .reload:
            return source == .controller ? [.reload(reason: "show control")] : [.log("reload"), .reload(reason: "R")]
        case .quit:
            return [.log("quit"), .quit]
        }
    }

    private mutating func setVolume(_ level: Float, document: Document, now: Double) -> [ShowEffect] {
        volume = Mixer.clampedVolume(level)
        muted = false
        show(text(for: document.languages).volumeToast(volume), now: now)
        return [.outputVolume(outputVolume)]
    }

    /// The chrome's words in the language shown, with the playlist's `languages` translations.
    public func text(for languages: Languages) -> ChromeText {
        ChromeText(language: language, playlist: languages.chrome)
    }

    /// Counts a command ignored for naming what the playlist lacks; a problem for the first of its `kind` only, so a
    /// controller repeating a mistake is told once (`ignoredCommands` has the count).
    private mutating func problem(_ kind: String, _ text: String) -> [ShowEffect] {
        ignoredCommands[kind, default: 0] += 1
        return ignoredCommands[kind] == 1 ? [.problem(text)] : []
    }

    /// A name a controller sent, as quoted in a problem: its first 40 characters and "…" when longer.
    static func cutShort(_ name: String) -> String {
        name.count <= 40 ? name : String(name.prefix(40)) + "…"
    }
}
