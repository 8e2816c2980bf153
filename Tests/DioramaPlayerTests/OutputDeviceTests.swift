import DioramaAudio
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

    @Test func theVolumeRampsToItsNewGainAcrossOneWrite() {
        let device = InstantDevice()
        let volume = VolumePCM(wrapping: device)
        let loud = [Int16](repeating: 10_000, count: 512)
        _ = volume.write(loud, frames: 256)
        #expect(device.samples.allSatisfy { $0 == 10_000 }, "unity gain passes samples through")
        volume.gain = 0
        _ = volume.write(loud, frames: 256)
        let ramp = device.samples[512...]
        #expect(ramp.first! < 10_000 && ramp.first! > 9_900, "starts near the old gain")
        #expect(ramp.last! == 0, "ends at the new one")
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $0 >= $1 }, "without a jump")
        _ = volume.write(loud, frames: 256)
        #expect(device.samples[1024...].allSatisfy { $0 == 0 })
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
