import DioramaDocument
import DioramaTestSupport
import Foundation
@testable import DioramaPlayer
import Testing

@Suite struct SettingsTests {
    let temporary: TemporaryFolder
    init() throws { temporary = try TemporaryFolder() }

    /// A fresh folder inside the test's temporary folder.
    func folder() throws -> String {
        let path = temporary.path(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func thePathFollowsXDGConfigHomeElseHome() {
        #expect(SettingsStore.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/a"]) == "/x/config/diorama/settings.json")
        #expect(SettingsStore.defaultPath(environment: ["HOME": "/home/a"]) == "/home/a/.config/diorama/settings.json")
        #expect(SettingsStore.defaultPath(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/a"]) == "/home/a/.config/diorama/settings.json")
        #expect(SettingsStore.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"]) == "/home/a/.config/diorama/settings.json")
    }

    @Test func aSavedLanguageIsRestoredAndOtherKeysAreKept() throws {
        let directory = try folder()
        let path = directory + "/diorama/settings.json"
        let store = SettingsStore(path: path)
        #expect(store.load() == .missing)
        try store.save(PlayerSettings(language: "ja"))
        #expect(store.load() == .loaded(PlayerSettings(language: "ja")))
        try Data(#"{"language": "ja", "volume": 0.5}"#.utf8).write(to: URL(fileURLWithPath: path))
        try store.save(PlayerSettings(language: "zh"))
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        #expect(object?["language"] as? String == "zh")
        #expect(object?["volume"] as? Double == 0.5)
        // Written through a temporary file that does not stay behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/diorama") == ["settings.json"])
    }

    @Test func aCorruptFileIsReportedAndLeftAloneUntilTheNextChoice() throws {
        let path = try folder() + "/settings.json"
        let corrupt = Data("{\"language\": \"ja\"".utf8)
        try corrupt.write(to: URL(fileURLWithPath: path))
        let store = SettingsStore(path: path)
        guard case .corrupt(let error) = store.load() else {
            Issue.record("a truncated file is corrupt")
            return
        }
        #expect(error.reason == "is not valid JSON")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == corrupt, "loading never rewrites it")
        try Data(#"{"language": 3}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(store.load() == .corrupt(SettingsError(path: path, reason: "\"language\" is not a string")))
        try Data("[1]".utf8).write(to: URL(fileURLWithPath: path))
        #expect(store.load() == .corrupt(SettingsError(path: path, reason: "is not a JSON object")))
        try store.save(PlayerSettings(language: "en"))
        #expect(store.load() == .loaded(PlayerSettings(language: "en")))
    }

    @Test func anUnwritableFolderIsAClearError() throws {
        let store = SettingsStore(path: "/proc/diorama/settings.json")
        #expect(throws: SettingsError.self) { try store.save(PlayerSettings(language: "en")) }
    }

    @Test func theLanguageComesFromTheOverrideThenTheSavedChoiceThenTheFilesDefault() {
        let languages = Languages(defaultLanguage: "en", fallback: "en", available: ["en", "zh", "ja"])
        #expect(LanguageChoice.initial(languages: languages, override: "ja", saved: "zh") == "ja")
        #expect(LanguageChoice.initial(languages: languages, override: nil, saved: "zh") == "zh")
        #expect(LanguageChoice.initial(languages: languages, override: nil, saved: "fr") == "en")
        #expect(LanguageChoice.initial(languages: languages, override: nil, saved: nil) == "en")
        #expect(LanguageChoice.next(after: "en", in: languages) == "zh")
        #expect(LanguageChoice.next(after: "ja", in: languages) == "en")
        #expect(LanguageChoice.next(after: "fr", in: languages) == "en")
    }
}
