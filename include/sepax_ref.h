/* sepax scalar reference: the textbook SAT, one pair at a time, every edge
 * normal of both shapes. Slow and obviously correct; the SIMD backends must
 * give the same bits. Same contracts as the functions in sepax.h. */
#ifndef SEPAX_REF_H
#define SEPAX_REF_H

#include "sepax.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reference version of sepax_overlap.
SEPAX_API sepax_status sepax_ref_overlap(const sepax_shapes *store, const sepax_pair *pairs,
                                         size_t n, uint8_t *hit);

/// Reference version of sepax_collide.
SEPAX_API sepax_status sepax_ref_collide(const sepax_shapes *store, const sepax_pair *pairs,
                                         size_t n, sepax_hit *out);

/// Reference version of sepax_overlap_one.
SEPAX_API sepax_status sepax_ref_overlap_one(const sepax_shapes *store, uint32_t probe,
                                             uint32_t first, size_t count, uint8_t *hit);

#ifdef __cplusplus
}
#endif

#endif /* SEPAX_REF_H */
