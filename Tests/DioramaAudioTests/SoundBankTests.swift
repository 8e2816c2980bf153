import DioramaAudio
import DioramaDocument
import DioramaTestSupport
import Testing

@Suite struct SoundBankTests {
    @Test("the bank loads every sound in document order; a broken one is silent and reported")
    func loadsAndReports() throws {
        let folder = try TemporaryFolder()
        try SoundFileWriter.write(ramp(frames: 480), channels: 1, sampleRate: 48_000, format: .flac16, to: folder.path("good.flac"))
        let document = Document(
            canvas: Canvas(width: 100, height: 100, background: .solid(Color(red: 0, green: 0, blue: 0))),
            languages: Languages(defaultLanguage: "en", fallback: "en", available: ["en"]),
            sounds: [
                SoundDefinition(name: "gone", path: "sounds/gone.wav", gain: 0.5),
                SoundDefinition(name: "good", path: "good.flac", gain: 2),
            ],
            scenes: [])
        let bank = SoundBank(document: document, directory: folder.url.path)
        #expect(bank.sounds.map(\.name) == ["gone", "good"])
        #expect(bank.index(of: "good") == 1)
        #expect(bank.index(of: "nothing") == nil)
        #expect(bank.gains == [0.5, 2])
        #expect(bank.sounds[0].frameCount == 0)
        #expect(bank.sounds[1].frameCount == 480)
        #expect(bank.errors.count == 1)
        #expect(bank.errors.first?.soundName == "gone")
        #expect(bank.errors.first?.path == folder.path("sounds/gone.wav"))
    }
}
