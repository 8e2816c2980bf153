import DioramaDocument

// Loops, stops, ducks and ambience starting on a moment, in `diorama timeline`. Keys and tables appear only when
// the playlist uses them, so the report of a playlist without them is what it always was.
extension TimelineReport {
    // MARK: - JSON

    /// The keys a lasting cue firing adds at the end of its object: `id`, `loop`, where and why it ends, its
    /// fade-out and its duck.
    func lastingFields(_ cue: ScheduledCue) -> [(String, String)] {
        let firing = cue.firing
        var fields: [(String, String)] = []
        if let id = firing.id { fields.append(("id", Self.quoted(id))) }
        if firing.loops { fields.append(("loop", "true")) }
        if let end = end(of: cue) {
            fields += [("end", Self.seconds(end.time)), ("endExact", Self.quoted(end.time.description)),
                       ("endSample", "\(end.sample)"), ("endsBy", Self.quoted(end.by))]
            if let stopCue = end.stopCue { fields.append(("stopCue", "\(stopCue)")) }
            fields.append(("fadeOut", Self.number(end.fadeOut)))
        }
        if let duck = firing.duck {
            fields.append(("duck", "{" + Self.fields([("db", Self.number(duck.decibels)), ("attack", Self.number(duck.attackMilliseconds)),
                                                      ("release", Self.number(duck.releaseMilliseconds))]) + "}"))
        }
        return fields
    }

    /// `"stops"` and `"ambienceStarts"`, each only when there are any, after `"cues"`.
    func lastingSections() -> String {
        var out = ""
        if !schedule.stops.isEmpty {
            out += ",\n  \"stops\": ["
            out += schedule.stops.map { scheduled in
                let stop = scheduled.stop
                var fields = [
                    ("time", Self.seconds(scheduled.absoluteTime)),
                    ("timeExact", Self.quoted(scheduled.absoluteTime.description)),
                    ("sample", "\(scheduled.sampleIndex)"),
                    ("scene", "\(stop.scene)"),
                    ("sceneId", Self.quoted(stop.sceneID)),
                    ("sceneTime", Self.seconds(stop.sceneTime)),
                    ("sceneTimeExact", Self.quoted(stop.sceneTime.description)),
                    ("cue", "\(stop.cue)"),
                ]
                if let id = stop.cueID { fields.append(("id", Self.quoted(id))) }
                switch stop.reason {
                case .until: fields.append(("by", Self.quoted("until")))
                case .stopCue(let index): fields += [("by", Self.quoted("stop")), ("stopCue", "\(index)")]
                }
                fields += [("fadeOut", Self.number(stop.fadeOut)), ("offset", Self.seconds(stop.offset)),
                           ("trigger", "{" + Self.fields(Self.triggerFields(stop.trigger)) + "}")]
                return "\n    {" + Self.fields(fields) + "}"
            }.joined(separator: ",")
            out += "\n  ]"
        }
        if !schedule.ambienceStarts.isEmpty {
            out += ",\n  \"ambienceStarts\": ["
            out += schedule.ambienceStarts.map { scheduled in
                let start = scheduled.start
                return "\n    {" + Self.fields([
                    ("time", Self.seconds(scheduled.absoluteTime)),
                    ("timeExact", Self.quoted(scheduled.absoluteTime.description)),
                    ("sample", "\(scheduled.sampleIndex)"),
                    ("scene", "\(start.scene)"),
                    ("sceneId", Self.quoted(start.sceneID)),
                    ("sceneTime", Self.seconds(start.sceneTime)),
                    ("sceneTimeExact", Self.quoted(start.sceneTime.description)),
                    ("ambience", "\(start.ambience)"),
                    ("sound", Self.quoted(start.sound)),
                    ("offset", Self.seconds(start.offset)),
                    ("trigger", "{" + Self.fields(Self.triggerFields(start.trigger)) + "}"),
                ]) + "}"
            }.joined(separator: ",")
            out += "\n  ]"
        }
        return out
    }

    /// Where a firing's sound is ended early: its `until` or a stop cue, else its scene's end when it ends with
    /// the scene; nil for a sound that plays to its own end.
    func end(of cue: ScheduledCue) -> (time: Rational, sample: Int64, by: String, stopCue: Int?, fadeOut: Double)? {
        let firing = cue.firing
        let span = schedule.scenes[firing.scene]
        let rate = Rational(schedule.sampleRate)
        if let end = firing.end {
            let time = span.start + end.sceneTime
            switch end.reason {
            case .until: return (time, CueSchedule.sample(time * rate), "until", nil, end.fadeOut)
            case .stopCue(let index): return (time, CueSchedule.sample(time * rate), "stop", index, end.fadeOut)
            }
        }
        guard firing.endsWithScene else { return nil }
        return (span.start + span.duration, span.endSample, "scene", nil, firing.fadeOut)
    }

    // MARK: - Text

    /// `, loops until 12.5 s (fade-out 0.5 s), ducks -12 dB` after a firing's trigger.
    static func lasting(_ firing: CueFiring) -> String {
        var parts: [String] = []
        var ending = firing.loops ? "loops" : ""
        if let end = firing.end {
            ending += (ending.isEmpty ? "" : " ") + "until \(seconds(end.sceneTime)) s"
            if case .stopCue(let index) = end.reason { ending += " (stopped by cue \(index))" }
            if end.fadeOut > 0 { ending += ", fade-out \(number(end.fadeOut)) s" }
        } else if firing.endsWithScene {
            ending += (ending.isEmpty ? "" : " ") + "until the scene ends"
            if firing.fadeOut > 0 { ending += ", fade-out \(number(firing.fadeOut)) s" }
        }
        if !ending.isEmpty { parts.append(ending) }
        if let duck = firing.duck {
            parts.append("ducks \(number(duck.decibels)) dB (\(number(duck.attackMilliseconds))/\(number(duck.releaseMilliseconds)) ms)")
        }
        return parts.map { ", " + $0 }.joined()
    }

    /// Tables of stops and of ambience starting on a moment, when there are any.
    func lastingTables() -> String {
        var out = ""
        if !schedule.stops.isEmpty {
            out += "\n" + Self.table(
                header: ["stop s", "scene", "scene time s", "sample", "ends", "fade-out s", "by"],
                rightAligned: [0, 2, 3, 5],
                rows: schedule.stops.map { scheduled in
                    let stop = scheduled.stop
                    let trigger = Self.describeTrigger(stop.trigger, offset: stop.offset)
                    let by: String
                    switch stop.reason {
                    case .until: by = "until, \(trigger)"
                    case .stopCue(let index): by = "stop cue \(index), \(trigger)"
                    }
                    return [Self.seconds(scheduled.absoluteTime), stop.sceneID, Self.seconds(stop.sceneTime), "\(scheduled.sampleIndex)",
                            stop.cueID.map { "\"\($0)\"" } ?? "cue \(stop.cue)", Self.number(stop.fadeOut), by]
                })
        }
        if !schedule.ambienceStarts.isEmpty {
            out += "\n" + Self.table(
                header: ["ambience s", "scene", "scene time s", "sample", "sound", "start"],
                rightAligned: [0, 2, 3],
                rows: schedule.ambienceStarts.map { scheduled in
                    let start = scheduled.start
                    return [Self.seconds(scheduled.absoluteTime), start.sceneID, Self.seconds(start.sceneTime), "\(scheduled.sampleIndex)",
                            start.sound, Self.describeTrigger(start.trigger, offset: start.offset)]
                })
        }
        return out
    }

    /// `at 12`, `marker doorsOpen`, `moon.rise to #0`, with `+0.2 s` for an offset.
    static func describeTrigger(_ trigger: CueFiring.Trigger, offset: Rational) -> String {
        var text: String
        switch trigger {
        case .at(let time):
            text = "at \(seconds(time))"
        case .animation(let node, let animation, let event, let iteration):
            var name = eventName(event)
            if case .keyframe(let index) = event { name += " \(index)" }
            text = "\(node).\(animation) \(name) #\(iteration)"
        case .marker(let name, _):
            text = "marker \(name)"
        case .tap(let node, let time, let nth):
            text = "tap \(node)\(nth == 1 ? "" : " (\(TapGesture.ordinal(nth)))") at \(seconds(time))"
        case .lottie(let node, let event, let frame, let iteration):
            switch event {
            case .marker(let name): text = "\(node) marker \(name) (frame \(frame)) #\(iteration)"
            case .frame: text = "\(node) frame \(frame) #\(iteration)"
            }
        }
        if offset != .zero { text += " \(offset > .zero ? "+" : "")\(seconds(offset)) s" }
        return text
    }
}
