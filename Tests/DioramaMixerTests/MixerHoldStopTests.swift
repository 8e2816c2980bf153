import DioramaMixer
import DioramaTestSupport
import Testing

/// Stops that arrive while paused, and the order pauses and resumes act in.
@Suite struct MixerHoldStopTests {
    static let bed = [constant(0.5, frames: 1000)]

    @Test("a stop for a frame in the hold, arriving during the pause's ramp, leaves a running fade alone")
    func stopDuringRampKeepsFade() {
        let mixer = Mixer(sounds: Self.bed)
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1)))
        mixer.send(.stop(tag: 1, frame: 1000, fadeFrames: 240))
        mixer.send(.pause(frame: 900, fadeFrames: 960))  // the hold starts at 1860
        var left = channel(render(mixer, frames: 1100, blockSize: 100), 0)
        mixer.send(.stop(tag: 1, frame: 2000, fadeFrames: 480))
        mixer.send(.resume(frame: 3000, fadeFrames: 100))
        left += channel(render(mixer, frames: 3900, blockSize: 100), 0)
        // The fade from 1000 to 1240 under the ramp from 900 to 1860, unbroken by the later stop.
        for frame in 0..<1300 {
            let fade: Float = frame < 1000 ? 1 : max(1 - Float(frame - 1000) / 240, 0)
            let ramp: Float = frame < 900 ? 1 : 1 - Float(frame - 900) / 960
            #expect(abs(left[frame] - 0.5 * fade * ramp) < 1e-6, "frame \(frame)")
        }
        #expect(left[1240...].allSatisfy { $0 == 0 })
        #expect(largestJump(left) < 0.003)
    }

    @Test("a stop during the ramp for a frame in the hold ends a sounding voice silently at the resume")
    func stopDuringRampEndsVoiceInHold() {
        let mixer = Mixer(sounds: Self.bed)
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1)))
        mixer.send(.pause(frame: 900, fadeFrames: 960))
        var left = channel(render(mixer, frames: 1100, blockSize: 100), 0)
        mixer.send(.stop(tag: 1, frame: 2000, fadeFrames: 4800))
        mixer.send(.resume(frame: 3000, fadeFrames: 0))
        left += channel(render(mixer, frames: 3900, blockSize: 100), 0)
        #expect(abs(left[1100] - 0.5 * (1 - 200 / 960)) < 1e-6)
        #expect(left[1860...].allSatisfy { $0 == 0 })
    }

    @Test("a stop asked in the hold for a frame after the resume becomes an ordinary stop there")
    func holdStopAfterResume() {
        let mixer = Mixer(sounds: Self.bed)
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1)))
        mixer.send(.pause(frame: 900, fadeFrames: 100))
        var left = channel(render(mixer, frames: 1500, blockSize: 500), 0)
        mixer.send(.stop(tag: 1, frame: 6000, fadeFrames: 480))
        mixer.send(.resume(frame: 3000, fadeFrames: 0))
        left += channel(render(mixer, frames: 5500, blockSize: 500), 0)
        #expect(left[1000..<3000].allSatisfy { $0 == 0 })
        #expect(left[3000..<6000].allSatisfy { $0 == 0.5 })
        #expect(abs(left[6240] - 0.25) < 1e-6)
        #expect(left[6480...].allSatisfy { $0 == 0 })
    }

    @Test("a stop in the hold at the resume frame itself ends its voice silently: nothing fades in under the ramp")
    func holdStopAtResume() {
        let mixer = Mixer(sounds: Self.bed)
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1)))
        mixer.send(.pause(frame: 900, fadeFrames: 100))
        var left = channel(render(mixer, frames: 3000, blockSize: 500), 0)
        // As the end of a playlist while paused: stop everything and resume, both at the clock.
        mixer.send(.stopAll(frame: 2000, fadeFrames: 2400))
        mixer.send(.resume(frame: 2000, fadeFrames: 960))
        mixer.send(.start(VoiceStart(sound: 0, frame: 4000, gain: 0.5, loops: true)))
        left += channel(render(mixer, frames: 3000, blockSize: 500), 0)
        #expect(left[1000..<4000].allSatisfy { $0 == 0 })
        #expect(left[4000...].allSatisfy { $0 == 0.25 })
    }

    @Test("navigating for long while paused: stopped waiting starts leave the list, the last one plays at the resume")
    func navigationDoesNotFillWaitingList() {
        // A short waiting list shows any leak within a few steps.
        let mixer = Mixer(sounds: Self.bed, configuration: MixerConfiguration(pendingLimit: 8))
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 0)))
        mixer.send(.pause(frame: 1000, fadeFrames: 100))
        var left = channel(render(mixer, frames: 2048, blockSize: 512), 0)
        // Each step, as the player sends it: at a heard frame behind the clock, stop the showing bed, start the next.
        for step in 0..<100 {
            let heard = mixer.framesRendered - 1024
            mixer.send(.revoke(fromFrame: heard))
            mixer.send(.stop(tag: UInt32(step % 3), frame: heard, fadeFrames: 2400))
            mixer.send(.start(VoiceStart(sound: 0, frame: heard, gain: 0.5, loops: true, tag: UInt32((step + 1) % 3))))
            left += channel(render(mixer, frames: 1536, blockSize: 512), 0)
        }
        let resume = mixer.framesRendered
        mixer.send(.resume(frame: resume, fadeFrames: 0))
        left += channel(render(mixer, frames: 4096, blockSize: 512), 0)
        #expect(mixer.statistics.startsDropped == 0)
        #expect(left[1100..<Int(resume)].allSatisfy { $0 == 0 })
        #expect(left[Int(resume)...].allSatisfy { $0 == 0.25 })
    }

    @Test("in a hold, a stop at a frame the clock has passed is final; one still ahead can be revoked")
    func revokeInHold() {
        let sounds = Self.bed
        let mixer = Mixer(sounds: sounds)
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1)))
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, gain: 0.5, loops: true, tag: 2)))
        mixer.send(.pause(frame: 500, fadeFrames: 100))
        _ = render(mixer, frames: 3000, blockSize: 500)
        mixer.send(.stop(tag: 1, frame: 2000, fadeFrames: 480))
        mixer.send(.stop(tag: 2, frame: 8000, fadeFrames: 480))
        _ = render(mixer, frames: 1000, blockSize: 500)
        mixer.send(.revoke(fromFrame: 1500))
        mixer.send(.resume(frame: 10_000, fadeFrames: 0))
        let left = channel(render(mixer, frames: 8000, blockSize: 500), 0)
        // Only the second voice, at once at its level: the first stopped in the hold, the second's stop revoked.
        #expect(left[..<6000].allSatisfy { $0 == 0 })
        #expect(left[6000...].allSatisfy { $0 == 0.25 })
    }

    @Test("pauses and resumes act in frame order, whatever order they arrive in")
    func transportInFrameOrder() {
        let left = channel(render(Self.bed, [
            .start(VoiceStart(sound: 0, frame: 0, loops: true)),
            .pause(frame: 100, fadeFrames: 0),
            .pause(frame: 5000, fadeFrames: 0),
            .resume(frame: 300, fadeFrames: 0),
        ], frames: 8000), 0)
        #expect(left[..<100].allSatisfy { $0 == 0.5 })
        #expect(left[100..<300].allSatisfy { $0 == 0 })
        #expect(left[300..<5000].allSatisfy { $0 == 0.5 })
        #expect(left[5000...].allSatisfy { $0 == 0 })
    }

    @Test("a resume arriving late, after a later pause is already waiting, acts at once")
    func lateResumeNotBlocked() {
        let mixer = Mixer(sounds: Self.bed)
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true)))
        mixer.send(.pause(frame: 100, fadeFrames: 0))
        mixer.send(.pause(frame: 5000, fadeFrames: 0))
        var left = channel(render(mixer, frames: 512, blockSize: 512), 0)
        mixer.send(.resume(frame: 300, fadeFrames: 0))
        left += channel(render(mixer, frames: 7488, blockSize: 512), 0)
        #expect(left[100..<512].allSatisfy { $0 == 0 })
        #expect(left[512..<5000].allSatisfy { $0 == 0.5 })
        #expect(left[5000...].allSatisfy { $0 == 0 })
    }
}
