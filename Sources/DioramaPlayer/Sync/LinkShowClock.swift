import DioramaLink

/// The shared show clock on an Ableton Link session (`diorama play --link`).
///
/// Show seconds are Link beats at 60 bpm: one beat a second. Peers agree on the phase of the beat timeline modulo a
/// quantum, not on absolute beats, so the quantum is the show's cycle (the whole playlist's length) and the show's
/// seconds are that phase. When another application set the session to another tempo, seconds are beats × 60 ÷
/// tempo, so the show still runs at one second a second. Moving the show forces the session's beat for every peer;
/// pause and play use Link's start/stop sync (the show holds the phase it had when the transport stopped).
public final class LinkShowClock: SharedShowClock {
    public let session: LinkSession
    public var cycle: Double

    /// Uses `session` (enabled, with start/stop sync, by the caller).
    public init(session: LinkSession, cycle: Double = 1) {
        self.session = session
        self.cycle = cycle
    }

    public var peerCount: Int { session.peerCount }

    public func now() -> Double { Double(session.hostMicros()) / 1_000_000 }

    private static func micros(_ time: Double) -> Int64 { Int64((time * 1_000_000).rounded()) }

    /// Beats per show second at the session's tempo.
    private var beatsPerSecond: Double { max(session.tempo, 1) / 60 }

    public func show(at time: Double) -> SharedShowState {
        let rate = beatsPerSecond
        let quantum = cycle * rate
        let state = session.state(at: Self.micros(time), quantum: quantum)
        guard !state.isPlaying else { return SharedShowState(seconds: state.phase / rate, isPlaying: true) }
        let held = session.state(at: state.timeForIsPlaying, quantum: quantum)
        return SharedShowState(seconds: held.phase / rate, isPlaying: false)
    }

    public func move(to seconds: Double, at time: Double) {
        let rate = beatsPerSecond
        let quantum = cycle * rate
        let state = session.state(at: Self.micros(time), quantum: quantum)
        // Paused, the show holds the phase it had when the transport stopped: that is the moment to re-map.
        session.force(beat: seconds * rate, at: state.isPlaying ? Self.micros(time) : state.timeForIsPlaying, quantum: quantum)
    }

    public func pause(at time: Double) {
        session.setPlaying(false, at: Self.micros(time))
    }

    public func play(from seconds: Double, at time: Double) {
        let rate = beatsPerSecond
        session.resume(beat: seconds * rate, at: Self.micros(time), quantum: cycle * rate)
    }
}
