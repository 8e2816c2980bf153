import DioramaTestSupport
import Foundation
import Testing

@testable import DioramaDocument

/// A cue's `pitch` and the set of sounds it picks from: decoded, bounded, and every mistake located with a hint.
@Suite struct CuePitchDecodingTests {
    /// One scene whose second line is the cue.
    static func file(cue: String) -> String {
        """
        { "canvas": { "width": 100, "height": 100 }, "sounds": { "tine": "tine.wav", "tine-b": "tine-b.wav" }, "scenes": [{ "id": "box", "duration": 4, "cues": [
        \(cue)
        ] }] }
        """
    }

    static func cue(_ json: String) throws -> Cue {
        let loaded = try DocumentFixtures.decode(file(cue: json))
        #expect(loaded.warnings.allSatisfy { $0.message.contains("is never used") }, "\(loaded.warnings)")
        return try #require(loaded.document.scenes.first?.cues.first)
    }

    @Test func aPitchAndASetDecode() throws {
        let plain = try Self.cue(#"{ "sound": "tine", "at": 1 }"#)
        #expect(plain.pitch == 0 && plain.sounds == ["tine"] && plain.sound == "tine")
        #expect(try Self.cue(#"{ "sound": "tine", "at": 1, "pitch": 7 }"#).pitch == 7)
        #expect(try Self.cue(#"{ "sound": "tine", "at": 1, "pitch": -24 }"#).pitch == -24)
        #expect(try Self.cue(#"{ "sound": "tine", "at": 1, "pitch": 0.5 }"#).pitch == 0.5)
        let picked = try Self.cue(#"{ "sound": ["tine", "tine-b", "tine"], "at": 1, "pitch": 12 }"#)
        #expect(picked.sounds == ["tine", "tine-b", "tine"] && picked.sound == "tine" && picked.pitch == 12)
        // A pitch of 0 is the cue as it was without one.
        #expect(try Self.cue(#"{ "sound": "tine", "at": 1, "pitch": 0 }"#) == plain)
    }

    /// Each mistake: its message, located at the value (line 2 of `file`) with its JSON path, and a hint.
    @Test(arguments: [
        (#"{ "sound": "tine", "at": 1, "pitch": 25 }"#,
         "scenes.json:2:38: error: \"pitch\" must be between -24 and 24, not 25 (at scenes[0].cues[0].pitch)\n"
            + "  hint: semitones from the sound's own pitch: 12 is an octave up, -12 an octave down, 7 a fifth up"),
        (#"{ "sound": "tine", "at": 1, "pitch": "up" }"#,
         "scenes.json:2:38: error: \"pitch\" must be a number (semitones), not a string (at scenes[0].cues[0].pitch)"),
        (#"{ "sound": [], "at": 1 }"#,
         "scenes.json:2:12: error: \"sound\" lists no sounds (at scenes[0].cues[0].sound)\n"
            + "  hint: name one sound, or several for each firing to pick one: \"sound\": [\"tine-a\", \"tine-b\"]"),
        (#"{ "sound": ["tine", "tine-c"], "at": 1 }"#,
         "scenes.json:2:21: error: no sound named \"tine-c\" in \"sounds\" (at scenes[0].cues[0].sound[1])\n"
            + "  hint: did you mean \"tine-b\"?"),
        (#"{ "sound": ["tine", 3], "at": 1 }"#,
         "scenes.json:2:21: error: a sound to pick must be a string, not a number (at scenes[0].cues[0].sound[1])"),
        (#"{ "sound": 3, "at": 1 }"#,
         "scenes.json:2:12: error: \"sound\" must be a sound's name or an array of names, not a number (at scenes[0].cues[0].sound)\n"
            + "  hint: \"sound\": \"bell\", or \"sound\": [\"tine-a\", \"tine-b\"] for each firing to pick one"),
        (#"{ "sound": "tine", "at": 1, "rate": 2 }"#,
         "scenes.json:2:29: error: unknown key \"rate\" in a cue (at scenes[0].cues[0].rate)\n"
            + "  hint: a sound's playback rate is its \"pitch\" here, in semitones: 12 plays it at twice the rate, -12 at half"),
        (#"{ "stop": "x", "at": 1, "pitch": 2 }"#,
         "scenes.json:2:25: error: \"pitch\" does not apply to a stop cue (at scenes[0].cues[0].pitch)\n"
            + "  hint: \"pitch\" is a key of cues that play a sound"),
    ])
    func aMistakeIsLocatedWithAHint(cue: String, expected: String) {
        let diagnostics = DocumentFixtures.renderedDiagnostics(Self.file(cue: cue))
        // A stop cue naming no cue is also reported; every other mistake is the only one.
        #expect(diagnostics.first == expected || diagnostics.last == expected, "\(diagnostics)")
    }

    @Test func aSoundPlaysAtABoundedNumberOfPitches() {
        let pitches = (1...Cue.maximumPitchesPerSound).map { #"{ "sound": ["tine", "tine-b"], "at": 1, "pitch": \#(Double($0) / 2) }"# }
        // The same pitch again, and pitches of another sound, cost nothing more.
        let fine = (pitches + [#"{ "sound": "tine", "at": 2, "pitch": 0.5 }"#, #"{ "sound": "tine", "at": 2, "pitch": 0 }"#])
            .joined(separator: ",\n")
        #expect(DocumentFixtures.renderedDiagnostics(Self.file(cue: fine)).isEmpty)
        let over = (pitches + [#"{ "sound": "tine-b", "at": 2, "pitch": -1 }"#]).joined(separator: ",\n")
        let diagnostics = DocumentFixtures.renderedDiagnostics(Self.file(cue: over))
        #expect(diagnostics == [
            "scenes.json:26:40: error: the sound \"tine-b\" is played at 24 pitches besides its own already, the most one sound may be (at scenes[0].cues[24].pitch)\n"
                + "  hint: play it at one of those (0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 10, 10.5, 11, 11.5, or 12), "
                + "or round the pitches to whole semitones",
        ], "\(diagnostics)")
    }
}
