import DioramaMixer
import DioramaTestSupport
import Testing

@Suite struct MixerVoiceLimitTests {
    @Test("at the limit, the oldest cue is stolen with a 5 ms fade from the newcomer's first frame")
    func oldestCueStolen() {
        let config = MixerConfiguration(voiceLimit: 3)
        let sounds = (1...4).map { constant(Float($0) / 20, frames: 10_000) }
        let mixer = Mixer(sounds: sounds, configuration: config)
        for index in 0..<3 { mixer.send(.start(VoiceStart(sound: index, frame: Int64(index)))) }
        mixer.send(.start(VoiceStart(sound: 3, frame: 500)))
        let left = channel(render(mixer, frames: 1000, blockSize: 128), 0)
        #expect(abs(left[499] - 0.3) < 1e-6)  // 0.05 + 0.1 + 0.15
        #expect(abs(left[500 + 240] - 0.45) < 1e-6)  // 0.1 + 0.15 + 0.2: the 0.05 voice went
        #expect(largestJump(Array(left[501..<999])) <= 0.05 / 240 + 1e-6)
        #expect(mixer.statistics.voicesStolen == 1)
    }

    @Test("a cue never steals an ambience bed; it is dropped and counted")
    func cueDoesNotStealAmbience() {
        let mixer = Mixer(sounds: [constant(0.1, frames: 10_000)], configuration: MixerConfiguration(voiceLimit: 2))
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, priority: .ambience)))
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, priority: .ambience)))
        mixer.send(.start(VoiceStart(sound: 0, frame: 100, priority: .cue)))
        let left = channel(render(mixer, frames: 400, blockSize: 128), 0)
        #expect(left[300] == 0.2)
        #expect(mixer.statistics.startsDropped == 1)
        #expect(mixer.statistics.voicesStolen == 0)
    }

    @Test("an ambience bed steals a cue before another bed")
    func ambienceStealsCueFirst() {
        let sounds = [constant(0.1, frames: 10_000), constant(0.2, frames: 10_000), constant(0.4, frames: 10_000)]
        let mixer = Mixer(sounds: sounds, configuration: MixerConfiguration(voiceLimit: 2))
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, priority: .ambience)))
        mixer.send(.start(VoiceStart(sound: 1, frame: 10, priority: .cue)))
        mixer.send(.start(VoiceStart(sound: 2, frame: 100, loops: true, priority: .ambience)))
        let left = channel(render(mixer, frames: 1000, blockSize: 128), 0)
        #expect(abs(left[900] - 0.5) < 1e-6)  // the first bed and the new bed remain
        #expect(mixer.statistics.voicesStolen == 1)
    }

    @Test("far more starts than slots: no crash, the limit holds")
    func floodOfStarts() {
        let mixer = Mixer(sounds: [constant(0.01, frames: 4800)], configuration: MixerConfiguration(voiceLimit: 8, pendingLimit: 64))
        for index in 0..<60 { mixer.send(.start(VoiceStart(sound: 0, frame: Int64(index)))) }
        let left = channel(render(mixer, frames: 2000, blockSize: 256), 0)
        #expect(left[1000] <= 0.08 + 1e-6)
        #expect(mixer.statistics.voicesStolen == 52)
    }
}
