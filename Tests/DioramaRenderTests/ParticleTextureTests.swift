import DioramaDocument
@testable import DioramaRender
import DioramaTimeline
import Foundation
import Testing

/// Textures drawn as particles: an SVG element's ink, or a PNG, fitted into a square 1.8 radii across, turned with
/// the particle, in its colour; and `check`'s references to their files.
@Suite struct ParticleTextureTests {
    static let drawing = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
          <rect id="block" x="10" y="60" width="20" height="20" fill="#fff"/>
          <circle id="dot" cx="70" cy="30" r="10" fill="#fff"/>
          <radialGradient id="fade"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
          <circle id="puff" cx="30" cy="30" r="10" fill="url(#fade)"/>
        </svg>
        """

    /// One red particle of radius 40 at the centre of a black 200 × 200 canvas, drawn with `texture`, turned `rotation`.
    static func render(texture: String, rotation: Double = 0) throws -> RenderedFrame {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-texture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try drawing.write(to: folder.appendingPathComponent("tex.svg"), atomically: true, encoding: .utf8)
        var strip = RenderedFrame(width: 4, height: 2)
        strip.bytes = [UInt8](repeating: 255, count: strip.bytes.count)
        try strip.writePNG(to: folder.appendingPathComponent("strip.png"))
        let json = """
            { "canvas": { "width": 200, "height": 200, "background": "#000000" },
              "scenes": [{ "id": "t", "duration": 4, "nodes": [{ "type": "emitter", "particles": {
                "burst": 1, "prewarm": false, "lifetime": 10, "speed": 0, "position": { "x": 100, "y": 100 }, "size": 40,
                "rotation": \(rotation), "color": "#ff0000", "texture": \(texture) } }] }] }
            """
        let loaded = try DocumentLoader.decode(bytes: Array(json.utf8), path: folder.appendingPathComponent("scenes.json").path)
        let snapshot = SceneEvaluator(document: loaded.document).snapshot(scene: 0, at: 1)
        let renderer = FrameRenderer(imageDirectory: folder)
        let frame = try renderer.render(snapshot, width: 200, height: 200)
        #expect(renderer.warnings.isEmpty, "\(renderer.warnings)")
        return frame
    }

    static func red(_ frame: RenderedFrame, _ x: Int, _ y: Int) -> Int { Int((frame.pixel(x: x, y: y) >> 16) & 0xFF) }

    @Test func anSVGElementsInkIsFittedIntoTheParticlesSquare() throws {
        // The block: a square 72 pixels across (64 ... 136), filled to its corners, where a circle would not reach.
        let block = try Self.render(texture: ##"{ "path": "tex.svg", "element": "#block" }"##)
        for (x, y) in [(100, 100), (67, 67), (133, 133), (67, 133)] { #expect(Self.red(block, x, y) > 240, "\(x), \(y)") }
        for (x, y) in [(60, 100), (100, 140), (100, 55)] { #expect(Self.red(block, x, y) < 10, "\(x), \(y)") }
        #expect(Self.red(block, 64, 100) > 0 && Self.red(block, 62, 100) == 0)
        // The dot elsewhere in the same file: the same place and size, round.
        let dot = try Self.render(texture: ##"{ "path": "tex.svg", "element": "dot" }"##)
        #expect(Self.red(dot, 100, 100) > 240 && Self.red(dot, 100, 66) > 200 && Self.red(dot, 67, 67) < 10)
    }

    @Test func aTextureTurnsWithItsParticle() throws {
        let turned = try Self.render(texture: ##"{ "path": "tex.svg", "element": "#block" }"##, rotation: 20)
        // Turned 20°, its corners reach past the unturned square's edges (towards 65° and 245°), and leave its own.
        #expect(Self.red(turned, 119, 141) > 200 && Self.red(turned, 81, 58) > 200)
        #expect(Self.red(turned, 67, 67) < 10 && Self.red(turned, 133, 133) < 10)
    }

    /// A round puff turned any way is the same puff: as much ink at every turn, and each turn the unturned puff
    /// turned. (Painted by librsvg sprite by sprite, a gradient puff turned 30° had a third more ink than unturned.)
    @Test func aRoundTextureTurnedKeepsItsInk() throws {
        func ink(_ frame: RenderedFrame) -> Int {
            (0..<200).reduce(0) { sum, y in (0..<200).reduce(sum) { $0 + Self.red(frame, $1, y) } }
        }
        let texture = ##"{ "path": "tex.svg", "element": "#puff" }"##
        let unturned = ink(try Self.render(texture: texture))
        #expect(unturned > 40 * 40 * 255 / 4, "a puff is drawn: \(unturned)")
        for rotation in [30.0, 45, 100, 210] {
            let turned = ink(try Self.render(texture: texture, rotation: rotation))
            #expect(abs(Double(turned) / Double(unturned) - 1) < 0.02, "turned \(rotation)°: \(turned) against \(unturned)")
        }
    }

    @Test func aPNGIsFittedByItsLongerSide() throws {
        // 4 × 2 pixels: 72 across, 36 down.
        let strip = try Self.render(texture: ##"{ "path": "strip.png" }"##)
        #expect(Self.red(strip, 67, 100) > 240 && Self.red(strip, 133, 100) > 240 && Self.red(strip, 100, 84) > 240)
        #expect(Self.red(strip, 100, 78) < 10 && Self.red(strip, 100, 122) < 10)
    }

    @Test func checkLooksUpATexturesFileAndElement() throws {
        let json = """
            { "canvas": { "width": 200, "height": 200 },
              "scenes": [{ "id": "t", "duration": 4, "nodes": [
                { "type": "emitter", "particles": { "texture": { "path": "art/puffs.svg", "element": "#puff" } } },
                { "type": "emitter", "particles": { "texture": { "path": "art/spark.png", "element": "#spark" } } }] }] }
            """
        do {
            _ = try DocumentLoader.decode(bytes: Array(json.utf8), path: "scenes.json")
            Issue.record("a PNG texture with an element loaded")
        } catch {
            #expect(error.diagnostics.map(\.description).contains { $0.contains("only SVG textures have elements to draw") })
        }
        let good = try DocumentLoader.decode(bytes: Array(json.replacingOccurrences(of: ##", "element": "#spark""##, with: "").utf8),
                                             path: "scenes.json")
        let references: [MediaReference] = good.mediaReferences
        #expect(references.contains { $0.kind == MediaReference.Kind.imageElement(id: "#puff") && $0.path == "art/puffs.svg" })
        #expect(references.contains { reference in
            reference.kind == MediaReference.Kind.image && reference.path == "art/spark.png"
                && reference.jsonPath == "scenes[0].nodes[1].particles.texture.path"
        })
    }
}
