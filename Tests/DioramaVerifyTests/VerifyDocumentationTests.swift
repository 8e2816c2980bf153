import DioramaDocument
import DioramaTestSupport
@testable import DioramaVerify
import Foundation
import Testing

/// The expectations shown in docs/VERIFY.md and docs/COMPOSING.md decode for the tutorial's file (step 4 of
/// COMPOSING.md), and the keys VERIFY.md's tables list are the keys the reader accepts.
@Suite struct VerifyDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The ```json blocks after a line `<!-- MARKER`, each with its line number.
    static func blocks(in path: String, after marker: String) throws -> [(line: Int, text: String)] {
        let lines = try read(path).components(separatedBy: "\n")
        var found: [(Int, String)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("```json") {
            var previous = index - 1
            while previous >= 0, lines[previous].isEmpty { previous -= 1 }
            guard previous >= 0, lines[previous].hasPrefix("<!-- " + marker) else { continue }
            let body = lines[(index + 1)...].prefix { !$0.hasPrefix("```") }
            found.append((index + 1, body.joined(separator: "\n")))
        }
        return found
    }

    /// The tutorial's file of COMPOSING.md step 4 (the one with the bell cue).
    static func tutorial() throws -> Document {
        let composing = try read("docs/COMPOSING.md")
        let step = try #require(composing.range(of: "## 4. A sound on the keyframe"))
        let rest = composing[step.upperBound...]
        let open = try #require(rest.range(of: "```json\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        let text = String(rest[open.upperBound..<close.lowerBound])
        return try DocumentLoader.decode(bytes: Array(text.utf8), path: root.appendingPathComponent("tutorial.json").path).document
    }

    @Test(arguments: ["docs/VERIFY.md", "docs/COMPOSING.md"])
    func examplesDecode(_ path: String) throws {
        let document = try Self.tutorial()
        let blocks = try Self.blocks(in: path, after: "expectations: tutorial.json")
        #expect(!blocks.isEmpty, "no expectations example in \(path)")
        for block in blocks {
            do {
                let expectations = try Expectations.decode(bytes: Array(block.text.utf8), path: "tutorial.verify.json", for: document)
                #expect(!expectations.items.isEmpty)
            } catch {
                Issue.record("\(path) line \(block.line): \(error.diagnostics.map(\.description).joined(separator: "\n"))")
            }
        }
    }

    @Test func theTablesListTheKeysOfEachKind() throws {
        let text = try Self.read("docs/VERIFY.md")
        func keys(under heading: String) throws -> [String] {
            let start = try #require(text.range(of: heading))
            let section = text[start.upperBound...].prefix { _ in true }
            let end = section.range(of: "\n### ")?.lowerBound ?? section.endIndex
            return section[..<end].split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { row in
                row.split(separator: "`").dropFirst().first.map(String.init)
            }
        }
        #expect(try keys(under: "### The file") == Expectations.fileKeys)
        #expect(try keys(under: "### A value") == Expectations.valueKeys)
        #expect(try keys(under: "### A frame") == Expectations.frameKeys)
        #expect(try keys(under: "### A count") == Expectations.countKeys)
        #expect(try keys(under: "### A text") == Expectations.textKeys)
        #expect(try keys(under: "### A Lottie frame") == Expectations.lottieFrameKeys)
        #expect(try keys(under: "### A level") == Expectations.levelKeys)
    }

    @Test func theShippedExpectationsDecode() throws {
        let loaded = try DocumentLoader.load(path: Self.root.appendingPathComponent("scenes.json").path)
        let expectations = try Expectations.load(path: Self.root.appendingPathComponent("scenes.verify.json").path, for: loaded.document)
        #expect(expectations.items.count >= 5)
    }
}
