import DioramaTestSupport
import Foundation
import Testing

/// `diorama render --sheet`: a contact sheet of the playlist, a row per scene and a labelled cell per moment.
@Suite struct ContactSheetTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// A PNG's width and height, from its IHDR chunk.
    func pngSize(_ path: String) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 24 && bytes[1...3] == [0x50, 0x4E, 0x47])
        func integer(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (integer(16), integer(20))
    }

    @Test func aSheetHasARowPerSceneAndACellPerMomentAndTheSameBytesEveryTime() throws {
        let first = folder.path("first.png"), second = folder.path("second.png")
        for file in [first, second] {
            let result = try DioramaCommand.run(["render", "--sheet", file, "--moments", "3", "--size", "160x90", "--threads", "2"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("of 11 scenes with 3 moments each"), "\(result.standardOutput)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        let size = try pngSize(first)
        // Three cells across and eleven rows down, with gaps, a label under each row and a title.
        #expect(size.width > 3 * 160 && size.width < 3 * 160 + 80, "\(size)")
        #expect(size.height > 11 * 90 + 11 * 10 && size.height < 11 * 90 + 11 * 40 + 60, "\(size)")
    }

    @Test func moreMomentsMakeAWiderSheetOfTheSameHeight() throws {
        let two = folder.path("two.png"), five = folder.path("five.png")
        for (file, moments) in [(two, "2"), (five, "5")] {
            let result = try DioramaCommand.run(["render", "--sheet", file, "--scene", "ocean", "--moments", moments, "--size", "160x90"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("of 1 scene with \(moments) moments each"), "\(result.standardOutput)")
        }
        let (small, large) = (try pngSize(two), try pngSize(five))
        #expect(large.height == small.height)
        #expect((large.width - small.width) % 3 == 0 && (large.width - small.width) / 3 > 160)
    }

    @Test func theCellSizeIsTheSizeOption() throws {
        let small = folder.path("small.png"), large = folder.path("large.png")
        for (file, size) in [(small, "160x90"), (large, "320x180")] {
            let result = try DioramaCommand.run(["render", "--sheet", file, "--scene", "swing", "--moments", "1", "--size", size])
            #expect(result.status == 0, "\(result.standardError)")
        }
        #expect(try pngSize(large).width - pngSize(small).width >= 160)
    }

    @Test func theLanguageAndTheTimesChangeTheSheet() throws {
        let english = folder.path("en.png"), japanese = folder.path("ja.png"), at = folder.path("at.png")
        let base = ["render", "--scene", "flower", "--size", "160x90"]
        #expect(try DioramaCommand.run(base + ["--sheet", english, "--at", "5,10"]).status == 0)
        #expect(try DioramaCommand.run(base + ["--sheet", japanese, "--at", "5,10", "--lang", "ja"]).status == 0)
        #expect(try DioramaCommand.run(base + ["--sheet", at, "--at", "5,11"]).status == 0)
        let englishBytes = try Data(contentsOf: URL(fileURLWithPath: english))
        #expect(englishBytes != (try Data(contentsOf: URL(fileURLWithPath: japanese))))
        #expect(englishBytes != (try Data(contentsOf: URL(fileURLWithPath: at))))
    }

    @Test func aMomentPastAScenesEndIsAnEmptyCell() throws {
        // The bounce is 12 s long: its 15 s cell stays empty, the others are drawn.
        let result = try DioramaCommand.run(["render", "--sheet", folder.path("past.png"), "--at", "1,15", "--size", "160x90"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("with 2 moments each"))
    }

    @Test func anExistingSheetIsNeverReplacedWithoutForce() throws {
        let file = folder.path("mine.png")
        try Data("my own picture".utf8).write(to: URL(fileURLWithPath: file))
        let refused = try DioramaCommand.run(["render", "--sheet", file, "--scene", "ocean", "--moments", "1", "--size", "64x36"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("already exists; nothing was written"), "\(refused.standardError)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "my own picture")
        let forced = try DioramaCommand.run(["render", "--sheet", file, "--scene", "ocean", "--moments", "1", "--size", "64x36", "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try pngSize(file).width > 64)
    }

    @Test(arguments: [
        (["--sheet", "sheet.jpg"], "a contact sheet is a .png file"),
        (["--sheet", "sheet.png", "--out", "frames"], "--out cannot be combined with --sheet"),
        (["--sheet", "sheet.png", "--from", "2"], "--from cannot be combined with --sheet"),
        (["--sheet", "sheet.png", "--audio", "mix.wav"], "--audio cannot be combined with --sheet"),
        (["--sheet", "sheet.png", "--at", "1", "--moments", "2"], "--moments cannot be combined with --at"),
        (["--sheet", "sheet.png", "--moments", "0"], "--moments 0: give 1 to 100 moments per scene"),
        (["--out", "frames", "--moments", "2"], "--moments needs --sheet FILE.png"),
        (["--sheet", "sheet.png", "--scene", "nowhere"], "no scene \"nowhere\""),
    ])
    func badSheetArgumentsAreRefusedAndWriteNothing(arguments: [String], message: String) throws {
        let result = try DioramaCommand.run(["render", "scenes.json"] + arguments, in: nil)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: DioramaCommand.repositoryRoot.appendingPathComponent("sheet.png").path))
    }
}
