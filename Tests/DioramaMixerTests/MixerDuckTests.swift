import DioramaMixer
import DioramaTestSupport
import Testing

/// Ducking: a voice lowers the ambience (voices of priority `.ambience`) while it sounds, with linear ramps
/// from integer frame counts; overlapping ducks take the deepest at each frame.
@Suite struct MixerDuckTests {
    /// Sound 0: a constant bed at 0.5; sound 1: 10 000 frames of silence (a ducking cue that adds nothing, so the
    /// output is the bed's level); sound 2: a ringing one-shot (something to hear besides the bed).
    static let sounds = [constant(0.5, frames: 4800), constant(0, frames: 10_000), ringing(frames: 6000)]
    static let bed = MixerCommand.start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1, priority: .ambience))
    static let minus12 = Float(0.251_188_64)

    static func duck(_ gain: Float, attack: Int, release: Int) -> VoiceDuck {
        VoiceDuck(gain: gain, attackFrames: attack, releaseFrames: release)
    }

    /// The duck's gain at `frame` for a voice starting at `start` whose duck ends (releases) at `end`.
    static func expected(_ frame: Int, start: Int, end: Int, gain: Float, attack: Int, release: Int) -> Float {
        func down(_ frame: Int) -> Float {
            frame <= start ? 1 : frame - start >= attack ? gain : 1 + (gain - 1) * (Float(frame - start) * (1 / Float(attack)))
        }
        if frame < end { return down(frame) }
        if frame - end >= release { return 1 }
        let from = down(end)
        return from + (1 - from) * (Float(frame - end) * (1 / Float(release)))
    }

    @Test("a one-shot's duck: the bed goes down over the attack from its first frame, back up over the release from its last")
    func oneShotCurve() {
        let duck = Self.duck(Self.minus12, attack: 2400, release: 4800)
        let left = channel(render(Self.sounds, [Self.bed, .start(VoiceStart(sound: 1, frame: 10_000, duck: duck))],
                                  frames: 30_000), 0)
        #expect(left[0..<10_001].allSatisfy { $0 == 0.5 }, "untouched before the cue (its first frame is still at 1)")
        // 10 000 frames of sound: the release starts on frame 20 000.
        for frame in stride(from: 10_000, to: 30_000, by: 7) {
            let gain = Self.expected(frame, start: 10_000, end: 20_000, gain: Self.minus12, attack: 2400, release: 4800)
            #expect(abs(left[frame] - 0.5 * gain) < 1e-6, "frame \(frame)")
        }
        #expect(abs(left[15_000] - 0.5 * Self.minus12) < 1e-6, "-12 dB while the cue sounds")
        #expect(left[24_800..<30_000].allSatisfy { $0 == 0.5 }, "exactly back after the release")
        #expect(largestJump(left) < 0.5 / 2000, "smooth: no step larger than a ramp's")
    }

    @Test("a cue's own sound is not ducked, only the ambience")
    func cueItselfIsNotDucked() {
        let duck = Self.duck(0.1, attack: 240, release: 240)
        let ducking = render(Self.sounds, [.start(VoiceStart(sound: 2, frame: 100, duck: duck))], frames: 8000)
        let plain = render(Self.sounds, [.start(VoiceStart(sound: 2, frame: 100))], frames: 8000)
        #expect(firstDifference(ducking, plain) == nil)
    }

    @Test("overlapping ducks: the deepest wins at every frame, and the shallower one takes over when it releases")
    func deepestWins() {
        let shallow = Self.duck(0.5, attack: 480, release: 960)
        let deep = Self.duck(0.1, attack: 480, release: 960)
        // Shallow over 5000 ..< 15 000; deep over 8000 ..< 11 000 (a 3000-frame slice of the silent sound, started late
        // and stopped: its duck ends where its stop's fade begins).
        let left = channel(render(Self.sounds, [
            Self.bed,
            .start(VoiceStart(sound: 1, frame: 5000, duck: shallow)),
            .start(VoiceStart(sound: 1, frame: 8000, tag: 7, duck: deep)),
            .stop(tag: 7, frame: 11_000, fadeFrames: 0),
        ], frames: 20_000), 0)
        for frame in stride(from: 4000, to: 20_000, by: 11) {
            let a = Self.expected(frame, start: 5000, end: 15_000, gain: 0.5, attack: 480, release: 960)
            let b = Self.expected(frame, start: 8000, end: 11_000, gain: 0.1, attack: 480, release: 960)
            #expect(abs(left[frame] - 0.5 * min(a, b)) < 1e-6, "frame \(frame)")
        }
        #expect(abs(left[10_000] - 0.05) < 1e-6)
        #expect(abs(left[13_000] - 0.25) < 1e-6, "back to the shallow duck, not to 1")
        #expect(left[16_000...].allSatisfy { $0 == 0.5 })
    }

    @Test("a looping cue ducks until its stop; a revoked stop leaves the duck in place")
    func loopDucksUntilStopped() {
        let duck = Self.duck(Self.minus12, attack: 480, release: 960)
        let loop = MixerCommand.start(VoiceStart(sound: 1, frame: 1000, loops: true, tag: 3, duck: duck))
        let stopped = channel(render(Self.sounds, [Self.bed, loop, .stop(tag: 3, frame: 30_000, fadeFrames: 480)], frames: 40_000), 0)
        for frame in stride(from: 0, to: 40_000, by: 13) {
            let gain = Self.expected(frame, start: 1000, end: 30_000, gain: Self.minus12, attack: 480, release: 960)
            #expect(abs(stopped[frame] - 0.5 * gain) < 1e-6, "frame \(frame)")
        }
        let revoked = channel(render(Self.sounds, [Self.bed, loop, .stop(tag: 3, frame: 30_000, fadeFrames: 480), .revoke(fromFrame: 20_000)],
                                     frames: 40_000), 0)
        #expect(revoked[2000..<40_000].allSatisfy { abs($0 - 0.5 * Self.minus12) < 1e-6 })
    }

    @Test("a pause holds the duck with everything else: after the resume the output is the unpaused one moved by the hold")
    func pauseHoldsTheDuck() {
        let duck = Self.duck(0.2, attack: 3000, release: 3000)
        // The pause comes during the attack; the release starts during the hold's shadow later.
        let commands: [MixerCommand] = [Self.bed, .start(VoiceStart(sound: 1, frame: 2000, duck: duck)),
                                        .start(VoiceStart(sound: 2, frame: 500))]
        let reference = render(Self.sounds, commands, frames: 40_000)
        let paused = render(Self.sounds, commands + [.pause(frame: 3000, fadeFrames: 480), .resume(frame: 10_000, fadeFrames: 480)],
                            frames: 40_000)
        let hold = 10_000 - 3480
        #expect(firstDifference(frames(paused, 0..<3000), frames(reference, 0..<3000)) == nil)
        #expect(firstDifference(frames(paused, 10_480..<40_000), frames(reference, (10_480 - hold)..<(40_000 - hold))) == nil)
        #expect(channel(reference, 0)[20_000] < 0.5, "the duck is still in force after the resume")
    }

    @Test("ducking gives the same samples whatever the block size", arguments: [1, 37, 256, 4096])
    func blockSizeIndependent(blockSize: Int) {
        let commands: [MixerCommand] = [
            Self.bed,
            .start(VoiceStart(sound: 0, frame: 3000, gain: 0.3, fadeInFrames: 900, loops: true, tag: 2, priority: .ambience)),
            .start(VoiceStart(sound: 2, frame: 1234, duck: Self.duck(0.3, attack: 700, release: 1300))),
            .start(VoiceStart(sound: 1, frame: 4321, loops: true, tag: 9, duck: Self.duck(0.05, attack: 10, release: 5000))),
            .stop(tag: 9, frame: 9000, fadeFrames: 100),
            .pause(frame: 11_000, fadeFrames: 300), .resume(frame: 12_000, fadeFrames: 300),
            .stop(tag: 1, frame: 15_000, fadeFrames: 2000),
        ]
        let reference = render(Self.sounds, commands, frames: 20_000, blockSize: 20_000)
        #expect(firstDifference(render(Self.sounds, commands, frames: 20_000, blockSize: blockSize), reference) == nil)
    }

    @Test("a span started after a ducking one-shot ended still hears the end of its release")
    func catchUpAfterTheSoundKeepsTheRelease() {
        let duck = Self.duck(0.1, attack: 100, release: 4800)
        let commands: [MixerCommand] = [Self.bed, .start(VoiceStart(sound: 1, frame: 0, catchUp: true, duck: duck))]
        let whole = channel(render(Self.sounds, commands, frames: 20_000), 0)
        // The same mix joined at frame 12 000, after the silent sound's end at 10 000: the mixer's clock starts
        // there, so every frame is shifted by 12 000.
        let shifted: [MixerCommand] = [
            .start(VoiceStart(sound: 0, frame: -12_000, loops: true, tag: 1, priority: .ambience, catchUp: true)),
            .start(VoiceStart(sound: 1, frame: -12_000, catchUp: true, duck: duck)),
        ]
        let late = channel(render(Self.sounds, shifted, frames: 8000), 0)
        #expect(Array(late) == Array(whole[12_000..<20_000]))
        #expect(late[0] < 0.5 && late[3000] == 0.5)
    }
}
