import DioramaTestSupport
import Foundation
import Testing

@testable import DioramaDocument

/// The schema, docs/FORMAT.md, the examples in the docs and the Swift decoder must agree.
///
/// - Every table in FORMAT.md marked `<!-- schema: NAME -->` lists exactly the properties of `$defs/NAME`
///   (`document` is the top level); every definition with properties has such a table; every property
///   anywhere in the schema is documented in some table.
/// - Every ```json block in FORMAT.md and COMPOSING.md validates against the schema with python3's
///   `jsonschema`: whole documents against the top level, fragments against the definition named by the
///   `<!-- example: NAME -->` line before them. Whole documents also decode with the Swift decoder without
///   a warning; a block marked `<!-- example: invalid NAME -->` must fail and print exactly the text block
///   that follows it.
/// - The shipped scenes.json (when present) and the shared fixture validate both ways.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let schemaURL = root.appendingPathComponent("docs/scenes.schema.json")

    static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    static func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: schemaURL)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // MARK: - Keys

    /// The keys of each marked table in FORMAT.md.
    static func documentedTables() throws -> [String: [String]] {
        let lines = try read("docs/FORMAT.md").components(separatedBy: "\n")
        var tables: [String: [String]] = [:]
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            guard line.hasPrefix("<!-- schema: "), line.hasSuffix(" -->") else { continue }
            let name = String(line.dropFirst("<!-- schema: ".count).dropLast(" -->".count))
            var keys: [String] = []
            // The table starts on the next line: a header, a separator, then one row per key.
            index += 2
            while index < lines.count, lines[index].hasPrefix("| `") {
                let cell = lines[index].dropFirst(3)
                if let end = cell.firstIndex(of: "`") { keys.append(String(cell[..<end])) }
                index += 1
            }
            tables[name] = keys
        }
        return tables
    }

    @Test func everyMarkedTableListsExactlyItsDefinitionsProperties() throws {
        let schema = try Self.schema()
        let definitions = try #require(schema["$defs"] as? [String: [String: Any]])
        let tables = try Self.documentedTables()
        var withProperties: [String: Set<String>] = ["document": Set((schema["properties"] as? [String: Any] ?? [:]).keys)]
        for (name, definition) in definitions {
            if let properties = definition["properties"] as? [String: Any] { withProperties[name] = Set(properties.keys) }
        }
        for (name, keys) in withProperties.sorted(by: { $0.key < $1.key }) {
            guard let documented = tables[name] else {
                Issue.record("docs/FORMAT.md has no table marked <!-- schema: \(name) --> for \(keys.sorted())")
                continue
            }
            #expect(Set(documented) == keys, "table \(name): documented \(documented.sorted()), schema \(keys.sorted())")
            #expect(documented.count == Set(documented).count, "table \(name) lists a key twice")
        }
        for name in tables.keys where withProperties[name] == nil {
            Issue.record("docs/FORMAT.md marks a table \(name), which the schema does not define")
        }
    }

    @Test func everySchemaPropertyIsDocumentedAndEveryDocumentedKeyIsInTheSchema() throws {
        var schemaKeys = Set<String>()
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] { schemaKeys.formUnion(properties.keys) }
                object.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(try Self.schema())
        let documented = Set(try Self.documentedTables().values.joined())
        #expect(schemaKeys.subtracting(documented).isEmpty, "undocumented: \(schemaKeys.subtracting(documented).sorted())")
        #expect(documented.subtracting(schemaKeys).isEmpty, "not in the schema: \(documented.subtracting(schemaKeys).sorted())")
    }

    @Test func theDecodersKeysAreTheSchemas() throws {
        // The Swift decoder's key lists and the schema's definitions, side by side.
        let definitions = try #require(try Self.schema()["$defs"] as? [String: [String: Any]])
        func keys(_ name: String) -> Set<String> { Set((definitions[name]?["properties"] as? [String: Any] ?? [:]).keys) }
        let common = keys("nodeCommon")
        let shape = keys("shapeStyle")
        #expect(Set(DocumentKeys.nodeCommon) == common)
        #expect(Set(DocumentKeys.shapeStyle) == shape)
        for (type, typeKeys) in DocumentKeys.nodeTypes {
            let own = keys("\(type)Node")
            let schemaKeys = own.union(DocumentDecoder.shapeNodeTypes.contains(type) ? shape : [])
            #expect(Set(typeKeys) == schemaKeys, "node type \(type)")
        }
        let pairs: [(String, [String])] = [
            ("canvas", DocumentKeys.canvas), ("languages", DocumentKeys.languages), ("sound", DocumentKeys.sound),
            ("scene", DocumentKeys.scene), ("ambience", DocumentKeys.ambience), ("cue", DocumentKeys.cue),
            ("keyframeEvent", DocumentKeys.cueKeyframeEvent), ("frame", DocumentKeys.frame), ("trim", DocumentKeys.trim),
            ("shadow", DocumentKeys.shadow), ("strokeStyle", DocumentKeys.stroke), ("font", DocumentKeys.font),
            ("particles", DocumentKeys.particles), ("vector", DocumentKeys.vector), ("scaleFactors", DocumentKeys.scale),
            ("sway", DocumentKeys.sway), ("gradientPaint", DocumentKeys.paintKinds), ("linearGradient", DocumentKeys.linearGradient),
            ("radialGradient", DocumentKeys.radialGradient), ("angularGradient", DocumentKeys.angularGradient),
            ("gradientStop", DocumentKeys.gradientStop), ("animation", DocumentKeys.animation.filter { $0 != "keyframes" }),
            ("keyframeTrack", DocumentKeys.animation.filter { !["from", "to", "by", "curve", "duration"].contains($0) }),
            ("keyframe", DocumentKeys.keyframe), ("curveObject", DocumentKeys.curveKinds), ("springParameters", DocumentKeys.spring),
            ("interpolatingSpringParameters", DocumentKeys.interpolatingSpring),
            ("trigger", DocumentKeys.moment), ("duck", DocumentKeys.duck), ("soundVariation", DocumentKeys.soundVariation),
            ("startAnchor", DocumentKeys.after),
        ]
        for (name, decoderKeys) in pairs {
            #expect(Set(decoderKeys) == keys(name), "\(name)")
        }
        #expect(Set(DocumentKeys.rotation3D) == keys("rotation3D"))
        #expect(Set(DocumentKeys.axis) == keys("rotationAxis"))
        #expect(Set(DocumentKeys.document) == Set((try Self.schema()["properties"] as? [String: Any] ?? [:]).keys))
    }

    // MARK: - Examples

    struct Example {
        var file: String
        var line: Int
        var text: String
        /// nil for a whole document.
        var definition: String?
        /// For `invalid` examples: the name to decode it as, and the output the doc shows.
        var invalidName: String?
        var shownOutput: [String] = []
    }

    static func examples(in relativePath: String) throws -> [Example] {
        let lines = try read(relativePath).components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("```json") else { index += 1; continue }
            let start = index
            var body: [String] = []
            index += 1
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            var marker: String?
            var previous = start - 1
            while previous >= 0, lines[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
            if previous >= 0, lines[previous].hasPrefix("<!-- example: "), lines[previous].hasSuffix(" -->") {
                marker = String(lines[previous].dropFirst("<!-- example: ".count).dropLast(" -->".count))
            }
            // Expectations files of `diorama verify` (docs/VERIFY.md) are checked by DioramaVerifyTests.
            if previous >= 0, lines[previous].hasPrefix("<!-- expectations: ") { continue }
            var example = Example(file: relativePath, line: start + 1, text: body.joined(separator: "\n"), definition: marker)
            if let marker, marker.hasPrefix("invalid ") {
                example.definition = nil
                example.invalidName = String(marker.dropFirst("invalid ".count))
                // The output shown is the next ```text block, without its `$ command` lines.
                var next = index
                while next < lines.count, !lines[next].hasPrefix("```") { next += 1 }
                if next < lines.count, lines[next].hasPrefix("```text") {
                    next += 1
                    while next < lines.count, !lines[next].hasPrefix("```") {
                        if !lines[next].hasPrefix("$ ") { example.shownOutput.append(lines[next]) }
                        next += 1
                    }
                }
            }
            examples.append(example)
        }
        return examples
    }

    static let documentationFiles = ["docs/FORMAT.md", "docs/COMPOSING.md"]

    /// A ```text block marked `<!-- output: timeline NAME -->` shows `diorama timeline NAME` for the last whole
    /// document above it; it must be exactly what the timeline prints.
    @Test func timelineOutputShownInTheTutorialIsReal() throws {
        let lines = try Self.read("docs/COMPOSING.md").components(separatedBy: "\n")
        let examples = try Self.examples(in: "docs/COMPOSING.md")
        var checked = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("<!-- output: timeline ") && line.hasSuffix(" -->") {
            let name = String(line.dropFirst("<!-- output: timeline ".count).dropLast(" -->".count))
            let document = try #require(examples.last { $0.line < index + 1 && $0.definition == nil && $0.invalidName == nil },
                                        "no document above line \(index + 1)")
            var shown: [String] = []
            var next = index + 2  // past the ```text line
            while next < lines.count, !lines[next].hasPrefix("```") {
                if !lines[next].hasPrefix("$ ") { shown.append(lines[next]) }
                next += 1
            }
            let printed = try DocumentFixtures.timelineText(document.text, name: name)
            #expect(printed.trimmingCharacters(in: .newlines) == shown.joined(separator: "\n").trimmingCharacters(in: .newlines),
                    "COMPOSING.md line \(index + 1) shows timeline output that differs from:\n\(printed)")
            checked += 1
        }
        #expect(checked >= 1)
    }

    @Test func everyExampleInTheDocsValidatesAgainstTheSchemaAndTheDecoder() throws {
        var instances: [SchemaValidation.Instance] = []
        for file in Self.documentationFiles {
            let examples = try Self.examples(in: file)
            #expect(!examples.isEmpty, "\(file) has no JSON example")
            for example in examples {
                let name = "\(example.file):\(example.line)"
                if let definition = example.definition {
                    instances.append(.init(name: name, definition: definition, text: example.text))
                    continue
                }
                if let invalidName = example.invalidName {
                    let rendered = DocumentFixtures.renderedDiagnostics(example.text, name: invalidName)
                    #expect(rendered.joined(separator: "\n") == example.shownOutput.joined(separator: "\n"),
                            "\(name): the output shown differs from what the decoder says")
                    #expect(!rendered.isEmpty, "\(name) is marked invalid but decodes")
                    continue
                }
                do {
                    // Named as if beside the repository's media/ (as the tutorial's files are), so the art they name is read.
                    let loaded = try DocumentFixtures.decode(example.text, name: String(name.dropFirst("docs/".count)))
                    #expect(loaded.warnings.isEmpty, "\(name): \(loaded.warnings.map(\.description))")
                } catch {
                    Issue.record("\(name) does not decode:\n\(error)")
                }
                instances.append(.init(name: name, definition: nil, text: example.text))
            }
        }
        try SchemaValidation.expectValid(instances, schema: Self.schemaURL)
    }

    @Test func theShippedScenesFileAndTheFixtureValidateBothWays() throws {
        var instances = [SchemaValidation.Instance(name: "DocumentFixtures.oceanJSON", definition: nil, text: DocumentFixtures.oceanJSON)]
        _ = try DocumentFixtures.decode(DocumentFixtures.oceanJSON)
        // The root scenes.json is validated once it exists (it is written alongside the timeline).
        let shipped = Self.root.appendingPathComponent("scenes.json")
        if FileManager.default.fileExists(atPath: shipped.path) {
            let loaded = try DocumentLoader.load(path: shipped.path)
            #expect(!loaded.document.scenes.isEmpty)
            instances.append(.init(name: "scenes.json", definition: nil, text: try String(contentsOf: shipped, encoding: .utf8)))
        }
        try SchemaValidation.expectValid(instances, schema: Self.schemaURL)
    }

    @Test func theSchemaAlsoRejectsBadCorpusFilesItCanDescribe() throws {
        // Problems a schema can express (unknown keys, types, ranges, patterns, required keys) fail it too.
        let names = ["bad-unknown-key", "bad-unknown-top-level-key", "bad-wrong-types", "bad-negative-duration",
                     "bad-opacity-range", "bad-gain-pan-range", "bad-missing-required", "bad-canvas-too-large",
                     "bad-hex-colours", "bad-node-type", "bad-repeat", "bad-cue-binding", "bad-colour-property-number",
                     "bad-property-not-applicable", "bad-scene-too-long", "bad-keyframe-times", "bad-languages",
                     "bad-text-counter", "bad-text-keyframes", "bad-text-reveal"]
        try SchemaValidation.expectCorpusFilesRejected(names)
    }
}

/// Runs python3's `jsonschema` (Draft 2020-12) over instances, in one process.
enum SchemaValidation {
    /// Each named corpus file (`Corpus/NAME.json`) must fail the schema: problems a schema can express fail it too.
    static func expectCorpusFilesRejected(_ names: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let instances = try names.map { name in
            Instance(name: name, definition: nil,
                     text: try String(contentsOf: CorpusTests.directory.appendingPathComponent("\(name).json"), encoding: .utf8))
        }
        let results = try run(instances, schema: DocumentationTests.schemaURL)
        for name in names {
            #expect(results[name]?.isEmpty == false, "the schema accepts \(name).json", sourceLocation: sourceLocation)
        }
    }

    struct Instance: Encodable {
        var name: String
        /// A `$defs` name, or nil for the top level.
        var definition: String?
        var text: String
    }

    static let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print(json.dumps({"__setup__": ["python3 cannot import jsonschema"]}))
            sys.exit(0)
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        results = {}
        for item in json.load(sys.stdin):
            definition = item.get("definition")
            target = schema if definition is None else {"$defs": schema["$defs"], "$ref": "#/$defs/" + definition}
            if definition is not None and definition not in schema["$defs"]:
                results[item["name"]] = ["no definition " + definition]
                continue
            try:
                instance = json.loads(item["text"])
            except ValueError as error:
                results[item["name"]] = ["not JSON: " + str(error)]
                continue
            validator = jsonschema.Draft202012Validator(target)
            results[item["name"]] = ["/".join(str(p) for p in e.absolute_path) + ": " + e.message[:300] for e in validator.iter_errors(instance)]
        print(json.dumps(results))
        """

    /// Every instance's schema errors by name. Fails (never skips) when python3 or jsonschema is missing.
    static func run(_ instances: [Instance], schema: URL) throws -> [String: [String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema.path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            Issue.record("cannot run python3 (\(error)); hint: install it with `sudo apt-get install python3 python3-jsonschema`")
            return [:]
        }
        input.fileHandleForWriting.write(try JSONEncoder().encode(instances))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let results = try JSONSerialization.jsonObject(with: data) as? [String: [String]] else {
            Issue.record("python3 jsonschema failed (status \(process.terminationStatus)): \(errorText); hint: `sudo apt-get install python3 python3-jsonschema` or `pip install jsonschema`")
            return [:]
        }
        if let setup = results["__setup__"] {
            Issue.record("\(setup.joined()); hint: `sudo apt-get install python3-jsonschema` or `pip install jsonschema`")
            return [:]
        }
        return results
    }

    static func expectValid(_ instances: [Instance], schema: URL) throws {
        let results = try run(instances, schema: schema)
        guard !results.isEmpty else { return }
        for instance in instances {
            guard let errors = results[instance.name] else {
                Issue.record("\(instance.name) was not validated")
                continue
            }
            #expect(errors.isEmpty, "\(instance.name) fails the schema: \(errors)")
        }
    }
}
