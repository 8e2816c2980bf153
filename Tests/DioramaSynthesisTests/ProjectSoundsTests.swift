import DioramaAudio
import DioramaDocument
import DioramaSynthesis
import DioramaTestSupport
import Foundation
import Testing

/// Checks the committed files in media/ (what ships), and that the recipes still make them.
@Suite struct ProjectSoundsTests {
    /// media/ beside Package.swift, two folders above this file.
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("media")

    func load(_ name: String) throws -> [Float] {
        let sound = try SoundFile.load(name: name, path: Self.media.appendingPathComponent("\(name).flac").path)
        return channel(sound.interleavedSamples, 0)
    }

    @Test("every project sound is in media/, peaks at or below -1 dBFS, and is not silent", arguments: ProjectSounds.names)
    func peakAndPresence(name: String) throws {
        let samples = try load(name)
        let peak = samples.map(abs).max() ?? 0
        #expect(peak <= 0.8913)  // -1 dBFS
        #expect(peak >= 0.1)
    }

    static let beds = ["surf", "wind", "music", "crackle", "hum", "room-tone", "snow-hush", "breath-pad", "shimmer", "rain"]

    @Test("beds loop without a click: the seam's step is an ordinary step of the sound", arguments: beds)
    func seamlessBeds(name: String) throws {
        let samples = try load(name)
        let steps = zip(samples, samples.dropFirst()).map { abs($1 - $0) }.sorted()
        let seam = abs(samples[0] - samples[samples.count - 1])
        // No larger than 99.9% of the sound's own sample-to-sample steps.
        #expect(seam <= steps[steps.count * 999 / 1000])
    }

    @Test("beds loop without a bump or a dip: the level across the seam is a level the sound has elsewhere", arguments: beds)
    func levelAcrossTheSeam(name: String) throws {
        let samples = try load(name)
        // 20 ms windows: the one across the seam (its last 10 ms, then its first) against every other.
        let window = 960, half = window / 2
        func level(_ slice: some Collection<Float>) -> Float { (slice.reduce(0) { $0 + $1 * $1 } / Float(slice.count)).squareRoot() }
        let levels = stride(from: 0, to: samples.count - window, by: half).map { level(samples[$0..<($0 + window)]) }.sorted()
        let seam = level(Array(samples.suffix(half)) + Array(samples.prefix(half)))
        #expect(seam >= levels[levels.count / 100] && seam <= levels[levels.count * 99 / 100],
                "\(name): \(seam) outside \(levels[levels.count / 100])...\(levels[levels.count * 99 / 100])")
    }

    @Test("each scene's bed fits its place: the indoor and night scenes have beds of their own, not the outdoor wind")
    func bedsFitTheirPlaces() throws {
        let loaded = try DocumentLoader.load(path: Self.media.deletingLastPathComponent().appendingPathComponent("scenes.json").path)
        let beds = Dictionary(uniqueKeysWithValues: loaded.document.scenes.map { ($0.id, $0.ambience.map(\.sound)) })
        #expect(beds["record-player"] == ["room-tone"])
        #expect(beds["flower"] == ["snow-hush"])
        #expect(beds["breathing"] == ["breath-pad"])
        #expect(beds["kaleidoscope"] == ["shimmer"])
        #expect(beds["windmill"] == ["wind"])
        #expect(beds["particles"] == ["crackle"])
    }

    @Test("one-shots start and end near silence (no click at either edge), except the click itself",
          arguments: ["bell", "creak", "birds", "breathe-in", "breathe-out", "chime", "ding", "tine", "popper"])
    func quietEdges(name: String) throws {
        let samples = try load(name)
        #expect(abs(samples[0]) < 0.01)
        #expect(abs(samples[samples.count - 1]) < 0.001)
    }

    @Test("the music box's tine is a C5 (523.25 Hz), heard from its first millisecond")
    func tineIsAC5() throws {
        let samples = try load("tine")
        // Upward zero crossings over 50 ms to 550 ms: the fundamental, its faint partials adding none.
        let part = samples[2_400..<26_400]
        let crossings = zip(part, part.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(Double(crossings) * 2 - 523.25) < 3, "\(Double(crossings) * 2) Hz")
        #expect(samples.prefix(48).contains { abs($0) > 0.05 })
    }

    @Test("the click's first sample is its loudest: an onset exact to the sample")
    func clickOnset() throws {
        let samples = try load("click")
        #expect(samples[0] > 0.7)
        #expect(samples.dropFirst().allSatisfy { abs($0) < samples[0] })
    }

    @Test("the recipes are deterministic and still make the committed files", arguments: ["creak", "click", "chime", "music", "ding", "room-tone", "snow-hush", "breath-pad", "shimmer", "tine", "rain", "popper"])
    func regenerates(name: String) throws {
        let first = try #require(ProjectSounds.make(name))
        let second = try #require(ProjectSounds.make(name))
        #expect(first.samples == second.samples)
        let committed = try load(name)
        #expect(committed.count == first.samples.count)
        let difference = zip(committed, first.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(difference <= 1.0 / 32767)  // 16-bit FLAC rounding
    }
}
