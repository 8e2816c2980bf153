// Taps: a node's "tap" (SwiftUI's onTapGesture), animations "after": { "tap": ID }, and cues, stops, "until"s and
// ambience starts on "tap": ID; "nth": N beside "tap" counts which tap of the visit (a second stops what a first
// started).

extension DocumentDecoder {
    /// `"tap": {}` or `"tap": { "auto": 4 }` on a node; the node needs an id (taps are named by it).
    func decodeTap(_ fields: Fields, id: String?, what: String) -> TapGesture?? {
        guard let member = fields["tap"] else { return .some(nil) }
        let path = fields.path("tap")
        if case .bool(true) = member.value.kind {
            error(member.value.offset, path, "\"tap\" is an object, not true",
                  hint: "\"tap\": {} makes the node tappable; \"tap\": { \"auto\": 4 } also taps it by itself at 4 s if nobody has")
            return nil
        }
        guard let tapFields = object(member.value, path: path, what: "a tap", keys: DocumentKeys.tap) else { return nil }
        var auto: Rational?
        if let autoMember = tapFields["auto"] {
            guard let time = time(autoMember.value, path: tapFields.path("auto"), minimum: .zero) else { return nil }
            auto = time
        }
        if id == nil, fields["id"] == nil {
            error(member.keyOffset, path, "\(what) with \"tap\" needs an \"id\"",
                  hint: "animations start \"after\": { \"tap\": ID } and cues fire on \"tap\": ID, so give the node an \"id\"")
            return nil
        }
        return .some(TapGesture(auto: auto))
    }

    /// The tappable node a tap reference names, after checking it exists and has `"tap"`; nil after reporting
    /// (or when the node has errors of its own, reported where it is).
    func tappableNode(_ name: String, offset: Int, path: String, scope: SceneScope) -> Node? {
        if scope.nodes[name] == nil, scope.nodeOffsets[name] != nil { return nil }
        if scope.nodes[name] == nil, scope.isInsideBrokenInstance(name) { return nil }
        let tappable = scope.nodeOrder.filter { scope.nodes[$0]?.tap != nil }
        guard let node = scope.nodes[name] else {
            error(offset, path, "no node with id \"\(name)\" in this scene",
                  hint: Self.suggestion(for: name, among: scope.nodeOrder)
                      ?? (tappable.isEmpty ? "give the node to tap an \"id\" and \"tap\": {}"
                                           : "the tappable nodes are \(Self.list(tappable.prefix(12).map { "\"\($0)\"" }, conjunction: "and"))"))
            return nil
        }
        guard node.tap != nil else {
            error(offset, path, "the node \"\(name)\" cannot be tapped: it has no \"tap\"",
                  hint: Self.closest(to: name, among: tappable).map { "did you mean the tappable node \"\($0)\"?" }
                      ?? "give it \"tap\": {} (or \"tap\": { \"auto\": 4 } to tap it by itself at 4 s when nobody has)")
            return nil
        }
        return node
    }

    /// The most taps of one node that a scene can tell apart (`"nth"`).
    static let maximumTapCount = 1000

    /// `"nth"` beside a `"tap"`: which tap of the visit counts, 1 (the default) for the first. nil after reporting.
    func tapCount(_ fields: Fields) -> Int? {
        guard let member = fields["nth"] else { return 1 }
        let path = fields.path("nth")
        switch member.value.kind {
        case .string(let text):
            error(member.value.offset, path, "\"nth\" counts taps with a number, not \"\(Self.shortened(text))\"",
                  hint: "1 is the node's first tap in the visit, 2 its second: start on \"nth\": 1 and stop on \"nth\": 2 to toggle")
            return nil
        case .number(let literal):
            if let count = Self.integerValue(literal), count < 1 {
                error(member.value.offset, path, "\"nth\" counts taps from 1, not \(Self.shortened(literal))",
                      hint: "1 is the node's first tap in the visit (the default), 2 its second")
                return nil
            }
        default:
            break
        }
        return integer(member.value, path: path, range: 1...Self.maximumTapCount)
    }

    /// True unless `fields` give an `"nth"` without a `"tap"` to count (reported).
    func nthGoesWithTap(_ fields: Fields, what: String) -> Bool {
        guard let member = fields["nth"], !fields.has("tap") else { return true }
        error(member.keyOffset, fields.path("nth"), "\"nth\" counts the taps of a node, but \(what) names no \"tap\"",
              hint: "add \"tap\": ID beside it (\"tap\": \"button\", \"nth\": 2 is the button's second tap), or remove \"nth\"")
        return false
    }

    /// A cue's (stop's, `until`'s, ambience start's) `"tap": ID` and `"nth"`: that tap on the node, plus the offset.
    func tapTrigger(_ fields: Fields, member: JSONMember, use: TriggerUse, scope: SceneScope, sceneDuration: Rational?,
                    offset: Rational?) -> CueTrigger? {
        if let other = fields.members.first(where: { ["at", "node", "animation", "on", "marker"].contains($0.key) }) {
            error(other.keyOffset, fields.path(other.key),
                  "\(use.what) takes one moment: a tap (\"tap\"), a time (\"at\"), a marker (\"marker\") or an animation's event (\"node\", \"animation\", \"on\")",
                  hint: "keep \"tap\" and remove \"\(other.key)\", or the other way round")
            return nil
        }
        let nth = tapCount(fields)
        guard let name = string(fields, "tap", what: use.what, required: true), let nth else { return nil }
        if let offset, offset < .zero, let offsetMember = fields["offset"] {
            error(offsetMember.value.offset, fields.path("offset"),
                  "an offset before a tap (\(Self.seconds(offset)) s) cannot be kept: a tap is not known until it happens",
                  hint: "use an offset of 0 or more")
            return nil
        }
        guard let node = tappableNode(name, offset: member.value.offset, path: fields.path("tap"), scope: scope) else { return nil }
        if nth == 1, let auto = node.tap?.auto, let sceneDuration, auto + (offset ?? .zero) >= sceneDuration {
            warning(member.value.offset, fields.path("tap"),
                    "\(use.never) unless the node is tapped early: tapped by itself at \(Self.seconds(auto)) s, with its offset it falls at \(Self.seconds(auto + (offset ?? .zero))) s, when the scene (\(Self.seconds(sceneDuration)) s) is over",
                    hint: "move the node's \"auto\" earlier, shorten the offset, or lengthen the scene")
        }
        return .tap(name, nth: nth)
    }

    /// `"after": { "tap": ID }`, with `"nth"`.
    func tapAnchor(_ fields: Fields, member: JSONMember, value: JSONValue, path: String) -> AfterSource? {
        if let other = fields.members.first(where: { ["node", "animation", "on", "marker"].contains($0.key) }) {
            error(other.keyOffset, fields.path(other.key),
                  "\"after\" names one moment: a tap (\"tap\"), a marker (\"marker\") or an animation's event (\"node\", \"animation\", \"on\")",
                  hint: "keep \"tap\" and remove \"\(other.key)\", or the other way round")
            return nil
        }
        let nth = tapCount(fields)
        guard let name = string(fields, "tap", what: "\"after\"", required: true), let nth else { return nil }
        return AfterSource(anchor: .tap(name, nth: nth), offset: value.offset, path: path, nameOffset: member.value.offset,
                           animationOffset: value.offset, eventOffset: value.offset, eventPath: path)
    }
}
