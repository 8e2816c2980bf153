import CCairo

extension TextLayoutCache.Entry {
    /// pango's PANGO_GLYPH_EMPTY: a glyph that draws nothing but keeps its advance.
    private static let emptyGlyph: PangoGlyph = 0x0FFF_FFFF

    /// Draws only the first `count` characters (grapheme clusters) of `text`, this entry's text, at the current
    /// point. The whole text stays laid out, so the shown characters sit exactly where they sit in the whole
    /// text and the hidden ones keep their space: glyphs of clusters from the cut on are blanked for this one
    /// draw and restored right after (the cached layout is read by nothing in between).
    func showLeading(_ count: Int, charactersOf text: String, in cr: OpaquePointer) {
        guard count > 0 else { return }
        // Grapheme clusters are Swift's Characters, so a cut never splits a CJK character, an emoji sequence
        // or a letter from its combining marks; pango's clusters never straddle one.
        let cut = Int32(text.prefix(count).utf8.count)
        var blanked: [(glyphs: UnsafeMutablePointer<PangoGlyphInfo>, original: PangoGlyph)] = []
        var line = pango_layout_get_lines_readonly(layout)
        while let lineNode = line {
            let layoutLine = lineNode.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            var run = layoutLine.pointee.runs
            while let runNode = run {
                let glyphItem = runNode.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
                if let item = glyphItem.pointee.item, let glyphs = glyphItem.pointee.glyphs {
                    let offset = item.pointee.offset
                    for index in 0..<Int(glyphs.pointee.num_glyphs) where offset + glyphs.pointee.log_clusters[index] >= cut {
                        let info = glyphs.pointee.glyphs + index
                        blanked.append((info, info.pointee.glyph))
                        info.pointee.glyph = Self.emptyGlyph
                    }
                }
                run = runNode.pointee.next
            }
            line = lineNode.pointee.next
        }
        pango_cairo_show_layout(cr, layout)
        for (info, original) in blanked { info.pointee.glyph = original }
    }
}
