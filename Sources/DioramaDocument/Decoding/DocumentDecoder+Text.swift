// Text nodes: their localized text, a counter's number and format, the typewriter's reveal,
// and the checks of text keyframes and of the `{value}` placeholder.

extension DocumentDecoder {
    /// A counter's number may be large, but stays where a Double still counts in units exactly.
    static let counterRange = NumberRange.closed(-1e12, 1e12)

    func decodeTextContent(_ fields: Fields, what: String, style: inout NodeStyle) -> NodeContent? {
        let isCounter = fields.has("value")
        var text: LocalizedString?
        if let member = fields["text"] {
            text = localizedString(member.value, path: fields.path("text"))
            if text != nil {
                // A text track replaces the node's own text, so that text need not show the number.
                checkPlaceholders(member.value, path: fields.path("text"), isCounter: isCounter, requiredInCounter: !hasTextTrack(fields))
            }
        } else if isCounter {
            // `Text(value, format:)`: a counter without words shows its number alone.
            text = LocalizedString(NumberFormat.placeholder, language: languages.fallback)
        } else if hasTextTrack(fields) {
            // The track's first keyframe shows from the start (before its delay too), so no text of its own is needed.
            text = LocalizedString("", language: languages.fallback)
        } else {
            missing("text", in: fields, what: what, hint: "a string, or { \"en\": \"Hello\", \"ja\": \"こんにちは\" }")
        }
        let x = number(fields, "x", default: 0, range: .any, what: what, unit: "points")
        let y = number(fields, "y", default: 0, range: .any, what: what, unit: "points")
        let alignment = optional(fields, "alignment", default: UnitPoint.center) { self.unitPoint($0, path: $1) }
        let font = optional(fields, "font", default: Font()) { self.decodeFont($0, path: $1) }

        if let member = fields["value"], let value = number(member.value, path: fields.path("value"), range: Self.counterRange) {
            style.textValue = value
        }
        var format: NumberFormat? = NumberFormat()
        if let member = fields["format"] {
            if isCounter {
                format = decodeNumberFormat(member.value, path: fields.path("format"))
            } else {
                error(member.keyOffset, fields.path("format"), "\"format\" writes a counter's number, and this text node has no \"value\"",
                      hint: "add \"value\": 0 and write {value} in the text where the number goes")
            }
        }
        if let reveal = number(fields, "reveal", default: 1, range: .unit, what: what, unit: "a fraction of the characters") {
            style.reveal = reveal
        }
        guard let text, let x, let y, let alignment, let font, let format else { return nil }
        return .text(TextContent(text: text, position: Point(x: x, y: y), alignment: alignment, font: font, numberFormat: format))
    }

    private func decodeNumberFormat(_ value: JSONValue, path: String) -> NumberFormat? {
        let what = "a number format"
        guard case .object = value.kind else {
            typeMismatch(value, path: path, expected: "an object", what: what,
                         hint: "{ \"fractionLength\": 1 } writes 12.5; the words around the number go in \"text\", e.g. \"Floor {value}\"")
            return nil
        }
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.numberFormat) else { return nil }
        let fractionLength = optional(fields, "fractionLength", default: 0) {
            self.integer($0, path: $1, range: 0...NumberFormat.maximumFractionLength)
        }
        let rounding = optional(fields, "rounding", default: NumberRounding.toNearestOrEven) {
            self.choice($0, path: $1, options: NumberRounding.allCases.map { ($0.rawValue, $0) }, what: "rounding rule")
        }
        let grouping = optional(fields, "grouping", default: NumberGrouping.automatic) {
            self.choice($0, path: $1, options: NumberGrouping.allCases.map { ($0.rawValue, $0) }, what: "grouping")
        }
        guard let fractionLength, let rounding, let grouping else { return nil }
        return NumberFormat(fractionLength: fractionLength, rounding: rounding, grouping: grouping)
    }

    /// Whether the node's animations include one of `"text"` (read ahead: content is decoded before animations).
    private func hasTextTrack(_ fields: Fields) -> Bool {
        guard let member = fields["animations"], case .array(let elements) = member.value.kind else { return false }
        return elements.contains { element in
            guard case .object(let members) = element.kind,
                  let property = members.first(where: { $0.key == "property" }), case .string(let name) = property.value.kind else { return false }
            return name == AnimatableProperty.text.rawValue
        }
    }

    /// Warns where a counter's text has no `{value}` (its number would not show in that language), and where
    /// text that is not a counter has one (it shows as written). Keyframe texts of a counter may leave the number out.
    func checkPlaceholders(_ value: JSONValue, path: String, isCounter: Bool, requiredInCounter: Bool) {
        let placeholder = NumberFormat.placeholder
        func check(_ text: String, offset: Int, path: String, language: String?) {
            let has = text.contains(placeholder)
            if isCounter, requiredInCounter, !has {
                let whose = language.map { "the \"\($0)\" text of this counter" } ?? "this counter's text"
                warning(offset, path, "\(whose) has no \(placeholder), so its number does not show",
                        hint: "write \(placeholder) where the number goes, e.g. \(language == "ja" ? "\"\(placeholder)階\"" : language == "zh" ? "\"\(placeholder)楼\"" : "\"Floor \(placeholder)\"")")
            } else if !isCounter, has {
                warning(offset, path, "\(placeholder) shows as written: this text node has no \"value\"",
                        hint: "add \"value\": 0 to count with it")
            }
        }
        switch value.kind {
        case .string(let text):
            check(text, offset: value.offset, path: path, language: nil)
        case .object(let members):
            for member in members {
                if case .string(let text) = member.value.kind {
                    check(text, offset: member.value.offset, path: JSONPath.appending(key: member.key, to: path), language: member.key)
                }
            }
        default:
            break
        }
    }

    /// Text tracks only: every keyframe holds (text never interpolates), so a curve or `"hold": false` is a mistake.
    /// Returns whether the keyframe is sound.
    func checkTextKeyframe(_ fields: Fields) -> Bool {
        var sound = true
        if let member = fields["curve"] {
            error(member.keyOffset, fields.path("curve"), "a text keyframe has no curve: text never interpolates, it changes at the keyframe's time",
                  hint: "remove \"curve\"")
            sound = false
        }
        if let member = fields["hold"], case .bool(false) = member.value.kind {
            error(member.value.offset, fields.path("hold"), "a text keyframe always holds: the text changes at the keyframe's time",
                  hint: "remove \"hold\"")
            sound = false
        }
        return sound
    }

    /// The hint for a number given where a text keyframe wants a string.
    static func textValueHint(for value: JSONValue) -> String? {
        guard case .number(let literal) = value.kind else { return nil }
        return "write it as a string, \"\(shortened(literal))\"; a number that animates is a counter's \"value\""
    }
}
