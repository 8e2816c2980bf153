import CCairo
import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import DioramaVectorArt
import Foundation
import Testing

/// SVG images: drawn as vectors at the frame's resolution, one element in its place, rasters cached by file,
/// size and scale within their bound, hostile files refused with a reason; and sprite sheets showing one cell.
@Suite struct VectorArtTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder.path(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A black square on white whose left edge is at x = 10.5 of a 100-wide drawing.
    static let edgeSVG = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
          <rect width="100" height="100" fill="#fff"/>
          <rect id="square" x="10.5" y="10.5" width="40" height="40" fill="#000"/>
          <circle id="dot" cx="80" cy="80" r="10" fill="#f00"/>
        </svg>
        """

    func image(_ path: String, element: String? = nil, sprite: SpriteSheet? = nil, rect: Rect = Rect(x: 0, y: 0, width: 100, height: 100),
               transform: Transform2D = .identity) -> NodeSnapshot {
        NodeSnapshot(transform: transform, bounds: rect, content: .image(ImageContent(path: path, rect: rect, element: element, sprite: sprite)))
    }

    func red(_ pixel: UInt32) -> Int { Int((pixel >> 16) & 0xff) }

    @Test func anSVGDrawnAtTwiceTheScaleIsSharpNotAnEnlargedRaster() throws {
        let path = try write("edge.svg", Self.edgeSVG)
        let renderer = FrameRenderer(imageDirectory: folder.url)
        let once = try renderer.render(RenderFixtures.snapshot([image(path)]), width: 100, height: 100)
        // At 1x the edge at 10.5 half covers pixel 10.
        #expect((100...160).contains(red(once.pixel(x: 10, y: 30))))
        let twice = try renderer.render(RenderFixtures.snapshot([image(path)]), width: 200, height: 200)
        // At 2x the edge falls on pixel 21 exactly: white, then black, with no grey between (an enlarged 1x
        // raster would have two grey pixels there).
        #expect(red(twice.pixel(x: 20, y: 60)) == 255)
        #expect(red(twice.pixel(x: 21, y: 60)) == 0)
        // And so under a scale animation: the node scaled 2x at 1x output.
        let scaled = try renderer.render(RenderFixtures.snapshot(width: 200, height: 200, [image(path, transform: Transform2D(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))]),
                                         width: 200, height: 200)
        #expect(red(scaled.pixel(x: 20, y: 60)) == 255)
        #expect(red(scaled.pixel(x: 21, y: 60)) == 0)
    }

    @Test func anElementIsDrawnAloneWhereItSitsInTheWholeDrawing() throws {
        let path = try write("edge.svg", Self.edgeSVG)
        let frame = try FrameRenderer(imageDirectory: folder.url)
            .render(RenderFixtures.snapshot(background: .black, [image(path, element: "#dot")]), width: 100, height: 100)
        // The dot, red, at (80, 80); the white backdrop and the square are left out.
        #expect(frame.pixel(x: 80, y: 80) & 0xffffff == 0xff0000)
        #expect(frame.pixel(x: 5, y: 5) & 0xffffff == 0)
        #expect(frame.pixel(x: 30, y: 30) & 0xffffff == 0)
    }

    @Test func modifiersApplyToSVGImages() throws {
        let path = try write("edge.svg", Self.edgeSVG)
        var node = image(path, element: "#dot")
        node.opacity = 0.5
        node.hueRotation = 120
        let frame = try FrameRenderer(imageDirectory: folder.url).render(RenderFixtures.snapshot(background: .black, [node]), width: 100, height: 100)
        let pixel = frame.pixel(x: 80, y: 80)
        // Red turned a third of the way round (the hue-rotate matrix gives green 0.44), at half strength: about 56.
        #expect((pixel >> 8) & 0xff > 40 && (pixel >> 8) & 0xff < 72)
        #expect((pixel >> 16) & 0xff < 20)
    }

    /// Paints the whole raster (ink everywhere), in points.
    static func fill(_ cr: OpaquePointer, x: Double = 0, y: Double = 0, width: Double = 1000, height: Double = 1000) {
        cairo_set_source_rgba(cr, 0.2, 0.4, 0.8, 0.5)
        cairo_rectangle(cr, x, y, width, height)
        cairo_fill(cr)
    }

    @Test func aPartOfALargeDrawingKeepsOnlyItsInkAndPaintsWhereItWas() throws {
        // A 10x20-point part at (30, 40) of a 100x100 drawing, at scale 2: 20x40 pixels kept, not 200x200.
        let cache = VectorArtRasterCache()
        let key = VectorArtRasterCache.Key(path: "/part.svg", element: "#p", width: 100, height: 100, scale: 2)
        let raster = try #require(cache.raster(for: key) { Self.fill($0, x: 30, y: 40, width: 10, height: 20) })
        #expect(raster.ink.x == 60 && raster.ink.y == 80 && raster.ink.width == 20 && raster.ink.height == 40)
        #expect(cache.byteCount == 20 * 40 * 4)
        #expect(cairo_image_surface_get_width(raster.surface) == 20 && cairo_image_surface_get_height(raster.surface) == 40)
        // Growing the bound for a larger output never shrinks it.
        cache.ensureCapacity(1)
        #expect(cache.capacity == 64 * 1024 * 1024)
        cache.ensureCapacity(256 * 1024 * 1024)
        #expect(cache.capacity == 256 * 1024 * 1024)
    }

    @Test func aStillSVGIsRasterizedOncePerSizeAndScale() throws {
        let cache = VectorArtRasterCache()
        let key = VectorArtRasterCache.Key(path: "/a.svg", element: nil, width: 100, height: 50, scale: 2)
        var draws = 0
        _ = cache.raster(for: key) { draws += 1; Self.fill($0) }
        _ = cache.raster(for: key) { draws += 1; Self.fill($0) }
        #expect(draws == 1 && cache.hits == 1 && cache.misses == 1)
        #expect(cache.byteCount == 200 * 100 * 4)
        _ = cache.raster(for: VectorArtRasterCache.Key(path: "/a.svg", element: nil, width: 100, height: 50, scale: 3)) { _ in draws += 1 }
        _ = cache.raster(for: VectorArtRasterCache.Key(path: "/a.svg", element: "#leg", width: 100, height: 50, scale: 2)) { _ in draws += 1 }
        #expect(draws == 3 && cache.count == 3)
    }

    @Test func theLeastRecentlyUsedRasterGoesFirstAtTheBound() throws {
        // Room for two 100x100 rasters (40,000 bytes each).
        let cache = VectorArtRasterCache(capacity: 100_000)
        func key(_ name: String) -> VectorArtRasterCache.Key { .init(path: name, element: nil, width: 100, height: 100, scale: 1) }
        _ = cache.raster(for: key("a")) { Self.fill($0) }
        _ = cache.raster(for: key("b")) { Self.fill($0) }
        _ = cache.raster(for: key("a")) { Self.fill($0) }  // a is now the more recent
        _ = cache.raster(for: key("c")) { Self.fill($0) }
        #expect(cache.contains(key("a")) && cache.contains(key("c")) && !cache.contains(key("b")))
        #expect(cache.byteCount == 80_000 && cache.byteCount <= cache.capacity)
        // A raster larger than the whole bound is never kept.
        #expect(cache.raster(for: .init(path: "huge", element: nil, width: 1000, height: 1000, scale: 1)) { _ in } == nil)
        #expect(VectorArtRasterCache().capacity == 64 * 1024 * 1024)
    }

    @Test func scalesAreRoundedUpToFourBitsOfMantissa() {
        for exact in [0.5, 0.75, 1, 1.5, 2, 3] { #expect(VectorArtRasterCache.quantizedScale(exact) == exact) }
        #expect(VectorArtRasterCache.quantizedScale(1.01) == 1.0625)
        #expect(VectorArtRasterCache.quantizedScale(0.667) == 0.6875)
        #expect(VectorArtRasterCache.quantizedScale(0) == 0)
    }

    // MARK: Hostile files

    func refusal(_ text: String, name: String = "art/x.svg") throws -> VectorArtError? {
        let path = try write(name, text)
        do {
            _ = try VectorArt.load(path: path, allowedRoot: folder.url.path)
            return nil
        } catch {
            return error
        }
    }

    @Test func referencesOutsideTheScenesFolderOrToTheNetworkAreRefused() throws {
        let outside = try refusal(##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="../../secret.png" width="9" height="9"/></svg>"##)
        #expect(outside?.reason.contains("outside the scenes file's folder") == true)
        let network = try refusal(##"<svg xmlns="http://www.w3.org/2000/svg"><image href="http://example.com/x.png" width="9" height="9"/></svg>"##)
        #expect(network?.reason.contains("network") == true)
        let css = try refusal(##"<svg xmlns="http://www.w3.org/2000/svg"><style>@import "https://example.com/a.css";</style></svg>"##)
        #expect(css?.reason.contains("network") == true)
        let absolute = try refusal(##"<svg xmlns="http://www.w3.org/2000/svg"><image href="/etc/passwd" width="9" height="9"/></svg>"##)
        #expect(absolute?.reason.contains("absolute path") == true)
        // Inside the folder, fragments and data URLs are fine.
        #expect(try refusal(##"<svg xmlns="http://www.w3.org/2000/svg"><image href="../pic.png" width="9" height="9"/><use href="#a"/><rect id="a" fill="url(#g)"/></svg>"##) == nil)
    }

    @Test func entityExpansionAndExternalEntitiesAreRefused() throws {
        var laughs = ##"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol "lol">"##
        for level in 1...9 { laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">" }
        laughs += ##"]><svg xmlns="http://www.w3.org/2000/svg"><text>&lol9;</text></svg>"##
        #expect(try refusal(laughs)?.reason.contains("refers to other entities") == true)
        let external = ##"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>"##
        #expect(try refusal(external)?.reason.contains("external") == true)
        let wide = "<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY big \"" + String(repeating: "x", count: 10_000) + "\">]><svg xmlns=\"http://www.w3.org/2000/svg\"><text>"
            + String(repeating: "&big;", count: 200) + "</text></svg>"
        #expect(try refusal(wide)?.reason.contains("expand to more than") == true)
        // An entity used sparingly, as some editors write namespaces, is fine.
        #expect(try refusal(##"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY ns "http://www.w3.org/2000/svg">]><svg xmlns="&ns;" width="4" height="4"/>"##) == nil)
    }

    @Test func deepNestingHugeSizesAndBrokenFilesAreRefused() throws {
        let deep = ##"<svg xmlns="http://www.w3.org/2000/svg">"## + String(repeating: "<g>", count: 5000) + String(repeating: "</g>", count: 5000) + "</svg>"
        #expect(try refusal(deep)?.reason.contains("nested more than 200") == true)
        let huge = try refusal(##"<svg xmlns="http://www.w3.org/2000/svg" width="1000000" height="10"/>"##)
        #expect(huge?.reason.contains("declares a size of 1000000 x 10") == true)
        #expect(try refusal("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect></svg")?.reason.hasPrefix("it is not a valid SVG") == true)
        #expect(try refusal("")?.reason == "it is empty")
        #expect(try refusal("plain text, not XML")?.reason.hasPrefix("it is not a valid SVG") == true)
        do {
            _ = try VectorArt.load(path: folder.path("missing.svg"), allowedRoot: folder.url.path)
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.reason == "it does not exist")
        }
    }

    @Test func aRefusedSVGDrawsNothingAndWarnsOnce() throws {
        let path = try write("net.svg", ##"<svg xmlns="http://www.w3.org/2000/svg"><image href="https://example.com/x.png" width="9" height="9"/><rect width="100" height="100" fill="#fff"/></svg>"##)
        let renderer = FrameRenderer(imageDirectory: folder.url)
        let frame = try renderer.render(RenderFixtures.snapshot([image(path)]), width: 50, height: 50)
        _ = try renderer.render(RenderFixtures.snapshot([image(path)]), width: 50, height: 50)
        #expect(frame.pixel(x: 25, y: 25) & 0xffffff == 0)
        #expect(renderer.warnings.count == 1)
        #expect(renderer.warnings.first?.contains("network") == true)
    }

    // MARK: Check

    @Test func checkReportsUnusableSVGsMissingElementsAndGridsThatDoNotDivide() throws {
        _ = try write("art/ok.svg", Self.edgeSVG)
        _ = try write("art/net.svg", ##"<svg xmlns="http://www.w3.org/2000/svg"><image href="http://example.com/x.png"/></svg>"##)
        try RenderedFrame(width: 30, height: 10).writePNG(to: folder.url.appendingPathComponent("art/sheet.png"))
        let json = """
            { "canvas": { "width": 100, "height": 100, "background": "#000" },
              "languages": { "default": "en", "fallback": "en", "available": ["en"] },
              "sounds": {},
              "scenes": [{ "id": "a", "title": "A", "duration": 1, "nodes": [
                { "type": "image", "path": "art/net.svg", "width": 10, "height": 10 },
                { "type": "image", "path": "art/ok.svg", "element": "#leg", "width": 10, "height": 10 },
                { "type": "image", "path": "art/ok.svg", "element": "dot", "width": 10, "height": 10 },
                { "type": "image", "path": "art/sheet.png", "sprite": { "columns": 4, "rows": 1 }, "width": 10, "height": 10 },
                { "type": "image", "path": "art/sheet.png", "sprite": { "columns": 3, "rows": 2 }, "width": 10, "height": 10 }
              ]}]
            }
            """
        let scenes = try write("scenes.json", json)
        let loaded = try DocumentLoader.load(path: scenes)
        let problems = ArtChecks.diagnostics(for: loaded.mediaReferences, root: folder.url.path, skipping: [])
            .map { "\($0.line):\($0.column): \($0.message) (at \($0.path))" }
        #expect(problems == [
            "5:32: the SVG image \"art/net.svg\" cannot be used: it refers to \"http://example.com/x.png\", and SVG files may not fetch anything from the network or by URL (at scenes[0].nodes[0].path)",
            "6:57: the SVG image \"art/ok.svg\" has no element with the id \"leg\" (at scenes[0].nodes[1].element)",
            "8:59: the sprite sheet \"art/sheet.png\" is 30 x 10 pixels, which a grid of 4 × 1 does not divide into whole pixels (at scenes[0].nodes[3].sprite)",
        ])
    }

    @Test func aMissingElementIsReportedWithTheIdsTheDrawingHas() throws {
        // Ids in document order, an id inside a comment or in text is not an element's, a closing tag has none.
        _ = try write("art/mill.svg", ##"""
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
              <!-- <g id="old-sails"/> -->
              <rect id="sky" width="100" height="60" fill="#345"/>
              <g id='sails'><rect id="hub" x="40" y="40" width="8" height="8"/></g>
              <text x="1" y="90">id="caption"</text>
            </svg>
            """##)
        _ = try write("art/plain.svg", Self.edgeSVG.replacingOccurrences(of: #" id="square""#, with: "").replacingOccurrences(of: #" id="dot""#, with: ""))
        let json = """
            { "canvas": { "width": 100, "height": 100 },
              "scenes": [{ "id": "a", "duration": 1, "nodes": [
                { "type": "image", "path": "art/mill.svg", "element": "#sail", "width": 10, "height": 10 },
                { "type": "image", "path": "art/mill.svg", "element": "#roof", "width": 10, "height": 10 },
                { "type": "image", "path": "art/plain.svg", "element": "#dot", "width": 10, "height": 10 }
              ]}]
            }
            """
        let loaded = try DocumentLoader.load(path: try write("scenes.json", json))
        let hints = ArtChecks.diagnostics(for: loaded.mediaReferences, root: folder.url.path, skipping: []).map { "\($0.line): \($0.hint ?? "")" }
        #expect(hints == [
            ##"3: did you mean "#sails"? its elements are "#sky", "#sails", and "#hub""##,
            ##"4: its elements are "#sky", "#sails", and "#hub""##,
            ##"5: its elements have no ids: an element is named by its id attribute, e.g. <g id="left-leg"> is "#left-leg""##,
        ])
        #expect(VectorArt.elementIDs(inFileAt: folder.path("art/mill.svg")) == ["sky", "sails", "hub"])
    }

    // MARK: Sprite sheets

    @Test func aSpriteSheetShowsOneCellStretchedIntoTheRect() throws {
        // A 2 x 2 grid of 4x2-pixel cells, row by row: red, green, blue, white.
        let colours: [UInt32] = [0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffffff]
        var sheet = RenderedFrame(width: 8, height: 4)
        for y in 0..<4 {
            for x in 0..<8 {
                let colour = colours[(y / 2) * 2 + x / 4]
                for byte in 0..<4 { sheet.bytes[(y * 8 + x) * 4 + byte] = UInt8((colour >> (8 * UInt32(byte))) & 0xff) }
            }
        }
        try sheet.writePNG(to: folder.url.appendingPathComponent("sheet.png"))
        let renderer = FrameRenderer(imageDirectory: folder.url)
        for frame in 0..<4 {
            let node = image("sheet.png", sprite: SpriteSheet(columns: 2, rows: 2, frame: frame))
            let rendered = try renderer.render(RenderFixtures.snapshot([node]), width: 100, height: 100)
            // Every pixel, edges included, is the cell's colour: nothing bleeds in from the neighbours.
            for (x, y) in [(0, 0), (50, 50), (99, 99), (99, 0), (0, 99)] {
                #expect(rendered.pixel(x: x, y: y) == colours[frame], "frame \(frame) at \(x),\(y)")
            }
        }
    }

    @Test func aSpriteFrameSteppsThroughWholeFramesAndNeverBlends() {
        let sheet = SpriteSheet(columns: 4, rows: 2, count: 7)
        #expect([-1, 0, 0.99, 1, 6.5, 7, 40].map(sheet.frame(forValue:)) == [0, 0, 0, 1, 6, 6, 6])
    }
}
