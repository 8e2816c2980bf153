import CCairo
import DioramaDocument
import DioramaTimeline
import Foundation

extension FrameRenderer {
    /// Fills then strokes the outline, each the way `route(of:bounds:matrix:clipped:)` takes it under the context's
    /// matrix and clip shapes.
    func drawShape(_ shape: ShapeSnapshot, bounds: Rect, alpha: Double, in cr: OpaquePointer) {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        drawShape(shape, bounds: bounds, alpha: alpha, route: route(of: shape, bounds: bounds, matrix: matrix, clipped: !clipShapes.isEmpty),
                  in: cr)
    }

    /// Fills then strokes the outline, each the way `route` says (see `route(of:matrix:clipped:)`); a partial trim
    /// keeps only that stretch of the outline, by arc length. cairo's path is built only for a paint that is cairo's
    /// (or made from its path) in the end.
    func drawShape(_ shape: ShapeSnapshot, bounds: Rect, alpha: Double, route: PaintRoute, in cr: OpaquePointer) {
        let from = min(max(shape.trimFrom, 0), 1), to = min(max(shape.trimTo, 0), 1)
        guard to > from else { return }
        let trim = from > 0 || to < 1 ? (from: from, to: to) : nil
        var pathBuilt = false
        func buildPath() {
            guard !pathBuilt else { return }
            pathBuilt = true
            cairo_new_path(cr)
            addPath(shape.geometry, to: cr)
            if let trim { trimPath(cr, from: trim.from, to: trim.to) }
        }
        if let fill = shape.fill, let way = route.fill, !fillOurWay(fill, geometry: shape.geometry, bounds: bounds, trimmed: trim != nil,
                                                             alpha: alpha, way: way, in: cr) {
            buildPath()
            if case .throughCoverage(let gradient?) = way, fillGradient(gradient, alpha: alpha, in: cr, path: { pen in
                addPath(shape.geometry, to: pen)
                if let trim { trimPath(pen, from: trim.from, to: trim.to) }
            }) {
                // The gradient's colours through the path's coverage.
            } else {
                let pattern = makePattern(fill, bounds: bounds, alpha: alpha, hue: paintHue)
                cairo_set_source(cr, pattern)
                cairo_fill_preserve(cr)
                cairo_pattern_destroy(pattern)
            }
        }
        if let stroke = shape.stroke, let way = route.stroke, !strokeSolid(stroke, geometry: shape.geometry, trim: trim, alpha: alpha, way: way, in: cr) {
            buildPath()
            applyStrokeStyle(stroke, to: cr)
            let pattern = makePattern(stroke.paint, bounds: bounds, alpha: alpha, hue: paintHue)
            cairo_set_source(cr, pattern)
            cairo_stroke_preserve(cr)
            cairo_pattern_destroy(pattern)
        }
        if pathBuilt { cairo_new_path(cr) }
    }

    /// Fills `geometry` (in the context's user space) the way `way` says when it is one of ours, from the geometry
    /// (not from cairo's path: a trimmed fill is made from that). False, with nothing drawn, when it is cairo's or
    /// made from cairo's path (`drawShape`).
    private func fillOurWay(_ paint: Paint, geometry: Geometry, bounds: Rect, trimmed: Bool, alpha: Double, way: PaintWay,
                      in cr: OpaquePointer) -> Bool {
        switch (way, paint) {
        case (.scanConverted, .solid(let color)):
            return fillSolid(color, geometry: geometry, alpha: alpha, in: cr)
        case (.throughCoverage(nil), .solid(let color)):
            return fillSolidThroughCoverage(color, geometry: geometry, alpha: alpha, in: cr)
        case (.throughCoverage(let gradient?), _) where !trimmed:
            return fillGradient(gradient, geometry: geometry, alpha: alpha, in: cr)
        default:
            return false
        }
    }

    /// Appends the geometry as cairo path segments, each outline starting where SwiftUI's does
    /// (a circle at its trailing point, going clockwise on screen), so trims match.
    func addPath(_ geometry: Geometry, to cr: OpaquePointer) {
        switch geometry {
        case .rect(let rect, let cornerRadius):
            let box = BoundingBox(rect)
            let (width, height) = (box.maxX - box.minX, box.maxY - box.minY)
            guard width > 0, height > 0 else { return }
            let radius = min(max(cornerRadius, 0), width / 2, height / 2)
            cairo_new_sub_path(cr)
            if radius <= 0 {
                cairo_rectangle(cr, box.minX, box.minY, width, height)
                return
            }
            let quarter = Double.pi / 2
            cairo_arc(cr, box.maxX - radius, box.minY + radius, radius, -quarter, 0)
            cairo_arc(cr, box.maxX - radius, box.maxY - radius, radius, 0, quarter)
            cairo_arc(cr, box.minX + radius, box.maxY - radius, radius, quarter, 2 * quarter)
            cairo_arc(cr, box.minX + radius, box.minY + radius, radius, 2 * quarter, 3 * quarter)
            cairo_close_path(cr)
        case .ellipse(let center, let radiusX, let radiusY):
            guard radiusX > 0, radiusY > 0, radiusX.isFinite, radiusY.isFinite else { return }
            cairo_save(cr)
            cairo_translate(cr, center.x, center.y)
            cairo_scale(cr, radiusX, radiusY)
            cairo_new_sub_path(cr)
            cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
            cairo_close_path(cr)
            cairo_restore(cr)
        case .path(let data):
            var current = Point(x: 0, y: 0), start = current
            for command in data.commands {
                switch command {
                case .move(let p):
                    cairo_move_to(cr, p.x, p.y)
                    current = p
                    start = p
                case .line(let p):
                    cairo_line_to(cr, p.x, p.y)
                    current = p
                case .quad(let control, let p):
                    let (c1, c2) = cubicControls(from: current, quadratic: control, to: p)
                    cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                    current = p
                case .cubic(let c1, let c2, let p):
                    cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                    current = p
                case .close:
                    cairo_close_path(cr)
                    current = start
                }
            }
        }
    }

    func applyStrokeStyle(_ stroke: Stroke, to cr: OpaquePointer) {
        cairo_set_line_width(cr, stroke.width)
        switch stroke.lineCap {
        case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
        }
        switch stroke.lineJoin {
        case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
        }
        // cairo rejects negative or all-zero dash patterns (and would stop drawing): those mean solid.
        let dashes = stroke.dash
        if stroke.isDashed {
            dashes.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), stroke.dashPhase) }
        } else {
            cairo_set_dash(cr, nil, 0, 0)
        }
    }

    /// Replaces the current path with the stretch from `from` to `to` (fractions of its total length),
    /// measured along the path flattened to cairo's tolerance.
    func trimPath(_ cr: OpaquePointer, from: Double, to: Double) {
        flattenPath(cr)
        cairo_new_path(cr)
        let points = strokeScratch.trimPoints, ends = strokeScratch.trimEnds
        var total = 0.0, first = 0
        for end in ends {
            for i in (first + 1)..<end { total += distance(points[i - 1], points[i]) }
            first = end
        }
        guard total > 0 else { return }
        let (start, end) = (from * total, to * total)
        var travelled = 0.0
        first = 0
        for last in ends {
            var drawing = false
            for i in (first + 1)..<last {
                let p = points[i - 1], q = points[i], length = distance(p, q)
                let (s0, s1) = (travelled, travelled + length)
                travelled = s1
                guard length > 0, s1 > start, s0 < end else {
                    if s0 >= end { drawing = false }
                    continue
                }
                let t0 = max(0, (start - s0) / length), t1 = min(1, (end - s0) / length)
                if !drawing {
                    cairo_move_to(cr, p.x + (q.x - p.x) * t0, p.y + (q.y - p.y) * t0)
                    drawing = true
                }
                cairo_line_to(cr, p.x + (q.x - p.x) * t1, p.y + (q.y - p.y) * t1)
            }
            first = last
        }
    }

    private func distance(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double)) -> Double {
        ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
    }

    /// The current path flattened into polylines in user space, in the kept `strokeScratch.trimPoints` (each polyline ending at an
    /// index in `trimEnds`, with at least two points): a closed subpath ends back at its start.
    private func flattenPath(_ cr: OpaquePointer) {
        strokeScratch.trimPoints.removeAll(keepingCapacity: true)
        strokeScratch.trimEnds.removeAll(keepingCapacity: true)
        guard let path = cairo_copy_path_flat(cr) else { return }
        defer { cairo_path_destroy(path) }
        guard path.pointee.status == CAIRO_STATUS_SUCCESS, let data = path.pointee.data else { return }
        // Where the polyline being read starts among the points.
        var start = 0
        func finish() {
            if strokeScratch.trimPoints.count - start > 1 {
                strokeScratch.trimEnds.append(strokeScratch.trimPoints.count)
            } else {
                strokeScratch.trimPoints.removeLast(strokeScratch.trimPoints.count - start)
            }
            start = strokeScratch.trimPoints.count
        }
        var index = 0
        while index < Int(path.pointee.num_data) {
            let header = data[index].header
            switch header.type {
            case CAIRO_PATH_MOVE_TO:
                finish()
                strokeScratch.trimPoints.append((data[index + 1].point.x, data[index + 1].point.y))
            case CAIRO_PATH_LINE_TO:
                strokeScratch.trimPoints.append((data[index + 1].point.x, data[index + 1].point.y))
            case CAIRO_PATH_CLOSE_PATH:
                if strokeScratch.trimPoints.count > start { strokeScratch.trimPoints.append(strokeScratch.trimPoints[start]) }
                finish()
            default:
                break
            }
            index += Int(header.length)
        }
        finish()
    }

    func drawImage(_ image: ImageContent, alpha: Double, in cr: OpaquePointer) {
        if image.isVector { return drawVectorImage(image, alpha: alpha, in: cr) }
        let box = BoundingBox(image.rect)
        guard box.nonEmptyBox != nil, let whole = self.image(atPath: image.path) else { return }
        var surface = whole
        var width = Double(cairo_image_surface_get_width(whole)), height = Double(cairo_image_surface_get_height(whole))
        var origin = (x: 0, y: 0)
        if let sheet = image.sprite {
            // One cell, as a sub-surface, so the padding repeats the cell's own edge, not its neighbour's.
            guard let cell = spriteCell(of: whole, sheet: sheet, path: image.path) else { return }
            (surface, width, height, origin) = (cell.surface, cell.width, cell.height, (cell.x, cell.y))
        }
        defer { if surface != whole { cairo_surface_destroy(surface) } }
        guard width > 0, height > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, box.minX, box.minY)
        cairo_scale(cr, (box.maxX - box.minX) / width, (box.maxY - box.minY) / height)
        if paintResampled(sheet: whole, cell: PixelRect(x: origin.x, y: origin.y, width: Int(width), height: Int(height)),
                          alpha: alpha, in: cr) {
            cairo_restore(cr)
            return
        }
        cairo_set_source_surface(cr, surface, 0, 0)
        // Padding keeps edge texels from blending with transparency; the clip keeps the padding out.
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_clip(cr)
        if alpha < 1 { cairo_paint_with_alpha(cr, alpha) } else { cairo_paint(cr) }
        cairo_restore(cr)
    }
}

// MARK: - Paint

/// A cairo pattern for a paint; gradient unit points refer to `bounds` (the node's frame), as in SwiftUI.
/// `alpha` multiplies every colour's alpha; `hue` (degrees) rotates every colour's hue.
/// The caller destroys the pattern.
func makePattern(_ paint: Paint, bounds: Rect, alpha: Double, hue: Double) -> OpaquePointer {
    guard hue == 0 else { return makePattern(paint.hueRotated(by: hue), bounds: bounds, alpha: alpha, hue: 0) }
    func addStops(_ stops: [GradientStop], to pattern: OpaquePointer) {
        // Stops come sorted from the document in almost every case; sorting only otherwise spares an array.
        let sorted = zip(stops, stops.dropFirst()).allSatisfy { $0.location <= $1.location }
            ? stops : stops.sorted { $0.location < $1.location }
        for stop in sorted {
            let c = stop.color
            cairo_pattern_add_color_stop_rgba(pattern, min(max(stop.location, 0), 1), c.red, c.green, c.blue, c.alpha * alpha)
        }
    }
    switch paint {
    case .solid(let c):
        return cairo_pattern_create_rgba(c.red, c.green, c.blue, c.alpha * alpha)
    case .linear(let stops, let start, let end):
        let p0 = bounds.point(at: start), p1 = bounds.point(at: end)
        let pattern = cairo_pattern_create_linear(p0.x, p0.y, p1.x, p1.y)!
        addStops(stops, to: pattern)
        return pattern
    case .radial(let stops, let center, let startRadius, let endRadius):
        let c = bounds.point(at: center)
        let pattern = cairo_pattern_create_radial(c.x, c.y, max(0, startRadius), c.x, c.y, max(0, endRadius))!
        addStops(stops, to: pattern)
        return pattern
    case .angular(let stops, let center, let startAngle, let endAngle):
        return makeAngularPattern(stops: stops, center: bounds.point(at: center), reach: 2 * (hypot(bounds.width, bounds.height) + 200),
                                  startAngle: startAngle, endAngle: endAngle, alpha: alpha)
    }
}

/// The colour of a gradient at `t` (0...1), interpolating straight (not premultiplied) components.
func gradientColor(_ stops: [GradientStop], at t: Double) -> Color {
    let sorted = stops.sorted { $0.location < $1.location }
    guard let first = sorted.first, let last = sorted.last else { return .clear }
    if t <= first.location { return first.color }
    if t >= last.location { return last.color }
    for (a, b) in zip(sorted, sorted.dropFirst()) where t <= b.location {
        let span = b.location - a.location
        let f = span > 0 ? (t - a.location) / span : 1
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        return Color(red: mix(a.color.red, b.color.red), green: mix(a.color.green, b.color.green),
                     blue: mix(a.color.blue, b.color.blue), alpha: mix(a.color.alpha, b.color.alpha))
    }
    return last.color
}

/// SwiftUI's AngularGradient as a cairo mesh of thin sectors around `center` (cairo 1.16 has no conic gradient).
/// Angles in degrees, clockwise on screen from the positive x axis; outside the start...end sweep, the half of
/// the gap after `endAngle` keeps the last colour and the half before `startAngle` the first.
private func makeAngularPattern(stops: [GradientStop], center: Point, reach: Double, startAngle: Double,
                                endAngle: Double, alpha: Double) -> OpaquePointer {
    let pattern = cairo_pattern_create_mesh()!
    let sweep = min(max(endAngle - startAngle, 0), 360)
    // (angle, colour) samples around the full circle, at most 10 degrees apart.
    var samples: [(Double, Color)] = []
    let steps = max(1, Int((sweep / 10).rounded(.up)))
    for i in 0...steps {
        let t = Double(i) / Double(steps)
        samples.append((startAngle + sweep * t, gradientColor(stops, at: t)))
    }
    let gap = 360 - sweep
    if gap > 0 {
        let first = gradientColor(stops, at: 0), last = gradientColor(stops, at: 1)
        let halfSteps = max(1, Int((gap / 20).rounded(.up)))
        for i in 1...halfSteps { samples.append((startAngle + sweep + gap / 2 * Double(i) / Double(halfSteps), last)) }
        // A zero-width step at the middle of the gap: the colour jumps there.
        for i in 0...halfSteps { samples.append((startAngle + sweep + gap / 2 * (1 + Double(i) / Double(halfSteps)), first)) }
    }
    for (a, b) in zip(samples, samples.dropFirst()) where b.0 > a.0 {
        let (a0, a1) = (a.0 * .pi / 180, b.0 * .pi / 180)
        let k = 4.0 / 3.0 * tan((a1 - a0) / 4) * reach
        let p0 = (center.x + reach * cos(a0), center.y + reach * sin(a0))
        let p1 = (center.x + reach * cos(a1), center.y + reach * sin(a1))
        cairo_mesh_pattern_begin_patch(pattern)
        cairo_mesh_pattern_move_to(pattern, center.x, center.y)
        cairo_mesh_pattern_line_to(pattern, p0.0, p0.1)
        cairo_mesh_pattern_curve_to(pattern, p0.0 - k * sin(a0), p0.1 + k * cos(a0),
                                    p1.0 + k * sin(a1), p1.1 - k * cos(a1), p1.0, p1.1)
        cairo_mesh_pattern_line_to(pattern, center.x, center.y)
        for (corner, color) in [(0, a.1), (1, a.1), (2, b.1), (3, b.1)] {
            cairo_mesh_pattern_set_corner_color_rgba(pattern, UInt32(corner), color.red, color.green, color.blue,
                                                     color.alpha * alpha)
        }
        cairo_mesh_pattern_end_patch(pattern)
    }
    return pattern
}

extension Color {
    /// The colour through the hue-rotate matrix, clamped to 0...1 (alpha unchanged).
    func hueRotated(by degrees: Double) -> Color {
        guard degrees != 0 else { return self }
        let m = HueRotation.matrix(degrees: degrees)
        func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }
        return Color(red: clamp(m[0] * red + m[1] * green + m[2] * blue),
                     green: clamp(m[3] * red + m[4] * green + m[5] * blue),
                     blue: clamp(m[6] * red + m[7] * green + m[8] * blue), alpha: alpha)
    }
}

extension Paint {
    func hueRotated(by degrees: Double) -> Paint {
        func rotate(_ stops: [GradientStop]) -> [GradientStop] {
            stops.map { GradientStop(location: $0.location, color: $0.color.hueRotated(by: degrees)) }
        }
        switch self {
        case .solid(let color): return .solid(color.hueRotated(by: degrees))
        case .linear(let stops, let start, let end): return .linear(stops: rotate(stops), start: start, end: end)
        case .radial(let stops, let center, let startRadius, let endRadius):
            return .radial(stops: rotate(stops), center: center, startRadius: startRadius, endRadius: endRadius)
        case .angular(let stops, let center, let startAngle, let endAngle):
            return .angular(stops: rotate(stops), center: center, startAngle: startAngle, endAngle: endAngle)
        }
    }
}

/// The controls of the cubic with the same curve as the quadratic from `start` through `control` to `end`: two thirds
/// of the way from each end to the quadratic's control.
func cubicControls(from start: Point, quadratic control: Point, to end: Point) -> (Point, Point) {
    (Point(x: start.x + 2 / 3 * (control.x - start.x), y: start.y + 2 / 3 * (control.y - start.y)),
     Point(x: end.x + 2 / 3 * (control.x - end.x), y: end.y + 2 / 3 * (control.y - end.y)))
}
