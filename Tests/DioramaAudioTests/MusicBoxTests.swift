import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// The shipped music box (docs/examples/music-box.json), to the sample: a tap starts the Lottie drum, each pluck
/// marker moves its tine and plays the one tine sample at its note's pitch, a second tap stops it; and written with
/// patterns it is at most half the JSON of the same box written by hand (Fixtures/music-box-by-hand.json).
///
/// The drum turns once in 120 frames at 30 fps (4 s) and plucks its eight notes on frames 7, 22, … 112, each
/// marker named after its note; the drum taps itself at 1 s, and these tests tap it again at 7.5 s.
@Suite struct MusicBoxTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = root.appendingPathComponent("docs/examples/music-box.json")
    static let byHand = root.appendingPathComponent("Tests/DioramaAudioTests/Fixtures/music-box-by-hand.json")
    static let rate = 48_000

    /// The tune's notes on their frames, and each note's semitones above the tine's C5.
    static let tune: [(note: String, frame: Int)] = [("G5", 7), ("C6", 22), ("E6", 37), ("D6", 52), ("A5", 67), ("E5", 82),
                                                     ("D5", 97), ("C5", 112)]
    static let semitones = ["C5": 0, "D5": 2, "E5": 4, "G5": 7, "A5": 9, "C6": 12, "D6": 14, "E6": 16]
    static let comb = ["C5", "D5", "E5", "G5", "A5", "C6", "D6", "E6"]

    static let start = Rational(1)
    static let stop = Rational(15, 2)

    /// The example with the drum tapped a second time at `stop` (its first tap is its own, at 1 s).
    static func document(_ url: URL = example) throws -> (document: Document, warnings: [Diagnostic]) {
        let loaded = try DocumentLoader.load(path: url.path)
        var document = loaded.document
        document.scenes[0].taps.add(stop, to: "drum")
        return (document, loaded.warnings)
    }

    /// Every note the drum plucks between its start and its stop, in time order: its scene time and note.
    static var plucks: [(time: Rational, note: String)] {
        var result: [(time: Rational, note: String)] = []
        for turn in 0... {
            let notes = tune.map { (start + Rational(Int128($0.frame + 120 * turn), 30), $0.note) }.filter { $0.0 < stop }
            if notes.isEmpty { break }
            result += notes
        }
        return result
    }

    /// Upward zero crossings of `samples` over `frames`, as Hz.
    static func frequency(_ samples: [Float], frames: Range<Int>) -> Double {
        let part = frames.map { samples[$0] }
        return Double(zip(part, part.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count) * Double(rate) / Double(frames.count)
    }

    @Test func theTapStartsTheDrumAndEachMarkerPlaysItsNoteOnItsSampleAtItsPitch() throws {
        let loaded = try Self.document()
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let document = loaded.document
        // The drum starts on the tap's sample, and stops on the second's.
        let timing = SceneTiming(scene: document.scenes[0])
        #expect(timing.starts[0].isLottie && timing.starts[0].time == Self.start)
        #expect(timing.starts[1].isStop && timing.starts[1].time == Self.stop)

        let schedule = CueSchedule(document: document, sampleRate: Self.rate)
        let notes = schedule.cues.filter { $0.firing.sound == "tine" }
        let expected = Self.plucks
        #expect(expected.count == 13, "\(expected.map(\.note))")
        #expect(notes.count == expected.count)
        for (scheduled, pluck) in zip(notes, expected) {
            #expect(scheduled.firing.sceneTime == pluck.time)
            #expect(scheduled.sampleIndex == Int64((pluck.time * Rational(Self.rate)).ceiling), "\(pluck)")
            #expect(scheduled.firing.pitch == Double(Self.semitones[pluck.note]!), "\(pluck)")
        }
        // The first note: frame 7 after the tap at 1 s, 1 + 7/30 s, on sample ceil(59 200) exactly.
        #expect(notes.first?.sampleIndex == 59_200)
        // Nothing plucks after the second tap: its click is the last cue.
        let last = try #require(schedule.cues.last)
        #expect(last.firing.sound == "click" && last.firing.sceneTime == Self.stop)
        #expect(notes.allSatisfy { $0.firing.sceneTime < Self.stop })

        // In the mix's commands: each note's voice starts on its sample and is the tine at its note's frequency.
        let folder = Self.example.deletingLastPathComponent().path
        let audio = PlaylistAudio(document: document, directory: folder)
        #expect(audio.warnings.isEmpty, "\(audio.warnings)")
        let starts = audio.commands(playingOnce: schedule).compactMap { command -> VoiceStart? in
            if case .start(let start) = command, PlaylistAudio.isCueTag(start.tag) { start } else { nil }
        }.filter { audio.bank.sounds[$0.sound].frameCount > 4_800 }  // the tine's copies, not the clicks (30 ms)
        #expect(starts.map(\.frame) == notes.map(\.sampleIndex))
        for (start, pluck) in zip(starts, expected) {
            let samples = audio.bank.sounds[start.sound].storedSamples
            let heard = Self.frequency(samples, frames: 2_400..<14_400)
            let note = 523.25 * pow(2, Double(Self.semitones[pluck.note]!) / 12)
            #expect(abs(heard / note - 1) < 0.01, "\(pluck.note): \(heard) Hz, not \(note)")
            // Heard from its first sample: the tine rises in 1 ms.
            #expect(samples.prefix(48).contains { abs($0) > 0.01 }, "\(pluck.note)")
        }
    }

    @Test func eachPluckMovesItsTineAndTheSecondTapStopsDrumAndTines() throws {
        let scene = try Self.document().document.scenes[0]
        func rotation(_ note: String, _ time: Rational) -> Double? {
            NodePropertyValues.value(of: .rotation, node: "tine[\(Self.comb.firstIndex(of: note)!)]", in: scene, at: time.doubleValue)
        }
        for (index, pluck) in Self.plucks.enumerated() {
            // Released on its marker's frame, it springs through 3° 40 ms later; on every turn after the first, the
            // pin bends it back as it comes (by up to 3°) until that frame.
            #expect(rotation(pluck.note, pluck.time) == 0, "\(pluck)")
            #expect(abs((rotation(pluck.note, pluck.time + Rational(1, 25)) ?? 0) - 3) < 1e-6, "\(pluck)")
            let bent = rotation(pluck.note, pluck.time - Rational(1, 10)) ?? 0
            #expect(index < 8 ? bent == 0 : bent < -0.3 && bent > -3, "\(pluck): \(bent)")
        }
        // Before its first pluck a tine is still, and once the box has stopped every tine is at rest.
        #expect(rotation("G5", Self.start + Rational(1, 10)) == 0)
        for note in Self.comb {
            #expect(abs(rotation(note, Self.stop + Rational(3, 10)) ?? 1) < 1e-9, "\(note)")
            #expect(abs(rotation(note, Rational(14)) ?? 1) < 1e-9, "\(note)")
        }
        // The drum holds the frame it showed just before the tap: (7.5 − 1) × 30 = 195 frames in, so frame 74.
        let resolved = scene.resolvingStarts()
        guard case .lottie(let drum) = resolved.nodes[2].content else { Issue.record("no drum"); return }
        let frames = [Rational(7), Self.stop, Rational(12)].map { LottieTiming(drum).frame(at: $0) }
        #expect(frames == [(6 * 30) % 120, 74, 74])
    }

    @Test func theTutorialShowsTheShippedExampleWithItsPathsFromTheRepository() throws {
        let example = try String(contentsOf: Self.example, encoding: .utf8)
            .replacingOccurrences(of: "../../media/", with: "media/")
            .replacingOccurrences(of: #""../scenes.schema.json""#, with: #""docs/scenes.schema.json""#)
        let tutorial = try String(contentsOf: Self.root.appendingPathComponent("docs/COMPOSING.md"), encoding: .utf8)
        #expect(tutorial.contains("```json\n" + example + "```\n"))
    }

    @Test func withPatternsTheBoxIsAtMostHalfTheJSONWrittenByHandAndTheSame() throws {
        let patterned = try Data(contentsOf: Self.example).count
        let written = try Data(contentsOf: Self.byHand).count
        #expect(patterned * 2 <= written, "\(patterned) bytes with patterns, \(written) by hand")

        let pattern = try Self.document(), hand = try Self.document(Self.byHand)
        #expect(hand.warnings.isEmpty, "\(hand.warnings)")
        let a = CueSchedule(document: pattern.document, sampleRate: Self.rate), b = CueSchedule(document: hand.document, sampleRate: Self.rate)
        #expect(a.cues.map(\.sampleIndex) == b.cues.map(\.sampleIndex))
        #expect(a.cues.map(\.firing.pitch) == b.cues.map(\.firing.pitch))
        for (index, _) in Self.comb.enumerated() {
            for time in stride(from: 0.0, to: 16, by: 0.05) {
                let mine = NodePropertyValues.value(of: .rotation, node: "tine[\(index)]", in: pattern.document.scenes[0], at: time)
                let theirs = NodePropertyValues.value(of: .rotation, node: "tine\(index)", in: hand.document.scenes[0], at: time)
                #expect(mine == theirs, "tine \(index) at \(time) s")
            }
        }
    }
}
