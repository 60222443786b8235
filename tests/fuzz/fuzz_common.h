/* Checks shared by the libFuzzer targets. Each traps on a failure, so
 * libFuzzer records the input. */
#ifndef SEPAX_FUZZ_COMMON_H
#define SEPAX_FUZZ_COMMON_H

#include <stddef.h>

#include "sepax.h"

/* Trap, so that libFuzzer records the input; `why` names the check for a reader. */
_Noreturn void fuzz_fail(const char *why);

/* The byte output buffers are filled with before a call, to see what it wrote. */
#define FUZZ_MARK 0xC3

/* Whether bytes from .. to-1 of buf all still hold FUZZ_MARK. */
int fuzz_untouched(const void *buf, size_t from, size_t to);

/* Ids removed during one input, which must be refused from then on. */
#define FUZZ_MAXDEAD 64
typedef struct fuzz_dead {
    uint32_t id[FUZZ_MAXDEAD];
    int n, cap; /* cap <= FUZZ_MAXDEAD: how many a target keeps */
} fuzz_dead;

/* Shape `id`'s world data (view and bounds) equals sepax_ref_world's, bit
 * for bit, with the plane count its kind implies. */
void fuzz_same_world(const sepax_shapes *store, uint32_t id);

/* Remove the shape one byte picks (0xf0.. with dead ids: one of those again;
 * count: past the end) and check the outcome: refusals change nothing; a
 * removal reports the move, the moved shape keeps its local shape, pose and
 * world data, and both old ids are refused. Returns 1 when a shape was
 * removed, with *probe a live id (the moved shape if any) or SEPAX_NO_ID. */
int fuzz_remove(sepax_shapes *store, int byte, fuzz_dead *dead, uint32_t *probe);

#endif
