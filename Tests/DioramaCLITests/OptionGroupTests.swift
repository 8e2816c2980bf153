import DioramaTestSupport
import Foundation
import Testing

/// The span and frame options render, export and timeline share: a value that does not read is refused by the
/// command with its reason and an example, exit status 2, and nothing is written.
@Suite struct OptionGroupTests {
    @Test(arguments: [
        (["render", "--out", "unused-frames", "--size", "12"],
         "error: --size 12 is not a size: write WIDTHxHEIGHT in pixels, e.g. --size 1280x720\n"),
        (["render", "--out", "unused-frames", "--size", "0x720"], "error: --size 0x720: width and height must be 1 to 16384 pixels\n"),
        (["render", "--out", "unused-frames", "--fps", "0"],
         "error: --fps 0 is not a frame rate: give a number above 0 and at most 1000, e.g. --fps 30\n"),
        (["render", "--out", "unused-frames", "--from", "soon"], "error: --from soon is not a time: give seconds, 0 or more, e.g. --from 2.5\n"),
        (["render", "--out", "unused-frames", "--at", "1,x"], "error: --at \"x\" is not a time: give seconds like --at 0,2.5,10\n"),
        (["render", "--out", "unused-frames", "--threads", "0"], "error: --threads 0: give 1 to 256 rendering threads\n"),
        (["export", "--out", "unused.mp4", "--to", "1.2.3"], "error: --to 1.2.3 is not a time: give seconds, 0 or more, e.g. --to 2.5\n"),
        (["export", "--out", "unused.mp4", "--threads", "300"], "error: --threads 300: give 1 to 256 rendering threads\n"),
        (["timeline", "--picture", "unused.png", "--to", "x"], "error: --to x is not a time: give seconds, 0 or more, e.g. --to 2.5\n"),
    ])
    func aValueThatDoesNotReadIsRefusedWithAnExample(arguments: [String], message: String) throws {
        let result = try DioramaCommand.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError == message)
        for name in ["unused-frames", "unused.mp4", "unused.png"] {
            #expect(!FileManager.default.fileExists(atPath: DioramaCommand.repositoryRoot.appendingPathComponent(name).path))
        }
    }

    @Test func renderAndExportTakeTheSameFrameOptions() throws {
        for command in ["render", "export"] {
            let help = try DioramaCommand.run([command, "--help"]).standardOutput
            for option in ["--scene", "--from", "--to", "--lang", "--tap", "--fps", "--size", "--threads"] {
                #expect(help.contains("  \(option) <"), "\(command) --help lacks \(option)")
            }
        }
    }
}
