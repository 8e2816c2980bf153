import DioramaDocument
import DioramaTimeline
import DioramaRender
import Foundation
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// The chrome's contrast over the shipped playlist, measured in rendered frames.
///
/// How it is measured: each scene of scenes.json is rendered with the overlay at every whole second (0, 1, ... below
/// its duration; the progress bars as the player shows them then), at 800x450. For every element of the chrome - each
/// progress bar's track (the part its fill does not cover), each bar's fill, the title's glyphs, each page dot -
/// the element's *core* is the pixels it covers fully (coverage at least 0.95: the shapes' coverage computed from
/// their geometry with 4x4 samples a pixel, the title's from a render of its text alone, white on black), and its
/// *surround* is the pixels within 2 pixels of the core that no element of the chrome covers at all (so the
/// scrim, the outlines, the title's shadow and the scene behind them). The element's luminance is the median of its
/// core's WCAG 2.1 relative luminances in the rendered frame; the surround's is its 90th percentile when the element is
/// the brighter (its brightest tenth, where a light element is hardest to see) and its 10th otherwise. The contrast
/// is (L1 + 0.05) / (L2 + 0.05) of the two, and WCAG's non-text contrast asks at least 3:1.
@Suite struct ChromeContrastTests {
    static let size = (width: 800, height: 450)

    /// One measured element's worst contrast.
    struct Worst: CustomStringConvertible {
        var contrast = Double.infinity
        var at = ""
        mutating func add(_ contrast: Double, _ at: @autoclosure () -> String) {
            if contrast < self.contrast { (self.contrast, self.at) = (contrast, at()) }
        }
        var description: String { contrast.isFinite ? String(format: "%.2f (%@)", contrast, at) : "-" }
    }

    struct SceneFigures {
        var id: String
        var track = Worst(), fill = Worst(), title = Worst(), dots = Worst()
        var worst: Double { [track, fill, title, dots].map(\.contrast).min()! }
    }

    /// Measures the chrome drawn by `overlay` over every second of the scenes `only` names (all when nil).
    static func measure(only: Set<String>? = nil,
                        overlay: (OverlayComposer, OverlayContent) -> [NodeSnapshot] = { $0.nodes(for: $1) }) throws -> [SceneFigures] {
        let loaded = try DocumentLoader.load(path: DioramaCommand.repositoryRoot.appendingPathComponent("scenes.json").path)
        let document = loaded.document
        let scenes = EvaluatedScenes()
        let renderer = CairoSnapshotRenderer(imageDirectory: loaded.baseDirectory)
        let canvas = Size(width: document.canvas.width, height: document.canvas.height)
        let layout = OverlayLayout(canvas: canvas, sceneCount: document.scenes.count)
        let composer = OverlayComposer(layout: layout)
        let clock = PlaylistClock(durations: document.scenes.map(\.duration))
        let (width, height) = size
        let scale = Double(width) / canvas.width
        var figures: [SceneFigures] = []
        for (index, scene) in document.scenes.enumerated() where only?.contains(scene.id) ?? true {
            var sceneFigures = SceneFigures(id: scene.id)
            let title = scene.title.resolved(language: "en", fallback: document.languages.fallback)
            var titleCoverage: [Int: Double]?
            // Within a scene the chrome's shapes and what they cover change only where the current bar fills.
            var coverages: [String: [Int: Double]] = [:]
            var surrounds: [String: [Int]] = [:]
            for second in 0..<Int(scene.duration.doubleValue.rounded(.up)) {
                let time = Double(second)
                let progress = clock.progress(scene: index, sceneFrame: time * 48_000, sampleRate: 48_000)
                let content = OverlayContent(progress: progress, currentScene: index, title: title)
                let nodes = overlay(composer, content)
                let frame = FrameComposer.compose(scene: scenes.snapshot(of: document, scene: index, time: time, language: "en"),
                                                  overlay: nodes)
                let pixels = try Self.render(frame, renderer: renderer)
                var elements = try Self.elements(of: nodes, layout: layout, scale: scale, renderer: renderer, title: &titleCoverage,
                                                 coverages: &coverages)
                var covered = [Bool](repeating: false, count: width * height)
                for element in elements { for p in element.coverage.keys { covered[p] = true } }
                for i in elements.indices {
                    let key = "\(elements[i].name) \(elements[i].core.first ?? -1) \(elements[i].core.count)"
                    if surrounds[key] == nil { surrounds[key] = Self.surround(of: elements[i].core, excluding: covered) }
                    elements[i].surround = surrounds[key]!
                }
                for element in elements where !element.core.isEmpty && !element.surround.isEmpty {
                    let contrast = Self.contrast(core: element.core.map { Self.luminance(pixels[$0]) },
                                                 surround: element.surround.map { Self.luminance(pixels[$0]) })
                    let at = "\(element.name) at \(second) s"
                    switch element.kind {
                    case .track: sceneFigures.track.add(contrast, at)
                    case .fill: sceneFigures.fill.add(contrast, at)
                    case .title: sceneFigures.title.add(contrast, at)
                    case .dot: sceneFigures.dots.add(contrast, at)
                    }
                }
            }
            figures.append(sceneFigures)
        }
        return figures
    }

    @Test func theBarsTitleAndDotsKeepThreeToOneOverEveryShippedSceneAtEverySecond() throws {
        let figures = try Self.measure()
        #expect(figures.count == 11, "every shipped scene measured")
        for scene in figures {
            print("contrast \(scene.id): worst \(String(format: "%.2f", scene.worst)); tracks \(scene.track); fills \(scene.fill); "
                  + "title \(scene.title); dots \(scene.dots)")
            #expect(scene.worst >= 3, "\(scene.id): tracks \(scene.track), fills \(scene.fill), title \(scene.title), dots \(scene.dots)")
        }
    }

    /// The measure can fail: the chrome as it was before the scrim (translucent tracks and dots without outline or
    /// shade, the title's softer shadow) falls short over the elevator's cream wall.
    @Test func theChromeWithoutItsScrimAndOutlinesFailsTheMeasure() throws {
        let figures = try Self.measure(only: ["elevator", "swing"]) { composer, content in
            composer.nodes(for: content).compactMap(Self.unshaded)
        }
        for scene in figures {
            print("contrast without the scrim \(scene.id): worst \(String(format: "%.2f", scene.worst)); tracks \(scene.track); "
                  + "fills \(scene.fill); title \(scene.title); dots \(scene.dots)")
        }
        #expect(figures.first { $0.id == "elevator" }!.track.contrast < 2)
    }

    /// `node` as the overlay drew it before the scrim: no shade, no outlines, the track at 35 % and inactive dots at
    /// 45 % white, the title's shadow at 55 %, 4 points.
    static func unshaded(_ node: NodeSnapshot) -> NodeSnapshot? {
        guard let id = node.id, !id.hasPrefix("overlay.scrim") else { return nil }
        var node = node
        if case .shape(var shape) = node.content {
            shape.stroke = nil
            if id.hasSuffix(".track") { shape.fill = .solid(Color(red: 1, green: 1, blue: 1, alpha: 0.35)) }
            if id.hasPrefix("overlay.dot."), case .solid(let color) = shape.fill, color.alpha < 1 {
                shape.fill = .solid(Color(red: 1, green: 1, blue: 1, alpha: 0.45))
            }
            node.content = .shape(shape)
        }
        if id == "overlay.title" { node.shadow?.color.alpha = 0.55 }
        return node
    }

    // MARK: - Measuring

    enum Kind { case track, fill, title, dot }

    struct Element {
        var name: String
        var kind: Kind
        /// Coverage 0...1 of the pixels it touches, by pixel index.
        var coverage: [Int: Double]
        var core: [Int] = []
        var surround: [Int] = []
    }

    /// The WCAG 2.1 relative luminance of an opaque 0xAARRGGBB pixel.
    static func luminance(_ pixel: UInt32) -> Double {
        func linear(_ shift: UInt32) -> Double {
            let c = Double((pixel >> shift) & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(16) + 0.7152 * linear(8) + 0.0722 * linear(0)
    }

    static func render(_ frame: Snapshot, renderer: CairoSnapshotRenderer) throws -> [UInt32] {
        var pixels = [UInt32](repeating: 0, count: size.width * size.height)
        try pixels.withUnsafeMutableBytes {
            try renderer.draw(frame, into: $0.baseAddress!, width: size.width, height: size.height, stride: size.width * 4,
                              holdsLastFrame: false)
        }
        return pixels
    }

    static func contrast(core: [Double], surround: [Double]) -> Double {
        let element = core.sorted()[core.count / 2]
        let around = surround.sorted()
        let brighter = element >= around[around.count / 2]
        let other = around[min(around.count - 1, Int(Double(around.count) * (brighter ? 0.9 : 0.1)))]
        return (max(element, other) + 0.05) / (min(element, other) + 0.05)
    }

    /// The chrome's elements among `nodes`, with their coverage and core.
    static func elements(of nodes: [NodeSnapshot], layout: OverlayLayout, scale: Double,
                         renderer: CairoSnapshotRenderer, title: inout [Int: Double]?,
                         coverages: inout [String: [Int: Double]]) throws -> [Element] {
        var elements: [Element] = []
        var fills: [Int: [Int: Double]] = [:]
        for node in nodes {
            guard let id = node.id else { continue }
            if id == "overlay.title", case .text(var text) = node.content {
                if title == nil {
                    text.paint = .solid(.white)
                    let alone = Snapshot(canvas: layout.canvas, background: .solid(.black),
                                         nodes: [NodeSnapshot(bounds: node.bounds, content: .text(text))])
                    var coverage: [Int: Double] = [:]
                    for (p, pixel) in try render(alone, renderer: renderer).enumerated() where pixel & 0xFF_0000 != 0 {
                        coverage[p] = Double((pixel >> 16) & 0xFF) / 255
                    }
                    title = coverage
                }
                elements.append(Element(name: "title", kind: .title, coverage: title!))
            }
            guard case .shape(let shape) = node.content else { continue }
            guard id.hasPrefix("overlay.bar.") || id.hasPrefix("overlay.dot.") else { continue }
            let key = String(describing: shape.geometry)
            if coverages[key] == nil { coverages[key] = Self.coverage(of: shape.geometry, scale: scale) }
            let coverage = coverages[key]!
            let parts = id.split(separator: ".")
            if id.hasPrefix("overlay.bar."), parts.count == 4 {
                let bar = Int(parts[2])!
                if parts[3] == "fill" {
                    fills[bar] = coverage
                    elements.append(Element(name: "bar \(bar) fill", kind: .fill, coverage: coverage))
                } else {
                    elements.append(Element(name: "bar \(bar) track", kind: .track, coverage: coverage))
                }
            } else if id.hasPrefix("overlay.dot.") {
                elements.append(Element(name: "dot \(parts[2])", kind: .dot, coverage: coverage))
            }
        }
        for i in elements.indices {
            let fill = elements[i].kind == .track ? fills[Int(elements[i].name.split(separator: " ")[1])!] : nil
            // A track's core is what its fill leaves uncovered.
            elements[i].core = elements[i].coverage.filter { p, value in value >= 0.95 && fill?[p] == nil }.keys.sorted()
        }
        return elements
    }

    /// Coverage of a rect (rounded) or ellipse in canvas points, at `scale` pixels a point, from 4x4 samples a pixel.
    static func coverage(of geometry: Geometry, scale: Double) -> [Int: Double] {
        let (width, height) = size
        var coverage: [Int: Double] = [:]
        let inside: (Double, Double) -> Bool
        let box: Rect
        switch geometry {
        case .rect(let rect, let radius):
            box = rect
            inside = { x, y in
                let cx = min(max(x, rect.x + radius), rect.x + rect.width - radius)
                let cy = min(max(y, rect.y + radius), rect.y + rect.height - radius)
                return x >= rect.x && x <= rect.x + rect.width && y >= rect.y && y <= rect.y + rect.height
                    && (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius + 1e-9
            }
        case .ellipse(let center, let rx, let ry):
            box = Rect(x: center.x - rx, y: center.y - ry, width: 2 * rx, height: 2 * ry)
            inside = { x, y in
                let dx = (x - center.x) / rx, dy = (y - center.y) / ry
                return dx * dx + dy * dy <= 1
            }
        default:
            return coverage
        }
        let x0 = max(0, Int((box.x * scale).rounded(.down)) - 1), x1 = min(width - 1, Int(((box.x + box.width) * scale).rounded(.up)) + 1)
        let y0 = max(0, Int((box.y * scale).rounded(.down)) - 1), y1 = min(height - 1, Int(((box.y + box.height) * scale).rounded(.up)) + 1)
        guard x0 <= x1, y0 <= y1 else { return coverage }
        for py in y0...y1 {
            for px in x0...x1 {
                var hits = 0
                for sy in 0..<4 {
                    for sx in 0..<4 where inside((Double(px) + (Double(sx) + 0.5) / 4) / scale, (Double(py) + (Double(sy) + 0.5) / 4) / scale) {
                        hits += 1
                    }
                }
                if hits > 0 { coverage[py * width + px] = Double(hits) / 16 }
            }
        }
        return coverage
    }

    /// The pixels within 2 pixels of `core` that `covered` does not mark.
    static func surround(of core: [Int], excluding covered: [Bool]) -> [Int] {
        let (width, height) = size
        var seen = Set<Int>()
        for p in core {
            let x = p % width, y = p / width
            for dy in -2...2 {
                for dx in -2...2 {
                    let nx = x + dx, ny = y + dy
                    guard nx >= 0, nx < width, ny >= 0, ny < height else { continue }
                    let n = ny * width + nx
                    if !covered[n] { seen.insert(n) }
                }
            }
        }
        return seen.sorted()
    }
}

/// Pictures of the chrome to look at: with `DIORAMA_CHROME_SHOTS=FOLDER` in the environment, writes the overlay over
/// the elevator and the swing (before and after the scrim), the help in Japanese and a held press's feedback as PNG
/// files into FOLDER; without it, does nothing.
@Suite struct ChromePictures {
    @Test func writesThePicturesWhenAskedTo() throws {
        guard let folder = ProcessInfo.processInfo.environment["DIORAMA_CHROME_SHOTS"] else { return }
        let loaded = try DocumentLoader.load(path: DioramaCommand.repositoryRoot.appendingPathComponent("scenes.json").path)
        let document = loaded.document
        let renderer = CairoSnapshotRenderer(imageDirectory: loaded.baseDirectory)
        let canvas = Size(width: document.canvas.width, height: document.canvas.height)
        let composer = OverlayComposer(layout: OverlayLayout(canvas: canvas, sceneCount: document.scenes.count))
        let clock = PlaylistClock(durations: document.scenes.map(\.duration))
        let scenes = EvaluatedScenes()
        func write(_ name: String, scene id: String, time: Double, language: String = "en", unshaded: Bool = false,
                   change: (inout OverlayContent) -> Void = { _ in }) throws {
            let index = document.scenes.firstIndex { $0.id == id }!
            var content = OverlayContent(
                progress: clock.progress(scene: index, sceneFrame: time * 48_000, sampleRate: 48_000), currentScene: index,
                title: document.scenes[index].title.resolved(language: language, fallback: "en"), text: ChromeText(language: language))
            change(&content)
            var overlay = composer.nodes(for: content)
            if unshaded { overlay = overlay.compactMap(ChromeContrastTests.unshaded) }
            let frame = FrameComposer.compose(scene: scenes.snapshot(of: document, scene: index, time: time, language: language),
                                              overlay: overlay)
            try renderer.renderer.render(frame, width: 1280, height: 720)
                .writePNG(to: URL(fileURLWithPath: folder).appendingPathComponent(name + ".png"))
        }
        try write("scrim-elevator", scene: "elevator", time: 8)
        try write("scrim-elevator-before", scene: "elevator", time: 8, unshaded: true)
        try write("scrim-swing", scene: "swing", time: 9)
        try write("scrim-swing-before", scene: "swing", time: 9, unshaded: true)
        try write("scrim-kaleidoscope", scene: "kaleidoscope", time: 9)
        try write("help-ja", scene: "flower", time: 5, language: "ja") { $0.showsHelp = true }
        try write("help-zh", scene: "flower", time: 5, language: "zh") { $0.showsHelp = true }
        try write("toast-ja", scene: "ocean", time: 5, language: "ja") { $0.toast = "音量 90%" }
        try write("hold-half", scene: "elevator", time: 8) { $0.hold = 0.5 }
        try write("hold", scene: "elevator", time: 8) { $0.hold = 1 }
    }
}
