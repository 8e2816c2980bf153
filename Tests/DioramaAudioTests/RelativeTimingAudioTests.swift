import DioramaAudio
import DioramaDocument
import DioramaSynthesis
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// A cue on a keyframe of an animation that starts after another one's end, through the offline mix.
@Suite struct RelativeTimingAudioTests {
    @Test("the click on a relative animation's keyframe starts on the sample the arithmetic gives")
    func relativeKeyframeClickLandsOnItsSample() throws {
        let folder = try TemporaryFolder()
        let click = try #require(ProjectSounds.make("click"))
        try SoundFileWriter.write(click.samples, channels: 1, sampleRate: 48_000, format: .flac16, to: folder.path("click.flac"))
        // "open": 0.7 ... 2.2 s after the marker; "swing" from 2.2 + 0.35 = 2.55 s, keyframe 1 at 2.55 + 0.6 / 3 = 2.75 s.
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "click": "click.flac" },
              "scenes": [{ "id": "yard", "duration": 4, "markers": { "gate": 0.7 },
                "cues": [{ "sound": "click", "node": "arm", "animation": "swing", "on": { "keyframe": 1 } }],
                "nodes": [
                  { "type": "rect", "id": "arm", "width": 1, "height": 1, "fill": "#fff",
                    "animations": [{ "id": "swing", "property": "rotation", "speed": 3, "delay": 0.35,
                      "after": { "node": "gate", "animation": "open", "on": "end" },
                      "keyframes": [{ "time": 0, "value": 0 }, { "time": 0.6, "value": 40 }, { "time": 0.9, "value": 0 }] }] },
                  { "type": "rect", "id": "gate", "width": 1, "height": 1, "fill": "#fff",
                    "animations": [{ "id": "open", "property": "offset.x", "to": 30, "duration": 0.75, "repeat": 2,
                                     "after": { "marker": "gate" } }] }
                ] }] }
            """
        let loaded = try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json"))
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        #expect(schedule.cues.map(\.sampleIndex) == [132_000])

        let wav = folder.url.appendingPathComponent("mix.wav")
        let report = try renderAudio(document: loaded.document, directory: folder.url.path, schedule: schedule, to: wav)
        #expect(report.warnings.isEmpty)
        let pcm = try Data(contentsOf: wav).dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let firstSounding = (0..<(pcm.count / 2)).first { pcm[2 * $0] != 0 || pcm[2 * $0 + 1] != 0 }
        #expect(firstSounding == 132_000)
    }
}
