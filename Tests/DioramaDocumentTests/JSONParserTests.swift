import Testing

@testable import DioramaDocument

@Suite struct JSONParserTests {
    static func parse(_ text: String) -> (value: JSONValue?, problems: [Problem]) {
        JSONParser.parse(Array(text.utf8))
    }

    static func firstMessage(_ bytes: [UInt8]) -> String? {
        JSONParser.parse(bytes).problems.first?.message
    }

    @Test func numbersKeepTheirLiteralText() throws {
        let (value, problems) = Self.parse(#"[0, -3, 0.9, 1.5e-3, 1E+2, -0.000001, 123456789012345678901234567890]"#)
        #expect(problems.isEmpty)
        guard case .array(let elements) = try #require(value).kind else { Issue.record("not an array"); return }
        let literals = elements.map { element -> String in
            if case .number(let text) = element.kind { return text }
            return "?"
        }
        #expect(literals == ["0", "-3", "0.9", "1.5e-3", "1E+2", "-0.000001", "123456789012345678901234567890"])
    }

    @Test(arguments: [
        ("01", "a number cannot start with 0 followed by more digits"),
        ("1.", "expected a digit after '.'"),
        (".5", "a number needs a digit before '.'"),
        ("+1", "a number cannot start with '+'"),
        ("1e", "expected a digit in the exponent"),
        ("-", "expected a digit after '-'"),
        ("1x", "unexpected 'x' in a number"),
        ("NaN", "'NaN' is not a JSON number"),
        ("Infinity", "'Infinity' is not a JSON number"),
        ("tru", "unexpected word 'tru' where a value should be"),
        ("nulls", "unexpected word 'nulls' where a value should be"),
    ])
    func malformedScalarsAreRejected(text: String, message: String) {
        #expect(Self.parse(text).problems.map(\.message) == [message])
    }

    @Test func stringsDecodeEscapesAndUnicode() throws {
        let (value, problems) = Self.parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u6d77", "\ud83c\udf0a", "海 🌊"]"#)
        #expect(problems.isEmpty)
        guard case .array(let elements) = try #require(value).kind else { Issue.record("not an array"); return }
        let strings = elements.map { element -> String in
            if case .string(let text) = element.kind { return text }
            return "?"
        }
        #expect(strings == ["a\"b\\c/d\u{8}\u{C}\n\r\t", "é海", "🌊", "海 🌊"])
    }

    @Test func badStringsAreRejectedAtTheirByte() {
        let cases: [(String, String, Int)] = [
            ("\"a\u{1}b\"", "control character U+0001 inside a string", 2),
            (#""\x""#, #"'\x' is not a JSON escape"#, 1),
            (#""\u12""#, #"\u must be followed by four hex digits"#, 1),
            (#""\udc00""#, #"unpaired surrogate \uDC00 in a string"#, 1),
            (#""\ud800x""#, #"unpaired surrogate \uD800 in a string"#, 1),
            (#""abc"#, "unexpected end of file inside the string that starts at 1:1", 4),
        ]
        for (text, message, offset) in cases {
            let problems = Self.parse(text).problems
            #expect(problems.map(\.message) == [message], "\(text)")
            #expect(problems.first?.offset == offset, "\(text)")
        }
    }

    @Test func invalidUTF8IsRejectedEvenWhenOverlongOrASurrogate() {
        let invalid: [[UInt8]] = [
            [0x22, 0xC0, 0x80, 0x22],              // overlong NUL
            [0x22, 0xED, 0xA0, 0x80, 0x22],        // UTF-8 encoded surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xE6, 0xB5, 0x22],              // truncated sequence
            [0x22, 0x80, 0x22],                    // lone continuation byte
        ]
        for bytes in invalid {
            #expect(Self.firstMessage(bytes)?.hasPrefix("invalid UTF-8 byte") == true, "\(bytes)")
        }
        #expect(Self.firstMessage([0xFF]) == "unexpected byte 0xFF (not valid UTF-8) where a value should be")
    }

    @Test func aByteOrderMarkIsTolerated() {
        let (value, problems) = JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        #expect(problems.isEmpty)
        #expect(value?.offset == 3)
    }

    @Test func duplicateKeysAreReportedAndTheFirstIsKept() throws {
        // Beyond 12 keys the parser switches to a dictionary; both paths must catch duplicates.
        let many = (0..<20).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        for text in [#"{"a": 1, "b": 2, "a": 3}"#, "{\(many), \"k15\": 99}"] {
            let (value, problems) = Self.parse(text)
            #expect(problems.count == 1, "\(text)")
            #expect(problems.first?.message.hasPrefix("duplicate key") == true)
            guard case .object(let members) = try #require(value).kind else { Issue.record("not an object"); return }
            let duplicated = try #require(members.first { $0.key == "a" || $0.key == "k15" })
            if case .number(let literal) = duplicated.value.kind { #expect(literal != "3" && literal != "99") }
        }
    }

    @Test func syntaxErrorsNameThePathWhereParsingStopped() {
        let problems = Self.parse(#"{"scenes": [{"id": "a", "nodes": [1, 2,]}]}"#).problems
        #expect(problems.map(\.message) == ["unexpected ']' where a value should be"])
        #expect(problems.first?.path == "scenes[0].nodes[2]")
        #expect(problems.first?.hint == "JSON allows no comma before a closing bracket")
    }

    @Test func nestingIsLimitedTo128Levels() {
        let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect(Self.parse(ok).problems.isEmpty)
        let deep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        #expect(Self.parse(deep).problems.map(\.message) == ["nesting deeper than 128 levels"])
    }

    @Test func locationsCountCharactersNotBytes() {
        // "海" is three bytes but one column; a tab is one column.
        let text = "{\n\t\"海\": x}"
        let bytes = Array(text.utf8)
        let problems = JSONParser.parse(bytes).problems
        let location = SourceLines.locations(of: problems.map(\.offset), in: bytes)[problems[0].offset]
        #expect(location == SourceLines.Location(line: 2, column: 7))
    }
}
