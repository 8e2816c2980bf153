import DioramaAudio
import Foundation

/// A fresh temporary folder, removed when the value is released.
final class TemporaryFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("diorama-audio-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A mono ramp of `frames` samples from -0.5 to 0.5: every sample differs, so offsets show.
func ramp(frames: Int) -> [Float] {
    (0..<frames).map { Float($0) / Float(max(frames - 1, 1)) - 0.5 }
}

