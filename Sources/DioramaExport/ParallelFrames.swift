import DioramaDocument
import DioramaRender
import DioramaTimeline
import Foundation

/// Renders frames on several threads, one `FrameRenderer` each (a renderer is not thread-safe), and hands them to
/// one consumer in order. Threads take the next frame number as they come free; a fixed set of frame buffers
/// bounds memory and keeps the renderers at most a few frames ahead of the consumer.
public final class ParallelFrames: @unchecked Sendable {
    // @unchecked Sendable: the mutable properties below are read and written only with `condition` locked;
    // `buffers` and `frameBytes` never change after `init`; a buffer's pixels are written by the one thread that
    // took it from `free` and read by the consumer after it is in `ready`, and it returns to `free` only after that.
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var nextToClaim = 0
    private var ready: [Int: UnsafeMutableRawPointer] = [:]
    private var free: [UnsafeMutableRawPointer]
    private var stopped = false
    private var failure: String?
    private var warnings: [String] = []
    private var running: Int

    private let buffers: [UnsafeMutableRawPointer]
    private let frameBytes: Int

    private init(threads: Int, frameBytes: Int) {
        self.frameBytes = frameBytes
        buffers = (0..<(2 * threads + 2)).map { _ in UnsafeMutableRawPointer.allocate(byteCount: frameBytes, alignment: 64) }
        free = buffers
        running = threads
    }

    deinit { buffers.forEach { $0.deallocate() } }

    /// Renders `frames` and calls `deliver` with each one's pixels in `pixelFormat`, in order, on the calling
    /// thread. Returns the renderers' warnings (each once). Stops early when `deliver` throws.
    public static func render(_ frames: [PlaybackPosition], document: Document, imageDirectory: URL, width: Int, height: Int,
                              language: String, pixelFormat: VideoPixelFormat = .bgra, threads: Int,
                       deliver: (Int, UnsafeRawBufferPointer) throws(VideoExportError) -> Void) throws(VideoExportError) -> [String] {
        let threads = max(1, min(threads, frames.count))
        let pipeline = ParallelFrames(threads: threads, frameBytes: pixelFormat.frameBytes(width: width, height: height))
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread.detachNewThread {
                pipeline.work(frames, document: document, imageDirectory: imageDirectory, width: width, height: height,
                              language: language, pixelFormat: pixelFormat)
                finished.leave()
            }
        }
        defer {
            pipeline.stop()
            finished.wait()
        }
        for index in frames.indices {
            let pixels = try pipeline.take(index)
            defer { pipeline.giveBack(pixels) }
            try deliver(index, UnsafeRawBufferPointer(start: pixels, count: pipeline.frameBytes))
        }
        pipeline.stop()
        finished.wait()
        return pipeline.condition.withLock { pipeline.warnings }
    }

    private func work(_ frames: [PlaybackPosition], document: Document, imageDirectory: URL, width: Int, height: Int,
                      language: String, pixelFormat: VideoPixelFormat) {
        let evaluator = SceneEvaluator(document: document)
        let renderer = FrameRenderer(imageDirectory: imageDirectory)
        // Drawn pixels, when they are converted before delivery.
        let drawing = pixelFormat == .bgra ? nil : UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64)
        defer {
            drawing?.deallocate()
            condition.withLock {
                for warning in renderer.warnings where !warnings.contains(warning) { warnings.append(warning) }
                running -= 1
            }
        }
        while true {
            condition.lock()
            while free.isEmpty && !stopped { condition.wait() }
            guard !stopped, nextToClaim < frames.count else {
                condition.unlock()
                return
            }
            let index = nextToClaim
            nextToClaim += 1
            let pixels = free.removeLast()
            condition.unlock()

            let position = frames[index]
            let snapshot = evaluator.snapshot(scene: position.scene, at: position.sceneTime.doubleValue, language: language)
            var problem: String?
            do {
                try renderer.render(snapshot, into: drawing ?? pixels, width: width, height: height, stride: width * 4)
                if let drawing { YUVConversion.convert(bgra: drawing, width: width, height: height, into: pixels) }
            } catch {
                problem = "cannot draw frame \(index): \(error)"
            }
            condition.withLock {
                if let problem {
                    failure = failure ?? problem
                    stopped = true
                }
                ready[index] = pixels
                condition.broadcast()
            }
            if problem != nil { return }
        }
    }

    /// Waits for frame `index`; throws if a renderer failed first.
    private func take(_ index: Int) throws(VideoExportError) -> UnsafeMutableRawPointer {
        condition.lock()
        defer { condition.unlock() }
        while ready[index] == nil && failure == nil { condition.wait() }
        if let failure { throw .render(failure) }
        return ready.removeValue(forKey: index)!
    }

    private func giveBack(_ pixels: UnsafeMutableRawPointer) {
        condition.withLock {
            free.append(pixels)
            condition.signal()
        }
    }

    private func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}
