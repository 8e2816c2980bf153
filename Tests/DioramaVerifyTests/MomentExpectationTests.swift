import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
@testable import DioramaVerify
import Foundation
import Testing

/// Expectations about one moment beyond a number: a text's string, a Lottie's frame, the mix's level; each passes and
/// fails when it should, and each mistake is located with a hint. And a golden frame's folder made when missing.
@Suite struct MomentExpectationTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try VerifyFixtures.folder()
        try Data(LottieFixtures.json(markers: [("impact", 30, 0)]).utf8).write(to: folder.url.appendingPathComponent("square.json"))
    }

    /// A 3-second scene "type": "Hello" typed out over its first second, a counter counting to 1250 over two seconds,
    /// a 30 fps Lottie square starting at 0.5 s, and a bell at 1 s (loud from its first sample, 0.5 peak, decaying).
    static let json = """
        { "canvas": { "width": 160, "height": 90, "background": "#102030" },
          "languages": { "default": "en", "fallback": "en", "available": ["en", "ja"] },
          "sounds": { "bell": "bell.flac" },
          "scenes": [{
            "id": "type", "duration": 3,
            "cues": [{ "sound": "bell", "at": 1 }],
            "nodes": [
              { "type": "text", "id": "heading", "text": { "en": "Hello", "ja": "こんにちは" }, "x": 10, "y": 10, "font": { "size": 12 },
                "animations": [{ "property": "reveal", "from": 0, "to": 1, "duration": 1, "curve": "linear" }] },
              { "type": "text", "id": "score", "text": "{value} points", "value": 0, "x": 10, "y": 40, "font": { "size": 12 },
                "animations": [{ "property": "value", "from": 0, "to": 1250, "duration": 2, "curve": "linear" }] },
              { "type": "lottie", "id": "square", "path": "square.json", "x": 100, "y": 10, "width": 40, "height": 40, "delay": 0.5 },
              { "type": "rect", "id": "floor", "x": 0, "y": 80, "width": 160, "height": 10, "fill": "#203040" }
            ]
          }]
        }
        """

    private func run(_ expectations: String, audio: Bool = false) throws -> [VerificationCheck] {
        let loaded = try VerifyFixtures.load(Self.json, in: folder)
        let parsed = try Expectations.decode(bytes: Array(expectations.utf8), path: folder.path("scenes.verify.json"), for: loaded.document)
        return Verifier(loaded: loaded, expectations: parsed).run(audio: audio).checks
    }

    private func problems(_ expectations: String) throws -> [String] {
        let loaded = try VerifyFixtures.load(Self.json, in: folder)
        do {
            _ = try Expectations.decode(bytes: Array(expectations.utf8), path: "type.verify.json", for: loaded.document)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aTextShowsWhatTheTypewriterRevealedAndTheCounterWrote() throws {
        let checks = try run("""
            { "expect": [
              { "scene": "type", "at": 0.6, "node": "heading", "text": "Hel" },
              { "scene": "type", "at": 0.6, "node": "heading", "text": "Hell" },
              { "scene": "type", "at": 2, "node": "heading", "text": "こんにちは", "language": "ja" },
              { "scene": "type", "at": 1, "node": "score", "text": "625 points" },
              { "scene": "type", "at": 2.5, "node": "score", "text": "1,250 points" }
            ] }
            """)
        #expect(checks.map(\.passed) == [true, false, true, true, true], "\(checks.map(\.line))")
        #expect(checks[0].line == #"ok    type: at 0.6 s heading shows "Hel": found "Hel" (3 of its 5 characters revealed)"#)
        #expect(checks[1].line == #"FAIL  type: at 0.6 s heading shows "Hell": expected "Hell", found "Hel" (3 of its 5 characters revealed)"#)
        #expect(checks[2].line == #"ok    type: at 2 s heading shows "こんにちは" in ja: found "こんにちは""#)
    }

    @Test func aLottieShowsItsFrameOnTheSceneClock() throws {
        // 30 fps from 0.5 s: frame 30 appears at 1.5 s exactly, frame 29 shows until then; before the start, frame 0.
        let checks = try run("""
            { "expect": [
              { "scene": "type", "at": 1.5, "node": "square", "lottieFrame": 30 },
              { "scene": "type", "at": 1.49, "node": "square", "lottieFrame": 30 },
              { "scene": "type", "at": 0.2, "node": "square", "lottieFrame": 0 }
            ] }
            """)
        #expect(checks.map(\.passed) == [true, false, true], "\(checks.map(\.line))")
        #expect(checks[0].line == "ok    type: at 1.5 s square shows Lottie frame 30: found frame 30")
        #expect(checks[1].line == "FAIL  type: at 1.49 s square shows Lottie frame 30: expected frame 30, found frame 29 (off by 1)")
    }

    @Test func aLevelMeasuresTheOfflineMix() throws {
        // Before the bell: silence. The bell starts at 1 s at 0.5 of full scale (its gain normalised by the bank), its
        // peak in the first 10 ms about -6 dBFS; its RMS a few dB lower; later it has decayed.
        let checks = try run("""
            { "expect": [
              { "scene": "type", "at": 0.5, "level": -120, "tolerance": 0 },
              { "scene": "type", "at": 1, "level": -6, "measure": "peak", "window": 0.01, "tolerance": 3 },
              { "scene": "type", "at": 1, "level": -9, "window": 0.01, "tolerance": 3 },
              { "scene": "type", "at": 1, "level": -40, "window": 0.01, "tolerance": 3 },
              { "scene": "type", "at": 2, "level": -9, "measure": "peak", "window": 0.05, "tolerance": 3 }
            ] }
            """)
        #expect(checks.map(\.passed) == [true, true, true, false, false], "\(checks.map(\.line))")
        #expect(checks[0].line == "ok    type: at 0.5 s the rms level over 0.05 s is -120 ± 0 dBFS: found silence (below -120 dBFS)")
        #expect(checks[3].detail.hasPrefix("expected -40 dBFS, found -"), "\(checks[3].detail)")
        // The same mix as the sound checks: running them too changes nothing.
        #expect(try run(#"{ "expect": [{ "scene": "type", "at": 1, "level": -6, "measure": "peak", "window": 0.01, "tolerance": 3 }] }"#,
                        audio: true).last?.passed == true)
    }

    @Test func theLevelIsTheMixsOwnNumber() throws {
        // The peak found is the largest sample of the mix in the window, to the hundredth of a dB.
        let loaded = try VerifyFixtures.load(Self.json, in: folder)
        let parsed = try Expectations.decode(bytes: Array(#"{ "expect": [{ "scene": "type", "at": 1, "level": 0, "measure": "peak", "window": 0.01 }] }"#.utf8),
                                             path: folder.path("scenes.verify.json"), for: loaded.document)
        let schedule = CueSchedule(document: loaded.document, sampleRate: 48_000)
        let mix = try #require(LevelMix(expectations: parsed, loaded: loaded, schedule: schedule, sampleRate: 48_000, loadingSounds: true))
        let window = mix.samples[(48_000 * 2)..<(48_480 * 2)]
        let peak = 20 * log10(Double(window.map(abs).max()!))
        #expect(mix.level(scene: 0, at: Rational(1), window: Rational(1, 100), measure: .peak) == peak)
        #expect(peak > -7 && peak < -5, "the bell's first samples are about half of full scale")
        #expect(mix.samples[..<(48_000 * 2)].allSatisfy { $0 == 0 }, "nothing sounds before the bell")
    }

    @Test func mistakesAreLocatedWithHints() throws {
        let found = try problems("""
            { "expect": [
              { "scene": "type", "at": 1, "node": "floor", "text": "x" },
              { "scene": "type", "at": 1, "node": "headng", "text": "x" },
              { "scene": "type", "at": 1, "node": "square", "lottieFrame": 60 },
              { "scene": "type", "at": 1, "node": "heading", "lottieFrame": 3 },
              { "scene": "type", "at": 2.98, "level": -6 },
              { "scene": "type", "at": 1, "level": 3, "window": 0, "measure": "peek" },
              { "scene": "type", "at": 1, "node": "heading", "property": "text", "value": 1 }
            ] }
            """)
        #expect(found == [
            "type.verify.json:2:39: error: \"floor\" is a shape node, not a text node (at expect[0].node)\n"
                + "  hint: its text nodes with ids are \"heading\" and \"score\"",
            "type.verify.json:3:39: error: no text node \"headng\" in the scene \"type\" (at expect[1].node)\n"
                + "  hint: did you mean \"heading\"? its text nodes with ids are \"heading\" and \"score\"",
            "type.verify.json:4:64: error: frame 60 is not in the Lottie file \"square.json\", whose frames are 0 to 59 (at expect[2].lottieFrame)\n"
                + "  hint: frames are the file's own numbers, from its \"ip\" up to, not including, its \"op\"",
            "type.verify.json:5:39: error: \"heading\" is a text node, not a lottie node (at expect[3].node)\n"
                + "  hint: its lottie nodes with ids are \"square\"",
            "type.verify.json:6:28: error: the window of 0.05 s from 2.98 s runs past the end of the scene \"type\" (3 s) (at expect[4].at)\n"
                + "  hint: measure from 2.95 s at the latest, or shorten \"window\"",
            "type.verify.json:7:40: error: \"level\" must be at most 0, not 3 (at expect[5].level)",
            "type.verify.json:7:53: error: \"window\" must be from 0.001 to 10 seconds, not 0 (at expect[5].window)",
            "type.verify.json:7:67: error: \"measure\" must be \"rms\" or \"peak\", not \"peek\" (at expect[5].measure)\n"
                + "  hint: did you mean \"peak\"? the measures are \"rms\" and \"peak\"",
            "type.verify.json:8:62: error: the property \"text\" is not a number, which is all verify compares (at expect[6].property)\n"
                + "  hint: a text's string is checked with \"text\": { \"scene\": ..., \"at\": ..., \"node\": ..., \"text\": \"Hello\" }",
        ], "\(found.joined(separator: "\n"))")
    }

    @Test func aMissingGoldensFolderIsMadeAndTheMessageNamesThePathOnce() throws {
        let checks = try run(#"{ "expect": [{ "scene": "type", "at": 0.5, "frame": "verify/type-0.5.png" }] }"#)
        let golden = folder.path("verify/type-0.5.png"), actual = folder.path("verify/type-0.5-actual.png")
        #expect(checks[0].detail == "cannot read the golden \(golden) (no such file); wrote the frame at 320x180 to \(actual): "
                    + "look at it, and rename it to accept it")
        let frame = try RenderedFrame(contentsOfPNG: URL(fileURLWithPath: actual))
        #expect(frame.width == 320 && frame.height == 180)
        #expect(checks[0].detail.components(separatedBy: golden).count == 2, "the golden's path once")
    }
}
