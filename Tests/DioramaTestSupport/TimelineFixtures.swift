import DioramaDocument

/// Documents built in Swift for timeline tests and benchmarks: no parser involved.
public enum TimelineFixtures {
    /// An exact rational from a decimal literal, e.g. `seconds("0.9")`.
    public static func seconds(_ literal: String) -> Rational {
        guard let value = Rational(decimalLiteral: literal) else { preconditionFailure("not a decimal: \(literal)") }
        return value
    }

    public static func canvas() -> Canvas {
        Canvas(width: 1280, height: 720, background: .solid(Color(red: 0.05, green: 0.1, blue: 0.2)))
    }

    public static func languages() -> Languages {
        Languages(defaultLanguage: "en", fallback: "en", available: ["en", "zh", "ja"])
    }

    /// A document of the given scenes with a small sound bank (`bell`, `chime`, `creak`, `surf`).
    public static func document(_ scenes: [Scene]) -> Document {
        Document(canvas: canvas(), languages: languages(),
                 sounds: [SoundDefinition(name: "bell", path: "media/bell.wav"),
                          SoundDefinition(name: "chime", path: "media/chime.wav"),
                          SoundDefinition(name: "creak", path: "media/creak.wav"),
                          SoundDefinition(name: "surf", path: "media/surf.wav", gain: 0.5)],
                 scenes: scenes)
    }

    /// A from/to number animation.
    public static func basic(_ property: AnimatableProperty, from: Double, to: Double, duration: String,
                             curve: TimingCurve = .linear, id: String? = nil, delay: String = "0", speed: String = "1",
                             repeatCount: RepeatCount = .count(1), autoreverses: Bool = false) -> Animation {
        Animation(id: id, property: property,
                  kind: .basic(from: .number(from), to: .number(to), curve: curve, duration: seconds(duration)),
                  delay: seconds(delay), speed: seconds(speed), repeatCount: repeatCount, autoreverses: autoreverses)
    }

    /// A scene shaped like the ocean: sky, stars, moon, five animated wave bands, a bobbing buoy with a swinging
    /// bell, a lighthouse beam, gulls and spray — 40-odd nodes — plus a spray emitter (when `particles`).
    /// Cues: a bell each time the buoy reaches the top of its bob, surf on each wave iteration, a chime at 5.5 s.
    public static func ocean(duration: String = "30", particles: Bool = true) -> Scene {
        var nodes: [Node] = []
        nodes.append(Node(id: "sky", content: .rect(RectShape(rect: Rect(x: 0, y: 0, width: 1280, height: 720))),
                          style: NodeStyle(fill: .linear(stops: [GradientStop(location: 0, color: Color(red: 0, green: 0.05, blue: 0.2)),
                                                                 GradientStop(location: 1, color: Color(red: 0.1, green: 0.2, blue: 0.4))],
                                                         start: .top, end: .bottom)),
                          zIndex: -10))
        for star in 0..<12 {
            let x = Double(star * 97 % 1280), y = Double(star * 53 % 300)
            nodes.append(Node(id: "star\(star)", content: .ellipse(EllipseShape(center: Point(x: x, y: y), radiusX: 2, radiusY: 2)),
                              style: NodeStyle(fill: .solid(.white)),
                              animations: [basic(.opacity, from: 0.3, to: 1, duration: "1.\(star % 7 + 1)", curve: .easeInOut,
                                                 delay: "0.\(star)", repeatCount: .forever, autoreverses: true)]))
        }
        nodes.append(Node(id: "moon", content: .ellipse(EllipseShape(center: Point(x: 1050, y: 120), radiusX: 40, radiusY: 40)),
                          style: NodeStyle(shadow: Shadow(color: Color(red: 1, green: 1, blue: 0.8, alpha: 0.6), radius: 20),
                                           fill: .solid(Color(red: 1, green: 1, blue: 0.9)))))
        for band in 0..<5 {
            let top = 420 + Double(band) * 50
            nodes.append(Node(id: "wave\(band)",
                              content: .wave(WaveShape(rect: Rect(x: -40, y: top, width: 1360, height: 720 - top), control1X: 0.35, control2X: 0.65)),
                              style: NodeStyle(fill: .solid(Color(red: 0.1, green: 0.3 + 0.1 * Double(band), blue: 0.6, alpha: 0.8))),
                              animations: [basic(.yOffset, from: -0.15, to: 0.15, duration: "2.\(band + 1)", curve: .easeInOut,
                                                 id: "swell", repeatCount: .forever, autoreverses: true),
                                           basic(.offsetX, from: 0, to: 20, duration: "3", curve: .easeInOut,
                                                 delay: "0.\(band)", repeatCount: .forever, autoreverses: true)],
                              zIndex: Double(band)))
        }
        let bell = Node(id: "bell", content: .polygon([Point(x: -12, y: 0), Point(x: 12, y: 0), Point(x: 16, y: 24), Point(x: -16, y: 24)]),
                        style: NodeStyle(rotationAnchor: .top, fill: .solid(Color(red: 0.8, green: 0.6, blue: 0.2)),
                                         stroke: Stroke(paint: .solid(.black), width: 2)),
                        animations: [Animation(id: "swing", property: .rotation,
                                               kind: .keyframes([Keyframe(time: .zero, value: .number(-12)),
                                                                 Keyframe(time: seconds("0.6"), value: .number(12), curve: .easeInOut),
                                                                 Keyframe(time: seconds("1.2"), value: .number(-12), curve: .easeInOut)]),
                                               repeatCount: .forever)])
        let buoyBody = Node(id: "buoyBody", content: .rect(RectShape(rect: Rect(x: -30, y: 0, width: 60, height: 80))),
                            style: NodeStyle(fill: .solid(Color(red: 0.9, green: 0.2, blue: 0.1)), cornerRadius: 8))
        let stripe = Node(content: .rect(RectShape(rect: Rect(x: -30, y: 30, width: 60, height: 14))), style: NodeStyle(fill: .solid(.white)))
        let lamp = Node(id: "lamp", content: .ellipse(EllipseShape(center: Point(x: 0, y: -50), radiusX: 8, radiusY: 8)),
                        style: NodeStyle(fill: .solid(Color(red: 1, green: 0.9, blue: 0.4))),
                        animations: [Animation(id: "blink", property: .fillColor,
                                               kind: .keyframes([Keyframe(time: .zero, value: .color(Color(red: 1, green: 0.9, blue: 0.4))),
                                                                 Keyframe(time: seconds("0.5"), value: .color(Color(red: 0.3, green: 0.3, blue: 0.3)), hold: true),
                                                                 Keyframe(time: seconds("2"), value: .color(Color(red: 1, green: 0.9, blue: 0.4)), hold: true)]),
                                               repeatCount: .forever)])
        let mast = Node(content: .line([Point(x: 0, y: 0), Point(x: 0, y: -45)]),
                        style: NodeStyle(stroke: Stroke(paint: .solid(.black), width: 3)))
        nodes.append(Node(id: "buoy", content: .group(Group(children: [mast, buoyBody, stripe, lamp, bell])),
                          style: NodeStyle(offset: Point(x: 640, y: 430), rotationAnchor: .bottom),
                          animations: [basic(.offsetY, from: 440, to: 410, duration: "0.9", curve: .easeInOut, id: "bob",
                                             delay: "0.2", speed: "1.5", repeatCount: .forever, autoreverses: true),
                                       Animation(id: "tilt", property: .rotation,
                                                 kind: .basic(from: .number(-6), to: .number(6), curve: .spring(response: 1.2, dampingFraction: 0.4),
                                                              duration: TimingCurve.spring(response: 1.2, dampingFraction: 0.4).settlingDuration),
                                                 repeatCount: .forever, autoreverses: true)],
                          zIndex: 2.5))
        let beam = Node(id: "beam", content: .polygon([Point(x: 0, y: 0), Point(x: 400, y: -40), Point(x: 400, y: 40)]),
                        style: NodeStyle(rotationAnchor: .leading, opacity: 0.4,
                                         fill: .linear(stops: [GradientStop(location: 0, color: Color(red: 1, green: 1, blue: 0.8)),
                                                               GradientStop(location: 1, color: .clear)], start: .leading, end: .trailing)),
                        animations: [basic(.rotation, from: -30, to: 30, duration: "6", curve: .easeInOut,
                                           repeatCount: .forever, autoreverses: true)])
        let tower = Node(content: .path(PathData(commands: [.move(Point(x: -20, y: 0)), .line(Point(x: 20, y: 0)),
                                                            .line(Point(x: 12, y: 160)), .line(Point(x: -12, y: 160)), .close])),
                         style: NodeStyle(fill: .solid(.white)))
        nodes.append(Node(id: "lighthouse", content: .group(Group(children: [tower, beam])),
                          style: NodeStyle(offset: Point(x: 150, y: 260))))
        for gull in 0..<6 {
            nodes.append(Node(id: "gull\(gull)",
                              content: .path(PathData(commands: [.move(Point(x: -10, y: 0)),
                                                                 .quad(control: Point(x: -5, y: -6), to: Point(x: 0, y: 0)),
                                                                 .quad(control: Point(x: 5, y: -6), to: Point(x: 10, y: 0))])),
                              style: NodeStyle(offset: Point(x: Double(200 + gull * 150), y: Double(150 + gull * 17)),
                                               stroke: Stroke(paint: .solid(.white), width: 2)),
                              animations: [basic(.offsetX, from: Double(200 + gull * 150), to: Double(260 + gull * 150),
                                                 duration: "4", curve: .easeInOut, repeatCount: .forever, autoreverses: true),
                                           basic(.scaleY, from: 1, to: -0.6, duration: "0.4", repeatCount: .forever, autoreverses: true)]))
        }
        nodes.append(Node(id: "rope", content: .line([Point(x: 640, y: 470), Point(x: 700, y: 700)]),
                          style: NodeStyle(mask: .linear(stops: [GradientStop(location: 0, color: .clear),
                                                                 GradientStop(location: 0.3, color: .white)], start: .top, end: .bottom),
                                           stroke: Stroke(paint: .solid(Color(red: 0.6, green: 0.5, blue: 0.3)), width: 3, dash: [8, 4])),
                          animations: [basic(.dashPhase, from: 0, to: 12, duration: "1", repeatCount: .forever)]))
        nodes.append(Node(id: "title",
                          content: .text(TextContent(text: LocalizedString([("en", "The Ocean"), ("zh", "海洋"), ("ja", "海")]),
                                                     position: Point(x: 640, y: 60))),
                          animations: [basic(.opacity, from: 0, to: 1, duration: "1.5", curve: .easeOut)]))
        if particles {
            nodes.append(Node(id: "spray", content: .emitter(Emitter(seed: 7, birthRate: 120, lifetime: 2.5, lifetimeRange: 0.5,
                                                                    position: Point(x: 640, y: 470), positionRange: Size(width: 200, height: 10),
                                                                    angle: -90, angleRange: 30, speed: 60, speedRange: 20,
                                                                    acceleration: Point(x: 0, y: 40), size: 2, scaleRange: 0.5,
                                                                    alphaSpeed: -0.35, color: Color(red: 0.9, green: 0.95, blue: 1),
                                                                    blendMode: .screen, swayAmplitude: 4, swayFrequency: 0.5)),
                              zIndex: 6))
        }
        return Scene(id: "ocean", title: LocalizedString([("en", "Ocean"), ("zh", "海洋"), ("ja", "海")]),
                     duration: seconds(duration), nodes: nodes,
                     ambience: [Ambience(sound: "surf", gain: 0.7)],
                     cues: [Cue(sound: "bell", trigger: .animation(node: "buoy", animation: "bob", event: .reachesTo), gain: 0.8, pan: -0.2),
                            Cue(sound: "surf", trigger: .animation(node: "wave0", animation: "swell", event: .iterationStart), gain: 0.3),
                            Cue(sound: "chime", trigger: .at(seconds("5.5")))])
    }

    /// A short scene with one cue at each of the given scene times (seconds), for sequencer tests.
    public static func cueScene(id: String, duration: String, cueTimes: [String], sound: String = "bell") -> Scene {
        Scene(id: id, title: LocalizedString(id), duration: seconds(duration),
              cues: cueTimes.map { Cue(sound: sound, trigger: .at(seconds($0))) })
    }
}
