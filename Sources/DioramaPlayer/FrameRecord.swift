import DioramaDocument
import DioramaTimeline

/// Seconds one frame cost, by stage.
public struct FrameCost: Sendable, Equatable {
    /// Evaluating the scene and composing it with the overlay into one snapshot.
    public var compose: Double = 0
    /// Drawing the snapshot into the texture's pixels.
    public var render: Double = 0
    /// Unlocking the texture (the upload) and copying it to the window.
    public var upload: Double = 0
    /// Presenting (includes waiting for vertical blank when vsync is on).
    public var present: Double = 0

    public var total: Double { compose + render + upload + present }
}

/// The frame loop's own state, apart from the show's (`ShowState`): frames presented and skipped, what the last one
/// cost and showed, and what the next one needs (whether to draw again, how far ahead of the heard clock to draw).
public struct FrameRecord {
    /// Frames presented since the start.
    public internal(set) var presented = 0
    /// Identical frames in a row that were not drawn again (paused, nothing moving).
    public internal(set) var skipped = 0
    /// Whether the last `step()` found nothing new to draw.
    public internal(set) var lastSkipped = false
    /// Seconds spent on the last frame: evaluating and composing its snapshot, rendering it into the
    /// texture, uploading (unlock and copy) and presenting.
    public internal(set) var lastCost = FrameCost()
    /// Monotonic seconds when the first frame (the playlist's start, drawn while the sounds load) was presented.
    public internal(set) var firstTime: Double?
    /// Monotonic seconds when the first frame of playback (sound running) was presented.
    public internal(set) var firstPlayingTime: Double?
    /// The snapshot of the last frame and the window rectangle it was drawn in, in pixels.
    public internal(set) var last: (snapshot: Snapshot, viewport: Rect)?
    /// The last frame read back (`capturesFrames`): ARGB8888 pixels of the whole drawable.
    public internal(set) var captured: (pixels: [UInt32], width: Int, height: Int)?
    /// Monotonic seconds when the frame being made started.
    var start: Double?
    /// True when the window's last frame was drawn by the player's renderer (not the first frame's copy of a
    /// background render, nor cleared after a failure), so it may draw only what changed over it.
    var rendererDrewLast = false
    /// Set when the window must be drawn again although the frame did not change (resized, uncovered).
    var needsDraw = true
    /// Frames of the audio clock that pass between reading the clock and presenting the frame drawn for it.
    var presentationLead = 0.0

    /// Learns how far ahead to draw from the heard clock read before drawing and after presenting: an average over a
    /// few frames, at most a tenth of a second.
    mutating func observePresentation(heardBefore: Double, heardAfter: Double, sampleRate: Int) {
        guard heardAfter > heardBefore else { return }
        presentationLead = min(max(0.8 * presentationLead + 0.2 * (heardAfter - heardBefore), 0), Double(sampleRate) / 10)
    }

    /// Seconds to wait at monotonic `now` so that a loop without working vsync (software renderer, no display refresh),
    /// or holding a still picture, stays near 60 frames per second; nil for none (`--no-vsync`: frames come as fast as
    /// they can).
    func pacingDelay(now: Double, vsync: Bool) -> Double? {
        guard vsync || lastSkipped, let start else { return nil }
        let interval = 1.0 / 60 * 0.97
        let elapsed = now - start
        return elapsed < interval ? interval - elapsed : nil
    }
}
