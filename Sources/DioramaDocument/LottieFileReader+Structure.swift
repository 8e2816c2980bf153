import Foundation

// What rlottie builds from a file, bounded before it sees the file: rlottie makes every copy a repeater asks for
// (`"c": 1000000000` grew to 7.9 GB and aborted with std::bad_alloc), builds a precomposition's layers again for
// each layer that uses it, and reads image assets from wherever `u` + `p` points.

extension LottieFileReader {
    /// Copies one repeater (`"ty": "rp"`, its `c`, the largest value of any keyframe) may make.
    public static let maximumRepeaterCopies = 1000
    /// Shapes rlottie builds: every shape item, each repeater copy of what it repeats, and again for each use
    /// of a precomposition.
    public static let maximumBuiltShapes = 100_000
    /// Layers rlottie builds, again for each use of a precomposition.
    public static let maximumBuiltLayers = 10_000
    /// Keyframes in the whole file.
    public static let maximumKeyframes = 100_000

    /// The first problem with what rlottie would build, or with where its image assets are.
    /// - Parameters:
    ///   - fileDirectory: the Lottie file's folder, which rlottie reads image assets from; nil refuses image files.
    ///   - allowedRoot: the folder no image asset may leave.
    static func structureProblem(members: [JSONMember], file: String, fileDirectory: String?, allowedRoot: String?,
                                 place: (Int) -> String) -> Problem? {
        func member(_ fields: [JSONMember], _ key: String) -> JSONValue? { fields.first { $0.key == key }?.value }
        func elements(_ value: JSONValue?) -> [JSONValue] {
            if case .array(let list)? = value?.kind { return list }
            return []
        }
        func fields(_ value: JSONValue) -> [JSONMember] {
            if case .object(let list) = value.kind { return list }
            return []
        }
        func string(_ value: JSONValue?) -> String? {
            if case .string(let text)? = value?.kind { return text }
            return nil
        }

        // Keyframes: every "k" that is an array of objects, anywhere.
        var keyframes = 0
        func countKeyframes(_ value: JSONValue) {
            switch value.kind {
            case .object(let list):
                for entry in list {
                    if entry.key == "k", case .array(let frames) = entry.value.kind,
                       frames.contains(where: { if case .object = $0.kind { return true }; return false }) {
                        keyframes += frames.count
                    }
                    countKeyframes(entry.value)
                }
            case .array(let list):
                for element in list { countKeyframes(element) }
            default:
                break
            }
        }
        for entry in members { countKeyframes(entry.value) }
        if keyframes > maximumKeyframes {
            return Problem("\(file) has \(keyframes) keyframes; the limit is \(maximumKeyframes)",
                           hint: "simplify the animation, or bake fewer keyframes when exporting it")
        }

        // Precompositions by id, and image assets.
        var precomps: [String: (layers: [JSONValue], path: String)] = [:]
        for (index, asset) in elements(member(members, "assets")).enumerated() {
            let assetFields = fields(asset)
            let id: String? = switch member(assetFields, "id")?.kind {
            case .string(let text)?: text
            case .number(let literal)?: literal
            default: nil
            }
            if let layers = member(assetFields, "layers"), let id {
                precomps[id] = (elements(layers), "assets[\(index)].layers")
            }
            if let name = string(member(assetFields, "p")),
               let problem = imageAssetProblem(assetFields, name: name, path: "assets[\(index)]", offset: asset.offset, file: file,
                                               fileDirectory: fileDirectory, allowedRoot: allowedRoot, place: place) {
                return problem
            }
        }

        // Built shapes and layers, counted with saturation so nested repeaters cannot overflow.
        func saturated(_ value: Int) -> Int { min(value, Int.max / 4) }
        func times(_ a: Int, _ b: Int) -> Int {
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? Int.max / 4 : saturated(product)
        }
        func shapes(_ items: [JSONValue], path: String) -> Result<Int, Problem> {
            var built = 0
            for (index, item) in items.enumerated() {
                let itemFields = fields(item)
                let itemPath = "\(path)[\(index)]"
                switch string(member(itemFields, "ty")) {
                case "gr":
                    switch shapes(elements(member(itemFields, "it")), path: itemPath + ".it") {
                    case .failure(let problem): return .failure(problem)
                    case .success(let inner): built = saturated(built + 1 + inner)
                    }
                case "rp":
                    let copies = repeaterCopies(member(itemFields, "c"))
                    if copies > Double(maximumRepeaterCopies) || copies.isNaN {
                        let shown = copies < 1e15 ? String(Int(copies)) : String(copies)
                        return .failure(Problem(
                            "\(file) has a repeater (\"c\", at \(place(item.offset)), \(itemPath)) that makes \(shown) copies; the limit is \(maximumRepeaterCopies)",
                            hint: "rlottie builds every copy; use fewer copies, or repeat a group that is already repeated"))
                    }
                    // The repeater copies everything before it in its group.
                    built = saturated(times(built, max(Int(copies), 1)) + 1)
                default:
                    built = saturated(built + 1)
                }
            }
            return .success(built)
        }
        var totals: [String: (shapes: Int, layers: Int)] = [:]
        var visiting = Set<String>()
        func layers(_ list: [JSONValue], path: String) -> Result<(shapes: Int, layers: Int), Problem> {
            var total = (shapes: 0, layers: 0)
            for (index, layer) in list.enumerated() {
                let layerFields = fields(layer)
                let layerPath = "\(path)[\(index)]"
                total.layers = saturated(total.layers + 1)
                switch shapes(elements(member(layerFields, "shapes")), path: layerPath + ".shapes") {
                case .failure(let problem): return .failure(problem)
                case .success(let built): total.shapes = saturated(total.shapes + built)
                }
                guard let reference = string(member(layerFields, "refId")), let precomp = precomps[reference] else { continue }
                if visiting.contains(reference) {
                    return .failure(Problem("\(file) has a precomposition \"\(reference)\" that uses itself (at \(place(layer.offset)), \(layerPath))",
                                            hint: "a precomposition cannot contain a layer that refers to it, directly or through others"))
                }
                let inner: (shapes: Int, layers: Int)
                if let known = totals[reference] {
                    inner = known
                } else {
                    visiting.insert(reference)
                    switch layers(precomp.layers, path: precomp.path) {
                    case .failure(let problem): return .failure(problem)
                    case .success(let counted): inner = counted
                    }
                    visiting.remove(reference)
                    totals[reference] = inner
                }
                total = (saturated(total.shapes + inner.shapes), saturated(total.layers + inner.layers))
            }
            return .success(total)
        }
        switch layers(elements(member(members, "layers")), path: "layers") {
        case .failure(let problem):
            return problem
        case .success(let total):
            if total.layers > maximumBuiltLayers {
                let shown = total.layers >= Int.max / 4 ? "more than \(Int.max / 4)" : String(total.layers)
                return Problem("\(file) makes rlottie build \(shown) layers (counting each use of a precomposition); the limit is \(maximumBuiltLayers)",
                               hint: "use precompositions fewer times, or nest them less deeply")
            }
            if total.shapes > maximumBuiltShapes {
                let shown = total.shapes >= Int.max / 4 ? "more than \(Int.max / 4)" : String(total.shapes)
                return Problem("\(file) makes rlottie build \(shown) shapes (counting repeater copies and each use of a precomposition); the limit is \(maximumBuiltShapes)",
                               hint: "use fewer repeater copies, or fewer uses of large precompositions")
            }
        }
        return nil
    }

    /// The most copies a repeater's `c` asks for: a number, `{"k": N}`, `{"k": [N]}` or keyframes (`s` and `e`).
    static func repeaterCopies(_ value: JSONValue?) -> Double {
        func number(_ value: JSONValue?) -> Double? {
            switch value?.kind {
            case .number(let literal)?: Double(literal)
            case .array(let list)?: list.first.flatMap { number($0) }
            default: nil
            }
        }
        guard let value else { return 0 }
        if let plain = number(value) { return plain }
        guard case .object(let fields) = value.kind, let k = fields.first(where: { $0.key == "k" })?.value else { return 0 }
        if let plain = number(k) { return plain }
        guard case .array(let frames) = k.kind else { return 0 }
        var largest = 0.0
        for frame in frames {
            guard case .object(let keyframe) = frame.kind else { continue }
            for key in ["s", "e"] {
                if let copies = number(keyframe.first(where: { $0.key == key })?.value) {
                    largest = copies.isNaN ? .nan : max(largest, copies)
                }
            }
        }
        return largest
    }

    /// An image asset's file, resolved the way rlottie resolves it (the Lottie file's folder, then `u`, then `p`),
    /// must stay inside the allowed folder, as an SVG's references must; embedded assets (`"e": 1`) read no file.
    static func imageAssetProblem(_ fields: [JSONMember], name: String, path: String, offset: Int, file: String,
                                  fileDirectory: String?, allowedRoot: String?, place: (Int) -> String) -> Problem? {
        if case .number(let embedded)? = fields.first(where: { $0.key == "e" })?.value.kind, Double(embedded) == 1 { return nil }
        var folder = ""
        if let u = fields.first(where: { $0.key == "u" })?.value {
            guard case .string(let text) = u.kind else {
                return Problem("\(file) has \(u.typeDescription) as an image asset's folder (\"u\", at \(place(u.offset)), \(path).u), not a string")
            }
            folder = text
        }
        let relative = folder + name
        let shown = relative.count > 60 ? String(relative.prefix(57)) + "..." : relative
        let located = "(at \(place(offset)), \(path))"
        let hint = "image assets are files beside the Lottie file, e.g. \"u\": \"images/\", \"p\": \"img_0.png\", inside the scenes file's folder; or embedded (\"e\": 1, \"p\": \"data:image/png;base64,...\")"
        if relative.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            return Problem("\(file) has an image asset \(located) whose path holds control characters", hint: hint)
        }
        if let colon = relative.firstIndex(of: ":"), !relative[..<colon].isEmpty,
           relative[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
            return Problem("\(file) has an image asset \(located) at \"\(shown)\", a URL; nothing is fetched by URL", hint: hint)
        }
        if relative.hasPrefix("/") || relative.hasPrefix("\\") {
            return Problem("\(file) has an image asset \(located) at \"\(shown)\", an absolute path", hint: hint)
        }
        guard let fileDirectory else {
            return Problem("\(file) has an image asset \(located) at \"\(shown)\", but the file's folder is not known", hint: hint)
        }
        let resolved = URL(fileURLWithPath: fileDirectory + "/" + relative).standardizedFileURL.path
        let root = URL(fileURLWithPath: allowedRoot ?? fileDirectory).standardizedFileURL.path
        if resolved != root && !resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
            return Problem("\(file) has an image asset \(located) at \"\(shown)\", outside the scenes file's folder", hint: hint)
        }
        return nil
    }
}
