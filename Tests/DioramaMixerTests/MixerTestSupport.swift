import DioramaMixer

/// Renders `frames` frames through `mixer` in blocks of `blockSize`, returning interleaved stereo.
func render(_ mixer: Mixer, frames: Int, blockSize: Int) -> [Float] {
    var output = [Float](repeating: 0, count: 2 * frames)
    output.withUnsafeMutableBufferPointer { buffer in
        var done = 0
        while done < frames {
            let count = min(blockSize, frames - done)
            mixer.render(into: buffer.baseAddress! + 2 * done, frames: count)
            done += count
        }
    }
    return output
}

/// The largest absolute difference between neighbouring samples of one channel.
func largestJump(_ samples: [Float]) -> Float {
    zip(samples, samples.dropFirst()).map { abs($1 - $0) }.max() ?? 0
}

/// A mono sound holding a sine of `cycles` whole cycles over `frames` frames (so it loops seamlessly).
func loopingSine(frames: Int, cycles: Int, amplitude: Float = 0.5) -> MixerSound {
    let samples = (0..<frames).map { amplitude * Float(sinApprox(2 * Double.pi * Double(cycles) * Double($0) / Double(frames))) }
    return MixerSound(name: "sine", mono: samples)
}

/// A one-frame impulse followed by silence.
func impulse(frames: Int = 64) -> MixerSound {
    var samples = [Float](repeating: 0, count: frames)
    samples[0] = 0.5
    return MixerSound(name: "impulse", mono: samples)
}

/// A constant level (a DC "sound"), handy to read envelopes directly.
func constant(_ level: Float, frames: Int) -> MixerSound {
    MixerSound(name: "constant", mono: [Float](repeating: level, count: frames))
}

/// sin(x) without Foundation, reducing to [-pi, pi] first.
func sinApprox(_ x: Double) -> Double {
    var x = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if x > Double.pi { x -= 2 * Double.pi }
    if x < -Double.pi { x += 2 * Double.pi }
    var term = x
    var sum = x
    for n in stride(from: 3, through: 31, by: 2) {
        term *= -x * x / Double((n - 1) * n)
        sum += term
    }
    return sum
}

/// A decaying mono sine (a struck bell): every frame differs from the next, so any offset shows.
func ringing(frames: Int, period: Int = 97, amplitude: Float = 0.6) -> MixerSound {
    var level = amplitude
    let samples = (0..<frames).map { index -> Float in
        defer { level *= 0.999_9 }
        return level * Float(sinApprox(2 * Double.pi * Double(index) / Double(period)))
    }
    return MixerSound(name: "ringing", mono: samples)
}

/// Renders `frames` frames after sending `commands`, in blocks of `blockSize`.
func render(_ sounds: [MixerSound], _ commands: [MixerCommand], frames: Int, blockSize: Int = 256) -> [Float] {
    let mixer = Mixer(sounds: sounds)
    for command in commands { mixer.send(command) }
    return render(mixer, frames: frames, blockSize: blockSize)
}

/// Frames `range` of interleaved stereo, as stereo samples.
func frames(_ samples: [Float], _ range: Range<Int>) -> [Float] {
    Array(samples[(2 * range.lowerBound)..<(2 * range.upperBound)])
}

/// The first index where two renders differ (nil if they are equal), so a failure names a sample
/// instead of printing thousands.
func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
    if a.count != b.count { return min(a.count, b.count) }
    return a.indices.first { a[$0] != b[$0] }
}
