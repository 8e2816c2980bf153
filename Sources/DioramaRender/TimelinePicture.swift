import CCairo
import DioramaTimeline
import Foundation

/// `diorama timeline --picture`: a chart of a `TimelineChart` drawn with cairo and pango, as a PNG or an SVG. One
/// time axis across the top; a lane per scene with a row per named animation (its iterations as bars, reversed ones
/// lighter, its keyframes as ticks) and per Lottie node (its passes as bars, its markers as ticks), a row of tap marks
/// labelled with their node when the scene is tapped, and a row of cue marks labelled with their sound; the offline
/// mix's waveform along the bottom on the same axis.
public struct TimelinePicture {
    public enum Format: String, Sendable, CaseIterable {
        case png, svg
    }

    /// The mix's envelope: per pixel column of the plot, the lowest and highest sample (−1 ... 1).
    public typealias Waveform = [(low: Float, high: Float)]

    public let chart: TimelineChart
    public let width: Int

    // Layout, in pixels.
    static let margin = 16.0
    static let labelWidth = 210.0
    static let headerHeight = 44.0
    static let axisHeight = 26.0
    static let laneTitleHeight = 26.0
    static let rowHeight = 18.0
    static let cueRowHeight = 34.0
    static let tapRowHeight = 24.0
    static let laneGap = 10.0
    static let waveformHeight = 110.0

    public init(chart: TimelineChart, width: Int = 1600) {
        self.chart = chart
        self.width = max(width, 640)
    }

    /// Pixel columns of the plot: what a waveform passed to `write` should have.
    public var plotColumns: Int { Int((Double(width) - Self.labelWidth - 2 * Self.margin).rounded(.down)) }

    public var height: Int {
        let lanes = chart.lanes.reduce(0.0) { total, lane in
            total + Self.laneHeight(lane) + Self.laneGap
        }
        return Int((Self.headerHeight + Self.axisHeight + lanes + Self.waveformHeight + 2 * Self.margin).rounded(.up))
    }

    /// Writes the picture to `url` (never replacing a file there unless `replacing`), titled `title`.
    public func write(to url: URL, format: Format, title: String, waveform: Waveform, replacing: Bool) throws {
        switch format {
        case .png:
            var frame = RenderedFrame(width: width, height: height)
            try frame.bytes.withUnsafeMutableBytes { buffer in
                let surface = cairo_image_surface_create_for_data(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                                  CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))!
                defer { cairo_surface_destroy(surface) }
                try draw(on: surface, title: title, waveform: waveform)
                cairo_surface_flush(surface)
            }
            try frame.writePNG(to: url, replacing: replacing)
        case .svg:
            try writeInPlace(of: url, replacing: replacing) { temporary in
                let surface = cairo_svg_surface_create(temporary.path, Double(width), Double(height))!
                defer { cairo_surface_destroy(surface) }
                try draw(on: surface, title: title, waveform: waveform)
                cairo_surface_finish(surface)
                let status = cairo_surface_status(surface)
                guard status == CAIRO_STATUS_SUCCESS else {
                    throw RenderError("\(url.path): cannot write the SVG (\(String(cString: cairo_status_to_string(status))))")
                }
            }
        }
    }

    /// A lane's height without the gap after it.
    static func laneHeight(_ lane: TimelineChart.Lane) -> Double {
        laneTitleHeight + Double(lane.rows.count) * rowHeight + (lane.taps.isEmpty ? 0 : tapRowHeight) + cueRowHeight
    }

    /// The x of playlist second `time` in the plot.
    func x(_ time: Double) -> Double {
        let left = Self.margin + Self.labelWidth, right = Double(width) - Self.margin
        let span = max(chart.to - chart.from, 1e-9)
        return left + (time - chart.from) / span * (right - left)
    }

    private func draw(on surface: OpaquePointer, title: String, waveform: Waveform) throws {
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        let text = PictureText(cr)
        let plotLeft = Self.margin + Self.labelWidth, plotRight = Double(width) - Self.margin

        fill(cr, Self.background)
        cairo_rectangle(cr, 0, 0, Double(width), Double(height))
        cairo_fill(cr)

        text.show(title, x: Self.margin, y: Self.margin + 2, size: 17, weight: 700, color: Self.ink)
        let span = String(format: "%.3f – %.3f s", chart.from, chart.to)
        text.show(span, x: Double(width) - Self.margin, y: Self.margin + 5, size: 12, color: Self.faint, alignRight: true)

        // The time axis, with a grid line per tick down to the waveform.
        var y = Self.margin + Self.headerHeight
        let bottom = Double(height) - Self.margin
        let step = Self.tickStep(span: chart.to - chart.from, pixels: plotRight - plotLeft)
        var tick = (chart.from / step).rounded(.up) * step
        while tick <= chart.to + 1e-9 {
            let tx = x(tick).rounded() + 0.5
            fill(cr, Self.grid)
            cairo_rectangle(cr, tx - 0.5, y + Self.axisHeight - 4, 1, bottom - (y + Self.axisHeight - 4))
            cairo_fill(cr)
            text.show(Self.secondsLabel(tick, step: step), x: tx, y: y + 3, size: 11, color: Self.faint, alignCenter: true)
            tick += step
        }
        y += Self.axisHeight

        // Clip bars and marks to the plot; labels to the left stay whole.
        for (index, lane) in chart.lanes.enumerated() {
            let laneHeight = Self.laneHeight(lane)
            let color = Self.palette[index % Self.palette.count]
            // The scene's stretch of the playlist, shaded across the lane.
            cairo_save(cr)
            cairo_rectangle(cr, plotLeft, y, plotRight - plotLeft, laneHeight)
            cairo_clip(cr)
            fill(cr, (color.r, color.g, color.b, 0.08))
            cairo_rectangle(cr, x(lane.start), y, x(lane.end) - x(lane.start), laneHeight)
            cairo_fill(cr)
            cairo_restore(cr)

            fill(cr, color)
            cairo_rectangle(cr, Self.margin, y + 4, 4, Self.laneTitleHeight - 8)
            cairo_fill(cr)
            text.show(lane.title, x: Self.margin + 12, y: y + 4, size: 13, weight: 700, color: Self.ink)
            let note = lane.unnamedAnimations > 0 ? "  \(lane.id) · \(lane.unnamedAnimations) more unnamed" : "  \(lane.id)"
            text.show(note, x: plotLeft + 6, y: y + 6, size: 11, color: Self.faint)
            y += Self.laneTitleHeight

            for row in lane.rows {
                text.show(row.label, x: Self.margin + 12, y: y + 2, size: 11, color: Self.label, maxWidth: Self.labelWidth - 16)
                cairo_save(cr)
                cairo_rectangle(cr, plotLeft, y, plotRight - plotLeft, Self.rowHeight)
                cairo_clip(cr)
                for bar in row.bars where bar.end > chart.from && bar.start < chart.to {
                    fill(cr, (color.r, color.g, color.b, bar.reversed ? 0.45 : 0.85))
                    let left = x(bar.start), right = max(x(bar.end), left + 1)
                    cairo_rectangle(cr, left, y + 4, max(right - left - 1, 1), Self.rowHeight - 8)
                    cairo_fill(cr)
                }
                fill(cr, Self.ink)
                for keyframe in row.keyframes where keyframe >= chart.from && keyframe <= chart.to {
                    cairo_rectangle(cr, x(keyframe).rounded() - 0.5, y + 2, 1.5, Self.rowHeight - 4)
                    cairo_fill(cr)
                }
                cairo_restore(cr)
                y += Self.rowHeight
            }

            if !lane.taps.isEmpty {
                // A tap: a ring (a finger's touch) with its node's id beside it.
                text.show("taps", x: Self.margin + 12, y: y + 4, size: 11, color: Self.faint)
                var lastLabelEnd = -Double.infinity
                for tap in lane.taps where tap.time >= chart.from && tap.time <= chart.to {
                    let tx = x(tap.time)
                    cairo_set_source_rgba(cr, Self.tapColor.r, Self.tapColor.g, Self.tapColor.b, Self.tapColor.a)
                    cairo_set_line_width(cr, 2)
                    cairo_new_sub_path(cr)
                    cairo_arc(cr, tx, y + 9, 5, 0, 2 * Double.pi)
                    cairo_stroke(cr)
                    cairo_rectangle(cr, tx - 0.5, y + 14, 1, Self.tapRowHeight - 14)
                    cairo_fill(cr)
                    let labelWidth = text.width(tap.node, size: 10)
                    if tx + 8 > lastLabelEnd, tx + 8 + labelWidth <= plotRight + Self.margin {
                        text.show(tap.node, x: tx + 8, y: y + 3, size: 10, color: Self.tapColor)
                        lastLabelEnd = tx + 8 + labelWidth + 4
                    }
                }
                y += Self.tapRowHeight
            }

            text.show("cues", x: Self.margin + 12, y: y + 4, size: 11, color: Self.faint)
            var lastLabelEnd = [-Double.infinity, -Double.infinity]
            for cue in lane.cues where cue.time >= chart.from && cue.time <= chart.to {
                let cx = x(cue.time)
                fill(cr, Self.cueColor)
                cairo_move_to(cr, cx, y + 3)
                cairo_line_to(cr, cx + 5, y + 8)
                cairo_line_to(cr, cx, y + 13)
                cairo_line_to(cr, cx - 5, y + 8)
                cairo_close_path(cr)
                cairo_fill(cr)
                // Labels on two lines, each placed only where it does not run into the last one on its line.
                let labelWidth = text.width(cue.sound, size: 10)
                if let line = lastLabelEnd.indices.first(where: { lastLabelEnd[$0] < cx - 2 }), cx + labelWidth <= plotRight + Self.margin {
                    text.show(cue.sound, x: cx + 1, y: y + 14 + Double(line) * 10, size: 10, color: Self.cueColor)
                    lastLabelEnd[line] = cx + 1 + labelWidth
                }
            }
            y += Self.cueRowHeight + Self.laneGap
        }

        // The mix: its envelope per pixel column, around a centre line.
        text.show("mix", x: Self.margin + 12, y: y + 4, size: 11, color: Self.faint)
        let middle = y + Self.waveformHeight / 2, half = Self.waveformHeight / 2 - 8
        fill(cr, Self.grid)
        cairo_rectangle(cr, plotLeft, middle - 0.5, plotRight - plotLeft, 1)
        cairo_fill(cr)
        fill(cr, Self.wave)
        for (column, sample) in waveform.prefix(plotColumns).enumerated() {
            let top = middle - Double(max(min(sample.high, 1), -1)) * half
            let low = middle - Double(max(min(sample.low, 1), -1)) * half
            cairo_rectangle(cr, plotLeft + Double(column), top, 1, max(low - top, 1))
        }
        cairo_fill(cr)

        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cairo failed while drawing the timeline: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    private func fill(_ cr: OpaquePointer, _ color: (r: Double, g: Double, b: Double, a: Double)) {
        cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
    }

    /// A round step (1, 2 or 5 times a power of ten seconds) giving ticks at least 70 pixels apart.
    static func tickStep(span: Double, pixels: Double) -> Double {
        guard span > 0, pixels > 0 else { return 1 }
        let minimum = span * 70 / pixels
        var step = pow(10, (log10(minimum)).rounded(.down))
        for factor in [1.0, 2, 5, 10] where step * factor >= minimum {
            step *= factor
            break
        }
        return step
    }

    static func secondsLabel(_ time: Double, step: Double) -> String {
        let places = max(0, Int((-log10(step)).rounded(.up)))
        return String(format: "%.\(places)f s", time)
    }

    static let background = (r: 0.078, g: 0.086, b: 0.110, a: 1.0)
    static let ink = (r: 0.93, g: 0.94, b: 0.96, a: 1.0)
    static let label = (r: 0.80, g: 0.82, b: 0.86, a: 1.0)
    static let faint = (r: 0.55, g: 0.58, b: 0.64, a: 1.0)
    static let grid = (r: 1.0, g: 1.0, b: 1.0, a: 0.07)
    static let cueColor = (r: 1.0, g: 0.62, b: 0.26, a: 1.0)
    static let tapColor = (r: 0.98, g: 0.86, b: 0.36, a: 1.0)
    static let wave = (r: 0.45, g: 0.78, b: 0.95, a: 0.9)
    static let palette: [(r: Double, g: Double, b: Double, a: Double)] = [
        (0.36, 0.62, 0.95, 1), (0.95, 0.55, 0.45, 1), (0.55, 0.82, 0.52, 1), (0.74, 0.58, 0.95, 1),
        (0.95, 0.80, 0.40, 1), (0.40, 0.82, 0.80, 1), (0.95, 0.50, 0.75, 1),
    ]
}

/// Short UI text with pango (the timeline picture's and the contact sheet's): one line, DejaVu Sans, laid out without
/// hinting so PNG and SVG agree.
struct PictureText {
    let cr: OpaquePointer

    init(_ cr: OpaquePointer) { self.cr = cr }

    private func layout(_ text: String, size: Double, weight: Int) -> OpaquePointer {
        let layout = pango_cairo_create_layout(cr)!
        let font = pango_font_description_from_string("DejaVu Sans")!
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, PangoWeight(rawValue: UInt32(weight)))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    func width(_ text: String, size: Double, weight: Int = 400) -> Double {
        let layout = layout(text, size: size, weight: weight)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return Double(logical.width) / Double(PANGO_SCALE)
    }

    func show(_ text: String, x: Double, y: Double, size: Double, weight: Int = 400,
              color: (r: Double, g: Double, b: Double, a: Double), alignRight: Bool = false, alignCenter: Bool = false,
              maxWidth: Double? = nil) {
        let layout = layout(text, size: size, weight: weight)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        if let maxWidth {
            pango_layout_set_width(layout, Int32(maxWidth * Double(PANGO_SCALE)))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let width = Double(logical.width) / Double(PANGO_SCALE)
        let left = alignRight ? x - width : alignCenter ? x - width / 2 : x
        cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
        cairo_move_to(cr, left, y)
        pango_cairo_show_layout(cr, layout)
        cairo_new_path(cr)
    }
}
