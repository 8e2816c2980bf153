import CAlsa
import CDioramaShims
import DioramaMixer
import Glibc

/// An output device for interleaved 16-bit stereo, as the live output sees it. `AlsaPCM` is the
/// real one; tests use stand-ins that inject faults.
public protocol PCMDevice: AnyObject {
    /// Granted rate (frames per second), period and buffer (frames).
    var sampleRate: Int { get }
    var periodFrames: Int { get }
    var bufferFrames: Int { get }
    /// Writes up to `frames` frames; returns the frames written or a negative errno
    /// (-EPIPE underrun, -ESTRPIPE suspended, -EINTR interrupted, others fatal).
    func write(_ samples: UnsafePointer<Int16>, frames: Int) -> Int
    /// Tries to bring the stream back after `error` (a negative errno); 0 on success.
    func recover(fromError error: Int32) -> Int32
    /// Frames written but not yet heard, or a negative errno.
    func delay() -> Int
    /// Releases the device: plays what is queued first when `draining`, else drops it (a lost
    /// device may never play it). Called off the audio thread, once the device is no longer written.
    func close(draining: Bool)
}

extension PCMDevice {
    /// Stand-ins that hold nothing have nothing to release.
    public func close(draining: Bool) {}
}

/// A failure to open or set up an ALSA device: its name, ALSA's code and reason.
public struct AudioDeviceError: Error, Sendable, CustomStringConvertible {
    public var device: String
    public var step: String
    public var code: Int32
    public var reason: String
    public var description: String {
        "audio device '\(device)': \(step) failed: \(reason) (\(code)). Hint: list devices with `aplay -L`, pick one with --audio-device"
    }
}

/// A PCM playback stream of ALSA: S16_LE, stereo, interleaved.
public final class AlsaPCM: PCMDevice, @unchecked Sendable {
    // @unchecked Sendable: after `init`, the handle is used by one thread at a time: the live
    // output's audio thread while it runs, then the owner to close it.
    public let device: String
    public let sampleRate: Int
    public let periodFrames: Int
    public let bufferFrames: Int
    private var pcm: OpaquePointer?
    private var configuration: OpaquePointer?

    /// Opens `device` for playback.
    ///
    /// - Parameters:
    ///   - sampleRate: frames per second wanted (the granted one may differ: check `sampleRate`).
    ///   - periodFrames: frames per period; low-latency default 256 (5.3 ms at 48 kHz).
    ///   - periods: periods in the buffer (3 by default: 16 ms of output latency at 48 kHz).
    ///   - configuration: ALSA configuration text defining `device` privately (tests use this
    ///     for a `file` PCM), instead of the system's configuration.
    public init(device: String = "default", sampleRate: Int = AudioFormat.sampleRate, periodFrames: Int = 256, periods: Int = 3,
                configuration: String? = nil) throws(AudioDeviceError) {
        diorama_alsa_silence_errors()
        self.device = device
        func check(_ code: Int32, _ step: String) throws(AudioDeviceError) {
            if code < 0 { throw AudioDeviceError(device: device, step: step, code: code, reason: String(cString: snd_strerror(code))) }
        }
        var handle: OpaquePointer?
        if let configuration {
            var top: OpaquePointer?
            try check(snd_config_top(&top), "creating a configuration")
            var input: OpaquePointer?
            let bytes = Array(configuration.utf8)
            let opened = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { snd_input_buffer_open(&input, $0.baseAddress, $0.count) }
            }
            try check(opened, "reading the configuration")
            let loaded = snd_config_load(top, input)
            snd_input_close(input)
            if loaded < 0 { snd_config_delete(top) }
            try check(loaded, "parsing the configuration")
            self.configuration = top
            try check(snd_pcm_open_lconf(&handle, device, SND_PCM_STREAM_PLAYBACK, 0, top), "opening")
        } else {
            try check(snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0), "opening")
        }
        pcm = handle
        do throws(AudioDeviceError) {
            var hw: OpaquePointer?
            try check(snd_pcm_hw_params_malloc(&hw), "allocating hardware parameters")
            defer { snd_pcm_hw_params_free(hw) }
            try check(snd_pcm_hw_params_any(handle, hw), "reading hardware parameters")
            try check(snd_pcm_hw_params_set_access(handle, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "setting interleaved access")
            try check(snd_pcm_hw_params_set_format(handle, hw, SND_PCM_FORMAT_S16_LE), "setting 16-bit format")
            try check(snd_pcm_hw_params_set_channels(handle, hw, UInt32(AudioFormat.channels)), "setting stereo")
            var rate = UInt32(sampleRate)
            try check(snd_pcm_hw_params_set_rate_near(handle, hw, &rate, nil), "setting the rate")
            var period = snd_pcm_uframes_t(periodFrames)
            try check(snd_pcm_hw_params_set_period_size_near(handle, hw, &period, nil), "setting the period")
            var buffer = snd_pcm_uframes_t(periodFrames * max(periods, 2))
            try check(snd_pcm_hw_params_set_buffer_size_near(handle, hw, &buffer), "setting the buffer")
            try check(snd_pcm_hw_params(handle, hw), "applying hardware parameters")
            try check(snd_pcm_hw_params_get_period_size(hw, &period, nil), "reading the period")
            try check(snd_pcm_hw_params_get_buffer_size(hw, &buffer), "reading the buffer")
            self.sampleRate = Int(rate)
            self.periodFrames = Int(period)
            self.bufferFrames = Int(buffer)

            var sw: OpaquePointer?
            try check(snd_pcm_sw_params_malloc(&sw), "allocating software parameters")
            defer { snd_pcm_sw_params_free(sw) }
            try check(snd_pcm_sw_params_current(handle, sw), "reading software parameters")
            // Start once two periods are queued; never stop on underrun (the stream loops over
            // stale data instead, and recovery resumes it), as miniaudio does.
            try check(snd_pcm_sw_params_set_start_threshold(handle, sw, snd_pcm_uframes_t(2 * period)), "setting the start threshold")
            var boundary: snd_pcm_uframes_t = 0
            try check(snd_pcm_sw_params_get_boundary(sw, &boundary), "reading the boundary")
            try check(snd_pcm_sw_params_set_stop_threshold(handle, sw, boundary), "setting the stop threshold")
            try check(snd_pcm_sw_params_set_avail_min(handle, sw, period), "setting the wake-up size")
            try check(snd_pcm_sw_params(handle, sw), "applying software parameters")
        } catch {
            snd_pcm_close(handle)
            pcm = nil
            if let top = self.configuration { snd_config_delete(top) }
            throw error
        }
    }

    /// One line for the log: what the device granted.
    public var grantedSummary: String {
        let latency = Double(bufferFrames) / Double(sampleRate) * 1000
        return "audio: '\(device)' at \(sampleRate) Hz, period \(periodFrames) frames, buffer \(bufferFrames) frames (\(Int(latency.rounded())) ms)"
    }

    public func write(_ samples: UnsafePointer<Int16>, frames: Int) -> Int {
        guard let pcm else { return -Int(ENODEV) }
        return snd_pcm_writei(pcm, samples, snd_pcm_uframes_t(frames))
    }

    public func recover(fromError error: Int32) -> Int32 {
        guard let pcm else { return -ENODEV }
        return snd_pcm_recover(pcm, error, 1)
    }

    public func delay() -> Int {
        guard let pcm else { return -Int(ENODEV) }
        var frames: snd_pcm_sframes_t = 0
        let code = snd_pcm_delay(pcm, &frames)
        return code < 0 ? Int(code) : frames
    }

    /// Plays what is queued, then closes the device.
    public func close() { close(draining: true) }

    /// Closes the device, after playing what is queued when `draining` (dropping it otherwise: a
    /// device that is gone or stuck could keep a drain waiting).
    public func close(draining: Bool) {
        guard let pcm else { return }
        if draining { snd_pcm_drain(pcm) } else { snd_pcm_drop(pcm) }
        snd_pcm_close(pcm)
        self.pcm = nil
        if let configuration { snd_config_delete(configuration) }
        configuration = nil
    }

    deinit { close() }
}
