import DioramaDocument
import DioramaTimeline
import Testing

/// The playlist end to end: scene starts, the scene at a time, rounds when wrapping, the viewer's segments.
@Suite struct PlaylistClockTests {
    let clock = PlaylistClock(durations: [Rational(4), Rational(3), Rational(5)])

    @Test func scenesStartWhereTheScenesBeforeThemEnd() {
        #expect(clock.starts == [.zero, Rational(4), Rational(7)] && clock.length == Rational(12))
        #expect(clock.span(ofScene: 1) == Rational(4)..<Rational(7))
    }

    @Test func aTimeOnASceneEndIsTheNextSceneStartAndThePlaylistEndIsTheLastSceneEnd() {
        #expect(clock.position(at: Rational(4)) == PlaybackPosition(scene: 1, sceneTime: .zero))
        #expect(clock.position(at: Rational(7, 2)) == PlaybackPosition(scene: 0, sceneTime: Rational(7, 2)))
        #expect(clock.position(at: Rational(12)) == PlaybackPosition(scene: 2, sceneTime: Rational(5)))
        #expect(clock.position(at: Rational(30)) == PlaybackPosition(scene: 2, sceneTime: Rational(5)))
    }

    @Test func wrappingATimePastTheEndLiesInALaterRound() {
        #expect(clock.position(at: Rational(12), wrapping: true) == PlaybackPosition(scene: 0, sceneTime: .zero))
        #expect(clock.position(at: Rational(12 * 1000 + 8), wrapping: true) == PlaybackPosition(scene: 2, sceneTime: Rational(1)))
        #expect(PlaylistClock(durations: []).length == .zero)
    }

    @Test func progressFillsTheScenesBeforeAndTheCurrentOnesFraction() {
        #expect(clock.progress(scene: 2, sceneFrame: 2.5 * 48_000, sampleRate: 48_000) == [1, 1, 0.5])
        #expect(clock.progress(scene: 0, sceneFrame: -10, sampleRate: 48_000) == [0, 0, 0])
    }
}
