/// Why a sound could not be loaded: which sound, which file, and the reason (libsndfile's own
/// words when it was libsndfile that refused).
public struct SoundLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sound's name in scenes.json (or the file name when loaded directly).
    public var soundName: String
    /// The file path as given.
    public var path: String
    /// What went wrong.
    public var reason: String
    /// What to do about it.
    public var hint: String

    public init(soundName: String, path: String, reason: String, hint: String) {
        self.soundName = soundName
        self.path = path
        self.reason = reason
        self.hint = hint
    }

    public var description: String {
        "sound '\(soundName)' (\(path)): \(reason). Hint: \(hint)"
    }

    static func unreadable(_ name: String, _ path: String, _ reason: String) -> Self {
        Self(soundName: name, path: path, reason: reason,
             hint: "check that the file exists and is a WAV, FLAC or OGG/Vorbis file (`sox FILE -n stats` shows what it holds)")
    }
}
