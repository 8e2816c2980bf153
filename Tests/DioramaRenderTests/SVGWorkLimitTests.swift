import CCairo
import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import DioramaVectorArt
import Foundation
import Testing

/// SVGs that would make librsvg work without bound (filter primitives with huge parameters, pictures declaring far
/// more pixels than they hold, long text) are refused by the same check before librsvg parses them, for `check` and
/// for the renderer alike. Nothing hostile is ever rendered here: a file that would take minutes is only checked.
@Suite struct SVGWorkLimitTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = folder.path(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Why the SVG is refused, nil when it loads (parsed by librsvg, never drawn).
    func refusal(_ text: String, name: String = "art/x.svg") throws -> String? {
        let path = try write(name, Array(text.utf8))
        do {
            _ = try VectorArt.load(path: path, allowedRoot: folder.url.path)
            return nil
        } catch {
            return error.reason
        }
    }

    static func svg(_ body: String) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="320" height="180">"## + body + "</svg>"
    }

    static func filter(_ primitive: String) -> String {
        svg(##"<filter id="f">"## + primitive + ##"</filter><rect width="320" height="180" filter="url(#f)"/>"##)
    }

    /// The first bytes of a PNG whose header declares `width` × `height` (the rest is never read before decoding).
    static func pngHeader(width: Int, height: Int) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xff) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(width) + be32(height)
            + [8, 6, 0, 0, 0] + be32(0)
    }

    static func embedded(_ bytes: [UInt8], type: String = "image/png") -> String {
        "data:\(type);base64," + Data(bytes).base64EncodedString()
    }

    @Test func filterPrimitivesWithUnboundedWorkAreRefused() throws {
        // librsvg 2.54 panics (aborting the process) drawing an order of 21; a billion octaves never finishes.
        let ones = Array(repeating: "1", count: 441).joined(separator: " ")
        #expect(try refusal(Self.filter(#"<feConvolveMatrix order="21" kernelMatrix="\#(ones)"/>"#))
                == "its feConvolveMatrix has the order 21; the limit is 9")
        #expect(try refusal(Self.filter(#"<feTurbulence baseFrequency="0.05" numOctaves="1000000000"/>"#))
                == "its feTurbulence has the numOctaves 1000000000; the limit is 10")
        #expect(try refusal(Self.filter(#"<feMorphology operator="dilate" radius="3 100000"/>"#))
                == "its feMorphology has the radius 3 100000; the limit is 100")
        #expect(try refusal(Self.filter(#"<feGaussianBlur stdDeviation="1e9"/>"#))
                == "its feGaussianBlur has the stdDeviation 1e9; the limit is 1000")
        #expect(try refusal(Self.filter(#"<feDropShadow dx="2" dy="2" stdDeviation="5000"/>"#))
                == "its feDropShadow has the stdDeviation 5000; the limit is 1000")
        // A quoted `>` before the attribute, a namespace prefix, an entity or a DTD default cannot hide a value.
        #expect(try refusal(Self.filter(#"<feTurbulence result="a>b" numOctaves="99"/>"#))?.contains("numOctaves 99") == true)
        #expect(try refusal(Self.svg(#"<svg:filter id="f"><svg:feTurbulence numOctaves="99"/></svg:filter>"#)
                            .replacingOccurrences(of: "<svg ", with: #"<svg xmlns:svg="http://www.w3.org/2000/svg" "#))?
                .contains("numOctaves 99") == true)
        let entity = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY n "1000000000">]>"# + Self.filter(#"<feTurbulence numOctaves="&n;"/>"#)
        #expect(try refusal(entity) == "its feTurbulence has the numOctaves \"&n;\", which is not a number")
        let defaults = #"<?xml version="1.0"?><!DOCTYPE svg [<!ATTLIST feTurbulence numOctaves CDATA "1000000000">]>"#
            + Self.filter("<feTurbulence/>")
        #expect(try refusal(defaults)?.contains("declares default attributes") == true)
        // An feImage drawing an element: one reaching its own filter between two feTiles panicked librsvg (the
        // fuzzer's find, seed 7). A picture file or data URL is what feImage is for.
        #expect(try refusal(Self.svg(##"<filter id="f"><feTile/><feImage href="#e"/><feTile/></filter><ellipse id="e" filter="url(#f)" cx="20" cy="20" rx="9" ry="6"/>"##))
                == ##"its feImage draws the element "#e" of the drawing, which is not drawn here"##)
        #expect(try refusal(Self.filter(##"<feImage xlink:href=" #e"/>"##))?.contains("feImage draws the element") == true)
        // What drawings use passes.
        #expect(try refusal(Self.filter(#"<feConvolveMatrix order="3" kernelMatrix="0 -1 0 -1 5 -1 0 -1 0"/>"#)) == nil)
        #expect(try refusal(Self.filter(#"<feTurbulence baseFrequency="0.05" numOctaves="4"/><feMorphology radius="2"/><feGaussianBlur stdDeviation="3 5"/>"#)) == nil)
    }

    @Test func picturesDeclaringMoreThanTheBudgetAreRefused() throws {
        // A few bytes that declare 30000 x 30000 pixels: librsvg would allocate 3.6 GB to decode them.
        let bomb = Self.embedded(Self.pngHeader(width: 30000, height: 30000))
        let image = #"<image width="10" height="10" href="\#(bomb)"/>"#
        #expect(try refusal(Self.svg(image)) == #"it uses the picture "data:image/png;base64,iVBORw0KGgoAAAA...", which declares 30000 x 30000 pixels; pictures in an SVG may declare 16777216 pixels (4096 x 4096) all together"#)
        // The budget is for all pictures together; a JPEG's size is in its start-of-frame segment.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x0B, 0xB8, 0x0F, 0xA0, 0x03]
        let photo = #"<image width="1" height="1" xlink:href="\#(Self.embedded(jpeg, type: "image/jpeg"))"/>"#
        #expect(try refusal(Self.svg(photo)) == nil)
        let budget = #"<image width="1" height="1" href="\#(Self.embedded(Self.pngHeader(width: 4000, height: 4000)))"/>"#
        #expect(try refusal(Self.svg(photo + budget))?.contains("which declares 4000 x 4000 pixels") == true)
        // A picture file beside the SVG is read too, and an SVG used as a picture is checked whole.
        _ = try write("art/big.png", Self.pngHeader(width: 20000, height: 100))
        #expect(try refusal(Self.svg(#"<image width="9" height="9" href="big.png"/>"#))?.hasPrefix(#"it uses the picture "big.png", which declares 20000 x 100"#) == true)
        let inner = Self.embedded(Array(Self.filter(#"<feTurbulence numOctaves="50"/>"#).utf8), type: "image/svg+xml")
        #expect(try refusal(Self.svg(#"<image width="9" height="9" href="\#(inner)"/>"#))?.hasSuffix("cannot be used: its feTurbulence has the numOctaves 50; the limit is 10") == true)
        // A picture whose size cannot be read before decoding is refused; a real small PNG is fine.
        #expect(try refusal(Self.svg(#"<image width="9" height="9" href="\#(Self.embedded(Array("BM not really".utf8), type: "image/bmp"))"/>"#))?
                .contains("not a PNG, JPEG, GIF or SVG") == true)
        let small = folder.url.appendingPathComponent("art/small.png")
        try RenderedFrame(width: 4, height: 4).writePNG(to: small)
        let smallBytes = [UInt8](try Data(contentsOf: small))
        #expect(try refusal(Self.svg(#"<image width="9" height="9" href="\#(Self.embedded(smallBytes))"/><image href="small.png"/>"#)) == nil)
    }

    @Test func longTextIsRefusedBeforeLayout() throws {
        // One element of 4000 characters without a space takes librsvg 18 s to draw; its cost grows faster than its length.
        let perElement = "one of its text elements holds more than 512 bytes of text"
        #expect(try refusal(Self.svg("<text x=\"0\" y=\"20\">" + String(repeating: "x", count: 4000) + "</text>")) == perElement)
        // Its spans count with it, and an entity counts as what it expands to.
        #expect(try refusal(Self.svg("<text>" + String(repeating: "<tspan>" + String(repeating: "x", count: 200) + "</tspan>", count: 3) + "</text>"))
                == perElement)
        let entity = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY w ""# + String(repeating: "x", count: 300) + #"">]>"#
            + Self.svg("<text>&w;&w;</text>")
        #expect(try refusal(entity) == perElement)
        // Many short elements count together.
        let labels = String(repeating: "<text><tspan>" + String(repeating: "x", count: 300) + "</tspan></text>", count: 20)
        #expect(try refusal(Self.svg(labels)) == "its text elements hold more than 4 KiB of text")
        // Labels pass; text that is never laid out (a description) does not count.
        #expect(try refusal(Self.svg("<text>Act one</text><text>" + String(repeating: "x", count: 500) + "</text><desc>"
                                     + String(repeating: "word ", count: 4000) + "</desc>")) == nil)
    }

    @Test func theRendererRefusesTheSameFilesWithTheSameReasonAndDrawsNothing() throws {
        let path = try write("art/long.svg", Array(Self.svg(##"<rect width="320" height="180" fill="#fff"/><text y="20">"##
                                                           + String(repeating: "x", count: 600) + "</text>").utf8))
        let rect = Rect(x: 0, y: 0, width: 100, height: 100)
        let renderer = FrameRenderer(imageDirectory: folder.url)
        let frame = try renderer.render(RenderFixtures.snapshot([NodeSnapshot(bounds: rect, content: .image(ImageContent(path: path, rect: rect)))]),
                                        width: 50, height: 50)
        #expect(frame.pixel(x: 25, y: 25) & 0xffffff == 0)
        #expect(renderer.warnings == ["image \(path): one of its text elements holds more than 512 bytes of text; drawn as nothing"])
    }

    @Test func checkReportsTheLimitAtTheNode() throws {
        _ = try write("art/noise.svg", Array(Self.filter(#"<feTurbulence numOctaves="1000000000"/>"#).utf8))
        let json = """
            { "canvas": { "width": 100, "height": 100, "background": "#000" },
              "languages": { "default": "en", "fallback": "en", "available": ["en"] },
              "sounds": {},
              "scenes": [{ "id": "a", "title": "A", "duration": 1, "nodes": [
                { "type": "image", "path": "art/noise.svg", "width": 10, "height": 10 }
              ]}]
            }
            """
        let scenes = try write("scenes.json", Array(json.utf8))
        let loaded = try DocumentLoader.load(path: scenes)
        let problems = ArtChecks.diagnostics(for: loaded.mediaReferences, root: folder.url.path, skipping: [])
            .map { "\($0.line):\($0.column): \($0.message) (at \($0.path))\n  hint: \($0.hint ?? "")" }
        #expect(problems == [
            """
            5:32: the SVG image "art/noise.svg" cannot be used: its feTurbulence has the numOctaves 1000000000; the limit is 10 (at scenes[0].nodes[0].path)
              hint: each octave past the 10th changes no visible value, and each costs a pass over every pixel; use at most 10
            """,
        ])
    }
}
