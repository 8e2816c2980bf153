import DioramaDocument

/// The `diorama timeline` report: the cue schedule as text for people, or as the JSON contract of
/// docs/TIMELINE.md for tools.
public struct TimelineReport: Sendable {
    public let schedule: CueSchedule
    /// Titles in the report's language, by scene index.
    public let titles: [String]
    /// Every scene's markers, placed on the playlist, by time.
    public let markers: [PlacedMarker]
    /// The resolved starts of the animations that start `after` something, placed on the playlist, by time.
    public let relativeStarts: [PlacedStart]
    /// Each scene's loudness and true peak, when the caller measured them (`diorama timeline` does, on the offline mix).
    public var loudness: SceneLoudnessReport?
    /// By `schedule.cues` index: the semitones each firing is heard above (or below) its sound's file, its cue's
    /// `pitch` and the take its sound's `vary` draws for it, as the mixer plays it.
    public let pitches: [Double]
    /// By `schedule.cues` index: the sounds a firing's cue picks from (`"sound": [...]`), nil for a cue of one sound.
    public let pickedFrom: [[String]?]

    public init(document: Document, sampleRate: Int, language: String? = nil) {
        schedule = CueSchedule(document: document, sampleRate: sampleRate)
        let variations = Dictionary(document.sounds.compactMap { sound in sound.vary.map { (sound.name, $0) } }, uniquingKeysWith: { first, _ in first })
        pitches = schedule.cues.map { cue in
            let take = variations[cue.firing.sound].map { $0.semitones(ofTake: cue.firing.variation($0).take) } ?? 0
            return cue.firing.pitch + take
        }
        pickedFrom = schedule.cues.map { cue in
            let cues = document.scenes[cue.firing.scene].cues
            let sounds = cues.indices.contains(cue.firing.cue) ? cues[cue.firing.cue].sounds : []
            return sounds.count > 1 ? sounds : nil
        }
        let language = language ?? document.languages.defaultLanguage
        titles = document.scenes.map { $0.title.resolved(language: language, fallback: document.languages.fallback) }
        (markers, relativeStarts) = Self.moments(of: document, schedule: schedule)
    }

    /// Seconds, as the report writes them: decimal, at most 9 fractional digits (nanoseconds).
    static func seconds(_ value: Rational) -> String { value.decimalString(digits: 9) }

    // MARK: - JSON

    /// One JSON object `{ "sampleRate", "duration", "samples", "scenes": [...], "cues": [...] }`, keys in a fixed
    /// order, one scene or cue per line. Times are numbers of seconds (see docs/TIMELINE.md), with an exact twin.
    public func json() -> String {
        var out = "{\n"
        out += "  \"format\": \"diorama-timeline/2\",\n"
        out += "  \"sampleRate\": \(schedule.sampleRate),\n"
        out += "  \"duration\": \(Self.seconds(schedule.clock.length)),\n"
        out += "  \"durationExact\": \(Self.quoted(schedule.clock.length.description)),\n"
        out += "  \"samples\": \(CueSchedule.sample(schedule.clock.length * Rational(schedule.sampleRate))),\n"
        out += "  \"scenes\": ["
        let cueCounts = Dictionary(grouping: schedule.cues, by: \.firing.scene).mapValues(\.count)
        out += schedule.scenes.map { span in
            "\n    {" + Self.fields([
                ("index", "\(span.index)"),
                ("id", Self.quoted(span.id)),
                ("title", Self.quoted(titles[span.index])),
                ("start", Self.seconds(span.start)),
                ("startExact", Self.quoted(span.start.description)),
                ("duration", Self.seconds(span.duration)),
                ("durationExact", Self.quoted(span.duration.description)),
                ("startSample", "\(span.startSample)"),
                ("endSample", "\(span.endSample)"),
                ("cueCount", "\(cueCounts[span.index] ?? 0)"),
            ] + loudnessFields(scene: span.index)) + "}"
        }.joined(separator: ",")
        out += schedule.scenes.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"cues\": ["
        out += schedule.cues.enumerated().map { index, cue in
            let f = cue.firing
            return "\n    {" + Self.fields([
                ("time", Self.seconds(cue.absoluteTime)),
                ("timeExact", Self.quoted(cue.absoluteTime.description)),
                ("sample", "\(cue.sampleIndex)"),
                ("scene", "\(f.scene)"),
                ("sceneId", Self.quoted(f.sceneID)),
                ("sceneTime", Self.seconds(f.sceneTime)),
                ("sceneTimeExact", Self.quoted(f.sceneTime.description)),
                ("cue", "\(f.cue)"),
                ("sound", Self.quoted(f.sound)),
                ("gain", Self.number(f.gain)),
                ("pan", Self.number(f.pan)),
                ("offset", Self.seconds(f.offset)),
                ("trigger", "{" + Self.fields(Self.triggerFields(f.trigger)) + "}"),
            ] + (f.repetition > 0 ? [("repetition", "\(f.repetition)")] : [])
                + (pitches[index] != 0 ? [("pitch", Self.number(Self.hundredths(pitches[index])))] : [])
                + (pickedFrom[index].map { [("pickedFrom", "[" + $0.map(Self.quoted).joined(separator: ", ") + "]")] } ?? [])
                + lastingFields(cue)) + "}"
        }.joined(separator: ",")
        out += schedule.cues.isEmpty ? "]" : "\n  ]"
        out += lastingSections()
        out += momentsSections()
        out += loudnessTargetSection()
        out += "\n}\n"
        return out
    }

    static func triggerFields(_ trigger: CueFiring.Trigger) -> [(String, String)] {
        switch trigger {
        case .at(let time):
            return [("kind", quoted("at")), ("at", seconds(time))]
        case .animation(let node, let animation, let event, let iteration):
            var fields = [("kind", quoted("animation")), ("node", quoted(node)), ("animation", quoted(animation)),
                          ("on", quoted(eventName(event)))]
            if case .keyframe(let index) = event { fields.append(("keyframe", "\(index)")) }
            fields.append(("iteration", "\(iteration)"))
            return fields
        case .marker(let name, let time):
            return [("kind", quoted("marker")), ("marker", quoted(name)), ("at", seconds(time))]
        case .tap(let node, let time, let nth):
            return [("kind", quoted("tap")), ("tap", quoted(node))] + (nth == 1 ? [] : [("nth", "\(nth)")]) + [("at", seconds(time))]
        case .lottie(let node, let event, let frame, let iteration):
            var fields = [("kind", quoted("lottie")), ("node", quoted(node))]
            if case .marker(let name) = event { fields.append(("marker", quoted(name))) }
            fields += [("frame", "\(frame)"), ("iteration", "\(iteration)")]
            return fields
        }
    }

    /// The event's name as scenes.json spells it in a cue's `"on"`.
    static func eventName(_ event: AnimationEvent) -> String {
        switch event {
        case .reachesTo: "to"
        case .reachesFrom: "from"
        case .iterationStart: "iteration"
        case .keyframe: "keyframe"
        case .end: "end"
        }
    }

    static func fields(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ")
    }

    /// A JSON number; non-finite values (refused by `diorama check`) become null rather than invalid JSON.
    /// ` +7 st`, ` -0.33 st` after a sound heard at another pitch than its file's; nothing at its own.
    static func pitchText(_ semitones: Double) -> String {
        let rounded = hundredths(semitones)
        return rounded == 0 ? "" : " \(rounded > 0 ? "+" : "")\(number(rounded)) st"
    }

    /// Semitones to the hundredth (a cent), as the report writes them.
    static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    // MARK: - Text

    /// Aligned tables of scenes and cues for people.
    public func text(file: String) -> String {
        let s = schedule
        var out = "\(file): \(s.scenes.count) scene\(s.scenes.count == 1 ? "" : "s"), \(s.cues.count) cue firing\(s.cues.count == 1 ? "" : "s"), "
        out += "total \(Self.seconds(s.clock.length)) s, samples at \(s.sampleRate) Hz\n\n"
        out += Self.table(
            header: ["#", "scene", "start s", "duration s", "start sample", "cues", "title"],
            rightAligned: [0, 2, 3, 4, 5],
            rows: s.scenes.map { span in
                ["\(span.index)", span.id, Self.seconds(span.start), Self.seconds(span.duration), "\(span.startSample)",
                 "\(s.cues.filter { $0.firing.scene == span.index }.count)", titles[span.index]]
            })
        out += "\n"
        out += loudnessText()
        out += momentsText()
        if s.cues.isEmpty {
            out += "no cue firings\n"
        } else {
            out += Self.table(
                header: ["time s", "scene", "scene time s", "sample", "sound", "trigger"],
                rightAligned: [0, 2, 3],
                rows: s.cues.enumerated().map { index, cue in
                    [Self.seconds(cue.absoluteTime), cue.firing.sceneID, Self.seconds(cue.firing.sceneTime),
                     "\(cue.sampleIndex)", cue.firing.sound + Self.pitchText(pitches[index]), Self.describe(cue.firing)]
                })
        }
        return out + lastingTables()
    }

    /// `at 5.5`, `marker doorsOpen`, `buoy.bob to #3`, `swing.arc keyframe 2 #0`, with `+0.2 s` when the cue has an
    /// offset and `every #2` for a repetition (`every`), then how the sound lasts.
    static func describe(_ firing: CueFiring) -> String {
        describeTrigger(firing.trigger, offset: firing.offset) + (firing.repetition > 0 ? " every #\(firing.repetition)" : "") + lasting(firing)
    }

    static func table(header: [String], rightAligned: Set<Int>, rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                let cell = row[column]
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 { return cell }
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
