import DioramaDocument
import DioramaTestSupport
import Foundation
import Testing

/// What a message suggests for a name that does not exist: the nearest one, what exists when it is little, no guess
/// among equals; for a missing file, the files beside it and the folder that is not there.
@Suite struct SuggestionTests {
    @Test func aTypoIsSuggestedAndAShortListFollows() {
        #expect(Suggestion.hint(for: "impcat", among: ["fall", "impact"], listing: "its markers are")
                == #"did you mean "impact"? its markers are "fall" and "impact""#)
        #expect(Suggestion.hint(for: "x", among: ["impact"], listing: "its markers are") == #"its markers are "impact""#)
        #expect(Suggestion.hint(for: "x", among: [], listing: "its markers are") == nil)
    }

    @Test func amongEquallyNearNamesNoneIsGuessed() {
        // `n8` is one edit from each of n0...n7: naming one of them would mislead; the list says what there is.
        let names = (0..<8).map { "n\($0)" }
        #expect(Suggestion.hint(for: "n8", among: names, listing: "its markers are")
                == #"its markers are "n0", "n1", "n2", "n3", "n4", "n5", "n6", and "n7""#)
    }

    @Test func aLongListIsCutWithHowManyMore() {
        let names = (0..<20).map { "part\($0)" }
        #expect(Suggestion.hint(for: "x", among: names, listing: "its elements are")
                == #"its elements are "part0", "part1", "part2", "part3", "part4", "part5", "part6", "part7", "part8", "part9", "part10", "part11", and 8 more"#)
        #expect(Suggestion.hint(for: "part19x", among: names, listing: "its elements are") == #"did you mean "part19"?"#)
        // Among many, equally near ones are offered together.
        #expect(Suggestion.hint(for: "part20", among: names, listing: "its elements are") == #"did you mean one of "part0", "part2", or "part10"?"#)
    }

    @Test func aMissingFileSuggestsTheFilesBesideIt() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("media/art"), withIntermediateDirectories: true)
        for name in ["media/bell.flac", "media/click.flac", "media/art/drum.json", "media/art/comb.svg", "media/.hidden.flac"] {
            try Data().write(to: folder.url.appendingPathComponent(name))
        }
        func hint(_ written: String) -> String { Suggestion.missingFileHint(written: written, resolved: folder.path(written)) }
        #expect(hint("media/bel.flac") == #"did you mean "media/bell.flac"? the folder "media" holds "bell.flac" and "click.flac""#)
        // Another extension: the file of the same name, then every file of the folder.
        #expect(hint("media/art/drum.lottie") == #"did you mean "media/art/drum.json"? the folder "media/art" holds "comb.svg" and "drum.json""#)
        #expect(hint("media/gong.flac") == #"the folder "media" holds "bell.flac" and "click.flac""#)
        #expect(hint("medai/bell.flac") == #"there is no folder "medai": did you mean "media/bell.flac"?"#)
        #expect(hint("sounds/bell.flac") == #"there is no folder "sounds"; paths are relative to the folder of the scenes file"#)
        #expect(hint("bell.flac") == "the scenes file's folder has no files; paths are relative to the folder of the scenes file")
    }

    @Test func aMissingSoundIsReportedWithTheSoundsBesideIt() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("media"), withIntermediateDirectories: true)
        try Data().write(to: folder.url.appendingPathComponent("media/tine.flac"))
        let json = """
            { "canvas": { "width": 100, "height": 100 },
              "sounds": { "tine": "media/tines.flac" },
              "scenes": [{ "id": "box", "duration": 2, "cues": [{ "sound": "tine", "at": 1 }] }] }
            """
        try Data(json.utf8).write(to: folder.url.appendingPathComponent("scenes.json"))
        let loaded = try DocumentLoader.load(path: folder.path("scenes.json"))
        #expect(DocumentLoader.mediaFileDiagnostics(for: loaded).map { "\($0.line):\($0.column): \($0.message)\n  hint: \($0.hint ?? "")" } == [
            """
            2:23: the sound "tine" file "media/tines.flac" does not exist
              hint: did you mean "media/tine.flac"? the folder "media" holds "tine.flac"
            """,
        ])
    }
}
