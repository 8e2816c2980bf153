import ArgumentParser
import DioramaDocument

/// `--tap NODE@SECONDS` of `render`, `export`, `timeline` and `verify`: a tap given to a tappable node, as a viewer's click would.
///
/// SECONDS is scene time in the scene that holds the node. A node id found in several scenes is written
/// `SCENE/NODE@SECONDS`. Component ids contain `/` too (`leftDoor/panel`), so the whole text before `@` is tried
/// as a node id first, then a leading `SCENE/`. Several taps on one node count in time order, as a viewer's
/// clicks do (`--tap button@2 --tap button@5`: its first and second taps); a node's `auto` is its first tap when
/// none is given before it. A tap that cannot count is refused: two at one time, or one past the last count
/// anything in the scene waits for (a second tap when nothing has `"nth": 2`).
struct TapOption: ExpressibleByArgument {
    static let help = "Tap a tappable node at SECONDS of its scene's time, as a click in the player would (repeatable, "
        + "also on one node: its taps count in time order): NODE@SECONDS, or SCENE/NODE@SECONDS when the id is in several "
        + "scenes. Without it, nodes with \"auto\" tap themselves."

    let text: String
    /// The node as written (`NODE` or `SCENE/NODE`) and the scene time, or why the text is not NODE@SECONDS.
    private let parsed: Result<(name: String, time: Rational), RenderArgumentError>

    init(argument text: String) {
        self.text = text
        guard let at = text.lastIndex(of: "@"), at != text.startIndex else {
            parsed = .failure(RenderArgumentError("--tap \(text) names no node and time", hint: "write NODE@SECONDS, e.g. --tap button@2.5"))
            return
        }
        let name = String(text[..<at])
        let timeText = String(text[text.index(after: at)...])
        guard let time = Rational(decimalLiteral: timeText), time >= .zero else {
            parsed = .failure(RenderArgumentError("--tap \(text): \"\(timeText)\" is not a time in seconds",
                                                  hint: "give the scene time of the tap, 0 or more, e.g. --tap \(name)@2.5"))
            return
        }
        parsed = .success((name, time))
    }

    /// `document` with `taps` given to its scenes; refuses a tap that cannot count (see the type's comment).
    static func apply(_ taps: [TapOption], to document: Document) throws(RenderArgumentError) -> Document {
        var document = document
        var given: [(tap: TapOption, scene: Int, node: String, time: Rational)] = []
        for tap in taps {
            let (scene, node, time) = try tap.resolve(in: document)
            if let same = given.first(where: { $0.scene == scene && $0.node == node && $0.time == time }) {
                throw RenderArgumentError("--tap \(tap.text): \"\(node)\" is tapped at \(time.decimalDescription) s already (--tap \(same.tap.text)); one tap at a time counts",
                                          hint: "give each tap of a node its own time")
            }
            document.scenes[scene].taps.add(time, to: node)
            given.append((tap, scene, node, time))
        }
        for (tap, scene, node, time) in given {
            let model = document.scenes[scene]
            let times = model.tapTimes[node] ?? []
            let count = (times.firstIndex(of: time) ?? 0) + 1
            let last = model.tapCountsWaitedFor[node]?.max() ?? 0
            // A tap past the last count anything waits for changes nothing; one before it shifts the count.
            guard count > last else { continue }
            let before = times.prefix(count - 1).map { earlier in
                given.first { $0.scene == scene && $0.node == node && $0.time == earlier }.map { "--tap \($0.tap.text)" }
                    ?? "its \"auto\" tap at \(earlier.decimalDescription) s"
            }
            let auto = model.node(withID: node)?.tap?.auto
            var hint = last == 0 ? "give a cue \"tap\": \"\(node)\" or an animation \"after\": { \"tap\": \"\(node)\" }"
                                 : "\"nth\": \(count) on a cue, stop or animation makes the \(TapGesture.ordinal(count)) tap count"
            if let auto, times.first == auto, count > 1 {
                hint = "tap it at or before its \"auto\" time (\(auto.decimalDescription) s) to stand in for that tap, or " + hint
            }
            throw RenderArgumentError(
                "--tap \(tap.text) would be the \(TapGesture.ordinal(count)) tap of \"\(node)\"\(before.isEmpty ? "" : " (after \(before.joined(separator: ", ")))"), "
                    + "but the scene \"\(model.id)\" waits for \(last == 0 ? "no tap of it" : last == 1 ? "its first tap only" : "its taps up to the \(TapGesture.ordinal(last)) only")",
                hint: hint)
        }
        return document
    }

    /// The scene, node and scene time the tap names in `document`.
    func resolve(in document: Document) throws(RenderArgumentError) -> (scene: Int, node: String, time: Rational) {
        let (name, time) = try parsed.get()
        let timeText = String(text[text.index(after: text.lastIndex(of: "@")!)...])
        var holders = document.scenes.indices.filter { document.scenes[$0].node(withID: name) != nil }.map { ($0, name) }
        if holders.isEmpty, let slash = name.firstIndex(of: "/"),
           let scene = document.scenes.firstIndex(where: { $0.id == name[..<slash] }) {
            let node = String(name[name.index(after: slash)...])
            if document.scenes[scene].node(withID: node) != nil { holders = [(scene, node)] }
        }
        let tappable = document.scenes.flatMap { scene in scene.tappableNodeIDs.map { "\(scene.id)/\($0)" } }
        guard let (scene, node) = holders.first else {
            throw RenderArgumentError("--tap \(text): no node \"\(name)\" in any scene",
                                      hint: tappable.isEmpty ? "no node has \"tap\"" : "the tappable nodes are \(tappable.prefix(12).joined(separator: ", "))")
        }
        guard holders.count == 1 else {
            let scenes = holders.map { document.scenes[$0.0].id }
            throw RenderArgumentError("--tap \(text): the node \"\(name)\" is in several scenes (\(scenes.joined(separator: ", ")))",
                                      hint: "name the scene: --tap \(scenes[0])/\(name)@\(timeText)")
        }
        let sceneID = document.scenes[scene].id
        guard document.scenes[scene].isTappable(node) else {
            throw RenderArgumentError("--tap \(text): the node \"\(node)\" of the scene \"\(sceneID)\" cannot be tapped: it has no \"tap\"",
                                      hint: tappable.isEmpty ? "give it \"tap\": {} in the file" : "the tappable nodes are \(tappable.prefix(12).joined(separator: ", "))")
        }
        let duration = document.scenes[scene].duration
        guard time < duration else {
            throw RenderArgumentError("--tap \(text): the scene \"\(sceneID)\" lasts \(duration.decimalDescription) s, so a tap at \(timeText) s never happens",
                                      hint: "SECONDS is scene time, from 0 up to, not including, the scene's duration")
        }
        return (scene, node, time)
    }
}
