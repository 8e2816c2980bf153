// Text in an SVG is laid out by pango through librsvg, at a cost that grows faster than its length: one text
// element of 1000 characters without a space took 0.5 s to draw, of 4000 characters 18 s; 1 MB of text in one SVG
// took 4.8 GB. The characters inside `<text>` elements are counted before librsvg sees them.

extension SVGSafety {
    /// Bytes of character data (UTF-8, entities counted as what they expand to) one `<text>` element may hold,
    /// its spans included.
    public static let maximumTextElementBytes = 512
    /// Bytes of character data all `<text>` elements may hold together.
    public static let maximumTextBytes = 4 * 1024

    static func textProblem(in bytes: [UInt8], entityLengths: [String: Int]) -> VectorArtError? {
        var depth = 0, total = 0, element = 0
        let ampersand = UInt8(ascii: "&"), semicolon = UInt8(ascii: ";")
        return walkTags(bytes, attributesOf: [], tag: { tag in
            guard tag.name == "text" else { return nil }
            switch tag.kind {
            case .opening:
                if depth == 0 { element = 0 }
                depth += 1
            case .closing: depth = max(depth - 1, 0)
            case .selfClosing: break
            }
            return nil
        }, characters: { run in
            guard depth > 0 else { return nil }
            var count = run.count
            // An entity reference counts as its replacement text.
            var index = run.startIndex
            while let start = run[index...].firstIndex(of: ampersand) {
                guard let end = run[start...].firstIndex(of: semicolon) else { break }
                let name = String(decoding: run[(start + 1)..<end], as: UTF8.self)
                if let length = entityLengths[name] { count += length - (end - start + 1) }
                index = end + 1
            }
            total += count
            element += count
            if element > maximumTextElementBytes {
                return VectorArtError(reason: "one of its text elements holds more than \(maximumTextElementBytes) bytes of text",
                                      hint: "librsvg lays out a long text element slowly (1000 characters took 0.5 s); split it, set it with a text node, or convert it to paths")
            }
            guard total > maximumTextBytes else { return nil }
            return VectorArtError(reason: "its text elements hold more than \(maximumTextBytes / 1024) KiB of text",
                                  hint: "an SVG for a scene holds titles and labels; set long text with a text node, or convert the text to paths")
        })
    }
}
