import DioramaAudio
import DioramaDocument
import DioramaTestSupport
import Foundation

/// A small playlist with its own sounds, written into a temporary folder.
///
/// Sounds (16-bit FLAC at 48 kHz): "bell" (a decaying 880 Hz tone, loud from its first sample), "late" (the
/// same after 0.1 s of silence), "hum" (a 220 Hz tone of exactly 220 cycles a second, so its loop joins
/// seamlessly), "clickhum" (the hum starting with a click), "noise" (white noise).
enum VerifyFixtures {
    static let rate = 48_000

    static func tone(_ frequency: Double, frames: Int, amplitude: Double, decay: Double) -> [Float] {
        (0..<frames).map { index in
            let t = Double(index) / Double(rate)
            return Float(amplitude * exp(-decay * t) * cos(2 * .pi * frequency * t))
        }
    }

    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let bell = tone(880, frames: 24_000, amplitude: 0.5, decay: 6)
        let hum = tone(220, frames: rate, amplitude: 0.2, decay: 0)
        var clickHum = hum
        for index in 0..<4 { clickHum[index] = index % 2 == 0 ? 0.9 : -0.9 }
        var seed: UInt64 = 42
        let noise = (0..<24_000).map { _ -> Float in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: seed >> 11) % 1000) / 2000
        }
        let sounds: [(String, [Float])] = [
            ("bell", bell), ("late", [Float](repeating: 0, count: 4800) + bell), ("hum", hum), ("clickhum", clickHum), ("noise", noise),
        ]
        for (name, samples) in sounds {
            try SoundFileWriter.write(samples, channels: 1, sampleRate: rate, format: .flac16, to: folder.path("\(name).flac"))
        }
        return folder
    }

    /// One 3-second scene "pond": a spinning disc, the ambience `bed` (no fade-in), and bells: "ding" at 0.5 s
    /// (ducking the ambience), one more at 0.6 s ringing over it, one when the disc has turned twice (at 2 s),
    /// and "late" at 2.5 s, heard 100 ms after it (its sound says that silence is intended unless `lateIntended` is false).
    static func json(bed: String = "hum", lateIntended: Bool = true) -> String {
        let late = lateIntended ? #"{ "path": "late.flac", "leadingSilence": "intended" }"# : #""late.flac""#
        return """
        { "canvas": { "width": 160, "height": 90, "background": "#102030" },
          "sounds": { "bell": "bell.flac", "late": \(late), "hum": "hum.flac", "clickhum": "clickhum.flac", "noise": "noise.flac" },
          "scenes": [{
            "id": "pond", "duration": 3,
            "ambience": [{ "sound": "\(bed)", "fadeIn": 0, "fadeOut": 0.1 }],
            "cues": [
              { "id": "ding", "sound": "bell", "at": 0.5, "duck": { "db": -12, "attack": 20, "release": 200 } },
              { "sound": "bell", "at": 0.6, "gain": 0.6, "pan": 0.5 },
              { "sound": "bell", "node": "disc", "animation": "turn", "on": "end" },
              { "id": "soft", "sound": "late", "at": 2.5, "gain": 0.5 }
            ],
            "nodes": [
              { "type": "rect", "id": "disc", "x": 60, "y": 25, "width": 40, "height": 40, "fill": "#f0c040",
                "animations": [{ "id": "turn", "property": "rotation", "from": 0, "to": 90, "curve": "linear",
                                 "duration": 1, "repeat": 2 }] }
            ]
          }]
        }
        """
    }

    static func load(_ json: String, in folder: TemporaryFolder, name: String = "scenes.json") throws -> LoadedDocument {
        try Data(json.utf8).write(to: folder.url.appendingPathComponent(name))
        return try DocumentLoader.load(path: folder.path(name))
    }
}
