// Nodes: their type-specific content and the SwiftUI-style modifiers every node has.

extension DocumentDecoder {
    static let nodeTypeNames = DocumentKeys.nodeTypes.map(\.type)

    func decodeNodes(_ elements: [JSONValue], path: String, depth: Int, scope: inout SceneScope) -> [Node] {
        var nodes: [Node] = []
        for (index, element) in elements.enumerated() {
            nodes += decodeNodeOrCopies(element, path: path + "[\(index)]", depth: depth, scope: &scope)
        }
        return nodes
    }

    func decodeNode(_ value: JSONValue, path: String, depth: Int, scope: inout SceneScope) -> Node? {
        guard case .object(let members) = value.kind else {
            typeMismatch(value, path: path, expected: "an object", what: "a node", hint: "a node is { \"type\": \"rect\", ... }")
            return nil
        }
        nodeCount += 1
        if nodeCount > DocumentLimits.maximumNodeCount {
            if !reportedNodeLimit {
                reportedNodeLimit = true
                error(value.offset, path, "more than \(NumberRange.grouped(DocumentLimits.maximumNodeCount)) nodes in the document",
                      hint: "use an emitter for many small particles")
            }
            return nil
        }
        if depth > DocumentLimits.maximumNodeDepth {
            error(value.offset, path, "groups nested more than \(DocumentLimits.maximumNodeDepth) deep",
                  hint: "flatten the tree; deep nesting is slow to draw and hard to read")
            return nil
        }
        guard let typeMember = members.first(where: { $0.key == "type" }) else {
            error(value.offset, path, "missing required key \"type\" in a node",
                  hint: "the types are \(Self.list(Self.nodeTypeNames.map { "\"\($0)\"" }, conjunction: "and"))")
            return nil
        }
        guard let type = choice(typeMember.value, path: JSONPath.appending(key: "type", to: path),
                                options: Self.nodeTypeNames.map { ($0, $0) }, what: "node type") else { return nil }
        let what = "\(type == "ellipse" || type == "emitter" || type == "image" ? "an" : "a") \(type) node"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.keys(ofNodeType: type),
                                  otherKeys: DocumentKeys.foreignKeys(forNodeType: type)) else { return nil }

        var id: String?
        // Inside a component's instance, ids are scoped by the instance's: "leftDoor/panel".
        if let member = fields["id"], let text = string(member.value, path: fields.path("id")).flatMap(scopedNodeID) {
            if text.isEmpty {
                error(member.value.offset, fields.path("id"), "a node id must not be empty")
            } else if let first = scope.nodeOffsets[text] {
                error(member.value.offset, fields.path("id"), "duplicate node id \"\(text)\" in this scene (first used at \(locationText(first)))",
                      hint: "node ids must be unique within a scene, so cues can name one node")
            } else {
                id = text
                // Registered before the rest is read, so a later duplicate is caught even if this node has errors.
                scope.nodeOffsets[text] = member.value.offset
            }
        }

        var style = decodeStyle(fields, what: what)
        let content = decodeContent(type: type, fields: fields, what: what, id: id, depth: depth, style: &style, scope: &scope)
        let zIndex = number(fields, "zIndex", default: 0, range: .any, what: what) ?? 0
        let frame = fields["frame"].flatMap { rect($0.value, path: fields.path("frame"), what: "a frame") }
        let tap = decodeTap(fields, id: id, what: what)

        var animations: [Animation] = []
        var brokenAnimations: Set<String> = []
        if let member = fields["animations"], let elements = array(member.value, path: fields.path("animations")) {
            (animations, brokenAnimations) = decodeAnimations(elements, path: fields.path("animations"), nodeType: type, what: what,
                                                              style: style, styleFields: fields, nodeID: id)
        }
        brokenAnimations.formUnion(misplacedAnimationIDs(fields))
        if let id {
            scope.nodeOrder.append(id)
            scope.brokenAnimations[id] = brokenAnimations
        }
        if Self.shapeNodeTypes.contains(type), !fields.has("fill"), !fields.has("stroke") {
            advice(value.offset, path, "this \(type) has neither a fill nor a stroke, so it draws nothing",
                    hint: "add \"fill\": \"#ffffff\" or a \"stroke\"")
        }
        guard let content, let tap else { return nil }
        var node = Node(id: id, content: content, style: style, animations: animations, zIndex: zIndex, frame: frame)
        node.tap = tap
        if let id { scope.nodes[id] = node }
        return node
    }

    // MARK: - Content

    private func decodeContent(type: String, fields: Fields, what: String, id: String?, depth: Int, style: inout NodeStyle,
                               scope: inout SceneScope) -> NodeContent? {
        func coordinate(_ key: String, default defaultValue: Double? = 0) -> Double? {
            number(fields, key, default: defaultValue, range: .any, what: what, unit: "points")
        }
        func length(_ key: String) -> Double? {
            number(fields, key, default: nil, range: .nonNegative, what: what, unit: "points")
        }
        switch type {
        case "group":
            guard let member = fields["children"] else { return .group(Group(children: [])) }
            guard let elements = array(member.value, path: fields.path("children")) else { return nil }
            return .group(Group(children: decodeNodes(elements, path: fields.path("children"), depth: depth + 1, scope: &scope)))
        case "rect":
            let (x, y, width, height) = (coordinate("x"), coordinate("y"), length("width"), length("height"))
            if let cornerRadius = number(fields, "cornerRadius", default: 0, range: .nonNegative, what: what, unit: "points") {
                style.cornerRadius = cornerRadius
            }
            guard let x, let y, let width, let height else { return nil }
            return .rect(RectShape(rect: Rect(x: x, y: y, width: width, height: height)))
        case "circle":
            let (cx, cy, r) = (coordinate("cx"), coordinate("cy"), length("r"))
            guard let cx, let cy, let r else { return nil }
            return .ellipse(EllipseShape(center: Point(x: cx, y: cy), radiusX: r, radiusY: r))
        case "ellipse":
            let (cx, cy, rx, ry) = (coordinate("cx"), coordinate("cy"), length("rx"), length("ry"))
            guard let cx, let cy, let rx, let ry else { return nil }
            return .ellipse(EllipseShape(center: Point(x: cx, y: cy), radiusX: rx, radiusY: ry))
        case "polygon", "line":
            guard let member = fields["points"] else {
                missing("points", in: fields, what: what, hint: "\"points\": [[0, 0], [100, 0], [50, 80]]")
                return nil
            }
            let minimum = type == "polygon" ? 3 : 2
            guard let points = points(member.value, path: fields.path("points"), minimum: minimum) else { return nil }
            return type == "polygon" ? .polygon(points) : .line(points)
        case "path":
            return pathData(fields, what: what, example: "\"M 0 0 L 100 0 Q 150 50 100 100 Z\"").map { .path($0) }
        case "wave":
            let (x, y, width, height) = (coordinate("x"), coordinate("y"), length("width"), length("height"))
            let control1X = number(fields, "control1X", default: 0.5, range: .unit, what: what)
            let control2X = number(fields, "control2X", default: 0.5, range: .unit, what: what)
            if let yOffset = number(fields, "yOffset", default: 0, range: .closed(-10, 10), what: what) {
                style.yOffset = yOffset
            }
            guard let x, let y, let width, let height, let control1X, let control2X else { return nil }
            return .wave(WaveShape(rect: Rect(x: x, y: y, width: width, height: height), control1X: control1X, control2X: control2X))
        case "text":
            return decodeTextContent(fields, what: what, style: &style)
        case "image":
            return decodeImageContent(fields, what: what, style: &style).map { .image($0) }
        case "component":
            return decodeInstance(fields, what: what, depth: depth, scope: &scope)
        case "lottie":
            return decodeLottie(fields, what: what, nodeID: id)
        default:  // emitter
            guard let member = fields["particles"] else { return .emitter(Emitter()) }
            return decodeEmitter(member.value, path: fields.path("particles")).map { .emitter($0) }
        }
    }

    private func points(_ value: JSONValue, path: String, minimum: Int) -> [Point]? {
        guard let elements = array(value, path: path, hint: "points are [[x, y], [x, y], ...]") else { return nil }
        guard elements.count >= minimum else {
            error(value.offset, path, "\"\(Self.lastKey(of: path))\" needs at least \(minimum) points, not \(elements.count)")
            return nil
        }
        var points: [Point] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path + "[\(index)]"
            guard case .array(let pair) = element.kind, pair.count == 2 else {
                error(element.offset, elementPath, "a point is [x, y], with two numbers",
                      hint: { if case .object = element.kind { return "write [x, y], not { \"x\": ..., \"y\": ... }" }; return nil }())
                continue
            }
            let x = number(pair[0], path: elementPath + "[0]", range: .any)
            let y = number(pair[1], path: elementPath + "[1]", range: .any)
            if let x, let y { points.append(Point(x: x, y: y)) }
        }
        return points.count == elements.count ? points : nil
    }

    func decodeFont(_ value: JSONValue, path: String) -> Font? {
        let what = "a font"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.font) else { return nil }
        let defaults = Font()
        let family = fields["family"] == nil ? defaults.family : string(fields, "family", what: what, required: true)
        let size = number(fields, "size", default: defaults.size, range: NumberRange(minimum: 0, minimumIsExclusive: true, maximum: 2000),
                          what: what, unit: "points")
        let weight = optional(fields, "weight", default: defaults.weight) { self.integer($0, path: $1, range: 100...900) }
        guard let family, let size, let weight else { return nil }
        return Font(family: family, size: size, weight: weight)
    }

    func rect(_ value: JSONValue, path: String, what: String) -> Rect? {
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.frame) else { return nil }
        let x = number(fields, "x", default: 0, range: .any, what: what, unit: "points")
        let y = number(fields, "y", default: 0, range: .any, what: what, unit: "points")
        let width = number(fields, "width", default: nil, range: .nonNegative, what: what, unit: "points")
        let height = number(fields, "height", default: nil, range: .nonNegative, what: what, unit: "points")
        guard let x, let y, let width, let height else { return nil }
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// `{ "x": .., "y": .. }` with both keys optional.
    func vector(_ value: JSONValue, path: String, what: String, default defaultValue: Double,
                range: NumberRange = .any) -> Point? {
        if let hint = Self.pairHint(value, key: Self.lastKey(of: path)) {
            typeMismatch(value, path: path, expected: "an object", what: what, hint: hint)
            return nil
        }
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.vector) else { return nil }
        let x = number(fields, "x", default: defaultValue, range: range, what: what)
        let y = number(fields, "y", default: defaultValue, range: range, what: what)
        guard let x, let y else { return nil }
        return Point(x: x, y: y)
    }

    // MARK: - Modifiers

    private func decodeStyle(_ fields: Fields, what: String) -> NodeStyle {
        var style = NodeStyle()
        if let member = fields["offset"], let offset = vector(member.value, path: fields.path("offset"), what: "an offset", default: 0) {
            style.offset = offset
        }
        if let rotation = number(fields, "rotation", default: 0, range: .any, what: what, unit: "degrees") { style.rotation = rotation }
        if let member = fields["anchor"], let anchor = unitPoint(member.value, path: fields.path("anchor")) { style.rotationAnchor = anchor }
        if let member = fields["scale"] {
            if case .object = member.value.kind {
                if let scale = vector(member.value, path: fields.path("scale"), what: "a scale", default: 1) { style.scale = scale }
            } else if case .number = member.value.kind {
                if let scale = number(member.value, path: fields.path("scale"), range: .any) { style.scale = Point(x: scale, y: scale) }
            } else {
                typeMismatch(member.value, path: fields.path("scale"), expected: "a number or { \"x\": .., \"y\": .. }",
                             hint: Self.pairHint(member.value, key: "scale"))
            }
        }
        if let member = fields["scaleAnchor"], let anchor = unitPoint(member.value, path: fields.path("scaleAnchor")) { style.scaleAnchor = anchor }
        if let opacity = number(fields, "opacity", default: 1, range: .unit, what: what) { style.opacity = opacity }
        if let hue = number(fields, "hueRotation", default: 0, range: .any, what: what, unit: "degrees") { style.hueRotation = hue }
        if let blur = number(fields, "blur", default: 0, range: .closed(0, 1000), what: what, unit: "points") { style.blur = blur }
        if let member = fields["shadow"] { style.shadow = decodeShadow(member.value, path: fields.path("shadow")) }
        if let member = fields["mask"] { style.mask = paint(member.value, path: fields.path("mask")) }
        if let member = fields["fill"] { style.fill = paint(member.value, path: fields.path("fill")) }
        if let member = fields["stroke"] { style.stroke = decodeStroke(member.value, path: fields.path("stroke")) }
        if let member = fields["trim"], let trim = object(member.value, path: fields.path("trim"), what: "a trim", keys: DocumentKeys.trim) {
            if let from = number(trim, "from", default: 0, range: .unit, what: "a trim") { style.trimFrom = from }
            if let to = number(trim, "to", default: 1, range: .unit, what: "a trim") { style.trimTo = to }
        }
        decodeClipShapeAndAnchorPoints(fields, into: &style)
        if let member = fields["rotation3D"] { style.rotation3D = decodeRotation3D(member.value, path: fields.path("rotation3D")) }
        return style
    }

    /// `{ "angle": 45, "axis": { "y": 1 }, "anchor": .., "anchorZ": .., "perspective": .. }`, as SwiftUI's rotation3DEffect.
    private func decodeRotation3D(_ value: JSONValue, path: String) -> Rotation3D? {
        let what = "a rotation3D"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.rotation3D) else { return nil }
        let angle = number(fields, "angle", default: 0, range: .any, what: what, unit: "degrees")
        var axis: (x: Double, y: Double, z: Double)?
        if let member = fields["axis"] {
            let axisWhat = "a rotation3D's axis"
            if let parts = object(member.value, path: fields.path("axis"), what: axisWhat, keys: DocumentKeys.axis) {
                let x = number(parts, "x", default: 0, range: .closed(-1000, 1000), what: axisWhat)
                let y = number(parts, "y", default: 0, range: .closed(-1000, 1000), what: axisWhat)
                let z = number(parts, "z", default: 0, range: .closed(-1000, 1000), what: axisWhat)
                if let x, let y, let z {
                    if x == 0 && y == 0 && z == 0 {
                        error(member.value.offset, fields.path("axis"), "a rotation3D's axis needs a direction, not (0, 0, 0)",
                              hint: "\"axis\": { \"y\": 1 } turns about the vertical axis, like a door")
                    } else {
                        axis = (x, y, z)
                    }
                }
            }
        } else {
            missing("axis", in: fields, what: what, hint: "\"axis\": { \"y\": 1 } turns about the vertical axis, { \"x\": 1 } about the horizontal")
        }
        var anchor = UnitPoint.center
        if let member = fields["anchor"] {
            guard let point = unitPoint(member.value, path: fields.path("anchor")) else { return nil }
            anchor = point
        }
        let anchorZ = number(fields, "anchorZ", default: 0, range: .closed(-100_000, 100_000), what: what, unit: "points")
        let perspective = number(fields, "perspective", default: 1, range: .closed(0, 1000), what: what)
        guard let angle, let axis, let anchorZ, let perspective else { return nil }
        return Rotation3D(angle: angle, axis: axis, anchor: anchor, anchorZ: anchorZ, perspective: perspective)
    }

    /// SwiftUI's default shadow colour: black at 33 % opacity.
    static let defaultShadowColor = Color(red: 0, green: 0, blue: 0, alpha: 0.33)

    private func decodeShadow(_ value: JSONValue, path: String) -> Shadow? {
        let what = "a shadow"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.shadow) else { return nil }
        let color = optional(fields, "color", default: Self.defaultShadowColor) { self.color($0, path: $1) }
        let radius = number(fields, "radius", default: nil, range: .closed(0, 1000), what: what, unit: "points")
        let x = number(fields, "x", default: 0, range: .any, what: what, unit: "points")
        let y = number(fields, "y", default: 0, range: .any, what: what, unit: "points")
        guard let color, let radius, let x, let y else { return nil }
        return Shadow(color: color, radius: radius, x: x, y: y)
    }

    /// A stroke object, or a colour string for a 1-point solid stroke.
    private func decodeStroke(_ value: JSONValue, path: String) -> Stroke? {
        if case .string = value.kind { return color(value, path: path).map { Stroke(paint: .solid($0)) } }
        let what = "a stroke"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.stroke) else { return nil }
        let paint = fields["paint"].flatMap { self.paint($0.value, path: fields.path("paint")) }
        if fields["paint"] == nil { missing("paint", in: fields, what: what, hint: "\"paint\": \"#ffffff\"") }
        let width = number(fields, "width", default: 1, range: .closed(0, 1000), what: what, unit: "points")
        var dash: [Double]? = []
        if let member = fields["dash"], let elements = array(member.value, path: fields.path("dash")) {
            var lengths: [Double] = []
            for (index, element) in elements.enumerated() {
                if let length = number(element, path: fields.path("dash") + "[\(index)]", range: .closed(0, 100_000)) { lengths.append(length) }
            }
            if lengths.count != elements.count {
                dash = nil
            } else if elements.count > 64 {
                error(member.value.offset, fields.path("dash"), "a dash pattern has at most 64 lengths, not \(elements.count)")
                dash = nil
            } else if !lengths.isEmpty, lengths.allSatisfy({ $0 == 0 }) {
                error(member.value.offset, fields.path("dash"), "a dash pattern needs a length above 0", hint: "use [] for a solid line")
                dash = nil
            } else {
                dash = lengths
            }
        }
        let dashPhase = number(fields, "dashPhase", default: 0, range: .any, what: what, unit: "points")
        let lineCap = optional(fields, "lineCap", default: LineCap.round) {
            self.choice($0, path: $1, options: LineCap.allCases.map { ($0.rawValue, $0) }, what: "line cap")
        }
        let lineJoin = optional(fields, "lineJoin", default: LineJoin.round) {
            self.choice($0, path: $1, options: LineJoin.allCases.map { ($0.rawValue, $0) }, what: "line join")
        }
        guard let paint, let width, let dash, let dashPhase, let lineCap, let lineJoin else { return nil }
        return Stroke(paint: paint, width: width, dash: dash, dashPhase: dashPhase, lineCap: lineCap, lineJoin: lineJoin)
    }

    // MARK: - Emitters

    private func decodeEmitter(_ value: JSONValue, path: String) -> Emitter? {
        let what = "the particles"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.particles) else { return nil }
        var emitter = Emitter()
        var valid = true
        func read(_ key: String, _ range: NumberRange, unit: String? = nil, into target: inout Double) {
            guard let member = fields[key] else { return }
            if let value = number(member.value, path: fields.path(key), range: range, unit: unit) { target = value } else { valid = false }
        }
        func readVector(_ key: String, range: NumberRange, into target: inout Point) {
            guard let member = fields[key] else { return }
            if let value = vector(member.value, path: fields.path(key), what: "a vector", default: 0, range: range) { target = value } else { valid = false }
        }
        if let member = fields["seed"] {
            // 2^53 - 1: the largest integer every JSON tool reads exactly.
            if let seed = integer(member.value, path: fields.path("seed"), range: 0...9_007_199_254_740_991) { emitter.seed = UInt64(seed) } else { valid = false }
        }
        read("birthRate", .closed(0, 100_000), unit: "particles per second", into: &emitter.birthRate)
        read("lifetime", NumberRange(minimum: 0, minimumIsExclusive: true, maximum: 3600), unit: "seconds", into: &emitter.lifetime)
        read("lifetimeRange", .closed(0, 3600), unit: "seconds", into: &emitter.lifetimeRange)
        readVector("position", range: .any, into: &emitter.position)
        var positionRange = Point(x: 0, y: 0)
        readVector("positionRange", range: .nonNegative, into: &positionRange)
        emitter.positionRange = Size(width: positionRange.x, height: positionRange.y)
        read("angle", .any, unit: "degrees", into: &emitter.angle)
        read("angleRange", .closed(0, 360), unit: "degrees", into: &emitter.angleRange)
        read("speed", .any, unit: "points per second", into: &emitter.speed)
        read("speedRange", .nonNegative, unit: "points per second", into: &emitter.speedRange)
        readVector("acceleration", range: .any, into: &emitter.acceleration)
        read("size", .closed(0, 1000), unit: "points", into: &emitter.size)
        read("scale", .closed(0, 1000), into: &emitter.scale)
        read("scaleRange", .closed(0, 1000), into: &emitter.scaleRange)
        read("scaleSpeed", .closed(-1000, 1000), unit: "per second", into: &emitter.scaleSpeed)
        read("rotation", .any, unit: "degrees", into: &emitter.rotation)
        read("rotationRange", .closed(0, 360), unit: "degrees", into: &emitter.rotationRange)
        read("spin", .any, unit: "degrees per second", into: &emitter.spin)
        read("alpha", .unit, into: &emitter.alpha)
        read("alphaRange", .unit, into: &emitter.alphaRange)
        read("alphaSpeed", .closed(-1000, 1000), unit: "per second", into: &emitter.alphaSpeed)
        if let member = fields["color"] {
            if let color = color(member.value, path: fields.path("color")) { emitter.color = color } else { valid = false }
        }
        if let member = fields["colors"] {
            if let elements = array(member.value, path: fields.path("colors")) {
                if !(1...64).contains(elements.count) {
                    error(member.value.offset, fields.path("colors"), "\"colors\" holds \(elements.count) colours; it takes 1 to 64",
                          hint: "each particle picks one of them by its seed")
                    valid = false
                }
                for (index, element) in elements.enumerated() {
                    if let color = color(element, path: fields.path("colors") + "[\(index)]") { emitter.colors.append(color) } else { valid = false }
                }
            } else { valid = false }
        }
        if let ramp = lifeRamp(fields, "colorRamp", valueKey: "color", value: { self.color($0, path: $1) }) { emitter.colorRamp = ramp } else { valid = false }
        if let ramp = lifeRamp(fields, "alphaRamp", valueKey: "value", value: { self.number($0, path: $1, range: .unit) }) { emitter.alphaRamp = ramp } else { valid = false }
        if let ramp = lifeRamp(fields, "scaleRamp", valueKey: "value", value: { self.number($0, path: $1, range: .closed(0, 1000)) }) { emitter.scaleRamp = ramp } else { valid = false }
        read("flutter", .closed(0, 100), unit: "turns per second", into: &emitter.flutter)
        read("start", .closed(0, 86_400), unit: "seconds", into: &emitter.start)
        if let member = fields["duration"] {
            if let duration = number(member.value, path: fields.path("duration"), range: .closed(0, 86_400), unit: "seconds") { emitter.duration = duration } else { valid = false }
        }
        if let member = fields["splash"] {
            if let splash = object(member.value, path: fields.path("splash"), what: "a splash", keys: DocumentKeys.splash) {
                var droplets = Splash()
                if let count = splash["count"] {
                    if let value = integer(count.value, path: splash.path("count"), range: 1...16) { droplets.count = value } else { valid = false }
                }
                func read(_ key: String, _ range: NumberRange, _ unit: String, into target: inout Double) {
                    guard let member = splash[key] else { return }
                    if let value = number(member.value, path: splash.path(key), range: range, unit: unit) { target = value } else { valid = false }
                }
                read("lifetime", NumberRange(minimum: 0, minimumIsExclusive: true, maximum: 60), "seconds", into: &droplets.lifetime)
                read("speed", .closed(0, 100_000), "points per second", into: &droplets.speed)
                read("spread", .closed(0, 180), "degrees", into: &droplets.spread)
                read("gravity", .closed(-100_000, 100_000), "points per second²", into: &droplets.gravity)
                read("size", .closed(0, 1000), "points", into: &droplets.size)
                if let member = splash["color"] {
                    if let color = color(member.value, path: splash.path("color")) { droplets.color = color } else { valid = false }
                }
                emitter.splash = droplets
            } else { valid = false }
        }
        if let member = fields["texture"] {
            if let texture = decodeParticleTexture(member.value, path: fields.path("texture")) { emitter.texture = texture } else { valid = false }
        }
        if let member = fields["burst"] {
            if let burst = integer(member.value, path: fields.path("burst"), range: 0...Int(DocumentLimits.maximumLiveParticles)) {
                emitter.burst = burst
                // A burst alone unless a stream is asked for too.
                if fields["birthRate"] == nil { emitter.birthRate = 0 }
            } else { valid = false }
        }
        if let member = fields["shape"] {
            if let shape = choice(member.value, path: fields.path("shape"), options: ParticleShape.allCases.map { ($0.rawValue, $0) }, what: "particle shape") {
                emitter.shape = shape
            } else { valid = false }
        }
        if let member = fields["blendMode"] {
            if let mode = choice(member.value, path: fields.path("blendMode"), options: BlendMode.allCases.map { ($0.rawValue, $0) }, what: "blend mode") {
                emitter.blendMode = mode
            } else { valid = false }
        }
        if let member = fields["sway"] {
            if let sway = object(member.value, path: fields.path("sway"), what: "a sway", keys: DocumentKeys.sway) {
                if let amplitude = number(sway, "amplitude", default: 0, range: .nonNegative, what: "a sway", unit: "points") { emitter.swayAmplitude = amplitude } else { valid = false }
                if let frequency = number(sway, "frequency", default: 0, range: .closed(0, 100), what: "a sway", unit: "Hz") { emitter.swayFrequency = frequency } else { valid = false }
            } else { valid = false }
        }
        emitter.prewarm = bool(fields, "prewarm", default: emitter.prewarm)

        if valid, emitter.lifetimeRange >= emitter.lifetime, let member = fields["lifetimeRange"] {
            error(member.value.offset, fields.path("lifetimeRange"), "\"lifetimeRange\" (\(NumberRange.format(emitter.lifetimeRange))) must be less than \"lifetime\" (\(NumberRange.format(emitter.lifetime)))",
                  hint: "particles live lifetime ± lifetimeRange seconds, which must stay above 0")
            valid = false
        }
        let live = emitter.mostAlive
        if valid, live > DocumentLimits.maximumLiveParticles {
            let offset = fields["birthRate"]?.value.offset ?? value.offset
            error(offset, fields["birthRate"] != nil ? fields.path("birthRate") : path,
                  "this emitter keeps up to \(NumberRange.grouped(Int(live.rounded(.up)))) particles alive; the limit is \(NumberRange.grouped(Int(DocumentLimits.maximumLiveParticles)))",
                  hint: "birthRate × (lifetime + lifetimeRange), plus the burst, must stay at or below 5,000: lower the birth rate, the lifetime or the burst")
            valid = false
        }
        if valid { sceneEmitters.append((emitter, value.offset, path)) }
        return valid ? emitter : nil
    }

    /// A particle's picture: a file (checked by `diorama check` through its media reference, as an image node's) and,
    /// in an SVG, an element by id.
    private func decodeParticleTexture(_ value: JSONValue, path: String) -> ParticleTexture? {
        let what = "a particle texture"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.particleTexture),
              let file = string(fields, "path", what: what, required: true), let member = fields["path"] else { return nil }
        var texture = ParticleTexture(path: file)
        if let elementMember = fields["element"] {
            guard let text = string(elementMember.value, path: fields.path("element")) else { return nil }
            let id = text.hasPrefix("#") ? String(text.dropFirst()) : text
            guard ImageContent.isVectorPath(file) else {
                error(elementMember.value.offset, fields.path("element"), "only SVG textures have elements to draw",
                      hint: "\"element\" picks one part of an .svg drawing by its id")
                return nil
            }
            guard !id.isEmpty, !id.contains(where: { $0.isWhitespace || $0 == "#" }) else {
                error(elementMember.value.offset, fields.path("element"), "\"\(Self.shortened(text))\" is not an element id",
                      hint: "write the id of an element of the SVG, e.g. \"#puff\"")
                return nil
            }
            texture.element = "#" + id
            mediaReferences.append((MediaReference(kind: .imageElement(id: "#" + id), path: file,
                                                   resolvedPath: DocumentLoader.resolve(file, against: baseDirectory),
                                                   file: self.file, line: 0, column: 0, jsonPath: fields.path("element")),
                                    elementMember.value.offset))
        }
        mediaReferences.append((MediaReference(kind: .image, path: file, resolvedPath: DocumentLoader.resolve(file, against: baseDirectory),
                                               file: self.file, line: 0, column: 0, jsonPath: fields.path("path")), member.value.offset))
        return texture
    }

    /// A ramp over a particle's life, `[{ "at": 0…1, valueKey: V }, …]` with `at` not decreasing; empty when the key is
    /// absent, nil (after reporting) when it is wrong.
    private func lifeRamp<Value>(_ fields: Fields, _ key: String, valueKey: String,
                                 value: (JSONValue, String) -> Value?) -> [LifeStop<Value>]? {
        guard let member = fields[key] else { return [] }
        guard let elements = array(member.value, path: fields.path(key)) else { return nil }
        guard (1...64).contains(elements.count) else {
            error(member.value.offset, fields.path(key), "\"\(key)\" holds \(elements.count) stops; it takes 1 to 64",
                  hint: "each stop is { \"at\": a fraction of the particle's life, \"\(valueKey)\": its value }")
            return nil
        }
        var stops: [LifeStop<Value>] = []
        var previous = 0.0
        for (index, element) in elements.enumerated() {
            let path = fields.path(key) + "[\(index)]"
            let what = "a stop of \"\(key)\""
            guard let stop = object(element, path: path, what: what, keys: ["at", valueKey]) else { continue }
            let at = number(stop, "at", default: nil, range: .unit, what: what)
            if let at, let member = stop["at"], at < previous {
                error(member.value.offset, stop.path("at"), "the stops of \"\(key)\" must not go back in time: \(NumberRange.format(at)) comes after \(NumberRange.format(previous))",
                      hint: "\"at\" is the fraction of a particle's life, 0 at birth and 1 at death; list the stops in that order")
                continue
            }
            guard let member = stop[valueKey] else {
                missing(valueKey, in: stop, what: what)
                continue
            }
            guard let at, let stopValue = value(member.value, stop.path(valueKey)) else { continue }
            previous = at
            stops.append(LifeStop(at: at, value: stopValue))
        }
        return stops.count == elements.count ? stops : nil
    }

    /// Errors for a scene whose emitters would draw more each frame than `DocumentLimits` allows, at the emitter
    /// that draws most: every live particle is drawn every frame, so the particles alive at once and the pixels
    /// they cover bound a frame's work.
    func checkParticles(sceneID: String) {
        defer { sceneEmitters = [] }
        guard !sceneEmitters.isEmpty, let canvasArea, canvasArea > 0 else { return }
        let live = sceneEmitters.map { $0.emitter.mostAlive }
        let cover = sceneEmitters.map { min($0.emitter.largestParticleArea, canvasArea) / canvasArea * $0.emitter.mostAlive }
        let totalLive = live.reduce(0, +), totalCover = cover.reduce(0, +)
        if totalLive > DocumentLimits.maximumLiveParticlesPerScene, let most = live.indices.max(by: { live[$0] < live[$1] }) {
            let at = sceneEmitters[most]
            error(at.offset, at.path,
                  "the emitters of scene \"\(sceneID)\" keep up to \(NumberRange.grouped(Int(totalLive.rounded(.up)))) particles alive, "
                      + "this one up to \(NumberRange.grouped(Int(live[most].rounded(.up)))); the limit is "
                      + "\(NumberRange.grouped(Int(DocumentLimits.maximumLiveParticlesPerScene))) per scene",
                  hint: "every live particle is drawn every frame: lower the birth rates or lifetimes, or use fewer emitters")
        }
        if totalCover > DocumentLimits.maximumParticleCover, let most = cover.indices.max(by: { cover[$0] < cover[$1] }) {
            let at = sceneEmitters[most]
            error(at.offset, at.path,
                  "the particles of scene \"\(sceneID)\" can cover the canvas \(NumberRange.format(totalCover.rounded(.up))) times over "
                      + "in a frame, this emitter's \(NumberRange.format(cover[most].rounded(.up))) times; the limit is "
                      + "\(NumberRange.format(DocumentLimits.maximumParticleCover))",
                  hint: "each particle's square, 2 × size × its largest scale across, is drawn every frame: make the particles "
                      + "smaller, or fewer")
        }
    }

    /// The SVG path data of `fields["d"]`, with a problem at its column inside the string when it does not parse.
    func pathData(_ fields: Fields, what: String, example: String, inNodeCoordinates: Bool = false) -> PathData? {
        guard let member = fields["d"] else {
            missing("d", in: fields, what: what,
                    hint: "SVG path data\(inNodeCoordinates ? " in the node's coordinates" : ""), e.g. \"d\": \(example)")
            return nil
        }
        guard case .string(let text) = member.value.kind else {
            typeMismatch(member.value, path: fields.path("d"), expected: "a string of SVG path data")
            return nil
        }
        switch PathDataParser.parse(text) {
        case .success(let data):
            return data
        case .failure(let failure):
            error(offset(inStringAt: member.value.offset, utf8Index: failure.utf8Index), fields.path("d"),
                  failure.message, hint: failure.hint)
            return nil
        }
    }
}
