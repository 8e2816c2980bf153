import CSampleRate
import CSndfile
import DioramaFiles
import DioramaMixer
import Foundation

/// Reads sound files into mixer sounds: decode with libsndfile, convert to the engine's rate with
/// libsamplerate, and keep one channel (mono, played centred) or two.
///
/// Never call this on the audio thread: it reads files and allocates.
public enum SoundFile {
    /// The longest sound accepted, in seconds (10 minutes: 55 MB of stereo floats at 48 kHz).
    /// Longer files are refused before decoding, so a stray hour-long recording cannot eat memory.
    public static let maximumDuration: Double = 600

    /// The libsamplerate converter used when a file's rate differs from the engine's:
    /// `SRC_SINC_MEDIUM_QUALITY` (band-limited sinc, 97 dB signal-to-noise, 90% of the band
    /// kept), a good trade between load time and transparency for effects and ambience.
    public static let converterQuality = Int32(SRC_SINC_MEDIUM_QUALITY)

    /// Loads `path` as sound `name`, converted to `sampleRate` frames per second.
    ///
    /// Mono files stay mono, and play centred (the same signal at unity on both channels); files with
    /// more than two channels keep their first two.
    /// With `bytes` (a file unpacked from a dotLottie archive, `SoundDefinition.embedded`), those are decoded instead of
    /// reading `path`, which then only names the sound in messages.
    public static func load(name: String, path: String, bytes: [UInt8]? = nil,
                            sampleRate: Int = AudioFormat.sampleRate) throws(SoundLoadError) -> MixerSound {
        let decoded = if let bytes { try decode(name: name, path: path, bytes: bytes) } else { try decode(name: name, path: path) }
        var samples = decoded.samples
        if decoded.rate != sampleRate {
            samples = try resample(samples, channels: decoded.channels, from: decoded.rate, to: sampleRate, name: name, path: path)
        }
        return decoded.channels == 1 ? MixerSound(name: name, mono: samples) : MixerSound(name: name, interleavedStereo: samples)
    }

    /// Decodes the whole file to floats at the file's own rate: one channel for a mono file, else the first two
    /// interleaved.
    static func decode(name: String, path: String) throws(SoundLoadError) -> (samples: [Float], channels: Int, rate: Int) {
        var info = SF_INFO()
        // libsndfile gets a descriptor already known to be a regular file: a named pipe would block its open forever.
        let fd: Int32
        switch RegularFile.open(path) {
        case .success(let opened): fd = opened
        case .failure(let problem):
            throw SoundLoadError(soundName: name, path: path, reason: "it \(problem.reason)",
                                 hint: problem.hint ?? SoundLoadError.unreadable(name, path, "").hint)
        }
        // SF_TRUE: libsndfile closes the descriptor, also when it fails.
        guard let file = sf_open_fd(fd, Int32(SFM_READ), &info, 1) else {
            throw .unreadable(name, path, String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        return try decode(file, info: info, name: name, path: path)
    }

    /// Decodes a whole file held in memory, through libsndfile's virtual I/O, exactly as one read from disk.
    static func decode(name: String, path: String, bytes: [UInt8]) throws(SoundLoadError) -> (samples: [Float], channels: Int, rate: Int) {
        let memory = MemoryFile(bytes)
        var io = MemoryFile.io
        var info = SF_INFO()
        return try withExtendedLifetime(memory) { () throws(SoundLoadError) in
            guard let file = sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(memory).toOpaque()) else {
                throw .unreadable(name, path, String(cString: sf_strerror(nil)))
            }
            defer { sf_close(file) }
            return try decode(file, info: info, name: name, path: path)
        }
    }

    /// The samples of a file libsndfile has opened, checked as `decode(name:path:)` describes.
    private static func decode(_ file: OpaquePointer, info: SF_INFO, name: String, path: String) throws(SoundLoadError)
        -> (samples: [Float], channels: Int, rate: Int) {
        let channels = Int(info.channels)
        let rate = Int(info.samplerate)
        guard channels > 0, rate > 0 else {
            throw .unreadable(name, path, "the file reports \(channels) channels at \(rate) Hz")
        }
        let frames = Int(info.frames)
        guard Double(frames) <= maximumDuration * Double(rate) else {
            throw SoundLoadError(
                soundName: name, path: path,
                reason: "it lasts \(Int(Double(frames) / Double(rate))) s, over the \(Int(maximumDuration)) s limit for a sound",
                hint: "shorten the file; long ambience should be a shorter seamless loop")
        }
        guard frames > 0 else {
            throw SoundLoadError(soundName: name, path: path, reason: "it holds no audio (0 frames)",
                                 hint: "re-export the sound; an empty file plays nothing")
        }
        if let shortfall = truncatedData(file) {
            throw SoundLoadError(
                soundName: name, path: path,
                reason: "it is truncated: its header promises \(shortfall.promised) bytes of audio but the file holds \(shortfall.present)",
                hint: "the file was cut short (an interrupted copy or export?); export it again")
        }
        var raw = [Float](repeating: 0, count: frames * channels)
        let read = raw.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(frames)) }
        let error = sf_error(file)
        if error != 0 {
            throw .unreadable(name, path, "decoding failed after \(read) of \(frames) frames: \(String(cString: sf_strerror(file)))")
        }
        guard Int(read) == frames else {
            throw SoundLoadError(
                soundName: name, path: path,
                reason: "it is truncated: its header promises \(frames) frames but only \(read) could be read",
                hint: "the file was cut short (an interrupted copy or export?); export it again")
        }
        if channels <= 2 { return (raw, channels, rate) }
        var stereo = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            stereo[2 * frame] = raw[frame * channels]
            stereo[2 * frame + 1] = raw[frame * channels + 1]
        }
        return (stereo, 2, rate)
    }

    /// Bytes libsndfile reads through its virtual I/O (`sf_open_virtual`), and its place in them. The callbacks are C
    /// functions: they find the file through libsndfile's user data, which `decode(name:path:bytes:)` keeps alive.
    private final class MemoryFile {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        static func of(_ data: UnsafeMutableRawPointer?) -> MemoryFile { Unmanaged<MemoryFile>.fromOpaque(data!).takeUnretainedValue() }

        static var io: SF_VIRTUAL_IO {
            SF_VIRTUAL_IO(
                get_filelen: { data in sf_count_t(MemoryFile.of(data).bytes.count) },
                seek: { offset, whence, data in
                    let file = MemoryFile.of(data)
                    let base = whence == SEEK_CUR ? file.position : whence == SEEK_END ? file.bytes.count : 0
                    file.position = min(max(0, base + Int(offset)), file.bytes.count)
                    return sf_count_t(file.position)
                },
                read: { destination, count, data in
                    let file = MemoryFile.of(data)
                    let length = min(Int(max(0, count)), file.bytes.count - file.position)
                    guard length > 0, let destination else { return 0 }
                    file.bytes.withUnsafeBytes { source in
                        destination.copyMemory(from: source.baseAddress! + file.position, byteCount: length)
                    }
                    file.position += length
                    return sf_count_t(length)
                },
                write: { _, _, _ in 0 },
                tell: { data in sf_count_t(MemoryFile.of(data).position) })
        }
    }

    /// libsndfile quietly plays what is left of a WAV/AIFF cut short, noting it only in its log
    /// ("data : 96000 (should be 47978)"); that is read here so a damaged file is not half-played.
    static func truncatedData(_ file: OpaquePointer) -> (promised: Int, present: Int)? {
        var log = [CChar](repeating: 0, count: 8192)
        _ = log.withUnsafeMutableBufferPointer { sf_command(file, Int32(SFC_GET_LOG_INFO), $0.baseAddress, Int32($0.count)) }
        let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" || $0 == ":" })
            // ["data", "96000", "should", "be", "47978"] (also "SSND" in AIFF files)
            guard words.count >= 5, words[0] == "data" || words[0] == "SSND", words[2] == "should", words[3] == "be",
                  let promised = Int(words[1]), let present = Int(words[4]), present < promised
            else { continue }
            return (promised, present)
        }
        return nil
    }

    static func resample(_ samples: [Float], channels: Int, from inputRate: Int, to outputRate: Int,
                         name: String, path: String) throws(SoundLoadError) -> [Float] {
        let converted = convert(samples, channels: channels, ratio: Double(outputRate) / Double(inputRate))
        guard converted.status == 0 else {
            throw SoundLoadError(soundName: name, path: path,
                                 reason: "conversion from \(inputRate) Hz to \(outputRate) Hz failed: \(String(cString: src_strerror(converted.status)))",
                                 hint: "convert the file to \(outputRate) Hz yourself, e.g. `sox IN -r \(outputRate) OUT`")
        }
        return converted.samples
    }

    /// A take of `sound` (at `sampleRate`) `semitones` higher (or lower, when negative), at the same rate: resampled by
    /// libsamplerate, so it plays faster and shorter (or slower and longer) from the same first sample. For a cue's
    /// `pitch` and a varied sound's takes (`SoundVariation`). A take longer than `maximumDuration` is refused.
    public static func take(of sound: MixerSound, semitones: Double, path: String,
                            sampleRate: Int = AudioFormat.sampleRate) throws(SoundLoadError) -> MixerSound {
        // Output frames per input frame: a semitone up plays 2^(1/12) times as fast.
        let ratio = pow(2, -semitones / 12)
        let seconds = Double(sound.frameCount) * ratio / Double(sampleRate)
        guard seconds <= maximumDuration else {
            throw SoundLoadError(soundName: sound.name, path: path,
                                 reason: "played \(abs(semitones)) semitones down it would last \(Int(seconds)) s, over the \(Int(maximumDuration)) s limit for a sound",
                                 hint: "play it less far down, or shorten the file")
        }
        let converted = convert(sound.storedSamples, channels: sound.channels, ratio: ratio)
        guard converted.status == 0 else {
            throw SoundLoadError(soundName: sound.name, path: path,
                                 reason: "its take \(semitones) semitones away could not be made: \(String(cString: src_strerror(converted.status)))",
                                 hint: "play it at a pitch nearer its own")
        }
        let name = sound.name + " " + (semitones > 0 ? "+" : "") + "\(semitones) st"
        // The converter's filter rings ahead of the first sound by a few samples, far below hearing; silence before the
        // first sample above -100 dBFS stays exact silence, so a take is heard from one sample, as its file is.
        var samples = converted.samples
        let onset = samples.firstIndex { abs($0) >= 1e-5 } ?? samples.count
        for index in 0..<(onset - onset % sound.channels) { samples[index] = 0 }
        return sound.channels == 1 ? MixerSound(name: name, mono: samples)
            : MixerSound(name: name, interleavedStereo: samples)
    }

    /// `samples` converted to `ratio` output frames per input frame by libsamplerate (`converterQuality`); a status
    /// other than 0 is libsamplerate's error.
    private static func convert(_ samples: [Float], channels: Int, ratio: Double) -> (samples: [Float], status: Int32) {
        let inputFrames = samples.count / channels
        let outputFrames = Int((Double(inputFrames) * ratio).rounded(.up)) + 16
        var output = [Float](repeating: 0, count: outputFrames * channels)
        var produced = 0
        let status: Int32 = samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var data = SRC_DATA()
                data.data_in = input.baseAddress
                data.input_frames = inputFrames
                data.data_out = out.baseAddress
                data.output_frames = outputFrames
                data.end_of_input = 1
                data.src_ratio = ratio
                let status = src_simple(&data, converterQuality, Int32(channels))
                produced = Int(data.output_frames_gen)
                return status
            }
        }
        return (Array(output.prefix(produced * channels)), status)
    }
}
