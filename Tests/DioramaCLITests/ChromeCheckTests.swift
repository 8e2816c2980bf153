import DioramaTestSupport
import Foundation
import Testing

/// `languages.chrome` strings the player would ignore: a key that is no English string of the chrome (a typo left the
/// chrome in English there, silently), and a translation that drops the number or reason its string fills in.
@Suite struct ChromeCheckTests {
    @Test func checkWarnsAtAnUnknownStringWithTheNearestAndAtADroppedPlaceholder() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("scenes.json")
        let json = """
            { "canvas": { "width": 64, "height": 36 },
              "languages": { "available": ["en", "fr"],
                "chrome": { "fr": { "Mutd": "Son coupé", "Volume {n} %": "Volume", "quit": "quitter",
                                    "cannot save the language: {reason}": "langue non enregistrée : {reason}" } } },
              "scenes": [{ "id": "a", "duration": 1 }] }
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let result = try DioramaCommand.run(["check", file])
        #expect(result.status == 0, "warnings only: \(result.standardError)")
        #expect(result.standardError.contains(
            "scenes.json:3:25: warning: the player's chrome has no English string \"Mutd\" to translate, so this is never shown (at languages.chrome.fr.Mutd)"),
                "\(result.standardError)")
        #expect(result.standardError.contains("hint: did you mean \"Muted\"?"))
        #expect(result.standardError.contains(
            "warning: the translation of \"Volume {n} %\" leaves out {n}, so the player's number is not shown (at languages.chrome.fr[\"Volume {n} %\"])"),
                "\(result.standardError)")
        #expect(result.standardError.components(separatedBy: "warning:").count == 3, "two warnings: \(result.standardError)")
    }
}
