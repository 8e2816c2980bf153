import DioramaDocument

/// `--tap NODE@SECONDS` of `render` and `timeline`: taps given to tappable nodes, as a viewer's clicks would.
///
/// SECONDS is scene time in the scene that holds the node. A node id found in several scenes is written
/// `SCENE/NODE@SECONDS`. Component ids contain `/` too (`leftDoor/panel`), so the whole text before `@` is tried
/// as a node id first, then a leading `SCENE/`. Several taps on one node: the earliest counts, as only the first
/// tap of a visit does; a node's `auto` still taps it at its time when that is earlier.
enum TapOption {
    static let help = "Tap a tappable node at SECONDS of its scene's time, as a click in the player would (repeatable): "
        + "NODE@SECONDS, or SCENE/NODE@SECONDS when the id is in several scenes. Without it, nodes with \"auto\" tap themselves."

    static func apply(_ specs: [String], to document: Document) throws(RenderArgumentError) -> Document {
        var document = document
        for spec in specs {
            let (scene, node, time) = try parse(spec, in: document)
            let taps = document.scenes[scene].taps
            document.scenes[scene].taps[node] = min(taps[node] ?? time, time)
        }
        return document
    }

    static func parse(_ spec: String, in document: Document) throws(RenderArgumentError) -> (scene: Int, node: String, time: Rational) {
        guard let at = spec.lastIndex(of: "@"), at != spec.startIndex else {
            throw RenderArgumentError("--tap \(spec) names no node and time", hint: "write NODE@SECONDS, e.g. --tap button@2.5")
        }
        let name = String(spec[..<at])
        let timeText = String(spec[spec.index(after: at)...])
        guard let time = Rational(decimalLiteral: timeText), time >= .zero else {
            throw RenderArgumentError("--tap \(spec): \"\(timeText)\" is not a time in seconds",
                                      hint: "give the scene time of the tap, 0 or more, e.g. --tap \(name)@2.5")
        }
        var holders = document.scenes.indices.filter { document.scenes[$0].node(withID: name) != nil }.map { ($0, name) }
        if holders.isEmpty, let slash = name.firstIndex(of: "/"),
           let scene = document.scenes.firstIndex(where: { $0.id == name[..<slash] }) {
            let node = String(name[name.index(after: slash)...])
            if document.scenes[scene].node(withID: node) != nil { holders = [(scene, node)] }
        }
        let tappable = document.scenes.flatMap { scene in scene.tappableNodeIDs.map { "\(scene.id)/\($0)" } }
        guard let (scene, node) = holders.first else {
            throw RenderArgumentError("--tap \(spec): no node \"\(name)\" in any scene",
                                      hint: tappable.isEmpty ? "no node has \"tap\"" : "the tappable nodes are \(tappable.prefix(12).joined(separator: ", "))")
        }
        guard holders.count == 1 else {
            let scenes = holders.map { document.scenes[$0.0].id }
            throw RenderArgumentError("--tap \(spec): the node \"\(name)\" is in several scenes (\(scenes.joined(separator: ", ")))",
                                      hint: "name the scene: --tap \(scenes[0])/\(name)@\(timeText)")
        }
        let sceneID = document.scenes[scene].id
        guard document.scenes[scene].isTappable(node) else {
            throw RenderArgumentError("--tap \(spec): the node \"\(node)\" of the scene \"\(sceneID)\" cannot be tapped: it has no \"tap\"",
                                      hint: tappable.isEmpty ? "give it \"tap\": {} in the file" : "the tappable nodes are \(tappable.prefix(12).joined(separator: ", "))")
        }
        let duration = document.scenes[scene].duration
        guard time < duration else {
            throw RenderArgumentError("--tap \(spec): the scene \"\(sceneID)\" lasts \(duration.decimalDescription) s, so a tap at \(timeText) s never happens",
                                      hint: "SECONDS is scene time, from 0 up to, not including, the scene's duration")
        }
        return (scene, node, time)
    }
}
