import CCairo
import DioramaVectorArt
import Foundation

/// What an SVG file goes through: the safety check on its bytes, and when it passes, librsvg parsing it and drawing
/// it whole and one element by id, at 48x48.
enum SVGPipeline {
    static let stages = ["accepted", "parsed", "drawn"]

    /// Seeds beside windmill.svg: gradients, a pattern, a clip path and a mask, reuse, text, arcs and a filter chain.
    static let featuresSVG = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200 120" width="200" height="120">
          <defs>
            <linearGradient id="g1" x1="0" y1="0" x2="1" y2="1" spreadMethod="reflect"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f" stop-opacity="0.5"/></linearGradient>
            <radialGradient id="g2" cx="0.5" cy="0.5" r="0.5" fx="0.3" fy="0.3" gradientTransform="rotate(30)"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#000"/></radialGradient>
            <pattern id="p1" width="10" height="10" patternUnits="userSpaceOnUse"><circle cx="5" cy="5" r="3" fill="#0f0"/></pattern>
            <clipPath id="c1"><rect x="10" y="10" width="80" height="60" rx="8"/></clipPath>
            <mask id="m1"><rect width="200" height="120" fill="url(#g1)"/></mask>
            <filter id="f1" x="-10%" y="-10%" width="120%" height="120%">
              <feGaussianBlur in="SourceAlpha" stdDeviation="2" result="blur"/>
              <feOffset in="blur" dx="3" dy="3" result="shifted"/>
              <feColorMatrix in="shifted" type="matrix" values="1 0 0 0 0  0 1 0 0 0  0 0 1 0 0  0 0 0 0.5 0" result="soft"/>
              <feMerge><feMergeNode in="soft"/><feMergeNode in="SourceGraphic"/></feMerge>
            </filter>
            <symbol id="s1" viewBox="0 0 10 10"><path d="M0 0 L10 5 L0 10 Z"/></symbol>
          </defs>
          <g id="body" transform="translate(5 5) scale(0.9)" filter="url(#f1)">
            <rect id="box" x="10" y="10" width="80" height="60" fill="url(#p1)" stroke="url(#g2)" stroke-width="3" stroke-dasharray="4 2"/>
            <ellipse id="eye" cx="140" cy="40" rx="30" ry="20" fill="url(#g2)" clip-path="url(#c1)"/>
            <path id="arc" d="M 20 100 A 40 20 15 1 1 180 100 Q 100 60 20 100 z" fill="none" stroke="#fc0" stroke-linejoin="round"/>
            <polyline id="zig" points="0,0 20,20 40,0 60,20" fill="none" stroke="#0ff" mask="url(#m1)"/>
            <use id="arrow" href="#s1" x="150" y="80" width="30" height="30" opacity="0.7"/>
            <text id="label" x="100" y="115" font-size="12" text-anchor="middle">Diorama<tspan dx="2" fill="red">!</tspan></text>
          </g>
        </svg>
        """

    static let interestingValues = [
        "0", "-0", "-1", "1e38", "-1e38", "3.5e38", "1e-38", "99999999", "16384", "16385", "8192", "NaN", "inf", "-inf",
        "100%", "1e6", "-1e6", "0.0001", "", " ", "1e308", "0 0 0 0", "0 0 1e38 1e38", "-1 -1 -1 -1", "url(#body)", "url(#missing)",
        "#body", "none", "inherit", "rotate(1e38)", "scale(0)", "matrix(0 0 0 0 0 0)", "scale(1e-30)", "translate(1e30 1e30)",
        "M 0 0 L 1e38 1e38 Z", "M0 0 A 1e38 1e38 0 1 1 1 1", "M", "1 2 3 4 5 6 7 8 9",
    ]

    /// Files a reference may name: inside the scenes folder (allowed), outside it, on the network (refused).
    static let references = [
        "windmill.svg", "bounce.json", "gull-flap.png", "../art/windmill.svg", "../../scenes.json", "/etc/passwd",
        "http://example.com/a.png", "file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo=", "#body", "#box", "",
    ]

    static func corpus() throws -> [(name: String, bytes: [UInt8])] {
        let windmill = FuzzSettings.repositoryRoot.appendingPathComponent("media/art/windmill.svg")
        return [("windmill.svg", [UInt8](try Data(contentsOf: windmill))), ("features.svg", Array(featuresSVG.utf8))]
    }

    /// An input: a seed with XML-aware mutations, now and again with byte-level ones on top.
    static func input(corpus: [(name: String, bytes: [UInt8])], random: inout FuzzRandom) -> [UInt8] {
        var bytes = random.pick(corpus).bytes
        let count = random.mutationCount(maximum: 4)
        let others = corpus.map(\.bytes)
        for _ in 0..<count {
            if random.chance(0.8) {
                var text = String(decoding: bytes, as: UTF8.self)
                XMLMutations.mutate(&text, random: &random)
                bytes = Array(text.utf8)
            } else {
                ByteMutations.mutate(&bytes, others: others, random: &random)
            }
        }
        return bytes
    }

    static func run(_ bytes: [UInt8], random: inout FuzzRandom) -> Set<String> {
        var reached: Set<String> = []
        let root = FuzzSettings.repositoryRoot.path
        let directory = FuzzSettings.repositoryRoot.appendingPathComponent("media/art").path
        guard SVGSafety.problem(in: bytes, fileDirectory: directory, allowedRoot: root) == nil else { return reached }
        reached.insert("accepted")
        guard let art = try? VectorArt.parse(bytes: bytes, baseFile: directory + "/fuzzed.svg", fileDirectory: directory,
                                             allowedRoot: root) else { return reached }
        reached.insert("parsed")
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 48, 48)
        let cr = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        let whole = art.draw(in: cr!, viewport: (0, 0, 48, 48))
        // One element by id, as an image node's "element" draws it.
        let ids = XMLMutations.ids(in: String(decoding: bytes, as: UTF8.self))
        if let id = ids.isEmpty ? nil : random.pick(ids), art.hasElement(id) {
            art.draw(in: cr!, viewport: (0, 0, 48, 48), element: id)
        }
        if whole { reached.insert("drawn") }
        return reached
    }
}

/// Mutations that know SVG is XML: attribute values, elements duplicated or nested, filter primitives, references.
enum XMLMutations {
    static let filterPrimitives = [
        #"<feGaussianBlur stdDeviation="VALUE"/>"#, #"<feMorphology operator="dilate" radius="VALUE"/>"#,
        #"<feOffset dx="VALUE" dy="VALUE"/>"#, #"<feTurbulence baseFrequency="0.05" numOctaves="VALUE"/>"#,
        #"<feConvolveMatrix order="3" kernelMatrix="1 0 1 0 1 0 1 0 VALUE"/>"#, #"<feDropShadow dx="2" dy="2" stdDeviation="VALUE"/>"#,
        #"<feComponentTransfer><feFuncA type="table" tableValues="VALUE"/></feComponentTransfer>"#, #"<feFlood flood-opacity="VALUE"/>"#,
        #"<feTile/>"#, #"<feImage href="REFERENCE"/>"#, #"<feDisplacementMap in2="SourceGraphic" scale="VALUE"/>"#,
    ]

    static func ids(in text: String) -> [String] {
        attributeValueRanges(in: text, named: "id").map { String(text[$0]) }
    }

    /// The ranges of attribute values (between the quotes), of one attribute or of all.
    static func attributeValueRanges(in text: String, named name: String? = nil) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var search = text.startIndex
        while let equals = text[search...].firstIndex(of: "=") {
            let afterEquals = text.index(after: equals)
            search = afterEquals
            guard afterEquals < text.endIndex, text[afterEquals] == "\"" || text[afterEquals] == "'" else { continue }
            let quote = text[afterEquals]
            let start = text.index(after: afterEquals)
            guard let end = text[start...].firstIndex(of: quote) else { break }
            if let name {
                let before = text[..<equals]
                guard before.hasSuffix(" " + name) || before.hasSuffix("\n" + name) else { search = text.index(after: end); continue }
            }
            ranges.append(start..<end)
            search = text.index(after: end)
        }
        return ranges
    }

    /// The start of every element's tag (`<name`), not closing tags, comments or declarations.
    static func elementStarts(in text: String) -> [String.Index] {
        var starts: [String.Index] = []
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: "<") {
            let next = text.index(after: open)
            if next < text.endIndex, text[next].isLetter { starts.append(open) }
            index = next
        }
        return starts
    }

    /// The whole element starting at `start`: up to its `/>`, or to its closing tag; nil when it cannot be told.
    static func element(in text: String, at start: String.Index) -> Range<String.Index>? {
        let nameStart = text.index(after: start)
        guard let nameEnd = text[nameStart...].firstIndex(where: { $0 == " " || $0 == ">" || $0 == "/" || $0 == "\n" }),
              let tagEnd = text[start...].firstIndex(of: ">") else { return nil }
        if text[text.index(before: tagEnd)] == "/" { return start..<text.index(after: tagEnd) }
        let closing = "</" + String(text[nameStart..<nameEnd]) + ">"
        guard let close = text.range(of: closing, range: tagEnd..<text.endIndex) else { return nil }
        return start..<close.upperBound
    }

    static func mutate(_ text: inout String, random: inout FuzzRandom) {
        let starts = elementStarts(in: text)
        switch random.below(7) {
        case 0, 1: // an attribute value replaced
            let ranges = attributeValueRanges(in: text)
            guard !ranges.isEmpty else { return }
            text.replaceSubrange(random.pick(ranges), with: random.chance(0.85) ? random.pick(SVGPipeline.interestingValues)
                                 : random.pick(SVGPipeline.references))
        case 2: // an element duplicated in place, a few times
            guard !starts.isEmpty, let range = element(in: text, at: random.pick(starts)) else { return }
            let copies = random.chance(0.8) ? 1 : random.within(2...8)
            text.insert(contentsOf: String(repeating: String(text[range]), count: copies), at: range.upperBound)
        case 3: // an element wrapped in groups, at times past SVGSafety's depth limit (200)
            guard !starts.isEmpty, let range = element(in: text, at: random.pick(starts)) else { return }
            let depth = random.chance(0.7) ? random.within(1...10) : random.pick([199, 200, 201, 1_000])
            let inner = String(text[range])
            text.replaceSubrange(range, with: String(repeating: "<g>", count: depth) + inner + String(repeating: "</g>", count: depth))
        case 4: // a filter of a few primitives, applied to an element
            guard starts.count > 1 else { return }
            var primitives = ""
            for _ in 0..<random.within(1...3) {
                primitives += random.pick(filterPrimitives)
                    .replacingOccurrences(of: "VALUE", with: random.pick(SVGPipeline.interestingValues + ["1", "3", "0.5"]))
                    .replacingOccurrences(of: "REFERENCE", with: random.pick(SVGPipeline.references))
            }
            let units = random.chance(0.5) ? "" : #" filterUnits="userSpaceOnUse" x="-1e6" y="-1e6" width="2e6" height="2e6""#
            let target = random.pick(Array(starts.dropFirst()))
            guard let nameEnd = text[target...].firstIndex(where: { $0 == " " || $0 == ">" || $0 == "/" }) else { return }
            text = String(text[..<target]) + #"<filter id="fz"\#(units)>\#(primitives)</filter>"# + String(text[target..<nameEnd])
                + #" filter="url(#fz)""# + String(text[nameEnd...])
        case 5: // an element removed
            guard !starts.isEmpty, let range = element(in: text, at: random.pick(starts)) else { return }
            text.removeSubrange(range)
        default: // a reference: an image, a use, a CSS import, or an entity
            guard let svgEnd = starts.first.flatMap({ text[$0...].firstIndex(of: ">") }) else { return }
            let snippets = [
                #"<image href="REF" width="VALUE" height="VALUE"/>"#, #"<use href="REF" x="VALUE"/>"#,
                #"<style>@import "REF"; rect { fill: url(REF); stroke-width: VALUE }</style>"#,
                #"<rect width="VALUE" height="10" style="fill: url('REF')"/>"#,
            ]
            let snippet = random.pick(snippets)
                .replacingOccurrences(of: "REF", with: random.pick(SVGPipeline.references))
                .replacingOccurrences(of: "VALUE", with: random.pick(SVGPipeline.interestingValues))
            let after = text.index(after: svgEnd)
            let svgStart = text[..<svgEnd].range(of: "<svg", options: .backwards)
            if random.chance(0.2), let svgStart {
                let entity = "<!DOCTYPE svg [<!ENTITY a \"\(String(repeating: "x", count: random.within(1...64)))\">]>\n"
                let references = String(repeating: "&a;", count: random.within(1...50))
                text = String(text[..<svgStart.lowerBound]) + entity + String(text[svgStart.lowerBound..<after]) + references
                    + String(text[after...])
            } else {
                text.insert(contentsOf: snippet, at: after)
            }
        }
    }
}
