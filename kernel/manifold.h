/* Contact manifolds from collide answers (manifold.c). */
#ifndef SEPAX_MANIFOLD_H
#define SEPAX_MANIFOLD_H

#include "kernel.h"

#include <string.h>

/* Pair `pair`'s manifold from its collide answer h and winning axis (a
 * SEPAX_AXIS_* code), under `margin`. Writes all of *out. */
void sepax_manifold_from_hit(const sepax_shapes *st, sepax_pair pair, const sepax_hit *h,
                             unsigned axis, float margin, sepax_manifold *out);

/* The closest-vertices axis won (curved pairs): the one contact point, between the two
 * closest core vertices (the first closest pair, A's vertex the outer loop), midway between
 * the surfaces. Inline, for the kernels' loop over such hits; the search selects on the
 * bits rather than branching, since which pair is closer next is a coin toss. */
static inline void sepax_vertex_contact(const sepax_shapes *st, sepax_pair pair, const sepax_hit *h,
                                        sepax_contact *out) {
    uint32_t a = pair.a & SEPAX_ID_INDEX_MASK, b = pair.b & SEPAX_ID_INDEX_MASK;
    const float *ax = st->rec[a].x, *ay = st->rec[a].y, *bx = st->rec[b].x, *by = st->rec[b].y;
    int na = st->nverts[a], nb = st->nverts[b];
    uint32_t bi = 0, bj = 0;
    float best = (bx[0] - ax[0]) * (bx[0] - ax[0]) + (by[0] - ay[0]) * (by[0] - ay[0]);
    for (int i = 0; i < na; i++) {
        for (int j = 0; j < nb; j++) {
            float dx = bx[j] - ax[i], dy = by[j] - ay[i];
            float d2 = dx * dx + dy * dy;
            uint32_t closer = 0u - (uint32_t)(d2 < best), u, v;
            memcpy(&u, &d2, sizeof u);
            memcpy(&v, &best, sizeof v);
            v = (u & closer) | (v & ~closer);
            memcpy(&best, &v, sizeof best);
            bi = ((uint32_t)i & closer) | (bi & ~closer);
            bj = ((uint32_t)j & closer) | (bj & ~closer);
        }
    }
    float nx = h->normal.x, ny = h->normal.y, ra = st->disc[a].r, rb = st->disc[b].r;
    out->point.x = 0.5f * ((ax[bi] + ra * nx) + (bx[bj] - rb * nx));
    out->point.y = 0.5f * ((ay[bi] + ra * ny) + (by[bj] - rb * ny));
    out->separation = 0.0f - h->depth;
    out->id = SEPAX_FEATURE_ID(bi, bj, SEPAX_FEATURE_VERTEX, SEPAX_FEATURE_VERTEX);
}

#endif
