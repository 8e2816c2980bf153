// Components: named node templates with typed parameters, placed by "component" nodes.
//
// An instance is expanded here, on the JSON tree, into ordinary nodes: each `{ "param": NAME }` in a copy of
// the template is replaced by the instance's value (or the parameter's default), and the copy is decoded as
// any node is, inside a group that carries the instance's own modifiers and animations. The timeline,
// renderer and mixer see plain groups. Values keep the offsets where they are written, so a problem is
// located in the template, or at the value given to a parameter, with a note naming the other place.

/// What a component parameter holds.
enum ComponentParameterType: String, CaseIterable {
    case number, color, text

    /// "a number", "a colour", "a text".
    var description: String {
        switch self {
        case .number: "a number"
        case .color: "a colour"
        case .text: "a text"
        }
    }
}

struct ComponentParameter {
    var name: String
    var type: ComponentParameterType
    /// The parameter's key in the declaration.
    var offset: Int
    var path: String
    /// Checked against the type; nil makes the parameter required.
    var defaultValue: JSONValue?
}

/// A `{ "param": NAME }` in a template: the name, and where it is written.
struct ParameterReference {
    var parameter: String
    var path: String
    /// The offsets inside `{ "param": NAME }`: a reference left in place (its parameter has no valid value) is
    /// silent, its problem having been reported where the parameter or value is written.
    var innerOffsets: [Int]
    /// Arithmetic on a number parameter's value: `{ "param": NAME, "times": 2, "plus": 10 }`, as written.
    var times: String? = nil
    var plus: String? = nil
}

/// A component placed inside another's node: an edge of the graph searched for loops.
struct ComponentPlacement {
    var component: String
    /// The `"component"` value.
    var offset: Int
    var path: String
}

struct ComponentDefinition {
    var name: String
    /// The name's key in "components".
    var offset: Int
    var path: String
    var parameters: [ComponentParameter] = []
    /// Parameters whose declaration has errors: references to them are not reported as undeclared.
    var brokenParameters: [String] = []
    var node: JSONValue?
    /// JSON values in `node`: what each instance adds to the expansion budget.
    var valueCount = 0
    /// By the offset of the `{ "param": ... }` object.
    var references: [Int: ParameterReference] = [:]
    var placements: [ComponentPlacement] = []
    /// False when it has no node or places itself (reported once, where written): its instances are then left
    /// out without further messages.
    var isUsable = true
}

/// A value given to a parameter, substituted in an instance: where it is written and where it is used.
struct ParameterSubstitution {
    var parameter: String
    var sourcePath: String
    var referenceOffset: Int
    var referencePath: String
}

/// An instance being expanded.
struct InstanceContext {
    var component: String
    /// The instance's scoped id ("leftDoor", "house/leftDoor"); nil for an instance without an id, whose inner
    /// nodes then have no ids.
    var id: String?
    var offset: Int
    var path: String
    /// By the offset of the substituted value; one per reference it replaced.
    var substitutions: [Int: [ParameterSubstitution]]
    /// Offsets of references left in place, whose problems are not reported again.
    var silenced: Set<Int>
}

struct ComponentState {
    var definitions: [String: ComponentDefinition] = [:]
    /// Names in file order, for stable messages.
    var names: [String] = []
    var placed: Set<String> = []
    /// Per component, its first placement in a scene (not inside another component).
    var scenePlacements: [String: (offset: Int, path: String)] = [:]
    /// Loops found while reading the components, reported once the scenes are read (to name a placement too).
    var loops: [(members: [String], closing: ComponentPlacement)] = []
    var expandedValues = 0
    var reportedExpansionLimit = false
    /// Innermost last.
    var instances: [InstanceContext] = []
    /// The copies of forEach nodes being decoded, innermost last (DocumentDecoder+Copies.swift).
    var copies: [RepetitionCopy] = []
    /// Notes added to every problem reported while they are set (checking a parameter's value).
    var notes: [String] = []
    /// Problems reported so far, by offset and message: inside an instance, a template's mistake is reported once,
    /// not per instance, and a value given to a parameter is not reported again where it is used.
    var reported: Set<String> = []
    /// Per instance id, the component it places.
    var instanceComponents: [String: String] = [:]
    /// Set while a value of the wrong JSON type is reported: given to a parameter, that is the template's mistake
    /// (the parameter used where its type does not fit), so it is located at the reference.
    var isReportingTypeMismatch = false
    /// By the offset of a value given to a parameter: its path and where the component uses it, for the scene's
    /// checks that run once its instances are expanded (the names an `after` follows).
    var givenValues: [Int: (path: String, note: String)] = [:]
}

/// Where a component is flipped about the centre of its node.
enum ComponentMirror: String, CaseIterable {
    case horizontal, vertical, both

    var scale: Point {
        switch self {
        case .horizontal: Point(x: -1, y: 1)
        case .vertical: Point(x: 1, y: -1)
        case .both: Point(x: -1, y: -1)
        }
    }
}

extension DocumentLimits {
    /// JSON values that component instances add to the document, summed over every instance (components placed
    /// inside components multiply). Node depth and count are bounded by `maximumNodeDepth` and `maximumNodeCount`,
    /// which count the expanded nodes.
    public static let maximumExpandedValues = 1_000_000
}

extension SceneScope {
    /// Whether `id` is inside an instance that failed (already reported), such as "leftDoor/panel" when "leftDoor" has errors.
    func isInsideBrokenInstance(_ id: String) -> Bool {
        var prefix = Substring(id)
        while let slash = prefix.lastIndex(of: "/") {
            prefix = prefix[..<slash]
            let candidate = String(prefix)
            if nodes[candidate] == nil, nodeOffsets[candidate] != nil { return true }
        }
        return false
    }
}

extension DocumentDecoder {
    private static let parameterTypeOptions = ComponentParameterType.allCases.map { (name: $0.rawValue, value: $0) }
    /// What people coming from Swift or CSS write for a parameter type.
    private static let parameterTypeSynonyms: [String: ComponentParameterType] = [
        "Double": .number, "double": .number, "CGFloat": .number, "Float": .number, "float": .number, "Int": .number,
        "int": .number, "integer": .number, "Color": .color, "colour": .color, "String": .text, "string": .text,
        "LocalizedStringKey": .text, "Text": .text,
    ]

    // MARK: - Declarations

    func decodeComponents(_ value: JSONValue) {
        guard case .object(let members) = value.kind else {
            typeMismatch(value, path: "components", expected: "an object of named components",
                         hint: "\"components\": { \"door\": { \"node\": { \"type\": \"rect\", ... } } }")
            return
        }
        for member in members {
            let path = JSONPath.appending(key: member.key, to: "components")
            if member.key.isEmpty {
                error(member.keyOffset, path, "a component needs a name")
                continue
            }
            var definition = ComponentDefinition(name: member.key, offset: member.keyOffset, path: path)
            if let fields = object(member.value, path: path, what: "a component", keys: DocumentKeys.component) {
                if let parameters = fields["parameters"] {
                    (definition.parameters, definition.brokenParameters) = componentParameters(parameters.value, path: fields.path("parameters"))
                }
                if let node = fields["node"] {
                    if case .object = node.value.kind {
                        definition.node = node.value
                        definition.valueCount = scanTemplate(node.value, path: fields.path("node"), into: &definition)
                    } else {
                        typeMismatch(node.value, path: fields.path("node"), expected: "a node", what: "a component's \"node\"",
                                     hint: "\"node\": { \"type\": \"group\", \"children\": [...] }")
                    }
                } else {
                    missing("node", in: fields, what: "a component", hint: "the node it places: \"node\": { \"type\": \"group\", \"children\": [...] }")
                }
            }
            definition.isUsable = definition.node != nil
            components.definitions[member.key] = definition
            components.names.append(member.key)
        }
        reportComponentLoops()
        reportUnknownPlacements()
        for name in components.names {
            let definition = components.definitions[name]!
            let used = Set(definition.references.values.map(\.parameter))
            for parameter in definition.parameters where !used.contains(parameter.name) {
                advice(parameter.offset, parameter.path, "the parameter \"\(parameter.name)\" of the component \"\(name)\" is never used",
                       hint: "use it in the component's node as { \"param\": \"\(parameter.name)\" }, or remove it")
            }
        }
    }

    /// The valid parameters, and the names of those with errors.
    private func componentParameters(_ value: JSONValue, path: String) -> ([ComponentParameter], [String]) {
        guard case .object(let members) = value.kind else {
            typeMismatch(value, path: path, expected: "an object of named parameters",
                         hint: "\"parameters\": { \"color\": { \"type\": \"color\", \"default\": \"#8899aa\" } }")
            return ([], [])
        }
        var parameters: [ComponentParameter] = []
        var broken: [String] = []
        for member in members {
            let errorsBefore = errorCount
            defer { if errorCount != errorsBefore { broken.append(member.key) } }
            let memberPath = JSONPath.appending(key: member.key, to: path)
            if member.key.isEmpty {
                error(member.keyOffset, memberPath, "a parameter needs a name")
                continue
            }
            if case .string(let text) = member.value.kind {
                // `"width": "number"`: the type alone.
                error(member.value.offset, memberPath, "a parameter is declared as an object, not a string",
                      hint: "write \"\(member.key)\": { \"type\": \"\(Self.parameterTypeSynonyms[text]?.rawValue ?? text)\" }")
                continue
            }
            let what = "a parameter"
            guard let fields = object(member.value, path: memberPath, what: what, keys: DocumentKeys.componentParameter) else { continue }
            guard let typeMember = fields["type"] else {
                missing("type", in: fields, what: what, hint: "\"type\": \"number\", \"color\" or \"text\"")
                continue
            }
            guard let type = parameterType(typeMember.value, path: fields.path("type")) else { continue }
            var defaultValue: JSONValue?
            if let member = fields["default"] {
                guard parameterValue(member.value, type: type, path: fields.path("default")) else { continue }
                defaultValue = member.value
            }
            parameters.append(ComponentParameter(name: member.key, type: type, offset: member.keyOffset, path: memberPath,
                                                 defaultValue: defaultValue))
        }
        return (parameters, broken)
    }

    private func parameterType(_ value: JSONValue, path: String) -> ComponentParameterType? {
        if case .string(let text) = value.kind, let synonym = Self.parameterTypeSynonyms[text] {
            error(value.offset, path, "unknown parameter type \"\(text)\"", hint: "write \"\(synonym.rawValue)\"")
            return nil
        }
        return choice(value, path: path, options: Self.parameterTypeOptions, what: "parameter type")
    }

    /// Whether `value` is of the parameter's type (reported when not). Ranges are checked where the value is used.
    private func parameterValue(_ value: JSONValue, type: ComponentParameterType, path: String) -> Bool {
        switch type {
        case .number:
            guard case .number(let literal) = value.kind else {
                var hint: String?
                if case .string(let text) = value.kind, Double(text) != nil { hint = "write the number without quotes" }
                error(value.offset, path, "\"\(Self.lastKey(of: path))\" is a number parameter, so its value must be a number, not \(value.typeDescription)",
                      hint: hint)
                return false
            }
            guard let double = Double(literal), double.isFinite else {
                error(value.offset, path, "the number \(Self.shortened(literal)) is too large")
                return false
            }
            return true
        case .color:
            return color(value, path: path) != nil
        case .text:
            return localizedString(value, path: path) != nil
        }
    }

    /// Counts the template's JSON values, and records its parameter references and the components it places.
    /// Iterative: a template may be as deep as the parser allows.
    private func scanTemplate(_ root: JSONValue, path rootPath: String, into definition: inout ComponentDefinition) -> Int {
        let declared = definition.parameters.map(\.name)
        var count = 0
        func record(_ name: String, _ value: JSONValue, _ member: JSONMember, _ path: String,
                    arithmetic: (times: String?, plus: String?) = (nil, nil)) {
            definition.references[value.offset] = ParameterReference(parameter: name, path: path,
                                                                     innerOffsets: [value.offset, member.keyOffset, member.value.offset],
                                                                     times: arithmetic.times, plus: arithmetic.plus)
        }
        // With the indexes of the forEach nodes around each value: references to them are replaced copy by copy.
        var pending: [(value: JSONValue, path: String, indexes: [String])] = [(root, rootPath, [])]
        while let (value, path, indexes) = pending.popLast() {
            count += 1
            switch value.kind {
            case .array(let elements):
                for (index, element) in elements.enumerated().reversed() { pending.append((element, path + "[\(index)]", indexes)) }
            case .object(let members):
                if let member = members.first(where: { $0.key == "param" }) {
                    count += 1
                    if case .string(let name) = member.value.kind, indexes.contains(name) { continue }
                    guard let arithmetic = referenceArithmetic(members, path: path) else {
                        record("", value, member, path)
                        continue
                    }
                    guard case .string(let name) = member.value.kind else {
                        typeMismatch(member.value, path: JSONPath.appending(key: "param", to: path), expected: "the name of a parameter")
                        record("", value, member, path)
                        continue
                    }
                    if definition.brokenParameters.contains(name) {
                        record(name, value, member, path)
                        continue
                    }
                    guard declared.contains(name) else {
                        record("", value, member, path)
                        error(member.value.offset, JSONPath.appending(key: "param", to: path),
                              "the component \"\(definition.name)\" has no parameter \"\(name)\"",
                              hint: Self.suggestion(for: name, among: declared)
                                  ?? (declared.isEmpty ? "declare it in the component's \"parameters\": { \"\(name)\": { \"type\": \"number\" } }"
                                      : "its parameters are \(Self.list(declared.map { "\"\($0)\"" }, conjunction: "and")); declare others in \"parameters\""))
                        continue
                    }
                    if arithmetic.times != nil || arithmetic.plus != nil,
                       let type = definition.parameters.first(where: { $0.name == name })?.type, type != .number {
                        let key = arithmetic.times != nil ? "times" : "plus"
                        error(members.first { $0.key == key }!.keyOffset, JSONPath.appending(key: key, to: path),
                              "\"\(key)\" applies to a number, and \"\(name)\" is \(type.description) parameter",
                              hint: "remove \"times\" and \"plus\", or use a number parameter")
                        record("", value, member, path)
                        continue
                    }
                    record(name, value, member, path, arithmetic: arithmetic)
                    continue
                }
                if members.contains(where: { $0.key == "type" && Self.isString($0.value, "component") }),
                   let member = members.first(where: { $0.key == "component" }) {
                    let memberPath = JSONPath.appending(key: "component", to: path)
                    if case .string(let name) = member.value.kind {
                        definition.placements.append(ComponentPlacement(component: name, offset: member.value.offset, path: memberPath))
                    } else if case .object(let inner) = member.value.kind, let reference = inner.first(where: { $0.key == "param" }) {
                        error(member.value.offset, memberPath, "the component to place is named, not given by a parameter",
                              hint: "write its name, e.g. \"component\": \"door\"")
                        record("", member.value, reference, memberPath)
                        continue
                    }
                }
                var inner = indexes
                if let forEach = members.first(where: { $0.key == "forEach" }), case .object(let fields) = forEach.value.kind,
                   let index = fields.first(where: { $0.key == "index" }), case .string(let name) = index.value.kind {
                    inner.append(name)
                }
                for member in members.reversed() {
                    pending.append((member.value, JSONPath.appending(key: member.key, to: path), member.key == "forEach" ? indexes : inner))
                }
            default:
                break
            }
        }
        return count
    }

    private static func isString(_ value: JSONValue, _ text: String) -> Bool {
        if case .string(let string) = value.kind { return string == text }
        return false
    }

    /// Components that place themselves, directly or through others: each loop once, at the placement that
    /// closes it, with notes for the other placements. Their instances are left out.
    private func reportComponentLoops() {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        var reportedLoops: Set<[String]> = []
        for start in components.names where marks[start] == nil {
            // Iterative depth-first search: a file may chain many components.
            var stack: [(name: String, next: Int)] = [(start, 0)]
            marks[start] = .visiting
            while let top = stack.last {
                let placements = components.definitions[top.name]?.placements ?? []
                guard top.next < placements.count else {
                    marks[top.name] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let placement = placements[top.next]
                guard components.definitions[placement.component] != nil else { continue }
                switch marks[placement.component] {
                case .visiting:
                    let first = stack.firstIndex { $0.name == placement.component }!
                    let loop = stack[first...].map(\.name)
                    if reportedLoops.insert(loop.sorted()).inserted {
                        components.loops.append((loop, placement))
                        for name in loop { components.definitions[name]?.isUsable = false }
                    }
                case .done:
                    break
                case nil:
                    marks[placement.component] = .visiting
                    stack.append((placement.component, 0))
                }
            }
        }
    }

    private func reportLoop(_ loop: [String], closedBy closing: ComponentPlacement) {
        // Where a scene places the loop, if it does: the placement that would never end.
        let placed = loop.lazy.compactMap { name in self.components.scenePlacements[name].map { (name, $0) } }.first
        let chain = (loop.count > 12 ? Array(loop.prefix(11)) + ["…"] : loop) + [closing.component]
        var notes: [String] = []
        for (index, name) in loop.enumerated().dropLast().prefix(8) {
            let next = loop[index + 1]
            if let placement = components.definitions[name]?.placements.first(where: { $0.component == next }) {
                notes.append("\"\(name)\" places \"\(next)\" at \(locationText(placement.offset)) (\(placement.path))")
            }
        }
        if let (name, placement) = placed {
            notes.append("a scene places \"\(name)\" at \(locationText(placement.offset)) (\(placement.path))")
        }
        var through = loop.dropFirst().prefix(8).map { "\"\($0)\"" }
        if loop.count > 9 { through.append("\(loop.count - 9) more") }
        let message = loop.count == 1
            ? "the component \"\(closing.component)\" places itself"
            : "the component \"\(closing.component)\" places itself through \(Self.list(through, conjunction: "and")): \(chain.joined(separator: " → "))"
        error(closing.offset, closing.path, message, hint: "a component cannot contain itself; place a different component here", notes: notes)
    }

    /// Placements inside templates that name no component: reported once here, not per instance.
    private func reportUnknownPlacements() {
        for name in components.names {
            for placement in components.definitions[name]!.placements where components.definitions[placement.component] == nil {
                unknownComponent(placement.component, offset: placement.offset, path: placement.path)
                components.definitions[name]!.isUsable = false
            }
        }
    }

    private func unknownComponent(_ name: String, offset: Int, path: String) {
        let names = components.names
        error(offset, path, "no component named \"\(name)\" in \"components\"",
              hint: Self.suggestion(for: name, among: names)
                  ?? (names.isEmpty ? "declare it in the top-level \"components\": { \"\(name)\": { \"node\": { ... } } }"
                      : "the components are \(Self.list(names.prefix(12).map { "\"\($0)\"" }, conjunction: "and"))"))
    }

    /// After the scenes: the loops (with where a scene places one), and advice about components never placed.
    func finishComponents() {
        for (members, closing) in components.loops { reportLoop(members, closedBy: closing) }
        for name in components.names where !components.placed.contains(name) {
            let definition = components.definitions[name]!
            advice(definition.offset, definition.path, "the component \"\(name)\" is never placed in a scene",
                   hint: "place it with { \"type\": \"component\", \"component\": \"\(name)\" }, or remove it")
        }
    }

    // MARK: - Instances

    /// The id a node written as `written` gets where it is decoded: scoped by the instance being expanded
    /// ("leftDoor/panel"), or nil inside an instance without an id.
    func scopedNodeID(_ written: String) -> String? {
        guard !written.isEmpty else { return written }
        // Inside copies of a forEach written in the same template (or scene): "petal[3]", "grid[2][5]".
        let depth = components.instances.count
        let suffix = components.copies.filter { $0.instanceDepth == depth }.map { "[\($0.value)]" }.joined()
        guard let instance = components.instances.last else { return written + suffix }
        return instance.id.map { "\($0)/\(written)\(suffix)" }
    }

    /// A component node's content: a group holding the expanded template (flipped inside a second group when
    /// mirrored). The instance's own modifiers and animations are on the node around it, read by `decodeNode`.
    func decodeInstance(_ fields: Fields, what: String, depth: Int, scope: inout SceneScope) -> NodeContent? {
        guard let member = fields["component"] else {
            let names = components.names
            missing("component", in: fields, what: what,
                    hint: names.isEmpty ? "the name of a component declared in the top-level \"components\""
                        : "the name of a component: \(Self.list(names.prefix(12).map { "\"\($0)\"" }, conjunction: "or"))")
            return nil
        }
        let mirror = optional(fields, "mirror", default: ComponentMirror?.none) {
            self.choice($0, path: $1, options: ComponentMirror.allCases.map { ($0.rawValue, $0) }, what: "mirror")
        }
        guard let name = string(member.value, path: fields.path("component")) else { return nil }
        // Placements inside templates were checked once with the template.
        guard let definition = components.definitions[name] else {
            if components.instances.isEmpty { unknownComponent(name, offset: member.value.offset, path: fields.path("component")) }
            return nil
        }
        components.placed.insert(name)
        if components.instances.isEmpty, components.scenePlacements[name] == nil {
            components.scenePlacements[name] = (fields.value.offset, fields.path)
        }
        let arguments = instanceArguments(fields, definition: definition)
        guard definition.isUsable, let template = definition.node, let mirror,
              !components.instances.contains(where: { $0.component == name }) else { return nil }

        components.expandedValues += definition.valueCount
        if components.expandedValues > DocumentLimits.maximumExpandedValues {
            if !components.reportedExpansionLimit {
                components.reportedExpansionLimit = true
                error(fields.value.offset, fields.path,
                      "the components placed in this document expand to more than \(NumberRange.grouped(DocumentLimits.maximumExpandedValues)) JSON values",
                      hint: "components placed inside components multiply: place fewer, or make them smaller")
            }
            return nil
        }

        var substitutions: [Int: [ParameterSubstitution]] = [:]
        var silenced: Set<Int> = []
        let expanded = substitute(template, arguments: arguments, definition: definition, substitutions: &substitutions,
                                  silenced: &silenced) ?? template

        // The instance's id as `decodeNode` registered it; a duplicate or missing one leaves the inner nodes without ids.
        var instanceID: String?
        if let idMember = fields["id"], case .string(let written) = idMember.value.kind, let scoped = scopedNodeID(written),
           !written.isEmpty, scope.nodeOffsets[scoped] == idMember.value.offset {
            instanceID = scoped
            components.instanceComponents[scoped] = name
        }
        components.instances.append(InstanceContext(component: name, id: instanceID, offset: fields.value.offset, path: fields.path,
                                                    substitutions: substitutions, silenced: silenced))
        defer { components.instances.removeLast() }
        for (offset, uses) in substitutions where components.givenValues[offset] == nil {
            components.givenValues[offset] = (uses[0].sourcePath,
                "the parameter \"\(uses[0].parameter)\" of \"\(name)\" is used at \(locationText(uses[0].referenceOffset)) (\(uses[0].referencePath))")
        }
        let templatePath = JSONPath.appending(key: "node", to: definition.path)
        let templateDepth = depth + (mirror == nil ? 1 : 2)
        guard var node = Self.hasForEach(expanded)
            // A template that is a forEach: its copies, in a group.
            ? Node(content: .group(Group(children: decodeNodeOrCopies(expanded, path: templatePath, depth: templateDepth + 1, scope: &scope))))
            : decodeNode(expanded, path: templatePath, depth: templateDepth, scope: &scope) else { return nil }
        if let mirror {
            // The flip's centre is the template's frame, where it has one (moved by its offset): its content bounds
            // shrink to a clip, so a clipped template would otherwise flip about its clip.
            let frame = node.frame.map { Rect(x: $0.x + node.style.offset.x, y: $0.y + node.style.offset.y, width: $0.width, height: $0.height) }
            node = Node(content: .group(Group(children: [node])), style: NodeStyle(scale: mirror.scale), frame: frame)
        }
        return .group(Group(children: [node]))
    }

    /// The values of the parameters (given, or defaults), each checked against its type, with where it is written.
    /// A parameter without a valid value is left out: its references stay in place, silent (the problem is reported here).
    private func instanceArguments(_ fields: Fields, definition: ComponentDefinition) -> [String: (value: JSONValue, path: String)] {
        let declaredAt = "the component \"\(definition.name)\" is declared at \(locationText(definition.offset)) (\(definition.path))"
        var arguments: [String: (value: JSONValue, path: String)] = [:]
        var unknown: [String] = []
        if let member = fields["parameters"] {
            guard case .object(let members) = member.value.kind else {
                typeMismatch(member.value, path: fields.path("parameters"), expected: "an object of parameter values",
                             hint: "\"parameters\": { \"\(definition.parameters.first?.name ?? "width")\": ... }")
                return [:]
            }
            for given in members {
                let path = JSONPath.appending(key: given.key, to: fields.path("parameters"))
                if definition.brokenParameters.contains(given.key) { continue }
                guard let parameter = definition.parameters.first(where: { $0.name == given.key }) else {
                    unknown.append(given.key)
                    let names = definition.parameters.map(\.name)
                    error(given.keyOffset, path, "the component \"\(definition.name)\" has no parameter \"\(given.key)\"",
                          hint: Self.suggestion(for: given.key, among: names)
                              ?? (names.isEmpty ? "it takes no parameters" : "its parameters are \(Self.list(names.map { "\"\($0)\"" }, conjunction: "and"))"),
                          notes: [declaredAt])
                    continue
                }
                components.notes.append("the parameter \"\(parameter.name)\" is declared at \(locationText(parameter.offset)) (\(parameter.path))")
                if parameterValue(given.value, type: parameter.type, path: path) {
                    arguments[parameter.name] = (given.value, path)
                }
                components.notes.removeLast()
            }
        }
        let given = Set(fields["parameters"].flatMap { member -> [String]? in
            if case .object(let members) = member.value.kind { return members.map(\.key) }
            return nil
        } ?? [])
        // A typo ("widht") was reported with its "did you mean"; the parameter it means is not also missing.
        let missingNames = definition.parameters.filter { parameter in
            parameter.defaultValue == nil && !given.contains(parameter.name)
                && !unknown.contains { Self.closest(to: $0, among: [parameter.name]) != nil }
        }
        for parameter in definition.parameters where !given.contains(parameter.name) {
            if let value = parameter.defaultValue { arguments[parameter.name] = (value, JSONPath.appending(key: "default", to: parameter.path)) }
        }
        if !missingNames.isEmpty {
            let offset = fields["parameters"]?.value.offset ?? fields.value.offset
            let path = fields["parameters"] != nil ? fields.path("parameters") : fields.path
            let names = Self.list(missingNames.map { "\"\($0.name)\"" }, conjunction: "and")
            let example = missingNames.map { "\"\($0.name)\": \(Self.exampleValue($0.type))" }.joined(separator: ", ")
            error(offset, path, "the component \"\(definition.name)\" needs a value for \(names), which \(missingNames.count == 1 ? "has" : "have") no default",
                  hint: fields["parameters"] != nil ? "add \(example)" : "add \"parameters\": { \(example) }",
                  notes: missingNames.map { "the parameter \"\($0.name)\" is declared at \(locationText($0.offset)) (\($0.path))" })
        }
        return arguments
    }

    private static func exampleValue(_ type: ComponentParameterType) -> String {
        switch type {
        case .number: "100"
        case .color: "\"#ffffff\""
        case .text: "\"Hello\""
        }
    }

    /// A copy of `value` with each parameter reference replaced by its value; nil when nothing changed, so
    /// untouched subtrees stay shared with the template.
    private func substitute(_ value: JSONValue, arguments: [String: (value: JSONValue, path: String)], definition: ComponentDefinition,
                            substitutions: inout [Int: [ParameterSubstitution]], silenced: inout Set<Int>) -> JSONValue? {
        switch value.kind {
        case .object(let members):
            if let reference = definition.references[value.offset] {
                guard let argument = arguments[reference.parameter] else {
                    silenced.formUnion(reference.innerOffsets)
                    return nil
                }
                if reference.times != nil || reference.plus != nil {
                    // A value worked out from the one given: its problems are the template's, located at the reference.
                    guard case .number(let literal) = argument.value.kind,
                          let result = Self.arithmetic(literal, times: reference.times, plus: reference.plus) else {
                        error(value.offset, reference.path,
                              "arithmetic takes a value of at most \(NumberRange.grouped(DocumentLimits.maximumArithmeticOperand)) either way, with at most 6 decimal places",
                              hint: "give \"\(reference.parameter)\" a smaller or rounder value",
                              notes: ["the value is given at \(locationText(argument.value.offset)) (\(argument.path))"])
                        silenced.formUnion(reference.innerOffsets)
                        return nil
                    }
                    return JSONValue(kind: .number(result), offset: value.offset)
                }
                substitutions[argument.value.offset, default: []].append(ParameterSubstitution(
                    parameter: reference.parameter, sourcePath: argument.path, referenceOffset: value.offset,
                    referencePath: reference.path))
                return argument.value
            }
            var copy: [JSONMember]?
            for (index, member) in members.enumerated() {
                if let replaced = substitute(member.value, arguments: arguments, definition: definition, substitutions: &substitutions,
                                              silenced: &silenced) {
                    if copy == nil { copy = members }
                    copy![index].value = replaced
                }
            }
            return copy.map { JSONValue(kind: .object($0), offset: value.offset) }
        case .array(let elements):
            var copy: [JSONValue]?
            for (index, element) in elements.enumerated() {
                if let replaced = substitute(element, arguments: arguments, definition: definition, substitutions: &substitutions,
                                              silenced: &silenced) {
                    if copy == nil { copy = elements }
                    copy![index] = replaced
                }
            }
            return copy.map { JSONValue(kind: .array($0), offset: value.offset) }
        default:
            return nil
        }
    }

    // MARK: - Locating problems

    /// A problem as reported: inside an instance, a problem at a value given to a parameter keeps that place and
    /// gets a note naming where the value is used; any other gets a note naming where the component is placed.
    /// The same problem of a template is reported once, however many instances place it.
    func located(_ problem: Problem) -> Problem? {
        guard var problem = locatedInCopies(problem) else { return nil }
        problem.notes += components.notes
        let key = "\(problem.offset) \(problem.message)"
        guard !components.instances.isEmpty else {
            // A value given to a parameter, found wrong by a check of the whole scene: where it is written, and used.
            if let given = components.givenValues[problem.offset] {
                problem.path = given.path
                problem.notes.append(given.note)
            }
            components.reported.insert(key)
            return problem
        }
        if components.instances.contains(where: { $0.silenced.contains(problem.offset) }) { return nil }
        // The outermost instance knows where a value passed down through nested components is written.
        if let (_, candidates) = components.instances.lazy.compactMap({ context in
            context.substitutions[problem.offset].map { (context, $0) }
        }).first {
            // The reference the problem is about: the one whose place the problem's path names.
            let inner = components.instances.last!.substitutions[problem.offset] ?? candidates
            let reference = inner.last { problem.path.hasPrefix($0.referencePath) } ?? inner[0]
            let source = candidates[0]
            if components.isReportingTypeMismatch {
                // The value has its parameter's type, which does not fit where the template uses it.
                let innermost = components.instances.last!.component
                let type = components.definitions[innermost]?.parameters.first { $0.name == reference.parameter }?.type
                let valueOffset = problem.offset
                problem.offset = reference.referenceOffset
                problem.notes.append("the parameter \"\(reference.parameter)\" of \"\(innermost)\" is \(type?.description ?? "a value"), given at \(locationText(valueOffset)) (\(source.sourcePath))")
                problem.notes.append(placementNote())
            } else {
                problem.path = source.sourcePath
                problem.notes.append("the parameter \"\(reference.parameter)\" of \"\(components.instances.last!.component)\" is used at \(locationText(reference.referenceOffset)) (\(reference.referencePath))")
            }
        } else {
            problem.notes.append(placementNote())
        }
        guard components.reported.insert("\(problem.offset) \(problem.message)").inserted else { return nil }
        return problem
    }

    /// A name that `after` follows (a node's, an animation's, a marker's, a tap's), given by a parameter, must come from
    /// a `text` one: a colour there is the component's mistake, reported once at its `{ "param": ... }` with notes
    /// naming the value and the placement, not once per placement as a name no node has. False when reported.
    func checkNameFromParameter(_ value: JSONValue, path: String) -> Bool {
        guard case .string = value.kind, let context = components.instances.last,
              let substitution = context.substitutions[value.offset]?.last,
              let type = components.definitions[context.component]?.parameters.first(where: { $0.name == substitution.parameter })?.type,
              type != .text else { return true }
        components.isReportingTypeMismatch = true
        defer { components.isReportingTypeMismatch = false }
        error(value.offset, path, "\"\(Self.lastKey(of: path))\" is a name, which \(type.description) parameter cannot give",
              hint: "declare \"\(substitution.parameter)\" with \"type\": \"text\" to name what each placement follows")
        return false
    }

    /// "in the component "door", placed at 30:9 (scenes[0].nodes[1])", innermost first; a long chain keeps its
    /// two innermost placements and the one in the scene.
    private func placementNote() -> String {
        var chain = components.instances.reversed().map { context in
            "the component \"\(context.component)\", placed at \(locationText(context.offset)) (\(context.path))"
        }
        if chain.count > 3 { chain = chain.prefix(2) + ["…", chain.last!] }
        return "in " + chain.joined(separator: " in ")
    }

    // MARK: - Cues and hints

    /// For a cue naming an instance and an animation of a node inside it: which node to name instead.
    func componentAnimationHint(nodeID: String, animationID: String, scope: SceneScope) -> String? {
        guard let name = components.instanceComponents[nodeID] else { return nil }
        let prefix = nodeID + "/"
        if let inner = scope.nodeOrder.first(where: { $0.hasPrefix(prefix) && scope.nodes[$0]?.animations.contains { $0.id == animationID } == true }) {
            return "\"\(animationID)\" is an animation of \"\(inner)\", inside the component: name that node"
        }
        if let template = components.definitions[name]?.node, case .object(let members) = template.kind,
           !members.contains(where: { $0.key == "id" }),
           let animations = members.first(where: { $0.key == "animations" }), case .array(let elements) = animations.value.kind,
           elements.contains(where: { element in
               if case .object(let fields) = element.kind { return fields.contains { $0.key == "id" && Self.isString($0.value, animationID) } }
               return false
           }) {
            return "\"\(animationID)\" is an animation of the node of the component \"\(name)\", which has no \"id\": give that node one, e.g. \"id\": \"body\", and name \"\(prefix)body\""
        }
        return nil
    }

    /// Ids of animations written where they are not read (under a misspelled "animations" key, or as an object
    /// instead of an array): they were reported there, so a cue naming one adds nothing.
    func misplacedAnimationIDs(_ fields: Fields) -> Set<String> {
        var ids: Set<String> = []
        for member in fields.members where member.key == "animations" || fields.unknownKeys.contains(member.key)
            && Self.closest(to: member.key, among: ["animations"]) != nil {
            let elements: [JSONValue]
            switch member.value.kind {
            case .array(let values): if member.key == "animations" { continue } else { elements = values }
            case .object: elements = [member.value]
            default: continue
            }
            for element in elements {
                if case .object(let members) = element.kind, let id = members.first(where: { $0.key == "id" }),
                   case .string(let text) = id.value.kind {
                    ids.insert(text)
                }
            }
        }
        return ids
    }

    /// A hint for `{ "param": ... }` where it is not replaced: outside a component's node.
    static func parameterOutsideComponentHint(_ value: JSONValue) -> String? {
        guard case .object(let members) = value.kind, members.contains(where: { $0.key == "param" }) else { return nil }
        return "{ \"param\": ... } is replaced only inside a component's \"node\" or a node with \"forEach\"; here, write the value itself"
    }
}
