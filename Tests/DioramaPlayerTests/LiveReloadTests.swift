import DioramaDocument
import DioramaTimeline
import Foundation
import Synchronization
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// Live reload of a changed scenes or sound file, keeping the scene and time, through a player on a screen in memory
/// (no SDL).
@Suite struct LiveReloadTests {
    /// A scenes file on disk in the format the document module reads.
    static func scenesJSON(swingDuration: String = "3", extra: String = "") -> String {
        """
        {
          "canvas": { "width": 640, "height": 360, "background": "#000000" },
          "languages": { "default": "en", "available": ["en", "ja"] },
          "scenes": [
            { "id": "ocean", "title": { "en": "Ocean", "ja": "海" }, "duration": 4, "background": "#1a4d99" },
            { "id": "swing", "title": { "en": "Swing", "ja": "ブランコ" }, "duration": \(swingDuration), "background": "#b3661a"\(extra) },
            { "id": "flower", "title": "Flower", "duration": 5, "background": "#339a4d" }
          ]
        }

        """
    }

    @Test func aSaveReloadsKeepingTheSceneAndTimeAndABrokenFileShowsItsErrorsUntilFixed() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url.path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/scenes.json"
        try Data(Self.scenesJSON().utf8).write(to: URL(fileURLWithPath: path))
        let h = try PlayerHarness(scenesPath: path, load: PlaylistFiles.load, embedded: true)
        try h.advance(0.5)
        h.press(.right)
        try h.player.step()
        try h.advance(1)
        #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 48_000))

        // A save that breaks the file: the last good version keeps playing, the banner shows why.
        try Data(Self.scenesJSON(swingDuration: "-3").utf8).write(to: URL(fileURLWithPath: path))
        try h.advance(0.06)
        try h.advance(0.06)
        #expect(h.player.banner.count >= 1)
        #expect(h.player.banner.first?.hasPrefix("\(path):6:") == true, "\(h.player.banner)")
        #expect(h.player.banner.first?.contains(": error: ") == true)
        #expect(h.player.frames.last?.snapshot.nodes.contains { $0.id == "overlay.banner" } == true)
        #expect(h.position.sceneIndex == 1 && !h.position.isPaused)
        #expect(abs(h.sceneTime - 1.12) < 1e-9)

        // The fix (swing now 6 s long) reloads within two polls, keeps the scene and time, and the banner goes.
        try Data(Self.scenesJSON(swingDuration: "6").utf8).write(to: URL(fileURLWithPath: path))
        try h.advance(0.06)
        try h.advance(0.06)
        #expect(h.player.banner.isEmpty)
        #expect(h.player.frames.last?.snapshot.nodes.contains { $0.id == "overlay.banner" } == false)
        #expect(h.player.playback.document.scenes[1].duration == Rational(6))
        #expect(h.position.sceneIndex == 1)
        #expect(abs(h.sceneTime - 1.24) < 1e-9)
        try h.advance(3)
        #expect(h.position.sceneIndex == 1, "the new, longer swing is playing")
    }

    @Test func aChangedSoundFileReopensTheSoundAndPlaysOnFromTheSameSceneAndTime() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url.path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/scenes.json", sound = folder + "/bell.wav"
        try Data("first take".utf8).write(to: URL(fileURLWithPath: sound))
        let json = Self.scenesJSON(extra: #", "cues": [{ "sound": "bell", "at": 1 }]"#)
            .replacingOccurrences(of: #""scenes": ["#, with: #""sounds": { "bell": "bell.wav" }, "scenes": ["#)
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        var opened = 0
        var broken = false
        let h = try PlayerHarness(scenesPath: path, load: PlaylistFiles.load, audioOpened: { playlist in
            opened += 1
            #expect(playlist.watchedPaths.contains(sound), "the sounds a file names are watched too")
            return broken ? ["warning: sound \"bell\" (bell.wav): not a sound file; it will be silent"] : []
        }, embedded: true)
        h.press(.right)
        try h.player.step()
        try h.advance(0.5)
        #expect(opened == 1)

        broken = true
        try Data("second take, longer".utf8).write(to: URL(fileURLWithPath: sound))
        try h.advance(0.06)
        try h.advance(0.06)
        #expect(opened == 2, "the sound bank is loaded again")
        #expect(h.position.sceneIndex == 1)
        #expect(abs(h.sceneTime - 0.62) < 0.001)
        #expect(h.player.banner == ["warning: sound \"bell\" (bell.wav): not a sound file; it will be silent"],
                "a sound that does not load is shown until it does")

        broken = false
        try Data("third take".utf8).write(to: URL(fileURLWithPath: sound))
        try h.advance(0.06)
        try h.advance(0.06)
        #expect(opened == 3)
        #expect(h.player.banner.isEmpty)
        // Saving the scenes file alone keeps the sound as it is.
        try Data((json + " ").utf8).write(to: URL(fileURLWithPath: path))
        try h.advance(0.06)
        try h.advance(0.06)
        #expect(opened == 3)
    }

    /// Opens the write end of the named pipe at `path` once `timeout` seconds pass without `finish()`: a reader
    /// blocked opening it (the loader before the fix) then sees an empty file, and the test fails instead of hanging.
    final class PipeRescue: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let fired = Mutex(false)

        init(path: String, timeout: Double) {
            Thread.detachNewThread { [self] in
                guard done.wait(timeout: .now() + timeout) == .timedOut else { return }
                fired.withLock { $0 = true }
                let fd = open(path, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
        }

        /// True when the pipe had to be opened to let the player go on.
        func finish() -> Bool {
            done.signal()
            return fired.withLock { $0 }
        }
    }

    @Test func aScenesFileReplacedByANamedPipeIsAnErrorAndTheGoodFileReloadsWhenItIsBack() throws {
        let temporary = try TemporaryFolder()
        let path = temporary.path("scenes.json")
        try Data(Self.scenesJSON().utf8).write(to: URL(fileURLWithPath: path))
        let h = try PlayerHarness(scenesPath: path, load: PlaylistFiles.load, embedded: true)
        try h.advance(0.5)

        // The file becomes a named pipe: the player reads nothing from it, says why, and plays on.
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o644) == 0)
        let rescue = PipeRescue(path: path, timeout: 30)
        try h.advance(0.06)
        try h.advance(0.06)
        #expect(!rescue.finish(), "the player blocked opening the named pipe")
        #expect(h.player.banner.first?.contains("is a named pipe (FIFO), not a regular file") == true, "\(h.player.banner)")
        #expect(h.position.sceneIndex == 0 && !h.position.isPaused)

        // The good file back (swing now 6 s): it reloads and the banner goes.
        try FileManager.default.removeItem(atPath: path)
        try Data(Self.scenesJSON(swingDuration: "6").utf8).write(to: URL(fileURLWithPath: path))
        try h.advance(0.06)
        try h.advance(0.06)
        #expect(h.player.banner.isEmpty, "\(h.player.banner)")
        #expect(h.player.playback.document.scenes[1].duration == Rational(6))
    }
}
