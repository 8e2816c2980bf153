import CCairo
import DioramaDocument
import DioramaFiles
import DioramaLottie
import DioramaTimeline
import Foundation

/// The Lottie animations a renderer has loaded, by path, each keeping its last rendered frame (DioramaLottie).
final class LottieCache {
    private var animations: [String: LottieAnimation?] = [:]

    /// The cache's key: the file, and the animation chosen inside an archive.
    private static func key(_ resolved: String, _ chosen: String?) -> String { chosen.map { resolved + "\u{0}" + $0 } ?? resolved }

    /// True when the file at `resolved` (its animation `chosen`) was loaded (or refused) already.
    func holds(_ resolved: String, chosen: String? = nil) -> Bool { animations[Self.key(resolved, chosen)] != nil }

    /// The animation at `resolved`, loaded once; nil (remembered) when it cannot be loaded, with `warn` called once.
    /// - Parameter allowedRoot: the folder image assets may not leave (the scenes file's); nil is the Lottie file's own.
    /// - Parameter chosen: the animation of a dotLottie archive (nil: the manifest's first).
    func animation(atPath resolved: String, chosen: String? = nil, allowedRoot: String?, warn: (String) -> Void) -> LottieAnimation? {
        let key = Self.key(resolved, chosen)
        if let cached = animations[key] { return cached }
        var loaded: LottieAnimation?
        // rlottie trusts its input: only files whose basics pass the same checks as `diorama check` reach it.
        switch LottieFileReader.load(path: resolved, shownPath: resolved, allowedRoot: allowedRoot, archives: DotLottieArchive.read,
                                     animation: chosen) {
        case .failure(let problem):
            warn("lottie \(resolved): \(problem.message); drawn as nothing")
        case .success(let checked):
            do {
                loaded = try LottieAnimation(json: checked.json, resourceDirectory: checked.resourceDirectory)
            } catch {
                warn("lottie \(resolved): \(error); drawn as nothing")
            }
        }
        animations[key] = loaded
        return loaded
    }
}

extension FrameRenderer {
    /// Renders the frame with rlottie at the pixel size the rectangle covers on the output (so it stays sharp
    /// under the canvas scale and the node's own scale), then paints it into the rectangle with cairo.
    func drawLottie(_ lottie: LottieSnapshot, alpha: Double, in cr: OpaquePointer) {
        let box = BoundingBox(lottie.rect)
        guard box.nonEmptyBox != nil else { return }
        let resolved = resolvedImagePath(lottie.path)
        if !lotties.holds(resolved, chosen: lottie.animation) { statistics.loadedDrawings += 1 }
        guard let animation = lotties.animation(atPath: resolved, chosen: lottie.animation, allowedRoot: imageDirectory?.standardizedFileURL.path,
                                                warn: { warn($0) }) else { return }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        let scaleX = (ctm.xx * ctm.xx + ctm.yx * ctm.yx).squareRoot(), scaleY = (ctm.xy * ctm.xy + ctm.yy * ctm.yy).squareRoot()
        let side = Double(LottieAnimation.maximumSide)
        let width = Int(min(((box.maxX - box.minX) * scaleX).rounded(.up), side))
        let height = Int(min(((box.maxY - box.minY) * scaleY).rounded(.up), side))
        guard width > 0, height > 0,
              let pixels = animation.render(frame: lottie.frame - lottie.inPoint, width: width, height: height) else { return }
        let surface = cairo_image_surface_create_for_data(
            UnsafeMutablePointer(mutating: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)),
            CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))
        defer { cairo_surface_destroy(surface) }
        cairo_save(cr)
        cairo_translate(cr, box.minX, box.minY)
        cairo_scale(cr, (box.maxX - box.minX) / Double(width), (box.maxY - box.minY) / Double(height))
        cairo_set_source_surface(cr, surface, 0, 0)
        // Rendered at the pixel size it covers, the buffer usually lands pixel for pixel: then no filtering at all
        // (pixman's plain blend); otherwise (rotation, fractional placement) cairo's good filter.
        var placed = cairo_matrix_t()
        cairo_get_matrix(cr, &placed)
        let aligned = placed.xy == 0 && placed.yx == 0 && abs(placed.xx - 1) < 1e-9 && abs(placed.yy - 1) < 1e-9
            && placed.x0 == placed.x0.rounded() && placed.y0 == placed.y0.rounded()
        cairo_pattern_set_filter(cairo_get_source(cr), aligned ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
        // rlottie fits the composition into the buffer, centred, and leaves the rest transparent: compositing only
        // the fitted part (a pixel wider each side) saves blending empty pixels when the aspect ratios differ.
        let fit = min(Double(width) / Double(animation.width), Double(height) / Double(animation.height))
        let inkWidth = min(Double(width), (Double(animation.width) * fit).rounded(.up) + 2)
        let inkHeight = min(Double(height), (Double(animation.height) * fit).rounded(.up) + 2)
        cairo_rectangle(cr, ((Double(width) - inkWidth) / 2).rounded(.down), ((Double(height) - inkHeight) / 2).rounded(.down),
                        inkWidth, inkHeight)
        cairo_clip(cr)
        if alpha < 1 { cairo_paint_with_alpha(cr, alpha) } else { cairo_paint(cr) }
        cairo_restore(cr)
    }
}
