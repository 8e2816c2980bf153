import DioramaDocument
import DioramaMixer

/// Every sound a document names, decoded and converted ahead of playback, in the document's order.
///
/// A sound that fails to load is kept as silence (so indexes stay stable) and its error is
/// listed: `check` reports the errors, `play` and `render` warn once and carry on.
public struct SoundBank: Sendable {
    /// The mixer's sound list: one entry per document sound, silent where loading failed, in the document's order;
    /// then the takes of the sounds that vary in pitch (`take(_:of:)`).
    public let sounds: [MixerSound]
    /// The document's gain for each sound, by the same index.
    public let gains: [Double]
    /// Loading failures, in document order.
    public let errors: [SoundLoadError]
    public let sampleRate: Int
    private let indexByName: [String: Int]
    /// By document sound: the mixer index of each of its takes, in pitch order (`SoundVariation`); empty for a sound
    /// that does not vary in pitch (or whose takes could not be made: it plays as it is).
    private let takes: [[Int]]
    /// By document sound: how its firings vary, if they do.
    public let variations: [SoundVariation?]
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
        // The takes, after every document sound so that those keep their indexes. Made here, off the audio thread.
        var takes = [[Int]](repeating: [], count: document.sounds.count)
        for (index, definition) in document.sounds.enumerated() {
            guard let vary = definition.vary, vary.takeCount > 1, sounds[index].frameCount > 0,
                  !errors.contains(where: { $0.soundName == definition.name }) else { continue }
            var indexes: [Int] = []
            do {
                for take in 0..<vary.takeCount {
                    if take == vary.middleTake {
                        indexes.append(index)
                        continue
                    }
                    sounds.append(try SoundFile.take(of: sounds[index], semitones: vary.semitones(ofTake: take), path: definition.path))
                    indexes.append(sounds.count - 1)
                }
                takes[index] = indexes
            } catch {
                errors.append(error)
            }
        }
        self.takes = takes
        variations = document.sounds.map(\.vary)
        self.sounds = sounds
        self.gains = gains
        self.errors = errors
        self.sampleRate = sampleRate
        self.indexByName = indexByName
    }

    /// The mixer index of the sound called `name`, if the document defines it.
    public func index(of name: String) -> Int? { indexByName[name] }

    /// The mixer index of take `take` of document sound `sound` (`FiringVariation.take`): the sound itself when it
    /// has no takes.
    public func take(_ take: Int, of sound: Int) -> Int {
        takes.indices.contains(sound) && takes[sound].indices.contains(take) ? takes[sound][take] : sound
    }
}

private func join(_ directory: String, _ path: String) -> String {
    if directory.isEmpty || directory == "." { return path }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
}
