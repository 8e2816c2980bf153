import DioramaDocument
import DioramaMixer

/// Every sound a document names, decoded and converted ahead of playback, in the document's order.
///
/// A sound that fails to load is kept as silence (so indexes stay stable) and its error is
/// listed: `check` reports the errors, `play` and `render` warn once and carry on.
public struct SoundBank: Sendable {
    /// The mixer's sound list: one entry per document sound, silent where loading failed, in the document's order;
    /// then the copies that play them at other pitches: the takes of the sounds that vary in pitch, and the pitches
    /// cues ask for (`index(of:pitch:take:)`).
    public let sounds: [MixerSound]
    /// The document's gain for each sound, by the same index.
    public let gains: [Double]
    /// Loading failures, in document order.
    public let errors: [SoundLoadError]
    public let sampleRate: Int
    private let indexByName: [String: Int]
    /// By document sound and a cue's pitch: the mixer index of each take, in pitch order (`SoundVariation`), or of the one
    /// copy at that pitch for a sound that does not vary in pitch. Absent for a sound played as it is (pitch 0 without
    /// takes), and where a copy could not be made: it then plays as it is.
    private let copies: [PitchedSound: [Int]]
    /// By document sound: how its firings vary, if they do.
    public let variations: [SoundVariation?]
    /// The loudness of scene mixes made with these sounds (`PlaylistAudio.sceneLoudness`), kept with them.
    let mixMemory = SceneMixMemory()

    private struct PitchedSound: Hashable {
        var sound: Int
        var pitch: Double
    }

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
                sounds.append(try SoundFile.load(name: definition.name, path: path, bytes: definition.embedded, sampleRate: sampleRate))
            } catch {
                errors.append(error)
                sounds.append(MixerSound(name: definition.name, interleavedStereo: []))
            }
            gains.append(definition.gain)
            indexByName[definition.name] = indexByName[definition.name] ?? (sounds.count - 1)
        }
        // The copies at other pitches, after every document sound so that those keep their indexes; each resampled
        // once from the file's samples, here, off the audio thread.
        var copies: [PitchedSound: [Int]] = [:]
        let cuePitches = Self.pitches(in: document)
        for (index, definition) in document.sounds.enumerated() {
            guard sounds[index].frameCount > 0, !errors.contains(where: { $0.soundName == definition.name }) else { continue }
            let takeCount = definition.vary?.takeCount ?? 1
            let pitches = (takeCount > 1 ? [0] : []) + (cuePitches[definition.name] ?? [])
            for pitch in pitches {
                var indexes: [Int] = []
                do {
                    for take in 0..<takeCount {
                        let semitones = pitch + (definition.vary?.semitones(ofTake: take) ?? 0)
                        if semitones == 0 {
                            indexes.append(index)
                            continue
                        }
                        sounds.append(try SoundFile.take(of: sounds[index], semitones: semitones, path: definition.path, sampleRate: sampleRate))
                        indexes.append(sounds.count - 1)
                    }
                    copies[PitchedSound(sound: index, pitch: pitch)] = indexes
                } catch {
                    errors.append(error)
                }
            }
        }
        self.copies = copies
        variations = document.sounds.map(\.vary)
        self.sounds = sounds
        self.gains = gains
        self.errors = errors
        self.sampleRate = sampleRate
        self.indexByName = indexByName
    }

    /// The pitches other than 0 the cues of `document` play each sound at, by sound name, each once, in ascending order:
    /// the copies a bank of the document holds besides the files (and their takes).
    public static func pitches(in document: Document) -> [String: [Double]] {
        var pitches: [String: Set<Double>] = [:]
        for scene in document.scenes {
            for cue in scene.cues where !cue.isStop && cue.pitch != 0 {
                for sound in cue.sounds { pitches[sound, default: []].insert(cue.pitch) }
            }
        }
        return pitches.mapValues { $0.sorted() }
    }

    /// The mixer index of the sound called `name`, if the document defines it.
    public func index(of name: String) -> Int? { indexByName[name] }

    /// The mixer index that plays document sound `sound` `pitch` semitones from its file (a cue's pitch), as take `take`
    /// of its variation (`FiringVariation.take`) when it varies in pitch: the sound itself where it has no such copy.
    public func index(of sound: Int, pitch: Double = 0, take: Int? = nil) -> Int {
        guard let indexes = copies[PitchedSound(sound: sound, pitch: pitch)] else { return sound }
        if indexes.count == 1 { return indexes[0] }
        return take.flatMap { indexes.indices.contains($0) ? indexes[$0] : nil } ?? indexes[indexes.count / 2]
    }
}

private func join(_ directory: String, _ path: String) -> String {
    if directory.isEmpty || directory == "." { return path }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
}
