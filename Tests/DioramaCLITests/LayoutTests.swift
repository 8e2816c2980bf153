import DioramaTestSupport
import Foundation
import Testing

/// The README's layout holds: the pure modules import no C library, and library modules hold only
/// what the product runs (no benchmarks, no test doubles).
@Suite struct LayoutTests {
    static let sources = DioramaCommand.repositoryRoot.appendingPathComponent("Sources")

    /// Every `import` line of every Swift file under `Sources/MODULE`, with the file it is in.
    static func imports(of module: String) throws -> [(file: String, module: String)] {
        let folder = sources.appendingPathComponent(module)
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(!files.isEmpty, "no Swift files under Sources/\(module)")
        return try files.flatMap { file in
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n")
                .compactMap { line -> (String, String)? in
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }),
                          index + 1 < words.count else { return nil }
                    return (file, String(words[index + 1]))
                }
        }
    }

    @Test(arguments: ["DioramaDocument", "DioramaTimeline", "DioramaMixer", "DioramaSynthesis"])
    func pureModulesImportNoCLibrary(module: String) throws {
        // DioramaFiles is pure Swift over the platform's system calls: regular files, output that never traps.
        let allowed: Set = ["Foundation", "Synchronization", "DioramaFiles", "DioramaDocument", "DioramaTimeline", "DioramaMixer"]
        for found in try Self.imports(of: module) {
            #expect(allowed.contains(found.module), "Sources/\(module)/\(found.file) imports \(found.module)")
        }
    }

    @Test(arguments: ["DioramaDocument", "DioramaTimeline", "DioramaMixer", "DioramaSynthesis", "DioramaRender", "DioramaAudio", "DioramaPlayer",
                       "DioramaExport", "DioramaVerify", "DioramaVectorArt", "DioramaLottie", "DioramaLink", "DioramaShowControl", "DioramaFiles"])
    func libraryModulesHoldNoBenchmarksOrTestDoubles(module: String) throws {
        let folder = Self.sources.appendingPathComponent(module)
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        #expect(!files.isEmpty)
        for file in files {
            let lowered = file.lowercased()
            #expect(!lowered.contains("bench") && !lowered.contains("standin"), "Sources/\(module)/\(file) belongs under Sources/diorama/Bench or Tests/")
        }
    }
}
