import DioramaAudio
import DioramaMixer
import DioramaTestSupport
import DioramaTimeline
import Foundation
import Testing

@Suite struct SoundFileTests {
    @Test("a mono 48 kHz WAV loads centred, sample for sample (up to 16-bit steps)")
    func monoWAV() throws {
        let folder = try TemporaryFolder()
        let source = ramp(frames: 4800)
        try SoundFileWriter.write(source, channels: 1, sampleRate: 48_000, format: .wav16, to: folder.path("ramp.wav"))
        let sound = try SoundFile.load(name: "ramp", path: folder.path("ramp.wav"))
        #expect(sound.frameCount == 4800)
        let samples = sound.interleavedSamples
        #expect(channel(samples, 0) == channel(samples, 1))
        let error = zip(channel(samples, 0), source).map { abs($0 - $1) }.max() ?? 1
        #expect(error <= 1.0 / 32767)
    }

    @Test("FLAC and OGG/Vorbis stereo files load with both channels")
    func flacAndOgg() throws {
        let folder = try TemporaryFolder()
        let frames = 9600
        var stereo = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let phase = 2 * Double.pi * 440 * Double(frame) / 48_000
            stereo[2 * frame] = Float(0.5 * sin(phase))
            stereo[2 * frame + 1] = Float(0.25 * cos(phase))
        }
        for (format, name, tolerance) in [(SoundFileFormat.flac24, "s.flac", Float(1e-6)), (.oggVorbis, "s.ogg", 0.05)] {
            try SoundFileWriter.write(stereo, channels: 2, sampleRate: 48_000, format: format, to: folder.path(name))
            let sound = try SoundFile.load(name: name, path: folder.path(name))
            #expect(sound.frameCount == frames)
            let error = zip(sound.interleavedSamples, stereo).map { abs($0 - $1) }.max() ?? 1
            #expect(error <= tolerance, "\(name)")
        }
    }

    @Test("a 44.1 kHz file is converted to 48 kHz: length and pitch kept")
    func resampled() throws {
        let folder = try TemporaryFolder()
        let frames = 44_100
        let tone = (0..<frames).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / 44_100)) }
        try SoundFileWriter.write(tone, channels: 1, sampleRate: 44_100, format: .wavFloat, to: folder.path("tone.wav"))
        let sound = try SoundFile.load(name: "tone", path: folder.path("tone.wav"), sampleRate: 48_000)
        #expect(abs(sound.frameCount - 48_000) <= 2)
        // 1 kHz: 2000 zero crossings per second, counted over 46 000 frames away from the edges.
        let left = Array(channel(sound.interleavedSamples, 0)[1000..<47_000])
        let crossings = zip(left, left.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 1917) <= 2)
        #expect(abs((left.map(abs).max() ?? 0) - 0.5) < 0.01)
    }

    @Test("a missing file: the sound's name, its path and the reason (found before libsndfile opens it)")
    func missing() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("nowhere.wav")
        let error = #expect(throws: SoundLoadError.self) { try SoundFile.load(name: "bell", path: path) }
        #expect(error?.soundName == "bell")
        #expect(error?.path == path)
        #expect(error?.reason == "it does not exist")
        #expect(error?.description.contains("Hint:") == true)
    }

    @Test("an empty file, a text file and random bytes are each a clear error", arguments: ["empty", "text", "noise"])
    func corrupt(kind: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("\(kind).wav")
        var generator = SplitMix64(seed: 7)
        let bytes: [UInt8] = switch kind {
        case "empty": []
        case "text": Array("this is not a sound\n".utf8)
        default: (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SoundLoadError.self) { try SoundFile.load(name: kind, path: path) }
        #expect(error?.soundName == kind)
        #expect(error?.reason.isEmpty == false)
    }

    @Test("a WAV cut short mid-data is refused as truncated, or a FLAC as undecodable")
    func truncated() throws {
        let folder = try TemporaryFolder()
        for (format, name) in [(SoundFileFormat.wav16, "cut.wav"), (.flac16, "cut.flac")] {
            let path = folder.path(name)
            let noise = (0..<48_000).map { Float(sin(Double($0) * 0.37) * 0.4) }
            try SoundFileWriter.write(noise, channels: 1, sampleRate: 48_000, format: format, to: path)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: SoundLoadError.self, "\(name)") { try SoundFile.load(name: "cut", path: path) }
            #expect(error?.path == path)
            if format == .wav16 { #expect(error?.reason.contains("truncated") == true) }
        }
    }

    @Test("a WAV with a header and no frames is refused")
    func noFrames() throws {
        let folder = try TemporaryFolder()
        try SoundFileWriter.write([], channels: 1, sampleRate: 48_000, format: .wav16, to: folder.path("silent.wav"))
        let error = #expect(throws: SoundLoadError.self) { try SoundFile.load(name: "silent", path: folder.path("silent.wav")) }
        #expect(error?.reason.contains("no audio") == true)
    }

    @Test("a sound over the length limit is refused before decoding")
    func tooLong() throws {
        let folder = try TemporaryFolder()
        // 601 s at 1 kHz keeps the test file small.
        let frames = Int(SoundFile.maximumDuration + 1) * 1000
        try SoundFileWriter.write([Float](repeating: 0, count: frames), channels: 1, sampleRate: 1000, format: .wav16,
                                  to: folder.path("long.wav"))
        let error = #expect(throws: SoundLoadError.self) { try SoundFile.load(name: "long", path: folder.path("long.wav")) }
        #expect(error?.reason.contains("limit") == true)
    }
}

