/* The interface every ISA copy of the SAT kernel exports. Inputs are already
 * validated by the caller (ids in range, buffers present), so kernels never
 * check; they stay memory-safe on any float bits all the same. */
#ifndef SEPAX_KERNEL_H
#define SEPAX_KERNEL_H

#include "store.h"

typedef struct sepax_kernel {
    const char *name;
    sepax_backend backend;
    void (*overlap)(const sepax_poly_rec *rec, const sepax_pair *pairs, size_t n, uint8_t *hit);
    void (*collide)(const sepax_poly_rec *rec, const sepax_pair *pairs, size_t n, sepax_hit *out);
    void (*overlap_one)(const sepax_shapes *store, uint32_t probe, uint32_t first, size_t count,
                        uint8_t *hit);
    void (*update)(sepax_shapes *store); /* world data from local shapes and poses */
} sepax_kernel;

/* One per ISA copy built into the library (see kernel/meson.build). */
extern const sepax_kernel sepax_kernel_scalar;
extern const sepax_kernel sepax_kernel_sse2;
extern const sepax_kernel sepax_kernel_sse41;
extern const sepax_kernel sepax_kernel_avx2;
extern const sepax_kernel sepax_kernel_avx512;
extern const sepax_kernel sepax_kernel_neon;

/* The kernel queries go to, chosen on first use; an error when the
 * SEPAX_BACKEND environment variable names a backend that cannot run. */
sepax_status sepax_kernel_for_query(const sepax_kernel **out);

#endif
