#!/usr/bin/env python3
"""Writes bench/peer/scenes.json and bench/peer/animation.json: one picture in both formats, deterministically.

The peer of `diorama bench render` (and `diorama bench peer`): the same ten seconds drawn by our renderer from a
scenes file and by rlottie from a Lottie file, so that the two can be timed on the same work. Both files come from
the one description below:

- a gradient sky (the scene's background; a full-canvas rectangle with a linear gradient fill in Lottie),
- a group of five shapes (rounded square, circle, ellipse, triangle, star) turning once in 10 s about its centre,
- six waves whose top edge is a cubic curve that swells (the `wave` node; an animated closed path in Lottie),
  easeInOut (cubic-bezier(0.42, 0, 0.58, 1), the same curve in both), back and forth,
- 400 circles falling at one of four speeds, each wrapping from the bottom back to the top; their places come
  from a seeded generator, so every run writes the same files.

What the formats cannot share is left out of both: no shadows, blurs or text (rlottie has no drop shadow and the
scenes file has no Lottie text). Every keyframe falls on a whole Lottie frame (a multiple of 0.1 s at 30 fps), and
a circle's jump from the bottom to the top is a hold keyframe in both, so that any frame of the one is the same
frame of the other. Lottie draws its first layer and first shape on top, so its lists run in reverse.

Run from anywhere: python3 scripts/make-peer-bench.py [--out DIR] (DIR defaults to bench/peer of the repository).
"""
import argparse
import json
import math
import os
import random

WIDTH, HEIGHT, FPS, SECONDS = 1280, 720, 30, 10
FRAMES = FPS * SECONDS
EASE_IN_OUT = (0.42, 0, 0.58, 1)

SKY = [("#1f3a73", 0), ("#4a64a3", 0.28), ("#a07fa6", 0.5), ("#e59a86", 0.66), ("#fde3b4", 1)]


def star(cx, cy, outer, inner, points=5):
    """A star's corners, the first pointing up."""
    result = []
    for k in range(points * 2):
        radius = outer if k % 2 == 0 else inner
        angle = -math.pi / 2 + k * math.pi / points
        result.append([round(cx + radius * math.cos(angle), 2), round(cy + radius * math.sin(angle), 2)])
    return result


ROTOR_CENTER = (960, 210)
# (kind, geometry around the rotor's centre, fill)
ROTOR_SHAPES = [
    ("rect", {"x": -30, "y": -120, "width": 60, "height": 60, "cornerRadius": 12}, "#ffd166"),
    ("circle", {"cx": 86, "cy": -28, "r": 30}, "#ef476f"),
    ("ellipse", {"cx": 53, "cy": 73, "rx": 40, "ry": 22}, "#06d6a0"),
    ("polygon", {"points": [[-53, 43], [-23, 95], [-83, 95]]}, "#118ab2"),
    ("polygon", {"points": star(-86, -28, 34, 14)}, "#f78c6b"),
]

# (top edge y, control1X, control2X, yOffset amplitude, seconds one way, fill); drawn in this order.
WAVES = [
    (360, 0.40, 0.60, 0.05, 5.0, "#9dbfe0"),
    (410, 0.30, 0.70, 0.07, 4.0, "#7ea7d6"),
    (460, 0.45, 0.55, 0.09, 3.7, "#6192cc"),
    (515, 0.35, 0.65, 0.11, 3.5, "#4a7fc0"),
    (570, 0.50, 0.50, 0.12, 3.2, "#3a6db2"),
    (630, 0.38, 0.62, 0.14, 3.4, "#2c5ea3"),
]
WAVE_X, WAVE_WIDTH, WAVE_HEIGHT = -80, 1440, 640

CIRCLES, SEED = 400, 13
# Seconds a circle takes to cross the canvas; each divides the 10 s, so the Lottie file ends where it starts.
PERIODS = [10.0, 5.0, 2.5, 2.0]
HOLD = 0.1  # seconds a circle waits below the canvas before it jumps to the top


def tenths(seconds):
    """A time in whole tenths of a second, which is a whole frame at 30 fps."""
    return round(seconds * 10) / 10


def circles():
    """Each circle: x, radius, fill alpha (0...255), period, the time it reaches the bottom, and its y at the top,
    at the bottom and at time 0."""
    rng = random.Random(SEED)
    result = []
    for _ in range(CIRCLES):
        period = rng.choice(PERIODS)
        # Faster circles are nearer: bigger and brighter.
        near = PERIODS.index(period) / (len(PERIODS) - 1)
        radius = round(2 + 4 * near + rng.uniform(-0.5, 0.5), 1)
        alpha = round(110 + 120 * near + rng.uniform(-20, 20))
        x = round(rng.uniform(0, WIDTH), 1)
        bottom = HEIGHT + radius + 1
        # The speed that takes a circle from above the canvas to below it in the period less the hold.
        speed = (HEIGHT + 2 * radius + 2) / (period - HOLD)
        top = round(bottom - speed * (period - HOLD), 2)
        wrap = tenths(rng.uniform(HOLD, period - 2 * HOLD))
        start = round(bottom - speed * wrap, 2)
        result.append({"x": x, "r": radius, "alpha": alpha, "period": period, "wrap": wrap,
                       "top": top, "bottom": bottom, "start": start})
    return result


def hex_rgb(color):
    return [int(color[i:i + 2], 16) / 255 for i in (1, 3, 5)]


# ---------------------------------------------------------------------------------------------------------------
# The scenes file.

def scenes_document(falling):
    nodes = []
    rotor_children = []
    for kind, geometry, fill in ROTOR_SHAPES:
        rotor_children.append({"type": kind, **geometry, "fill": fill})
    nodes.append({
        "type": "group", "id": "rotor", "offset": {"x": ROTOR_CENTER[0], "y": ROTOR_CENTER[1]},
        "anchorPoint": {"x": 0, "y": 0},
        "animations": [{"property": "rotation", "from": 0, "to": 360, "duration": SECONDS, "curve": "linear",
                        "repeat": "forever"}],
        "children": rotor_children,
    })
    for index, (y, c1, c2, amplitude, seconds, fill) in enumerate(WAVES):
        nodes.append({
            "type": "wave", "id": f"wave-{index + 1}", "x": WAVE_X, "y": y, "width": WAVE_WIDTH, "height": WAVE_HEIGHT,
            "control1X": c1, "control2X": c2, "yOffset": -amplitude, "fill": fill,
            "animations": [{"property": "yOffset", "from": -amplitude, "to": amplitude, "curve": "easeInOut",
                            "duration": seconds, "repeat": "forever", "autoreverses": True}],
        })
    for circle in falling:
        wrap, period = circle["wrap"], circle["period"]
        nodes.append({
            "type": "circle", "cx": circle["x"], "cy": 0, "r": circle["r"], "fill": "#ffffff%02x" % circle["alpha"],
            "animations": [{"property": "offset.y", "repeat": "forever", "keyframes": [
                {"time": 0, "value": circle["start"]},
                {"time": wrap, "value": circle["bottom"]},
                {"time": tenths(wrap + HOLD), "value": circle["top"], "hold": True},
                {"time": period, "value": circle["start"]},
            ]}],
        })
    return {
        "$schema": "../../docs/scenes.schema.json",
        "canvas": {"width": WIDTH, "height": HEIGHT, "background": SKY[0][0]},
        "scenes": [{
            "id": "peer", "title": "Peer of the Lottie benchmark", "duration": SECONDS,
            "background": {"linear": {"stops": [{"color": c, "location": l} for c, l in SKY],
                                      "start": "top", "end": "bottom"}},
            "nodes": nodes,
        }],
    }


def write_scenes(document, path):
    """One node per line, so that a diff of a regenerated file stays readable."""
    scene = document["scenes"][0]
    head = {k: v for k, v in scene.items() if k != "nodes"}
    lines = ["{"]
    for key in ("$schema", "canvas"):
        lines.append(f'  {json.dumps(key)}: {json.dumps(document[key])},')
    lines.append('  "scenes": [')
    lines.append("    " + json.dumps(head)[:-1] + ', "nodes": [')
    nodes = scene["nodes"]
    for index, node in enumerate(nodes):
        lines.append("      " + json.dumps(node) + ("," if index + 1 < len(nodes) else ""))
    lines.append("    ] }")
    lines.append("  ]")
    lines.append("}")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------------------------------
# The Lottie file. Keyframes carry their end value ("e"), the older form every rlottie reads; "ty" comes first in
# every shape, as rlottie reads it before the rest.

LINEAR_O, LINEAR_I = {"x": [0], "y": [0]}, {"x": [1], "y": [1]}
EASE_O = {"x": [EASE_IN_OUT[0]], "y": [EASE_IN_OUT[1]]}
EASE_I = {"x": [EASE_IN_OUT[2]], "y": [EASE_IN_OUT[3]]}


def static(value):
    return {"a": 0, "k": value}


def frame(seconds):
    return round(seconds * FPS)


def animated(keys):
    """keys: [(frame, value, kind)], kind "linear", "ease" or "hold" for the segment that leaves the key."""
    result = []
    for index, (at, value, kind) in enumerate(keys):
        entry = {"t": at, "s": value}
        if index + 1 < len(keys):
            if kind == "hold":
                entry["h"] = 1
            else:
                entry["e"] = keys[index + 1][1]
                entry["o"], entry["i"] = (EASE_O, EASE_I) if kind == "ease" else (LINEAR_O, LINEAR_I)
        result.append(entry)
    return {"a": 1, "k": result}


def shape_transform(position=None):
    return {"ty": "tr", "p": position or static([0, 0]), "a": static([0, 0]), "s": static([100, 100]),
            "r": static(0), "o": static(100), "sk": static(0), "sa": static(0)}


def group(name, items, position=None):
    return {"ty": "gr", "nm": name, "it": items + [shape_transform(position)]}


def solid(color, alpha=255):
    return {"ty": "fl", "c": static(hex_rgb(color) + [1]), "o": static(round(alpha / 255 * 100, 3)), "r": 1}


def polygon_path(points):
    zero = [[0, 0] for _ in points]
    return {"i": zero, "o": zero, "v": points, "c": True}


def layer(index, name, shapes, position=(0, 0), rotation=None):
    ks = {"o": static(100), "r": rotation or static(0), "p": static([position[0], position[1], 0]),
          "a": static([0, 0, 0]), "s": static([100, 100, 100])}
    return {"ddd": 0, "ind": index, "ty": 4, "nm": name, "sr": 1, "ks": ks, "ao": 0, "shapes": shapes,
            "ip": 0, "op": FRAMES, "st": 0, "bm": 0}


def wave_path(y, c1, c2, offset):
    """The `wave` node's band: the top edge a cubic through control points moved by ±offset × height."""
    x, w, h = WAVE_X, WAVE_WIDTH, WAVE_HEIGHT
    return {"i": [[0, 0], [round(c2 * w - w, 4), round(-offset * h, 4)], [0, 0], [0, 0]],
            "o": [[round(c1 * w, 4), round(offset * h, 4)], [0, 0], [0, 0], [0, 0]],
            "v": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]], "c": True}


def lottie_document(falling):
    sky_gradient = []
    for color, location in SKY:
        sky_gradient += [location] + hex_rgb(color)
    sky = layer(4, "sky", [group("sky", [
        {"ty": "rc", "d": 1, "p": static([WIDTH / 2, HEIGHT / 2]), "s": static([WIDTH, HEIGHT]), "r": static(0)},
        {"ty": "gf", "o": static(100), "r": 1, "s": static([WIDTH / 2, 0]), "e": static([WIDTH / 2, HEIGHT]), "t": 1,
         "g": {"p": len(SKY), "k": static(sky_gradient)}},
    ])])

    rotor_groups = []
    for index, (kind, g, fill) in enumerate(ROTOR_SHAPES):
        if kind == "rect":
            geometry = {"ty": "rc", "d": 1, "p": static([g["x"] + g["width"] / 2, g["y"] + g["height"] / 2]),
                        "s": static([g["width"], g["height"]]), "r": static(g["cornerRadius"])}
        elif kind == "circle":
            geometry = {"ty": "el", "d": 1, "p": static([g["cx"], g["cy"]]), "s": static([2 * g["r"], 2 * g["r"]])}
        elif kind == "ellipse":
            geometry = {"ty": "el", "d": 1, "p": static([g["cx"], g["cy"]]), "s": static([2 * g["rx"], 2 * g["ry"]])}
        else:
            geometry = {"ty": "sh", "d": 1, "ks": static(polygon_path(g["points"]))}
        rotor_groups.append(group(f"{kind}-{index + 1}", [geometry, solid(fill)]))
    rotor = layer(3, "rotor", list(reversed(rotor_groups)), position=ROTOR_CENTER,
                  rotation=animated([(0, [0], "linear"), (FRAMES, [360], "linear")]))

    wave_groups = []
    for index, (y, c1, c2, amplitude, seconds, fill) in enumerate(WAVES):
        keys, k = [], 0
        while True:
            at = frame(k * seconds)
            offset = -amplitude if k % 2 == 0 else amplitude
            keys.append((at, [wave_path(y, c1, c2, offset)], "ease"))
            if at >= FRAMES:
                break
            k += 1
        path = {"ty": "sh", "d": 1, "ks": animated(keys)}
        wave_groups.append(group(f"wave-{index + 1}", [path, solid(fill)]))
    waves = layer(2, "waves", list(reversed(wave_groups)))

    circle_groups = []
    for index, circle in enumerate(falling):
        x, period, wrap = circle["x"], circle["period"], circle["wrap"]
        keys = []
        for k in range(round(SECONDS / period)):
            base = k * period
            keys += [(frame(base), [x, circle["start"]], "linear"),
                     (frame(base + wrap), [x, circle["bottom"]], "hold"),
                     (frame(base + tenths(wrap + HOLD)), [x, circle["top"]], "linear")]
        keys.append((FRAMES, [x, circle["start"]], "linear"))
        circle_groups.append(group(f"circle-{index + 1}", [
            {"ty": "el", "d": 1, "p": static([0, 0]), "s": static([2 * circle["r"], 2 * circle["r"]])},
            solid("#ffffff", circle["alpha"]),
        ], position=animated(keys)))
    rain = layer(1, "circles", list(reversed(circle_groups)))

    return {"v": "5.5.7", "fr": FPS, "ip": 0, "op": FRAMES, "w": WIDTH, "h": HEIGHT, "nm": "peer", "ddd": 0,
            "assets": [], "layers": [rain, waves, rotor, sky], "markers": []}


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(root, "bench", "peer"), help="the folder to write into")
    out = parser.parse_args().out
    os.makedirs(out, exist_ok=True)
    falling = circles()
    write_scenes(scenes_document(falling), os.path.join(out, "scenes.json"))
    with open(os.path.join(out, "animation.json"), "w") as file:
        json.dump(lottie_document(falling), file, separators=(",", ":"))
        file.write("\n")
    print(f"wrote scenes.json and animation.json in {os.path.relpath(out)}")


if __name__ == "__main__":
    main()
