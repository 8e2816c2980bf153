import ArgumentParser
import DioramaAudio
import DioramaDocument
import DioramaFiles
import DioramaLink
import DioramaPlayer
import DioramaShowControl
import Foundation

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play the playlist in a window with sound, as a story viewer; reloads the file when you save it.",
        discussion: """
            The picture follows the audio clock: each frame shows the scene at the moment being heard. \
            Edits to the scenes file (and its sounds) appear within a fraction of a second; a file with \
            errors keeps the last good version playing and shows the errors in a banner.

            Click the right half for the next scene, the left half for the previous one; press and hold to \
            pause; drag sideways to page. Every scene change slides (--transition crossfade or none). \
            Keys: Space pause, Right/Left next/previous, Home restart, \
            1-9 jump, L language (saved in $XDG_CONFIG_HOME/diorama/settings.json), M mute, +/- volume, \
            F fullscreen, R reload, H hide the overlay, ? help, Q or Esc quit.

            Without a display it prints one line and exits 2; use `diorama render` to make frames headless.

            Several screens: with --link, players on the local network share one show clock over Ableton Link \
            (60 bpm, one beat a second; the playlist's length is the quantum): the same scene and moment on every \
            screen, cues together; a player that starts late or restarts joins at the running time, and next, \
            previous, jumps and pauses on any player move them all. --scene-offset and --only give a screen its \
            own part of the show.

            Show control: --osc PORT takes /diorama/go, /next, /previous, /pause, /resume, /scene, /seek, /volume, \
            /language and /reload over OSC; it listens on 127.0.0.1 only unless --osc-bind says otherwise.

            Examples:
              diorama play
              diorama play my-scenes.json --lang ja --once
              diorama play --size 1280x720 --no-vsync --frames 600 --log play.jsonl
              diorama play --link --scene-offset 1 --fullscreen
              diorama play --osc 9000 --osc-feedback 192.168.1.20:9001
            """
    )

    @Argument(help: "The scenes file to play.")
    var file: String = "scenes.json"

    @Option(help: ArgumentHelp("Window size in pixels (default: the canvas size).", valueName: "WxH"))
    var size: FrameSize?

    @Flag(help: "Present frames as fast as possible instead of at the display's refresh (for measuring).")
    var noVsync = false

    @Flag(help: "Stop after the last scene instead of starting again.")
    var once = false

    @Flag(help: "Hide the progress bars, title and page dots (H toggles them).")
    var noUI = false

    @Flag(help: "Start fullscreen (F toggles).")
    var fullscreen = false

    @Option(help: ArgumentHelp("How frames reach the screen: auto (the GPU when there is one), gpu or software.",
                               valueName: "auto|gpu|software"))
    var renderer: WindowRenderer = .auto

    @Option(help: ArgumentHelp("Language for this run only (the saved choice is kept).", valueName: "CODE"))
    var lang: String?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "S"))
    var duration: Double?

    @Option(help: ArgumentHelp("Stop after this many presented frames.", valueName: "N"))
    var frames: Int?

    @Option(help: ArgumentHelp("Record every presented frame and cue start as JSON lines.", valueName: "FILE.jsonl"))
    var log: String?

    @Option(help: ArgumentHelp("ALSA device to play on.", valueName: "NAME"))
    var audioDevice: String = "default"

    @Option(help: ArgumentHelp("Frames per ALSA period (latency is three periods).", valueName: "FRAMES"))
    var audioPeriod: Int = 256

    @Flag(help: "Play without sound, on the monotonic clock.")
    var noAudio = false

    @Option(help: ArgumentHelp("How the picture changes scene: slide (as a drag pages), crossfade, or none (a cut). The beds fade over the change; cues keep their samples.",
                               valueName: "slide|crossfade|none"))
    var transition: TransitionStyle = .slide

    @Option(help: ArgumentHelp("Threads drawing each frame, for large screens (4K) on several cores; 0 for every core. The pictures are the same.", valueName: "N"))
    var renderThreads: Int = 1

    @Flag(help: ArgumentHelp("Do not prepare the next scene ahead (its first frame then pays for its art, as a benchmark's reference).", visibility: .hidden))
    var noPreroll = false

    @Flag(help: "Play in step with the other players on the local network (Ableton Link): same scene, same moment, cues together; navigation on any player moves them all.")
    var link = false

    @Option(help: ArgumentHelp("With --link: show the show this many scenes ahead (a triptych: 0, 1 and 2).", valueName: "N"))
    var sceneOffset: Int = 0

    @Option(help: ArgumentHelp("Play only this scene, looping (with --link, on the show's clock).", valueName: "ID"))
    var only: String?

    @Option(help: ArgumentHelp(ShowControlHelp.osc, valueName: "PORT"))
    var osc: Int?

    @Option(help: ArgumentHelp(ShowControlHelp.oscBind, valueName: "ADDRESS"))
    var oscBind: String = OSCControl.defaultBindAddress

    @Option(help: ArgumentHelp(ShowControlHelp.oscFeedback, valueName: "HOST:PORT"))
    var oscFeedback: String?

    func validate() throws {
        if let size, (try? size.value()) == nil {
            throw ValidationError("--size must be WIDTHxHEIGHT in pixels, each 1...16384, e.g. 1280x720 (got '\(size.text)')")
        }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if let frames, frames <= 0 { throw ValidationError("--frames must be a positive count") }
        if !(16...16384).contains(audioPeriod) { throw ValidationError("--audio-period must be 16...16384 frames") }
        if !(0...64).contains(renderThreads) { throw ValidationError("--render-threads must be 0 (every core) ... 64") }
        if link && once { throw ValidationError("--once cannot be used with --link: a shared show starts over after its last scene") }
        if sceneOffset != 0 && !link { throw ValidationError("--scene-offset needs --link: it places this screen on a shared show") }
        if sceneOffset != 0 && only != nil { throw ValidationError("--scene-offset and --only cannot be used together: --only already picks the scene") }
        if let osc, !(0...65535).contains(osc) { throw ValidationError("--osc must be a UDP port, 0...65535 (got \(osc))") }
        if oscBind != OSCControl.defaultBindAddress && osc == nil { throw ValidationError("--osc-bind needs --osc PORT") }
    }

    func run() throws {
        var options = PlayerOptions(scenesPath: file)
        options.windowSize = try size?.windowSize()
        options.vsync = !noVsync
        options.wraps = !once
        options.showsOverlay = !noUI
        options.fullscreen = fullscreen
        options.renderer = renderer
        options.languageOverride = lang
        options.maximumDuration = duration
        options.maximumFrames = frames
        options.logPath = log
        options.onlyScene = only
        options.sceneOffset = sceneOffset
        options.transition = transition

        var liveOutput: LiveSoundOutput?
        let production = PlayerDependencies.production(
            audioDevice: noAudio ? nil : audioDevice, periodFrames: audioPeriod,
            renderThreads: renderThreads == 0 ? ProcessInfo.processInfo.activeProcessorCount : renderThreads,
            preparesScenes: !noPreroll) {
            liveOutput = $0
            // Lines about the device (lost, back) while playing, as they happen.
            $0.report = { printError($0) }
        }
        // Show control and the shared clock open before the window, so a port in use is said at once.
        var control: OSCControl?
        var feedback: OSCFeedback?
        do {
            if let osc { control = try OSCControl(port: osc, bindAddress: oscBind) }
            if let oscFeedback { feedback = try OSCFeedback(oscFeedback) }
        } catch {
            printError("diorama play: \(error)")
            throw ExitCode(2)
        }
        if let control { printError("osc: listening on \(control.url)") }
        var linkClock: LinkShowClock?
        let linkStarted = monotonicSeconds()
        if link {
            do {
                let session = try LinkSession(tempo: 60)
                session.isStartStopSyncEnabled = true
                session.isEnabled = true
                linkClock = LinkShowClock(session: session)
            } catch {
                printError("diorama play: --link: \(error)")
                throw ExitCode(2)
            }
        }
        var dependencies = production
        dependencies.sharedClock = linkClock

        if let lang {
            // Check --lang against the file before opening anything.
            if case .success(let playlist) = PlaylistFiles.load(path: file),
               !playlist.document.languages.available.contains(lang) {
                let offered = playlist.document.languages.available.joined(separator: ", ")
                printError("diorama play: --lang \(lang): \(file) offers \(offered)")
                throw ExitCode(2)
            }
        }
        let player: Player
        do {
            player = try Player(options: options, dependencies: dependencies)
        } catch {
            switch error {
            case .load(let failure): printError(failure.lines.joined(separator: "\n"))
            default: printError("diorama play: \(error)")
            }
            liveOutput?.live.stop()
            throw ExitCode(2)
        }
        for note in player.notes { printError(note) }
        if let linkClock { Self.join(linkClock, player: player, since: linkStarted) }
        if control != nil || feedback != nil || linkClock != nil {
            var peers = linkClock?.peerCount ?? 0
            player.beforeFrame = { player, now in
                if let control {
                    for command in control.poll() {
                        if let problem = player.perform(Self.intent(command), from: .controller, now: now) { printError("osc: \(problem)") }
                    }
                    for warning in control.takeWarnings() { printError(warning) }
                }
                if let feedback {
                    feedback.update(Self.status(of: player), now: now)
                    for warning in feedback.takeWarnings() { printError(warning) }
                }
                linkClock?.maintain()
                if let linkClock, linkClock.peerCount != peers {
                    peers = linkClock.peerCount
                    printError("link: \(peers) other player\(peers == 1 ? "" : "s") in the show")
                }
            }
        }
        let end: PlayerEnd
        do {
            end = try player.run()
        } catch {
            printError("diorama play: \(error)")
            liveOutput?.live.stop()
            throw ExitCode(1)
        }
        liveOutput?.live.stop()
        for (kind, count) in player.ignoredCommands.sorted(by: { $0.key < $1.key }) where count > 1 {
            printError("osc: \(count) commands named a \(kind) this playlist does not have; the first is shown above")
        }
        // The log was asked for: a log cut short by a full disk is a failure, said once at the end.
        if let failure = player.logFailure {
            printError("diorama play: \(failure)")
            throw ExitCode(1)
        }
        if let statistics = liveOutput?.live.statistics, statistics.underruns + statistics.suspends + statistics.interruptions + statistics.losses > 0 {
            printError("audio: \(statistics.underruns) underruns, \(statistics.suspends) suspends, \(statistics.interruptions) interruptions recovered"
                       + (statistics.losses > 0 ? "; the device was lost \(statistics.losses) time(s) (last errno \(statistics.lossError)) and came back \(statistics.reopenings) time(s)" : ""))
        }
        _ = end
    }
}

extension Play {
    /// Waits up to a second from enabling Link for the players already on the network (Link finds peers within a
    /// few hundred milliseconds), reading the audio clock against Link's every 2 ms meanwhile (at least a quarter of
    /// a second of readings, so the first cues are placed as exactly as later ones). The player holds silent at the
    /// playlist's start meanwhile: alone, it starts the show from there, and those that join follow; otherwise it
    /// joins at its first frame.
    static func join(_ clock: LinkShowClock, player: Player, since start: Double) {
        let calibrated = monotonicSeconds() + 0.25
        while (clock.peerCount == 0 || monotonicSeconds() < calibrated) && monotonicSeconds() - start < 1 {
            player.observeSharedClock()
            usleep(2_000)
        }
        let peers = clock.peerCount
        if peers == 0 {
            player.startSharedShow()
            clock.startedShow()
            printError("link: no other players on the network; this one starts the show (players that join follow it)")
        } else {
            let show = clock.show(at: clock.now())
            let seconds = (show.seconds * 100).rounded() / 100
            printError("link: joined a show of \(peers + 1) players at \(seconds) s\(show.isPlaying ? "" : ", paused")")
        }
    }

    /// A show controller's command as the player's intent: the one place OSC's vocabulary meets the keys'.
    static func intent(_ command: ShowCommand) -> ShowIntent {
        switch command {
        case .go: .go
        case .next: .next
        case .previous: .previous
        case .pause: .pause
        case .resume: .resume
        case .scene(.number(let number)): .scene(number - 1)
        case .scene(.id(let id)): .sceneID(id)
        case .seek(let seconds): .seek(seconds)
        case .volume(let level): .volume(level)
        case .language(let code): .language(code)
        case .reload: .reload
        }
    }

    /// What `--osc-feedback` reports: the scene being heard and its time.
    static func status(of player: Player) -> ShowStatus {
        let position = player.position
        let scene = player.document.scenes[min(position.sceneIndex, player.document.scenes.count - 1)]
        return ShowStatus(sceneNumber: position.sceneIndex + 1, sceneID: scene.id, sceneTime: position.sceneTime(sampleRate: player.sampleRate),
                          sceneDuration: scene.duration.doubleValue, paused: position.isPaused, volume: player.volume, language: player.language)
    }
}

extension WindowRenderer: ExpressibleByArgument {}
extension TransitionStyle: ExpressibleByArgument {}

private func printError(_ text: String) {
    StandardStreams.writeError(text + "\n")
}
