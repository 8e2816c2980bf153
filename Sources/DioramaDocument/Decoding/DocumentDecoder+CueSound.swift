// What a cue plays: one sound, or a set each firing picks from; and the pitch it plays at.

extension DocumentDecoder {
    /// `"sound": "bell"`, or `"sound": ["tine-a", "tine-b"]` for each firing to pick one: every name a sound of `sounds`.
    /// Nil after a reported problem.
    func cueSounds(_ fields: Fields, sounds: [SoundDefinition]) -> [String]? {
        guard let member = fields["sound"], case .array(let elements) = member.value.kind else {
            if let member = fields["sound"], !member.value.isString {
                typeMismatch(member.value, path: fields.path("sound"), expected: "a sound's name or an array of names",
                             hint: "\"sound\": \"bell\", or \"sound\": [\"tine-a\", \"tine-b\"] for each firing to pick one")
                return nil
            }
            return soundReference(fields, sounds: sounds, what: "a cue").map { [$0] }
        }
        let path = fields.path("sound")
        guard !elements.isEmpty else {
            error(member.value.offset, path, "\"sound\" lists no sounds",
                  hint: "name one sound, or several for each firing to pick one: \"sound\": [\"tine-a\", \"tine-b\"]")
            return nil
        }
        guard elements.count <= Cue.maximumPickedSounds else {
            error(member.value.offset, path, "\"sound\" lists \(elements.count) sounds, more than the \(Cue.maximumPickedSounds) a cue may pick from",
                  hint: "list each sound once; list one twice to pick it twice as often")
            return nil
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path + "[\(index)]"
            guard let name = string(element, path: elementPath, what: "a sound to pick") else { continue }
            if name.isEmpty {
                error(element.offset, elementPath, "a sound's name must not be empty")
            } else if let name = soundName(name, offset: element.offset, path: elementPath, sounds: sounds) {
                names.append(name)
            }
        }
        return names.count == elements.count ? names : nil
    }

    /// `"pitch": -5`: semitones within `Cue.pitchRange`. Each pitch other than 0 is a copy of each of `names` made when
    /// the sounds load, so a sound is played at no more than `Cue.maximumPitchesPerSound` of them in the document.
    func cuePitch(_ fields: Fields, sounds names: [String]?) -> Double? {
        guard let member = fields["pitch"] else { return 0 }
        let path = fields.path("pitch")
        let range = Cue.pitchRange
        guard let pitch = number(member.value, path: path, range: .closed(range.lowerBound, range.upperBound), unit: "semitones",
                                 hint: "semitones from the sound's own pitch: 12 is an octave up, -12 an octave down, 7 a fifth up")
        else { return nil }
        guard pitch != 0, let names else { return pitch }
        for name in names {
            let pitches = cuePitches[name, default: []]
            if pitches.contains(pitch) { continue }
            guard pitches.count < Cue.maximumPitchesPerSound else {
                let listed = pitches.sorted().map { NumberRange.format($0) }
                error(member.value.offset, path,
                      "the sound \"\(name)\" is played at \(Cue.maximumPitchesPerSound) pitches besides its own already, the most one sound may be",
                      hint: "play it at one of those (\(Self.list(listed, conjunction: "or"))), or round the pitches to whole semitones")
                return nil
            }
            cuePitches[name] = pitches + [pitch]
        }
        return pitch
    }
}

private extension JSONValue {
    var isString: Bool {
        if case .string = kind { return true }
        return false
    }
}
