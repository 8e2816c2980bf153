import DioramaDocument
import Foundation
import DioramaTimeline

/// Everything the overlay shows at one frame.
public struct OverlayContent: Sendable, Equatable {
    /// Per scene, 0...1: finished scenes 1, the current one its elapsed fraction, later ones (`PlaylistClock.progress`).
    public var progress: [Double]
    public var currentScene: Int
    /// The current scene's title in the chosen language.
    public var title: String
    public var showsBars: Bool
    public var showsHelp: Bool
    public var isPaused: Bool
    /// Lines of the load error shown in the banner (`FILE:LINE:COLUMN: error: ...`), empty when the file is good.
    public var banner: [String]
    /// A short message shown for a moment (volume, language), or nil.
    public var toast: String?
    /// How far the feedback of a held press has faded in, 0 (no hold) to 1 (`StoryViewer.holdFeedback`).
    public var hold: Double
    /// The chrome's words in the player's language.
    public var text: ChromeText

    public init(progress: [Double], currentScene: Int, title: String, showsBars: Bool = true, showsHelp: Bool = false,
                isPaused: Bool = false, banner: [String] = [], toast: String? = nil, hold: Double = 0,
                text: ChromeText = .english) {
        self.progress = progress
        self.currentScene = currentScene
        self.title = title
        self.showsBars = showsBars
        self.showsHelp = showsHelp
        self.isPaused = isPaused
        self.banner = banner
        self.toast = toast
        self.hold = hold
        self.text = text
    }
}

/// Builds the story-viewer overlay as snapshot nodes in canvas points, so the same renderer that
/// draws scenes draws it (in the window and headless alike).
public struct OverlayComposer: Sendable {
    public var layout: OverlayLayout

    static let sans = "DejaVu Sans, Noto Sans CJK SC"
    static let mono = "DejaVu Sans Mono, Noto Sans Mono CJK SC"

    public init(layout: OverlayLayout) {
        self.layout = layout
    }

    public func nodes(for content: OverlayContent) -> [NodeSnapshot] {
        var nodes: [NodeSnapshot] = []
        let hold = min(max(content.hold, 0), 1)
        if content.showsBars {
            nodes += scrims()
            var chrome = progressBars(content.progress)
            chrome.append(title(content.title))
            chrome += pageDots(current: content.currentScene)
            if content.isPaused { chrome.append(pauseBadge()) }
            // A held press dims the chrome while its pause glyph fades in.
            nodes += chrome.map { node in
                var node = node
                node.opacity *= 1 - 0.6 * hold
                return node
            }
        }
        if hold > 0 { nodes.append(holdGlyph(hold)) }
        if !content.banner.isEmpty { nodes.append(banner(content.banner, text: content.text)) }
        if let toast = content.toast { nodes.append(self.toast(toast)) }
        if content.showsHelp { nodes.append(help(content.text)) }
        return nodes
    }

    // MARK: - Parts

    private var unit: Double { layout.unit }

    /// Soft shades under the top bar and the page dots, dark at the edge and clear towards the picture, so the
    /// chrome reads over bright scenes (story viewers' scrim). Eased, so no edge shows where the shade ends.
    private func scrims() -> [NodeSnapshot] {
        func shade(_ rect: Rect, darkest: Double, fromTop: Bool, id: String) -> NodeSnapshot {
            let stops = [(0.0, 1.0), (0.2, 0.86), (0.45, 0.5), (0.7, 0.18), (1.0, 0.0)].map { location, share in
                GradientStop(location: location, color: Color(red: 0, green: 0, blue: 0, alpha: darkest * share))
            }
            let paint = Paint.linear(stops: stops, start: UnitPoint(x: 0.5, y: fromTop ? 0 : 1),
                                     end: UnitPoint(x: 0.5, y: fromTop ? 1 : 0))
            return NodeSnapshot(id: id, bounds: rect,
                                content: .shape(ShapeSnapshot(geometry: .rect(rect, cornerRadius: 0), fill: paint, stroke: nil)))
        }
        return [shade(layout.topScrim, darkest: Self.scrimDarkness, fromTop: true, id: "overlay.scrim.top"),
                shade(layout.bottomScrim, darkest: Self.scrimDarkness, fromTop: false, id: "overlay.scrim.bottom")]
    }

    /// The scrims' alpha at the canvas's edge.
    static let scrimDarkness = 0.72
    /// A thin dark line around the bars and dots, so their edge shows where the shade alone is not dark enough.
    private var outline: Stroke { Stroke(paint: .solid(Color(red: 0, green: 0, blue: 0, alpha: 0.45)), width: 1.5 * unit) }

    private func progressBars(_ progress: [Double]) -> [NodeSnapshot] {
        let track = Paint.solid(Color(red: 1, green: 1, blue: 1, alpha: 0.65))
        let fill = Paint.solid(Color(red: 1, green: 1, blue: 1, alpha: 1))
        var nodes: [NodeSnapshot] = []
        for (index, rect) in layout.progressBars.enumerated() {
            let radius = rect.height / 2
            nodes.append(shape(.rect(rect, cornerRadius: radius), fill: track, stroke: outline, id: "overlay.bar.\(index).track"))
            let fraction = index < progress.count ? min(max(progress[index], 0), 1) : 0
            if fraction > 0 {
                // Never narrower than its height, so the rounded ends stay round.
                let width = max(rect.height, rect.width * fraction)
                let filled = Rect(x: rect.x, y: rect.y, width: width, height: rect.height)
                nodes.append(shape(.rect(filled, cornerRadius: radius), fill: fill, id: "overlay.bar.\(index).fill"))
            }
        }
        return nodes
    }

    private func title(_ text: String) -> NodeSnapshot {
        let origin = layout.titleOrigin
        let font = Font(family: Self.sans, size: layout.titleSize, weight: 700)
        return NodeSnapshot(
            id: "overlay.title", bounds: canvasRect,
            shadow: Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.7), radius: 3 * unit, x: 0, y: 1 * unit),
            content: .text(TextSnapshot(text: text, position: origin, alignment: .leading, font: font, paint: .solid(.white))))
    }

    private func pageDots(current: Int) -> [NodeSnapshot] {
        layout.pageDots.enumerated().map { index, center in
            let alpha = index == current ? 1.0 : 0.75
            let radius = layout.dotRadius
            return shape(.ellipse(center: center, radiusX: radius, radiusY: radius),
                         fill: .solid(Color(red: 1, green: 1, blue: 1, alpha: alpha)), stroke: outline, id: "overlay.dot.\(index)")
        }
    }

    private func pauseBadge() -> NodeSnapshot {
        // Two bars at the top right, under the progress bars.
        let height = 18 * unit, width = 5 * unit, gap = 5 * unit
        let x = layout.canvas.width - layout.margin - 2 * width - gap
        let y = layout.titleOrigin.y - height / 2
        let paint = Paint.solid(Color(red: 1, green: 1, blue: 1, alpha: 0.95))
        let bars = [x, x + width + gap].map { left in
            shape(.rect(Rect(x: left, y: y, width: width, height: height), cornerRadius: 1.5 * unit), fill: paint,
                  stroke: outline, id: nil)
        }
        return NodeSnapshot(id: "overlay.paused", bounds: canvasRect, content: .group(bars))
    }

    /// The feedback of a held press: a pause glyph on a dark disc in the middle, at `opacity`.
    private func holdGlyph(_ opacity: Double) -> NodeSnapshot {
        let center = Point(x: layout.canvas.width / 2, y: layout.canvas.height / 2)
        let radius = 40 * unit, height = 30 * unit, width = 9 * unit, gap = 9 * unit
        var children = [shape(.ellipse(center: center, radiusX: radius, radiusY: radius),
                              fill: .solid(Color(red: 0, green: 0, blue: 0, alpha: 0.45)), id: nil)]
        for left in [center.x - gap / 2 - width, center.x + gap / 2] {
            children.append(shape(.rect(Rect(x: left, y: center.y - height / 2, width: width, height: height), cornerRadius: 2 * unit),
                                  fill: .solid(.white), id: nil))
        }
        return NodeSnapshot(id: "overlay.hold", bounds: canvasRect, opacity: opacity, content: .group(children))
    }

    private func banner(_ lines: [String], text chrome: ChromeText) -> NodeSnapshot {
        let size = 15 * unit, lineHeight = 21 * unit, padding = 12 * unit
        let panelWidth = layout.canvas.width - 2 * layout.margin
        // DejaVu Sans Mono advances 0.602 em per character.
        let columns = max(20, Int((panelWidth - 2 * padding) / (size * 0.602)))
        var shown = lines.flatMap { Self.wrap($0, columns: columns) }
        if shown.count > 8 {
            let hidden = shown.count - 7
            shown = Array(shown.prefix(7)) + [chrome.moreLinesLine(hidden)]
        }
        let height = Double(shown.count) * lineHeight + 2 * padding
        let top = layout.titleOrigin.y + 24 * unit
        let panel = Rect(x: layout.margin, y: top, width: panelWidth, height: height)
        var children = [shape(.rect(panel, cornerRadius: 8 * unit),
                              fill: .solid(Color(red: 0.62, green: 0.08, blue: 0.1, alpha: 0.92)), id: nil)]
        for (index, line) in shown.enumerated() {
            let position = Point(x: panel.x + padding, y: top + padding + (Double(index) + 0.5) * lineHeight)
            children.append(text(line, at: position, alignment: .leading, size: size, family: Self.mono))
        }
        return NodeSnapshot(id: "overlay.banner", bounds: canvasRect, content: .group(children))
    }

    /// `line` broken into pieces of at most `columns` characters, at spaces where there are any;
    /// continuation lines are indented by two spaces.
    static func wrap(_ line: String, columns: Int) -> [String] {
        var pieces: [String] = []
        var rest = Substring(line)
        var limit = columns
        while rest.count > limit {
            let window = rest.prefix(limit)
            let cut = window.lastIndex(of: " ").map { window.distance(from: window.startIndex, to: $0) } ?? limit
            let end = rest.index(rest.startIndex, offsetBy: cut > limit / 3 ? cut : limit)
            pieces.append((pieces.isEmpty ? "" : "  ") + rest[..<end].trimmingCharacters(in: .whitespaces))
            rest = rest[end...].drop { $0 == " " }
            limit = columns - 2
        }
        pieces.append((pieces.isEmpty ? "" : "  ") + rest)
        return pieces
    }

    private func toast(_ message: String) -> NodeSnapshot {
        let size = 18 * unit
        let width = max(160 * unit, ChromeText.estimatedWidth(of: message, size: size) + 40 * unit)
        let height = 40 * unit
        let center = Point(x: layout.canvas.width / 2, y: layout.canvas.height - 70 * unit)
        let panel = Rect(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
        let children = [
            shape(.rect(panel, cornerRadius: height / 2), fill: .solid(Color(red: 0, green: 0, blue: 0, alpha: 0.6)), id: nil),
            text(message, at: center, alignment: .center, size: size, family: Self.sans),
        ]
        return NodeSnapshot(id: "overlay.toast", bounds: canvasRect, content: .group(children))
    }

    /// Layout units between the help panel's edge and its text.
    static let helpPadding = 24.0

    /// The key help in a panel sized from its widest keys and actions plus the padding.
    private func help(_ chrome: ChromeText) -> NodeSnapshot {
        let lines = chrome.help
        let lineHeight = 26 * unit, padding = Self.helpPadding * unit, gutter = 28 * unit
        func widths(size: Double) -> (keys: Double, actions: Double) {
            (lines.map { ChromeText.estimatedWidth(of: $0.keys, size: size, bold: true) }.max() ?? 0,
             lines.map { ChromeText.estimatedWidth(of: $0.action, size: size) }.max() ?? 0)
        }
        // A smaller size where the widest line would not fit the canvas.
        let room = layout.canvas.width - 2 * layout.margin - 2 * padding - gutter
        var size = 17 * unit
        let natural = widths(size: size)
        if natural.keys + natural.actions > room { size *= room / (natural.keys + natural.actions) }
        let (keysWidth, actionsWidth) = widths(size: size)
        let width = 2 * padding + keysWidth + gutter + actionsWidth
        let height = Double(lines.count) * lineHeight + 2 * padding
        let panel = Rect(x: (layout.canvas.width - width) / 2, y: (layout.canvas.height - height) / 2, width: width, height: height)
        var children = [shape(.rect(panel, cornerRadius: 14 * unit),
                              fill: .solid(Color(red: 0.05, green: 0.05, blue: 0.08, alpha: 0.85)), id: nil)]
        let split = panel.x + padding + keysWidth + gutter / 2
        for (index, line) in lines.enumerated() {
            let y = panel.y + padding + (Double(index) + 0.5) * lineHeight
            children.append(text(line.keys, at: Point(x: split - gutter / 2, y: y), alignment: .trailing, size: size,
                                 family: Self.sans, weight: 700))
            children.append(text(line.action, at: Point(x: split + gutter / 2, y: y), alignment: .leading, size: size,
                                 family: Self.sans))
        }
        return NodeSnapshot(id: "overlay.help", bounds: canvasRect, content: .group(children))
    }

    // MARK: - Building blocks

    private var canvasRect: Rect { Rect(x: 0, y: 0, width: layout.canvas.width, height: layout.canvas.height) }

    private func shape(_ geometry: Geometry, fill: Paint, stroke: Stroke? = nil, id: String?) -> NodeSnapshot {
        NodeSnapshot(id: id, bounds: canvasRect, content: .shape(ShapeSnapshot(geometry: geometry, fill: fill, stroke: stroke)))
    }

    private func text(_ string: String, at position: Point, alignment: UnitPoint, size: Double, family: String,
                      weight: Int = 400) -> NodeSnapshot {
        let font = Font(family: family, size: size, weight: weight)
        return NodeSnapshot(bounds: canvasRect, content: .text(TextSnapshot(text: string, position: position, alignment: alignment,
                                                                            font: font, paint: .solid(.white))))
    }
}
