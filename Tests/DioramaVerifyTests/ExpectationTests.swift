import DioramaDocument
import DioramaRender
import DioramaTestSupport
@testable import DioramaVerify
import Foundation
import FoundationXML
import Testing

/// The expectations file: values, golden frames and cue counts, passing and failing; located errors; the JUnit report.
@Suite struct ExpectationTests {
    let folder: TemporaryFolder

    init() throws { folder = try VerifyFixtures.folder() }

    private func run(_ expectations: String) throws -> [VerificationCheck] {
        let loaded = try VerifyFixtures.load(VerifyFixtures.json(), in: folder)
        let parsed = try Expectations.decode(bytes: Array(expectations.utf8), path: folder.path("scenes.verify.json"), for: loaded.document)
        return Verifier(loaded: loaded, expectations: parsed).run(audio: false).checks
    }

    private func problems(_ expectations: String) throws -> [String] {
        let loaded = try VerifyFixtures.load(VerifyFixtures.json(), in: folder)
        do {
            _ = try Expectations.decode(bytes: Array(expectations.utf8), path: "pond.verify.json", for: loaded.document)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func valuesPassWithinTheirToleranceAndFailOutsideIt() throws {
        let checks = try run("""
            { "expect": [
              { "scene": "pond", "at": 0.5, "node": "disc", "property": "rotation", "value": 45 },
              { "scene": "pond", "at": 0.25, "node": "disc", "property": "rotation", "value": 22, "tolerance": 0.5 },
              { "scene": "pond", "at": 0.5, "node": "disc", "property": "rotation", "value": 40, "tolerance": 1 },
              { "scene": "pond", "at": 1.5, "node": "disc", "property": "opacity", "value": 1 }
            ] }
            """)
        #expect(checks.map(\.passed) == [true, true, false, true])
        #expect(checks[0].line == "ok    pond: at 0.5 s disc rotation is 45 ± 0.001: found 45")
        #expect(checks[2].line == "FAIL  pond: at 0.5 s disc rotation is 40 ± 1: expected 40, found 45 (off by 5)")
    }

    @Test func cueCountsByIdOrIndex() throws {
        let checks = try run("""
            { "expect": [
              { "scene": "pond", "cue": "ding", "fires": 1 },
              { "scene": "pond", "cue": 2, "fires": 1 },
              { "scene": "pond", "cue": 2, "fires": 2 }
            ] }
            """)
        #expect(checks.map(\.passed) == [true, true, false])
        #expect(checks[0].line == "ok    pond: cue \"ding\" (bell) fires 1 time: fires 1 time (at 0.5 s)")
        #expect(checks[2].detail == "expected 2, found 1 (at 2 s)")
    }

    @Test func aGoldenFrameMatchesAndAMovedNodeFailsWithTheActualFrameAndADiffBesideIt() throws {
        let goldens = folder.url.appendingPathComponent("goldens")
        try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
        let first = try run(#"{ "expect": [{ "scene": "pond", "at": 0.5, "frame": "goldens/pond.png" }] }"#)
        #expect(!first[0].passed, "no golden yet")
        #expect(first[0].detail.contains("wrote the frame at 320x180"))
        try FileManager.default.moveItem(at: goldens.appendingPathComponent("pond-actual.png"), to: goldens.appendingPathComponent("pond.png"))

        let same = try run(#"{ "expect": [{ "scene": "pond", "at": 0.5, "frame": "goldens/pond.png" }] }"#)
        #expect(same[0].passed, "\(same[0].line)")
        #expect(same[0].detail == "largest channel difference 0 (at most 8), 0.00 % of pixels off by more than 2 (at most 0.5 %)")

        // Later the disc has turned: the frame differs, and the actual frame and the differences are written.
        let moved = try run(#"{ "expect": [{ "scene": "pond", "at": 0.9, "frame": "goldens/pond.png", "tolerance": 8, "differing": 0.5 }] }"#)
        #expect(!moved[0].passed)
        #expect(moved[0].detail.contains("wrote \(goldens.appendingPathComponent("pond-actual.png").path) and"), "\(moved[0].detail)")
        let actual = try RenderedFrame(contentsOfPNG: goldens.appendingPathComponent("pond-actual.png"))
        let diff = try RenderedFrame(contentsOfPNG: goldens.appendingPathComponent("pond-diff.png"))
        #expect(actual.width == 320 && diff.width == 320)
        #expect(diff.bytes.contains { $0 != 0 && $0 != 255 } || diff.bytes.contains(255))
    }

    @Test func badExpectationFilesGiveLocatedErrorsWithHints() throws {
        #expect(try problems("""
            { "expect": [
              { "scene": "pnd", "cue": 0, "fires": 1 },
              { "scene": "pond", "at": 9, "node": "disk", "property": "rotaton", "value": 1 },
              { "scene": "pond", "cue": "dong", "fires": -1, "fire": 2 },
              { "scene": "pond", "at": 1, "frame": "x.jpg", "property": "opacity" }
            ] }
            """) == [
                "pond.verify.json:2:14: error: no scene \"pnd\" in the scenes file (at expect[0].scene)\n  hint: did you mean \"pond\"? the scenes are \"pond\"",
                "pond.verify.json:3:28: error: \"at\" 9 is outside the scene \"pond\", which lasts 3 s (at expect[1].at)\n"
                    + "  hint: give a scene time from 0 up to (not including) 3",
                "pond.verify.json:3:39: error: no node \"disk\" in the scene \"pond\" (at expect[1].node)\n  hint: did you mean \"disc\"? its nodes with ids are \"disc\"",
                "pond.verify.json:3:59: error: unknown property \"rotaton\" (at expect[1].property)\n  hint: did you mean \"rotation\"?",
                "pond.verify.json:4:29: error: no cue with the id \"dong\" in the scene \"pond\" (at expect[2].cue)\n  hint: did you mean \"ding\"? its cue ids are \"ding\" and \"soft\"",
                "pond.verify.json:4:46: error: \"fires\" must be at least 0, not -1 (at expect[2].fires)",
                "pond.verify.json:4:50: error: unknown key \"fire\" in a cue count expectation (at expect[2].fire)\n  hint: did you mean \"fires\"? its keys are \"scene\", \"cue\", and \"fires\"",
                "pond.verify.json:5:40: error: an expectation checks one thing: \"property\" and \"frame\" cannot be combined (at expect[3].frame)\n"
                    + "  hint: write two expectations",
            ])
        #expect(try problems(#"{ "expect": [{ "scene": "pond" }], }"#).first?.hasPrefix("pond.verify.json:1:36: error: unexpected '}' after a comma") == true,
                "a syntax error is located by the same parser as scenes files")
        #expect(try problems(#"{ "checks": [] }"#) == [
            "pond.verify.json:1:1: error: the expectations file has no \"expect\" list\n  hint: write { \"expect\": [ ... ] }",
            "pond.verify.json:1:3: error: unknown key \"checks\" in the expectations file (at checks)\n  hint: its keys are \"expect\" and \"lateness\"",
        ])
    }

    @Test func theJUnitReportIsWellFormedAndListsTheFailures() throws {
        let checks = try run("""
            { "expect": [
              { "scene": "pond", "at": 0.5, "node": "disc", "property": "rotation", "value": 45 },
              { "scene": "pond", "cue": "ding", "fires": 3 }
            ] }
            """) + [VerificationCheck(scene: "", name: "a <name> & \"quotes\"", passed: false, detail: "bad\u{1}")]
        let xml = JUnitReport.xml(checks, suite: "scenes.json", elapsedSeconds: 0.25)
        final class Collector: NSObject, XMLParserDelegate {
            var testcases: [String] = [], failures: [String] = []
            func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                if element == "testcase" { testcases.append(attributes["name"] ?? "") }
                if element == "failure" { failures.append(attributes["message"] ?? "") }
            }
        }
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(xml)")
        #expect(collector.testcases == ["at 0.5 s disc rotation is 45 ± 0.001", "cue \"ding\" (bell) fires 3 times", "a <name> & \"quotes\""])
        #expect(collector.failures == ["expected 3, found 1 (at 0.5 s)", "bad"])
        #expect(xml.contains("<testsuites name=\"diorama verify scenes.json\" tests=\"3\" failures=\"2\""))
    }
}
