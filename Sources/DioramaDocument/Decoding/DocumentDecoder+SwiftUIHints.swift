// Hints in SwiftUI's words: what a SwiftUI (or CSS) user types, mapped to what scenes.json calls it.

import Foundation

extension DocumentDecoder {
    // MARK: - Keys

    /// Keys a SwiftUI user may write: the key each is here (the first that the object has), and how to write it.
    private static let swiftUIKeys: [(written: String, key: String, hint: String)] = [
        ("rotationEffect", "rotation", "SwiftUI's rotationEffect is \"rotation\" here, in degrees: \"rotation\": 15"),
        ("scaleEffect", "scale", "SwiftUI's scaleEffect is \"scale\" here: \"scale\": 1.5 or \"scale\": { \"x\": -1, \"y\": 1 }"),
        ("repeatForever", "repeat", "write \"repeat\": \"forever\" (SwiftUI's repeatForever), with \"autoreverses\": true to go back and forth"),
        ("repeatCount", "repeat", "write \"repeat\": 3 (SwiftUI's repeatCount(3))"),
        ("easing", "curve", "the easing is \"curve\" here: \"curve\": \"easeInOut\", \"linear\", \"spring\" or a curve object"),
        ("animation", "curve", "the timing curve is \"curve\" here: \"curve\": \"easeInOut\", \"linear\", \"spring\" or a curve object"),
        ("ease", "curve", "the easing is \"curve\" here: \"curve\": \"easeInOut\""),
        ("timing", "curve", "the timing curve is \"curve\" here: \"curve\": \"easeInOut\""),
        ("timingFunction", "curve", "the timing curve is \"curve\" here: \"curve\": \"easeInOut\""),
        ("timingCurve", "curve", "SwiftUI's timingCurve is \"curve\": { \"cubicBezier\": [x1, y1, x2, y2] } here"),
        ("foregroundColor", "fill", "SwiftUI's foregroundColor is \"fill\" here: \"fill\": \"#ff8800\""),
        ("foregroundStyle", "fill", "SwiftUI's foregroundStyle is \"fill\" here: a colour or a gradient"),
        ("color", "fill", "a shape's or text's colour is \"fill\" here: \"fill\": \"#ff8800\""),
        ("fillColor", "fill", "write \"fill\": \"#ff8800\""),
        ("strokeColor", "stroke", "write \"stroke\": { \"paint\": \"#ffffff\", \"width\": 2 }"),
        ("strokeBorder", "stroke", "SwiftUI's strokeBorder is \"stroke\" here: { \"paint\": \"#ffffff\", \"width\": 2 }"),
        ("border", "stroke", "an outline is \"stroke\" here: { \"paint\": \"#ffffff\", \"width\": 2 }"),
        ("strokeWidth", "stroke", "the width goes inside the stroke: \"stroke\": { \"paint\": \"#ffffff\", \"width\": 2 }"),
        ("lineWidth", "width", "SwiftUI's lineWidth is \"width\" here"),
        ("radius", "r", "a circle's radius is \"r\" here"),
        ("blurRadius", "blur", "SwiftUI's blur(radius:) is \"blur\" here, in points: \"blur\": 4"),
        ("hue", "hueRotation", "SwiftUI's hueRotation is \"hueRotation\" here, in degrees"),
        ("rotation3DEffect", "rotation3D", "SwiftUI's rotation3DEffect is \"rotation3D\" here: { \"angle\": 45, \"axis\": { \"y\": 1 } }"),
        ("alpha", "opacity", "the alpha is \"opacity\" here, from 0 to 1"),
        ("position", "offset", "SwiftUI's position(x:y:) places a view's centre; here, move a node with \"offset\": { \"x\": 10, \"y\": 20 }"),
        ("offsetX", "offset", "write \"offset\": { \"x\": 10 } (SwiftUI's offset(x: 10))"),
        ("offsetY", "offset", "write \"offset\": { \"y\": 10 } (SwiftUI's offset(y: 10))"),
        ("anchorPoint", "anchor", "the rotation's anchor is \"anchor\" here: \"anchor\": \"bottom\" or [0.5, 1]"),
        ("rotationAnchor", "anchor", "the rotation's anchor is \"anchor\" here: \"anchor\": \"bottom\" or [0.5, 1]"),
        ("fontSize", "font", "write \"font\": { \"size\": 24 }"),
        ("fontWeight", "font", "write \"font\": { \"weight\": 700 } (100 to 900; 700 is bold)"),
        ("fontFamily", "font", "write \"font\": { \"family\": \"Sans\" }"),
        ("fontSize", "size", "SwiftUI's font(.system(size:)) is \"size\" here, in points"),
        ("fontWeight", "weight", "write \"weight\": 700 (100 to 900; 700 is bold)"),
        ("fontFamily", "family", "write \"family\": \"Sans\""),
        ("startPoint", "start", "SwiftUI's startPoint is \"start\" here"),
        ("endPoint", "end", "SwiftUI's endPoint is \"end\" here"),
        ("damping", "dampingFraction", "a spring's damping is \"dampingFraction\" here (1 settles without overshoot)"),
        ("subviews", "children", "a group's nodes are \"children\""),
        ("content", "children", "a group's nodes are \"children\""),
        ("nodes", "children", "a group's nodes are \"children\""),
        ("rate", "pitch", "a sound's playback rate is its \"pitch\" here, in semitones: 12 plays it at twice the rate, -12 at half"),
        ("playbackRate", "pitch", "a sound's playback rate is its \"pitch\" here, in semitones: 12 plays it at twice the rate, -12 at half"),
        ("transpose", "pitch", "write \"pitch\" in semitones: 12 is an octave up, -12 an octave down"),
        ("semitones", "pitch", "write \"pitch\" in semitones: 12 is an octave up, -12 an octave down"),
    ]

    /// The hint for an unknown key that SwiftUI spells differently, when the object has the key it means.
    static func swiftUIKeyHint(_ key: String, keys: [String]) -> String? {
        swiftUIKeys.first { $0.written == key && keys.contains($0.key) }?.hint
    }

    /// `"offset": [10, 20]`: SwiftUI's `offset(x: 10, y: 20)` is an object here.
    static func pairHint(_ value: JSONValue, key: String) -> String? {
        guard case .array(let elements) = value.kind, elements.count == 2,
              case .number(let x) = elements[0].kind, case .number(let y) = elements[1].kind else { return nil }
        let swiftUI = key == "offset" ? " (SwiftUI's offset(x: \(x), y: \(y)))" : key == "scale" ? " (SwiftUI's scaleEffect(x: \(x), y: \(y)))" : ""
        return "write \"\(key)\": { \"x\": \(x), \"y\": \(y) }\(swiftUI)"
    }

    // MARK: - Anchors

    private static let anchorSynonyms: [String: String] = [
        "topLeft": "topLeading", "topRight": "topTrailing", "bottomLeft": "bottomLeading", "bottomRight": "bottomTrailing",
        "top-left": "topLeading", "top-right": "topTrailing", "bottom-left": "bottomLeading", "bottom-right": "bottomTrailing",
        "top left": "topLeading", "top right": "topTrailing", "bottom left": "bottomLeading", "bottom right": "bottomTrailing",
        "left": "leading", "right": "trailing", "centre": "center", "middle": "center",
    ]

    /// The anchor name SwiftUI uses for `text` ("topLeft" is "topLeading"; ".top" is "top"), when it is not one already.
    static func anchorSynonym(for text: String) -> String? {
        if UnitPoint.named.contains(where: { $0.name == text }) { return nil }
        if let name = anchorSynonyms[text] ?? anchorSynonyms[text.lowercased()] { return name }
        let stripped = Self.strippingSwiftUIPrefix(text, type: "UnitPoint")
        return stripped != text && UnitPoint.named.contains(where: { $0.name == stripped }) ? stripped : nil
    }

    func reportAnchorSynonym(_ value: JSONValue, text: String, path: String, name: String) {
        let corner = Self.anchorSynonyms[text] != nil || Self.anchorSynonyms[text.lowercased()] != nil
        error(value.offset, path, "unknown anchor \"\(Self.shortened(text))\"",
              hint: corner ? "SwiftUI calls it \"\(name)\" (leading is the left side, trailing the right): write \"\(name)\""
                  : "write \"\(name)\", without the dot")
    }

    /// ".red" -> "red", "Color.red" -> "red", "UnitPoint.top" -> "top".
    static func strippingSwiftUIPrefix(_ text: String, type: String) -> String {
        for prefix in ["\(type).", "."] where text.hasPrefix(prefix) {
            return String(text.dropFirst(prefix.count))
        }
        return text
    }

    // MARK: - Colours

    /// SwiftUI's system colours (light appearance), which differ from the CSS colours of the same name.
    static let swiftUIColors: [String: String] = [
        "red": "#ff3b30", "orange": "#ff9500", "yellow": "#ffcc00", "green": "#34c759", "mint": "#00c7be",
        "teal": "#30b0c7", "cyan": "#32ade6", "blue": "#007aff", "indigo": "#5856d6", "purple": "#af52de",
        "pink": "#ff2d55", "brown": "#a2845e", "gray": "#8e8e93", "black": "#000000", "white": "#ffffff",
        "clear": "#00000000",
    ]

    /// The hex colour for what a SwiftUI or CSS user writes: `Color.red`, `.red`, `Color(red: 1, green: 0.5, blue: 0)`,
    /// `Color(white: 0.5)`, `rgb(255, 136, 0)`, `rgba(255, 136, 0, 0.5)`, `0xff8800`, `ff8800`.
    static func colorHint(for text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        // Color.red, .red, Color(.red), UIColor.red, Color.red.opacity(0.5)
        var name = trimmed
        var opacity: Double?
        if let range = name.range(of: ".opacity("), name.hasSuffix(")") {
            opacity = Double(name[range.upperBound..<name.index(before: name.endIndex)].trimmingCharacters(in: .whitespaces))
            name = String(name[..<range.lowerBound])
        }
        for prefix in ["Color(.", "Color.", "UIColor.", "NSColor.", "."] where name.hasPrefix(prefix) {
            var rest = String(name.dropFirst(prefix.count))
            if prefix == "Color(." { guard rest.hasSuffix(")") else { break }; rest.removeLast() }
            if rest.hasSuffix("()") { rest.removeLast(2) }  // UIColor.red()
            guard let hex = swiftUIColors[rest] else { break }
            let withAlpha = opacity.map { hex.count == 7 ? hex + hexByte($0) : hex } ?? hex
            return "write \"\(withAlpha)\" for SwiftUI's Color.\(rest)\(opacity.map { ".opacity(\(format($0)))" } ?? "") (its light-mode colour)"
        }
        // Color(red: 1, green: 0.5, blue: 0, opacity: 0.5), Color(white: 0.5)
        if trimmed.hasPrefix("Color("), trimmed.hasSuffix(")"), let arguments = labelledNumbers(in: trimmed, after: "Color(") {
            let alpha = arguments["opacity"] ?? arguments["alpha"]
            var channels: [Double]?
            if let red = arguments["red"], let green = arguments["green"], let blue = arguments["blue"] {
                channels = [red, green, blue]
            } else if let white = arguments["white"] {
                channels = [white, white, white]
            }
            if let channels, (channels + [alpha ?? 1]).allSatisfy({ (0...1).contains($0) }) {
                let hex = "#" + channels.map(hexByte).joined() + (alpha.map(hexByte) ?? "")
                return "write \"\(hex)\" for \(trimmed)"
            }
        }
        // rgb(255, 136, 0), rgba(255, 136, 0, 0.5)
        for function in ["rgba(", "rgb("] where lowered.hasPrefix(function) && lowered.hasSuffix(")") {
            guard let list = orderedNumbers(in: lowered, after: function), list.count == 3 || list.count == 4 else { break }
            let rgb = list.prefix(3)
            guard rgb.allSatisfy({ (0...255).contains($0) }) else { break }
            var hex = "#" + rgb.map { hexByte($0 / 255) }.joined()
            if list.count == 4 {
                guard (0...1).contains(list[3]) else { break }
                hex += hexByte(list[3])
            }
            return "write \"\(hex)\" for \(trimmed)"
        }
        // 0xff8800, ff8800
        var digits = Substring(lowered)
        if digits.hasPrefix("0x") { digits = digits.dropFirst(2) }
        if [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) {
            return "write \"#\(digits)\": colours start with #"
        }
        return nil
    }

    /// Two lowercase hex digits of a fraction 0...1.
    private static func hexByte(_ fraction: Double) -> String {
        let byte = Int((min(max(fraction, 0), 1) * 255).rounded())
        let text = String(byte, radix: 16)
        return byte < 16 ? "0" + text : text
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The numbers between `prefix` and the closing parenthesis, in order (labels such as `red:` dropped).
    private static func orderedNumbers(in text: String, after prefix: String) -> [Double]? {
        let inner = text.dropFirst(prefix.count).dropLast()
        var numbers: [Double] = []
        for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
            let value = part.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard let number = Double(value.hasSuffix("%") ? String(value.dropLast()) : value) else { return nil }
            numbers.append(value.hasSuffix("%") ? number * 2.55 : number)
        }
        return numbers
    }

    /// `label: number` pairs between `prefix` and the closing parenthesis.
    private static func labelledNumbers(in text: String, after prefix: String) -> [String: Double]? {
        let inner = text.dropFirst(prefix.count).dropLast()
        var values: [String: Double] = [:]
        for part in inner.split(separator: ",") {
            let pieces = part.split(separator: ":", maxSplits: 1)
            guard pieces.count == 2, let number = Double(pieces[1].trimmingCharacters(in: .whitespaces)) else { continue }
            values[pieces[0].trimmingCharacters(in: .whitespaces)] = number
        }
        return values
    }

    // MARK: - Curves and repeats

    /// For a curve name that is not one of ours: how to write it. SwiftUI's spring presets (`.smooth`, `.snappy`,
    /// `.bouncy`: a 0.5 s spring with bounce 0, 0.15 and 0.3) become springs with `dampingFraction` = 1 - bounce.
    static func curveHint(for text: String) -> String? {
        let names = ["linear", "easeIn", "easeOut", "easeInOut", "spring"]
        var name = strippingSwiftUIPrefix(text.trimmingCharacters(in: .whitespaces), type: "Animation")
        var arguments = ""
        if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
            arguments = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
            name = String(name[..<open])
        }
        let numbers = labelledNumbers(in: "(" + arguments + ")", after: "(") ?? [:]
        switch name.lowercased() {
        case "ease-in-out", "ease_in_out", "ease", "default", "easeinout":
            return names.contains(name) ? durationHint(name, numbers) : "write \"easeInOut\" (SwiftUI's default curve)"
        case "ease-in", "ease_in":
            return "write \"easeIn\""
        case "ease-out", "ease_out":
            return "write \"easeOut\""
        case "smooth", "snappy", "bouncy":
            let damping = ["smooth": "1", "snappy": "0.85", "bouncy": "0.7"][name.lowercased()]!
            return "write \"curve\": { \"spring\": { \"response\": 0.5, \"dampingFraction\": \(damping) } } (SwiftUI's .\(name))"
        case "interactivespring":
            return "write \"curve\": { \"spring\": { \"response\": 0.15, \"dampingFraction\": 0.86 } } (SwiftUI's .interactiveSpring)"
        case "spring" where !arguments.isEmpty:
            let response = numbers["response"].map(format) ?? "0.55"
            let damping = numbers["dampingFraction"].map(format) ?? "0.825"
            return "write \"curve\": { \"spring\": { \"response\": \(response), \"dampingFraction\": \(damping) } }"
        case "interpolatingspring":
            let mass = numbers["mass"].map(format) ?? "1"
            let stiffness = numbers["stiffness"].map(format) ?? "170"
            let damping = numbers["damping"].map(format) ?? "15"
            return "write \"curve\": { \"interpolatingSpring\": { \"mass\": \(mass), \"stiffness\": \(stiffness), \"damping\": \(damping) } }"
        case "timingcurve", "cubic-bezier":
            let values = arguments.split(separator: ",").compactMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
            let list = values.count == 4 ? values.map(format).joined(separator: ", ") : "x1, y1, x2, y2"
            return "write \"curve\": { \"cubicBezier\": [\(list)] }"
        default:
            guard names.contains(name), name != text else { return nil }
            return durationHint(name, numbers)
        }
    }

    /// `easeInOut(duration: 2)`: the duration is a key of its own.
    private static func durationHint(_ name: String, _ numbers: [String: Double]) -> String {
        if let duration = numbers["duration"] { return "write \"curve\": \"\(name)\" and \"duration\": \(format(duration))" }
        return "write \"\(name)\""
    }

    /// For a repeat written as SwiftUI, CSS or Core Animation would.
    static func repeatHint(for text: String) -> String? {
        switch text.lowercased() {
        case "repeatforever", ".repeatforever", "repeatforever()", "infinite", "infinity", ".infinity", "always", "loop", "forever()":
            return "write \"repeat\": \"forever\", with \"autoreverses\": true to go back and forth"
        default:
            return nil
        }
    }

    // MARK: - Animatable properties

    private static let propertySynonyms: [String: String] = [
        "rotationEffect": "rotation", "rotationAngle": "rotation", "angle": "rotation",
        "rotation3DEffect": "rotation3D.angle", "rotation3D": "rotation3D.angle",
        "scaleEffect": "scale", "alpha": "opacity", "hue": "hueRotation", "blurRadius": "blur",
        "x": "offset.x", "y": "offset.y", "offsetX": "offset.x", "offsetY": "offset.y",
        "fill": "fill.color", "color": "fill.color", "foregroundColor": "fill.color", "fillColor": "fill.color",
        "strokeColor": "stroke.color", "lineWidth": "stroke.width", "strokeWidth": "stroke.width", "dashPhase": "stroke.dashPhase",
        "shadowRadius": "shadow.radius", "shadowColor": "shadow.color", "trim": "trim.to", "trimTo": "trim.to", "trimFrom": "trim.from",
    ]

    /// The `property` of an animation on a node of `nodeType`; an unknown name is reported with SwiftUI's word for
    /// it, a likely typo, or the properties that can be animated on this node.
    func animatableProperty(_ value: JSONValue, path: String, nodeType: String, style: NodeStyle,
                            styleFields: Fields) -> AnimatableProperty? {
        guard case .string(let text) = value.kind, AnimatableProperty(rawValue: text) == nil else {
            return choice(value, path: path, options: AnimatableProperty.allCases.map { ($0.rawValue, $0) }, what: "animatable property")
        }
        let applicable = AnimatableProperty.allCases.filter {
            Self.applicability(of: $0, nodeType: nodeType, style: style, styleFields: styleFields) == nil
        }.map(\.rawValue)
        var hint: String
        if let synonym = Self.propertySynonyms[text] {
            hint = "write \"\(synonym)\""
        } else if ["offset", "position"].contains(text) {
            hint = "animate \"offset.x\" and \"offset.y\", each with its own animation"
        } else if text == "stroke" {
            hint = "animate \"stroke.color\", \"stroke.width\" or \"stroke.dashPhase\""
        } else if text == "shadow" {
            hint = "animate \"shadow.radius\", \"shadow.x\", \"shadow.y\" or \"shadow.color\""
        } else if let suggestion = Self.suggestion(for: text, among: AnimatableProperty.allCases.map(\.rawValue)) {
            hint = suggestion
        } else {
            hint = "on \(nodeType == "ellipse" || nodeType == "emitter" || nodeType == "image" ? "an" : "a") \(nodeType) node, animate \(Self.list(applicable.map { "\"\($0)\"" }, conjunction: "or"))"
        }
        error(value.offset, path, "unknown animatable property \"\(Self.shortened(text))\"", hint: hint)
        return nil
    }
}
