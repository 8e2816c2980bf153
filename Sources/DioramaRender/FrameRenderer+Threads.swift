import CCairo
import DioramaTimeline
import Dispatch
import Foundation

// One frame drawn on several threads: the renderer and its helpers (each with its own cairo contexts, caches and
// font map) draw disjoint parts of the frame at once, each over the shared pixels through a cairo surface of its own.
// The snapshot is evaluated once, by the caller.
//
// Why the pixels stay byte-identical: each part is drawn exactly as the single-threaded renderer draws a damage
// area (FrameDamage.swift): the still prefix copied in (but for rows an opaque band hides, Occlusion.swift), then
// the nodes reaching into it, clipped to it. Clip-safe
// nodes may be cut anywhere, so areas holding only those are cut into horizontal pieces; an area holding a
// clip-dependent node is drawn whole by one thread, as it would be without threads. Parts never overlap, so no
// thread writes another's pixels.

extension FrameRenderer {
    /// A part of a frame: the still prefix copied into `copy` (when set; but for the rows an opaque band among `nodes`
    /// hides), then `nodes` drawn clipped to `area` (nil: the whole canvas, nothing hidden).
    struct FramePart {
        var copy: PixelRect?
        var area: PixelRect?
        var nodes: ArraySlice<NodeSnapshot>
    }

    /// Rows per piece at least: below that, each node's set-up costs more than the rows it saves.
    static let minimumPieceRows = 32

    /// `area` cut into up to `count` horizontal pieces of near-equal height.
    static func pieces(of area: PixelRect, count: Int) -> [PixelRect] {
        let count = max(1, min(count, area.height / minimumPieceRows))
        return (0..<count).map { piece in
            let top = area.y + piece * area.height / count, bottom = area.y + (piece + 1) * area.height / count
            return PixelRect(x: area.x, y: top, width: area.width, height: bottom - top)
        }
    }

    /// The damage areas of the last frame drawn again on the threads (see `drawChanges`).
    func drawAreasOnThreads(_ snapshot: Snapshot, areas: [PixelRect], prefix: StaticPrefix, footprints: [NodeFootprint],
                            onto pixels: UnsafeMutableRawPointer, stride: Int) throws {
        var parts: [FramePart] = []
        for area in areas {
            let indices = snapshot.nodes.indices.filter { index in
                index >= prefix.nodes.count && footprints[index].box.map { $0.intersects(area) } == true
            }
            let cuttable = indices.allSatisfy { footprints[$0].clipSafe }
            for piece in cuttable ? Self.pieces(of: area, count: threads * 2) : [area] {
                parts.append(FramePart(copy: piece, area: piece, nodes: Self.nodes(indices, of: snapshot, footprints: footprints, reaching: piece)))
            }
        }
        // The largest first, so that the last parts to start are small ones.
        parts.sort { $0.area!.area > $1.area!.area }
        try draw(parts, of: snapshot, prefix: prefix, into: pixels, stride: stride, width: prefix.key.width, height: prefix.key.height)
    }

    /// The whole frame drawn on the threads: the still prefix copied in and the nodes after it drawn in horizontal
    /// pieces of the frame, but for each clip-dependent node, drawn whole by one thread between the others' pieces.
    func drawWholeOnThreads(_ snapshot: Snapshot, prefix: StaticPrefix, footprints: [NodeFootprint], ctm: cairo_matrix_t,
                            into pixels: UnsafeMutableRawPointer, stride: Int) throws {
        let width = prefix.key.width, height = prefix.key.height
        let frame = PixelRect(x: 0, y: 0, width: width, height: height)
        let bands = Self.pieces(of: frame, count: threads * 2)
        func cuttable(_ index: Int) -> Bool {
            footprints.count == snapshot.nodes.count ? footprints[index].clipSafe : isClipSafe(snapshot.nodes[index], parent: ctm)
        }
        var copied = false
        var start = prefix.nodes.count
        // The costliest bands of the last frame first (each run of bands by itself: a clip-dependent node drawn whole
        // splits the frame into runs): the threads take parts in order, and a costly band taken last keeps the others
        // waiting (the peer's bands took 0.23 to 0.42 ms; in order, the frame's wall clock was a fifth over the even
        // share). Frames change little from one to the next. The order changes no pixel.
        var runs: [[Double]] = []
        defer { history.bandCosts = runs }
        /// Draws the nodes from `start` to `end` (clip-safe) in bands, with the prefix when not copied yet.
        func drawBands(to end: Int) throws {
            guard start < end || !copied else { return }
            let order = Self.handOutOrder(bands: bands.count, lastCosts: runs.count < history.bandCosts.count ? history.bandCosts[runs.count] : nil)
            let costs = PartCosts(count: bands.count)
            defer { runs.append(costs.values) }
            let parts = order.map { index in
                let band = bands[index]
                return FramePart(copy: copied ? nil : band, area: band,
                                 nodes: footprints.count == snapshot.nodes.count
                                     ? Self.nodes(Array(start..<end), of: snapshot, footprints: footprints, reaching: band)
                                     : snapshot.nodes[start..<end])
            }
            try draw(parts, of: snapshot, prefix: prefix, into: pixels, stride: stride, width: width, height: height,
                     costs: (costs, order))
            copied = true
        }
        for index in prefix.nodes.count..<snapshot.nodes.count where !cuttable(index) {
            try drawBands(to: index)
            try draw([FramePart(copy: nil, area: nil, nodes: snapshot.nodes[index...index])], of: snapshot, prefix: prefix,
                     into: pixels, stride: stride, width: width, height: height)
            start = index + 1
        }
        try drawBands(to: snapshot.nodes.count)
    }

    /// The order `bands` bands are handed out in: costliest first by `lastCosts` (what each took in the last frame),
    /// top to bottom when there is none for as many bands. Equal costs keep their order.
    static func handOutOrder(bands: Int, lastCosts: [Double]?) -> [Int] {
        guard let costs = lastCosts, costs.count == bands else { return Array(0..<bands) }
        return (0..<bands).sorted { costs[$0] > costs[$1] || costs[$0] == costs[$1] && $0 < $1 }
    }

    /// The nodes at `indices` whose footprints reach into `piece`, in order: a piece need not set up the nodes that
    /// paint nothing in it (a band of the frame, the falling circles of another band).
    static func nodes(_ indices: [Int], of snapshot: Snapshot, footprints: [NodeFootprint], reaching piece: PixelRect)
        -> ArraySlice<NodeSnapshot> {
        ArraySlice(indices.lazy.filter { footprints[$0].box?.intersects(piece) == true }.map { snapshot.nodes[$0] })
    }

    /// Copies `frame` into `pixels` (rows of `stride` bytes) on the threads.
    func copyOnThreads(_ frame: StaticPrefix, into pixels: UnsafeMutableRawPointer, stride: Int) {
        let bands = Self.pieces(of: PixelRect(x: 0, y: 0, width: frame.key.width, height: frame.key.height), count: threads)
        let shared = UncheckedSendable((frame, Pixels(pointer: pixels)))
        DispatchQueue.concurrentPerform(iterations: bands.count) { band in
            let (frame, pixels) = shared.value
            frame.copy(into: pixels.pointer, stride: stride, area: bands[band])
        }
    }

    /// Draws `parts` (which do not overlap) on up to `threads` threads, each taking the next part as it finishes one.
    /// A single part is drawn by this renderer, whose helpers then draw its siblings in layers.
    /// With `costs`, what each part took is added to the slot its index in `slots` names.
    private func draw(_ parts: [FramePart], of snapshot: Snapshot, prefix: StaticPrefix, into pixels: UnsafeMutableRawPointer,
                      stride: Int, width: Int, height: Int, costs: (PartCosts, slots: [Int])? = nil) throws {
        let errors = FirstError()
        let target = Pixels(pointer: pixels)
        func draw(_ part: FramePart, by renderer: FrameRenderer) {
            let occlusion = part.area.flatMap {
                renderer.occlusion(of: part.nodes, in: $0, canvas: snapshot.canvas, width: width, height: height)
            }
            if let copy = part.copy {
                prefix.copy(into: target.pointer, stride: stride, area: occlusion.map { copy.rows(above: $0.prefixBottom) } ?? copy)
            }
            guard !part.nodes.isEmpty else { return }
            let surface = cairo_image_surface_create_for_data(target.pointer.assumingMemoryBound(to: UInt8.self),
                                                              CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))!
            do {
                try renderer.drawFrame(snapshot, nodes: part.nodes, on: surface, clearing: false, area: part.area,
                                       bottoms: occlusion?.bottoms)
            } catch {
                errors.record(error)
            }
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
        /// Draws part `index`, timing it when asked to.
        func draw(_ index: Int, by renderer: FrameRenderer) {
            guard let (costs, slots) = costs else { return draw(parts[index], by: renderer) }
            let start = DispatchTime.now().uptimeNanoseconds
            draw(parts[index], by: renderer)
            costs.add(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, at: slots[index])
        }
        if parts.count == 1 {
            helpersIdle = true
            defer { helpersIdle = false }
            draw(0, by: self)
        } else {
            onThreads(parts.count) { renderer, index in draw(index, by: renderer) }
        }
        if let error = errors.error { throw error }
    }

    /// Runs `body` for 0..<count on up to `threads` threads, each with its own renderer (this one or a helper) and
    /// taking the next index as it finishes one; then gathers the helpers' warnings.
    func onThreads(_ count: Int, _ body: (FrameRenderer, Int) -> Void) {
        let workers = [self] + helpers
        let next = PartCounter()
        // The helpers are busy: nothing drawn now may hand them more.
        let idle = helpersIdle
        helpersIdle = false
        defer { helpersIdle = idle }
        if drawsPartsWithEveryWorker {
            // Preparing a scene ahead (FrameRenderer+Preparation.swift): on this thread alone, every part by every
            // renderer, so that each one's caches hold what any part needs, whichever thread draws it later.
            for index in 0..<count {
                for worker in workers { body(worker, index) }
            }
        } else {
            withoutActuallyEscaping(body) { body in
                nonisolated(unsafe) let body = body, workers = workers
                DispatchQueue.concurrentPerform(iterations: min(workers.count, count)) { worker in
                    while let index = next.take(below: count) { body(workers[worker], index) }
                }
            }
        }
        for helper in helpers where !helper.warnings.isEmpty {
            for warning in helper.warnings { warnOnce(warning) }
            helper.clearWarnings()
        }
    }
}

/// Pixels shared by the drawing threads (each writes only its own parts).
private struct Pixels: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// What parts of a frame took, by slot.
final class PartCosts: @unchecked Sendable {
    // @unchecked Sendable: each slot is added to by the one thread drawing its part, and the values are read after
    // the threads are done (`concurrentPerform` returns once every iteration has); the lock guards the array's
    // storage itself all the same.
    private let lock = NSLock()
    private var slots: [Double]

    init(count: Int) {
        slots = Array(repeating: 0, count: count)
    }

    func add(_ milliseconds: Double, at slot: Int) {
        lock.lock()
        slots[slot] += milliseconds
        lock.unlock()
    }

    var values: [Double] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}

/// Hands out part numbers to the drawing threads, each once.
private final class PartCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    func take(below count: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}

/// The first error met by any drawing thread.
private final class FirstError: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Error?
    func record(_ error: Error) {
        lock.lock()
        if first == nil { first = error }
        lock.unlock()
    }
    var isSet: Bool { error != nil }
    var error: Error? {
        lock.lock()
        defer { lock.unlock() }
        return first
    }
}
