import DioramaFiles
import Foundation

/// Reads what the timeline needs from a Lottie JSON file (frame rate, in and out points, size, markers) in pure
/// Swift, and checks the basics rlottie trusts blindly, so a damaged file is a located error, not a crash:
/// a readable regular file of at most 16 MiB, valid JSON (depth-limited by our parser), a top-level object,
/// `fr` in (0, 1000], `ip` < `op` with at most 1,000,000 frames between, `w` and `h` in 1...8192, `layers` an
/// array of objects, `assets` (if present) an array of objects, and `markers` (if present) objects with a string
/// `cm` and numbers `tm` and `dr` ≥ 0. A `.lottie` file (a dotLottie zip archive) is unpacked first, and the animation inside checked the same way
/// (`LottieFileReader+Archive.swift`).
/// What rlottie would build is bounded too (repeater copies, shapes, layers, keyframes), and image assets must be
/// files inside the scenes folder (`LottieFileReader+Structure.swift`).
public enum LottieFileReader {
    public static let maximumFileSize = 16 * 1024 * 1024
    public static let maximumFrameRate = Rational(1000)
    public static let maximumFrameCount = 1_000_000
    public static let maximumSide = 8192

    /// What is wrong with a file, in words for a diagnostic located at the node that names it.
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        public var hint: String?
        public init(_ message: String, hint: String? = nil) {
            self.message = message
            self.hint = hint
        }
    }

    /// Reads and checks the file at the absolute `path`; `shownPath` names it in messages (as the scenes file wrote it).
    /// - Parameter allowedRoot: the folder no image asset may leave (the scenes file's); nil is the Lottie file's own folder.
    /// - Parameter archives: unpacks a dotLottie archive (`.lottie`); without it such a file is refused.
    public static func read(path: String, shownPath: String, allowedRoot: String? = nil,
                            archives: ArchiveReader? = nil, animation: String? = nil) -> Result<LottieAnimationInfo, Problem> {
        load(path: path, shownPath: shownPath, allowedRoot: allowedRoot, archives: archives, animation: animation).map(\.info)
    }

    /// A checked animation: what the timeline needs, the JSON to hand rlottie (from a dotLottie archive: the
    /// animation inside, its images embedded) and the folder rlottie resolves image files against.
    public struct Loaded: Sendable {
        public var info: LottieAnimationInfo
        public var json: [UInt8]
        public var resourceDirectory: String
    }

    /// Reads and checks the file at `path` as `read` does, keeping the JSON rlottie is to load.
    public static func load(path: String, shownPath: String, allowedRoot: String? = nil,
                            archives: ArchiveReader? = nil, animation: String? = nil) -> Result<Loaded, Problem> {
        let file = "the Lottie file \"\(shownPath)\""
        let data: [UInt8]
        switch readFile(path, file: file, shownPath: shownPath) {
        case .failure(let problem): return .failure(problem)
        case .success(let bytes): data = bytes
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        if path.lowercased().hasSuffix(".lottie") {
            guard let archives else {
                return .failure(Problem("\(file) is a dotLottie archive (a zip), which is not read here",
                                        hint: "unzip it and name the JSON animation inside (animations/NAME.json)"))
            }
            switch unpack(data, file: file, reader: archives, animation: animation) {
            case .failure(let problem): return .failure(problem)
            case .success(let (json, entry)):
                // Images inside the archive are embedded by now; any other image asset is refused (no folder).
                return parse(bytes: json, shownPath: shownPath + "/" + entry).map { Loaded(info: $0, json: json, resourceDirectory: directory) }
            }
        }
        if let animation {
            return .failure(Problem("\(file) is Lottie JSON, a single animation: \"animation\" (\"\(animation)\") chooses one inside a dotLottie archive",
                                    hint: "remove \"animation\", or name the .lottie archive that holds it"))
        }
        // rlottie opens an asset at its resource folder (given with a trailing slash) + u + p.
        if let problem = imageAssetProblem(in: data, folder: directory + "/", shownPath: shownPath) { return .failure(problem) }
        return parse(bytes: data, shownPath: shownPath, fileDirectory: directory, allowedRoot: allowedRoot ?? directory)
            .map { Loaded(info: $0, json: data, resourceDirectory: directory) }
    }

    /// The bytes of the file at `path` (`file` names it in messages): it must exist, be a regular file (a named pipe
    /// would block the open forever) and hold at most `maximumFileSize` bytes. An empty file is for the caller to judge.
    static func readFile(_ path: String, file: String, shownPath: String) -> Result<[UInt8], Problem> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(Problem("\(file) does not exist", hint: Suggestion.missingFileHint(written: shownPath, resolved: path)))
        }
        guard !isDirectory.boolValue else { return .failure(Problem("\(file) is a folder, not a file")) }
        let data: [UInt8]
        switch RegularFile.read(path, upTo: maximumFileSize) {
        case .success(let bytes): data = bytes
        case .failure(let problem) where problem.kind == .notRegular: return .failure(Problem("\(file) \(problem.reason)", hint: problem.hint))
        case .failure: return .failure(Problem("\(file) cannot be read", hint: "check its permissions"))
        }
        guard data.count <= maximumFileSize else {
            return .failure(Problem("\(file) is over 16 MiB", hint: "Lottie animations for a scene are small; is this the right file?"))
        }
        return .success(data)
    }

    /// Checks Lottie JSON already in memory. `fileDirectory` is where rlottie will look for image assets (nil refuses
    /// assets read from files); `allowedRoot` the folder they may not leave (nil: `fileDirectory`).
    public static func parse(bytes: [UInt8], shownPath: String, fileDirectory: String? = nil,
                             allowedRoot: String? = nil) -> Result<LottieAnimationInfo, Problem> {
        let file = "the Lottie file \"\(shownPath)\""
        let (value, problems) = JSONParser.parse(bytes)
        func place(_ offset: Int) -> String {
            let location = SourceLines.locations(of: [offset], in: bytes)[offset] ?? SourceLines.Location(line: 1, column: 1)
            return "\(shownPath):\(location.line):\(location.column)"
        }
        if let problem = problems.first(where: { $0.severity == .error }) ?? (value == nil ? problems.first : nil) {
            return .failure(Problem("\(file) is not valid JSON: \(problem.message) (at \(place(problem.offset)))",
                                    hint: "export it again, or check it with a JSON validator"))
        }
        guard let value else { return .failure(Problem("\(file) is not valid JSON")) }
        guard case .object(let members) = value.kind else {
            return .failure(Problem("\(file) is not a Lottie animation: it holds \(value.typeDescription), not an object",
                                    hint: "a Lottie file is { \"v\": ..., \"fr\": 30, \"ip\": 0, \"op\": 60, \"w\": ..., \"h\": ..., \"layers\": [...] }"))
        }
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        func requiredNumber(_ key: String, _ meaning: String) -> Result<(Rational, Int), Problem> {
            guard let value = member(key) else {
                return .failure(Problem("\(file) has no \(meaning) (\"\(key)\")", hint: "is it a Lottie animation?"))
            }
            guard case .number(let literal) = value.kind, let exact = exactNumber(literal) else {
                return .failure(Problem("\(file) has \(value.typeDescription) as its \(meaning) (\"\(key)\", at \(place(value.offset))), not a usable number"))
            }
            return .success((exact, value.offset))
        }

        let frameRate: Rational
        switch requiredNumber("fr", "frame rate") {
        case .failure(let problem): return .failure(problem)
        case .success(let (rate, offset)):
            guard rate > .zero, rate <= maximumFrameRate else {
                return .failure(Problem("\(file) has a frame rate (\"fr\", at \(place(offset))) of \(rate.decimalDescription), which cannot play",
                                        hint: "the frame rate must be greater than 0 and at most 1000 frames per second"))
            }
            frameRate = rate
        }
        var points: [Int] = []
        for (key, meaning) in [("ip", "in point"), ("op", "out point")] {
            switch requiredNumber(key, meaning) {
            case .failure(let problem): return .failure(problem)
            case .success(let (frame, offset)):
                let rounded = frame.roundedToNearest
                guard let rounded, abs(rounded) <= 100_000_000 else {
                    return .failure(Problem("\(file) has an \(meaning) (\"\(key)\", at \(place(offset))) far out of range"))
                }
                points.append(rounded)
            }
        }
        let (inPoint, outPoint) = (points[0], points[1])
        guard outPoint > inPoint else {
            return .failure(Problem("\(file) has no frames: its out point (\"op\" \(outPoint)) is not after its in point (\"ip\" \(inPoint))",
                                    hint: "\"op\" is the frame the animation ends at, e.g. \"ip\": 0, \"op\": 60 for 60 frames"))
        }
        guard outPoint - inPoint <= maximumFrameCount else {
            return .failure(Problem("\(file) has \(outPoint - inPoint) frames; the limit is 1,000,000"))
        }
        var size: [Int] = []
        for key in ["w", "h"] {
            switch requiredNumber(key, key == "w" ? "width" : "height") {
            case .failure(let problem): return .failure(problem)
            case .success(let (side, offset)):
                guard let rounded = side.roundedToNearest, rounded >= 1, rounded <= maximumSide else {
                    return .failure(Problem("\(file) has a \(key == "w" ? "width" : "height") (\"\(key)\", at \(place(offset))) of \(side.decimalDescription) pixels",
                                            hint: "a composition's width and height must be 1...8192 pixels"))
                }
                size.append(rounded)
            }
        }
        guard let layers = member("layers") else {
            return .failure(Problem("\(file) has no \"layers\"", hint: "is it a Lottie animation?"))
        }
        for (key, value) in [("layers", layers)] + (member("assets").map { [("assets", $0)] } ?? []) {
            guard case .array(let elements) = value.kind else {
                return .failure(Problem("\(file) has \(value.typeDescription) as its \"\(key)\" (at \(place(value.offset))), not an array"))
            }
            if let bad = elements.first(where: { if case .object = $0.kind { return false }; return true }) {
                return .failure(Problem("\(file) has \(bad.typeDescription) among its \"\(key)\" (at \(place(bad.offset))), not an object"))
            }
        }
        if let problem = structureProblem(members: members, file: file, fileDirectory: fileDirectory,
                                          allowedRoot: allowedRoot ?? fileDirectory, place: place) {
            return .failure(problem)
        }
        var markers: [LottieMarker] = []
        if let list = member("markers") {
            guard case .array(let elements) = list.kind else {
                return .failure(Problem("\(file) has \(list.typeDescription) as its \"markers\" (at \(place(list.offset))), not an array"))
            }
            for element in elements {
                guard case .object(let fields) = element.kind,
                      case .string(let name)? = fields.first(where: { $0.key == "cm" })?.value.kind,
                      case .number(let time)? = fields.first(where: { $0.key == "tm" })?.value.kind,
                      let frame = exactNumber(time)?.roundedToNearest, abs(frame) <= 100_000_000 else {
                    return .failure(Problem("\(file) has a marker without a name (\"cm\") and a frame (\"tm\") (at \(place(element.offset)))",
                                            hint: "a marker is { \"cm\": \"impact\", \"tm\": 42, \"dr\": 0 }"))
                }
                var duration = 0
                if let length = fields.first(where: { $0.key == "dr" })?.value {
                    guard case .number(let literal) = length.kind, let frames = exactNumber(literal)?.roundedToNearest,
                          frames >= 0, frames <= maximumFrameCount else {
                        return .failure(Problem("\(file) has a marker \"\(name)\" whose duration (\"dr\", at \(place(length.offset))) is not a number of frames ≥ 0"))
                    }
                    duration = frames
                }
                markers.append(LottieMarker(name: name, frame: frame, duration: duration))
            }
        }
        return .success(LottieAnimationInfo(frameRate: frameRate, inPoint: inPoint, outPoint: outPoint,
                                            width: size[0], height: size[1], markers: markers))
    }

    /// A JSON number literal as an exact rational, when it is finite and fits (at most 6 decimal places kept exact;
    /// longer fractions, common in exported `op` values, are rounded to 6).
    static func exactNumber(_ literal: String) -> Rational? {
        guard let double = Double(literal), double.isFinite, abs(double) <= 1e9 else { return nil }
        let parts = DocumentDecoder.DecimalParts(literal)
        if parts.decimalPlaces <= 6, let exact = parts.rational { return exact }
        return Rational(Int128((double * 1_000_000).rounded()), 1_000_000)
    }
}

extension Rational {
    /// The nearest whole number (halves away from zero), when it fits an Int.
    var roundedToNearest: Int? {
        let half = Rational(1, 2)
        let value = self >= .zero ? (self + half).floor : -((-self) + half).floor
        return Int(exactly: value)
    }
}
