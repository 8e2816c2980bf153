#include "diorama_compress.h"
#include <dlfcn.h>
#include <pthread.h>

typedef int (*diorama_compress2_fn)(unsigned char *, unsigned long *, const unsigned char *, unsigned long, int);

static diorama_compress2_fn diorama_compress2;
static pthread_once_t diorama_compress2_once = PTHREAD_ONCE_INIT;

static void diorama_resolve_compress2(void) {
    void *zlib = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (zlib != NULL) {
        diorama_compress2 = (diorama_compress2_fn)dlsym(zlib, "compress2");
    }
}

long diorama_zlib_compress(uint8_t *dest, size_t capacity, const uint8_t *source, size_t length, int level) {
    pthread_once(&diorama_compress2_once, diorama_resolve_compress2);
    if (diorama_compress2 == NULL) {
        return -1;
    }
    unsigned long written = capacity;
    if (diorama_compress2(dest, &written, source, length, level) != 0) {
        return -1;
    }
    return (long)written;
}
