import Testing
@testable import DioramaShowControl

/// The pacer behind a reference, so that `#expect` can call its mutating method.
private final class Pacer {
    var pacer = FeedbackPacer()
    func shouldSend(_ status: ShowStatus, now: Double) -> Bool { pacer.shouldSend(status, now: now) }
}

@Suite("Feedback pacing and targets")
struct FeedbackTests {
    let playing = ShowStatus(sceneNumber: 1, sceneID: "ocean", sceneTime: 0, sceneDuration: 20, paused: false, volume: 1, language: "en")

    @Test("the first status is sent, then one a second while only the time moves")
    func oncePerSecond() {
        let pacer = Pacer()
        var status = playing
        var sentAt: [Double] = []
        for frame in 0..<181 {
            let now = 50 + Double(frame) / 60
            status.sceneTime = Double(frame) / 60
            if pacer.shouldSend(status, now: now) { sentAt.append(now - 50) }
        }
        #expect(sentAt.count == 4)
        #expect(sentAt.first == 0)
        for (earlier, later) in zip(sentAt, sentAt.dropFirst()) {
            #expect(later - earlier >= 1 && later - earlier < 1 + 1.0 / 60 + 1e-9)
        }
    }

    @Test("a change of scene, pause, volume, language or length is sent at once", arguments: [
        "scene", "id", "paused", "volume", "language", "duration",
    ])
    func changes(field: String) {
        let pacer = Pacer()
        #expect(pacer.shouldSend(playing, now: 0))
        var changed = playing
        changed.sceneTime = 0.1
        #expect(!pacer.shouldSend(changed, now: 0.1))
        switch field {
        case "scene": changed.sceneNumber = 2
        case "id": changed.sceneID = "swing"
        case "paused": changed.paused = true
        case "volume": changed.volume = 0.9
        case "language": changed.language = "ja"
        default: changed.sceneDuration = 21
        }
        #expect(pacer.shouldSend(changed, now: 0.2))
        changed.sceneTime = 0.25
        #expect(!pacer.shouldSend(changed, now: 0.25), "and not again for the same state")
    }

    @Test("a jump in the scene's time (a seek) is sent at once; the time running with the clock is not")
    func seeks() {
        let pacer = Pacer()
        var status = playing
        status.sceneTime = 5
        #expect(pacer.shouldSend(status, now: 10))
        status.sceneTime = 5.5
        #expect(!pacer.shouldSend(status, now: 10.5))
        status.sceneTime = 12
        #expect(pacer.shouldSend(status, now: 10.6))
        status.sceneTime = 2
        #expect(pacer.shouldSend(status, now: 10.7), "backwards too")
    }

    @Test("paused, the time stands still without a send; a second later it is sent again")
    func paused() {
        let pacer = Pacer()
        var status = playing
        status.paused = true
        status.sceneTime = 3
        #expect(pacer.shouldSend(status, now: 0))
        #expect(!pacer.shouldSend(status, now: 0.9))
        #expect(pacer.shouldSend(status, now: 1.0))
    }

    @Test("a clock that goes backwards sends and starts over")
    func clockBackwards() {
        let pacer = Pacer()
        #expect(pacer.shouldSend(playing, now: 100))
        #expect(pacer.shouldSend(playing, now: 3))
        #expect(!pacer.shouldSend(playing, now: 3))
    }

    @Test("progress is time over length, within 0...1, and 0 for a scene without length")
    func progress() {
        var status = playing
        status.sceneTime = 5
        #expect(status.messages[5] == OSCMessage("/diorama/status/progress", [.float(0.25)]))
        status.sceneTime = 25
        #expect(status.messages[5].arguments == [.float(1)])
        status.sceneDuration = 0
        #expect(status.messages[5].arguments == [.float(0)])
    }

    @Test("HOST:PORT, [IPv6]:PORT and a bare PORT are read")
    func endpoints() throws {
        #expect(try UDPEndpoint(parsing: "localhost:9001") == UDPEndpoint(host: "localhost", port: 9001))
        #expect(try UDPEndpoint(parsing: "192.168.1.20:8000") == UDPEndpoint(host: "192.168.1.20", port: 8000))
        #expect(try UDPEndpoint(parsing: "[::1]:9001") == UDPEndpoint(host: "::1", port: 9001))
        #expect(try UDPEndpoint(parsing: "9001") == UDPEndpoint(host: "127.0.0.1", port: 9001))
        #expect(UDPEndpoint(host: "::1", port: 9001).description == "[::1]:9001")
    }

    @Test("bad targets say what is wrong and at which character", arguments: [
        ("localhost", "--osc-feedback localhost: no port: there is no ':' before one (at character 10)"),
        ("localhost:", "--osc-feedback localhost:: the port is missing (at character 11)"),
        ("localhost:90x1", "--osc-feedback localhost:90x1: the port 90x1 is not a number from 1 to 65535 (at character 11)"),
        ("localhost:70000", "--osc-feedback localhost:70000: the port 70000 is not a number from 1 to 65535 (at character 11)"),
        ("localhost:0", "--osc-feedback localhost:0: the port 0 is not a number from 1 to 65535 (at character 11)"),
        (":9001", "--osc-feedback :9001: the host is empty (at character 1)"),
        ("::1:9001", "--osc-feedback ::1:9001: an IPv6 address goes in brackets, as [::1]:9001 (at character 1)"),
        ("[::1]9001", "--osc-feedback [::1]9001: a port must follow the IPv6 address, as [::1]:9001 (at character 6)"),
        ("[::1", "--osc-feedback [::1: the IPv6 address has no closing ] (at character 1)"),
        ("stage pc:9001", "--osc-feedback stage pc:9001: a host name has no spaces or non-ASCII characters (at character 6)"),
        ("", "--osc-feedback : no port: there is no ':' before one (at character 1)"),
    ])
    func badEndpoints(text: String, message: String) {
        let error = #expect(throws: ShowControlError.self) { try UDPEndpoint(parsing: text) }
        #expect(error?.message == message)
        #expect(error?.hint == "give HOST:PORT, e.g. localhost:9001, 192.168.1.20:9001 or [::1]:9001")
    }

    @Test("a host that does not resolve is an error at start, not at the first send")
    func unresolvable() {
        let error = #expect(throws: ShowControlError.self) { try OSCFeedback("bad..host:9001") }
        #expect(error?.message.hasPrefix("--osc-feedback bad..host:9001: cannot resolve bad..host: ") == true)
    }
}
