import ArgumentParser
import DioramaAudio
import DioramaDocument
import DioramaPlayer
import DioramaRender
import DioramaTimeline
import Foundation

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a scenes file and report every problem with its line, column and JSON path.",
        discussion: """
            Checks the JSON syntax, unknown keys (with "did you mean ...?"), types, ranges, duplicate \
            ids, references from cues and ambience to nodes, animations and sounds, components and their \
            parameters (and components that place themselves), keyframe order, \
            the limits that protect the machine, that every sound and image file exists and can be read, \
            that every sound decodes (with libsndfile, as the player reads it), that every SVG parses safely \
            (nothing fetched, nothing read outside the scenes file's folder) and has the elements named, and \
            that every sprite sheet's grid divides its PNG.

            On success prints one line, `ok: N scenes, M cues, total D s`, and exits 0. Otherwise \
            prints each problem as `FILE:LINE:COLUMN: error: MESSAGE (at PATH)`, with a `hint:` line \
            where one helps, and exits 2. Warnings (a cue that can never fire, an unused sound) are \
            printed but do not fail the check.

            Example:
              $ diorama check scenes.json
              ok: 3 scenes, 14 cues, total 72 s
              $ diorama check broken.json
              broken.json:12:9: error: unknown key "widht" in a rect node (at scenes[0].nodes[1].widht)
                hint: did you mean "width"?
            """
    )

    @Argument(help: "The scenes file to check.")
    var file: String = "scenes.json"

    func run() async throws {
        let loaded: LoadedDocument
        do {
            loaded = try DocumentLoader.load(path: file, archives: DotLottieArchive.read)
        } catch {
            // Sound and image files are checked even when the document has errors, so one run reports everything.
            writeDiagnostics(withMediaProblems(error.diagnostics, references: error.mediaReferences))
            throw ExitCode(2)
        }
        var diagnostics = withMediaProblems(loaded.warnings + sceneEndWarnings(loaded) + chromeWarnings(loaded), references: loaded.mediaReferences,
                                            document: loaded.document)
        if !diagnostics.contains(where: { $0.severity == .error }) {
            diagnostics = Self.inFileOrder(diagnostics + loudnessWarnings(loaded))
        }
        writeDiagnostics(diagnostics)
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(2) }
        let document = loaded.document
        let cues = document.scenes.reduce(0) { $0 + $1.cues.count }
        // The fixed shape `ok: N scenes, M cues, total D s`, so scripts can read it.
        print("ok: \(document.scenes.count) scenes, \(cues) cues, total \(PlaylistClock(document: document).length.decimalDescription) s")
    }

    /// `diagnostics` with the problems of the media files `references` name, in file order (as the loader's own are).
    /// With `document` (a file without errors), also the leading silence of the sounds its cues play.
    private func withMediaProblems(_ diagnostics: [Diagnostic], references: [MediaReference], document: Document? = nil) -> [Diagnostic] {
        let fileProblems = DocumentLoader.mediaFileDiagnostics(for: references)
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.path
        return Self.inFileOrder(diagnostics + fileProblems + soundDecodingDiagnostics(references, skipping: fileProblems, document: document)
                                + ArtChecks.diagnostics(for: references, root: folder, skipping: fileProblems))
    }

    /// By line and column; problems at one place in the order found.
    private static func inFileOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            (lhs.element.line, lhs.element.column, lhs.offset) < (rhs.element.line, rhs.element.column, rhs.offset)
        }.map(\.element)
    }

    /// With a loudness target: a warning at each scene that plays more than `loudnessTolerance` LU from it, measured
    /// with its gain as the player plays it, saying what holds it back (its true peak, the most gain a scene gets).
    private func loudnessWarnings(_ loaded: LoadedDocument) -> [Diagnostic] {
        guard let target = loaded.document.loudness else { return [] }
        let audio = PlaylistAudio(document: loaded.document, directory: loaded.baseDirectory)
        // Only the integrated loudness is judged here (the gains read their own true peaks): `check` took 2.9 s on
        // the shipped playlist, most of it in true peaks.
        let played = audio.sceneLoudness(truePeak: false)
        let root = locatedDocument(loaded)
        return played.indices.compactMap { index in
            let scene = loaded.document.scenes[index]
            let gain = audio.sceneGains[index]
            guard let (message, hint) = Self.loudnessProblem(scene: scene, gain: gain, played: played[index], target: target) else {
                return nil
            }
            let located = root?["scenes"].flatMap { $0.element(index) } ?? root
            return Diagnostic(file: loaded.path, line: located?.line ?? 1, column: located?.column ?? 1,
                              path: located?.path ?? "scenes[\(index)]", message: message, hint: hint, severity: .warning)
        }
    }

    /// How far from the target a scene may play before `check` says so, in LU (EBU R128's tolerance for live programmes).
    static let loudnessTolerance = 1.0

    /// What to say about a scene that plays at `played` with `gain` against `target` (LUFS), nil when it is close enough
    /// or has no sound to level.
    static func loudnessProblem(scene: Scene, gain: SceneGain, played: LoudnessFigure,
                                target: Double) -> (message: String, hint: String)? {
        let name = "the scene \"\(scene.id)\""
        let targetText = "the playlist's loudness target (\(SceneLoudnessReport.tenths(target)) LUFS)"
        guard let integrated = played.integrated else {
            guard !scene.ambience.isEmpty || !scene.cues.isEmpty else { return nil }
            return ("\(name) is silent (below EBU R128's -70 LUFS gate), so no gain brings it to \(targetText)",
                    "give its ambience or cues more gain, or check that their sounds are not silent")
        }
        let distance = target - integrated
        guard abs(distance) > loudnessTolerance else { return nil }
        let side = distance > 0 ? "short of" : "above"
        let figure = "\(name) plays at \(SceneLoudnessReport.tenths(integrated)) LUFS, \(SceneLoudnessReport.tenths(abs(distance))) LU \(side) \(targetText)"
        switch gain.limit {
        case .truePeak:
            return ("\(figure) because of its peaks: its mix peaks at \(gain.measured.truePeakDescription) dBTP, so it is raised only "
                        + "\(SceneLoudnessReport.tenths(gain.decibels)) dB to keep its true peak at most -1 dBTP",
                    "lower the gain of its loudest, shortest sound (a bell, a click) or raise its ambience, so the scene is loud "
                        + "without high peaks")
        case .maximumGain:
            return ("\(figure): its mix (\(gain.measured.integratedDescription) LUFS) would need more than the "
                        + "+\(Int(SceneGain.maximumDecibels)) dB a scene is raised at most",
                    "raise the gains of its ambience and cues (or of their sounds) so its mix is within 20 dB of the target")
        case .silent, nil:
            return ("\(figure) after its gain of \(SceneLoudnessReport.tenths(gain.decibels)) dB",
                    "its loudness changes over the scene more than one gain can follow; even out its ambience and cues")
        }
    }

    /// The scenes file parsed with the line and column of every value, for warnings the document's model cannot
    /// locate (parsed only by the warnings that find something to say).
    private func locatedDocument(_ loaded: LoadedDocument) -> LocatedJSON? {
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))).map { [UInt8]($0) } ?? []
        return try? LocatedJSON.parse(bytes: bytes, file: loaded.path).get()
    }

    /// A warning at each `languages.chrome` string the player has no English string for (it would be ignored, and
    /// the chrome would stay in English there), and at each translation that leaves out the `{n}` or `{reason}` its
    /// English string fills in.
    private func chromeWarnings(_ loaded: LoadedDocument) -> [Diagnostic] {
        guard !loaded.document.languages.chrome.isEmpty else { return [] }
        guard case .object(let languages)? = locatedDocument(loaded)?["languages"]?["chrome"]?.kind else { return [] }
        let english = ChromeText.englishStrings
        var warnings: [Diagnostic] = []
        for language in languages {
            guard case .object(let strings) = language.value.kind else { continue }
            for entry in strings {
                let path = LocatedJSON.path(language.value.path, key: entry.key)
                guard english.contains(entry.key) else {
                    warnings.append(Diagnostic(
                        file: loaded.path, line: entry.keyLine, column: entry.keyColumn, path: path,
                        message: "the player's chrome has no English string \"\(entry.key)\" to translate, so this is never shown",
                        hint: Suggestion.hint(for: entry.key, among: english, listing: "its strings are")
                            ?? "the English strings are those of the key help (?) and the toasts", severity: .warning))
                    continue
                }
                guard case .string(let translation) = entry.value.kind else { continue }
                for placeholder in ["{n}", "{reason}"] where entry.key.contains(placeholder) && !translation.contains(placeholder) {
                    warnings.append(Diagnostic(
                        file: loaded.path, line: entry.value.line, column: entry.value.column, path: path,
                        message: "the translation of \"\(entry.key)\" leaves out \(placeholder), so the player's \(placeholder == "{n}" ? "number" : "reason") is not shown",
                        hint: "put \(placeholder) where it belongs in the sentence", severity: .warning))
                }
            }
        }
        return warnings
    }

    /// A warning for each cue firing in the last sample period of its scene, which never sounds
    /// (`CueSchedule.soundsInside`), located at the cue.
    private func sceneEndWarnings(_ loaded: LoadedDocument) -> [Diagnostic] {
        let rate = Render.audioSampleRate
        let late = CueSchedule(document: loaded.document, sampleRate: rate).firingsAtSceneEnd
        guard !late.isEmpty else { return [] }
        let root = locatedDocument(loaded)
        var warned = Set<[Int]>()
        return late.compactMap { cue in
            let firing = cue.firing
            guard warned.insert([firing.scene, firing.cue]).inserted else { return nil }
            var located = root?["scenes"].flatMap { $0.element(firing.scene) }?["cues"].flatMap { $0.element(firing.cue) }
            located = located ?? root
            let duration = loaded.document.scenes[firing.scene].duration
            let left = duration - firing.sceneTime
            return Diagnostic(file: loaded.path, line: located?.line ?? 1, column: located?.column ?? 1,
                              path: located?.path ?? "scenes[\(firing.scene)].cues[\(firing.cue)]",
                              message: "this cue never sounds: at \(firing.sceneTime.decimalDescription) s it falls "
                                  + "\(left.decimalDescription) s before the end of the scene (\(duration.decimalDescription) s), "
                                  + "within its last sample (1/\(rate) s), where its sample can be the next scene's first",
                              hint: "a cue sounds only with at least one sample of its scene after it: move it earlier, or lengthen the scene",
                              severity: .warning)
        }
    }

    /// Decodes each sound that exists with libsndfile (as the player will), reporting libsndfile's reason
    /// when it refuses; files already reported as missing or unreadable are skipped. With `document`, warns about
    /// a cue's sound that starts with silence (`LeadingSilence`).
    private func soundDecodingDiagnostics(_ references: [MediaReference], skipping reported: [Diagnostic], document: Document?) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var decoded = Set<String>()
        for reference in references {
            guard case .sound(let name) = reference.kind else { continue }
            // A sound inside a dotLottie archive was unpacked with the document: its bytes are decoded, one per sound
            // (without the document, its archive's problem is reported already).
            let definition = document?.sounds.first { $0.name == name }
            if definition?.embedded == nil, reference.path.lowercased().hasSuffix(".lottie") { continue }
            let key = definition?.embedded == nil ? reference.resolvedPath : reference.resolvedPath + "/" + (definition?.path ?? "")
            guard !decoded.contains(key), !reported.contains(where: { $0.line == reference.line && $0.column == reference.column }) else { continue }
            decoded.insert(key)
            do {
                let rate = Render.audioSampleRate
                let sound = try SoundFile.load(name: name, path: reference.resolvedPath, bytes: definition?.embedded, sampleRate: rate)
                if let document, let warning = LeadingSilence.warning(for: reference, sound: sound, sampleRate: rate, in: document) {
                    diagnostics.append(warning)
                }
            } catch {
                diagnostics.append(reference.diagnostic("the sound \"\(name)\" file \"\(definition?.path ?? reference.path)\" cannot be decoded: \(error.reason)",
                                                        hint: error.hint))
            }
        }
        return diagnostics
    }

}
