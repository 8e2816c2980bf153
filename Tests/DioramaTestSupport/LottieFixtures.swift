import Foundation

/// Small Lottie JSON files for tests: one square layer whose half-transparent fill turns from red to blue.
public enum LottieFixtures {
    /// A drum of 30 fps, frames 0 ..< 60, with markers p0 … p3 on frames 0, 15, 30 and 45.
    public static let markedDrum = json(markers: [("p0", 0, 0), ("p1", 15, 0), ("p2", 30, 0), ("p3", 45, 0)])

    /// A new temporary folder holding `markedDrum` as drum.json.
    public static func folderWithMarkedDrum() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try Data(markedDrum.utf8).write(to: folder.url.appendingPathComponent("drum.json"))
        return folder
    }

    /// A node "lid" tapped by itself at 2 s: what starts the drum in the tests of starts and stops after a tap.
    public static let autoTappedLid = ##"{ "type": "rect", "id": "lid", "width": 10, "height": 10, "fill": "#fff", "tap": { "auto": 2 } }"##

    /// A Lottie document; `extra` is spliced into the top-level object (e.g. `"\"markers\": [...]"`).
    public static func json(frameRate: String = "30", inPoint: String = "0", outPoint: String = "60", width: String = "100",
                            height: String = "100", markers: [(name: String, frame: Int, duration: Int)] = [],
                            layers: String? = nil) -> String {
        let markerText = markers.map { "{\"cm\": \"\($0.name)\", \"tm\": \($0.frame), \"dr\": \($0.duration)}" }.joined(separator: ", ")
        return """
        {"v": "5.5.7", "fr": \(frameRate), "ip": \(inPoint), "op": \(outPoint), "w": \(width), "h": \(height), "nm": "square", "ddd": 0,
         "assets": [], "markers": [\(markerText)],
         "layers": \(layers ?? squareLayer(outPoint: outPoint))}
        """
    }

    /// A layer filling the whole composition (100×100) with a 50 %-opaque fill going red → blue over frames 0...60.
    public static func squareLayer(outPoint: String = "60") -> String {
        """
        [{"ddd": 0, "ind": 1, "ty": 4, "nm": "square", "sr": 1, "ao": 0, "ip": 0, "op": \(outPoint), "st": 0, "bm": 0,
          "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [50, 50, 0]}, "a": {"a": 0, "k": [0, 0, 0]},
                 "s": {"a": 0, "k": [100, 100, 100]}},
          "shapes": [{"ty": "gr", "it": [
            {"ty": "rc", "d": 1, "s": {"a": 0, "k": [100, 100]}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}},
            {"ty": "fl", "o": {"a": 0, "k": 50}, "c": {"a": 1, "k": [
              {"t": 0, "s": [1, 0, 0, 1], "e": [0, 0, 1, 1], "i": {"x": [1], "y": [1]}, "o": {"x": [0], "y": [0]}},
              {"t": 60, "s": [0, 0, 1, 1]}]}},
            {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
             "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}]}]
        """
    }

    /// A scenes file with one scene (`duration` s) holding `nodes` and `cues` (JSON array bodies), sound "tick".
    public static func scenes(nodes: String, cues: String = "", duration: String = "10") -> String {
        """
        {
          "canvas": { "width": 200, "height": 200, "background": "#000000" },
          "languages": { "default": "en", "fallback": "en", "available": ["en"] },
          "sounds": { "tick": { "path": "tick.wav" } },
          "scenes": [{
            "id": "s", "title": "S", "duration": \(duration),
            "nodes": [\(nodes)],
            "cues": [\(cues)]
          }]
        }
        """
    }
}
