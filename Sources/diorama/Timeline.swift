import ArgumentParser
import DioramaDocument
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

            Example:
              $ diorama timeline scenes.json
              $ diorama timeline scenes.json --json --rate 44100 > schedule.json
            """
    )

    @Argument(help: "The scenes file.")
    var file: String = "scenes.json"

    @Flag(help: "Print the schedule as JSON (see docs/TIMELINE.md).")
    var json = false

    @Option(help: "Samples per second for the sample indexes.")
    var rate: Int = 48_000

    @Option(help: "Language of the scene titles (default: the file's default language).")
    var lang: String?

    @Option(name: .customLong("tap"), help: ArgumentHelp(TapOption.help, valueName: "NODE@SECONDS"))
    var taps: [String] = []

    func validate() throws {
        guard (1...768_000).contains(rate) else {
            throw ValidationError("--rate must be between 1 and 768000 samples per second, not \(rate)")
        }
    }

    func run() async throws {
        let loaded = try loadDocumentOrExit(file)
        let document: Document
        do {
            document = try TapOption.apply(taps, to: loaded.document)
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(2)
        }
        let report = TimelineReport(document: document, sampleRate: rate, language: lang)
        print(json ? report.json() : report.text(file: file), terminator: "")
    }
}
