import DioramaDocument
import DioramaTimeline
import Testing

/// Where a player's playlist sits on a shared show clock: the whole playlist, scenes ahead, or one scene looping.
@Suite struct ShowLayoutTests {
    let durations = [Rational(4), Rational(3), Rational(5)]

    @Test func theWholePlaylistIsTheShowAndRepeatsEveryCycle() {
        let layout = ShowLayout(durations: durations)
        #expect(layout.cycle == 12 && layout.length == 12)
        #expect(layout.playlistSeconds(atShow: 5.5) == 5.5)
        #expect(layout.playlistSeconds(atShow: 29.5) == 5.5)
        #expect(layout.playlistSeconds(atShow: -1) == 11)
        let position = layout.position(atShow: 5.5, sampleRate: 48_000)
        #expect(position.scene == 1 && position.sceneTime == Rational(3, 2))
    }

    @Test func aMomentThatRoundsToASceneEndIsTheNextSceneStart() {
        let layout = ShowLayout(durations: durations)
        let position = layout.position(atPlaylist: 4 - 1e-9, sampleRate: 48_000)
        #expect(position.scene == 1 && position.sceneTime == .zero)
        let last = layout.position(atPlaylist: 12 - 1e-9, sampleRate: 48_000)
        #expect(last.scene == 2 && last.sceneTime == Rational(5), "the last scene keeps its end")
        let inside = layout.position(atPlaylist: 1.000_01, sampleRate: 48_000)
        #expect(inside.scene == 0 && inside.sceneTime == Rational(48_000, 48_000), "rounded to the nearest sample")
    }

    @Test func aSceneOffsetShowsTheShowThatManyScenesAheadWrapping() {
        let ahead = ShowLayout(durations: durations, sceneOffset: 1)
        #expect(ahead.offset == 4)
        #expect(ahead.position(atShow: 0, sampleRate: 48_000).scene == 1)
        #expect(ahead.playlistSeconds(atShow: 10) == 2, "past the end it wraps to the first scene")
        #expect(ShowLayout(durations: durations, sceneOffset: -1).offset == 7)
        #expect(ShowLayout(durations: durations, sceneOffset: 3).offset == 0)
    }

    @Test func onlyOneSceneLoopsOnTheShowClockAndStartsOverWithTheShow() {
        let only = ShowLayout(durations: durations, only: 2)
        #expect(only.cycle == 12 && only.length == 5 && only.clock.durations == [Rational(5)])
        #expect(only.playlistSeconds(atShow: 7) == 2)
        #expect(only.playlistSeconds(atShow: 12.5) == 0.5, "the show's new cycle starts the scene over")
    }

    @Test func differencesTakeTheShortWayRound() {
        let layout = ShowLayout(durations: durations)
        #expect(abs(layout.difference(11.9, from: 0.1) + 0.2) < 1e-9)
        #expect(abs(layout.difference(0.1, from: 11.9) - 0.2) < 1e-9)
        #expect(layout.difference(5, from: 3) == 2)
    }
}
