@testable import DioramaPlayer
import DioramaTimeline

/// A shared show clock the test moves by hand: the show runs one second per second of `time` while it plays, and
/// repeats every `cycle` seconds, as Link's phase does at 60 bpm with the playlist's length as the quantum.
final class ManualShowClock: SharedShowClock {
    /// The shared time base, in seconds.
    var time = 0.0
    /// Reads the shared time base instead of `time` when set (a player harness's clock).
    var reading: (() -> Double)?
    var cycle: Double
    var peerCount = 1
    /// Every move, pause and play, in order.
    private(set) var moves: [String] = []

    private var anchorTime = 0.0
    private var anchorSeconds = 0.0
    private var playing: Bool

    init(cycle: Double, seconds: Double = 0, at time: Double = 0, playing: Bool = true) {
        self.cycle = cycle
        self.time = time
        anchorTime = time
        anchorSeconds = seconds
        self.playing = playing
    }

    func now() -> Double { reading?() ?? time }

    func show(at time: Double) -> SharedShowState {
        let seconds = playing ? anchorSeconds + (time - anchorTime) : anchorSeconds
        return SharedShowState(seconds: ShowLayout.wrap(seconds, cycle), isPlaying: playing)
    }

    func move(to seconds: Double, at time: Double) {
        moves.append("move \(seconds)")
        anchorTime = time
        anchorSeconds = seconds
    }

    func pause(at time: Double) {
        moves.append("pause")
        anchorSeconds = show(at: time).seconds
        anchorTime = time
        playing = false
    }

    func play(from seconds: Double, at time: Double) {
        moves.append("play \(seconds)")
        anchorTime = time
        anchorSeconds = seconds
        playing = true
    }
}
