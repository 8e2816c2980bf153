// Sounds that last: a cue's id, loop, until, fadeOut and duck; stop cues; an ambience's start.

/// Where a trigger is read (a cue, a stop cue, an `until`, an ambience's `start`), for the words of its messages.
struct TriggerUse {
    /// The object, in messages: "a cue".
    var what: String
    /// The object when bound to an animation: "a cue bound to an animation".
    var boundWhat: String
    /// Opens a warning about a moment outside the scene: "this cue never fires".
    var never: String
    /// The hint of that warning.
    var window: String
    /// The hint when no trigger is given.
    var missingHint: String

    static let cue = TriggerUse(
        what: "a cue", boundWhat: "a cue bound to an animation", never: "this cue never fires",
        window: "cues fire at scene times from 0 up to, not including, the scene's duration",
        missingHint: "give a scene time (\"at\": 5.5) or bind it to an animation with \"node\", \"animation\" and \"on\"")
    static let stop = TriggerUse(
        what: "a stop cue", boundWhat: "a stop cue bound to an animation", never: "this stop never acts",
        window: "stop cues act at scene times from 0 up to, not including, the scene's duration",
        missingHint: "give a scene time (\"at\": 12) or bind it to an animation with \"node\", \"animation\" and \"on\"")
    static let until = TriggerUse(
        what: "the cue's \"until\"", boundWhat: "the cue's \"until\"", never: "this end is never reached",
        window: "the sound ends with the scene anyway",
        missingHint: "give a scene time (\"at\": 12) or an animation's event with \"node\", \"animation\" and \"on\"")
    static let ambienceStart = TriggerUse(
        what: "the ambience's \"start\"", boundWhat: "the ambience's \"start\"", never: "this ambience never starts",
        window: "ambience starts at scene times from 0 up to, not including, the scene's duration",
        missingHint: "give a scene time (\"at\": 3) or an animation's event with \"node\", \"animation\" and \"on\"")
}

/// The cue ids of one scene, and the stop cues that name them, resolved once every cue is read.
struct CueIDs {
    /// Offsets of the ids of cues that play a sound, by id (cues with errors included, so a stop naming one adds nothing).
    var offsets: [String: Int] = [:]
    var order: [String] = []
    /// Per stop cue decoded, in order: the name it stops, where, and its own fade-out if it gives one.
    var stops: [(name: String, offset: Int, path: String, fadeOut: Double?)] = []
}

extension DocumentDecoder {
    /// What makes a cue's sound last, or nil after a reported problem.
    func lastingSound(_ fields: Fields, trigger: CueTrigger?, offset: Rational?, scope: SceneScope, sceneDuration: Rational?,
                      ids: inout CueIDs) -> (id: String?, loops: Bool, until: CueMoment?, fadeOut: Double, duck: Ducking?)? {
        let errorsBefore = errorCount
        let what = "a cue"
        let id = string(fields, "id", what: what, required: false)
        if let id, let member = fields["id"] {
            if let first = ids.offsets[id] {
                error(member.value.offset, fields.path("id"), "duplicate cue id \"\(id)\" (first used at \(locationText(first)))",
                      hint: "cue ids must be unique within a scene")
            } else {
                ids.offsets[id] = member.value.offset
                ids.order.append(id)
            }
        }
        let loops = bool(fields, "loop", default: false)
        var until: CueMoment?
        if let member = fields["until"] {
            until = moment(member.value, path: fields.path("until"), use: .until, scope: scope, sceneDuration: sceneDuration)
            // A fixed end at or before a fixed start is a mistake (it would mean "until the scene ends").
            if let until, case .at(let end)? = Optional(until.trigger), case .at(let start)? = trigger, let offset,
               end + until.offset <= start + offset {
                error(member.value.offset, fields.path("until"),
                      "\"until\" (\(Self.seconds(end + until.offset)) s) is not after the cue's start (\(Self.seconds(start + offset)) s)",
                      hint: "\"until\" is a scene time after the cue's start; leave it out to end the sound with the scene")
            }
        }
        let fadeOut = number(fields, "fadeOut", default: 0, range: .closed(0, 3600), what: what, unit: "seconds")
        if let member = fields["fadeOut"], !loops, until == nil, id == nil, fields["until"] == nil {
            warning(member.keyOffset, fields.path("fadeOut"), "\"fadeOut\" has no effect: nothing ends this cue's sound early",
                    hint: "give the cue \"loop\": true, an \"until\", or an \"id\" for a stop cue to name")
        }
        let duck = fields["duck"].map { decodeDuck($0.value, path: fields.path("duck")) }
        guard errorCount == errorsBefore, let fadeOut else { return nil }
        return (id, loops, until, fadeOut, duck ?? nil)
    }

    /// `{ "stop": "music", "at": 12, "fadeOut": 0.5 }`: ends the sound of the cue with that id.
    func decodeStopCue(_ value: JSONValue, path: String, scope: SceneScope, sceneDuration: Rational?, ids: inout CueIDs) -> Cue? {
        let what = "a stop cue"
        let playing = DocumentKeys.cue.filter { !DocumentKeys.stopCue.contains($0) }.map { (key: $0, owner: "cues that play a sound") }
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.stopCue, otherKeys: playing) else { return nil }
        let errorsBefore = errorCount
        let name = string(fields, "stop", what: what, required: true)
        let limit = DocumentLimits.maximumSceneDuration
        let offset = optional(fields, "offset", default: Rational.zero) { self.time($0, path: $1, minimum: -limit, maximum: limit) }
        let trigger = cueTrigger(fields, use: .stop, scope: scope, sceneDuration: sceneDuration, offset: offset)
        let fadeOut = fields["fadeOut"].map { number($0.value, path: fields.path("fadeOut"), range: .closed(0, 3600), unit: "seconds") }
        guard errorCount == errorsBefore, let name, let member = fields["stop"], let offset, let trigger else { return nil }
        ids.stops.append((name, member.value.offset, fields.path("stop"), fadeOut ?? nil))
        return Cue(sound: "", trigger: trigger, offset: offset, stop: name, fadeOut: (fadeOut ?? nil) ?? 0)
    }

    /// Checks that each stop cue names a cue of its scene, and gives a stop without its own fade-out the cue's.
    func resolveStopCues(_ cues: inout [Cue], ids: CueIDs) {
        var references = ids.stops.makeIterator()
        for index in cues.indices where cues[index].isStop {
            guard let reference = references.next() else { return }
            if ids.offsets[reference.name] == nil {
                error(reference.offset, reference.path, "no cue with id \"\(reference.name)\" in this scene",
                      hint: Self.suggestion(for: reference.name, among: ids.order)
                          ?? (ids.order.isEmpty ? "give the cue to stop an \"id\""
                                                : "the cue ids are \(Self.list(ids.order.prefix(12).map { "\"\($0)\"" }, conjunction: "and"))"))
            } else if reference.fadeOut == nil, let target = cues.first(where: { $0.id == reference.name }) {
                cues[index].fadeOut = target.fadeOut
            }
        }
    }

    /// A moment given as a scene time (`12`) or as an object with a cue's trigger keys and an `offset`.
    func moment(_ value: JSONValue, path: String, use: TriggerUse, scope: SceneScope, sceneDuration: Rational?) -> CueMoment? {
        switch value.kind {
        case .number:
            guard let time = time(value, path: path, minimum: .zero) else { return nil }
            if let sceneDuration, time >= sceneDuration {
                warning(value.offset, path, "\(use.never): the scene lasts \(Self.seconds(sceneDuration)) s", hint: use.window)
            }
            return .at(time)
        case .object:
            guard let fields = object(value, path: path, what: use.what, keys: DocumentKeys.moment) else { return nil }
            let limit = DocumentLimits.maximumSceneDuration
            let offset = optional(fields, "offset", default: Rational.zero) { self.time($0, path: $1, minimum: -limit, maximum: limit) }
            let trigger = cueTrigger(fields, use: use, scope: scope, sceneDuration: sceneDuration, offset: offset)
            guard let offset, let trigger else { return nil }
            return CueMoment(trigger: trigger, offset: offset)
        default:
            typeMismatch(value, path: path, expected: "a number of seconds or an object like { \"node\": \"buoy\", \"animation\": \"tilt\", \"on\": \"to\" }",
                         hint: { if case .string(let text) = value.kind, Double(text) != nil { return "write the number without quotes" }; return nil }())
            return nil
        }
    }

    /// `{ "db": -12, "attack": 50, "release": 300 }`.
    func decodeDuck(_ value: JSONValue, path: String) -> Ducking? {
        let what = "a duck"
        if case .number(let literal) = value.kind {
            typeMismatch(value, path: path, expected: "an object", what: what, hint: "write \"duck\": { \"db\": \(literal) }")
            return nil
        }
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.duck) else { return nil }
        let decibels = number(fields, "db", default: nil, range: .closed(-96, 0), what: what, unit: "decibels")
        let ramp = NumberRange.closed(0, 60_000)
        let attack = number(fields, "attack", default: 50, range: ramp, what: what, unit: "milliseconds")
        let release = number(fields, "release", default: 300, range: ramp, what: what, unit: "milliseconds")
        guard let decibels, let attack, let release else { return nil }
        return Ducking(decibels: decibels, attackMilliseconds: attack, releaseMilliseconds: release)
    }
}
