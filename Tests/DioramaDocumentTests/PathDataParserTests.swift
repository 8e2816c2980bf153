import Testing

@testable import DioramaDocument

@Suite struct PathDataParserTests {
    static func commands(_ text: String) -> [PathData.Command]? {
        if case .success(let data) = PathDataParser.parse(text) { return data.commands }
        return nil
    }

    static func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    @Test func absoluteAndRelativeCommandsResolveToAbsolutePoints() {
        #expect(Self.commands("M10 20 l5 5 h10 v-5 H0 V0 z") == [
            .move(Self.p(10, 20)), .line(Self.p(15, 25)), .line(Self.p(25, 25)), .line(Self.p(25, 20)),
            .line(Self.p(0, 20)), .line(Self.p(0, 0)), .close,
        ])
        #expect(Self.commands("M 0 0 q 10 0 10 10 c 0 5 5 10 10 10") == [
            .move(Self.p(0, 0)), .quad(control: Self.p(10, 0), to: Self.p(10, 10)),
            .cubic(control1: Self.p(10, 15), control2: Self.p(15, 20), to: Self.p(20, 20)),
        ])
    }

    @Test func pairsAfterAMoveAreLinesAndCommandsRepeat() {
        #expect(Self.commands("M0,0 10,0 10,10 L 20 20 30 30") == [
            .move(Self.p(0, 0)), .line(Self.p(10, 0)), .line(Self.p(10, 10)), .line(Self.p(20, 20)), .line(Self.p(30, 30)),
        ])
        #expect(Self.commands("m1 1 2 2") == [.move(Self.p(1, 1)), .line(Self.p(3, 3))])
        // Compact SVG number forms: signs and points separate numbers.
        #expect(Self.commands("M-1-2L.5.5 1e1-1e0") == [.move(Self.p(-1, -2)), .line(Self.p(0.5, 0.5)), .line(Self.p(10, -1))])
    }

    @Test func closeReturnsToTheSubpathStart() {
        #expect(Self.commands("M 5 5 L 10 5 Z l 1 1") == [
            .move(Self.p(5, 5)), .line(Self.p(10, 5)), .close, .line(Self.p(6, 6)),
        ])
    }

    @Test func smoothCurvesReflectThePreviousControlPoint() {
        #expect(Self.commands("M0 0 C 0 10 10 10 10 0 S 20 -10 20 0") == [
            .move(Self.p(0, 0)), .cubic(control1: Self.p(0, 10), control2: Self.p(10, 10), to: Self.p(10, 0)),
            .cubic(control1: Self.p(10, -10), control2: Self.p(20, -10), to: Self.p(20, 0)),
        ])
        #expect(Self.commands("M0 0 Q 5 10 10 0 T 20 0") == [
            .move(Self.p(0, 0)), .quad(control: Self.p(5, 10), to: Self.p(10, 0)), .quad(control: Self.p(15, -10), to: Self.p(20, 0)),
        ])
        // Without a previous curve of its kind, the control point is the current point.
        #expect(Self.commands("M0 0 L 5 5 S 10 10 20 0") == [
            .move(Self.p(0, 0)), .line(Self.p(5, 5)), .cubic(control1: Self.p(5, 5), control2: Self.p(10, 10), to: Self.p(20, 0)),
        ])
    }

    @Test(arguments: [
        ("", 0, "the path data is empty"),
        ("L 1 1", 0, "path data must start with a move ('M'), not 'L'"),
        ("M 0 0 L 1", 9, "path data ends where 'L' needs another number"),
        ("M 0 0 X 1", 6, "unknown path command 'X'"),
        ("M 0 0 a 1 1 0 0 1 2 2", 6, "arcs ('a') are not supported in path data"),
        ("M 0 0 Z 1 2", 8, "a number cannot follow 'Z'"),
        ("M 0 0 L 1 ,", 11, "path data ends where 'L' needs another number"),
        ("M 0 0 L 1e999 0", 8, "the number 1e999 in the path data is too large"),
    ])
    func mistakesArePlacedAtTheirByte(text: String, index: Int, message: String) {
        guard case .failure(let failure) = PathDataParser.parse(text) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(failure.message == message)
        #expect(failure.utf8Index == index)
    }
}
