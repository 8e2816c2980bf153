import DioramaDocument
import DioramaTestSupport
import Testing
@testable import DioramaTimeline

private typealias F = TimelineFixtures

private func number(_ value: AnimationValue) -> Double {
    guard case .number(let number) = value else { Issue.record("not a number: \(value)"); return .nan }
    return number
}

@Suite struct AnimationTimingTests {
    /// from 0 to 10, 2 s long at speed 2 (1 s iterations), 0.5 s delay, 4 iterations, autoreversing.
    let sampler = AnimationSampler(F.basic(.offsetX, from: 0, to: 10, duration: "2", delay: "0.5", speed: "2",
                                           repeatCount: .count(4), autoreverses: true))

    @Test func holdsTheFirstValueBeforeTheDelay() {
        #expect(number(sampler.value(at: -3)) == 0)
        #expect(number(sampler.value(at: 0.49)) == 0)
        #expect(sampler.timing.phase(at: 0.2).stage == .waiting)
    }

    @Test func delayIsNotScaledBySpeedAndIterationsLastDurationOverSpeed() {
        #expect(number(sampler.value(at: 0.5)) == 0)
        #expect(abs(number(sampler.value(at: 0.75)) - 2.5) < 1e-12)
        #expect(abs(number(sampler.value(at: 1.25)) - 7.5) < 1e-12)
        #expect(sampler.timing.iterationLength == 1)
    }

    @Test func oddIterationsRunBackwards() {
        // Iteration 1 covers [1.5, 2.5): 10 -> 0.
        #expect(number(sampler.value(at: 1.5)) == 10)
        #expect(abs(number(sampler.value(at: 1.75)) - 7.5) < 1e-12)
        let phase = sampler.timing.phase(at: 1.75)
        #expect(phase.iteration == 1 && phase.reversed && abs(phase.fraction - 0.25) < 1e-12)
        // Iteration 2 forward again.
        #expect(abs(number(sampler.value(at: 2.75)) - 2.5) < 1e-12)
    }

    @Test func holdsWhereTheLastIterationEnded() {
        // 4 iterations: the last (3) runs backwards and ends on `from`.
        #expect(number(sampler.value(at: 4.5)) == 0)
        #expect(number(sampler.value(at: 100)) == 0)
        #expect(sampler.timing.phase(at: 100) == AnimationPhase(stage: .finished, iteration: 3, fraction: 1, reversed: true))
        // 3 iterations end forward, on `to`.
        let three = AnimationSampler(F.basic(.offsetX, from: 0, to: 10, duration: "1", repeatCount: .count(3), autoreverses: true))
        #expect(number(three.value(at: 3)) == 10)
        // Without autoreverse every iteration ends on `to`.
        let plain = AnimationSampler(F.basic(.offsetX, from: 0, to: 10, duration: "1", repeatCount: .count(2)))
        #expect(number(plain.value(at: 2)) == 10)
        #expect(number(plain.value(at: 1)) == 0)  // iteration 1 starts over
    }

    @Test func anHourInIsAsExactAsTheFirstSecond() {
        let bob = AnimationSampler(F.basic(.offsetY, from: 440, to: 410, duration: "0.9", curve: .easeInOut, delay: "0.2",
                                           speed: "1.5", repeatCount: .forever, autoreverses: true))
        // Iteration length 0.6 s; iteration 6000 starts at 3600.2 s and runs forward like iteration 0.
        for fraction in [0.0, 0.1, 0.37, 0.5, 0.93] {
            let early = number(bob.value(at: 0.2 + 0.6 * fraction))
            let late = number(bob.value(at: 3600.2 + 0.6 * fraction))
            #expect(abs(early - late) < 1e-9, "fraction \(fraction)")
            let lateReversed = number(bob.value(at: 3600.8 + 0.6 * fraction))
            #expect(abs(number(bob.value(at: 0.8 + 0.6 * fraction)) - lateReversed) < 1e-9)
        }
        #expect(bob.timing.phase(at: 3600.2).iteration == 6000)
    }

    @Test func aFrameOnAnIterationBoundaryBelongsToTheIterationStartingThere() {
        // 0.9 s iterations without autoreverse: at 60 fps, frame 54k is exactly on a boundary but 54.0/60 is inexact.
        let loop = AnimationSampler(F.basic(.opacity, from: 0, to: 1, duration: "0.9", repeatCount: .forever))
        for k in [1, 2, 7, 4000] {
            let time = Double(54 * k) / 60
            #expect(number(loop.value(at: time)) == 0, "frame \(54 * k)")
            #expect(loop.timing.phase(at: time).iteration == k)
        }
    }

    @Test func repeatForeverNeverFinishes() {
        let forever = AnimationSampler(F.basic(.opacity, from: 0, to: 1, duration: "1", repeatCount: .forever))
        #expect(forever.timing.phase(at: 1e6 + 0.25).stage == .running)
        #expect(abs(number(forever.value(at: 1e6 + 0.25)) - 0.25) < 1e-9)
    }

    @Test func curvesShapeEachIteration() {
        let eased = AnimationSampler(F.basic(.opacity, from: 0, to: 1, duration: "2", curve: .easeIn, repeatCount: .count(2), autoreverses: true))
        #expect(abs(number(eased.value(at: 1)) - 0.3153568125725393) < 1e-7)
        // Backwards in time: the reversed iteration retraces the same curve.
        #expect(abs(number(eased.value(at: 3)) - 0.3153568125725393) < 1e-7)
    }

    @Test func springIterationsFollowTheOscillatorAndLandOnTheTarget() {
        let curve = TimingCurve.spring(response: 0.8, dampingFraction: 0.5)
        let animation = Animation(property: .scale, kind: .basic(from: .number(1), to: .number(2), curve: curve, duration: curve.settlingDuration),
                                  speed: F.seconds("2"))
        let sampler = AnimationSampler(animation)
        // At speed 2 the spring's own clock runs twice as fast as scene time.
        let expected = 1 + SpringMotion(curve)!.progress(at: 0.5)
        #expect(abs(number(sampler.value(at: 0.25)) - expected) < 1e-12)
        #expect(number(sampler.value(at: 100)) == 2)
    }

    @Test func zeroIterationsNeverStartAndZeroLengthJumps() {
        let never = AnimationSampler(F.basic(.opacity, from: 0.2, to: 1, duration: "1", repeatCount: .count(0)))
        #expect(number(never.value(at: 5)) == 0.2)
        let instant = AnimationSampler(F.basic(.opacity, from: 0.2, to: 1, duration: "0", delay: "1", repeatCount: .forever))
        #expect(number(instant.value(at: 0.5)) == 0.2)
        #expect(number(instant.value(at: 1)) == 1)
    }
}

@Suite struct KeyframeTrackTests {
    let track = AnimationSampler(Animation(property: .rotation, kind: .keyframes([
        Keyframe(time: .zero, value: .number(0)),
        Keyframe(time: F.seconds("1"), value: .number(10)),
        Keyframe(time: F.seconds("1.5"), value: .number(30), curve: .easeIn),
        Keyframe(time: F.seconds("2.5"), value: .number(-5), hold: true),
        Keyframe(time: F.seconds("3"), value: .number(0)),
    ]), delay: F.seconds("1"), repeatCount: .count(2), autoreverses: true))

    @Test func passesThroughEveryKeyframe() {
        for (time, value) in [(1.0, 0.0), (2.0, 10.0), (2.5, 30.0), (3.5, -5.0), (4.0, 0.0)] {
            #expect(number(track.value(at: time)) == value, "t = \(time)")
        }
    }

    @Test func eachSegmentUsesTheCurveOfTheKeyframeItArrivesAt() {
        #expect(abs(number(track.value(at: 1.5)) - 5) < 1e-12)  // linear into keyframe 1
        #expect(abs(number(track.value(at: 2.25)) - (10 + 20 * 0.3153568125725393)) < 1e-6)  // easeIn into keyframe 2
    }

    @Test func holdJumpsExactlyAtItsKeyframe() {
        #expect(number(track.value(at: 3.49)) == 30)
        #expect(number(track.value(at: 3.5)) == -5)
        #expect(number(track.value(at: 2.5 + 1.0 - 1e-12)) == -5)  // within the boundary tolerance: on the keyframe
    }

    @Test func reversedIterationsTraverseTheTrackBackwards() {
        // Iteration 1 starts at 4 s at the last keyframe and arrives back at the first at 7 s.
        #expect(number(track.value(at: 4.5)) == -5)  // track time 2.5
        #expect(number(track.value(at: 4.75)) == 30)  // track time 2.25: still held at keyframe 2's value
        #expect(abs(number(track.value(at: 6.5)) - 5) < 1e-12)  // track time 0.5
        #expect(number(track.value(at: 7)) == 0)
        #expect(number(track.value(at: 70)) == 0)
    }

    @Test func coloursInterpolatePerComponentInStraightSRGB() {
        let fade = AnimationSampler(Animation(property: .fillColor, kind: .basic(
            from: .color(Color(red: 1, green: 0, blue: 0.5, alpha: 0)), to: .color(Color(red: 0, green: 1, blue: 0.5, alpha: 1)),
            curve: .linear, duration: F.seconds("2"))))
        #expect(fade.value(at: 0.5) == .color(Color(red: 0.75, green: 0.25, blue: 0.5, alpha: 0.25)))
    }
}

@Suite struct PropertyChannelTests {
    @Test func theLaterAnimationWinsFromItsStartOn() {
        let first = F.basic(.opacity, from: 0, to: 1, duration: "4")
        let second = F.basic(.opacity, from: 0.5, to: 0.1, duration: "1", delay: "2")
        let channel = PropertyChannel(property: .opacity, samplers: [first, second].map(AnimationSampler.init))
        #expect(abs(number(channel.value(at: 1)) - 0.25) < 1e-12)
        #expect(number(channel.value(at: 2)) == 0.5)
        #expect(abs(number(channel.value(at: 2.5)) - 0.3) < 1e-12)
        #expect(number(channel.value(at: 10)) == 0.1)
    }

    @Test func beforeAnyStartsTheFirstHoldsItsFirstValue() {
        let late = F.basic(.opacity, from: 0.9, to: 1, duration: "1", delay: "5")
        let early = F.basic(.opacity, from: 0.2, to: 0.4, duration: "1", delay: "2")
        let channel = PropertyChannel(property: .opacity, samplers: [late, early].map(AnimationSampler.init))
        #expect(number(channel.value(at: 1)) == 0.9)
        #expect(number(channel.value(at: 6)) == 0.4)  // the later in the list wins even though the other started after it
    }
}
