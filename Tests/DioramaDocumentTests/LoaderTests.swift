import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

@testable import DioramaDocument

@Suite struct LoaderTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func renderingHasTheCompilerShape() {
        let diagnostic = Diagnostic(file: "s.json", line: 3, column: 7, path: "scenes[0].duration", message: "bad", hint: "fix it")
        #expect(diagnostic.description == "s.json:3:7: error: bad (at scenes[0].duration)\n  hint: fix it")
        let bare = Diagnostic(file: "s.json", line: 1, column: 1, path: "", message: "empty", severity: .warning)
        #expect(bare.description == "s.json:1:1: warning: empty")
    }

    @Test func aMissingFileOrAFolderIsOneDiagnosticAtTheStart() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("nope.json").path
        for (path, message) in [(missing, "cannot read the scenes file: it does not exist"),
                                (directory.path, "cannot read the scenes file: it is a folder")] {
            do {
                _ = try DocumentLoader.load(path: path)
                Issue.record("\(path) loaded")
            } catch {
                #expect(error.diagnostics.count == 1)
                #expect(error.diagnostics.first?.message == message)
                #expect(error.diagnostics.first?.file == path)
                #expect(error.diagnostics.first?.line == 1 && error.diagnostics.first?.column == 1)
            }
        }
    }

    @Test func loadResolvesMediaAgainstTheFilesFolderAndReportsMissingOnes() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("media"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent("media/bell.flac").path, contents: Data([1])))
        let file = directory.appendingPathComponent("scenes.json")
        try Data(DocumentFixtures.oceanJSON.utf8).write(to: file)

        let loaded = try DocumentLoader.load(path: file.path)
        #expect(loaded.baseDirectory == directory.standardizedFileURL.path)
        #expect(loaded.resolve("media/bell.flac") == directory.appendingPathComponent("media/bell.flac").standardizedFileURL.path)
        let problems = DocumentLoader.mediaFileDiagnostics(for: loaded)
        // bell exists; surf does not.
        #expect(problems.map(\.message) == ["the sound \"surf\" file \"media/surf.flac\" does not exist"])
        #expect(problems.first?.path == "sounds.surf")
        #expect(problems.first?.line == 5)
    }

    @Test func plainStringsAreTheFallbackLanguagesVariant() throws {
        let json = """
            { "canvas": { "width": 10, "height": 10 },
              "languages": { "default": "ja", "fallback": "en", "available": ["ja", "en"] },
              "scenes": [{ "id": "s", "title": "Swing", "duration": 1 },
                         { "id": "t", "title": { "ja": "ブランコ", "en": "Swing" }, "duration": 1.5 }] }
            """
        let document = try DocumentFixtures.decode(json).document
        #expect(document.languages == Languages(defaultLanguage: "ja", fallback: "en", available: ["ja", "en"]))
        #expect(document.scenes[0].title == LocalizedString("Swing", language: "en"))
        #expect(document.scenes[1].title.resolved(language: "ja", fallback: "en") == "ブランコ")
        #expect(PlaylistClock(document: document).length == Rational(5, 2))
    }

    @Test func defaultsFillWhatTheFileLeavesOut() throws {
        let json = """
            { "canvas": { "width": 10, "height": 10 },
              "sounds": { "s": "a.wav" },
              "scenes": [{ "id": "x", "duration": 2,
                "ambience": [{ "sound": "s" }],
                "cues": [{ "sound": "s", "node": "n", "animation": "a", "on": "iteration" }],
                "nodes": [{ "type": "rect", "id": "n", "width": 1, "height": 1, "fill": "#fff", "opacity": 0.5,
                            "animations": [{ "id": "a", "property": "opacity", "to": 1, "duration": 1 },
                                           { "property": "fill.color", "to": "#000", "duration": 1 }] },
                          { "type": "text", "text": "hi" }] }] }
            """
        let loaded = try DocumentFixtures.decode(json)
        let document = loaded.document
        #expect(document.canvas.background == .solid(.black))
        #expect(document.languages == Languages(defaultLanguage: "en", fallback: "en", available: ["en"]))
        let scene = document.scenes[0]
        #expect(scene.title == LocalizedString("x", language: "en"))
        #expect(scene.ambience == [Ambience(sound: "s")])
        #expect(scene.cues == [Cue(sound: "s", trigger: .animation(node: "n", animation: "a", event: .iterationStart))])
        let rect = scene.nodes[0]
        // `from` is the node's own value; the curve is easeInOut; timing is delay 0, speed 1, once.
        #expect(rect.animations[0] == Animation(id: "a", property: .opacity,
                                                kind: .basic(from: .number(0.5), to: .number(1), curve: .easeInOut, duration: .one)))
        #expect(rect.animations[1].kind == .basic(from: .color(.white), to: .color(.black), curve: .easeInOut, duration: .one))
        #expect(rect.style.scale == Point(x: 1, y: 1))
        #expect(rect.style.rotationAnchor == .center && rect.style.scaleAnchor == .center)
        #expect(scene.nodes[1].content == .text(TextContent(text: LocalizedString("hi"), position: Point(x: 0, y: 0))))
    }

    @Test func timingLiteralsAreExact() throws {
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "s": "a.wav" },
              "scenes": [{ "id": "x", "duration": 86400,
                "cues": [{ "sound": "s", "at": 0.000001 }, { "sound": "s", "at": 1.5e-3 }, { "sound": "s", "at": 12E3 }] }] }
            """
        let cues = try DocumentFixtures.decode(json).document.scenes[0].cues
        #expect(cues.map(\.trigger) == [.at(Rational(1, 1_000_000)), .at(Rational(3, 2000)), .at(Rational(12_000))])
    }

    @Test func cuesOutsideTheSceneAreWarnedAbout() throws {
        let json = """
            { "canvas": { "width": 10, "height": 10 }, "sounds": { "s": "a.wav" },
              "scenes": [{ "id": "x", "duration": 2,
                "cues": [{ "sound": "s", "at": 1.9, "offset": 0.1 }, { "sound": "s", "at": 0.5, "offset": -0.6 },
                         { "sound": "s", "at": 1.9, "offset": 0.099999 },
                         { "sound": "s", "node": "n", "animation": "late", "on": "iteration" }],
                "nodes": [{ "type": "circle", "id": "n", "r": 1, "fill": "#fff",
                            "animations": [{ "id": "late", "property": "opacity", "to": 0, "duration": 1, "delay": 2 }] }] }] }
            """
        let warnings = try DocumentFixtures.decode(json, name: "w.json").warnings.map(\.message)
        #expect(warnings == ["this cue never fires: the scene lasts 2 s",
                             "this cue never fires: with its offset it falls at -0.1 s, before the scene starts",
                             "this cue never fires: \"late\" starts at 2 s, when the scene (2 s) is over"])
    }

    @Test func theDecodersDecimalReadingAgreesWithRationalDecimalLiteral() {
        let literals = ["0", "-0", "1", "-3", "0.9", "24.5", "1.5e-3", "12E3", "1e+2", "-0.000001", "86400", "0.1e1",
                        "123456.654321", "5e-7", "100e-2", "-7.25E-1"]
        for literal in literals {
            #expect(DocumentDecoder.DecimalParts(literal).rational == Rational(decimalLiteral: literal), "\(literal)")
        }
        #expect(DocumentDecoder.decimalPlaces(of: "1.25") == 2)
        #expect(DocumentDecoder.decimalPlaces(of: "1.5e-3") == 4)
        #expect(DocumentDecoder.decimalPlaces(of: "12e3") == 0)
        #expect(DocumentDecoder.decimalPlaces(of: "0.1234567e1") == 6)
    }

    @Test func baseDirectoriesAreAbsolute() {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        #expect(DocumentLoader.absoluteDirectory(of: "") == current)
        #expect(DocumentLoader.absoluteDirectory(of: "scenes.json") == current)
        #expect(DocumentLoader.absoluteDirectory(of: "/a/b/scenes.json") == "/a/b")
        #expect(DocumentLoader.resolve("media/x.wav", against: "/a/b") == "/a/b/media/x.wav")
        #expect(DocumentLoader.resolve("/abs/x.wav", against: "/a/b") == "/abs/x.wav")
    }

    @Test func decimalDescriptionsAreExact() {
        #expect(Rational(11, 2).decimalDescription == "5.5")
        #expect(Rational(-1, 20).decimalDescription == "-0.05")
        #expect(Rational(1, 1_000_000).decimalDescription == "0.000001")
        #expect(Rational(72).decimalDescription == "72")
        #expect(Rational(1, 3).decimalDescription == "1/3")
    }
}
