import DioramaDocument
import DioramaRender
import DioramaTimeline
import Foundation

/// The renderer module's cairo/pango `FrameRenderer`, as the player draws with it.
///
/// With `preparesScenes`, the scene after the one shown is prepared ahead: a renderer of its own draws its first frames
/// on a thread of its own (rasterizing its art, decoding its pictures, laying out its texts), and takes over drawing
/// when that scene is shown; the renderer it replaces, with the last scene's caches, is freed on another thread. So at
/// most two scenes' caches are held: the one shown and the one prepared.
public final class CairoSnapshotRenderer: SnapshotRendering {
    /// The renderer drawing the frames now (the prepared one once its scene is shown).
    public private(set) var renderer: FrameRenderer
    private let imageDirectory: URL?
    private let threads: Int
    /// Whether scenes are prepared ahead (false: every scene's first frame pays for its art, as `--no-preroll`).
    public let preparesScenes: Bool
    /// The scene being prepared, or prepared and not shown yet.
    private var preparation: ScenePreparation?
    /// The scene the last frame showed (nil before the first).
    private var shownScene: Int?
    public private(set) var sceneChanges = SceneChanges()

    /// `imageDirectory`: the scenes file's folder, which image paths are relative to; `threads`: how many threads draw
    /// each frame (the same pixels as one: for large windows on several cores); `preparesScenes`: prepare the next
    /// scene ahead on another thread when the player asks (`prepare(scene:width:height:frames:)`).
    public init(imageDirectory: String?, threads: Int = 1, preparesScenes: Bool = false) {
        self.imageDirectory = imageDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        self.threads = threads
        self.preparesScenes = preparesScenes
        renderer = FrameRenderer(imageDirectory: self.imageDirectory, threads: threads)
    }

    public func draw(_ snapshot: Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                     holdsLastFrame: Bool) throws {
        try renderer.render(snapshot, into: pixels, width: width, height: height, stride: stride, holdsLastFrame: holdsLastFrame)
    }

    public var lastWrittenAreas: [Rect]? { renderer.lastWrittenAreas }

    public func prepare(scene: Int, width: Int, height: Int, frames: () -> [Snapshot]) {
        guard preparesScenes else { return }
        if let preparation {
            if preparation.scene == scene, preparation.width == width, preparation.height == height { return }
            // One preparation at a time: quick navigation does not start a thread per scene passed.
            guard preparation.isDone else { return }
            preparation.discard()
        }
        let directory = imageDirectory, threads = threads
        preparation = ScenePreparation(scene: scene, frames: frames(), width: width, height: height) {
            // A font map of its own: the thread making it goes on to prepare other scenes meanwhile.
            FrameRenderer(imageDirectory: directory, threads: threads, privateFontMap: true)
        }
    }

    public func show(scene: Int) {
        guard scene != shownScene else { return }
        defer { shownScene = scene }
        guard shownScene != nil else { return }
        guard let preparation, preparation.scene == scene, let prepared = preparation.take() else {
            sceneChanges.unprepared += 1
            return
        }
        self.preparation = nil
        // The page being left, as it was last drawn, goes on with the renderer taking over.
        prepared.adoptPages(of: renderer)
        ScenePreparation.free(renderer)
        renderer = prepared
        sceneChanges.prepared += 1
    }

    /// Waits until the scene being prepared is ready (tests: the preparation runs on its own thread).
    public func waitForPreparation() {
        preparation?.wait()
    }

    /// The scene prepared or being prepared, if any.
    public var preparedScene: Int? { preparation?.scene }

    /// What the prepared renderer's art cost it, once it is ready (nil while preparing or with nothing prepared).
    public var preparedArtWork: ArtWork? { preparation?.artWork }
}

/// A renderer drawing a scene's first frames on a thread of its own.
final class ScenePreparation: @unchecked Sendable {
    // @unchecked Sendable: `renderer` is made and used only by the preparing thread until it sets `isReady` under
    // `lock`; from then on only by the one thread that takes it (`take`, under the same lock). `frames` is read only
    // by the preparing thread. The lock orders the preparing thread's writes before the taker's reads.
    let scene: Int
    let width: Int
    let height: Int
    private let lock = NSLock()
    private var isReady = false
    private var renderer: FrameRenderer?
    private var work: ArtWork?
    private let done = DispatchSemaphore(value: 0)

    init(scene: Int, frames: [Snapshot], width: Int, height: Int, make: @escaping @Sendable () -> FrameRenderer) {
        self.scene = scene
        self.width = width
        self.height = height
        // At the frame loop's priority: at a lower one, a machine busy with other work starves it past the scene's end.
        let thread = Thread { [self] in
            let prepared = make()
            // A frame that fails to draw here fails in the frame loop too, where it is reported.
            try? prepared.prepare(frames, width: width, height: height)
            let preparedWork = prepared.artWork
            lock.lock()
            work = preparedWork
            renderer = prepared
            isReady = true
            lock.unlock()
            done.signal()
        }
        thread.name = "scene preparation"
        thread.start()
    }

    var isDone: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isReady
    }

    var artWork: ArtWork? {
        lock.lock()
        defer { lock.unlock() }
        return work
    }

    /// The prepared renderer when it is ready (never waits), once.
    func take() -> FrameRenderer? {
        lock.lock()
        defer { lock.unlock() }
        guard isReady else { return nil }
        defer { renderer = nil }
        return renderer
    }

    func wait() {
        done.wait()
        done.signal()
    }

    /// Frees the prepared renderer, if ready, on another thread (still preparing: its thread frees it).
    func discard() {
        if let renderer = take() { Self.free(renderer) }
    }

    /// Frees a renderer no other thread refers to on a thread of its own: its caches (hundreds of megabytes of rasters
    /// at 4K) are not given back during a frame. At the frame loop's priority, so that a busy machine does not keep two
    /// scenes' caches waiting to be freed.
    static func free(_ renderer: FrameRenderer) {
        let last = LastReference(renderer)
        Thread { last.drop() }.start()
    }
}

/// The only reference to a renderer, handed to the thread that frees it.
private final class LastReference: @unchecked Sendable {
    // @unchecked Sendable: the thread that makes it gives up its own references to the renderer; only `drop`, on the
    // freeing thread, touches it afterwards.
    private var renderer: FrameRenderer?
    init(_ renderer: FrameRenderer) { self.renderer = renderer }
    func drop() { renderer = nil }
}
