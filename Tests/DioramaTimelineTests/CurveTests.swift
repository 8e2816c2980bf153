import DioramaDocument
import Foundation
import Testing
@testable import DioramaTimeline

/// Reference: the bezier in Bernstein form, solved by plain bisection to the last bit (independent of
/// `CubicBezier`'s polynomial form and Newton steps).
private func referenceBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
    func bernstein(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }
    var low = 0.0, high = 1.0
    for _ in 0..<200 {
        let middle = (low + high) / 2
        if bernstein(x1, x2, middle) < x { low = middle } else { high = middle }
    }
    return bernstein(y1, y2, (low + high) / 2)
}

@Suite struct CubicBezierTests {
    /// Values computed separately with 50-digit decimal bisection.
    @Test(arguments: [
        (TimingCurve.easeIn, [(0.1, 0.01702660965156294), (0.25, 0.09346465071882486), (0.5, 0.3153568125725393),
                              (0.75, 0.6218618691748902), (0.9, 0.8394278457624665)]),
        (TimingCurve.easeOut, [(0.1, 0.16057215423753346), (0.25, 0.3781381308251098), (0.5, 0.6846431874274607),
                               (0.75, 0.9065353492811752), (0.9, 0.982973390348437)]),
        (TimingCurve.easeInOut, [(0.1, 0.019722453548311196), (0.25, 0.12916193104731982), (0.5, 0.5),
                                 (0.75, 0.8708380689526802), (0.9, 0.9802775464516889)]),
        // CSS `ease`.
        (TimingCurve.cubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1), [(0.1, 0.09479630571604325), (0.25, 0.40851059135539586),
                                                                     (0.5, 0.802403387584857), (0.75, 0.9604589783489741),
                                                                     (0.9, 0.9943164774845563)]),
    ])
    func namedCurvesMatchReferenceValues(curve: TimingCurve, values: [(Double, Double)]) {
        for (x, y) in values {
            #expect(abs(curve.progress(at: x, duration: 1) - y) < 1e-7, "\(curve) at \(x)")
        }
    }

    @Test(arguments: [
        (0.42, 0.0, 0.58, 1.0), (0.42, 0.0, 1.0, 1.0), (0.0, 0.0, 0.58, 1.0),
        (0.68, -0.55, 0.265, 1.55),  // back-in-out: overshoots both ends
        (0.0, 1.0, 1.0, 0.0),  // vertical tangents at both ends
        (0.0, 0.0, 1.0, 1.0), (0.9, 0.1, 0.1, 0.9), (0.05, 0.9, 0.05, 0.9),
    ])
    func matchesBisectionEverywhere(x1: Double, y1: Double, x2: Double, y2: Double) {
        let bezier = CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2)
        for step in 0...1000 {
            let x = Double(step) / 1000
            let expected = step == 0 ? 0 : step == 1000 ? 1 : referenceBezier(x1, y1, x2, y2, at: x)
            #expect(abs(bezier.progress(at: x) - expected) < 1e-7, "x = \(x)")
        }
        // Also very close to the ends, where Newton's method meets flat slopes.
        for x in [1e-12, 1e-9, 1e-6, 1 - 1e-6, 1 - 1e-9] {
            #expect(abs(bezier.progress(at: x) - referenceBezier(x1, y1, x2, y2, at: x)) < 1e-7, "x = \(x)")
        }
    }

    /// Where x'(t) = 0 inside the curve (a vertical tangent mid-way), x(t) − x ≈ c·(t − t₀)³, so doubles can only
    /// pin t to about ∛ε ≈ 1e-5 there: no solver (nor the reference) does better, so the bound is looser.
    @Test func verticalTangentInTheMiddleIsAsCloseAsDoublesAllow() {
        let bezier = CubicBezier(x1: 1, y1: 0, x2: 0, y2: 1)
        for step in 1..<1000 {
            let x = Double(step) / 1000
            #expect(abs(bezier.progress(at: x) - referenceBezier(1, 0, 0, 1, at: x)) < 1e-5, "x = \(x)")
        }
        #expect(abs(bezier.progress(at: 0.25) - referenceBezier(1, 0, 0, 1, at: 0.25)) < 1e-7)
    }

    @Test func easeInOutIsPointSymmetric() {
        for step in 0...100 {
            let x = Double(step) / 100
            #expect(abs(CubicBezier.easeInOut.progress(at: x) + CubicBezier.easeInOut.progress(at: 1 - x) - 1) < 1e-12)
        }
    }

    @Test func easeInAndEaseOutMirrorEachOther() {
        for step in 0...100 {
            let x = Double(step) / 100
            #expect(abs(CubicBezier.easeIn.progress(at: x) - (1 - CubicBezier.easeOut.progress(at: 1 - x))) < 1e-9)
        }
    }

    @Test func linearIsTheIdentityAndEndsAreExact() {
        for curve in [TimingCurve.linear, .easeIn, .easeOut, .easeInOut, .cubicBezier(x1: 0.3, y1: 1.4, x2: 0.6, y2: -0.4)] {
            #expect(curve.progress(at: 0, duration: 1) == 0)
            #expect(curve.progress(at: 1, duration: 1) == 1)
        }
        #expect(TimingCurve.linear.progress(at: 0.3, duration: 5) == 0.3)
    }
}

/// Reference: the oscillator's ODE integrated with classical Runge-Kutta at 10 µs steps.
private func integrateSpring(omega: Double, zeta: Double, until time: Double) -> Double {
    let steps = Int((time / 1e-5).rounded())
    let h = time / Double(steps)
    var x = 0.0, v = 0.0
    func acceleration(_ x: Double, _ v: Double) -> Double { -omega * omega * (x - 1) - 2 * zeta * omega * v }
    for _ in 0..<steps {
        let (k1x, k1v) = (v, acceleration(x, v))
        let (k2x, k2v) = (v + h / 2 * k1v, acceleration(x + h / 2 * k1x, v + h / 2 * k1v))
        let (k3x, k3v) = (v + h / 2 * k2v, acceleration(x + h / 2 * k2x, v + h / 2 * k2v))
        let (k4x, k4v) = (v + h * k3v, acceleration(x + h * k3x, v + h * k3v))
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    }
    return x
}

@Suite struct SpringTests {
    @Test(arguments: [
        (2 * Double.pi, 0.3), (2 * Double.pi, 0.0), (8.0, 1.0), (5.0, 2.5), (12.0, 0.999_999_9), (12.0, 1.000_000_1), (3.0, 0.7),
    ])
    func closedFormMatchesNumericIntegration(omega: Double, zeta: Double) {
        let spring = SpringMotion(omega: omega, dampingRatio: zeta)
        for time in [0.05, 0.1, 0.25, 0.5, 0.8, 1.3, 2.0] {
            let reference = integrateSpring(omega: omega, zeta: zeta, until: time)
            #expect(abs(spring.progress(at: time) - reference) < 1e-7, "ω \(omega) ζ \(zeta) t \(time)")
        }
    }

    @Test func underDampedOvershootsAndOthersDoNot() {
        let under = SpringMotion(TimingCurve.spring(response: 0.5, dampingFraction: 0.3))!
        let critical = SpringMotion(TimingCurve.spring(response: 0.5, dampingFraction: 1))!
        let over = SpringMotion(TimingCurve.interpolatingSpring(mass: 1, stiffness: 100, damping: 40))!
        let times = (1...400).map { Double($0) / 100 }
        #expect(times.map(under.progress).max()! > 1.3)
        #expect(times.map(critical.progress).allSatisfy { $0 <= 1 })
        #expect(times.map(over.progress).allSatisfy { $0 <= 1 })
        // Monotonic rise without overshoot.
        #expect(zip(times, times.dropFirst()).allSatisfy { critical.progress(at: $0) <= critical.progress(at: $1) })
    }

    /// SwiftUI's settling estimate, ln((1 + ζω) / 0.001) / (ζω) rounded up to the millisecond, as docs/FORMAT.md
    /// gives it: the default spring 0.982 s (the 0.1 % envelope with the ringing's amplitude, used before, gave 1.191);
    /// response 0.4 and dampingFraction 0.6 have the same ζω; critical damping at response 0.5, 0.758 s.
    @Test func settlingIsSwiftUIsEstimate() {
        #expect(TimingCurve.spring(response: 0.55, dampingFraction: 0.825).settlingDuration == Rational(982, 1000))
        #expect(TimingCurve.spring(response: 0.4, dampingFraction: 0.6).settlingDuration == Rational(982, 1000))
        #expect(TimingCurve.spring(response: 0.5, dampingFraction: 1).settlingDuration == Rational(758, 1000))
        #expect(TimingCurve.spring(response: 1.2, dampingFraction: 0.4).settlingDuration == Rational(3838, 1000))
        // ζω = damping / 2m = 7.5 per second.
        #expect(TimingCurve.interpolatingSpring(mass: 1, stiffness: 170, damping: 15).settlingDuration == Rational(1207, 1000))
        #expect(TimingCurve.spring(response: 1, dampingFraction: 0).settlingDuration == .zero)
    }

    /// Over-damped, the motion never overshoots and settling is exact: within 0.1 % at the settling time, not a
    /// millisecond before.
    @Test func anOverdampedSpringSettlesWhenItFirstComesWithinATenthOfAPercent() {
        for curve in [TimingCurve.interpolatingSpring(mass: 2, stiffness: 50, damping: 40), .spring(response: 0.5, dampingFraction: 3)] {
            let spring = SpringMotion(curve)!
            let settle = curve.settlingDuration.doubleValue
            #expect(abs(spring.progress(at: settle) - 1) <= 0.001, "\(curve)")
            #expect(abs(spring.progress(at: settle - 0.001) - 1) > 0.001, "\(curve)")
        }
    }

    /// From the settling time on, the shipped kinds of spring stay within the documented 0.1 % of their target.
    @Test func staysNearItsTargetAfterSettling() {
        for curve in [TimingCurve.spring(response: 0.55, dampingFraction: 0.825), .spring(response: 1.2, dampingFraction: 0.4),
                      .spring(response: 0.5, dampingFraction: 1), .interpolatingSpring(mass: 1, stiffness: 170, damping: 15),
                      .interpolatingSpring(mass: 2, stiffness: 50, damping: 40)] {
            let spring = SpringMotion(curve)!
            let settle = curve.settlingDuration.doubleValue
            for step in 0...200 {
                let time = settle + Double(step) * settle / 100
                #expect(abs(spring.progress(at: time) - 1) <= 0.001, "\(curve) at \(time)")
            }
        }
    }

    @Test func swiftUISpringParametersGiveTheDocumentedFrequency() {
        // response 1 s, no damping: a full period every second, so it is back at 0 after exactly 1 s.
        let spring = SpringMotion(TimingCurve.spring(response: 1, dampingFraction: 0))!
        #expect(abs(spring.progress(at: 1)) < 1e-12)
        #expect(abs(spring.progress(at: 0.5) - 2) < 1e-12)
    }

    @Test func springCurveRunsOnTheSegmentClockAndLandsOnItsTarget() {
        let curve = TimingCurve.spring(response: 1, dampingFraction: 0.5)
        let spring = SpringMotion(curve)!
        #expect(curve.progress(at: 0.25, duration: 2) == spring.progress(at: 0.5))
        #expect(curve.progress(at: 1, duration: 2) == 1)
    }
}
