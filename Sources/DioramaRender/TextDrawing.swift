import CCairo
import DioramaDocument
import DioramaTimeline
import Foundation

extension FrameRenderer {
    /// Draws text with pango so that the point `alignment` of its line box sits at `position`.
    func drawText(_ text: TextSnapshot, bounds: Rect, alpha: Double, in cr: OpaquePointer) {
        guard !text.text.isEmpty, text.font.size > 0 else { return }
        let layout = textLayouts.layout(for: text)
        let origin = layout.origin(for: text)
        let pattern = makePattern(text.paint, bounds: bounds, alpha: alpha, hue: paintHue)
        cairo_set_source(cr, pattern)
        cairo_move_to(cr, origin.x, origin.y)
        if let visible = text.visibleCharacters {
            layout.showLeading(visible, charactersOf: text.text, in: cr)
        } else {
            pango_cairo_show_layout(cr, layout.layout)
        }
        cairo_new_path(cr)
        cairo_pattern_destroy(pattern)
    }
}

/// Pango layouts by text and font, laid out once in canvas points without hinting or rounded glyph
/// positions, so text scales with the canvas exactly (resolution independence) and draws the same every time.
final class TextLayoutCache {
    struct Key: Hashable {
        var text: String
        var family: String
        var size: Double
        var weight: Int
        var alignmentX: Double
    }

    final class Entry {
        let layout: OpaquePointer
        /// The line box, in points relative to the layout's origin.
        let logical: BoundingBox
        /// Logical box united with the inked box (glyphs may overhang).
        let inkBox: BoundingBox

        init(layout: OpaquePointer, logical: BoundingBox, inkBox: BoundingBox) {
            self.layout = layout
            self.logical = logical
            self.inkBox = inkBox
        }

        deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

        /// Where the layout's top-left goes so that the text's alignment point lands on its position.
        func origin(for text: TextSnapshot) -> Point {
            let width = logical.maxX - logical.minX, height = logical.maxY - logical.minY
            return Point(x: text.position.x - logical.minX - width * text.alignment.x,
                         y: text.position.y - logical.minY - height * text.alignment.y)
        }
    }

    private let context: OpaquePointer
    private var entries: [Key: Entry] = [:]
    /// Layouts made, for tests and benches.
    private(set) var made = 0

    /// With `privateFontMap`, layouts use a font map of their own rather than the calling thread's default: a font
    /// map is not thread-safe, and a renderer drawing part of a frame is used on whichever thread draws it.
    init(privateFontMap: Bool = false) {
        if privateFontMap {
            let fontMap = pango_cairo_font_map_new()!
            context = pango_font_map_create_context(fontMap)
            g_object_unref(UnsafeMutableRawPointer(fontMap))  // The context holds it.
        } else {
            context = pango_font_map_create_context(pango_cairo_font_map_get_default())
        }
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
    }

    deinit {
        entries.removeAll()
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    func layout(for text: TextSnapshot) -> Entry {
        let key = Key(text: text.text, family: text.font.family, size: text.font.size, weight: text.font.weight,
                      alignmentX: text.alignment.x)
        if let entry = entries[key] { return entry }
        if entries.count > 512 { entries.removeAll() }  // Bounded: labels are few; a ticking counter would not be.
        made += 1
        let layout = pango_layout_new(context)!
        pango_layout_set_text(layout, text.text, -1)
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, Self.familyList(text.font.family, for: text.text))
        pango_font_description_set_absolute_size(description, max(text.font.size, 0.1) * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(min(max(text.font.weight, 100), 1000))))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_alignment(layout, text.alignment.x < 0.25 ? PANGO_ALIGN_LEFT
                                    : text.alignment.x > 0.75 ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_CENTER)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        // In Double: pango's extents are 32-bit, and a long line at a large size comes close to their end, where
        // their sum in Int32 would trap.
        func box(_ r: PangoRectangle) -> BoundingBox {
            let scale = Double(PANGO_SCALE)
            return BoundingBox(minX: Double(r.x) / scale, minY: Double(r.y) / scale,
                               maxX: (Double(r.x) + Double(r.width)) / scale, maxY: (Double(r.y) + Double(r.height)) / scale)
        }
        let entry = Entry(layout: layout, logical: box(logical), inkBox: box(logical).union(box(ink)))
        entries[key] = entry
        return entry
    }

    /// The font family list with a CJK face after it, chosen by script so Japanese gets Japanese glyph
    /// forms and Chinese gets simplified Chinese ones.
    static func familyList(_ family: String, for text: String) -> String {
        var hasKana = false, hasHan = false, hasHangul = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: hasKana = true
            case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x3000...0x303F, 0xFF00...0xFF65: hasHan = true
            case 0xAC00...0xD7AF, 0x1100...0x11FF: hasHangul = true
            default: break
            }
        }
        if hasKana { return family + ", Noto Sans CJK JP" }
        if hasHangul { return family + ", Noto Sans CJK KR" }
        if hasHan { return family + ", Noto Sans CJK SC" }
        return family
    }
}
