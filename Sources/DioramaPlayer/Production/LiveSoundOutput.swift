import DioramaAudio
import DioramaMixer

/// The player's sound output on the audio module's live output: the mixer for commands, the live
/// output's audio clock (smoothed between periods) as the master clock, and a volume on the device.
public final class LiveSoundOutput: SoundOutput {
    public let live: LiveAudioOutput
    private let volumeDevice: VolumePCM?
    private var smoother: AudioClockSmoother
    private let now: () -> Double
    private var storedVolume: Float = 1

    /// `volumeDevice` is the device `live` writes to, when there is one (nil on the monotonic clock).
    public init(live: LiveAudioOutput, volumeDevice: VolumePCM?, now: @escaping () -> Double = monotonicSeconds) {
        self.live = live
        self.volumeDevice = volumeDevice
        self.now = now
        // Readings come once per period, sometimes a little late: allow two periods of extrapolation.
        smoother = AudioClockSmoother(sampleRate: live.sampleRate, maximumLead: Double(2 * live.periodFrames))
    }

    public var sampleRate: Int { live.sampleRate }

    public func heardFrame() -> Double {
        smoother.frame(raw: live.audioClock, at: now())
    }

    public func writeFrame() -> Int64 { live.mixer.framesRendered }

    public func send(_ command: MixerCommand) -> Bool { live.mixer.send(command) }

    public var volume: Float {
        get { storedVolume }
        set {
            storedVolume = newValue
            volumeDevice?.gain = newValue
        }
    }

    public var isLive: Bool { volumeDevice != nil && !live.statistics.deviceLost }

    public var commandMargin: Int64 { Int64(live.periodFrames) }
}
