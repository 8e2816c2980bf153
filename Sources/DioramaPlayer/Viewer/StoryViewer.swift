import DioramaDocument

/// The story-viewer interface as a pure state machine: input events and a monotonic clock in,
/// intents for the player out (`ShowIntent`), plus the visual state the overlay and page slide are drawn from.
///
/// Clicks on the right half go to the next scene, on the left half to the previous one; a press held
/// for `holdDelay` seconds pauses until released; a horizontal drag moves the page with the pointer and,
/// released past `pageThreshold` of the width, pages with a spring, otherwise springs back.
/// Times are monotonic seconds; positions are canvas points.
public struct StoryViewer: Sendable, Equatable {
    /// Seconds a press must last before it pauses playback.
    public var holdDelay: Double = 0.25
    /// Points the pointer must travel horizontally before a press becomes a drag.
    public var dragThreshold: Double = 10
    /// Fraction of the canvas width a drag must pass to page.
    public var pageThreshold: Double = 0.25
    /// How much of the pointer's travel the page follows where there is no page to go to.
    public var edgeResistance: Double = 0.3

    public var layout: OverlayLayout
    /// Whether the progress bars, title and page dots are drawn (`H`, `--no-ui`).
    public var showsOverlay: Bool
    /// Whether the key help is drawn (`?`).
    public var showsHelp = false

    private enum Gesture: Sendable, Equatable {
        /// A press on a page dot: selects that scene when released on it.
        case dot(Int)
        /// `heldSince`: the monotonic time the press was recognised as a hold.
        case press(start: Point, startTime: Double, current: Point, dragging: Bool, heldSince: Double?)
    }

    private var gesture: Gesture?
    private var settle: PageSpring?

    public init(layout: OverlayLayout, showsOverlay: Bool = true) {
        self.layout = layout
        self.showsOverlay = showsOverlay
    }

    /// Whether a press or drag is in progress.
    public var isPressed: Bool { gesture != nil }

    /// Whether a held press is currently pausing playback.
    public var isHolding: Bool { heldSince != nil }

    /// Seconds the hold's feedback takes to fade in.
    public var holdFade: Double = 0.15

    private var heldSince: Double? {
        if case .press(_, _, _, _, let heldSince) = gesture { return heldSince }
        return nil
    }

    /// How far the feedback of a held press has faded in at monotonic `time`: 0 without a hold, rising to 1 over
    /// `holdFade` seconds from when the hold was recognised.
    public func holdFeedback(at time: Double) -> Double {
        guard let heldSince else { return 0 }
        return min(max((time - heldSince) / holdFade, 0), 1)
    }

    /// How far the current page is moved right of its rest position, in points, at monotonic `time`
    /// (negative: moved left). The page at `offset - width` or `offset + width` shows beside it.
    public func pageOffset(at time: Double, context: ViewerContext) -> Double {
        if case .press(let start, _, let current, true, _) = gesture {
            return dragOffset(start: start, current: current, context: context)
        }
        guard let settle, !settle.isSettled(at: time) else { return 0 }
        return settle.offset(at: time)
    }

    /// Whether anything is still moving at `time` (a drag or a settling page), so frames must keep coming.
    public func isAnimating(at time: Double) -> Bool {
        if case .press(_, _, _, true, _) = gesture { return true }
        if let settle { return !settle.isSettled(at: time) }
        return holdFeedback(at: time) < 1 && isHolding
    }

    /// Advances timers to monotonic `time`: a press held long enough begins a hold.
    public mutating func advance(to time: Double) -> [ShowIntent] {
        if let settle, settle.isSettled(at: time) { self.settle = nil }
        guard case .press(let start, let startTime, let current, let dragging, nil) = gesture,
              !dragging, time - startTime >= holdDelay else { return [] }
        gesture = .press(start: start, startTime: startTime, current: current, dragging: false, heldSince: time)
        return [.holdBegan]
    }

    /// Handles one input at monotonic `time`; returns the intents it causes, in order.
    public mutating func handle(_ input: ViewerInput, at time: Double, context: ViewerContext) -> [ShowIntent] {
        var intents = advance(to: time)
        switch input {
        case .key(let key):
            intents += handle(key, context: context)
        case .pointerDown(let point):
            if showsOverlay, let dot = layout.pageDot(at: point) {
                gesture = .dot(dot)
            } else {
                // A press catches a settling page where it is, as a finger would.
                let caught = pageOffset(at: time, context: context)
                settle = nil
                let start = Point(x: point.x - caught, y: point.y)
                gesture = .press(start: start, startTime: time, current: point, dragging: caught != 0, heldSince: nil)
            }
        case .pointerMoved(let point):
            if case .press(let start, let startTime, _, let dragging, let heldSince) = gesture {
                let drags = dragging || abs(point.x - start.x) >= dragThreshold
                gesture = .press(start: start, startTime: startTime, current: point, dragging: drags, heldSince: heldSince)
            }
        case .pointerUp(let point):
            intents += release(at: point, time: time, context: context)
        }
        return intents
    }

    /// Whether releasing the pointer at `point` would be a click (a press that neither dragged nor held), which a
    /// tappable node under it takes before paging does.
    public func releaseIsClick(at point: Point) -> Bool {
        guard case .press(let start, _, _, let dragging, let heldSince) = gesture else { return false }
        return !dragging && heldSince == nil && abs(point.x - start.x) < dragThreshold
    }

    /// Ends the press without paging: the player used its click to tap a node.
    public mutating func cancelPress() {
        gesture = nil
    }

    private mutating func release(at point: Point, time: Double, context: ViewerContext) -> [ShowIntent] {
        defer { gesture = nil }
        switch gesture {
        case nil:
            return []
        case .dot(let index):
            return layout.pageDot(at: point) == index ? [.scene(index)] : []
        case .press(let start, _, _, let dragging, let heldSince):
            let holding = heldSince != nil
            var intents: [ShowIntent] = holding ? [.holdEnded] : []
            let drags = dragging || abs(point.x - start.x) >= dragThreshold
            if drags {
                let offset = dragOffset(start: start, current: point, context: context)
                let width = layout.canvas.width
                if offset <= -pageThreshold * width, context.hasNext {
                    intents.append(.next)
                    settle = PageSpring(startOffset: offset + width, startTime: time)
                } else if offset >= pageThreshold * width, context.hasPrevious {
                    intents.append(.previous)
                    settle = PageSpring(startOffset: offset - width, startTime: time)
                } else if offset != 0 {
                    settle = PageSpring(startOffset: offset, startTime: time)
                }
            } else if !holding {
                intents.append(point.x >= layout.canvas.width / 2 ? .next : .previous)
            }
            return intents
        }
    }

    /// Slides the page of a scene change that no drag started (a key, a click on a half, a dot, a controller, the
    /// scene's end): the page coming in starts one width beside where the current page is (`forward`: on its right)
    /// and settles with the drag's spring, so a slide under way is retargeted without a jump and a press catches it.
    /// A drag in progress is let go (the keys moved the page).
    public mutating func slideIn(forward: Bool, at time: Double, context: ViewerContext) {
        let offset = pageOffset(at: time, context: context)
        if case .press(_, _, _, true, _) = gesture { gesture = nil }
        let width = layout.canvas.width
        settle = PageSpring(startOffset: offset + (forward ? width : -width), startTime: time, response: SceneTransition.response)
    }

    private func dragOffset(start: Point, current: Point, context: ViewerContext) -> Double {
        let travel = current.x - start.x
        if travel < 0, !context.hasNext { return travel * edgeResistance }
        if travel > 0, !context.hasPrevious { return travel * edgeResistance }
        return travel
    }

    private mutating func handle(_ key: ViewerKey, context: ViewerContext) -> [ShowIntent] {
        switch key {
        case .space: return [.togglePause]
        case .right: return [.next]
        case .left: return [.previous]
        case .home: return [.restart]
        case .digit(let digit):
            return (1...9).contains(digit) && digit <= context.sceneCount ? [.scene(digit - 1)] : []
        case .l: return [.cycleLanguage]
        case .m: return [.toggleMute]
        case .plus: return [.volumeUp]
        case .minus: return [.volumeDown]
        case .f: return [.toggleFullscreen]
        case .r: return [.reload]
        case .q, .escape:
            // Escape first closes the help, as dialogs do.
            if key == .escape, showsHelp {
                showsHelp = false
                return []
            }
            return [.quit]
        case .questionMark:
            showsHelp.toggle()
            return []
        case .h:
            showsOverlay.toggle()
            return []
        }
    }
}
