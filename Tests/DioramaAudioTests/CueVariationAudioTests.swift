import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaSynthesis
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// A sound with `vary`: each firing of a cue plays its own gain and take, the same on every run, from its exact sample.
@Suite struct CueVariationAudioTests {
    /// A bell on every swing of a pendulum (a 0.5 s swing, autoreversing: it reaches `to` at 0.5, 1.5, 2.5 ... s).
    static func document(vary: String?, folder: TemporaryFolder) throws -> LoadedDocument {
        let bell = try #require(ProjectSounds.make("bell"))
        try SoundFileWriter.write(bell.samples, channels: 1, sampleRate: 48_000, format: .flac16, to: folder.path("bell.flac"))
        let sound = vary.map { #"{ "path": "bell.flac", "vary": \#($0) }"# } ?? #""bell.flac""#
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "bell": \(sound) },
              "scenes": [{ "id": "sea", "duration": 10,
                "cues": [{ "sound": "bell", "node": "buoy", "animation": "rock", "on": "to" }],
                "nodes": [{ "type": "rect", "id": "buoy", "width": 1, "height": 1, "fill": "#fff",
                  "animations": [{ "id": "rock", "property": "rotation", "from": -10, "to": 10, "duration": 0.5,
                                   "repeat": "forever", "autoreverses": true }] }] }] }
            """
        return try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json"))
    }

    static func starts(_ commands: [MixerCommand]) -> [VoiceStart] {
        commands.compactMap { if case .start(let start) = $0, PlaylistAudio.isCueTag(start.tag) { start } else { nil } }
    }

    @Test func eachFiringPlaysItsOwnGainAndTakeFromItsExactSample() throws {
        let folder = try TemporaryFolder()
        let loaded = try Self.document(vary: #"{ "gain": 3, "pitch": 0.5 }"#, folder: folder)
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        #expect(audio.warnings.isEmpty)
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        let starts = Self.starts(audio.commands(playingOnce: schedule))
        #expect(starts.count == 10)
        // Onsets unchanged: each on its firing's sample.
        #expect(starts.map(\.frame) == schedule.cues.map(\.sampleIndex))
        // Firings differ: gains within ±3 dB of the sound's, several takes, never all the same.
        let base = Float(1)
        for start in starts {
            #expect(start.gain >= base * 0.7079 && start.gain <= base * 1.4126, "\(start.gain)")
        }
        #expect(Set(starts.map(\.gain)).count == starts.count)
        #expect(Set(starts.map(\.sound)).count >= 3)
        // Seven takes: the file, then six more after it in the bank, each its own length (higher is shorter).
        #expect(audio.bank.sounds.count == 7)
        let lengths = (0..<7).map { audio.bank.sounds[audio.bank.index(of: 0, take: $0)].frameCount }
        #expect(lengths == lengths.sorted(by: >), "\(lengths)")
        let octaveRatio = Double(lengths[0]) / Double(lengths[6])
        #expect(abs(octaveRatio - pow(2, 1.0 / 12)) < 0.001, "\(octaveRatio)")
    }

    @Test func theSameFiringPlaysTheSameSamplesOnEveryRun() throws {
        let folder = try TemporaryFolder()
        let loaded = try Self.document(vary: #"{ "gain": 3, "pitch": 0.5 }"#, folder: folder)
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        let mixes = (0..<2).map { _ in
            let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path)
            return OfflineAudio.mix(commands: audio.commands(playingOnce: schedule), sounds: audio.bank.sounds, span: 0..<240_000)
        }
        #expect(mixes[0] == mixes[1])
        // And not the same as the sound played plainly.
        let plain = try Self.document(vary: nil, folder: folder)
        let plainAudio = PlaylistAudio(document: plain.document, directory: folder.url.path)
        let plainMix = OfflineAudio.mix(commands: plainAudio.commands(playingOnce: schedule), sounds: plainAudio.bank.sounds, span: 0..<240_000)
        #expect(plainMix != mixes[0])
    }

    /// Mixing with and without one firing: the first sample where they differ is the firing's own, for every firing.
    @Test func everyFiringIsHeardFromItsSample() throws {
        let folder = try TemporaryFolder()
        let loaded = try Self.document(vary: #"{ "gain": 6, "pitch": 2 }"#, folder: folder)
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        let commands = audio.commands(playingOnce: schedule)
        for cue in schedule.cues {
            let index = try #require(commands.firstIndex {
                if case .start(let start) = $0 { start.frame == cue.sampleIndex && PlaylistAudio.isCueTag(start.tag) } else { false }
            })
            var without = commands
            without.remove(at: index)
            let window = (cue.sampleIndex - 4_800)..<(cue.sampleIndex + 4_800)
            let with = OfflineAudio.mix(commands: commands, sounds: audio.bank.sounds, span: window)
            let other = OfflineAudio.mix(commands: without, sounds: audio.bank.sounds, span: window)
            let first = with.indices.first { with[$0] != other[$0] }.map { Int64($0 / 2) + window.lowerBound }
            // From the cue's sample plus the take's own leading zeros (the bell's attack rises from zero), which no take
            // lengthens past a few samples.
            guard case .start(let start) = commands[index] else { continue }
            let lead = Int64(audio.bank.sounds[start.sound].storedSamples.firstIndex { $0 != 0 } ?? -1)
            #expect(lead >= 0 && lead < 24, "take \(start.sound): \(lead)")
            #expect(first == cue.sampleIndex + lead, "firing at \(cue.firing.sceneTime) s")
        }
    }

    /// A take starts where its sound does: an impulse on the first sample stays the take's largest sample there.
    @Test(arguments: [-12.0, -0.5, 0.25, 1, 12])
    func aTakeStartsOnTheSoundsFirstSample(semitones: Double) throws {
        var samples = [Float](repeating: 0, count: 4_800)
        samples[0] = 0.8
        let take = try SoundFile.take(of: MixerSound(name: "tick", mono: samples), semitones: semitones, path: "tick.wav")
        let taken = take.storedSamples
        let loudest = try #require(taken.indices.max { abs(taken[$0]) < abs(taken[$1]) })
        #expect(loudest == 0, "\(semitones) st: loudest at \(loudest)")
        #expect(abs(Double(taken.count) - 4_800 / pow(2, semitones / 12)) <= 2, "\(taken.count)")
    }

    /// A take an octave up is a tone an octave up: a 500 Hz sine becomes 1000 Hz (its zero crossings double).
    @Test func anOctaveUpDoublesTheFrequency() throws {
        let sine = (0..<48_000).map { Float(0.5 * sin(2 * Double.pi * 500 * Double($0) / 48_000)) }
        let take = try SoundFile.take(of: MixerSound(name: "sine", mono: sine), semitones: 12, path: "sine.wav").storedSamples
        let middle = Array(take[2_000..<22_000])
        let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        // 20 000 samples at 1000 Hz: 416.7 cycles.
        #expect(abs(crossings - 417) <= 1, "\(crossings)")
    }

    /// The shipped ocean's bells and the swing's creaks vary.
    @Test func theShippedBellAndCreakVary() throws {
        let loaded = try DocumentLoader.load(path: ShippedCueTests.scenesFile.path)
        let sounds = Dictionary(uniqueKeysWithValues: loaded.document.sounds.map { ($0.name, $0) })
        #expect(sounds["bell"]?.vary != nil)
        #expect(sounds["creak"]?.vary != nil)
        let audio = PlaylistAudio(document: loaded.document, directory: loaded.baseDirectory)
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        let bells = Self.starts(audio.commands(playingOnce: schedule)).filter { start in
            schedule.cues.contains { $0.sampleIndex == start.frame && $0.firing.sound == "bell" }
        }
        #expect(bells.count >= 2)
        #expect(Set(bells.map(\.gain)).count == bells.count)
    }
}
