/// Mutations that know nothing of the format: what a damaged download, a bad editor or an attacker produces.
enum ByteMutations {
    /// Bytes that mean something in JSON, XML or OSC, inserted whole.
    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", ",", ":", "\\", "\\u", "\\ud800", "1e999", "-0", "null", "\0", "\u{FEFF}", "/*", "<", ">",
        "/>", "&", "&lt;", "<!--", "]]>", "=\"", "#bundle\0", ",iiii", "\u{00}\u{00}\u{00}", "\u{FF}", "é", "\u{10FFFF}",
    ].map { Array($0.utf8) }

    static func mutate(_ input: inout [UInt8], others: [[UInt8]], random: inout FuzzRandom) {
        if input.isEmpty {
            input = random.pick(tokens)
            return
        }
        switch random.below(9) {
        case 0: // flip a bit
            let index = random.below(input.count)
            input[index] ^= UInt8(1 << random.below(8))
        case 1: // set a byte
            input[random.below(input.count)] = UInt8(truncatingIfNeeded: random.next())
        case 2: // insert random bytes
            let count = random.within(1...8)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            input.insert(contentsOf: bytes, at: random.below(input.count + 1))
        case 3: // delete a range
            let start = random.below(input.count)
            let length = min(input.count - start, random.chance(0.7) ? random.within(1...8) : random.within(1...max(1, input.count / 4)))
            input.removeSubrange(start..<(start + length))
        case 4: // duplicate a range, sometimes many times
            let start = random.below(input.count)
            let length = min(input.count - start, random.within(1...64))
            let piece = Array(input[start..<(start + length)])
            let copies = random.chance(0.8) ? 1 : random.within(2...32)
            input.insert(contentsOf: Array(repeating: piece, count: copies).joined(), at: random.below(input.count + 1))
        case 5: // splice a range of another input of the corpus
            let other = random.pick(others)
            guard !other.isEmpty else { return }
            let start = random.below(other.count)
            let length = min(other.count - start, random.within(1...256))
            input.insert(contentsOf: other[start..<(start + length)], at: random.below(input.count + 1))
        case 6: // cut: the file ends early
            input.removeSubrange(random.below(input.count)...)
        case 7: // a meaningful token
            input.insert(contentsOf: random.pick(tokens), at: random.below(input.count + 1))
        default: // swap two bytes
            let a = random.below(input.count), b = random.below(input.count)
            input.swapAt(a, b)
        }
    }
}
