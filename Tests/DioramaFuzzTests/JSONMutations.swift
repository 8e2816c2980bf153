/// Structure-aware mutations of JSON seeds: one value somewhere in the tree is replaced, duplicated, removed or
/// wrapped, so most inputs stay well-formed JSON and go past the parser into decoding, scheduling and drawing.
struct JSONMutations {
    /// Values at and beyond the documented limits (DocumentLimits, LottieFileReader) and the classic troublemakers.
    static let interestingNumbers = [
        "0", "-0", "1", "-1", "0.5", "-0.5", "2", "0.000001", "0.0000001", "1e-300", "5e-324", "1e-7", "0.1", "0.3333333",
        "29.97", "59.94", "1000", "1001", "5000", "5001", "8192", "8193", "10000", "10001", "16384", "32", "33", "128", "129",
        "360", "-360", "720", "86400", "86400.000001", "86401", "1000000", "1000001", "-1000000", "-1000001", "1e6",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296", "9007199254740993", "1e15", "1e19",
        "9.3e18", "-9.3e18", "1e38", "3.5e38", "1e300", "1.7976931348623157e308", "-1.7976931348623157e308", "1e309",
        "-1e309", "123456789012345678901234567890",
    ]

    let strings: [String]
    let numbers: [String]
    let splices: [FuzzJSON]

    /// `trees` are the corpus's well-formed seeds: their strings, numbers and subtrees are spliced into inputs.
    init(trees: [FuzzJSON]) {
        var strings = Set<String>(), numbers = Set<String>()
        for tree in trees {
            tree.collectStrings(into: &strings)
            tree.collectNumbers(into: &numbers)
        }
        self.strings = strings.sorted()
        self.numbers = numbers.sorted()
        var splices: [FuzzJSON] = []
        for tree in trees {
            let paths = tree.paths
            // A sample of each tree's subtrees (whole trees of scenes.json are thousands of values).
            for index in stride(from: 0, to: paths.count, by: max(1, paths.count / 200)) {
                splices.append(tree[paths[index][...]])
            }
        }
        self.splices = splices
    }

    /// The share of mutations that only nudge a number (x10, /10, +1, negated...): a large document fails its checks
    /// on almost any other change, and the stages after decoding need documents that pass.
    var numberNudgeShare = 0.0

    func mutate(_ tree: inout FuzzJSON, random: inout FuzzRandom) {
        let paths = tree.paths
        if random.chance(numberNudgeShare) {
            let numbers = paths.filter { if case .number = tree[$0[...]] { true } else { false } }
            if !numbers.isEmpty {
                let path = random.pick(numbers)[...]
                tree[path] = nudged(tree[path], random: &random)
                return
            }
        }
        let path = random.pick(paths)[...]
        let value = tree[path]
        switch random.below(12) {
        case 0, 1, 2:
            tree[path] = number(near: value, random: &random)
        case 3:
            tree[path] = interesting(random: &random)
        case 4:
            tree[path] = random.pick(splices)
        case 5:
            tree[path] = .string(string(random: &random))
        case 6, 7:
            tree[path] = container(value, random: &random)
        case 8:
            // Wrapped in arrays, at times past the parser's depth limit (128).
            let depth = random.chance(0.7) ? random.within(1...6) : random.pick([30, 127, 128, 129, 400])
            var wrapped = value
            for _ in 0..<depth { wrapped = .array([wrapped]) }
            tree[path] = wrapped
        case 9:
            // A sibling's value, by position among the numbers and strings the corpus holds.
            tree[path] = random.chance(0.5) ? .number(random.pick(numbers)) : .string(random.pick(strings))
        case 10:
            tree[path] = random.pick([.null, .bool(true), .bool(false), .array([]), .object([])])
        default:
            // Its parent (if any) loses it.
            guard let last = path.last else { return }
            let parentPath = path.dropLast()
            switch (tree[parentPath], last) {
            case (.array(var elements), .element(let index)):
                elements.remove(at: index)
                tree[parentPath] = .array(elements)
            case (.object(var members), .member(let index)):
                members.remove(at: index)
                tree[parentPath] = .object(members)
            default: break
            }
        }
    }

    private func number(near value: FuzzJSON, random: inout FuzzRandom) -> FuzzJSON {
        guard case .number = value, random.chance(0.6) else { return .number(random.pick(Self.interestingNumbers)) }
        return nudged(value, random: &random)
    }

    private func nudged(_ value: FuzzJSON, random: inout FuzzRandom) -> FuzzJSON {
        guard case .number(let literal) = value, let x = Double(literal) else { return value }
        let changed: Double = switch random.below(8) {
        case 0: -x
        case 1: x * 10
        case 2: x / 10
        case 3: x + 1
        case 4: x - 1
        case 5: x + 0.5
        case 6: x * 1e6
        default: x * 1.000001
        }
        // Whole numbers stay whole (a keyframe index, a seed), the rest print with all their digits.
        if changed == changed.rounded(), abs(changed) < 1e15 { return .number(String(Int64(changed))) }
        return .number("\(changed)")
    }

    private func interesting(random: inout FuzzRandom) -> FuzzJSON {
        switch random.below(4) {
        case 0: .string(string(random: &random))
        case 1: random.pick([.null, .bool(true), .bool(false), .array([]), .object([])])
        default: .number(random.pick(Self.interestingNumbers))
        }
    }

    private func string(random: inout FuzzRandom) -> String {
        switch random.below(8) {
        case 0: ""
        case 1: String(repeating: "W", count: random.pick([255, 4096, 9_999, 10_000, 10_001, 100_000]))
        case 2: String(repeating: "e\u{301}\u{302}\u{303}", count: random.within(1...3_000))
        case 3: random.pick(["NaN", "Infinity", "-0", "1e999", "#", "#ffffffffff", "#12", "..", "../..", ".", "/", "\u{0}",
                             "\u{FFFD}", "\u{202E}rtl", "😀", "%n%s", "forever", "spring", "easeInOut"])
        default: random.pick(strings)
        }
    }

    /// A changed container: an element duplicated (a few or many times), two swapped, a member duplicated (the
    /// same key twice), renamed, or added; a scalar becomes a container holding it.
    private func container(_ value: FuzzJSON, random: inout FuzzRandom) -> FuzzJSON {
        switch value {
        case .array(var elements) where !elements.isEmpty:
            let index = random.below(elements.count)
            switch random.below(3) {
            case 0:
                let copies = random.chance(0.85) ? 1 : random.within(2...40)
                elements.insert(contentsOf: Array(repeating: elements[index], count: copies), at: random.below(elements.count + 1))
            case 1: elements.swapAt(index, random.below(elements.count))
            default: elements.append(random.pick(splices))
            }
            return .array(elements)
        case .object(var members) where !members.isEmpty:
            let index = random.below(members.count)
            switch random.below(4) {
            case 0: members.append(members[index])
            case 1: members[index].key = random.pick(strings)
            case 2: members.append((random.pick(strings), random.pick(splices)))
            default: members.append((random.pick(strings), interesting(random: &random)))
            }
            return .object(members)
        case .array:
            return .array([random.pick(splices)])
        case .object:
            return .object([(random.pick(strings), random.pick(splices))])
        default:
            return random.chance(0.5) ? .array([value]) : .object([(random.pick(strings), value)])
        }
    }
}
