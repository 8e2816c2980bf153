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
    /// Linear master gain, applied before the limiter (with the listener's volume, `MixerCommand.volume`).
    public var masterGain: Float
    /// The shortest stop fade, in frames (5 ms by default: shorter ramps are heard as clicks).
    public var minimumStopFadeFrames: Int

    public init(
        sampleRate: Int = AudioFormat.sampleRate, voiceLimit: Int = 32, pendingLimit: Int = 256,
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
    /// Pauses and resumes refused because `Mixer.transportCapacity` were already waiting.
    public var transportChangesDropped: Int
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
/// Pause: from a pause's frame the output ramps to silence; once it is silent every voice holds
/// still (position and envelope) and the output is exactly zero until a resume, from which the
/// voices continue where they were, their envelope frames moved later by the hold's length, and
/// the output ramps up again. Starts due during the hold begin at the resume; stops due during it
/// (or at the resume's frame) end their voices silently. A stop that arrives during the pause's ramp
/// for a frame in the hold never cuts into a fade still heard under the ramp. Pauses and resumes act
/// in frame order. Blocks are split at the exact frames of these changes, so the output is the same
/// whatever the block size.
///
/// Ducking: a voice started with a `VoiceDuck` lowers every `.ambience` voice while it sounds (see
/// `VoiceDuck`); overlapping ducks take the lowest gain at each frame. Ducks of ended voices finish their
/// release from a fixed table, and the gain curve is computed per chunk of `duckChunkFrames` into a buffer
/// allocated with the mixer. With no duck in force the mix is exactly what it is without ducking.
///
/// Threads: one control thread sends commands (`send`); one audio thread calls `render`.
/// `render` does not allocate, lock, print or touch files.
public final class Mixer: @unchecked Sendable {
    // @unchecked Sendable: the voice table, pending list, transport queue, limiter and sound table
    // are touched only inside `render` (one audio thread at a time); other threads reach the mixer
    // only through the SPSC `commands` ring (one producer) and the atomic counters.
    public let configuration: MixerConfiguration
    /// Pauses and resumes that may wait for their frame at once; more are dropped and counted.
    public static let transportCapacity = 16
    /// The listener's volume (`MixerCommand.volume`), the one range for the player's keys and show control alike:
    /// up to 150 % turns a quiet scene up, and the limiter after it holds a loud one below full scale.
    public static let volumeRange: ClosedRange<Float> = 0...1.5

    /// `volume` within `volumeRange` (a value that is not a number: unity).
    public static func clampedVolume(_ volume: Float) -> Float {
        volume.isNaN ? 1 : min(max(volume, volumeRange.lowerBound), volumeRange.upperBound)
    }
    public let sounds: [MixerSound]
    public let commands: CommandRing<MixerCommand>

    private let soundTable: UnsafeMutablePointer<(source: UnsafePointer<Float>, frames: Int, channels: Int)>
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

    /// Pauses and resumes waiting for their frame, in frame order (equal frames in arrival order).
    private let transport: UnsafeMutablePointer<TransportChange>
    private var transportCount = 0
    /// A pause is in force (ramping down, or holding from `holdStart`).
    private var paused = false
    /// The first frame of the hold while `paused`: voices stand still from here.
    private var holdStart = Int64.max
    /// The output gain ramp of the last pause or resume (level 1 before any).
    private var ramp = OutputRamp()
    /// The listener's volume, ramping to the last one asked for (level 1 before any); applied before the limiter.
    private var volume = OutputRamp()
    /// Ducks of ended voices still releasing, and the ambience's gain per frame of the chunk being mixed.
    private var retiredDucks: RetiredDucks
    /// Sounding voices with a duck (every voice leaves through `retireDuck`, which counts it out).
    private var duckingVoices = 0
    private let duckCurve: UnsafeMutablePointer<Float>
    /// Frames mixed at a time while a duck is in force (the length of `duckCurve`).
    static let duckChunkFrames = 256

    private let clock = Atomic<Int64>(0)
    private let stolen = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let late = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)
    private let transportDropped = Atomic<Int>(0)

    public init(sounds: [MixerSound], configuration: MixerConfiguration = MixerConfiguration()) {
        precondition(configuration.voiceLimit > 0 && configuration.pendingLimit > 0)
        self.configuration = configuration
        self.sounds = sounds
        self.commands = CommandRing(minimumCapacity: configuration.commandCapacity)
        soundTable = .allocate(capacity: max(sounds.count, 1))
        for (index, sound) in sounds.enumerated() {
            soundTable[index] = (UnsafePointer(sound.frames.baseAddress!), sound.frameCount, sound.channels)
        }
        slotCount = configuration.voiceLimit * 2
        silence = .allocate(capacity: 2)
        silence.initialize(repeating: 0, count: 2)
        voices = .allocate(capacity: slotCount)
        voices.initialize(repeating: Voice(source: silence, soundFrames: 0), count: slotCount)
        pending = .allocate(capacity: configuration.pendingLimit)
        transport = .allocate(capacity: Self.transportCapacity)
        retiredDucks = RetiredDucks(capacity: slotCount)
        duckCurve = .allocate(capacity: Self.duckChunkFrames)
    }

    deinit {
        silence.deallocate()
        soundTable.deallocate()
        voices.deinitialize(count: slotCount)
        voices.deallocate()
        pending.deallocate()
        transport.deallocate()
        retiredDucks.deallocate()
        duckCurve.deallocate()
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
            commandsRefused: refused.load(ordering: .relaxed),
            transportChangesDropped: transportDropped.load(ordering: .relaxed))
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
        if isHeld(at: blockStart) { endStoppedInHold(before: blockStart) }
        // Segments between the exact frames where the transport changes.
        var segmentStart = blockStart
        while segmentStart < blockEnd {
            applyTransportChanges(at: segmentStart)
            let segmentEnd = min(blockEnd, nextTransportFrame(after: segmentStart))
            if !isHeld(at: segmentStart) {
                renderSegment(into: output + 2 * Int(segmentStart - blockStart), from: segmentStart,
                              count: Int(segmentEnd - segmentStart))
            }
            segmentStart = segmentEnd
        }
        frame = blockEnd
        clock.store(blockEnd, ordering: .releasing)
    }

    /// Mixes frames `start ..< start + count` (no transport change inside) into `output`. The limiter
    /// runs only here, so a hold freezes its state with the voices'.
    private func renderSegment(into output: UnsafeMutablePointer<Float>, from start: Int64, count: Int) {
        activateDueStarts(before: start + Int64(count), blockStart: start)
        if isDucking(from: start) {
            renderDucked(into: output, from: start, count: count)
        } else {
            for slot in 0..<slotCount where voices[slot].isActive {
                renderVoice(slot, into: output, blockStart: start, count: count)
            }
        }
        let master = configuration.masterGain
        if volume.isSteady(from: start) {
            let gain = master * volume.to
            if gain != 1 {
                for index in 0..<(2 * count) { output[index] *= gain }
            }
        } else {
            for index in 0..<count {
                let gain = master * volume.level(at: start + Int64(index))
                output[2 * index] *= gain
                output[2 * index + 1] *= gain
            }
        }
        limiter.process(output, frames: count)
        // After the limiter: a pause's ramp scales what would have been heard, and the limiter
        // goes on from the same state after the resume.
        if ramp.isUnity(from: start) { return }
        for index in 0..<count {
            let level = ramp.level(at: start + Int64(index))
            output[2 * index] *= level
            output[2 * index + 1] *= level
        }
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
                revoke(from: fromFrame)
            case .pause(let at, let fade):
                enqueueTransport(TransportChange(isPause: true, frame: at, fadeFrames: fade))
            case .resume(let at, let fade):
                enqueueTransport(TransportChange(isPause: false, frame: at, fadeFrames: fade))
            case .volume(let gain, let fade):
                volume = OutputRamp(start: blockStart, from: volume.level(at: blockStart), to: Self.clampedVolume(gain),
                                    frames: max(fade, 0))
            }
        }
    }

    /// Forgets waiting starts from `fromFrame` on, cancels the releases and transport changes
    /// scheduled from it that have not begun.
    private func revoke(from fromFrame: Int64) {
        // A stop has not begun if its frame is still to be rendered. In a hold too: the clock runs on
        // through it, and a stop at a frame it passed has ended its voice for good (`endStoppedInHold`).
        let threshold = max(fromFrame, frame)
        for slot in 0..<slotCount where voices[slot].isActive {
            voices[slot].stops.cancel(from: threshold)
        }
        var kept = 0
        for index in 0..<pendingCount where pending[index].start.frame < fromFrame {
            var waiting = pending[index]
            waiting.stops.cancel(from: threshold)
            pending[kept] = waiting
            kept += 1
        }
        pendingCount = kept
        kept = 0
        for index in 0..<transportCount where transport[index].frame < fromFrame {
            transport[kept] = transport[index]
            kept += 1
        }
        transportCount = kept
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
        let effective = max(stopFrame, frame)
        // A stop for a frame inside the hold is kept apart: a fade still heard under the pause's
        // ramp goes on, and the resume decides (`StopSchedule.continueAfterHold`).
        let inHold = paused && effective >= holdStart
        for slot in 0..<slotCount where voices[slot].isActive && matches(voices[slot].tag) {
            if inHold {
                voices[slot].stops.addInHold(Stop(frame: effective, fadeFrames: fade))
            } else {
                voices[slot].release(at: effective, over: fade)
            }
        }
        // A waiting start at or after the stop frame never sounds; an earlier one carries the
        // stop with it and is released once it has started.
        var kept = 0
        for index in 0..<pendingCount {
            var waiting = pending[index]
            if matches(waiting.start.tag) {
                if waiting.start.frame >= stopFrame { continue }
                if inHold {
                    waiting.stops.addInHold(Stop(frame: effective, fadeFrames: fade))
                } else {
                    waiting.stops.add(at: stopFrame, over: fade)
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
                if !start.loops && elapsed >= sound.frames {
                    retireDuck(start.duck, start: startFrame, end: startFrame + Int64(sound.frames))
                    return
                }
                position = elapsed % sound.frames
            } else {
                // Late: an audible onset now is worth more than skipping into the sound.
                late.add(1, ordering: .relaxed)
                startFrame = blockStart
            }
        }
        if waiting.stops.release.end <= blockStart {
            retireDuck(start.duck, start: startFrame, end: min(waiting.stops.release.frame, start.loops ? .max : startFrame + Int64(sound.frames)))
            return
        }
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
        if voices[slot].isActive { retireDuck(of: slot, endingAt: blockStart) }
        let gains = constantPowerGains(pan: start.pan)
        let gain = start.gain.isFinite ? max(start.gain, 0) : 0
        voices[slot] = Voice(
            isActive: true, source: sound.source, channels: sound.channels, soundFrames: sound.frames, position: position,
            loops: start.loops, startFrame: startFrame,
            gainLeft: gain * gains.left, gainRight: gain * gains.right,
            fadeInFrames: max(start.fadeInFrames, 0),
            inverseFadeIn: start.fadeInFrames > 0 ? 1 / Float(start.fadeInFrames) : 0,
            tag: start.tag, priority: start.priority, serial: nextSerial)
        voices[slot].stops = waiting.stops
        voices[slot].duck = start.duck
        if start.duck.isActive { duckingVoices += 1 }
        if startFrame > start.frame { voices[slot].stops.delay(to: startFrame) }
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
            let end = voice.release.end
            if end < nearestEnd {
                nearestEnd = end
                nearest = slot
            }
        }
        return nearest
    }

    /// `duck`: the ambience's gain per frame from `blockStart`, for a voice it applies to.
    private func renderVoice(_ slot: Int, into output: UnsafeMutablePointer<Float>, blockStart: Int64, count: Int,
                             duck: UnsafePointer<Float>? = nil) {
        var voice = voices[slot]
        var offset = Int(max(voice.startFrame - blockStart, 0))
        while offset < count {
            let now = blockStart + Int64(offset)
            if voice.isReleasing && now >= voice.release.end {
                voice.isActive = false
                retireDuck(of: voice, endingAt: now)
                break
            }
            if voice.position >= voice.soundFrames {
                if voice.loops {
                    voice.position = 0
                } else {
                    voice.isActive = false
                    retireDuck(of: voice, endingAt: now)
                    break
                }
            }
            // The longest span with no change of envelope shape and no end of sound.
            var span = min(count - offset, voice.soundFrames - voice.position)
            let sinceStart = now - voice.startFrame
            if sinceStart < Int64(voice.fadeInFrames) { span = min(span, Int(Int64(voice.fadeInFrames) - sinceStart)) }
            if voice.isReleasing {
                if now < voice.release.frame {
                    span = min(span, Int(voice.release.frame - now))
                } else {
                    span = min(span, Int(voice.release.end - now))
                }
            }
            if let duck {
                voice.mix(into: output + 2 * offset, count: span, frame: now, duck: duck + offset)
            } else {
                voice.mix(into: output + 2 * offset, count: span, frame: now)
            }
            voice.position += span
            offset += span
        }
        voices[slot] = voice
    }

    // MARK: Transport (audio thread)

    private func enqueueTransport(_ change: TransportChange) {
        guard transportCount < Self.transportCapacity else {
            transportDropped.add(1, ordering: .relaxed)
            return
        }
        // In frame order (equal frames in arrival order): a change never waits behind a later one.
        var index = transportCount
        while index > 0 && transport[index - 1].frame > change.frame {
            transport[index] = transport[index - 1]
            index -= 1
        }
        transport[index] = change
        transportCount += 1
    }

    /// Whether voices stand still at `frame` (a pause has ramped the output down to silence).
    private func isHeld(at frame: Int64) -> Bool { paused && frame >= holdStart }

    /// The next frame after `frame` where the transport changes: the head of the queue or a hold's start.
    private func nextTransportFrame(after frame: Int64) -> Int64 {
        var next = Int64.max
        if transportCount > 0 { next = max(transport[0].frame, frame + 1) }
        if paused && holdStart > frame { next = min(next, holdStart) }
        return next
    }

    /// Applies, in frame order, the waiting changes due by `frame` (late ones act at `frame`).
    private func applyTransportChanges(at frame: Int64) {
        var taken = 0
        while taken < transportCount && transport[taken].frame <= frame {
            let change = transport[taken]
            if change.isPause { pause(at: frame, fadeFrames: change.fadeFrames) } else { resume(at: frame, fadeFrames: change.fadeFrames) }
            taken += 1
        }
        guard taken > 0 else { return }
        for index in taken..<transportCount { transport[index - taken] = transport[index] }
        transportCount -= taken
    }

    private func pause(at frame: Int64, fadeFrames: Int) {
        guard !paused else { return }
        let fade = max(fadeFrames, 0)
        ramp = OutputRamp(start: frame, from: ramp.level(at: frame), to: 0, frames: fade)
        holdStart = frame + Int64(fade)
        paused = true
    }

    private func resume(at frame: Int64, fadeFrames: Int) {
        guard paused else { return }
        // From silence after a hold; during the pause's ramp, back up from the level reached (nothing was held).
        ramp = OutputRamp(start: frame, from: ramp.level(at: frame), to: 1, frames: max(fadeFrames, 0))
        continueAfterHold(resumeFrame: frame)
        paused = false
        holdStart = .max
    }

    /// Moves held voices and waiting starts over the hold `holdStart ..< resumeFrame` (none if the resume
    /// came during the ramp) and settles the stops asked for in it.
    private func continueAfterHold(resumeFrame: Int64) {
        for slot in 0..<slotCount where voices[slot].isActive {
            if !voices[slot].continueAfterHold(from: holdStart, to: resumeFrame) {
                retireDuck(of: slot, endingAt: holdStart)
                voices[slot].isActive = false
            }
        }
        for index in 0..<retiredDucks.count { retiredDucks.entries[index].continueAfterHold(from: holdStart, to: resumeFrame) }
        // Frame order survives: the map from old to new frames never decreases.
        var kept = 0
        for index in 0..<pendingCount {
            var waiting = pending[index]
            guard waiting.continueAfterHold(from: holdStart, to: resumeFrame) else { continue }
            pending[kept] = waiting
            kept += 1
        }
        pendingCount = kept
    }

    /// While held, ends the voices and drops the waiting starts stopped at a frame the clock has passed
    /// (before `frame`): no resume can come before the clock, nor a revocation reach back past it, so they
    /// never sound again. Navigating for long while paused then leaves one waiting start per bed, not one per step.
    private func endStoppedInHold(before frame: Int64) {
        for slot in 0..<slotCount where voices[slot].isActive && voices[slot].stops.holdStop.frame < frame {
            retireDuck(of: slot, endingAt: holdStart)
            voices[slot].isActive = false
        }
        var kept = 0
        for index in 0..<pendingCount where pending[index].stops.holdStop.frame >= frame {
            pending[kept] = pending[index]
            kept += 1
        }
        pendingCount = kept
    }
}

// MARK: Ducking (audio thread)

extension Mixer {
    /// Whether any duck lowers the ambience from `frame` on (forgetting retired ducks that are over).
    fileprivate func isDucking(from frame: Int64) -> Bool {
        if duckingVoices > 0 { return true }
        guard retiredDucks.count > 0 else { return false }
        retiredDucks.prune(before: frame)
        return retiredDucks.count > 0
    }

    /// Mixes like `renderSegment`'s plain loop, in chunks of `duckChunkFrames` whose ambience voices are scaled by
    /// the deepest duck at each frame.
    fileprivate func renderDucked(into output: UnsafeMutablePointer<Float>, from start: Int64, count: Int) {
        let minimum = configuration.minimumStopFadeFrames
        var done = 0
        while done < count {
            let chunk = min(Self.duckChunkFrames, count - done)
            let chunkStart = start + Int64(done)
            retiredDucks.prune(before: chunkStart)
            duckCurve.update(repeating: 1, count: chunk)
            for slot in 0..<slotCount where voices[slot].isActive && voices[slot].duck.isActive {
                voices[slot].duckEnvelope(minimumFrames: minimum).lower(duckCurve, from: chunkStart, count: chunk)
            }
            for index in 0..<retiredDucks.count { retiredDucks.entries[index].lower(duckCurve, from: chunkStart, count: chunk) }
            for slot in 0..<slotCount where voices[slot].isActive {
                renderVoice(slot, into: output + 2 * done, blockStart: chunkStart, count: chunk,
                            duck: voices[slot].priority == .ambience ? UnsafePointer(duckCurve) : nil)
            }
            done += chunk
        }
    }

    /// Keeps the duck of the voice in `slot`, ending no later than `frame`, releasing after the voice is gone.
    fileprivate func retireDuck(of slot: Int, endingAt frame: Int64) {
        retireDuck(of: voices[slot], endingAt: frame)
    }

    fileprivate func retireDuck(of voice: Voice, endingAt frame: Int64) {
        guard voice.duck.isActive else { return }
        duckingVoices -= 1
        var envelope = voice.duckEnvelope(minimumFrames: configuration.minimumStopFadeFrames)
        envelope.end = max(min(envelope.end, frame), envelope.start)
        retiredDucks.add(envelope)
    }

    /// The duck of a start that is over before it could begin (a span rendered from after it): its release may
    /// still reach into what is mixed.
    fileprivate func retireDuck(_ duck: VoiceDuck, start: Int64, end: Int64) {
        guard duck.isActive, end != .max else { return }
        retiredDucks.add(DuckEnvelope(duck, start: start, end: end, minimumFrames: configuration.minimumStopFadeFrames))
    }
}

/// A start waiting for its frame, with the stops that arrived before it started.
struct PendingStart {
    var start: VoiceStart
    var stops = StopSchedule()

    init(start: VoiceStart) { self.start = start }

    /// Moves the start over a hold `holdStart ..< resumeFrame` (none if the resume came during the ramp):
    /// a start due in the hold begins at the resume, earlier frames move later by the hold's length.
    /// False if it was stopped in the hold.
    mutating func continueAfterHold(from holdStart: Int64, to resumeFrame: Int64) -> Bool {
        guard stops.continueAfterHold(from: holdStart, to: resumeFrame) else { return false }
        if start.frame < holdStart {
            start.frame += max(resumeFrame - holdStart, 0)
        } else if start.frame < resumeFrame {
            start.frame = resumeFrame
        }
        return true
    }
}

/// A pause or resume waiting for its frame.
struct TransportChange {
    var isPause: Bool
    var frame: Int64
    var fadeFrames: Int
}

/// The output gain of pauses and resumes, and the listener's volume: linear from `from` at frame `start` to `to` over
/// `frames` frames, then `to`. Computed from integer frame counts, so any block split gives the same level.
struct OutputRamp {
    var start: Int64 = 0
    var from: Float = 1
    var to: Float = 1
    var frames = 0
    var inverse: Float = 0

    init() {}

    init(start: Int64, from: Float, to: Float, frames: Int) {
        self.start = start
        self.from = from
        self.to = to
        self.frames = frames
        self.inverse = frames > 0 ? 1 / Float(frames) : 0
    }

    func level(at frame: Int64) -> Float {
        let elapsed = frame - start
        if elapsed >= Int64(frames) { return to }
        return from + (to - from) * (Float(max(elapsed, 0)) * inverse)
    }

    /// Whether the level is exactly 1 from `frame` on.
    func isUnity(from frame: Int64) -> Bool { to == 1 && isSteady(from: frame) }

    /// Whether the level is `to` from `frame` on.
    func isSteady(from frame: Int64) -> Bool { frame >= start + Int64(frames) }
}
