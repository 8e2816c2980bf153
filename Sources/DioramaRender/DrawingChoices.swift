/// Which of its own ways a renderer takes where cairo has one too, and their limits: the only choices the route of a
/// leaf reads (`route(of:matrix:clipped:)`, PaintRoute.swift), besides the damage switch. Each way is tested against
/// cairo's (or against drawing everything): false gives the reference. One value, so that the helpers drawing parts
/// of a frame on other threads take every choice at once (they must decide clip-safety as the renderer does).
struct DrawingChoices: Equatable {
    /// False fills solid shapes with cairo (the reference for the solid fill tests).
    var rasterizesFills = true
    /// The largest shape (device pixels of its box) scan-converted by `fillSolid`; larger ones are cairo's.
    var largestScanConvertedFill = 64.0 * 64
    /// False fills gradients with cairo's own patterns (the reference for the gradient tests).
    var evaluatesGradients = true
    /// False paints cached art with cairo alone; true `resamplesEveryCell` visits every output cell (references
    /// for the resampling tests).
    var resamplesArt = true
    var resamplesEveryCell = false
    /// False draws everything beneath opaque bands too (the reference the occlusion tests compare with).
    var usesOcclusion = true
    /// False paints quick shadows through cairo's mask (the reference for the shadow tests).
    var paintsShadowsWithPixman = true
    /// False saves and transforms cairo's state for every node (the reference for the leaf fill tests).
    var fillsLeavesWithoutSaving = true
    /// False paints reduced (widely blurred) layers with cairo, over all they may reach (the reference for the
    /// reduced layer tests); `tightensReducedLayers` false paints them with pixman over all they may reach.
    var paintsReducedLayersWithPixman = true
    var tightensReducedLayers = true
}
