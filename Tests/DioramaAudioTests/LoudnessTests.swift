@testable import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// The loudness meter (libebur128), the gain that meets a playlist's target, and that gain on every voice of a scene.
@Suite struct LoudnessTests {
    /// `seconds` of a `frequency` Hz sine at `dBFS` (peak), the same on both channels, interleaved.
    static func sine(dBFS: Double, seconds: Double, frequency: Double = 1_000, sampleRate: Int = 48_000) -> [Float] {
        let amplitude = pow(10, dBFS / 20)
        return (0..<Int(seconds * Double(sampleRate))).flatMap { frame -> [Float] in
            let value = Float(amplitude * sin(2 * Double.pi * frequency * Double(frame) / Double(sampleRate)))
            return [value, value]
        }
    }

    // MARK: - The meter

    /// EBU Tech 3341, case 1: a 1 kHz stereo sine at -23 dBFS measures -23.0 ± 0.1 LUFS.
    @Test func aSineAtMinus23dBFSMeasuresMinus23LUFS() throws {
        let figure = LoudnessMeter.measure(Self.sine(dBFS: -23, seconds: 20), sampleRate: 48_000)
        let integrated = try #require(figure.integrated)
        #expect(abs(integrated - -23) <= 0.1, "\(integrated) LUFS")
        // A sine's true peak is its amplitude.
        #expect(abs(figure.truePeak - -23) <= 0.1, "\(figure.truePeak) dBTP")
    }

    @Test func silenceHasNoLoudnessAndNoPeak() {
        let figure = LoudnessMeter.measure([Float](repeating: 0, count: 96_000), sampleRate: 48_000)
        #expect(figure.integrated == nil)
        #expect(figure.truePeak == -.infinity)
        #expect(figure.integratedDescription == "silent" && figure.truePeakDescription == "-inf")
    }

    @Test func blocksAddUpToTheWhole() {
        let samples = Self.sine(dBFS: -12, seconds: 3, frequency: 440)
        let meter = LoudnessMeter(sampleRate: 48_000)
        samples.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(start + 2 * 1_000, buffer.count)
                meter.add(UnsafeBufferPointer(rebasing: buffer[start..<end]))
                start = end
            }
        }
        #expect(meter.figure == LoudnessMeter.measure(samples, sampleRate: 48_000))
    }

    /// The bound `truePeakAboveSamplePeak` rests on libebur128's interpolator: the signal whose samples follow the
    /// signs of its worst phase's coefficients (a 49-tap Hann-windowed sinc, 4x) reaches it, and nothing passes it.
    @Test func aTruePeakIsAtMost5Point41dBAboveTheSamplePeak() throws {
        let coefficients = (0..<49).map { j -> Double in
            let m = Double(j) - 24
            let sinc = m == 0 ? 1 : sin(m * Double.pi / 4) / (m * Double.pi / 4)
            return sinc * 0.5 * (1 - cos(2 * Double.pi * Double(j) / 48))
        }
        // Phase 2: taps 2, 6, ..., 46 act on the samples 0 ... 11 back.
        let phase = stride(from: 2, to: 49, by: 4).map { coefficients[$0] }
        let worst = phase.reversed().map { Float($0 < 0 ? -0.25 : 0.25) }
        let mono = [Float](repeating: 0, count: 4_800) + worst + [Float](repeating: 0, count: 4_800)
        let stereo = mono.flatMap { [$0, $0] }
        let measured = LoudnessMeter.measure(stereo, sampleRate: 48_000)
        let samplePeak = LoudnessMeter.measure(stereo, sampleRate: 48_000, truePeak: false)
        #expect(!samplePeak.truePeakMeasured && abs(samplePeak.truePeak - 20 * log10(0.25)) < 1e-6)
        let above = measured.truePeak - samplePeak.truePeak
        #expect(above <= LoudnessMeter.truePeakAboveSamplePeak && above > LoudnessMeter.truePeakAboveSamplePeak - 0.01, "\(above) dB")
        var random = SeededRandom(seed: 7)
        for _ in 0..<10 {
            let noise = (0..<9_600).map { _ in Float(random() * 2 - 1) * 0.5 }
            let above = LoudnessMeter.measure(noise, sampleRate: 48_000).truePeak
                - LoudnessMeter.measure(noise, sampleRate: 48_000, truePeak: false).truePeak
            #expect(above >= 0 && above <= LoudnessMeter.truePeakAboveSamplePeak, "\(above) dB")
        }
    }

    // MARK: - The gain

    @Test func theGainIsTheTargetMinusTheLoudness() {
        let gain = SceneGain(target: -23, measured: LoudnessFigure(integrated: -30.456, truePeak: -12))
        #expect(gain.decibels == 7.46)
        #expect(gain.limit == nil && gain.shortfall == 0)
        let louder = SceneGain(target: -23, measured: LoudnessFigure(integrated: -18, truePeak: -0.5))
        #expect(louder.decibels == -5 && louder.limit == nil)
        #expect(abs(Double(louder.linear) - pow(10, -5.0 / 20)) < 1e-6)
    }

    @Test func theGainStopsWhereTheTruePeakWouldPassMinusOneDBTP() {
        let gain = SceneGain(target: -23, measured: LoudnessFigure(integrated: -30, truePeak: -3.333))
        #expect(gain.decibels == 2.33)
        #expect(gain.limit == .truePeak)
        #expect(abs(gain.shortfall - 4.67) < 1e-9)
        #expect(-3.333 + gain.decibels <= SceneGain.truePeakCeiling)
    }

    @Test func aNearlySilentSceneIsRaisedAtMost20dB() {
        let gain = SceneGain(target: -23, measured: LoudnessFigure(integrated: -55, truePeak: -40))
        #expect(gain.decibels == SceneGain.maximumDecibels && gain.limit == .maximumGain)
        #expect(gain.shortfall == 12)
        // Both limits: the lower gain, the peak's.
        let both = SceneGain(target: -23, measured: LoudnessFigure(integrated: -55, truePeak: -15))
        #expect(both.decibels == 14 && both.limit == .truePeak)
    }

    /// Without the true peak, a figure's sample peak tells when the gain cannot reach the ceiling.
    @Test func theTruePeakIsNeededOnlyWhereTheSamplePeakLeavesItAChance() {
        let calm = LoudnessFigure(integrated: -30, truePeak: -20, truePeakMeasured: false)
        #expect(!SceneGain.truePeakCouldLimit(target: -23, measured: calm))
        #expect(SceneGain(target: -23, measured: calm).decibels == 7)
        let peaky = LoudnessFigure(integrated: -30, truePeak: -12, truePeakMeasured: false)
        #expect(SceneGain.truePeakCouldLimit(target: -23, measured: peaky))
    }

    @Test func aSilentSceneKeepsItsLevel() {
        let gain = SceneGain(target: -23, measured: LoudnessFigure(integrated: nil, truePeak: -.infinity))
        #expect(gain.decibels == 0 && gain.linear == 1 && gain.limit == .silent)
    }

    // MARK: - A playlist with a target

    /// Two scenes: a quiet hum (about -37 LUFS) with a click (at `pondClick`: 1 peaks near -6 dBTP), and a loud hum
    /// (about -13 LUFS) with a soft click; written as FLAC beside the document.
    static func twoScenes(loudness: String?, pondClick: String = "0.1") throws -> (LoadedDocument, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let rate = 48_000
        let quiet = sine(dBFS: -34, seconds: 2, frequency: 220).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let loud = sine(dBFS: -12, seconds: 2, frequency: 330).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        // A click: high peaks, too little energy to count in the integrated loudness.
        let click: [Float] = (0..<(rate / 10)).map { $0 < 8 ? ($0 % 2 == 0 ? 0.7 : -0.7) : 0 }
        for (name, samples) in [("quiet", quiet), ("loud", loud), ("click", click)] {
            try SoundFileWriter.write(samples, channels: 1, sampleRate: rate, format: .flac16, to: folder.path("\(name).flac"))
        }
        let target = loudness.map { "\"loudness\": \($0)," } ?? ""
        let json = """
            { \(target)
              "canvas": { "width": 10, "height": 10, "background": "#000" },
              "sounds": { "quiet": "quiet.flac", "loud": "loud.flac", "click": "click.flac" },
              "scenes": [
                { "id": "pond", "duration": 6, "ambience": [{ "sound": "quiet", "fadeIn": 0.5 }],
                  "cues": [{ "sound": "click", "at": 2, "gain": \(pondClick) }] },
                { "id": "mill", "duration": 5, "ambience": [{ "sound": "loud", "fadeIn": 0.5, "fadeOut": 1 }],
                  "cues": [{ "sound": "click", "at": 1, "gain": 0.2 }] }
              ] }
            """
        let loaded = try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json"))
        return (loaded, folder)
    }

    @Test func withoutATargetNoSceneHasAGain() throws {
        let (loaded, folder) = try Self.twoScenes(loudness: nil)
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        #expect(audio.sceneGains.isEmpty)
    }

    @Test func eachSceneOfAPlaylistWithATargetPlaysAtItWithinHalfAnLU() throws {
        let (loaded, folder) = try Self.twoScenes(loudness: "-23")
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        #expect(audio.sceneGains.map(\.limit) == [nil, nil])
        // The pond is raised, the mill lowered.
        #expect(audio.sceneGains[0].decibels > 5 && audio.sceneGains[1].decibels < -5)
        for (index, figure) in audio.sceneLoudness().enumerated() {
            let integrated = try #require(figure.integrated)
            #expect(abs(integrated - -23) <= 0.5, "scene \(index): \(integrated) LUFS")
            #expect(figure.truePeak <= SceneGain.truePeakCeiling + 0.05, "scene \(index): \(figure.truePeak) dBTP")
        }
    }

    @Test func aSceneWhosePeaksStopItsGainFallsShortAndSaysWhy() throws {
        let (loaded, folder) = try Self.twoScenes(loudness: "-23", pondClick: "1")
        let audio = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        // The pond's click (near -6 dBTP) allows about +5 dB of the +14 dB its hum needs.
        #expect(audio.sceneGains[0].limit == .truePeak, "\(audio.sceneGains)")
        #expect(audio.sceneGains[0].shortfall > 5, "\(audio.sceneGains)")
        let played = audio.sceneLoudness()
        #expect(played[0].truePeak <= SceneGain.truePeakCeiling + 0.05, "\(played)")
        #expect(try #require(played[0].integrated) < -23 - 5, "\(played)")
    }

    /// The gain changes levels only: every command keeps its frame, tag, pan, fade and loop, and each start's gain is
    /// the one without a target times its scene's factor.
    @Test func theGainScalesEveryVoiceOfItsSceneAndMovesNoSample() throws {
        let (plain, folder) = try Self.twoScenes(loudness: nil)
        var document = plain.document
        document.loudness = -23
        let without = PlaylistAudio(document: plain.document, directory: folder.url.path)
        let with = PlaylistAudio(document: document, bank: without.bank)
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        let before = without.commands(playingOnce: schedule)
        let after = with.commands(playingOnce: schedule)
        #expect(before.count == after.count)
        var scaled = 0
        for (old, new) in zip(before, after) {
            guard case .start(let oldStart) = old, case .start(var newStart) = new else {
                #expect(old == new)
                continue
            }
            let scene = PlaylistAudio.isCueTag(newStart.tag) ? Int(newStart.tag >> 16 & 0x7FFF) - 1 : Int(newStart.tag >> 8) - 1
            #expect(newStart.gain == oldStart.gain * with.sceneGains[scene].linear)
            newStart.gain = oldStart.gain
            #expect(newStart == oldStart)
            scaled += 1
        }
        #expect(scaled == 4)
    }

    @Test func theSameScenesMeasureTheSameEveryTime() throws {
        let (loaded, folder) = try Self.twoScenes(loudness: "-20")
        let first = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        // A fresh bank: nothing remembered.
        let second = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        #expect(first.sceneGains == second.sceneGains)
        #expect(first.sceneLoudness() == second.sceneLoudness())
    }

    /// The player measures when the file loads and again on every reload with the same bank: only scenes whose sound
    /// changed are mixed again.
    @Test func aReloadMeasuresOnlyTheScenesWhoseSoundChanged() throws {
        let (loaded, folder) = try Self.twoScenes(loudness: "-23")
        let first = PlaylistAudio(document: loaded.document, directory: folder.url.path)
        #expect(first.bank.mixMemory.count == 2)
        var edited = loaded.document
        edited.scenes[0].title = LocalizedString("Still the pond")
        let second = PlaylistAudio(document: edited, bank: first.bank)
        #expect(first.bank.mixMemory.count == 2)
        #expect(second.sceneGains == first.sceneGains)
        edited.scenes[1].cues[0].gain = 0.3
        let third = PlaylistAudio(document: edited, bank: first.bank)
        #expect(first.bank.mixMemory.count == 3)
        #expect(third.sceneGains[0] == first.sceneGains[0])
    }
}
