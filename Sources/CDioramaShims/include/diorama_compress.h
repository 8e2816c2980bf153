#ifndef DIORAMA_COMPRESS_H
#define DIORAMA_COMPRESS_H
// zlib's compress2 for the renderer's PNG writer, behind a plain signature so Swift needs no zlib types.
#include <stddef.h>
#include <stdint.h>

/// Compresses `length` bytes into a zlib stream (header, deflate data, Adler-32) at `level` (0-9) into
/// `dest`, which holds `capacity` bytes. Returns the compressed size, or -1 when `dest` is too small.
long diorama_zlib_compress(uint8_t *dest, size_t capacity, const uint8_t *source, size_t length, int level);

#endif
