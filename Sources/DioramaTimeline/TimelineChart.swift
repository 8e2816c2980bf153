import DioramaDocument

/// What `diorama timeline --picture` draws, in playlist seconds: a lane per scene, a row per named animation with its
/// iterations as bars and its keyframes as ticks, a row per Lottie node with its loops as bars and its markers as
/// ticks, the taps as marks labelled with their node, and the cue firings as marks labelled with their sound. Pure:
/// the renderer only lays it out.
///
/// Rows are the animations with both a node id and an animation id (the ones cues and `after` can name) and the
/// Lottie nodes with an id; the other animations are counted in `Lane.unnamedAnimations`.
public struct TimelineChart: Sendable, Equatable {
    public struct Bar: Sendable, Equatable {
        public var start: Double
        public var end: Double
        /// An odd iteration of an autoreversing animation, running back from `to` to `from`.
        public var reversed: Bool
    }

    public struct Row: Sendable, Equatable {
        /// `node.animation`, as the text timeline writes it.
        public var label: String
        public var bars: [Bar]
        public var keyframes: [Double]
    }

    public struct CueMark: Sendable, Equatable {
        public var time: Double
        public var sound: String
    }

    /// A tap of a node in this visit (a real one given on the command line, or the node's `auto`).
    public struct TapMark: Sendable, Equatable {
        public var time: Double
        public var node: String
    }

    public struct Lane: Sendable, Equatable {
        public var sceneIndex: Int
        public var id: String
        public var title: String
        /// Where the scene starts and ends in the playlist, seconds.
        public var start: Double
        public var end: Double
        public var rows: [Row]
        public var cues: [CueMark]
        public var taps: [TapMark]
        public var unnamedAnimations: Int
    }

    /// The span shown, playlist seconds.
    public var from: Double
    public var to: Double
    public var lanes: [Lane]

    /// At most this many bars per row: a fast animation repeating forever is drawn as its first iterations.
    public static let maximumBarsPerRow = 2_000

    /// The chart of `document` (its taps applied) over playlist seconds `from ..< to` (default: all of it), for the
    /// scenes with the ids in `scenes` (default: every scene). Scenes outside the span are left out.
    public init(document: Document, schedule: CueSchedule, language: String? = nil, scenes: Set<String>? = nil,
                from: Double? = nil, to: Double? = nil) {
        let language = language ?? document.languages.defaultLanguage
        let fallback = document.languages.fallback
        let selected = schedule.scenes.filter { scenes?.contains($0.id) ?? true }
        let from = from ?? selected.first.map { $0.start.doubleValue } ?? 0
        let to = to ?? selected.last.map { ($0.start + $0.duration).doubleValue } ?? 0
        self.from = from
        self.to = to
        lanes = selected.compactMap { span -> Lane? in
            let start = span.start.doubleValue, end = (span.start + span.duration).doubleValue
            guard end > from, start < to else { return nil }
            let scene = document.scenes[span.index].resolvingStarts()
            var rows: [Row] = []
            var unnamed = 0
            scene.forEachNode { node in
                if case .lottie(let lottie) = node.content, let nodeID = node.id {
                    rows.append(Self.row("\(nodeID) (lottie)", lottie, sceneStart: span.start, duration: span.duration))
                }
                for animation in node.animations {
                    guard let nodeID = node.id, let animationID = animation.id else {
                        unnamed += 1
                        continue
                    }
                    rows.append(Self.row("\(nodeID).\(animationID)", animation, sceneStart: span.start, duration: span.duration))
                }
            }
            let cues = schedule.cues.filter { $0.firing.scene == span.index }
                .map { CueMark(time: $0.absoluteTime.doubleValue, sound: $0.firing.sound) }
            let taps = scene.firstTaps.filter { $0.value < span.duration }
                .map { TapMark(time: (span.start + $0.value).doubleValue, node: $0.key) }
                .sorted { ($0.time, $0.node) < ($1.time, $1.node) }
            return Lane(sceneIndex: span.index, id: span.id,
                        title: scene.title.resolved(language: language, fallback: fallback),
                        start: start, end: end, rows: rows, cues: cues, taps: taps, unnamedAnimations: unnamed)
        }
    }

    /// One animation's iterations and keyframe passes inside its scene, in playlist seconds.
    static func row(_ label: String, _ animation: Animation, sceneStart: Rational, duration: Rational) -> Row {
        let times = AnimationEventTimes(animation)
        let starts = times.occurrences(of: .iterationStart, from: .zero, before: duration, limit: maximumBarsPerRow)
        let bars = starts.map { start, iteration in
            let end = min(start + times.iterationLength, duration)
            return Bar(start: (sceneStart + start).doubleValue, end: (sceneStart + end).doubleValue,
                       reversed: times.autoreverses && iteration % 2 == 1)
        }
        var keyframes: [Double] = []
        for index in times.keyframeTimes.indices {
            keyframes += times.occurrences(of: .keyframe(index), from: .zero, before: duration, limit: maximumBarsPerRow)
                .map { (sceneStart + $0.time).doubleValue }
        }
        return Row(label: label, bars: bars, keyframes: keyframes.sorted())
    }

    /// A Lottie node's playback inside its scene, in playlist seconds: a bar per pass through its frames (reversed
    /// ones on the way back), a tick where each of its markers' frames appears.
    static func row(_ label: String, _ lottie: LottieContent, sceneStart: Rational, duration: Rational) -> Row {
        let timing = LottieTiming(lottie)
        guard timing.rate > .zero else { return Row(label: label, bars: [], keyframes: []) }
        let length = Rational(Int128(timing.count)) / timing.rate
        var bars: [Bar] = []
        var start = timing.start
        while start < duration, bars.count < maximumBarsPerRow, timing.iterations.map({ bars.count < $0 }) ?? true {
            bars.append(Bar(start: (sceneStart + start).doubleValue, end: (sceneStart + min(start + length, duration)).doubleValue,
                            reversed: timing.autoreverses && bars.count % 2 == 1))
            start = start + length
        }
        var markers: [Double] = []
        for marker in lottie.animation.markers {
            markers += timing.appearances(of: marker.frame, from: .zero, before: duration, limit: maximumBarsPerRow)
                .map { (sceneStart + $0.time).doubleValue }
        }
        return Row(label: label, bars: bars, keyframes: markers.sorted())
    }
}

extension Scene {
    /// Calls `body` for every node of the scene, depth first, in file order.
    func forEachNode(_ body: (Node) -> Void) {
        func visit(_ nodes: [Node]) {
            for node in nodes {
                body(node)
                if case .group(let group) = node.content { visit(group.children) }
            }
        }
        visit(nodes)
    }
}
