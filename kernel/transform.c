/* Local to world for one shape, in scalar code: what adding a shape uses,
 * and the formula the SIMD update kernels follow operation for operation.
 *   world vertex = (c*x - s*y) + px, (s*x + c*y) + py
 *   world normal = c*nx - s*ny, s*nx + c*ny
 *   world offset = max(nx'*x'_k + ny'*y'_k, nx'*x'_e + ny'*y'_e) + cbias,
 *                  max(a, b) as a > b ? a : b, over the ends of the plane's
 *                  edge: vertex k and e = k + 1, or 0 past the last vertex
 *                  (a padding row's plane is the last edge's); cbias is -0,
 *                  or +Inf for a circle, which has no plane. The rotated
 *                  normal is not exactly square to the rotated edge, so a
 *                  plane through vertex k alone can leave the far end an ulp
 *                  outside: two polygons sharing that vertex were called
 *                  apart (a review: 818 of 3,407 random triangle pairs
 *                  sharing a vertex, where README promises a hit).
 *   bounds       = running min / max over the 8 (padded) vertices, then
 *                  min - r and max + r */
#include "store.h"

static inline float world_x(float c, float s, float px, float x, float y) {
    return (c * x - s * y) + px;
}

static inline float world_y(float c, float s, float py, float x, float y) {
    return (s * x + c * y) + py;
}

/* The world offset of plane k of world rows x, y, nx, ny (the formula above). */
static inline float plane_offset(const float *x, const float *y, const float *nx, const float *ny,
                                 int k, int last, float cbias) {
    int e = k < last ? k + 1 : 0;
    float at_k = nx[k] * x[k] + ny[k] * y[k], at_e = nx[k] * x[e] + ny[k] * y[e];
    return (at_k > at_e ? at_k : at_e) + cbias;
}

/* The running min / max over the vertices (vertex 0 starts it), then widened by r. */
typedef struct bounds_acc {
    float minx, miny, maxx, maxy;
} bounds_acc;

static inline void bounds_add(bounds_acc *a, int k, float wx, float wy) {
    a->minx = k == 0 || wx < a->minx ? wx : a->minx;
    a->miny = k == 0 || wy < a->miny ? wy : a->miny;
    a->maxx = k == 0 || wx > a->maxx ? wx : a->maxx;
    a->maxy = k == 0 || wy > a->maxy ? wy : a->maxy;
}

static inline void bounds_store(sepax_aabb_block *b, unsigned i, const bounds_acc *a, float r) {
    b->minx[i] = a->minx - r;
    b->miny[i] = a->miny - r;
    b->maxx[i] = a->maxx + r;
    b->maxy[i] = a->maxy + r;
}

void sepax_transform_bounds(sepax_shapes *st, uint32_t id) {
    const sepax_local_block *l = &st->local[id / SEPAX_BLOCK_LANES];
    const sepax_pose_block *p = &st->pose[id / SEPAX_BLOCK_LANES];
    sepax_aabb_block *b = &st->aabb[id / SEPAX_BLOCK_LANES];
    unsigned i = id % SEPAX_BLOCK_LANES;
    float c = p->c[i], s = p->s[i], px = p->px[i], py = p->py[i], r = l->r[i];
    bounds_acc acc = {0, 0, 0, 0};
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        float wx = world_x(c, s, px, l->x[k][i], l->y[k][i]);
        float wy = world_y(c, s, py, l->x[k][i], l->y[k][i]);
        bounds_add(&acc, k, wx, wy);
    }
    bounds_store(b, i, &acc, r);
}

void sepax_transform_shape(sepax_shapes *st, uint32_t id) {
    const sepax_local_block *l = &st->local[id / SEPAX_BLOCK_LANES];
    const sepax_pose_block *p = &st->pose[id / SEPAX_BLOCK_LANES];
    sepax_poly_block *w = &st->block[id / SEPAX_BLOCK_LANES];
    sepax_aabb_block *b = &st->aabb[id / SEPAX_BLOCK_LANES];
    unsigned i = id % SEPAX_BLOCK_LANES;
    float c = p->c[i], s = p->s[i], px = p->px[i], py = p->py[i];
    float r = l->r[i], cbias = l->cbias[i];
    int last = (int)l->last[i];
    bounds_acc acc = {0, 0, 0, 0};
    sepax_poly_rec *rec = &st->rec[id]; /* the record holds the same values */
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        float x = l->x[k][i], y = l->y[k][i], nx = l->nx[k][i], ny = l->ny[k][i];
        float wx = world_x(c, s, px, x, y), wy = world_y(c, s, py, x, y);
        rec->x[k] = wx;
        rec->y[k] = wy;
        rec->nx[k] = c * nx - s * ny;
        rec->ny[k] = s * nx + c * ny;
        bounds_add(&acc, k, wx, wy);
    }
    for (int k = 0; k < SEPAX_MAX_VERTS; k++)
        rec->c[k] = plane_offset(rec->x, rec->y, rec->nx, rec->ny, k, last, cbias);
    bounds_store(b, i, &acc, r);
    for (int k = 0; k < SEPAX_MAX_VERTS; k++) {
        w->x[k][i] = rec->x[k];
        w->y[k][i] = rec->y[k];
        w->nx[k][i] = rec->nx[k];
        w->ny[k][i] = rec->ny[k];
        w->c[k][i] = rec->c[k];
    }
    st->disc[id] = (sepax_disc){rec->x[0], rec->y[0], r, 0.0f};
}
