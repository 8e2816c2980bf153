import CZlib

extension LottieFixtures {
    /// A dotLottie archive made in memory, a zip: each entry stored (method 0) or deflated (method 8), with a central directory.
    /// `declaredSize` overrides an entry's uncompressed size as the archive states it (for bombs and liars).
    public static func zip(_ entries: [(name: String, bytes: [UInt8], deflated: Bool)], declaredSize: [String: Int] = [:]) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16 & 0xFFFF) }
        var archive: [UInt8] = [], directory: [UInt8] = []
        for entry in entries {
            let crc = entry.bytes.withUnsafeBufferPointer { Int(crc32(0, $0.baseAddress, uInt($0.count))) }
            let packed = entry.deflated ? deflate(entry.bytes) : entry.bytes
            let size = declaredSize[entry.name] ?? entry.bytes.count
            let name = Array(entry.name.utf8)
            let common = u16(20) + u16(0) + u16(entry.deflated ? 8 : 0) + u16(0) + u16(0) + u32(crc) + u32(packed.count) + u32(size)
                + u16(name.count) + u16(0)
            directory += u32(0x0201_4b50) + u16(20) + common + u16(0) + u16(0) + u16(0) + u32(0) + u32(archive.count) + name
            archive += u32(0x0403_4b50) + common + name + packed
        }
        let start = archive.count
        return archive + directory + u32(0x0605_4b50) + u16(0) + u16(0) + u16(entries.count) + u16(entries.count)
            + u32(directory.count) + u32(start) + u16(0)
    }

    /// Raw deflate (zlib's stream without its 2-byte header and 4-byte checksum).
    public static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        _ = compress2(&out, &length, bytes, uLong(bytes.count), 9)
        return Array(out[2..<(Int(length) - 4)])
    }
}
