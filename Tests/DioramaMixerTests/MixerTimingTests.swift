import DioramaMixer
import DioramaTestSupport
import Testing

@Suite struct MixerTimingTests {
    @Test("a voice's first sample lands on its start frame, mid-block included", arguments: [1, 64, 100, 256, 4096])
    func sampleExactStarts(blockSize: Int) {
        let mixer = Mixer(sounds: [impulse()])
        let starts: [Int64] = [0, 37, 255, 256, 1000, 4095, 4096, 9999]
        for start in starts { mixer.send(.start(VoiceStart(sound: 0, frame: start))) }
        let left = channel(render(mixer, frames: 12_000, blockSize: blockSize), 0)
        let onsets = left.indices.filter { left[$0] != 0 }.map(Int64.init)
        #expect(onsets == starts)
        #expect(mixer.framesRendered == 12_000)
    }

    @Test("output does not depend on the block size")
    func blockSizeIndependence() {
        func mix(blockSize: Int) -> [Float] {
            let mixer = Mixer(sounds: [loopingSine(frames: 480, cycles: 3), constant(0.25, frames: 3000)])
            mixer.send(.start(VoiceStart(sound: 0, frame: 10, gain: 0.7, pan: -0.4, fadeInFrames: 1234, loops: true, tag: 1)))
            mixer.send(.start(VoiceStart(sound: 1, frame: 777, pan: 0.9, fadeInFrames: 50)))
            mixer.send(.stop(tag: 1, frame: 5000, fadeFrames: 999))
            return render(mixer, frames: 8000, blockSize: blockSize)
        }
        let reference = mix(blockSize: 8000)
        for size in [1, 7, 128, 441, 1024] { #expect(mix(blockSize: size) == reference) }
    }

    @Test("a start whose frame has passed plays at once and is counted as late")
    func lateStart() {
        let mixer = Mixer(sounds: [impulse()])
        _ = render(mixer, frames: 512, blockSize: 256)
        mixer.send(.start(VoiceStart(sound: 0, frame: 100)))
        let left = channel(render(mixer, frames: 256, blockSize: 256), 0)
        #expect(left[0] != 0)
        #expect(mixer.statistics.lateStarts == 1)
    }

    @Test("a start naming no sound is dropped, not a crash")
    func unknownSound() {
        let mixer = Mixer(sounds: [impulse()])
        mixer.send(.start(VoiceStart(sound: 5, frame: 0)))
        mixer.send(.start(VoiceStart(sound: -1, frame: 0)))
        let out = render(mixer, frames: 256, blockSize: 256)
        #expect(out.allSatisfy { $0 == 0 })
        #expect(mixer.statistics.startsDropped == 2)
    }
}

@Suite struct MixerCatchUpTests {
    @Test("a catch-up start in the past joins the voice where it would be: a later slice equals the full render")
    func catchUpMatchesFullRender() {
        let sounds = [loopingSine(frames: 441, cycles: 7), constant(0.1, frames: 3000)]
        let full = Mixer(sounds: sounds)
        full.send(.start(VoiceStart(sound: 0, frame: 100, fadeInFrames: 2000, loops: true, catchUp: true)))
        full.send(.start(VoiceStart(sound: 1, frame: 500, catchUp: true)))
        let whole = render(full, frames: 6000, blockSize: 256)

        let slice = Mixer(sounds: sounds)
        // The same starts, on a clock that begins at frame 1000 of the full render.
        slice.send(.start(VoiceStart(sound: 0, frame: 100 - 1000, fadeInFrames: 2000, loops: true, catchUp: true)))
        slice.send(.start(VoiceStart(sound: 1, frame: 500 - 1000, catchUp: true)))
        let part = render(slice, frames: 5000, blockSize: 256)
        #expect(part == Array(whole[2000...]))
        #expect(slice.statistics.lateStarts == 0)
    }

    @Test("a catch-up one-shot that has already ended does not sound")
    func endedOneShot() {
        let mixer = Mixer(sounds: [constant(0.1, frames: 100)])
        mixer.send(.start(VoiceStart(sound: 0, frame: -500, catchUp: true)))
        #expect(render(mixer, frames: 256, blockSize: 256).allSatisfy { $0 == 0 })
    }

    @Test("revoke forgets waiting starts from its frame on, keeping earlier ones")
    func revoke() {
        let mixer = Mixer(sounds: [impulse()])
        for frame: Int64 in [10, 300, 600] { mixer.send(.start(VoiceStart(sound: 0, frame: frame))) }
        mixer.send(.revoke(fromFrame: 300))
        let left = channel(render(mixer, frames: 1000, blockSize: 128), 0)
        #expect(left.indices.filter { left[$0] != 0 } == [10])
    }
}
