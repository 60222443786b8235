/* The world update, written once against lanes.h and compiled per ISA like
 * sat_kernel.c, the formula of transform.c operation for operation, so every
 * backend writes the bits the scalar path and the reference compute. Two
 * passes over the same arithmetic: the transposed blocks and bounds with a
 * lane per shape, then the per-shape records with a lane per vertex (the
 * same values again; computing them is cheaper than transposing). */
#include "kernel.h"
#include "lanes.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

void CAT(SEPAX_KERNEL_NAME, _update)(sepax_shapes *st);

/* a pose field of shape id, for lf_bcast */
#define POSE(st, field, id) (&(st)->pose[(id) / SEPAX_BLOCK_LANES].field[(id) % SEPAX_BLOCK_LANES])

static void update_records(sepax_shapes *st) {
    for (uint32_t i = 0; i < st->count; i += SEPAX_P) {
        uint32_t i1 = i + SEPAX_P - 1 < st->count ? i + SEPAX_P - 1 : i;
        const sepax_local_rec *l0 = &st->lrec[i], *l1 = &st->lrec[i1];
        sepax_poly_rec *r0 = &st->rec[i], *r1 = &st->rec[i1];
        lf c = lf_bcast(POSE(st, c, i), POSE(st, c, i1));
        lf s = lf_bcast(POSE(st, s, i), POSE(st, s, i1));
        lf px = lf_bcast(POSE(st, px, i), POSE(st, px, i1));
        lf py = lf_bcast(POSE(st, py, i), POSE(st, py, i1));
        lf x = lf_load(l0->x, l1->x), y = lf_load(l0->y, l1->y);
        lf nx = lf_load(l0->nx, l1->nx), ny = lf_load(l0->ny, l1->ny);
        lf wx = lf_add(lf_sub(lf_mul(c, x), lf_mul(s, y)), px);
        lf wy = lf_add(lf_add(lf_mul(s, x), lf_mul(c, y)), py);
        lf wnx = lf_sub(lf_mul(c, nx), lf_mul(s, ny));
        lf wny = lf_add(lf_mul(s, nx), lf_mul(c, ny));
        lf_store2(wx, r0->x, r1->x);
        lf_store2(wy, r0->y, r1->y);
        lf_store2(wnx, r0->nx, r1->nx);
        lf_store2(wny, r0->ny, r1->ny);
        lf_store2(lf_add(lf_mul(wnx, wx), lf_mul(wny, wy)), r0->c, r1->c);
    }
}

void CAT(SEPAX_KERNEL_NAME, _update)(sepax_shapes *st) {
    size_t nblocks = ((size_t)st->count + SEPAX_BLOCK_LANES - 1) / SEPAX_BLOCK_LANES;
    for (size_t b = 0; b < nblocks; b += SEPAX_P) {
        /* with two slots and an odd last block, slot 1 repeats slot 0: it
         * writes the same bits to the same place */
        size_t b1 = b + SEPAX_P - 1 < nblocks ? b + SEPAX_P - 1 : b;
        const sepax_local_block *l0 = &st->local[b], *l1 = &st->local[b1];
        const sepax_pose_block *p0 = &st->pose[b], *p1 = &st->pose[b1];
        sepax_poly_block *w0 = &st->block[b], *w1 = &st->block[b1];
        sepax_aabb_block *a0 = &st->aabb[b], *a1 = &st->aabb[b1];
        lf c = lf_load(p0->c, p1->c), s = lf_load(p0->s, p1->s);
        lf px = lf_load(p0->px, p1->px), py = lf_load(p0->py, p1->py);
        lf minx = px, miny = px, maxx = px, maxy = px; /* set at k == 0 */
#if defined(__clang__) || defined(__GNUC__)
#pragma GCC unroll 8
#endif
        for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
            lf x = lf_load(l0->x[k], l1->x[k]), y = lf_load(l0->y[k], l1->y[k]);
            lf nx = lf_load(l0->nx[k], l1->nx[k]), ny = lf_load(l0->ny[k], l1->ny[k]);
            lf wx = lf_add(lf_sub(lf_mul(c, x), lf_mul(s, y)), px);
            lf wy = lf_add(lf_add(lf_mul(s, x), lf_mul(c, y)), py);
            lf wnx = lf_sub(lf_mul(c, nx), lf_mul(s, ny));
            lf wny = lf_add(lf_mul(s, nx), lf_mul(c, ny));
            lf_store2(wx, w0->x[k], w1->x[k]);
            lf_store2(wy, w0->y[k], w1->y[k]);
            lf_store2(wnx, w0->nx[k], w1->nx[k]);
            lf_store2(wny, w0->ny[k], w1->ny[k]);
            lf_store2(lf_add(lf_mul(wnx, wx), lf_mul(wny, wy)), w0->c[k], w1->c[k]);
            minx = k ? lf_min(wx, minx) : wx;
            miny = k ? lf_min(wy, miny) : wy;
            maxx = k ? lf_max(wx, maxx) : wx;
            maxy = k ? lf_max(wy, maxy) : wy;
        }
        lf_store2(minx, a0->minx, a1->minx);
        lf_store2(miny, a0->miny, a1->miny);
        lf_store2(maxx, a0->maxx, a1->maxx);
        lf_store2(maxy, a0->maxy, a1->maxy);
    }
    update_records(st);
}
