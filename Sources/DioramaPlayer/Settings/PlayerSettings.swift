import DioramaDocument
import Foundation

/// The player's saved preferences: `settings.json` in the user's configuration directory.
public struct PlayerSettings: Sendable, Equatable {
    /// The language chosen with `L`, as a code the scenes file offers (`"en"`, `"zh"`, `"ja"`).
    public var language: String?

    public init(language: String? = nil) {
        self.language = language
    }
}

/// Why the settings could not be used or saved.
public struct SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// Reads and writes `PlayerSettings` at one path. Writes are atomic (a temporary file renamed over
/// the old one), and keys this version does not know are kept.
public struct SettingsStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_CONFIG_HOME/diorama/settings.json`, else `$HOME/.config/diorama/settings.json`
    /// (an empty or relative XDG_CONFIG_HOME is ignored, as the XDG spec asks).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/diorama/settings.json"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/diorama/settings.json"
    }

    public enum LoadResult: Sendable, Equatable {
        /// No file yet: defaults apply.
        case missing
        case loaded(PlayerSettings)
        /// The file exists but cannot be used; it is left untouched until the user's next choice.
        case corrupt(SettingsError)
    }

    public func load() -> LoadResult {
        guard FileManager.default.fileExists(atPath: path) else { return .missing }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .corrupt(SettingsError(path: path, reason: "cannot be read"))
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            return .corrupt(SettingsError(path: path, reason: "is not valid JSON"))
        }
        guard let dictionary = object as? [String: Any] else {
            return .corrupt(SettingsError(path: path, reason: "is not a JSON object"))
        }
        switch dictionary["language"] {
        case nil, is NSNull:
            return .loaded(PlayerSettings())
        case let language as String:
            return .loaded(PlayerSettings(language: language))
        default:
            return .corrupt(SettingsError(path: path, reason: "\"language\" is not a string"))
        }
    }

    /// Saves `settings`, keeping other keys of a valid existing file; a corrupt one is replaced.
    public func save(_ settings: PlayerSettings) throws(SettingsError) {
        var dictionary: [String: Any] = [:]
        if let data = FileManager.default.contents(atPath: path),
           let existing = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            dictionary = existing
        }
        dictionary["language"] = settings.language ?? NSNull()
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = directory + "/.settings.json.\(ProcessInfo.processInfo.processIdentifier).tmp"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var data = try JSONSerialization.data(withJSONObject: dictionary, options: [.prettyPrinted, .sortedKeys])
            data.append(0x0A)
            try data.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw SettingsError(path: path, reason: "cannot be replaced: \(reason)")
            }
        } catch let error as SettingsError {
            throw error
        } catch {
            unlink(temporary)
            throw SettingsError(path: path, reason: "cannot be written: \(error.localizedDescription)")
        }
    }
}

/// Which language the player shows, and `L`'s cycling through the ones the file offers.
public enum LanguageChoice {
    /// The language to start with: `--lang` when given, else the saved choice when the file offers it,
    /// else the file's default.
    public static func initial(languages: Languages, override: String?, saved: String?) -> String {
        if let override { return override }
        if let saved, languages.available.contains(saved) { return saved }
        return languages.defaultLanguage
    }

    /// The language after `current` in the file's list, wrapping around.
    public static func next(after current: String, in languages: Languages) -> String {
        let available = languages.available.isEmpty ? [languages.defaultLanguage] : languages.available
        guard let index = available.firstIndex(of: current) else { return available[0] }
        return available[(index + 1) % available.count]
    }

    /// A language's own name for the toast shown when it is chosen.
    public static func displayName(_ code: String) -> String {
        let names = ["en": "English", "zh": "中文", "ja": "日本語", "fr": "Français", "de": "Deutsch", "es": "Español",
                     "ko": "한국어", "it": "Italiano", "pt": "Português", "ru": "Русский"]
        return names[code] ?? code
    }
}
