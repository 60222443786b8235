/* Caller buffers a call writes while it reads others: checked apart before anything is
 * written, so an output laid over an input (or over another output) is refused with
 * SEPAX_ERR_ALIASED instead of corrupting what the kernels read next. */
#ifndef SEPAX_ALIASING_H
#define SEPAX_ALIASING_H

#include <stddef.h>
#include <stdint.h>

#include "sepax.h"

/* A caller buffer's bytes: `at` and its size (0 for none; sepax_span_of makes a NULL buffer
 * empty). */
typedef struct sepax_span {
    const void *at;
    size_t bytes;
} sepax_span;

/* n entries of `size` bytes at p (NULL: an empty span). The size saturates rather than wraps: the
 * calls check their counts against size_t first, but a capacity the caller declares is only a
 * claim, and a claim past the end of memory still covers everything after p. */
static inline sepax_span sepax_span_of(const void *p, size_t n, size_t size) {
    sepax_span s = {p, 0};
    /* no division: a call's check costs a few instructions, not a divide's latency */
    if (__builtin_mul_overflow(n, size, &s.bytes)) s.bytes = SIZE_MAX;
    if (!p) s.bytes = 0; /* none: empty, which shares no byte */
    return s;
}

/* SEPAX_ERR_ALIASED when one of outs[0 .. nout-1] shares a byte with another of them or with
 * one of ins[0 .. nin-1] (inputs may share bytes with each other), else SEPAX_OK. An empty
 * span shares none. */
sepax_status sepax_spans_apart(const sepax_span *outs, size_t nout, const sepax_span *ins,
                               size_t nin);

#endif
