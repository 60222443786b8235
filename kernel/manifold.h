/* Contact manifolds from collide answers (manifold.c). */
#ifndef SEPAX_MANIFOLD_H
#define SEPAX_MANIFOLD_H

#include "kernel.h"

/* Pair `pair`'s manifold from its collide answer h and winning axis (a
 * SEPAX_AXIS_* code), under `margin`. Writes all of *out. */
void sepax_manifold_from_hit(const sepax_shapes *st, sepax_pair pair, const sepax_hit *h,
                             unsigned axis, float margin, sepax_manifold *out);

#endif
