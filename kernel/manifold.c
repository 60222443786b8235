/* Contact manifolds from the kernel's collide answers. The SIMD kernel finds
 * each pair's normal, depth and winning axis (the expensive part: every axis
 * of both shapes); this turns them into at most two contact points, one pair
 * at a time, reading the same world records:
 *   - a plane of A or B won: that edge is the reference face; the other
 *     shape's edge most opposed to it is the incident edge, clipped to the
 *     reference face's side planes (Box2D's and cute_c2's method), and the
 *     clipped points within the margin are kept;
 *   - the closest-vertices axis won (curved pairs): one point, between the
 *     two closest core vertices.
 * The arithmetic is written once here and once, independently, in
 * reference_manifold.c; the tests compare the two bit for bit. The SIMD
 * kernel copies run face hits through manifold_kernel.c instead (the same
 * operations with a pair per lane), closest-vertices hits too; the scalar
 * copy calls this for every pair. */
#include "manifold.h"

#include <math.h>

typedef struct core {
    const float *x, *y, *nx, *ny, *c;
    int count, planes;
    float radius;
} core;

static core core_of(const sepax_shapes *st, uint32_t id) {
    uint32_t i = id & SEPAX_ID_INDEX_MASK;
    const sepax_poly_rec *r = &st->rec[i];
    core k = {r->x, r->y, r->nx, r->ny, r->c, st->nverts[i], st->nplanes[i], st->disc[i].r};
    return k;
}

/* A contact from an incident core point p against reference plane (n, c):
 * its separation (the SAT's formula: projection minus offset, minus both
 * radii) and the point midway between the surfaces. */
static sepax_contact contact_at(float px, float py, float nx, float ny, float c, float r_ref,
                                float r_inc, float radii, uint32_t id) {
    float s = (nx * px + ny * py) - c;
    float h = 0.5f * ((r_ref - s) - r_inc);
    sepax_contact k = {{px + h * nx, py + h * ny}, s - radii, id};
    return k;
}

static uint32_t feature(int ref_is_b, int ref_index, int inc_index, unsigned ref_type,
                        unsigned inc_type) {
    return ref_is_b ? SEPAX_FEATURE_ID(inc_index, ref_index, inc_type, ref_type)
                    : SEPAX_FEATURE_ID(ref_index, inc_index, ref_type, inc_type);
}

/* Keep the part of segment in[0]-in[1] where the signed distances d (<= 0
 * inside) are inside; a crossing keeps the id of the point it replaces, the one outside, so
 * that a point's id does not change when its vertex crosses a side plane (a resting stack of
 * equal boxes, whose corners sit on the planes). Returns the points kept. */
static int clip(const float in_x[2], const float in_y[2], const uint32_t in_id[2], float d0,
                float d1, float out_x[2], float out_y[2], uint32_t out_id[2]) {
    int n = 0;
    if (d0 <= 0.0f) {
        out_x[n] = in_x[0];
        out_y[n] = in_y[0];
        out_id[n++] = in_id[0];
    }
    if (d1 <= 0.0f) {
        out_x[n] = in_x[1];
        out_y[n] = in_y[1];
        out_id[n++] = in_id[1];
    }
    if ((d0 < 0.0f && d1 > 0.0f) || (d0 > 0.0f && d1 < 0.0f)) {
        float f = d0 / (d0 - d1);
        out_x[n] = in_x[0] + f * (in_x[1] - in_x[0]);
        out_y[n] = in_y[0] + f * (in_y[1] - in_y[0]);
        out_id[n++] = d0 > 0.0f ? in_id[0] : in_id[1];
    }
    return n;
}

/* Reference face k of R, incident shape I. */
static uint32_t face_points(const core *R, int k, const core *I, int ref_is_b, float radii,
                            float margin, sepax_contact out[SEPAX_MANIFOLD_POINTS]) {
    float nx = R->nx[k], ny = R->ny[k], c = R->c[k];
    if (I->planes == 0) { /* a circle: its centre is the one point */
        out[0] = contact_at(I->x[0], I->y[0], nx, ny, c, R->radius, I->radius, radii,
                            feature(ref_is_b, k, 0, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX));
        return 1;
    }
    /* the incident edge: of the two at the deepest vertex (the least projection on n, the
     * first of equals), the one whose normal has the lesser dot product with n, the edge out
     * of the vertex on a tie. Taking the least over all edges is the same in exact arithmetic,
     * but normals of a shallow arch round to ties, and the lowest index could then be an edge
     * away from the contact, clipped to nothing. */
    int v = 0;
    float least = nx * I->x[0] + ny * I->y[0];
    for (int q = 1; q < I->count; q++) {
        float d = nx * I->x[q] + ny * I->y[q];
        if (d < least) {
            least = d;
            v = q;
        }
    }
    int into = v > 0 ? v - 1 : I->count - 1;
    int j = nx * I->nx[into] + ny * I->ny[into] < nx * I->nx[v] + ny * I->ny[v] ? into : v;
    int j2 = j + 1 < I->count ? j + 1 : 0, k2 = k + 1 < R->count ? k + 1 : 0;
    float ix[2] = {I->x[j], I->x[j2]}, iy[2] = {I->y[j], I->y[j2]};
    uint32_t iid[2] = {feature(ref_is_b, k, j, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX),
                       feature(ref_is_b, k, j2, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX)};
    /* the face's tangent, from vertex k to k2; its side planes bound t.p to [lo, hi] */
    float tx = 0.0f - ny, ty = nx;
    float lo = tx * R->x[k] + ty * R->y[k], hi = tx * R->x[k2] + ty * R->y[k2];
    float u0 = tx * ix[0] + ty * iy[0], u1 = tx * ix[1] + ty * iy[1]; /* along the face */
    float ax[2], ay[2], bx[2], by[2];
    uint32_t aid[2], bid[2];
    int n = clip(ix, iy, iid, lo - u0, lo - u1, ax, ay, aid);
    if (n == 2)
        n = clip(ax, ay, aid, (tx * ax[0] + ty * ay[0]) - hi, (tx * ax[1] + ty * ay[1]) - hi, bx,
                 by, bid);
    uint32_t kept = 0;
    if (n == 2) {
        for (int q = 0; q < 2; q++) {
            sepax_contact p =
                contact_at(bx[q], by[q], nx, ny, c, R->radius, I->radius, radii, bid[q]);
            if (p.separation <= margin) out[kept++] = p;
        }
    }
    if (kept == 0) {
        /* the clip left too little: the deepest incident vertex; of two equally deep (an edge
         * parallel to the face, as boxes touching corner to corner), the one nearer the face's
         * span, which the clip kept (the other can be a whole edge away from R; the first of
         * the two was taken before, a coin toss) */
        float s0 = nx * ix[0] + ny * iy[0], s1 = nx * ix[1] + ny * iy[1];
        float out0 = fmaxf(lo - u0, u0 - hi), out1 = fmaxf(lo - u1, u1 - hi);
        int d = s1 < s0 || (s1 == s0 && out1 < out0);
        out[0] = contact_at(ix[d], iy[d], nx, ny, c, R->radius, I->radius, radii, iid[d]);
        kept = 1;
    }
    return kept;
}

/* The closest-vertices axis won (curved pairs): the one contact point, between the two
 * closest core vertices (the first closest pair, A's vertex the outer loop), midway between
 * the surfaces. The search selects on the bits rather than branching, since which pair is
 * closer next is a coin toss. manifold_kernel.c's vertex_step is the same with a pair per
 * lane. */
static void vertex_contact(const sepax_shapes *st, sepax_pair pair, const sepax_hit *h,
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
            int nearer = d2 < best;
            uint32_t closer = 0u - (uint32_t)nearer;
            best = sepax_pick(nearer, d2, best);
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

void sepax_manifold_from_hit(const sepax_shapes *st, sepax_pair pair, const sepax_hit *h,
                             unsigned axis, float margin, sepax_manifold *out) {
    sepax_manifold m = {{0.0f, 0.0f}, 0.0f, 0, {{{0.0f, 0.0f}, 0.0f, 0}, {{0.0f, 0.0f}, 0.0f, 0}}};
    if (h->hit) {
        core A = core_of(st, pair.a), B = core_of(st, pair.b);
        float radii = A.radius + B.radius;
        m.normal = h->normal;
        m.depth = h->depth;
        /* the kernel's codes are always in range; the masks keep any index in its record */
        if (axis < SEPAX_AXIS_B)
            m.count = face_points(&A, (int)axis & 7, &B, 0, radii, margin, m.points);
        else if (axis < SEPAX_AXIS_VERTICES)
            m.count = face_points(&B, (int)axis & 7, &A, 1, radii, margin, m.points);
        else {
            vertex_contact(st, pair, h, &m.points[0]);
            m.count = 1;
        }
    }
    *out = m;
}
