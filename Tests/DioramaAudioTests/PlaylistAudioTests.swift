import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTimeline
import Foundation
import Testing

/// The whole path from scenes.json to a WAV: schedule, sound bank, plan, mixer, file.
@Suite struct PlaylistAudioTests {
    /// Two scenes (2 min + 1 min) whose cues fire on repeating, autoreversing animations, on a
    /// keyframe-free delay, and at fixed times; every cue plays the click.
    static let json = """
        {
          "canvas": { "width": 320, "height": 240, "background": "#000" },
          "languages": { "default": "en", "fallback": "en", "available": ["en"] },
          "sounds": { "click": { "path": "click.flac", "gain": 0.9 }, "missing": "nowhere/missing.flac" },
          "scenes": [
            { "id": "swing", "title": { "en": "Swing" }, "duration": 120,
              "cues": [{ "sound": "click", "node": "seat", "animation": "sway", "on": "to", "pan": -0.5 },
                       { "sound": "missing", "at": 3 }],
              "nodes": [{ "type": "rect", "id": "seat", "x": 0, "y": 0, "width": 10, "height": 10,
                          "animations": [{ "id": "sway", "property": "rotation", "from": -10, "to": 10, "duration": 1.3,
                                           "delay": 0.35, "repeat": "forever", "autoreverses": true }] }] },
            { "id": "tree", "title": { "en": "Tree" }, "duration": 60.01,
              "cues": [{ "sound": "click", "node": "petal", "animation": "open", "on": "from", "gain": 0.5 },
                       { "sound": "click", "at": 0.123 }],
              "nodes": [{ "type": "rect", "id": "petal", "x": 0, "y": 0, "width": 10, "height": 10,
                          "animations": [{ "id": "open", "property": "scale", "from": 1, "to": 1.5, "duration": 0.77,
                                           "repeat": "forever", "autoreverses": true }] }] }
          ]
        }
        """

    @Test("every click of the rendered playlist lands on the exact sample the schedule lists")
    func onsetsMatchSchedule() throws {
        let folder = try TemporaryFolder()
        let click = try #require(ProjectSounds.make("click"))
        try SoundFileWriter.write(click.samples, channels: 1, sampleRate: 48_000, format: .flac16, to: folder.path("click.flac"))
        let loaded = try DocumentLoader.decode(bytes: Array(Self.json.utf8), path: folder.path("scenes.json"))
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        let clickCues = schedule.cues.filter { $0.firing.sound == "click" }.map(\.sampleIndex)
        #expect(clickCues.count > 80)

        let report = try renderAudio(document: loaded.document, directory: folder.url.path, schedule: schedule,
                                     to: folder.url.appendingPathComponent("mix.wav"))
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.contains("missing") == true)
        #expect(report.result.frames == schedule.scenes.last?.endSample)

        let data = try Data(contentsOf: folder.url.appendingPathComponent("mix.wav"))
        let pcm = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        var onsets: [Int64] = []
        var silent = 100
        for frame in 0..<(pcm.count / 2) {
            if pcm[2 * frame] == 0 && pcm[2 * frame + 1] == 0 {
                silent += 1
                continue
            }
            if silent >= 100 { onsets.append(Int64(frame)) }
            silent = 0
        }
        #expect(onsets == clickCues)
    }

    @Test("sequencer events become mixer commands: beds start and fade per scene, cues at their frame")
    func sequencerEvents() throws {
        let folder = try TemporaryFolder()
        try SoundFileWriter.write([Float](repeating: 0.1, count: 4800), channels: 1, sampleRate: 48_000, format: .flac16,
                                  to: folder.path("bed.flac"))
        let json = """
            { "canvas": { "width": 10, "height": 10, "background": "#000" },
              "languages": { "default": "en", "fallback": "en", "available": ["en"] },
              "sounds": { "bed": { "path": "bed.flac", "gain": 0.5 } },
              "scenes": [{ "id": "a", "title": { "en": "A" }, "duration": 2,
                           "ambience": [{ "sound": "bed", "gain": 0.8, "fadeIn": 0.5, "fadeOut": 0.25 }],
                           "cues": [{ "sound": "bed", "at": 1, "pan": 0.5 }] }] }
            """
        let loaded = try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json"))
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        #expect(audio.warnings.isEmpty)
        let appear = audio.commands(for: .sceneAppeared(scene: 0, frame: 1000))
        guard case .start(let bed)? = appear.first else { Issue.record("no bed start"); return }
        #expect(bed.loops && bed.frame == 1000 && bed.fadeInFrames == 24_000 && abs(bed.gain - 0.4) < 1e-6)
        #expect(audio.commands(for: .sceneDisappeared(scene: 0, frame: 97_000))
                == [.stop(tag: bed.tag, frame: 97_000, fadeFrames: 12_000)])
        let firing = try #require(CueSchedule(document: loaded.document, sampleRate: 48_000).cues.first?.firing)
        guard case .start(let cue)? = audio.commands(for: .cueDue(firing, frame: 48_000)).first else { Issue.record("no cue"); return }
        #expect(cue.frame == 48_000 && !cue.loops && cue.pan == 0.5)
        #expect(audio.commands(for: .revoked(fromFrame: 5)) == [.revoke(fromFrame: 5)])
        // A pause silences everything; resuming brings the scene's bed back with a short ramp.
        #expect(audio.commands(for: .paused(frame: 50_000)) == [.stopAll(frame: 50_000, fadeFrames: 2_400)])
        guard case .start(let resumed)? = audio.commands(for: .resumed(scene: 0, frame: 60_000)).first else {
            Issue.record("no bed after resume"); return
        }
        #expect(resumed.loops && resumed.frame == 60_000 && resumed.fadeInFrames == 2_400 && resumed.tag == bed.tag)
    }
}
