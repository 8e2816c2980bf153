import DioramaTestSupport
import Foundation
import Testing

@Suite struct TimelinePictureCommandTests {
    @Test func thePictureOfTheShippedPlaylistIsWrittenAndNeverOverwrittenWithoutForce() throws {
        let temporary = try TemporaryFolder()
        let path = temporary.path("timeline.png")
        let first = try DioramaCommand.run(["timeline", "scenes.json", "--picture", path])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.hasPrefix("wrote the timeline picture (1600x"))
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        let again = try DioramaCommand.run(["timeline", "scenes.json", "--picture", path, "--scene", "ocean"])
        #expect(again.status == 2)
        #expect(again.standardError.contains("already exists and was left as it is") && again.standardError.contains("--force"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)

        let zoomed = try DioramaCommand.run(["timeline", "scenes.json", "--picture", path, "--scene", "ocean", "--from", "2", "--to", "8", "--force"])
        #expect(zoomed.status == 0, "\(zoomed.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != written)
    }

    @Test(arguments: [
        (["--picture", "t.gif"], "give a .png or .svg file"),
        (["--picture", "t.png", "--scene", "moon"], "no scene \"moon\""),
        (["--picture", "t.png", "--from", "9", "--to", "3"], "--to 3 must be after --from 9"),
    ])
    func badPictureRequestsAreRefused(arguments: [String], message: String) throws {
        let temporary = try TemporaryFolder()
        let result = try DioramaCommand.run(["timeline", DioramaCommand.repositoryRoot.appendingPathComponent("scenes.json").path] + arguments,
                                            in: temporary.url)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).isEmpty)
    }

    @Test func zoomOptionsWithoutAPictureAreAUsageError() throws {
        let result = try DioramaCommand.run(["timeline", "scenes.json", "--scene", "ocean"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("go with --picture"))
    }
}
