// Taps: a node the viewer can tap (SwiftUI's onTapGesture), the moment animations start after and cues fire on.

/// What makes a node tappable (`"tap": {}` or `"tap": { "auto": 4 }`).
///
/// Only the first tap on a node in a visit of its scene counts; leaving the scene and coming back makes it
/// tappable again. A tap happens at run time, so until it does, animations `after` it hold their initial value
/// and cues on it do not fire.
public struct TapGesture: Sendable, Equatable, Hashable {
    /// Scene seconds at which the node is tapped by itself if nobody has tapped it before (an unattended playlist
    /// still plays on); nil: only a real tap.
    public var auto: Rational?

    public init(auto: Rational? = nil) {
        self.auto = auto
    }
}

extension Scene {
    /// Each tappable node's first tap in this visit, node id -> scene seconds: the earliest of `taps[id]` and the
    /// node's `auto`. Nodes tapped by neither are absent (they are not tapped in this visit).
    public var firstTaps: [String: Rational] {
        var result: [String: Rational] = [:]
        func visit(_ nodes: [Node]) {
            for node in nodes {
                if let tap = node.tap, let id = node.id {
                    let times = [taps[id], tap.auto].compactMap { $0 }
                    if let first = times.min() { result[id] = first }
                }
                if case .group(let group) = node.content { visit(group.children) }
            }
        }
        visit(nodes)
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
