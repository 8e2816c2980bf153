import DioramaDocument

/// Documents for the player's tests: three short scenes with distinct solid backgrounds, localized
/// titles, an ambience bed and timed cues, built in Swift (no parser involved).
public enum PlayerFixtures {
    /// The backgrounds of the three scenes, distinct in every channel so pixels tell them apart.
    public static let backgrounds: [Color] = [
        Color(red: 0.1, green: 0.3, blue: 0.6),
        Color(red: 0.7, green: 0.4, blue: 0.1),
        Color(red: 0.2, green: 0.6, blue: 0.3),
    ]

    /// Scenes `ocean`, `swing`, `flower` lasting `durations` seconds. Ocean has the `surf` bed and `bell`
    /// cues at 1 s and 2.5 s; swing a `creak` cue at 1 s; flower a `chime` at 0.5 s.
    public static func story(durations: [Int] = [4, 3, 5], canvas: Size = Size(width: 640, height: 360)) -> Document {
        let titles = [
            LocalizedString([("en", "Ocean"), ("zh", "海洋"), ("ja", "海")]),
            LocalizedString([("en", "Swing"), ("zh", "秋千"), ("ja", "ブランコ")]),
            LocalizedString([("en", "Flower"), ("zh", "花"), ("ja", "花")]),
        ]
        let ids = ["ocean", "swing", "flower"]
        let cues: [[Cue]] = [
            [Cue(sound: "bell", trigger: .at(Rational(1))), Cue(sound: "bell", trigger: .at(Rational(5, 2)), gain: 0.5, pan: -0.5)],
            [Cue(sound: "creak", trigger: .at(Rational(1)))],
            [Cue(sound: "chime", trigger: .at(Rational(1, 2)))],
        ]
        let ambience: [[Ambience]] = [[Ambience(sound: "surf", gain: 0.8, fadeIn: 0.5, fadeOut: 0.25)], [], []]
        let scenes = durations.prefix(3).enumerated().map { index, seconds in
            Scene(id: ids[index], title: titles[index], duration: Rational(seconds), background: .solid(backgrounds[index]),
                  ambience: ambience[index], cues: cues[index])
        }
        return Document(
            canvas: Canvas(width: canvas.width, height: canvas.height, background: .solid(.black)),
            languages: Languages(defaultLanguage: "en", fallback: "en", available: ["en", "zh", "ja"]),
            sounds: [SoundDefinition(name: "bell", path: "bell.wav"), SoundDefinition(name: "chime", path: "chime.wav"),
                     SoundDefinition(name: "creak", path: "creak.wav"), SoundDefinition(name: "surf", path: "surf.wav", gain: 0.5)],
            scenes: Array(scenes))
    }

    /// Two scenes whose lengths are not whole samples at 48 kHz: `a` lasts 1.00001 s (48 000.48 samples) with
    /// `bell` cues at 0.5 s and 0.99997 s, `b` 0.7000005 s (33 600.024 samples) with cues at 0.1 s and 0.69997 s: the
    /// late cues 1.92 and 1.464 samples before their scene's end, the nearest a cue may be (at least one sample).
    public static func unevenStory() -> Document {
        func scene(_ id: String, _ duration: Rational, cues: [Rational]) -> Scene {
            Scene(id: id, title: LocalizedString(id), duration: duration, background: .solid(backgrounds[0]),
                  cues: cues.map { Cue(sound: "bell", trigger: .at($0)) })
        }
        return Document(
            canvas: Canvas(width: 640, height: 360, background: .solid(.black)),
            languages: Languages(defaultLanguage: "en", fallback: "en", available: ["en"]),
            sounds: [SoundDefinition(name: "bell", path: "bell.wav")],
            scenes: [scene("a", Rational(100_001, 100_000), cues: [Rational(1, 2), Rational(99_997, 100_000)]),
                     scene("b", Rational(7_000_005, 10_000_000), cues: [Rational(1, 10), Rational(69_997, 100_000)])])
    }
}
