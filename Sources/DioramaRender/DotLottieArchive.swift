import CZlib
import DioramaDocument

/// Unpacks the zip archive of a dotLottie file (`.lottie`) with zlib, for `LottieFileReader` (which cannot import
/// zlib): stored (method 0) and deflated (method 8) entries, read from the central directory. Bounded: at most
/// `LottieFileReader.maximumArchiveEntries` files, each at most `maximumFileSize` and all together at most
/// `maximumUnpackedSize` unpacked, checked against the sizes the archive declares before inflating and again while
/// inflating (a zip bomb is refused, never unpacked), and each entry's CRC-32 checked.
///
/// ```swift
/// let loaded = try DocumentLoader.load(path: "scenes.json", archives: DotLottieArchive.read)
/// ```
public enum DotLottieArchive {
    public static let read: ArchiveReader = { archive in unpack(archive) }

    private typealias Problem = LottieFileReader.Problem
    private static let damagedHint = "it is damaged or not a zip archive; export the dotLottie file again"

    static func unpack(_ bytes: [UInt8]) -> Result<[ArchiveEntry], LottieFileReader.Problem> {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end of central directory record: 22 bytes and a comment of at most 65535, at the end.
        let earliest = max(0, bytes.count - 22 - 65535)
        guard bytes.count >= 22,
              let end = stride(from: bytes.count - 22, through: earliest, by: -1).first(where: { u32($0) == 0x0605_4b50 }) else {
            return .failure(Problem("is not a zip archive, or is truncated: it has no end record", hint: damagedHint))
        }
        let count = u16(end + 10), directorySize = u32(end + 12), directoryStart = u32(end + 16)
        guard count != 0xFFFF, directoryStart != 0xFFFF_FFFF else {
            return .failure(Problem("is a zip64 archive, which is not read", hint: "a dotLottie file is small; export it again"))
        }
        guard count <= LottieFileReader.maximumArchiveEntries else {
            return .failure(Problem("holds \(count) files; the limit is \(LottieFileReader.maximumArchiveEntries)"))
        }
        guard directoryStart + directorySize <= end else {
            return .failure(Problem("is truncated: its file list lies outside the archive", hint: damagedHint))
        }
        var entries: [ArchiveEntry] = []
        var unpackedTotal = 0
        var at = directoryStart
        for _ in 0..<count {
            guard at + 46 <= end, u32(at) == 0x0201_4b50 else {
                return .failure(Problem("is damaged: its file list ends early", hint: damagedHint))
            }
            let flags = u16(at + 8), method = u16(at + 10), crc = u32(at + 16)
            let packedSize = u32(at + 20), size = u32(at + 24)
            let nameLength = u16(at + 28), extraLength = u16(at + 30), commentLength = u16(at + 32)
            let localStart = u32(at + 42)
            guard at + 46 + nameLength <= end else { return .failure(Problem("is damaged: its file list ends early", hint: damagedHint)) }
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            at += 46 + nameLength + extraLength + commentLength
            if name.hasSuffix("/") { continue }
            let shown = "\"\(name.count > 60 ? String(name.prefix(57)) + "..." : name)\""
            guard flags & 1 == 0 else { return .failure(Problem("holds \(shown) encrypted, which cannot be read")) }
            guard method == 0 || method == 8 else {
                return .failure(Problem("holds \(shown) compressed with method \(method); only stored and deflated files are read",
                                        hint: "export the dotLottie file again with ordinary zip compression"))
            }
            // Refused before inflating: the sizes are bounded, and no more than declared is ever inflated.
            unpackedTotal += size
            guard size <= LottieFileReader.maximumFileSize, unpackedTotal <= LottieFileReader.maximumUnpackedSize else {
                return .failure(Problem("unpacks to more than \(size <= LottieFileReader.maximumFileSize ? "32 MiB in all" : "16 MiB for \(shown)") (a zip bomb?)",
                                        hint: "a dotLottie animation for a scene is small; is this the right file?"))
            }
            guard localStart + 30 <= bytes.count, u32(localStart) == 0x0403_4b50 else {
                return .failure(Problem("is damaged: \(shown) is not where its file list says", hint: damagedHint))
            }
            let dataStart = localStart + 30 + u16(localStart + 26) + u16(localStart + 28)
            guard dataStart + packedSize <= bytes.count else {
                return .failure(Problem("is truncated: \(shown) ends past the end of the archive", hint: damagedHint))
            }
            let packed = bytes[dataStart..<(dataStart + packedSize)]
            let data: [UInt8]
            if method == 0 {
                guard packedSize == size else { return .failure(Problem("is damaged: \(shown) has two sizes", hint: damagedHint)) }
                data = Array(packed)
            } else {
                guard let inflated = inflate(packed, size: size) else {
                    return .failure(Problem("is damaged: \(shown) does not inflate to its \(size) bytes", hint: damagedHint))
                }
                data = inflated
            }
            let sum = data.withUnsafeBufferPointer { Int(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
            guard sum == crc else { return .failure(Problem("is damaged: \(shown) fails its checksum (CRC-32)", hint: damagedHint)) }
            entries.append(ArchiveEntry(name: name, bytes: data))
        }
        return .success(entries)
    }

    /// Raw deflate data inflated into exactly `size` bytes; nil when it is damaged, ends early or holds more.
    private static func inflate(_ packed: ArraySlice<UInt8>, size: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        // One byte more than declared: output that fills it means the entry holds more than it says.
        var output = [UInt8](repeating: 0, count: size + 1)
        var input = Array(packed)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else { return nil }
        output.removeLast()
        return output
    }
}
