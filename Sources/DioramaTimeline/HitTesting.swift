import DioramaDocument
import Foundation

// Which nodes a point in the canvas lands on, as the player needs for taps: a pure function of a snapshot.

extension Snapshot {
    /// The ids of the nodes whose visible shape contains `point` (canvas coordinates, points), topmost first.
    ///
    /// A node is hit where it paints: a shape's fill (by the non-zero rule, trimmed as drawn; a fully clear
    /// colour paints nothing) or its stroke (counted as a solid line with round ends and joins), an image's rect, a text's `frame`
    /// (text has no metrics here, so text without a frame is never hit). Emitters are never hit. Transforms,
    /// every clip shape on the way down and opacity 0 (of the node or an ancestor) are honoured; blur, masks
    /// and shadows do not change the shape. A group is hit when one of its children is; it comes right after
    /// the ids of its topmost hit child, so the list reads from what is seen at the point down to what lies
    /// beneath, each node after those it holds. Nodes without an id are hit too, but not listed.
    /// Curves are flattened to within 0.5 point of the true outline on the canvas.
    public func hitTest(at point: Point) -> [String] {
        var ids: [String] = []
        for node in nodes.reversed() {
            if let hit = HitTester.hits(node, at: point, scale: 1) { ids += hit }
        }
        return ids
    }
}

enum HitTester {
    /// The largest distance, in canvas points, between a curve and the polygon that stands for it.
    static let tolerance = 0.5

    /// The ids hit within `node` (topmost first), or nil when the point misses it. `point` is in the node's
    /// parent's coordinates; `scale` is the most the parent's coordinates are enlarged on the canvas.
    static func hits(_ node: NodeSnapshot, at point: Point, scale: Double) -> [String]? {
        guard node.opacity > 0, let inverse = node.transform.inverted() else { return nil }
        let local = inverse.apply(to: point)
        let scale = scale * node.transform.largestScale
        // Within 0.5 canvas points: fewer local points where the node is enlarged.
        let tolerance = Self.tolerance / max(scale, 1e-9)
        if let clip = node.clipShape, !fillContains(clip, local, tolerance: tolerance) { return nil }
        switch node.content {
        case .group(let children):
            var ids: [String] = []
            var hitAny = false
            for child in children.reversed() {
                guard let childIDs = hits(child, at: local, scale: scale) else { continue }
                ids += childIDs
                if !hitAny, let id = node.id { ids.append(id) }
                hitAny = true
            }
            return hitAny ? ids : nil
        case .shape(let shape):
            return shapeContains(shape, local, tolerance: tolerance) ? node.id.map { [$0] } ?? [] : nil
        case .image(let image):
            return image.rect.standardized.contains(local) ? node.id.map { [$0] } ?? [] : nil
        case .lottie(let lottie):
            return lottie.rect.standardized.contains(local) ? node.id.map { [$0] } ?? [] : nil
        case .text:
            return node.bounds.standardized.contains(local) ? node.id.map { [$0] } ?? [] : nil
        case .particles:
            return nil
        case .projected(let projection, let inner):
            // Where the turned drawing shows the point: the page point beneath it.
            guard let source = projection.inverseApply(to: local), let ids = hits(inner, at: source, scale: scale) else { return nil }
            return ids + (node.id.map { [$0] } ?? [])
        case .page(let page):
            // Taps reach a scene's own snapshot; a page hit counts as the page.
            guard local.x >= 0, local.y >= 0, local.x <= page.canvas.width, local.y <= page.canvas.height else { return nil }
            return node.id.map { [$0] } ?? []
        }
    }

    // MARK: Shapes

    static func shapeContains(_ shape: ShapeSnapshot, _ point: Point, tolerance: Double) -> Bool {
        let from = min(max(shape.trimFrom, 0), 1), to = min(max(shape.trimTo, 0), 1)
        guard to > from else { return false }
        let trimmed = from > 0 || to < 1
        let fills = shape.fill.map(isVisible) ?? false
        let strokeWidth = shape.stroke.flatMap { $0.width > 0 && isVisible($0.paint) ? $0.width : nil }
        guard fills || strokeWidth != nil else { return false }
        // Rects and ellipses fill exactly; everything else goes through the flattened outline.
        if fills, !trimmed, fillContains(shape.geometry, point, tolerance: tolerance) { return true }
        guard trimmed || strokeWidth != nil else { return false }
        var lines = Outline.polylines(of: shape.geometry, tolerance: tolerance)
        if trimmed { lines = Outline.trimmed(lines, from: from, to: to) }
        if fills, trimmed, Outline.windingNumber(of: point, in: lines) != 0 { return true }
        if let strokeWidth { return Outline.distance(from: point, to: lines) <= strokeWidth / 2 }
        return false
    }

    /// Whether the filled outline (non-zero rule) contains the point.
    static func fillContains(_ geometry: Geometry, _ point: Point, tolerance: Double) -> Bool {
        switch geometry {
        case .rect(let rect, let cornerRadius):
            let box = rect.standardized
            guard box.width > 0, box.height > 0, box.contains(point) else { return false }
            let radius = min(max(cornerRadius, 0), box.width / 2, box.height / 2)
            guard radius > 0 else { return true }
            // Inside the box; outside a corner's quarter circle only in that corner's square.
            let cx = min(max(point.x, box.x + radius), box.x + box.width - radius)
            let cy = min(max(point.y, box.y + radius), box.y + box.height - radius)
            let (dx, dy) = (point.x - cx, point.y - cy)
            return dx * dx + dy * dy <= radius * radius
        case .ellipse(let center, let radiusX, let radiusY):
            guard radiusX > 0, radiusY > 0 else { return false }
            let (u, v) = ((point.x - center.x) / radiusX, (point.y - center.y) / radiusY)
            return u * u + v * v <= 1
        case .path:
            return Outline.windingNumber(of: point, in: Outline.polylines(of: geometry, tolerance: tolerance)) != 0
        }
    }

    /// A paint that leaves some colour on the canvas.
    static func isVisible(_ paint: Paint) -> Bool {
        switch paint {
        case .solid(let color): color.alpha > 0
        case .linear(let stops, _, _), .radial(let stops, _, _, _), .angular(let stops, _, _, _): stops.contains { $0.color.alpha > 0 }
        }
    }
}

/// An outline flattened to polylines, in the order and from the starting points the renderer draws it
/// (so trims cut the same stretch): a closed subpath ends with its first point again.
enum Outline {
    struct Polyline: Equatable {
        var points: [Point]
    }

    static func polylines(of geometry: Geometry, tolerance: Double) -> [Polyline] {
        switch geometry {
        case .rect(let rect, let cornerRadius):
            let box = rect.standardized
            guard box.width > 0, box.height > 0 else { return [] }
            let (minX, minY, maxX, maxY) = (box.x, box.y, box.x + box.width, box.y + box.height)
            let radius = min(max(cornerRadius, 0), box.width / 2, box.height / 2)
            guard radius > 0 else {
                return [Polyline(points: [Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY),
                                          Point(x: minX, y: maxY), Point(x: minX, y: minY)])]
            }
            let quarter = Double.pi / 2
            var points: [Point] = []
            for (cx, cy, start) in [(maxX - radius, minY + radius, -quarter), (maxX - radius, maxY - radius, 0),
                                    (minX + radius, maxY - radius, quarter), (minX + radius, minY + radius, 2 * quarter)] {
                points += arc(center: Point(x: cx, y: cy), radiusX: radius, radiusY: radius, from: start, span: quarter,
                              tolerance: tolerance)
            }
            points.append(points[0])
            return [Polyline(points: points)]
        case .ellipse(let center, let radiusX, let radiusY):
            guard radiusX > 0, radiusY > 0, radiusX.isFinite, radiusY.isFinite else { return [] }
            var points = arc(center: center, radiusX: radiusX, radiusY: radiusY, from: 0, span: 2 * .pi, tolerance: tolerance)
            points[points.count - 1] = points[0]
            return [Polyline(points: points)]
        case .path(let data):
            return polylines(of: data, tolerance: tolerance)
        }
    }

    /// Points along an elliptical arc, clockwise on screen, both ends included.
    private static func arc(center: Point, radiusX: Double, radiusY: Double, from start: Double, span: Double,
                            tolerance: Double) -> [Point] {
        let radius = max(radiusX, radiusY)
        // A chord of angle δ strays radius·(1 − cos(δ/2)) from its arc.
        let step = tolerance >= radius ? Double.pi / 2 : 2 * acos(1 - tolerance / radius)
        let count = min(4096, max(2, Int((span / step).rounded(.up))))
        return (0...count).map { index in
            let angle = start + span * Double(index) / Double(count)
            return Point(x: center.x + radiusX * cos(angle), y: center.y + radiusY * sin(angle))
        }
    }

    private static func polylines(of data: PathData, tolerance: Double) -> [Polyline] {
        var lines: [Polyline] = []
        var current: [Point] = []
        var position = Point(x: 0, y: 0), start = position
        var hasPoint = false
        func finish() {
            if current.count > 1 { lines.append(Polyline(points: current)) }
            current = []
        }
        /// As cairo does: a segment after a close starts a new subpath where the closed one began,
        /// and a segment with no current point starts one at its own start.
        func begin() {
            if current.isEmpty { current = [position] }
        }
        for command in data.commands {
            switch command {
            case .move(let point):
                finish()
                current = [point]
                (position, start, hasPoint) = (point, point, true)
            case .line(let point):
                if !hasPoint { (position, start, hasPoint) = (point, point, true) }
                begin()
                current.append(point)
                position = point
            case .quad(let control, let end):
                if !hasPoint { (position, start, hasPoint) = (control, control, true) }
                begin()
                let (p0, p1, p2) = (position, control, end)
                let bend = hypot(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y)
                // A quadratic's chords stray at most |B''|/8 per segment², |B''| = 2·bend.
                let count = segmentCount(bend / 4, tolerance: tolerance)
                for index in 1...count {
                    let t = Double(index) / Double(count), u = 1 - t
                    current.append(Point(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                                         y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y))
                }
                position = end
            case .cubic(let c1, let c2, let end):
                if !hasPoint { (position, start, hasPoint) = (c1, c1, true) }
                begin()
                let p0 = position
                let bend = max(hypot(p0.x - 2 * c1.x + c2.x, p0.y - 2 * c1.y + c2.y),
                               hypot(c1.x - 2 * c2.x + end.x, c1.y - 2 * c2.y + end.y))
                // |B''| ≤ 6·bend; chords stray at most |B''|/8 per segment².
                let count = segmentCount(0.75 * bend, tolerance: tolerance)
                for index in 1...count {
                    let t = Double(index) / Double(count), u = 1 - t
                    let (w0, w1, w2, w3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
                    current.append(Point(x: w0 * p0.x + w1 * c1.x + w2 * c2.x + w3 * end.x,
                                         y: w0 * p0.y + w1 * c1.y + w2 * c2.y + w3 * end.y))
                }
                position = end
            case .close:
                if !current.isEmpty {
                    current.append(start)
                    finish()
                }
                position = start
            }
        }
        finish()
        return lines
    }

    /// Segments for a curve whose chords stray `deviation / n²` with n segments.
    private static func segmentCount(_ deviation: Double, tolerance: Double) -> Int {
        guard deviation.isFinite, deviation > 0 else { return 1 }
        return min(4096, max(1, Int((deviation / tolerance).squareRoot().rounded(.up))))
    }

    /// The stretch from `from` to `to` (fractions of the total length), as the renderer's trim keeps it.
    static func trimmed(_ lines: [Polyline], from: Double, to: Double) -> [Polyline] {
        func length(_ p: Point, _ q: Point) -> Double { hypot(q.x - p.x, q.y - p.y) }
        var total = 0.0
        for line in lines { for i in 1..<max(line.points.count, 1) { total += length(line.points[i - 1], line.points[i]) } }
        guard total > 0 else { return [] }
        let (start, end) = (from * total, to * total)
        var travelled = 0.0
        var result: [Polyline] = []
        for line in lines where line.points.count > 1 {
            var kept: [Point] = []
            for i in 1..<line.points.count {
                let p = line.points[i - 1], q = line.points[i], segment = length(p, q)
                let (s0, s1) = (travelled, travelled + segment)
                travelled = s1
                guard segment > 0, s1 > start, s0 < end else { continue }
                let t0 = max(0, (start - s0) / segment), t1 = min(1, (end - s0) / segment)
                if kept.isEmpty { kept.append(Point(x: p.x + (q.x - p.x) * t0, y: p.y + (q.y - p.y) * t0)) }
                kept.append(Point(x: p.x + (q.x - p.x) * t1, y: p.y + (q.y - p.y) * t1))
            }
            if kept.count > 1 { result.append(Polyline(points: kept)) }
        }
        return result
    }

    /// The winding number of the outlines around the point, each polyline closed back to its start as a fill closes it.
    static func windingNumber(of point: Point, in lines: [Polyline]) -> Int {
        var winding = 0
        for line in lines where line.points.count > 2 {
            let points = line.points
            for i in 0..<points.count {
                let p = points[i], q = points[(i + 1) % points.count]
                // Counted where an edge crosses the horizontal ray to the right of the point.
                let cross = (q.x - p.x) * (point.y - p.y) - (point.x - p.x) * (q.y - p.y)
                if p.y <= point.y {
                    if q.y > point.y, cross > 0 { winding += 1 }
                } else if q.y <= point.y, cross < 0 {
                    winding -= 1
                }
            }
        }
        return winding
    }

    /// The shortest distance from the point to any segment of the polylines (infinity when there are none).
    static func distance(from point: Point, to lines: [Polyline]) -> Double {
        var best = Double.infinity
        for line in lines {
            let points = line.points
            if points.count == 1 { best = min(best, hypot(point.x - points[0].x, point.y - points[0].y)) }
            for i in 1..<max(points.count, 1) {
                let p = points[i - 1], q = points[i]
                let (dx, dy) = (q.x - p.x, q.y - p.y)
                let lengthSquared = dx * dx + dy * dy
                let t = lengthSquared > 0 ? min(1, max(0, ((point.x - p.x) * dx + (point.y - p.y) * dy) / lengthSquared)) : 0
                best = min(best, hypot(point.x - (p.x + t * dx), point.y - (p.y + t * dy)))
            }
        }
        return best
    }
}

extension Rect {
    /// Whether the point lies inside or on the edge of this (standardized) rectangle.
    func contains(_ point: Point) -> Bool {
        point.x >= x && point.x <= x + width && point.y >= y && point.y <= y + height
    }
}

extension Transform2D {
    /// The transform that undoes this one, or nil when it flattens the plane (nothing drawn, nothing hit).
    public func inverted() -> Transform2D? {
        let determinant = a * d - b * c
        guard [a, b, c, d, tx, ty].allSatisfy(\.isFinite), abs(determinant) > 1e-12 else { return nil }
        let (ia, ib, ic, id) = (d / determinant, -b / determinant, -c / determinant, a / determinant)
        return Transform2D(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }

    /// The most a length grows under this transform (its largest singular value).
    var largestScale: Double {
        let sum = a * a + b * b + c * c + d * d
        let determinant = a * d - b * c
        return ((sum + max(0, sum * sum - 4 * determinant * determinant).squareRoot()) / 2).squareRoot()
    }
}
