import DioramaTestSupport
import Foundation
import Testing

/// `diorama check` reads a dotLottie archive as the JSON inside it, and reports a bomb at the node's path.
@Suite struct DotLottieCheckTests {
    @Test func checkAcceptsAnArchiveAndLocatesABomb() throws {
        let folder = try TemporaryFolder()
        let json = Array(LottieFixtures.json(markers: [("pluck", 15, 0)]).utf8)
        try Data(LottieFixtures.zip([("animations/drum.json", json, true)])).write(to: folder.url.appendingPathComponent("drum.lottie"))
        try Data(LottieFixtures.zip([("animations/drum.json", json, true)], declaredSize: ["animations/drum.json": 1 << 30]))
            .write(to: folder.url.appendingPathComponent("bomb.lottie"))
        for (file, status) in [("drum.lottie", Int32(0)), ("bomb.lottie", 2)] {
            let scenes = LottieFixtures.scenes(nodes: #"{ "type": "lottie", "id": "drum", "path": "\#(file)" }"#)
                .replacingOccurrences(of: #""sounds": { "tick": { "path": "tick.wav" } },"#, with: "")
            try Data(scenes.utf8).write(to: folder.url.appendingPathComponent("scenes.json"))
            let result = try DioramaCommand.run(["check", folder.path("scenes.json")], timeout: 60)
            #expect(result.status == status, "\(result.standardError)")
            if status == 2 {
                #expect(result.standardError.contains(#"scenes.json:7:57: error: the Lottie file "bomb.lottie" unpacks to more than 16 MiB"#),
                        "\(result.standardError)")
                #expect(result.standardError.contains("(at scenes[0].nodes[0].path)") && result.standardError.contains("hint: "))
            }
        }
    }
}
