/// When every animation and every Lottie node's playback of a scene starts, in scene seconds, exactly.
///
/// An animation (or a Lottie node) without `after` starts at its `delay`. One `after` a marker starts at the
/// marker's time plus its delay; one `after` another animation's event starts at the first time that event happens
/// plus its delay, the other animation's own start resolved first (dependency order); one `after` a Lottie node's
/// marker or frame at the `nth` time that frame appears (the first by default), through the node's own resolved
/// start, speed and loops: frame steps over `frameRate × speed`. `diorama check` refuses what cannot be resolved
/// (unknown names, events that never happen, loops); a scene built in code with such a reference gets the
/// animation's delay from the scene's start instead.
///
/// Resolved once per scene: the snapshot evaluator, the cue schedule and the timeline report all work on
/// `Scene.resolvingStarts()`, so they agree to the sample.
///
/// Example: doors open at 1 s for 2 s; a fade `"after": { "node": "doors", "animation": "open", "on": "end" }`
/// with `"delay": 0.5` starts at 1 + 2 + 0.5 = 3.5 s.
public struct SceneTiming: Sendable, Equatable {
    /// One animation's (or Lottie node's) resolved start.
    public struct Start: Sendable, Equatable {
        /// The node's id, when it has one.
        public var node: String?
        /// The animation's id, when it has one; nil for a Lottie node's playback.
        public var animation: String?
        /// Where it is within the scene, as a JSON path: `nodes[1].children[0].animations[2]`, or the Lottie node's
        /// own (`nodes[3]`).
        public var path: String
        /// True for a Lottie node's playback rather than an animation.
        public var isLottie = false
        /// True for the moment a Lottie node's playback stops (its `until`, in `after`); `time` is the stop.
        public var isStop = false
        public var after: StartAnchor?
        /// Scene seconds at which its first iteration starts (`SceneTiming.untapped` while it waits for a tap).
        public var time: Rational
        /// True when it starts after a tap that has not happened in this visit (`Scene.tapTimes`), directly or
        /// through what it follows: it holds its initial value, and nothing on its events fires.
        public var waitsForTap = false

        public init(node: String?, animation: String?, path: String, after: StartAnchor?, time: Rational) {
            self.node = node
            self.animation = animation
            self.path = path
            self.after = after
            self.time = time
        }
    }

    /// A relative start is refused by `diorama check` when its exact value needs a denominator above this
    /// (speeds such as 0.999999 chained several times): later sums of it must stay within 128 bits.
    public static let maximumDenominator: Int128 = 1_000_000_000

    /// The start given to an animation that waits for a tap: later than any scene lasts, so it never starts and
    /// none of its events happens within the scene.
    public static let untapped = DocumentLimits.maximumSceneDuration * Rational(2)

    /// Every animation of the scene, nodes depth-first in file order, a node's animations before its children's;
    /// a Lottie node's playback comes before its animations, followed by its stop when it has an `until`.
    public let starts: [Start]

    public init(scene: Scene) {
        var starts: [Start] = []
        var items: [StartResolver.Item] = []
        func visit(_ nodes: [Node], path: String) {
            for (index, node) in nodes.enumerated() {
                let nodePath = "\(path)[\(index)]"
                if case .lottie(let lottie) = node.content {
                    var start = Start(node: node.id, animation: nil, path: nodePath, after: lottie.playback.after, time: lottie.playback.delay)
                    start.isLottie = true
                    starts.append(start)
                    items.append(StartResolver.Item(timed: .lottie(lottie), dependency: .sceneStart))
                    if let until = lottie.playback.until {
                        var stop = Start(node: node.id, animation: nil, path: "\(nodePath).until", after: until, time: Self.untapped)
                        stop.isStop = true
                        starts.append(stop)
                        items.append(StartResolver.Item(timed: .stop, dependency: .sceneStart))
                    }
                }
                for (animationIndex, animation) in node.animations.enumerated() {
                    starts.append(Start(node: node.id, animation: animation.id, path: "\(nodePath).animations[\(animationIndex)]",
                                        after: animation.after, time: animation.delay))
                    items.append(StartResolver.Item(timed: .animation(animation), dependency: .sceneStart))
                }
                if case .group(let group) = node.content { visit(group.children, path: "\(nodePath).children") }
            }
        }
        visit(scene.nodes, path: "nodes")
        guard starts.contains(where: { $0.after != nil }) else {
            self.starts = starts
            return
        }
        let taps = scene.tapTimes
        var byName: [AnimationName: Int] = [:]
        var lottieByNode: [String: Int] = [:]
        for (index, start) in starts.enumerated() {
            if start.isLottie, let node = start.node, lottieByNode[node] == nil { lottieByNode[node] = index }
            if let node = start.node, let animation = start.animation, byName[AnimationName(node: node, animation: animation)] == nil {
                byName[AnimationName(node: node, animation: animation)] = index
            }
        }
        for index in items.indices {
            switch starts[index].after {
            case nil:
                break
            case .marker(let name):
                items[index].dependency = scene.markers.first { $0.name == name }.map { .marker($0.time) } ?? .unresolved
            case .animation(let node, let animation, let event):
                items[index].dependency = byName[AnimationName(node: node, animation: animation)].map { .animation($0, event) } ?? .unresolved
            case .tap(let node, let nth):
                let times = taps[node] ?? []
                items[index].dependency = scene.isTappable(node) ? .tap(nth >= 1 && nth <= times.count ? times[nth - 1] : nil) : .unresolved
            case .lottie(let node, let event, let nth):
                items[index].dependency = lottieByNode[node].flatMap { target in
                    guard case .lottie(let lottie) = items[target].timed, let frame = lottie.frame(of: event) else { return nil }
                    return .lottie(target, frame: frame, nth: nth)
                } ?? .unresolved
            }
        }
        let resolved = StartResolver.resolvingStops(items)
        for index in starts.indices {
            if resolved.waiting[index] {
                starts[index].time = Self.untapped
                starts[index].waitsForTap = true
                continue
            }
            // What check refuses falls back to the delay from the scene's start; a stop that cannot be resolved never comes.
            starts[index].time = resolved.starts[index] ?? (starts[index].isStop ? Self.untapped : items[index].delay)
        }
        self.starts = starts
    }

    /// The resolved stop of a Lottie start at `index` (its `until`, the next entry), nil when it plays on.
    func stop(ofLottieAt index: Int) -> Rational? {
        guard index + 1 < starts.count, starts[index + 1].isStop, starts[index + 1].time < Self.untapped else { return nil }
        return starts[index + 1].time
    }

    /// The start of the animation `animation` of the node `node`.
    public func start(node: String, animation: String) -> Rational? {
        starts.first { $0.node == node && $0.animation == animation }?.time
    }

    struct AnimationName: Hashable {
        var node: String
        var animation: String
    }
}

extension Scene {
    /// This scene with every animation's and Lottie node's start made absolute: each `delay` becomes the start in
    /// scene seconds (`SceneTiming`) and `after` is cleared. What the timeline evaluates and schedules.
    public func resolvingStarts() -> Scene {
        guard hasRelativeStarts else { return self }
        let timing = SceneTiming(scene: self)
        var next = 0
        func rewrite(_ nodes: [Node]) -> [Node] {
            nodes.map { node in
                var node = node
                if case .lottie(var lottie) = node.content {
                    lottie.playback.delay = timing.starts[next].time
                    lottie.playback.after = nil
                    if lottie.playback.until != nil {
                        lottie.playback.stop = timing.stop(ofLottieAt: next)
                        lottie.playback.until = nil
                        next += 1
                    }
                    node.content = .lottie(lottie)
                    next += 1
                }
                for index in node.animations.indices {
                    node.animations[index].delay = timing.starts[next].time
                    node.animations[index].after = nil
                    next += 1
                }
                if case .group(let group) = node.content { node.content = .group(Group(children: rewrite(group.children))) }
                return node
            }
        }
        var scene = self
        scene.nodes = rewrite(nodes)
        return scene
    }

    /// True when some animation or Lottie node starts `after` something.
    public var hasRelativeStarts: Bool {
        func search(_ nodes: [Node]) -> Bool {
            nodes.contains { node in
                if node.animations.contains(where: { $0.after != nil }) { return true }
                if case .lottie(let lottie) = node.content, lottie.playback.after != nil || lottie.playback.until != nil { return true }
                if case .group(let group) = node.content { return search(group.children) }
                return false
            }
        }
        return search(nodes)
    }
}

/// Resolves starts in dependency order with overflow-checked rationals; shared by `SceneTiming` and the decoder,
/// which turns its failures into located diagnostics.
enum StartResolver {
    enum Dependency: Equatable {
        case sceneStart
        case marker(Rational)
        /// The item at this index, on the first time of this event.
        case animation(Int, AnimationEvent)
        /// The Lottie item at this index, on the `nth` appearance of this file frame.
        case lottie(Int, frame: Int, nth: Int)
        /// A name that does not resolve (reported where it is written).
        case unresolved
        /// A node's tap (the one `after` counts) at this scene time; nil while it has not happened.
        case tap(Rational?)

        /// The item this one starts after, if it starts after another.
        var target: Int? {
            switch self {
            case .animation(let index, _), .lottie(let index, _, _): index
            default: nil
            }
        }
    }

    /// What starts: an animation, or a Lottie node's playback; or the moment a Lottie node's playback stops.
    enum Timed {
        case animation(Animation)
        case lottie(LottieContent)
        /// A Lottie node's `until`: the item before it is the Lottie's playback.
        case stop
    }

    struct Item {
        var timed: Timed
        var dependency: Dependency

        /// Its `delay`: from what it starts after, or from the scene's start.
        var delay: Rational {
            switch timed {
            case .animation(let animation): animation.delay
            case .lottie(let lottie): lottie.playback.delay
            case .stop: .zero
            }
        }
    }

    enum Failure: Equatable {
        /// The item's `after` closes this loop, listed in time order from the item back to it.
        case loop([Int])
        /// The start needs a denominator above `SceneTiming.maximumDenominator`, or more than 128 bits.
        case notExact
        /// The start is later than a scene may last.
        case tooLate(Rational)
    }

    struct Result {
        /// nil where a start cannot be resolved (its failure, or one of what it follows, is reported).
        var starts: [Rational?]
        var failures: [(item: Int, failure: Failure)]
        /// True where the start waits for a tap that has not happened (directly or through what it follows).
        var waiting: [Bool]
    }

    /// `resolve`, then again with each Lottie's resolved stop in its playback, so that a start after one of its
    /// markers or frames that would appear at or after the stop never comes (it waits, as for a tap).
    static func resolvingStops(_ items: [Item]) -> Result {
        let first = resolve(items)
        var stopped = items
        var changed = false
        for index in items.indices where index > 0 {
            guard case .stop = items[index].timed, !first.waiting[index], let stop = first.starts[index],
                  case .lottie(var lottie) = items[index - 1].timed else { continue }
            lottie.playback.stop = stop
            stopped[index - 1].timed = .lottie(lottie)
            changed = true
        }
        return changed ? resolve(stopped) : first
    }

    static func resolve(_ items: [Item]) -> Result {
        enum State { case unvisited, visiting, done }
        var state = [State](repeating: .unvisited, count: items.count)
        var stackPosition = [Int](repeating: 0, count: items.count)
        var starts = [Rational?](repeating: nil, count: items.count)
        var waiting = [Bool](repeating: false, count: items.count)
        var failures: [(item: Int, failure: Failure)] = []
        // Iterative depth-first search: a chain of thousands of animations must not exhaust the stack.
        for root in items.indices where state[root] == .unvisited {
            var stack = [root]
            while let top = stack.last {
                if state[top] == .unvisited {
                    state[top] = .visiting
                    stackPosition[top] = stack.count - 1
                    if let dependency = items[top].dependency.target {
                        if state[dependency] == .unvisited {
                            stack.append(dependency)
                            continue
                        }
                        if state[dependency] == .visiting {
                            // The stack holds dependency, x1, ..., top, each starting after the next: in time order the
                            // loop runs dependency -> top -> ... -> x1 -> dependency, closed by dependency's `after`.
                            let chain = Array(stack[stackPosition[dependency]...])
                            failures.append((dependency, .loop([dependency] + chain.dropFirst().reversed() + [dependency])))
                        }
                    }
                }
                if case .tap(nil) = items[top].dependency {
                    waiting[top] = true
                } else if let dependency = items[top].dependency.target {
                    waiting[top] = waiting[dependency] || cutByStop(top, starts: starts, items: items)
                }
                let (start, failure) = waiting[top] ? (nil, nil) : self.start(of: items[top], dependencyStarts: starts, items: items)
                starts[top] = start
                if let failure { failures.append((top, failure)) }
                state[top] = .done
                stack.removeLast()
            }
        }
        return Result(starts: starts, failures: failures, waiting: waiting)
    }

    /// True when the item starts after a Lottie's frame whose appearance comes at or after that Lottie's stop: it
    /// never appears, so the item never starts.
    private static func cutByStop(_ item: Int, starts: [Rational?], items: [Item]) -> Bool {
        guard case .lottie(let index, let frame, let nth) = items[item].dependency, let start = starts[index],
              case .lottie(let lottie) = items[index].timed, let stop = lottie.playback.stop,
              let steps = lottie.playback.stepsToAppearance(of: frame, nth: nth),
              let time = appearanceTime(steps: steps, of: lottie, startingAt: start) else { return false }
        // A Lottie's own stop on one of its frames is that frame's appearance, not cut by itself.
        if case .stop = items[item].timed, index == item - 1 { return false }
        return time >= stop
    }

    private static func start(of item: Item, dependencyStarts starts: [Rational?], items: [Item]) -> (Rational?, Failure?) {
        let anchor: Rational
        switch item.dependency {
        case .sceneStart:
            return (item.delay, nil)
        case .unresolved, .tap(nil):
            return (nil, nil)
        case .marker(let time), .tap(let time?):
            anchor = time
        case .animation(let index, let event):
            // A dependency inside a loop, or one that failed, has no start; its problem is reported on its own.
            guard let dependencyStart = starts[index], case .animation(let animation) = items[index].timed,
                  happens(event, in: animation) else { return (nil, nil) }
            guard let time = firstTime(of: event, in: animation, startingAt: dependencyStart) else { return (nil, .notExact) }
            anchor = time
        case .lottie(let index, let frame, let nth):
            // A frame that never appears that often is reported where the `after` names it.
            guard let dependencyStart = starts[index], case .lottie(let lottie) = items[index].timed,
                  let steps = lottie.playback.stepsToAppearance(of: frame, nth: nth) else { return (nil, nil) }
            guard let time = appearanceTime(steps: steps, of: lottie, startingAt: dependencyStart) else { return (nil, .notExact) }
            anchor = time
        }
        guard let start = sum(anchor, item.delay), start.denominator <= SceneTiming.maximumDenominator else {
            return (nil, .notExact)
        }
        if start > DocumentLimits.maximumSceneDuration { return (nil, .tooLate(start)) }
        return (start, nil)
    }

    // MARK: - First times of events

    /// Whether `event` ever happens to `animation`: `"from"` needs an autoreversing animation that plays at least
    /// two iterations, `"end"` a finite one, a keyframe a keyframe track that has it.
    static func happens(_ event: AnimationEvent, in animation: Animation) -> Bool {
        switch event {
        case .iterationStart, .reachesTo:
            return true
        case .reachesFrom:
            return animation.autoreverses && animation.repeatCount != .count(1)
        case .keyframe(let index):
            if case .keyframes(let keyframes) = animation.kind { return keyframes.indices.contains(index) }
            return false
        case .end:
            return animation.repeatCount != .forever
        }
    }

    /// The first time `event` happens to `animation` when its first iteration starts at `start`: iteration 0 runs
    /// forward, so `"to"` is one iteration later, `"from"` two, keyframe i `τᵢ / speed`, `"end"` n iterations.
    /// nil when it never happens, or when the exact time does not fit 128 bits.
    static func firstTime(of event: AnimationEvent, in animation: Animation, startingAt start: Rational) -> Rational? {
        guard happens(event, in: animation), animation.speed > .zero else { return nil }
        let length: Rational
        switch animation.kind {
        case .basic(_, _, _, let duration): length = duration
        case .keyframes(let keyframes): length = keyframes.last?.time ?? .zero
        }
        guard let iteration = quotient(length, animation.speed) else { return nil }
        switch event {
        case .iterationStart:
            return start
        case .reachesTo:
            return sum(start, iteration)
        case .reachesFrom:
            return product(Rational(2), iteration).flatMap { sum(start, $0) }
        case .keyframe(let index):
            guard case .keyframes(let keyframes) = animation.kind else { return nil }
            return quotient(keyframes[index].time, animation.speed).flatMap { sum(start, $0) }
        case .end:
            guard case .count(let count) = animation.repeatCount else { return nil }
            return product(Rational(count), iteration).flatMap { sum(start, $0) }
        }
    }

    /// The scene time `steps` frame steps after a Lottie playback's first iteration starts at `start`: steps over
    /// the file's frame rate times the speed. nil when it does not fit 128 bits.
    static func appearanceTime(steps: Int128, of lottie: LottieContent, startingAt start: Rational) -> Rational? {
        guard let rate = product(lottie.animation.frameRate, lottie.playback.speed), rate > .zero else { return nil }
        return quotient(Rational(steps), rate).flatMap { sum(start, $0) }
    }

    // MARK: - Rationals that report overflow instead of trapping

    static func sum(_ a: Rational, _ b: Rational) -> Rational? {
        let (left, o1) = a.numerator.multipliedReportingOverflow(by: b.denominator)
        let (right, o2) = b.numerator.multipliedReportingOverflow(by: a.denominator)
        let (numerator, o3) = left.addingReportingOverflow(right)
        let (denominator, o4) = a.denominator.multipliedReportingOverflow(by: b.denominator)
        return o1 || o2 || o3 || o4 ? nil : Rational(numerator, denominator)
    }

    static func product(_ a: Rational, _ b: Rational) -> Rational? {
        let (numerator, o1) = a.numerator.multipliedReportingOverflow(by: b.numerator)
        let (denominator, o2) = a.denominator.multipliedReportingOverflow(by: b.denominator)
        return o1 || o2 ? nil : Rational(numerator, denominator)
    }

    static func quotient(_ a: Rational, _ b: Rational) -> Rational? {
        guard b.numerator != 0 else { return nil }
        return product(a, Rational(b.denominator, b.numerator))
    }
}
