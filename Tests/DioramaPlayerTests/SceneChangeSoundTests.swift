import DioramaAudio
import DioramaDocument
import DioramaMixer
@testable import DioramaPlayer
import DioramaTestSupport
import Foundation
import Testing

/// The sound of a scene change, mixed by the real mixer as the player sends it: with a transition the beds crossfade
/// over it without a click, even beds whose own fades are 0; with `none` each fades as its scene says (a bed with no
/// fade-in starting at its peak clicks, as it always did).
@Suite struct SceneChangeSoundTests {
    static let rate = 48_000

    /// An output that is a mixer rendering on the test's call: what is heard is what has been rendered.
    final class MixingOutput: SoundOutput {
        let mixer: Mixer
        let sampleRate: Int
        var volume: Float = 1
        var isLive: Bool { true }
        var commandMargin: Int64 { 0 }
        /// The left channel of everything rendered.
        private(set) var left: [Float] = []

        init(sounds: [MixerSound], sampleRate: Int) {
            mixer = Mixer(sounds: sounds, configuration: MixerConfiguration(sampleRate: sampleRate))
            self.sampleRate = sampleRate
        }

        func heardFrame() -> Double { Double(mixer.framesRendered) }
        func writeFrame() -> Int64 { mixer.framesRendered }
        func send(_ command: MixerCommand) -> Bool { mixer.send(command) }

        func render(_ frames: Int) {
            var block = [Float](repeating: 0, count: 2 * frames)
            block.withUnsafeMutableBufferPointer { mixer.render(into: $0.baseAddress!, frames: frames) }
            left += stride(from: 0, to: block.count, by: 2).map { block[$0] }
        }
    }

    /// Scene `low` (1 s, a 200 Hz bed) then `high` (2 s, a 300 Hz bed), both beds cosines starting at their peak, half
    /// full scale, with no fade in or out of their own: the hardest case for a click.
    static func document() -> Document {
        func scene(_ id: String, seconds: Int, bed: String) -> Scene {
            Scene(id: id, title: LocalizedString(id), duration: Rational(seconds), background: .solid(.black),
                  ambience: [Ambience(sound: bed, gain: 1, fadeIn: 0, fadeOut: 0)], cues: [])
        }
        return Document(
            canvas: Canvas(width: 64, height: 36, background: .solid(.black)),
            languages: Languages(defaultLanguage: "en", fallback: "en", available: ["en"]),
            sounds: [SoundDefinition(name: "low", path: "low.wav"), SoundDefinition(name: "high", path: "high.wav")],
            scenes: [scene("low", seconds: 1, bed: "low"), scene("high", seconds: 2, bed: "high")])
    }

    /// Mixes the document as the player plays it with `transition`: navigating to the next scene at `navigateAt` (a
    /// frame), or letting the first scene end when nil. Returns the left channel.
    static func mix(_ transition: TransitionStyle, navigateAt: Int64?, frames: Int) throws -> [Float] {
        let folder = try TemporaryFolder()
        for (name, hertz) in [("low", 200.0), ("high", 300.0)] {
            // One second, a whole number of periods: the loop is seamless.
            let samples = (0..<rate).flatMap { index -> [Float] in
                let value = Float(0.5 * cos(2 * Double.pi * hertz * Double(index) / Double(rate)))
                return [value, value]
            }
            try SoundFileWriter.write(samples, channels: 2, sampleRate: rate, format: .wavFloat, to: folder.path("\(name).wav"))
        }
        let document = document()
        let bank = SoundBank(document: document, directory: folder.url.path, sampleRate: rate)
        #expect(bank.errors.isEmpty)
        let output = MixingOutput(sounds: bank.sounds, sampleRate: rate)
        let commands = Player.soundCommands(document, audio: AudioSetup(output: output, bank: bank), transition: transition)
        let playback = PlaylistPlayback(document: document, soundCommands: commands, output: output)
        while output.left.count < frames {
            if let navigateAt, Int64(output.left.count) == navigateAt { playback.next() }
            output.render(800)
            playback.update()
        }
        return output.left
    }

    /// The largest step from one sample to the next over `range`.
    static func largestStep(_ samples: [Float], _ range: Range<Int>) -> Float {
        range.dropFirst().reduce(0) { max($0, abs(samples[$1] - samples[$1 - 1])) }
    }

    /// The largest step around the change at `change` (from 50 ms before to 50 ms after the transition's fades), and
    /// the largest within the two scenes' own sound away from it.
    static func steps(_ samples: [Float], change: Int) -> (around: Float, within: Float) {
        let fade = Int(SceneTransition.duration * Double(rate))
        let margin = rate / 20
        let around = largestStep(samples, (change - margin)..<(change + fade + margin))
        let within = max(largestStep(samples, margin..<(change - margin)),
                         largestStep(samples, (change + fade + margin)..<samples.count))
        return (around, within)
    }

    @Test(arguments: [TransitionStyle.slide, .crossfade], [Int64(24_000), nil])
    func theBedsCrossfadeOverTheTransitionWithoutAClick(transition: TransitionStyle, navigateAt: Int64?) throws {
        let samples = try Self.mix(transition, navigateAt: navigateAt, frames: 2 * Self.rate)
        let (around, within) = Self.steps(samples, change: Int(navigateAt ?? Int64(Self.rate)))
        // The scenes' own sound steps by up to 0.5 × 2π × 300 / 48 000 ≈ 0.0196 a sample; the change adds no more.
        #expect(within > 0.018 && within < 0.021)
        #expect(around <= within * 1.01, "largest step around the change \(around), within the scenes \(within)")
    }

    @Test(arguments: [Int64(24_000), nil])
    func noneFadesAsTheScenesSayAsBefore(navigateAt: Int64?) throws {
        let samples = try Self.mix(.none, navigateAt: navigateAt, frames: 2 * Self.rate)
        let (around, within) = Self.steps(samples, change: Int(navigateAt ?? Int64(Self.rate)))
        // No fade-in of its own: the incoming bed starts at its peak, a step of half full scale (what the detector
        // above would catch).
        #expect(around > 20 * within)
    }
}
