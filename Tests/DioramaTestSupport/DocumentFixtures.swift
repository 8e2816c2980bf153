import DioramaDocument
import DioramaTimeline

/// scenes.json text for tests that go through the parser, and helpers to decode it.
public enum DocumentFixtures {
    /// A small but complete document: every node type but image, gradients, a basic animation, a keyframe
    /// track, a spring without duration, ambience, and cues at a time, on `to` and on a keyframe.
    public static let oceanJSON = """
        {
          "$schema": "docs/scenes.schema.json",
          "canvas": { "width": 1280, "height": 720, "background": "#0b1a2a" },
          "languages": { "default": "en", "fallback": "en", "available": ["en", "zh", "ja"] },
          "sounds": { "bell": { "path": "media/bell.flac", "gain": 0.8 }, "surf": "media/surf.flac" },
          "scenes": [{
            "id": "ocean", "title": { "en": "Ocean", "zh": "海洋", "ja": "海" }, "duration": 24,
            "background": { "linear": { "colors": ["#0b1a2a", "#1d4e89"] } },
            "ambience": [{ "sound": "surf", "gain": 0.6, "fadeIn": 2, "fadeOut": 1.5 }],
            "cues": [
              { "sound": "bell", "at": 5.5 },
              { "sound": "bell", "node": "buoy", "animation": "tilt", "on": "to", "gain": 0.9, "pan": -0.3 },
              { "sound": "bell", "node": "buoy", "animation": "bob", "on": { "keyframe": 1 }, "offset": -0.05 }
            ],
            "nodes": [
              { "type": "wave", "id": "swell", "x": 0, "y": 400, "width": 1280, "height": 320, "yOffset": 0.1, "fill": "#1d4e89",
                "animations": [{ "property": "yOffset", "from": -0.1, "to": 0.1, "duration": 3, "repeat": "forever", "autoreverses": true }] },
              { "type": "group", "id": "buoy", "offset": { "x": 640, "y": 380 }, "anchor": "bottom",
                "children": [
                  { "type": "rect", "x": -20, "y": -60, "width": 40, "height": 60, "cornerRadius": 6, "fill": "#d33" },
                  { "type": "path", "d": "M -20 -60 l 20 -30 L 20 -60 Z", "stroke": { "paint": "#fff", "width": 2, "dash": [4, 2] } },
                  { "type": "circle", "cx": 0, "cy": -95, "r": 5, "fill": "#ffd27a",
                    "shadow": { "color": "#ffd27a", "radius": 12 } }
                ],
                "animations": [
                  { "id": "tilt", "property": "rotation", "from": -20, "to": 15, "curve": "easeInOut", "duration": 1,
                    "delay": 0.2, "repeat": "forever", "autoreverses": true },
                  { "id": "bob", "property": "offset.y",
                    "keyframes": [{ "time": 0, "value": 380 }, { "time": 1, "value": 390, "curve": "easeInOut" },
                                  { "time": 2, "value": 380, "hold": true }], "repeat": "forever" },
                  { "property": "scale", "to": 1.2, "curve": "spring" }
                ] },
              { "type": "line", "points": [[0, 700], [1280, 700]],
                "stroke": { "paint": "#ffffff80", "width": 1, "dash": [6, 4] },
                "animations": [{ "property": "stroke.dashPhase", "from": 0, "to": 10, "curve": "linear", "duration": 1, "repeat": "forever" }] },
              { "type": "emitter", "particles": { "seed": 7, "birthRate": 40, "lifetime": 8, "color": "#ffffffcc",
                                                   "shape": "snowflake", "sway": { "amplitude": 6, "frequency": 0.3 } } },
              { "type": "text", "text": { "en": "Ocean", "zh": "海洋", "ja": "海" }, "x": 640, "y": 80,
                "font": { "size": 48, "weight": 700 }, "fill": "#fff" }
            ]
          }]
        }
        """

    /// Decodes `json` as a file named `name` (in messages only; nothing is read from disk).
    public static func decode(_ json: String, name: String = "scenes.json") throws(DocumentLoadError) -> LoadedDocument {
        try DocumentLoader.decode(bytes: Array(json.utf8), path: name)
    }

    /// What `diorama timeline NAME` prints for `json` (48 kHz), so docs can show real output and tests keep it true.
    public static func timelineText(_ json: String, name: String) throws(DocumentLoadError) -> String {
        TimelineReport(document: try decode(json, name: name).document, sampleRate: 48_000).text(file: name)
    }

    /// The diagnostics `json` produces, errors and warnings, rendered as `diorama check` prints them.
    public static func renderedDiagnostics(_ json: String, name: String = "scenes.json") -> [String] {
        do {
            return try decode(json, name: name).warnings.map(\.description)
        } catch {
            return error.diagnostics.map(\.description)
        }
    }
}
