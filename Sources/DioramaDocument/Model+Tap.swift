// Taps: a node the viewer can tap (SwiftUI's onTapGesture), the moments animations start after and cues fire on.

/// What makes a node tappable (`"tap": {}` or `"tap": { "auto": 4 }`).
///
/// Taps on a node are counted in each visit of its scene: the first, the second (`"nth": 2`), and so on, so a
/// second tap can stop what the first started. Leaving the scene and coming back starts the count again. A tap
/// happens at run time, so until it does, animations `after` it hold their initial value and cues on it do not
/// fire.
public struct TapGesture: Sendable, Equatable, Hashable {
    /// Scene seconds at which the node taps itself if nobody has tapped it before (an unattended playlist still
    /// plays on); nil: only a real tap. It is the node's first tap; real taps after it count from the second.
    public var auto: Rational?

    public init(auto: Rational? = nil) {
        self.auto = auto
    }
}

/// The taps given to one visit of a scene (never decoded: the player's clicks, `--tap`): each tapped node's tap
/// times in scene seconds, ascending, no two at one time. A literal gives a node one tap: `["button": 3]`.
public struct VisitTaps: Sendable, Equatable, Hashable, ExpressibleByDictionaryLiteral {
    /// Node id -> its taps, ascending; nodes without taps are absent.
    public private(set) var times: [String: [Rational]] = [:]

    public init() {}

    public init(_ times: [String: [Rational]]) {
        for (node, list) in times { for time in list { add(time, to: node) } }
    }

    public init(dictionaryLiteral elements: (String, Rational)...) {
        for (node, time) in elements { add(time, to: node) }
    }

    public var isEmpty: Bool { times.isEmpty }

    /// The taps given to `node`, ascending.
    public subscript(node: String) -> [Rational] { times[node] ?? [] }

    /// Adds a tap on `node` at `time`; false (and nothing added) when the node has a tap at that time already.
    @discardableResult
    public mutating func add(_ time: Rational, to node: String) -> Bool {
        var list = times[node] ?? []
        let index = list.firstIndex { $0 >= time } ?? list.count
        if index < list.count, list[index] == time { return false }
        list.insert(time, at: index)
        times[node] = list
        return true
    }

    /// Forgets the taps on `node` at or after `time` (a seek back within the visit rewound past them).
    public mutating func forget(_ node: String, from time: Rational) {
        let kept = self[node].filter { $0 < time }
        times[node] = kept.isEmpty ? nil : kept
    }
}

extension TapGesture {
    /// The English ordinal of a tap's count, for messages: "first", "second", ..., "21st".
    public static func ordinal(_ count: Int) -> String {
        let words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
        if (1...words.count).contains(count) { return words[count - 1] }
        let (ones, tens) = (count % 10, count % 100)
        let suffix = (11...13).contains(tens) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th"
        return "\(count)\(suffix)"
    }
}

extension Scene {
    /// Each tappable node's taps in this visit, node id -> scene seconds, ascending: those given (`taps`), after
    /// the node's `auto` tap when nobody tapped it before then (a given tap at the `auto` time takes its place).
    /// Nodes tapped by neither are absent.
    public var tapTimes: [String: [Rational]] {
        var result: [String: [Rational]] = [:]
        func visit(_ nodes: [Node]) {
            for node in nodes {
                if let tap = node.tap, let id = node.id {
                    var times = taps[id]
                    if let auto = tap.auto, times.first.map({ auto < $0 }) ?? true { times.insert(auto, at: 0) }
                    if !times.isEmpty { result[id] = times }
                }
                if case .group(let group) = node.content { visit(group.children) }
            }
        }
        visit(nodes)
        return result
    }

    /// Each tappable node's first tap in this visit, node id -> scene seconds (see `tapTimes`).
    public var firstTaps: [String: Rational] { tapTimes.compactMapValues(\.first) }

    /// The scene time of the `nth` tap (from 1) on `node` in this visit; nil while it has not happened.
    public func tapTime(of node: String, nth: Int) -> Rational? {
        guard nth >= 1, let times = tapTimes[node], nth <= times.count else { return nil }
        return times[nth - 1]
    }

    /// Which taps of each tappable node something waits for (node id -> counts from 1): animations and Lottie
    /// nodes `after` them, cues, stop cues and `until`s on them, ambience starts. A tap past the highest count changes nothing.
    public var tapCountsWaitedFor: [String: Set<Int>] {
        var result: [String: Set<Int>] = [:]
        func note(_ trigger: CueTrigger?) {
            if case .tap(let node, let nth)? = trigger { result[node, default: []].insert(nth) }
        }
        func visit(_ nodes: [Node]) {
            for node in nodes {
                for animation in node.animations {
                    if case .tap(let tapped, let nth)? = animation.after { result[tapped, default: []].insert(nth) }
                }
                if case .lottie(let lottie) = node.content {
                    for anchor in [lottie.playback.after, lottie.playback.until] {
                        if case .tap(let tapped, let nth)? = anchor { result[tapped, default: []].insert(nth) }
                    }
                }
                if case .group(let group) = node.content { visit(group.children) }
            }
        }
        visit(nodes)
        for cue in cues {
            note(cue.trigger)
            note(cue.until?.trigger)
        }
        for ambience in ambience { note(ambience.start?.trigger) }
        return result
    }

    /// The ids of the scene's tappable nodes, depth-first in file order.
    public var tappableNodeIDs: [String] {
        var result: [String] = []
        func visit(_ nodes: [Node]) {
            for node in nodes {
                if node.tap != nil, let id = node.id { result.append(id) }
                if case .group(let group) = node.content { visit(group.children) }
            }
        }
        visit(nodes)
        return result
    }

    /// Whether the node with this id can be tapped.
    public func isTappable(_ id: String) -> Bool { node(withID: id)?.tap != nil }
}
