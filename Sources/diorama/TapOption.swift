import ArgumentParser
import DioramaDocument

/// `--tap NODE@SECONDS` of `render`, `export` and `timeline`: a tap given to a tappable node, as a viewer's click would.
///
/// SECONDS is scene time in the scene that holds the node. A node id found in several scenes is written
/// `SCENE/NODE@SECONDS`. Component ids contain `/` too (`leftDoor/panel`), so the whole text before `@` is tried
/// as a node id first, then a leading `SCENE/`. Several taps on one node: the earliest counts, as only the first
/// tap of a visit does; a node's `auto` still taps it at its time when that is earlier.
struct TapOption: ExpressibleByArgument {
    static let help = "Tap a tappable node at SECONDS of its scene's time, as a click in the player would (repeatable): "
        + "NODE@SECONDS, or SCENE/NODE@SECONDS when the id is in several scenes. Without it, nodes with \"auto\" tap themselves."

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

    /// `document` with `taps` given to its scenes.
    static func apply(_ taps: [TapOption], to document: Document) throws(RenderArgumentError) -> Document {
        var document = document
        for tap in taps {
            let (scene, node, time) = try tap.resolve(in: document)
            let given = document.scenes[scene].taps
            document.scenes[scene].taps[node] = min(given[node] ?? time, time)
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
