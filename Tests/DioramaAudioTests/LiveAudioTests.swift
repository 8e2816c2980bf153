import DioramaAudio
import DioramaMixer
import DioramaSynthesis
import Foundation
import DioramaTestSupport
import Glibc
import Synchronization
import Testing

/// A device stand-in that captures what is written and fails on chosen write calls.
final class FaultyPCM: PCMDevice, @unchecked Sendable {
    // @unchecked Sendable: used by the live output's audio thread only between start() and
    // wait(); the test reads it after wait() has joined that thread.
    let sampleRate: Int
    let periodFrames: Int
    let bufferFrames: Int
    /// Write call number -> the errno it fails with.
    let faults: [Int: Int32]
    /// Write calls that accept only half of what they are given.
    let partialWrites: Set<Int>
    /// Once a fault with this errno happens, recovery fails (the device is gone).
    let fatal: Int32?
    private(set) var captured: [Int16] = []
    private(set) var calls = 0
    private(set) var recoveries: [Int32] = []
    /// How it was closed: nil while open, else whether it was drained.
    private(set) var closedDraining: Bool?
    /// Called at the start of every write (on the audio thread).
    var onWrite: () -> Void = {}

    init(sampleRate: Int = 48_000, periodFrames: Int = 256, faults: [Int: Int32] = [:], partialWrites: Set<Int> = [], fatal: Int32? = nil) {
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.bufferFrames = periodFrames * 3
        self.faults = faults
        self.partialWrites = partialWrites
        self.fatal = fatal
        captured.reserveCapacity(1 << 22)
    }

    func write(_ samples: UnsafePointer<Int16>, frames: Int) -> Int {
        onWrite()
        calls += 1
        if let error = faults[calls] { return -Int(error) }
        let accepted = partialWrites.contains(calls) ? max(frames / 2, 1) : frames
        captured.append(contentsOf: UnsafeBufferPointer(start: samples, count: 2 * accepted))
        return accepted
    }

    func recover(fromError error: Int32) -> Int32 {
        recoveries.append(-error)
        return -error == fatal ? error : 0
    }

    func delay() -> Int { periodFrames }

    func close(draining: Bool) { closedDraining = draining }
}

/// Readings of a live output's audio clock, taken on the audio thread between periods.
final class ClockReadings: @unchecked Sendable {
    // @unchecked Sendable: `output` is set before the audio thread starts; `values` is appended by
    // the audio thread only and read by the test after wait() has joined it.
    weak var output: LiveAudioOutput?
    private(set) var values: [Int64] = []
    init() { values.reserveCapacity(1 << 12) }
    func take() { if let output { values.append(output.audioClock) } }
}

/// A short playlist's commands: a looping bed cross-fading between two scenes and clicks on odd frames.
private func testPlan() throws -> ([MixerCommand], [MixerSound]) {
    let bed = MixerSound(name: "bed", mono: (0..<4410).map { Float(sin(Double($0) * 2 * .pi * 10 / 4410) * 0.3) })
    let click = MixerSound(name: "click", mono: try #require(ProjectSounds.make("click")).samples)
    let plan = sceneCommands(
        scenes: [
            (start: 0, end: 30_000, beds: [TestBed(sound: 0, gain: 0.5, fadeInFrames: 2400, fadeOutFrames: 4800)]),
            (start: 30_000, end: 60_000, beds: [TestBed(sound: 0, gain: 0.7, fadeInFrames: 4800, fadeOutFrames: 4800)]),
        ],
        cues: [1_001, 7_777, 12_345, 29_999, 30_000, 44_444, 59_000].map { (frame: $0, sound: 1, gain: 0.8, pan: 0.25) })
    return (plan, [bed, click])
}

/// What the live path must send: the offline mix, through the same float-to-16-bit conversion.
private func offlinePCM(_ plan: [MixerCommand], _ sounds: [MixerSound], frames: Int64) -> [Int16] {
    OfflineAudio.mix(commands: plan, sounds: sounds, span: 0..<frames).map(pcm16)
}

/// A mixer with the whole plan queued (a short plan fits the command ring whole).
private func plannedMixer(_ plan: [MixerCommand], _ sounds: [MixerSound]) -> Mixer {
    let mixer = Mixer(sounds: sounds)
    for command in plan { #expect(mixer.send(command)) }
    return mixer
}

private func runLive(_ plan: [MixerCommand], _ sounds: [MixerSound], device: PCMDevice, frames: Int64,
                     pacing: VirtualPacing = VirtualPacing()) -> LiveAudioOutput {
    let output = LiveAudioOutput(mixer: plannedMixer(plan, sounds), device: device,
                                 clock: PacingClock(now: pacing.now, sleep: pacing.sleep))
    output.start(frames: frames)
    output.wait()
    return output
}

/// Nanoseconds that `frames` frames at 48 kHz last, as the output computes deadlines.
private func nanoseconds(_ frames: Int64) -> Int64 { frames * 1_000_000_000 / 48_000 }

@Suite(.serialized) struct LiveAudioTests {
    @Test("underrun, suspend, interruption and a short write mid-stream: recovered, counted, every cue on its frame")
    func recoveryKeepsSchedule() throws {
        let (plan, sounds) = try testPlan()
        let device = FaultyPCM(faults: [5: EPIPE, 40: ESTRPIPE, 41: EPIPE, 120: EINTR], partialWrites: [60, 61])
        let output = runLive(plan, sounds, device: device, frames: 60_000)
        let statistics = output.statistics
        #expect(statistics.underruns == 2)
        #expect(statistics.suspends == 1)
        #expect(statistics.interruptions == 1)
        #expect(!statistics.deviceLost)
        #expect(statistics.framesWritten == 60_000)
        #expect(device.recoveries == [EPIPE, ESTRPIPE, EPIPE, EINTR])
        #expect(device.captured == offlinePCM(plan, sounds, frames: 60_000))
        #expect(output.audioClock == 60_000 - 256)  // written minus the device's delay
    }

    @Test("a device that disappears: playback goes on silent, paced on the monotonic clock, handed back for closing")
    func deviceLost() throws {
        let (plan, sounds) = try testPlan()
        let device = FaultyPCM(faults: [10: ENODEV], fatal: ENODEV)
        let pacing = VirtualPacing(start: 5_000)
        // 12 periods: 9 written, then the loss in the 10th, which is paced with the 2 after it.
        let output = runLive(plan, sounds, device: device, frames: 12 * 256, pacing: pacing)
        #expect(output.statistics.deviceLost)
        #expect(output.statistics.lossError == ENODEV)
        #expect(output.statistics.losses == 1 && output.statistics.reopenings == 0)
        #expect(output.statistics.framesWritten == 12 * 256)
        #expect(device.captured == Array(offlinePCM(plan, sounds, frames: 9 * 256)))
        // Absolute deadlines from the moment of the loss (frame 2304): no drift accumulates.
        #expect(pacing.deadlines == [1, 2, 3].map { 5_000 + nanoseconds($0 * 256) })
        #expect(output.audioClock == 12 * 256)
        #expect(device.closedDraining == nil, "the audio thread never closes a device")
        let lost = try #require(output.takeLostDevice())
        #expect(lost === device)
        #expect(output.takeLostDevice() == nil, "handed back once")
    }

    @Test("a device lost mid-play and opened again: later cues land on their exact samples on the new one, the clock never goes back")
    func reopenedDeviceKeepsSchedule() throws {
        let (plan, sounds) = try testPlan()
        let first = FaultyPCM(faults: [10: ENODEV], fatal: ENODEV)
        let second = FaultyPCM()
        let readings = ClockReadings()
        // The audio thread waits in its 4th paced period while this thread hands the new device over.
        let pacing = VirtualPacing(holdAt: 4, onSleep: { readings.take() })
        let output = LiveAudioOutput(mixer: plannedMixer(plan, sounds), device: first,
                                     clock: PacingClock(now: pacing.now, sleep: pacing.sleep))
        readings.output = output
        first.onWrite = { readings.take() }
        second.onWrite = { readings.take() }
        output.start(frames: 60_000)
        pacing.awaitHold()
        #expect(output.statistics.deviceLost)
        #expect(throws: DeviceRefusal.busy, "the lost device must be taken back first") { try output.offer(FaultyPCM()) }
        let lost = try #require(output.takeLostDevice())
        #expect(lost === first)
        lost.close(draining: false)
        try output.offer(second)
        #expect(output.hasOfferedDevice)
        #expect(throws: DeviceRefusal.busy, "one offer at a time") { try output.offer(FaultyPCM()) }
        pacing.release()
        output.wait()

        let statistics = output.statistics
        #expect(!statistics.deviceLost)
        #expect(statistics.losses == 1 && statistics.reopenings == 1 && statistics.lossError == ENODEV)
        #expect(statistics.framesWritten == 60_000)
        #expect(!output.hasOfferedDevice)
        #expect(first.closedDraining == false)
        // Lost in the 10th period (frame 2304), paced for 4 periods, the new device from frame 3328 on.
        let offline = offlinePCM(plan, sounds, frames: 60_000)
        #expect(first.captured == Array(offline[..<(2 * 2304)]))
        #expect(second.captured.count == 2 * (60_000 - 3328))
        #expect(second.captured == Array(offline[(2 * 3328)...]), "cues at 7777, 12345, ... 59000 on their samples")
        let values = readings.values
        // Read before each write (10 on the first device, 222 on the second) and each paced period (4).
        #expect(values.count == 10 + 4 + 222)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "the audio clock never goes back")
        // Written minus the delay before the loss; through it the clock counts on in whole periods;
        // the new device goes on from there.
        #expect(Array(values[9..<15]) == [2048, 2048, 2560, 2816, 3072, 3328])
        #expect(values[15] == 3328 && values[16] == 3584)
        #expect(output.audioClock == 60_000 - 256)
        output.closeDevices()
        #expect(second.closedDraining == true, "the playing device plays out what is queued")
    }

    @Test("a device at another rate or period is refused, and so is one while a device plays")
    func mismatchedDeviceRefused() throws {
        let playing = FaultyPCM()
        let output = LiveAudioOutput(mixer: Mixer(sounds: []), device: playing)
        #expect(throws: DeviceRefusal.mismatched(sampleRate: 44_100, periodFrames: 256, wantedSampleRate: 48_000, wantedPeriodFrames: 256)) {
            try output.offer(FaultyPCM(sampleRate: 44_100))
        }
        #expect(throws: DeviceRefusal.mismatched(sampleRate: 48_000, periodFrames: 512, wantedSampleRate: 48_000, wantedPeriodFrames: 256)) {
            try output.offer(FaultyPCM(periodFrames: 512))
        }
        #expect(throws: DeviceRefusal.busy) { try output.offer(FaultyPCM()) }
        #expect(!output.hasOfferedDevice)
        let refusal = DeviceRefusal.mismatched(sampleRate: 44_100, periodFrames: 256, wantedSampleRate: 48_000, wantedPeriodFrames: 256)
        #expect(refusal.description.contains("44100 Hz") && refusal.description.contains("48000 Hz"))
    }

    @Test("with no device at all, the mixer is paced by the monotonic clock, one period at a time")
    func noDevice() throws {
        let (plan, sounds) = try testPlan()
        let pacing = VirtualPacing(start: 7_000)
        let output = LiveAudioOutput(mixer: plannedMixer(plan, sounds), device: nil, periodFrames: 480,
                                     clock: PacingClock(now: pacing.now, sleep: pacing.sleep))
        output.start(frames: 4800)  // 100 ms
        output.wait()
        #expect(output.mixer.framesRendered == 4800)
        #expect(pacing.deadlines == (1...10).map { 7_000 + nanoseconds(Int64($0) * 480) })
        #expect(output.audioClock == 4800)
        #expect(!output.statistics.deviceLost)
    }

    @Test("the live path through an ALSA file PCM sends exactly the offline render")
    func filePCMEqualsOffline() throws {
        let folder = try TemporaryFolder()
        let capture = folder.path("capture.raw")
        let configuration = """
            pcm.diorama_capture {
                type file
                slave { pcm { type null } }
                file "\(capture)"
                format "raw"
                truncate true
                perm 0644
            }
            """
        let device = try AlsaPCM(device: "diorama_capture", sampleRate: 48_000, periodFrames: 256, periods: 3, configuration: configuration)
        #expect(device.sampleRate == 48_000)
        #expect(device.grantedSummary.contains("diorama_capture"))
        let (plan, sounds) = try testPlan()
        let output = runLive(plan, sounds, device: device, frames: 60_000)
        #expect(!output.statistics.deviceLost)
        device.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: capture))
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples.count == 120_000)
        #expect(samples == offlinePCM(plan, sounds, frames: 60_000))
    }

    @Test("an unknown device is a clear error naming it")
    func unknownDevice() {
        let error = #expect(throws: AudioDeviceError.self) {
            try AlsaPCM(device: "diorama_no_such_device", configuration: "pcm.other { type null }")
        }
        #expect(error?.description.contains("diorama_no_such_device") == true)
    }
}
