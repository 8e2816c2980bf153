#!/usr/bin/env python3
"""Writes the project's own art to media/art/: the windmill illustration (an SVG cut into parts by id,
which the 'windmill' scene animates part by part), a bird's wing-beat sprite sheet (a PNG of 8 frames) and the
cabin by a campfire on a rainy night that the 'particles' scene fills with smoke, rain, flame and confetti.
Standard library only; run from the repository's root: scripts/make-art.py"""
import math, struct, zlib

W, H = 1280, 720

def windmill_svg():
    hub = (820, 300)
    blades = []
    for k in range(4):
        a = k * 90
        # A lattice sail: a spar and a slatted frame on one side of it.
        blades.append(f'''
    <g transform="rotate({a} {hub[0]} {hub[1]})">
      <rect x="{hub[0]-5}" y="{hub[1]-250}" width="10" height="250" rx="4" fill="url(#wood)"/>
      <path d="M {hub[0]+6} {hub[1]-236} L {hub[0]+62} {hub[1]-226} L {hub[0]+52} {hub[1]-40} L {hub[0]+6} {hub[1]-36} Z" fill="url(#canvas)" stroke="#5b3a22" stroke-width="3"/>
      {''.join(f'<line x1="{hub[0]+6}" y1="{hub[1]-236+i*40}" x2="{hub[0]+61-i*2}" y2="{hub[1]-226+i*38}" stroke="#5b3a22" stroke-width="2" opacity="0.7"/>' for i in range(1, 5))}
    </g>''')
    grass = ''.join(
        f'<path d="M {x} {640 + 18*math.sin(x/70)} q {3 + (x*7)%5} -{14 + (x*13)%16} {8 + (x*3)%6} -{22 + (x*11)%14}" stroke="#2f5d2a" stroke-width="3" fill="none" stroke-linecap="round"/>'
        for x in range(10, 1280, 23))
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<!-- A windmill on a hill at dusk. Written by scripts/make-art.py; each part has an id so a scene can move it. -->
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">
  <defs>
    <linearGradient id="skyfill" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1b2a5c"/><stop offset="0.45" stop-color="#6b4a8a"/>
      <stop offset="0.75" stop-color="#f08a5d"/><stop offset="1" stop-color="#ffd08a"/>
    </linearGradient>
    <radialGradient id="sunfill"><stop offset="0" stop-color="#fff6d0"/><stop offset="0.35" stop-color="#ffd27a"/>
      <stop offset="0.42" stop-color="#ffb25a" stop-opacity="0.55"/><stop offset="1" stop-color="#ff8a4a" stop-opacity="0"/></radialGradient>
    <linearGradient id="farhill" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6c5a94"/><stop offset="1" stop-color="#3b3466"/></linearGradient>
    <linearGradient id="midhill" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4f6b5a"/><stop offset="1" stop-color="#2b3d3a"/></linearGradient>
    <linearGradient id="nearhill" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4d8a3e"/><stop offset="1" stop-color="#1f3d1c"/></linearGradient>
    <linearGradient id="tower" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#f3e2c0"/><stop offset="0.6" stop-color="#d9bf94"/><stop offset="1" stop-color="#8f7556"/></linearGradient>
    <linearGradient id="roof" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#b4493a"/><stop offset="1" stop-color="#5e2220"/></linearGradient>
    <linearGradient id="wood" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#a8764a"/><stop offset="1" stop-color="#5b3a22"/></linearGradient>
    <linearGradient id="canvas" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff3de"/><stop offset="1" stop-color="#d8c3a0"/></linearGradient>
    <radialGradient id="halo"><stop offset="0" stop-color="#ffd27a" stop-opacity="0.45"/><stop offset="1" stop-color="#ffd27a" stop-opacity="0"/></radialGradient>
    <radialGradient id="window"><stop offset="0" stop-color="#fff1a8"/><stop offset="1" stop-color="#ffb347"/></radialGradient>
  </defs>
  <g id="sky"><rect width="{W}" height="{H}" fill="url(#skyfill)"/>
    <circle cx="210" cy="120" r="1.6" fill="#fff" opacity="0.8"/><circle cx="380" cy="70" r="1.2" fill="#fff" opacity="0.7"/>
    <circle cx="560" cy="140" r="1.4" fill="#fff" opacity="0.6"/><circle cx="1010" cy="90" r="1.8" fill="#fff" opacity="0.8"/>
    <circle cx="1180" cy="160" r="1.2" fill="#fff" opacity="0.6"/><circle cx="90" cy="210" r="1.1" fill="#fff" opacity="0.5"/></g>
  <g id="sun"><circle cx="330" cy="400" r="190" fill="url(#sunfill)"/></g>
  <g id="far-hills"><path d="M 0 470 C 160 400 300 430 420 450 C 560 470 640 380 800 400 C 960 420 1100 380 1280 430 L 1280 720 L 0 720 Z" fill="url(#farhill)"/></g>
  <g id="mid-hills"><path d="M 0 540 C 200 480 380 520 520 545 C 700 575 820 500 1000 500 C 1120 500 1200 530 1280 520 L 1280 720 L 0 720 Z" fill="url(#midhill)"/></g>
  <g id="mill">
    <path d="M 770 300 L 870 300 L 905 560 L 735 560 Z" fill="url(#tower)"/>
    <path d="M 760 305 Q 820 225 880 305 Z" fill="url(#roof)"/>
    <rect x="800" y="480" width="40" height="80" rx="20" fill="#4a2e1c"/>
    <circle cx="820" cy="380" r="14" fill="#3a2a36"/><circle cx="820" cy="380" r="14" fill="none" stroke="#5b3a22" stroke-width="3"/>
    <rect x="790" y="430" width="20" height="26" rx="3" fill="#3a2a36"/><rect x="830" y="430" width="20" height="26" rx="3" fill="#3a2a36"/>
    <path d="M 735 560 L 905 560 L 910 572 L 730 572 Z" fill="#6b5440"/>
  </g>
  <g id="lamps">
    <circle cx="820" cy="420" r="70" fill="url(#halo)"/>
    <circle cx="820" cy="380" r="12" fill="url(#window)"/>
    <rect x="791" y="431" width="18" height="24" rx="3" fill="url(#window)"/><rect x="831" y="431" width="18" height="24" rx="3" fill="url(#window)"/>
  </g>
  <g id="sails">{''.join(blades)}
    <circle cx="{hub[0]}" cy="{hub[1]}" r="16" fill="url(#wood)" stroke="#3c2414" stroke-width="3"/>
    <circle cx="{hub[0]}" cy="{hub[1]}" r="5" fill="#3c2414"/>
  </g>
  <g id="near-hill"><path d="M 0 610 C 220 560 420 600 640 625 C 860 650 1060 590 1280 600 L 1280 720 L 0 720 Z" fill="url(#nearhill)"/>{grass}</g>
</svg>
'''

def particles_svg():
    """A cabin at the edge of a wood on a rainy night: smoke from its stovepipe, a campfire, puddles; the clouds
    part and the moon comes out at the end. The scene adds the particles (smoke, flame, rain, splashes, confetti)."""
    pines = ''.join(
        f'<path d="M {x} {y} l {-w} {h} h {w*0.7} l {-w*0.8} {h*0.9} h {w*1.9} l {-w*0.8} {-h*0.9} h {w*0.7} Z" fill="{c}"/>'
        for x, y, w, h, c in [(470, 420, 26, 70, '#1a2233'), (520, 440, 22, 60, '#1c2436'), (1130, 380, 34, 90, '#182030'),
                              (1190, 405, 28, 78, '#1a2233'), (1240, 390, 30, 84, '#172030'), (1075, 430, 22, 64, '#1c2436'),
                              (640, 455, 18, 50, '#1d2538'), (700, 448, 20, 56, '#1b2335')])
    planks = ''.join(f'<line x1="100" y1="{y}" x2="372" y2="{y}" stroke="#3a2618" stroke-width="2" opacity="0.6"/>'
                     for y in range(470, 612, 18))
    stones = ''.join(f'<ellipse cx="{x}" cy="{y}" rx="{rx}" ry="{ry}" fill="{c}"/>'
                     for x, y, rx, ry, c in [(806, 606, 16, 10, '#4a4e57'), (832, 613, 17, 10, '#5a5f69'), (862, 616, 18, 10, '#4f535c'),
                                             (892, 613, 17, 10, '#5a5f69'), (918, 606, 16, 10, '#4a4e57'), (822, 598, 12, 7, '#3c4048'),
                                             (902, 598, 12, 7, '#3c4048')])
    clouds = ''.join(f'<ellipse cx="{x}" cy="{y}" rx="{rx}" ry="{ry}" fill="{c}" opacity="{o}"/>'
                     for x, y, rx, ry, c, o in [(120, 40, 260, 90, '#262e42', 0.95), (420, 20, 300, 100, '#2b3349', 0.95),
                                                (760, 50, 280, 95, '#262e42', 0.95), (1080, 30, 300, 110, '#2b3349', 0.95),
                                                (1260, 90, 200, 80, '#262e42', 0.9), (300, 110, 220, 60, '#30384f', 0.8),
                                                (960, 130, 240, 70, '#30384f', 0.85), (620, 120, 200, 55, '#2e364c', 0.8)])
    stars = ''.join(f'<circle cx="{x}" cy="{y}" r="{r}" fill="#fff" opacity="{o}"/>'
                    for x, y, r, o in [(160, 70, 1.4, 0.8), (300, 150, 1.1, 0.6), (470, 60, 1.6, 0.9), (610, 170, 1.2, 0.6),
                                       (760, 90, 1.3, 0.7), (880, 40, 1.1, 0.6), (1190, 60, 1.5, 0.8), (1240, 200, 1.1, 0.5),
                                       (60, 200, 1.2, 0.6), (700, 240, 1.0, 0.5), (420, 250, 1.1, 0.5)])
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- A cabin by a campfire on a rainy night. Written by scripts/make-art.py; each part has an id so a scene can move it. -->
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">
  <defs>
    <linearGradient id="nightsky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#121829"/><stop offset="0.6" stop-color="#263050"/><stop offset="1" stop-color="#3b4868"/>
    </linearGradient>
    <radialGradient id="moonhalo"><stop offset="0" stop-color="#f6f0d6" stop-opacity="0.5"/><stop offset="1" stop-color="#f6f0d6" stop-opacity="0"/></radialGradient>
    <linearGradient id="hillfill" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#222a3e"/><stop offset="1" stop-color="#171d2c"/></linearGradient>
    <linearGradient id="groundfill" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2c2a2a"/><stop offset="1" stop-color="#141214"/></linearGradient>
    <linearGradient id="puddle" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6a7898" stop-opacity="0.55"/><stop offset="1" stop-color="#2a3450" stop-opacity="0.35"/></linearGradient>
    <linearGradient id="walls" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#6a4630"/><stop offset="1" stop-color="#4a3020"/></linearGradient>
    <linearGradient id="roofing" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4a3a44"/><stop offset="1" stop-color="#2e2430"/></linearGradient>
    <linearGradient id="pipe" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#7a7f88"/><stop offset="0.45" stop-color="#b4b9c2"/><stop offset="1" stop-color="#4a4e57"/></linearGradient>
    <radialGradient id="windowlight"><stop offset="0" stop-color="#ffe6a0"/><stop offset="1" stop-color="#e8933a"/></radialGradient>
    <radialGradient id="windowhalo"><stop offset="0" stop-color="#ffc870" stop-opacity="0.35"/><stop offset="1" stop-color="#ffc870" stop-opacity="0"/></radialGradient>
    <radialGradient id="firehalo" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#ffb050" stop-opacity="0.55"/>
      <stop offset="0.4" stop-color="#ff8030" stop-opacity="0.22"/><stop offset="1" stop-color="#ff6020" stop-opacity="0"/></radialGradient>
    <linearGradient id="log" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7a4e2e"/><stop offset="1" stop-color="#3e2616"/></linearGradient>
    <radialGradient id="puffball"><stop offset="0" stop-color="#fff" stop-opacity="0.9"/><stop offset="0.5" stop-color="#fff" stop-opacity="0.55"/>
      <stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
  </defs>
  <g id="sky"><rect width="{W}" height="{H}" fill="url(#nightsky)"/></g>
  <g id="stars">{stars}</g>
  <g id="moon"><circle cx="1010" cy="130" r="110" fill="url(#moonhalo)"/><circle cx="1010" cy="130" r="40" fill="#f4eed4"/>
    <circle cx="996" cy="120" r="8" fill="#e2dbbe"/><circle cx="1022" cy="142" r="6" fill="#e2dbbe"/><circle cx="1016" cy="112" r="4" fill="#e2dbbe"/></g>
  <g id="clouds">{clouds}</g>
  <g id="hills"><path d="M 0 500 C 150 450 280 470 420 480 C 600 492 720 440 900 450 C 1050 458 1160 420 1280 440 L 1280 720 L 0 720 Z" fill="url(#hillfill)"/>{pines}</g>
  <g id="ground"><path d="M 0 604 C 200 596 420 610 640 604 C 860 598 1080 608 1280 600 L 1280 720 L 0 720 Z" fill="url(#groundfill)"/>
    <ellipse cx="560" cy="652" rx="110" ry="11" fill="url(#puddle)"/><ellipse cx="1090" cy="684" rx="140" ry="13" fill="url(#puddle)"/>
    <ellipse cx="230" cy="690" rx="80" ry="9" fill="url(#puddle)"/>
    <path d="M 480 650 q 60 -4 140 0" stroke="#9aa8c8" stroke-width="1.5" fill="none" opacity="0.35"/>
    <path d="M 990 682 q 90 -5 190 0" stroke="#9aa8c8" stroke-width="1.5" fill="none" opacity="0.35"/></g>
  <g id="cabin">
    <rect x="318" y="300" width="20" height="110" fill="url(#pipe)"/><rect x="312" y="292" width="32" height="12" rx="2" fill="#5e636c"/>
    <rect x="100" y="450" width="272" height="162" fill="url(#walls)"/>{planks}
    <path d="M 76 462 L 236 352 L 396 462 Z" fill="url(#roofing)"/><path d="M 76 462 L 236 352 L 396 462" stroke="#1e1820" stroke-width="6" fill="none" stroke-linejoin="round"/>
    <rect x="150" y="516" width="52" height="96" rx="3" fill="#2a1a12"/><circle cx="194" cy="566" r="3" fill="#c8a060"/>
    <rect x="248" y="500" width="76" height="56" rx="3" fill="url(#windowlight)"/>
    <path d="M 286 500 V 556 M 248 528 H 324" stroke="#3a2618" stroke-width="5"/><rect x="248" y="500" width="76" height="56" rx="3" fill="none" stroke="#3a2618" stroke-width="6"/>
  </g>
  <g id="window-glow"><circle cx="286" cy="528" r="120" fill="url(#windowhalo)"/></g>
  <g id="fire-glow"><ellipse cx="862" cy="590" rx="300" ry="230" fill="url(#firehalo)"/></g>
  <g id="campfire">{stones}
    <rect x="818" y="586" width="92" height="16" rx="8" fill="url(#log)" transform="rotate(-14 864 594)"/>
    <rect x="818" y="586" width="92" height="16" rx="8" fill="url(#log)" transform="rotate(16 864 594)"/>
    <circle cx="823" cy="604" r="6" fill="#c49060"/><circle cx="905" cy="604" r="6" fill="#c49060"/>
  </g>
  <!-- A smoke puff, drawn by no scene part: the particles' texture, white in shades of opacity. -->
  <g id="puff"><circle cx="620" cy="370" r="34" fill="url(#puffball)"/><circle cx="655" cy="358" r="40" fill="url(#puffball)"/>
    <circle cx="684" cy="376" r="30" fill="url(#puffball)"/><circle cx="648" cy="386" r="30" fill="url(#puffball)"/></g>
  <g id="bench"><rect x="1010" y="590" width="150" height="22" rx="11" fill="url(#log)"/>
    <circle cx="1018" cy="601" r="9" fill="#b08050"/><circle cx="1018" cy="601" r="4" fill="#8a6040"/></g>
</svg>
"""

def png(path, w, h, pixel):
    rows = []
    for y in range(h):
        row = bytearray(b'\x00')
        for x in range(w):
            row += bytes(pixel(x, y))
        rows.append(bytes(row))
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0))
                + chunk(b'IDAT', zlib.compress(b''.join(rows), 9)) + chunk(b'IEND', b''))

def bird_sheet(path, columns=8, cell=(96, 64)):
    """A gull's wing beat in 8 frames: each wing a curve whose tip swings from up to down, with 3x3 supersampling."""
    cw, ch = cell
    def inside(fx, fy, frame):
        phase = math.cos(2 * math.pi * frame / columns)          # 1: wings up, -1: wings down
        cx, cy = cw / 2, ch / 2 + 4
        # Body: an ellipse.
        if ((fx - cx) / 13) ** 2 + ((fy - cy) / 5.5) ** 2 <= 1: return 'body'
        if ((fx - cx - 12) / 5) ** 2 + ((fy - cy + 2) / 4) ** 2 <= 1: return 'body'   # head
        # Wings: for |dx| along the span, the wing's centre line rises with the phase and bends at the wrist.
        dx = abs(fx - cx)
        if 4 <= dx <= 44:
            t = (dx - 4) / 40
            lift = phase * 26 * t ** 1.3 + (1 - phase) * 4 * math.sin(math.pi * t)
            centre = cy - lift
            half = 5.5 * (1 - t) + 1.2
            if abs(fy - centre) <= half: return 'wing'
        return None
    def pixel(x, y):
        frame, lx = divmod(x, cw)
        hits = {'body': 0, 'wing': 0}
        for sy in range(3):
            for sx in range(3):
                k = inside(lx + (sx + 0.5) / 3, y + (sy + 0.5) / 3, frame)
                if k: hits[k] += 1
        cover = (hits['body'] + hits['wing']) / 9
        if cover == 0: return (0, 0, 0, 0)
        shade = (58, 52, 78) if hits['wing'] >= hits['body'] else (40, 36, 58)
        a = round(255 * cover)
        # Premultiplication is cairo's job; PNG stores straight alpha.
        return (shade[0], shade[1], shade[2], a)
    png(path, cw * columns, ch, pixel)

if __name__ == '__main__':
    with open('media/art/windmill.svg', 'w') as f:
        f.write(windmill_svg())
    bird_sheet('media/art/gull-flap.png')
    with open('media/art/particles.svg', 'w') as f:
        f.write(particles_svg())
