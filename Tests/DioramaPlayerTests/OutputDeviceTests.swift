import DioramaAudio
import DioramaMixer
import DioramaTestSupport
import Foundation
@testable import DioramaPlayer
import Synchronization
import Testing

/// A device that takes everything at once, like ALSA's `null`, recording what it was given.
final class InstantDevice: PCMDevice, @unchecked Sendable {
    // @unchecked Sendable: used by one test thread only.
    let sampleRate = 48_000
    let periodFrames = 256
    let bufferFrames = 768
    var samples: [Int16] = []
    func write(_ samples: UnsafePointer<Int16>, frames: Int) -> Int {
        self.samples += UnsafeBufferPointer(start: samples, count: 2 * frames)
        return frames
    }
    func recover(fromError error: Int32) -> Int32 { 0 }
    func delay() -> Int { 0 }
}

/// How many test devices exist and how many were closed (and on which thread), to show that
/// retries leave nothing behind.
final class DeviceCensus: Sendable {
    let counts = Mutex((alive: 0, closed: 0))
    let closingThreads = Mutex([pthread_t]())
    var alive: Int { counts.withLock { $0.alive } }
    var closed: Int { counts.withLock { $0.closed } }
}

/// A device that records what it plays and, from write call `failsAt` on, is gone (-ENODEV, and
/// recovery fails), like an unplugged USB headset.
final class UnpluggableDevice: PCMDevice, @unchecked Sendable {
    // @unchecked Sendable: written by the live output's audio thread while it holds the device,
    // read by the test after the thread has been joined; `census` is itself Sendable.
    let sampleRate: Int
    let periodFrames = 256
    let bufferFrames = 768
    private let census: DeviceCensus
    private let failsAt: Int
    private(set) var samples: [Int16] = []
    private(set) var calls = 0

    init(_ census: DeviceCensus, sampleRate: Int = 48_000, failsAt: Int = .max) {
        self.census = census
        self.sampleRate = sampleRate
        self.failsAt = failsAt
        samples.reserveCapacity(1 << 16)
        census.counts.withLock { $0.alive += 1 }
    }

    deinit { census.counts.withLock { $0.alive -= 1 } }

    func write(_ samples: UnsafePointer<Int16>, frames: Int) -> Int {
        calls += 1
        if calls >= failsAt { return -Int(ENODEV) }
        self.samples += UnsafeBufferPointer(start: samples, count: 2 * frames)
        return frames
    }
    func recover(fromError error: Int32) -> Int32 { calls >= failsAt ? error : 0 }
    func delay() -> Int { 0 }
    func close(draining: Bool) {
        census.counts.withLock { $0.closed += 1 }
        census.closingThreads.withLock { $0.append(pthread_self()) }
    }
}

/// Seconds that pass only when the device sleeps.
final class SleepClock: Sendable {
    let time = Mutex(0.0)
    let slept = Mutex([Double]())
    var now: @Sendable () -> Double { { [self] in time.withLock { $0 } } }
    var sleep: @Sendable (Double) -> Void {
        { [self] seconds in
            slept.withLock { $0.append(seconds) }
            time.withLock { $0 += seconds }
        }
    }
}

@Suite struct OutputDeviceTests {
    @Test func aDeviceFasterThanRealTimeIsHeldToOneBufferAhead() {
        let clock = SleepClock()
        let device = InstantDevice()
        let paced = PacedPCM(wrapping: device, now: clock.now, sleep: clock.sleep)
        let period = [Int16](repeating: 0, count: 512)
        // Three periods fill the 768-frame buffer without waiting.
        for _ in 0..<3 { #expect(paced.write(period, frames: 256) == 256) }
        #expect(clock.slept.withLock { $0 }.isEmpty)
        // Each further period waits for the time it takes to play one.
        for _ in 0..<100 { _ = paced.write(period, frames: 256) }
        #expect(abs(clock.time.withLock { $0 } - 100 * 256.0 / 48_000) < 1e-9)
        #expect(device.samples.count == 103 * 512)
    }

    @Test func theSmoothedClockMovesEveryFrameButNeverBackOrFarAhead() {
        var smoother = AudioClockSmoother(sampleRate: 48_000, maximumLead: 512)
        #expect(smoother.frame(raw: 1_000, at: 10) == 1_000)
        // Between readings it extrapolates on the monotonic clock...
        #expect(abs(smoother.frame(raw: 1_000, at: 10.005) - 1_240) < 1e-6)
        // ...at most `maximumLead` frames past the reading.
        #expect(smoother.frame(raw: 1_000, at: 10.1) == 1_512)
        // A new reading behind the estimate does not move the picture back.
        #expect(smoother.frame(raw: 1_256, at: 10.1) == 1_512)
        // A big jump back (the device restarted) is followed.
        #expect(smoother.frame(raw: 100, at: 10.2) == 100)
    }

}

/// Losing the device mid-play and opening it again, as the player's thread does it.
@Suite struct DeviceReopeningTests {
    private func pacingClock(_ pacing: VirtualPacing) -> PacingClock { PacingClock(now: pacing.now, sleep: pacing.sleep) }

    @Test func aLostDeviceIsToldOnceAndTriedAgainEvery2SecondsWithoutALinePerAttemptOrAnythingPilingUp() throws {
        let census = DeviceCensus()
        let live = LiveAudioOutput(mixer: Mixer(sounds: []), device: UnpluggableDevice(census, failsAt: 3),
                                   clock: pacingClock(VirtualPacing()))
        live.start(frames: 8 * 256)
        live.wait()
        #expect(live.statistics.deviceLost)
        var time = 0.0
        var attempts = 0
        var opens: () throws -> any PCMDevice = { throw POSIXError(.ENODEV) }
        let output = LiveSoundOutput(live: live, deviceName: "usb",
                                     reopen: { attempts += 1; return try opens() }, now: { time })
        var lines: [String] = []
        output.report = { lines.append($0) }
        // A minute of frames, four a second, with the device still unplugged.
        for step in 0..<240 {
            time = Double(step) / 4
            _ = output.heardFrame()
        }
        #expect(lines == ["warning: audio device usb was lost (No such device); playing on silently, trying to open it again every 2 s"])
        #expect(attempts == 29, "at 2, 4, ... 58 s")
        #expect(output.reopenAttempts == 29)
        #expect(census.alive == 0 && census.closed == 1, "the lost device was closed and freed")
        #expect(census.closingThreads.withLock { $0 }.allSatisfy { pthread_equal($0, pthread_self()) != 0 }, "closed on the player's thread")
        #expect(!output.isLive)

        // Now it opens, but at another rate: refused and closed every time, told once.
        opens = { UnpluggableDevice(census, sampleRate: 44_100) }
        for step in 240..<260 {
            time = Double(step) / 4
            _ = output.heardFrame()
        }
        #expect(attempts == 32)
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix("warning: audio device usb opened again but cannot be used: it opened at 44100 Hz") == true)
        #expect(census.alive == 0 && census.closed == 4)
        #expect(!live.hasOfferedDevice && live.statistics.deviceLost)
    }

    @Test func aDeviceOpenedAgainTakesOverAtAPeriodBoundaryAtThePlayersVolumeAndIsToldOnce() throws {
        let census = DeviceCensus()
        let mixer = Mixer(sounds: [MixerSound(name: "tone", mono: [Float](repeating: 0.25, count: 4800))])
        #expect(mixer.send(.start(VoiceStart(sound: 0, frame: 0, loops: true))))
        let first = UnpluggableDevice(census, failsAt: 3)
        // The audio thread is held in its second paced period, while this thread plays the player's part.
        let pacing = VirtualPacing(holdAt: 2)
        let live = LiveAudioOutput(mixer: mixer, device: first, clock: pacingClock(pacing))
        var time = 0.0
        var opened: UnpluggableDevice?
        let output = LiveSoundOutput(live: live, deviceName: "usb", reopen: {
            let device = UnpluggableDevice(census)
            opened = device
            return device
        }, now: { time })
        var lines: [String] = []
        output.report = { lines.append($0) }
        live.start(frames: 10 * 256)
        pacing.awaitHold()
        var clock = [output.heardFrame()]
        #expect(lines.count == 1 && lines[0].contains("was lost"))
        #expect(!output.isLive)
        output.volume = 0.5
        time = 1.9
        clock.append(output.heardFrame())
        #expect(opened == nil, "not before 2 s")
        time = 2
        clock.append(output.heardFrame())
        let second = try #require(opened)
        #expect(live.hasOfferedDevice)
        time = 2.1
        clock.append(output.heardFrame())
        #expect(lines.count == 1, "nothing until it plays")
        pacing.release()
        live.wait()
        time = 2.2
        clock.append(output.heardFrame())
        #expect(lines == ["warning: audio device usb was lost (No such device); playing on silently, trying to open it again every 2 s",
                          "audio device usb is back"])
        #expect(output.isLive)
        #expect(output.reopenAttempts == 1)
        #expect(zip(clock, clock.dropFirst()).allSatisfy { $0 <= $1 }, "the picture's clock never goes back")
        #expect(live.statistics.losses == 1 && live.statistics.reopenings == 1)

        // Written before the loss at unity gain; the new device plays from frame 1024 (the loss in
        // the 3rd period, 2 paced) to the end, at the volume set meanwhile from its first frame.
        #expect(first.samples.count == 2 * 512)
        let unity = try #require(first.samples.last)
        #expect(unity > 1000 && first.samples.allSatisfy { $0 == unity }, "a steady tone")
        #expect(second.samples.count == 2 * (10 * 256 - 1024))
        #expect(second.samples.allSatisfy { $0 == Int16((Float(unity) * 0.5).rounded()) })
        output.volume = 0.25
        #expect(output.volume == 0.25)
        live.closeDevices()
        #expect(census.closed == 2, "the lost one by the player's thread, the new one at the end")
    }
}
