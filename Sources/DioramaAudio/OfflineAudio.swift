import DioramaMixer

/// What an offline render did.
public struct OfflineRenderResult: Sendable, Equatable {
    public var frames: Int64
    public var sampleRate: Int
    public var statistics: MixerStatistics
    public var seconds: Double { Double(frames) / Double(sampleRate) }
}

/// Mixes a span of a plan through the same mixer the live output uses, as fast as the machine
/// allows, and writes it with libsndfile. The same inputs give the same bytes on every run.
public enum OfflineAudio {
    /// Block size of the offline mix, in frames. Does not change the result (the mixer is
    /// block-size independent); only the speed.
    public static let blockFrames = 4096

    /// Renders playlist frames `span` of `plan` with `sounds` to a stereo file at `path`.
    ///
    /// - Parameters: `span` in frames at the mixer's rate; defaults to the whole plan.
    public static func render(plan: AudioPlan, sounds: [MixerSound], span: Range<Int64>? = nil,
                              configuration: MixerConfiguration = MixerConfiguration(),
                              format: SoundFileFormat = .wav16, to path: String) throws(SoundWriteError) -> OfflineRenderResult {
        let span = span ?? 0..<plan.endFrame
        let writer = try SoundFileWriter(path: path, channels: AudioFormat.channels, sampleRate: configuration.sampleRate, format: format)
        let statistics = try stream(plan: plan, sounds: sounds, span: span, configuration: configuration) { (block) throws(SoundWriteError) in
            try writer.write(block)
        }
        try writer.close()
        return OfflineRenderResult(frames: Int64(span.count), sampleRate: configuration.sampleRate, statistics: statistics)
    }

    /// Mixes playlist frames `span` of `plan` block by block, handing each block (interleaved stereo floats) to
    /// `write` in order: the one loop behind a sound file, a video's sound track and anything else that streams it.
    public static func stream<Failure: Error>(plan: AudioPlan, sounds: [MixerSound], span: Range<Int64>,
                                              configuration: MixerConfiguration = MixerConfiguration(),
                                              _ write: (UnsafeBufferPointer<Float>) throws(Failure) -> Void) throws(Failure) -> MixerStatistics {
        let mixer = Mixer(sounds: sounds, configuration: configuration)
        var feeder = AudioPlanFeeder(plan: plan, firstFrame: span.lowerBound, soundFrames: sounds.map(\.frameCount))
        var block = [Float](repeating: 0, count: 2 * blockFrames)
        var done: Int64 = 0
        let total = Int64(span.count)
        while done < total {
            let count = Int(min(Int64(blockFrames), total - done))
            // Commands for this block and the next: within the mixer's waiting-list limit.
            feeder.feed(mixer, before: done + Int64(2 * blockFrames))
            try block.withUnsafeMutableBufferPointer { (buffer) throws(Failure) in
                mixer.render(into: buffer.baseAddress!, frames: count)
                try write(UnsafeBufferPointer(rebasing: buffer[0..<(2 * count)]))
            }
            done += Int64(count)
        }
        return mixer.statistics
    }

    /// Renders into memory (interleaved stereo floats), for tests and benchmarks.
    public static func mix(plan: AudioPlan, sounds: [MixerSound], span: Range<Int64>? = nil,
                           configuration: MixerConfiguration = MixerConfiguration(),
                           blockFrames: Int = OfflineAudio.blockFrames) -> [Float] {
        let span = span ?? 0..<plan.endFrame
        let mixer = Mixer(sounds: sounds, configuration: configuration)
        var feeder = AudioPlanFeeder(plan: plan, firstFrame: span.lowerBound, soundFrames: sounds.map(\.frameCount))
        var output = [Float](repeating: 0, count: 2 * span.count)
        output.withUnsafeMutableBufferPointer { buffer in
            var done = 0
            while done < span.count {
                let count = min(blockFrames, span.count - done)
                feeder.feed(mixer, before: Int64(done + 2 * blockFrames))
                mixer.render(into: buffer.baseAddress! + 2 * done, frames: count)
                done += count
            }
        }
        return output
    }
}
