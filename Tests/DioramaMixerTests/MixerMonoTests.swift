import DioramaMixer
import DioramaTestSupport
import Testing

/// Mono sounds are kept as one channel and played centred (MixerSound.swift): what the mixer makes of them is, sample
/// for sample, what it makes of their stereo copies.
@Suite struct MixerMonoTests {
    /// The same commands on mono sounds and on stereo copies of them: a panned one-shot with a fade-in, a loop stopped
    /// with a fade, a ducking cue over a looping bed that varies (so a wrong read in the ducked path shows), and a start
    /// sent late and caught up (joining its sound part way), in blocks of several sizes.
    @Test(arguments: [64, 256, 1000])
    func aMonoSoundMixesAsItsStereoCopy(blockSize: Int) {
        let mono = [ringing(frames: 6000), loopingSine(frames: 4800, cycles: 7), loopingSine(frames: 4410, cycles: 3),
                    constant(0, frames: 9000)]
        let stereo = mono.map { MixerSound(name: $0.name, interleavedStereo: $0.interleavedSamples) }
        #expect(mono.allSatisfy { $0.channels == 1 } && stereo.allSatisfy { $0.channels == 2 })
        #expect(zip(mono, stereo).allSatisfy { $0.frameCount == $1.frameCount })
        func mixed(_ sounds: [MixerSound], catchingUp: Bool = true) -> [Float] {
            let mixer = Mixer(sounds: sounds)
            for command: MixerCommand in [
                .start(VoiceStart(sound: 2, frame: 0, loops: true, tag: 1, priority: .ambience)),
                .start(VoiceStart(sound: 0, frame: 130, gain: 0.8, pan: -0.6, fadeInFrames: 900, tag: 2)),
                .start(VoiceStart(sound: 1, frame: 700, gain: 0.5, pan: 0.4, loops: true, tag: 3)),
                .stop(tag: 3, frame: 9100, fadeFrames: 2000),
                .start(VoiceStart(sound: 3, frame: 5000, tag: 4, duck: VoiceDuck(gain: 0.25, attackFrames: 480, releaseFrames: 960))),
            ] { mixer.send(command) }
            var output = render(mixer, frames: 3000, blockSize: blockSize)
            // Sent at frame 3000 for frame 1200: it joins its sound 1800 frames in.
            if catchingUp { mixer.send(.start(VoiceStart(sound: 0, frame: 1200, gain: 0.3, pan: 1, tag: 5, catchUp: true))) }
            output += render(mixer, frames: 13_000, blockSize: blockSize)
            return output
        }
        let fromMono = mixed(mono), fromStereo = mixed(stereo)
        #expect(firstDifference(fromMono, fromStereo) == nil, "first differing sample: \(firstDifference(fromMono, fromStereo) ?? -1)")
        // Something was heard on both channels, differently (the pans).
        #expect(channel(fromMono, 0) != channel(fromMono, 1) && fromMono.contains { abs($0) > 0.1 })
        // The caught-up start sounds at once (from part way into its sound): the mix without it is the same up to frame
        // 3000 and differs right after.
        let without = mixed(mono, catchingUp: false)
        #expect(frames(fromMono, 0..<3000) == frames(without, 0..<3000) && frames(fromMono, 3000..<3010) != frames(without, 3000..<3010))
    }

    /// A stereo sound whose channels differ keeps them apart and in place: centred at unity, through a fade-in, under
    /// a duck (as ambience) and as it is stopped, each output channel is its own channel of the sound.
    @Test func aStereoSoundKeepsItsChannelsInPlace() {
        let frames = 6000
        let left = (0..<frames).map { Float(sinApprox(Double($0) * 0.05)) * 0.5 }
        let right = (0..<frames).map { Float($0 % 100) / 400 - 0.1 }
        let sound = MixerSound(name: "apart", interleavedStereo: zip(left, right).flatMap { [$0, $1] })
        let silent = constant(0, frames: 3000)
        for priority in [VoicePriority.cue, .ambience] {
            let output = render([sound, silent], [
                .start(VoiceStart(sound: 0, frame: 0, fadeInFrames: 700, tag: 1, priority: priority)),
                .start(VoiceStart(sound: 1, frame: 1500, tag: 2, duck: VoiceDuck(gain: 0.5, attackFrames: 300, releaseFrames: 300))),
                .stop(tag: 1, frame: 5000, fadeFrames: 400),
            ], frames: frames, blockSize: 256)
            // The same envelope (fade-in, duck, stop) scales both channels at each frame: the output's left and right
            // are the sound's, each times that envelope.
            var checked = 0
            for index in 0..<frames where abs(left[index]) > 0.05 && abs(right[index]) > 0.05 {
                let envelopeLeft: Float = output[2 * index] / left[index], envelopeRight: Float = output[2 * index + 1] / right[index]
                #expect(abs(envelopeLeft - envelopeRight) < Float(1e-4), "frame \(index), \(priority): \(envelopeLeft) against \(envelopeRight)")
                checked += 1
                if checked > 3000 { break }
            }
            #expect(checked > 1000)
        }
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
