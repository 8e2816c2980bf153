import DioramaMixer
import DioramaTestSupport
import Foundation
import Testing

@Suite struct SoftLimiterTests {
    @Test("32 full-scale voices in phase never exceed the ceiling")
    func ceilingHolds() {
        let mixer = Mixer(sounds: [loopingSine(frames: 480, cycles: 1, amplitude: 1)])
        for _ in 0..<32 { mixer.send(.start(VoiceStart(sound: 0, frame: 0, pan: 1, loops: true))) }
        let out = render(mixer, frames: 48_000, blockSize: 512)
        let peak = out.map(abs).max() ?? 0
        #expect(peak <= SoftLimiter().ceiling)
        #expect(peak > 0.95)
        // Once the attack has pulled the gain down (a few ms), the output is a smooth sine again.
        #expect(largestJump(Array(channel(out, 1)[2400...])) < 0.02)
    }

    @Test("the listener's volume at 150 % of a full-scale scene does not clip: the limiter after it holds it below full scale")
    func loudSceneTurnedUpDoesNotClip() {
        let mixer = Mixer(sounds: [loopingSine(frames: 480, cycles: 1, amplitude: 1)])
        // Centred, a sine of amplitude 1 is full scale on both channels.
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true)))
        mixer.send(.volume(gain: Mixer.volumeRange.upperBound, fadeFrames: 0))
        let right = channel(render(mixer, frames: 48_000, blockSize: 512), 1)
        let peak = right.map(abs).max() ?? 0
        #expect(peak <= SoftLimiter().ceiling && peak < 1, "below full scale: never clamped to it")
        #expect(peak > 0.95)
        // Turned up rather than flattened: once the attack has pulled the gain down, a smooth sine again.
        #expect(largestJump(Array(right[2400...])) < 0.02)
    }

    @Test("a change of volume ramps over its fade, the same in any block size, and is clamped to the range")
    func volumeRamps() {
        func mix(blockSize: Int) -> [Float] {
            let mixer = Mixer(sounds: [constant(0.5, frames: 4800)])
            mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true)))
            var output = render(mixer, frames: 1000, blockSize: blockSize)
            mixer.send(.volume(gain: 0.2, fadeFrames: 960))
            output += render(mixer, frames: 3000, blockSize: blockSize)
            mixer.send(.volume(gain: 9, fadeFrames: 0))
            output += render(mixer, frames: 1000, blockSize: blockSize)
            return channel(output, 1)
        }
        let right = mix(blockSize: 100)
        #expect(right == mix(blockSize: 1000))
        #expect(right[..<1000].allSatisfy { $0 == 0.5 })
        let ramp = right[1000..<1960]
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $0 > $1 && $0 - $1 < 0.001 }, "down without a step")
        #expect(right[1960..<4000].allSatisfy { abs($0 - 0.1) < 1e-6 })
        // 9 is taken as 1.5, at once.
        #expect(right[4000...].allSatisfy { $0 == 0.75 })
    }

    @Test("a signal below the threshold passes bit-exact")
    func transparentBelowThreshold() {
        let sine = loopingSine(frames: 480, cycles: 1, amplitude: 0.8)
        let mixer = Mixer(sounds: [sine])
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true)))
        let left = channel(render(mixer, frames: 4800, blockSize: 256), 0)
        let source = channel(sine.interleavedSamples, 0)
        #expect(left.enumerated().allSatisfy { $0.element == source[$0.offset % 480] })
    }

    @Test("after a loud burst the gain recovers to exactly unity")
    func recovers() {
        var limiter = SoftLimiter(releaseFrames: 100)
        var loud = [Float](repeating: 3, count: 200)
        loud.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, frames: 100) }
        #expect(limiter.currentGain < 1)
        var quiet = [Float](repeating: 0.1, count: 20_000)
        quiet.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, frames: 10_000) }
        #expect(limiter.currentGain == 1)
        #expect(quiet.suffix(10).allSatisfy { $0 == 0.1 })
        #expect(loud.allSatisfy { $0 <= limiter.ceiling })
    }
}

@Suite struct CommandRingTests {
    @Test("push and pop keep order and refuse when full")
    func fullAndEmpty() {
        let ring = CommandRing<Int>(minimumCapacity: 3)
        #expect(ring.capacity == 4)
        #expect(ring.pop() == nil)
        for value in 0..<4 { #expect(ring.push(value)) }
        #expect(!ring.push(4))
        #expect(ring.pop() == 0)
        #expect(ring.push(4))
        #expect((0..<4).map { _ in ring.pop() } == [1, 2, 3, 4])
        #expect(ring.pop() == nil)
    }

    @Test("one producer thread and one consumer thread: every element once, in order")
    func spscOrdering() {
        let ring = CommandRing<Int>(minimumCapacity: 64)
        let total = 200_000
        let producer = Thread {
            var next = 0
            while next < total {
                if ring.push(next) { next += 1 }
            }
        }
        producer.start()
        var expected = 0
        var outOfOrder = 0
        while expected < total {
            if let value = ring.pop() {
                if value != expected { outOfOrder += 1 }
                expected += 1
            }
        }
        #expect(outOfOrder == 0)
        #expect(ring.pop() == nil)
    }

    @Test("commands sent to a mixer arrive in order and a full ring is counted")
    func mixerRefusesWhenFull() {
        let mixer = Mixer(sounds: [impulse()], configuration: MixerConfiguration(commandCapacity: 4))
        for frame in 0..<6 { mixer.send(.start(VoiceStart(sound: 0, frame: Int64(frame) * 10))) }
        let left = channel(render(mixer, frames: 100, blockSize: 100), 0)
        #expect(left.indices.filter { left[$0] != 0 } == [0, 10, 20, 30])
        #expect(mixer.statistics.commandsRefused == 2)
    }
}
