// Taps: a node's "tap" (SwiftUI's onTapGesture), animations "after": { "tap": ID }, and cues, stops, "until"s and
// ambience starts on "tap": ID.

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

    /// A cue's (stop's, `until`'s, ambience start's) `"tap": ID`: the first tap on that node, plus the offset.
    func tapTrigger(_ fields: Fields, member: JSONMember, use: TriggerUse, scope: SceneScope, sceneDuration: Rational?,
                    offset: Rational?) -> CueTrigger? {
        if let other = fields.members.first(where: { ["at", "node", "animation", "on", "marker"].contains($0.key) }) {
            error(other.keyOffset, fields.path(other.key),
                  "\(use.what) takes one moment: a tap (\"tap\"), a time (\"at\"), a marker (\"marker\") or an animation's event (\"node\", \"animation\", \"on\")",
                  hint: "keep \"tap\" and remove \"\(other.key)\", or the other way round")
            return nil
        }
        guard let name = string(fields, "tap", what: use.what, required: true) else { return nil }
        if let offset, offset < .zero, let offsetMember = fields["offset"] {
            error(offsetMember.value.offset, fields.path("offset"),
                  "an offset before a tap (\(Self.seconds(offset)) s) cannot be kept: a tap is not known until it happens",
                  hint: "use an offset of 0 or more")
            return nil
        }
        guard let node = tappableNode(name, offset: member.value.offset, path: fields.path("tap"), scope: scope) else { return nil }
        if let auto = node.tap?.auto, let sceneDuration, auto + (offset ?? .zero) >= sceneDuration {
            warning(member.value.offset, fields.path("tap"),
                    "\(use.never) unless the node is tapped early: tapped by itself at \(Self.seconds(auto)) s, with its offset it falls at \(Self.seconds(auto + (offset ?? .zero))) s, when the scene (\(Self.seconds(sceneDuration)) s) is over",
                    hint: "move the node's \"auto\" earlier, shorten the offset, or lengthen the scene")
        }
        return .tap(name)
    }

    /// `"after": { "tap": ID }`.
    func tapAnchor(_ fields: Fields, member: JSONMember, value: JSONValue, path: String) -> AfterSource? {
        if let other = fields.members.first(where: { ["node", "animation", "on", "marker"].contains($0.key) }) {
            error(other.keyOffset, fields.path(other.key),
                  "\"after\" names one moment: a tap (\"tap\"), a marker (\"marker\") or an animation's event (\"node\", \"animation\", \"on\")",
                  hint: "keep \"tap\" and remove \"\(other.key)\", or the other way round")
            return nil
        }
        guard let name = string(fields, "tap", what: "\"after\"", required: true) else { return nil }
        return AfterSource(anchor: .tap(name), offset: value.offset, path: path, nameOffset: member.value.offset,
                           animationOffset: value.offset, eventOffset: value.offset, eventPath: path)
    }
}
