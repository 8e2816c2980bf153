import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaPlayer
import DioramaTimeline

// The player's stand-ins for time and sound, shared the way swift-nio ships NIOEmbedded: a clock, a sound output and a
// shared show clock that the caller moves by hand, so a playback, a shared show or a whole player runs without a
// device, a network or waiting. Only tests use them (headless runs such as `diorama bench player` keep the real
// device and monotonic clock), so they live here rather than in a module of their own.

/// Monotonic seconds the caller moves by hand.
public final class ManualClock {
    public var now: Double

    public init(now: Double = 100) {
        self.now = now
    }
}

/// A sound output whose clock the caller moves by hand; it records every command and the volume set.
public final class ManualSoundOutput: SoundOutput {
    public let sampleRate: Int
    /// The frame being heard.
    public var heard: Double = 0
    /// Frames rendered ahead of what is heard (the device's latency), in frames.
    public var latency: Int64 = 0
    public var volume: Float = 1
    public var isLive: Bool = true
    public var commandMargin: Int64 = 0
    /// Every command sent, with the write frame at the time.
    public private(set) var commands: [(command: MixerCommand, writeFrame: Int64)] = []

    public init(sampleRate: Int = 48_000) {
        self.sampleRate = sampleRate
    }

    /// When set, the write frame reads `frames` further on after its first reading (an audio thread that renders on
    /// while the reader is held up), until cleared.
    public var rendersOn: (frames: Int64, readings: Int)?

    public func heardFrame() -> Double { heard }

    public func writeFrame() -> Int64 {
        var frame = Int64(heard.rounded(.down)) + latency
        if let on = rendersOn {
            if on.readings > 0 { frame += on.frames }
            rendersOn = (on.frames, on.readings + 1)
        }
        return frame
    }

    public func send(_ command: MixerCommand) -> Bool {
        commands.append((command, writeFrame()))
        return true
    }

    /// The voice starts sent so far.
    public var starts: [VoiceStart] {
        commands.compactMap { if case .start(let start) = $0.command { start } else { nil } }
    }

    public func clearCommands() { commands.removeAll() }
}

/// Moves `output`'s heard clock to `frame`, updating `playback` every 800 frames (a 60 Hz window frame) on the way.
public func play(_ playback: PlaylistPlayback, _ output: ManualSoundOutput, to frame: Double) {
    while output.heard + 800 < frame {
        output.heard += 800
        playback.update()
    }
    output.heard = frame
    playback.update()
}

/// A shared show clock the caller moves by hand: the show runs one second per second of `time` while it plays, and
/// repeats every `cycle` seconds, as Link's phase does at 60 bpm with the playlist's length as the quantum.
public final class ManualShowClock: SharedShowClock {
    /// The shared time base, in seconds.
    public var time = 0.0
    /// Reads the shared time base instead of `time` when set (a player harness's clock).
    public var reading: (() -> Double)?
    public var cycle: Double
    public var peerCount = 1
    /// Every move, pause and play, in order.
    public private(set) var moves: [String] = []

    private var anchorTime = 0.0
    private var anchorSeconds = 0.0
    private var playing: Bool

    public init(cycle: Double, seconds: Double = 0, at time: Double = 0, playing: Bool = true) {
        self.cycle = cycle
        self.time = time
        anchorTime = time
        anchorSeconds = seconds
        self.playing = playing
    }

    public func now() -> Double { reading?() ?? time }

    public func show(at time: Double) -> SharedShowState {
        let seconds = playing ? anchorSeconds + (time - anchorTime) : anchorSeconds
        return SharedShowState(seconds: ShowLayout.wrap(seconds, cycle), isPlaying: playing)
    }

    public func move(to seconds: Double, at time: Double) {
        moves.append("move \(seconds)")
        anchorTime = time
        anchorSeconds = seconds
    }

    public func pause(at time: Double) {
        moves.append("pause")
        anchorSeconds = show(at: time).seconds
        anchorTime = time
        playing = false
    }

    public func play(from seconds: Double, at time: Double) {
        moves.append("play \(seconds)")
        anchorTime = time
        anchorSeconds = seconds
        playing = true
    }
}

/// A player's screen in memory: frames are drawn into an array, events are given by hand (`events`), and what the
/// player asked of the window is recorded. No SDL: players on it run in parallel with each other.
public final class EmbeddedScreen: PlayerScreen {
    public var drawableSize: Size
    /// Events for the player's next frames, first first.
    public var events: [WindowEvent] = []
    public private(set) var title = ""
    public private(set) var isFullscreen = false
    public private(set) var framesPresented = 0
    private var frame: (pixels: [UInt32], width: Int, height: Int) = ([], 0, 0)

    public init(size: Size) {
        drawableSize = size
    }

    public var rendererName: String { "embedded" }
    public var videoDriver: String { "embedded" }

    public func nextEvent(canvas: Size) -> WindowEvent? {
        events.isEmpty ? nil : events.removeFirst()
    }

    public func drawFrame(viewport: Rect, clock: () -> Double,
                          draw: (_ pixels: UnsafeMutableRawPointer, _ width: Int, _ height: Int, _ stride: Int, _ holdsLastDraw: Bool) -> [Rect]?)
        throws(WindowError) -> (draw: Double, upload: Double) {
        let width = max(1, Int(viewport.width)), height = max(1, Int(viewport.height))
        if frame.width != width || frame.height != height {
            frame = ([UInt32](repeating: 0, count: width * height), width, height)
        }
        let start = clock()
        frame.pixels.withUnsafeMutableBytes { _ = draw($0.baseAddress!, width, height, width * 4, false) }
        return (clock() - start, 0)
    }

    public func present() { framesPresented += 1 }

    /// The last frame drawn, the viewport's size.
    public func readPixels() throws(WindowError) -> (pixels: [UInt32], width: Int, height: Int) { frame }

    public func setTitle(_ title: String) { self.title = title }

    public func toggleFullscreen() { isFullscreen.toggle() }

    /// Whether the player last asked for the cursor to show.
    public private(set) var cursorShown = true

    public func showCursor(_ shown: Bool) { cursorShown = shown }
}
