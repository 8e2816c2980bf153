// Colours, gradients and unit points.

extension DocumentDecoder {
    /// `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`; a bad digit is reported at its own column.
    func color(_ value: JSONValue, path: @autoclosure () -> String) -> Color? {
        guard case .string(let text) = value.kind else {
            typeMismatch(value, path: path(), expected: "a colour like \"#ff8800\"")
            return nil
        }
        if let color = Color(hex: text) { return color }
        let hint = "colours are \"#rgb\", \"#rgba\", \"#rrggbb\" or \"#rrggbbaa\" in hexadecimal"
        guard text.first == "#" else {
            let named = Self.namedColors.first { $0.name == text.lowercased() }
            error(value.offset, path(), "\"\(Self.shortened(text))\" is not a colour",
                  hint: Self.colorHint(for: text) ?? named.map { "write \"\($0.hex)\" for \($0.name)" } ?? hint)
            return nil
        }
        var utf8Index = 1
        for character in text.dropFirst() {
            if character.hexDigitValue == nil {
                error(offset(inStringAt: value.offset, utf8Index: utf8Index), path(),
                      "'\(character)' is not a hexadecimal digit in the colour \"\(Self.shortened(text))\"", hint: hint)
                return nil
            }
            utf8Index += character.utf8.count
        }
        error(value.offset, path(), "the colour \"\(Self.shortened(text))\" has \(text.count - 1) digits; it needs 3, 4, 6 or 8", hint: hint)
        return nil
    }

    /// Hints for people who write colour names.
    static let namedColors: [(name: String, hex: String)] = [
        ("white", "#ffffff"), ("black", "#000000"), ("red", "#ff0000"), ("green", "#00ff00"), ("blue", "#0000ff"),
        ("yellow", "#ffff00"), ("orange", "#ffa500"), ("gray", "#808080"), ("grey", "#808080"), ("clear", "#00000000"),
        ("transparent", "#00000000"), ("pink", "#ffc0cb"), ("purple", "#800080"), ("cyan", "#00ffff"), ("magenta", "#ff00ff"),
    ]

    /// A colour string, or an object with one key: `linear`, `radial` or `angular`.
    func paint(_ value: JSONValue, path: String) -> Paint? {
        switch value.kind {
        case .string:
            return color(value, path: path).map { .solid($0) }
        case .object(let members):
            guard members.count == 1, let member = members.first, DocumentKeys.paintKinds.contains(member.key) else {
                if let member = members.first(where: { !DocumentKeys.paintKinds.contains($0.key) }) {
                    error(member.keyOffset, JSONPath.appending(key: member.key, to: path), "unknown paint \"\(member.key)\"",
                          hint: Self.suggestion(for: member.key, among: DocumentKeys.paintKinds) ?? "a paint is a colour string or { \"linear\" | \"radial\" | \"angular\": {...} }")
                } else {
                    error(value.offset, path, members.isEmpty ? "a paint object needs \"linear\", \"radial\" or \"angular\"" : "a paint object has exactly one of \"linear\", \"radial\" or \"angular\"")
                }
                return nil
            }
            let gradientPath = JSONPath.appending(key: member.key, to: path)
            switch member.key {
            case "linear":
                let what = "a linear gradient"
                guard let fields = object(member.value, path: gradientPath, what: what, keys: DocumentKeys.linearGradient) else { return nil }
                let stops = gradientStops(fields, what: what)
                let start = optional(fields, "start", default: UnitPoint.top) { self.unitPoint($0, path: $1) }
                let end = optional(fields, "end", default: UnitPoint.bottom) { self.unitPoint($0, path: $1) }
                guard let stops, let start, let end else { return nil }
                return .linear(stops: stops, start: start, end: end)
            case "radial":
                let what = "a radial gradient"
                guard let fields = object(member.value, path: gradientPath, what: what, keys: DocumentKeys.radialGradient) else { return nil }
                let stops = gradientStops(fields, what: what)
                let center = optional(fields, "center", default: UnitPoint.center) { self.unitPoint($0, path: $1) }
                let startRadius = number(fields, "startRadius", default: 0, range: .nonNegative, what: what, unit: "points")
                let endRadius = number(fields, "endRadius", default: nil, range: .nonNegative, what: what, unit: "points")
                guard let stops, let center, let startRadius, let endRadius else { return nil }
                return .radial(stops: stops, center: center, startRadius: startRadius, endRadius: endRadius)
            default:
                let what = "an angular gradient"
                guard let fields = object(member.value, path: gradientPath, what: what, keys: DocumentKeys.angularGradient) else { return nil }
                let stops = gradientStops(fields, what: what)
                let center = optional(fields, "center", default: UnitPoint.center) { self.unitPoint($0, path: $1) }
                let startAngle = number(fields, "startAngle", default: 0, range: .closed(-3600, 3600), what: what, unit: "degrees")
                let endAngle = number(fields, "endAngle", default: 360, range: .closed(-3600, 3600), what: what, unit: "degrees")
                guard let stops, let center, let startAngle, let endAngle else { return nil }
                return .angular(stops: stops, center: center, startAngle: startAngle, endAngle: endAngle)
            }
        default:
            typeMismatch(value, path: path, expected: "a colour like \"#ff8800\" or a gradient object")
            return nil
        }
    }

    /// `"stops": [{ "color", "location" }]` or `"colors": [...]` spaced evenly; at least two.
    private func gradientStops(_ fields: Fields, what: String) -> [GradientStop]? {
        switch (fields["stops"], fields["colors"]) {
        case (nil, nil):
            missing("stops", in: fields, what: what, hint: "give \"stops\": [{ \"color\": \"#fff\", \"location\": 0 }, ...] or \"colors\": [\"#fff\", \"#000\"]")
            return nil
        case (.some, .some(let colors)):
            error(colors.keyOffset, fields.path("colors"), "a gradient has \"stops\" or \"colors\", not both")
            return nil
        case (nil, .some(let member)):
            guard let elements = array(member.value, path: fields.path("colors")) else { return nil }
            guard elements.count >= 2 else {
                error(member.value.offset, fields.path("colors"), "a gradient needs at least two colours", hint: "for one colour, use a plain colour string")
                return nil
            }
            var stops: [GradientStop] = []
            for (index, element) in elements.enumerated() {
                guard let color = color(element, path: fields.path("colors") + "[\(index)]") else { continue }
                stops.append(GradientStop(location: Double(index) / Double(elements.count - 1), color: color))
            }
            return stops.count == elements.count ? stops : nil
        case (.some(let member), nil):
            guard let elements = array(member.value, path: fields.path("stops")) else { return nil }
            guard elements.count >= 2 else {
                error(member.value.offset, fields.path("stops"), "a gradient needs at least two stops", hint: "for one colour, use a plain colour string")
                return nil
            }
            var stops: [GradientStop] = []
            var previous = 0.0
            for (index, element) in elements.enumerated() {
                let path = fields.path("stops") + "[\(index)]"
                guard let stop = object(element, path: path, what: "a gradient stop", keys: DocumentKeys.gradientStop) else { continue }
                let color = stop["color"].flatMap { self.color($0.value, path: stop.path("color")) }
                if stop["color"] == nil { missing("color", in: stop, what: "a gradient stop") }
                let location = number(stop, "location", default: nil, range: .unit, what: "a gradient stop")
                if let location, let member = stop["location"] {
                    if location < previous {
                        error(member.value.offset, stop.path("location"), "gradient stop locations must not decrease: \(location) comes after \(previous)")
                    }
                    previous = location
                }
                if let color, let location { stops.append(GradientStop(location: location, color: color)) }
            }
            return stops.count == elements.count ? stops : nil
        }
    }

    /// A named anchor ("center", "topLeading", ...) or `[x, y]` in unit coordinates.
    func unitPoint(_ value: JSONValue, path: String) -> UnitPoint? {
        switch value.kind {
        case .string(let text) where Self.anchorSynonym(for: text) != nil:
            reportAnchorSynonym(value, text: text, path: path, name: Self.anchorSynonym(for: text)!)
            return nil
        case .string:
            return choice(value, path: path, options: UnitPoint.named.map { ($0.name, $0.point) }, what: "anchor")
        case .array(let elements):
            guard elements.count == 2 else {
                error(value.offset, path, "a unit point is [x, y], with two numbers, not \(elements.count)")
                return nil
            }
            let x = number(elements[0], path: path + "[0]", range: .closed(-100, 100))
            let y = number(elements[1], path: path + "[1]", range: .closed(-100, 100))
            guard let x, let y else { return nil }
            return UnitPoint(x: x, y: y)
        default:
            typeMismatch(value, path: path, expected: "an anchor name like \"center\" or [x, y] in unit coordinates")
            return nil
        }
    }
}
