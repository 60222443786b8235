/* Whether caller buffers share memory: a handful of spans a call, compared pairwise. */
#include "aliasing.h"

/* Whether [a, a + a.bytes) and [b, b + b.bytes) share a byte: both hold one, and the later one
 * starts before the earlier one ends. Differences of addresses, never sums, so a
 * span ending at the top of memory cannot wrap past it. */
static int share(sepax_span a, sepax_span b) {
    uintptr_t x = (uintptr_t)a.at, y = (uintptr_t)b.at;
    return a.bytes && b.bytes && (x <= y ? y - x < a.bytes : x - y < b.bytes);
}

sepax_status sepax_spans_apart(const sepax_span *outs, size_t nout, const sepax_span *ins,
                               size_t nin) {
    for (size_t i = 0; i < nout; i++) {
        for (size_t j = i + 1; j < nout; j++)
            if (share(outs[i], outs[j])) return SEPAX_ERR_ALIASED;
        for (size_t j = 0; j < nin; j++)
            if (share(outs[i], ins[j])) return SEPAX_ERR_ALIASED;
    }
    return SEPAX_OK;
}
