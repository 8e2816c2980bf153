import DioramaAudio
import DioramaDocument
import DioramaMixer
@testable import DioramaPlayer

/// The production mapping from sequencer events to mixer commands, over sounds with no files behind them.
enum PlayerSounds {
    /// `document`'s sounds, every one silent (no file is found), at the indexes the document gives them.
    static func bank(_ document: Document, sampleRate: Int = 48_000) -> SoundBank {
        SoundBank(document: document, directory: "/nonexistent-diorama-test-sounds", sampleRate: sampleRate)
    }

    /// `PlaylistAudio(document:bank:).commands(for:)` over the silent bank.
    static func commands(_ document: Document, sampleRate: Int = 48_000) -> PlaylistPlayback.SoundCommands {
        PlaylistAudio(document: document, bank: bank(document, sampleRate: sampleRate)).commands(for:)
    }
}

/// What a mixer does with the commands an output received, by the mixer's contract, in the order they came:
/// a `.stop` ends its tag's voices from its frame and forgets its tag's starts at or after that frame; a
/// `.revoke(fromFrame:)` forgets the starts and cancels the stops at or after its frame. (Every command acts at or
/// after the write frame it was sent at, so what it touches has not happened yet.)
struct MixerModel {
    struct Voice {
        var start: VoiceStart
        /// The frame a stop ends the voice at; nil while nothing stops it.
        var stoppedAt: Int64?
    }

    private(set) var voices: [Voice] = []

    init(_ commands: [(command: MixerCommand, writeFrame: Int64)]) {
        for (command, _) in commands {
            switch command {
            case .start(let start):
                voices.append(Voice(start: start))
            case .stop(let tag, let frame, _):
                voices.removeAll { $0.start.tag == tag && $0.start.frame >= frame }
                for index in voices.indices where voices[index].start.tag == tag {
                    voices[index].stoppedAt = min(voices[index].stoppedAt ?? .max, frame)
                }
            case .revoke(let frame):
                voices.removeAll { $0.start.frame >= frame }
                for index in voices.indices where (voices[index].stoppedAt ?? .min) >= frame { voices[index].stoppedAt = nil }
            case .stopAll, .pause, .resume, .volume:
                break
            }
        }
    }

    /// The one-shot starts that sound, in frame order.
    var cueStarts: [VoiceStart] { voices.map(\.start).filter { !$0.loops }.sorted { $0.frame < $1.frame } }

    /// The frames at which looping voices tagged `tag` start.
    func bedStarts(tag: UInt32) -> [Int64] { voices.filter { $0.start.loops && $0.start.tag == tag }.map(\.start.frame) }

    /// Whether a looping voice tagged `tag` plays at `frame` (started, and not stopped by then).
    func bedPlays(tag: UInt32, at frame: Int64) -> Bool {
        voices.contains { voice in
            voice.start.loops && voice.start.tag == tag && voice.start.frame <= frame && (voice.stoppedAt ?? .max) > frame
        }
    }
}

/// What a real mixer plays for the commands an output received, each sent when the write frame reached the frame it
/// was sent at (as the audio thread takes them): the loudest of the two channels at each frame, for `frames` frames.
/// `sounds` stand in for the bank's sounds, at the same indexes.
func heardLevels(_ commands: [(command: MixerCommand, writeFrame: Int64)], sounds: [MixerSound], frames: Int) -> [Float] {
    let mixer = Mixer(sounds: sounds)
    var levels: [Float] = []
    levels.reserveCapacity(frames)
    var block = [Float](repeating: 0, count: 2 * 256)
    var next = 0
    var frame: Int64 = 0
    while frame < Int64(frames) {
        while next < commands.count, commands[next].writeFrame <= frame {
            _ = mixer.send(commands[next].command)
            next += 1
        }
        let until = next < commands.count ? min(commands[next].writeFrame, Int64(frames)) : Int64(frames)
        let count = Int(min(max(until - frame, 1), 256))
        block.withUnsafeMutableBufferPointer { mixer.render(into: $0.baseAddress!, frames: count) }
        for index in 0..<count { levels.append(max(abs(block[2 * index]), abs(block[2 * index + 1]))) }
        frame += Int64(count)
    }
    return levels
}
