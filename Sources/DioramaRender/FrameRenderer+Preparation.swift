import DioramaTimeline

// A scene prepared ahead: the first frame of a scene pays for its art (SVG drawings rasterized, pictures decoded,
// Lottie files parsed, fonts loaded and texts laid out, particle sprites made), up to hundreds of milliseconds at 4K.
// A renderer made for the next scene draws its first frames on another thread before they are needed, and the frame
// loop then draws with it: its caches already hold that art.

extension FrameRenderer {
    /// Draws `frames` at `width`×`height` into pixels of its own, in order, and keeps what drawing them left: the caches
    /// of art, and the pictures of its pages with their still prefixes (so a page shown next that differs little from
    /// the last one prepared draws only what changed). The frame itself is not kept: the pixels it is drawn into go.
    /// With `threads` above 1, every part is first drawn by this renderer and each helper in turn on the calling
    /// thread, so that whichever thread draws a part later finds its art; those pictures are thrown away (parts drawn
    /// over one another) and the frames drawn again on the threads.
    /// Call it on the thread that owns the renderer until it is handed to the frame loop.
    public func prepare(_ frames: [Snapshot], width: Int, height: Int) throws {
        guard width > 0, height > 0, !frames.isEmpty else { return }
        let stride = width * 4
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        defer {
            // The pixels go: the next frame is not drawn over them.
            forgetTarget()
            pixels.deallocate()
        }
        if threads > 1 {
            drawsPartsWithEveryWorker = true
            defer {
                drawsPartsWithEveryWorker = false
                forgetFrames()
            }
            for frame in frames {
                try render(frame, into: pixels, width: width, height: height, stride: stride, holdsLastFrame: false)
            }
        }
        for (index, frame) in frames.enumerated() {
            if index == frames.count - 1 {
                // The moments prepared jump about (the art of the scene's first second, then its start), so the frames
                // before the last were drawn whole; the last looks for what changed, and so measures where its nodes
                // are: the frame shown next, which follows it closely, then draws only what changed.
                history.wholeFrames = 0
                for picture in pagePictures.values { picture.history.wholeFrames = 0 }
            }
            // These pixels hold the last frame drawn: no copy of it is kept (a frame's memory, 33 MB at 4K).
            try render(frame, into: pixels, width: width, height: height, stride: stride, holdsLastFrame: true)
        }
    }

    /// What drawing has taken from files and rasterized so far, on this renderer and its helpers.
    public var artWork: ArtWork {
        let renderers = threads > 1 ? [self] + helpers : [self]
        return renderers.reduce(into: ArtWork()) { work, renderer in
            work.decodedPictures += renderer.statistics.decodedPictures
            work.loadedDrawings += renderer.statistics.loadedDrawings
            work.rasterizedDrawings += renderer.vectorRasters.misses
            work.laidOutTexts += renderer.textLayouts.made
            work.madeSprites += renderer.sprites.made
        }
    }
}

/// Work a frame's art costs the first time a renderer meets it, counted from the renderer's making: a scene's first
/// frame drawn by a renderer that prepared it adds none of it.
public struct ArtWork: Equatable, Sendable, CustomStringConvertible {
    /// PNG pictures decoded.
    public var decodedPictures = 0
    /// SVG and Lottie files read and parsed.
    public var loadedDrawings = 0
    /// SVG drawings (or elements) rasterized at a size.
    public var rasterizedDrawings = 0
    /// Texts laid out with pango (fonts loaded on the first).
    public var laidOutTexts = 0
    /// Particle sprites drawn.
    public var madeSprites = 0

    public init() {}

    public var description: String {
        "\(decodedPictures) pictures decoded, \(loadedDrawings) drawings loaded, \(rasterizedDrawings) rasterized, "
            + "\(laidOutTexts) texts laid out, \(madeSprites) sprites"
    }
}
