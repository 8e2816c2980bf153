import CCairo
import DioramaDocument
import DioramaRender
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

/// Image assets of a Lottie file, in the layout After Effects' exporter (bodymovin) writes: the JSON beside an
/// images/ folder, each asset `"u": "images/", "p": "img_0.png"`. They are drawn from there, and an asset whose
/// path leaves the scenes folder is refused before rlottie reads it.
@Suite struct LottieImageAssetTests {
    let outer: TemporaryFolder
    /// The scenes folder, inside `outer`, so a file can sit just outside it.
    let scenes: URL

    init() throws {
        outer = try TemporaryFolder()
        scenes = outer.url.appendingPathComponent("scenes")
        try FileManager.default.createDirectory(at: scenes.appendingPathComponent("art/images"), withIntermediateDirectories: true)
        try Self.writeRedPNG(to: scenes.appendingPathComponent("art/images/img_0.png").path)
        try Self.writeRedPNG(to: outer.url.appendingPathComponent("outside.png").path)
    }

    static func writeRedPNG(to path: String) throws {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 100, 100)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, 1, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        #expect(cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS)
    }

    /// A 100x100 composition showing one image layer of the asset at `u` + `p`.
    static func json(u: String, p: String) -> String {
        LottieFixtures.json(layers: """
            [{"ddd": 0, "ind": 1, "ty": 2, "nm": "picture", "refId": "image_0", "sr": 1, "ao": 0, "ip": 0, "op": 60, "st": 0, "bm": 0,
              "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [0, 0, 0]}, "a": {"a": 0, "k": [0, 0, 0]},
                     "s": {"a": 0, "k": [100, 100, 100]}}}]
            """).replacingOccurrences(of: #""assets": [],"#,
                                      with: #""assets": [{"id": "image_0", "w": 100, "h": 100, "u": "\#(u)", "p": "\#(p)", "e": 0}],"#)
    }

    func render(_ name: String) throws -> (frame: RenderedFrame, warnings: [String]) {
        let rect = Rect(x: 0, y: 0, width: 100, height: 100)
        let snapshot = Snapshot(canvas: Size(width: 100, height: 100), background: .solid(.black), nodes: [
            NodeSnapshot(bounds: rect, content: .lottie(LottieSnapshot(path: name, rect: rect, frame: 0, inPoint: 0))),
        ])
        let renderer = FrameRenderer(imageDirectory: scenes)
        let frame = try renderer.render(snapshot, width: 100, height: 100)
        return (frame, renderer.warnings)
    }

    @Test func theExportersImagesFolderIsFoundBesideTheJSON() throws {
        try Data(Self.json(u: "images/", p: "img_0.png").utf8).write(to: scenes.appendingPathComponent("art/anim.json"))
        let (frame, warnings) = try render("art/anim.json")
        // Red, as rlottie resamples it (0xfd0000 here).
        let pixel = frame.pixel(x: 50, y: 50)
        #expect((pixel >> 16) & 0xff > 240 && (pixel >> 8) & 0xff < 8 && pixel & 0xff < 8)
        #expect(warnings.isEmpty)
    }

    @Test func anAssetOutsideTheScenesFolderIsRefusedAndNothingIsDrawn() throws {
        // The scenes folder + "/../../" + "outside.png" names the file beside the scenes folder.
        try Data(Self.json(u: "/../../", p: "outside.png").utf8).write(to: scenes.appendingPathComponent("art/escape.json"))
        let (frame, warnings) = try render("art/escape.json")
        #expect(frame.pixel(x: 50, y: 50) & 0xffffff == 0)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains(#"at "/../../outside.png", an absolute path; drawn as nothing"#) == true)
    }
}
