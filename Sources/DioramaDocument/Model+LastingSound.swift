import Foundation

// Sounds that last: loops that end on a later moment, stop cues, ambience started on an event, ducking.

/// A moment of a scene named the way a cue's trigger is (a scene time, or every occurrence of an animation's
/// event), plus an offset: a loop's `until`, an ambience's `start`.
public struct CueMoment: Sendable, Equatable {
    public var trigger: CueTrigger
    /// Seconds added to the trigger's time (may be negative), exactly as written.
    public var offset: Rational

    public init(trigger: CueTrigger, offset: Rational = .zero) {
        self.trigger = trigger
        self.offset = offset
    }

    public static func at(_ time: Rational) -> CueMoment { CueMoment(trigger: .at(time)) }
}

/// Lowers the scene's ambience while a cue's sound plays (from its start until it ends or is stopped).
/// Overlapping ducks do not add up: at every sample the deepest one wins.
public struct Ducking: Sendable, Equatable {
    /// The ambience's change in decibels (negative: -12 lowers it to a quarter of its amplitude).
    public var decibels: Double
    /// Milliseconds the ambience takes to go down when the sound starts.
    public var attackMilliseconds: Double
    /// Milliseconds it takes to come back up once the sound has ended.
    public var releaseMilliseconds: Double

    public init(decibels: Double, attackMilliseconds: Double = 50, releaseMilliseconds: Double = 300) {
        self.decibels = decibels
        self.attackMilliseconds = attackMilliseconds
        self.releaseMilliseconds = releaseMilliseconds
    }

    /// The ambience's linear gain while fully ducked: 10^(dB/20).
    public var linearGain: Double { pow(10, decibels / 20) }
}

extension Cue {
    /// Whether this cue ends another's sound instead of playing one.
    public var isStop: Bool { stop != nil }

    /// Whether its sound is ended by the scene: it loops or has an `until`, so it never outlives its scene.
    public var endsWithScene: Bool { !isStop && (loops || until != nil) }
}
