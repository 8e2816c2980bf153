import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Loops, stops, ambience started on events and ducking, mixed offline (the `render --audio` path) and live (the
/// sequencer's events through `PlaylistAudio.commands(for:)`), sample by sample.
@Suite struct LastingSoundAudioTests {
    static let rate = 48_000

    /// Sounds written as 16-bit FLAC: "ramp" (4801 distinct levels, so any offset in a loop shows), "bed" (a
    /// constant 0.2), "hush" (half a second of silence: a cue that only ducks), "tone" (a constant 0.4, 3 s).
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let sounds: [(String, [Float])] = [
            ("ramp", ramp(frames: 4801).map { $0 * 0.5 }), ("bed", [Float](repeating: 0.2, count: 4800)),
            ("hush", [Float](repeating: 0, count: 24_000)), ("tone", [Float](repeating: 0.4, count: 144_000)),
        ]
        for (name, samples) in sounds {
            try SoundFileWriter.write(samples, channels: 1, sampleRate: rate, format: .flac16, to: folder.path("\(name).flac"))
        }
        return folder
    }

    static func document(_ scenes: String, in folder: TemporaryFolder) throws -> PlaylistAudio {
        let json = """
            { "canvas": { "width": 10, "height": 10, "background": "#000" },
              "sounds": { "ramp": "ramp.flac", "bed": "bed.flac", "hush": "hush.flac", "tone": "tone.flac" },
              "scenes": \(scenes) }
            """
        let loaded = try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json"))
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path, sampleRate: rate)
        #expect(audio.warnings.isEmpty)
        return audio
    }

    /// The offline mix (left channel) of the whole playlist.
    static func offline(_ audio: PlaylistAudio, blockFrames: Int = OfflineAudio.blockFrames) -> [Float] {
        let schedule = CueSchedule(document: audio.document, sampleRate: rate)
        return channel(OfflineAudio.mix(commands: audio.commands(playingOnce: schedule), sounds: audio.bank.sounds,
                                        span: 0..<PlaylistAudio.endFrame(of: schedule), blockFrames: blockFrames), 0)
    }

    /// The loaded (16-bit) samples of sound `name`, left channel.
    static func samples(_ audio: PlaylistAudio, _ name: String) throws -> [Float] {
        let index = try #require(audio.bank.index(of: name))
        return channel(audio.bank.sounds[index].interleavedSamples, 0)
    }

    @Test("a loop starts on the first sample at or after its time and ends (its fade begins) on its until's sample")
    func loopStartsAndEndsOnItsSamples() throws {
        let folder = try Self.folder()
        // 1.00001 s is sample 48 000.48: the loop starts on 48 001; until 2.5 s is sample 120 000.
        let audio = try Self.document("""
            [{ "id": "a", "duration": 4,
               "cues": [{ "sound": "ramp", "at": 1.00001, "loop": true, "until": 2.5 }] }]
            """, in: folder)
        let left = Self.offline(audio)
        let ramp = try Self.samples(audio, "ramp")
        #expect(left[..<48_001].allSatisfy { $0 == 0 })
        // Seamless repetitions of the sound from its first sample, over 15 loops of 4801 frames.
        for frame in 48_001..<120_001 { #expect(left[frame] == ramp[(frame - 48_001) % 4801], "frame \(frame)") }
        // The fade-out (the mixer's shortest, 5 ms = 240 frames) from sample 120 000, then silence.
        for step in 1..<240 {
            let expected = ramp[(120_000 + step - 48_001) % 4801] * (1 - Float(step) / 240)
            #expect(abs(left[120_000 + step] - expected) < 1e-6)
        }
        #expect(left[120_240...].allSatisfy { $0 == 0 })
    }

    @Test("a loop without until ends with its scene, over its fadeOut, and the next scene's sound is untouched")
    func loopEndsWithItsScene() throws {
        let folder = try Self.folder()
        let audio = try Self.document("""
            [{ "id": "a", "duration": 1.5, "cues": [{ "sound": "bed", "at": 0.5, "loop": true, "fadeOut": 0.25 }] },
             { "id": "b", "duration": 1.5, "cues": [{ "sound": "bed", "at": 1, "gain": 2 }] }]
            """, in: folder)
        let left = Self.offline(audio)
        let bed = try Self.samples(audio, "bed")[0]
        #expect(left[24_000..<72_001].allSatisfy { $0 == bed })
        for step in stride(from: 0, to: 12_000, by: 101) { #expect(abs(left[72_000 + step] - bed * (1 - Float(step) / 12_000)) < 1e-6) }
        #expect(left[84_000..<120_000].allSatisfy { $0 == 0 })
        #expect(left[120_000] == 2 * bed)
    }

    @Test("a loop ended on the sample it starts on is not heard, offline or live")
    func aLoopEndedOnItsOwnSampleIsSilent() throws {
        let folder = try Self.folder()
        // 1.00001 s and 1.00002 s are both sample 48 001.
        let audio = try Self.document("""
            [{ "id": "a", "duration": 2, "cues": [{ "sound": "bed", "at": 1.00001, "loop": true, "until": 1.00002 }] }]
            """, in: folder)
        let schedule = CueSchedule(document: audio.document, sampleRate: Self.rate)
        #expect(schedule.cues.map(\.sampleIndex) == [48_001] && schedule.stops.map(\.sampleIndex) == [48_001])
        #expect(Self.offline(audio).allSatisfy { $0 == 0 })
        #expect(PlaylistAudioTests.playLive(audio, frames: 100_000, end: .stop, []).left.allSatisfy { $0 == 0 })
    }

    @Test("a stop cue lands on its sample: the named cue's voice fades from there over the stop's fadeOut")
    func stopLandsOnItsSample() throws {
        let folder = try Self.folder()
        let audio = try Self.document("""
            [{ "id": "a", "duration": 4,
               "cues": [{ "sound": "tone", "id": "music", "at": 0.25, "fadeOut": 2 },
                        { "stop": "music", "at": 1.7, "offset": 0.000011, "fadeOut": 0.01 },
                        { "sound": "tone", "at": 2, "gain": 0.5 }] }]
            """, in: folder)
        // 1.700011 s is sample 81 600.528: the fade starts on 81 601 and lasts 480 frames.
        let left = Self.offline(audio)
        let tone = try Self.samples(audio, "tone")[0]
        #expect(left[12_000..<81_602].allSatisfy { $0 == tone })
        for step in 1..<480 { #expect(abs(left[81_601 + step] - tone * (1 - Float(step) / 480)) < 1e-6) }
        #expect(left[82_081..<96_000].allSatisfy { $0 == 0 })
        #expect(left[96_000] == tone * 0.5, "the later, unnamed cue plays on")
    }

    @Test("a loop until an event that also starts it: one voice per occurrence, each ended on the next one's sample")
    func loopUntilItsOwnEventRestarts() throws {
        let folder = try Self.folder()
        // "iteration" at 0.3, 0.9, 1.5, ... (0.6 s iterations); each loop lasts to the next iteration's start.
        let audio = try Self.document("""
            [{ "id": "a", "duration": 2,
               "nodes": [{ "type": "rect", "id": "pulse", "width": 1, "height": 1, "fill": "#fff",
                           "animations": [{ "id": "beat", "property": "opacity", "from": 1, "to": 0.5, "duration": 0.6,
                                            "delay": 0.3, "repeat": "forever" }] }],
               "cues": [{ "sound": "ramp", "node": "pulse", "animation": "beat", "on": "iteration", "loop": true,
                          "until": { "node": "pulse", "animation": "beat", "on": "iteration" } }] }]
            """, in: folder)
        let schedule = CueSchedule(document: audio.document, sampleRate: Self.rate)
        #expect(schedule.cues.map(\.sampleIndex) == [14_400, 43_200, 72_000])
        #expect(schedule.stops.map(\.sampleIndex) == [43_200, 72_000], "the last loop ends with the scene")
        let left = Self.offline(audio)
        let ramp = try Self.samples(audio, "ramp")
        // Each new voice starts from the ramp's first sample while the previous one fades over 240 frames.
        for start in [43_200, 72_000] {
            for step in 0..<240 {
                let old = ramp[(start + step - (start - 28_800)) % 4801] * (1 - Float(step) / 240)
                #expect(abs(left[start + step] - (old + ramp[step])) < 1e-5, "frame \(start + step)")
            }
            #expect(left[start + 240] == ramp[240])
        }
    }

    @Test("an ambience with a start begins on its event's sample with its fade-in and plays to the scene's end")
    func ambienceStartsOnAnEvent() throws {
        let folder = try Self.folder()
        let audio = try Self.document("""
            [{ "id": "a", "duration": 2,
               "nodes": [{ "type": "rect", "id": "door", "width": 1, "height": 1, "fill": "#fff",
                           "animations": [{ "id": "open", "property": "opacity", "from": 0, "to": 1, "duration": 0.7, "delay": 0.05 }] }],
               "ambience": [{ "sound": "bed", "fadeIn": 0.1, "fadeOut": 0.05,
                              "start": { "node": "door", "animation": "open", "on": "to" } }] }]
            """, in: folder)
        let left = Self.offline(audio)
        let bed = try Self.samples(audio, "bed")[0]
        // "to" at 0.75 s: sample 36 000.
        #expect(left[..<36_001].allSatisfy { $0 == 0 })
        for step in stride(from: 0, to: 4800, by: 53) { #expect(abs(left[36_000 + step] - bed * Float(step) / 4800) < 1e-6) }
        #expect(left[40_800..<96_000].allSatisfy { $0 == bed }, "until the scene's end (the mix's last sample)")
    }

    @Test("a duck lowers the ambience by its dB while the cue sounds: level before, along the ramps, during and after")
    func duckCurveOnTheAmbience() throws {
        let folder = try Self.folder()
        let audio = try Self.document("""
            [{ "id": "a", "duration": 3,
               "ambience": [{ "sound": "bed", "fadeIn": 0 }],
               "cues": [{ "sound": "hush", "at": 1, "duck": { "db": -12, "attack": 50, "release": 300 } }] }]
            """, in: folder)
        let left = Self.offline(audio)
        let bed = try Self.samples(audio, "bed")[0]
        let floor = bed * Float(Ducking(decibels: -12).linearGain)
        #expect(left[240..<48_001].allSatisfy { $0 == bed }, "before")
        // Down over 50 ms (2400 frames) from sample 48 000; the silent sound lasts 0.5 s, so up over 300 ms from 72 000.
        for step in stride(from: 0, to: 2400, by: 7) {
            #expect(abs(left[48_000 + step] - bed * (1 + (Float(floor / bed) - 1) * Float(step) / 2400)) < 1e-6)
        }
        #expect(left[50_400..<72_001].allSatisfy { abs($0 - floor) < 1e-6 }, "during: -12 dB")
        for step in stride(from: 0, to: 14_400, by: 11) {
            #expect(abs(left[72_000 + step] - (floor + (bed - floor) * Float(step) / 14_400)) < 1e-6)
        }
        #expect(left[86_400..<144_000].allSatisfy { $0 == bed }, "after")
    }

    /// A playlist using every lasting sound: loops with and without until, a stop cue, ducks, an event-started bed.
    static let everything = """
        [{ "id": "a", "duration": 3.3,
           "nodes": [{ "type": "rect", "id": "pulse", "width": 1, "height": 1, "fill": "#fff",
                       "animations": [{ "id": "beat", "property": "opacity", "from": 1, "to": 0.5, "duration": 0.7,
                                        "delay": 0.2, "repeat": "forever" }] }],
           "ambience": [{ "sound": "bed", "fadeIn": 0.2, "fadeOut": 0.3 },
                        { "sound": "bed", "gain": 0.5, "fadeIn": 0.1, "start": { "node": "pulse", "animation": "beat", "on": "to" } }],
           "cues": [{ "sound": "ramp", "id": "music", "at": 0.4, "loop": true, "fadeOut": 0.2, "duck": { "db": -9 } },
                    { "stop": "music", "node": "pulse", "animation": "beat", "on": "to", "offset": 1.4 },
                    { "sound": "hush", "at": 2.5, "duck": { "db": -20, "attack": 10, "release": 100 } },
                    { "sound": "ramp", "at": 2.2, "loop": true, "gain": 0.3, "until": 3.1, "fadeOut": 0.05 }] },
         { "id": "b", "duration": 2.25,
           "ambience": [{ "sound": "bed", "fadeIn": 0.5 }],
           "cues": [{ "sound": "tone", "at": 0.5, "gain": 0.25, "loop": true, "duck": { "db": -6, "release": 500 } },
                    { "sound": "ramp", "at": 1, "until": 1.2 }] }]
        """

    @Test("the sequencer's events played through the mixer give the offline mix of the same playlist")
    func liveEqualsOffline() throws {
        let folder = try Self.folder()
        let audio = try Self.document(Self.everything, in: folder)
        let schedule = CueSchedule(document: audio.document, sampleRate: Self.rate)
        // The stop cue at 2.3 and 3.0 s, the until at 3.1 s, and scene b's until at 1.2 s.
        #expect(schedule.stops.map(\.sampleIndex) == [110_400, 144_000, 148_800, 216_000])
        #expect(schedule.ambienceStarts.map(\.sampleIndex) == [43_200])
        let frames = Int(schedule.scenes.last!.endSample) + 48_000
        let offline = Self.offline(audio)
        let live = PlaylistAudioTests.playLive(audio, frames: frames, end: .stop, []).left
        #expect(offline.count == frames - 48_000)
        for frame in 0..<offline.count where abs(live[frame] - offline[frame]) > 1e-6 {
            Issue.record("frame \(frame): live \(live[frame]), offline \(offline[frame])")
            break
        }
        // The end of the playlist fades everything over 50 ms.
        #expect(live[(offline.count + 2400)...].allSatisfy { $0 == 0 }, "every loop and bed ends with the playlist")
        #expect(Self.offline(audio, blockFrames: 333) == offline, "whatever the block size")
    }

    @Test("a span of the offline mix is that slice of the whole: loops stopped before it stay stopped, a sound stopped on its first sample never sounds")
    func spansAreSlicesOfTheWhole() throws {
        let folder = try Self.folder()
        let scenes = """
            [{ "id": "a", "duration": 3,
               "ambience": [{ "sound": "bed", "fadeIn": 0.25, "fadeOut": 0.5 }],
               "cues": [{ "sound": "ramp", "at": 0.5, "loop": true, "until": 1.5, "fadeOut": 0.1 },
                        { "sound": "ramp", "at": 1.00001, "until": 1.00002 },
                        { "sound": "tone", "at": 2, "gain": 0.25, "duck": { "db": -6, "release": 300 } }] },
             { "id": "b", "duration": 1.5, "ambience": [{ "sound": "bed", "fadeIn": 0.5 }] }]
            """
        let audio = try Self.document(scenes, in: folder)
        let schedule = CueSchedule(document: audio.document, sampleRate: Self.rate)
        // The second ramp's `until` falls on the sample it starts on.
        #expect(schedule.stops.map(\.sampleIndex).contains(48_001) && schedule.cues.map(\.sampleIndex).contains(48_001))
        let commands = audio.commands(playingOnce: schedule)
        let end = PlaylistAudio.endFrame(of: schedule)
        let whole = OfflineAudio.mix(commands: commands, sounds: audio.bank.sounds, span: 0..<end)
        let withoutIt = try Self.document(scenes.replacingOccurrences(of: """
            { "sound": "ramp", "at": 1.00001, "until": 1.00002 },
            """, with: ""), in: folder)
        #expect(Self.offline(withoutIt) == channel(whole, 0), "the sound stopped on its first sample is never heard")
        for start: Int64 in [40_000, 48_001, 60_000, 73_000, 100_000, 150_000, 190_000] {
            let span = OfflineAudio.mix(commands: commands, sounds: audio.bank.sounds, span: start..<end)
            #expect(span == Array(whole[Int(2 * start)...]), "from \(start)")
        }
    }

    @Test("leaving a scene ends its loop at once; a loop started again when the scene comes back is one voice")
    func navigationEndsTheLoop() throws {
        let folder = try Self.folder()
        let audio = try Self.document("""
            [{ "id": "a", "duration": 3, "cues": [{ "sound": "bed", "at": 0.25, "loop": true, "fadeOut": 0.1 }] },
             { "id": "b", "duration": 3 }]
            """, in: folder)
        let bed = try Self.samples(audio, "bed")[0]
        let (left, statistics) = PlaylistAudioTests.playLive(audio, frames: 200_000, [
            (frame: 40_000, command: { $0.next(at: $1) }),
            (frame: 100_000, command: { $0.previous(at: $1) }),
        ])
        #expect(statistics.startsDropped == 0)
        #expect(left[20_000..<40_000].allSatisfy { $0 == bed })
        // The command acts once heard (a latency of 2048 frames late), then fades over 0.1 s.
        #expect(left[48_000..<100_000].allSatisfy { $0 == 0 })
        // Back in scene a from 102 048: the loop again from 0.25 s into it, alone.
        #expect(left[(102_048 + 12_000)..<200_000].allSatisfy { $0 == bed })
    }

    @Test("a pause before an announced stop revokes it; after the resume the stop lands later by exactly the pause")
    func pausedStopIsRevokedAndMoved() throws {
        let folder = try Self.folder()
        let audio = try Self.document("""
            [{ "id": "a", "duration": 10,
               "ambience": [{ "sound": "bed", "fadeIn": 0 }],
               "cues": [{ "sound": "tone", "id": "music", "at": 0.1, "loop": true, "duck": { "db": -12 } },
                        { "stop": "music", "at": 1, "fadeOut": 0.01 }] }]
            """, in: folder)
        // The look-ahead (12 000 frames) has sent the stop at 48 000 before the pause at 40 000.
        let reference = PlaylistAudioTests.play(audio, frames: 200_000, lookAhead: 12_000, [])
        let paused = PlaylistAudioTests.play(audio, frames: 200_000, lookAhead: 12_000, [
            (frame: 40_000, command: { $0.pause(at: $1) }),
            (frame: 60_000, command: { $0.resume(at: $1) }),
        ])
        let ramp = audio.pauseRampFrames
        #expect(paused[(40_000 + ramp)..<60_000].allSatisfy { $0 == 0 })
        let tone = try Self.samples(audio, "tone")[0], bed = try Self.samples(audio, "bed")[0]
        let floor = Float(Ducking(decibels: -12).linearGain)
        let steady = tone + bed * floor
        // Unpaused: the stop at 1 s (sample 48 000); paused for 20 000 frames before it: at 68 000.
        for (mix, stop) in [(reference, 48_000), (paused, 68_000)] {
            #expect(abs(mix[stop] - steady) < 1e-6 && abs(mix[stop - 2000] - steady) < 1e-6, "\(stop)")
            // The tone has faded (480 frames); the bed is coming back up over the duck's 300 ms release.
            #expect(abs(mix[stop + 480] - bed * (floor + (1 - floor) * 480 / 14_400)) < 1e-6, "\(stop)")
            #expect(mix[(stop + 14_400)..<(stop + 40_000)].allSatisfy { $0 == bed }, "\(stop)")
        }
    }
}
