import DioramaAudio
import DioramaDocument
import DioramaSynthesis
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// A Lottie drum started by a tap, a tine that twitches on its marker, and cues on both, to the sample: through the
/// schedule, the snapshots, the timeline's text and picture, and the offline mix.
///
/// The drum (30 fps, 60 frames, marker `p1` on frame 15) plays twice from 0.5 s after the lid's tap; the tine's
/// `twitch` starts on `p1`'s first appearance. Tapped at 2 s: the drum starts at 2.5 s, `p1` appears at 3 s and 5 s.
@Suite struct LottieStartAudioTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        let drum = LottieFixtures.json(markers: [("p0", 0, 0), ("p1", 15, 0)])
        try Data(drum.utf8).write(to: folder.url.appendingPathComponent("drum.json"))
        let click = try #require(ProjectSounds.make("click"))
        try SoundFileWriter.write(click.samples, channels: 1, sampleRate: 48_000, format: .flac16, to: folder.path("click.flac"))
    }

    /// `auto`: the lid's `auto` tap, if any; `cues` and `ambience`: the scene's.
    func document(auto: String?, cues: String, ambience: String = "") throws -> Document {
        let tap = auto.map { #"{ "auto": \#($0) }"# } ?? "{}"
        let json = """
            { "canvas": { "width": 100, "height": 100 }, "sounds": { "click": "click.flac" },
              "scenes": [{ "id": "box", "duration": 8,
                "cues": [\(cues)], "ambience": [\(ambience)],
                "nodes": [
                  { "type": "rect", "id": "lid", "width": 10, "height": 10, "fill": "#fff", "tap": \(tap) },
                  { "type": "lottie", "id": "drum", "path": "drum.json", "repeat": 2, "delay": 0.5, "after": { "tap": "lid" } },
                  { "type": "rect", "id": "tine", "width": 4, "height": 40, "fill": "#fff",
                    "animations": [{ "id": "twitch", "property": "rotation", "from": 8, "to": 0, "duration": 0.25,
                                     "after": { "node": "drum", "on": { "marker": "p1" } } }] }
                ] }] }
            """
        return try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json")).document
    }

    @Test("a lottie node started by a tap starts exactly at the tap's sample")
    func aLottieStartedByATapStartsOnTheTapsSample() throws {
        // No delay this time: the drum's first frame appears at the tap itself, given at 1.000001 s.
        var document = try document(auto: nil, cues: """
            { "sound": "click", "tap": "lid" }, { "sound": "click", "node": "drum", "on": { "frame": 0 }, "gain": 0.5 }
            """)
        guard case .lottie(var drum) = document.scenes[0].nodes[1].content else { Issue.record("no lottie"); return }
        drum.playback.delay = .zero
        document.scenes[0].nodes[1].content = .lottie(drum)
        #expect(CueSchedule(document: document, sampleRate: 48_000).cues.isEmpty)
        let tap = Rational(1_000_001, 1_000_000)
        // What the player draws: the first frame while nobody taps, then the frames from the tap on.
        func frame(_ evaluator: SceneEvaluator, at time: Rational) -> Int? {
            guard case .lottie(let shown) = evaluator.snapshot(scene: 0, at: time.doubleValue).nodes[1].content else { return nil }
            return shown.frame
        }
        let untapped = SceneEvaluator(document: document)
        #expect(frame(untapped, at: Rational(5)) == 0)
        let tapped = untapped.tapping(scene: 0, taps: ["lid": tap])
        #expect(frame(tapped, at: tap + Rational(1, 30)) == 1)
        #expect(frame(tapped, at: tap + Rational(59, 30)) == 59)

        document.scenes[0].taps = ["lid": tap]
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        // The tap's cue, then frame 0 on each of the drum's two passes (2 s each).
        #expect(schedule.cues.map(\.sampleIndex) == [48_001, 48_001, 144_001])
        #expect(schedule.cues.map(\.absoluteTime) == [tap, tap, tap + Rational(2)])
        // The first frame holds until the tap, and frame 1 appears exactly 1/30 s after it.
        guard case .lottie(let playing) = document.scenes[0].resolvingStarts().nodes[1].content else { return }
        let timing = LottieTiming(playing)
        #expect(timing.start == tap)
        #expect(timing.frame(at: tap + Rational(1, 30) - Rational(1, 1_000_000_000)) == 0)
        #expect(timing.frame(at: tap + Rational(1, 30)) == 1)
    }

    @Test("an animation after a Lottie marker starts on the frame the marker names")
    func anAnimationAfterAMarkerStartsOnItsFrame() throws {
        let document = try document(auto: "2", cues: #"{ "sound": "click", "node": "tine", "animation": "twitch", "on": "iteration" }"#)
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        #expect(schedule.cues.map(\.sampleIndex) == [144_000])
        let evaluator = SceneEvaluator(document: document)
        func state(at time: Double) -> (frame: Int?, rotation: Double) {
            let nodes = evaluator.snapshot(scene: 0, at: time).nodes
            var frame: Int?
            if case .lottie(let shown) = nodes[1].content { frame = shown.frame }
            let transform = nodes[2].transform
            return (frame, atan2(transform.b, transform.a) * 180 / .pi)
        }
        #expect(state(at: 2.99).frame == 14 && abs(state(at: 2.99).rotation - 8) < 1e-9)
        #expect(state(at: 3).frame == 15 && abs(state(at: 3).rotation - 8) < 1e-9)
        let moving = state(at: 3.125).rotation
        #expect(moving < 7.9 && moving > 0.1)
    }

    @Test("a cue on a Lottie marker fires on the marker's exact sample in the offline mix, on each pass")
    func aCueOnTheMarkerOfATappedLottieLandsOnItsSample() throws {
        let document = try document(auto: "2", cues: #"{ "sound": "click", "node": "drum", "on": { "marker": "p1" } }"#)
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        #expect(schedule.cues.map(\.sampleIndex) == [144_000, 240_000])

        let wav = folder.url.appendingPathComponent("mix.wav")
        let report = try renderAudio(document: document, directory: folder.url.path, schedule: schedule, to: wav)
        #expect(report.warnings.isEmpty)
        let pcm = try Data(contentsOf: wav).dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let firstSounding = (0..<(pcm.count / 2)).first { pcm[2 * $0] != 0 || pcm[2 * $0 + 1] != 0 }
        #expect(firstSounding == 144_000)
        #expect(pcm[2 * 143_999] == 0 && pcm[2 * 143_999 + 1] == 0)
    }

    @Test("a stop cue and an ambience's start on a tapped Lottie's marker and frame land on their samples")
    func stopsAndAmbienceStartsFollowTheLottiesStart() throws {
        let document = try document(auto: "2", cues: """
            { "sound": "click", "id": "hum", "loop": true, "tap": "lid" },
            { "stop": "hum", "node": "drum", "on": { "frame": 45 } }
            """, ambience: #"{ "sound": "click", "start": { "node": "drum", "on": { "marker": "p1" } } }"#)
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        // Frame 45 appears at 2.5 + 45/30 = 4 s and, on the second pass, at 6 s (a stop acts on each, as a cue fires);
        // an ambience starts once, on p1's first appearance (frame 15) at 3 s.
        #expect(schedule.stops.map(\.sampleIndex) == [192_000, 288_000])
        #expect(schedule.ambienceStarts.map(\.sampleIndex) == [144_000])
    }

    @Test("the timeline lists the Lottie's resolved start and the picture draws its passes from it")
    func theTimelineShowsTheNewStarts() throws {
        let document = try document(auto: "2", cues: "")
        let report = TimelineReport(document: document, sampleRate: 48_000)
        let text = report.text(file: "box.json")
        #expect(text.contains("drum (lottie)"))
        #expect(text.contains("tap lid +0.5 s"))
        #expect(text.contains("drum marker p1"))
        #expect(report.json().contains(#""after": {"kind": "lottie", "node": "drum", "marker": "p1"}"#))
        let chart = TimelineChart(document: document, schedule: CueSchedule(document: document, sampleRate: 48_000))
        let row = try #require(chart.lanes[0].rows.first { $0.label == "drum (lottie)" })
        #expect(row.bars.map(\.start) == [2.5, 4.5])
        #expect(row.keyframes == [2.5, 3, 4.5, 5])
        let twitch = try #require(chart.lanes[0].rows.first { $0.label == "tine.twitch" })
        #expect(twitch.bars.first?.start == 3)
    }
}
