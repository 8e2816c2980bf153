// Animations: basic from/to animations and keyframe tracks, their curves, and which properties fit which nodes.

extension DocumentDecoder {
    static let shapeNodeTypes: Set<String> = ["rect", "circle", "ellipse", "polygon", "path", "wave", "line"]

    // Computed once; every animation asks.
    private static let basicOnly = ["from", "to", "curve", "duration", "by"]
    private static let trackKeys = DocumentKeys.animation.filter { !basicOnly.contains($0) }
    private static let basicOnlyKeys = basicOnly.map {
        (key: $0, owner: "from/to animations; a keyframe track gives each keyframe its value and curve")
    }
    private static let trackOnlyKeys = [(key: "keyframes", owner: "keyframe tracks")]
    private static let propertyOptions = AnimatableProperty.allCases.map { (name: $0.rawValue, value: $0) }

    /// The node's valid animations, and the ids of those that have errors (so cues naming them are not reported twice).
    func decodeAnimations(_ elements: [JSONValue], path: String, nodeType: String, what nodeWhat: String,
                          style: NodeStyle, styleFields: Fields, nodeID: String? = nil) -> (animations: [Animation], broken: Set<String>) {
        var animations: [Animation] = []
        var broken: Set<String> = []
        var ids: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let elementPath = path + "[\(index)]"
            var id: String?
            if case .object(let members) = element.kind, let member = members.first(where: { $0.key == "id" }),
               case .string(let text) = member.value.kind, !text.isEmpty {
                if let first = ids[text] {
                    error(member.value.offset, JSONPath.appending(key: "id", to: elementPath),
                          "duplicate animation id \"\(text)\" on this node (first used at \(locationText(first)))",
                          hint: "animation ids must be unique within a node, so cues can name one animation")
                } else {
                    ids[text] = member.value.offset
                    id = text
                }
            }
            let errorsBefore = errorCount
            var after: AfterSource?
            let animation = decodeAnimation(element, path: elementPath, nodeType: nodeType, nodeWhat: nodeWhat, style: style,
                                            styleFields: styleFields, after: &after)
            if let animation, errorCount == errorsBefore {
                animations.append(animation)
                sceneAnimations.append(TimedAnimation(node: nodeID, animation: animation, after: after))
            } else if let id {
                broken.insert(id)
            }
        }
        return (animations, broken)
    }

    private func decodeAnimation(_ value: JSONValue, path: String, nodeType: String, nodeWhat: String, style: NodeStyle,
                                 styleFields: Fields, after afterSource: inout AfterSource?) -> Animation? {
        let isTrack: Bool
        if case .object(let members) = value.kind { isTrack = members.contains { $0.key == "keyframes" } } else { isTrack = false }
        let what = isTrack ? "a keyframe track" : "an animation"
        guard let fields = isTrack
            ? object(value, path: path, what: what, keys: Self.trackKeys, otherKeys: Self.basicOnlyKeys)
            : object(value, path: path, what: what, keys: DocumentKeys.animation, otherKeys: Self.trackOnlyKeys) else { return nil }

        let id = string(fields, "id", what: what, required: false)
        // `property` is the one named, so values are still checked against it when it does not apply to this node.
        var property: AnimatableProperty?
        var applies = false
        if let member = fields["property"] {
            property = animatableProperty(member.value, path: fields.path("property"), nodeType: nodeType, style: style, styleFields: styleFields)
            if let property {
                if let problem = Self.applicability(of: property, nodeType: nodeType, style: style, styleFields: styleFields) {
                    error(member.value.offset, fields.path("property"), "\"\(property.rawValue)\" cannot be animated on \(nodeWhat): \(problem.reason)",
                          hint: problem.hint)
                } else if property == .text, !isTrack {
                    error(member.value.offset, fields.path("property"), "text changes only at keyframes: animate \"text\" with a keyframe track",
                          hint: "\"keyframes\": [{ \"time\": 0, \"value\": \"1\" }, { \"time\": 2, \"value\": \"2\" }]")
                } else {
                    applies = true
                }
            }
        } else {
            missing("property", in: fields, what: what, hint: "what to animate, e.g. \"rotation\", \"offset.y\" or \"opacity\"")
        }

        let delay = optional(fields, "delay", default: Rational.zero) { self.time($0, path: $1, minimum: .zero) }
        let speed = optional(fields, "speed", default: Rational.one) {
            self.time($0, path: $1, minimum: Rational(1, 1000), maximum: Rational(1000), unit: nil)
        }
        let repeatCount = optional(fields, "repeat", default: RepeatCount.count(1)) { self.repeatCount($0, path: $1) }
        let autoreverses = bool(fields, "autoreverses", default: false)
        var after: StartAnchor?
        if let member = fields["after"] {
            afterSource = startAnchor(member.value, path: fields.path("after"))
            after = afterSource?.anchor
        }

        var kind: Animation.Kind?
        var fromCurrent: Animation.CurrentStart?
        if isTrack {
            if let member = fields["keyframes"] {
                kind = keyframes(member.value, path: fields.path("keyframes"), property: property).map { .keyframes($0) }
                if property == .text, nodeType == "text", style.textValue == nil, !styleFields.has("value"),
                   case .array(let elements) = member.value.kind {
                    for (index, element) in elements.enumerated() {
                        guard case .object(let members) = element.kind, let value = members.first(where: { $0.key == "value" }) else { continue }
                        checkPlaceholders(value.value, path: JSONPath.appending(key: "value", to: fields.path("keyframes") + "[\(index)]"),
                                          isCounter: false, requiredInCounter: false)
                    }
                }
            }
        } else {
            (kind, fromCurrent) = basicKind(fields, what: what, property: property, nodeType: nodeType, style: style)
        }
        guard let property, applies, let kind, let delay, let speed, let repeatCount else { return nil }
        var animation = Animation(id: id, property: property, kind: kind, delay: delay, speed: speed, repeatCount: repeatCount,
                                  autoreverses: autoreverses, after: after)
        animation.fromCurrent = fromCurrent
        return animation
    }

    private func basicKind(_ fields: Fields, what: String, property: AnimatableProperty?, nodeType: String,
                           style: NodeStyle) -> (Animation.Kind?, Animation.CurrentStart?) {
        // `from` defaults to the node's own value, as SwiftUI animates from the current state; "current" takes
        // the value the property shows when the animation starts, whatever animated it before.
        var from: AnimationValue?
        let current: Bool
        if case .string("current")? = fields["from"]?.value.kind { current = true } else { current = false }
        if let property {
            let base = Self.baseValue(of: property, nodeType: nodeType, style: style)
            if case .number = base, let member = fields["from"], case .string(let text) = member.value.kind, !current, Double(text) == nil {
                error(member.value.offset, fields.path("from"), "\"from\" is a number or \"current\", not \"\(Self.shortened(text))\"",
                      hint: "\"current\" starts from the value \"\(property.rawValue)\" shows when the animation starts")
            } else {
                from = current ? base : optional(fields, "from", default: base) { self.animationValue($0, path: $1, property: property) }
            }
        }
        var to: AnimationValue?
        var relative = false
        if let member = fields["to"] {
            to = property.flatMap { animationValue(member.value, path: fields.path("to"), property: $0) }
            if let by = fields["by"] {
                error(by.keyOffset, fields.path("by"), "an animation moves \"to\" a value or \"by\" an amount, not both",
                      hint: "keep \"to\" for where it ends, or \"by\" for how far it goes from where it starts")
                to = nil
            }
        } else if let member = fields["by"] {
            if let property, case .number = Self.baseValue(of: property, nodeType: nodeType, style: style) {
                to = number(member.value, path: fields.path("by"), range: .closed(-1_000_000, 1_000_000)).map { .number($0) }
                relative = true
                // From a written value, "by" is only shorthand: the end is known now.
                if !current, case .number(let start)? = from, case .number(let amount)? = to { (to, relative) = (.number(start + amount), false) }
            } else if let property {
                error(member.keyOffset, fields.path("by"), "\"by\" moves a number, and \"\(property.rawValue)\" is not one",
                      hint: "give the value it moves \"to\"")
            }
        } else {
            missing("to", in: fields, what: what, hint: "the value the animation moves to (or \"by\": how far it moves)")
        }
        let curve = optional(fields, "curve", default: TimingCurve.easeInOut) { self.curve($0, path: $1) }
        var duration: Rational?
        if let member = fields["duration"] {
            duration = time(member.value, path: fields.path("duration"), minimum: .zero, minimumIsExclusive: true)
        } else if let curve {
            if curve.isSpring {
                let settling = curve.settlingDuration
                if settling == .zero {
                    error(fields["curve"]!.value.offset, fields.path("curve"), "this spring has no damping, so it never settles",
                          hint: "give the animation a \"duration\", or add damping")
                } else if settling > DocumentLimits.maximumSceneDuration {
                    error(fields["curve"]!.value.offset, fields.path("curve"),
                          "this spring takes \(Self.seconds(settling)) s to settle, longer than a scene may last",
                          hint: "give the animation a \"duration\", or add damping")
                } else {
                    duration = settling
                }
            } else {
                missing("duration", in: fields, what: what,
                        hint: "seconds per iteration, e.g. \"duration\": 1.5 (springs may leave it out: they settle in their own time)")
            }
        }
        guard let from, let to, let curve, let duration else { return (nil, nil) }
        return (.basic(from: from, to: to, curve: curve, duration: duration), current ? (relative ? .by : .to) : nil)
    }

    private func keyframes(_ value: JSONValue, path: String, property: AnimatableProperty?) -> [Keyframe]? {
        guard let elements = array(value, path: path) else { return nil }
        guard elements.count >= 2 else {
            error(value.offset, path, "a keyframe track needs at least two keyframes, not \(elements.count)",
                  hint: "the first at \"time\": 0 and at least one after it")
            return nil
        }
        guard elements.count <= DocumentLimits.maximumKeyframes else {
            error(value.offset, path, "a keyframe track has at most \(NumberRange.grouped(DocumentLimits.maximumKeyframes)) keyframes, not \(NumberRange.grouped(elements.count))")
            return nil
        }
        var keyframes: [Keyframe] = []
        var previous: Rational?
        var valid = true
        for (index, element) in elements.enumerated() {
            let elementPath = path + "[\(index)]"
            let what = "a keyframe"
            guard let fields = object(element, path: elementPath, what: what, keys: DocumentKeys.keyframe) else { valid = false; continue }
            var time: Rational?
            if let member = fields["time"] {
                time = self.time(member.value, path: fields.path("time"), minimum: .zero)
                if let time {
                    if index == 0, time != .zero {
                        error(member.value.offset, fields.path("time"), "the first keyframe must be at time 0, not \(Self.seconds(time))",
                              hint: "use \"delay\" to start the track later")
                        valid = false
                    } else if let previous, time <= previous {
                        error(member.value.offset, fields.path("time"),
                              "keyframe times must increase: \(Self.seconds(time)) is not after \(Self.seconds(previous))",
                              hint: "sort the keyframes by time; two keyframes cannot share a time")
                        valid = false
                    }
                    previous = time
                }
            } else {
                missing("time", in: fields, what: what, hint: "seconds from the start of the track")
            }
            var keyframeValue: AnimationValue?
            if let member = fields["value"] {
                keyframeValue = property.flatMap { animationValue(member.value, path: fields.path("value"), property: $0) }
            } else {
                missing("value", in: fields, what: what)
            }
            let curve = optional(fields, "curve", default: TimingCurve.linear) { self.curve($0, path: $1) }
            var hold = bool(fields, "hold", default: false)
            if property == .text {
                if !checkTextKeyframe(fields) { valid = false }
                hold = true
            }
            // Sprite frames never blend (a "hold": false is reported with the sheet).
            if property == .spriteFrame { hold = true }
            guard let time, let keyframeValue, let curve else { valid = false; continue }
            keyframes.append(Keyframe(time: time, value: keyframeValue, curve: curve, hold: hold))
        }
        return valid && keyframes.count == elements.count ? keyframes : nil
    }

    func repeatCount(_ value: JSONValue, path: String) -> RepeatCount? {
        switch value.kind {
        case .string(let text):
            if text == "forever" { return .forever }
            error(value.offset, path, "\"repeat\" must be a number of iterations or \"forever\", not \"\(Self.shortened(text))\"",
                  hint: Self.integerValue(text) != nil ? "write the number without quotes" : Self.repeatHint(for: text) ?? Self.suggestion(for: text, among: ["forever"]))
            return nil
        case .number:
            return integer(value, path: path, range: 1...DocumentLimits.maximumRepeatCount).map { .count($0) }
        default:
            typeMismatch(value, path: path, expected: "a number of iterations or \"forever\"")
            return nil
        }
    }

    // MARK: - Curves

    private static let namedCurves: [(name: String, value: TimingCurve)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInOut", .easeInOut),
        // SwiftUI's default spring.
        ("spring", .spring(response: 0.55, dampingFraction: 0.825)),
    ]

    func curve(_ value: JSONValue, path: String) -> TimingCurve? {
        switch value.kind {
        case .string(let text) where !Self.namedCurves.contains { $0.name == text } && Self.curveHint(for: text) != nil:
            error(value.offset, path, "unknown curve \"\(Self.shortened(text))\"", hint: Self.curveHint(for: text))
            return nil
        case .string:
            return choice(value, path: path, options: Self.namedCurves, what: "curve")
        case .object(let members):
            guard members.count == 1, let member = members.first, DocumentKeys.curveKinds.contains(member.key) else {
                if let member = members.first(where: { !DocumentKeys.curveKinds.contains($0.key) }) {
                    error(member.keyOffset, JSONPath.appending(key: member.key, to: path), "unknown curve \"\(member.key)\"",
                          hint: Self.suggestion(for: member.key, among: DocumentKeys.curveKinds + Self.namedCurves.map(\.name))
                              ?? "a curve object has one key: \"cubicBezier\", \"spring\" or \"interpolatingSpring\"")
                } else {
                    error(value.offset, path, "a curve object has exactly one key: \"cubicBezier\", \"spring\" or \"interpolatingSpring\"")
                }
                return nil
            }
            let innerPath = JSONPath.appending(key: member.key, to: path)
            switch member.key {
            case "cubicBezier":
                guard case .array(let elements) = member.value.kind, elements.count == 4 else {
                    error(member.value.offset, innerPath, "\"cubicBezier\" takes four numbers [x1, y1, x2, y2]",
                          hint: "CSS ease-in-out is [0.42, 0, 0.58, 1]")
                    return nil
                }
                let hint = "in [x1, y1, x2, y2] the x values are fractions of the duration, from 0 to 1"
                let x1 = number(elements[0], path: innerPath + "[0]", range: .unit, name: "x1", hint: hint)
                let y1 = number(elements[1], path: innerPath + "[1]", range: .closed(-10, 10), name: "y1")
                let x2 = number(elements[2], path: innerPath + "[2]", range: .unit, name: "x2", hint: hint)
                let y2 = number(elements[3], path: innerPath + "[3]", range: .closed(-10, 10), name: "y2")
                guard let x1, let y1, let x2, let y2 else { return nil }
                return .cubicBezier(x1: x1, y1: y1, x2: x2, y2: y2)
            case "spring":
                let what = "a spring"
                guard let fields = object(member.value, path: innerPath, what: what, keys: DocumentKeys.spring) else { return nil }
                let response = number(fields, "response", default: 0.55, range: NumberRange(minimum: 0, minimumIsExclusive: true, maximum: 10),
                                      what: what, unit: "seconds")
                let dampingFraction = number(fields, "dampingFraction", default: 0.825, range: .closed(0, 10), what: what)
                guard let response, let dampingFraction else { return nil }
                return .spring(response: response, dampingFraction: dampingFraction)
            default:
                let what = "an interpolating spring"
                guard let fields = object(member.value, path: innerPath, what: what, keys: DocumentKeys.interpolatingSpring) else { return nil }
                let mass = number(fields, "mass", default: 1, range: NumberRange(minimum: 0, minimumIsExclusive: true, maximum: 1000), what: what)
                let stiffness = number(fields, "stiffness", default: nil, range: NumberRange(minimum: 0, minimumIsExclusive: true, maximum: 100_000), what: what)
                let damping = number(fields, "damping", default: nil, range: .closed(0, 10_000), what: what)
                guard let mass, let stiffness, let damping else { return nil }
                return .interpolatingSpring(mass: mass, stiffness: stiffness, damping: damping)
            }
        default:
            typeMismatch(value, path: path, expected: "a curve name like \"easeInOut\" or a curve object")
            return nil
        }
    }

    // MARK: - Properties and values

    /// Why `property` cannot be animated on a node of `nodeType` with `style`, or nil when it can.
    /// A modifier given but unreadable (already reported) is not reported again as missing.
    static func applicability(of property: AnimatableProperty, nodeType: String, style: NodeStyle,
                              styleFields: Fields) -> (reason: String, hint: String?)? {
        let isShape = shapeNodeTypes.contains(nodeType)
        switch property {
        case .strokeWidth, .dashPhase, .strokeColor: if style.stroke == nil && styleFields.has("stroke") { return nil }
        case .fillColor: if style.fill == nil && styleFields.has("fill") { return nil }
        default: break
        }
        if property.isClipGeometry { return clipApplicability(of: property, style: style, styleFields: styleFields) }
        switch property {
        case .cornerRadius where nodeType != "rect":
            return ("only rect nodes have a corner radius", nil)
        case .yOffset where nodeType != "wave":
            return ("only wave nodes have a yOffset", nil)
        case .trimFrom, .trimTo:
            return isShape ? nil : ("only shapes (rect, circle, ellipse, polygon, path, wave, line) can be trimmed", nil)
        case .strokeWidth, .dashPhase, .strokeColor:
            guard isShape else { return ("only shapes have a stroke", nil) }
            guard let stroke = style.stroke else { return ("the node has no stroke", "add \"stroke\": { \"paint\": \"#ffffff\", \"width\": 2 }") }
            if property == .strokeColor, case .solid = stroke.paint {} else if property == .strokeColor {
                return ("its stroke is a gradient, not a colour", "animate a solid stroke, or use hueRotation")
            }
            return nil
        case .rotation3DAngle where style.rotation3D == nil:
            return styleFields.has("rotation3D") ? nil
                : ("the node has no rotation3D to turn", "add \"rotation3D\": { \"angle\": 0, \"axis\": { \"y\": 1 } }")
        case .text where nodeType != "text":
            return ("only text nodes have text", nil)
        case .reveal where nodeType != "text":
            return ("only text nodes reveal their characters", nil)
        case .spriteFrame:
            guard nodeType == "image" else { return ("only image nodes show sprite frames", nil) }
            return styleFields.has("sprite") ? nil
                : ("the image is not a sprite sheet", "add \"sprite\": { \"columns\": 8, \"rows\": 2 } to cut the PNG into frames")
        case .value:
            guard nodeType == "text" else { return ("only text nodes count", nil) }
            if style.textValue == nil && !styleFields.has("value") {
                return ("the text is not a counter", "add \"value\": 0 and write {value} in the text where the number goes")
            }
            return nil
        case .fillColor:
            guard isShape || nodeType == "text" else { return ("only shapes and text have a fill", nil) }
            // Text without a fill is white, so its colour can animate from there.
            guard let fill = style.fill else { return nodeType == "text" ? nil : ("the node has no fill", "add \"fill\": \"#ffffff\"") }
            if case .solid = fill { return nil }
            return ("its fill is a gradient, not a colour", "animate a solid fill, or use hueRotation or opacity")
        default:
            // Shadow properties animate SwiftUI's default shadow (black at 33 %, radius 0) when the node has none.
            return nil
        }
    }

    /// The node's own value of `property`: where a from/to animation without `from` starts.
    static func baseValue(of property: AnimatableProperty, nodeType: String, style: NodeStyle) -> AnimationValue {
        func solid(_ paint: Paint?) -> Color {
            if case .solid(let color)? = paint { return color }
            return nodeType == "text" ? .white : .clear
        }
        switch property {
        case .offsetX: return .number(style.offset.x)
        case .offsetY: return .number(style.offset.y)
        case .rotation: return .number(style.rotation)
        case .scale, .scaleX: return .number(style.scale.x)
        case .scaleY: return .number(style.scale.y)
        case .opacity: return .number(style.opacity)
        case .hueRotation: return .number(style.hueRotation)
        case .blur: return .number(style.blur)
        case .shadowRadius: return .number(style.shadow?.radius ?? 0)
        case .shadowX: return .number(style.shadow?.x ?? 0)
        case .shadowY: return .number(style.shadow?.y ?? 0)
        case .shadowColor: return .color(style.shadow?.color ?? DocumentDecoder.defaultShadowColor)
        case .cornerRadius: return .number(style.cornerRadius)
        case .strokeWidth: return .number(style.stroke?.width ?? 0)
        case .dashPhase: return .number(style.stroke?.dashPhase ?? 0)
        case .strokeColor: return .color(solid(style.stroke?.paint))
        case .fillColor: return .color(solid(style.fill))
        case .trimFrom: return .number(style.trimFrom)
        case .trimTo: return .number(style.trimTo)
        case .yOffset: return .number(style.yOffset)
        // Text has no from/to animations (reported), so its own text is never an animation's start.
        case .text: return .text(LocalizedString(""))
        case .value: return .number(style.textValue ?? 0)
        case .reveal: return .number(style.reveal)
        case .spriteFrame: return .number(style.spriteFrame)
        case .rotation3DAngle: return .number(style.rotation3D?.angle ?? 0)
        case .clipX, .clipY, .clipWidth, .clipHeight, .clipCornerRadius, .clipCenterX, .clipCenterY, .clipRadius,
             .clipRadiusX, .clipRadiusY: return clipBaseValue(of: property, style: style)
        }
    }

    /// The accepted range and unit of a numeric property's values.
    static func valueRange(of property: AnimatableProperty) -> (range: NumberRange, unit: String) {
        switch property {
        case .offsetX, .offsetY, .shadowX, .shadowY, .dashPhase: (.any, "points")
        case .rotation, .hueRotation, .rotation3DAngle: (.any, "degrees")
        case .scale, .scaleX, .scaleY: (.closed(-1000, 1000), "a factor")
        case .opacity, .trimFrom, .trimTo: (.unit, "a fraction from 0 to 1")
        case .blur, .shadowRadius, .strokeWidth: (.closed(0, 1000), "points")
        case .cornerRadius: (.nonNegative, "points")
        case .yOffset: (.closed(-10, 10), "a fraction of the wave's height")
        case .shadowColor, .strokeColor, .fillColor: (.any, "a colour")
        case .text: (.any, "text")
        case .value: (counterRange, "the counter's number")
        case .reveal: (.unit, "a fraction of the characters, from 0 to 1")
        case .spriteFrame: (.closed(0, Double(SpriteSheet.maximumSide * SpriteSheet.maximumSide)), "a frame number")
        case .clipX, .clipY, .clipCenterX, .clipCenterY: (.any, "points")
        case .clipWidth, .clipHeight, .clipCornerRadius, .clipRadius, .clipRadiusX, .clipRadiusY: (.nonNegative, "points")
        }
    }

    func animationValue(_ value: JSONValue, path: @autoclosure () -> String, property: AnimatableProperty) -> AnimationValue? {
        if property == .text {
            if case .number = value.kind {
                error(value.offset, path(), "\"text\" takes a string or an object of language -> string, not a number",
                      hint: Self.textValueHint(for: value))
                return nil
            }
            return localizedString(value, path: path()).map { .text($0) }
        }
        if property.isColor {
            guard case .string = value.kind else {
                error(value.offset, path(), "\"\(property.rawValue)\" is a colour: give a colour like \"#ff8800\", not \(value.typeDescription)")
                return nil
            }
            return color(value, path: path()).map { .color($0) }
        }
        let (range, unit) = Self.valueRange(of: property)
        guard case .number = value.kind else {
            var hint: String?
            if case .string(let text) = value.kind {
                hint = text.hasPrefix("#") ? "colours animate through \"fill.color\", \"stroke.color\" or \"shadow.color\""
                    : Double(text) != nil ? "write the number without quotes" : nil
            }
            error(value.offset, path(), "\"\(property.rawValue)\" takes a number (\(unit)), not \(value.typeDescription)", hint: hint)
            return nil
        }
        return number(value, path: path(), range: range).map { .number($0) }
    }
}
