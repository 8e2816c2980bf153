// Filter primitives whose work grows with a number the file chooses: librsvg does what it is asked, so a
// hostile value costs minutes or aborts the process (feConvolveMatrix above order 20 panics in librsvg 2.54).

extension SVGSafety {
    /// A filter primitive's attribute and the largest value it may hold (each of its numbers, for the
    /// `number-optional-number` attributes).
    struct FilterBound: Sendable {
        var element: String
        var attribute: String
        var maximum: Double
        /// What the number costs, for the hint.
        var why: String
    }

    /// The bounded attributes. Work per output pixel: order² for a convolution, one noise evaluation per
    /// octave (an octave past the 10th changes no 8-bit value: its amplitude is below 1/1024), (2r + 1)² for
    /// morphology in librsvg; a blur's deviation sets how far its box passes reach and how far the region grows.
    static let filterBounds: [FilterBound] = [
        FilterBound(element: "feConvolveMatrix", attribute: "order", maximum: Double(maximumConvolveOrder),
                    why: "each pixel costs order × order multiplications"),
        FilterBound(element: "feTurbulence", attribute: "numOctaves", maximum: Double(maximumTurbulenceOctaves),
                    why: "each octave past the 10th changes no visible value, and each costs a pass over every pixel"),
        FilterBound(element: "feMorphology", attribute: "radius", maximum: maximumMorphologyRadius,
                    why: "each pixel looks at (2 × radius + 1)² pixels"),
        FilterBound(element: "feGaussianBlur", attribute: "stdDeviation", maximum: maximumBlurDeviation,
                    why: "a blur wider than the picture only spends time"),
        FilterBound(element: "feDropShadow", attribute: "stdDeviation", maximum: maximumBlurDeviation,
                    why: "a blur wider than the picture only spends time"),
    ]

    static func filterProblem(in bytes: [UInt8]) -> VectorArtError? {
        let bounded = Set(filterBounds.map(\.element))
        return walkTags(bytes, attributesOf: bounded.union(["feImage"]), tag: { tag in
            guard tag.kind != .closing else { return nil }
            // An feImage drawing an element of the drawing: an element whose filter draws itself this way panics
            // librsvg 2.54 (an empty surface tiled: the fuzzer found it), and Firefox draws no such reference anyway.
            // A picture file or data URL is what feImage is for.
            if tag.name == "feImage" {
                let reference = (tag.attributes["href"] ?? tag.attributes["xlink:href"] ?? "").trimmingCharacters(in: .whitespaces)
                guard !reference.hasPrefix("#") else {
                    let shown = reference.count > 40 ? String(reference.prefix(37)) + "..." : reference
                    return VectorArtError(reason: "its feImage draws the element \"\(shown)\" of the drawing, which is not drawn here",
                                          hint: "give feImage a picture file or a data: URL, or draw the element with <use>")
                }
                return nil
            }
            guard bounded.contains(tag.name) else { return nil }
            for bound in filterBounds where bound.element == tag.name {
                guard let written = tag.attributes[bound.attribute] else { continue }
                let shown = written.count > 40 ? String(written.prefix(37)) + "..." : written
                let parts = written.split(whereSeparator: { $0 == "," || $0.isWhitespace })
                let numbers = parts.compactMap { Double($0) }
                guard numbers.count == parts.count, numbers.allSatisfy(\.isFinite) else {
                    return VectorArtError(reason: "its \(bound.element) has the \(bound.attribute) \"\(shown)\", which is not a number",
                                          hint: "write the \(bound.attribute) as a plain number (entities are not expanded here)")
                }
                if let largest = numbers.max(), largest > bound.maximum {
                    return VectorArtError(
                        reason: "its \(bound.element) has the \(bound.attribute) \(shown); the limit is \(bound.maximum.plainDescription)",
                        hint: "\(bound.why); use at most \(bound.maximum.plainDescription)")
                }
            }
            return nil
        }, characters: { _ in nil })
    }
}

extension Double {
    /// 20 for 20.0, 2.5 for 2.5.
    var plainDescription: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
