import DioramaFiles

extension LottieFileReader {
    /// The first image asset of the Lottie JSON `bytes` that rlottie would open and that is not a regular file
    /// (a named pipe would block rlottie's read forever), as a problem; nil when there is none. rlottie opens an
    /// asset that is not embedded (`"e": 1` or a `data:` URL) at the resource folder it is given + `u` + `p`, joined
    /// as they are (`folder` is the animation's folder with a trailing slash, as the renderer gives it); a
    /// missing one it skips, so it is left alone here.
    static func imageAssetProblem(in bytes: [UInt8], folder: String, shownPath: String) -> Problem? {
        guard case .object(let members)? = JSONParser.parse(bytes).value?.kind,
              case .array(let assets)? = members.first(where: { $0.key == "assets" })?.value.kind else { return nil }
        for asset in assets {
            guard case .object(let fields) = asset.kind,
                  case .string(let name)? = fields.first(where: { $0.key == "p" })?.value.kind else { continue }
            if case .number("1")? = fields.first(where: { $0.key == "e" })?.value.kind { continue }
            if name.hasPrefix("data:") { continue }
            var directory = ""
            if case .string(let folderName)? = fields.first(where: { $0.key == "u" })?.value.kind { directory = folderName }
            let relative = directory + name
            if let problem = RegularFile.problem(folder + relative), problem.kind == .notRegular {
                let place = SourceLines.locations(of: [asset.offset], in: bytes)[asset.offset] ?? SourceLines.Location(line: 1, column: 1)
                return Problem("the Lottie file \"\(shownPath)\" names the image \"\(relative)\" (at \(shownPath):\(place.line):\(place.column)), which \(problem.reason)",
                               hint: problem.hint)
            }
        }
        return nil
    }
}
