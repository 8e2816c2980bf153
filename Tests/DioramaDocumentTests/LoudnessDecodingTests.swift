import DioramaTestSupport
import Foundation
import Testing

@testable import DioramaDocument

/// The playlist's `"loudness"` target: read as LUFS, absent by default, refused outside -40 ... -14 LUFS with its place.
@Suite struct LoudnessDecodingTests {
    static func document(_ loudness: String?) -> String {
        """
        { \(loudness.map { "\"loudness\": \($0)," } ?? "")
          "canvas": { "width": 100, "height": 100 },
          "scenes": [{ "id": "night", "duration": 4 }] }
        """
    }

    @Test func aTargetIsReadInLUFS() throws {
        let loaded = try DocumentFixtures.decode(Self.document("-23"))
        #expect(loaded.document.loudness == -23)
        #expect(loaded.warnings.isEmpty)
        #expect(try DocumentFixtures.decode(Self.document("-16.5")).document.loudness == -16.5)
    }

    @Test func withoutOneEveryScenePlaysAsMixed() throws {
        #expect(try DocumentFixtures.decode(Self.document(nil)).document.loudness == nil)
    }

    @Test(arguments: [("-5", "-5"), ("-41", "-41"), ("0", "0")])
    func aTargetOutsideTheRangeIsAnErrorAtItsValue(written: String, shown: String) {
        let lines = DocumentFixtures.renderedDiagnostics(Self.document(written))
        #expect(lines == [
            "scenes.json:1:15: error: the loudness target (LUFS) must be between -40 and -14, not \(shown) (at loudness)\n"
                + "  hint: -23 is EBU R128's broadcast level; -16 suits small speakers",
        ], "\(lines)")
    }

    @Test func aTargetThatIsNotANumberIsAnError() {
        let lines = DocumentFixtures.renderedDiagnostics(Self.document("\"-23 LUFS\""))
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("scenes.json:1:15: error:") == true, "\(lines)")
        #expect(lines.first?.contains("a number (LUFS)") == true, "\(lines)")
    }

    @Test func theShippedPlaylistAsksForMinus23LUFS() throws {
        let loaded = try DocumentLoader.load(path: DocumentationTests.root.appendingPathComponent("scenes.json").path)
        #expect(loaded.document.loudness == -23)
    }
}
