import Foundation

/// The record player: a button that, tapped, starts the disc turning, lowers the tonearm and starts the music.
public enum TapFixtures {
    /// `auto`: the button's `"auto"` (nil: only a real tap); `mediaDirectory`: where the sounds are (the repository's
    /// `media` folder by default, relative to the working directory). `toggles`: the button's second tap clicks
    /// (cue 3), ends the music (`until`, fading 0.5 s) and raises the tonearm (`raise`).
    public static func recordPlayer(auto: String? = "4", mediaDirectory: String = "media", toggles: Bool = false) -> String {
        let tap = auto.map { "{ \"auto\": \($0) }" } ?? "{}"
        let until = toggles ? ", \"until\": { \"tap\": \"button\", \"nth\": 2 }, \"fadeOut\": 0.5" : ""
        let secondClick = toggles ? ",\n    { \"sound\": \"click\", \"tap\": \"button\", \"nth\": 2 }" : ""
        let raise = toggles ? ", { \"id\": \"raise\", \"property\": \"rotation\", \"from\": 0, \"to\": -30, \"duration\": 1, \"after\": { \"tap\": \"button\", \"nth\": 2 } }" : ""
        return """
            {
              "canvas": { "width": 640, "height": 360, "background": "#201810" },
              "sounds": { "music": "\(mediaDirectory)/music.flac", "click": "\(mediaDirectory)/click.flac",
                          "crackle": "\(mediaDirectory)/crackle.flac" },
              "scenes": [
                { "id": "intro", "duration": 2 },
                { "id": "player", "duration": 10,
                  "ambience": [{ "sound": "crackle", "start": { "tap": "button", "offset": 0.5 } }],
                  "cues": [
                    { "sound": "click", "tap": "button" },
                    { "sound": "music", "id": "music", "tap": "button", "offset": 1.25, "loop": true\(until) },
                    { "stop": "music", "at": 9, "fadeOut": 0.5 }\(secondClick)
                  ],
                  "nodes": [
                    { "type": "circle", "id": "disc", "cx": 0, "cy": 0, "r": 120, "fill": "#111", "offset": { "x": 260, "y": 180 },
                      "animations": [{ "id": "spin", "property": "rotation", "from": 0, "to": 360, "duration": 1.8,
                                       "repeat": "forever", "after": { "node": "tonearm", "animation": "lower", "on": "end" } }] },
                    { "type": "rect", "id": "tonearm", "x": 0, "y": 0, "width": 12, "height": 150, "fill": "#ccc",
                      "offset": { "x": 470, "y": 40 }, "rotation": -30,
                      "animations": [{ "id": "lower", "property": "rotation", "to": 0, "duration": 1, "delay": 0.25,
                                       "after": { "tap": "button" } }\(raise)] },
                    { "type": "rect", "id": "button", "x": 540, "y": 280, "width": 60, "height": 40, "cornerRadius": 8,
                      "fill": "#c33", "tap": \(tap) }
                  ] }
              ]
            }
            """
    }
}
