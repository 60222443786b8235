/* Local to world for one shape, in scalar code: what adding a shape uses,
 * and the formula the SIMD update kernels follow operation for operation.
 *   world vertex = (c*x - s*y) + px, (s*x + c*y) + py
 *   world normal = c*nx - s*ny, s*nx + c*ny
 *   world offset = nx'*x' + ny'*y' (plane k through vertex k)
 *   bounds       = running min / max over the 8 (padded) vertices */
#include "store.h"

void sepax_transform_shape(sepax_shapes *st, uint32_t id) {
    const sepax_local_block *l = &st->local[id / SEPAX_BLOCK_LANES];
    const sepax_pose_block *p = &st->pose[id / SEPAX_BLOCK_LANES];
    sepax_poly_block *w = &st->block[id / SEPAX_BLOCK_LANES];
    sepax_aabb_block *b = &st->aabb[id / SEPAX_BLOCK_LANES];
    unsigned i = id % SEPAX_BLOCK_LANES;
    float c = p->c[i], s = p->s[i], px = p->px[i], py = p->py[i];
    float minx = 0, miny = 0, maxx = 0, maxy = 0;
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        float x = l->x[k][i], y = l->y[k][i], nx = l->nx[k][i], ny = l->ny[k][i];
        float wx = (c * x - s * y) + px, wy = (s * x + c * y) + py;
        float wnx = c * nx - s * ny, wny = s * nx + c * ny;
        w->x[k][i] = wx;
        w->y[k][i] = wy;
        w->nx[k][i] = wnx;
        w->ny[k][i] = wny;
        w->c[k][i] = wnx * wx + wny * wy;
        minx = k == 0 || wx < minx ? wx : minx;
        miny = k == 0 || wy < miny ? wy : miny;
        maxx = k == 0 || wx > maxx ? wx : maxx;
        maxy = k == 0 || wy > maxy ? wy : maxy;
    }
    b->minx[i] = minx;
    b->miny[i] = miny;
    b->maxx[i] = maxx;
    b->maxy[i] = maxy;
    sepax_poly_rec *r = &st->rec[id]; /* the record holds the same values */
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        r->x[k] = w->x[k][i];
        r->y[k] = w->y[k][i];
        r->nx[k] = w->nx[k][i];
        r->ny[k] = w->ny[k][i];
        r->c[k] = w->c[k][i];
    }
}
