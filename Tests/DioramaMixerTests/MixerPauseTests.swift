import DioramaMixer
import Foundation
import DioramaTestSupport
import Testing

/// Pause and resume: the output ramps to silence, voices hold still, and continue where they were.
@Suite struct MixerPauseTests {
    static let pauseFrame = 3000
    static let fade = 480
    static let holdStart = pauseFrame + fade
    static let resumeFrame = 10_000
    static let hold = resumeFrame - holdStart
    static let length = 20_000

    enum Held: String, CaseIterable, CustomTestStringConvertible {
        case loopingBed, decayingOneShot
        var testDescription: String { rawValue }
    }

    static let sounds = [loopingSine(frames: 441, cycles: 10), ringing(frames: 40_000)]

    /// What plays without a pause: a bed still fading in at the pause, or a one-shot already releasing
    /// (its stop's ramp spans the pause).
    static func commands(_ held: Held) -> [MixerCommand] {
        switch held {
        case .loopingBed:
            [.start(VoiceStart(sound: 0, frame: 100, pan: 0.3, fadeInFrames: 6000, loops: true, tag: 1))]
        case .decayingOneShot:
            [.start(VoiceStart(sound: 1, frame: 500, pan: -0.6, tag: 2)), .stop(tag: 2, frame: 2000, fadeFrames: 24_000)]
        }
    }

    static let pauseAndResume: [MixerCommand] = [
        .pause(frame: Int64(pauseFrame), fadeFrames: fade), .resume(frame: Int64(resumeFrame), fadeFrames: fade),
    ]

    @Test("a pause ramps linearly to exactly zero by its end and stays zero", arguments: Held.allCases)
    func rampsToSilence(held: Held) {
        let reference = render(Self.sounds, Self.commands(held), frames: Self.length)
        let paused = render(Self.sounds, Self.commands(held) + [.pause(frame: Int64(Self.pauseFrame), fadeFrames: Self.fade)],
                            frames: Self.length)
        #expect(firstDifference(frames(paused, 0..<Self.pauseFrame), frames(reference, 0..<Self.pauseFrame)) == nil)
        for offset in 0..<Self.fade {
            let level = 1 - Float(offset) / Float(Self.fade)
            let index = 2 * (Self.pauseFrame + offset)
            #expect(abs(paused[index] - reference[index] * level) < 1e-6)
        }
        #expect(paused[(2 * Self.holdStart)...].allSatisfy { $0 == 0 })
        #expect(reference[2 * Self.holdStart] != 0)
    }

    @Test("after the resume the output is the never-paused one moved later by the hold", arguments: Held.allCases)
    func resumeContinues(held: Held) {
        let reference = render(Self.sounds, Self.commands(held), frames: Self.length)
        let paused = render(Self.sounds, Self.commands(held) + Self.pauseAndResume, frames: Self.length)
        #expect(firstDifference(frames(paused, 0..<Self.pauseFrame), frames(reference, 0..<Self.pauseFrame)) == nil)
        #expect(frames(paused, Self.holdStart..<Self.resumeFrame).allSatisfy { $0 == 0 })
        let after = (Self.resumeFrame + Self.fade)..<Self.length
        let moved = (after.lowerBound - Self.hold)..<(after.upperBound - Self.hold)
        #expect(firstDifference(frames(paused, after), frames(reference, moved)) == nil)
        #expect(frames(paused, after).contains { $0 != 0 })
        // The ramp up scales what would have followed the ramp down.
        for offset in 0..<Self.fade {
            let level = Float(offset) / Float(Self.fade)
            for side in 0..<2 {
                let index = 2 * (Self.resumeFrame + offset) + side
                #expect(abs(paused[index] - reference[index - 2 * Self.hold] * level) < 1e-6)
            }
        }
    }

    @Test("a start due inside the hold begins at the resume, from its first frame, with its fade-in")
    func startInsideHold() {
        let commands: [MixerCommand] = [
            .pause(frame: 1000, fadeFrames: 100),
            .start(VoiceStart(sound: 0, frame: 2000)),
            .start(VoiceStart(sound: 1, frame: 2500, fadeInFrames: 100)),
            .resume(frame: 5000, fadeFrames: 0),
            .start(VoiceStart(sound: 0, frame: 6000)),
        ]
        let left = channel(render([impulse(), constant(0.2, frames: 4000)], commands, frames: 8000), 0)
        #expect(left[..<5000].allSatisfy { $0 == 0 })
        #expect(left[5000] == 0.5)  // the impulse, and the fade-in's first frame (0)
        #expect(abs(left[5050] - 0.1) < 1e-6)
        #expect(left[5100] == 0.2)
        #expect(abs(left[6000] - 0.7) < 1e-6)  // a start after the resume keeps its frame
    }

    @Test("a stop due inside the hold ends its voice silently and drops its waiting starts")
    func stopInsideHold() {
        let commands: [MixerCommand] = [
            .start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1)),
            .start(VoiceStart(sound: 0, frame: 0, gain: 0.5, loops: true, tag: 2)),
            .pause(frame: 1000, fadeFrames: 100),
            .start(VoiceStart(sound: 0, frame: 1500, loops: true, tag: 1)),
            .stop(tag: 1, frame: 2000, fadeFrames: 4800),
            .resume(frame: 3000, fadeFrames: 0),
        ]
        let left = channel(render([constant(0.2, frames: 1000)], commands, frames: 6000), 0)
        #expect(abs(left[999] - 0.3) < 1e-6)
        // Only the untouched voice is left, at once at full level: no release of the stopped one is heard.
        #expect(left[3000...].allSatisfy { abs($0 - 0.1) < 1e-6 })
    }

    @Test("a resume during the pause's ramp ramps back up from the level reached, holding nothing")
    func resumeDuringRamp() {
        let sounds = [loopingSine(frames: 441, cycles: 10)]
        let start: [MixerCommand] = [.start(VoiceStart(sound: 0, frame: 0, loops: true))]
        let reference = render(sounds, start, frames: 6000)
        let bumped = render(sounds, start + [.pause(frame: 1000, fadeFrames: 1000), .resume(frame: 1400, fadeFrames: 1000)],
                            frames: 6000)
        for frame in 0..<6000 {
            let level: Float = frame < 1000 ? 1 : frame < 1400 ? 1 - Float(frame - 1000) / 1000
                : frame < 2400 ? 0.6 + 0.4 * Float(frame - 1400) / 1000 : 1
            #expect(abs(bumped[2 * frame] - reference[2 * frame] * level) < 1e-6)
        }
        #expect(firstDifference(frames(bumped, 2400..<6000), frames(reference, 2400..<6000)) == nil)
    }

    @Test("a pause while paused and a resume while playing do nothing")
    func redundantChanges() {
        let sounds = [ringing(frames: 20_000)]
        let start: [MixerCommand] = [.start(VoiceStart(sound: 0, frame: 0))]
        let reference = render(sounds, start, frames: 12_000)
        #expect(firstDifference(render(sounds, start + [.resume(frame: 500, fadeFrames: 100)], frames: 12_000), reference) == nil)
        let once = render(sounds, start + [.pause(frame: 1000, fadeFrames: 100), .resume(frame: 5000, fadeFrames: 100)],
                          frames: 12_000)
        let twice = render(sounds, start + [.pause(frame: 1000, fadeFrames: 100), .pause(frame: 3000, fadeFrames: 100),
                                             .resume(frame: 5000, fadeFrames: 100)], frames: 12_000)
        #expect(firstDifference(twice, once) == nil)
        #expect(firstDifference(once, reference) != nil)
    }

    @Test("a pause or resume whose frame has passed acts at the block's start; the clock runs on through the hold")
    func latePause() {
        let mixer = Mixer(sounds: [constant(0.5, frames: 1000)])
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true)))
        _ = render(mixer, frames: 1000, blockSize: 1000)
        mixer.send(.pause(frame: 500, fadeFrames: 100))
        let left = channel(render(mixer, frames: 1000, blockSize: 250), 0)
        #expect(left[0] == 0.5)
        #expect(abs(left[50] - 0.25) < 1e-6)
        #expect(left[100...].allSatisfy { $0 == 0 })
        mixer.send(.resume(frame: 1200, fadeFrames: 0))
        let resumed = channel(render(mixer, frames: 500, blockSize: 500), 0)
        #expect(resumed.allSatisfy { $0 == 0.5 })
        #expect(mixer.framesRendered == 2500)
    }

    @Test("output across pauses and resumes does not depend on the block size", arguments: [1, 7, 64, 256, 1024])
    func blockSizeIndependence(blockSize: Int) {
        // No voice ends before a later one starts: which free slot a start takes (and so the order
        // voices are summed in) may depend on the block size, at the last bit.
        let sounds = [loopingSine(frames: 480, cycles: 3), constant(0.25, frames: 12_000), ringing(frames: 10_000)]
        let commands: [MixerCommand] = [
            .start(VoiceStart(sound: 0, frame: 10, gain: 0.7, pan: -0.4, fadeInFrames: 1234, loops: true, tag: 1)),
            .start(VoiceStart(sound: 1, frame: 777, pan: 0.9, fadeInFrames: 50)),
            .start(VoiceStart(sound: 2, frame: 1500, tag: 2)),
            .pause(frame: 2000, fadeFrames: 333),
            .start(VoiceStart(sound: 1, frame: 2500, fadeInFrames: 100, tag: 3)),
            .stop(tag: 2, frame: 3000, fadeFrames: 100),
            .resume(frame: 4001, fadeFrames: 500),
            .stop(tag: 1, frame: 6000, fadeFrames: 999),
            .start(VoiceStart(sound: 2, frame: 6100, pan: 0.2)),
            .pause(frame: 6500, fadeFrames: 200),
            .resume(frame: 6600, fadeFrames: 300),
            .pause(frame: 7000, fadeFrames: 0),
            .resume(frame: 7100, fadeFrames: 0),
        ]
        let reference = render(sounds, commands, frames: 9000, blockSize: 9000)
        #expect(reference.contains { $0 != 0 })
        #expect(firstDifference(render(sounds, commands, frames: 9000, blockSize: blockSize), reference) == nil)
    }

    /// Counting allocations switches the Swift runtime's allocation and reference-counting hooks for the whole
    /// process, which other tests' threads must not run through: scripts/test runs this test in a process of its
    /// own (`DIORAMA_ALLOCATION_TEST=1 swift test --filter renderDoesNotAllocate`), and the parallel run skips it.
    @Test("rendering allocates nothing across starts, stops, pauses, resumes, revocations, ducks and volume changes",
          .enabled(if: ProcessInfo.processInfo.environment["DIORAMA_ALLOCATION_TEST"] == "1",
                   "runs alone: DIORAMA_ALLOCATION_TEST=1 swift test --filter renderDoesNotAllocate"))
    func renderDoesNotAllocate() throws {
        let mixer = Mixer(sounds: [loopingSine(frames: 480, cycles: 3), ringing(frames: 10_000)])
        let commands: [MixerCommand] = [
            // A bed ducked by a one-shot (released after it ends) and by a loop that is stopped, through the pause.
            .start(VoiceStart(sound: 0, frame: 20, loops: true, tag: 5, priority: .ambience)),
            .start(VoiceStart(sound: 1, frame: 1000, tag: 6, duck: VoiceDuck(gain: 0.25, attackFrames: 480, releaseFrames: 4800))),
            .start(VoiceStart(sound: 0, frame: 5000, loops: true, tag: 7, duck: VoiceDuck(gain: 0.1, attackFrames: 100, releaseFrames: 900))),
            .stop(tag: 7, frame: 7000, fadeFrames: 300),
            .start(VoiceStart(sound: 0, frame: 10, fadeInFrames: 1234, loops: true, tag: 1)),
            .start(VoiceStart(sound: 1, frame: 1500, tag: 2)),
            .pause(frame: 2000, fadeFrames: 333),
            .start(VoiceStart(sound: 1, frame: 2500, tag: 3)),
            .stop(tag: 2, frame: 3000, fadeFrames: 100),
            .resume(frame: 4001, fadeFrames: 500),
            .stop(tag: 1, frame: 9000, fadeFrames: 999),
            .pause(frame: 9500, fadeFrames: 200),
            .revoke(fromFrame: 8000),
            .start(VoiceStart(sound: 1, frame: 12_000, catchUp: true)),
            .volume(gain: 1.5, fadeFrames: 960),
        ]
        for command in commands { mixer.send(command) }
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 2 * 256)
        defer { buffer.deallocate() }
        // The counter sees allocations at all (else a zero below would prove nothing).
        var sink: [Int] = []
        let control = try #require(heapAllocations { sink = (0..<3).map { $0 + 1 } })
        #expect(control > 0 && sink.count == 3)
        let allocations = try #require(heapAllocations {
            for block in 0..<80 {
                if block == 12 {
                    // In the hold (2333 ..< 4001): a navigation's stop and start, kept for the resume or dropped.
                    mixer.send(.stop(tag: 1, frame: 3000, fadeFrames: 480))
                    mixer.send(.start(VoiceStart(sound: 0, frame: 3000, loops: true, tag: 4)))
                    mixer.send(.stop(tag: 3, frame: 3100, fadeFrames: 480))
                    mixer.send(.volume(gain: 0.5, fadeFrames: 480))
                }
                mixer.render(into: buffer, frames: 256)
            }
        })
        #expect(allocations == 0)
        #expect(mixer.framesRendered == 80 * 256)
    }
}

@Suite struct MixerRevokeTests {
    @Test("revoke cancels a stop scheduled after its frame that has not begun, and keeps earlier ones")
    func cancelsFutureStop() {
        let commands: [MixerCommand] = [
            .start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1)),
            .start(VoiceStart(sound: 0, frame: 0, gain: 0.5, loops: true, tag: 2)),
            .stop(tag: 1, frame: 5000, fadeFrames: 480),
            .stop(tag: 2, frame: 2000, fadeFrames: 480),
            .revoke(fromFrame: 3000),
        ]
        let left = channel(render([constant(0.2, frames: 1000)], commands, frames: 8000), 0)
        #expect(abs(left[1999] - 0.3) < 1e-6)
        #expect(left[2480...].allSatisfy { abs($0 - 0.2) < 1e-6 })
    }

    @Test("revoke cancels the stop a waiting start carries, and the start still plays")
    func cancelsCarriedStop() {
        let commands: [MixerCommand] = [
            .start(VoiceStart(sound: 0, frame: 1000, loops: true, tag: 1)),
            .stop(tag: 1, frame: 6000, fadeFrames: 480),
            .revoke(fromFrame: 4000),
        ]
        let left = channel(render([constant(0.2, frames: 1000)], commands, frames: 8000), 0)
        #expect(left[..<1000].allSatisfy { $0 == 0 })
        #expect(left[1000...].allSatisfy { $0 == 0.2 })
    }

    @Test("a scene change announced ahead and revoked: the old bed plays on, the new one never starts")
    func undoesSceneChange() {
        let commands: [MixerCommand] = [
            .start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1, priority: .ambience)),
            .stop(tag: 1, frame: 4000, fadeFrames: 2400),
            .start(VoiceStart(sound: 1, frame: 4000, fadeInFrames: 2400, loops: true, tag: 2, priority: .ambience)),
        ]
        let mixer = Mixer(sounds: [constant(0.2, frames: 1000), constant(0.4, frames: 1000)])
        for command in commands { mixer.send(command) }
        _ = render(mixer, frames: 1024, blockSize: 1024)
        mixer.send(.revoke(fromFrame: 3000))
        let left = channel(render(mixer, frames: 8000, blockSize: 512), 0)
        #expect(left.allSatisfy { $0 == 0.2 })
    }

    @Test("a release that has begun is not cancelled: the fade goes on")
    func begunReleaseStays() {
        let mixer = Mixer(sounds: [constant(0.5, frames: 1000)])
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1)))
        mixer.send(.stop(tag: 1, frame: 1000, fadeFrames: 4000))
        _ = render(mixer, frames: 2000, blockSize: 2000)
        mixer.send(.revoke(fromFrame: 500))
        let left = channel(render(mixer, frames: 4000, blockSize: 256), 0)
        #expect(abs(left[0] - 0.375) < 1e-6)
        #expect(left[3000...].allSatisfy { $0 == 0 })
    }

    @Test("a stop that interrupted an earlier one falls back to it when revoked")
    func fallsBackToEarlierStop() {
        let mixer = Mixer(sounds: [constant(0.5, frames: 1000)])
        mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true, tag: 1)))
        mixer.send(.stop(tag: 1, frame: 1000, fadeFrames: 4000))
        mixer.send(.stop(tag: 1, frame: 3000, fadeFrames: 500))
        _ = render(mixer, frames: 2000, blockSize: 2000)
        mixer.send(.revoke(fromFrame: 2500))
        let left = channel(render(mixer, frames: 4000, blockSize: 256), 0)
        // The first fade, unbroken: half way at 3000, silent from 5000.
        #expect(abs(left[1000] - 0.25) < 1e-6)
        #expect(left[2000] > 0.12)
        #expect(left[3000...].allSatisfy { $0 == 0 })
        #expect(largestJump(left) <= 0.5 / 4000 + 1e-6)
    }

    @Test("revoke cancels a pause, or a resume, waiting at or after its frame")
    func cancelsTransport() {
        let sounds = [constant(0.5, frames: 1000)]
        let bed: [MixerCommand] = [.start(VoiceStart(sound: 0, frame: 0, loops: true))]
        let noPause = channel(render(sounds, bed + [.pause(frame: 5000, fadeFrames: 100), .revoke(fromFrame: 4000)],
                                     frames: 8000), 0)
        #expect(noPause.allSatisfy { $0 == 0.5 })
        let stillPaused = channel(render(sounds, bed + [.pause(frame: 3000, fadeFrames: 100), .resume(frame: 6000, fadeFrames: 100),
                                                        .revoke(fromFrame: 5000)], frames: 8000), 0)
        #expect(stillPaused[3100...].allSatisfy { $0 == 0 })
    }
}

@Suite struct MixerPauseFuzzTests {
    /// A small deterministic generator (64-bit LCG, high bits) for command lists.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Random starts, stops, pauses, resumes and revocations, all sent ahead.
    static func commands(seed: UInt64) -> (commands: [MixerCommand], holds: [Range<Int>]) {
        var random = Generator(state: seed)
        var commands: [MixerCommand] = []
        for _ in 0..<40 {
            let frame = Int64(random.next(20_000))
            switch random.next(6) {
            case 0, 1:
                commands.append(.start(VoiceStart(sound: random.next(3), frame: frame, gain: 0.3, pan: Float(random.next(5)) / 2 - 1,
                                                  fadeInFrames: random.next(3) * 500, loops: random.next(2) == 0,
                                                  tag: UInt32(random.next(4)))))
            case 2:
                commands.append(.stop(tag: UInt32(random.next(4)), frame: frame, fadeFrames: random.next(3000)))
            case 3:
                commands.append(.pause(frame: frame, fadeFrames: random.next(3) * 200))
            case 4:
                commands.append(.resume(frame: frame, fadeFrames: random.next(3) * 200))
            default:
                commands.append(.revoke(fromFrame: frame))
            }
        }
        // Pauses and resumes act in frame order (equal frames in arrival order).
        var holds: [Range<Int>] = []
        var paused: (frame: Int, fade: Int)?
        var last = 0
        var waiting: [(pause: Bool, frame: Int, fade: Int)] = []
        for command in commands {
            switch command {
            case .pause(let frame, let fade): waiting.append((true, Int(frame), fade))
            case .resume(let frame, let fade): waiting.append((false, Int(frame), fade))
            case .revoke(let from): waiting.removeAll { $0.frame >= Int(from) }
            default: break
            }
        }
        let ordered = waiting.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        for change in ordered {
            let frame = max(change.frame, last)
            last = frame
            if change.pause, paused == nil { paused = (frame, change.fade) }
            if !change.pause, let pause = paused {
                if frame > pause.frame + pause.fade { holds.append((pause.frame + pause.fade)..<frame) }
                paused = nil
            }
        }
        if let pause = paused { holds.append((pause.frame + pause.fade)..<30_000) }
        return (commands, holds)
    }

    @Test("random command lists: silent exactly in every hold, and the same for any block size", arguments: 1...12)
    func randomLists(seed: Int) {
        let sounds = [loopingSine(frames: 441, cycles: 10), ringing(frames: 6000), constant(0.2, frames: 2000)]
        let (commands, holds) = Self.commands(seed: UInt64(seed))
        let reference = render(sounds, commands, frames: 30_000, blockSize: 4096)
        for hold in holds { #expect(frames(reference, hold).allSatisfy { $0 == 0 }, "hold \(hold)") }
        for blockSize in [1, 7, 333] {
            let other = render(sounds, commands, frames: 30_000, blockSize: blockSize)
            // Bit-exact but for the order voices are summed in when a slot is reused mid-block.
            let largest = zip(other, reference).map { abs($0 - $1) }.max() ?? 0
            #expect(largest < 1e-6, "block size \(blockSize)")
        }
    }
}
