import ArgumentParser
import DioramaDocument
import DioramaPlayer
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
            pause; drag sideways to page. Keys: Space pause, Right/Left next/previous, Home restart, \
            1-9 jump, L language (saved in $XDG_CONFIG_HOME/diorama/settings.json), M mute, +/- volume, \
            F fullscreen, R reload, H hide the overlay, ? help, Q or Esc quit.

            Without a display it prints one line and exits 2; use `diorama render` to make frames headless.

            Examples:
              diorama play
              diorama play my-scenes.json --lang ja --once
              diorama play --size 1280x720 --no-vsync --frames 600 --log play.jsonl
            """
    )

    @Argument(help: "The scenes file to play.")
    var file: String = "scenes.json"

    @Option(help: ArgumentHelp("Window size in pixels (default: the canvas size).", valueName: "WxH"))
    var size: String?

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

    func validate() throws {
        if let size, Self.parseSize(size) == nil {
            throw ValidationError("--size must be WIDTHxHEIGHT in pixels, each 1...16384, e.g. 1280x720 (got '\(size)')")
        }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if let frames, frames <= 0 { throw ValidationError("--frames must be a positive count") }
        if !(16...16384).contains(audioPeriod) { throw ValidationError("--audio-period must be 16...16384 frames") }
    }

    static func parseSize(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...16384).contains(width), (1...16384).contains(height) else { return nil }
        return Size(width: Double(width), height: Double(height))
    }

    func run() throws {
        var options = PlayerOptions(scenesPath: file)
        options.windowSize = size.flatMap(Self.parseSize)
        options.vsync = !noVsync
        options.wraps = !once
        options.showsOverlay = !noUI
        options.fullscreen = fullscreen
        options.renderer = renderer
        options.languageOverride = lang
        options.maximumDuration = duration
        options.maximumFrames = frames
        options.logPath = log

        var liveOutput: LiveSoundOutput?
        let dependencies = PlayerDependencies.production(audioDevice: noAudio ? nil : audioDevice, periodFrames: audioPeriod) {
            liveOutput = $0
            // Lines about the device (lost, back) while playing, as they happen.
            $0.report = { printError($0) }
        }
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
        let end: PlayerEnd
        do {
            end = try player.run()
        } catch {
            printError("diorama play: \(error)")
            liveOutput?.live.stop()
            throw ExitCode(1)
        }
        liveOutput?.live.stop()
        if let statistics = liveOutput?.live.statistics, statistics.underruns + statistics.suspends + statistics.interruptions + statistics.losses > 0 {
            printError("audio: \(statistics.underruns) underruns, \(statistics.suspends) suspends, \(statistics.interruptions) interruptions recovered"
                       + (statistics.losses > 0 ? "; the device was lost \(statistics.losses) time(s) (last errno \(statistics.lossError)) and came back \(statistics.reopenings) time(s)" : ""))
        }
        _ = end
    }
}

extension WindowRenderer: ExpressibleByArgument {}

private func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
