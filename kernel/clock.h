/* A monotonic clock in nanoseconds: the pool's spin limit and the frame's phase timings
 * (sepax_broadphase_stats). Timings only: no result ever depends on it. */
#ifndef SEPAX_CLOCK_H
#define SEPAX_CLOCK_H

#include <stdint.h>
#include <time.h>

#ifndef CLOCK_MONOTONIC
#error "define _POSIX_C_SOURCE 200809L before the first #include of a file that includes clock.h"
#endif

static inline uint64_t sepax_clock_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#endif
