import Foundation
import Testing

@testable import DioramaDocument

/// Every file in Corpus/ is decoded and must produce exactly the diagnostics in its `.expected` file:
/// the same messages, lines, columns, paths and hints. `bad-*` files must fail to load; `warn-*` files
/// must load, with exactly those warnings.
@Suite struct CorpusTests {
    static let directory: URL = Bundle.module.url(forResource: "Corpus", withExtension: nil)!

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test func corpusHoldsAtLeastThirtyBadFilesEachWithItsExpectedOutput() throws {
        let bad = Self.files.filter { $0.hasPrefix("bad-") }
        #expect(bad.count >= 30)
        for name in Self.files {
            let expected = Self.directory.appendingPathComponent(name.replacingOccurrences(of: ".json", with: ".expected"))
            #expect(FileManager.default.fileExists(atPath: expected.path), "\(name) has no .expected file")
        }
    }

    @Test(arguments: files)
    func fileProducesExactlyItsExpectedDiagnostics(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name)))
        let expectedURL = Self.directory.appendingPathComponent(name.replacingOccurrences(of: ".json", with: ".expected"))
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        let rendered: String
        if name.hasPrefix("warn-") {
            let loaded = try DocumentLoader.decode(bytes: bytes, path: name)
            #expect(!loaded.warnings.isEmpty)
            rendered = loaded.warnings.map(\.description).joined(separator: "\n")
        } else {
            do {
                _ = try DocumentLoader.decode(bytes: bytes, path: name)
                Issue.record("\(name) loaded, but it must fail")
                return
            } catch {
                #expect(error.diagnostics.contains { $0.severity == .error })
                rendered = error.diagnostics.map(\.description).joined(separator: "\n")
            }
        }
        #expect(rendered + "\n" == expected)
    }
}
