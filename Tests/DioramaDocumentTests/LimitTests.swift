import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

@testable import DioramaDocument

/// The limits that protect the machine, on inputs too big to commit, and inputs that must neither crash nor hang.
@Suite struct LimitTests {
    /// A valid document whose first scene holds `nodes` (a JSON array body).
    static func document(nodes: String) -> String {
        """
        { "canvas": { "width": 100, "height": 100 },
          "scenes": [{ "id": "s", "duration": 10, "nodes": [\(nodes)] }] }
        """
    }

    /// A scene of `duration` s with a dot whose animation `blink` lasts `interval` s and repeats forever, and a cue
    /// on each of its iterations.
    static func blinking(every interval: String, duration: String, cues: Int = 1) -> String {
        let cue = ##"{ "sound": "tick", "node": "dot", "animation": "blink", "on": "iteration" }"##
        return """
        { "canvas": { "width": 100, "height": 100 }, "sounds": { "tick": "tick.wav" },
          "scenes": [{ "id": "s", "duration": \(duration),
            "nodes": [{ "type": "circle", "id": "dot", "r": 1, "fill": "#fff",
              "animations": [{ "id": "blink", "property": "opacity", "from": 0, "to": 1, "duration": \(interval), "repeat": "forever" }] }],
            "cues": [\(Array(repeating: cue, count: cues).joined(separator: ", "))] }] }
        """
    }

    @Test func cuesFiringMoreThanAThousandTimesASecondAreRefusedAtTheCue() {
        // Every 0.5 ms: 2,000 firings a second, 4,000 in a 2 s scene (what a 1 µs loop over a day made of the
        // timeline, the log and the frame loop, smaller).
        let diagnostics = DocumentFixtures.renderedDiagnostics(Self.blinking(every: "0.0005", duration: "2"), name: "roll.json")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("roll.json:5:14: error: the cues of scene \"s\" fire up to 2,000 times in one second, "
            + "this one up to 2,000 (every 0.0005 s); the limit is 1,000 firings in any second of a scene (at scenes[0].cues[0])") == true,
            "\(diagnostics)")
        #expect(diagnostics.first?.contains("hint: a cue on an animation fires on every iteration") == true)
        // Two cues every 1 ms: each within the limit, together over it.
        #expect(DocumentFixtures.renderedDiagnostics(Self.blinking(every: "0.001", duration: "2", cues: 2)).count == 1)
        // A cue on "from" of a track that does not autoreverse never fires: it is warned of, not counted.
        let never = DocumentFixtures.renderedDiagnostics(Self.blinking(every: "0.0005", duration: "2").replacingOccurrences(of: "\"iteration\"", with: "\"from\""))
        #expect(never.count == 1 && never.first?.contains(": warning: this cue never fires") == true, "\(never)")
        // Every 1 ms over 100 s: 1,000 a second and 100,000 in all, both at their limits.
        #expect(DocumentFixtures.renderedDiagnostics(Self.blinking(every: "0.001", duration: "100")).isEmpty)
    }

    @Test func cuesFiringMoreThanAHundredThousandTimesInAScene() {
        // Twice a second for a day: 172,800 firings.
        let diagnostics = DocumentFixtures.renderedDiagnostics(Self.blinking(every: "0.5", duration: "86400"), name: "day.json")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("day.json:5:14: error: the cues of scene \"s\" fire up to 172,800 times, this one up to "
            + "172,800 (every 0.5 s); the limit is 100,000 firings per scene (at scenes[0].cues[0])") == true, "\(diagnostics)")
        // Once a second for a day fits.
        #expect(DocumentFixtures.renderedDiagnostics(Self.blinking(every: "1", duration: "86400")).isEmpty)
    }

    /// `count` emitters of `live` particles each (born 1,000 a second), of `size` points.
    static func emitters(_ count: Int, live: Int, size: Int) -> String {
        let emitter = """
            { "type": "emitter", "particles": { "birthRate": 1000, "lifetime": \(Double(live) / 1000), "size": \(size), "prewarm": true } }
            """
        return """
        { "canvas": { "width": 320, "height": 180 },
          "scenes": [{ "id": "s", "duration": 10, "nodes": [\(Array(repeating: emitter, count: count).joined(separator: ", "))] }] }
        """
    }

    @Test func emittersThatCannotBeDrawnAtFrameRateAreRefused() {
        // One emitter at the old limits: 5,000 particles as large as the canvas, 5,000 canvases blended a frame.
        let large = DocumentFixtures.renderedDiagnostics(Self.emitters(1, live: 5000, size: 1000))
        #expect(large.count == 1 && large.first?.contains(": error: the particles of scene \"s\" can cover the canvas 5000 times "
            + "over in a frame, this emitter's 5000 times; the limit is 1 (at scenes[0].nodes[0].particles)") == true, "\(large)")
        // Twenty emitters of 5,000 snowflakes each: 100,000 particles a frame.
        let many = DocumentFixtures.renderedDiagnostics(Self.emitters(20, live: 5000, size: 3))
        #expect(many.first?.contains(": error: the emitters of scene \"s\" keep up to 100,000 particles alive, this one up to 5,000; "
            + "the limit is 5,000 per scene (at scenes[0].nodes[0].particles)") == true, "\(many)")
        // A snowfall of 1,000 fits (their squares cover 0.63 of the canvas).
        #expect(DocumentFixtures.renderedDiagnostics(Self.emitters(1, live: 1000, size: 3)).isEmpty)
    }

    @Test func aFileOver16MiBIsRefusedBeforeParsing() throws {
        // Valid JSON padded with spaces to 17 MiB: refused for its size alone.
        var bytes = Array(Self.document(nodes: "").utf8)
        bytes += [UInt8](repeating: 0x20, count: 17 * 1024 * 1024 - bytes.count)
        let expected = "big.json:1:1: error: the file is 17.0 MiB; the limit is 16 MiB\n  hint: scenes files are small; is this the right file?"
        #expect(throws: DocumentLoadError.self) { try DocumentLoader.decode(bytes: bytes, path: "big.json") }
        do {
            _ = try DocumentLoader.decode(bytes: bytes, path: "big.json")
        } catch {
            #expect(error.description == expected)
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("big.json").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        do {
            _ = try DocumentLoader.load(path: path)
            Issue.record("a 17 MiB file loaded")
        } catch {
            #expect(error.diagnostics.count == 1)
            #expect(error.diagnostics.first?.message == "the file is 17.0 MiB; the limit is 16 MiB")
            #expect(error.diagnostics.first?.line == 1 && error.diagnostics.first?.column == 1)
        }
    }

    @Test func exactly16MiBIsAccepted() throws {
        var bytes = Array(Self.document(nodes: "").utf8)
        bytes += [UInt8](repeating: 0x0A, count: DocumentLimits.maximumFileSize - bytes.count)
        let loaded = try DocumentLoader.decode(bytes: bytes, path: "edge.json")
        #expect(loaded.document.scenes.count == 1)
    }

    /// A text node's text, a text keyframe and a scene's title, in each language, are at most 10,000 characters: 300,000
    /// passed `check` and trapped `render`; a 200,000-character title, `play`.
    @Test func aTextOverTenThousandCharactersIsAnError() {
        let long = String(repeating: "W", count: 10_001), most = String(repeating: "字", count: 10_000)
        let json = """
            { "canvas": { "width": 100, "height": 100 },
              "languages": { "default": "en", "fallback": "en", "available": ["en", "ja"] },
              "scenes": [{ "id": "s", "title": { "en": "Sea", "ja": "\(long)" }, "duration": 10, "nodes": [
                { "type": "text", "text": "\(long)" },
                { "type": "text", "text": "\(most)",
                  "animations": [{ "property": "text", "keyframes": [{ "time": 0, "value": "" }, { "time": 1, "value": "\(long)" }] }] }] }] }
            """
        let diagnostics = DocumentFixtures.renderedDiagnostics(json, name: "long.json")
        let limit = "this text has 10001 characters, more than the 10000 a text may have"
        #expect(diagnostics.count == 3, "\(diagnostics)")
        for path in ["scenes[0].title.ja", "scenes[0].nodes[0].text", "scenes[0].nodes[1].animations[0].keyframes[1].value"] {
            #expect(diagnostics.contains { $0.contains("error: \(limit) (at \(path))") }, "\(path)")
        }
        #expect(diagnostics.allSatisfy { $0.contains("hint: shorten it, or split it over several text nodes or scenes") })
    }

    @Test func moreThanTenThousandNodesIsOneError() {
        let node = ##"{ "type": "circle", "r": 1, "fill": "#fff" }"##
        let json = Self.document(nodes: Array(repeating: node, count: 10_001).joined(separator: ","))
        let diagnostics = DocumentFixtures.renderedDiagnostics(json, name: "many.json")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.contains("error: more than 10,000 nodes in the document (at scenes[0].nodes[10000])") == true)

        let exactly = Self.document(nodes: Array(repeating: node, count: 10_000).joined(separator: ","))
        #expect(DocumentFixtures.renderedDiagnostics(exactly).isEmpty)
    }

    @Test func moreThanTenThousandKeyframesIsAnError() {
        func track(_ count: Int) -> String {
            let keyframes = (0..<count).map { #"{ "time": \#($0), "value": \#($0 % 7) }"# }.joined(separator: ",")
            return Self.document(nodes: ##"{ "type": "circle", "r": 1, "fill": "#fff", "animations": [{ "property": "offset.x", "keyframes": [\##(keyframes)] }] }"##)
                .replacingOccurrences(of: "\"duration\": 10", with: "\"duration\": 86400")
        }
        #expect(DocumentFixtures.renderedDiagnostics(track(10_000)).isEmpty)
        let diagnostics = DocumentFixtures.renderedDiagnostics(track(10_001), name: "k.json")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.contains("error: a keyframe track has at most 10,000 keyframes, not 10,001") == true)
    }

    @Test func nestingAMillionArraysDeepFailsFastWithOneError() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let diagnostics = Self.diagnostics(bytes)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message == "nesting deeper than 128 levels")
        #expect(diagnostics.first?.column == 129)

        let objects = [UInt8](String(repeating: #"{"a":"#, count: 100_000).utf8)
        #expect(Self.diagnostics(objects).first?.message == "nesting deeper than 128 levels")
    }

    @Test func everyPrefixOfAValidFileFailsCleanly() {
        // Truncation at every byte: each prefix is an error with a location, never a crash.
        let bytes = Array(DocumentFixtures.oceanJSON.utf8)
        for length in 0..<bytes.count {
            let diagnostics = Self.diagnostics(Array(bytes[0..<length]))
            #expect(!diagnostics.isEmpty, "prefix of \(length) bytes loaded")
            #expect(diagnostics.allSatisfy { $0.line >= 1 && $0.column >= 1 })
        }
    }

    @Test func corruptedBytesNeverCrash() {
        // Deterministic corruption: each run flips the same bytes.
        var generator = SplitMix64(seed: 42)
        let original = Array(DocumentFixtures.oceanJSON.utf8)
        let replacements: [UInt8] = Array("{}[],:\"\\0123456789-.eE tfn#\u{7F}".utf8) + [0x00, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        for _ in 0..<2_000 {
            var bytes = original
            for _ in 0...Int(generator.next() % 3) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = replacements[Int(generator.next() % UInt64(replacements.count))]
            }
            do {
                _ = try DocumentLoader.decode(bytes: bytes, path: "fuzz.json")
            } catch {
                #expect(error.diagnostics.allSatisfy { $0.line >= 1 && $0.column >= 1 && !$0.message.isEmpty })
            }
        }
    }

    static func diagnostics(_ bytes: [UInt8]) -> [Diagnostic] {
        do {
            return try DocumentLoader.decode(bytes: bytes, path: "x.json").warnings
        } catch {
            return error.diagnostics
        }
    }
}
