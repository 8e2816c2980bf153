/// Constant-power pan gains, normalised so the centre is unity on both channels.
///
/// `left² + right² == 2` for every pan, so a sound keeps its loudness as it moves; hard left is
/// +3 dB on the left channel. The mixer computes these when a voice starts, without Foundation,
/// hence the short polynomials.
public func constantPowerGains(pan: Float) -> (left: Float, right: Float) {
    let clamped = Double(min(max(pan.isNaN ? 0 : pan, -1), 1))
    let angle = (clamped + 1) * (Double.pi / 4)  // 0 ... pi/2
    let root2 = 1.4142135623730951
    return (Float(root2 * cosine(angle)), Float(root2 * cosine(Double.pi / 2 - angle)))
}

/// cos(x) for x in [0, pi/2] by its Taylor series (error below 1e-9 there).
private func cosine(_ x: Double) -> Double {
    let x2 = x * x
    var term = 1.0
    var sum = 1.0
    for n in stride(from: 2, through: 16, by: 2) {
        term *= -x2 / Double((n - 1) * n)
        sum += term
    }
    return sum
}
