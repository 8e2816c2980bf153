import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTimeline
import Foundation

/// Proves from the offline mix that every scheduled cue is heard from its sample on, and that nothing else
/// starts to sound. What is mixed is what the player plays: the sequencer's commands for the playlist played once
/// (`PlaylistAudio.commands(playingOnce:)`); where a cue's sound ends (its `until`, a stop cue, its scene's end) is
/// read from those commands, not worked out again here.
///
/// Where a cue is heard: the mix around it is rendered twice through the real mixer, once as planned and once
/// with that cue's voice at gain 0 (it still takes its voice, ducks the ambience, is stopped and stolen the
/// same), and the first sample where the two differ is where it is heard. Everything else in the mix (beds,
/// overlapping ringing cues, the limiter's state up to that sample) is the same in both, so the answer is
/// exact whatever sounds around it. The cue should be heard on its scheduled sample plus its sound's leading
/// silence (its first non-zero sample); samples quieter than `audibleFloor` before that may be lost under a
/// louder bed. What is heard from there must also be its own sound, judged by the cue's own contribution: the
/// mix with every other voice at gain 0 (the same voices, stops and steals, nothing else sounding and nothing
/// else moving the limiter) correlates with its sound as panned over its first 20 ms, on both channels.
///
/// When it is heard: a sound's leading silence (`LeadingSilence`) is lateness the author cannot see, so each firing
/// that sounds is also checked to be heard within `lateness` seconds of its moment, unless its sound says the silence
/// is intended (`"leadingSilence": "intended"`).
///
/// Unscheduled sounds: the mix with every cue at gain 0 (the ambience as heard, ducked as it is) is searched
/// for onsets (`OnsetDetector`); each must be a bed's start or an onset of the bed's own sound at that point
/// of its loop. A click where a bed loops, or a sound no cue or bed schedules, is reported.
public struct AudioVerification: Sendable {
    public let audio: PlaylistAudio
    public let schedule: CueSchedule
    /// What is mixed, in frame order: the audio's commands for the schedule played once unless given.
    public let commands: [MixerCommand]
    /// The frame after the last scene's end.
    public let endFrame: Int64
    /// The sounds the mixer plays: the bank's unless given (a test can swap one).
    public let mixedSounds: [MixerSound]
    /// How much later than its moment a cue may be heard, in seconds (the expectations file's `lateness`).
    public let lateness: Double
    /// Where each sound is named in the scenes file, by name, for the messages.
    public let soundReferences: [String: MediaReference]

    /// Contributions smaller than this (-120 dBFS) may be lost under a louder bed before a cue's onset.
    public static let audibleFloor: Float = 1e-6
    /// What is heard from a cue's onset must correlate with its sound at least this well.
    public static let identityThreshold = 0.9
    /// How far apart an onset of the ambience and an onset of its sound may be, in seconds.
    public static let onsetTolerance = 0.01
    /// How much later than its moment a cue may be heard unless the expectations say otherwise, in seconds (10 ms).
    public static let defaultLateness = 0.01

    /// `mediaReferences`: the loaded document's, so that a message can say where a sound is named.
    public init(audio: PlaylistAudio, schedule: CueSchedule, commands: [MixerCommand]? = nil, mixedSounds: [MixerSound]? = nil,
                lateness: Double = AudioVerification.defaultLateness, mediaReferences: [MediaReference] = []) {
        self.audio = audio
        self.schedule = schedule
        self.commands = commands ?? audio.commands(playingOnce: schedule)
        self.endFrame = PlaylistAudio.endFrame(of: schedule)
        self.mixedSounds = mixedSounds ?? audio.bank.sounds
        self.lateness = lateness
        var references: [String: MediaReference] = [:]
        for reference in mediaReferences {
            if case .sound(let name) = reference.kind, references[name] == nil { references[name] = reference }
        }
        self.soundReferences = references
    }

    private var sampleRate: Int { audio.sampleRate }

    /// One check per cue firing that sounds, then one per scene that nothing unscheduled sounds in it; in scene order.
    public func checks() -> [VerificationCheck] {
        var startsByTag: [UInt32: [Int]] = [:]
        for (index, command) in commands.enumerated() {
            if case .start(let start) = command, PlaylistAudio.isCueTag(start.tag) { startsByTag[start.tag, default: []].append(index) }
        }
        var taken: [UInt32: Int] = [:]
        var occurrences: [Int: [Int: Int]] = [:]
        var cueChecks: [[VerificationCheck]] = Array(repeating: [], count: schedule.scenes.count)
        var matched: [Int] = []
        for cue in schedule.cues {
            let firing = cue.firing
            let occurrence = (occurrences[firing.scene]?[firing.cue] ?? 0) + 1
            occurrences[firing.scene, default: [:]][firing.cue] = occurrence
            let firingName = Self.cueName(firing, in: audio.document) + " firing \(occurrence)"
            let name = firingName + " starts on its sample"
            guard audio.bank.index(of: firing.sound) != nil else {
                cueChecks[firing.scene].append(VerificationCheck(scene: firing.sceneID, name: name, passed: false,
                    detail: "its sound \"\(firing.sound)\" did not load, so it is silent (diorama check says why)"))
                continue
            }
            let span = schedule.scenes[firing.scene]
            let tag = PlaylistAudio.cueTag(scene: firing.scene, cue: firing.cue)
            let index = taken[tag, default: 0]
            taken[tag] = index + 1
            guard let starts = startsByTag[tag], index < starts.count else {
                cueChecks[firing.scene].append(VerificationCheck(scene: firing.sceneID, name: name, passed: false,
                    detail: "expected sample \(cue.sampleIndex) (scene \(sceneTime(cue.sampleIndex, span))), found none: the mix never plays it"))
                continue
            }
            matched.append(starts[index])
            // A sound ended on the sample it starts on never sounds (the mixer drops a start its stop reaches): nothing to hear.
            let stopFrame = stopFrame(ofStartAt: starts[index])
            if stopFrame <= cue.sampleIndex { continue }
            cueChecks[firing.scene] += checkOnset(cue, command: starts[index], stopFrame: stopFrame, firingName: firingName)
        }
        let unscheduled = unscheduledChecks(mutingCueStarts: matched)
        return schedule.scenes.indices.flatMap { cueChecks[$0] + [unscheduled[$0]] }
    }

    /// Where the commands end the voice `commands[index]` starts: the first stop of its tag after it (its `until`, a
    /// stop cue or its scene's end, in the order the sequencer gives them), or never.
    private func stopFrame(ofStartAt index: Int) -> Int64 {
        guard case .start(let start) = commands[index] else { return .max }
        for later in commands[(index + 1)...] {
            if case .stop(let tag, let frame, _) = later, tag == start.tag { return frame }
        }
        return .max
    }

    /// `cue 0 "id" (bell)`.
    static func cueName(_ firing: CueFiring, in document: Document) -> String {
        "cue \(firing.cue)" + (firing.id.map { " \"\($0)\"" } ?? "") + " (\(firing.sound))"
    }

    private func sceneTime(_ sample: Int64, _ span: SceneSpan) -> String {
        String(format: "%.4f s", Double(sample - span.startSample) / Double(sampleRate))
    }

    // MARK: Cue onsets

    /// Whether the firing starts on its sample (as its own sound), then whether it is heard in time.
    private func checkOnset(_ cue: ScheduledCue, command: Int, stopFrame: Int64, firingName: String) -> [VerificationCheck] {
        let name = firingName + " starts on its sample"
        let span = schedule.scenes[cue.firing.scene]
        guard case .start(let start) = commands[command] else { preconditionFailure("a start command") }
        // The sound the firing plays: its sound, or the take of it its variation drew.
        let sound = start.sound
        let samples = audio.bank.sounds[sound].interleavedSamples
        let gains = constantPowerGains(pan: start.pan)
        let gain = (left: start.gain * gains.left, right: start.gain * gains.right)
        func contribution(_ frame: Int) -> Float {
            max(abs(samples[2 * frame] * gain.left), abs(samples[2 * frame + 1] * gain.right))
        }
        let frameCount = samples.count / 2
        guard let lead = (0..<frameCount).first(where: { contribution($0) != 0 }), cue.sampleIndex + Int64(lead) < stopFrame else {
            let silent = "silent: its sound ends before any sample of it is heard"
            return [VerificationCheck(scene: cue.firing.sceneID, name: name, passed: true, detail: silent),
                    VerificationCheck(scene: cue.firing.sceneID, name: latenessName(firingName), passed: true, detail: silent)]
        }
        let expected = cue.sampleIndex + Int64(lead)
        var muted = commands
        muted[command] = Self.muted(start)
        let identityFrames = sampleRate / 50
        var spanStart = max(0, cue.sampleIndex - Int64(sampleRate / 4))
        var spanEnd = expected + Int64(identityFrames + sampleRate / 4)
        var found: Int64?
        var heard: [Float] = [], silenced: [Float] = []
        for attempt in 0..<3 {
            heard = mix(commands, spanStart..<spanEnd)
            silenced = mix(muted, spanStart..<spanEnd)
            let difference = Self.firstDifference(heard, silenced)
            if let difference, difference == 0, spanStart > 0 {
                // Already sounding when the span starts: render from the playlist's start to see where it began.
                spanStart = 0
                continue
            }
            if let difference { found = spanStart + Int64(difference); break }
            if attempt == 0 { spanEnd = max(spanEnd, endFrame) } else { break }
        }
        let expectedText = "sample \(expected) (scene \(sceneTime(expected, span)))"
            + (lead > 0 ? ", its cue's \(cue.sampleIndex) plus \(lead) of its sound's leading silence" : "")
        guard let found else {
            return [VerificationCheck(scene: cue.firing.sceneID, name: name, passed: false,
                                      detail: "expected \(expectedText), found none: it is never heard")]
        }
        let swallowed = found > expected && (lead..<min(frameCount, lead + Int(found - expected))).allSatisfy { contribution($0) < Self.audibleFloor }
        // Where the voice began: its sample, or where the mix shows its first non-zero sample came from.
        let voiceStart = found == expected || swallowed ? cue.sampleIndex : found - Int64(lead)
        let heardInTime = checkLateness(cue, sound: sound, gain: gain, voiceStart: voiceStart, name: latenessName(firingName))
        guard found == expected || swallowed else {
            let offset = found - expected
            return [VerificationCheck(scene: cue.firing.sceneID, name: name, passed: false,
                detail: "expected \(expectedText), found sample \(found) (scene \(sceneTime(found, span))): "
                    + "\(abs(offset)) sample\(abs(offset) == 1 ? "" : "s") \(offset > 0 ? "late" : "early")"), heardInTime]
        }
        // What is heard is the cue's own sound, from where it should be in it, judged by the cue's contribution alone.
        let from = Int(found - spanStart), position = Int(found - cue.sampleIndex)
        let count = min(identityFrames, heard.count / 2 - from, frameCount - position)
        if count > 0 {
            let own = mix(Self.soloed(commands, keeping: command), spanStart..<spanEnd)
            if let correlation = Self.correlation(own: own, from: from, sound: samples, gains: gain, position: position, count: count),
               correlation < Self.identityThreshold {
                return [VerificationCheck(scene: cue.firing.sceneID, name: name, passed: false,
                    detail: "heard from \(expectedText), but it is not its sound \"\(cue.firing.sound)\" "
                        + String(format: "(correlation %.2f over its first 20 ms, at least %.2f expected)", correlation, Self.identityThreshold)),
                        heardInTime]
            }
        }
        return [VerificationCheck(scene: cue.firing.sceneID, name: name, passed: true, detail: expectedText), heardInTime]
    }

    /// `cue 0 (bell) firing 1 is heard within 10 ms of its moment`.
    private func latenessName(_ firingName: String) -> String {
        firingName + " is heard within " + Verifier.number(lateness * 1000) + " ms of its moment"
    }

    /// Whether the firing whose voice began on `voiceStart` is heard within `lateness` of its moment: after its sound's
    /// leading silence as panned (`LeadingSilence`), unless the sound says that silence is intended.
    private func checkLateness(_ cue: ScheduledCue, sound: Int, gain: (left: Float, right: Float), voiceStart: Int64, name: String) -> VerificationCheck {
        let span = schedule.scenes[cue.firing.scene]
        let samples = audio.bank.sounds[sound].interleavedSamples
        let silence = LeadingSilence.frames(in: samples, gains: gain) ?? 0
        let heardAt = voiceStart + Int64(silence)
        let late = Int(heardAt - cue.sampleIndex)
        let lateText = LeadingSilence.milliseconds(late, sampleRate: sampleRate)
        guard late > 0 else { return VerificationCheck(scene: cue.firing.sceneID, name: name, passed: true, detail: "heard on its moment") }
        let intended = audio.document.sounds.first { $0.name == cue.firing.sound }?.leadingSilenceIntended ?? false
        if Double(late) <= lateness * Double(sampleRate) {
            return VerificationCheck(scene: cue.firing.sceneID, name: name, passed: true, detail: "heard \(lateText) after its moment")
        }
        if intended {
            return VerificationCheck(scene: cue.firing.sceneID, name: name, passed: true,
                                     detail: "heard \(lateText) after its moment: its sound \"\(cue.firing.sound)\" says its leading silence is intended")
        }
        var detail = "heard at sample \(heardAt) (scene \(sceneTime(heardAt, span))), \(lateText) after its moment "
            + "(sample \(cue.sampleIndex), scene \(sceneTime(cue.sampleIndex, span)))"
        if silence > 0 {
            detail += ": its sound \"\(cue.firing.sound)\" starts with \(LeadingSilence.milliseconds(silence, sampleRate: sampleRate)) of silence"
            if let reference = soundReferences[cue.firing.sound] {
                detail += " (\(reference.file):\(reference.line):\(reference.column) at \(reference.jsonPath))"
            }
            detail += "; hint: trim the silence from its file, fire the cue that much earlier "
                + String(format: "(\"offset\": %.4f)", -Double(silence) / Double(sampleRate))
                + ", allow it with \"lateness\" in the expectations file, or, if it is intended, say so on the sound: \"leadingSilence\": \"intended\""
        }
        return VerificationCheck(scene: cue.firing.sceneID, name: name, passed: false, detail: detail)
    }

    /// `commands` with every start but the one at `kept` at gain 0: the cue's own contribution, with the same voices
    /// taken, stopped and stolen as in the mix.
    static func soloed(_ commands: [MixerCommand], keeping kept: Int) -> [MixerCommand] {
        commands.enumerated().map { index, command in
            guard index != kept, case .start(let start) = command else { return command }
            return muted(start)
        }
    }

    static func muted(_ start: VoiceStart) -> MixerCommand {
        var silent = start
        silent.gain = 0
        return .start(silent)
    }

    private func mix(_ commands: [MixerCommand], _ span: Range<Int64>) -> [Float] {
        OfflineAudio.mix(commands: commands, sounds: mixedSounds, span: span, configuration: MixerConfiguration(sampleRate: sampleRate))
    }

    /// The first frame where two interleaved stereo mixes differ, bit for bit.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
        let count = min(a.count, b.count)
        var index = 0
        while index < count {
            if a[index] != b[index] { return index / 2 }
            index += 1
        }
        return nil
    }

    /// The correlation of the cue's own contribution `own` (interleaved stereo, from frame `from`) with its sound as
    /// panned (`gains`), over both channels, so a channel the cue barely reaches weighs as little as it is heard there;
    /// nil when the sound is silent there.
    static func correlation(own: [Float], from: Int, sound: [Float], gains: (left: Float, right: Float), position: Int, count: Int) -> Double? {
        var product = 0.0, ownEnergy = 0.0, soundEnergy = 0.0
        for k in 0..<count {
            for channel in 0..<2 {
                let part = Double(own[2 * (from + k) + channel])
                let expected = Double(sound[2 * (position + k) + channel]) * Double(channel == 0 ? gains.left : gains.right)
                product += part * expected
                ownEnergy += part * part
                soundEnergy += expected * expected
            }
        }
        guard soundEnergy > 0 else { return nil }
        return ownEnergy > 0 ? product / (ownEnergy * soundEnergy).squareRoot() : 0
    }

    // MARK: Unscheduled sounds

    /// A bed as the commands play it: from its start to the end of its stop's fade.
    private struct BedPlay {
        var sound: Int
        var start: Int64
        var end: Int64
    }

    private func unscheduledChecks(mutingCueStarts matched: [Int]) -> [VerificationCheck] {
        var commands = commands
        for index in matched {
            if case .start(let start) = commands[index] { commands[index] = Self.muted(start) }
        }
        let ambience = mix(commands, 0..<endFrame)
        var beds: [BedPlay] = []
        for (index, command) in commands.enumerated() {
            guard case .start(let start) = command, !PlaylistAudio.isCueTag(start.tag), start.priority == .ambience else { continue }
            var end = Int64.max
            for later in commands[(index + 1)...] {
                if case .stop(let tag, let frame, let fade) = later, tag == start.tag, frame >= start.frame {
                    end = frame + Int64(fade)
                    break
                }
            }
            beds.append(BedPlay(sound: start.sound, start: start.frame, end: end))
        }
        let detector = OnsetDetector(sampleRate: sampleRate)
        let tolerance = Int64(Self.onsetTolerance * Double(sampleRate))
        var ownOnsets: [Int: [Int64]] = [:]
        for sound in Set(beds.map(\.sound)) { ownOnsets[sound] = soundOnsets(sound, detector: detector, tolerance: tolerance) }
        let onsets = detector.onsets(in: ambience).map(Int64.init)

        return schedule.scenes.map { span in
            let inScene = onsets.filter { $0 >= span.startSample && $0 < span.endSample }
            var unexplained: [(frame: Int64, loopSeam: String?)] = []
            for onset in inScene {
                var explained = false
                var seam: String?
                for bed in beds where bed.start - tolerance <= onset && onset < bed.end {
                    if abs(onset - bed.start) <= tolerance { explained = true; break }
                    let length = Int64(mixedSounds.indices.contains(bed.sound) ? mixedSounds[bed.sound].frameCount : 0)
                    guard length > 0 else { continue }
                    let position = (onset - bed.start) % length
                    if (ownOnsets[bed.sound] ?? []).contains(where: { own in
                        let distance = abs(own - position)
                        return min(distance, length - distance) <= tolerance
                    }) { explained = true; break }
                    if min(position, length - position) <= tolerance { seam = audio.bank.sounds[bed.sound].name }
                }
                if !explained { unexplained.append((onset, seam)) }
            }
            let name = "nothing unscheduled sounds"
            guard let first = unexplained.first else {
                return VerificationCheck(scene: span.id, name: name, passed: true,
                    detail: inScene.isEmpty ? "no onset besides the cues" : "\(inScene.count) onset\(inScene.count == 1 ? "" : "s") besides the cues, each the ambience's own")
            }
            var detail = "unscheduled sound at sample \(first.frame) (scene \(sceneTime(first.frame, span)))"
            if let seam = first.loopSeam { detail += ", where the ambience \"\(seam)\" loops: its end does not join its start" }
            if unexplained.count > 1 {
                detail += "; also at " + unexplained.dropFirst().prefix(4).map { "\($0.frame) (scene \(sceneTime($0.frame, span)))" }.joined(separator: ", ")
                if unexplained.count > 5 { detail += " and \(unexplained.count - 5) more" }
            }
            return VerificationCheck(scene: span.id, name: name, passed: false, detail: detail)
        }
    }

    /// Where the bank's sound `sound` has onsets of its own, in frames from its start, as it sounds looping (its
    /// second time through, so each is heard after the sound itself and not after silence). An onset at the loop
    /// point is left out: there the sound restarts, and a click there is the loop's, not the sound's.
    private func soundOnsets(_ sound: Int, detector: OnsetDetector, tolerance: Int64) -> [Int64] {
        let samples = audio.bank.sounds[sound].interleavedSamples
        let length = Int64(samples.count / 2)
        guard length > 0 else { return [] }
        let twice = samples + samples
        return detector.onsets(in: twice).map { Int64($0) }.filter { $0 >= length }.map { $0 - length }
            .filter { min($0, length - $0) > tolerance }
    }
}
