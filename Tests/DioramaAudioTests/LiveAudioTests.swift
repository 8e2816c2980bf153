import DioramaAudio
import DioramaMixer
import Foundation
import Glibc
import Testing

/// A device stand-in that captures what is written and fails on chosen write calls.
final class FaultyPCM: PCMDevice, @unchecked Sendable {
    // @unchecked Sendable: used by the live output's audio thread only between start() and
    // wait(); the test reads it after wait() has joined that thread.
    let sampleRate = 48_000
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

    init(periodFrames: Int = 256, faults: [Int: Int32] = [:], partialWrites: Set<Int> = [], fatal: Int32? = nil) {
        self.periodFrames = periodFrames
        self.bufferFrames = periodFrames * 3
        self.faults = faults
        self.partialWrites = partialWrites
        self.fatal = fatal
        captured.reserveCapacity(1 << 22)
    }

    func write(_ samples: UnsafePointer<Int16>, frames: Int) -> Int {
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
}

/// A short plan: a looping bed cross-fading between two scenes and clicks on odd frames.
private func testPlan() throws -> (AudioPlan, [MixerSound]) {
    let bed = MixerSound(name: "bed", mono: (0..<4410).map { Float(sin(Double($0) * 2 * .pi * 10 / 4410) * 0.3) })
    let click = MixerSound(name: "click", mono: try #require(ProjectSounds.make("click")).samples)
    let plan = AudioPlan(
        scenes: [
            AudioPlan.SceneSound(startFrame: 0, endFrame: 30_000, ambience: [AudioPlan.Bed(sound: 0, gain: 0.5, fadeInFrames: 2400, fadeOutFrames: 4800)]),
            AudioPlan.SceneSound(startFrame: 30_000, endFrame: 60_000, ambience: [AudioPlan.Bed(sound: 0, gain: 0.7, fadeInFrames: 4800, fadeOutFrames: 4800)]),
        ],
        cues: [1_001, 7_777, 12_345, 29_999, 30_000, 44_444, 59_000].map { AudioPlan.CueSound(frame: $0, sound: 1, gain: 0.8, pan: 0.25) })
    return (plan, [bed, click])
}

/// What the live path must send: the offline mix, through the same float-to-16-bit conversion.
private func offlinePCM(_ plan: AudioPlan, _ sounds: [MixerSound], frames: Int64) -> [Int16] {
    OfflineAudio.mix(plan: plan, sounds: sounds, span: 0..<frames).map(pcm16)
}

private func runLive(_ plan: AudioPlan, _ sounds: [MixerSound], device: PCMDevice, frames: Int64) -> LiveAudioOutput {
    let mixer = Mixer(sounds: sounds)
    var feeder = AudioPlanFeeder(plan: plan, soundFrames: sounds.map(\.frameCount))
    feeder.feed(mixer, before: .max)  // a short plan fits the command ring whole
    #expect(feeder.isFinished)
    let output = LiveAudioOutput(mixer: mixer, device: device)
    output.start(frames: frames)
    output.wait()
    return output
}

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

    @Test("a device that disappears: playback goes on silent on the monotonic clock, reported once")
    func deviceLost() throws {
        let (plan, sounds) = try testPlan()
        let device = FaultyPCM(faults: [10: ENODEV], fatal: ENODEV)
        // 12 periods: 9 written, then the loss, then 3 paced in real time (16 ms).
        let output = runLive(plan, sounds, device: device, frames: 12 * 256)
        #expect(output.statistics.deviceLost)
        #expect(output.statistics.lossError == ENODEV)
        #expect(output.statistics.framesWritten == 12 * 256)
        #expect(device.captured == Array(offlinePCM(plan, sounds, frames: 9 * 256)))
    }

    @Test("with no device at all, the mixer is paced by the monotonic clock")
    func noDevice() throws {
        let (plan, sounds) = try testPlan()
        let mixer = Mixer(sounds: sounds)
        var feeder = AudioPlanFeeder(plan: plan, soundFrames: sounds.map(\.frameCount))
        feeder.feed(mixer, before: .max)
        let output = LiveAudioOutput(mixer: mixer, device: nil, periodFrames: 480)
        let before = ContinuousClock.now
        output.start(frames: 4800)  // 100 ms
        output.wait()
        let elapsed = ContinuousClock.now - before
        #expect(mixer.framesRendered == 4800)
        #expect(elapsed >= .milliseconds(85))  // paced, not rushed (the last period is not waited for)
        #expect(output.audioClock <= 4800)
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
