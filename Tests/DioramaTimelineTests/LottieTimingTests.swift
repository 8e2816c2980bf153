import DioramaDocument
import DioramaTimeline
import Testing

/// Which frame of a Lottie node shows when (floor of the exact frame position), and when its frames appear.
@Suite struct LottieTimingTests {
    static func content(fps: Rational = Rational(30), frames: Range<Int> = 0..<60, delay: Rational = .zero, speed: Rational = .one,
                        repeatCount: RepeatCount = .count(1), autoreverses: Bool = false, inPoint: Int = 0, outPoint: Int = 60) -> LottieContent {
        LottieContent(path: "a.json", rect: Rect(x: 0, y: 0, width: 10, height: 10),
                      animation: LottieAnimationInfo(frameRate: fps, inPoint: inPoint, outPoint: outPoint, width: 10, height: 10,
                                                     markers: [LottieMarker(name: "impact", frame: 30)]),
                      playback: LottiePlayback(delay: delay, speed: speed, frames: frames, repeatCount: repeatCount, autoreverses: autoreverses))
    }

    /// The n-th appearance a start `after` a Lottie frame waits for is the n-th time a cue on that frame fires, and
    /// the frame shown from then on: one rule for both, on every kind of playback.
    @Test func theNthAppearanceOfAStartIsTheNthFiringOfACue() {
        let delay = Rational(7, 4)
        for (frames, speed, repeatCount, autoreverses) in [
            (0..<60, Rational(1), RepeatCount.count(3), false), (10..<20, Rational(3, 2), .count(4), true),
            (5..<6, Rational(1), .count(3), true), (5..<6, Rational(2), .count(3), false), (0..<7, Rational(1, 3), .forever, true),
        ] {
            let content = Self.content(frames: frames, delay: delay, speed: speed, repeatCount: repeatCount, autoreverses: autoreverses)
            let timing = LottieTiming(content)
            for frame in frames.lowerBound - 1...frames.upperBound {
                let fired = timing.appearances(of: frame, from: .zero, before: Rational(1000), limit: 8).map(\.time)
                let waited = (1...8).compactMap { nth in
                    content.playback.stepsToAppearance(of: frame, nth: nth).map { delay + Rational($0) / timing.rate }
                }
                #expect(waited == fired, "frames \(frames), frame \(frame), autoreverses \(autoreverses)")
                for time in waited { #expect(timing.frame(at: time) == frame) }
            }
        }
    }

    @Test func frameKAppearsAtStartPlusKOverFpsOverSpeed() {
        let timing = LottieTiming(Self.content(delay: Rational(1), speed: Rational(2)))
        for k in 0..<60 {
            let appears = Rational(1) + Rational(Int128(k), 60)
            #expect(timing.frame(at: appears) == k)
            // Floor: the frame stays until the next one appears.
            #expect(timing.frame(at: appears + Rational(1, 61)) == k)
            if k > 0 { #expect(timing.frame(at: appears - Rational(1, 1_000_000)) == k - 1) }
        }
    }

    @Test func beforeTheDelayTheFirstFrameAfterTheEndTheLast() {
        let timing = LottieTiming(Self.content(frames: 10..<20, delay: Rational(3), inPoint: 0, outPoint: 60))
        #expect(timing.frame(at: Rational(0)) == 10)
        #expect(timing.frame(at: Rational(3)) == 10)
        #expect(timing.frame(at: Rational(3) + Rational(9, 30)) == 19)
        #expect(timing.frame(at: Rational(3) + Rational(10, 30)) == 19)
        #expect(timing.frame(at: Rational(1000)) == 19)
    }

    @Test func autoreverseShowsTheFramesBackwardsAndEndsOnTheFirstAfterAnEvenCount() {
        let timing = LottieTiming(Self.content(frames: 0..<4, repeatCount: .count(2), autoreverses: true, outPoint: 4))
        let shown = (0..<10).map { timing.frame(at: Rational(Int128($0), 30)) }
        #expect(shown == [0, 1, 2, 3, 3, 2, 1, 0, 0, 0])
    }

    @Test func foreverLoops() {
        let timing = LottieTiming(Self.content(repeatCount: .forever))
        #expect(timing.frame(at: Rational(2)) == 0)
        #expect(timing.frame(at: Rational(3)) == 30)
        #expect(timing.frame(at: Rational(3600) + Rational(59, 30)) == 59)
    }

    @Test func doubleTimesSnapToTheFrameTheyAreMeantFor() {
        let timing = LottieTiming(Self.content(fps: Rational(2997, 100), repeatCount: .forever))
        for k in 0..<600 {
            // k frames of 29.97 fps, as a double (often a hair below k).
            let time = Double(k) * 100 / 2997
            #expect(timing.frame(at: time) == k % 60)
        }
        #expect(LottieTiming(Self.content()).frame(at: 0.5 / 30) == 0)
    }

    @Test func appearancesAreExactOnEveryLoopAndOnceAtATurn() {
        let looping = LottieTiming(Self.content(delay: Rational(1), repeatCount: .forever))
        #expect(looping.appearances(of: 30, from: .zero, before: Rational(8)).map(\.time) == [2, 4, 6].map { Rational($0) })
        #expect(looping.appearances(of: 30, from: .zero, before: Rational(8)).map(\.iteration) == [0, 1, 2])
        let bouncing = LottieTiming(Self.content(frames: 0..<4, repeatCount: .count(3), autoreverses: true, outPoint: 4))
        // Frame 3 shows at 3/30 going forward and stays through the turn; frame 0 appears at 7/30 and stays through the next.
        #expect(bouncing.appearances(of: 3, from: .zero, before: Rational(10)).map(\.time) == [Rational(3, 30), Rational(11, 30)])
        #expect(bouncing.appearances(of: 0, from: .zero, before: Rational(10)).map(\.time) == [Rational(0), Rational(7, 30)])
        #expect(bouncing.appearances(of: 1, from: .zero, before: Rational(10)).map(\.time) == [Rational(1, 30), Rational(6, 30), Rational(9, 30)])
        #expect(looping.appearances(of: 60, from: .zero, before: Rational(8)).isEmpty)
    }

    @Test func cuesOnMarkersAndFramesFireOnEveryLoopToTheSample() throws {
        let node = Node(id: "ball", content: .lottie(Self.content(delay: Rational(1), speed: Rational(3, 2), repeatCount: .forever)))
        let scene = Scene(id: "s", title: LocalizedString("S"), duration: Rational(6), nodes: [node], cues: [
            Cue(sound: "tick", trigger: .lottie(node: "ball", event: .marker("impact"))),
            Cue(sound: "tock", trigger: .lottie(node: "ball", event: .frame(59)), offset: Rational(-1, 100)),
        ])
        let document = Document(canvas: Canvas(width: 10, height: 10, background: .solid(.black)),
                                languages: Languages(defaultLanguage: "en", fallback: "en", available: ["en"]), sounds: [], scenes: [scene])
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        // 45 frames per second: frame 30 at 1 + 30/45 + k·60/45, frame 59 at 1 + 59/45 + k·60/45 (minus 0.01).
        let ticks = schedule.cues.filter { $0.firing.sound == "tick" }
        #expect(ticks.map(\.absoluteTime) == (0..<4).map { Rational(1) + Rational(30, 45) + Rational(Int128($0) * 60, 45) })
        #expect(ticks.map(\.sampleIndex) == ticks.map { ($0.absoluteTime * Rational(48_000)).ceiling }.map { Int64($0) })
        let tocks = schedule.cues.filter { $0.firing.sound == "tock" }
        #expect(tocks.first?.absoluteTime == Rational(1) + Rational(59, 45) - Rational(1, 100))
        #expect(tocks.first?.firing.trigger == .lottie(node: "ball", event: .frame(59), frame: 59, iteration: 0))
        // The sequencer plays what the schedule holds.
        let sequencer = PlaylistSequencer(schedule: schedule)
        #expect(sequencer.firings[0].map(\.sceneTime) == schedule.cues.map(\.firing.sceneTime))
        // The snapshot shows the marker's frame from the moment the cue fires.
        let snapshot = SceneEvaluator(document: document).snapshot(scene: 0, at: ticks[1].absoluteTime.doubleValue)
        guard case .lottie(let shown) = snapshot.nodes[0].content else { Issue.record("no lottie"); return }
        #expect(shown.frame == 30)
    }

    @Test func theTimelineListsLottieCues() throws {
        let node = Node(id: "ball", content: .lottie(Self.content(delay: Rational(1))))
        let scene = Scene(id: "s", title: LocalizedString("S"), duration: Rational(6), nodes: [node], cues: [
            Cue(sound: "tick", trigger: .lottie(node: "ball", event: .marker("impact"))),
        ])
        let document = Document(canvas: Canvas(width: 10, height: 10, background: .solid(.black)),
                                languages: Languages(defaultLanguage: "en", fallback: "en", available: ["en"]), sounds: [], scenes: [scene])
        let report = TimelineReport(document: document, sampleRate: 48_000)
        #expect(report.text(file: "x.json").contains("ball marker impact (frame 30) #0"))
        #expect(report.json().contains(#""kind": "lottie", "node": "ball", "marker": "impact", "frame": 30, "iteration": 0"#))
    }
}
