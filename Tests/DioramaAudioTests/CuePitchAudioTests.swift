import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// A cue's `pitch` and a cue that picks from a set of sounds, in the offline mix: each firing from its exact sample, at
/// its pitch, the same samples on every run.
@Suite struct CuePitchAudioTests {
    static let rate = 48_000

    /// `seconds` of a `frequency` Hz tone in cosine phase (its first sample at full level), fading out over its last tenth.
    static func tone(_ frequency: Double, seconds: Double = 1) -> [Float] {
        let count = Int(seconds * Double(rate))
        return (0..<count).map { index in
            let fade = min(1, Double(count - index) / (0.1 * Double(rate)))
            return Float(0.5 * fade * cos(2 * Double.pi * frequency * Double(index) / Double(rate)))
        }
    }

    /// A scene of `duration` s with `cues`, the sounds written as WAV files beside it, and a rect whose keyframe track
    /// passes keyframe 1 at 0.800001 s (a delay of 0.100001 s and the keyframe at 0.7 s), 48 000.048 samples in.
    static func document(sounds: [String: [Float]], vary: String? = nil, cues: [String], duration: Double = 6,
                         folder: TemporaryFolder) throws -> LoadedDocument {
        var entries: [String] = []
        for (name, samples) in sounds.sorted(by: { $0.key < $1.key }) {
            try SoundFileWriter.write(samples, channels: 1, sampleRate: rate, format: .wavFloat, to: folder.path("\(name).wav"))
            entries.append(#""\#(name)": "# + (vary.map { #"{ "path": "\#(name).wav", "vary": \#($0) }"# } ?? #""\#(name).wav""#))
        }
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { \(entries.joined(separator: ", ")) },
              "scenes": [{ "id": "music-box", "duration": \(duration), "cues": [\(cues.joined(separator: ", "))],
                "nodes": [{ "type": "rect", "id": "tine", "width": 1, "height": 1, "fill": "#fff",
                  "animations": [
                    { "id": "pluck", "property": "rotation", "delay": 0.100001,
                      "keyframes": [{ "time": 0, "value": 0 }, { "time": 0.7, "value": 8 }, { "time": 1, "value": 0 }] },
                    { "id": "turn", "property": "opacity", "from": 1, "to": 0.5, "duration": 0.25, "repeat": "forever" }] }] }] }
            """
        return try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json"))
    }

    static func mix(_ loaded: LoadedDocument, folder: TemporaryFolder, span: Range<Int64>) -> (audio: PlaylistAudio, schedule: CueSchedule, mix: [Float]) {
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        let schedule = CueSchedule(document: loaded.document, sampleRate: rate)
        return (audio, schedule, OfflineAudio.mix(commands: audio.commands(playingOnce: schedule), sounds: audio.bank.sounds, span: span))
    }

    static func cueStarts(_ commands: [MixerCommand]) -> [VoiceStart] {
        commands.compactMap { if case .start(let start) = $0, PlaylistAudio.isCueTag(start.tag) { start } else { nil } }
    }

    /// Upward zero crossings of the left channel of an interleaved stereo mix over `frames`, as a frequency in Hz.
    static func frequency(_ mix: [Float], frames: Range<Int>) -> Double {
        let left = frames.map { mix[2 * $0] }
        let crossings = zip(left, left.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        return Double(crossings) * Double(rate) / Double(frames.count)
    }

    @Test(arguments: [-12.0, -5, 0.5, 7, 24])
    func aPitchedCueIsHeardFromItsKeyframesSample(pitch: Double) throws {
        let folder = try TemporaryFolder()
        let keyframe = #"{ "sound": "tine", "node": "tine", "animation": "pluck", "on": { "keyframe": 1 }, "pitch": \#(pitch) }"#
        let loaded = try Self.document(sounds: ["tine": Self.tone(880, seconds: 0.5)], cues: [keyframe], folder: folder)
        let span: Range<Int64> = 36_000..<60_000
        let (audio, schedule, heard) = Self.mix(loaded, folder: folder, span: span)
        #expect(audio.warnings.isEmpty, "\(audio.warnings)")
        // ceil(0.800001 s × 48 000) = ceil(38 400.048): the keyframe's sample, as the schedule computes it.
        let cue = try #require(schedule.cues.first)
        #expect(cue.sampleIndex == 38_401)
        let starts = Self.cueStarts(audio.commands(playingOnce: schedule))
        #expect(starts.map(\.frame) == [38_401])
        // The pitched copy's first sample is the file's first (its level smoothed by the converter's filter, the more so
        // the higher the copy), and nothing is heard before it.
        let played = audio.bank.sounds[try #require(starts.first).sound]
        #expect(played.storedSamples[0] > 0.25, "\(played.storedSamples[0])")
        let first = try #require(heard.indices.first { heard[$0] != 0 })
        #expect(Int64(first / 2) + span.lowerBound == 38_401)
    }

    @Test func aSineAnOctaveUpPlaysAtTwiceTheFrequency() throws {
        let folder = try TemporaryFolder()
        let cues = [#"{ "sound": "sine", "at": 1 }"#, #"{ "sound": "sine", "at": 3, "pitch": 12 }"#,
                    #"{ "sound": "sine", "at": 5, "pitch": -12 }"#]
        let loaded = try Self.document(sounds: ["sine": Self.tone(500)], cues: cues, duration: 8, folder: folder)
        let (audio, _, heard) = Self.mix(loaded, folder: folder, span: 0..<(8 * 48_000))
        #expect(audio.warnings.isEmpty, "\(audio.warnings)")
        // 0.3 s from 0.1 s after each cue: all of it inside the tone before its fade.
        let own = Self.frequency(heard, frames: 52_800..<67_200)
        let octaveUp = Self.frequency(heard, frames: 148_800..<163_200)
        let octaveDown = Self.frequency(heard, frames: 244_800..<259_200)
        #expect(abs(own - 500) <= 5, "\(own) Hz")
        #expect(abs(octaveUp - 1000) <= 5, "\(octaveUp) Hz")
        #expect(abs(octaveDown - 250) <= 5, "\(octaveDown) Hz")
        // An octave up lasts half as long (0.5 s), an octave down twice (2 s).
        func length(from frame: Int, within frames: Int) -> Int {
            ((frame..<(frame + frames)).last { abs(heard[2 * $0]) > 1e-4 } ?? frame) + 1 - frame
        }
        #expect(abs(length(from: 144_000, within: 48_000) - 24_000) < 100, "\(length(from: 144_000, within: 48_000))")
        #expect(abs(length(from: 240_000, within: 120_000) - 96_000) < 100, "\(length(from: 240_000, within: 120_000))")
    }

    @Test func aCueAtPitchZeroMixesByteIdenticallyToOneWithout() throws {
        let folder = try TemporaryFolder()
        let tone = Self.tone(660, seconds: 0.5)
        let plain = try Self.document(sounds: ["tine": tone], cues: [#"{ "sound": "tine", "node": "tine", "animation": "turn", "on": "to" }"#],
                                      folder: folder)
        let zero = try Self.document(sounds: ["tine": tone],
                                     cues: [#"{ "sound": "tine", "node": "tine", "animation": "turn", "on": "to", "pitch": 0 }"#], folder: folder)
        let a = Self.mix(plain, folder: folder, span: 0..<288_000), b = Self.mix(zero, folder: folder, span: 0..<288_000)
        #expect(a.mix == b.mix)
        #expect(a.mix.contains { $0 != 0 })
        #expect(b.audio.bank.sounds.count == 1, "no copy is made for pitch 0")
    }

    @Test func theBankHoldsOneCopyPerPitchAndThePitchComposesWithTheVariation() throws {
        let folder = try TemporaryFolder()
        let cues = [#"{ "sound": "tine", "at": 1, "pitch": 7 }"#, #"{ "sound": "tine", "at": 2, "pitch": 7 }"#,
                    #"{ "sound": "tine", "at": 3, "pitch": -5 }"#, #"{ "sound": "tine", "at": 4 }"#]
        let tone = Self.tone(440, seconds: 0.5)
        let plain = try Self.document(sounds: ["tine": tone], cues: cues, folder: folder)
        let (audio, schedule, _) = Self.mix(plain, folder: folder, span: 0..<1)
        // The file, then one copy at -5 and one at 7, in ascending pitch.
        #expect(audio.bank.sounds.count == 3)
        #expect(SoundBank.pitches(in: plain.document) == ["tine": [-5, 7]])
        let lengths = Self.cueStarts(audio.commands(playingOnce: schedule)).map { audio.bank.sounds[$0.sound].frameCount }
        let expected = [7.0, 7, -5, 0].map { Int((24_000 / pow(2, $0 / 12)).rounded()) }
        for (length, expected) in zip(lengths, expected) { #expect(abs(length - expected) <= 2, "\(lengths) vs \(expected)") }

        // With a pitch variation: seven takes at each pitch, each firing one of those about its cue's pitch.
        let varied = try Self.document(sounds: ["tine": tone], vary: #"{ "pitch": 1 }"#, cues: cues, folder: folder)
        let (variedAudio, variedSchedule, _) = Self.mix(varied, folder: folder, span: 0..<1)
        #expect(variedAudio.bank.sounds.count == 1 + 6 + 7 + 7)
        let starts = Self.cueStarts(variedAudio.commands(playingOnce: variedSchedule))
        for (start, pitch) in zip(starts, [7.0, 7, -5, 0]) {
            let semitones = -12 * log2(Double(variedAudio.bank.sounds[start.sound].frameCount) / 24_000)
            let take = (semitones - pitch + 1) * 3
            #expect(abs(take - take.rounded()) < 0.02 && (0...6).contains(take.rounded()), "\(semitones) st for pitch \(pitch)")
        }
        #expect(Set(starts.map(\.sound)).count == 4, "each firing its own copy")
    }

    @Test func aPickedSoundDiffersBetweenFiringsAndIsTheSameOnEveryRun() throws {
        let folder = try TemporaryFolder()
        let sounds = ["tine-a": Self.tone(440, seconds: 0.2), "tine-b": Self.tone(550, seconds: 0.2), "tine-c": Self.tone(660, seconds: 0.2)]
        let cue = #"{ "sound": ["tine-a", "tine-b", "tine-c"], "node": "tine", "animation": "turn", "on": "iteration", "pitch": 2 }"#
        let loaded = try Self.document(sounds: sounds, cues: [cue], folder: folder)
        let runs = (0..<2).map { _ in Self.mix(loaded, folder: folder, span: 0..<288_000) }
        #expect(runs[0].mix == runs[1].mix)
        let (audio, schedule, _) = runs[0]
        #expect(schedule.cues.count == 24)
        let starts = Self.cueStarts(audio.commands(playingOnce: schedule))
        // Each voice plays the copy at +2 of the sound its firing picked, and the firings pick all three.
        for (start, cue) in zip(starts, schedule.cues) {
            #expect(audio.bank.sounds[start.sound].name == cue.firing.sound + " +2.0 st")
        }
        #expect(Set(schedule.cues.map(\.firing.sound)) == ["tine-a", "tine-b", "tine-c"])
        #expect(zip(schedule.cues, schedule.cues.dropFirst()).contains { $0.firing.sound != $1.firing.sound })
    }
}
