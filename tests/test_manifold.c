/* Contact manifolds: hand-worked cases, then properties over random stores of
 * every kind (plain and posed, three margins):
 *   - count > 0 exactly when collide hits, with collide's normal and depth
 *     (bit for bit);
 *   - no point is deeper than the depth, and the deepest point's separation
 *     equals -depth, bit for bit, except where clipping cut the deepest vertex
 *     away, which may happen in at most 0.1% of the hits (none in these stores);
 *   - each point's two surface points (point -+ separation/2 along the
 *     normal) lie on A's and B's boundaries, judged in double precision;
 *   - the library equals the reference bit for bit (every kernel copy is
 *     compared in test_equivalence.c as well). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exact.h"
#include "sepax_ref.h"
#include "workload.h"

static uint32_t add_box(sepax_shapes *s, float x0, float y0, float x1, float y1) {
    sepax_vec2 p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    uint32_t id;
    cr_assert_eq(sepax_shapes_add_polygon(s, p, 4, &id), SEPAX_OK);
    return id;
}

static sepax_manifold one(const sepax_shapes *s, uint32_t a, uint32_t b, float margin) {
    sepax_pair p = {a, b};
    sepax_query_options opt = {.margin = margin};
    sepax_manifold m, r;
    cr_assert_eq(sepax_collide_manifold_opt(s, &p, 1, &opt, &m), SEPAX_OK);
    cr_assert_eq(sepax_ref_collide_manifold_opt(s, &p, 1, &opt, &r), SEPAX_OK);
    cr_assert(memcmp(&m, &r, sizeof m) == 0, "library and reference differ");
    return m;
}

/* the point with this position, or fail */
static const sepax_contact *point_at(const sepax_manifold *m, float x, float y) {
    for (uint32_t i = 0; i < m->count; i++)
        if (fabsf(m->points[i].point.x - x) < 1e-6f && fabsf(m->points[i].point.y - y) < 1e-6f)
            return &m->points[i];
    cr_assert_fail("no point at (%g, %g): %u points, first (%g, %g)", (double)x, (double)y,
                   m->count, (double)m->points[0].point.x, (double)m->points[0].point.y);
    return NULL;
}

Test(manifold, box_resting_on_box) {
    sepax_shapes *s = sepax_shapes_create(4);
    uint32_t ground = add_box(s, -4, -1, 4, 0), box = add_box(s, -1, -0.25f, 1, 1.75f);
    sepax_manifold m = one(s, ground, box, 0.0f);
    cr_assert_eq(m.count, 2);
    cr_assert(m.normal.x == 0.0f && m.normal.y == 1.0f);
    cr_assert_float_eq(m.depth, 0.25f, 1e-7f);
    /* the box's bottom corners, clipped by nothing, midway into the ground's top */
    const sepax_contact *p = point_at(&m, -1.0f, -0.125f), *q = point_at(&m, 1.0f, -0.125f);
    cr_assert_float_eq(p->separation, -0.25f, 1e-7f);
    cr_assert_float_eq(q->separation, -0.25f, 1e-7f);
    /* face 2 of the ground (its top, from (4,0) to (-4,0)) against the box's vertices 0 and 1 */
    cr_assert_eq(p->id, SEPAX_FEATURE_ID(2, 0, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX));
    cr_assert_eq(q->id, SEPAX_FEATURE_ID(2, 1, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX));
    /* swapped: the normal flips and the box's bottom (face 0, A's) wins the tie; the ground's
     * top edge, from its vertex 2 at (4, 0) to 3 at (-4, 0), is clipped at both ends, each
     * point named by the ground's vertex the clip replaced */
    sepax_manifold w = one(s, box, ground, 0.0f);
    cr_assert_eq(w.count, 2);
    cr_assert(w.normal.x == 0.0f && w.normal.y == -1.0f);
    p = point_at(&w, -1.0f, -0.125f);
    q = point_at(&w, 1.0f, -0.125f);
    cr_assert_eq(p->id, SEPAX_FEATURE_ID(0, 3, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX));
    cr_assert_eq(q->id, SEPAX_FEATURE_ID(0, 2, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX));
    sepax_shapes_destroy(s);
}

Test(manifold, overhanging_box_is_clipped_to_the_face) {
    sepax_shapes *s = sepax_shapes_create(4);
    /* a wide box overhanging a narrow post's top on both sides */
    uint32_t post = add_box(s, -1, -4, 1, 0), plank = add_box(s, -3, -0.1f, 3, 0.4f);
    sepax_manifold m = one(s, post, plank, 0.0f);
    cr_assert_eq(m.count, 2);
    cr_assert(m.normal.x == 0.0f && m.normal.y == 1.0f);
    /* clipped at the post's corners: each point names the post's top (face 2) and the
     * plank's bottom vertex the clip replaced (vertex 1 at x = 3, vertex 0 at x = -3) */
    const sepax_contact *p = point_at(&m, 1.0f, -0.05f), *q = point_at(&m, -1.0f, -0.05f);
    cr_assert_float_eq(p->separation, -0.1f, 1e-6f);
    cr_assert_eq(p->id, SEPAX_FEATURE_ID(2, 1, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX));
    cr_assert_eq(q->id, SEPAX_FEATURE_ID(2, 0, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX));
    sepax_shapes_destroy(s);
}

/* A review's case: B's top is a shallow arch whose three edge normals all round to y = 1.0f,
 * so against A's bottom face they tie as the most opposed. The first of them, over x in
 * [2, 3], lies wholly beyond A's face (x in [-1, 1]): clipped to nothing, it left one point
 * at x = 2, a unit off A, with separation -0.6002 for a depth of 0.6004. The incident edge is
 * now one of the two at B's deepest vertex (x = 0): two points on the face, the deepest at
 * -depth, on every backend and in lanes (64 copies of the pair, both orders). */
Test(manifold, incident_edge_at_the_deepest_vertex) {
    sepax_shapes *s = sepax_shapes_create(4);
    uint32_t a = add_box(s, -1, -1, 1, 1), b;
    sepax_vec2 arch[6] = {{3, 0.1f},        {2, 0.1002f},   {0, 0.1004f},
                          {-0.5f, 0.1003f}, {-0.5f, -0.1f}, {3, -0.1f}};
    cr_assert_eq(sepax_shapes_add_polygon(s, arch, 6, &b), SEPAX_OK);
    sepax_pose pose = {{0, -0.5f}, {1, 0}};
    cr_assert_eq(sepax_shapes_set_poses(s, b, 1, &pose), SEPAX_OK);
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    enum { N = 64 };
    sepax_pair pairs[N];
    for (int i = 0; i < N; i++) pairs[i] = i % 2 ? (sepax_pair){b, a} : (sepax_pair){a, b};
    sepax_manifold want[N], got[N];
    cr_assert_eq(sepax_ref_collide_manifold(s, pairs, N, want), SEPAX_OK);
    int backends = 0;
    for (int be = 0; be < SEPAX_BACKEND_COUNT; be++) {
        if (sepax_set_backend((sepax_backend)be) != SEPAX_OK) continue;
        backends++;
        cr_assert_eq(sepax_collide_manifold(s, pairs, N, got), SEPAX_OK);
        cr_assert(memcmp(got, want, sizeof got) == 0, "backend %d differs from the reference", be);
    }
    cr_assert_eq(sepax_set_backend(SEPAX_BACKEND_AUTO), SEPAX_OK);
    cr_assert(backends >= 1);
    for (int i = 0; i < N; i++) {
        const sepax_manifold *m = &want[i];
        cr_assert_eq(m->count, 2, "pair %d: %u points", i, m->count);
        float deepest = fminf(m->points[0].separation, m->points[1].separation);
        cr_assert(deepest == -m->depth, "pair %d: deepest %.9g, depth %.9g", i, (double)deepest,
                  (double)m->depth);
        for (int k = 0; k < 2; k++)
            cr_assert(fabsf(m->points[k].point.x) <= 1.0f, "pair %d: point %d at x = %.9g", i, k,
                      (double)m->points[k].point.x);
    }
    sepax_shapes_destroy(s);
}

/* Boxes touching corner to corner (diagonal neighbours in a grid of tiles): the clip keeps
 * only the corner, and the single point falls back to the deepest incident vertex, where the
 * incident edge, parallel to the face, has two equally deep. The first of them was taken, a
 * whole edge away from the other box; now the one nearer the face's span. Every backend and
 * the reference, both orders, at margin 0 and, apart by 0.5, at margin 1. */
Test(manifold, corner_to_corner_on_both_surfaces) {
    static const float corner[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    for (int be = 0; be < SEPAX_BACKEND_COUNT; be++) {
        if (!sepax_backend_available((sepax_backend)be)) continue;
        cr_assert_eq(sepax_set_backend((sepax_backend)be), SEPAX_OK);
        for (int c = 0; c < 4; c++) {
            for (int apart = 0; apart < 2; apart++) {
                float cx = corner[c][0], cy = corner[c][1], gap = apart ? 0.5f : 0.0f;
                sepax_shapes *s = sepax_shapes_create(2);
                uint32_t a = add_box(s, -1, -1, 1, 1);
                /* B's corner at A's, moved out along x by the gap */
                float bx0 = cx > 0 ? cx + gap : cx - gap - 2, by0 = cy > 0 ? cy : cy - 2;
                uint32_t b = add_box(s, bx0, by0, bx0 + 2, by0 + 2);
                cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
                float margin = apart ? 1.0f : 0.0f;
                float want_x = cx > 0 ? cx + gap / 2 : cx - gap / 2;
                for (int order = 0; order < 2; order++) {
                    sepax_manifold m = order ? one(s, b, a, margin) : one(s, a, b, margin);
                    cr_assert_eq(m.count, 1, "%s, corner %d, gap %g: %u points",
                                 sepax_backend_name((sepax_backend)be), c, (double)gap, m.count);
                    cr_expect(m.points[0].point.x == want_x && m.points[0].point.y == cy,
                              "%s, corner (%g, %g), gap %g, order %d: point (%g, %g)",
                              sepax_backend_name((sepax_backend)be), (double)cx, (double)cy,
                              (double)gap, order, (double)m.points[0].point.x,
                              (double)m.points[0].point.y);
                    cr_expect_eq(m.points[0].separation, gap);
                }
                sepax_shapes_destroy(s);
            }
        }
        /* a capsule's core end level with a box's edge: the near end, not the far one */
        sepax_shapes *s = sepax_shapes_create(2);
        uint32_t cap, box;
        cr_assert_eq(
            sepax_shapes_add_capsule(s, (sepax_vec2){-2, 0}, (sepax_vec2){2, 0}, 0.25f, &cap),
            SEPAX_OK);
        box = add_box(s, -3, 0.2f, -2, 1.2f);
        cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
        for (int order = 0; order < 2; order++) {
            sepax_manifold m = order ? one(s, box, cap, 0) : one(s, cap, box, 0);
            cr_assert_gt(m.count, 0);
            for (uint32_t k = 0; k < m.count; k++)
                cr_expect(fabsf(m.points[k].point.x + 2.0f) < 0.01f,
                          "%s, order %d: point %u at x = %g, not at the near end (-2)",
                          sepax_backend_name((sepax_backend)be), order, k,
                          (double)m.points[k].point.x);
        }
        sepax_shapes_destroy(s);
    }
    cr_assert_eq(sepax_set_backend(SEPAX_BACKEND_AUTO), SEPAX_OK);
}

/* The ids of (the point set of) a manifold, in a fixed order. */
static void sorted_ids(const sepax_manifold *m, uint32_t out[2]) {
    out[0] = m->count > 0 ? m->points[0].id : 0u;
    out[1] = m->count > 1 ? m->points[1].id : 0u;
    if (out[1] < out[0]) {
        uint32_t t = out[0];
        out[0] = out[1];
        out[1] = t;
    }
}

/* A column of equal boxes at rest: B's bottom corners sit on the side planes through A's top
 * face's ends, and a solver's jitter moves them across, one in and one out. The points must
 * keep their ids, or a solver matching them frame to frame starts every frame cold. Until
 * 2026-11-30 a clipped point was named (A's vertex at that end, B's edge), as Box2D 2.4 does,
 * and a point inside (A's face, B's vertex), so a nudge of 1e-6 either way renamed both
 * points (a review's game loop kept 49-57% of its box stack's ids from frame to frame). Every
 * backend and the reference, both orders, nudges from 1e-7 to 1e-2 both ways and none; and a
 * plank sliding over a post's corner. */
Test(manifold, ids_survive_a_corner_crossing_a_side_plane) {
    static const float nudge[] = {0.0f,   1e-7f, -1e-7f, 1e-6f, -1e-6f, 1e-4f,
                                  -1e-4f, 1e-3f, -1e-3f, 1e-2f, -1e-2f};
    enum { NUDGES = sizeof nudge / sizeof nudge[0] };
    for (int be = -1; be < SEPAX_BACKEND_COUNT; be++) {
        if (be >= 0 && !sepax_backend_available((sepax_backend)be)) continue;
        if (be >= 0) cr_assert_eq(sepax_set_backend((sepax_backend)be), SEPAX_OK);
        const char *name = be >= 0 ? sepax_backend_name((sepax_backend)be) : "reference";
        for (int scene = 0; scene < 2; scene++) {
            sepax_shapes *s = sepax_shapes_create(2);
            /* 0: B a box as wide as A, 0.005 into its top; 1: a plank whose end is at the
             * post's corner */
            uint32_t a = scene ? add_box(s, -1, -4, 1, 0) : add_box(s, -0.5f, -0.5f, 0.5f, 0.5f);
            uint32_t b =
                scene ? add_box(s, -2, -0.1f, 1, 0.4f) : add_box(s, -0.5f, 0.495f, 0.5f, 1.495f);
            for (int order = 0; order < 2; order++) {
                sepax_pair pair = order ? (sepax_pair){b, a} : (sepax_pair){a, b};
                uint32_t first[2] = {0, 0};
                for (int k = 0; k < NUDGES; k++) {
                    sepax_pose pose = {{nudge[k], 0.0f}, {1.0f, 0.0f}};
                    cr_assert_eq(sepax_shapes_set_poses(s, b, 1, &pose), SEPAX_OK);
                    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
                    sepax_manifold m;
                    if (be >= 0)
                        cr_assert_eq(sepax_collide_manifold(s, &pair, 1, &m), SEPAX_OK);
                    else
                        cr_assert_eq(sepax_ref_collide_manifold(s, &pair, 1, &m), SEPAX_OK);
                    cr_assert_eq(m.count, 2, "%s, scene %d, order %d, nudge %g: %u points", name,
                                 scene, order, (double)nudge[k], m.count);
                    uint32_t ids[2];
                    sorted_ids(&m, ids);
                    cr_assert_neq(ids[0], ids[1]);
                    if (k == 0) memcpy(first, ids, sizeof first);
                    cr_expect(ids[0] == first[0] && ids[1] == first[1],
                              "%s, scene %d, order %d, nudge %g: ids %08x %08x, not %08x %08x",
                              name, scene, order, (double)nudge[k], ids[0], ids[1], first[0],
                              first[1]);
                }
            }
            sepax_shapes_destroy(s);
        }
    }
    cr_assert_eq(sepax_set_backend(SEPAX_BACKEND_AUTO), SEPAX_OK);
}

/* SEPAX_FEATURE_SWAP and the part macros: the parts come back as given, a swap twice is the
 * id, and a box tilted onto the ground, whose face is the reference in both orders, gives
 * the same contacts under (ground, box) and (box, ground), ids swapped. */
Test(manifold, feature_ids_swap_with_the_pair) {
    uint32_t id = SEPAX_FEATURE_ID(3, 7, SEPAX_FEATURE_FACE, SEPAX_FEATURE_VERTEX);
    cr_assert_eq(SEPAX_FEATURE_INDEX_A(id), 3u);
    cr_assert_eq(SEPAX_FEATURE_INDEX_B(id), 7u);
    cr_assert_eq(SEPAX_FEATURE_TYPE_A(id), SEPAX_FEATURE_FACE);
    cr_assert_eq(SEPAX_FEATURE_TYPE_B(id), SEPAX_FEATURE_VERTEX);
    cr_assert_eq(SEPAX_FEATURE_SWAP(id),
                 SEPAX_FEATURE_ID(7, 3, SEPAX_FEATURE_VERTEX, SEPAX_FEATURE_FACE));
    cr_assert_eq(SEPAX_FEATURE_SWAP(SEPAX_FEATURE_SWAP(id)), id);
    sepax_shapes *s = sepax_shapes_create(2);
    uint32_t ground = add_box(s, -4, -1, 4, 0), box;
    cr_assert_eq(sepax_shapes_add_box(s, 0.5f, 0.25f, &box), SEPAX_OK);
    /* turned by 0.1, one bottom corner about 0.02 below the ground's top */
    sepax_pose pose = {{0.0f, 0.28f}, sepax_rot(0.1f)};
    cr_assert_eq(sepax_shapes_set_poses(s, box, 1, &pose), SEPAX_OK);
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    sepax_manifold ab = one(s, ground, box, 0.1f), ba = one(s, box, ground, 0.1f);
    cr_assert(ab.count > 0 && ab.count == ba.count, "%u and %u points", ab.count, ba.count);
    cr_assert(ab.normal.x == -ba.normal.x && ab.normal.y == -ba.normal.y);
    for (uint32_t k = 0; k < ab.count; k++) {
        const sepax_contact *q = point_at(&ba, ab.points[k].point.x, ab.points[k].point.y);
        cr_expect_eq(q->id, SEPAX_FEATURE_SWAP(ab.points[k].id), "point %u: %08x, %08x", k, q->id,
                     ab.points[k].id);
    }
    sepax_shapes_destroy(s);
}

Test(manifold, speculative_points_within_the_margin) {
    sepax_shapes *s = sepax_shapes_create(4);
    uint32_t ground = add_box(s, -4, -1, 4, 0);
    uint32_t box = add_box(s, -1, 0.1f, 1, 2.1f); /* 0.1 above the ground */
    sepax_manifold m = one(s, ground, box, 0.0f);
    cr_assert_eq(m.count, 0);
    sepax_manifold zero;
    memset(&zero, 0, sizeof zero);
    cr_assert(memcmp(&m, &zero, sizeof m) == 0, "a miss is all zeros");
    m = one(s, ground, box, 0.25f);
    cr_assert_eq(m.count, 2);
    cr_assert_float_eq(m.depth, -0.1f, 1e-6f);
    cr_assert_float_eq(point_at(&m, -1.0f, 0.05f)->separation, 0.1f, 1e-6f);
    cr_assert_float_eq(point_at(&m, 1.0f, 0.05f)->separation, 0.1f, 1e-6f);
    /* tilted: one corner 0.1 above, the other 0.6: a margin of 0.3 keeps only the first */
    sepax_shapes_destroy(s);
    s = sepax_shapes_create(4);
    ground = add_box(s, -4, -1, 4, 0);
    sepax_vec2 tilted[4] = {{-1, 0.1f}, {1, 0.6f}, {1, 2.6f}, {-1, 2.1f}};
    cr_assert_eq(sepax_shapes_add_polygon(s, tilted, 4, &box), SEPAX_OK);
    m = one(s, ground, box, 0.3f);
    cr_assert_eq(m.count, 1);
    cr_assert_float_eq(m.points[0].separation, 0.1f, 1e-6f);
    sepax_shapes_destroy(s);
}

Test(manifold, curved_shapes) {
    sepax_shapes *s = sepax_shapes_create(8);
    uint32_t ground = add_box(s, -4, -1, 4, 0), c1, c2, cap;
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){0.5f, 0.75f}, 1.0f, &c1), SEPAX_OK);
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){3.5f, 0.75f}, 1.0f, &c2), SEPAX_OK);
    cr_assert_eq(
        sepax_shapes_add_capsule(s, (sepax_vec2){-2, 0.5f}, (sepax_vec2){2, 0.5f}, 0.75f, &cap),
        SEPAX_OK);
    /* a circle sinking 0.25 into the ground: one point below its centre */
    sepax_manifold m = one(s, ground, c1, 0.0f);
    cr_assert_eq(m.count, 1);
    cr_assert(m.normal.x == 0.0f && m.normal.y == 1.0f);
    cr_assert_float_eq(m.points[0].point.x, 0.5f, 1e-7f);
    cr_assert_float_eq(m.points[0].point.y, -0.125f, 1e-7f);
    cr_assert_float_eq(m.points[0].separation, -0.25f, 1e-7f);
    /* two circles 3 apart with radius 1 each: 1 apart, one point midway at margin 1.5 */
    m = one(s, c1, c2, 1.5f);
    cr_assert_eq(m.count, 1);
    cr_assert(m.normal.x == 1.0f && m.normal.y == 0.0f);
    cr_assert_float_eq(m.points[0].point.x, 2.0f, 1e-6f);
    cr_assert_float_eq(m.points[0].point.y, 0.75f, 1e-6f);
    cr_assert_float_eq(m.points[0].separation, 1.0f, 1e-6f);
    cr_assert_eq(m.points[0].id,
                 SEPAX_FEATURE_ID(0, 0, SEPAX_FEATURE_VERTEX, SEPAX_FEATURE_VERTEX));
    /* a capsule lying on the ground, 0.25 deep: two points at its ends */
    m = one(s, ground, cap, 0.0f);
    cr_assert_eq(m.count, 2);
    cr_assert(m.normal.x == 0.0f && m.normal.y == 1.0f);
    cr_assert_float_eq(point_at(&m, -2.0f, -0.125f)->separation, -0.25f, 1e-6f);
    cr_assert_float_eq(point_at(&m, 2.0f, -0.125f)->separation, -0.25f, 1e-6f);
    sepax_shapes_destroy(s);
}

/* ---- properties over random stores ---- */

/* Signed distance from (x, y) to the shape's boundary: < 0 inside. */
static double boundary_distance(const exact_shape *s, double x, double y) {
    exact_shape q = {1, {x}, {y}, 0.0};
    double d = exact_core_distance(&q, s);
    if (d > 0.0 || s->n < 3) return d - s->r;
    double worst = -INFINITY; /* inside the core: the nearest edge line */
    for (int k = 0; k < s->n; k++) {
        int k2 = (k + 1) % s->n;
        double ex = s->x[k2] - s->x[k], ey = s->y[k2] - s->y[k], len = hypot(ex, ey);
        double dist = ((x - s->x[k]) * ey - (y - s->y[k]) * ex) / len; /* outward: CCW */
        worst = fmax(worst, dist);
    }
    return worst - s->r;
}

static double scale_of(const exact_shape *a, const exact_shape *b) {
    double scale = 1.0;
    const exact_shape *s[2] = {a, b};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < s[i]->n; k++)
            scale = fmax(scale, fmax(fabs(s[i]->x[k]), fabs(s[i]->y[k])) + s[i]->r);
    return scale;
}

typedef struct tally {
    size_t pairs, hits, points, two_points, deepest_exact, clipped_deeper, fallback_off_face;
    double worst_surface; /* in tolerances */
} tally;

static void check_properties(const sepax_shapes *s, const sepax_pair *pairs, size_t n, float margin,
                             tally *t) {
    sepax_query_options opt = {.margin = margin};
    sepax_hit *h = malloc(n * sizeof *h);
    sepax_manifold *m = malloc(n * sizeof *m), *r = malloc(n * sizeof *r);
    cr_assert(h && m && r);
    cr_assert_eq(sepax_collide_opt(s, pairs, n, &opt, h), SEPAX_OK);
    cr_assert_eq(sepax_collide_manifold_opt(s, pairs, n, &opt, m), SEPAX_OK);
    cr_assert_eq(sepax_ref_collide_manifold_opt(s, pairs, n, &opt, r), SEPAX_OK);
    cr_assert(memcmp(m, r, n * sizeof *m) == 0, "library and reference manifolds differ");
    for (size_t i = 0; i < n; i++) {
        t->pairs++;
        cr_assert_eq(m[i].count > 0, h[i].hit == 1, "pair %zu: count %u, hit %u", i, m[i].count,
                     h[i].hit);
        if (!h[i].hit) continue;
        t->hits++;
        cr_assert(m[i].count <= SEPAX_MANIFOLD_POINTS);
        cr_assert(memcmp(&m[i].normal, &h[i].normal, sizeof h[i].normal) == 0 &&
                      memcmp(&m[i].depth, &h[i].depth, sizeof h[i].depth) == 0,
                  "pair %zu: normal or depth differs from collide", i);
        sepax_shape_view va, vb;
        sepax_shapes_view(s, pairs[i].a, &va);
        sepax_shapes_view(s, pairs[i].b, &vb);
        exact_shape ea = exact_of_view(&va), eb = exact_of_view(&vb);
        double tol = 1e-5 * scale_of(&ea, &eb);
        float least = INFINITY;
        for (uint32_t k = 0; k < m[i].count; k++) {
            const sepax_contact *c = &m[i].points[k];
            least = c->separation < least ? c->separation : least;
            cr_assert(c->separation <= margin || m[i].count == 1,
                      "pair %zu: point %u beyond the margin", i, k);
            cr_assert((double)c->separation >= -(double)h[i].depth - tol,
                      "pair %zu: point %u (%g) deeper than the depth %g", i, k,
                      (double)c->separation, (double)h[i].depth);
        }
        t->points += m[i].count;
        t->two_points += m[i].count == 2;
        if (least == 0.0f - h[i].depth)
            t->deepest_exact++;
        else
            t->clipped_deeper++;
        /* surface points of every point of two sharp polygons (their boundaries are the
         * cores'), and of the deepest point of any pair (a rounded incident edge's other end
         * lies inside its shape, as in Box2D) */
        int sharp = va.radius == 0.0f && vb.radius == 0.0f && va.count >= 3 && vb.count >= 3;
        for (uint32_t k = 0; k < m[i].count; k++) {
            const sepax_contact *c = &m[i].points[k];
            if (!sharp && c->separation != least) continue;
            double half = 0.5 * c->separation;
            double ax = c->point.x - half * m[i].normal.x, ay = c->point.y - half * m[i].normal.y;
            double bx = c->point.x + half * m[i].normal.x, by = c->point.y + half * m[i].normal.y;
            double da = fabs(boundary_distance(&ea, ax, ay));
            double db = fabs(boundary_distance(&eb, bx, by));
            double worst = fmax(da, db) / tol;
            if (worst > 1.0 &&
                m[i].count == 1) { /* the fallback: an incident vertex off the face */
                t->fallback_off_face++;
                continue;
            }
            if (worst > t->worst_surface) t->worst_surface = worst;
            cr_assert(worst <= 1.0,
                      "pair %zu point %u: surface points %g and %g from A's and B's boundaries "
                      "(tolerance %g)",
                      i, k, da, db, tol);
        }
    }
    free(h);
    free(m);
    free(r);
}

static void properties(int kinds, int posed) {
    wl_config cfg = wl_default();
    cfg.kinds = kinds;
    cfg.pairs = test_pairs(200000);
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    cr_assert(s && pairs && wl_fill_store(s, &cfg) == SEPAX_OK);
    if (posed) cr_assert_eq(wl_pose_randomly(s, 0xfeedu), SEPAX_OK);
    cr_assert_eq(wl_make_pairs(s, &cfg, pairs), SEPAX_OK);
    static const float margins[] = {0.0f, 0.3f, -0.2f};
    for (int k = 0; k < 3; k++) {
        tally t = {0};
        check_properties(s, pairs, cfg.pairs, margins[k], &t);
        cr_log_info("%s%s margin %4.1f: %zu pairs, %zu hits, %zu points (%zu manifolds of 2), "
                    "deepest point at -depth exactly in %zu, shallower (deepest vertex clipped "
                    "off) in %zu; fallback points off the reference face %zu; worst surface "
                    "distance %.3f tolerances\n",
                    kinds == WL_MIXED ? "mixed" : "polygons", posed ? " posed" : "",
                    (double)margins[k], t.pairs, t.hits, t.points, t.two_points, t.deepest_exact,
                    t.clipped_deeper, t.fallback_off_face, t.worst_surface);
        cr_expect(t.hits > t.pairs / 10, "too few hits to say anything");
        cr_expect(t.clipped_deeper * 1000 <= t.hits,
                  "%zu deepest points shallower than -depth in %zu hits (over 0.1%%)",
                  t.clipped_deeper, t.hits);
        cr_expect(t.fallback_off_face * 1000 <= t.hits,
                  "%zu single-point fallbacks off the reference face in %zu hits (over 0.1%%)",
                  t.fallback_off_face, t.hits);
    }
    free(pairs);
    sepax_shapes_destroy(s);
}

Test(manifold, properties_polygons, .timeout = 600) { properties(WL_POLYGONS, 0); }
Test(manifold, properties_mixed, .timeout = 600) { properties(WL_MIXED, 0); }
Test(manifold, properties_mixed_posed, .timeout = 600) { properties(WL_MIXED, 1); }

Test(manifold, bad_input_writes_nothing) {
    sepax_shapes *s = sepax_shapes_create(4);
    uint32_t a = add_box(s, 0, 0, 1, 1), b = add_box(s, 0.5f, 0.5f, 2, 2);
    sepax_pair ok[2] = {{a, b}, {b, a}}, bad[2] = {{a, b}, {a, 7}};
    sepax_manifold out[3];
    memset(out, 0x5a, sizeof out);
    unsigned char before[sizeof out];
    memcpy(before, out, sizeof out);
    cr_assert_eq(sepax_collide_manifold(NULL, ok, 2, out), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_collide_manifold(s, NULL, 2, out), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_collide_manifold(s, ok, 2, NULL), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_collide_manifold(s, bad, 2, out), SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_collide_manifold(s, ok, SIZE_MAX / 8, out), SEPAX_ERR_COUNT);
    cr_assert_eq(sepax_collide_manifold(s, ok, 2, (sepax_manifold *)((char *)out + 2)),
                 SEPAX_ERR_MISALIGNED);
    sepax_query_options nan = {.margin = NAN}, huge = {.margin = 1e30f};
    cr_assert_eq(sepax_collide_manifold_opt(s, ok, 2, &nan, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_collide_manifold_opt(s, ok, 2, &huge, out), SEPAX_ERR_RANGE);
    cr_assert(memcmp(out, before, sizeof out) == 0, "an error wrote output");
    cr_assert_eq(sepax_ref_collide_manifold(s, bad, 2, out), SEPAX_ERR_BAD_ID);
    cr_assert(memcmp(out, before, sizeof out) == 0, "a reference error wrote output");
    cr_assert_eq(sepax_collide_manifold(s, ok, 0, NULL), SEPAX_OK);
    sepax_move moved;
    cr_assert_eq(sepax_shapes_remove(s, a, &moved), SEPAX_OK);
    cr_assert_eq(sepax_collide_manifold(s, ok, 1, out), SEPAX_ERR_STALE_ID);
    cr_assert(memcmp(out, before, sizeof out) == 0, "an error wrote output");
    sepax_shapes_destroy(s);
}

/* A call past STREAM_MANIFOLDS (queries.c: 262,144 pairs) writes its manifolds once, in
 * order, around the caches where the output is 16-byte aligned, and as the smaller calls do
 * where it is not: both the reference's bits, every pair, on a sharp store and a mixed one
 * (whose closest-vertices rows follow the face rows), at margins 0 and 0.3 (vertex hits in
 * a sharp store too), with a partial last span. */
static void streamed_call(int kinds, float margin) {
    wl_config cfg = wl_default();
    cfg.kinds = kinds;
    cfg.shapes = 2048;
    cfg.pairs = 262144 + 1000 + 37;
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    /* room for the output at a 16-byte boundary and 4 bytes past one */
    unsigned char *raw = malloc((cfg.pairs + 1) * sizeof(sepax_manifold) + 16);
    sepax_manifold *want = malloc(cfg.pairs * sizeof *want);
    cr_assert(s && pairs && raw && want && wl_fill_store(s, &cfg) == SEPAX_OK);
    cr_assert_eq(wl_make_pairs(s, &cfg, pairs), SEPAX_OK);
    sepax_query_options o = {0};
    o.margin = margin;
    cr_assert_eq(sepax_ref_collide_manifold_opt(s, pairs, cfg.pairs, &o, want), SEPAX_OK);
    unsigned char *at16 = raw + (16u - (uintptr_t)raw % 16u) % 16u;
    for (int off = 0; off <= 4; off += 4) {
        sepax_manifold *got = (sepax_manifold *)(void *)(at16 + off);
        memset(got, 0xa5, cfg.pairs * sizeof *got); /* NaN bits where a write is missed */
        cr_assert_eq(sepax_collide_manifold_opt(s, pairs, cfg.pairs, &o, got), SEPAX_OK);
        size_t bad = 0, first = cfg.pairs, hits = 0;
        for (size_t i = 0; i < cfg.pairs; i++) {
            hits += want[i].count != 0;
            if (memcmp(&got[i], &want[i], sizeof want[i]) != 0) {
                if (!bad) first = i;
                bad++;
            }
        }
        cr_expect(hits > cfg.pairs / 10, "too few hits to say anything: %zu", hits);
        cr_expect_eq(bad, 0,
                     "%s, margin %.1f, output %s: %zu of %zu manifolds differ from the "
                     "reference's, the first at %zu",
                     kinds == WL_MIXED ? "mixed" : "polygons", (double)margin,
                     off ? "4 bytes past 16" : "16-byte aligned", bad, cfg.pairs, first);
    }
    free(want);
    free(raw);
    free(pairs);
    sepax_shapes_destroy(s);
}

Test(manifold, streamed_call_polygons, .timeout = 600) {
    streamed_call(WL_POLYGONS, 0.0f);
    streamed_call(WL_POLYGONS, 0.3f);
}
Test(manifold, streamed_call_mixed, .timeout = 600) { streamed_call(WL_MIXED, 0.0f); }
