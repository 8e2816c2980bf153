// The `lottie` node (a Lottie JSON file played on the scene clock), its `after`, and the cues and starts bound to
// its markers and frames.

extension DocumentDecoder {
    // MARK: - The node

    /// A lottie node's content; its playback (with its `after`, checked with the scene's starts) joins
    /// `sceneAnimations` under `nodeID`.
    func decodeLottie(_ fields: Fields, what: String, nodeID: String?) -> NodeContent? {
        let file = string(fields, "path", what: what, required: true)
        let chosen = fields["animation"].flatMap { string($0.value, path: fields.path("animation")) }
        let x = number(fields, "x", default: 0, range: .any, what: what, unit: "points")
        let y = number(fields, "y", default: 0, range: .any, what: what, unit: "points")
        // Without a size, the composition's own size in points (known once the file is read).
        let width = number(fields, "width", default: 0, range: .nonNegative, what: what, unit: "points")
        let height = number(fields, "height", default: 0, range: .nonNegative, what: what, unit: "points")
        let delay = optional(fields, "delay", default: Rational.zero) { self.time($0, path: $1, minimum: .zero) }
        let speed = optional(fields, "speed", default: Rational.one) {
            self.time($0, path: $1, minimum: Rational(1, 1000), maximum: Rational(1000), unit: nil)
        }
        let repeatCount = optional(fields, "repeat", default: RepeatCount.count(1)) { self.repeatCount($0, path: $1) }
        let autoreverses = bool(fields, "autoreverses", default: false)
        var afterSource: AfterSource?
        if let member = fields["after"] {
            afterSource = startAnchor(member.value, path: fields.path("after"))
            if afterSource == nil { return nil }
        }
        var untilSource: AfterSource?
        if let member = fields["until"] {
            untilSource = startAnchor(member.value, path: fields.path("until"), key: "until")
            if untilSource == nil { return nil }
        }

        guard let file, let member = fields["path"] else { return nil }
        let info: LottieAnimationInfo
        switch LottieFileReader.read(path: DocumentLoader.resolve(file, against: baseDirectory), shownPath: file,
                                     allowedRoot: baseDirectory, archives: archives, animation: chosen) {
        case .failure(let problem):
            // A problem with the animation chosen is located at "animation".
            let at = problem.message.contains("has no animation") || problem.message.contains("chooses one inside")
                ? fields["animation"].map { ($0.value.offset, fields.path("animation")) } : nil
            error(at?.0 ?? member.value.offset, at?.1 ?? fields.path("path"), problem.message, hint: problem.hint)
            return nil
        case .success(let read):
            info = read
        }
        var frames = info.inPoint..<info.outPoint
        if let segment = fields["segment"] {
            guard let chosen = lottieSegment(segment.value, path: fields.path("segment"), info: info, file: file) else { return nil }
            frames = chosen
        }
        guard let x, let y, let width, let height, let delay, let speed, let repeatCount else { return nil }
        let rect = Rect(x: x, y: y, width: fields.has("width") ? width : Double(info.width),
                        height: fields.has("height") ? height : Double(info.height))
        var content = LottieContent(path: file, rect: rect, animation: info,
                                    playback: LottiePlayback(delay: delay, speed: speed, frames: frames, repeatCount: repeatCount,
                                                             autoreverses: autoreverses, after: afterSource?.anchor,
                                                             until: untilSource?.anchor))
        content.chosenAnimation = chosen
        sceneAnimations.append(TimedAnimation(node: nodeID, lottie: content, after: afterSource))
        // Right after its playback: the resolver finds the Lottie a stop belongs to just before it.
        if let untilSource { sceneAnimations.append(TimedAnimation(stopOf: nodeID, until: untilSource)) }
        return .lottie(content)
    }

    /// `"segment": "marker"` (the marker's frames, `tm ..< tm + dr`) or `"segment": [from, to]` (frames `from ..< to`).
    private func lottieSegment(_ value: JSONValue, path: String, info: LottieAnimationInfo, file: String) -> Range<Int>? {
        let whole = "\(info.inPoint)..<\(info.outPoint)"
        switch value.kind {
        case .string(let name):
            guard let marker = lottieMarker(name, offset: value.offset, path: path, info: info, file: file) else { return nil }
            guard marker.duration > 0 else {
                error(value.offset, path, "the marker \"\(name)\" is a single frame (its \"dr\" is 0), so it cannot be a segment",
                      hint: "give the marker a duration in the Lottie file, or write the frames: \"segment\": [\(marker.frame), \(marker.frame + 1)]")
                return nil
            }
            let frames = marker.frame..<(marker.frame + marker.duration)
            guard frames.lowerBound >= info.inPoint, frames.upperBound <= info.outPoint else {
                error(value.offset, path, "the marker \"\(name)\" spans frames \(frames.lowerBound)..<\(frames.upperBound), outside the file's frames \(whole)")
                return nil
            }
            return frames
        case .array(let elements):
            guard elements.count == 2 else {
                error(value.offset, path, "a segment is [first frame, end frame], two whole numbers, not \(elements.count)",
                      hint: "\"segment\": [0, 30] plays frames 0 to 29")
                return nil
            }
            let range = (info.inPoint - 0)...(info.outPoint)
            guard let from = integer(elements[0], path: path + "[0]", range: range),
                  let to = integer(elements[1], path: path + "[1]", range: range) else { return nil }
            guard from < to else {
                error(value.offset, path, "the segment [\(from), \(to)] has no frames: its end must be after its first frame",
                      hint: "the end frame is not played: [\(from), \(from + 1)] plays frame \(from) alone")
                return nil
            }
            return from..<to
        default:
            typeMismatch(value, path: path, expected: "a marker name or [first frame, end frame]",
                         hint: "\"segment\": \"loop\" plays the marker \"loop\"; \"segment\": [0, 30] plays frames 0 to 29")
            return nil
        }
    }

    /// The marker of the Lottie file named `name`, or a located error naming the markers it has.
    func lottieMarker(_ name: String, offset: Int, path: String, info: LottieAnimationInfo, file: String) -> LottieMarker? {
        if let marker = info.marker(named: name) { return marker }
        let names = info.markers.map(\.name)
        error(offset, path, "the Lottie file \"\(file)\" has no marker named \"\(name)\"",
              hint: Suggestion.hint(for: name, among: names, listing: "its markers are")
                  ?? "it has no markers; add one in the animation (\"markers\": [{ \"cm\": \"\(name)\", \"tm\": FRAME }])")
        return nil
    }

    // MARK: - Cues on a Lottie node

    /// True when the fields bind to a Lottie node: no `"animation"`, and `"node"` names one or `"on"` names a
    /// marker or a frame.
    func bindsLottieNode(_ fields: Fields, scope: SceneScope) -> Bool {
        guard !fields.has("animation"), case .string(let id)? = fields["node"]?.value.kind else { return false }
        if let node = scope.nodes[id], case .lottie = node.content { return true }
        return fields["on"].map { Self.namesLottieEvent($0.value) } ?? false
    }

    /// `"node": ID, "on": { "marker": NAME }` or `"on": { "frame": N }`: each time the marker's frame or the frame appears.
    func lottieTrigger(_ fields: Fields, use: TriggerUse, scope: SceneScope, sceneDuration: Rational?, offset: Rational?) -> CueTrigger? {
        guard case .string(let nodeID)? = fields["node"]?.value.kind, let nodeMember = fields["node"] else { return nil }
        // A node that exists but has errors (a missing file) was reported where it is; the cue adds nothing.
        if scope.nodes[nodeID] == nil, scope.nodeOffsets[nodeID] != nil || scope.isInsideBrokenInstance(nodeID) { return nil }
        guard let node = scope.nodes[nodeID] else {
            error(nodeMember.value.offset, fields.path("node"), "no node with id \"\(nodeID)\" in this scene",
                  hint: Self.suggestion(for: nodeID, among: scope.nodeOrder) ?? "cues on a marker or a frame name a lottie node")
            return nil
        }
        guard case .lottie(let lottie) = node.content else {
            error(nodeMember.value.offset, fields.path("node"), "\"\(nodeID)\" is not a lottie node, so it has no markers or frames",
                  hint: "bind the cue to one of its animations with \"animation\" and \"on\", or name a lottie node")
            return nil
        }
        guard let onMember = fields["on"] else {
            missing("on", in: fields, what: "\(use.what) bound to a Lottie node",
                    hint: "when to fire: { \"marker\": \"impact\" } or { \"frame\": 42 }")
            return nil
        }
        guard case .object = onMember.value.kind else {
            typeMismatch(onMember.value, path: fields.path("on"), expected: "{ \"marker\": NAME } or { \"frame\": N }",
                         hint: "\"\(nodeID)\" is a Lottie node: its cues fire on a marker or a frame of the animation")
            return nil
        }
        guard let parsed = lottieEvent(onMember, in: fields),
              let frame = lottieFrame(of: parsed.event, offset: parsed.offset, path: parsed.path, lottie: lottie) else { return nil }
        let (event, eventOffset, eventPath) = (parsed.event, parsed.offset, parsed.path)
        let start = scope.lottieStarts[nodeID] ?? lottie.playback.delay
        let frames = lottie.playback.frames
        if !frames.contains(frame) {
            warning(eventOffset, eventPath,
                    "\(use.never): frame \(frame) is outside the frames \"\(nodeID)\" plays (\(frames.lowerBound) to \(frames.upperBound - 1))",
                    hint: "widen the node's \"segment\", or bind the cue to a frame it plays")
        } else if let sceneDuration, start + (offset ?? .zero) >= sceneDuration {
            warning(eventOffset, eventPath,
                    "\(use.never): \"\(nodeID)\" starts playing at \(Self.seconds(start)) s, when the scene (\(Self.seconds(sceneDuration)) s) is over",
                    hint: "shorten the node's delay or lengthen the scene")
        }
        return .lottie(node: nodeID, event: event)
    }

    // MARK: - Lottie events

    /// True when `value` is an object naming a Lottie node's moment (`{ "marker": ... }` or `{ "frame": ... }`).
    static func namesLottieEvent(_ value: JSONValue) -> Bool {
        guard case .object(let members) = value.kind else { return false }
        return members.contains { DocumentKeys.lottieEvent.contains($0.key) }
    }

    /// The `"on"` object of a cue or an `after` on a Lottie node: one marker or one frame, with where its value is.
    func lottieEvent(_ onMember: JSONMember, in fields: Fields) -> (event: LottieEvent, offset: Int, path: String)? {
        let path = fields.path("on")
        guard let on = object(onMember.value, path: path, what: "a Lottie event", keys: DocumentKeys.lottieEvent) else { return nil }
        guard on.members.filter({ DocumentKeys.lottieEvent.contains($0.key) }).count == 1 else {
            if on.unknownKeys.isEmpty {
                error(onMember.value.offset, path, "a Lottie event names one moment: a marker (\"marker\") or a frame (\"frame\")",
                      hint: "{ \"marker\": \"impact\" } or { \"frame\": 42 }")
            }
            return nil
        }
        if let member = on["marker"] {
            return string(member.value, path: on.path("marker")).map { (.marker($0), member.value.offset, on.path("marker")) }
        }
        let member = on["frame"]!
        return integer(member.value, path: on.path("frame"), range: -100_000_000...100_000_000).map { (.frame($0), member.value.offset, on.path("frame")) }
    }

    /// The file frame `event` names in the node's Lottie file, or a located error: a marker it does not have (listing
    /// those it has), a frame outside its frames.
    func lottieFrame(of event: LottieEvent, offset: Int, path: String, lottie: LottieContent) -> Int? {
        let info = lottie.animation
        switch event {
        case .marker(let name):
            return lottieMarker(name, offset: offset, path: path, info: info, file: lottie.path)?.frame
        case .frame(let number):
            guard (info.inPoint..<info.outPoint).contains(number) else {
                error(offset, path,
                      "frame \(number) is not in the Lottie file \"\(lottie.path)\", whose frames are \(info.inPoint) to \(info.outPoint - 1)",
                      hint: "frames are the file's own numbers, from its \"ip\" up to, not including, its \"op\"")
                return nil
            }
            return number
        }
    }

    // MARK: - Starts after a Lottie node's moment

    /// The index of the Lottie playback an `after` names and the file frame it waits for, after checking the node,
    /// the marker or frame, and that the frame appears `nth` times.
    func lottieDependency(of dependant: TimedAnimation, _ source: AfterSource, node nodeID: String, event: LottieEvent, nth: Int,
                          lottieByNode: [String: Int], scope: SceneScope) -> (Int, Int)? {
        let nodePath = JSONPath.appending(key: "node", to: source.path)
        // A node that exists but has errors (a missing file) was reported where it is; the `after` adds nothing.
        if scope.nodes[nodeID] == nil, scope.nodeOffsets[nodeID] != nil || scope.isInsideBrokenInstance(nodeID) { return nil }
        let lottieNodes = scope.nodeOrder.filter { id in
            if case .lottie? = scope.nodes[id]?.content { return true }
            return false
        }
        guard let node = scope.nodes[nodeID] else {
            error(source.nameOffset, nodePath, "no node with id \"\(nodeID)\" in this scene",
                  hint: Self.suggestion(for: nodeID, among: scope.nodeOrder)
                      ?? (lottieNodes.isEmpty ? "a marker or a frame belongs to a lottie node; give one an \"id\""
                                              : "the lottie nodes are \(Self.list(lottieNodes.prefix(12).map { "\"\($0)\"" }, conjunction: "and"))"))
            return nil
        }
        guard case .lottie(let lottie) = node.content, let target = lottieByNode[nodeID] else {
            error(source.nameOffset, nodePath, "\"\(nodeID)\" is not a lottie node, so it has no markers or frames",
                  hint: Self.closest(to: nodeID, among: lottieNodes).map { "did you mean the lottie node \"\($0)\"?" }
                      ?? "start after one of its animations with \"animation\" and \"on\", or name a lottie node")
            return nil
        }
        guard let frame = lottieFrame(of: event, offset: source.eventOffset, path: source.eventPath, lottie: lottie) else { return nil }
        let playback = lottie.playback
        let frames = playback.frames
        let subject: String
        switch dependant.timed {
        case .lottie: subject = "this Lottie never starts playing"
        case .stop: subject = "this Lottie never stops"
        case .animation: subject = "this animation never starts"
        }
        guard frames.contains(frame) else {
            error(source.eventOffset, source.eventPath,
                  "\(subject): frame \(frame) is outside the frames \"\(nodeID)\" plays (\(frames.lowerBound) to \(frames.upperBound - 1))",
                  hint: "widen the node's \"segment\", or start after a frame it plays")
            return nil
        }
        guard playback.stepsToAppearance(of: frame, nth: nth) != nil else {
            let passes: String
            switch playback.repeatCount {
            case .count(let count): passes = count == 1 ? "plays its frames once" : "plays \(count) passes"
            case .forever: passes = "repeats forever"
            }
            let turning = playback.autoreverses ? " (an autoreverse shows its turning frame once)" : ""
            error(source.nthOffset ?? source.eventOffset, source.nthOffset == nil ? source.eventPath : JSONPath.appending(key: "nth", to: source.path),
                  "\(subject): \"\(nodeID)\" \(passes)\(turning), so frame \(frame) does not appear a \(TapGesture.ordinal(nth)) time",
                  hint: "give \"\(nodeID)\" a larger \"repeat\", or a smaller \"nth\"")
            return nil
        }
        return (target, frame)
    }
}
