import DioramaAudio
import DioramaMixer
import DioramaSynthesis
import DioramaTestSupport
import Foundation
import Testing

@Suite struct OfflineAudioTests {
    static let sampleRate: Int64 = 48_000

    /// Cue frames as a schedule computes them: ceil(t × rate) for awkward rational times
    /// (29.97 fps frames, thirds of a second) spread over `minutes`.
    static func awkwardFrames(minutes: Int) -> [Int64] {
        var frames: [Int64] = []
        var index: Int64 = 0
        while true {
            // t = index × 1001/30000 × 37 seconds, plus a third of a second every other cue.
            let numerator = index * 1001 * 37 * 3 + (index % 2) * 30_000
            let denominator: Int64 = 30_000 * 3
            let frame = (numerator * sampleRate + denominator - 1) / denominator
            if frame >= Int64(minutes) * 60 * sampleRate { break }
            frames.append(frame)
            index += 1
        }
        return frames
    }

    /// Frames where the left channel leaves silence (the first non-zero sample after at least 100 zeros).
    static func onsets(_ left: [Int16]) -> [Int64] {
        var result: [Int64] = []
        var silent = 100
        for (index, sample) in left.enumerated() {
            if sample == 0 {
                silent += 1
            } else {
                if silent >= 100 { result.append(Int64(index)) }
                silent = 0
            }
        }
        return result
    }

    static func readWAV16(_ path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        // The canonical 44-byte header libsndfile writes for 16-bit PCM WAV.
        #expect(data.count > 44)
        return data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    static func clickSound() throws -> MixerSound {
        let click = try #require(ProjectSounds.make("click"))
        return MixerSound(name: "click", mono: click.samples)
    }

    @Test("every click onset in the WAV lands on its cue's sample, over three minutes, with beds underneath silent")
    func clickOnsetsExact() throws {
        let folder = try TemporaryFolder()
        let frames = Self.awkwardFrames(minutes: 3)
        #expect(frames.count > 100)
        let cues = frames.enumerated().map { (frame: $1, sound: 0, gain: Float(1), pan: Float($0 % 3) - 1) }
        let commands = sceneCommands(scenes: [(start: 0, end: 3 * 60 * Self.sampleRate, beds: [])], cues: cues)
        let result = try OfflineAudio.render(commands: commands, sounds: [Self.clickSound()], span: 0..<(3 * 60 * Self.sampleRate),
                                             to: folder.path("clicks.wav"))
        #expect(result.frames == 3 * 60 * Self.sampleRate)
        let pcm = try Self.readWAV16(folder.path("clicks.wav"))
        let left = stride(from: 0, to: pcm.count, by: 2).map { pcm[$0] }
        let right = stride(from: 1, to: pcm.count, by: 2).map { pcm[$0] }
        // Hard-right cues leave the left channel silent, so merge both channels' onsets.
        let found = Set(Self.onsets(left)).union(Self.onsets(right)).sorted()
        #expect(found == frames)
        #expect(result.statistics.lateStarts == 0 && result.statistics.startsDropped == 0)
    }

    @Test("the same render twice gives byte-identical files; a span equals that slice of the whole")
    func deterministicAndSpans() throws {
        let folder = try TemporaryFolder()
        let bed = MixerSound(name: "bed", mono: (0..<4410).map { Float(sin(Double($0) * 2 * .pi * 10 / 4410) * 0.3) })
        let sounds = [bed, try Self.clickSound()]
        let commands = sceneCommands(
            scenes: [
                (start: 0, end: 100_000, beds: [TestBed(sound: 0, gain: 0.5, fadeInFrames: 4800, fadeOutFrames: 9600)]),
                (start: 100_000, end: 200_000, beds: [TestBed(sound: 0, gain: 0.8, fadeInFrames: 9600, fadeOutFrames: 4800)]),
            ],
            cues: [(frame: 50_001, sound: 1, gain: 1, pan: 0), (frame: 150_003, sound: 1, gain: 0.5, pan: 0.5)])
        _ = try OfflineAudio.render(commands: commands, sounds: sounds, span: 0..<200_000, to: folder.path("a.wav"))
        _ = try OfflineAudio.render(commands: commands, sounds: sounds, span: 0..<200_000, to: folder.path("b.wav"))
        let first = try Data(contentsOf: URL(fileURLWithPath: folder.path("a.wav")))
        #expect(first == (try Data(contentsOf: URL(fileURLWithPath: folder.path("b.wav")))))
        #expect(first.count == 44 + 200_000 * 4)

        let whole = OfflineAudio.mix(commands: commands, sounds: sounds, span: 0..<200_000)
        let span = OfflineAudio.mix(commands: commands, sounds: sounds, span: 120_000..<180_000)
        #expect(span == Array(whole[240_000..<360_000]))
        // The cross-fade between the scenes' beds is continuous.
        let left = stride(from: 0, to: whole.count, by: 2).map { whole[$0] }
        let jump = zip(left, left.dropFirst()).map { abs($1 - $0) }.enumerated().filter { !(50_000...51_500).contains($0.offset) && !(150_002...151_500).contains($0.offset) }.map(\.element).max() ?? 1
        #expect(jump < 0.02)
    }

    @Test("an unwritable output path is a clear error")
    func unwritable() throws {
        let error = #expect(throws: SoundWriteError.self) {
            try OfflineAudio.render(commands: [], sounds: [], span: 0..<10, to: "/nonexistent-folder/out.wav")
        }
        #expect(error?.description.contains("/nonexistent-folder/out.wav") == true)
    }
}
