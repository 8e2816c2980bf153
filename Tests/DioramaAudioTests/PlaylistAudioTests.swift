import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaSynthesis
import DioramaTestSupport
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
        // A pause holds the sound after a 20 ms ramp; resuming continues it (no bed restarts).
        #expect(audio.pauseRampFrames == 960)
        #expect(audio.commands(for: .paused(frame: 50_000)) == [.pause(frame: 50_000, fadeFrames: 960)])
        #expect(audio.commands(for: .resumed(scene: 0, frame: 60_000)) == [.resume(frame: 60_000, fadeFrames: 960)])
        #expect(audio.commands(for: .finished(frame: 70_000))
                == [.stopAll(frame: 70_000, fadeFrames: 2_400), .resume(frame: 70_000, fadeFrames: 960)])
    }

    /// Two scenes of one second, each with a constant bed (A, then B) that loops: levels read off directly.
    static func twoBeds() throws -> (audio: PlaylistAudio, folder: TemporaryFolder) {
        let folder = try TemporaryFolder()
        for (name, level) in [("a", Float(0.1)), ("b", Float(0.2))] {
            try SoundFileWriter.write([Float](repeating: level, count: 4800), channels: 1, sampleRate: 48_000,
                                      format: .flac16, to: folder.path("\(name).flac"))
        }
        let json = """
            { "canvas": { "width": 10, "height": 10, "background": "#000" },
              "languages": { "default": "en", "fallback": "en", "available": ["en"] },
              "sounds": { "a": "a.flac", "b": "b.flac" },
              "scenes": [{ "id": "a", "title": { "en": "A" }, "duration": 1,
                           "ambience": [{ "sound": "a", "fadeIn": 0.1, "fadeOut": 0.25 }] },
                         { "id": "b", "title": { "en": "B" }, "duration": 1,
                           "ambience": [{ "sound": "b", "fadeIn": 0.5, "fadeOut": 0.25 }] }] }
            """
        let loaded = try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json"))
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        #expect(audio.warnings.isEmpty)
        return (audio, folder)
    }

    /// Plays from frame 0 and then `steps` as the player would: before each command the sequencer has looked `lookAhead` frames
    /// past it; every event goes through `commands(for:)` to a mixer, rendered to `frames` (left channel).
    static func play(_ audio: PlaylistAudio, frames: Int, lookAhead: Int64 = 4800,
                     _ steps: [(frame: Int64, command: (inout PlaylistSequencer, Int64) -> [SequencerEvent])]) -> [Float] {
        var sequencer = PlaylistSequencer(document: audio.document, sampleRate: audio.sampleRate)
        var events = sequencer.play(at: 0)
        for step in steps {
            events += sequencer.advance(to: step.frame + lookAhead)
            events += step.command(&sequencer, step.frame)
        }
        events += sequencer.advance(to: Int64(frames))
        let mixer = audio.makeMixer()
        for command in events.flatMap(audio.commands(for:)) { #expect(mixer.send(command)) }
        var output = [Float](repeating: 0, count: 2 * frames)
        output.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: frames, by: 512) {
                mixer.render(into: buffer.baseAddress! + 2 * start, frames: min(512, frames - start))
            }
        }
        return channel(output, 0)
    }

    @Test("navigating while paused: the old bed ends silently, the new one fades in from the resume")
    func navigationWhilePaused() throws {
        let (audio, folder) = try Self.twoBeds()
        defer { withExtendedLifetime(folder) {} }
        let ramp = audio.pauseRampFrames
        let left = Self.play(audio, frames: 100_000, [
            (frame: 20_000, command: { $0.pause(at: $1) }),
            (frame: 30_000, command: { $0.next(at: $1) }),
            (frame: 50_000, command: { $0.resume(at: $1) }),
        ])
        let bedA = left[10_000], bedB = left[90_000]
        #expect(bedA > 0.09 && bedB > 0.19)
        #expect(left[4800..<20_000].allSatisfy { $0 == bedA })
        #expect(left[(20_000 + ramp)..<50_000].allSatisfy { $0 == 0 })
        // From the resume: only B, its 0.5 s fade-in counted from there, under the 20 ms ramp.
        for offset in stride(from: 0, to: 24_000, by: 37) {
            let expected = bedB * Float(offset) / 24_000 * min(Float(offset) / Float(ramp), 1)
            #expect(abs(left[50_000 + offset] - expected) < 1e-5)
        }
        // Until B's scene ends, a second after the resume.
        #expect(left[74_000..<98_000].allSatisfy { $0 == bedB })
    }

    @Test("a pause before a scene change the look-ahead had announced: the old bed continues after the resume")
    func pauseBeforeAnnouncedSceneChange() throws {
        let (audio, folder) = try Self.twoBeds()
        defer { withExtendedLifetime(folder) {} }
        let ramp = audio.pauseRampFrames
        // The look-ahead reaches past the scene change at 48 000 before the pause at 40 000.
        let left = Self.play(audio, frames: 130_000, lookAhead: 12_000, [
            (frame: 40_000, command: { $0.pause(at: $1) }),
            (frame: 60_000, command: { $0.resume(at: $1) }),
        ])
        let bedA = left[10_000], bedB = left[100_000]
        #expect(bedA > 0.09 && bedB > 0.19)
        #expect(left[(40_000 + ramp)..<60_000].allSatisfy { $0 == 0 })
        // The scene now changes at 48 000 + the pause's 20 000 frames.
        #expect(left[(60_000 + ramp)..<68_000].allSatisfy { $0 == bedA })
        #expect(left[68_000] == bedA)
        #expect(left[(68_000 + 24_000)..<116_000].allSatisfy { $0 == bedB })
    }

    /// Plays as the player does: the mixer renders blocks of 512 frames, what is heard lags what is written by
    /// `latency` frames, and before each block the sequencer looks `lookAhead` frames past the written frame. Each
    /// step's command acts at its frame once that frame is heard, so its commands reach a mixer already past it.
    static func playLive(_ audio: PlaylistAudio, frames: Int, end: PlaylistEnd = .wrap, latency: Int = 2048,
                         lookAhead: Int64 = 4800,
                         _ steps: [(frame: Int64, command: (inout PlaylistSequencer, Int64) -> [SequencerEvent])])
        -> (left: [Float], statistics: MixerStatistics) {
        var sequencer = PlaylistSequencer(document: audio.document, sampleRate: audio.sampleRate, end: end)
        let mixer = audio.makeMixer()
        func send(_ events: [SequencerEvent]) {
            for command in events.flatMap(audio.commands(for:)) { #expect(mixer.send(command)) }
        }
        send(sequencer.play(at: 0))
        var output = [Float](repeating: 0, count: 2 * frames)
        var step = 0
        output.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: frames, by: 512) {
                while step < steps.count && steps[step].frame <= Int64(start - latency) {
                    send(steps[step].command(&sequencer, steps[step].frame))
                    step += 1
                }
                send(sequencer.advance(to: Int64(start) + lookAhead))
                mixer.render(into: buffer.baseAddress! + 2 * start, frames: min(512, frames - start))
            }
        }
        return (channel(output, 0), mixer.statistics)
    }

    @Test("300 steps of navigation while paused (holding an arrow key): no start dropped, the scene's bed after the resume")
    func longNavigationWhilePaused() throws {
        let (audio, folder) = try Self.twoBeds()
        defer { withExtendedLifetime(folder) {} }
        // Key repeat at 30 per second for 10 s; an even count of steps comes back to scene A.
        var steps: [(frame: Int64, command: (inout PlaylistSequencer, Int64) -> [SequencerEvent])] = [
            (frame: 20_000, command: { $0.pause(at: $1) }),
        ]
        for index in 0..<300 { steps.append((frame: 30_000 + Int64(index) * 1600, command: { $0.next(at: $1) })) }
        steps.append((frame: 520_000, command: { $0.resume(at: $1) }))
        let (left, statistics) = Self.playLive(audio, frames: 560_000, steps)
        #expect(statistics.startsDropped == 0)
        let bedA = left[10_000]
        #expect(bedA > 0.09)
        // The pause, too, reaches the mixer a latency late.
        #expect(left[24_000..<520_000].allSatisfy { $0 == 0 })
        // Scene A's bed from the resume (which reaches the mixer a latency late), after its 0.1 s fade-in.
        #expect(left[528_000..<560_000].allSatisfy { $0 == bedA })
    }

    @Test("the playlist ends while paused, then play: the first scene's bed is heard")
    func finishedWhilePausedThenPlay() throws {
        let (audio, folder) = try Self.twoBeds()
        defer { withExtendedLifetime(folder) {} }
        let (left, _) = Self.playLive(audio, frames: 120_000, end: .stop, [
            (frame: 20_000, command: { $0.pause(at: $1) }),
            (frame: 30_000, command: { $0.next(at: $1) }),  // scene B, paused
            (frame: 40_000, command: { $0.next(at: $1) }),  // finished
            (frame: 60_000, command: { $0.play(at: $1) }),
        ])
        let bedA = left[10_000]
        #expect(bedA > 0.09)
        // Nothing of the ended voices is heard when the hold ends.
        #expect(left[24_000..<60_000].allSatisfy { $0 == 0 })
        // The start reaches the mixer a latency late and begins at once, then fades in over 0.1 s.
        #expect(left[70_000..<105_000].allSatisfy { $0 == bedA })
    }
}
