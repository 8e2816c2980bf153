import DioramaTestSupport
import Testing

/// `diorama link`'s arguments, checked before Link starts.
@Suite struct LinkCommandTests {
    @Test(arguments: [
        (["--quantum", "0"], "--quantum must be a positive number of beats"),
        (["--seconds=-1"], "--seconds must be 0 or more"),
        (["--tempo", "5"], "--tempo must be 20...999 beats per minute"),
        (["--peers=-2"], "--peers must be 0 or more"),
    ])
    func badArgumentsAreRefused(arguments: [String], message: String) throws {
        let result = try DioramaCommand.run(["link"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func zeroSecondsPrintsOneRow() throws {
        let result = try DioramaCommand.run(["link", "--seconds", "0", "--quantum", "90"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first == "# clock_us peers tempo beat phase playing (quantum 90)")
        #expect(lines.count == 2)
        #expect(lines.last?.split(separator: " ").count == 6)
    }
}
