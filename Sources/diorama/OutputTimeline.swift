import DioramaDocument
import DioramaTimeline
import Foundation

/// The span options read against their document: the document with its `--tap` taps, the `--lang` language, and
/// the timeline `--from`/`--to` refer to: the whole playlist, or one scene with `--scene`.
struct OutputTimeline {
    var loaded: LoadedDocument
    var language: String
    /// Where each scene of the playlist starts.
    var clock: PlaylistClock
    /// The playlist seconds the timeline runs through: the whole playlist, or one scene.
    var playlistSpan: Range<Rational>
    /// The timeline's length: its times run from 0 to here.
    var end: Rational { playlistSpan.upperBound - playlistSpan.lowerBound }
    /// "the playlist" or "the scene "ocean"", for messages.
    var name: String
    private var from: Seconds?
    private var to: Seconds?

    var document: Document { loaded.document }

    init(_ options: SpanOptions) throws {
        let file = options.file
        let original = try loadDocumentOrExit(file)
        loaded = LoadedDocument(document: try TapOption.apply(options.taps, to: original.document), path: original.path,
                                baseDirectory: original.baseDirectory, warnings: original.warnings,
                                mediaReferences: original.mediaReferences)
        let document = loaded.document
        guard !document.scenes.isEmpty else { throw RenderArgumentError("\(file) has no scenes to render") }

        language = options.language ?? document.languages.defaultLanguage
        guard document.languages.available.contains(language) else {
            throw RenderArgumentError("--lang \(language) is not a language of \(file)",
                                      hint: "its languages are \(document.languages.available.joined(separator: ", "))")
        }

        clock = PlaylistClock(document: document)
        playlistSpan = .zero..<clock.length
        if let scene = options.scene {
            guard let index = document.scenes.firstIndex(where: { $0.id == scene }) else {
                throw RenderArgumentError("no scene \"\(scene)\" in \(file)",
                                          hint: "the scenes are \(document.scenes.map(\.id).joined(separator: ", "))")
            }
            playlistSpan = clock.span(ofScene: index)
        }
        name = options.scene.map { "the scene \"\($0)\"" } ?? "the playlist"
        from = options.from
        to = options.to
    }

    /// The scene and scene time at `time` of the timeline.
    func position(_ time: Rational) -> PlaybackPosition {
        clock.position(at: playlistSpan.lowerBound + time)
    }

    /// `--from`/`--to` as a span of the timeline: from 0 and to its end by default, clipped to its end.
    func span() throws(RenderArgumentError) -> (start: Rational, end: Rational) {
        let start = try from?.value(of: "--from") ?? .zero
        guard start < end else {
            throw RenderArgumentError("--from \(start.decimalDescription) is past the end of \(name) (\(end.decimalDescription) s)")
        }
        let stop = try to?.value(of: "--to") ?? end
        guard stop > start else {
            throw RenderArgumentError("--to \(stop.decimalDescription) must be after --from \(start.decimalDescription)")
        }
        return (start, min(stop, end))
    }

    /// Frame k of a span shows `start + k / fps`, for every such time before its end.
    func frames(_ span: (start: Rational, end: Rational), fps: Rational) throws(RenderArgumentError) -> [PlaybackPosition] {
        let count = Int(((span.end - span.start) * fps).ceiling)
        guard count <= 1_000_000 else { throw RenderArgumentError("that is \(count) frames; render at most 1,000,000 at once") }
        return (0..<count).map { position(span.start + Rational(Int128($0)) / fps) }
    }
}
