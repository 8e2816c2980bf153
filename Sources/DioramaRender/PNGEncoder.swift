import CZlib
import Foundation

/// Encodes frames as PNG files quickly: each row filtered (Sub or Up, whichever leaves smaller numbers),
/// then deflated by zlib at a fast level. Headless rendering spends most of its time here; cairo's own
/// writer (libpng at zlib's default level) takes about four times as long for files about a fifth smaller.
///
/// Opaque frames (all the renderer draws) are written as RGB, others as RGBA with alpha unpremultiplied.
/// The same frame always gives the same bytes.
enum PNGEncoder {
    /// zlib level: 1 is the fastest that still compresses flat illustration well.
    static let compressionLevel: Int32 = 1

    /// The PNG file's bytes, or nil when compression fails (the caller falls back to cairo's writer).
    static func encode(_ frame: RenderedFrame) -> [UInt8]? {
        let (width, height) = (frame.width, frame.height)
        guard width > 0, height > 0 else { return nil }
        let opaque = stride(from: 3, to: frame.bytes.count, by: 4).allSatisfy { frame.bytes[$0] == 255 }
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        // Each row: a filter type byte, then the filtered samples.
        var filtered = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        let previousRow = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        let currentRow = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        defer {
            previousRow.deallocate()
            currentRow.deallocate()
        }
        previousRow.initialize(repeating: 0, count: rowBytes)
        currentRow.initialize(repeating: 0, count: rowBytes)
        var (previous, current) = (previousRow, currentRow)
        frame.bytes.withUnsafeBufferPointer { source in
            filtered.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let row = source.baseAddress! + y * frame.stride
                    // Cairo's premultiplied B, G, R, A to PNG's straight R, G, B(, A).
                    for x in 0..<width {
                        let b = row[4 * x], g = row[4 * x + 1], r = row[4 * x + 2], a = row[4 * x + 3]
                        let o = x * channels
                        if opaque {
                            current[o] = r; current[o + 1] = g; current[o + 2] = b
                        } else {
                            func straight(_ c: UInt8) -> UInt8 {
                                a == 0 ? 0 : UInt8(min(255, (Int(c) * 255 + Int(a) / 2) / Int(a)))
                            }
                            current[o] = straight(r); current[o + 1] = straight(g); current[o + 2] = straight(b); current[o + 3] = a
                        }
                    }
                    // Sub (difference to the pixel on the left) or Up (to the pixel above): the smaller sum of
                    // magnitudes usually deflates better. The first row has nothing above.
                    var subCost = 0, upCost = 0
                    for i in 0..<rowBytes {
                        let left = i >= channels ? current[i - channels] : 0
                        subCost += Int(Int8(bitPattern: current[i] &- left).magnitude)
                        upCost += Int(Int8(bitPattern: current[i] &- previous[i]).magnitude)
                    }
                    let useUp = y > 0 && upCost < subCost
                    let target = out.baseAddress! + y * (rowBytes + 1)
                    target[0] = useUp ? 2 : 1
                    for i in 0..<rowBytes {
                        target[1 + i] = current[i] &- (useUp ? previous[i] : (i >= channels ? current[i - channels] : 0))
                    }
                    swap(&previous, &current)
                }
            }
        }
        var size = compressBound(uLong(filtered.count))
        var compressed = [UInt8](repeating: 0, count: Int(size))
        let status = compressed.withUnsafeMutableBufferPointer { out in
            filtered.withUnsafeBufferPointer { input in
                compress2(out.baseAddress!, &size, input.baseAddress!, uLong(input.count), compressionLevel)
            }
        }
        guard status == Z_OK else { return nil }

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ data: ArraySlice<UInt8>) {
            png += bigEndian(UInt32(data.count))
            let typed = Array(type.utf8) + data
            png += typed
            png += bigEndian(crc32(typed))
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
            + [8, opaque ? 2 : 6, 0, 0, 0]  // 8 bits per sample, RGB or RGBA, deflate, adaptive filters, no interlace
        chunk("IHDR", header[...])
        chunk("IDAT", compressed[..<Int(size)])
        chunk("IEND", [][...])
        return png
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The PNG (ISO 3309) CRC-32 of a chunk's type and data: zlib's, which is the same polynomial.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
