import CCairo
import DioramaDocument
import DioramaLottie
import DioramaTimeline
import DioramaVectorArt
import Foundation

// Who draws a node. Half of this module is our own rasterizing next to cairo's, each way tested against cairo's; a
// leaf takes one way per paint, decided once by `route(of:matrix:clipped:)` from the leaf, its transform and the
// clip. Drawing follows the route (ShapeDrawing.swift, ParticleDrawing.swift), and the damage's clip-safety is read
// from it (FrameDamage.swift), so that the two never disagree.

/// Who paints one part of a leaf: a shape's fill or stroke, a text, particles, a picture.
enum PaintWay {
    /// A small solid fill scan-converted onto the target by our own code (SolidFill.swift).
    case scanConverted
    /// A solid stroke outlined and scan-converted by our own code (StrokeOutline.swift); a stroke the outline gives
    /// back after trying (it folds over itself, too many dashes) is painted as `givenBack` says.
    case outlined(givenBack: GivenBack)
    /// Through a coverage of its own, cut by the clip shapes around (`paintThroughCoverage`, GradientFill.swift): a
    /// linear or radial gradient with its colours evaluated by `GradientGeometry` (nil: a solid colour).
    case throughCoverage(GradientGeometry?)
    /// Particles as sprites composited by our own code (ParticleDrawing.swift), where the clip reads as whole pixels;
    /// elsewhere cairo's paths. Through clip shapes, whether it does depends on the clip (a band, a damage area).
    case sprites(throughClipShapes: Bool)
    /// A picture whose pixels land one for one on device pixels, or one resampled by our own code
    /// (ImageDrawing+Resample.swift) with a transform that does not depend on the clip.
    case pixelAligned
    /// cairo's own (pango's for text). `exact`: its pixels come from the geometry alone, so that a clip of whole rows
    /// cuts them as drawn whole (see the note atop FrameDamage.swift); false where they depend on the clip.
    case cairo(exact: Bool)

    /// Where a stroke our outline gives back goes.
    enum GivenBack {
        /// An undashed stroke: cairo's stroke, exact.
        case cairo
        /// A dashed stroke: cairo's stroke onto a coverage of its own (its dasher leaves out dashes beyond the clip).
        case throughCoverage
        /// A dashed stroke that cannot go onto a coverage: cairo's own, which depends on the clip.
        case cairoDashes
    }

    /// True when a clip of whole pixels (whole rows, for cairo's exact fills) leaves the pixels as drawn whole.
    var isClipSafe: Bool {
        switch self {
        case .scanConverted, .throughCoverage, .pixelAligned: true
        case .sprites(let throughClipShapes): !throughClipShapes
        case .outlined(let givenBack): givenBack != .cairoDashes
        case .cairo(let exact): exact
        }
    }
}

/// Who paints a leaf: a shape's fill and stroke (nil: none, or nothing to paint), or the one paint of a text,
/// particles, a picture or an animation (`fill`).
struct PaintRoute {
    var fill: PaintWay?
    var stroke: PaintWay?

    static let nothing = PaintRoute(fill: nil, stroke: nil)

    /// True when any pixel-aligned clip leaves the leaf's pixels inside the clip as drawn unclipped (see
    /// `NodeFootprint.clipSafe`).
    var isClipSafe: Bool { fill?.isClipSafe != false && stroke?.isClipSafe != false }
}

extension FrameRenderer {
    /// Who draws a leaf and why: the one place to look. `matrix`: the leaf's own space to device pixels; `clipped`: a
    /// clip shape lies around the leaf's paint (its own or an ancestor's, on the context drawn on). Its only input
    /// of choices is `choices` (`DrawingChoices`).
    ///
    /// Our ways paint only onto whole ARGB32 device pixels with the OVER operator under a clip of whole-pixel
    /// rectangles (with clip shapes: the rectangles around the outermost); onto anything else (a reduced layer) they
    /// hand the paint to cairo before drawing anything, and so does our outline that cannot take a stroke (above).
    func route(of node: NodeSnapshot, matrix: cairo_matrix_t, clipped: Bool) -> PaintRoute {
        switch node.content {
        case .group, .page, .projected:
            return .nothing
        case .shape(let shape):
            return route(of: shape, bounds: node.bounds, matrix: matrix, clipped: clipped)
        case .text(let text):
            // Pango's glyphs through a clip shape, or in a gradient, depend on the clip.
            return PaintRoute(fill: .cairo(exact: !clipped && text.paint.isSolid))
        case .particles:
            // Sprites need a circle to stay a circle of the same size on device pixels; cairo's paths otherwise.
            let axisAligned = abs(matrix.yx) < 1e-9 && abs(matrix.xy) < 1e-9 && matrix.xx > 0 && abs(matrix.xx - matrix.yy) <= 1e-9 * matrix.xx
            return PaintRoute(fill: axisAligned ? .sprites(throughClipShapes: clipped) : .cairo(exact: !clipped))
        case .image(let image):
            return PaintRoute(fill: route(of: image, matrix: matrix, clipped: clipped))
        case .lottie(let lottie):
            guard !clipped else { return PaintRoute(fill: .cairo(exact: false)) }
            // A frame rendered at the animation's size on screen (at most its largest side), placed as a picture.
            let box = BoundingBox(lottie.rect)
            let scaleX = (matrix.xx * matrix.xx + matrix.yx * matrix.yx).squareRoot()
            let scaleY = (matrix.xy * matrix.xy + matrix.yy * matrix.yy).squareRoot()
            let side = Double(LottieAnimation.maximumSide)
            let width = min(((box.maxX - box.minX) * scaleX).rounded(.up), side)
            let height = min(((box.maxY - box.minY) * scaleY).rounded(.up), side)
            guard width > 0, height > 0 else { return .nothing }
            let placed = placedMatrix(matrix, x: box.minX, y: box.minY, scaleX: (box.maxX - box.minX) / width,
                                      scaleY: (box.maxY - box.minY) / height)
            return PaintRoute(fill: placed.isIntegerTranslation ? .pixelAligned : .cairo(exact: false))
        }
    }

    /// A shape's fill, then its stroke (see `route(of:matrix:clipped:)`).
    func route(of shape: ShapeSnapshot, bounds: Rect, matrix: cairo_matrix_t, clipped: Bool) -> PaintRoute {
        let from = min(max(shape.trimFrom, 0), 1), to = min(max(shape.trimTo, 0), 1)
        guard from < to else { return .nothing }
        let trimmed = from > 0 || to < 1
        // Points within reach and a finite box, judged from the points that define the shape, before anything is
        // flattened; nil, the box is cairo's to measure.
        let box = FillOutline.box(of: shape.geometry, matrix: matrix)
        var fill: PaintWay?
        switch shape.fill {
        case nil:
            fill = nil
        case .solid?:
            // Trimmed, the fill is cairo's path's. Inside clip shapes, through a coverage cut by the same shapes (not
            // straight onto the target: whether the clip is whole pixels could depend on the band or damage area, and
            // with it whose fill it is). Large ones stay cairo's: there its set-up is nothing and its spans are faster.
            if trimmed || !choices.rasterizesFills || box == nil {
                fill = .cairo(exact: !clipped)
            } else if clipped {
                fill = choices.evaluatesGradients ? .throughCoverage(nil) : .cairo(exact: false)
            } else {
                let area = (box!.maxX - box!.minX) * (box!.maxY - box!.minY)
                fill = area <= choices.largestScanConvertedFill ? .scanConverted : .cairo(exact: true)
            }
        case let paint?:
            // Angular gradients, degenerate ones and hard stops are cairo's patterns.
            if choices.evaluatesGradients, let gradient = GradientGeometry(paint, bounds: bounds, userToDevice: matrix) {
                fill = .throughCoverage(gradient)
            } else {
                fill = .cairo(exact: false)
            }
        }
        guard let stroke = shape.stroke, stroke.width > 0 else { return PaintRoute(fill: fill, stroke: nil) }
        // cairo's dashes leave out what lies beyond the clip, with their joins and caps: a dashed stroke of cairo's
        // depends on the clip, unless it goes onto a coverage of its own (points within reach).
        let onPen: PaintWay = box != nil && choices.evaluatesGradients ? .throughCoverage(nil) : .cairo(exact: false)
        let strokeWay: PaintWay
        if !stroke.paint.isSolid || !choices.rasterizesFills || !stroke.width.isFinite {
            strokeWay = .cairo(exact: !clipped && stroke.paint.isSolid && !stroke.isDashed)
        } else if clipped {
            strokeWay = onPen
        } else if matrix.isSimilarity, !stroke.isDashed || stroke.dash.allSatisfy({ $0 >= 1.0 / 256 }) && stroke.dashPhase.isFinite {
            // A circular pen stays a circle; cairo reads a dash under a 256th of a unit as none (dots, caps that meet).
            strokeWay = .outlined(givenBack: !stroke.isDashed ? .cairo : onPen.isClipSafe ? .throughCoverage : .cairoDashes)
        } else {
            strokeWay = stroke.isDashed ? onPen : .cairo(exact: true)
        }
        return PaintRoute(fill: fill, stroke: strokeWay)
    }

    /// A picture's way: copied or resampled by our own code with a transform that does not depend on the clip, or
    /// cairo's filter, which does (it hands pixman a transform relative to the area drawn).
    private func route(of image: ImageContent, matrix: cairo_matrix_t, clipped: Bool) -> PaintWay? {
        let box = BoundingBox(image.rect)
        guard box.nonEmptyBox != nil else { return nil }
        if image.isVector {
            // As drawVectorImage places a cached raster (one too large to cache is drawn as vectors: cairo's).
            let scale = max(hypot(matrix.xx, matrix.yx), hypot(matrix.xy, matrix.yy))
            let quantized = VectorArtRasterCache.quantizedScale(scale)
            guard quantized > 0 else { return nil }
            let pixels = (width: Int((image.rect.width * quantized).rounded(.up)), height: Int((image.rect.height * quantized).rounded(.up)))
            guard pixels.width * pixels.height * 4 <= vectorRasters.capacity, pixels.width <= 16384, pixels.height <= 16384
            else { return .cairo(exact: false) }
            // Rotated or between pixels, it is resampled with a transform that does not depend on the clip.
            let placed = placedMatrix(matrix, x: image.rect.x, y: image.rect.y, scaleX: 1 / quantized, scaleY: 1 / quantized)
            return placed.isIntegerTranslation || (choices.resamplesArt && Self.resamples(placed)) ? .pixelAligned : .cairo(exact: false)
        }
        guard let whole = self.image(atPath: image.path) else { return nil }
        // Pictures in other formats (16-bit PNGs with newer cairo) are painted by cairo.
        let format = cairo_image_surface_get_format(whole)
        let resampled = choices.resamplesArt && (format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24)
        var width = Double(cairo_image_surface_get_width(whole)), height = Double(cairo_image_surface_get_height(whole))
        if let sheet = image.sprite, sheet.columns > 0, sheet.rows > 0 {
            width /= Double(sheet.columns)
            height /= Double(sheet.rows)
        }
        guard width > 0, height > 0 else { return nil }
        // Scaled, turned or between pixels, it is resampled with a transform that does not depend on the clip; but
        // not inside a clip shape: its scratch covers only the picture's box, and cairo cuts a clip outline against a
        // source's box, which a clip would change (the SVG path's scratch spans the clip's extents instead).
        let placed = placedMatrix(matrix, x: box.minX, y: box.minY, scaleX: (box.maxX - box.minX) / width,
                                  scaleY: (box.maxY - box.minY) / height)
        return placed.isIntegerTranslation || (resampled && !clipped && Self.resamples(placed)) ? .pixelAligned : .cairo(exact: false)
    }

    /// `matrix` translated then scaled, as cairo_translate and cairo_scale would make it.
    func placedMatrix(_ matrix: cairo_matrix_t, x: Double, y: Double, scaleX: Double, scaleY: Double) -> cairo_matrix_t {
        var placed = matrix
        cairo_matrix_translate(&placed, x, y)
        cairo_matrix_scale(&placed, scaleX, scaleY)
        return placed
    }
}

extension cairo_matrix_t {
    /// A rotation and a uniform scale (mirrored or not): a circular pen stays a circle.
    var isSimilarity: Bool {
        let scale = abs(xx * yy - xy * yx).squareRoot()
        let slack = 1e-9 * max(scale, 1)
        return scale > 0 && scale.isFinite
            && ((abs(xx - yy) <= slack && abs(yx + xy) <= slack) || (abs(xx + yy) <= slack && abs(yx - xy) <= slack))
    }
}
