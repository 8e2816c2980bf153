import DioramaTestSupport
import Foundation
import Testing

/// bench/peer is generated: `diorama check` passes it, and the script writes exactly the committed files, so
/// that an edit to one of them (or to the script alone) cannot drift the two formats apart.
@Suite struct PeerBenchFilesTests {
    @Test func checkPassesTheScenesFile() throws {
        let result = try DioramaCommand.run(["check", "bench/peer/scenes.json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("ok: 1 scenes"))
        #expect(!result.standardError.contains("warning"), "\(result.standardError)")
    }

    @Test func theScriptWritesTheCommittedFiles() throws {
        let folder = try TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", DioramaCommand.repositoryRoot.appendingPathComponent("scripts/make-peer-bench.py").path,
                             "--out", folder.url.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for name in ["scenes.json", "animation.json"] {
            let written = try Data(contentsOf: folder.url.appendingPathComponent(name))
            let committed = try Data(contentsOf: DioramaCommand.repositoryRoot.appendingPathComponent("bench/peer/\(name)"))
            #expect(written == committed, "bench/peer/\(name) differs from what scripts/make-peer-bench.py writes")
        }
    }
}
