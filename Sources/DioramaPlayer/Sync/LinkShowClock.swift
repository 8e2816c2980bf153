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
        if session.state(at: Self.micros(time), quantum: quantum).isPlaying {
            session.force(beat: seconds * rate, at: Self.micros(time), quantum: quantum)
        } else {
            // Paused, the show holds the phase of the moment the transport stopped, which Link keeps as a beat: stop
            // again at `time` with `seconds` there, in one commit, so the held phase is exactly `seconds`.
            session.pause(beat: seconds * rate, at: Self.micros(time), quantum: quantum)
        }
    }

    public func pause(at time: Double) {
        session.setPlaying(false, at: Self.micros(time))
    }

    /// Shared seconds from which this player knows whether the show plays: at once for the player that started the
    /// show, `settling` seconds after joining for the others (until then, what the session says may be stale).
    private var knowsTransportFrom: Double?
    private var lastPeerCount = 0
    /// Seconds a player that joined waits before it vouches for the show's transport.
    public var settling = 2.0

    /// Notes that this player started the show (no other player was found).
    public func startedShow() {
        knowsTransportFrom = now()
    }

    /// Call once per frame. When a player joins (or a network comes back), Link gives the newcomer the timeline but
    /// not always the transport: a session's playing or stopped state can come out of a merge stale. So each player
    /// that knows the show commits its transport again when the number of peers grows, with its own start or stop
    /// moved by a microsecond (Link only sends a change); the others then take it as the newest.
    public func maintain() {
        let time = now()
        let peers = peerCount
        defer { lastPeerCount = peers }
        if knowsTransportFrom == nil, peers > 0 { knowsTransportFrom = time + settling }
        guard peers > lastPeerCount, let from = knowsTransportFrom, time >= from else { return }
        let state = session.state(at: Self.micros(time), quantum: max(cycle, 1))
        session.setPlaying(state.isPlaying, at: state.timeForIsPlaying + 1)
    }

    public func play(from seconds: Double, at time: Double) {
        let rate = beatsPerSecond
        session.resume(beat: seconds * rate, at: Self.micros(time), quantum: cycle * rate)
    }
}
