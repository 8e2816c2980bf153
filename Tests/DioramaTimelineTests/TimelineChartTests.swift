import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing
@testable import DioramaTimeline

/// What `timeline --picture` draws: lanes, iteration bars, keyframe ticks, Lottie passes, taps and cue marks in playlist seconds.
@Suite struct TimelineChartTests {
    /// Two scenes: a 3 s intro, then a 4 s scene whose `spin` starts 0.5 s in, runs 1 s forward and 1 s back, with a
    /// bell on its `to`, and an unnamed fade.
    static let json = """
        { "canvas": { "width": 100, "height": 100 },
          "sounds": { "bell": "bell.flac" },
          "scenes": [
            { "id": "intro", "title": { "en": "Intro", "ja": "序" }, "duration": 3 },
            { "id": "wheel", "title": "Wheel", "duration": 4,
              "cues": [{ "sound": "bell", "node": "w", "animation": "spin", "on": "to" }],
              "nodes": [
                { "type": "circle", "id": "w", "r": 10, "fill": "#fff",
                  "animations": [{ "id": "spin", "property": "rotation", "from": 0, "to": 90, "duration": 1, "delay": 0.5,
                                   "repeat": 2, "autoreverses": true }] },
                { "type": "rect", "width": 5, "height": 5, "fill": "#fff",
                  "animations": [{ "property": "opacity", "to": 0, "duration": 2 }] } ] } ] }
        """

    static func chart(scenes: Set<String>? = nil, from: Double? = nil, to: Double? = nil, language: String? = nil) throws -> TimelineChart {
        let document = try DocumentFixtures.decode(json).document
        return TimelineChart(document: document, schedule: CueSchedule(document: document, sampleRate: 48_000),
                             language: language, scenes: scenes, from: from, to: to)
    }

    @Test func barsTicksAndCuesAreInPlaylistSeconds() throws {
        let chart = try Self.chart()
        #expect(chart.from == 0 && chart.to == 7)
        #expect(chart.lanes.map(\.id) == ["intro", "wheel"])
        let wheel = chart.lanes[1]
        #expect(wheel.start == 3 && wheel.end == 7 && wheel.title == "Wheel")
        #expect(wheel.rows.map(\.label) == ["w.spin"])
        #expect(wheel.unnamedAnimations == 1)
        // Forward from 3.5 to 4.5, back to 5.5; keyframes passed at the start, at the turn (once) and at the end.
        #expect(wheel.rows[0].bars == [TimelineChart.Bar(start: 3.5, end: 4.5, reversed: false),
                                       TimelineChart.Bar(start: 4.5, end: 5.5, reversed: true)])
        #expect(wheel.rows[0].keyframes == [3.5, 4.5, 5.5])
        #expect(wheel.cues == [TimelineChart.CueMark(time: 4.5, sound: "bell")])
    }

    @Test func aSceneOrASpanZoomsIn() throws {
        #expect(try Self.chart(scenes: ["wheel"]).lanes.map(\.id) == ["wheel"])
        #expect(try Self.chart(scenes: ["wheel"]).from == 3)
        // A span inside the second scene leaves the first out.
        let zoomed = try Self.chart(from: 4, to: 5)
        #expect(zoomed.lanes.map(\.id) == ["wheel"] && zoomed.from == 4 && zoomed.to == 5)
        #expect(try Self.chart(language: "ja").lanes[0].title == "序")
    }

    @Test func aRepeatingAnimationEndsItsLastBarAtTheScenesEnd() throws {
        let json = Self.json.replacingOccurrences(of: "\"repeat\": 2", with: "\"repeat\": \"forever\"")
        let document = try DocumentFixtures.decode(json).document
        let chart = TimelineChart(document: document, schedule: CueSchedule(document: document, sampleRate: 48_000))
        let bars = chart.lanes[1].rows[0].bars
        #expect(bars.count == 4 && bars.last == TimelineChart.Bar(start: 6.5, end: 7, reversed: true))
    }

    @Test func aLottieNodeHasARowOfPassesAndMarkersAndTapsAreMarked() throws {
        // 60 frames at 30 fps from 1 s, autoreversing twice: forward 1...3 s, back 3...5 s; the marker on frame 30
        // appears at 2 s and, on the way back, as frame 30 shows again at 3 + 29/30 s. The button taps itself at 2.5 s.
        let folder = try TemporaryFolder()
        try Data(LottieFixtures.json(markers: [("impact", 30, 0)]).utf8).write(to: folder.url.appendingPathComponent("drum.json"))
        let json = """
            { "canvas": { "width": 100, "height": 100 },
              "scenes": [{ "id": "box", "duration": 6, "nodes": [
                { "type": "lottie", "id": "drum", "path": "drum.json", "delay": 1, "repeat": 2, "autoreverses": true },
                { "type": "lottie", "path": "drum.json" },
                { "type": "rect", "id": "button", "width": 10, "height": 10, "fill": "#fff", "tap": { "auto": 2.5 } } ] }] }
            """
        let document = try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.path("scenes.json")).document
        let lane = TimelineChart(document: document, schedule: CueSchedule(document: document, sampleRate: 48_000)).lanes[0]
        #expect(lane.rows.map(\.label) == ["drum (lottie)"], "a Lottie node without an id has no row")
        #expect(lane.rows[0].bars == [TimelineChart.Bar(start: 1, end: 3, reversed: false), TimelineChart.Bar(start: 3, end: 5, reversed: true)])
        #expect(lane.rows[0].keyframes == [2, (Rational(3) + Rational(29, 30)).doubleValue])
        #expect(lane.taps == [TimelineChart.TapMark(time: 2.5, node: "button")])
        #expect(try Self.chart().lanes.allSatisfy(\.taps.isEmpty))
    }
}
