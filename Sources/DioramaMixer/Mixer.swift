import Synchronization

/// Settings fixed for a mixer's lifetime.
public struct MixerConfiguration: Sendable, Equatable {
    /// Frames per second of the sounds and the output.
    public var sampleRate: Int
    /// The most voices that sound at once, not counting voices fading out after being stolen.
    public var voiceLimit: Int
    /// Voices waiting for their start frame, at most.
    public var pendingLimit: Int
    /// Commands the ring holds between two blocks, at most.
    public var commandCapacity: Int
    /// Linear master gain, applied before the limiter.
    public var masterGain: Float
    /// The shortest stop fade, in frames (5 ms by default: shorter ramps are heard as clicks).
    public var minimumStopFadeFrames: Int

    public init(
        sampleRate: Int = 48_000, voiceLimit: Int = 32, pendingLimit: Int = 256,
        commandCapacity: Int = 1024, masterGain: Float = 1, minimumStopFadeFrames: Int? = nil
    ) {
        self.sampleRate = sampleRate
        self.voiceLimit = voiceLimit
        self.pendingLimit = pendingLimit
        self.commandCapacity = commandCapacity
        self.masterGain = masterGain
        self.minimumStopFadeFrames = minimumStopFadeFrames ?? sampleRate / 200
    }
}

/// Counters the mixer keeps while rendering; readable from any thread.
public struct MixerStatistics: Sendable, Equatable {
    /// Frames rendered so far: the mixer's clock.
    public var framesRendered: Int64
    /// Voices faded out early because the voice limit was reached.
    public var voicesStolen: Int
    /// Starts refused: no voice could be stolen for them, or too many were waiting.
    public var startsDropped: Int
    /// Starts whose frame had already passed when they arrived (they begin at once).
    public var lateStarts: Int
    /// Commands refused because the ring was full (counted by the producer).
    public var commandsRefused: Int
}

/// The sample-accurate mixer shared by live and offline output.
///
/// Voice-stealing policy: when `voiceLimit` voices are sounding and another starts, the mixer
/// steals the voice of lowest priority (cues before ambience), oldest first, among voices of at
/// most the newcomer's priority. The stolen voice fades out over the minimum stop fade from the
/// newcomer's first frame (so it never clicks). A cue never steals an ambience bed: if only beds
/// are left, the cue is dropped and counted. Voices fading out do not count toward the limit;
/// they take spare slots (as many as the limit), and if even those are full the quietest-ending
/// release is cut short.
///
/// Threads: one control thread sends commands (`send`); one audio thread calls `render`.
/// `render` does not allocate, lock, print or touch files.
public final class Mixer: @unchecked Sendable {
    // @unchecked Sendable: the voice table, pending list, limiter and sound table are touched
    // only inside `render` (one audio thread at a time); other threads reach the mixer only
    // through the SPSC `commands` ring (one producer) and the atomic counters.
    public let configuration: MixerConfiguration
    public let sounds: [MixerSound]
    public let commands: CommandRing<MixerCommand>

    private let soundTable: UnsafeMutablePointer<(source: UnsafePointer<Float>, frames: Int)>
    private let voices: UnsafeMutablePointer<Voice>
    /// What free voice slots point at.
    private let silence: UnsafeMutablePointer<Float>
    private let slotCount: Int
    /// Waiting starts, sorted by frame then arrival.
    private let pending: UnsafeMutablePointer<PendingStart>
    private var pendingCount = 0
    private var limiter = SoftLimiter()
    private var nextSerial: UInt64 = 0
    private var frame: Int64 = 0

    private let clock = Atomic<Int64>(0)
    private let stolen = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let late = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)

    public init(sounds: [MixerSound], configuration: MixerConfiguration = MixerConfiguration()) {
        precondition(configuration.voiceLimit > 0 && configuration.pendingLimit > 0)
        self.configuration = configuration
        self.sounds = sounds
        self.commands = CommandRing(minimumCapacity: configuration.commandCapacity)
        soundTable = .allocate(capacity: max(sounds.count, 1))
        for (index, sound) in sounds.enumerated() {
            soundTable[index] = (UnsafePointer(sound.frames.baseAddress!), sound.frameCount)
        }
        slotCount = configuration.voiceLimit * 2
        silence = .allocate(capacity: 2)
        silence.initialize(repeating: 0, count: 2)
        voices = .allocate(capacity: slotCount)
        voices.initialize(repeating: Voice(source: silence, soundFrames: 0), count: slotCount)
        pending = .allocate(capacity: configuration.pendingLimit)
    }

    deinit {
        silence.deallocate()
        soundTable.deallocate()
        voices.deinitialize(count: slotCount)
        voices.deallocate()
        pending.deallocate()
    }

    // MARK: Control thread

    /// Queues a command for the next block; false (and counted) if the ring is full.
    @discardableResult
    public func send(_ command: MixerCommand) -> Bool {
        if commands.push(command) { return true }
        refused.add(1, ordering: .relaxed)
        return false
    }

    /// Frames rendered so far, as published after the last block.
    public var framesRendered: Int64 { clock.load(ordering: .acquiring) }

    public var statistics: MixerStatistics {
        MixerStatistics(
            framesRendered: framesRendered,
            voicesStolen: stolen.load(ordering: .relaxed),
            startsDropped: dropped.load(ordering: .relaxed),
            lateStarts: late.load(ordering: .relaxed),
            commandsRefused: refused.load(ordering: .relaxed))
    }

    // MARK: Audio thread

    /// Renders the next `frames` frames into `output` (interleaved stereo, `2 * frames` floats),
    /// replacing its contents, and advances the clock. Real-time safe.
    public func render(into output: UnsafeMutablePointer<Float>, frames count: Int) {
        guard count > 0 else { return }
        output.update(repeating: 0, count: 2 * count)
        let blockStart = frame
        let blockEnd = blockStart + Int64(count)
        drainCommands(blockStart: blockStart)
        activateDueStarts(before: blockEnd, blockStart: blockStart)
        for slot in 0..<slotCount where voices[slot].isActive {
            renderVoice(slot, into: output, blockStart: blockStart, count: count)
        }
        let master = configuration.masterGain
        if master != 1 {
            for index in 0..<(2 * count) { output[index] *= master }
        }
        limiter.process(output, frames: count)
        frame = blockEnd
        clock.store(blockEnd, ordering: .releasing)
    }

    private func drainCommands(blockStart: Int64) {
        while let command = commands.pop() {
            switch command {
            case .start(let start):
                guard start.sound >= 0 && start.sound < sounds.count else {
                    dropped.add(1, ordering: .relaxed)
                    continue
                }
                insertPending(start)
            case .stop(let tag, let at, let fade):
                stop(where: { $0 == tag }, at: at, fadeFrames: fade)
            case .stopAll(let at, let fade):
                stop(where: { _ in true }, at: at, fadeFrames: fade)
            case .revoke(let fromFrame):
                var kept = 0
                for index in 0..<pendingCount where pending[index].start.frame < fromFrame {
                    pending[kept] = pending[index]
                    kept += 1
                }
                pendingCount = kept
            case .pause, .resume:
                break  // TODO(mixer): hold and continue voices
            }
        }
    }

    private func insertPending(_ start: VoiceStart) {
        guard pendingCount < configuration.pendingLimit else {
            dropped.add(1, ordering: .relaxed)
            return
        }
        // Sorted by frame; equal frames keep their arrival order.
        var index = pendingCount
        while index > 0 && pending[index - 1].start.frame > start.frame {
            pending[index] = pending[index - 1]
            index -= 1
        }
        pending[index] = PendingStart(start: start)
        pendingCount += 1
    }

    @inline(__always)
    private func stop(where matches: (UInt32) -> Bool, at stopFrame: Int64, fadeFrames: Int) {
        let fade = max(fadeFrames, configuration.minimumStopFadeFrames)
        for slot in 0..<slotCount where voices[slot].isActive && matches(voices[slot].tag) {
            voices[slot].release(at: max(stopFrame, frame), over: fade)
        }
        // A waiting start at or after the stop frame never sounds; an earlier one carries the
        // stop with it and is released once it has started.
        var kept = 0
        for index in 0..<pendingCount {
            var waiting = pending[index]
            if matches(waiting.start.tag) {
                if waiting.start.frame >= stopFrame { continue }
                if stopFrame + Int64(fade) < waiting.releaseFrame + Int64(waiting.releaseFade) {
                    waiting.releaseFrame = stopFrame
                    waiting.releaseFade = fade
                }
            }
            pending[kept] = waiting
            kept += 1
        }
        pendingCount = kept
    }

    private func activateDueStarts(before blockEnd: Int64, blockStart: Int64) {
        var taken = 0
        while taken < pendingCount && pending[taken].start.frame < blockEnd {
            activate(pending[taken], blockStart: blockStart)
            taken += 1
        }
        guard taken > 0 else { return }
        for index in taken..<pendingCount { pending[index - taken] = pending[index] }
        pendingCount -= taken
    }

    private func activate(_ waiting: PendingStart, blockStart: Int64) {
        let start = waiting.start
        var startFrame = start.frame
        var position = 0
        let sound = soundTable[start.sound]
        guard sound.frames > 0 else { return }
        if startFrame < blockStart {
            let elapsed = Int(blockStart - startFrame)
            if start.catchUp {
                // Join the voice where it would be by now; its envelope still counts from its start.
                if !start.loops && elapsed >= sound.frames { return }
                position = elapsed % sound.frames
            } else {
                // Late: an audible onset now is worth more than skipping into the sound.
                late.add(1, ordering: .relaxed)
                startFrame = blockStart
            }
        }
        if waiting.releaseFrame != Int64.max && waiting.releaseFrame + Int64(waiting.releaseFade) <= blockStart { return }
        var sounding = 0
        for slot in 0..<slotCount where voices[slot].isActive && !voices[slot].isReleasing { sounding += 1 }
        if sounding >= configuration.voiceLimit {
            guard let victim = stealCandidate(priority: start.priority) else {
                dropped.add(1, ordering: .relaxed)
                return
            }
            voices[victim].release(at: max(startFrame, blockStart), over: configuration.minimumStopFadeFrames)
            stolen.add(1, ordering: .relaxed)
        }
        let slot = freeSlot()
        let gains = constantPowerGains(pan: start.pan)
        let gain = start.gain.isFinite ? max(start.gain, 0) : 0
        voices[slot] = Voice(
            isActive: true, source: sound.source, soundFrames: sound.frames, position: position,
            loops: start.loops, startFrame: startFrame,
            gainLeft: gain * gains.left, gainRight: gain * gains.right,
            fadeInFrames: max(start.fadeInFrames, 0),
            inverseFadeIn: start.fadeInFrames > 0 ? 1 / Float(start.fadeInFrames) : 0,
            tag: start.tag, priority: start.priority, serial: nextSerial)
        if waiting.releaseFrame != Int64.max {
            voices[slot].release(at: waiting.releaseFrame, over: waiting.releaseFade)
        }
        nextSerial &+= 1
    }

    /// The sounding voice to steal for a newcomer of `priority`, or nil if none may be stolen.
    private func stealCandidate(priority: VoicePriority) -> Int? {
        var best: Int?
        for slot in 0..<slotCount where voices[slot].isActive && !voices[slot].isReleasing {
            let voice = voices[slot]
            guard voice.priority <= priority else { continue }
            if let current = best {
                let other = voices[current]
                if (voice.priority, voice.serial) < (other.priority, other.serial) { best = slot }
            } else {
                best = slot
            }
        }
        return best
    }

    /// A free slot; if none, the releasing voice nearest its end is cut to make room.
    private func freeSlot() -> Int {
        var nearest = 0
        var nearestEnd = Int64.max
        for slot in 0..<slotCount {
            if !voices[slot].isActive { return slot }
            let voice = voices[slot]
            let end = voice.releaseFrame == Int64.max ? Int64.max : voice.releaseFrame + Int64(voice.releaseFrames)
            if end < nearestEnd {
                nearestEnd = end
                nearest = slot
            }
        }
        return nearest
    }

    private func renderVoice(_ slot: Int, into output: UnsafeMutablePointer<Float>, blockStart: Int64, count: Int) {
        var voice = voices[slot]
        var offset = Int(max(voice.startFrame - blockStart, 0))
        while offset < count {
            let now = blockStart + Int64(offset)
            if voice.isReleasing && now >= voice.releaseFrame + Int64(voice.releaseFrames) {
                voice.isActive = false
                break
            }
            if voice.position >= voice.soundFrames {
                if voice.loops {
                    voice.position = 0
                } else {
                    voice.isActive = false
                    break
                }
            }
            // The longest span with no change of envelope shape and no end of sound.
            var span = min(count - offset, voice.soundFrames - voice.position)
            let sinceStart = now - voice.startFrame
            if sinceStart < Int64(voice.fadeInFrames) { span = min(span, Int(Int64(voice.fadeInFrames) - sinceStart)) }
            if voice.isReleasing {
                if now < voice.releaseFrame {
                    span = min(span, Int(voice.releaseFrame - now))
                } else {
                    span = min(span, Int(voice.releaseFrame + Int64(voice.releaseFrames) - now))
                }
            }
            voice.mix(into: output + 2 * offset, count: span, frame: now)
            voice.position += span
            offset += span
        }
        voices[slot] = voice
    }
}

/// A start waiting for its frame, with a stop that arrived before it started.
struct PendingStart {
    var start: VoiceStart
    var releaseFrame = Int64.max
    var releaseFade = 0
}
