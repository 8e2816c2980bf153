import Foundation

// The top level: canvas, languages, the sound bank, scenes, ambience and cues.

extension DocumentDecoder {
    func decodeDocument(_ root: JSONValue) -> Document? {
        if scenesNotWrapped(root) { return nil }
        guard let fields = object(root, path: "", what: "the document", keys: DocumentKeys.document) else { return nil }
        var schema: String?
        if let member = fields["$schema"] { schema = string(member.value, path: "$schema") }

        let canvas = fields["canvas"].flatMap { decodeCanvas($0.value) }
        canvasArea = canvas.map { $0.width * $0.height }
        if fields["canvas"] == nil {
            missing("canvas", in: fields, what: "the document",
                    hint: "add \"canvas\": { \"width\": 1280, \"height\": 720, \"background\": \"#000000\" }")
        }
        if let member = fields["languages"] { decodeLanguages(member.value) }
        let sounds = fields["sounds"].map { decodeSounds($0.value) } ?? []
        if let member = fields["components"] { decodeComponents(member.value) }

        var scenes: [Scene] = []
        if let member = fields["scenes"] {
            if let elements = array(member.value, path: "scenes") {
                if elements.isEmpty {
                    error(member.value.offset, "scenes", "the playlist has no scenes", hint: "add at least one scene")
                }
                var ids: [String: Int] = [:]
                for (index, element) in elements.enumerated() {
                    if let scene = decodeScene(element, path: "scenes[\(index)]", sounds: sounds, sceneIDs: &ids) {
                        scenes.append(scene)
                    }
                }
            }
        } else {
            missing("scenes", in: fields, what: "the document", hint: "add \"scenes\": [ { \"id\": ..., \"duration\": ..., \"nodes\": [...] } ]")
        }

        if let member = fields["sounds"], case .object(let soundMembers) = member.value.kind {
            for sound in soundMembers where !usedSounds.contains(sound.key) {
                advice(sound.keyOffset, JSONPath.appending(key: sound.key, to: "sounds"), "the sound \"\(sound.key)\" is never used",
                        hint: "remove it, or play it from a cue or an ambience")
            }
        }

        finishComponents()

        var loudness: Double?
        if let member = fields["loudness"] {
            let range = Document.loudnessRange
            loudness = number(member.value, path: "loudness", range: .closed(range.lowerBound, range.upperBound), unit: "LUFS",
                              name: "the loudness target (LUFS)", hint: "-23 is EBU R128's broadcast level; -16 suits small speakers")
        }

        guard let canvas else { return nil }
        return Document(schema: schema, canvas: canvas, languages: languages, sounds: sounds, scenes: scenes, loudness: loudness)
    }

    /// A scene (or a list of scenes) saved as the whole file, as a tutorial's snippet is: one error saying to wrap
    /// it, instead of one per key of the scene that the document does not know.
    private func scenesNotWrapped(_ root: JSONValue) -> Bool {
        func looksLikeScene(_ value: JSONValue) -> Bool {
            guard case .object(let members) = value.kind, !members.isEmpty else { return false }
            return !members.contains { DocumentKeys.document.contains($0.key) }
                && members.contains { $0.key == "duration" || $0.key == "nodes" }
                && members.allSatisfy { DocumentKeys.scene.contains($0.key) || Self.closest(to: $0.key, among: DocumentKeys.scene) != nil }
        }
        let wrapped = "{ \"canvas\": { \"width\": 1280, \"height\": 720 }, \"scenes\": [ ... ] }"
        switch root.kind {
        case .object where looksLikeScene(root):
            error(root.offset, "", "this file holds a single scene, not a playlist: a scenes file is \(wrapped)",
                  hint: "wrap the scene in \"scenes\": [ ... ] and add a \"canvas\" (and \"sounds\" for its cues)")
            return true
        case .array(let elements) where !elements.isEmpty && elements.allSatisfy(looksLikeScene):
            error(root.offset, "", "this file holds a list of scenes, not a playlist: a scenes file is \(wrapped)",
                  hint: "make the list the value of \"scenes\" in an object with a \"canvas\" (and \"sounds\" for their cues)")
            return true
        default:
            return false
        }
    }

    private func decodeCanvas(_ value: JSONValue) -> Canvas? {
        let what = "the canvas"
        guard let fields = object(value, path: "canvas", what: what, keys: DocumentKeys.canvas) else { return nil }
        let side = NumberRange(minimum: 0, minimumIsExclusive: true, maximum: DocumentLimits.maximumCanvasSide)
        let width = number(fields, "width", default: nil, range: side, what: what, unit: "points")
        let height = number(fields, "height", default: nil, range: side, what: what, unit: "points")
        let background = fields["background"].flatMap { paint($0.value, path: "canvas.background") } ?? .solid(.black)
        guard let width, let height else { return nil }
        return Canvas(width: width, height: height, background: background)
    }

    /// Language tags such as "en", "zh", "pt-BR".
    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    private func decodeLanguages(_ value: JSONValue) {
        let what = "the languages"
        guard let fields = object(value, path: "languages", what: what, keys: DocumentKeys.languages) else { return }
        var available: [String] = []
        if let member = fields["available"], let elements = array(member.value, path: "languages.available") {
            for (index, element) in elements.enumerated() {
                let path = "languages.available[\(index)]"
                guard let tag = string(element, path: path) else { continue }
                if !Self.isLanguageTag(tag) {
                    error(element.offset, path, "\"\(tag)\" is not a language tag", hint: "use tags like \"en\", \"zh\", \"ja\" or \"pt-BR\"")
                } else if available.contains(tag) {
                    error(element.offset, path, "\"\(tag)\" is listed twice")
                } else {
                    available.append(tag)
                }
            }
            if elements.isEmpty { error(member.value.offset, "languages.available", "\"available\" must list at least one language") }
        }
        func tag(_ key: String) -> (String, Int)? {
            guard let member = fields[key], let text = string(member.value, path: fields.path(key)) else { return nil }
            return (text, member.value.offset)
        }
        let defaultTag = tag("default")
        let fallbackTag = tag("fallback")
        if fields["available"] == nil {
            available = [defaultTag?.0 ?? fallbackTag?.0 ?? "en"]
            if let fallback = fallbackTag?.0, !available.contains(fallback) { available.append(fallback) }
        }
        for (key, found) in [("default", defaultTag), ("fallback", fallbackTag)] {
            if let (text, offset) = found, !available.contains(text) {
                error(offset, fields.path(key), "the \(key) language \"\(text)\" is not in \"available\"",
                      hint: "add it to \"available\" or choose one of \(Self.list(available.map { "\"\($0)\"" }, conjunction: "or"))")
            }
        }
        let defaultLanguage = defaultTag?.0 ?? available.first ?? "en"
        languages = Languages(defaultLanguage: defaultLanguage, fallback: fallbackTag?.0 ?? defaultLanguage,
                              available: available.isEmpty ? [defaultLanguage] : available,
                              chrome: fields["chrome"].map { decodeChrome($0.value, available: available) } ?? [:])
    }

    /// `languages.chrome`: per offered language, the player's English chrome strings to their translation.
    private func decodeChrome(_ value: JSONValue, available: [String]) -> [String: [String: String]] {
        guard case .object(let languages) = value.kind else {
            typeMismatch(value, path: "languages.chrome", expected: "an object of languages",
                         hint: "\"chrome\": { \"fr\": { \"Muted\": \"Son coupé\" } }")
            return [:]
        }
        var chrome: [String: [String: String]] = [:]
        for language in languages {
            let path = JSONPath.appending(key: language.key, to: "languages.chrome")
            guard available.contains(language.key) else {
                error(language.keyOffset, path, "the chrome's language \"\(language.key)\" is not in \"available\"",
                      hint: "add it to \"available\"")
                continue
            }
            guard case .object(let strings) = language.value.kind else {
                typeMismatch(language.value, path: path, expected: "an object of English strings to their translation",
                             hint: "\"Muted\": \"Son coupé\"")
                continue
            }
            var translations: [String: String] = [:]
            for entry in strings {
                if let text = string(entry.value, path: JSONPath.appending(key: entry.key, to: path)) { translations[entry.key] = text }
            }
            chrome[language.key] = translations
        }
        return chrome
    }

    private func decodeSounds(_ value: JSONValue) -> [SoundDefinition] {
        guard case .object(let members) = value.kind else {
            typeMismatch(value, path: "sounds", expected: "an object of named sounds",
                         hint: "\"sounds\": { \"bell\": { \"path\": \"media/bell.flac\" } }")
            return []
        }
        var sounds: [SoundDefinition] = []
        for member in members {
            let path = JSONPath.appending(key: member.key, to: "sounds")
            if member.key.isEmpty {
                error(member.keyOffset, path, "a sound needs a name")
                continue
            }
            // A plain string is the path, with the default gain.
            var pathValue: JSONValue?
            var gain = 1.0
            var silenceIntended = false
            var vary: SoundVariation?
            if case .string = member.value.kind {
                pathValue = member.value
            } else if let fields = object(member.value, path: path, what: "a sound", keys: DocumentKeys.sound) {
                pathValue = fields["path"]?.value
                if pathValue == nil { missing("path", in: fields, what: "a sound", hint: "the file's path, relative to this scenes file") }
                gain = number(fields, "gain", default: 1, range: .closed(0, 4), what: "a sound") ?? 1
                if let member = fields["leadingSilence"] {
                    silenceIntended = choice(member.value, path: fields.path("leadingSilence"), options: [("intended", true)],
                                             what: "leading silence") ?? false
                }
                if let member = fields["vary"], let variation = object(member.value, path: fields.path("vary"),
                                                                       what: "a sound's variation", keys: DocumentKeys.soundVariation) {
                    vary = SoundVariation(
                        gainDecibels: number(variation, "gain", default: 0, range: .closed(0, 24), what: "a sound's variation", unit: "decibels") ?? 0,
                        pitchSemitones: number(variation, "pitch", default: 0, range: .closed(0, 12), what: "a sound's variation", unit: "semitones") ?? 0)
                }
            }
            guard let pathValue else { continue }
            let filePath = pathValue.offset == member.value.offset ? path : JSONPath.appending(key: "path", to: path)
            guard let file = string(pathValue, path: filePath) else { continue }
            if file.isEmpty {
                error(pathValue.offset, filePath, "the sound's path is empty")
                continue
            }
            var sound = SoundDefinition(name: member.key, path: file, gain: gain, leadingSilenceIntended: silenceIntended, vary: vary)
            // A sound inside a dotLottie archive is unpacked now; a missing archive is reported with the missing files.
            if let (archive, entry) = SoundDefinition.archive(in: file) {
                let resolved = DocumentLoader.resolve(archive, against: baseDirectory)
                if FileManager.default.fileExists(atPath: resolved) {
                    switch LottieFileReader.archiveEntry(entry, path: resolved, shownPath: archive, reader: archives) {
                    case .success(let found): sound.embedded = found.bytes
                    case .failure(let problem): error(pathValue.offset, filePath, problem.message, hint: problem.hint)
                    }
                }
            }
            sounds.append(sound)
            mediaReferences.append((MediaReference(kind: .sound(name: member.key), path: sound.file,
                                                   resolvedPath: DocumentLoader.resolve(sound.file, against: baseDirectory),
                                                   file: self.file, line: 0, column: 0, jsonPath: filePath), pathValue.offset))
        }
        return sounds
    }

    private func decodeScene(_ value: JSONValue, path: String, sounds: [SoundDefinition], sceneIDs: inout [String: Int]) -> Scene? {
        let what = "a scene"
        let errorsBefore = errorCount
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.scene) else { return nil }
        let id = string(fields, "id", what: what, required: true)
        if let id, let member = fields["id"] {
            if let first = sceneIDs[id] {
                error(member.value.offset, fields.path("id"), "duplicate scene id \"\(id)\" (first used at \(locationText(first)))",
                      hint: "scene ids must be unique")
            } else {
                sceneIDs[id] = member.value.offset
            }
        }
        let title = fields["title"].flatMap { localizedString($0.value, path: fields.path("title")) }
        let duration = fields["duration"].flatMap { time($0.value, path: fields.path("duration"), minimum: .zero, minimumIsExclusive: true) }
        if fields["duration"] == nil { missing("duration", in: fields, what: what, hint: "the scene's length in seconds, e.g. \"duration\": 24") }
        let background = fields["background"].flatMap { paint($0.value, path: fields.path("background")) }

        var scope = SceneScope()
        if let member = fields["markers"] { decodeMarkers(member.value, path: fields.path("markers"), sceneDuration: duration, scope: &scope) }
        sceneAnimations = []
        sceneEmitters = []
        var nodes: [Node] = []
        if let member = fields["nodes"], let elements = array(member.value, path: fields.path("nodes")) {
            nodes = decodeNodes(elements, path: fields.path("nodes"), depth: 1, scope: &scope)
        }
        checkStarts(scope: &scope, sceneDuration: duration)
        checkParticles(sceneID: id ?? "")

        var ambience: [Ambience] = []
        if let member = fields["ambience"], let elements = array(member.value, path: fields.path("ambience")) {
            for (index, element) in elements.enumerated() {
                if let item = decodeAmbience(element, path: fields.path("ambience") + "[\(index)]", sounds: sounds, scope: scope,
                                             sceneDuration: duration) {
                    ambience.append(item)
                }
            }
        }

        var cues: [Cue] = []
        var cueSources: [(offset: Int, path: String)] = []
        var cueIDs = CueIDs()
        if let member = fields["cues"], let elements = array(member.value, path: fields.path("cues")) {
            for (index, element) in elements.enumerated() {
                if let cue = decodeCue(element, path: fields.path("cues") + "[\(index)]", sounds: sounds, scope: scope,
                                       sceneDuration: duration, ids: &cueIDs) {
                    cues.append(cue)
                    cueSources.append((element.offset, fields.path("cues") + "[\(index)]"))
                }
            }
        }
        resolveStopCues(&cues, ids: cueIDs)

        guard let id, let duration else { return nil }
        let scene = Scene(id: id, title: title ?? LocalizedString(id, language: languages.fallback), duration: duration,
                          background: background, nodes: nodes, ambience: ambience, cues: cues, markers: scope.markers)
        // Starts resolve only in a scene without errors; one with errors is not played anyway.
        if errorCount == errorsBefore { checkFirings(of: scene, cues: cueSources) }
        return scene
    }

    /// Errors for a scene whose cues could fire more than `DocumentLimits` allows (in all, or in one second), at
    /// the cue that fires most: a cue on a fast animation that repeats would flood the timeline, the log and the
    /// frame loop.
    private func checkFirings(of scene: Scene, cues sources: [(offset: Int, path: String)]) {
        guard !scene.cues.isEmpty else { return }
        let resolved = scene.resolvingStarts()
        let bounds = resolved.cues.map { resolved.firingBound(of: $0) }
        let (count, perSecond) = resolved.firingBounds
        let hint = "a cue on an animation fires on every iteration: bind it to a slower animation, give the animation "
            + "a \"repeat\" count, or shorten the scene"
        func every(_ bound: FiringBound) -> String {
            bound.interval.map { " (every \(Self.seconds($0)) s)" } ?? ""
        }
        if count > DocumentLimits.maximumFiringsPerScene, let most = bounds.indices.max(by: { bounds[$0].count < bounds[$1].count }) {
            error(sources[most].offset, sources[most].path,
                  "the cues of scene \"\(scene.id)\" fire up to \(NumberRange.grouped(count)) times, this one up to "
                      + "\(NumberRange.grouped(bounds[most].count))\(every(bounds[most])); the limit is "
                      + "\(NumberRange.grouped(DocumentLimits.maximumFiringsPerScene)) firings per scene",
                  hint: hint)
        }
        if perSecond > DocumentLimits.maximumFiringsPerSecond,
           let most = bounds.indices.max(by: { bounds[$0].perSecond < bounds[$1].perSecond }) {
            error(sources[most].offset, sources[most].path,
                  "the cues of scene \"\(scene.id)\" fire up to \(NumberRange.grouped(perSecond)) times in one second, this one up to "
                      + "\(NumberRange.grouped(bounds[most].perSecond))\(every(bounds[most])); the limit is "
                      + "\(NumberRange.grouped(DocumentLimits.maximumFiringsPerSecond)) firings in any second of a scene",
                  hint: bounds[most].interval == nil ? "spread the cues over the scene, or play one sound where many start together" : hint)
        }
    }

    /// A plain string (stored under the fallback language) or an object of language tag -> string.
    func localizedString(_ value: JSONValue, path: String) -> LocalizedString? {
        switch value.kind {
        case .string(let text):
            guard withinTextLength(text, offset: value.offset, path: path) else { return nil }
            return LocalizedString(text, language: languages.fallback)
        case .object(let members):
            if members.isEmpty {
                error(value.offset, path, "\"\(Self.lastKey(of: path))\" has no text", hint: "give a string, or an object like { \"en\": \"Ocean\", \"ja\": \"海\" }")
                return nil
            }
            var variants: [(language: String, text: String)] = []
            for member in members {
                let memberPath = JSONPath.appending(key: member.key, to: path)
                guard let text = string(member.value, path: memberPath),
                      withinTextLength(text, offset: member.value.offset, path: memberPath) else { continue }
                if !Self.isLanguageTag(member.key) {
                    error(member.keyOffset, memberPath, "\"\(member.key)\" is not a language tag",
                          hint: Self.suggestion(for: member.key, among: languages.available) ?? "use tags like \"en\", \"zh\" or \"ja\"")
                    continue
                }
                if !languages.available.contains(member.key) {
                    warning(member.keyOffset, memberPath, "the language \"\(member.key)\" is not in languages.available, so it is never shown",
                            hint: "add it to \"languages\": { \"available\": [...] }")
                }
                variants.append((member.key, text))
            }
            if !variants.isEmpty, !variants.contains(where: { $0.language == languages.fallback }) {
                warning(value.offset, path, "no \"\(languages.fallback)\" text, the fallback language",
                        hint: "languages without a text show the \"\(variants[0].language)\" one instead")
            }
            return variants.isEmpty ? nil : LocalizedString(variants)
        default:
            typeMismatch(value, path: path, expected: "a string or an object of language -> string")
            return nil
        }
    }

    /// Whether `text` is within `DocumentLimits.maximumTextLength`; reports it otherwise.
    private func withinTextLength(_ text: String, offset: Int, path: String) -> Bool {
        let length = text.unicodeScalars.count
        guard length > DocumentLimits.maximumTextLength else { return true }
        error(offset, path, "this text has \(length) characters, more than the \(DocumentLimits.maximumTextLength) a text may have",
              hint: "shorten it, or split it over several text nodes or scenes")
        return false
    }

    func soundReference(_ fields: Fields, sounds: [SoundDefinition], what: String) -> String? {
        guard let name = string(fields, "sound", what: what, required: true), let member = fields["sound"] else { return nil }
        return soundName(name, offset: member.value.offset, path: fields.path("sound"), sounds: sounds)
    }

    /// `name`, written at `offset`, when it is one of `sounds`; else nil after a located error with a did-you-mean.
    func soundName(_ name: String, offset: Int, path: String, sounds: [SoundDefinition]) -> String? {
        usedSounds.insert(name)
        guard sounds.contains(where: { $0.name == name }) else {
            let names = sounds.map(\.name)
            error(offset, path, "no sound named \"\(name)\" in \"sounds\"",
                  hint: Self.suggestion(for: name, among: names)
                      ?? (names.isEmpty ? "add it to the top-level \"sounds\" object" : "the sounds are \(Self.list(names.prefix(12).map { "\"\($0)\"" }, conjunction: "and"))"))
            return nil
        }
        return name
    }

    private func decodeAmbience(_ value: JSONValue, path: String, sounds: [SoundDefinition], scope: SceneScope,
                                sceneDuration: Rational?) -> Ambience? {
        let what = "an ambience"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.ambience) else { return nil }
        let sound = soundReference(fields, sounds: sounds, what: what)
        let gain = number(fields, "gain", default: 1, range: .closed(0, 4), what: what)
        let fade = NumberRange.closed(0, 3600)
        let fadeIn = number(fields, "fadeIn", default: 1, range: fade, what: what, unit: "seconds")
        let fadeOut = number(fields, "fadeOut", default: 1, range: fade, what: what, unit: "seconds")
        let start = fields["start"].map { moment($0.value, path: fields.path("start"), use: .ambienceStart, scope: scope, sceneDuration: sceneDuration) }
        guard let sound, let gain, let fadeIn, let fadeOut, start != .some(nil) else { return nil }
        return Ambience(sound: sound, gain: gain, fadeIn: fadeIn, fadeOut: fadeOut, start: start ?? nil)
    }

    private func decodeCue(_ value: JSONValue, path: String, sounds: [SoundDefinition], scope: SceneScope,
                           sceneDuration: Rational?, ids: inout CueIDs) -> Cue? {
        if case .object(let members) = value.kind, members.contains(where: { $0.key == "stop" }) {
            return decodeStopCue(value, path: path, scope: scope, sceneDuration: sceneDuration, ids: &ids)
        }
        let what = "a cue"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.cue) else { return nil }
        let picked = cueSounds(fields, sounds: sounds)
        let pitch = cuePitch(fields, sounds: picked)
        let gain = number(fields, "gain", default: 1, range: .closed(0, 4), what: what)
        let pan = number(fields, "pan", default: 0, range: .closed(-1, 1), what: what)
        let limit = DocumentLimits.maximumSceneDuration
        let offset = optional(fields, "offset", default: Rational.zero) { self.time($0, path: $1, minimum: -limit, maximum: limit) }
        let trigger = cueTrigger(fields, use: .cue, scope: scope, sceneDuration: sceneDuration, offset: offset)
        let lasting = lastingSound(fields, trigger: trigger, offset: offset, scope: scope, sceneDuration: sceneDuration, ids: &ids)
        let repetition = cueRepetition(fields)
        guard let picked, let pitch, let gain, let pan, let offset, let trigger, let lasting, repetition.valid else { return nil }
        var cue = Cue(sound: picked[0], trigger: trigger, offset: offset, gain: gain, pan: pan, id: lasting.id, loops: lasting.loops,
                      until: lasting.until, fadeOut: lasting.fadeOut, duck: lasting.duck)
        cue.sounds = picked
        cue.pitch = pitch
        cue.repetition = repetition.repetition
        return cue
    }

    /// The moment a cue (or a stop cue, an `until`, an ambience's `start`) names: `at`, or `node` + `animation` + `on`.
    func cueTrigger(_ fields: Fields, use: TriggerUse, scope: SceneScope, sceneDuration: Rational?, offset: Rational?) -> CueTrigger? {
        var trigger: CueTrigger?
        let bound = fields.has("node") || fields.has("animation") || fields.has("on")
        if !nthGoesWithTap(fields, what: use.what) { return nil }
        if let member = fields["tap"] {
            trigger = tapTrigger(fields, member: member, use: use, scope: scope, sceneDuration: sceneDuration, offset: offset)
        } else if let member = fields["marker"] {
            trigger = markerTrigger(fields, member: member, use: use, scope: scope, sceneDuration: sceneDuration, offset: offset)
        } else if let at = fields["at"] {
            if bound {
                let other = fields.members.first { ["node", "animation", "on"].contains($0.key) }!
                error(other.keyOffset, fields.path(other.key), "\(use.what) is either at a time (\"at\") or on an animation (\"node\", \"animation\", \"on\"), not both",
                      hint: "remove \"at\" or the animation binding")
            } else if let time = time(at.value, path: fields.path("at"), minimum: .zero) {
                trigger = .at(time)
                if let sceneDuration, let offset, time + offset >= sceneDuration {
                    warning(at.value.offset, fields.path("at"),
                            "\(use.never): the scene lasts \(Self.seconds(sceneDuration)) s",
                            hint: use.window)
                } else if let offset, time + offset < .zero {
                    warning(at.value.offset, fields.path("at"),
                            "\(use.never): with its offset it falls at \(Self.seconds(time + offset)) s, before the scene starts",
                            hint: use.window)
                }
            }
        } else if bound, bindsLottieNode(fields, scope: scope) {
            trigger = lottieTrigger(fields, use: use, scope: scope, sceneDuration: sceneDuration, offset: offset)
        } else if bound {
            trigger = animationTrigger(fields, use: use, scope: scope, sceneDuration: sceneDuration, offset: offset)
        } else {
            missing("at", in: fields, what: use.what, hint: use.missingHint)
        }
        return trigger
    }

    private func animationTrigger(_ fields: Fields, use: TriggerUse, scope: SceneScope, sceneDuration: Rational?, offset: Rational?) -> CueTrigger? {
        let what = use.boundWhat
        let nodeID = string(fields, "node", what: what, required: true)
        let animationID = string(fields, "animation", what: what, required: true)
        let event = fields["on"].flatMap { animationEvent($0.value, path: fields.path("on")) }
        if fields["on"] == nil {
            missing("on", in: fields, what: what, hint: "when to fire: \"to\", \"from\", \"iteration\" or { \"keyframe\": N }")
        }
        guard let nodeID, let nodeMember = fields["node"] else { return nil }
        // A node or animation that exists but has errors was reported where it is; the cue adds nothing.
        if scope.nodes[nodeID] == nil, scope.nodeOffsets[nodeID] != nil { return nil }
        if scope.nodes[nodeID] == nil, scope.isInsideBrokenInstance(nodeID) { return nil }
        if let animationID, scope.brokenAnimations[nodeID]?.contains(animationID) == true { return nil }
        guard let node = scope.nodes[nodeID] else {
            error(nodeMember.value.offset, fields.path("node"), "no node with id \"\(nodeID)\" in this scene",
                  hint: Self.suggestion(for: nodeID, among: scope.nodeOrder)
                      ?? (scope.nodeOrder.isEmpty ? "give the node an \"id\"" : "the node ids are \(Self.list(scope.nodeOrder.prefix(12).map { "\"\($0)\"" }, conjunction: "and"))"))
            return nil
        }
        guard let animationID, let animationMember = fields["animation"] else { return nil }
        guard let animation = node.animations.first(where: { $0.id == animationID }) else {
            let ids = node.animations.compactMap(\.id)
            error(animationMember.value.offset, fields.path("animation"), "the node \"\(nodeID)\" has no animation with id \"\(animationID)\"",
                  hint: Self.suggestion(for: animationID, among: ids)
                      ?? componentAnimationHint(nodeID: nodeID, animationID: animationID, scope: scope)
                      ?? (ids.isEmpty ? "give one of its animations an \"id\"" : "its animation ids are \(Self.list(ids.map { "\"\($0)\"" }, conjunction: "and"))"))
            return nil
        }
        guard let event, let onMember = fields["on"] else { return nil }
        let start = scope.start(nodeID, animationID, animation)
        let end = scope.endTime(nodeID, animationID, animation)
        var endIsLate = false
        var endText = ""
        if let end, let sceneDuration, let fires = StartResolver.sum(end, offset ?? .zero) {
            endIsLate = fires >= sceneDuration
            endText = "ends at \(Self.seconds(end)) s" + (fires == end ? "" : " (\(Self.seconds(fires)) s with the cue's offset)")
        }
        switch (event, animation.kind) {
        case (.keyframe(let index), .keyframes(let keyframes)):
            if index >= keyframes.count {
                error(onMember.value.offset, fields.path("on"),
                      "keyframe \(index) is out of range: \"\(animationID)\" has \(keyframes.count) keyframes (0 to \(keyframes.count - 1))")
                return nil
            }
        case (.keyframe, .basic):
            error(onMember.value.offset, fields.path("on"), "\"\(animationID)\" is a from/to animation, which has no keyframes",
                  hint: "use \"to\", \"from\" or \"iteration\", or make it a keyframe track")
            return nil
        case (.end, _) where animation.repeatCount == .forever:
            warning(onMember.value.offset, fields.path("on"), "\(use.never): \"\(animationID)\" repeats forever, so it never ends",
                    hint: "give it a \"repeat\" count, or fire on \"to\" or \"iteration\"")
        case _ where sceneDuration.map { start + (offset ?? .zero) >= $0 } ?? false:
            // No event of an animation comes before its start.
            warning(onMember.value.offset, fields.path("on"),
                    "\(use.never): \"\(animationID)\" starts at \(Self.seconds(start)) s, when the scene (\(Self.seconds(sceneDuration!)) s) is over",
                    hint: "shorten the animation's delay or lengthen the scene")
        case (.end, _) where endIsLate:
            warning(onMember.value.offset, fields.path("on"),
                    "\(use.never): \"\(animationID)\" \(endText), when the scene (\(Self.seconds(sceneDuration!)) s) is over",
                    hint: "shorten the animation, or lengthen the scene")
        case (.reachesFrom, _) where !animation.autoreverses:
            warning(onMember.value.offset, fields.path("on"), "\(use.never): \"\(animationID)\" does not autoreverse, so it never arrives back at its start",
                    hint: "use \"iteration\" for the start of each iteration, or set \"autoreverses\": true")
        default:
            break
        }
        return .animation(node: nodeID, animation: animationID, event: event)
    }

    func animationEvent(_ value: JSONValue, path: String) -> AnimationEvent? {
        let names: [(name: String, value: AnimationEvent)] = [("to", .reachesTo), ("from", .reachesFrom), ("iteration", .iterationStart),
                                                               ("end", .end)]
        if case .object = value.kind {
            guard let fields = object(value, path: path, what: "a keyframe event", keys: DocumentKeys.cueKeyframeEvent) else { return nil }
            guard let member = fields["keyframe"] else {
                missing("keyframe", in: fields, what: "a keyframe event", hint: "{ \"keyframe\": 2 } fires as the track passes keyframe 2 (counting from 0)")
                return nil
            }
            return integer(member.value, path: fields.path("keyframe"), range: 0...(DocumentLimits.maximumKeyframes - 1)).map { .keyframe($0) }
        }
        guard case .string = value.kind else {
            typeMismatch(value, path: path, expected: "\"to\", \"from\", \"iteration\", \"end\" or { \"keyframe\": N }")
            return nil
        }
        return choice(value, path: path, options: names, what: "animation event")
    }
}

/// What a scene's cues may refer to: its nodes by id, in file order.
struct SceneScope {
    var nodes: [String: Node] = [:]
    var nodeOffsets: [String: Int] = [:]
    var nodeOrder: [String] = []
    /// Per node id, the ids of its animations that have errors.
    var brokenAnimations: [String: Set<String>] = [:]
    /// The scene's markers, in file order, and every name written (a marker with errors is reported once, where it is).
    var markers: [SceneMarker] = []
    var markerNames: Set<String> = []
    /// Resolved starts of the animations that have ids, by "node/animation" (see `checkStarts`).
    var starts: [String: Rational] = [:]
    /// Resolved starts of the Lottie nodes' playbacks, by node id.
    var lottieStarts: [String: Rational] = [:]
}
