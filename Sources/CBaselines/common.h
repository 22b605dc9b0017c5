#ifndef CBASELINES_COMMON_H
#define CBASELINES_COMMON_H

#include "CBaselines.h"
#include "valgrind_shim.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The timed region's bounds: callgrind's counting is switched on just before the clock starts and off just after it
// stops (client requests: nothing happens outside valgrind), so `storebench overhead` counts C's instructions over
// the span it times, as it does the Swift sides'.
#define SB_REGION_START() sb_callgrind_start()
#define SB_REGION_STOP() sb_callgrind_stop("c")

static inline uint64_t sb_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline char *sb_copy(const void *bytes, int len) {
    char *copy = malloc((size_t)len + 1);
    if (copy) {
        memcpy(copy, bytes, (size_t)len);
        copy[len] = 0;
    }
    return copy;
}

/// The RecordCodec encoding of an article into `out` (at least `sb_encoded_size` bytes); returns its length.
size_t sb_encoded_size(const sb_article *a);
size_t sb_encode(const sb_article *a, unsigned char *out);
/// Decodes a RecordCodec article into `found` (copies); returns 0, or -1 when the bytes are malformed.
int sb_decode(const unsigned char *bytes, size_t len, sb_found *found);

#endif
