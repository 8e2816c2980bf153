import ArgumentParser
import DioramaAudio
import DioramaDocument
import DioramaFiles
import DioramaMixer
import DioramaTimeline
import Foundation

struct Timeline: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Print the playlist's schedule: each scene's start and duration, and every cue firing with its exact sample.",
        discussion: """
            Lists the scenes in play order with their start time, duration and first sample, then every \
            cue firing of one pass through the playlist in order: absolute time, scene, scene time, \
            sample index (the first sample at or after the time, computed exactly), sound and what \
            triggered it (`at 5.5`, `marker NAME`, `tap NODE at T`, or `node.animation to|from|iteration|end|keyframe N #iteration`, \
            plus the cue's offset), then whether it loops, where it ends early and whether it ducks the ambience. \
            When the playlist has them, tables of stops (`until`s and stop cues), of ambience starting on a \
            moment, of markers and of the resolved starts of animations that start after another's event or \
            a marker follow. Times are exact rationals written as decimals (at most 9 places).

            Taps: nodes with "auto" tap themselves at their time; --tap NODE@SECONDS taps one earlier, as a \
            click in the player would (SECONDS is scene time; SCENE/NODE@SECONDS when the id is in several \
            scenes). What waits for a tap that does not happen is not listed.

            --json prints one object { "sampleRate", "scenes": [...], "cues": [...], "markers": [...], \
            "relativeStarts": [...] }: the stable contract described in docs/TIMELINE.md.

            --picture FILE.png (or .svg) draws the schedule instead: a lane per scene along playlist time, each \
            named animation's iterations as bars with its keyframes as ticks, each Lottie node's passes with its \
            markers as ticks, the taps, the cue firings as marks labelled with their sound, and the offline mix's \
            waveform underneath on the same axis. --scene (times are then \
            scene seconds) and --from/--to zoom in; an existing file is replaced only with --force.

            Example:
              $ diorama timeline scenes.json
              $ diorama timeline scenes.json --json --rate 44100 > schedule.json
              $ diorama timeline scenes.json --picture timeline.png
              $ diorama timeline --picture ocean.svg --scene ocean --from 2 --to 8

            Loudness: each scene's own sound (its ambience and cues, mixed offline at 48 kHz from its first sample to \
            its last) is measured as EBU R128 does (libebur128): integrated loudness in LUFS and true peak in dBTP. \
            With a "loudness" target in the file, the table shows each scene's mix, the gain the player gives it and \
            what it plays at (measured again with the gain), and notes a scene that falls short of the target.
            """
    )

    @OptionGroup var span: SpanOptions

    @Flag(help: "Print the schedule as JSON (see docs/TIMELINE.md).")
    var json = false

    @Option(help: "Samples per second for the sample indexes.")
    var rate: Int = AudioFormat.sampleRate

    @Option(help: ArgumentHelp("Draw the schedule as a picture instead (.png or .svg); --scene, --from and --to zoom it in.", valueName: "FILE"))
    var picture: String?

    @Option(help: "With --picture: its width in pixels (640 to 8000).")
    var width: Int = 1600

    @Flag(help: "With --picture: replace a file that exists.")
    var force = false

    func validate() throws {
        guard (1...768_000).contains(rate) else {
            throw ValidationError("--rate must be between 1 and 768000 samples per second, not \(rate)")
        }
        if picture == nil, span.scene != nil || span.from != nil || span.to != nil || force {
            throw ValidationError("--scene, --from, --to and --force go with --picture FILE")
        }
        if picture != nil, json { throw ValidationError("--picture draws the schedule; --json prints it: give one") }
        guard (640...8000).contains(width) else { throw ValidationError("--width must be 640 to 8000 pixels, not \(width)") }
    }

    func run() async throws {
        if let picture {
            try drawPicture(picture)
            return
        }
        let loaded = try loadDocumentOrExit(span.file)
        let document: Document
        do {
            document = try TapOption.apply(span.taps, to: loaded.document)
        } catch {
            StandardStreams.writeError(error.description + "\n")
            throw ExitCode(2)
        }
        var report = TimelineReport(document: document, sampleRate: rate, language: span.language)
        report.loudness = Self.loudness(of: document, directory: loaded.baseDirectory)
        do {
            try StandardStreams.writeOutput(json ? report.json() : report.text(file: span.file))
        } catch {
            StandardStreams.writeError("error: cannot write the timeline to standard output: \(error)\n")
            throw ExitCode(1)
        }
    }
}

extension Timeline {
    /// Each scene's loudness, measured on its own offline mix at the engine's rate (`--rate` only numbers the samples):
    /// as played, and with a target also without its gain. Sounds that do not load are silent here, as in the player.
    static func loudness(of document: Document, directory: String) -> SceneLoudnessReport {
        let audio = PlaylistAudio(document: document, directory: directory)
        let played = audio.sceneLoudness()
        // The gains need a scene's true peak only where it could limit them: measure each mix's here.
        let mixed = audio.sceneGains.isEmpty ? played : PlaylistAudio(document: document, bank: audio.bank, sceneGains: []).sceneLoudness()
        return SceneLoudnessReport(target: document.loudness, scenes: played.indices.map { index in
            let figure = played[index]
            guard audio.sceneGains.indices.contains(index) else {
                return SceneLoudnessReport.Scene(integrated: figure.integrated, truePeak: figure.truePeak)
            }
            let gain = audio.sceneGains[index]
            return SceneLoudnessReport.Scene(integrated: figure.integrated, truePeak: figure.truePeak, gain: gain.decibels,
                                             mixedIntegrated: mixed[index].integrated, mixedTruePeak: mixed[index].truePeak,
                                             limit: gain.limit.map { "\($0)" })
        })
    }
}
