import DioramaTestSupport
import Foundation
import Testing

@testable import DioramaDocument

/// A sound's `vary`: decoded with its defaults, refused out of range or with an unknown key, and its takes' pitches.
@Suite struct SoundVariationDecodingTests {
    static func file(bell: String) -> String {
        """
        { "canvas": { "width": 100, "height": 100 },
          "sounds": { "bell": \(bell) },
          "scenes": [{ "id": "sea", "duration": 4, "cues": [{ "sound": "bell", "at": 1 }] }] }
        """
    }

    static func bell(_ json: String) throws -> SoundDefinition {
        let loaded = try DocumentFixtures.decode(file(bell: json))
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        return try #require(loaded.document.sounds.first)
    }

    @Test func aVariationDecodesWithItsDefaults() throws {
        #expect(try Self.bell(#""media/bell.flac""#).vary == nil)
        #expect(try Self.bell(#"{ "path": "media/bell.flac" }"#).vary == nil)
        #expect(try Self.bell(#"{ "path": "media/bell.flac", "vary": { "gain": 3, "pitch": 0.5 } }"#).vary
            == SoundVariation(gainDecibels: 3, pitchSemitones: 0.5))
        #expect(try Self.bell(#"{ "path": "media/bell.flac", "vary": { "gain": 2 } }"#).vary == SoundVariation(gainDecibels: 2))
        #expect(try Self.bell(#"{ "path": "media/bell.flac", "vary": { "pitch": 1 } }"#).vary == SoundVariation(pitchSemitones: 1))
    }

    @Test func takesSpreadEvenlyOverThePitchRangeWithTheFileInTheMiddle() {
        let vary = SoundVariation(gainDecibels: 0, pitchSemitones: 0.6)
        #expect(vary.takeCount == 7 && vary.middleTake == 3)
        let pitches = (0..<7).map { vary.semitones(ofTake: $0) }
        for (pitch, expected) in zip(pitches, [-0.6, -0.4, -0.2, 0, 0.2, 0.4, 0.6]) { #expect(abs(pitch - expected) < 1e-12) }
        #expect(vary.semitones(ofTake: 3) == 0)
        // Without a pitch range, one take: the file.
        let gainOnly = SoundVariation(gainDecibels: 3)
        #expect(gainOnly.takeCount == 1 && gainOnly.middleTake == 0 && gainOnly.semitones(ofTake: 0) == 0)
    }

    @Test(arguments: [
        (#"{ "gain": 30 }"#, "gain"), (#"{ "pitch": -1 }"#, "pitch"), (#"{ "pitch": 13 }"#, "pitch"),
        (#"{ "gain": "loud" }"#, "gain"), (#"{ "speed": 2 }"#, "speed"), (#"3"#, "vary"),
    ])
    func aBadVariationIsAnErrorAtItsKey(vary: String, key: String) {
        let diagnostics = DocumentFixtures.renderedDiagnostics(Self.file(bell: #"{ "path": "media/bell.flac", "vary": \#(vary) }"#))
        #expect(diagnostics.count == 1, "\(diagnostics)")
        #expect(diagnostics.first?.contains("error:") ?? false, "\(diagnostics)")
        #expect(diagnostics.first?.contains(key) ?? false, "\(diagnostics)")
    }
}
