import CCairo
import DioramaDocument
import DioramaVectorArt
import Foundation

/// What `diorama check` asks of the art a document names, read the way the renderer reads it: every SVG
/// parses and passes the safety checks, every element an image node names exists, every sprite sheet's grid
/// divides its PNG into whole pixels. Files already reported (missing, unreadable) are skipped.
public enum ArtChecks {
    /// - Parameters:
    ///   - root: the scenes file's folder, which no SVG may reach out of.
    ///   - reported: diagnostics already given, whose locations are not checked again.
    public static func diagnostics(for references: [MediaReference], root: String, skipping reported: [Diagnostic]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var drawings: [String: Result<VectorArt, VectorArtError>] = [:]
        var unusable = Set<String>()
        let missing = Set(references.filter { reference in
            if case .image = reference.kind {
                return reported.contains { $0.line == reference.line && $0.column == reference.column }
            }
            return false
        }.map(\.resolvedPath))
        func drawing(_ path: String) -> Result<VectorArt, VectorArtError> {
            if let known = drawings[path] { return known }
            let result = Result { () throws(VectorArtError) in try VectorArt.load(path: path, allowedRoot: root) }
            drawings[path] = result
            return result
        }
        for reference in references where !missing.contains(reference.resolvedPath) {
            switch reference.kind {
            case .image where ImageContent.isVectorPath(reference.path):
                if case .failure(let error) = drawing(reference.resolvedPath) {
                    unusable.insert(reference.resolvedPath)
                    diagnostics.append(reference.diagnostic("the SVG image \"\(reference.path)\" cannot be used: \(error.reason)", hint: error.hint))
                }
            case .imageElement(let id):
                if case .success(let art) = drawing(reference.resolvedPath), !art.hasElement(id) {
                    // The ids librsvg can draw: the file's id attributes it knows as elements.
                    let ids = VectorArt.elementIDs(inFileAt: reference.resolvedPath).filter { art.hasElement($0) }.map { "#" + $0 }
                    diagnostics.append(reference.diagnostic("the SVG image \"\(reference.path)\" has no element with the id \"\(id.dropFirst())\"",
                                                            hint: Suggestion.hint(for: id, among: ids, listing: "its elements are")
                                                                ?? "its elements have no ids: an element is named by its id attribute, e.g. <g id=\"left-leg\"> is \"#left-leg\""))
                }
            case .spriteSheet(let columns, let rows):
                guard let size = pngSize(reference.resolvedPath) else {
                    diagnostics.append(reference.diagnostic("the sprite sheet \"\(reference.path)\" cannot be read as a PNG",
                                                            hint: "sprite sheets are PNG images"))
                    continue
                }
                if size.width % columns != 0 || size.height % rows != 0 {
                    diagnostics.append(reference.diagnostic(
                        "the sprite sheet \"\(reference.path)\" is \(size.width) x \(size.height) pixels, which a grid of \(columns) × \(rows) does not divide into whole pixels",
                        hint: "each frame must be the same whole number of pixels: the width a multiple of the columns, the height of the rows"))
                }
            default:
                continue
            }
        }
        return diagnostics
    }

    private static func pngSize(_ path: String) -> (width: Int, height: Int)? {
        guard case .success(let surface) = PNGFile.load(path) else { return nil }
        defer { cairo_surface_destroy(surface) }
        return (Int(cairo_image_surface_get_width(surface)), Int(cairo_image_surface_get_height(surface)))
    }
}
