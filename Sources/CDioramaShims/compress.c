#include "diorama_compress.h"
#include <zlib.h>

long diorama_zlib_compress(uint8_t *dest, size_t capacity, const uint8_t *source, size_t length, int level) {
    uLongf written = capacity;
    if (compress2(dest, &written, source, length, level) != Z_OK) {
        return -1;
    }
    return (long)written;
}
