import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaRender
import DioramaTimeline
import Foundation

/// Runs every check of `diorama verify` on a loaded playlist, headless and deterministic: the cues' sound
/// (`AudioVerification`), then the expectations in file order.
public struct Verifier: Sendable {
    public let loaded: LoadedDocument
    public let expectations: Expectations?

    public init(loaded: LoadedDocument, expectations: Expectations?) {
        self.loaded = loaded
        self.expectations = expectations
    }

    public struct Result: Sendable {
        public var checks: [VerificationCheck]
        /// Sounds that did not load, images the renderer could not draw.
        public var warnings: [String]
        public var elapsedSeconds: Double
    }

    /// `report` is called with each check as it is decided (to print as it goes).
    public func run(audio checkAudio: Bool = true, sampleRate: Int = AudioFormat.sampleRate, report: (VerificationCheck) -> Void = { _ in }) -> Result {
        let started = ContinuousClock.now
        let document = loaded.document
        let schedule = CueSchedule(document: document, sampleRate: sampleRate)
        var checks: [VerificationCheck] = []
        var warnings: [String] = []
        func add(_ check: VerificationCheck) {
            checks.append(check)
            report(check)
        }
        if checkAudio {
            let audio = PlaylistAudio(document: document, directory: loaded.baseDirectory, sampleRate: sampleRate)
            warnings += audio.warnings
            AudioVerification(audio: audio, schedule: schedule, lateness: expectations?.lateness ?? AudioVerification.defaultLateness,
                              mediaReferences: loaded.mediaReferences).checks().forEach(add)
        }
        if let expectations {
            let renderer = FrameRenderer(imageDirectory: URL(fileURLWithPath: loaded.baseDirectory, isDirectory: true))
            let evaluator = SceneEvaluator(document: document)
            let mix = LevelMix(expectations: expectations, loaded: loaded, schedule: schedule, sampleRate: sampleRate,
                               loadingSounds: !checkAudio)
            warnings += mix?.warnings ?? []
            for item in expectations.items {
                add(check(item, schedule: schedule, evaluator: evaluator, renderer: renderer, mix: mix))
            }
            warnings += renderer.warnings
        }
        let elapsed = ContinuousClock.now - started
        return Result(checks: checks, warnings: warnings,
                      elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    func check(_ item: Expectations.Item, schedule: CueSchedule, evaluator: SceneEvaluator, renderer: FrameRenderer,
               mix: LevelMix? = nil) -> VerificationCheck {
        let scene = loaded.document.scenes[item.scene]
        let at = item.at.map { "at \($0.decimalDescription) s " } ?? ""
        switch item.kind {
        case .value(let node, let property, let expected, let tolerance):
            let name = "\(at)\(node) \(property.rawValue) is \(Self.number(expected))" + (tolerance > 0 ? " ± \(Self.number(tolerance))" : "")
            guard let found = NodePropertyValues.value(of: property, node: node, in: scene, at: item.at!.doubleValue) else {
                return VerificationCheck(scene: item.sceneID, name: name, passed: false, detail: "the node has no \(property.rawValue) value")
            }
            let passed = abs(found - expected) <= tolerance
            return VerificationCheck(scene: item.sceneID, name: name, passed: passed,
                                     detail: passed ? "found \(Self.number(found))"
                                         : "expected \(Self.number(expected)), found \(Self.number(found)) (off by \(Self.number(abs(found - expected))))")
        case .frame(let golden, let language, let tolerance, let differing):
            let name = "\(at)the frame matches \(URL(fileURLWithPath: golden).lastPathComponent)"
            return FrameComparison.check(scene: item.scene, sceneID: item.sceneID, at: item.at!, golden: golden, language: language,
                                         tolerance: tolerance, differing: differing, name: name, evaluator: evaluator, renderer: renderer)
        case .count(let cue, let expected):
            let name = "\(item.cueLabel ?? "cue \(cue)") (\(scene.cues[cue].sounds.joined(separator: " or "))) fires \(expected) time\(expected == 1 ? "" : "s")"
            let times = schedule.cues.filter { $0.firing.scene == item.scene && $0.firing.cue == cue }
                .map { $0.firing.sceneTime.decimalDescription }
            let list = times.isEmpty ? "" : " (at " + times.prefix(8).joined(separator: ", ") + (times.count > 8 ? ", ..." : "") + " s)"
            return VerificationCheck(scene: item.sceneID, name: name, passed: times.count == expected,
                                     detail: times.count == expected ? "fires \(times.count) time\(times.count == 1 ? "" : "s")\(list)"
                                         : "expected \(expected), found \(times.count)\(list)")
        case .text(let node, let expected, let language):
            let name = "\(at)\(node) shows \(Self.quoted(expected))" + (language.map { " in \($0)" } ?? "")
            let snapshot = evaluator.snapshot(scene: item.scene, at: item.at!.doubleValue, language: language)
            guard case .text(let text)? = Self.node(node, in: snapshot.nodes)?.content else {
                return VerificationCheck(scene: item.sceneID, name: name, passed: false, detail: "the node is not drawn as a text")
            }
            // What a typewriter has revealed so far; the rest is laid out but not drawn.
            let shown = text.visibleCharacters.map { String(text.text.prefix($0)) } ?? text.text
            let revealed = text.visibleCharacters.map { " (\($0) of its \(text.text.count) characters revealed)" } ?? ""
            return VerificationCheck(scene: item.sceneID, name: name, passed: shown == expected,
                                     detail: shown == expected ? "found \(Self.quoted(shown))\(revealed)"
                                         : "expected \(Self.quoted(expected)), found \(Self.quoted(shown))\(revealed)")
        case .lottieFrame(let node, let expected):
            let name = "\(at)\(node) shows Lottie frame \(expected)"
            let snapshot = evaluator.snapshot(scene: item.scene, at: item.at!.doubleValue, includeParticles: false)
            guard case .lottie(let lottie)? = Self.node(node, in: snapshot.nodes)?.content else {
                return VerificationCheck(scene: item.sceneID, name: name, passed: false, detail: "the node is not drawn as a Lottie animation")
            }
            return VerificationCheck(scene: item.sceneID, name: name, passed: lottie.frame == expected,
                                     detail: lottie.frame == expected ? "found frame \(lottie.frame)"
                                         : "expected frame \(expected), found frame \(lottie.frame) (off by \(abs(lottie.frame - expected)))")
        case .level(let expected, let measure, let window, let tolerance):
            let name = "\(at)the \(measure.rawValue) level over \(window.decimalDescription) s is \(Self.number(expected)) ± \(Self.number(tolerance)) dBFS"
            guard let mix, let found = mix.level(scene: item.scene, at: item.at!, window: window, measure: measure) else {
                return VerificationCheck(scene: item.sceneID, name: name, passed: false, detail: "the mix could not be made")
            }
            let shown = found <= Expectations.silence ? "silence (below \(Self.number(Expectations.silence)) dBFS)"
                : String(format: "%.2f dBFS", found)
            let passed = abs(found - expected) <= tolerance
            return VerificationCheck(scene: item.sceneID, name: name, passed: passed,
                                     detail: passed ? "found \(shown)"
                                         : "expected \(Self.number(expected)) dBFS, found \(shown) (off by \(String(format: "%.2f", abs(found - expected))) dB)")
        }
    }

    /// The node with this id in a snapshot's tree.
    static func node(_ id: String, in nodes: [NodeSnapshot]) -> NodeSnapshot? {
        for node in nodes {
            if node.id == id { return node }
            if case .group(let children) = node.content, let found = Self.node(id, in: children) { return found }
        }
        return nil
    }

    /// `"Hello"`, with quotes and newlines escaped so the check stays on one line.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// Up to 6 decimals, without trailing zeros.
    static func number(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

/// A rendered frame against a golden PNG, with the tolerance scheme of the project's own golden tests.
enum FrameComparison {
    static func check(scene: Int, sceneID: String, at: Rational, golden: String, language: String?, tolerance: Int,
                      differing: Double, name: String, evaluator: SceneEvaluator, renderer: FrameRenderer) -> VerificationCheck {
        let goldenURL = URL(fileURLWithPath: golden)
        let base = goldenURL.deletingPathExtension()
        let actualURL = URL(fileURLWithPath: base.path + "-actual.png"), diffURL = URL(fileURLWithPath: base.path + "-diff.png")
        func failed(_ detail: String) -> VerificationCheck { VerificationCheck(scene: sceneID, name: name, passed: false, detail: detail) }
        let expected: RenderedFrame
        do {
            // A golden is at most the largest canvas: a larger one would cost seconds and gigabytes to decode and compare.
            expected = try RenderedFrame(contentsOfPNG: goldenURL, maximumSide: Int(DocumentLimits.maximumCanvasSide))
        } catch {
            // No golden yet: write what the frame looks like, so it can be looked at and accepted. A golden that is
            // there but unusable (a named pipe, too large) says why. The error names the path; the message names it once.
            let described = "\(error)"
            let reason = described.hasPrefix(golden + ": ") ? String(described.dropFirst(golden.count + 2)) : described
            let unreadable = "cannot read the golden \(golden) (\(reason))"
            let actual: RenderedFrame
            do {
                actual = try render(scene, at, language, width: 320, height: 180, evaluator, renderer)
            } catch {
                return failed("\(unreadable); cannot render the frame: \(error)")
            }
            if let problem = write(actual, to: actualURL) { return failed("\(unreadable); \(problem)") }
            return failed("\(unreadable); wrote the frame at 320x180 to \(actualURL.path): look at it, and rename it to accept it")
        }
        let actual: RenderedFrame
        do {
            actual = try render(scene, at, language, width: expected.width, height: expected.height, evaluator, renderer)
        } catch {
            return failed("cannot render the frame: \(error)")
        }
        var worst = 0, noticeable = 0
        var diff = RenderedFrame(width: actual.width, height: actual.height)
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let a = actual.pixel(x: x, y: y), e = expected.pixel(x: x, y: y)
                var pixelWorst = 0
                for shift in [UInt32(16), 8, 0] {
                    pixelWorst = max(pixelWorst, abs(Int((a >> shift) & 0xFF) - Int((e >> shift) & 0xFF)))
                }
                let i = y * diff.stride + 4 * x
                // Differences amplified eight times, grey on black.
                let level = UInt8(min(255, pixelWorst * 8))
                diff.bytes[i] = level
                diff.bytes[i + 1] = level
                diff.bytes[i + 2] = level
                diff.bytes[i + 3] = 255
                worst = max(worst, pixelWorst)
                if pixelWorst > 2 { noticeable += 1 }
            }
        }
        let share = 100 * Double(noticeable) / Double(max(actual.width * actual.height, 1))
        let summary = "largest channel difference \(worst) (at most \(tolerance)), "
            + String(format: "%.2f %% of pixels off by more than 2 (at most %@ %%)", share, Verifier.number(differing))
        guard worst > tolerance || share > differing else {
            return VerificationCheck(scene: sceneID, name: name, passed: true, detail: summary)
        }
        if let problem = write(actual, to: actualURL) ?? write(diff, to: diffURL) { return failed(summary + "; " + problem) }
        return failed(summary + "; wrote \(actualURL.path) and \(diffURL.path)")
    }

    /// Writes `frame` as a PNG at `url`, making its folder first (a `verify/` folder need not exist yet); nil when
    /// written, else why not.
    private static func write(_ frame: RenderedFrame, to url: URL) -> String? {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try frame.writePNG(to: url, replacing: true)
            return nil
        } catch {
            let described = (error as? RenderError)?.description ?? error.localizedDescription
            let reason = described.hasPrefix(url.path + ": ") ? String(described.dropFirst(url.path.count + 2)) : described
            return "cannot write \(url.path): \(reason)"
        }
    }

    private static func render(_ scene: Int, _ at: Rational, _ language: String?, width: Int, height: Int,
                               _ evaluator: SceneEvaluator, _ renderer: FrameRenderer) throws -> RenderedFrame {
        try renderer.render(evaluator.snapshot(scene: scene, at: at.doubleValue, language: language), width: width, height: height)
    }
}

/// The offline mix the level expectations measure: the playlist played once, from its first sample (so the limiter,
/// the ducks and the scene gains are in the state the player has them in) to the end of the last window measured.
struct LevelMix {
    let samples: [Float]
    let sampleRate: Int
    let schedule: CueSchedule
    let warnings: [String]

    /// Nil when no expectation measures a level. `loadingSounds`: the sounds' warnings are this mix's to give (the
    /// sound checks, which give them otherwise, are skipped).
    init?(expectations: Expectations, loaded: LoadedDocument, schedule: CueSchedule, sampleRate: Int, loadingSounds: Bool) {
        var end: Int64 = 0
        for item in expectations.items {
            guard case .level(_, _, let window, _) = item.kind, let at = item.at else { continue }
            end = max(end, Self.span(scene: item.scene, at: at, window: window, schedule: schedule, sampleRate: sampleRate).upperBound)
        }
        guard end > 0 else { return nil }
        let audio = PlaylistAudio(document: loaded.document, directory: loaded.baseDirectory, sampleRate: sampleRate)
        samples = OfflineAudio.mix(commands: audio.commands(playingOnce: schedule), sounds: audio.bank.sounds, span: 0..<end,
                                   configuration: MixerConfiguration(sampleRate: sampleRate))
        self.sampleRate = sampleRate
        self.schedule = schedule
        warnings = loadingSounds ? audio.warnings : []
    }

    /// Playlist frames `at ..< at + window` of the scene: from the first sample at or after each end, as a cue's.
    static func span(scene: Int, at: Rational, window: Rational, schedule: CueSchedule, sampleRate: Int) -> Range<Int64> {
        let rate = Rational(sampleRate)
        let scene = schedule.scenes[scene]
        let from = Int64(clamping: ((scene.start + at) * rate).ceiling)
        let to = Int64(clamping: ((scene.start + at + window) * rate).ceiling)
        return from..<max(to, from + 1)
    }

    /// The level of the window in dBFS, both channels together; `Expectations.silence` at the quietest.
    func level(scene: Int, at: Rational, window: Rational, measure: Expectations.LevelMeasure) -> Double? {
        let span = Self.span(scene: scene, at: at, window: window, schedule: schedule, sampleRate: sampleRate)
        guard span.upperBound * 2 <= Int64(samples.count) else { return nil }
        let values = samples[Int(span.lowerBound * 2)..<Int(span.upperBound * 2)]
        let amplitude: Double
        switch measure {
        case .rms: amplitude = (values.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(values.count)).squareRoot()
        case .peak: amplitude = Double(values.reduce(Float(0)) { max($0, abs($1)) })
        }
        guard amplitude > 0 else { return Expectations.silence }
        return max(20 * log10(amplitude), Expectations.silence)
    }
}
