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
            for item in expectations.items {
                add(check(item, schedule: schedule, evaluator: evaluator, renderer: renderer))
            }
            warnings += renderer.warnings
        }
        let elapsed = ContinuousClock.now - started
        return Result(checks: checks, warnings: warnings,
                      elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    func check(_ item: Expectations.Item, schedule: CueSchedule, evaluator: SceneEvaluator, renderer: FrameRenderer) -> VerificationCheck {
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
            let name = "\(item.cueLabel ?? "cue \(cue)") (\(scene.cues[cue].sound)) fires \(expected) time\(expected == 1 ? "" : "s")"
            let times = schedule.cues.filter { $0.firing.scene == item.scene && $0.firing.cue == cue }
                .map { $0.firing.sceneTime.decimalDescription }
            let list = times.isEmpty ? "" : " (at " + times.prefix(8).joined(separator: ", ") + (times.count > 8 ? ", ..." : "") + " s)"
            return VerificationCheck(scene: item.sceneID, name: name, passed: times.count == expected,
                                     detail: times.count == expected ? "fires \(times.count) time\(times.count == 1 ? "" : "s")\(list)"
                                         : "expected \(expected), found \(times.count)\(list)")
        }
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
            // there but unusable (a named pipe, too large) says why.
            let reason = "\(error)".hasPrefix(golden + ": ") ? ": " + "\(error)".dropFirst(golden.count + 2) : ""
            let size = FileManager.default.fileExists(atPath: golden) ? reason : " (no such file)"
            guard let actual = try? render(scene, at, language, width: 320, height: 180, evaluator, renderer),
                  (try? actual.writePNG(to: actualURL, replacing: true)) != nil else {
                return failed("cannot read the golden \(golden)\(size): \(error)")
            }
            return failed("cannot read the golden \(golden)\(size); wrote the frame at 320x180 to \(actualURL.path): "
                          + "look at it, and rename it to accept it")
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
        let written = (try? actual.writePNG(to: actualURL, replacing: true)) != nil && (try? diff.writePNG(to: diffURL, replacing: true)) != nil
        return failed(summary + (written ? "; wrote \(actualURL.path) and \(diffURL.path)" : "; could not write the actual frame beside the golden"))
    }

    private static func render(_ scene: Int, _ at: Rational, _ language: String?, width: Int, height: Int,
                               _ evaluator: SceneEvaluator, _ renderer: FrameRenderer) throws -> RenderedFrame {
        try renderer.render(evaluator.snapshot(scene: scene, at: at.doubleValue, language: language), width: width, height: height)
    }
}
