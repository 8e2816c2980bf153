import CCairo
import CPixman
@testable import DioramaRender
import Testing

/// The pixman images a renderer keeps (PixmanImages.swift): lent again for the same pixels or colour, never for
/// others, and painting where and what they should.
@Suite struct PixmanImagesTests {
    private static func surface(width: Int32 = 8, height: Int32 = 4) -> OpaquePointer {
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)!
    }

    private static func pixel(_ surface: OpaquePointer, x: Int = 1, y: Int = 1) -> UInt32 {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        return UnsafeRawPointer(cairo_image_surface_get_data(surface)!).load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    /// Paints `pixel` over all of `image` through pixman (SRC).
    private static func paint(_ pixel: UInt32, onto image: OpaquePointer, images: PixmanImages) {
        pixman_image_composite32(PIXMAN_OP_SRC, images.solid(pixel), nil, image, 0, 0, 0, 0, 0, 0, 8, 4)
    }

    @Test func anImageOverASurfaceIsLentAgainForItsPixelsOnly() {
        let images = PixmanImages()
        let first = Self.surface(), second = Self.surface(), taller = Self.surface(height: 6)
        defer { [first, second, taller].forEach { cairo_surface_destroy($0) } }
        let image = images.over(first)
        #expect(image != nil)
        #expect(images.over(first) == image)
        #expect(images.made == 1)
        // Another surface of the same size has other pixels: its own image, which paints there.
        let other = images.over(second)
        #expect(other != image)
        Self.paint(0xFF20_4060, onto: other!, images: images)
        #expect(Self.pixel(second) == 0xFF20_4060)
        #expect(Self.pixel(first) == 0)
        #expect(images.over(first) == image)
        // Surfaces over the same pixels with another size, stride or format are not the same image either.
        let rows = cairo_image_surface_get_data(taller)!, stride = cairo_image_surface_get_stride(taller)
        let narrow = cairo_image_surface_create_for_data(rows, CAIRO_FORMAT_ARGB32, 4, 6, stride)!
        let short = cairo_image_surface_create_for_data(rows, CAIRO_FORMAT_ARGB32, 8, 3, stride)!
        let close = cairo_image_surface_create_for_data(rows, CAIRO_FORMAT_ARGB32, 4, 3, 16)!
        let wide = cairo_image_surface_create_for_data(rows, CAIRO_FORMAT_ARGB32, 4, 3, 32)!
        let opaque = cairo_image_surface_create_for_data(rows, CAIRO_FORMAT_RGB24, 8, 6, stride)!
        defer { [narrow, short, close, wide, opaque].forEach { cairo_surface_destroy($0) } }
        let made = images.made
        for surface in [taller, narrow, short, close, wide, opaque] { _ = images.over(surface) }
        #expect(images.made == made + 6)
        // With the four most recent kept, the last four again make none.
        for surface in [close, wide, opaque, short] { _ = images.over(surface) }
        #expect(images.made == made + 6)
    }

    /// More surfaces than images kept, asked for in turn and out of turn: each image lent paints its own surface's
    /// pixels, and the most recently used stay lent.
    @Test func imagesLetGoAndMadeAgainPaintTheirOwnSurfaces() {
        let images = PixmanImages()
        let surfaces = (0..<(PixmanImages.keptTargets + 2)).map { _ in Self.surface() }
        defer { surfaces.forEach { cairo_surface_destroy($0) } }
        for (turn, index) in [0, 1, 2, 0, 3, 4, 5, 1, 0, 5, 2, 3, 4, 1, 0].enumerated() {
            let color = 0xFF00_0000 | UInt32(turn * 16 + index)
            Self.paint(color, onto: images.over(surfaces[index])!, images: images)
            for (other, surface) in surfaces.enumerated() where other != index {
                #expect(Self.pixel(surface) != color, "turn \(turn): surface \(other) painted for \(index)")
            }
            #expect(Self.pixel(surfaces[index]) == color, "turn \(turn)")
        }
    }

    /// The image used longest ago is the one let go.
    @Test func theLeastRecentlyUsedImageIsLetGo() {
        let images = PixmanImages()
        let surfaces = (0..<(PixmanImages.keptTargets + 1)).map { _ in Self.surface() }
        defer { surfaces.forEach { cairo_surface_destroy($0) } }
        for surface in surfaces.prefix(PixmanImages.keptTargets) { _ = images.over(surface) }
        _ = images.over(surfaces[0])
        #expect(images.made == PixmanImages.keptTargets)
        // The second is now the least recently used: the new one takes its place.
        _ = images.over(surfaces[PixmanImages.keptTargets])
        for index in [0, 2, 3, 4] { _ = images.over(surfaces[index]) }
        #expect(images.made == PixmanImages.keptTargets + 1)
        _ = images.over(surfaces[1])
        #expect(images.made == PixmanImages.keptTargets + 2)
    }

    @Test func aSolidColourIsLentAgainAndPaintsThatColour() {
        let images = PixmanImages()
        let red = images.solid(0xFFFF_0000), blue = images.solid(0x8000_0080)
        #expect(red != nil && blue != nil && red != blue)
        #expect(images.solid(0xFFFF_0000) == red)
        let target = Self.surface()
        defer { cairo_surface_destroy(target) }
        let output = images.over(target)!
        pixman_image_composite32(PIXMAN_OP_SRC, blue, nil, output, 0, 0, 0, 0, 0, 0, 8, 4)
        #expect(Self.pixel(target, x: 7, y: 3) == 0x8000_0080)
        // Beyond the colours kept, all are let go, and a colour asked for again is made again, right.
        for value in 0..<UInt32(PixmanImages.keptSolids) { _ = images.solid(0xFF00_0000 | value) }
        let made = images.made
        pixman_image_composite32(PIXMAN_OP_SRC, images.solid(0xFFFF_0000), nil, output, 0, 0, 0, 0, 0, 0, 8, 4)
        #expect(images.made == made + 1)
        #expect(Self.pixel(target) == 0xFFFF_0000)
    }
}
