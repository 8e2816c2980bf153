import DioramaMixer

/// What an offline render did.
public struct OfflineRenderResult: Sendable, Equatable {
    public var frames: Int64
    public var sampleRate: Int
    public var statistics: MixerStatistics
    public var seconds: Double { Double(frames) / Double(sampleRate) }
}

/// Mixes a span of the playlist's commands (`PlaylistAudio.commands(playingOnce:)`: the live sequencer's, in its
/// order) through the same mixer the live output uses, as fast as the machine allows, and writes it with libsndfile.
/// The same inputs give the same bytes on every run.
public enum OfflineAudio {
    /// Block size of the offline mix, in frames. Does not change the result (the mixer is
    /// block-size independent); only the speed.
    public static let blockFrames = 4096

    /// Renders playlist frames `span` of `commands` (in frame order) with `sounds` to a stereo file at `path`.
    ///
    /// - Parameters: `span` in frames at the mixer's rate.
    public static func render(commands: [MixerCommand], sounds: [MixerSound], span: Range<Int64>,
                              configuration: MixerConfiguration = MixerConfiguration(),
                              format: SoundFileFormat = .wav16, to path: String) throws(SoundWriteError) -> OfflineRenderResult {
        let writer = try SoundFileWriter(path: path, channels: AudioFormat.channels, sampleRate: configuration.sampleRate, format: format)
        let statistics = try stream(commands: commands, sounds: sounds, span: span, configuration: configuration) { (block) throws(SoundWriteError) in
            try writer.write(block)
        }
        try writer.close()
        return OfflineRenderResult(frames: Int64(span.count), sampleRate: configuration.sampleRate, statistics: statistics)
    }

    /// Mixes playlist frames `span` of `commands` block by block, handing each block (interleaved stereo floats) to
    /// `write` in order: the one loop behind a sound file, a video's sound track and anything else that streams it.
    public static func stream<Failure: Error>(commands: [MixerCommand], sounds: [MixerSound], span: Range<Int64>,
                                              configuration: MixerConfiguration = MixerConfiguration(),
                                              _ write: (UnsafeBufferPointer<Float>) throws(Failure) -> Void) throws(Failure) -> MixerStatistics {
        let mixer = Mixer(sounds: sounds, configuration: configuration)
        var feed = SpanFeed(commands: commands, firstFrame: span.lowerBound, soundFrames: sounds.map(\.frameCount))
        var block = [Float](repeating: 0, count: 2 * blockFrames)
        var done: Int64 = 0
        let total = Int64(span.count)
        while done < total {
            let count = Int(min(Int64(blockFrames), total - done))
            // Commands for this block and the next: within the mixer's waiting-list limit.
            feed.send(to: mixer, before: done + Int64(2 * blockFrames))
            try block.withUnsafeMutableBufferPointer { (buffer) throws(Failure) in
                mixer.render(into: buffer.baseAddress!, frames: count)
                try write(UnsafeBufferPointer(rebasing: buffer[0..<(2 * count)]))
            }
            done += Int64(count)
        }
        return mixer.statistics
    }

    /// Renders into memory (interleaved stereo floats), for verify, tests and benchmarks.
    public static func mix(commands: [MixerCommand], sounds: [MixerSound], span: Range<Int64>,
                           configuration: MixerConfiguration = MixerConfiguration(),
                           blockFrames: Int = OfflineAudio.blockFrames) -> [Float] {
        let mixer = Mixer(sounds: sounds, configuration: configuration)
        var feed = SpanFeed(commands: commands, firstFrame: span.lowerBound, soundFrames: sounds.map(\.frameCount))
        var output = [Float](repeating: 0, count: 2 * span.count)
        output.withUnsafeMutableBufferPointer { buffer in
            var done = 0
            while done < span.count {
                let count = min(blockFrames, span.count - done)
                feed.send(to: mixer, before: Int64(done + 2 * blockFrames))
                mixer.render(into: buffer.baseAddress! + 2 * done, frames: count)
                done += count
            }
        }
        return output
    }
}

/// A span's commands on the mixer's clock (the span's first frame is its frame 0), handed to the mixer a little ahead
/// of their frames, so neither the command ring nor the mixer's waiting list ever holds more than a look-ahead's worth.
/// Voices already under way join where they would be by then (`VoiceStart.catchUp`), so a span sounds as the whole mix
/// does there; commands whose sound is over before the span are left out, so a span late in a long playlist starts
/// without a backlog.
private struct SpanFeed {
    /// The commands still relevant to the span, in frame order.
    let commands: [MixerCommand]
    /// Playlist frame that is frame 0 of the mixer's clock.
    let firstFrame: Int64
    private var next = 0

    /// - Parameters: `soundFrames`: each sound's length in frames, to leave out one-shots that ended before `firstFrame`.
    init(commands: [MixerCommand], firstFrame: Int64, soundFrames: [Int]) {
        self.firstFrame = firstFrame
        guard firstFrame > 0 else {
            self.commands = commands
            return
        }
        // Each start's end, as the mixer applies it: the first stop of its tag after it.
        var ending: [Int: Int] = [:]
        var open: [UInt32: [Int]] = [:]
        for (index, command) in commands.enumerated() {
            switch command {
            case .start(let start): open[start.tag, default: []].append(index)
            case .stop(let tag, _, _):
                for start in open.removeValue(forKey: tag) ?? [] { ending[start] = index }
            case .stopAll:
                for start in open.values.joined() { ending[start] = index }
                open = [:]
            case .revoke, .pause, .resume, .volume: break
            }
        }
        var kept = [Bool](repeating: true, count: commands.count)
        var neededStops = Set<Int>()
        for (index, command) in commands.enumerated() {
            guard case .start(let start) = command else { continue }
            // A ducking voice matters until its duck has come back up, after its release.
            let duckRelease = start.duck.isActive ? Int64(start.duck.releaseFrames) : 0
            let stop = ending[index]
            if let stop, let (frame, fade) = Self.stopFrameAndFade(commands[stop]),
               frame <= start.frame || frame + max(Int64(fade), duckRelease) <= firstFrame {
                // Stopped on or before its first frame, it never sounds; stopped and faded before the span, it is over.
                kept[index] = false
            } else if !start.loops {
                let length = soundFrames.indices.contains(start.sound) ? soundFrames[start.sound] : 0
                kept[index] = start.frame + Int64(length) + duckRelease > firstFrame
            }
            // The stop that ends a voice heard in the span goes with it, however early it fades.
            if kept[index], let stop { neededStops.insert(stop) }
        }
        for (index, command) in commands.enumerated() {
            guard let (frame, fade) = Self.stopFrameAndFade(command) else { continue }
            // A stop still fading in the span, or the end of a voice that is.
            kept[index] = frame + Int64(fade) > firstFrame || neededStops.contains(index)
        }
        self.commands = commands.indices.filter { kept[$0] }.map { commands[$0] }
    }

    private static func stopFrameAndFade(_ command: MixerCommand) -> (frame: Int64, fade: Int)? {
        switch command {
        case .stop(_, let frame, let fade), .stopAll(let frame, let fade): (frame, fade)
        default: nil
        }
    }

    /// Sends every command acting before mixer frame `limit`; stops early (to go on next time) if the ring is full.
    mutating func send(to mixer: Mixer, before limit: Int64) {
        while next < commands.count {
            let command = Self.onSpanClock(commands[next], offset: -firstFrame)
            guard Self.frame(of: command) < limit else { break }
            guard mixer.commands.push(command) else { break }
            next += 1
        }
    }

    /// The frame a command acts on (a volume: at once).
    private static func frame(of command: MixerCommand) -> Int64 {
        switch command {
        case .start(let start): start.frame
        case .stop(_, let frame, _), .stopAll(let frame, _), .pause(let frame, _), .resume(let frame, _): frame
        case .revoke(let frame): frame
        case .volume: .min
        }
    }

    /// The command moved by `offset` frames, a start joining its voice where it would be by then.
    private static func onSpanClock(_ command: MixerCommand, offset: Int64) -> MixerCommand {
        switch command {
        case .start(var start):
            start.frame += offset
            start.catchUp = true
            return .start(start)
        case .stop(let tag, let frame, let fade): return .stop(tag: tag, frame: frame + offset, fadeFrames: fade)
        case .stopAll(let frame, let fade): return .stopAll(frame: frame + offset, fadeFrames: fade)
        case .revoke(let frame): return .revoke(fromFrame: frame + offset)
        case .pause(let frame, let fade): return .pause(frame: frame + offset, fadeFrames: fade)
        case .resume(let frame, let fade): return .resume(frame: frame + offset, fadeFrames: fade)
        case .volume: return command
        }
    }
}
