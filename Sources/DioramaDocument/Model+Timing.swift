// Relative timing: scene markers and the moments animations start after. Resolved by `SceneTiming`.

/// A named time of a scene (`"markers": { "doorsOpen": 3.5 }`): cues fire on it and animations start after
/// it, so moving the marker moves everything hung on it.
public struct SceneMarker: Sendable, Equatable, Hashable {
    public var name: String
    /// Scene seconds, exactly as written.
    public var time: Rational

    public init(name: String, time: Rational) {
        self.name = name
        self.time = time
    }
}

/// The moment an animation's (or a Lottie node's) `delay` counts from (`"after"`). One case per kind of moment, each written as an
/// object with its own keys, so kinds can be added (a tap on a node at run time) without changing the others.
public enum StartAnchor: Sendable, Equatable, Hashable {
    /// The first time an event of another animation of the scene happens; `.end` is when its last iteration finishes.
    case animation(node: String, animation: String, event: AnimationEvent)
    /// A marker of the scene.
    case marker(String)
    /// The `nth` tap (from 1) on a tappable node of the scene (`"tap": "button"`, `"nth": 2`); until it happens
    /// the animation waits.
    case tap(String, nth: Int = 1)
    /// The `nth` time (from 1) a Lottie node's marker or frame appears (`"node": "drum", "on": { "marker": "pluck" }`):
    /// the first pass by default, a later pass of a looping Lottie with `"nth"`.
    case lottie(node: String, event: LottieEvent, nth: Int = 1)
}
