import DioramaDocument

/// Where a player's playlist sits on a show clock that several players share (`diorama play --link`).
///
/// The show clock runs in seconds and repeats every `cycle` seconds: the whole playlist, end to end, as every
/// player of the show has it. Each player shows the show clock's moment through its own playlist: usually the
/// whole one (show seconds are playlist seconds), `--scene-offset N` shows it N scenes ahead (the show's seconds
/// plus the length of the first N scenes), and `--only SCENE` loops one scene on the show clock (its time is the
/// show's seconds modulo the scene's length, so it starts over with the show).
///
/// Pure and deterministic: the player feeds it the shared clock's readings.
public struct ShowLayout: Sendable, Equatable {
    /// This player's playlist: the whole one, or the one scene it loops.
    public let clock: PlaylistClock
    /// The show's cycle in seconds: the whole playlist's length, the same on every player.
    public let cycle: Double
    /// Seconds added to the show clock to get this player's playlist seconds.
    public let offset: Double
    /// This player's playlist length in seconds (the cycle, or the one scene's length).
    public let length: Double

    /// The playlist as a whole (show seconds are playlist seconds), shown `sceneOffset` scenes ahead of the show
    /// (wrapping), or only the scene at index `only`, looping.
    public init(durations all: [Rational], sceneOffset scenes: Int = 0, only: Int? = nil) {
        precondition(!all.isEmpty, "a show needs at least one scene")
        let whole = PlaylistClock(durations: all)
        if let only {
            precondition(all.indices.contains(only), "the scene to show must be in the playlist")
            clock = PlaylistClock(durations: [all[only]])
            offset = 0
        } else {
            clock = whole
            let count = all.count
            offset = whole.starts[((scenes % count) + count) % count].doubleValue
        }
        cycle = whole.length.doubleValue
        length = clock.length.doubleValue
    }

    /// The playlist seconds this player shows at show seconds `show` (any value; the show repeats).
    public func playlistSeconds(atShow show: Double) -> Double {
        Self.wrap(Self.wrap(show, cycle) + offset, length)
    }

    /// The scene and scene time this player shows at show seconds `show`, the time rounded to a sample at
    /// `sampleRate` (and kept inside the scene).
    public func position(atShow show: Double, sampleRate: Int) -> PlaybackPosition {
        position(atPlaylist: playlistSeconds(atShow: show), sampleRate: sampleRate)
    }

    /// The scene and scene time at `seconds` into this player's playlist, rounded to a sample at `sampleRate`: a
    /// moment that rounds to a scene's end is the next scene's start.
    public func position(atPlaylist seconds: Double, sampleRate: Int) -> PlaybackPosition {
        clock.position(at: Rational(Int128(max(0, (seconds * Double(sampleRate)).rounded())), Int128(sampleRate)))
    }

    /// Seconds into this player's playlist of `time` seconds into scene `scene`.
    public func playlistSeconds(scene: Int, time: Double) -> Double {
        (scene < clock.sceneCount ? clock.starts[scene] : clock.length).doubleValue + time
    }

    /// How far `playlist` seconds are ahead of `reference` seconds on this player's repeating playlist, in
    /// -length/2 ..< length/2: the shortest way round.
    public func difference(_ playlist: Double, from reference: Double) -> Double {
        let half = length / 2
        return Self.wrap(playlist - reference + half, length) - half
    }

    /// `value` modulo `period`, in 0 ..< period.
    public static func wrap(_ value: Double, _ period: Double) -> Double {
        guard period > 0 else { return 0 }
        let remainder = value.truncatingRemainder(dividingBy: period)
        let wrapped = remainder < 0 ? remainder + period : remainder
        return wrapped < period ? wrapped : 0
    }
}
