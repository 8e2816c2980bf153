import DioramaMixer
import DioramaTestSupport
import Testing

/// Mono sounds are kept as one channel and played centred (MixerSound.swift): what the mixer makes of them is, sample
/// for sample, what it makes of their stereo copies.
@Suite struct MixerMonoTests {
    /// The same commands on mono sounds and on stereo copies of them: a panned one-shot with a fade-in, a loop stopped
    /// with a fade, a late start caught up, and a ducking cue over a looping bed, in blocks of several sizes.
    @Test(arguments: [64, 256, 1000])
    func aMonoSoundMixesAsItsStereoCopy(blockSize: Int) {
        let mono = [ringing(frames: 6000), loopingSine(frames: 4800, cycles: 7), constant(0.5, frames: 4800), constant(0, frames: 9000)]
        let stereo = mono.map { MixerSound(name: $0.name, interleavedStereo: $0.interleavedSamples) }
        #expect(mono.allSatisfy { $0.channels == 1 } && stereo.allSatisfy { $0.channels == 2 })
        #expect(zip(mono, stereo).allSatisfy { $0.frameCount == $1.frameCount })
        let commands: [MixerCommand] = [
            .start(VoiceStart(sound: 2, frame: 0, loops: true, tag: 1, priority: .ambience)),
            .start(VoiceStart(sound: 0, frame: 130, gain: 0.8, pan: -0.6, fadeInFrames: 900, tag: 2)),
            .start(VoiceStart(sound: 1, frame: 700, gain: 0.5, pan: 0.4, loops: true, tag: 3)),
            .stop(tag: 3, frame: 9100, fadeFrames: 2000),
            .start(VoiceStart(sound: 3, frame: 5000, tag: 4, duck: VoiceDuck(gain: 0.25, attackFrames: 480, releaseFrames: 960))),
            .start(VoiceStart(sound: 0, frame: 2, gain: 0.3, pan: 1, tag: 5, catchUp: true)),
        ]
        let fromMono = render(mono, commands, frames: 16_000, blockSize: blockSize)
        let fromStereo = render(stereo, commands, frames: 16_000, blockSize: blockSize)
        #expect(firstDifference(fromMono, fromStereo) == nil, "first differing sample: \(firstDifference(fromMono, fromStereo) ?? -1)")
        // Something was heard on both channels, differently (the pans).
        #expect(channel(fromMono, 0) != channel(fromMono, 1) && fromMono.contains { abs($0) > 0.1 })
    }

    /// A mono sound reads back as stereo with the signal on both channels; an empty one has no frames.
    @Test func aMonoSoundReadsBackCentred() {
        let sound = MixerSound(name: "three", mono: [0.25, -0.5, 1])
        #expect(sound.frameCount == 3 && sound.channels == 1)
        #expect(sound.interleavedSamples == [0.25, 0.25, -0.5, -0.5, 1, 1])
        let empty = MixerSound(name: "none", mono: [])
        #expect(empty.frameCount == 0 && empty.interleavedSamples.isEmpty)
    }
}
