#!/usr/bin/env python3
"""Writes the project's own Lottie animations (no downloaded art), deterministically, into media/art/.

bounce.json: a ball drops onto a floor, squashes, and springs back up: 60 frames at 30 fps, seamless when looped. A
marker "impact" names frame 30, where the ball lands (a scene's cue fires a sound there); "fall" spans frames 0..29.
A ring spreads from the landing point and the ball's shadow tightens as it comes down.

music-box-drum.json: a music box's brass pin drum turning towards the viewer, one turn in 120 frames at 30 fps (4 s),
seamless when looped. Eight steel pins, one per tine of the comb below it (columns 108 + 72 k, k = 0..7, low note
to high), each pass the comb's tips (y = 221) once a turn; a marker named after each note ("G5", "C6", ...) is the
frame its pin plucks its tine. Brass bands turn with the pins, so the drum is seen to turn between plucks.

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


# The music box's pin drum.

DRUM_W, DRUM_H, TURN = 720, 300, 120          # composition size; frames per turn (4 s at 30 fps)
CY, RADIUS = 150, 110                          # the drum's axis and radius, in the composition
LEFT, RIGHT = 60, 660                          # the cylinder's ends
PLUCK_ANGLE = 40                               # degrees below the front where a pin meets the comb's tips
COLUMNS = [108 + 72 * k for k in range(8)]     # the tines' columns, low note to high
NOTES = ["C5", "D5", "E5", "G5", "A5", "C6", "D6", "E6"]  # the comb's tines, by column
# The tune, one note every 15 frames (half a second): up an arpeggio and down the scale, each tine once a turn.
TUNE = ["G5", "C6", "E6", "D6", "A5", "E5", "D5", "C5"]
PLUCK_FRAMES = [7 + 15 * n for n in range(len(TUNE))]
DEGREES_PER_FRAME = 360 / TURN


def hold_linear(keys):
    """keys: [(frame, value)] sampled along a path, linear between them; the last one bare."""
    return animated([(frame, value, LINEAR_O, LINEAR_I) for frame, value in keys[:-1]] + [keys[-1]])


def turning(angle_at_zero, length_scale=1.0):
    """Position and scale keyframes of something on the drum's surface at `angle_at_zero` degrees (0 = facing the
    viewer, positive = below) at frame 0, turning towards the viewer and down: every 5 frames and where it passes
    the silhouette, linear between. Seen from the front, its height shrinks with the cosine (foreshortened) and it
    is hidden (scale 0) on the back half."""
    frames = set(range(0, TURN + 1, 5))
    for edge in (-90, 90):
        for lap in range(-1, 3):
            frame = ((edge - angle_at_zero) / DEGREES_PER_FRAME) + lap * TURN
            if 0 <= frame <= TURN:
                frames.add(round(frame, 3))
    positions, scales = [], []
    edges = {frame for frame in frames if frame % 5}
    for frame in sorted(frames):
        angle = (angle_at_zero + DEGREES_PER_FRAME * frame + 180) % 360 - 180
        facing = math.cos(math.radians(angle))
        visible = facing > 1e-9
        # On the back half only the silhouette crossings and the loop's ends matter: it is hidden there.
        if not visible and frame not in edges and frame not in (0, TURN):
            continue
        y = CY + RADIUS * math.sin(math.radians(angle))
        positions.append((frame, [0, round(y, 1), 0]))
        scales.append((frame, [100 if visible else 0, round(max(0.0, facing) * 100 * length_scale, 1), 100]))
    return hold_linear(positions), hold_linear(scales)


def rect(width, height, roundness=0, center=(0, 0)):
    return {"ty": "rc", "d": 1, "p": static(list(center)), "s": static([width, height]), "r": static(roundness)}


def gradient_fill(stops, start, end):
    """A linear gradient: stops [(offset, rgb)], from start to end (composition points)."""
    colors = []
    for offset, rgb in stops:
        colors += [offset] + [c / 255 for c in rgb]
    return {"ty": "gf", "o": static(100), "r": 1, "s": static(list(start)), "e": static(list(end)), "t": 1,
            "g": {"p": len(stops), "k": static(colors)}}


def drum_layer(index, name, shapes, ks):
    return {"ddd": 0, "ind": index, "ty": 4, "nm": name, "sr": 1, "ks": ks, "ao": 0, "shapes": shapes,
            "ip": 0, "op": TURN, "st": 0, "bm": 0}


import math  # noqa: E402  (the bounce above needs none)

drum_layers = []
# Pins, drawn over the bands: a steel stud with a bright cap.
for note, frame in zip(TUNE, PLUCK_FRAMES):
    column = COLUMNS[NOTES.index(note)]
    angle_at_zero = PLUCK_ANGLE - DEGREES_PER_FRAME * frame
    position, scale = turning(angle_at_zero)
    pin = [
        group([ellipse(6, 6, (-1.5, -1.5)), fill((255, 255, 255), 90)], "glint"),
        group([ellipse(12, 12), fill((214, 220, 226))], "cap"),
        group([ellipse(16, 16), fill((70, 72, 78))], "rim"),
    ]
    ks = transform(position=position, scale=scale)
    ks["p"]["k"] = [dict(key, s=[column, key["s"][1], 0], **({"e": [column, key["e"][1], 0]} if "e" in key else {}))
                    for key in ks["p"]["k"]]
    drum_layers.append(drum_layer(len(drum_layers) + 1, "pin " + note, pin, ks))
# Engraved bands around the drum, eight of them, turning with it.
for band in range(8):
    position, scale = turning(band * 45 + 22.5)
    ks = transform(position=position, scale=scale)
    ks["p"]["k"] = [dict(key, s=[(LEFT + RIGHT) / 2, key["s"][1], 0], **({"e": [(LEFT + RIGHT) / 2, key["e"][1], 0]} if "e" in key else {}))
                    for key in ks["p"]["k"]]
    line = [group([rect(RIGHT - LEFT - 4, 3), fill((122, 84, 30), 55)], "groove")]
    drum_layers.append(drum_layer(len(drum_layers) + 1, "band %d" % band, line, ks))
# The ends of the cylinder: brass discs seen edge-on, and the axle.
ends = [
    group([rect(10, 24, 3, (LEFT - 18, CY)), fill((60, 44, 24))], "axle left"),
    group([rect(10, 24, 3, (RIGHT + 18, CY)), fill((60, 44, 24))], "axle right"),
    group([ellipse(26, 2 * RADIUS + 10, (LEFT, CY)),
           gradient_fill([(0, (110, 76, 28)), (0.35, (236, 200, 120)), (1, (92, 62, 22))], (0, CY - RADIUS), (0, CY + RADIUS))], "end left"),
    group([ellipse(26, 2 * RADIUS + 10, (RIGHT, CY)),
           gradient_fill([(0, (110, 76, 28)), (0.35, (236, 200, 120)), (1, (92, 62, 22))], (0, CY - RADIUS), (0, CY + RADIUS))], "end right"),
]
drum_layers.append(drum_layer(len(drum_layers) + 1, "ends", ends, transform()))
# The cylinder: brass lit from above, its highlight a third of the way down, dark at both edges.
body = [group([rect(RIGHT - LEFT, 2 * RADIUS, 0, ((LEFT + RIGHT) / 2, CY)),
               gradient_fill([(0, (74, 50, 18)), (0.22, (190, 146, 70)), (0.36, (250, 224, 150)), (0.5, (214, 170, 86)),
                              (0.82, (130, 92, 36)), (1, (52, 34, 12))], (0, CY - RADIUS), (0, CY + RADIUS))], "brass")]
drum_layers.append(drum_layer(len(drum_layers) + 1, "cylinder", body, transform()))

drum = {
    "v": "5.5.7", "fr": 30, "ip": 0, "op": TURN, "w": DRUM_W, "h": DRUM_H, "nm": "music box drum", "ddd": 0, "assets": [],
    # Drawn top first: the pins over the bands over the ends over the cylinder.
    "layers": drum_layers,
    "markers": [{"cm": note, "tm": frame, "dr": 0} for note, frame in zip(TUNE, PLUCK_FRAMES)],
}
path = os.path.join(root, "media", "art", "music-box-drum.json")
with open(path, "w") as out:
    json.dump(drum, out, separators=(",", ":"))
    out.write("\n")
print("wrote media/art/music-box-drum.json")
