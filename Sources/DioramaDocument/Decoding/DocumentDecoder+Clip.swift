// Clip shapes (`clipShape`) and anchors in points (`anchorPoint`, `scaleAnchorPoint`), and which clip
// properties animate on which clip.

extension AnimatableProperty {
    /// The properties that move a clip shape's geometry.
    public var isClipGeometry: Bool {
        switch self {
        case .clipX, .clipY, .clipWidth, .clipHeight, .clipCornerRadius, .clipCenterX, .clipCenterY, .clipRadius,
             .clipRadiusX, .clipRadiusY: true
        default: false
        }
    }
}

extension DocumentDecoder {
    static let clipTypeNames = DocumentKeys.clipShapes.map(\.type)

    // Computed once: every clip asks.
    private static let clipKeysByType: [String: [String]] =
        Dictionary(uniqueKeysWithValues: DocumentKeys.clipShapes.map { ($0.type, ["type"] + $0.keys) })
    private static let foreignClipKeysByType: [String: [(key: String, owner: String)]] =
        Dictionary(uniqueKeysWithValues: DocumentKeys.clipShapes.map { entry in
            let own = Set(entry.keys)
            var owners: [String: [String]] = [:]
            var order: [String] = []
            for (other, keys) in DocumentKeys.clipShapes where other != entry.type {
                for key in keys where !own.contains(key) {
                    if owners[key] == nil { order.append(key) }
                    owners[key, default: []].append(other)
                }
            }
            return (entry.type, order.map { ($0, "\(list(owners[$0]!, conjunction: "and")) clips") })
        })

    /// The properties each kind of clip animates, for hints.
    private static let clipProperties: [String: [AnimatableProperty]] = [
        "rect": [.clipX, .clipY, .clipWidth, .clipHeight, .clipCornerRadius],
        "capsule": [.clipX, .clipY, .clipWidth, .clipHeight],
        "circle": [.clipCenterX, .clipCenterY, .clipRadius],
        "ellipse": [.clipCenterX, .clipCenterY, .clipRadiusX, .clipRadiusY],
    ]

    /// Reads `clipShape`, `anchorPoint` and `scaleAnchorPoint` into the style.
    func decodeClipShapeAndAnchorPoints(_ fields: Fields, into style: inout NodeStyle) {
        if let member = fields["clipShape"] { style.clipShape = decodeClipShape(member.value, path: fields.path("clipShape")) }
        style.rotationAnchorPoint = anchorPoint(fields, "anchorPoint", unitKey: "anchor")
        style.scaleAnchorPoint = anchorPoint(fields, "scaleAnchorPoint", unitKey: "scaleAnchor")
    }

    /// `{ "x": .., "y": .. }`, both required; an error when the unit anchor it replaces is given too.
    private func anchorPoint(_ fields: Fields, _ key: String, unitKey: String) -> Point? {
        guard let member = fields[key] else { return nil }
        let what = "an anchor point"
        if let unit = fields[unitKey] {
            error(member.keyOffset, fields.path(key), "give \"\(unitKey)\" or \"\(key)\", not both (\"\(unitKey)\" is at \(locationText(unit.keyOffset)))",
                  hint: "\"\(unitKey)\" is a unit point of the node's frame; \"\(key)\" is a point in the node's own coordinates")
        }
        guard let point = object(member.value, path: fields.path(key), what: what, keys: DocumentKeys.anchorPoint) else { return nil }
        let x = number(point, "x", default: nil, range: .any, what: what, unit: "points")
        let y = number(point, "y", default: nil, range: .any, what: what, unit: "points")
        guard let x, let y else { return nil }
        return Point(x: x, y: y)
    }

    func decodeClipShape(_ value: JSONValue, path: String) -> ClipShape? {
        switch value.kind {
        case .string(let name):
            if name == "path" {
                error(value.offset, path, "a path clip needs its path data",
                      hint: "write { \"type\": \"path\", \"d\": \"M 0 0 L 100 0 L 50 80 Z\" }")
                return nil
            }
            return choice(value, path: path, options: FittedClipShape.allCases.map { ($0.rawValue, $0) }, what: "clip shape")
                .map { .fitted($0, cornerRadius: 0) }
        case .object(let members):
            guard let typeMember = members.first(where: { $0.key == "type" }) else {
                error(value.offset, path, "missing required key \"type\" in a clip shape",
                      hint: "the types are \(Self.list(Self.clipTypeNames.map { "\"\($0)\"" }, conjunction: "and"))")
                return nil
            }
            guard let type = choice(typeMember.value, path: JSONPath.appending(key: "type", to: path),
                                    options: Self.clipTypeNames.map { ($0, $0) }, what: "clip shape type") else { return nil }
            let what = "\(type == "ellipse" ? "an" : "a") \(type) clip"
            guard let fields = object(value, path: path, what: what, keys: Self.clipKeysByType[type] ?? ["type"],
                                      otherKeys: Self.foreignClipKeysByType[type] ?? []) else { return nil }
            return decodeClipGeometry(type: type, fields: fields, what: what)
        default:
            typeMismatch(value, path: path, expected: "a shape name like \"circle\" or a shape object",
                         hint: "e.g. \"clipShape\": { \"type\": \"rect\", \"width\": 100, \"height\": 60, \"cornerRadius\": 8 }")
            return nil
        }
    }

    private func decodeClipGeometry(type: String, fields: Fields, what: String) -> ClipShape? {
        func coordinate(_ key: String) -> Double? {
            number(fields, key, default: 0, range: .any, what: what, unit: "points")
        }
        func length(_ key: String) -> Double? {
            number(fields, key, default: nil, range: .nonNegative, what: what, unit: "points")
        }
        /// Geometry given in part: the keys that size the shape are required once any is given, and
        /// placing keys without them is an error (without any, the shape fits the node's frame).
        func sized(by sizeKeys: [String], placedBy placeKeys: [String]) -> Bool? {
            if sizeKeys.contains(where: fields.has) {
                for key in sizeKeys where !fields.has(key) {
                    missing(key, in: fields, what: what,
                            hint: "give \(Self.list(sizeKeys.map { "\"\($0)\"" }, conjunction: "and")), or none of them to fit the clip to the node's frame")
                }
                return sizeKeys.allSatisfy(fields.has) ? true : nil
            }
            if let place = placeKeys.first(where: fields.has), let member = fields[place] {
                error(member.keyOffset, fields.path(place), "\"\(place)\" places \(what) of a given size, but it has no \(Self.list(sizeKeys.map { "\"\($0)\"" }, conjunction: "and"))",
                      hint: "add \(Self.list(sizeKeys.map { "\"\($0)\"" }, conjunction: "and")), or leave out \(Self.list(placeKeys.map { "\"\($0)\"" }, conjunction: "and")) to fit the clip to the node's frame")
                return nil
            }
            return false
        }
        switch type {
        case "rect", "capsule":
            let cornerRadius = type == "rect" ? number(fields, "cornerRadius", default: 0, range: .nonNegative, what: what, unit: "points") : 0
            guard let hasSize = sized(by: ["width", "height"], placedBy: ["x", "y"]) else { return nil }
            guard let cornerRadius else { return nil }
            let shape: FittedClipShape = type == "rect" ? .rect : .capsule
            guard hasSize else { return .fitted(shape, cornerRadius: cornerRadius) }
            let (x, y, width, height) = (coordinate("x"), coordinate("y"), length("width"), length("height"))
            guard let x, let y, let width, let height else { return nil }
            let rect = Rect(x: x, y: y, width: width, height: height)
            return type == "rect" ? .rect(rect, cornerRadius: cornerRadius) : .capsule(rect)
        case "circle":
            guard let hasSize = sized(by: ["r"], placedBy: ["cx", "cy"]) else { return nil }
            guard hasSize else { return .fitted(.circle, cornerRadius: 0) }
            let (cx, cy, r) = (coordinate("cx"), coordinate("cy"), length("r"))
            guard let cx, let cy, let r else { return nil }
            return .circle(center: Point(x: cx, y: cy), radius: r)
        case "ellipse":
            guard let hasSize = sized(by: ["rx", "ry"], placedBy: ["cx", "cy"]) else { return nil }
            guard hasSize else { return .fitted(.ellipse, cornerRadius: 0) }
            let (cx, cy, rx, ry) = (coordinate("cx"), coordinate("cy"), length("rx"), length("ry"))
            guard let cx, let cy, let rx, let ry else { return nil }
            return .ellipse(center: Point(x: cx, y: cy), radiusX: rx, radiusY: ry)
        default:  // path
            return pathData(fields, what: what, example: "\"M 0 0 L 100 0 L 50 80 Z\"", inNodeCoordinates: true).map { .path($0) }
        }
    }

    // MARK: - Animating the clip

    /// Why a clip property cannot be animated on a node with `style`, or nil when it can.
    static func clipApplicability(of property: AnimatableProperty, style: NodeStyle,
                                  styleFields: Fields) -> (reason: String, hint: String?)? {
        guard let clip = style.clipShape else {
            // A clip given but unreadable was reported already.
            if styleFields.has("clipShape") { return nil }
            return ("the node has no clipShape", "add \"clipShape\": { \"type\": \"rect\", \"width\": 100, \"height\": 60 }")
        }
        let kind: String
        switch clip {
        case .rect: kind = "rect"
        case .capsule: kind = "capsule"
        case .circle: kind = "circle"
        case .ellipse: kind = "ellipse"
        case .path:
            return ("a path clip's geometry does not animate",
                    "to move the clip against the content, clip a group and animate its child's offset")
        case .fitted(let shape, _):
            if shape == .rect, property == .clipCornerRadius { return nil }
            let keys = shape == .circle ? "\"r\"" : shape == .ellipse ? "\"rx\" and \"ry\"" : "\"width\" and \"height\""
            return ("its clip fits the node's frame, so it has no written \(property.clipKey) to start from",
                    "give the clip its geometry (\(keys)) to animate it")
        }
        let allowed = clipProperties[kind] ?? []
        if allowed.contains(property) { return nil }
        return ("its clip shape is \(kind == "ellipse" ? "an" : "a") \(kind), which has no \(property.clipKey)",
                "\(kind == "ellipse" ? "an" : "a") \(kind) clip animates \(list(allowed.map { "\"\($0.rawValue)\"" }, conjunction: "and"))")
    }

    /// The clip's own value of a clip property (0 when the clip has no such value: the animation is refused anyway).
    static func clipBaseValue(of property: AnimatableProperty, style: NodeStyle) -> AnimationValue {
        switch (style.clipShape, property) {
        case (.rect(let rect, _)?, .clipX), (.capsule(let rect)?, .clipX): return .number(rect.x)
        case (.rect(let rect, _)?, .clipY), (.capsule(let rect)?, .clipY): return .number(rect.y)
        case (.rect(let rect, _)?, .clipWidth), (.capsule(let rect)?, .clipWidth): return .number(rect.width)
        case (.rect(let rect, _)?, .clipHeight), (.capsule(let rect)?, .clipHeight): return .number(rect.height)
        case (.rect(_, let radius)?, .clipCornerRadius), (.fitted(_, let radius)?, .clipCornerRadius): return .number(radius)
        case (.circle(let center, _)?, .clipCenterX), (.ellipse(let center, _, _)?, .clipCenterX): return .number(center.x)
        case (.circle(let center, _)?, .clipCenterY), (.ellipse(let center, _, _)?, .clipCenterY): return .number(center.y)
        case (.circle(_, let radius)?, .clipRadius): return .number(radius)
        case (.ellipse(_, let radiusX, _)?, .clipRadiusX): return .number(radiusX)
        case (.ellipse(_, _, let radiusY)?, .clipRadiusY): return .number(radiusY)
        default: return .number(0)
        }
    }
}

extension AnimatableProperty {
    /// The clip key a clip property animates ("r" for `clipShape.r`).
    var clipKey: String {
        rawValue.hasPrefix("clipShape.") ? "\"\(rawValue.dropFirst("clipShape.".count))\"" : "\"\(rawValue)\""
    }
}
