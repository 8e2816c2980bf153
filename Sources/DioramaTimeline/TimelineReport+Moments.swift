import DioramaDocument

/// A scene marker placed on the playlist's timeline.
public struct PlacedMarker: Sendable, Equatable {
    public var scene: Int
    public var sceneID: String
    public var marker: SceneMarker
    /// Seconds from the start of the playlist, exactly.
    public var absoluteTime: Rational
    /// `ceil(absoluteTime × sampleRate)`.
    public var sampleIndex: Int64
}

/// The resolved start of an animation (or a Lottie node) that starts `after` something, placed on the playlist's timeline.
public struct PlacedStart: Sendable, Equatable {
    public var scene: Int
    public var sceneID: String
    /// `start.time` is the scene time.
    public var start: SceneTiming.Start
    /// The animation's (Lottie node's) `delay`, counted from the moment it starts after.
    public var delay: Rational
    public var absoluteTime: Rational
    public var sampleIndex: Int64
}

extension TimelineReport {
    static func moments(of document: Document, schedule: CueSchedule) -> ([PlacedMarker], [PlacedStart]) {
        let rate = Rational(schedule.sampleRate)
        var markers: [PlacedMarker] = []
        var starts: [PlacedStart] = []
        for (index, scene) in document.scenes.enumerated() {
            let sceneStart = schedule.scenes[index].start
            for marker in scene.markers {
                let time = sceneStart + marker.time
                markers.append(PlacedMarker(scene: index, sceneID: scene.id, marker: marker, absoluteTime: time,
                                            sampleIndex: CueSchedule.sample(time * rate)))
            }
            guard scene.hasRelativeStarts else { continue }
            var delays: [Rational] = []
            func collect(_ nodes: [Node]) {
                for node in nodes {
                    // In `SceneTiming.starts` order: a Lottie node's playback before its animations.
                    if case .lottie(let lottie) = node.content {
                        delays.append(lottie.playback.delay)
                        // Its stop (`until`) follows it, with no delay of its own.
                        if lottie.playback.until != nil { delays.append(.zero) }
                    }
                    delays += node.animations.map(\.delay)
                    if case .group(let group) = node.content { collect(group.children) }
                }
            }
            collect(scene.nodes)
            for (start, delay) in zip(SceneTiming(scene: scene).starts, delays) where start.after != nil && !start.waitsForTap {
                // An animation waiting for a tap that does not happen in this run never starts: it has no row.
                let time = sceneStart + start.time
                starts.append(PlacedStart(scene: index, sceneID: scene.id, start: start, delay: delay, absoluteTime: time,
                                          sampleIndex: CueSchedule.sample(time * rate)))
            }
        }
        // By time; file order among equals (the sort is stable).
        return (markers.enumerated().sorted { ($0.element.absoluteTime, $0.offset) < ($1.element.absoluteTime, $1.offset) }.map(\.element),
                starts.enumerated().sorted { ($0.element.absoluteTime, $0.offset) < ($1.element.absoluteTime, $1.offset) }.map(\.element))
    }

    /// `doors.open end +0.5 s`, `marker doorsOpen`: what a relative animation starts after, and its delay.
    static func describe(_ placed: PlacedStart) -> String {
        var text: String
        switch placed.start.after {
        case .animation(let node, let animation, let event)?:
            text = "\(node).\(animation) \(eventName(event))"
            if case .keyframe(let index) = event { text += " \(index)" }
        case .marker(let name)?:
            text = "marker \(name)"
        case .tap(let node, let nth)?:
            text = "tap \(node)\(nth == 1 ? "" : " (\(TapGesture.ordinal(nth)))")"
        case .lottie(let node, let event, let nth)?:
            switch event {
            case .marker(let name): text = "\(node) marker \(name)"
            case .frame(let frame): text = "\(node) frame \(frame)"
            }
            if nth != 1 { text += " (\(TapGesture.ordinal(nth)) pass)" }
        case nil:
            text = "the scene's start"
        }
        if placed.delay != .zero { text += " +\(seconds(placed.delay)) s" }
        return text
    }

    /// `passenger.fadeIn`, `drum (lottie)`, or the animation's path in its scene when it has no id.
    static func name(_ start: SceneTiming.Start) -> String {
        if start.isLottie { return "\(start.node ?? start.path) (lottie)" }
        if start.isStop { return "\(start.node ?? start.path) (lottie) stops" }
        if let node = start.node, let animation = start.animation { return "\(node).\(animation)" }
        return start.path
    }

    func momentsText() -> String {
        var out = ""
        if !markers.isEmpty {
                out += Self.table(
                    header: ["time s", "scene", "scene time s", "sample", "marker"],
                    rightAligned: [0, 2, 3],
                    rows: markers.map { placed in
                        [Self.seconds(placed.absoluteTime), placed.sceneID, Self.seconds(placed.marker.time), "\(placed.sampleIndex)",
                         placed.marker.name]
                    })
                out += "\n"
        }
        if !relativeStarts.isEmpty {
                out += Self.table(
                    header: ["time s", "scene", "scene time s", "sample", "animation starts", "after"],
                    rightAligned: [0, 2, 3],
                    rows: relativeStarts.map { placed in
                        [Self.seconds(placed.absoluteTime), placed.sceneID, Self.seconds(placed.start.time), "\(placed.sampleIndex)",
                         Self.name(placed.start), Self.describe(placed)]
                    })
                out += "\n"
        }
        return out
    }

    /// The `markers` and `relativeStarts` arrays, each only when the playlist has some (as `stops` and
    /// `ambienceStarts`), so a file without them keeps its exact output.
    func momentsSections() -> String {
        func placement(_ time: Rational, _ sample: Int64, _ scene: Int, _ sceneID: String, _ sceneTime: Rational) -> [(String, String)] {
            [("time", Self.seconds(time)), ("timeExact", Self.quoted(time.description)), ("sample", "\(sample)"),
             ("scene", "\(scene)"), ("sceneId", Self.quoted(sceneID)),
             ("sceneTime", Self.seconds(sceneTime)), ("sceneTimeExact", Self.quoted(sceneTime.description))]
        }
        func optional(_ text: String?) -> String { text.map(Self.quoted) ?? "null" }
        var out = ""
        if !markers.isEmpty {
            out += ",\n  \"markers\": ["
            out += markers.map { placed in
                "\n    {" + Self.fields(placement(placed.absoluteTime, placed.sampleIndex, placed.scene, placed.sceneID, placed.marker.time)
                    + [("name", Self.quoted(placed.marker.name))]) + "}"
            }.joined(separator: ",")
            out += "\n  ]"
        }
        if !relativeStarts.isEmpty {
            out += ",\n  \"relativeStarts\": ["
            out += relativeStarts.map { placed in
                var after: [(String, String)] = []
                switch placed.start.after {
                case .animation(let node, let animation, let event)?:
                    after = [("kind", Self.quoted("animation")), ("node", Self.quoted(node)), ("animation", Self.quoted(animation)),
                             ("on", Self.quoted(Self.eventName(event)))]
                    if case .keyframe(let index) = event { after.append(("keyframe", "\(index)")) }
                case .marker(let name)?:
                    after = [("kind", Self.quoted("marker")), ("marker", Self.quoted(name))]
                case .tap(let node, let nth)?:
                    after = [("kind", Self.quoted("tap")), ("tap", Self.quoted(node))] + (nth == 1 ? [] : [("nth", "\(nth)")])
                case .lottie(let node, let event, let nth)?:
                    after = [("kind", Self.quoted("lottie")), ("node", Self.quoted(node))]
                    switch event {
                    case .marker(let name): after.append(("marker", Self.quoted(name)))
                    case .frame(let frame): after.append(("frame", "\(frame)"))
                    }
                    if nth != 1 { after.append(("nth", "\(nth)")) }
                case nil:
                    break
                }
                return "\n    {" + Self.fields(placement(placed.absoluteTime, placed.sampleIndex, placed.scene, placed.sceneID, placed.start.time) + [
                    ("node", optional(placed.start.node)), ("animation", optional(placed.start.animation)),
                    ("path", Self.quoted(placed.start.path)), ("delay", Self.seconds(placed.delay)),
                    ("after", "{" + Self.fields(after) + "}"),
                ] + (placed.start.isLottie ? [("lottie", "true")] : []) + (placed.start.isStop ? [("stop", "true")] : [])) + "}"
            }.joined(separator: ",")
            out += "\n  ]"
        }
        return out
    }
}
