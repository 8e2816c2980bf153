import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// The shipped playlist asks for -23 LUFS: each scene, measured as it plays (its own mix with its gain, through the
/// same meter `timeline` and `check` use), is within 1 LU of it with its true peak below -1 dBTP, and the gains move
/// no cue's sample.
@Suite struct ShippedLoudnessTests {
    static func load() throws -> (LoadedDocument, PlaylistAudio) {
        let loaded = try DocumentLoader.load(path: ShippedCueTests.scenesFile.path)
        return (loaded, PlaylistAudio(document: loaded.document, directory: loaded.baseDirectory))
    }

    @Test func everySceneIsWithinOneLUOfMinus23WithItsTruePeakBelowMinusOne() throws {
        let (loaded, audio) = try Self.load()
        #expect(loaded.document.loudness == -23)
        #expect(audio.warnings.isEmpty)
        let played = audio.sceneLoudness()
        #expect(played.count == loaded.document.scenes.count)
        for (scene, figure) in zip(loaded.document.scenes, played) {
            let integrated = try #require(figure.integrated, "\(scene.id) is silent")
            #expect(abs(integrated - -23) <= 1, "\(scene.id): \(integrated) LUFS")
            #expect(figure.truePeak < -1, "\(scene.id): \(figure.truePeak) dBTP")
        }
        // No gain is held back: each reaches the target as computed.
        #expect(audio.sceneGains.allSatisfy { $0.limit == nil }, "\(audio.sceneGains.map(\.limit))")
    }

    /// The same sequencer events give the same commands at the same frames with and without the target; only the
    /// starts' gains differ.
    @Test func theGainsMoveNoCueSample() throws {
        let (loaded, audio) = try Self.load()
        var plainDocument = loaded.document
        plainDocument.loudness = nil
        let plain = PlaylistAudio(document: plainDocument, bank: audio.bank)
        let schedule = CueSchedule(document: loaded.document, sampleRate: audio.sampleRate)
        let leveled = audio.commands(playingOnce: schedule)
        let unleveled = plain.commands(playingOnce: schedule)
        #expect(leveled.count == unleveled.count)
        for (with, without) in zip(leveled, unleveled) {
            guard case .start(var start) = with, case .start(let original) = without else {
                #expect(with == without)
                continue
            }
            start.gain = original.gain
            #expect(start == original)
        }
    }

    /// The player's gains, measured scene by scene when each is first needed (after a thread measured some ahead),
    /// give every command exactly as the gains measured all at once do.
    @Test func scenesMeasuredWhenNeededGiveTheSameCommands() throws {
        let (loaded, audio) = try Self.load()
        let target = try #require(loaded.document.loudness)
        // A thread of the player measures ahead: here, every other scene.
        for scene in loaded.document.scenes.indices where scene % 2 == 1 {
            _ = PlaylistAudio.measureGain(ofScene: scene, document: loaded.document, bank: audio.bank, target: target)
        }
        let whenNeeded = PlaylistAudio.measuringScenesWhenNeeded(document: loaded.document, bank: audio.bank)
        #expect(whenNeeded.sceneGains.isEmpty)
        let schedule = CueSchedule(document: loaded.document, sampleRate: audio.sampleRate)
        #expect(whenNeeded.commands(playingOnce: schedule) == audio.commands(playingOnce: schedule))
        for scene in loaded.document.scenes.indices {
            #expect(PlaylistAudio.measureGain(ofScene: scene, document: loaded.document, bank: audio.bank, target: target)
                == audio.sceneGains[scene])
        }
    }
}
