import DioramaDocument
import DioramaLottie
import DioramaTestSupport
import Foundation

/// What a Lottie file goes through: our reader's checks, and when it accepts the file, rlottie loading it from
/// memory (as the renderer's cache does with the file's bytes) and drawing frame 0 and a middle frame at 32x32.
enum LottiePipeline {
    static let stages = ["accepted", "loaded", "rendered"]

    /// Shapes the shipped files do not use: a star, a trimmed dashed stroke, a gradient stroke, rounded corners, a
    /// precomposition from the assets, a solid layer under a mask, a track matte and an animated path.
    static let featuresJSON = """
        {"v": "5.7.4", "fr": 24, "ip": 0, "op": 48, "w": 120, "h": 90, "nm": "features", "ddd": 0,
         "assets": [{"id": "inner", "layers": [{"ddd": 0, "ind": 1, "ty": 1, "sc": "#3366ff", "sw": 60, "sh": 60, "ip": 0, "op": 48, "st": 0,
            "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [30, 30, 0]}, "a": {"a": 0, "k": [30, 30, 0]}, "s": {"a": 0, "k": [100, 100, 100]}, "r": {"a": 0, "k": 0}}}]}],
         "markers": [{"cm": "intro", "tm": 0, "dr": 12}, {"cm": "loop", "tm": 12, "dr": 36}],
         "layers": [
          {"ddd": 0, "ind": 1, "ty": 4, "nm": "star", "sr": 1, "ip": 0, "op": 48, "st": 0, "tt": 1,
           "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 1, "k": [{"t": 0, "s": [0], "i": {"x": [0.4], "y": [1]}, "o": {"x": [0.6], "y": [0]}}, {"t": 48, "s": [360]}]},
                  "p": {"a": 0, "k": [60, 45, 0]}, "a": {"a": 0, "k": [0, 0, 0]}, "s": {"a": 0, "k": [100, 100, 100]}},
           "shapes": [
            {"ty": "sr", "sy": 1, "d": 1, "pt": {"a": 0, "k": 5}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0},
             "ir": {"a": 0, "k": 10}, "is": {"a": 0, "k": 0}, "or": {"a": 0, "k": 30}, "os": {"a": 0, "k": 0}},
            {"ty": "rd", "r": {"a": 0, "k": 4}},
            {"ty": "tm", "s": {"a": 0, "k": 10}, "e": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 40, "s": [100]}]}, "o": {"a": 0, "k": 0}, "m": 1},
            {"ty": "st", "c": {"a": 0, "k": [1, 1, 1, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 3}, "lc": 2, "lj": 2, "ml": 4,
             "d": [{"n": "d", "v": {"a": 0, "k": 6}}, {"n": "g", "v": {"a": 0, "k": 3}}, {"n": "o", "v": {"a": 0, "k": 0}}]},
            {"ty": "gs", "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 2}, "lc": 1, "lj": 1, "t": 2, "s": {"a": 0, "k": [0, 0]}, "e": {"a": 0, "k": [20, 0]},
             "g": {"p": 2, "k": {"a": 0, "k": [0, 1, 0, 0, 1, 0, 0, 1]}}, "h": {"a": 0, "k": 0}, "a": {"a": 0, "k": 0}}]},
          {"ddd": 0, "ind": 2, "ty": 0, "nm": "inner", "refId": "inner", "w": 60, "h": 60, "ip": 0, "op": 48, "st": 0,
           "ks": {"o": {"a": 0, "k": 80}, "p": {"a": 0, "k": [60, 45, 0]}, "a": {"a": 0, "k": [30, 30, 0]}, "s": {"a": 0, "k": [100, 100, 100]}, "r": {"a": 0, "k": 0}},
           "hasMask": true, "masksProperties": [{"inv": false, "mode": "a", "o": {"a": 0, "k": 100}, "x": {"a": 0, "k": 0},
             "pt": {"a": 1, "k": [{"t": 0, "s": [{"i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]], "v": [[0, 0], [60, 0], [30, 60]], "c": true}]},
                                  {"t": 48, "s": [{"i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]], "v": [[0, 60], [60, 60], [30, 0]], "c": true}]}]}}]},
          {"ddd": 0, "ind": 3, "ty": 3, "nm": "null", "ip": 0, "op": 48, "st": 0,
           "ks": {"o": {"a": 0, "k": 100}, "p": {"a": 0, "k": [0, 0, 0]}, "a": {"a": 0, "k": [0, 0, 0]}, "s": {"a": 0, "k": [100, 100, 100]}, "r": {"a": 0, "k": 0}}}]}
        """

    static func corpus() throws -> JSONCorpus {
        let root = FuzzSettings.repositoryRoot
        let art = root.appendingPathComponent("media/art")
        var seeds = [try JSONCorpus.seed(at: art.appendingPathComponent("bounce.json")),
                     try JSONCorpus.seed(at: root.appendingPathComponent("bench/peer/animation.json"))]
        seeds.append(JSONCorpus.seed(text: LottieFixtures.json(), name: "fixture-square.json", beside: art))
        seeds.append(JSONCorpus.seed(text: LottieFixtures.json(frameRate: "29.97", markers: [("in", 0, 10), ("out", 10, 50)]),
                                     name: "fixture-markers.json", beside: art))
        seeds.append(JSONCorpus.seed(text: featuresJSON, name: "features.json", beside: art))
        // bench/peer's animation is 400 kB: an input made from it costs as much as fifty of the others.
        return JSONCorpus(seeds: seeds, numberNudgeShare: 0.3) { seed in seed.bytes.count < 100_000 }
    }

    static func run(_ bytes: [UInt8], path: String, random: inout FuzzRandom) -> Set<String> {
        var reached: Set<String> = []
        guard case .success = LottieFileReader.parse(bytes: bytes, shownPath: path) else { return reached }
        reached.insert("accepted")
        guard let animation = try? LottieAnimation(json: bytes, resourceDirectory: (path as NSString).deletingLastPathComponent) else {
            return reached
        }
        reached.insert("loaded")
        let first = animation.render(frame: 0, width: 32, height: 32) != nil
        let middle = animation.render(frame: animation.frameCount / 2, width: 32, height: 32) != nil
        if first && middle { reached.insert("rendered") }
        return reached
    }
}
