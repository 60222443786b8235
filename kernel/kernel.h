/* The interface every ISA copy of the SAT kernel exports. Inputs are already
 * validated by the caller (ids in range and live, buffers present, margin
 * finite), so kernels never check; they stay memory-safe on any float bits
 * all the same. Pair ids still carry their generation: kernels mask it off. */
#ifndef SEPAX_KERNEL_H
#define SEPAX_KERNEL_H

#include "store.h"

typedef struct sepax_kernel {
    const char *name;
    sepax_backend backend;
    void (*overlap)(const sepax_shapes *store, const sepax_pair *pairs, size_t n, float margin,
                    uint8_t *hit);
    void (*collide)(const sepax_shapes *store, const sepax_pair *pairs, size_t n, float margin,
                    sepax_hit *out);
    /* probe is an index here */
    void (*overlap_one)(const sepax_shapes *store, uint32_t probe, uint32_t first, size_t count,
                        float margin, uint8_t *hit);
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

/* How a pair list's pair is computed, from its shapes' kinds and classes:
 *   SHARP    two sharp polygons, edge normals only (a positive margin asks
 *            for distances, and those need the closest-vertices axis too:
 *            such pairs go GENERAL)
 *   CIRCLES  two circles, one pair per lane
 *   CIRCLE_A A a circle, B not
 *   CIRCLE_B B a circle, A a capsule or polygon
 *   SMALL_A  A a capsule (2 vertices), B a capsule or polygon
 *   SMALL_B  B a capsule, A a polygon
 *   GENERAL  the rest: edge normals and the closest-vertices axis */
enum {
    SEPAX_PAIR_SHARP,
    SEPAX_PAIR_CIRCLES,
    SEPAX_PAIR_CIRCLE_A,
    SEPAX_PAIR_CIRCLE_B,
    SEPAX_PAIR_SMALL_A,
    SEPAX_PAIR_SMALL_B,
    SEPAX_PAIR_GENERAL,
    SEPAX_PAIR_CLASSES
};

/* The class of a pair from each shape's kind (sepax_kind) and class
 * (SEPAX_CLASS_*). */
static inline unsigned sepax_pair_class(unsigned ka, unsigned ca, unsigned kb, unsigned cb,
                                        int margin_positive) {
    if (ka == SEPAX_KIND_CIRCLE && kb == SEPAX_KIND_CIRCLE) return SEPAX_PAIR_CIRCLES;
    if (ka == SEPAX_KIND_CIRCLE) return SEPAX_PAIR_CIRCLE_A;
    if (kb == SEPAX_KIND_CIRCLE) return SEPAX_PAIR_CIRCLE_B;
    if (ka != SEPAX_KIND_POLYGON) return SEPAX_PAIR_SMALL_A;
    if (kb != SEPAX_KIND_POLYGON) return SEPAX_PAIR_SMALL_B;
    if (ca == SEPAX_CLASS_SHARP && cb == SEPAX_CLASS_SHARP && !margin_positive)
        return SEPAX_PAIR_SHARP;
    return SEPAX_PAIR_GENERAL;
}

#endif
