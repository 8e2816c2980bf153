// A byte-level walk over an SVG's tags and character data, for the checks that need an element's name and
// attributes (filter primitives, text). No parser: quoted attribute values are honoured, so a `>` inside one
// cannot hide the attributes after it; comments, declarations and processing instructions are skipped.

extension SVGSafety {
    /// One tag as written: its name without a namespace prefix, and its attributes (local names) when asked for.
    struct Tag {
        enum Kind { case opening, closing, selfClosing }
        var name: String
        var kind: Kind
        var attributes: [String: String]
    }

    /// Calls `tag` for every tag (attributes read only for names in `attributesOf`, or for all when it is nil) and `characters` for each run of
    /// character data between tags (CDATA included, with its markers stripped); the first problem either returns ends the walk.
    /// Where the tag opening at `index` ends: its `>` (or the end of the bytes), honouring quoted attribute values.
    static func tagEnd(_ bytes: [UInt8], from index: Int) -> Int {
        var i = index + 1, quote: UInt8 = 0
        while i < bytes.count {
            let byte = bytes[i]
            if quote != 0 { if byte == quote { quote = 0 } } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") { break }
            i += 1
        }
        return i
    }

    static func walkTags(_ bytes: [UInt8], attributesOf interesting: Set<String>?,
                         tag: (Tag) -> VectorArtError?, characters: (ArraySlice<UInt8>) -> VectorArtError?) -> VectorArtError? {
        let count = bytes.count
        func starts(_ prefix: [UInt8], at position: Int) -> Bool {
            position + prefix.count <= count && bytes[position..<position + prefix.count].elementsEqual(prefix)
        }
        func skip(past terminator: [UInt8], from position: Int) -> Int {
            var i = position
            while i + terminator.count <= count {
                if bytes[i] == terminator[0], bytes[i..<i + terminator.count].elementsEqual(terminator) { return i + terminator.count }
                i += 1
            }
            return count
        }
        let comment = Array("<!--".utf8), commentEnd = Array("-->".utf8)
        let cdata = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
        let instructionEnd = Array("?>".utf8), close = Array(">".utf8)
        var index = 0
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                var end = index
                while end < count, bytes[end] != UInt8(ascii: "<") { end += 1 }
                if let problem = characters(bytes[index..<end]) { return problem }
                index = end
                continue
            }
            if starts(comment, at: index) { index = skip(past: commentEnd, from: index + 4); continue }
            if starts(cdata, at: index) {
                let end = skip(past: cdataEnd, from: index + 9)
                if let problem = characters(bytes[(index + 9)..<max(index + 9, end - 3)]) { return problem }
                index = end
                continue
            }
            if index + 1 < count, bytes[index + 1] == UInt8(ascii: "?") { index = skip(past: instructionEnd, from: index + 2); continue }
            if index + 1 < count, bytes[index + 1] == UInt8(ascii: "!") { index = skip(past: close, from: index + 2); continue }
            let i = tagEnd(bytes, from: index)
            let closing = index + 1 < count && bytes[index + 1] == UInt8(ascii: "/")
            let selfClosing = !closing && i > index && i < count && bytes[i - 1] == UInt8(ascii: "/")
            var nameEnd = index + (closing ? 2 : 1)
            let nameStart = nameEnd
            while nameEnd < min(i, count), !isSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: "/"), bytes[nameEnd] != UInt8(ascii: ">") {
                nameEnd += 1
            }
            let name = localName(String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self))
            let attributes = interesting?.contains(name) ?? true ? parseAttributes(bytes[nameEnd..<min(i, count)]) : [:]
            if let problem = tag(Tag(name: name, kind: closing ? .closing : selfClosing ? .selfClosing : .opening, attributes: attributes)) {
                return problem
            }
            index = i + 1
        }
        return nil
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `svg:feTurbulence` → `feTurbulence`.
    static func localName(_ name: String) -> String {
        name.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? name
    }

    /// `name="value"` and `name='value'` pairs, by local name (a later duplicate wins, which XML forbids anyway).
    static func parseAttributes(_ bytes: ArraySlice<UInt8>) -> [String: String] {
        var attributes: [String: String] = [:]
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            while i < end, isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "/") { i += 1 }
            let nameStart = i
            while i < end, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "=") { i += 1 }
            let name = localName(String(decoding: bytes[nameStart..<i], as: UTF8.self))
            while i < end, isSpace(bytes[i]) { i += 1 }
            guard i < end, bytes[i] == UInt8(ascii: "=") else { if i == nameStart { i += 1 }; continue }
            i += 1
            while i < end, isSpace(bytes[i]) { i += 1 }
            guard i < end, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { continue }
            let quote = bytes[i]
            i += 1
            let valueStart = i
            while i < end, bytes[i] != quote { i += 1 }
            attributes[name] = String(decoding: bytes[valueStart..<i], as: UTF8.self)
            i += 1
        }
        return attributes
    }
}
