import Foundation

/// How the picture changes from one scene to the next (`diorama play --transition`).
public enum TransitionStyle: String, Sendable, CaseIterable {
    /// The new page slides in beside the old one, as a drag pages: from the right going forward, from the left going back.
    case slide
    /// The new page fades in over the old one, both full-size.
    case crossfade
    /// A cut, as `none` says.
    case none
}

/// A scene change being drawn: the pages left behind, each frozen as it was when left (so nothing in it moves or
/// fires), and the page coming in, whose time runs from `changeFrame` on.
///
/// A slide's motion is the story viewer's page spring (a press catches it as it catches a settling drag); a crossfade's
/// is the same spring's curve as the incoming page's opacity. A navigation during a transition retargets it: the page
/// that was coming in joins the pages left where it is (its slot, or its opacity reached), so nothing jumps back.
public struct SceneTransition: Sendable, Equatable {
    /// A page left behind.
    public struct LeftPage: Sendable, Equatable {
        public var scene: Int
        /// The scene seconds it is frozen at: where it was shown when left, or its end when it ended.
        public var time: Double
        /// Slide: where it sits, in canvas widths from the incoming page (-1: just left of it).
        public var slot: Int
        /// Crossfade: its opacity over the pages beneath it (the first page is opaque).
        public var opacity: Double
    }

    /// `.slide` or `.crossfade`.
    public var style: TransitionStyle
    /// Bottom (oldest) first.
    public var left: [LeftPage]
    /// The scene coming in.
    public var incoming: Int
    /// The mixer frame the incoming scene's time starts at (its time is 0 until that frame is heard).
    public var changeFrame: Int64
    /// Monotonic seconds the incoming page started coming in.
    public var startTime: Double

    /// Seconds a scene change takes: the page spring has covered 99.4 % of its way by then. The sound's fades at a
    /// scene change last at least as long.
    public static let duration = 0.4
    /// The page spring's response, as the drag's settle (`PageSpring`).
    public static let response = 0.35

    /// Pages further than this many widths from the incoming one are never seen again, and are dropped.
    static let farthestSlot = 2
    /// Crossfade layers kept beneath the incoming page.
    static let deepestLayers = 3

    public init(style: TransitionStyle, from scene: Int, frozenAt time: Double, to incoming: Int, forward: Bool,
                changeFrame: Int64, at now: Double) {
        self.style = style
        left = [LeftPage(scene: scene, time: time, slot: forward ? -1 : 1, opacity: 1)]
        self.incoming = incoming
        self.changeFrame = changeFrame
        startTime = now
    }

    /// The incoming page's opacity at monotonic `time` (crossfade): from 0 to 1 along the page spring's curve,
    /// reaching exactly 1 at `duration`.
    public func fadeProgress(at time: Double) -> Double {
        let spring = PageSpring(startOffset: 1, startTime: startTime, response: Self.response)
        let end = 1 - spring.offset(at: startTime + Self.duration)
        return min(1, max(0, (1 - spring.offset(at: time)) / end))
    }

    /// Another scene change during this one: the incoming page, frozen at `time`, joins the pages left (sliding: one
    /// width behind the new page; fading: at the opacity it reached), and `scene` comes in.
    public mutating func retarget(to scene: Int, leaving time: Double, forward: Bool, changeFrame: Int64, at now: Double) {
        let shift = forward ? -1 : 1
        let reached = fadeProgress(at: now)
        for index in left.indices { left[index].slot += shift }
        left.append(LeftPage(scene: incoming, time: time, slot: shift, opacity: reached))
        switch style {
        case .crossfade:
            // Layers drawn fully transparent add nothing; past the deepest, the bottom ones go.
            left.removeAll { $0.opacity <= 0 }
            if left.count > Self.deepestLayers { left.removeFirst(left.count - Self.deepestLayers) }
            if let first = left.indices.first { left[first].opacity = 1 }
        default:
            left.removeAll { $0.slot == 0 || abs($0.slot) > Self.farthestSlot }
        }
        incoming = scene
        self.changeFrame = changeFrame
        startTime = now
    }
}
