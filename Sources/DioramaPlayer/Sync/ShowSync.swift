import DioramaDocument
import DioramaTimeline

/// A show several players share: `seconds` that repeat every cycle, and whether the show plays.
public struct SharedShowState: Sendable, Equatable {
    /// Seconds into the show's cycle, 0 ..< cycle; while paused, where the show holds.
    public var seconds: Double
    public var isPlaying: Bool

    public init(seconds: Double, isPlaying: Bool) {
        self.seconds = seconds
        self.isPlaying = isPlaying
    }
}

/// A show clock that several players share (Ableton Link in `diorama play --link`). Any player may move, pause or
/// play it; every player follows. Times are seconds on the clock's own time base, which all players' readings of
/// `now()` agree on.
public protocol SharedShowClock: AnyObject {
    /// Seconds after which the show repeats: the whole playlist's length (the same on every player of the show).
    var cycle: Double { get set }
    /// The shared time base now, in seconds.
    func now() -> Double
    /// The show at shared time `time`.
    func show(at time: Double) -> SharedShowState
    /// Puts the show at `seconds` at shared time `time`, for every player, playing or paused as it is.
    func move(to seconds: Double, at time: Double)
    /// Holds the show where it is at shared time `time`.
    func pause(at time: Double)
    /// Plays the show on from `seconds` at shared time `time`.
    func play(from seconds: Double, at time: Double)
    /// Other players in the show.
    var peerCount: Int { get }
}

/// Keeps a player's playback on a shared show clock, and turns the player's navigation into moves of that clock.
///
/// Once per window frame (`follow`), the show is read for the moment the playback's next command frame will be
/// heard (the audio clock stays the master: the frame heard now is matched with the shared clock's now). A
/// difference over `jumpThreshold` (another player navigated, this one started late or rejoined) is corrected at
/// once by a seek at that frame; smaller ones, the audio clock's jitter, are averaged over `window` frames and the
/// playback is sought only when the average is off by more than `fineThreshold`. Paused, the held position must
/// match to the sample. Navigation on this player moves the shared clock (`navigate`, `pause`, `resume`); its own
/// playback follows on the same frame, as every other player's does on theirs.
public final class ShowSync {
    public let clock: any SharedShowClock
    public private(set) var layout: ShowLayout
    /// Seconds of difference that are corrected at once.
    public var jumpThreshold = 0.02
    /// Seconds of average difference that are corrected.
    public var fineThreshold = 0.0005
    /// Frames averaged for a fine correction.
    public var window = 30
    /// Seconds of clock readings that make the estimate of when a frame is heard, and at least `offsetReadings` of
    /// them: two seconds of frames at 60 fps, as many as a joining player reads in two seconds (every 2 ms), and no
    /// fewer than 120 when frames come slowly (a loaded machine), as a few readings give a poor estimate.
    public var offsetSeconds = 2.0
    public var offsetReadings = 120
    /// Seconds of the shared clock a reading of both clocks may take (it takes microseconds); a longer one is not
    /// kept, as it may be ahead by as much.
    public var readingSpan = 0.000_2
    /// Corrections made so far.
    public private(set) var corrections = 0

    private var differences: [Double] = []

    public init(clock: any SharedShowClock, layout: ShowLayout) {
        self.clock = clock
        self.layout = layout
        clock.cycle = layout.cycle
    }

    /// A correction `follow` made, for the log.
    public struct Correction: Sendable, Equatable {
        public enum Kind: String, Sendable { case jump, drift, paused, resumed }
        public var kind: Kind
        /// Seconds the playback was ahead of the show (negative: behind) before the correction.
        public var difference: Double
        /// The mixer frame the correction acts on.
        public var frame: Int64
    }

    /// Follows a reload: the playlist (and so the layout) may have changed.
    public func replaceLayout(_ layout: ShowLayout) {
        self.layout = layout
        clock.cycle = layout.cycle
        differences.removeAll()
    }

    /// The mixer frame heard at shared time 0 (fractional), from the clocks' readings so far and one more.
    ///
    /// The heard frame a player reads runs behind the device's true position by up to a window frame (it is
    /// extrapolated from the moment the frame loop first saw the device's count change), and longer on a loaded
    /// machine (the audio thread or the frame loop held up), never ahead: so the frame heard at shared time 0 is
    /// estimated as the largest of the recent readings' (heard − rate × now), which is steady to a fraction of a
    /// millisecond where one reading is off by tens of milliseconds. A reading below the estimate does not move it;
    /// if the audio clock did fall behind (time lost), the estimate follows once the window has passed.
    ///
    /// A reading is ahead only if the thread is held up between reading the shared clock and the audio clock: the
    /// shared clock is read again after the audio clock, and a reading that took longer than `readingSpan` is not kept.
    private func heardOrigin(_ playback: PlaylistPlayback) -> Double {
        let rate = Double(playback.sampleRate)
        let before = clock.now()
        let heard = playback.output.heardFrame()
        let after = clock.now()
        let offset = heard - before * rate
        if after - before <= readingSpan {
            offsets.append((before, offset))
            let old = min(offsets.prefix { $0.time < before - offsetSeconds }.count, offsets.count - offsetReadings)
            if old > 0 { offsets.removeFirst(old) }
        }
        return offsets.lazy.map(\.offset).max() ?? offset
    }

    /// Shared time at which mixer frame `frame` will be heard, in seconds.
    private func sharedTime(ofFrame frame: Int64, _ playback: PlaylistPlayback) -> Double {
        (Double(frame) - heardOrigin(playback)) / Double(playback.sampleRate)
    }

    /// Reads the audio clock against the shared clock once, between frames: a player that reads it every few
    /// milliseconds while it waits for others starts with an estimate as good as two seconds of frames give.
    public func observeClock(_ playback: PlaylistPlayback) {
        _ = heardOrigin(playback)
    }

    /// Forgets the audio clock's readings: the playback now plays on a new output, whose clock starts over.
    public func audioClockStartedOver() {
        offsets.removeAll()
        differences.removeAll()
    }

    /// Readings of (heard frame − rate × shared now) and the shared time of each, newest last.
    private var offsets: [(time: Double, offset: Double)] = []

    /// Brings `playback` to the shared show. Call once per window frame, before drawing.
    ///
    /// The playback and the show are compared at one mixer frame, and a seek puts the playback where the show is at
    /// the frame the seek acts on: a frame loop held up between its steps (while the audio thread renders on) changes
    /// neither the difference nor where the seek lands.
    @discardableResult
    public func follow(_ playback: PlaylistPlayback) -> Correction? {
        let rate = playback.sampleRate
        let origin = heardOrigin(playback)
        let clock = clock, layout = layout
        func showAt(_ frame: Int64) -> SharedShowState {
            clock.show(at: (Double(frame) - origin) / Double(rate))
        }
        let frame = playback.nextCommandFrame
        let show = showAt(frame)
        let target = layout.playlistSeconds(atShow: show.seconds)
        let commanded = playback.commanded(atFrame: frame)
        let local = commanded.hasEnded ? layout.length : layout.playlistSeconds(scene: commanded.sceneIndex, time: commanded.sceneTime(sampleRate: rate))
        let difference = layout.difference(local, from: target)

        func seek(resuming: Bool = false) {
            playback.seek(resuming: resuming) { frame in
                let here = layout.position(atPlaylist: layout.playlistSeconds(atShow: showAt(frame).seconds), sampleRate: rate)
                return (here.scene, here.sceneTime)
            }
            corrections += 1
            differences.removeAll()
        }

        if show.isPlaying == commanded.isPaused || commanded.hasEnded {
            // Pause where the show holds; resume from where it plays at that frame.
            if show.isPlaying {
                seek(resuming: true)
                return Correction(kind: .resumed, difference: difference, frame: frame)
            }
            playback.pause()
            seek()
            return Correction(kind: .paused, difference: difference, frame: frame)
        }
        if !show.isPlaying {
            // Held: the position matches to the sample or is moved there.
            guard abs(difference) * Double(rate) >= 1 else { return nil }
            seek()
            return Correction(kind: .jump, difference: difference, frame: frame)
        }
        if abs(difference) > jumpThreshold {
            seek()
            return Correction(kind: .jump, difference: difference, frame: frame)
        }
        differences.append(difference)
        guard differences.count >= window else { return nil }
        let median = differences.sorted()[differences.count / 2]
        differences.removeAll()
        guard abs(median) > fineThreshold else { return nil }
        seek()
        return Correction(kind: .drift, difference: median, frame: frame)
    }

    // MARK: - Navigation: moves of the shared clock

    /// Starts the shared show where this player's playback is (the first player of a show, once it has looked for
    /// others: held silent at the playlist's start meanwhile).
    public func startHere(_ playback: PlaylistPlayback) {
        let frame = playback.nextCommandFrame
        let at = sharedTime(ofFrame: frame, playback)
        let commanded = playback.commanded(atFrame: frame)
        let local = layout.playlistSeconds(scene: commanded.sceneIndex, time: commanded.sceneTime(sampleRate: playback.sampleRate))
        clock.play(from: ShowLayout.wrap(local - layout.offset, layout.cycle), at: at)
        follow(playback)
    }

    /// Moves the show so that this player shows `time` seconds into its scene `scene` at its next command frame;
    /// every player moves by the same amount.
    public func navigate(_ playback: PlaylistPlayback, toScene scene: Int, time: Double = 0) {
        let at = sharedTime(ofFrame: playback.nextCommandFrame, playback)
        let show = clock.show(at: at)
        let index = min(max(scene, 0), layout.clock.sceneCount - 1)
        let shift = layout.difference(layout.playlistSeconds(scene: index, time: time), from: layout.playlistSeconds(atShow: show.seconds))
        clock.move(to: ShowLayout.wrap(show.seconds + shift, layout.cycle), at: at)
        follow(playback)
    }

    /// The scene after the one this player shows (after the last, the first).
    public func next(_ playback: PlaylistPlayback) {
        navigate(playback, toScene: (playback.commanded.sceneIndex + 1) % layout.clock.sceneCount)
    }

    /// The scene before the one this player shows, from its start (on the first scene, its start again).
    public func previous(_ playback: PlaylistPlayback) {
        navigate(playback, toScene: max(playback.commanded.sceneIndex - 1, 0))
    }

    /// Holds the show for every player.
    public func pause(_ playback: PlaylistPlayback) {
        clock.pause(at: sharedTime(ofFrame: playback.nextCommandFrame, playback))
        follow(playback)
    }

    /// Plays the show on for every player from where it holds.
    public func resume(_ playback: PlaylistPlayback) {
        let at = sharedTime(ofFrame: playback.nextCommandFrame, playback)
        clock.play(from: clock.show(at: at).seconds, at: at)
        follow(playback)
    }
}
