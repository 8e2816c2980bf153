import DioramaAudio
import DioramaMixer
@testable import DioramaPlayer

/// A sound output whose clock the caller moves by hand; it records every command.
final class ManualSoundOutput: SoundOutput {
    let sampleRate: Int
    /// The frame being heard.
    var heard: Double = 0
    /// Frames rendered ahead of what is heard (the device's latency), in frames.
    var latency: Int64 = 0
    var volume: Float = 1
    var isLive: Bool = true
    var commandMargin: Int64 = 0
    /// Every command sent, with the write frame at the time.
    private(set) var commands: [(command: MixerCommand, writeFrame: Int64)] = []

    init(sampleRate: Int = 48_000) {
        self.sampleRate = sampleRate
    }

    /// When set, the write frame reads `frames` further on after its first reading (an audio thread that renders on
    /// while the reader is held up), until cleared.
    var rendersOn: (frames: Int64, readings: Int)?

    func heardFrame() -> Double { heard }

    func writeFrame() -> Int64 {
        var frame = Int64(heard.rounded(.down)) + latency
        if let on = rendersOn {
            if on.readings > 0 { frame += on.frames }
            rendersOn = (on.frames, on.readings + 1)
        }
        return frame
    }

    func send(_ command: MixerCommand) -> Bool {
        commands.append((command, writeFrame()))
        return true
    }

    /// The voice starts sent so far.
    var starts: [VoiceStart] {
        commands.compactMap { if case .start(let start) = $0.command { start } else { nil } }
    }

    func clearCommands() { commands.removeAll() }
}

/// Moves `output`'s heard clock to `frame`, updating `playback` every 800 frames (a 60 Hz window frame) on the way.
func play(_ playback: PlaylistPlayback, _ output: ManualSoundOutput, to frame: Double) {
    while output.heard + 800 < frame {
        output.heard += 800
        playback.update()
    }
    output.heard = frame
    playback.update()
}
