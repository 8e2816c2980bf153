import CSDL
import DioramaDocument
import DioramaTimeline
import Foundation
import Synchronization
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

extension WindowSuites {
    /// The saved language and the R key's reload, through a player in SDL's dummy video driver (the reloads of a
    /// changed file are `LiveReloadTests`).
    @Suite struct PlayerSettingsAndReloadTests {
        init() throws {
            try VideoSystem.start(driver: "dummy")
        }

        func title(_ h: PlayerHarness) -> String? {
            for node in h.player.frames.last?.snapshot.nodes ?? [] where node.id == "overlay.title" {
                if case .text(let text) = node.content { return text.text }
            }
            return nil
        }

        func savedLanguage(_ path: String) throws -> String? {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            return object?["language"] as? String
        }

        @Test func theChosenLanguageIsSavedAndRestoredAndLangOverridesItForOneRun() throws {
            let first = try PlayerHarness()
            try first.player.step()
            #expect(first.player.language == "en" && title(first) == "Ocean")
            #expect(!FileManager.default.fileExists(atPath: first.settingsPath), "nothing is written before a choice")
            first.key(SDLK_l)
            try first.player.step()
            #expect(first.player.language == "zh" && title(first) == "海洋")
            #expect(try savedLanguage(first.settingsPath) == "zh")

            let second = try PlayerHarness(settingsPath: first.settingsPath)
            try second.player.step()
            #expect(second.player.language == "zh" && title(second) == "海洋")

            let overridden = try PlayerHarness(language: "ja", settingsPath: first.settingsPath)
            try overridden.player.step()
            #expect(overridden.player.language == "ja" && title(overridden) == "海")
            #expect(try savedLanguage(first.settingsPath) == "zh", "--lang is for one run")
            overridden.key(SDLK_l)
            try overridden.player.step()
            #expect(overridden.player.language == "en")
            #expect(try savedLanguage(first.settingsPath) == "en", "a choice made with L is saved")
        }

        @Test func aCorruptSettingsFileIsReportedInOneLineAndReplacedOnlyByTheNextChoice() throws {
            let temporary = try TemporaryFolder()
            let path = temporary.path("diorama/settings.json")
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let corrupt = Data("{ \"language\": ".utf8)
            try corrupt.write(to: URL(fileURLWithPath: path))
            let h = try PlayerHarness(settingsPath: path)
            let notes = h.player.notes.filter { $0.contains("settings") }
            #expect(notes.count == 1)
            #expect(notes.first?.contains(path) == true && notes.first?.contains("\n") == false)
            #expect(h.player.language == "en")
            try h.advance(1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == corrupt, "never silently discarded")
            h.key(SDLK_l)
            try h.player.step()
            #expect(try savedLanguage(path) == "zh")
        }

        @Test func rReloadsAtOnce() throws {
            let temporary = try TemporaryFolder()
            let folder = temporary.url.path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/scenes.json"
            try Data(LiveReloadTests.scenesJSON().utf8).write(to: URL(fileURLWithPath: path))
            var loads = 0
            let h = try PlayerHarness(scenesPath: path) { path in
                loads += 1
                return PlaylistFiles.load(path: path)
            }
            try h.player.step()
            #expect(loads == 1)
            h.key(SDLK_r)
            try h.player.step()
            #expect(loads == 2)
        }

        @Test func aFileThatDoesNotLoadAtStartIsAnErrorWithItsDiagnostics() throws {
            let temporary = try TemporaryFolder()
            let folder = temporary.url.path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/scenes.json"
            try Data("{ \"canvas\": ".utf8).write(to: URL(fileURLWithPath: path))
            #expect {
                _ = try PlayerHarness(scenesPath: path, load: PlaylistFiles.load)
            } throws: { error in
                guard case .load(let failure) = error as? PlayerStartError else { return false }
                return failure.lines.first?.hasPrefix("\(path):1:") == true
            }
        }
    }
}
