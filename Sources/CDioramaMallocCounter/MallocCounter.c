// See include/MallocCounter.h. glibc exports its allocator under __libc_* names as well, which is what makes a
// replacement that forwards to it possible without dlsym (which itself allocates).
#define _GNU_SOURCE
#include "MallocCounter.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);

enum { siteDepth = 32, siteSlots = 4096 };

struct Site {
    uintptr_t hash;
    int depth;
    void *frames[siteDepth];
    unsigned long allocations;
    unsigned long bytes;
};

static atomic_int counting;
static atomic_int recordingSites;
static pthread_t countedThread;
static atomic_ulong allocations;
static atomic_ulong bytes;
static struct Site sites[siteSlots];
static int siteCount;
// Set while this thread records a site: backtrace() may allocate, which must not record again.
static _Thread_local int recording __attribute__((tls_model("initial-exec")));

static void recordSite(size_t size) {
    recording = 1;
    void *frames[siteDepth + 2];
    // The first two frames are this function and the counting wrapper.
    int depth = backtrace(frames, siteDepth + 2) - 2;
    if (depth > 0) {
        uintptr_t hash = 1469598103934665603u;
        for (int i = 0; i < depth; i++) hash = (hash ^ (uintptr_t)frames[i + 2]) * 1099511628211u;
        // Only the counted thread records, so the table needs no lock.
        for (int probe = 0; probe < siteSlots; probe++) {
            struct Site *site = &sites[(hash + (uintptr_t)probe) % siteSlots];
            if (site->depth == 0) {
                if (siteCount >= siteSlots / 2) break;  // full enough: count, do not record
                site->hash = hash;
                site->depth = depth;
                memcpy(site->frames, frames + 2, sizeof(void *) * (size_t)depth);
                siteCount++;
            } else if (site->hash != hash || site->depth != depth ||
                       memcmp(site->frames, frames + 2, sizeof(void *) * (size_t)depth) != 0) {
                continue;
            }
            site->allocations++;
            site->bytes += size;
            break;
        }
    }
    recording = 0;
}

static inline void count(size_t size) {
    if (!atomic_load_explicit(&counting, memory_order_relaxed) || !pthread_equal(pthread_self(), countedThread)) return;
    if (recording) return;
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&bytes, size, memory_order_relaxed);
    if (atomic_load_explicit(&recordingSites, memory_order_relaxed)) recordSite(size);
}

void *malloc(size_t size) {
    count(size);
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count(count_ * size);
    return __libc_calloc(count_, size);
}

// A realloc may move the block: it counts as an allocation (growing arrays and strings show up this way).
void *realloc(void *pointer, size_t size) {
    count(size);
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

void *valloc(size_t size) {
    count(size);
    return __libc_valloc(size);
}

void diorama_malloc_counter_start(int recordSites) {
    if (recordSites) {
        // backtrace() loads its unwinder on first use, which allocates: done now, before counting.
        void *warm[2];
        backtrace(warm, 2);
        memset(sites, 0, sizeof sites);
        siteCount = 0;
    }
    atomic_store(&allocations, 0);
    atomic_store(&bytes, 0);
    countedThread = pthread_self();
    atomic_store(&recordingSites, recordSites);
    atomic_store(&counting, 1);
}

void diorama_malloc_counter_stop(void) {
    atomic_store(&counting, 0);
}

unsigned long diorama_malloc_counter_allocations(void) { return atomic_load(&allocations); }

unsigned long diorama_malloc_counter_bytes(void) { return atomic_load(&bytes); }

int diorama_malloc_counter_site_count(void) { return siteCount; }

int diorama_malloc_counter_site(int index, void **frames, int capacity, unsigned long *allocationsOut, unsigned long *bytesOut) {
    int seen = 0;
    for (int slot = 0; slot < siteSlots; slot++) {
        if (sites[slot].depth == 0) continue;
        if (seen++ != index) continue;
        int depth = sites[slot].depth < capacity ? sites[slot].depth : capacity;
        memcpy(frames, sites[slot].frames, sizeof(void *) * (size_t)depth);
        *allocationsOut = sites[slot].allocations;
        *bytesOut = sites[slot].bytes;
        return depth;
    }
    return 0;
}

int diorama_malloc_counter_describe(const void *address, const char **object, void **base, const char **symbol, void **symbolAddress) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return 0;
    *object = info.dli_fname;
    *base = info.dli_fbase;
    *symbol = info.dli_sname;
    *symbolAddress = info.dli_saddr;
    return 1;
}
