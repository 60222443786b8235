/* What the whole-frame benchmarks (bench/frame.c, bench/peers/frame_peers.c, and the small
 * ones: stray.c, large.c, churn.c) share: a clock, fatal errors under the program's name,
 * medians, numeric arguments, and one random generator so every machine builds the same
 * scenes. */
#ifndef SEPAX_BENCH_FRAME_UTIL_H
#define SEPAX_BENCH_FRAME_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "sepax.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The name fatal errors start with (the program's). */
void frame_set_name(const char *name);
double frame_now_ns(void);
/* Print "name: what: status" and exit 1. */
void frame_die(const char *what, sepax_status st);
/* malloc, or exit 1 with a message. */
void *frame_xmalloc(size_t n);
double frame_median(const double *v, uint32_t n);
double frame_median_sz(const size_t *v, uint32_t n);
/* Reads and writes `mb` MiB of a buffer of its own (kept between calls), so that whatever
 * ran before has left the caches: a timed run after it starts as cold as any other. */
void frame_evict(uint32_t mb);
/* A decimal argument (0 when it is not a number). */
uint32_t frame_arg_u32(const char *v);
/* xorshift64: the next value of the generator at *x (nonzero), and one in [0, 1). */
uint64_t frame_next(uint64_t *x);
float frame_unit(uint64_t *x);

#ifdef __cplusplus
}
#endif

#endif
