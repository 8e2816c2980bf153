// Image nodes: a PNG or SVG file, an SVG element by id, a PNG cut into sprite frames, and the frames its
// "sprite.frame" animations show. Whether the files decode (and the element exists, the grid divides the
// PNG) is checked by the tools that read them (`diorama check`), through the media references noted here.

extension DocumentDecoder {
    func decodeImageContent(_ fields: Fields, what: String, style: inout NodeStyle) -> ImageContent? {
        func coordinate(_ key: String) -> Double? { number(fields, key, default: 0, range: .any, what: what, unit: "points") }
        func length(_ key: String) -> Double? { number(fields, key, default: nil, range: .nonNegative, what: what, unit: "points") }
        let file = string(fields, "path", what: what, required: true)
        let (x, y, width, height) = (coordinate("x"), coordinate("y"), length("width"), length("height"))
        let isVector = file.map(ImageContent.isVectorPath) ?? false
        var valid = true

        var element: String?
        if let member = fields["element"], let text = string(member.value, path: fields.path("element")) {
            let id = text.hasPrefix("#") ? String(text.dropFirst()) : text
            if file != nil, !isVector {
                error(member.value.offset, fields.path("element"), "only SVG images have elements to draw",
                      hint: "\"element\" picks one part of an .svg drawing by its id")
                valid = false
            } else if id.isEmpty || id.contains(where: { $0.isWhitespace || $0 == "#" }) {
                error(member.value.offset, fields.path("element"), "\"\(Self.shortened(text))\" is not an element id",
                      hint: "write the id of an element of the SVG, e.g. \"#left-leg\"")
                valid = false
            } else {
                element = "#" + id
                if let file {
                    mediaReferences.append((MediaReference(kind: .imageElement(id: element!), path: file,
                                                           resolvedPath: DocumentLoader.resolve(file, against: baseDirectory),
                                                           file: self.file, line: 0, column: 0, jsonPath: fields.path("element")),
                                            member.value.offset))
                }
            }
        } else if fields.has("element") {
            valid = false
        }

        var sprite: SpriteSheet?
        if let member = fields["sprite"] {
            if file != nil, isVector {
                error(member.value.offset, fields.path("sprite"), "a sprite sheet is a PNG image, not an SVG",
                      hint: "cut an SVG into parts with \"element\" instead")
                valid = false
            } else if let sheet = decodeSprite(member.value, path: fields.path("sprite")) {
                sprite = sheet
                style.spriteFrame = Double(sheet.frame)
                checkSpriteFrameAnimations(fields, sheet: sheet)
                if let file {
                    mediaReferences.append((MediaReference(kind: .spriteSheet(columns: sheet.columns, rows: sheet.rows), path: file,
                                                           resolvedPath: DocumentLoader.resolve(file, against: baseDirectory),
                                                           file: self.file, line: 0, column: 0, jsonPath: fields.path("sprite")),
                                            member.value.offset))
                }
            } else {
                valid = false
            }
        }

        guard let file, let x, let y, let width, let height, let member = fields["path"], valid else { return nil }
        mediaReferences.append((MediaReference(kind: .image, path: file, resolvedPath: DocumentLoader.resolve(file, against: baseDirectory),
                                               file: self.file, line: 0, column: 0, jsonPath: fields.path("path")), member.value.offset))
        return ImageContent(path: file, rect: Rect(x: x, y: y, width: width, height: height), element: element, sprite: sprite)
    }

    private func decodeSprite(_ value: JSONValue, path: String) -> SpriteSheet? {
        let what = "a sprite sheet"
        guard let fields = object(value, path: path, what: what, keys: DocumentKeys.sprite) else { return nil }
        let side = 1...SpriteSheet.maximumSide
        func required(_ key: String) -> Int? {
            guard let member = fields[key] else {
                missing(key, in: fields, what: what, hint: "\"sprite\": { \"columns\": 8, \"rows\": 2 } cuts the PNG into 8 × 2 frames")
                return nil
            }
            return integer(member.value, path: fields.path(key), range: side)
        }
        let columns = required("columns"), rows = required("rows")
        guard let columns, let rows else { return nil }
        let cells = columns * rows
        var count = cells
        if let member = fields["count"] {
            guard let value = integer(member.value, path: fields.path("count"), range: 1...cells) else { return nil }
            count = value
        }
        var frame = 0
        if let member = fields["frame"] {
            if case .number(let literal) = member.value.kind, let value = Self.integerValue(literal), value >= count {
                error(member.value.offset, fields.path("frame"), "frame \(value) is outside the sheet, whose \(count) frames are 0 ... \(count - 1)",
                      hint: "frames are numbered from 0, row by row from the top left")
                return nil
            }
            guard let value = integer(member.value, path: fields.path("frame"), range: 0...(count - 1)) else { return nil }
            frame = value
        }
        return SpriteSheet(columns: columns, rows: rows, count: count, frame: frame)
    }

    /// A sprite frame is a whole number inside the sheet: keyframes 0 ... count - 1 (they hold), from/to values
    /// 0 ... count (the value rounded down is shown, so `to: count` gives the last frame its share).
    private func checkSpriteFrameAnimations(_ fields: Fields, sheet: SpriteSheet) {
        guard let member = fields["animations"], case .array(let elements) = member.value.kind else { return }
        for (index, element) in elements.enumerated() {
            guard case .object(let members) = element.kind,
                  let property = members.first(where: { $0.key == "property" }), case .string(AnimatableProperty.spriteFrame.rawValue) = property.value.kind
            else { continue }
            let path = fields.path("animations") + "[\(index)]"
            for key in ["from", "to"] {
                if let value = members.first(where: { $0.key == key })?.value {
                    checkFrame(value, path: JSONPath.appending(key: key, to: path), last: sheet.count, sheet: sheet)
                }
            }
            guard let keyframes = members.first(where: { $0.key == "keyframes" }), case .array(let frames) = keyframes.value.kind else { continue }
            for (frameIndex, keyframe) in frames.enumerated() {
                guard case .object(let keyframeMembers) = keyframe.kind else { continue }
                let keyframePath = JSONPath.appending(key: "keyframes", to: path) + "[\(frameIndex)]"
                if let value = keyframeMembers.first(where: { $0.key == "value" })?.value {
                    checkFrame(value, path: JSONPath.appending(key: "value", to: keyframePath), last: sheet.count - 1, sheet: sheet)
                }
                if let hold = keyframeMembers.first(where: { $0.key == "hold" }), case .bool(false) = hold.value.kind {
                    error(hold.value.offset, JSONPath.appending(key: "hold", to: keyframePath),
                          "a sprite frame keyframe always holds: frames never blend",
                          hint: "leave \"hold\" out")
                }
            }
        }
    }

    private func checkFrame(_ value: JSONValue, path: String, last: Int, sheet: SpriteSheet) {
        // Other types and negative numbers are reported by the animation's own value check.
        guard case .number(let literal) = value.kind, let number = Double(literal), number >= 0 else { return }
        guard let frame = Self.integerValue(literal) else {
            error(value.offset, path, "a sprite frame is a whole number, not \(Self.shortened(literal))",
                  hint: "frames never blend; a from/to animation steps through the whole numbers between its values")
            return
        }
        if frame > last {
            error(value.offset, path, "frame \(frame) is outside the sheet, whose \(sheet.count) frames are 0 ... \(sheet.count - 1)",
                  hint: last == sheet.count ? "a from/to animation may end at \(sheet.count): the frame shown is its value rounded down"
                      : "frames are numbered from 0, row by row from the top left")
        }
    }
}
