import Foundation

// The scenes.json document as value types. Every key is documented in docs/FORMAT.md;
// decoding (with source locations and diagnostics) lives in Decoding/.

/// A whole scenes.json: the canvas, the languages, the sound bank and the playlist of scenes.
public struct Document: Sendable, Equatable {
    /// The `"$schema"` reference, kept so that tools can write the file back unchanged.
    public var schema: String?
    public var canvas: Canvas
    public var languages: Languages
    /// Named sounds, in the order the file lists them.
    public var sounds: [SoundDefinition]
    /// The playlist, in play order.
    public var scenes: [Scene]
    /// The integrated loudness (EBU R128, LUFS) every scene's sound is brought to by a gain of its own, nil to play
    /// every scene as mixed (`Document.loudnessRange`).
    public var loudness: Double?

    public init(schema: String? = nil, canvas: Canvas, languages: Languages, sounds: [SoundDefinition], scenes: [Scene],
                loudness: Double? = nil) {
        self.schema = schema
        self.canvas = canvas
        self.languages = languages
        self.sounds = sounds
        self.scenes = scenes
        self.loudness = loudness
    }

    /// The loudness targets a playlist may ask for, in LUFS: from quiet background sound (-40) to what streaming
    /// services play at (-14), wide enough for broadcast (-23, -24) and spoken word (-16 to -19).
    public static let loudnessRange: ClosedRange<Double> = -40 ... -14

    public func sound(named name: String) -> SoundDefinition? {
        sounds.first { $0.name == name }
    }
}

/// The coordinate space scenes are composed in, in points; rendering scales it to any output size.
public struct Canvas: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var background: Paint

    public init(width: Double, height: Double, background: Paint) {
        self.width = width
        self.height = height
        self.background = background
    }
}

public struct Languages: Sendable, Equatable {
    /// The language shown when the user has not chosen one.
    public var defaultLanguage: String
    /// The language used for a string that has no variant in the chosen language.
    public var fallback: String
    /// Every language the file offers, in the order `L` cycles through them.
    public var available: [String]
    /// The player's chrome (key help, toasts) in languages it does not know, or reworded: per language tag, the
    /// chrome's English strings to their translation. Strings left out stay as the player has them.
    public var chrome: [String: [String: String]]

    public init(defaultLanguage: String, fallback: String, available: [String], chrome: [String: [String: String]] = [:]) {
        self.defaultLanguage = defaultLanguage
        self.fallback = fallback
        self.available = available
        self.chrome = chrome
    }
}

/// A user-visible string with variants per language (`"en"`, `"zh"`, `"ja"`, ...).
public struct LocalizedString: Sendable, Equatable {
    /// Variants in file order; a plain JSON string is stored as a single variant under the fallback language.
    public var variants: [(language: String, text: String)]

    public init(_ variants: [(language: String, text: String)]) {
        self.variants = variants
    }

    public init(_ text: String, language: String = "en") {
        self.variants = [(language, text)]
    }

    /// The variant for `language`, else the fallback's, else the first one.
    public func resolved(language: String, fallback: String) -> String {
        variants.first { $0.language == language }?.text
            ?? variants.first { $0.language == fallback }?.text
            ?? variants.first?.text ?? ""
    }

    public static func == (lhs: LocalizedString, rhs: LocalizedString) -> Bool {
        lhs.variants.elementsEqual(rhs.variants) { $0.language == $1.language && $0.text == $1.text }
    }
}

/// A sound in the bank: a file path relative to the scenes file, and a gain (linear, 0...4).
public struct SoundDefinition: Sendable, Equatable {
    public var name: String
    public var path: String
    public var gain: Double
    /// The file's leading silence is meant (`"leadingSilence": "intended"`): a cue playing it is heard after its
    /// moment on purpose, and neither `check` nor `verify` holds that against it.
    public var leadingSilenceIntended: Bool
    /// How every firing of a cue playing the sound differs from the others (`"vary"`); nil: each is the same.
    public var vary: SoundVariation?
    /// The file's bytes, for a sound inside a dotLottie archive (`art/drum.lottie/audio/pluck.wav`), unpacked when the
    /// document is read (as its images are); nil for a file of its own, read from `path`.
    public var embedded: [UInt8]?

    public init(name: String, path: String, gain: Double = 1, leadingSilenceIntended: Bool = false, vary: SoundVariation? = nil) {
        self.name = name
        self.path = path
        self.gain = gain
        self.leadingSilenceIntended = leadingSilenceIntended
        self.vary = vary
    }

    /// For a path through a dotLottie archive, the archive's path and the file inside it: `art/drum.lottie/audio/a.wav`
    /// is `("art/drum.lottie", "audio/a.wav")`. The first folder of the path whose name ends in `.lottie` is the archive.
    public static func archive(in path: String) -> (archive: String, entry: String)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = parts.dropLast().firstIndex(where: { $0.lowercased().hasSuffix(".lottie") }) else { return nil }
        let entry = parts[(index + 1)...].joined(separator: "/")
        return entry.isEmpty ? nil : (parts[...index].joined(separator: "/"), entry)
    }

    /// The file on disk the sound comes from: its own, or the archive it is inside.
    public var file: String { Self.archive(in: path)?.archive ?? path }
}

/// A sound's natural variation from one firing to the next (`"vary": {"gain": 3, "pitch": 0.5}`), as a bell struck a
/// little harder or a rope creaking a little higher: each firing of a cue plays the sound up to `gainDecibels` louder or
/// quieter and up to `pitchSemitones` higher or lower, drawn from a seed of the scene, the cue and the firing, so the
/// same file always gives the same samples. The pitch is one of `takes` takes spread evenly over its range (the
/// middle one the file itself), resampled when the sound loads; a take starts on the firing's sample as the file does.
public struct SoundVariation: Sendable, Equatable {
    /// Decibels either side of the sound's level, 0 to 24.
    public var gainDecibels: Double
    /// Semitones either side of the sound's pitch, 0 to 12.
    public var pitchSemitones: Double

    /// How many pitches a varied sound is prepared at: odd, so the middle take is the file as it is.
    public static let takes = 7

    public init(gainDecibels: Double = 0, pitchSemitones: Double = 0) {
        self.gainDecibels = gainDecibels
        self.pitchSemitones = pitchSemitones
    }

    /// The takes the sound is prepared at: `takes` with a pitch range, else only the file.
    public var takeCount: Int { pitchSemitones > 0 ? Self.takes : 1 }

    /// The pitch of take `take` (0 ..< `takeCount`) in semitones: from `-pitchSemitones` up to `pitchSemitones`.
    public func semitones(ofTake take: Int) -> Double {
        guard takeCount > 1 else { return 0 }
        return pitchSemitones * (2 * Double(take) / Double(takeCount - 1) - 1)
    }

    /// The take that plays the file as it is.
    public var middleTake: Int { takeCount / 2 }
}

/// One item of the playlist.
public struct Scene: Sendable, Equatable {
    public var id: String
    public var title: LocalizedString
    /// Length in seconds, exactly as written.
    public var duration: Rational
    /// Drawn under the nodes; the canvas background when nil.
    public var background: Paint?
    /// Top-level nodes, drawn in order (then by `zIndex`).
    public var nodes: [Node]
    /// Looping sounds that start when the scene appears and fade when it disappears.
    public var ambience: [Ambience]
    public var cues: [Cue]
    /// Named scene times that cues fire on and animations start after, in file order.
    public var markers: [SceneMarker]
    /// Taps given to this visit of the scene (never decoded: the player's clicks, `--tap`). With the nodes'
    /// `auto` taps they make each node's counted taps (`Scene.tapTimes`).
    public var taps = VisitTaps()

    public init(id: String, title: LocalizedString, duration: Rational, background: Paint? = nil,
                nodes: [Node] = [], ambience: [Ambience] = [], cues: [Cue] = [], markers: [SceneMarker] = []) {
        self.id = id
        self.title = title
        self.duration = duration
        self.background = background
        self.nodes = nodes
        self.ambience = ambience
        self.cues = cues
        self.markers = markers
    }

    /// Depth-first search by node id.
    public func node(withID id: String) -> Node? {
        func search(_ nodes: [Node]) -> Node? {
            for node in nodes {
                if node.id == id { return node }
                if case .group(let group) = node.content, let found = search(group.children) { return found }
            }
            return nil
        }
        return search(nodes)
    }
}

/// A looping sound bound to a scene's appearance (SwiftUI's onAppear / onDisappear).
public struct Ambience: Sendable, Equatable {
    public var sound: String
    /// Linear gain, multiplied with the sound's own gain.
    public var gain: Double
    /// Seconds of fade-in when the scene appears.
    public var fadeIn: Double
    /// Seconds of fade-out when the scene disappears.
    public var fadeOut: Double
    /// When it starts (its first occurrence); nil: when the scene appears.
    public var start: CueMoment?

    public init(sound: String, gain: Double = 1, fadeIn: Double = 1, fadeOut: Double = 1, start: CueMoment? = nil) {
        self.sound = sound
        self.gain = gain
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
        self.start = start
    }
}

/// A sound fired at a moment of the scene.
public struct Cue: Sendable, Equatable {
    /// The sounds a firing picks from (`"sound": ["tine-a", "tine-b"]`), one per firing, drawn from a seed of the scene,
    /// the cue and the firing (`CueFiring.pick`); a single sound plays on every firing. `[""]` on a stop cue.
    public var sounds: [String]
    /// The cue's sound: the first of `sounds` (the only one unless the cue picks from several).
    public var sound: String {
        get { sounds.first ?? "" }
        set { sounds = [newValue] }
    }
    /// Semitones the sound plays higher (or lower, when negative) than its file (`"pitch"`), within `pitchRange`:
    /// a copy resampled when the sounds load, starting on the firing's sample as the file does. 0: the file's pitch.
    public var pitch: Double = 0
    public var trigger: CueTrigger
    /// Seconds added to the trigger's time (may be negative), exactly as written.
    public var offset: Rational
    /// Linear gain, multiplied with the sound's own gain.
    public var gain: Double
    /// -1 (left) ... 1 (right), constant power.
    public var pan: Double
    /// Names the cue so a stop cue can end its sound; unique among the scene's cues.
    public var id: String?
    /// Set on a stop cue: the id of the cue whose sound it ends (`sound` is then empty).
    public var stop: String?
    /// Whether the sound repeats seamlessly until it ends (`until`, a stop cue, or the scene's end).
    public var loops: Bool
    /// When the sound ends: the first occurrence after it starts; nil: the sound's own end, or the scene's
    /// end for a loop. A cue that loops or has `until` also ends when its scene disappears.
    public var until: CueMoment?
    /// Seconds of fade-out when the sound is ended early (`until`, the scene's end, a stop cue without its own).
    /// On a stop cue: the fade it ends the sound with.
    public var fadeOut: Double
    /// Lowers the scene's ambience while the sound plays.
    public var duck: Ducking?
    /// Fires again `every` seconds after each firing of its trigger (`"every"`, `"count"`).
    public var repetition: CueRepetition? = nil

    public init(sound: String, trigger: CueTrigger, offset: Rational = .zero, gain: Double = 1, pan: Double = 0,
                id: String? = nil, stop: String? = nil, loops: Bool = false, until: CueMoment? = nil,
                fadeOut: Double = 0, duck: Ducking? = nil) {
        self.sounds = [sound]
        self.trigger = trigger
        self.offset = offset
        self.gain = gain
        self.pan = pan
        self.id = id
        self.stop = stop
        self.loops = loops
        self.until = until
        self.fadeOut = fadeOut
        self.duck = duck
    }

    /// The semitones a cue's `pitch` may take: two octaves down to two octaves up.
    public static let pitchRange: ClosedRange<Double> = -24...24
    /// The sounds a cue may pick from.
    public static let maximumPickedSounds = 64
    /// The pitches other than its own one sound may be played at in a document, all cues together: each is a copy of
    /// the sound (seven for a sound that varies in pitch) made when the sounds load.
    public static let maximumPitchesPerSound = 24
}

public enum CueTrigger: Sendable, Equatable {
    /// An absolute scene time in seconds.
    case at(Rational)
    /// An event of a node's animation, on every repetition inside the scene's duration.
    case animation(node: String, animation: String, event: AnimationEvent)
    /// A scene marker's time (`"marker"`).
    case marker(String)
    /// The `nth` tap (from 1) on a tappable node (`"tap"`, `"nth"`), when it happens (see `TapGesture`).
    case tap(String, nth: Int = 1)
    /// A Lottie node's marker or frame, each time it appears.
    case lottie(node: String, event: LottieEvent)
}

/// A moment in an animation's life that a cue can be bound to.
public enum AnimationEvent: Sendable, Equatable, Hashable {
    /// Each time the animation arrives at its `to` value (end of a forward iteration).
    case reachesTo
    /// Each time it arrives back at its `from` value (end of a reversed iteration).
    case reachesFrom
    /// The start of each iteration, including the first.
    case iterationStart
    /// Each time a keyframe track passes keyframe N (0-based).
    case keyframe(Int)
    /// When the last iteration finishes (never for `repeat: forever`).
    case end
}

// MARK: - Nodes

/// An element of the scene tree: content plus SwiftUI-style modifiers and animations.
public struct Node: Sendable, Equatable {
    /// Unique within the scene when present; cues and tooling refer to nodes by it.
    public var id: String?
    public var content: NodeContent
    public var style: NodeStyle
    public var animations: [Animation]
    /// Siblings are drawn in ascending zIndex, file order among equals.
    public var zIndex: Double
    /// The rectangle that named anchors refer to, in the node's own coordinates; nil means the content's bounds.
    public var frame: Rect?
    /// Set when the node can be tapped (`"tap"`): animations start after its tap, cues fire on it.
    public var tap: TapGesture? = nil

    public init(id: String? = nil, content: NodeContent, style: NodeStyle = NodeStyle(),
                animations: [Animation] = [], zIndex: Double = 0, frame: Rect? = nil) {
        self.id = id
        self.content = content
        self.style = style
        self.animations = animations
        self.zIndex = zIndex
        self.frame = frame
    }
}

public enum NodeContent: Sendable, Equatable {
    case group(Group)
    case rect(RectShape)
    case ellipse(EllipseShape)
    case polygon([Point])
    /// An SVG path data string (M, L, H, V, Q, C, Z, absolute and relative), parsed.
    case path(PathData)
    case wave(WaveShape)
    /// An open polyline, usually stroked.
    case line([Point])
    case text(TextContent)
    case emitter(Emitter)
    case image(ImageContent)
    case lottie(LottieContent)
}

public struct Group: Sendable, Equatable {
    public var children: [Node]
    public init(children: [Node]) { self.children = children }
}

public struct RectShape: Sendable, Equatable {
    public var rect: Rect
    public init(rect: Rect) { self.rect = rect }
}

public struct EllipseShape: Sendable, Equatable {
    public var center: Point
    public var radiusX: Double
    public var radiusY: Double
    public init(center: Point, radiusX: Double, radiusY: Double) {
        self.center = center
        self.radiusX = radiusX
        self.radiusY = radiusY
    }
}

/// A filled band whose top edge is a cubic curve, as in the classic SwiftUI `Wave: Shape`:
/// the edge runs from the rect's top-left to its top-right, its two control points sit at
/// `control1X`/`control2X` of the width and are moved vertically by `±yOffset × height`.
public struct WaveShape: Sendable, Equatable {
    public var rect: Rect
    public var control1X: Double
    public var control2X: Double
    public init(rect: Rect, control1X: Double = 0.5, control2X: Double = 0.5) {
        self.rect = rect
        self.control1X = control1X
        self.control2X = control2X
    }
}

public struct TextContent: Sendable, Equatable {
    public var text: LocalizedString
    /// Where the text's anchor point sits, in the node's coordinates.
    public var position: Point
    /// Which point of the text's box sits at `position` (center by default).
    public var alignment: UnitPoint
    public var font: Font
    /// How a counter's number is written where its text says `{value}` (the number is `NodeStyle.textValue`).
    public var numberFormat: NumberFormat
    public init(text: LocalizedString, position: Point, alignment: UnitPoint = .center, font: Font = Font(),
                numberFormat: NumberFormat = NumberFormat()) {
        self.text = text
        self.position = position
        self.alignment = alignment
        self.font = font
        self.numberFormat = numberFormat
    }
}

public struct Font: Sendable, Equatable {
    /// A fontconfig family list; CJK text falls back to Noto CJK.
    public var family: String
    /// Points in canvas coordinates.
    public var size: Double
    /// 100 ... 900, 400 regular, 700 bold.
    public var weight: Int
    public init(family: String = "DejaVu Sans", size: Double = 32, weight: Int = 400) {
        self.family = family
        self.size = size
        self.weight = weight
    }
}

public struct ImageContent: Sendable, Equatable {
    /// A PNG or SVG path relative to the scenes file.
    public var path: String
    public var rect: Rect
    /// An SVG element's id (`"#left-leg"`): only that element is drawn, where it sits in the whole drawing.
    public var element: String? = nil
    /// Set when the PNG is a sprite sheet: the grid, and the frame shown.
    public var sprite: SpriteSheet? = nil
    public init(path: String, rect: Rect) {
        self.path = path
        self.rect = rect
    }
}

/// A seeded particle emitter (snow, rain). Every particle's state is a closed-form function
/// of time, so a frame at any time is reproducible without simulating the frames before it.
public struct Emitter: Sendable, Equatable {
    public var seed: UInt64
    /// Particles born per second.
    public var birthRate: Double
    /// Seconds a particle lives, ± `lifetimeRange`.
    public var lifetime: Double
    public var lifetimeRange: Double
    /// Birth position, ± `positionRange` on each axis (points).
    public var position: Point
    public var positionRange: Size
    /// Emission direction in degrees (0 = right, 90 = down, y grows downward), ± `angleRange`.
    public var angle: Double
    public var angleRange: Double
    /// Points per second, ± `speedRange`.
    public var speed: Double
    public var speedRange: Double
    /// Points per second², e.g. gravity `{ "x": 0, "y": 20 }`.
    public var acceleration: Point
    /// Particle radius in points at birth is `size × scale`, scale ± `scaleRange`, changing by `scaleSpeed` per second.
    public var size: Double
    public var scale: Double
    public var scaleRange: Double
    public var scaleSpeed: Double
    /// Degrees at birth ± `rotationRange`, turning `spin` degrees per second.
    public var rotation: Double
    public var rotationRange: Double
    public var spin: Double
    /// Opacity at birth ± `alphaRange`, changing by `alphaSpeed` per second (clamped to 0...1).
    public var alpha: Double
    public var alphaRange: Double
    public var alphaSpeed: Double
    public var color: Color
    /// Colours each particle picks one of by its seed, in place of `color`; empty for `color`.
    public var colors: [Color] = []
    /// Over a particle's life (0 at birth, 1 at death): its colour, in place of `color` and `colors`, and factors of
    /// its alpha and scale. Empty for none.
    public var colorRamp: [LifeStop<Color>] = []
    public var alphaRamp: [LifeStop<Double>] = []
    public var scaleRamp: [LifeStop<Double>] = []
    public var shape: ParticleShape
    public var blendMode: BlendMode
    /// Horizontal sway amplitude (points) and frequency (Hz), for snowflakes drifting.
    public var swayAmplitude: Double
    public var swayFrequency: Double
    /// Turns per second a particle tumbles about its own horizontal axis (confetti): its height is squashed by
    /// |cos| of the turn. 0 for none.
    public var flutter: Double = 0
    /// When true, the scene starts with the emitter already full, as if it had been running for a lifetime.
    public var prewarm: Bool
    /// Scene time (seconds) births begin; with `prewarm`, the emitter is full then.
    public var start: Double = 0
    /// Seconds births go on after `start` (SpriteKit's `numParticlesToEmit` over the birth rate); nil for ever.
    public var duration: Double? = nil
    /// Particles born all at once at `start`, besides the `birthRate` stream: a confetti burst.
    public var burst: Int = 0
    /// Droplets thrown up where each particle ends its life (rain hitting the ground); nil for none.
    public var splash: Splash? = nil
    /// A picture drawn for each particle in place of its `shape`; nil for the shape.
    public var texture: ParticleTexture? = nil

    public init(seed: UInt64 = 1, birthRate: Double = 10, lifetime: Double = 5, lifetimeRange: Double = 0,
                position: Point = Point(x: 0, y: 0), positionRange: Size = Size(width: 0, height: 0),
                angle: Double = 90, angleRange: Double = 0, speed: Double = 50, speedRange: Double = 0,
                acceleration: Point = Point(x: 0, y: 0), size: Double = 3, scale: Double = 1, scaleRange: Double = 0,
                scaleSpeed: Double = 0, rotation: Double = 0, rotationRange: Double = 0, spin: Double = 0,
                alpha: Double = 1, alphaRange: Double = 0, alphaSpeed: Double = 0, color: Color = .white, shape: ParticleShape = .circle,
                blendMode: BlendMode = .normal, swayAmplitude: Double = 0, swayFrequency: Double = 0, prewarm: Bool = true) {
        self.seed = seed
        self.birthRate = birthRate
        self.lifetime = lifetime
        self.lifetimeRange = lifetimeRange
        self.position = position
        self.positionRange = positionRange
        self.angle = angle
        self.angleRange = angleRange
        self.speed = speed
        self.speedRange = speedRange
        self.acceleration = acceleration
        self.size = size
        self.scale = scale
        self.scaleRange = scaleRange
        self.scaleSpeed = scaleSpeed
        self.rotation = rotation
        self.rotationRange = rotationRange
        self.spin = spin
        self.alpha = alpha
        self.alphaRange = alphaRange
        self.alphaSpeed = alphaSpeed
        self.color = color
        self.shape = shape
        self.blendMode = blendMode
        self.swayAmplitude = swayAmplitude
        self.swayFrequency = swayFrequency
        self.prewarm = prewarm
    }
}

public enum ParticleShape: String, Sendable, Equatable, CaseIterable {
    /// `soft`: a round puff fading from its centre to its rim (smoke, flame); `line`: a streak along the particle's
    /// vertical (rain); `rectangle`: a strip half as tall as wide (confetti).
    case circle, snowflake, drop, square, soft, line, rectangle
}

/// A picture drawn as a particle: a PNG, or an SVG or one element of it (`#id`), fitted into a square 1.8 radii across
/// (so it stays within 1.3 radii of the particle at any rotation). Its opacity is the particle's coverage, in the
/// particle's colour: SpriteKit's texture at a colour blend factor of 1, for the white textures its projects use.
public struct ParticleTexture: Sendable, Hashable {
    public var path: String
    public var element: String?

    public init(path: String, element: String? = nil) {
        self.path = path
        self.element = element
    }
}

/// Droplets thrown up where a particle dies, as a raindrop splashes: each flies from the particle's last place at
/// `speed` (× 0.5 … 1.5), within `spread` degrees either side of straight up, falls under `gravity`, and fades out
/// over `lifetime`. Drawn as circles of radius `size`, in `color` (the particle's last colour when nil).
public struct Splash: Sendable, Equatable {
    public var count: Int
    public var lifetime: Double
    public var speed: Double
    public var spread: Double
    public var gravity: Double
    public var size: Double
    public var color: Color?

    public init(count: Int = 4, lifetime: Double = 0.3, speed: Double = 60, spread: Double = 60, gravity: Double = 400,
                size: Double = 1.5, color: Color? = nil) {
        (self.count, self.lifetime, self.speed, self.spread, self.gravity, self.size, self.color) =
            (count, lifetime, speed, spread, gravity, size, color)
    }
}

/// A value at a fraction of a particle's life (0 at birth, 1 at death); a ramp's stops are in order of `at`, and a
/// particle between two takes the straight line between their values.
public struct LifeStop<Value: Sendable & Equatable>: Sendable, Equatable {
    public var at: Double
    public var value: Value

    public init(at: Double, value: Value) {
        self.at = at
        self.value = value
    }
}

public enum BlendMode: String, Sendable, Equatable, CaseIterable {
    case normal, add, screen
}

// MARK: - Style: the animatable modifiers

/// A node's modifiers, with SwiftUI's meaning. Applied to the content in this fixed order:
/// scale around `scaleAnchor`, then rotation around `rotationAnchor`, then `offset`; then opacity,
/// hue rotation, blur, clip shape, mask and shadow on the node drawn as one layer (so a clipped node's
/// blur ends sharply at the clip, and its shadow is the clipped silhouette's). Nest groups for other orders.
public struct NodeStyle: Sendable, Equatable {
    /// Points; y grows downward.
    public var offset: Point
    /// Degrees, clockwise on screen.
    public var rotation: Double
    public var rotationAnchor: UnitPoint
    public var scale: Point
    public var scaleAnchor: UnitPoint
    /// 0...1, multiplied down the tree.
    public var opacity: Double
    /// Degrees around the colour wheel (the standard hue-rotate matrix).
    public var hueRotation: Double
    /// Gaussian-looking blur radius in points, on this node's layer only.
    public var blur: Double
    public var shadow: Shadow?
    /// A gradient whose alpha masks the node's layer (e.g. a rope fading to clear at its top).
    public var mask: Paint?
    public var fill: Paint?
    public var stroke: Stroke?
    /// Draw only this fraction of the outline, like `.trim(from:to:)`; 0...1.
    public var trimFrom: Double
    public var trimTo: Double
    /// Rect corner radius in points.
    public var cornerRadius: Double
    /// The wave shape's animatable curve amount, a fraction of its height.
    public var yOffset: Double
    /// A text counter's number, shown where its text says `{value}`; nil for text that is not a counter.
    public var textValue: Double?
    /// The fraction of a text's characters (grapheme clusters) shown, 0...1, like a typewriter.
    public var reveal: Double
    /// Only what lies inside this shape (in the node's own coordinates) is drawn.
    public var clipShape: ClipShape?
    /// A sprite sheet's frame number; the frame shown is this rounded down (see `SpriteSheet`).
    public var spriteFrame: Double = 0
    /// The rotation's centre in points of the node's own coordinates; replaces `rotationAnchor` when set.
    public var rotationAnchorPoint: Point?
    /// The scale's centre in points of the node's own coordinates; replaces `scaleAnchor` when set.
    public var scaleAnchorPoint: Point?
    /// SwiftUI's `rotation3DEffect`: the node's drawing turned in depth, before scale, rotation and offset place it.
    public var rotation3D: Rotation3D?

    public init(offset: Point = Point(x: 0, y: 0), rotation: Double = 0, rotationAnchor: UnitPoint = .center,
                scale: Point = Point(x: 1, y: 1), scaleAnchor: UnitPoint = .center, opacity: Double = 1,
                hueRotation: Double = 0, blur: Double = 0, shadow: Shadow? = nil, mask: Paint? = nil,
                fill: Paint? = nil, stroke: Stroke? = nil, trimFrom: Double = 0, trimTo: Double = 1,
                cornerRadius: Double = 0, yOffset: Double = 0, textValue: Double? = nil, reveal: Double = 1,
                clipShape: ClipShape? = nil, rotationAnchorPoint: Point? = nil, scaleAnchorPoint: Point? = nil) {
        self.offset = offset
        self.rotation = rotation
        self.rotationAnchor = rotationAnchor
        self.scale = scale
        self.scaleAnchor = scaleAnchor
        self.opacity = opacity
        self.hueRotation = hueRotation
        self.blur = blur
        self.shadow = shadow
        self.mask = mask
        self.fill = fill
        self.stroke = stroke
        self.trimFrom = trimFrom
        self.trimTo = trimTo
        self.cornerRadius = cornerRadius
        self.yOffset = yOffset
        self.textValue = textValue
        self.reveal = reveal
        self.clipShape = clipShape
        self.rotationAnchorPoint = rotationAnchorPoint
        self.scaleAnchorPoint = scaleAnchorPoint
    }
}

/// SwiftUI's `rotation3DEffect(_:axis:anchor:anchorZ:perspective:)`: the node's drawing (with its opacity and effects)
/// turned `angle` degrees about `axis` through the point `anchor` of its frame lifted `anchorZ` points towards the
/// viewer, then projected back onto the page seen from `max(frame width, frame height) / perspective` points away.
public struct Rotation3D: Sendable, Equatable {
    public var angle: Double
    public var axis: (x: Double, y: Double, z: Double)
    public var anchor: UnitPoint
    public var anchorZ: Double
    /// 1 is SwiftUI's default; 0 projects without perspective (parallel lines stay parallel).
    public var perspective: Double

    public init(angle: Double, axis: (x: Double, y: Double, z: Double), anchor: UnitPoint = .center, anchorZ: Double = 0,
                perspective: Double = 1) {
        (self.angle, self.axis, self.anchor, self.anchorZ, self.perspective) = (angle, axis, anchor, anchorZ, perspective)
    }

    public static func == (lhs: Rotation3D, rhs: Rotation3D) -> Bool {
        lhs.angle == rhs.angle && lhs.axis == rhs.axis && lhs.anchor == rhs.anchor && lhs.anchorZ == rhs.anchorZ
            && lhs.perspective == rhs.perspective
    }
}

public struct Shadow: Sendable, Equatable {
    public var color: Color
    /// Blur radius in points.
    public var radius: Double
    public var x: Double
    public var y: Double
    public init(color: Color, radius: Double, x: Double = 0, y: Double = 0) {
        self.color = color
        self.radius = radius
        self.x = x
        self.y = y
    }
}

public struct Stroke: Sendable, Equatable {
    public var paint: Paint
    /// Points.
    public var width: Double
    /// Alternating on/off lengths in points; empty means solid.
    public var dash: [Double]
    /// Points along the dash pattern; animate it for marching ants.
    public var dashPhase: Double
    public var lineCap: LineCap
    public var lineJoin: LineJoin

    public init(paint: Paint, width: Double = 1, dash: [Double] = [], dashPhase: Double = 0,
                lineCap: LineCap = .round, lineJoin: LineJoin = .round) {
        self.paint = paint
        self.width = width
        self.dash = dash
        self.dashPhase = dashPhase
        self.lineCap = lineCap
        self.lineJoin = lineJoin
    }
}

public enum LineCap: String, Sendable, Equatable, CaseIterable { case butt, round, square }
public enum LineJoin: String, Sendable, Equatable, CaseIterable { case miter, round, bevel }

// MARK: - Paint

/// An sRGB colour with straight (not premultiplied) alpha, components 0...1.
public struct Color: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Parses `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`.
    public init?(hex: String) {
        guard hex.first == "#" else { return nil }
        let digits = hex.dropFirst().map { $0.hexDigitValue }
        guard digits.allSatisfy({ $0 != nil }) else { return nil }
        let values = digits.map { Double($0!) }
        switch values.count {
        case 3, 4:
            self.init(red: values[0] / 15, green: values[1] / 15, blue: values[2] / 15,
                      alpha: values.count == 4 ? values[3] / 15 : 1)
        case 6, 8:
            func byte(_ i: Int) -> Double { (values[2 * i] * 16 + values[2 * i + 1]) / 255 }
            self.init(red: byte(0), green: byte(1), blue: byte(2), alpha: values.count == 8 ? byte(3) : 1)
        default:
            return nil
        }
    }
}

public struct GradientStop: Sendable, Equatable {
    /// 0...1 along the gradient.
    public var location: Double
    public var color: Color
    public init(location: Double, color: Color) {
        self.location = location
        self.color = color
    }
}

/// How an area is filled. Gradient geometry is in unit points of the node's bounds, as in SwiftUI.
public enum Paint: Sendable, Equatable {
    case solid(Color)
    case linear(stops: [GradientStop], start: UnitPoint, end: UnitPoint)
    /// Radii in points.
    case radial(stops: [GradientStop], center: UnitPoint, startRadius: Double, endRadius: Double)
    /// Angles in degrees, clockwise from the positive x axis.
    case angular(stops: [GradientStop], center: UnitPoint, startAngle: Double, endAngle: Double)
}

// MARK: - Geometry

public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The point at a unit position of this rect (0,0 top-leading; 1,1 bottom-trailing).
    public func point(at anchor: UnitPoint) -> Point {
        Point(x: x + anchor.x * width, y: y + anchor.y * height)
    }

    public func union(_ other: Rect) -> Rect {
        let minX = min(x, other.x), minY = min(y, other.y)
        let maxX = max(x + width, other.x + other.width), maxY = max(y + height, other.y + other.height)
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// SwiftUI's UnitPoint: a position relative to a rectangle, y growing downward.
public struct UnitPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = UnitPoint(x: 0, y: 0)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)

    /// The names scenes.json accepts for anchors.
    public static let named: [(name: String, point: UnitPoint)] = [
        ("center", .center), ("top", .top), ("bottom", .bottom), ("leading", .leading), ("trailing", .trailing),
        ("topLeading", .topLeading), ("topTrailing", .topTrailing),
        ("bottomLeading", .bottomLeading), ("bottomTrailing", .bottomTrailing),
    ]
}

/// A parsed SVG path: absolute commands only (relative ones and H/V are resolved while parsing).
public struct PathData: Sendable, Equatable {
    public enum Command: Sendable, Equatable {
        case move(Point)
        case line(Point)
        case quad(control: Point, to: Point)
        case cubic(control1: Point, control2: Point, to: Point)
        case close
    }

    public var commands: [Command]
    public init(commands: [Command]) { self.commands = commands }
}

// MARK: - Animations

/// A property that animations can drive. Raw values are the `"property"` strings of scenes.json.
public enum AnimatableProperty: String, Sendable, Equatable, Hashable, CaseIterable {
    case offsetX = "offset.x"
    case offsetY = "offset.y"
    case rotation
    /// Both axes of scale at once.
    case scale
    case scaleX = "scale.x"
    case scaleY = "scale.y"
    case opacity
    case hueRotation
    case blur
    case shadowRadius = "shadow.radius"
    case shadowX = "shadow.x"
    case shadowY = "shadow.y"
    case shadowColor = "shadow.color"
    case cornerRadius
    case strokeWidth = "stroke.width"
    case dashPhase = "stroke.dashPhase"
    case strokeColor = "stroke.color"
    /// The fill's colour; only for nodes with a solid fill.
    case fillColor = "fill.color"
    case trimFrom = "trim.from"
    case trimTo = "trim.to"
    case yOffset
    /// A text node's text, from keyframes of (localized) strings; it never interpolates.
    case text
    /// A text counter's number.
    case value
    /// The fraction of a text's characters shown.
    case reveal
    /// The clip shape's geometry: a rect's or capsule's box and a rect's corner radius,
    /// a circle's or ellipse's centre and radii.
    case clipX = "clipShape.x"
    case clipY = "clipShape.y"
    case clipWidth = "clipShape.width"
    case clipHeight = "clipShape.height"
    case clipCornerRadius = "clipShape.cornerRadius"
    case clipCenterX = "clipShape.cx"
    case clipCenterY = "clipShape.cy"
    case clipRadius = "clipShape.r"
    case clipRadiusX = "clipShape.rx"
    case clipRadiusY = "clipShape.ry"
    /// A sprite sheet's frame; it never blends: the frame shown is the value rounded down.
    case spriteFrame = "sprite.frame"
    /// The angle of a node's `rotation3D`, degrees.
    case rotation3DAngle = "rotation3D.angle"

    public var isColor: Bool {
        self == .shadowColor || self == .strokeColor || self == .fillColor
    }
}

/// A value an animation produces: a number, a colour or a text, matching its property.
public enum AnimationValue: Sendable, Equatable {
    case number(Double)
    case color(Color)
    /// A text keyframe's string, resolved per language when the scene is evaluated.
    case text(LocalizedString)
}

/// SwiftUI's timing curves.
public enum TimingCurve: Sendable, Equatable {
    case linear
    /// cubic-bezier(0.42, 0, 1, 1)
    case easeIn
    /// cubic-bezier(0, 0, 0.58, 1)
    case easeOut
    /// cubic-bezier(0.42, 0, 0.58, 1)
    case easeInOut
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
    /// SwiftUI's `spring(response:dampingFraction:)`: response in seconds.
    case spring(response: Double, dampingFraction: Double)
    /// SwiftUI's `interpolatingSpring(mass:stiffness:damping:)`.
    case interpolatingSpring(mass: Double, stiffness: Double, damping: Double)

    public var isSpring: Bool {
        switch self {
        case .spring, .interpolatingSpring: true
        default: false
        }
    }

    /// The spring's natural angular frequency (radians per second) and damping ratio; nil for bezier curves.
    /// SwiftUI's `spring(response:dampingFraction:)` has unit mass, stiffness (2π/response)² and
    /// damping 4π·dampingFraction/response.
    public var springParameters: (omega: Double, dampingRatio: Double)? {
        switch self {
        case .spring(let response, let dampingFraction):
            return (2 * Double.pi / response, dampingFraction)
        case .interpolatingSpring(let mass, let stiffness, let damping):
            return ((stiffness / mass).squareRoot(), damping / (2 * (stiffness * mass).squareRoot()))
        default:
            return nil
        }
    }

    /// For springs: SwiftUI's `Spring.settlingDuration` (a target of 1, released from rest, an epsilon of 0.001),
    /// rounded up to the millisecond, used as an iteration's length when the file gives no `duration`.
    /// Zero for bezier curves, and for a spring without damping, which never settles.
    ///
    /// Up to critical damping this is SwiftUI's estimate from the decay rate ζω alone, ln((1 + ζω) / 0.001) / (ζω)
    /// (the file's springs last as long as the same springs in SwiftUI). Over-damped, the motion never overshoots
    /// and the time is exact: when its distance from the target first comes within 0.001.
    public var settlingDuration: Rational {
        guard let (omega, zeta) = springParameters, omega > 0, zeta > 0 else { return .zero }
        let seconds: Double
        if zeta <= 1 {
            let decay = zeta * omega
            seconds = log((1 + decay) / 0.001) / decay
        } else {
            // Released from rest: distance (r₂e^(r₁t) − r₁e^(r₂t)) / (r₂ − r₁), falling from 1 without overshoot, with
            // r₁ = −ω(ζ − s) (the slow mode) and r₂ = −ω(ζ + s), s = √(ζ² − 1). Bisection between 0 and a time the
            // slow mode alone (weight (ζ + s) / 2s > 1) is past 0.001.
            let root = (zeta * zeta - 1).squareRoot()
            let slow = -omega * (zeta - root), fast = -omega * (zeta + root)
            func distance(_ t: Double) -> Double { (fast * exp(slow * t) - slow * exp(fast * t)) / (fast - slow) }
            var low = 0.0, high = log(1000 * (zeta + root) / (2 * root)) / -slow
            for _ in 0..<100 {
                let middle = (low + high) / 2
                if distance(middle) > 0.001 { low = middle } else { high = middle }
            }
            seconds = high
        }
        return Rational(Int128((seconds * 1000).rounded(.up)), 1000)
    }
}

/// How many iterations an animation plays.
public enum RepeatCount: Sendable, Equatable {
    case count(Int)
    case forever
}

/// One animation of one property of a node.
///
/// Timing, exactly (all in scene seconds; docs/FORMAT.md "Timing" has examples): before `delay` the
/// property holds the animation's first value (`from`, or the first keyframe). An iteration lasts `duration / speed`. Iteration k
/// (0-based) runs over `[delay + k·d, delay + (k+1)·d)`. With `autoreverses`, odd iterations run
/// backwards (to → from). After the last iteration the value holds where that iteration ended.
/// `delay` is not scaled by `speed` and is applied once, before the first iteration.
public struct Animation: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// From one value to another along a curve over `duration` seconds
        /// (for springs, `duration` is the settling time unless given).
        case basic(from: AnimationValue, to: AnimationValue, curve: TimingCurve, duration: Rational)
        /// A keyframe track; the first keyframe is at time 0 and the track lasts until the last keyframe.
        case keyframes([Keyframe])
    }

    public var id: String?
    public var property: AnimatableProperty
    public var kind: Kind
    /// Seconds before the first iteration starts, exactly as written: from the scene's start, or from `after`.
    public var delay: Rational
    /// Playback rate multiplier (> 0).
    public var speed: Rational
    public var repeatCount: RepeatCount
    public var autoreverses: Bool
    /// What `delay` counts from (`"after"`): another animation's event or a marker; the scene's start when nil.
    /// `SceneTiming` resolves it to scene seconds.
    public var after: StartAnchor?
    /// Set by `"from": "current"` on a from/to animation: it starts from the value the property shows at its
    /// start (what the node's earlier animations of it give then), as SwiftUI animates from the current value.
    /// The kind's `from` is then the node's own value (what shows before anything animates it).
    public var fromCurrent: CurrentStart? = nil

    /// Where an animation `"from": "current"` goes: to its `to`, or (`"by"`) that far from where it starts.
    public enum CurrentStart: Sendable, Equatable {
        /// To the kind's `to`.
        case to
        /// To the value at its start plus the kind's `to` (a number).
        case by
    }

    public init(id: String? = nil, property: AnimatableProperty, kind: Kind, delay: Rational = .zero,
                speed: Rational = .one, repeatCount: RepeatCount = .count(1), autoreverses: Bool = false,
                after: StartAnchor? = nil) {
        self.id = id
        self.property = property
        self.kind = kind
        self.delay = delay
        self.speed = speed
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
        self.after = after
    }
}

public struct Keyframe: Sendable, Equatable {
    /// Seconds from the start of the track, strictly increasing.
    public var time: Rational
    public var value: AnimationValue
    /// The curve of the segment that arrives at this keyframe.
    public var curve: TimingCurve
    /// When true, the value jumps at this keyframe's time instead of moving towards it.
    public var hold: Bool

    public init(time: Rational, value: AnimationValue, curve: TimingCurve = .linear, hold: Bool = false) {
        self.time = time
        self.value = value
        self.curve = curve
        self.hold = hold
    }
}
