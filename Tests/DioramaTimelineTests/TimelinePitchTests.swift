import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing
@testable import DioramaTimeline

/// `diorama timeline` shows each firing's pitch (its cue's and its sound's varied take) and the sound it picked, in
/// its text and its JSON; a firing at its file's pitch shows none, so files without pitches print as before.
@Suite struct TimelinePitchTests {
    static let json = """
        { "canvas": { "width": 10, "height": 10 },
          "sounds": { "tine": "tine.wav", "bell": { "path": "bell.wav", "vary": { "pitch": 1 } }, "a": "a.wav", "b": "b.wav" },
          "scenes": [{ "id": "box", "duration": 4, "cues": [
            { "sound": "tine", "at": 1, "pitch": 7 },
            { "sound": "tine", "at": 1.5 },
            { "sound": "bell", "at": 2, "every": 0.5, "count": 3 },
            { "sound": ["a", "b"], "at": 3, "pitch": -12 }
          ] }] }
        """

    @Test func theTextAndTheJSONShowEachFiringsPitchAndPick() throws {
        let document = try DocumentFixtures.decode(Self.json).document
        let report = TimelineReport(document: document, sampleRate: 48_000)
        let rows = report.text(file: "box.json").split(separator: "\n").filter { $0.contains("box  ") && $0.contains(" at ") }
        #expect(rows.count == 6, "\(rows)")
        #expect(rows[0].contains("tine +7 st "), "\(rows[0])")
        #expect(rows[1].contains("tine  ") && !rows[1].contains(" st "), "\(rows[1])")
        // The bell's takes are one of seven from -1 to +1 semitone, in thirds: each firing's is shown as the mixer plays it.
        let bell = document.sounds.first { $0.name == "bell" }!.vary!
        for (row, cue) in zip(rows[2...4], report.schedule.cues[2...4]) {
            let take = bell.semitones(ofTake: cue.firing.variation(bell).take)
            #expect(row.contains(TimelineReport.pitchText(take) + " ") || (take == 0 && !row.contains(" st ")), "\(row) \(take)")
        }
        #expect(rows[5].contains("\(report.schedule.cues[5].firing.sound) -12 st"), "\(rows[5])")

        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        let cues = try #require(object["cues"] as? [[String: Any]])
        #expect(cues[0]["pitch"] as? Double == 7)
        #expect(cues[1]["pitch"] == nil && cues[1]["pickedFrom"] == nil)
        #expect(cues[5]["pitch"] as? Double == -12)
        #expect(cues[5]["pickedFrom"] as? [String] == ["a", "b"])
        #expect(["a", "b"].contains(cues[5]["sound"] as? String ?? ""))
    }
}
