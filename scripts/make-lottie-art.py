#!/usr/bin/env python3
"""Writes media/art/bounce.json: the project's own Lottie animation (no downloaded art), deterministically.

A ball drops onto a floor, squashes, and springs back up: 60 frames at 30 fps, seamless when looped. A marker
"impact" names frame 30, where the ball lands (a scene's cue fires a sound there); "fall" spans frames 0..29.
A ring spreads from the landing point and the ball's shadow tightens as it comes down.

Keyframes carry their end value ("e"), the older Lottie form every rlottie reads.
Run from the repository root: python3 scripts/make-lottie-art.py
"""
import json
import os

FPS, FRAMES, SIZE = 30, 60, 400
FLOOR_Y, TOP_Y, RADIUS = 330, 80, 46
EASE_IN = {"x": [0.55], "y": [0]}      # out-tangent of a falling key: slow start
EASE_OUT = {"x": [0.45], "y": [1]}     # in-tangent arriving at the top: slow end
LINEAR_O, LINEAR_I = {"x": [0], "y": [0]}, {"x": [1], "y": [1]}


def static(value):
    return {"a": 0, "k": value}


def animated(keys):
    """keys: [(frame, value, out_tangent, in_tangent_of_next)], the last one a bare (frame, value)."""
    frames = []
    for index, key in enumerate(keys):
        frame, value = key[0], key[1]
        entry = {"t": frame, "s": value}
        if index + 1 < len(keys):
            entry["e"] = keys[index + 1][1]
            entry["o"] = key[2] if len(key) > 2 else LINEAR_O
            entry["i"] = key[3] if len(key) > 3 else LINEAR_I
        frames.append(entry)
    return {"a": 1, "k": frames}


def transform(position=None, scale=None, opacity=None, anchor=(0, 0)):
    return {
        "o": opacity or static(100), "r": static(0), "p": position or static([0, 0, 0]),
        "a": static([anchor[0], anchor[1], 0]), "s": scale or static([100, 100, 100]),
    }


def group(items, name):
    shape_transform = {"ty": "tr", "p": static([0, 0]), "a": static([0, 0]), "s": static([100, 100]),
                       "r": static(0), "o": static(100)}
    return {"ty": "gr", "nm": name, "it": items + [shape_transform]}


def ellipse(width, height, center=(0, 0)):
    return {"ty": "el", "d": 1, "p": static(list(center)), "s": static([width, height])}


def fill(rgb, opacity=100):
    return {"ty": "fl", "c": static([c / 255 for c in rgb] + [1]), "o": static(opacity), "r": 1}


def stroke(rgb, width, opacity):
    return {"ty": "st", "c": static([c / 255 for c in rgb] + [1]), "o": opacity, "w": width, "lc": 2, "lj": 2}


def layer(index, name, shapes, ks):
    return {"ddd": 0, "ind": index, "ty": 4, "nm": name, "sr": 1, "ks": ks, "ao": 0, "shapes": shapes,
            "ip": 0, "op": FRAMES, "st": 0, "bm": 0}


center_x = SIZE / 2
# The ball's centre: falls (ease in) to the floor by frame 30, rests squashed to 36, rises (ease out) to the top by 60.
ball_position = animated([
    (0, [center_x, TOP_Y, 0], EASE_IN, LINEAR_I),
    (30, [center_x, FLOOR_Y - RADIUS + 10, 0], LINEAR_O, LINEAR_I),
    (36, [center_x, FLOOR_Y - RADIUS + 10, 0], LINEAR_O, EASE_OUT),
    (60, [center_x, TOP_Y, 0]),
])
# Squash on landing (wide and low), a stretch as it leaves, round again at the top.
ball_scale = animated([
    (0, [96, 104, 100]), (26, [90, 112, 100]), (30, [128, 76, 100]), (33, [118, 86, 100]),
    (38, [90, 112, 100]), (48, [100, 100, 100]), (60, [96, 104, 100]),
])
ball = layer(1, "ball", [
    group([ellipse(RADIUS * 0.55, RADIUS * 0.4, (-RADIUS * 0.32, -RADIUS * 0.38)), fill((255, 236, 200), 85)], "highlight"),
    group([ellipse(RADIUS * 2, RADIUS * 2), fill((255, 122, 61))], "body"),
    group([ellipse(RADIUS * 2 + 8, RADIUS * 2 + 8), fill((176, 58, 46))], "rim"),
], transform(position=ball_position, scale=ball_scale))

# The shadow on the floor: wide and faint while the ball is high, tight and dark at the landing.
shadow_scale = animated([(0, [70, 70, 100]), (30, [118, 118, 100]), (36, [118, 118, 100]), (60, [70, 70, 100])])
shadow_opacity = animated([(0, [25]), (30, [70]), (36, [70]), (60, [25])])
shadow = layer(3, "shadow", [group([ellipse(120, 22), fill((0, 0, 0))], "shadow")],
               transform(position=static([center_x, FLOOR_Y + 4, 0]), scale=shadow_scale, opacity=shadow_opacity))

# A ring that spreads from the landing point and fades.
ring_scale = animated([(0, [10, 10, 100]), (29, [10, 10, 100]), (30, [20, 20, 100]), (50, [190, 190, 100]), (60, [190, 190, 100])])
ring_opacity = animated([(0, [0]), (29, [0]), (30, [95]), (50, [0]), (60, [0])])
ring = layer(2, "ring", [group([ellipse(120, 34), stroke((255, 214, 102), static(6), static(100))], "ring")],
             transform(position=static([center_x, FLOOR_Y + 4, 0]), scale=ring_scale, opacity=ring_opacity))

animation = {
    "v": "5.5.7", "fr": FPS, "ip": 0, "op": FRAMES, "w": SIZE, "h": SIZE, "nm": "bounce", "ddd": 0, "assets": [],
    # Drawn top first: the ball over the ring over the shadow.
    "layers": [ball, ring, shadow],
    "markers": [{"cm": "fall", "tm": 0, "dr": 30}, {"cm": "impact", "tm": 30, "dr": 0}],
}

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
path = os.path.join(root, "media", "art", "bounce.json")
with open(path, "w") as out:
    # Key order matters: rlottie reads a shape's "ty" before the rest of it.
    json.dump(animation, out, indent=1)
    out.write("\n")
print("wrote media/art/bounce.json")
