import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing
@testable import DioramaTimeline

private typealias F = TimelineFixtures

@Suite struct TimelineReportTests {
    let document = F.document([
        F.ocean(duration: "4"),
        Scene(id: "q\"uote", title: LocalizedString([("en", "Swing"), ("ja", "ぶらんこ")]), duration: F.seconds("1.5"),
              cues: [Cue(sound: "creak", trigger: .at(F.seconds("1")), offset: F.seconds("0.25"), gain: 0.5, pan: 1)]),
    ])

    private func parsed(_ report: TimelineReport) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(report.json().utf8))
        return try #require(object as? [String: Any])
    }

    @Test func jsonIsOneObjectWithTheDocumentedKeys() throws {
        let report = TimelineReport(document: document, sampleRate: 44_100, language: "ja")
        let json = try parsed(report)
        #expect(json["format"] as? String == "diorama-timeline/2")
        #expect(json["sampleRate"] as? Int == 44_100)
        #expect(json["duration"] as? Double == 5.5 && json["durationExact"] as? String == "11/2")
        #expect(json["samples"] as? Int == 242_550)
        let scenes = try #require(json["scenes"] as? [[String: Any]])
        #expect(scenes.count == 2)
        #expect(Set(scenes[1].keys) == ["index", "id", "title", "start", "startExact", "duration", "durationExact",
                                        "startSample", "endSample", "cueCount"])
        #expect(scenes[1]["id"] as? String == "q\"uote" && scenes[1]["title"] as? String == "ぶらんこ")
        #expect(scenes[1]["startSample"] as? Int == 176_400 && scenes[1]["cueCount"] as? Int == 1)
        let cues = try #require(json["cues"] as? [[String: Any]])
        #expect(cues.count == report.schedule.cues.count)
        let last = try #require(cues.last)
        #expect(Set(last.keys) == ["time", "timeExact", "sample", "scene", "sceneId", "sceneTime", "sceneTimeExact", "cue",
                                   "sound", "gain", "pan", "offset", "trigger"])
        #expect(last["time"] as? Double == 5.25 && last["timeExact"] as? String == "21/4")
        #expect(last["sample"] as? Int == 231_525)
        #expect(last["sceneTime"] as? Double == 1.25 && last["offset"] as? Double == 0.25)
        #expect(last["gain"] as? Double == 0.5 && last["pan"] as? Int == 1)
        let trigger = try #require(last["trigger"] as? [String: Any])
        #expect(trigger["kind"] as? String == "at" && trigger["at"] as? Double == 1)
    }

    @Test func animationTriggersNameTheirEventAsTheFileDoes() throws {
        let cues = try #require(try parsed(TimelineReport(document: document, sampleRate: 48_000))["cues"] as? [[String: Any]])
        let bell = try #require(cues.first { $0["sound"] as? String == "bell" }?["trigger"] as? [String: Any])
        #expect(bell["kind"] as? String == "animation" && bell["node"] as? String == "buoy" && bell["animation"] as? String == "bob")
        #expect(bell["on"] as? String == "to" && bell["iteration"] as? Int == 0)
        #expect(cues.map { $0["time"] as? Double } == TimelineReport(document: document, sampleRate: 48_000).schedule.cues.map { Double($0.absoluteTime.decimalString()) })
    }

    @Test func keyframeTriggersCarryTheirIndex() {
        let animation = Animation(id: "arc", property: .rotation, kind: .keyframes([
            Keyframe(time: .zero, value: .number(0)), Keyframe(time: F.seconds("1"), value: .number(10)),
        ]), repeatCount: .forever)
        let scene = Scene(id: "s", title: LocalizedString("S"), duration: F.seconds("2"),
                          nodes: [Node(id: "swing", content: .group(Group(children: [])), animations: [animation])],
                          cues: [Cue(sound: "creak", trigger: .animation(node: "swing", animation: "arc", event: .keyframe(1)))])
        let json = TimelineReport(document: F.document([scene]), sampleRate: 48_000).json()
        #expect(json.contains(#""trigger": {"kind": "animation", "node": "swing", "animation": "arc", "on": "keyframe", "keyframe": 1, "iteration": 0}"#))
    }

    @Test func emptyPlaylistIsStillValidJSON() throws {
        let json = try parsed(TimelineReport(document: F.document([]), sampleRate: 48_000))
        #expect((json["scenes"] as? [Any])?.isEmpty == true && (json["cues"] as? [Any])?.isEmpty == true)
    }

    @Test func textListsScenesAndCuesInOrder() {
        let text = TimelineReport(document: document, sampleRate: 48_000).text(file: "demo.json")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("demo.json: 2 scenes, "))
        #expect(lines.contains { $0.contains("q\"uote") && $0.contains("192000") && $0.hasSuffix("Swing") })
        #expect(lines.contains { $0.contains("buoy.bob to #0") && $0.contains("38400") })
        #expect(lines.contains { $0.contains("at 1 +0.25 s") && $0.contains("252000") })
        #expect(lines.contains { $0.contains("at 5.5") } == false)  // the 4 s ocean ends before its chime
    }
}

/// The shipped playlist, loaded as the player loads it.
@Suite struct ShippedPlaylistTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenes.json").path

    @Test func everySceneEvaluatesDeterministicallyAndCuesMatchTheSequencer() throws {
        guard FileManager.default.fileExists(atPath: Self.path) else { return }
        let document = try DocumentLoader.load(path: Self.path).document
        let evaluator = SceneEvaluator(document: document)
        for (index, scene) in document.scenes.enumerated() {
            for step in 0..<20 {
                let time = scene.duration.doubleValue * Double(step) / 20
                #expect(evaluator.snapshot(scene: index, at: time) == evaluator.snapshot(scene: index, at: time))
            }
        }
        let schedule = CueSchedule(document: document, sampleRate: 48_000)
        #expect(!schedule.cues.isEmpty)
        var sequencer = PlaylistSequencer(schedule: schedule, end: .stop)
        var events = sequencer.play(at: 0)
        events += sequencer.advance(to: schedule.scenes.last!.endSample + 1)
        let frames = events.compactMap { event -> Int64? in
            if case .cueDue(_, let frame) = event { return frame }
            return nil
        }
        #expect(frames == schedule.cues.map(\.sampleIndex))
        #expect(events.last == .finished(frame: schedule.scenes.last!.endSample))
    }
}
