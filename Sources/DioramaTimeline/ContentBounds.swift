import DioramaDocument

/// Untransformed bounds of node content, in the node's own coordinates (points): what named anchors refer to
/// when a node has no `frame`.
enum ContentBounds {
    static func of(_ content: NodeContent, children: [Rect]) -> Rect {
        switch content {
        case .group:
            guard var union = children.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
            for rect in children.dropFirst() { union = union.union(rect) }
            return union
        case .rect(let shape): return shape.rect
        case .ellipse(let e):
            return Rect(x: e.center.x - e.radiusX, y: e.center.y - e.radiusY, width: 2 * e.radiusX, height: 2 * e.radiusY)
        case .polygon(let points), .line(let points): return of(points: points)
        case .path(let data): return of(path: data)
        case .wave(let wave): return wave.rect
        // Text has no metrics without a font engine: its anchor point stands for it (give a `frame` for more).
        case .text(let text): return Rect(x: text.position.x, y: text.position.y, width: 0, height: 0)
        case .emitter(let e):
            return Rect(x: e.position.x - e.positionRange.width, y: e.position.y - e.positionRange.height,
                        width: 2 * e.positionRange.width, height: 2 * e.positionRange.height)
        case .image(let image): return image.rect
        case .lottie(let lottie): return lottie.rect
        }
    }

    static func of(points: [Point]) -> Rect {
        guard let first = points.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        var box = Box(first)
        for point in points.dropFirst() { box.include(point) }
        return box.rect
    }

    /// Exact bounds of a path: end points plus the extremes of each curve (where its derivative is zero).
    static func of(path: PathData) -> Rect {
        var box: Box?
        var current = Point(x: 0, y: 0)
        var subpathStart = current
        func include(_ point: Point) {
            if box == nil { box = Box(point) } else { box!.include(point) }
        }
        for command in path.commands {
            switch command {
            case .move(let point):
                include(point)
                current = point
                subpathStart = point
            case .line(let point):
                include(current)
                include(point)
                current = point
            case .quad(let control, let end):
                include(current)
                include(end)
                for t in quadraticExtremes(current.x, control.x, end.x) + quadraticExtremes(current.y, control.y, end.y) {
                    let u = 1 - t
                    include(Point(x: u * u * current.x + 2 * u * t * control.x + t * t * end.x,
                                  y: u * u * current.y + 2 * u * t * control.y + t * t * end.y))
                }
                current = end
            case .cubic(let c1, let c2, let end):
                include(current)
                include(end)
                for t in cubicExtremes(current.x, c1.x, c2.x, end.x) + cubicExtremes(current.y, c1.y, c2.y, end.y) {
                    let u = 1 - t
                    let (w0, w1, w2, w3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
                    include(Point(x: w0 * current.x + w1 * c1.x + w2 * c2.x + w3 * end.x,
                                  y: w0 * current.y + w1 * c1.y + w2 * c2.y + w3 * end.y))
                }
                current = end
            case .close:
                current = subpathStart
            }
        }
        return box?.rect ?? Rect(x: 0, y: 0, width: 0, height: 0)
    }

    /// Parameters in (0, 1) where a quadratic bezier coordinate has zero derivative.
    private static func quadraticExtremes(_ p0: Double, _ p1: Double, _ p2: Double) -> [Double] {
        let denominator = p0 - 2 * p1 + p2
        guard denominator != 0 else { return [] }
        let t = (p0 - p1) / denominator
        return t > 0 && t < 1 ? [t] : []
    }

    /// Parameters in (0, 1) where a cubic bezier coordinate has zero derivative.
    private static func cubicExtremes(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> [Double] {
        // B'(t)/3 = a·t² + b·t + c
        let a = -p0 + 3 * p1 - 3 * p2 + p3
        let b = 2 * (p0 - 2 * p1 + p2)
        let c = p1 - p0
        var roots: [Double] = []
        if abs(a) < 1e-12 {
            if b != 0 { roots = [-c / b] }
        } else {
            let discriminant = b * b - 4 * a * c
            if discriminant >= 0 {
                let root = discriminant.squareRoot()
                roots = [(-b + root) / (2 * a), (-b - root) / (2 * a)]
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }

    private struct Box {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        init(_ point: Point) { (minX, minY, maxX, maxY) = (point.x, point.y, point.x, point.y) }
        mutating func include(_ point: Point) {
            minX = min(minX, point.x)
            minY = min(minY, point.y)
            maxX = max(maxX, point.x)
            maxY = max(maxY, point.y)
        }
        var rect: Rect { Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) }
    }
}
