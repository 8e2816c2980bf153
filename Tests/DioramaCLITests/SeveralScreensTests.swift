import DioramaTestSupport
import Foundation
import Testing

/// `diorama play --link` on stand-in machines: each player in a network namespace of its own (scripts/netns.sh),
/// headless (SDL's dummy video driver), its sound captured by an ALSA file device. The captures and the players'
/// logs must show the same show: every click within a millisecond on every player, frames presented at the same
/// moment showing the same show time within a frame. The namespaces share the host's monotonic clock, which the logs
/// record; each capture's sample k is mixer frame k, placed on that clock by its player's own log.
///
/// These run real players for seconds: they wait for processes and poll log files, but time no assertion by the wall
/// clock alone. Needs root and iproute2; skipped otherwise.
@Suite(.serialized, .enabled(if: NetworkNamespaces.available,
                             "network namespaces cannot be made here: \(NetworkNamespaces.unavailableReason ?? "")"))
struct SeveralScreensTests {
    static let rate = 48_000.0
    /// The fixture's scenes: one (2 s, clicks at 0.1, 0.5 and 1.5), two (1.5 s, click at 0.75), three (2.5 s, clicks at
    /// 0.25 and 2): a 6 s show.
    static let sceneStarts = [0.0, 2.0, 3.5]
    static let cycle = 6.0
    static let fixture = DioramaCommand.repositoryRoot.appendingPathComponent("Tests/DioramaCLITests/Fixtures/several-screens.json").path
    /// One 2 s scene with a click every 0.1 s from 0.05 s.
    static let tenths = DioramaCommand.repositoryRoot.appendingPathComponent("Tests/DioramaCLITests/Fixtures/clicks-every-tenth.json").path

    /// One player: its files and its process.
    final class Screen {
        let name: String
        let folder: TemporaryFolder
        var log: String { folder.path("play.jsonl") }
        var capture: String { folder.path("capture.raw") }
        private(set) var command: RunningCommand?
        private(set) var startedAt = 0.0

        init(_ name: String) throws {
            self.name = name
            folder = try TemporaryFolder()
            try """
                pcm.capture {
                    type file
                    slave { pcm { type null } }
                    file "\(capture)"
                    format "raw"
                    truncate true
                    perm 0644
                }
                """.write(toFile: folder.path("asound.conf"), atomically: true, encoding: .utf8)
        }

        /// Starts `diorama play` on `fixture` (`--link` unless `linked` is false) in namespace `index` for `seconds`,
        /// with `extra` arguments.
        func start(in namespaces: NetworkNamespaces, _ index: Int, seconds: Double, _ extra: [String] = [], linked: Bool = true,
                   fixture: String = SeveralScreensTests.fixture) throws {
            startedAt = monotonic()
            command = try namespaces.start([
                "/usr/bin/env", "SDL_VIDEODRIVER=dummy", "SDL_AUDIODRIVER=dummy",
                "ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:" + folder.path("asound.conf"),
                "XDG_CONFIG_HOME=" + folder.path("config"),
                DioramaCommand.executable.path, "play", fixture, "--audio-device", "capture",
                "--size", "320x180", "--duration", String(seconds), "--log", log,
            ] + (linked ? ["--link"] : []) + extra, in: index)
        }

        /// Waits for the player to exit; its status and terminal lines.
        func finish() -> CommandResult? { command?.finish() }

        /// Ends the player as a crash would (SIGKILL).
        func crash() {
            guard let process = command?.process else { return }
            kill(process.processIdentifier, SIGKILL)
            _ = command?.finish()
        }

        /// Polls the log (every 20 ms, for at most `limit` seconds) until it shows `count` presented frames.
        func waitForFrames(_ count: Int, limit: Double = 20) -> Bool {
            let deadline = monotonic() + limit
            while monotonic() < deadline {
                if PlayLog(path: log).frames.count >= count { return true }
                usleep(20_000)
            }
            return false
        }
    }

    /// A player's log: presented frames and events.
    struct PlayLog {
        struct Frame {
            var monotonic: Double
            var presentedAudioClock: Double
            /// Seconds the reading of `presentedAudioClock` took after `monotonic`.
            var span: Double
            /// Seconds of the audio clock from the moment the frame shows to when it was presented.
            var late: Double
            var show: Double
            var paused: Bool

            /// Whether the frame was presented within a frame of the moment it shows: one held up longer by its own
            /// player (a loaded machine) shows a stale moment, however well the player keeps to the show.
            var onTime: Bool { abs(late) <= 1.0 / 60 }

            /// The show's time at `monotonic` as this player kept it: what the frame shows, plus how late it came.
            var moment: Double { paused ? show : show + late }
        }

        var frames: [Frame] = []
        var events: [String] = []

        init(path: String) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
            for line in text.split(separator: "\n") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                switch object["type"] as? String {
                case "frame":
                    guard let monotonic = object["monotonic"] as? Double, let heard = object["presentedAudioClock"] as? Double,
                          let drawnFor = object["audioClock"] as? Double,
                          let scene = object["sceneIndex"] as? Int, let time = object["sceneTime"] as? Double else { continue }
                    frames.append(Frame(monotonic: monotonic, presentedAudioClock: heard, span: object["presentedAudioClockSpan"] as? Double ?? 0,
                                        late: heard - drawnFor, show: SeveralScreensTests.sceneStarts[scene] + time,
                                        paused: object["paused"] as? Bool ?? false))
                case "event":
                    events.append("\(object["event"] ?? "") \(object["detail"] ?? "")")
                default: break
                }
            }
        }

        /// Monotonic seconds at which mixer frame 0 is heard: the heard clock never runs ahead of the device, so the
        /// largest reading of (heard − presented) is the closest. Readings the player was held up in (more than 0.2 ms
        /// after presenting, on a loaded machine) are left out: they are ahead by as much.
        var audioOrigin: Double {
            frames.filter { $0.span <= 0.000_2 }.map { $0.monotonic - $0.presentedAudioClock }.min() ?? 0
        }

        /// The show seconds this player showed at monotonic `time` (between two frames, advanced by the time between).
        func show(at time: Double) -> Double? {
            guard let index = frames.lastIndex(where: { $0.monotonic <= time }) else { return nil }
            let frame = frames[index]
            return frame.paused ? frame.show : frame.show + (time - frame.monotonic)
        }

        /// The show seconds this player kept at monotonic `time`, from its frames presented on time (each corrected by
        /// how late it came, advanced by the time between).
        func moment(at time: Double) -> Double? {
            guard let index = frames.lastIndex(where: { $0.onTime && $0.monotonic <= time }) else { return nil }
            let frame = frames[index]
            return frame.paused ? frame.moment : frame.moment + (time - frame.monotonic)
        }
    }

    /// Monotonic seconds at which each click starts in `screen`'s capture: the first loud sample after 10 ms of silence.
    static func clickTimes(_ screen: Screen, log: PlayLog) throws -> [Double] {
        try clicks(screen).map { log.audioOrigin + Double($0.frame) / rate }
    }

    /// The clicks in `screen`'s capture: the sample each starts on (the first loud one after 10 ms of silence) and
    /// its loudest sample until the next.
    static func clicks(_ screen: Screen) throws -> [(frame: Int, peak: Int)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: screen.capture))
        let samples: [Int16] = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        var clicks: [(frame: Int, peak: Int)] = []
        var quiet = 0
        var frame = 0
        while frame * 2 < samples.count {
            let level = abs(Int(samples[frame * 2]))
            if level > 2000, quiet >= 480 {
                clicks.append((frame, level))
            }
            if !clicks.isEmpty { clicks[clicks.count - 1].peak = max(clicks[clicks.count - 1].peak, level) }
            quiet = level < 50 ? quiet + 1 : 0
            frame += 1
        }
        return clicks
    }

    /// Seconds from `a` to `b` on the repeating show, the short way round.
    static func showDifference(_ a: Double, _ b: Double) -> Double {
        var difference = (b - a).truncatingRemainder(dividingBy: cycle)
        if difference > cycle / 2 { difference -= cycle }
        if difference < -cycle / 2 { difference += cycle }
        return difference
    }

    /// Every frame of `later` between `from` and `to` (monotonic) showed what `reference` showed then, within a frame:
    /// the show's time each player kept when the frame was presented. A frame shows that moment when its player
    /// presents it on time; one held up by its own player (a loaded machine) shows a stale moment however well the
    /// player keeps to the show: such frames (over a frame late) are left out, and the others are taken at the moment
    /// they show (corrected by their lateness, under a frame).
    static func expectSameShow(_ later: PlayLog, _ reference: PlayLog, from: Double, to: Double, _ what: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        let frames = later.frames.filter { $0.onTime && $0.monotonic >= from && $0.monotonic <= to }
        #expect(frames.count > 30, "\(what): \(frames.count) frames", sourceLocation: sourceLocation)
        var worst = 0.0
        for frame in frames {
            guard let kept = reference.moment(at: frame.monotonic) else { continue }
            worst = max(worst, abs(showDifference(kept, frame.moment)))
        }
        #expect(worst <= 1.0 / 60, "\(what): frames up to \(worst * 1000) ms apart", sourceLocation: sourceLocation)
    }

    @Test func aPlayerThatStartsLateJoinsTheRunningShowAndEveryClickSoundsWithinAMillisecond() throws {
        let first = try Screen("first"), second = try Screen("second")
        try NetworkNamespaces.with(count: 2) { namespaces in
            try first.start(in: namespaces, 0, seconds: 9)
            // The second starts once the first has played a second and a half.
            #expect(first.waitForFrames(90))
            try second.start(in: namespaces, 1, seconds: 5)
            let secondResult = second.finish(), firstResult = first.finish()
            #expect(firstResult?.status == 0, "\(firstResult?.standardError ?? "")")
            #expect(secondResult?.status == 0, "\(secondResult?.standardError ?? "")")
            #expect(secondResult?.standardError.contains("link: joined a show of 2 players") == true, "\(secondResult?.standardError ?? "")")
        }
        let firstLog = PlayLog(path: first.log), secondLog = PlayLog(path: second.log)
        let firstClicks = try Self.clickTimes(first, log: firstLog)
        let secondClicks = try Self.clickTimes(second, log: secondLog)
        #expect(secondClicks.count >= 3, "clicks heard by the second player: \(secondClicks.count)")
        for click in secondClicks {
            let nearest = firstClicks.min { abs($0 - click) < abs($1 - click) } ?? .infinity
            #expect(abs(nearest - click) <= 0.001, "a click \((nearest - click) * 1000) ms from the first player's")
        }
        // The second joined at the running time: a tenth of a second after its first frame (the join acts on the first
        // frame's command frame, heard an output latency later), the same show as the first.
        let joined = secondLog.frames.first?.monotonic ?? 0
        Self.expectSameShow(secondLog, firstLog, from: joined + 0.1, to: joined + 4, "the second player")
    }

    @Test func aPlayerThatCrashesAndRestartsRejoinsAtTheRunningTimeWithinTwoSeconds() throws {
        let first = try Screen("first"), second = try Screen("second"), restarted = try Screen("restarted")
        var restartedAt = 0.0
        try NetworkNamespaces.with(count: 2) { namespaces in
            try first.start(in: namespaces, 0, seconds: 10)
            #expect(first.waitForFrames(30))
            try second.start(in: namespaces, 1, seconds: 8)
            #expect(second.waitForFrames(60))
            second.crash()
            restartedAt = monotonic()
            try restarted.start(in: namespaces, 1, seconds: 4)
            let restartedResult = restarted.finish(), firstResult = first.finish()
            #expect(restartedResult?.status == 0, "\(restartedResult?.standardError ?? "")")
            #expect(firstResult?.status == 0, "\(firstResult?.standardError ?? "")")
        }
        let firstLog = PlayLog(path: first.log), restartedLog = PlayLog(path: restarted.log)
        let rejoined = try #require(restartedLog.frames.first?.monotonic)
        #expect(rejoined - restartedAt <= 2, "first frame of the restarted player \(rejoined - restartedAt) s after the restart")
        Self.expectSameShow(restartedLog, firstLog, from: rejoined + 0.1, to: rejoined + 3, "the restarted player")
        // Every sound the restarted player made, from its first sample, is one of the show's clicks.
        let firstClicks = try Self.clickTimes(first, log: firstLog)
        let restartedClicks = try Self.clickTimes(restarted, log: restartedLog)
        #expect(restartedClicks.count >= 2, "clicks heard by the restarted player: \(restartedClicks.count)")
        for click in restartedClicks {
            let nearest = firstClicks.min { abs($0 - click) < abs($1 - click) } ?? .infinity
            #expect(abs(nearest - click) <= 0.001, "a click \((nearest - click) * 1000) ms from the first player's")
        }
    }

    @Test func aPlayerAloneOnLinkStartsTheShowOnceItHasLookedForOthersAndRingsEveryClickOnItsSample() throws {
        let alone = try Screen("alone")
        try NetworkNamespaces.with(count: 2) { namespaces in
            try alone.start(in: namespaces, 0, seconds: 3, fixture: Self.tenths)
            let result = alone.finish()
            #expect(result?.status == 0, "\(result?.standardError ?? "")")
            #expect(result?.standardError.contains("this one starts the show") == true, "\(result?.standardError ?? "")")
        }
        // Looking for others costs no click its sample: they come every 4800 samples, each alone, as without --link.
        let clicks = try Self.clicks(alone)
        #expect(clicks.count >= 15, "\(clicks.count) clicks heard")
        let gaps = zip(clicks, clicks.dropFirst()).map { $1.frame - $0.frame }
        #expect(gaps.allSatisfy { $0 == 4800 }, "samples between clicks: \(gaps)")
        #expect(Set(clicks.map(\.peak)).count == 1, "clicks on top of each other: peaks \(clicks.map(\.peak))")
    }

    @Test func playersCutOffFromEachOtherPlayOnAndConvergeWhenTheNetworkIsBack() throws {
        let first = try Screen("first"), second = try Screen("second")
        var cut = 0.0, back = 0.0
        try NetworkNamespaces.with(count: 2) { namespaces in
            try first.start(in: namespaces, 0, seconds: 15, ["--osc", "9000"])
            #expect(first.waitForFrames(30))
            try second.start(in: namespaces, 1, seconds: 13)
            #expect(second.waitForFrames(90))
            // The network goes; the first player's operator moves to another scene, which the second cannot hear of:
            // the one whose start is farthest from where the show is (at least 1.5 s away, whenever this runs).
            cut = monotonic()
            #expect(Self.run(["ip", "-n", namespaces.names[1], "link", "set", "eth0", "down"]) == 0)
            let showing = PlayLog(path: first.log).frames.last?.show ?? 0
            let farthest = Self.sceneStarts.indices.max { abs(Self.showDifference(showing, Self.sceneStarts[$0])) < abs(Self.showDifference(showing, Self.sceneStarts[$1])) } ?? 0
            #expect(Self.run(["ip", "netns", "exec", namespaces.names[0], "oscsend", "localhost", "9000", "/diorama/scene", "i", String(farthest + 1)]) == 0)
            // Cut off for three seconds of the first player's frames.
            #expect(first.waitForFrames(PlayLog(path: first.log).frames.count + 180))
            back = monotonic()
            #expect(Self.run(["ip", "-n", namespaces.names[1], "link", "set", "eth0", "up"]) == 0)
            let secondResult = second.finish(), firstResult = first.finish()
            #expect(firstResult?.status == 0, "\(firstResult?.standardError ?? "")")
            #expect(secondResult?.status == 0, "\(secondResult?.standardError ?? "")")
        }
        let firstLog = PlayLog(path: first.log), secondLog = PlayLog(path: second.log)
        #expect(firstLog.events.contains { $0.hasPrefix("command scene") }, "\(firstLog.events)")
        // Cut off, both played on: no gap in either one's frames, the show moving.
        for (name, log) in [("first", firstLog), ("second", secondLog)] {
            let during = log.frames.filter { $0.monotonic >= cut && $0.monotonic <= back }
            let gaps = zip(during, during.dropFirst()).map { $1.monotonic - $0.monotonic }
            #expect(during.count > 60 && (gaps.max() ?? 1) < 0.25, "\(name): \(during.count) frames while cut off, gaps up to \(gaps.max() ?? 0) s")
            #expect(!during.contains { $0.paused }, "\(name) paused while cut off")
        }
        // They differed while cut off (the move reached only the first), and show the same again once Link has found
        // the peer again and passed on the moved timeline (about 3 s here): from 5 s after the network's return.
        let apart = secondLog.frames.filter { $0.monotonic > cut + 0.5 && $0.monotonic < back }
            .compactMap { frame in firstLog.show(at: frame.monotonic).map { abs(Self.showDifference($0, frame.show)) } }
        #expect((apart.max() ?? 0) > 0.1, "the players never differed while cut off")
        let end = secondLog.frames.last?.monotonic ?? back
        Self.expectSameShow(secondLog, firstLog, from: back + 5, to: end, "the second player after the network came back")
    }

    static func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// CLOCK_MONOTONIC seconds: the clock the players' logs record (shared by every namespace of the host).
private func monotonic() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
