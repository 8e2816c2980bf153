import DioramaTestSupport
import Foundation
import Testing

/// `diorama play --osc` driven by liblo's `oscsend`, its status read by `oscdump`, in a network namespace of its own
/// (so its fixed ports are free and nothing else can reach them). Needs root, iproute2 and liblo-tools.
@Suite(.serialized, .enabled(if: NetworkNamespaces.available,
                             "network namespaces cannot be made here: \(NetworkNamespaces.unavailableReason ?? "")"))
struct ShowControlPlayerTests {
    typealias Screen = SeveralScreensTests.Screen
    typealias PlayLog = SeveralScreensTests.PlayLog

    /// Sends one OSC message from inside namespace `name` and waits (polling the log every 20 ms, for at most 10 s)
    /// until the player has logged `commands` commands and presented 6 frames after it (or a paused one: a paused
    /// picture that does not change is not presented again).
    func send(_ arguments: [String], in name: String, to screen: Screen, expecting commands: Int) {
        #expect(SeveralScreensTests.run(["ip", "netns", "exec", name, "oscsend", "localhost", "9000"] + arguments) == 0)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: screen.log, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n")
            if let index = lines.indices.filter({ lines[$0].contains("\"event\":\"command\"") }).dropFirst(commands - 1).first {
                let frames = lines[index...].filter { $0.contains("\"type\":\"frame\"") }
                if frames.count >= 6 || frames.contains(where: { $0.contains("\"paused\":true") }) { return }
            }
            usleep(20_000)
        }
        Issue.record("the player did not log command \(commands) (\(arguments))")
    }

    /// The scene and pause state of the last frame presented.
    func shown(_ screen: Screen) -> (scene: Int, time: Double, paused: Bool)? {
        let text = (try? String(contentsOfFile: screen.log, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").last(where: { $0.contains("\"type\":\"frame\"") }),
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let scene = object["sceneIndex"] as? Int, let time = object["sceneTime"] as? Double else { return nil }
        return (scene, time, object["paused"] as? Bool ?? false)
    }

    @Test func everyCommandActsAsItsKeyBadMessagesAreWarnedOnceAndTheStatusIsSent() throws {
        let screen = try Screen("controlled")
        var stderr = "", dump = ""
        try NetworkNamespaces.with(count: 2) { namespaces in
            let name = namespaces.names[0]
            let listener = try namespaces.start(["/usr/bin/env", "oscdump", "-L", "9001"], in: 0)
            try screen.start(in: namespaces, 0, seconds: 15, ["--osc", "9000", "--osc-feedback", "127.0.0.1:9001"], linked: false)
            #expect(screen.waitForFrames(20))
            send(["/diorama/scene", "s", "two"], in: name, to: screen, expecting: 1)
            #expect(shown(screen)?.scene == 1)
            send(["/diorama/pause"], in: name, to: screen, expecting: 2)
            #expect(shown(screen)?.paused == true)
            // Paused, a seek holds exactly where it was sent.
            send(["/diorama/seek", "f", "1.25"], in: name, to: screen, expecting: 3)
            #expect(shown(screen).map { $0.scene == 1 && abs($0.time - 1.25) < 1e-9 && $0.paused } == true)
            send(["/diorama/resume"], in: name, to: screen, expecting: 4)
            #expect(shown(screen)?.paused == false)
            send(["/diorama/scene", "i", "3"], in: name, to: screen, expecting: 5)
            #expect(shown(screen)?.scene == 2)
            send(["/diorama/previous"], in: name, to: screen, expecting: 6)
            #expect(shown(screen)?.scene == 1)
            send(["/diorama/next"], in: name, to: screen, expecting: 7)
            #expect(shown(screen)?.scene == 2)
            send(["/diorama/volume", "f", "0.5"], in: name, to: screen, expecting: 8)
            // Bad messages: each kind warned once, however often it comes; the player plays on.
            for _ in 0..<3 {
                #expect(SeveralScreensTests.run(["ip", "netns", "exec", name, "oscsend", "localhost", "9000", "/diorama/bogus"]) == 0)
            }
            #expect(SeveralScreensTests.run(["ip", "netns", "exec", name, "oscsend", "localhost", "9000", "/diorama/volume", "s", "loud"]) == 0)
            send(["/diorama/language", "s", "fr"], in: name, to: screen, expecting: 9)
            send(["/diorama/reload"], in: name, to: screen, expecting: 10)
            send(["/diorama/go"], in: name, to: screen, expecting: 11)
            #expect(shown(screen)?.scene == 0 && shown(screen)?.paused == false)
            // The player ends by itself (its log complete); oscdump is killed (SIGTERM may be blocked in children of a
            // test thread), its lines already written.
            stderr = screen.finish()?.standardError ?? ""
            kill(listener.process.processIdentifier, SIGKILL)
            dump = listener.finish().standardOutput
        }
        let log = PlayLog(path: screen.log)
        let commands = log.events.filter { $0.hasPrefix("command ") }.map { String($0.dropFirst("command ".count)) }
        #expect(commands == ["sceneID(\"two\")", "pause", "seek(1.25)", "resume", "scene(2)", "previous", "next", "volume(0.5)",
                             "language(\"fr\")", "reload", "go"])
        #expect(log.events.contains { $0.hasPrefix("reloaded") })
        #expect(stderr.components(separatedBy: "/diorama/bogus is not a show-control address").count == 2, "\(stderr)")
        #expect(stderr.contains("/diorama/volume does not take the argument types ,s"), "\(stderr)")
        #expect(stderr.contains("osc: no language 'fr': the playlist offers en"), "\(stderr)")
        // The status went out on every change: the scenes shown, the pause, the volume.
        #expect(dump.contains("/diorama/status isffifs 2 \"two\""), "\(dump)")
        #expect(dump.contains("/diorama/status isffifs 3 \"three\""), "\(dump)")
        #expect(dump.contains("/diorama/status/paused i 1"), "\(dump)")
        #expect(dump.contains("/diorama/status/volume f 0.500000"), "\(dump)")
    }
}
