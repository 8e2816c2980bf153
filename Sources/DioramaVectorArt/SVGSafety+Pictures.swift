import Foundation

// Pictures an SVG makes librsvg decode: `data:` URLs and files beside it. A picture's header declares its size
// and librsvg allocates that many pixels whatever the file's length (a 4 KB PNG can declare 30000 × 30000,
// 3.6 GB), so the declared sizes are read here, from the bytes, and bounded all together.

extension SVGSafety {
    /// Pixels all the pictures an SVG uses may declare, together (4096 × 4096, 64 MiB once decoded).
    public static let maximumPicturePixels = 4096 * 4096
    /// How deep SVGs may use other SVGs as pictures or references.
    static let maximumNesting = 4

    /// What the SVGs checked so far have used of the picture budget.
    struct PictureBudget {
        var pixels = 0
    }

    /// The width and height a PNG, JPEG or GIF declares in its header; nil for anything else (or a damaged header).
    static func declaredSize(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        func bigEndian(_ at: Int, _ length: Int) -> Int? {
            guard at + length <= bytes.count else { return nil }
            return bytes[at..<at + length].reduce(0) { $0 << 8 | Int($1) }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard let width = bigEndian(16, 4), let height = bigEndian(20, 4) else { return nil }
            return (width, height)
        }
        if bytes.starts(with: Array("GIF8".utf8)) {
            guard bytes.count >= 10 else { return nil }
            return (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        }
        if bytes.starts(with: [0xFF, 0xD8]) {
            // Segments until a start of frame (SOF0...SOF15 but DHT C4, JPG C8 and DAC CC), which holds the size.
            var index = 2
            while index + 4 <= bytes.count {
                guard bytes[index] == 0xFF else { return nil }
                let marker = bytes[index + 1]
                if marker == 0xFF { index += 1; continue }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
                guard let length = bigEndian(index + 2, 2), length >= 2 else { return nil }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    guard let height = bigEndian(index + 5, 2), let width = bigEndian(index + 7, 2) else { return nil }
                    return (width, height)
                }
                index += 2 + length
            }
        }
        return nil
    }

    /// Whether the bytes look like SVG or XML text (after any byte-order mark and white space).
    static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return body.first { !isSpace($0) } == UInt8(ascii: "<")
    }

    /// The bytes of a `data:` URL (base64 or percent-encoded); nil when they cannot be read.
    static func dataURLBytes(_ reference: String) -> [UInt8]? {
        guard let comma = reference.firstIndex(of: ",") else { return nil }
        let header = reference[..<comma].lowercased(), payload = String(reference[reference.index(after: comma)...])
        if header.hasSuffix(";base64") {
            return Data(base64Encoded: payload, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
        }
        return payload.removingPercentEncoding.map { Array($0.utf8) }
    }

    /// Checks one picture an SVG uses: another SVG is checked whole; a PNG, JPEG or GIF counts its declared pixels
    /// against the budget; anything else is refused, since its size cannot be known before librsvg decodes it.
    static func pictureProblem(_ bytes: [UInt8], shown: String, fileDirectory: String, allowedRoot: String?,
                               budget: inout PictureBudget, nesting: Int) -> VectorArtError? {
        if looksLikeSVG(bytes) {
            guard nesting < maximumNesting else {
                return VectorArtError(reason: "it uses SVGs inside SVGs more than \(maximumNesting) deep (\"\(shown)\")",
                                      hint: "draw the inner pictures into the SVG itself")
            }
            if let problem = problem(in: bytes, fileDirectory: fileDirectory, allowedRoot: allowedRoot, budget: &budget, nesting: nesting + 1) {
                return VectorArtError(reason: "the SVG it uses (\"\(shown)\") cannot be used: \(problem.reason)", hint: problem.hint)
            }
            return nil
        }
        guard let size = declaredSize(of: bytes) else {
            return VectorArtError(reason: "it uses the picture \"\(shown)\", which is not a PNG, JPEG, GIF or SVG that can be read",
                                  hint: "convert the picture to PNG or JPEG")
        }
        budget.pixels += size.width * size.height
        if size.width > Int(VectorArt.maximumDeclaredSide) || size.height > Int(VectorArt.maximumDeclaredSide)
            || budget.pixels > maximumPicturePixels {
            return VectorArtError(
                reason: "it uses the picture \"\(shown)\", which declares \(size.width) x \(size.height) pixels; pictures in an SVG may declare \(maximumPicturePixels) pixels (4096 x 4096) all together",
                hint: "scale the picture down before embedding it; librsvg decodes every pixel a picture declares")
        }
        return nil
    }

    /// Every picture the SVG refers to by a `data:` URL or by a file inside the allowed folder (missing files are
    /// left to librsvg, which draws nothing for them).
    static func picturesProblem(in text: String, fileDirectory: String, allowedRoot: String?,
                                budget: inout PictureBudget, nesting: Int) -> VectorArtError? {
        var seen = Set<String>()
        for reference in references(in: text) where !reference.isEmpty && !reference.hasPrefix("#") && seen.insert(reference).inserted {
            if reference.lowercased().hasPrefix("data:") {
                let shown = reference.count > 40 ? String(reference.prefix(37)) + "..." : reference
                guard let bytes = dataURLBytes(reference) else {
                    return VectorArtError(reason: "it embeds \"\(shown)\", which cannot be decoded",
                                          hint: "embed pictures as base64 data: URLs of PNG or JPEG files")
                }
                if let problem = pictureProblem(bytes, shown: shown, fileDirectory: fileDirectory, allowedRoot: nil,
                                                budget: &budget, nesting: nesting) { return problem }
                continue
            }
            // Only references `referenceProblem` let through reach here: relative, inside the allowed folder.
            let file = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? reference
            // Style sheets are text that librsvg reads as CSS, not pictures it decodes.
            guard !file.isEmpty, !file.lowercased().hasSuffix(".css") else { continue }
            let path = URL(fileURLWithPath: fileDirectory).appendingPathComponent(file.removingPercentEncoding ?? file).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: maximumFileSize + 1)) ?? Data()
            guard data.count <= maximumFileSize else {
                return VectorArtError(reason: "it uses the file \"\(file)\", which is larger than \(maximumFileSize / 1_048_576) MiB",
                                      hint: "scale the picture down")
            }
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if let problem = pictureProblem([UInt8](data), shown: file, fileDirectory: directory, allowedRoot: allowedRoot,
                                            budget: &budget, nesting: nesting) { return problem }
        }
        return nil
    }
}
