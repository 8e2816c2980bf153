#ifndef DIORAMA_MALLOC_COUNTER_H
#define DIORAMA_MALLOC_COUNTER_H

// A malloc family that counts, for `diorama bench allocations`: loaded with LD_PRELOAD, it stands in for glibc's
// malloc, calloc, realloc and the aligned allocators in the whole process (Swift's runtime, cairo, pango, glib,
// rlottie) and forwards each call to glibc's own. Only the thread that started counting is counted. The bench
// finds these functions with dlsym, so the product never links this library.

#include <stddef.h>

/// Starts counting the calling thread's allocations from zero; with `recordSites`, also their call stacks.
void diorama_malloc_counter_start(int recordSites);
/// Stops counting; the figures stay until the next start.
void diorama_malloc_counter_stop(void);
/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, valloc) since the start.
unsigned long diorama_malloc_counter_allocations(void);
/// Bytes those allocations asked for.
unsigned long diorama_malloc_counter_bytes(void);
/// Distinct call stacks recorded since the start (at most a few thousand; later ones are counted, not recorded).
int diorama_malloc_counter_site_count(void);
/// The stack of recorded site `index`, innermost frame first: fills `frames` (up to `capacity`), sets how many
/// allocations and bytes came from it, and returns the stack's depth.
int diorama_malloc_counter_site(int index, void **frames, int capacity, unsigned long *allocations, unsigned long *bytes);
/// dladdr, which Swift's Glibc module does not offer: the object holding `address`, where it is loaded, and the
/// nearest exported symbol at or below it (NULL when none) and its address. Returns 0 when the address is in no object.
int diorama_malloc_counter_describe(const void *address, const char **object, void **base, const char **symbol, void **symbolAddress);

#endif
