import DioramaMixer
import DioramaTestSupport
import Testing

@Suite struct MixerEnvelopeTests {
    @Test("constant-power pan: unity at the centre, constant power everywhere")
    func panLaw() {
        let centre = constantPowerGains(pan: 0)
        #expect(abs(centre.left - 1) < 1e-6 && abs(centre.right - 1) < 1e-6)
        for pan in stride(from: Float(-1), through: 1, by: 0.125) {
            let gains = constantPowerGains(pan: pan)
            #expect(abs(gains.left * gains.left + gains.right * gains.right - 2) < 1e-5)
        }
        #expect(constantPowerGains(pan: -1).right < 1e-6)
        #expect(constantPowerGains(pan: 1).left < 1e-6)
    }

    @Test("fade-in ramps linearly from silence to the voice's gain")
    func fadeIn() {
        let mixer = Mixer(sounds: [constant(0.5, frames: 10_000)])
        mixer.send(.start(VoiceStart(sound: 0, frame: 100, fadeInFrames: 1000)))
        let left = channel(render(mixer, frames: 3000, blockSize: 300), 0)
        #expect(left[99] == 0)
        #expect(left[100] == 0)
        #expect(abs(left[600] - 0.25) < 1e-6)
        #expect(left[1100] == 0.5)
        #expect(largestJump(left) <= 0.5 / 1000 + 1e-6)
    }

    @Test("a stop with no fade still ramps over at least 5 ms, then the voice is silent")
    func stopNeverClicks() {
        let mixer = Mixer(sounds: [constant(0.8, frames: 48_000)])
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, tag: 9)))
        mixer.send(.stop(tag: 9, frame: 1000, fadeFrames: 0))
        let left = channel(render(mixer, frames: 2000, blockSize: 256), 0)
        #expect(left[999] > 0.79)
        #expect(left[1000 + 239] > 0)
        #expect(left[(1000 + 240)...].allSatisfy { $0 == 0 })
        #expect(largestJump(left) <= 0.8 / 240 + 1e-5)
    }

    @Test("fades, loops and stops of a looping sine never jump more than the sine itself")
    func loopFadeStopContinuity() {
        // 441 frames, 10 cycles: the steepest step of the sine itself is 0.5 * 2pi * 10 / 441.
        let sine = loopingSine(frames: 441, cycles: 10)
        let sineStep: Float = 0.5 * 2 * .pi * 10 / 441
        let mixer = Mixer(sounds: [sine])
        mixer.send(.start(VoiceStart(sound: 0, frame: 3, gain: 1, pan: 0.3, fadeInFrames: 2400, loops: true, tag: 1)))
        mixer.send(.stop(tag: 1, frame: 20_000, fadeFrames: 4800))
        let out = render(mixer, frames: 30_000, blockSize: 333)
        for index in 0..<2 {
            let samples = channel(out, index)
            #expect(largestJump(samples) <= sineStep * 1.42 + 1e-4)
            #expect(samples[25_000...].allSatisfy { $0 == 0 })
        }
    }

    @Test("a looping voice repeats its sound frame for frame across the seam")
    func seamlessLoop() {
        let sine = loopingSine(frames: 441, cycles: 10)
        let mixer = Mixer(sounds: [sine])
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true)))
        let left = channel(render(mixer, frames: 441 * 5, blockSize: 100), 0)
        let source = channel(sine.interleavedSamples, 0)
        for (index, sample) in left.enumerated() { #expect(sample == source[index % 441]) }
    }

    @Test("a one-shot voice ends with its sound and frees its slot")
    func oneShotEnds() {
        let mixer = Mixer(sounds: [constant(0.5, frames: 100)], configuration: MixerConfiguration(voiceLimit: 1))
        mixer.send(.start(VoiceStart(sound: 0, frame: 0)))
        mixer.send(.start(VoiceStart(sound: 0, frame: 200)))
        let left = channel(render(mixer, frames: 400, blockSize: 64), 0)
        #expect(left[0..<100].allSatisfy { $0 == 0.5 })
        #expect(left[100..<200].allSatisfy { $0 == 0 })
        #expect(left[200..<300].allSatisfy { $0 == 0.5 })
        #expect(mixer.statistics.voicesStolen == 0)
    }

    @Test("a stop sent before its voice has started still applies once it starts")
    func stopBeforeStart() {
        let mixer = Mixer(sounds: [constant(0.5, frames: 10_000)])
        mixer.send(.start(VoiceStart(sound: 0, frame: 1000, tag: 4)))
        mixer.send(.start(VoiceStart(sound: 0, frame: 3000, tag: 4)))  // after the stop: never sounds
        mixer.send(.stop(tag: 4, frame: 2000, fadeFrames: 480))
        let left = channel(render(mixer, frames: 4000, blockSize: 512), 0)
        #expect(left[1500] == 0.5)
        #expect(left[(2000 + 480)...].allSatisfy { $0 == 0 })
    }
}
