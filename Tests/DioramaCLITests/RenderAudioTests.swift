import DioramaTestSupport
import Foundation
import Testing

@Suite struct RenderAudioTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-render-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func audioOnlyWritesTheSpansSoundTheSameEveryTime() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.wav"), second = directory.appendingPathComponent("second.wav")
        for file in [first, second] {
            let result = try DioramaCommand.run(["render", "scenes.json", "--scene", "ocean", "--from", "1", "--to", "2",
                                                 "--audio-only", "--audio", file.path])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("48000 frames at 48000 Hz"), "\(result.standardOutput)")
        }
        let bytes = try Data(contentsOf: first)
        #expect(bytes == (try Data(contentsOf: second)))
        // One second of 16-bit stereo plus a header; the bell cued at 1.2 s makes it far from silent.
        #expect(bytes.count >= 48_000 * 4)
        let samples = bytes.dropFirst(bytes.count - 48_000 * 4).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples.map { Int($0).magnitude }.max() ?? 0 > 1000)
    }

    @Test func anExistingSoundFileIsNeverReplacedWithoutForce() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mine.wav")
        try Data("my own recording".utf8).write(to: file)
        let result = try DioramaCommand.run(["render", "--scene", "ocean", "--to", "1", "--audio-only", "--audio", file.path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("already exists"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "my own recording")
    }

    @Test func audioCannotBeCombinedWithSeparateTimes() throws {
        let result = try DioramaCommand.run(["render", "--out", "unused-frames", "--at", "1,2", "--audio", "unused.wav"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--audio needs a continuous span"))
        #expect(!FileManager.default.fileExists(atPath: DioramaCommand.repositoryRoot.appendingPathComponent("unused.wav").path))
    }
}
