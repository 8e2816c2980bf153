import CSndfile

/// The encodings this project writes.
public enum SoundFileFormat: Sendable, Equatable {
    /// WAV, 16-bit PCM (rounded to nearest, clamped; no dither, so output is deterministic).
    case wav16
    /// WAV, 32-bit float.
    case wavFloat
    /// FLAC, 16-bit.
    case flac16
    /// FLAC, 24-bit.
    case flac24
    /// OGG/Vorbis (lossy).
    case oggVorbis

    var libsndfileFormat: Int32 {
        switch self {
        case .wav16: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        case .wavFloat: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        case .flac16: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .flac24: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24)
        case .oggVorbis: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        }
    }
}

/// A failure to write a sound file: the path and libsndfile's reason.
public struct SoundWriteError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String {
        "cannot write \(path): \(reason). Hint: check that the folder exists and is writable"
    }
}

/// An open sound file being written block by block with libsndfile; closed in `deinit` or `close()`.
public final class SoundFileWriter {
    public let path: String
    public let channels: Int
    public let format: SoundFileFormat
    private var file: OpaquePointer?
    private var scratch: [Int16] = []

    public init(path: String, channels: Int, sampleRate: Int, format: SoundFileFormat) throws(SoundWriteError) {
        self.path = path
        self.channels = channels
        self.format = format
        var info = SF_INFO()
        info.channels = Int32(channels)
        info.samplerate = Int32(sampleRate)
        info.format = format.libsndfileFormat
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw SoundWriteError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        self.file = file
        if format == .flac16 || format == .flac24 {
            // Highest FLAC effort: the files are committed, so size matters more than speed.
            var level = 1.0
            sf_command(file, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
        }
    }

    /// Appends interleaved samples (`samples.count` a multiple of `channels`).
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(SoundWriteError) {
        guard let file else { throw SoundWriteError(path: path, reason: "the file is already closed") }
        let frames = samples.count / channels
        let written: sf_count_t
        if format == .wav16 {
            // Our own float-to-16-bit conversion, the same the live ALSA path uses.
            if scratch.count < samples.count { scratch = [Int16](repeating: 0, count: samples.count) }
            for index in 0..<samples.count { scratch[index] = pcm16(samples[index]) }
            written = scratch.withUnsafeBufferPointer { sf_writef_short(file, $0.baseAddress, sf_count_t(frames)) }
        } else {
            written = sf_writef_float(file, samples.baseAddress, sf_count_t(frames))
        }
        if written != frames {
            throw SoundWriteError(path: path, reason: String(cString: sf_strerror(file)))
        }
    }

    public func write(_ samples: [Float]) throws(SoundWriteError) {
        let result: Result<Void, SoundWriteError> = samples.withUnsafeBufferPointer { buffer in
            do throws(SoundWriteError) { try write(buffer); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// Finishes the file (writes the header's final sizes).
    public func close() throws(SoundWriteError) {
        guard let file else { return }
        self.file = nil
        if sf_close(file) != 0 {
            throw SoundWriteError(path: path, reason: "closing failed")
        }
    }

    deinit {
        if let file { sf_close(file) }
    }

    /// Writes a whole file in one go.
    public static func write(_ samples: [Float], channels: Int, sampleRate: Int, format: SoundFileFormat,
                             to path: String) throws(SoundWriteError) {
        let writer = try SoundFileWriter(path: path, channels: channels, sampleRate: sampleRate, format: format)
        try writer.write(samples)
        try writer.close()
    }
}

/// Float to 16-bit PCM: scale by 32767, round to nearest (ties to even), clamp. No dither, so
/// the offline WAV and the live ALSA stream hold the same integers for the same mix.
@inline(__always)
public func pcm16(_ sample: Float) -> Int16 {
    let scaled = (sample * 32767).rounded(.toNearestOrEven)
    if scaled.isNaN { return 0 }
    return Int16(max(-32768, min(32767, scaled)))
}
