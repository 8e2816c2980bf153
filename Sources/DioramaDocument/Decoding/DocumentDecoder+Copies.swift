// Copies: a node written once and placed `count` times by "forEach", as SwiftUI's `ForEach(0..<count) { i in ... }`.
//
// A node with `"forEach": { "count": 12, "index": "i" }` is expanded here, on the JSON tree, into its copies, each
// decoded where the node is written, as any node is: in copy k, every `{ "param": "i" }` (with its `times` and
// `plus`) is replaced by the number k × times + plus, worked out exactly and written as a literal, so the copy reads
// as if that number had been typed there. Ids written in a copy take the suffix "[k]". The copies are ordinary
// sibling nodes: the timeline, renderer and mixer never see a forEach. Copies count towards the document's nodes
// and, with component placements, towards the JSON values expansion may add.

/// A copy being decoded.
struct RepetitionCopy {
    /// The index's name; nil for a forEach without one.
    var index: String?
    var value: Int
    /// How many copies the forEach makes.
    var count: Int
    /// The `forEach` key, and the path of the node it repeats.
    var offset: Int
    var path: String
    /// The component instances around the copy when it began: ids written in the copy take its suffix; ids inside a
    /// component placed in it are scoped by the placement's id instead, which has the suffix.
    var instanceDepth: Int
    /// Offsets of the index references replaced in this copy: a problem there is the value's, reported for the first
    /// copy it is found in.
    var replaced: Set<Int> = []
    /// Offsets of index references left in place (their problem reported already).
    var silenced: Set<Int> = []
}

extension DocumentLimits {
    /// Copies one forEach makes.
    public static let maximumCopies = 1000
    /// A forEach inside a forEach inside ...: at most this many around a node.
    public static let maximumForEachNesting = 4
    /// `times` and `plus`, and a value they apply to: at most this large, with at most 6 decimal places, so the
    /// arithmetic is exact in 128 bits.
    public static let maximumArithmeticOperand = 1_000_000_000
}

extension DocumentDecoder {
    /// The nodes `value` decodes to: its copies when it has "forEach", else itself.
    func decodeNodeOrCopies(_ value: JSONValue, path: String, depth: Int, scope: inout SceneScope) -> [Node] {
        guard case .object(let members) = value.kind, let member = members.first(where: { $0.key == "forEach" }) else {
            return decodeNode(value, path: path, depth: depth, scope: &scope).map { [$0] } ?? []
        }
        guard let (count, index) = forEach(member, path: JSONPath.appending(key: "forEach", to: path)) else { return [] }
        let cost = Self.valueCount(value) * count
        components.expandedValues += cost
        if components.expandedValues > DocumentLimits.maximumExpandedValues {
            if !components.reportedExpansionLimit {
                components.reportedExpansionLimit = true
                error(member.keyOffset, JSONPath.appending(key: "forEach", to: path),
                      "the copies and component placements in this document expand to more than \(NumberRange.grouped(DocumentLimits.maximumExpandedValues)) JSON values",
                      hint: "copies of copies multiply: make fewer, or make the node smaller")
            }
            return []
        }
        let node = JSONValue(kind: .object(members.filter { $0.key != "forEach" }), offset: value.offset)
        var nodes: [Node] = []
        // Past a limit, further copies would only be refused one by one.
        for copy in 0..<count where !reportedNodeLimit && !components.reportedExpansionLimit {
            components.copies.append(RepetitionCopy(index: index, value: copy, count: count, offset: member.keyOffset, path: path,
                                                    instanceDepth: components.instances.count))
            var replaced: Set<Int> = []
            let written = index.flatMap { substituteIndex(node, name: $0, value: copy, path: path, replaced: &replaced) } ?? node
            components.copies[components.copies.count - 1].replaced = replaced
            if let decoded = decodeNode(written, path: path, depth: depth, scope: &scope) { nodes.append(decoded) }
            components.copies.removeLast()
        }
        return nodes
    }

    /// `"forEach": { "count": N, "index": NAME }` read and checked; nil after a reported problem.
    private func forEach(_ member: JSONMember, path: String) -> (count: Int, index: String?)? {
        let what = "a forEach"
        guard let fields = object(member.value, path: path, what: what, keys: DocumentKeys.forEach) else { return nil }
        if components.copies.count >= DocumentLimits.maximumForEachNesting {
            error(member.keyOffset, path, "forEach nested more than \(DocumentLimits.maximumForEachNesting) deep",
                  hint: "a forEach inside \(DocumentLimits.maximumForEachNesting - 1) others multiplies fast: flatten the pattern, or use an emitter for many small things")
            return nil
        }
        guard let countMember = fields["count"] else {
            missing("count", in: fields, what: what, hint: "how many copies, e.g. \"count\": 12")
            return nil
        }
        guard let count = integer(countMember.value, path: fields.path("count"), range: 0...Int.max) else { return nil }
        guard count <= DocumentLimits.maximumCopies else {
            error(countMember.value.offset, fields.path("count"),
                  "a forEach makes at most \(NumberRange.grouped(DocumentLimits.maximumCopies)) copies, not \(NumberRange.grouped(count))",
                  hint: "for many small particles, use an emitter")
            return nil
        }
        guard let indexMember = fields["index"] else { return (count, nil) }
        guard let name = string(indexMember.value, path: fields.path("index")) else { return nil }
        if name.isEmpty {
            error(indexMember.value.offset, fields.path("index"), "an index needs a name", hint: "e.g. \"index\": \"i\"")
            return nil
        }
        let depth = components.instances.count
        if let outer = components.copies.last(where: { $0.index == name && $0.instanceDepth == depth }) {
            error(indexMember.value.offset, fields.path("index"), "\"\(name)\" is already the index of the forEach around this one",
                  hint: "give this index another name, e.g. \"\(name == "j" ? "k" : "j")\"",
                  notes: ["the forEach with the index \"\(name)\" is at \(locationText(outer.offset)) (\(outer.path))"])
            return nil
        }
        if let component = components.instances.last?.component,
           let parameter = components.definitions[component]?.parameters.first(where: { $0.name == name }) {
            error(indexMember.value.offset, fields.path("index"), "\"\(name)\" is already a parameter of the component \"\(component)\"",
                  hint: "give the index another name, e.g. \"\(name == "i" ? "j" : "i")\"",
                  notes: ["the parameter \"\(name)\" is declared at \(locationText(parameter.offset)) (\(parameter.path))"])
            return nil
        }
        return (count, name)
    }

    /// A copy of `value` with each `{ "param": name }` replaced by its number in the copy `value`; nil when nothing
    /// changed. A reference with a mistake is reported (once) and left in place, silent.
    private func substituteIndex(_ value: JSONValue, name: String, value index: Int, path: String, replaced: inout Set<Int>) -> JSONValue? {
        switch value.kind {
        case .object(let members):
            if let member = members.first(where: { $0.key == "param" }), case .string(name) = member.value.kind {
                if let list = members.first(where: { $0.key == "of" }) {
                    guard let element = listElement(list, in: members, name: name, index: index, path: path) else {
                        components.copies[components.copies.count - 1].silenced.formUnion([value.offset, member.keyOffset, member.value.offset])
                        return nil
                    }
                    // Located at the element in the list: a problem with it is reported there, once.
                    replaced.insert(element.offset)
                    return element
                }
                guard let operands = referenceArithmetic(members, path: path),
                      let literal = Self.arithmetic("\(index)", times: operands.times, plus: operands.plus) else {
                    components.copies[components.copies.count - 1].silenced.formUnion([value.offset, member.keyOffset, member.value.offset])
                    return nil
                }
                replaced.insert(value.offset)
                return JSONValue(kind: .number(literal), offset: value.offset)
            }
            var copy: [JSONMember]?
            for (position, member) in members.enumerated() {
                if let new = substituteIndex(member.value, name: name, value: index, path: JSONPath.appending(key: member.key, to: path),
                                             replaced: &replaced) {
                    if copy == nil { copy = members }
                    copy![position].value = new
                }
            }
            return copy.map { JSONValue(kind: .object($0), offset: value.offset) }
        case .array(let elements):
            var copy: [JSONValue]?
            for (position, element) in elements.enumerated() {
                if let new = substituteIndex(element, name: name, value: index, path: path + "[\(position)]", replaced: &replaced) {
                    if copy == nil { copy = elements }
                    copy![position] = new
                }
            }
            return copy.map { JSONValue(kind: .array($0), offset: value.offset) }
        default:
            return nil
        }
    }

    /// The element of `"of"` at the copy's index (a number or a string), checked; nil after a reported problem.
    private func listElement(_ list: JSONMember, in members: [JSONMember], name: String, index: Int, path: String) -> JSONValue? {
        let listPath = JSONPath.appending(key: "of", to: path)
        if let other = members.first(where: { $0.key != "param" && $0.key != "of" }) {
            error(other.keyOffset, JSONPath.appending(key: other.key, to: path),
                  "a reference with \"of\" picks a value as it is written: it takes no \"\(other.key)\"",
                  hint: DocumentKeys.parameterReference.contains(other.key) ? "write the values in the list already worked out" : "remove \"\(other.key)\"")
            return nil
        }
        guard case .array(let elements) = list.value.kind else {
            typeMismatch(list.value, path: listPath, expected: "an array of numbers or strings, one per copy",
                         hint: "e.g. \"of\": [0, 4, 7, 12] for the copies 0 to 3")
            return nil
        }
        let copies = components.copies.last { $0.index == name }?.count ?? 0
        guard index < elements.count else {
            error(list.value.offset, listPath,
                  "\"of\" lists \(elements.count) value\(elements.count == 1 ? "" : "s"), fewer than the \(copies) copies of the forEach whose index is \"\(name)\"",
                  hint: "give one value per copy, the first for \(name) = 0")
            return nil
        }
        let element = elements[index]
        switch element.kind {
        case .number, .string:
            return element
        default:
            typeMismatch(element, path: listPath + "[\(index)]", expected: "a number or a string", hint: nil)
            return nil
        }
    }

    // MARK: - Arithmetic

    /// The `times` and `plus` literals of a reference `{ "param": NAME, "times": .., "plus": .. }`, checked; nil after
    /// a reported problem (another key, an operand that is not a number or out of bounds).
    func referenceArithmetic(_ members: [JSONMember], path: String) -> (times: String?, plus: String?)? {
        var operands: (times: String?, plus: String?) = (nil, nil)
        var valid = true
        for member in members where member.key != "param" {
            let memberPath = JSONPath.appending(key: member.key, to: path)
            guard member.key == "times" || member.key == "plus" else {
                error(member.keyOffset, memberPath, "unknown key \"\(member.key)\" in a parameter reference",
                      hint: member.key == "of" ? "\"of\" picks from a list by a forEach's index; a component's parameter takes \"times\" and \"plus\""
                          : Self.suggestion(for: member.key, among: DocumentKeys.parameterReference)
                          ?? Self.arithmeticHints[member.key.lowercased()]
                          ?? "a reference is { \"param\": NAME }, with \"times\" and \"plus\" for arithmetic on a number")
                valid = false
                continue
            }
            guard case .number(let literal) = member.value.kind else {
                var hint: String?
                if case .string(let text) = member.value.kind, Double(text) != nil { hint = "write the number without quotes" }
                typeMismatch(member.value, path: memberPath, expected: "a number", hint: hint)
                valid = false
                continue
            }
            guard Self.arithmeticOperand(literal) != nil else {
                error(member.value.offset, memberPath,
                      "\"\(member.key)\" must be at most \(NumberRange.grouped(DocumentLimits.maximumArithmeticOperand)) either way, with at most 6 decimal places, not \(Self.shortened(literal))",
                      hint: "arithmetic on parameters is exact, so its numbers are bounded")
                valid = false
                continue
            }
            if member.key == "times" { operands.times = literal } else { operands.plus = literal }
        }
        return valid ? operands : nil
    }

    /// What people write for the arithmetic there is: subtraction and division are `plus` and `times`.
    private static let arithmeticHints = [
        "minus": "subtract with a negative \"plus\", e.g. \"plus\": -1", "subtract": "subtract with a negative \"plus\", e.g. \"plus\": -1",
        "divide": "divide with \"times\", e.g. \"times\": 0.5 for half", "over": "divide with \"times\", e.g. \"times\": 0.5 for half",
        "add": "write \"plus\"", "multiply": "write \"times\"",
    ]

    /// `value × times + plus` exactly, as a JSON number literal; nil when `value` is out of the operands' bounds.
    static func arithmetic(_ value: String, times: String?, plus: String?) -> String? {
        guard times != nil || plus != nil else { return value }
        let scale = Int128(1_000_000)
        guard let base = arithmeticOperand(value) else { return nil }
        let factor = times.flatMap(arithmeticOperand) ?? scale
        let addend = plus.flatMap(arithmeticOperand) ?? 0
        // Each operand is an integer count of millionths at most 10¹⁵: the product fits 128 bits.
        return Rational(base * factor + addend * scale, scale * scale).decimalDescription
    }

    /// A literal as millionths, when it has at most 6 decimal places and is within `maximumArithmeticOperand`.
    private static func arithmeticOperand(_ literal: String) -> Int128? {
        let parts = DecimalParts(literal)
        guard parts.decimalPlaces <= 6, let exact = parts.rational,
              !(Rational(Int128(DocumentLimits.maximumArithmeticOperand)) < exact),
              !(exact < Rational(-Int128(DocumentLimits.maximumArithmeticOperand))) else { return nil }
        let millionths = exact * Rational(1_000_000)
        return millionths.denominator == 1 ? millionths.numerator : nil
    }

    // MARK: - Locating problems

    /// "in the copy i = 3 of the forEach at 12:9 (scenes[0].nodes[2])", innermost first.
    func copyNote() -> String {
        "in " + components.copies.reversed().map { copy in
            "the copy \(copy.index.map { "\($0) = \(copy.value)" } ?? "\(copy.value)") of the forEach at \(locationText(copy.offset)) (\(copy.path))"
        }.joined(separator: " in ")
    }

    /// Inside copies, a problem is reported once however many copies there are, with a note naming the copy it was
    /// found in; a value an index gave, once for the first copy where it is wrong. Nil: reported already, or silent.
    func locatedInCopies(_ problem: Problem) -> Problem? {
        guard !components.copies.isEmpty else { return problem }
        if components.copies.contains(where: { $0.silenced.contains(problem.offset) }) { return nil }
        let isIndexValue = components.copies.contains { $0.replaced.contains(problem.offset) }
        let key = isIndexValue ? "copy \(problem.offset)" : "copy \(problem.offset) \(problem.message)"
        guard components.reported.insert(key).inserted else { return nil }
        var problem = problem
        problem.notes.append(copyNote())
        return problem
    }

    /// A hint for `{ "param": ... }` left where a value is read: outside a component's node and every forEach, or
    /// naming no index of the copies around it.
    func parameterHint(_ value: JSONValue) -> String? {
        guard case .object(let members) = value.kind, let member = members.first(where: { $0.key == "param" }) else { return nil }
        let indexes = components.copies.compactMap(\.index)
        if indexes.isEmpty, !components.copies.isEmpty {
            return "name the index in the forEach around it: \"forEach\": { \"count\": \(components.copies.last!.count), \"index\": \"i\" }"
        }
        if !indexes.isEmpty, case .string(let name) = member.value.kind {
            return Self.suggestion(for: name, among: indexes)
                ?? "\"\(name)\" is no index here: the indexes here are \(Self.list(indexes.map { "\"\($0)\"" }, conjunction: "and"))"
        }
        return Self.parameterOutsideComponentHint(value)
    }

    static func hasForEach(_ value: JSONValue) -> Bool {
        if case .object(let members) = value.kind { return members.contains { $0.key == "forEach" } }
        return false
    }

    /// JSON values in `value` (iterative: a node may be as deep as the parser allows).
    static func valueCount(_ value: JSONValue) -> Int {
        var count = 0
        var pending = [value]
        while let next = pending.popLast() {
            count += 1
            switch next.kind {
            case .array(let elements): pending += elements
            case .object(let members): pending += members.map(\.value)
            default: break
            }
        }
        return count
    }
}
