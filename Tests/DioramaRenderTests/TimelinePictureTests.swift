import DioramaDocument
@testable import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// `timeline --picture`: the chart drawn where its times say, as PNG and SVG, never over a file without leave.
@Suite struct TimelinePictureTests {
    /// One 4 s scene: a keyframe track from 1 s to 3 s and a cue at 2 s.
    static func chart() throws -> TimelineChart {
        let document = try DocumentFixtures.decode("""
            { "canvas": { "width": 100, "height": 100 }, "sounds": { "bell": "bell.flac" },
              "scenes": [{ "id": "s", "title": "S", "duration": 4, "cues": [{ "sound": "bell", "at": 2 }],
                           "nodes": [{ "type": "circle", "id": "c", "r": 5, "fill": "#fff",
                                       "animations": [{ "id": "a", "property": "opacity", "delay": 1,
                                                        "keyframes": [{ "time": 0, "value": 0 }, { "time": 2, "value": 1 }] }] }] }] }
            """).document
        return TimelineChart(document: document, schedule: CueSchedule(document: document, sampleRate: 48_000))
    }

    @Test func barsAndCueMarksLandOnTheirTimes() throws {
        let temporary = try TemporaryFolder()
        let picture = TimelinePicture(chart: try Self.chart(), width: 1000)
        let url = temporary.url.appendingPathComponent("t.png")
        let waveform = Array(repeating: (low: Float(-0.5), high: Float(0.5)), count: picture.plotColumns)
        try picture.write(to: url, format: .png, title: "t", waveform: waveform, replacing: false)
        let frame = try RenderedFrame(contentsOfPNG: url)
        #expect(frame.width == 1000 && frame.height == picture.height)

        func channels(_ x: Double, _ y: Double) -> (r: Int, g: Int, b: Int) {
            let pixel = frame.pixel(x: Int(x), y: Int(y))
            return (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
        }
        // Rows: header, axis, the lane's title, its one animation row, then its cue row.
        let rowY = 16 + 44 + 26 + 26 + 9.0
        let cueY = rowY - 9 + 18 + 8
        // The bar (blue, the first lane's colour) covers 1 ... 3 s and nothing before it.
        let inside = channels(picture.x(1.5), rowY), before = channels(picture.x(0.5), rowY)
        #expect(inside.b > 200 && inside.r < 120, "bar at 1.5 s: \(inside)")
        #expect(before.b < 100, "no bar at 0.5 s: \(before)")
        // The cue's orange diamond at 2 s, none at 1 s.
        let mark = channels(picture.x(2), cueY), none = channels(picture.x(1), cueY)
        #expect(mark.r > 200 && mark.g > 120 && mark.b < 120, "cue mark at 2 s: \(mark)")
        #expect(none.r < 100, "no cue mark at 1 s: \(none)")
        // Drawing the same chart again gives the same bytes.
        let again = temporary.url.appendingPathComponent("u.png")
        try picture.write(to: again, format: .png, title: "t", waveform: waveform, replacing: false)
        #expect(try Data(contentsOf: url) == Data(contentsOf: again))
    }

    @Test func anSVGIsWrittenAndAnExistingFileIsKeptUnlessReplacing() throws {
        let temporary = try TemporaryFolder()
        let picture = TimelinePicture(chart: try Self.chart())
        let url = temporary.url.appendingPathComponent("t.svg")
        try Data("mine".utf8).write(to: url)
        #expect(throws: RenderError.self) { try picture.write(to: url, format: .svg, title: "t", waveform: [], replacing: false) }
        #expect(try String(contentsOf: url, encoding: .utf8) == "mine")
        try picture.write(to: url, format: .svg, title: "t", waveform: [], replacing: true)
        let svg = try String(contentsOf: url, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg"))
        // Nothing else is left in the folder (the partial file is renamed into place).
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path) == ["t.svg"])
    }
}
