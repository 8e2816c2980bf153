import DioramaMixer
import Foundation

/// The player's sound output on the audio module's live output: the mixer for commands and the
/// listener's volume, the live output's audio clock (smoothed between periods) as the master clock.
///
/// When the device is lost (unplugged), playback goes on silent on the monotonic clock and the
/// player's thread tries every `retryInterval` seconds to open the device again; the one that
/// opens takes over at the next period boundary, and the clock goes on without stepping back.
/// The terminal gets one line when the device is lost and one when it is back, none per attempt.
public final class LiveSoundOutput: SoundOutput {
    public let live: LiveAudioOutput
    /// The device's name, for the lines on the terminal.
    public let deviceName: String
    /// Seconds between attempts to open a lost device again.
    public let retryInterval: Double
    /// Where the lines about the device go while playing (the terminal, in `play`); none by default.
    public var report: (String) -> Void = { _ in }
    /// Attempts to open a lost device again, for tests and the exit summary.
    public private(set) var reopenAttempts = 0

    private let reopen: (() throws -> any PCMDevice)?
    private var smoother: AudioClockSmoother
    private let now: () -> Double
    private var storedVolume: Float = 1
    /// A volume the mixer's command ring had no room for: sent again on the next frame.
    private var unsentVolume: Float?
    /// Monotonic seconds of the next attempt to open the lost device; nil while none is lost (or
    /// the loss has not been told yet).
    private var nextAttempt: Double?
    private var mismatchTold = false

    /// - Parameters:
    ///   - reopen: opens the device again after a loss; nil never tries.
    ///   - now: monotonic seconds (injectable for tests).
    public init(live: LiveAudioOutput, deviceName: String = "default",
                reopen: (() throws -> any PCMDevice)? = nil, retryInterval: Double = 2,
                now: @escaping () -> Double = monotonicSeconds) {
        self.live = live
        self.deviceName = deviceName
        self.reopen = reopen
        self.retryInterval = retryInterval
        self.now = now
        // Readings come once per period, sometimes a little late: allow two periods of extrapolation.
        smoother = AudioClockSmoother(sampleRate: live.sampleRate, maximumLead: Double(2 * live.periodFrames))
    }

    public var sampleRate: Int { live.sampleRate }

    /// The player reads the clock at the start of every frame, on its own thread: the device is
    /// looked after there first (`maintainDevice`), so the reading is the one after any change.
    public func heardFrame() -> Double {
        maintainDevice()
        if let unsentVolume { sendVolume(unsentVolume) }
        return smoother.frame(raw: live.audioClock, at: now())
    }

    public func writeFrame() -> Int64 { live.mixer.framesRendered }

    public func send(_ command: MixerCommand) -> Bool { live.mixer.send(command) }

    /// A gain inside the mixer, before its limiter (`MixerCommand.volume`), within `Mixer.volumeRange`.
    public var volume: Float {
        get { storedVolume }
        set {
            storedVolume = Mixer.clampedVolume(newValue)
            sendVolume(storedVolume)
        }
    }

    /// Heard: ramped over 20 ms, so a change never clicks; while nothing is heard (no device, or it is lost), at
    /// once, so a device opened again plays at the volume from its first frame.
    private func sendVolume(_ gain: Float) {
        let fade = isLive ? live.sampleRate / 50 : 0
        unsentVolume = live.mixer.send(.volume(gain: gain, fadeFrames: fade)) ? nil : gain
    }

    public var isLive: Bool { live.isPlaying }

    public var commandMargin: Int64 { Int64(live.periodFrames) }

    /// Looks after a lost device, on the player's thread (never the audio thread): closes the one the
    /// audio thread gave up, tells the loss once, tries to open the device again every
    /// `retryInterval` seconds and tells once when it plays again. Cheap when nothing is lost.
    public func maintainDevice() {
        // Closing may block and frees memory: done here, not on the audio thread.
        live.takeLostDevice()?.close(draining: false)
        let statistics = live.statistics
        let time = now()
        guard statistics.deviceLost else {
            if nextAttempt != nil, !live.hasOfferedDevice {
                nextAttempt = nil
                mismatchTold = false
                report("audio device \(deviceName) is back")
            }
            return
        }
        guard let due = nextAttempt else {
            nextAttempt = time + retryInterval
            let reason = String(cString: strerror(statistics.lossError))
            report("warning: audio device \(deviceName) was lost (\(reason)); playing on silently"
                   + (reopen == nil ? "" : ", trying to open it again every \(Self.seconds(retryInterval))"))
            return
        }
        guard let reopen, time >= due, !live.hasOfferedDevice else { return }
        nextAttempt = time + retryInterval
        reopenAttempts += 1
        guard let device = try? reopen() else { return }  // still gone: try again later, quietly
        do {
            try live.offer(device)
        } catch {
            device.close(draining: false)
            // Busy only if the device came back and went again since the checks above: next time.
            if case .mismatched = error, !mismatchTold {
                mismatchTold = true
                report("warning: audio device \(deviceName) opened again but cannot be used: \(error); still silent, trying again every \(Self.seconds(retryInterval))")
            }
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension LiveSoundOutput {
    /// The live sound of `bank`: its sounds in a mixer, played by the real-time output (started) on the ALSA device
    /// `device`, paced so that ALSA's `null` and `file` devices play at real speed; without a device (nil: no sound
    /// wanted, or it cannot be opened) the output paces itself on the monotonic clock and the player follows that.
    /// `notes`: lines for the terminal (sounds that did not load, what the device granted or why there is none).
    public static func open(bank: SoundBank, device: String?, periodFrames: Int) -> (output: LiveSoundOutput, notes: [String]) {
        let sampleRate = bank.sampleRate
        var notes = bank.errors.map { "warning: \($0); it will be silent" }
        let mixer = Mixer(sounds: bank.sounds, configuration: MixerConfiguration(sampleRate: sampleRate))
        var opened: (any PCMDevice)?
        if let device {
            do {
                let pcm = try AlsaPCM(device: device, sampleRate: sampleRate, periodFrames: periodFrames, periods: 3)
                opened = PacedPCM(wrapping: pcm)
                notes.append(pcm.grantedSummary)
            } catch {
                notes.append("warning: \(error.description); playing without sound, on the monotonic clock")
            }
        }
        let live = LiveAudioOutput(mixer: mixer, device: opened, periodFrames: periodFrames)
        live.start()
        // After a loss the same name is opened again, paced the same.
        let reopen: (() throws -> any PCMDevice)? = device.map { name in
            { PacedPCM(wrapping: try AlsaPCM(device: name, sampleRate: sampleRate, periodFrames: periodFrames, periods: 3)) }
        }
        return (LiveSoundOutput(live: live, deviceName: device ?? "none", reopen: reopen), notes)
    }
}
