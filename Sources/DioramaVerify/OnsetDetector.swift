/// Finds where a sound starts: a sudden rise of the signal's high-frequency energy (its sample-to-sample
/// difference), so clicks and struck or plucked sounds stand out from a steady bed, while slow swells,
/// fades and ducks do not.
///
/// The signal is read in windows of 2 ms every 1 ms; a window is an onset when its energy is at least
/// `ratio` times the mean of the 50 ms before it and above `floor` (an RMS difference of -60 dBFS), and no
/// onset was found in the 50 ms before it.
public struct OnsetDetector: Sendable {
    public var sampleRate: Int
    /// Energy ratio to the recent past (16: 12 dB).
    public var ratio: Float = 16
    /// Smallest RMS sample-to-sample difference that counts as sound.
    public var floor: Float = 1e-3

    public init(sampleRate: Int) { self.sampleRate = sampleRate }

    private var hop: Int { max(sampleRate / 1000, 1) }

    /// The frames (of interleaved stereo `samples`, counted from `range.lowerBound`) where sounds start, in order.
    public func onsets(in samples: UnsafeBufferPointer<Float>, frames range: Range<Int>) -> [Int] {
        let hop = self.hop, window = 2 * hop
        let history = 50, refractory = 50
        guard range.count > window + hop else { return [] }
        // Energy of the difference signal per hop.
        let hops = (range.count - 1) / hop
        var energy = [Float](repeating: 0, count: hops)
        for index in 0..<hops {
            var sum: Float = 0
            let first = range.lowerBound + 1 + index * hop
            for frame in first..<(first + hop) {
                let left = samples[2 * frame] - samples[2 * frame - 2]
                let right = samples[2 * frame + 1] - samples[2 * frame - 1]
                sum += left * left + right * right
            }
            energy[index] = sum / Float(2 * hop)
        }
        var found: [Int] = []
        var running: Float = 0, runningCount = 0
        var quietUntil = 0
        for index in 1..<hops {
            // Mean over the previous `history` hops (fewer at the start).
            running += energy[index - 1]
            runningCount += 1
            if runningCount > history {
                running -= energy[index - 1 - history]
                runningCount = history
            }
            let current = (energy[index] + (index + 1 < hops ? energy[index + 1] : energy[index])) / 2
            guard index >= quietUntil, current > floor * floor else { continue }
            let baseline = running / Float(runningCount)
            if current > ratio * baseline {
                // The first frame of the hop whose difference reaches the window's mean.
                let first = range.lowerBound + 1 + index * hop
                var onset = first
                for frame in first..<min(first + window, range.upperBound) {
                    let left = samples[2 * frame] - samples[2 * frame - 2]
                    let right = samples[2 * frame + 1] - samples[2 * frame - 1]
                    if (left * left + right * right) / 2 >= current { onset = frame; break }
                }
                found.append(onset)
                quietUntil = index + refractory
            }
        }
        return found
    }

    public func onsets(in samples: [Float], frames range: Range<Int>? = nil) -> [Int] {
        samples.withUnsafeBufferPointer { onsets(in: $0, frames: range ?? 0..<(samples.count / 2)) }
    }
}
