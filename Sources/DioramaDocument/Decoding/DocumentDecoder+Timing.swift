// Relative timing: a scene's markers, an animation's "after", cues on markers, and the checks of a scene's
// starts (names, events that never happen, loops), resolved with the same `StartResolver` the timeline uses.

/// An animation (or a Lottie node's playback) as decoded, with its node's id and where its `after` is written.
struct TimedAnimation {
    var node: String?
    var timed: StartResolver.Timed
    var after: AfterSource?

    init(node: String?, animation: Animation, after: AfterSource?) {
        (self.node, timed, self.after) = (node, .animation(animation), after)
    }

    init(node: String?, lottie: LottieContent, after: AfterSource?) {
        (self.node, timed, self.after) = (node, .lottie(lottie), after)
    }

    /// A Lottie node's `until`, checked and resolved as an `after` is.
    init(stopOf node: String?, until: AfterSource) {
        (self.node, timed, self.after) = (node, .stop, until)
    }

    /// The animation's id; nil for a Lottie node's playback.
    var animationID: String? {
        if case .animation(let animation) = timed { return animation.id }
        return nil
    }

    /// `doors.open` or `drum (lottie)`, in messages.
    var name: String {
        if case .lottie = timed { return "\(node ?? "?") (lottie)" }
        if case .stop = timed { return "\(node ?? "?") (lottie) until" }
        return "\(node ?? "?").\(animationID ?? "?")"
    }
}

/// An `after` as written: what it names, and where each part is, for located messages.
struct AfterSource {
    var anchor: StartAnchor
    var offset: Int
    var path: String
    /// The offset and path of the value that names the anchor (`"marker"` or `"node"`).
    var nameOffset: Int
    var animationOffset: Int
    /// The `"on"` value's, or the object's when `"on"` is left out (it defaults to `"end"`); a Lottie event's
    /// `"marker"` or `"frame"` value.
    var eventOffset: Int
    var eventPath: String
    /// Where `"nth"` is written, beside a Lottie event.
    var nthOffset: Int? = nil
}

extension SceneScope {
    static func key(_ node: String, _ animation: String) -> String { node + "\u{0}" + animation }

    /// An animation's resolved start; its delay when it has none (its problems are reported elsewhere).
    func start(_ node: String, _ animationID: String, _ animation: Animation) -> Rational {
        starts[Self.key(node, animationID)] ?? animation.delay
    }

    /// When the animation's last iteration finishes; nil when it repeats forever.
    func endTime(_ node: String, _ animationID: String, _ animation: Animation) -> Rational? {
        StartResolver.firstTime(of: .end, in: animation, startingAt: start(node, animationID, animation))
    }
}

extension DocumentDecoder {
    // MARK: - Markers

    func decodeMarkers(_ value: JSONValue, path: String, sceneDuration: Rational?, scope: inout SceneScope) {
        guard case .object(let members) = value.kind else {
            typeMismatch(value, path: path, expected: "an object of named times", hint: "\"markers\": { \"doorsOpen\": 3.5 }")
            return
        }
        for member in members {
            let memberPath = JSONPath.appending(key: member.key, to: path)
            if member.key.isEmpty {
                error(member.keyOffset, memberPath, "a marker needs a name")
                continue
            }
            scope.markerNames.insert(member.key)
            guard let time = time(member.value, path: memberPath, minimum: .zero) else { continue }
            if let sceneDuration, time >= sceneDuration {
                warning(member.value.offset, memberPath,
                        "the marker \"\(member.key)\" is at \(Self.seconds(time)) s, when the scene (\(Self.seconds(sceneDuration)) s) is over",
                        hint: "cues on it never fire and animations after it never start; move it, or lengthen the scene")
            }
            scope.markers.append(SceneMarker(name: member.key, time: time))
        }
    }

    /// Reports a marker name that the scene does not define; false when it is fine (or reported where it is written).
    private func checkMarker(_ name: String, offset: Int, path: String, scope: SceneScope) -> Bool {
        if scope.markers.contains(where: { $0.name == name }) { return true }
        if scope.markerNames.contains(name) { return false }
        let names = scope.markers.map(\.name)
        error(offset, path, "no marker named \"\(name)\" in this scene",
              hint: Self.suggestion(for: name, among: names)
                  ?? (names.isEmpty ? "add it to the scene's \"markers\", e.g. \"markers\": { \"\(name)\": 2 }"
                                    : "the markers are \(Self.list(names.prefix(12).map { "\"\($0)\"" }, conjunction: "and"))"))
        return false
    }

    // MARK: - Cues on markers

    func markerTrigger(_ fields: Fields, member: JSONMember, use: TriggerUse, scope: SceneScope, sceneDuration: Rational?, offset: Rational?) -> CueTrigger? {
        if let other = fields.members.first(where: { ["at", "node", "animation", "on"].contains($0.key) }) {
            error(other.keyOffset, fields.path(other.key),
                  "\(use.what) takes one moment: a time (\"at\"), a marker (\"marker\") or an animation's event (\"node\", \"animation\", \"on\")",
                  hint: "keep \"marker\" and remove \"\(other.key)\", or the other way round")
            return nil
        }
        guard let name = string(fields, "marker", what: use.what, required: true),
              checkMarker(name, offset: member.value.offset, path: fields.path("marker"), scope: scope),
              let marker = scope.markers.first(where: { $0.name == name }) else { return nil }
        if let sceneDuration, let offset {
            let time = marker.time + offset
            if time >= sceneDuration || time < .zero {
                warning(member.value.offset, fields.path("marker"),
                        "\(use.never): with its offset it falls at \(Self.seconds(time)) s, outside the scene (0 to \(Self.seconds(sceneDuration)) s)",
                        hint: use.window)
            }
        }
        return .marker(name)
    }

    // MARK: - after

    /// `{ "marker": NAME }`, or `{ "node": ID, "animation": ID, "on": EVENT }` with `"on"` defaulting to `"end"`.
    func startAnchor(_ value: JSONValue, path: String, key: String = "after") -> AfterSource? {
        let what = "\"\(key)\""
        if case .string(let text) = value.kind {
            error(value.offset, path, "\(what) must be an object, not a string",
                  hint: "{ \"marker\": \"\(Self.shortened(text))\" } for a marker, or { \"node\": ..., \"animation\": ..., \"on\": \"end\" } for an animation")
            return nil
        }
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.after) else { return nil }
        let animationKeys = ["node", "animation", "on"]
        for key in ["node", "animation", "marker", "tap"] {
            if let member = fields[key], !checkNameFromParameter(member.value, path: fields.path(key)) { return nil }
        }
        if !fields.has("tap"), !fields.has("marker"), let on = fields["on"], Self.namesLottieEvent(on.value) {
            return lottieAnchor(fields, on: on, value: value, path: path)
        }
        if !nthGoesWithTap(fields, what: what) { return nil }
        if let tap = fields["tap"] { return tapAnchor(fields, member: tap, value: value, path: path) }
        if let marker = fields["marker"] {
            if let other = fields.members.first(where: { animationKeys.contains($0.key) }) {
                // `"node"` beside `"marker"` without `"animation"` may be a Lottie node's marker written flat.
                let lottieHint: String?
                if case .string(let node)? = fields["node"]?.value.kind, !fields.has("animation"),
                   case .string(let name) = marker.value.kind {
                    lottieHint = "remove \"marker\" or the animation's keys; for a marker of a Lottie node, write "
                        + "{ \"node\": \"\(Self.shortened(node))\", \"on\": { \"marker\": \"\(Self.shortened(name))\" } }"
                } else {
                    lottieHint = nil
                }
                error(other.keyOffset, fields.path(other.key),
                      "\"after\" names one moment: a marker (\"marker\") or an animation's event (\"node\", \"animation\", \"on\"), not both",
                      hint: lottieHint ?? "remove \"marker\" or the animation's keys")
                return nil
            }
            guard let name = string(fields, "marker", what: what, required: true) else { return nil }
            return AfterSource(anchor: .marker(name), offset: value.offset, path: path, nameOffset: marker.value.offset,
                               animationOffset: value.offset, eventOffset: value.offset, eventPath: path)
        }
        guard animationKeys.contains(where: fields.has) else {
            if fields.unknownKeys.isEmpty {
                error(value.offset, path, "\"after\" names no moment",
                      hint: "{ \"node\": \"doors\", \"animation\": \"open\", \"on\": \"end\" } or { \"marker\": \"doorsOpen\" }")
            }
            return nil
        }
        let node = string(fields, "node", what: what, required: true)
        let animation = string(fields, "animation", what: what, required: true)
        var event = AnimationEvent.end
        if let member = fields["on"] {
            guard let parsed = animationEvent(member.value, path: fields.path("on")) else { return nil }
            event = parsed
        }
        guard let node, let animation, let nodeMember = fields["node"], let animationMember = fields["animation"] else { return nil }
        return AfterSource(anchor: .animation(node: node, animation: animation, event: event), offset: value.offset, path: path,
                           nameOffset: nodeMember.value.offset, animationOffset: animationMember.value.offset,
                           eventOffset: fields["on"]?.value.offset ?? value.offset,
                           eventPath: fields.has("on") ? fields.path("on") : path)
    }

    /// `{ "node": LOTTIE, "on": { "marker": NAME } }` or `"on": { "frame": N }`, with `"nth"` for a later pass.
    private func lottieAnchor(_ fields: Fields, on: JSONMember, value: JSONValue, path: String) -> AfterSource? {
        if let member = fields["animation"] {
            error(member.keyOffset, fields.path("animation"),
                  "\"after\" names a Lottie node's marker or frame with \"node\" and \"on\" alone; an animation has no markers or frames",
                  hint: "remove \"animation\" to start after the Lottie node's moment, or give \"on\" an animation's event such as \"end\"")
            return nil
        }
        let node = string(fields, "node", what: "\"after\" on a Lottie node", required: true)
        let event = lottieEvent(on, in: fields)
        let nth = lottiePass(fields)
        guard let node, let nodeMember = fields["node"], let event, let nth else { return nil }
        return AfterSource(anchor: .lottie(node: node, event: event.event, nth: nth), offset: value.offset, path: path,
                           nameOffset: nodeMember.value.offset, animationOffset: value.offset, eventOffset: event.offset,
                           eventPath: event.path, nthOffset: fields["nth"]?.value.offset)
    }

    /// The most passes of a looping Lottie that an `after` can tell apart (`"nth"`).
    static let maximumLottiePass = 1000

    /// `"nth"` beside a Lottie event: which appearance of its frame counts, 1 (the default) for the first.
    private func lottiePass(_ fields: Fields) -> Int? {
        guard let member = fields["nth"] else { return 1 }
        if case .string(let text) = member.value.kind {
            error(member.value.offset, fields.path("nth"), "\"nth\" counts the appearances of a Lottie's frame with a number, not \"\(Self.shortened(text))\"",
                  hint: "1 is the first time the frame appears (the default), 2 the second (a looping Lottie's next pass)")
            return nil
        }
        if case .number(let literal) = member.value.kind, let count = Self.integerValue(literal), count < 1 {
            error(member.value.offset, fields.path("nth"), "\"nth\" counts the appearances of a Lottie's frame from 1, not \(Self.shortened(literal))",
                  hint: "1 is the first time the frame appears (the default), 2 the second")
            return nil
        }
        return integer(member.value, path: fields.path("nth"), range: 1...Self.maximumLottiePass)
    }

    // MARK: - The scene's starts

    /// Checks every `after` of the scene just decoded (`sceneAnimations`) and resolves the starts in dependency
    /// order: unknown names, events that never happen, loops, starts that are too late or too fine; warns about
    /// animations that start when the scene is over. Fills `scope.starts` for the cues' checks.
    func checkStarts(scope: inout SceneScope, sceneDuration: Rational?) {
        let entries = sceneAnimations
        var items = entries.map { StartResolver.Item(timed: $0.timed, dependency: .sceneStart) }
        var byName: [String: Int] = [:]
        var lottieByNode: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            if case .lottie = entry.timed, let node = entry.node, lottieByNode[node] == nil { lottieByNode[node] = index }
            if let node = entry.node, let id = entry.animationID, byName[SceneScope.key(node, id)] == nil {
                byName[SceneScope.key(node, id)] = index
            }
        }
        func markBroken(_ index: Int) {
            if let node = entries[index].node, let id = entries[index].animationID { scope.brokenAnimations[node, default: []].insert(id) }
        }
        for (index, entry) in entries.enumerated() {
            guard let source = entry.after else { continue }
            items[index].dependency = .unresolved
            switch source.anchor {
            case .marker(let name):
                if checkMarker(name, offset: source.nameOffset, path: JSONPath.appending(key: "marker", to: source.path), scope: scope),
                   let marker = scope.markers.first(where: { $0.name == name }) {
                    items[index].dependency = .marker(marker.time)
                } else {
                    markBroken(index)
                }
            case .animation(let nodeID, let animationID, let event):
                if let target = dependency(source, node: nodeID, animation: animationID, event: event, byName: byName,
                                           entries: entries, scope: scope) {
                    items[index].dependency = .animation(target, event)
                } else {
                    markBroken(index)
                }
            case .tap(let name, let nth):
                // Checked with the node's own tap, when it taps itself (its first); without one the animation waits.
                if let node = tappableNode(name, offset: source.nameOffset, path: JSONPath.appending(key: "tap", to: source.path), scope: scope) {
                    items[index].dependency = .tap(nth == 1 ? node.tap?.auto : nil)
                } else {
                    markBroken(index)
                }
            case .lottie(let nodeID, let event, let nth):
                if let (target, frame) = lottieDependency(of: entry, source, node: nodeID, event: event, nth: nth,
                                                          lottieByNode: lottieByNode, scope: scope) {
                    items[index].dependency = .lottie(target, frame: frame, nth: nth)
                } else {
                    markBroken(index)
                }
            }
        }
        func record(_ entry: TimedAnimation, start: Rational) {
            guard let node = entry.node else { return }
            if case .lottie = entry.timed { scope.lottieStarts[node] = start }
            if let id = entry.animationID { scope.starts[SceneScope.key(node, id)] = start }
        }
        guard entries.contains(where: { $0.after != nil }) else {
            for (index, entry) in entries.enumerated() { record(entry, start: items[index].delay) }
            return
        }

        let resolved = StartResolver.resolvingStops(items)
        for (index, failure) in resolved.failures {
            guard let source = entries[index].after else { continue }
            markBroken(index)
            switch failure {
            case .loop(let members):
                let names = members.map { entries[$0].name }
                error(source.offset, source.path, "\"after\" closes a loop: \(names.joined(separator: " -> "))",
                      hint: "each of these starts after the one before it, so none can start first; start one at a marker or a time instead")
            case .notExact:
                error(source.offset, source.path, "this animation's start cannot be kept exact: the speeds of what it follows divide the second too finely",
                      hint: "use speeds with fewer digits (2, 1.5, 0.8), or start it after a marker")
            case .tooLate(let time):
                error(source.offset, source.path,
                      "this animation would start at \(Self.seconds(time)) s, later than a scene may last (\(Self.seconds(DocumentLimits.maximumSceneDuration)) s)",
                      hint: "start it after an earlier moment, or shorten its delay")
            }
        }
        for (index, entry) in entries.enumerated() {
            guard let start = resolved.starts[index] else { continue }
            if case .stop = entry.timed { continue }
            record(entry, start: start)
            if let source = entry.after, let sceneDuration, start >= sceneDuration {
                let what: String
                if case .lottie = entry.timed { what = "this Lottie starts playing" } else { what = "this animation starts" }
                warning(source.offset, source.path,
                        "\(what) at \(Self.seconds(start)) s, when the scene (\(Self.seconds(sceneDuration)) s) is over",
                        hint: "start it after an earlier moment, shorten its delay, or lengthen the scene")
            }
        }
    }

    /// The index of the animation an `after` names, after checking the names and that the event happens.
    private func dependency(_ source: AfterSource, node nodeID: String, animation animationID: String, event: AnimationEvent,
                            byName: [String: Int], entries: [TimedAnimation], scope: SceneScope) -> Int? {
        let nodePath = JSONPath.appending(key: "node", to: source.path)
        // A node or animation that exists but has errors was reported where it is; the `after` adds nothing.
        if scope.nodes[nodeID] == nil, scope.nodeOffsets[nodeID] != nil { return nil }
        if scope.brokenAnimations[nodeID]?.contains(animationID) == true { return nil }
        guard let node = scope.nodes[nodeID] else {
            error(source.nameOffset, nodePath, "no node with id \"\(nodeID)\" in this scene",
                  hint: Self.suggestion(for: nodeID, among: scope.nodeOrder)
                      ?? (scope.nodeOrder.isEmpty ? "give the node an \"id\"" : "the node ids are \(Self.list(scope.nodeOrder.prefix(12).map { "\"\($0)\"" }, conjunction: "and"))"))
            return nil
        }
        guard let target = byName[SceneScope.key(nodeID, animationID)] else {
            let ids = node.animations.compactMap(\.id)
            error(source.animationOffset, JSONPath.appending(key: "animation", to: source.path),
                  "the node \"\(nodeID)\" has no animation with id \"\(animationID)\"",
                  hint: Self.suggestion(for: animationID, among: ids)
                      ?? (ids.isEmpty ? "give one of its animations an \"id\"" : "its animation ids are \(Self.list(ids.map { "\"\($0)\"" }, conjunction: "and"))"))
            return nil
        }
        guard case .animation(let animation) = entries[target].timed else { return nil }
        guard !StartResolver.happens(event, in: animation) else { return target }
        let problem: (String, String)
        switch event {
        case .keyframe(let index):
            if case .keyframes(let keyframes) = animation.kind {
                problem = ("keyframe \(index) is out of range: \"\(animationID)\" has \(keyframes.count) keyframes (0 to \(keyframes.count - 1))",
                           "keyframes count from 0")
            } else {
                problem = ("\"\(animationID)\" is a from/to animation, which has no keyframes",
                           "use \"to\", \"from\", \"iteration\" or \"end\", or make it a keyframe track")
            }
        case .reachesFrom where !animation.autoreverses:
            problem = ("this animation never starts: \"\(animationID)\" does not autoreverse, so it never arrives back at its start",
                       "start after \"to\" or \"end\", or set \"autoreverses\": true")
        case .reachesFrom:
            problem = ("this animation never starts: \"\(animationID)\" plays one iteration, so it never arrives back at its start",
                       "give it \"repeat\": 2 or more, or start after \"to\" or \"end\"")
        default:
            problem = ("this animation never starts: \"\(animationID)\" repeats forever, so it never ends",
                       "start after its first \"to\" or \"iteration\", or give it a \"repeat\" count")
        }
        error(source.eventOffset, source.eventPath, problem.0, hint: problem.1)
        return nil
    }
}
