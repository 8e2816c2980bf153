import CLinkBridge

/// One reading of a Link session's state at one time on Link's clock (see ``LinkSession/state(at:quantum:)``).
public struct LinkState: Sendable, Equatable {
    /// The beat at the time asked for. Only its phase (`beat` modulo the quantum) is shared with peers:
    /// two peers may read beats a whole number of quanta apart.
    public var beat: Double
    /// The beat's position in the quantum, in `[0, quantum)`: the value every peer reads alike at the same time.
    public var phase: Double
    /// Beats per minute, shared with every peer.
    public var tempo: Double
    /// Whether the transport is playing (shared with peers that enabled start/stop sync).
    public var isPlaying: Bool
    /// When, on Link's clock (microseconds), the transport last started or stopped.
    public var timeForIsPlaying: Int64

    public init(beat: Double, phase: Double, tempo: Double, isPlaying: Bool, timeForIsPlaying: Int64) {
        self.beat = beat
        self.phase = phase
        self.tempo = tempo
        self.isPlaying = isPlaying
        self.timeForIsPlaying = timeForIsPlaying
    }
}

/// Why a ``LinkSession`` could not be made.
public enum LinkSessionError: Error, CustomStringConvertible {
    /// Link could not be created (its network thread or memory were unavailable).
    case unavailable

    public var description: String { "Ableton Link could not be started" }
}

/// One participant in an Ableton Link session: a tempo, a beat timeline and a transport (playing or stopped)
/// shared with every other Link participant found on the local network.
///
/// How Diorama's players use it: tempo 60 bpm, so one beat is one second, and quantum = the playlist's total
/// duration in seconds. Then "show time" = `state(at: now, quantum: total).phase` is the same on every player, since
/// Link keeps peers' *phases* (beat modulo the quantum) aligned, not their absolute beats.
/// Navigating (a seek) calls ``force(beat:at:quantum:)``, which re-maps the shared timeline for **all** peers;
/// pausing and resuming use start/stop sync (``setPlaying(_:at:)``, ``resume(beat:at:quantum:)``).
///
/// Times are microseconds on Link's own clock (`CLOCK_MONOTONIC_RAW` on Linux): read it with ``hostMicros()`` and map
/// your own clock to it. Link's timeline answers for any time, past or future, so a frame may ask for the phase at
/// the time it will be shown.
///
/// A new session is disabled (it does not touch the network) until ``isEnabled`` is set; start/stop sync is off until
/// ``isStartStopSyncEnabled`` is set. Peers are found by UDP multicast (224.76.78.75, port 20808) on every up
/// interface with an IPv4 address, loopback included: each `LinkSession` is a peer, also of another in the same
/// process or on the same machine. Enabling and disabling take effect on Link's network thread, soon after the call.
///
/// When two sessions meet, both adopt the timeline of the one running longer (by Link's measure): a beat forced
/// before the peers are found (``peerCount``) may be replaced by theirs. Force after joining.
///
/// Only Link's app-thread API is used: call it from a frame or control thread, never from a real-time audio callback
/// (its session-state capture and commit may lock).
///
/// `@unchecked Sendable`: the only state is the Link instance behind `link`, fixed for the session's life, and every
/// function called on it (enable, peers, clock, captureAppSessionState, commitAppSessionState) is documented by Link
/// as thread-safe. A change is a capture, an edit and a commit: two threads changing the session at once each commit
/// a whole state, and the later commit wins.
public final class LinkSession: @unchecked Sendable {
    private let link: OpaquePointer

    /// A disabled Link participant whose timeline starts at beat 0 now, at `tempo` beats per minute
    /// (on joining a session, the session's tempo and timeline win).
    public init(tempo: Double = 60) throws(LinkSessionError) {
        guard let link = dlink_create(tempo) else { throw .unavailable }
        self.link = link
    }

    deinit {
        // Stops Link's network thread and leaves the session.
        dlink_destroy(link)
    }

    /// Whether this participant talks to the network (joins a session with the peers it finds).
    public var isEnabled: Bool {
        get { dlink_is_enabled(link) }
        set { dlink_enable(link, newValue) }
    }

    /// Whether the transport (playing or stopped) is shared with peers that enabled it too.
    public var isStartStopSyncEnabled: Bool {
        get { dlink_is_start_stop_sync_enabled(link) }
        set { dlink_enable_start_stop_sync(link, newValue) }
    }

    /// The other participants in the session (this one excluded); 0 when alone or disabled.
    public var peerCount: Int { Int(dlink_num_peers(link)) }

    /// Now on Link's clock, in microseconds: the time base of every other call.
    public func hostMicros() -> Int64 { dlink_clock_micros(link) }

    /// Beat, phase, tempo and transport read from one capture of the session, for the time `micros` on Link's clock.
    /// `quantum` (beats, > 0) is the span over which peers agree on phase.
    public func state(at micros: Int64, quantum: Double) -> LinkState {
        let state = dlink_state_at(link, micros, quantum)
        return LinkState(beat: state.beat, phase: state.phase, tempo: state.tempo,
                         isPlaying: state.isPlaying, timeForIsPlaying: state.timeForIsPlaying)
    }

    /// The session's tempo, in beats per minute.
    public var tempo: Double { dlink_tempo(link) }

    /// Changes the tempo for every peer from `micros` on (the beat at `micros` stays where it is).
    /// Link applies each commit again on its network thread, re-anchored at that moment with the session's tempo as
    /// it was then: right after another commit (a force), the old tempo can show for a moment. Diorama runs at one
    /// tempo and never does that.
    public func setTempo(_ tempo: Double, at micros: Int64) {
        dlink_set_tempo(link, tempo, micros)
    }

    /// Re-maps the shared timeline so that `beat` falls at `micros`: every peer's phase at `micros` becomes
    /// `beat` modulo `quantum`. Rude by design (Link's `forceBeatAtTime`): use it for a deliberate jump such as a seek,
    /// not for ongoing corrections.
    public func force(beat: Double, at micros: Int64, quantum: Double) {
        dlink_force_beat_at_time(link, beat, micros, quantum)
    }

    /// Starts or stops the transport at `micros` (shared with peers when start/stop sync is enabled on both).
    /// The timeline keeps running while stopped: a stopped player holds its own position.
    public func setPlaying(_ playing: Bool, at micros: Int64) {
        dlink_set_is_playing(link, playing, micros)
    }

    /// Starts the transport at `micros` with `beat` there, in one commit, so peers never see the transport playing
    /// from a stale beat.
    public func resume(beat: Double, at micros: Int64, quantum: Double) {
        dlink_set_is_playing_and_force_beat_at_time(link, true, micros, beat, quantum)
    }

    /// Stops the transport at `micros` and forces `beat` there, in one commit (a pause that also marks where).
    public func pause(beat: Double, at micros: Int64, quantum: Double) {
        dlink_set_is_playing_and_force_beat_at_time(link, false, micros, beat, quantum)
    }
}
