import DioramaTestSupport
import Foundation
@testable import DioramaPlayer
import Testing

@Suite struct FileWatchTests {
    let temporary: TemporaryFolder
    init() throws { temporary = try TemporaryFolder() }

    func file(_ contents: String) throws -> String {
        let path = temporary.path("\(UUID().uuidString).json")
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aSaveIsReportedOnceItHasSettledForOnePoll() throws {
        let path = try file("{}")
        var watch = FileWatch(paths: [path], interval: 0.05)
        let result1 = watch.poll(at: 0)
        #expect(!result1)
        try Data("{\"a\": 1}".utf8).write(to: URL(fileURLWithPath: path))
        let result2 = watch.poll(at: 0.01)
        #expect(!result2, "too soon after the last poll")
        let result3 = watch.poll(at: 0.05)
        #expect(!result3, "seen, not yet settled")
        let result4 = watch.poll(at: 0.10)
        #expect(result4)
        let result5 = watch.poll(at: 0.15)
        #expect(!result5, "reported once")
    }

    @Test func aFileStillBeingWrittenWaitsUntilItStopsChanging() throws {
        let path = try file("{}")
        var watch = FileWatch(paths: [path])
        try Data("{\"a\"".utf8).write(to: URL(fileURLWithPath: path))
        let result6 = watch.pollNow()
        #expect(!result6)
        try Data("{\"a\": 12345}".utf8).write(to: URL(fileURLWithPath: path))
        let result7 = watch.pollNow()
        #expect(!result7)
        let result8 = watch.pollNow()
        #expect(result8)
    }

    @Test func aFileReplacedByRenameOrRemovedIsAChange() throws {
        let path = try file("{}")
        var watch = FileWatch(paths: [path])
        let replacement = try file("{}")
        #expect(rename(replacement, path) == 0)
        let result9 = watch.pollNow()
        #expect(!result9)
        let result10 = watch.pollNow()
        #expect(result10, "same size and contents, but a new inode")
        try FileManager.default.removeItem(atPath: path)
        let result11 = watch.pollNow()
        #expect(!result11)
        let result12 = watch.pollNow()
        #expect(result12)
    }

    @Test func watchingANewListTakesItsStateAsTheBaseline() throws {
        let first = try file("{}"), second = try file("{}")
        var watch = FileWatch(paths: [first])
        watch.watch([first, second, second])
        #expect(watch.paths == [first, second])
        let result13 = watch.pollNow()
        #expect(!result13)
        try Data("changed".utf8).write(to: URL(fileURLWithPath: second))
        let result14 = watch.pollNow()
        #expect(!result14)
        let result15 = watch.pollNow()
        #expect(result15)
    }
}
