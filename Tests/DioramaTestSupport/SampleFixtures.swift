/// One channel (0 = left, 1 = right) of interleaved stereo.
public func channel(_ samples: [Float], _ index: Int) -> [Float] {
    stride(from: index, to: samples.count, by: 2).map { samples[$0] }
}
