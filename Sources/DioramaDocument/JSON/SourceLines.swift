/// Turns byte offsets into 1-based line and column numbers. Columns count Unicode scalars, as editors do.
enum SourceLines {
    struct Location: Sendable, Equatable {
        var line: Int
        var column: Int
    }

    /// One offset's location; O(offset). For messages that name a second place ("first at 3:7").
    static func location(of offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Location {
        var line = 1, column = 1
        for i in 0..<min(offset, buffer.count) {
            let byte = buffer[i]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Location(line: line, column: column)
    }

    static func locationText(of offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> String {
        let location = location(of: offset, in: buffer)
        return "\(location.line):\(location.column)"
    }

    /// Every offset's location in one pass over the bytes, so thousands of problems on one long line stay O(n).
    static func locations(of offsets: [Int], in bytes: [UInt8]) -> [Int: Location] {
        let sorted = Set(offsets).sorted()
        var result: [Int: Location] = [:]
        result.reserveCapacity(sorted.count)
        var line = 1, column = 1, position = 0
        bytes.withUnsafeBufferPointer { buffer in
            for target in sorted {
                let end = min(target, buffer.count)
                while position < end {
                    let byte = buffer[position]
                    if byte == 0x0A {
                        line += 1
                        column = 1
                    } else if byte & 0xC0 != 0x80 {
                        column += 1
                    }
                    position += 1
                }
                result[target] = Location(line: line, column: column)
            }
        }
        return result
    }
}
