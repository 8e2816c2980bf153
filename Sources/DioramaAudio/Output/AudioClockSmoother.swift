/// Smooths an audio clock that advances in period-sized steps (frames written minus the device's
/// delay changes once per period) into one that advances every video frame: between steps it
/// extrapolates on the monotonic clock, never more than `maximumLead` frames past the last reading,
/// and it never goes back by less than that (a bigger jump back is a real reset and is followed).
public struct AudioClockSmoother: Sendable {
    /// Frames per second.
    public let sampleRate: Int
    /// Frames the estimate may run ahead of the last reading: about one period of the device.
    public var maximumLead: Double

    private var reading: Int64?
    /// Monotonic seconds when `reading` was first seen.
    private var readingTime = 0.0
    private var last: Double?

    public init(sampleRate: Int, maximumLead: Double) {
        self.sampleRate = sampleRate
        self.maximumLead = maximumLead
    }

    /// The smoothed frame for the clock reading `raw` (frames) taken at monotonic `time` seconds.
    public mutating func frame(raw: Int64, at time: Double) -> Double {
        if raw != reading {
            reading = raw
            readingTime = time
        }
        var estimate = Double(raw) + max(0, time - readingTime) * Double(sampleRate)
        estimate = min(estimate, Double(raw) + maximumLead)
        if let last, estimate < last, last - estimate <= maximumLead {
            estimate = last
        }
        last = estimate
        return estimate
    }
}
