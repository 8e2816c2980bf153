import DioramaDocument
import DioramaMixer

/// Every sound a document names, decoded and converted ahead of playback, in the document's order.
///
/// A sound that fails to load is kept as silence (so indexes stay stable) and its error is
/// listed: `check` reports the errors, `play` and `render` warn once and carry on.
public struct SoundBank: Sendable {
    /// The mixer's sound list: one entry per document sound, silent where loading failed.
    public let sounds: [MixerSound]
    /// The document's gain for each sound, by the same index.
    public let gains: [Double]
    /// Loading failures, in document order.
    public let errors: [SoundLoadError]
    public let sampleRate: Int
    private let indexByName: [String: Int]
    /// The loudness of scene mixes made with these sounds (`PlaylistAudio.sceneLoudness`), kept with them.
    let mixMemory = SceneMixMemory()

    /// Loads the document's sounds, resolving each path against `directory` (the scenes file's
    /// folder) unless it is absolute.
    public init(document: Document, directory: String, sampleRate: Int = AudioFormat.sampleRate) {
        var sounds: [MixerSound] = []
        var gains: [Double] = []
        var errors: [SoundLoadError] = []
        var indexByName: [String: Int] = [:]
        for definition in document.sounds {
            let path = definition.path.hasPrefix("/") ? definition.path : join(directory, definition.path)
            do {
                sounds.append(try SoundFile.load(name: definition.name, path: path, sampleRate: sampleRate))
            } catch {
                errors.append(error)
                sounds.append(MixerSound(name: definition.name, interleavedStereo: []))
            }
            gains.append(definition.gain)
            indexByName[definition.name] = indexByName[definition.name] ?? (sounds.count - 1)
        }
        self.sounds = sounds
        self.gains = gains
        self.errors = errors
        self.sampleRate = sampleRate
        self.indexByName = indexByName
    }

    /// The mixer index of the sound called `name`, if the document defines it.
    public func index(of name: String) -> Int? { indexByName[name] }
}

private func join(_ directory: String, _ path: String) -> String {
    if directory.isEmpty || directory == "." { return path }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
}
