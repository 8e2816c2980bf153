import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing

/// The `lottie` node's keys, the Lottie file's basics read in pure Swift, cues bound to its markers and frames,
/// and every error, located at the scenes file's node.
@Suite struct LottieDecodingTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        try write(LottieFixtures.json(frameRate: "29.97", inPoint: "10", outPoint: "70.0000024",
                                      markers: [("intro", 10, 20), ("impact", 42, 0)]), to: "square.json")
    }

    private func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: folder.url.appendingPathComponent(name))
    }

    private func load(nodes: String, cues: String = "") throws(DocumentLoadError) -> LoadedDocument {
        try DocumentLoader.decode(bytes: Array(LottieFixtures.scenes(nodes: nodes, cues: cues).utf8), path: folder.path("scenes.json"))
    }

    /// The first diagnostic's message and hint, and its line:column in the scenes file.
    private func problem(nodes: String, cues: String = "") -> (message: String, hint: String?, place: String, path: String)? {
        do {
            let loaded = try load(nodes: nodes, cues: cues)
            return loaded.warnings.first.map { ($0.message, $0.hint, "\($0.line):\($0.column)", $0.path) }
        } catch {
            return error.diagnostics.first.map { ($0.message, $0.hint, "\($0.line):\($0.column)", $0.path) }
        }
    }

    private func lottie(_ loaded: LoadedDocument) throws -> LottieContent {
        guard case .lottie(let content) = loaded.document.scenes[0].nodes[0].content else { throw LottieTestError() }
        return content
    }

    struct LottieTestError: Error {}

    @Test func everyKeyIsRead() throws {
        let loaded = try load(nodes: """
            { "type": "lottie", "id": "sq", "path": "square.json", "x": 5, "y": 6, "width": 50, "height": 40,
              "delay": 0.5, "speed": 1.5, "segment": [20, 40], "repeat": 3, "autoreverses": true }
            """)
        let content = try lottie(loaded)
        #expect(content.path == "square.json")
        #expect(content.rect == Rect(x: 5, y: 6, width: 50, height: 40))
        #expect(content.animation == LottieAnimationInfo(frameRate: Rational(2997, 100), inPoint: 10, outPoint: 70, width: 100, height: 100,
                                                          markers: [LottieMarker(name: "intro", frame: 10, duration: 20),
                                                                    LottieMarker(name: "impact", frame: 42)]))
        #expect(content.playback == LottiePlayback(delay: Rational(1, 2), speed: Rational(3, 2), frames: 20..<40,
                                                   repeatCount: .count(3), autoreverses: true))
    }

    @Test func defaultsAreTheWholeFileOnceAtItsOwnSize() throws {
        let content = try lottie(try load(nodes: #"{ "type": "lottie", "path": "square.json" }"#))
        #expect(content.rect == Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(content.playback == LottiePlayback(frames: 10..<70))
    }

    @Test func aSegmentNamesAMarkerOrForever() throws {
        let content = try lottie(try load(nodes: #"{ "type": "lottie", "path": "square.json", "segment": "intro", "repeat": "forever" }"#))
        #expect(content.playback.frames == 10..<30)
        #expect(content.playback.repeatCount == .forever)
    }

    @Test func cuesBindToMarkersAndFrames() throws {
        let loaded = try load(nodes: #"{ "type": "lottie", "id": "sq", "path": "square.json" }"#, cues: """
            { "sound": "tick", "node": "sq", "on": { "marker": "impact" } },
            { "sound": "tick", "node": "sq", "on": { "frame": 15 }, "offset": 0.1 }
            """)
        #expect(loaded.document.scenes[0].cues.map(\.trigger) == [.lottie(node: "sq", event: .marker("impact")),
                                                                  .lottie(node: "sq", event: .frame(15))])
    }

    @Test(arguments: [
        // (node, expected message, hint)
        (#"{ "type": "lottie", "path": "missing.json" }"#, #"the Lottie file "missing.json" does not exist"#,
         #"the scenes file's folder holds "square.json""#),
        // A missing file is missing, whatever its extension says it would be.
        (#"{ "type": "lottie", "path": "square.lottie" }"#, #"the Lottie file "square.lottie" does not exist"#,
         #"did you mean "square.json"? the scenes file's folder holds "square.json""#),
        (#"{ "type": "lottie", "path": "square.json", "segment": "impcat" }"#, #"the Lottie file "square.json" has no marker named "impcat""#,
         #"did you mean "impact"? its markers are "intro" and "impact""#),
        (#"{ "type": "lottie", "path": "square.json", "segment": "impact" }"#,
         #"the marker "impact" is a single frame (its "dr" is 0), so it cannot be a segment"#,
         #"give the marker a duration in the Lottie file, or write the frames: "segment": [42, 43]"#),
        (#"{ "type": "lottie", "path": "square.json", "segment": [30, 30] }"#,
         "the segment [30, 30] has no frames: its end must be after its first frame", "the end frame is not played: [30, 31] plays frame 30 alone"),
        (#"{ "type": "lottie", "path": "square.json", "segment": [10] }"#,
         "a segment is [first frame, end frame], two whole numbers, not 1", #""segment": [0, 30] plays frames 0 to 29"#),
        (#"{ "type": "lottie", "path": "square.json", "segment": 3 }"#, #""segment" must be a marker name or [first frame, end frame], not a number"#,
         #""segment": "loop" plays the marker "loop"; "segment": [0, 30] plays frames 0 to 29"#),
    ] as [(String, String, String)])
    func badNodesAreLocatedErrors(node: String, message: String, hint: String) throws {
        let found = try #require(problem(nodes: node))
        #expect(found.message == message)
        #expect(found.hint == hint)
        #expect(found.place.hasPrefix("7:"))
    }

    @Test func aDotLottieArchiveIsReadThroughTheArchiveReaderItIsGiven() throws {
        try write("PK", to: "anim.lottie")
        // Without a reader (this module imports no zlib), the archive is refused as one.
        let found = try #require(problem(nodes: #"{ "type": "lottie", "path": "anim.lottie" }"#))
        #expect(found.message == #"the Lottie file "anim.lottie" is a dotLottie archive (a zip), which is not read here"#)
        // With one, the manifest's first animation is decoded as the same JSON file would be.
        let json = Array(LottieFixtures.json(markers: [("impact", 42, 0)]).utf8)
        let reader: ArchiveReader = { _ in
            .success([ArchiveEntry(name: "animations/other.json", bytes: Array("{}".utf8)),
                      ArchiveEntry(name: "manifest.json", bytes: Array(#"{ "animations": [{ "id": "sq" }] }"#.utf8)),
                      ArchiveEntry(name: "animations/sq.json", bytes: json)])
        }
        let scenes = LottieFixtures.scenes(nodes: #"{ "type": "lottie", "path": "anim.lottie" }"#)
        let loaded = try DocumentLoader.decode(bytes: Array(scenes.utf8), path: folder.path("scenes.json"), archives: reader)
        #expect(try lottie(loaded).animation.markers == [LottieMarker(name: "impact", frame: 42)])
    }

    @Test func aMarkerAmongEquallyNearOnesListsThemInsteadOfGuessing() throws {
        try write(LottieFixtures.json(markers: (0..<8).map { ("n\($0)", $0 * 5, 0) }), to: "drum.json")
        let found = try #require(problem(nodes: #"{ "type": "lottie", "id": "drum", "path": "drum.json" }"#,
                                         cues: #"{ "sound": "tick", "node": "drum", "on": { "marker": "n8" } }"#))
        #expect(found.message == #"the Lottie file "drum.json" has no marker named "n8""#)
        #expect(found.hint == #"its markers are "n0", "n1", "n2", "n3", "n4", "n5", "n6", and "n7""#)
        #expect(found.path == "scenes[0].cues[0].on.marker")
    }

    @Test func theNodeKeysAreChecked() throws {
        let speed = try #require(problem(nodes: #"{ "type": "lottie", "path": "square.json", "speed": 0 }"#))
        #expect(found(speed, at: "scenes[0].nodes[0].speed"))
        let size = try #require(problem(nodes: #"{ "type": "lottie", "path": "square.json", "width": -5 }"#))
        #expect(found(size, at: "scenes[0].nodes[0].width"))
        let repeatCount = try #require(problem(nodes: #"{ "type": "lottie", "path": "square.json", "repeat": "always" }"#))
        #expect(found(repeatCount, at: "scenes[0].nodes[0].repeat"))
        let unknown = try #require(problem(nodes: #"{ "type": "lottie", "path": "square.json", "loop": true }"#))
        #expect(unknown.message == #"unknown key "loop" in a lottie node"#)
    }

    private func found(_ problem: (message: String, hint: String?, place: String, path: String), at path: String) -> Bool {
        problem.path == path
    }

    @Test(arguments: [
        (#"{ "marker": "impcat" }"#, #"the Lottie file "square.json" has no marker named "impcat""#,
         #"did you mean "impact"? its markers are "intro" and "impact""#, "scenes[0].cues[0].on.marker"),
        (#"{ "frame": 70 }"#, #"frame 70 is not in the Lottie file "square.json", whose frames are 10 to 69"#,
         #"frames are the file's own numbers, from its "ip" up to, not including, its "op""#, "scenes[0].cues[0].on.frame"),
        (#""end""#, #""on" must be { "marker": NAME } or { "frame": N }, not a string"#,
         #""sq" is a Lottie node: its cues fire on a marker or a frame of the animation"#, "scenes[0].cues[0].on"),
        (#"{ "marker": "impact", "frame": 3 }"#, #"a Lottie event names one moment: a marker ("marker") or a frame ("frame")"#,
         #"{ "marker": "impact" } or { "frame": 42 }"#, "scenes[0].cues[0].on"),
    ] as [(String, String, String, String)])
    func badCueBindingsAreLocatedErrors(on: String, message: String, hint: String, path: String) throws {
        let found = try #require(problem(nodes: #"{ "type": "lottie", "id": "sq", "path": "square.json" }"#,
                                         cues: #"{ "sound": "tick", "node": "sq", "on": \#(on) }"#))
        #expect(found.message == message)
        #expect(found.hint == hint)
        #expect(found.path == path)
    }

    @Test func aCueOnAFrameOutsideTheSegmentIsAWarning() throws {
        let loaded = try load(nodes: #"{ "type": "lottie", "id": "sq", "path": "square.json", "segment": [10, 30] }"#,
                              cues: #"{ "sound": "tick", "node": "sq", "on": { "marker": "impact" } }"#)
        #expect(loaded.warnings.map(\.message).contains(#"this cue never fires: frame 42 is outside the frames "sq" plays (10 to 29)"#))
    }

    @Test(arguments: [
        (LottieFixtures.json(frameRate: "0"), #"has a frame rate ("fr", at bad.json:1:22) of 0, which cannot play"#),
        (LottieFixtures.json(inPoint: "60", outPoint: "60"), #"has no frames: its out point ("op" 60) is not after its in point ("ip" 60)"#),
        (LottieFixtures.json(width: "100000"), #"has a width ("w", at bad.json:1:50) of 100000 pixels"#),
        (LottieFixtures.json(height: "\"tall\""), #"has a string as its height ("h", at bad.json:1:60), not a usable number"#),
        (LottieFixtures.json(outPoint: "2000000"), "has 2000000 frames; the limit is 1,000,000"),
        (LottieFixtures.json(layers: "{}"), #"has an object as its "layers" (at bad.json:3:12), not an array"#),
        (LottieFixtures.json(layers: "[1]"), #"has a number among its "layers" (at bad.json:3:13), not an object"#),
        (#"{"fr": 30, "ip": 0, "op": 10, "w": 10, "h": 10}"#, #"has no "layers""#),
        (#"{"ip": 0}"#, #"has no frame rate ("fr")"#),
        ("[1, 2]", "is not a Lottie animation: it holds an array, not an object"),
        (#"{"fr": 30,"#, "is not valid JSON"),
        ("", "is not valid JSON"),
        (#"{"fr": 30, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": [], "markers": [{"tm": 3}]}"#,
         #"has a marker without a name ("cm") and a frame ("tm")"#),
        (#"{"fr": 30, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": [], "markers": [{"cm": "a", "tm": 3, "dr": -1}]}"#,
         #"has a marker "a" whose duration ("dr""#),
    ] as [(String, String)])
    func damagedFilesAreRefusedBeforeRlottieSeesThem(text: String, problem: String) throws {
        try write(text, to: "bad.json")
        let found = try #require(self.problem(nodes: #"{ "type": "lottie", "path": "bad.json" }"#))
        #expect(found.message.hasPrefix(#"the Lottie file "bad.json" "# + problem), "\(found.message)")
        #expect(found.place == "7:43")
        #expect(found.path == "scenes[0].nodes[0].path")
    }
}
