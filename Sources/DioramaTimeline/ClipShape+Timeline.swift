import DioramaDocument

// Clip shapes at evaluation time: their animated geometry, the outline the renderer and hit testing use,
// and the content bounds they cut.

extension EvaluationContext {
    /// The clip with one animated value applied (the decoder lets through only properties the clip has).
    static func applyClip(_ number: Double, to property: AnimatableProperty, of clip: ClipShape) -> ClipShape {
        switch clip {
        case .rect(var rect, var cornerRadius):
            switch property {
            case .clipX: rect.x = number
            case .clipY: rect.y = number
            case .clipWidth: rect.width = number
            case .clipHeight: rect.height = number
            case .clipCornerRadius: cornerRadius = number
            default: break
            }
            return .rect(rect, cornerRadius: cornerRadius)
        case .capsule(var rect):
            switch property {
            case .clipX: rect.x = number
            case .clipY: rect.y = number
            case .clipWidth: rect.width = number
            case .clipHeight: rect.height = number
            default: break
            }
            return .capsule(rect)
        case .circle(var center, var radius):
            switch property {
            case .clipCenterX: center.x = number
            case .clipCenterY: center.y = number
            case .clipRadius: radius = number
            default: break
            }
            return .circle(center: center, radius: radius)
        case .ellipse(var center, var radiusX, var radiusY):
            switch property {
            case .clipCenterX: center.x = number
            case .clipCenterY: center.y = number
            case .clipRadiusX: radiusX = number
            case .clipRadiusY: radiusY = number
            default: break
            }
            return .ellipse(center: center, radiusX: radiusX, radiusY: radiusY)
        case .path, .fitted:
            return clip
        }
    }

    /// Springs overshoot: sizes and radii stay at or above 0.
    static func clampedClip(_ clip: ClipShape) -> ClipShape {
        switch clip {
        case .rect(var rect, let cornerRadius):
            (rect.width, rect.height) = (max(0, rect.width), max(0, rect.height))
            return .rect(rect, cornerRadius: max(0, cornerRadius))
        case .capsule(var rect):
            (rect.width, rect.height) = (max(0, rect.width), max(0, rect.height))
            return .capsule(rect)
        case .circle(let center, let radius):
            return .circle(center: center, radius: max(0, radius))
        case .ellipse(let center, let radiusX, let radiusY):
            return .ellipse(center: center, radiusX: max(0, radiusX), radiusY: max(0, radiusY))
        case .path, .fitted:
            return clip
        }
    }

    /// The clip's outline; a capsule is a rect rounded by half its shorter side. A fitted clip is placed
    /// by the plan before evaluation, so it never reaches here (it would clip nothing away).
    static func clipGeometry(_ clip: ClipShape) -> Geometry {
        switch clip {
        case .rect(let rect, let cornerRadius): .rect(rect, cornerRadius: cornerRadius)
        case .capsule(let rect): .rect(rect, cornerRadius: min(abs(rect.width), abs(rect.height)) / 2)
        case .circle(let center, let radius): .ellipse(center: center, radiusX: radius, radiusY: radius)
        case .ellipse(let center, let radiusX, let radiusY): .ellipse(center: center, radiusX: radiusX, radiusY: radiusY)
        case .path(let data): .path(data)
        case .fitted(_, let cornerRadius):
            .rect(Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9), cornerRadius: cornerRadius)
        }
    }
}

extension ContentBounds {
    /// `frame` cut to the clip's bounds (as written: animating the clip does not move anchors). A clip that
    /// misses the frame leaves an empty rect at the nearest point of the clip.
    static func of(_ frame: Rect, clippedTo clip: ClipShape) -> Rect {
        let box: Rect
        switch EvaluationContext.clipGeometry(clip) {
        case .rect(let rect, _): box = rect.standardized
        case .ellipse(let center, let radiusX, let radiusY):
            box = Rect(x: center.x - abs(radiusX), y: center.y - abs(radiusY), width: 2 * abs(radiusX), height: 2 * abs(radiusY))
        case .path(let data): box = of(path: data)
        }
        let frame = frame.standardized
        let minX = max(frame.x, box.x), minY = max(frame.y, box.y)
        let maxX = min(frame.x + frame.width, box.x + box.width), maxY = min(frame.y + frame.height, box.y + box.height)
        return Rect(x: min(minX, box.x + box.width), y: min(minY, box.y + box.height),
                    width: max(0, maxX - minX), height: max(0, maxY - minY))
    }
}

extension Rect {
    /// The same rectangle with a non-negative width and height.
    var standardized: Rect {
        Rect(x: min(x, x + width), y: min(y, y + height), width: abs(width), height: abs(height))
    }
}
