import DioramaAudio
import Foundation

/// A mono ramp of `frames` samples from -0.5 to 0.5: every sample differs, so offsets show.
func ramp(frames: Int) -> [Float] {
    (0..<frames).map { Float($0) / Float(max(frames - 1, 1)) - 0.5 }
}

