import DioramaAudio
import DioramaDocument
import DioramaSynthesis
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// A cue that repeats (`every`, `count`), through the offline mix: each repetition starts on its own sample.
@Suite struct RepeatingCueAudioTests {
    @Test("every repetition of a cue starts on the sample its exact time gives")
    func repetitionsLandOnTheirSamples() throws {
        let folder = try TemporaryFolder()
        let click = try #require(ProjectSounds.make("click"))
        try SoundFileWriter.write(click.samples, channels: 1, sampleRate: 48_000, format: .flac16, to: folder.path("click.flac"))
        // 0.1 + n × 0.123457 s: 5925.936 samples apart, so most repetitions fall between samples and round up.
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "click": "click.flac" },
              "scenes": [{ "id": "clock", "duration": 2,
                "cues": [{ "sound": "click", "at": 0.1, "every": 0.123457, "count": 5 }],
                "nodes": [{ "type": "rect", "width": 1, "height": 1, "fill": "#fff" }] }] }
            """
        let loaded = try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json"))
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        let expected: [Int64] = (0..<5).map { n in
            ((Rational(1, 10) + Rational(123_457, 1_000_000) * Rational(n)) * Rational(48_000)).ceiling
        }.map { Int64($0) }
        #expect(expected == [4_800, 10_726, 16_652, 22_578, 28_504])
        #expect(schedule.cues.map(\.sampleIndex) == expected)
        #expect(schedule.cues.map(\.firing.repetition) == [0, 1, 2, 3, 4])

        let wav = folder.url.appendingPathComponent("mix.wav")
        let report = try renderAudio(document: loaded.document, directory: folder.url.path, schedule: schedule, to: wav)
        #expect(report.warnings.isEmpty)
        let pcm = try Data(contentsOf: wav).dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        func sounds(_ frame: Int) -> Bool { pcm[2 * frame] != 0 || pcm[2 * frame + 1] != 0 }
        // The click is shorter than the gap: each repetition starts in silence, on its sample exactly.
        for sample in expected.map(Int.init) {
            #expect(!sounds(sample - 1), "sample \(sample - 1) sounds before a repetition")
            #expect(sounds(sample), "nothing starts on sample \(sample)")
        }
        #expect(!(0..<4_800).contains { sounds($0) }, "something sounds before the first firing")
    }
}
