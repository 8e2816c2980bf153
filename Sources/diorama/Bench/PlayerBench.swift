import ArgumentParser
import DioramaAudio
import DioramaDocument
import DioramaFiles
import DioramaPlayer
import DioramaTimeline
import Foundation

/// Prints the player's figures; never passes or fails. Build with `-c release` for meaningful numbers.
struct PlayerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player",
        abstract: "Measure the player: time to first frame, per-frame cost, frame rate, peak memory and sync; prints figures.",
        discussion: """
            Plays FILE in a window on the current display (DISPLAY; e.g. under xvfb-run) with vsync off for \
            --frames frames (or --seconds; 165 covers the shipped playlist once), with the overlay, and prints:
              1. the time from the command's start to the first presented frame (and from the process's start);
              2. per-frame cost at --size: compose (evaluate + overlay), render, upload, present, and their total, \
            median and 95th percentile; the render stage also by this thread's CPU time (the wall time is far \
            above it only when other threads, such as a software OpenGL's, compete for the cores); and, when the run \
            reaches more than one scene, render and total by scene; and how many frames were sent to the screen only \
            where they were drawn (the software renderer's window surface, over the frame on screen);
              3. scene changes: the worst frame and the frames over 16.7 ms (a missed 60 Hz vsync) among the first \
            10 frames of each scene reached, over all changes and by the scene changed to, and over the whole run; \
            and how many changes found the next scene prepared ahead (drawn on another thread beforehand; the hidden \
            --no-preroll measures without);
              4. the frame rate with vsync off;
              5. peak memory (VmHWM);
              6. sync figures from the run's --log (or, with --analyze, from an existing log of `diorama play --log`).

            Examples:
              swift build -c release && xvfb-run -s '-screen 0 1920x1080x24' .build/release/diorama bench player scenes.json
              xvfb-run -s '-screen 0 1920x1080x24' .build/release/diorama bench player scenes.json --seconds 165
              xvfb-run -s '-screen 0 3840x2160x24' .build/release/diorama bench player --size 3840x2160 --seconds 165 --render-threads 2
              .build/release/diorama bench player --analyze play.jsonl
            """
    )

    @Argument(help: "The scenes file.")
    var file: String = "scenes.json"

    @Option(help: ArgumentHelp("Window size in pixels.", valueName: "WxH"))
    var size = FrameSize(argument: "1280x720")

    @Option(help: "Frames to present.")
    var frames: Int = 600

    @Option(help: ArgumentHelp("Play this many seconds instead of a number of frames (60 covers the shipped playlist).", valueName: "S"))
    var seconds: Double?

    @Option(help: ArgumentHelp("ALSA device (the monotonic clock stands in when it cannot be opened).", valueName: "NAME"))
    var audioDevice: String = "default"

    @Flag(help: "Play without sound, on the monotonic clock.")
    var noAudio = false

    @Option(help: ArgumentHelp("How frames reach the screen: auto, gpu or software.", valueName: "auto|gpu|software"))
    var renderer: WindowRenderer = .auto

    @Option(help: ArgumentHelp("Threads drawing each frame, as `diorama play --render-threads` (0: every core).", valueName: "N"))
    var renderThreads: Int = 1

    @Flag(help: ArgumentHelp("Do not prepare the next scene ahead: the figures of a scene change without it.", visibility: .hidden))
    var noPreroll = false

    @Option(help: ArgumentHelp("How the picture changes scene, as `diorama play --transition`.", valueName: "slide|crossfade|none"))
    var transition: TransitionStyle = .slide

    @Option(help: ArgumentHelp("Only analyze this log of `diorama play --log`.", valueName: "FILE.jsonl"))
    var analyze: String?

    func run() throws {
        if let analyze {
            let analysis = try PlayLogAnalysis(path: analyze)
            print("sync from \(analyze):")
            for line in analysis.summary { print("  " + line) }
            return
        }
        let start = monotonicSeconds()
        guard let windowSize = try? size.windowSize() else {
            throw ValidationError("--size must be WIDTHxHEIGHT in pixels, e.g. 1280x720")
        }
        let logPath = NSTemporaryDirectory() + "diorama-bench-player-\(getpid()).jsonl"
        defer { unlink(logPath) }
        var options = PlayerOptions(scenesPath: file, settingsPath: NSTemporaryDirectory() + "diorama-bench-settings-\(getpid()).json")
        options.windowSize = windowSize
        options.vsync = false
        options.renderer = renderer
        options.transition = transition
        if let seconds { options.maximumDuration = seconds } else { options.maximumFrames = frames }
        options.logPath = logPath
        var live: LiveSoundOutput?
        let threads = renderThreads == 0 ? ProcessInfo.processInfo.activeProcessorCount : max(1, renderThreads)
        var dependencies = PlayerDependencies.production(audioDevice: noAudio ? nil : audioDevice, periodFrames: 256,
                                                         renderThreads: threads, preparesScenes: !noPreroll) { live = $0 }
        let timedRenderer = TimedRenderer(dependencies.renderer)
        dependencies.renderer = timedRenderer
        let player: Player
        do {
            player = try Player(options: options, dependencies: dependencies)
        } catch {
            StandardStreams.writeError("diorama bench player: \(error)\n")
            live?.live.stop()
            throw ExitCode(2)
        }
        defer { live?.live.stop() }
        var costs: [FrameCost] = []
        /// Per drawn frame: the scene heard and the render stage's thread CPU seconds.
        var scenes: [Int] = [], renderCPU: [Double] = []
        var firstPresented: Double?
        while player.end == nil {
            let drawsBefore = timedRenderer.draws
            try player.step()
            if player.frames.lastSkipped {
                // The clock has not moved since the last frame: nothing new to draw yet.
                usleep(500)
                continue
            }
            costs.append(player.frames.lastCost)
            scenes.append(player.position.sceneIndex)
            renderCPU.append(timedRenderer.draws > drawsBefore ? timedRenderer.lastCPU : 0)
            if firstPresented == nil { firstPresented = player.frames.firstTime }
        }
        let end = monotonicSeconds()
        let drawable = player.window.drawableSize

        print("player at \(Int(drawable.width))x\(Int(drawable.height)), video driver \(VideoSystem.driverName ?? "?"), "
              + "renderer \(player.window.rendererName), sound \(player.output.isLive ? "live" : "none (monotonic clock)")")
        if let firstPresented {
            var line = String(format: "first frame presented %.1f ms after the command started", (firstPresented - start) * 1000)
            if let sinceProcess = Self.secondsSinceProcessStart() {
                line += String(format: " (%.0f ms after the process started, ±10 ms)", (sinceProcess - (end - firstPresented)) * 1000)
            }
            print(line)
        }
        if let playing = player.frames.firstPlayingTime {
            print(String(format: "first frame with the sound running %.1f ms after the command started", (playing - start) * 1000))
        }
        // The first frame pays for caches; the figures are for the frames after it.
        let steady = Array(costs.dropFirst())
        func figures(_ values: [Double]) -> String {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return "-" }
            let median = sorted[sorted.count / 2], p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
            return String(format: "median %6.2f  p95 %6.2f  max %6.2f", median * 1000, p95 * 1000, sorted[sorted.count - 1] * 1000)
        }
        print("per-frame cost over \(steady.count) frames (ms):")
        print("  compose  " + figures(steady.map(\.compose)))
        print("  render   " + figures(steady.map(\.render)))
        print("  (render, this thread's CPU time) " + figures(Array(renderCPU.dropFirst())))
        print("  upload   " + figures(steady.map(\.upload)))
        print("  present  " + figures(steady.map(\.present)))
        if let window = player.window as? PlayerWindow {
            print("  (present: \(window.framesPresentedInPart) of \(costs.count) frames sent to the screen only where drawn)")
        }
        print("  total    " + figures(steady.map(\.total)))
        let sceneIDs = player.document.scenes.map(\.id)
        if Set(scenes).count > 1 || seconds != nil {
            print("by scene (ms): render wall, render CPU, total")
            for scene in Set(scenes.dropFirst()).sorted() {
                let frames = scenes.indices.dropFirst().filter { scenes[$0] == scene }
                let name = scene < sceneIDs.count ? sceneIDs[scene] : "\(scene)"
                print(String(format: "  %-8@ %5d frames", name as NSString, frames.count))
                print("    render wall " + figures(frames.map { costs[$0].render }))
                print("    render CPU  " + figures(frames.map { renderCPU[$0] }))
                print("    total       " + figures(frames.map { costs[$0].total }))
            }
        }
        let changes = SceneChangeFigures(scenes: scenes, totals: costs.map(\.total), renderCPU: renderCPU, sceneIDs: sceneIDs)
        print("scene changes (\(threads) render thread\(threads == 1 ? "" : "s"), next scene prepared ahead: "
              + "\(noPreroll ? "no" : "yes, \(timedRenderer.sceneChanges.prepared) of \(timedRenderer.sceneChanges.prepared + timedRenderer.sceneChanges.unprepared) changes met it ready")):")
        for line in changes.lines { print("  " + line) }
        if let playing = player.frames.firstPlayingTime, costs.count > 1 {
            print(String(format: "frame rate with vsync off: %.1f frames per second", Double(costs.count - 1) / (end - playing)))
        }
        if let peak = Self.peakMemory() { print("peak memory (VmHWM): \(peak)") }
        player.flushLog()
        let analysis = try PlayLogAnalysis(path: logPath)
        print("sync:")
        for line in analysis.summary { print("  " + line) }
    }

    /// The `VmHWM` line of /proc/self/status, e.g. "61234 kB".
    static func peakMemory() -> String? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .map { $0.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces) }
    }

    /// Seconds since this process started, from /proc (10 ms resolution).
    static func secondsSinceProcessStart() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name; starttime is field 22 overall, the 20th after ")".
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]), let now = Double(uptime.split(separator: " ")[0]) else { return nil }
        return now - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// Wraps the player's renderer to time each draw by this thread's CPU clock, which other processes
/// (the X server, a build) inflate far less than the wall clock.
private final class TimedRenderer: SnapshotRendering {
    let wrapped: any SnapshotRendering
    /// Draws so far, and the CPU seconds the last one took.
    private(set) var draws = 0
    private(set) var lastCPU = 0.0

    init(_ wrapped: any SnapshotRendering) {
        self.wrapped = wrapped
    }

    func draw(_ snapshot: Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
              holdsLastFrame: Bool) throws {
        let start = RenderBench.threadCPUTime()
        defer {
            lastCPU = (RenderBench.threadCPUTime() - start) / 1000
            draws += 1
        }
        try wrapped.draw(snapshot, into: pixels, width: width, height: height, stride: stride, holdsLastFrame: holdsLastFrame)
    }

    func prepare(scene: Int, width: Int, height: Int, frames: () -> [Snapshot]) {
        wrapped.prepare(scene: scene, width: width, height: height, frames: frames)
    }

    func show(scene: Int) { wrapped.show(scene: scene) }

    var lastWrittenAreas: [Rect]? { wrapped.lastWrittenAreas }

    var sceneChanges: SceneChanges { wrapped.sceneChanges }
}

/// The frames around each scene change: the worst frame and how many missed a 60 Hz vsync (over 16.7 ms) among the
/// first `window` frames of each scene reached, by scene, and over the whole run.
struct SceneChangeFigures {
    static let window = 10
    static let budget = 1.0 / 60

    var lines: [String] = []

    /// `scenes` and `totals`: per drawn frame, the scene shown and its cost in seconds (the run's first frame, drawn
    /// while the window opened, is no scene change).
    /// `renderCPU`: the render stage's CPU seconds on this thread, per frame (what other processes inflate least).
    init(scenes: [Int], totals: [Double], renderCPU: [Double], sceneIDs: [String]) {
        var byScene: [Int: (changes: Int, worst: Double, over: Int)] = [:]
        var all = (changes: 0, worst: 0.0, over: 0)
        var cpu = (worst: 0.0, over: 0)
        for index in scenes.indices.dropFirst() where scenes[index] != scenes[index - 1] {
            let frames = totals[index..<min(totals.count, index + Self.window)]
            let cpuFrames = renderCPU[index..<min(renderCPU.count, index + Self.window)]
            cpu = (max(cpu.worst, cpuFrames.max() ?? 0), cpu.over + cpuFrames.filter { $0 > Self.budget }.count)
            let worst = frames.max() ?? 0, over = frames.filter { $0 > Self.budget }.count
            let scene = scenes[index]
            let before = byScene[scene] ?? (0, 0, 0)
            byScene[scene] = (before.changes + 1, max(before.worst, worst), before.over + over)
            all = (all.changes + 1, max(all.worst, worst), all.over + over)
        }
        let run = totals.dropFirst()
        lines.append(String(format: "whole run: worst frame %.1f ms, %d of %d frames over 16.7 ms", (run.max() ?? 0) * 1000,
                            run.filter { $0 > Self.budget }.count, run.count))
        lines.append(String(format: "%d changes: worst frame %.1f ms, %d of their first %d frames over 16.7 ms",
                            all.changes, all.worst * 1000, all.over, all.changes * Self.window))
        lines.append(String(format: "  by the render stage's CPU time on this thread: worst %.1f ms, %d frames over 16.7 ms",
                            cpu.worst * 1000, cpu.over))
        for scene in byScene.keys.sorted() {
            let figures = byScene[scene]!
            let name = scene < sceneIDs.count ? sceneIDs[scene] : "\(scene)"
            lines.append(String(format: "to %-12@ worst %6.1f ms, %2d over 16.7 ms (%d change%@)", name as NSString,
                                figures.worst * 1000, figures.over, figures.changes, (figures.changes == 1 ? "" : "s") as NSString))
        }
    }
}
