import DioramaTestSupport
import Foundation
@testable import DioramaPlayer
import Testing

@Suite struct PlayLogTests {
    let temporary: TemporaryFolder
    init() throws { temporary = try TemporaryFolder() }

    func temporaryPath() -> String { temporary.path("\(UUID().uuidString).jsonl") }

    @Test func theLogRecordsFramesAndCuesAsJSONLinesThatTheAnalysisReadsBack() throws {
        let path = temporaryPath()
        let log = try PlayLog(path: path)
        log.start(sampleRate: 48_000, audioLive: true, videoDriver: "x11", renderer: "software", vsync: true, size: (1280, 720))
        for index in 0..<4 {
            let clock = 1 + Double(index) / 60
            log.frame(FrameLogEntry(index: index, monotonic: 100 + clock, audioFrame: clock * 48_000, audioClock: clock,
                                    presentedAudioClock: clock + 0.004, sceneIndex: 0, sceneID: "ocean \"one\"",
                                    sceneTime: clock - 0.5, paused: false, pageOffset: 0))
        }
        log.cue(CueStartRecord(sceneIndex: 0, sceneID: "ocean", sound: "bell", sceneFrame: 24_000, frame: 49_000, writeFrameAtSend: 48_000),
                audioClock: 1.03, monotonic: 101.03)
        log.cue(CueStartRecord(sceneIndex: 0, sceneID: "ocean", sound: "bell", sceneFrame: 25_000, frame: 50_000, writeFrameAtSend: 50_010),
                audioClock: 1.05, monotonic: 101.05)
        log.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 7)
        #expect(lines[1].contains(#""scene":"ocean \"one\"""#))
        let analysis = try PlayLogAnalysis(path: path)
        #expect(analysis.frames == 4 && analysis.cues == 2)
        #expect(abs(analysis.presentLag.median - 0.004) < 1e-9)
        #expect(analysis.followError < 1e-9, "scene time moved exactly as the clock did")
        #expect(analysis.lateCues == 1 && analysis.maximumLateSamples == 10)
        // The cue at 49 000 / 48 000 s is first on screen at the frame drawn for 1 + 2/60 s.
        #expect(abs(analysis.cueToFrame - ((1 + 2.0 / 60) - 49_000.0 / 48_000)) < 1e-9)
    }

    @Test func aPictureThatDoesNotFollowTheClockShowsInTheFigures() throws {
        let lines = [
            #"{"type":"frame","audioClock":1.0,"presentedAudioClock":1.0,"sceneIndex":0,"sceneTime":0.5,"paused":false}"#,
            #"{"type":"frame","audioClock":1.1,"presentedAudioClock":1.1,"sceneIndex":0,"sceneTime":0.7,"paused":false}"#,
        ].joined(separator: "\n")
        let analysis = try PlayLogAnalysis(jsonLines: Data(lines.utf8))
        #expect(abs(analysis.followError - 0.1) < 1e-9)
        #expect(throws: PlayLogAnalysis.Failure.self) { try PlayLogAnalysis(jsonLines: Data("not json\n".utf8)) }
    }
}
