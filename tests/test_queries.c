/* Query contracts (errors write nothing), the meaning of the answers on
 * hand-checked cases, and the reference itself against an independent
 * double-precision textbook SAT. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sepax_ref.h"
#include "workload.h"

static sepax_shapes *store;

static uint32_t box(float x0, float y0, float x1, float y1) {
    sepax_vec2 p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    uint32_t id = 0;
    cr_assert(sepax_shapes_add_polygon(store, p, 4, &id) == SEPAX_OK);
    return id;
}

static void setup(void) {
    store = sepax_shapes_create(8);
    box(0, 0, 2, 2);      /* 0 */
    box(2, 0, 4, 2);      /* 1: shares an edge with 0 */
    box(1.5f, 0, 3, 2);   /* 2: overlaps 0 by 0.5 along x */
    box(2, 2, 3, 3);      /* 3: touches 0 at one vertex */
    box(2.001f, 0, 3, 1); /* 4: just clear of 0 */
}
static void teardown(void) { sepax_shapes_destroy(store); }

TestSuite(queries, .init = setup, .fini = teardown);

typedef sepax_status (*overlap_fn)(const sepax_shapes *, const sepax_pair *, size_t, uint8_t *);
typedef sepax_status (*collide_fn)(const sepax_shapes *, const sepax_pair *, size_t, sepax_hit *);
typedef sepax_status (*one_fn)(const sepax_shapes *, uint32_t, uint32_t, size_t, uint8_t *);

static const overlap_fn overlaps[] = {sepax_overlap, sepax_ref_overlap};
static const collide_fn collides[] = {sepax_collide, sepax_ref_collide};
static const one_fn ones[] = {sepax_overlap_one, sepax_ref_overlap_one};

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

Test(queries, touching_counts_and_normal_points_from_a_to_b) {
    sepax_pair pairs[] = {{0, 1}, {0, 2}, {2, 0}, {0, 3}, {0, 4}};
    for (int f = 0; f < 2; f++) {
        uint8_t hit[5];
        sepax_hit h[5];
        cr_assert(overlaps[f](store, pairs, 5, hit) == SEPAX_OK);
        cr_assert(collides[f](store, pairs, 5, h) == SEPAX_OK);
        uint8_t want[5] = {1, 1, 1, 1, 0};
        cr_expect(memcmp(hit, want, 5) == 0);
        for (int i = 0; i < 5; i++) cr_expect(h[i].hit == want[i], "pair %d", i);
        /* shared edge: depth exactly +0 along x */
        cr_expect(bits(h[0].depth) == 0 && h[0].normal.x == 1 && h[0].normal.y == 0);
        /* 0.5 deep; the normal flips with the pair's order */
        cr_expect(h[1].depth == 0.5f && h[1].normal.x == 1 && h[1].normal.y == 0);
        cr_expect(h[2].depth == 0.5f && h[2].normal.x == -1 && h[2].normal.y == 0);
        /* vertex contact: depth 0; x and y tie, the lowest axis (A's edge 0, -y... ) wins */
        cr_expect(bits(h[3].depth) == 0);
        /* a miss is all zeros */
        cr_expect(h[4].normal.x == 0 && h[4].normal.y == 0 && bits(h[4].depth) == 0);
    }
}

/* Triangles sharing an edge or only a vertex, the same floats in both, at random: every
 * backend and the reference call each pair a hit, with a depth within a few ulps of the
 * coordinates. A plane through its edge's first vertex alone left the far end an ulp outside
 * now and then (a rotated normal is not exactly square to its edge), and 24% of the pairs
 * sharing only a vertex were called apart (a review: 818 of 3,407); the offsets now take the
 * larger projection of the edge's two ends (transform.c). Unposed, and both shapes given the
 * same random pose (the same arithmetic on the same floats: the shared vertex stays shared). */
Test(queries, shared_edges_and_vertices_of_random_triangles_touch) {
    enum { N = 3000 };
    sepax_shapes *s = sepax_shapes_create(2 * N);
    sepax_pair *pairs = malloc(N * sizeof *pairs);
    uint8_t *hit = malloc(N);
    sepax_hit *h = malloc(N * sizeof *h);
    sepax_pose *poses = malloc(2 * N * sizeof *poses);
    cr_assert(s && pairs && hit && h && poses);
    wl_rng r = {0x5ca1ab1eu};
    int vertex_only = 0;
    for (int n = 0; n < N;) {
        /* the shared edge p-q, A to its left, B to its right; or B turned about p, into the
         * wedge behind A, so that only p is shared */
        sepax_vec2 p = {2 * wl_unit(&r) - 1, 2 * wl_unit(&r) - 1};
        sepax_vec2 q = {2 * wl_unit(&r) - 1, 2 * wl_unit(&r) - 1};
        float ex = q.x - p.x, ey = q.y - p.y, len = sqrtf(ex * ex + ey * ey);
        if (len < 0.1f) continue;
        float lx = -ey / len, ly = ex / len, t = wl_unit(&r), up = 0.2f + wl_unit(&r);
        sepax_vec2 a[3] = {p, q, {p.x + t * ex + up * lx, p.y + t * ey + up * ly}};
        t = wl_unit(&r);
        up = 0.2f + wl_unit(&r);
        sepax_vec2 b[3] = {q, p, {p.x + t * ex - up * lx, p.y + t * ey - up * ly}};
        int only = n % 3 == 0;
        if (only) {
            float k1 = 0.5f + wl_unit(&r), k2 = 0.5f + wl_unit(&r);
            b[0] = p;
            b[1] = (sepax_vec2){p.x - ex * k1 - lx * 0.1f, p.y - ey * k1 - ly * 0.1f};
            b[2] = (sepax_vec2){p.x - ex * 0.3f - lx * k2, p.y - ey * 0.3f - ly * k2};
        }
        uint32_t ia, ib;
        if (sepax_shapes_add_polygon(s, a, 3, &ia) != SEPAX_OK) continue;
        if (sepax_shapes_add_polygon(s, b, 3, &ib) != SEPAX_OK) {
            cr_assert_eq(sepax_shapes_remove(s, ia, NULL), SEPAX_OK);
            continue;
        }
        pairs[n++] = (sepax_pair){ia, ib};
        vertex_only += only;
    }
    for (int posed = 0; posed < 2; posed++) {
        if (posed) {
            for (int i = 0; i < N; i++) {
                sepax_pose q = {{8 * wl_unit(&r) - 4, 8 * wl_unit(&r) - 4},
                                sepax_rot(6.28f * wl_unit(&r))};
                poses[pairs[i].a & SEPAX_ID_INDEX_MASK] = q;
                poses[pairs[i].b & SEPAX_ID_INDEX_MASK] = q;
            }
            cr_assert_eq(sepax_shapes_set_poses(s, 0, 2 * N, poses), SEPAX_OK);
            cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
        }
        /* within 4 ulps of the largest coordinate: 1 unposed, 5 posed */
        float most = posed ? 4 * 0x1p-21f : 4 * 0x1p-23f;
        for (int be = -1; be < SEPAX_BACKEND_COUNT; be++) {
            if (be >= 0 && sepax_set_backend((sepax_backend)be) != SEPAX_OK) continue;
            sepax_status so =
                be < 0 ? sepax_ref_overlap(s, pairs, N, hit) : sepax_overlap(s, pairs, N, hit);
            sepax_status sc =
                be < 0 ? sepax_ref_collide(s, pairs, N, h) : sepax_collide(s, pairs, N, h);
            cr_assert(so == SEPAX_OK && sc == SEPAX_OK);
            for (int i = 0; i < N; i++) {
                cr_assert(hit[i] && h[i].hit, "backend %d, posed %d, pair %d (%s): apart", be,
                          posed, i, i % 3 == 0 ? "a vertex shared" : "an edge shared");
                cr_assert(h[i].depth <= most, "backend %d, posed %d, pair %d: depth %g", be, posed,
                          i, (double)h[i].depth);
            }
        }
        cr_assert_eq(sepax_set_backend(SEPAX_BACKEND_AUTO), SEPAX_OK);
    }
    cr_assert_eq(vertex_only, N / 3);
    sepax_shapes_destroy(s);
    free(pairs);
    free(hit);
    free(h);
    free(poses);
}

/* Closest core vertices closer than about 1e-19, on shapes of ordinary size: their squared
 * distance is subnormal, and its square root was too coarse to divide by (a review found
 * normals of length 1.06 and 0.93). The vector is now scaled by 2^64 first, exactly: the
 * normal is the true direction, unit, with or without DAZ; coincident vertices give (1, 0).
 * Every backend and the reference. */
Test(queries, closest_vertices_closer_than_1e_19_give_a_unit_normal) {
    sepax_shapes *s = sepax_shapes_create(8);
    uint32_t a, b, c, d, e, f;
    sepax_vec2 corner[4] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}}; /* a core corner at 0 */
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, 1.0f, &a), SEPAX_OK);
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){0, 0x1.8p-75f}, 1.0f, &b), SEPAX_OK);
    cr_assert_eq(sepax_shapes_add_rounded(s, corner, 4, 0.5f, &c), SEPAX_OK);
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){6e-23f, 6e-23f}, 1.0f, &d), SEPAX_OK);
    /* 2^-63 along each axis: a squared distance of 2^-125, normal before and after */
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){0x1p-63f, 0x1p-63f}, 1.0f, &e), SEPAX_OK);
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, 0.5f, &f), SEPAX_OK);
    sepax_pair pairs[4] = {{a, b}, {c, d}, {a, e}, {a, f}};
    for (int be = -1; be < SEPAX_BACKEND_COUNT; be++) {
        if (be >= 0 && sepax_set_backend((sepax_backend)be) != SEPAX_OK) continue;
        sepax_hit h[4];
        cr_assert_eq(be < 0 ? sepax_ref_collide(s, pairs, 4, h) : sepax_collide(s, pairs, 4, h),
                     SEPAX_OK);
        /* straight up; then the two diagonals, unit within rounding */
        cr_expect(h[0].hit && h[0].normal.x == 0.0f && h[0].normal.y == 1.0f && h[0].depth == 2.0f,
                  "backend %d: normal (%.9g, %.9g), depth %.9g", be, (double)h[0].normal.x,
                  (double)h[0].normal.y, (double)h[0].depth);
        for (int i = 1; i < 3; i++) {
            double len = hypot(h[i].normal.x, h[i].normal.y);
            cr_expect(h[i].hit && fabs(len - 1.0) < 2e-7 && h[i].normal.x == h[i].normal.y,
                      "backend %d, pair %d: normal (%.9g, %.9g), length %.9g", be, i,
                      (double)h[i].normal.x, (double)h[i].normal.y, len);
        }
        cr_expect(h[1].depth == 1.5f, "backend %d: depth %.9g", be, (double)h[1].depth);
        cr_expect(h[3].hit && h[3].normal.x == 1.0f && h[3].normal.y == 0.0f, "backend %d", be);
    }
    cr_assert_eq(sepax_set_backend(SEPAX_BACKEND_AUTO), SEPAX_OK);
    sepax_shapes_destroy(s);
}

/* README's limit for sharp slivers, pinned: two triangles 1 long and 7e-6 thick (accepted),
 * tip to tip on one line about 0.0153 apart, have no separating plane but their own edges'
 * lines, which SAT in float takes as touching that far out (about 2^-24 / 8e-6 beyond a tip).
 * At margin 0 every backend and the reference call them overlapping, with depth 0; a
 * positive margin adds the closest-vertices axis, which separates them. If this changes,
 * README's paragraph on sharp tips must change with it. */
Test(queries, sliver_tips_pointing_at_each_other_as_documented) {
    sepax_shapes *s = sepax_shapes_create(4);
    const float t = 7e-6f;
    sepax_vec2 a[3] = {{0, 0}, {-1, -t / 2}, {-1, t / 2}}, b[3] = {{0, 0}, {1, t / 2}, {1, -t / 2}};
    uint32_t ia, ib;
    cr_assert_eq(sepax_shapes_add_polygon(s, a, 3, &ia), SEPAX_OK);
    cr_assert_eq(sepax_shapes_add_polygon(s, b, 3, &ib), SEPAX_OK);
    sepax_rotation rot = sepax_rot(4.03693199f);
    const double gap = 0.0153151852;
    sepax_pose pa = {{0.3f, -0.2f}, rot};
    sepax_pose pb = {{(float)(0.3 + gap * rot.c), (float)(-0.2 + gap * rot.s)}, rot};
    cr_assert_eq(sepax_shapes_set_poses(s, ia, 1, &pa), SEPAX_OK);
    cr_assert_eq(sepax_shapes_set_poses(s, ib, 1, &pb), SEPAX_OK);
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    sepax_pair p = {ia, ib};
    sepax_query_options wide = {.margin = 1e-6f};
    for (int be = -1; be < SEPAX_BACKEND_COUNT; be++) {
        if (be >= 0 && sepax_set_backend((sepax_backend)be) != SEPAX_OK) continue;
        uint8_t hit = 0, at_margin = 1;
        sepax_hit h;
        if (be < 0) {
            cr_assert_eq(sepax_ref_overlap(s, &p, 1, &hit), SEPAX_OK);
            cr_assert_eq(sepax_ref_collide(s, &p, 1, &h), SEPAX_OK);
            cr_assert_eq(sepax_ref_overlap_opt(s, &p, 1, &wide, &at_margin), SEPAX_OK);
        } else {
            cr_assert_eq(sepax_overlap(s, &p, 1, &hit), SEPAX_OK);
            cr_assert_eq(sepax_collide(s, &p, 1, &h), SEPAX_OK);
            cr_assert_eq(sepax_overlap_opt(s, &p, 1, &wide, &at_margin), SEPAX_OK);
        }
        cr_expect(hit == 1 && h.hit == 1 && h.depth == 0.0f, "backend %d: %u %u depth %g", be, hit,
                  h.hit, (double)h.depth);
        cr_expect(at_margin == 0, "backend %d: a hit at margin 1e-6", be);
    }
    cr_assert_eq(sepax_set_backend(SEPAX_BACKEND_AUTO), SEPAX_OK);
    sepax_shapes_destroy(s);
}

/* Equal depths on several axes: A's edges before B's, lowest index first. */
Test(queries, ties_go_to_the_lowest_axis_a_first) {
    sepax_pair self = {0, 0};
    for (int f = 0; f < 2; f++) {
        sepax_hit h;
        cr_assert(collides[f](store, &self, 1, &h) == SEPAX_OK);
        /* a box against itself: all four of A's edges tie at depth 2; edge 0
         * runs (0,0)->(2,0) with outward normal (0,-1) */
        cr_expect(h.hit == 1 && h.depth == 2.0f && h.normal.x == 0 && h.normal.y == -1,
                  "n (%g,%g) d %g", h.normal.x, h.normal.y, h.depth);
    }
}

/* Moving B by normal * depth leaves the pair touching: a hair less still
 * overlaps, a hair more separates. Checked on random overlapping pairs. */
Test(queries, depth_is_the_minimum_translation) {
    sepax_shapes *s = sepax_shapes_create(600);
    wl_config cfg = wl_default();
    cfg.shapes = 400;
    cfg.pairs = 2000;
    cfg.overlap = 1.0;
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    sepax_hit *h = malloc(cfg.pairs * sizeof *h);
    cr_assert(s && pairs && h && wl_fill_store(s, &cfg) == SEPAX_OK);
    cr_assert(wl_make_pairs(s, &cfg, pairs) == SEPAX_OK);
    cr_assert(sepax_collide(s, pairs, cfg.pairs, h) == SEPAX_OK);
    int checked = 0;
    for (size_t i = 0; i < cfg.pairs && checked < 150; i++) {
        if (!h[i].hit || h[i].depth < 1e-3f) continue;
        /* copy B out: adding shapes may move the store, and views with it */
        sepax_shape_view view;
        sepax_shapes_view(s, pairs[i].b, &view);
        int nb = view.count;
        sepax_vec2 b[8];
        for (int k = 0; k < nb; k++) b[k] = (sepax_vec2){view.x[k], view.y[k]};
        for (int sign = -1; sign <= 1; sign += 2) {
            float t = h[i].depth * (1.0f + (float)sign * 1e-3f);
            sepax_vec2 moved[8];
            for (int k = 0; k < nb; k++)
                moved[k] = (sepax_vec2){b[k].x + h[i].normal.x * t, b[k].y + h[i].normal.y * t};
            uint32_t id;
            cr_assert(sepax_shapes_add_polygon(s, moved, nb, &id) == SEPAX_OK);
            sepax_pair p = {pairs[i].a, id};
            uint8_t hit;
            sepax_overlap(s, &p, 1, &hit);
            cr_expect(hit == (sign < 0), "pair %zu moved by %s depth: hit %d", i,
                      sign < 0 ? "less than" : "more than", hit);
        }
        checked++;
    }
    cr_expect(checked == 150);
    sepax_shapes_destroy(s);
    free(pairs);
    free(h);
}

/* The textbook two-interval SAT in double precision, written apart from
 * everything in sepax: project both polygons on every edge normal. */
static double textbook_depth(const sepax_shape_view *a, const sepax_shape_view *b) {
    const sepax_shape_view *shapes[2] = {a, b};
    double best = INFINITY;
    for (int s = 0; s < 2; s++) {
        const sepax_shape_view *p = shapes[s];
        for (int i = 0; i < p->count; i++) {
            int j = (i + 1) % p->count;
            double ax = (double)p->y[j] - p->y[i], ay = -((double)p->x[j] - p->x[i]);
            double len = hypot(ax, ay);
            ax /= len;
            ay /= len;
            double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
            for (int k = 0; k < 2; k++)
                for (int v = 0; v < shapes[k]->count; v++) {
                    double d = ax * shapes[k]->x[v] + ay * shapes[k]->y[v];
                    lo[k] = fmin(lo[k], d);
                    hi[k] = fmax(hi[k], d);
                }
            double overlap = fmin(hi[0] - lo[1], hi[1] - lo[0]); /* < 0: a gap */
            best = fmin(best, overlap);
        }
    }
    return best; /* penetration depth when >= 0, else a separating gap */
}

Test(queries, reference_agrees_with_double_precision_textbook, .timeout = 600) {
    wl_config cfg = wl_default();
    cfg.pairs = 300000;
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    sepax_hit *h = malloc(cfg.pairs * sizeof *h);
    cr_assert(s && pairs && h && wl_fill_store(s, &cfg) == SEPAX_OK);
    cr_assert(wl_make_pairs(s, &cfg, pairs) == SEPAX_OK);
    cr_assert(sepax_ref_collide(s, pairs, cfg.pairs, h) == SEPAX_OK);
    size_t near_touch = 0;
    double worst = 0; /* in units of the tolerance */
    for (size_t i = 0; i < cfg.pairs; i++) {
        sepax_shape_view a, b;
        sepax_shapes_view(s, pairs[i].a, &a);
        sepax_shapes_view(s, pairs[i].b, &b);
        double d = textbook_depth(&a, &b);
        /* float rounding of a projection is relative to the coordinates'
         * magnitude, not to the shapes' size: a few ulps of the largest */
        double mag = 1.0;
        for (int k = 0; k < a.count; k++) mag = fmax(mag, fmax(fabs(a.x[k]), fabs(a.y[k])));
        for (int k = 0; k < b.count; k++) mag = fmax(mag, fmax(fabs(b.x[k]), fabs(b.y[k])));
        const double tol = 8 * FLT_EPSILON * mag;
        if (fabs(d) <= tol) {
            near_touch++;
            continue;
        }
        cr_expect(h[i].hit == (d > 0), "pair %zu: textbook depth %g, hit %u", i, d, h[i].hit);
        if (d > 0) {
            double err = fabs(h[i].depth - d);
            worst = fmax(worst, err / tol);
            cr_expect(err <= tol, "pair %zu: depth %g vs textbook %g", i, h[i].depth, d);
        }
    }
    cr_log_info("reference vs double textbook: %zu pairs, %zu within tolerance of touching, worst "
                "depth error %.2f of the tolerance",
                cfg.pairs, near_touch, worst);
    sepax_shapes_destroy(s);
    free(pairs);
    free(h);
}

#define MARK 0x5a

static int untouched(const void *buf, size_t n) {
    const uint8_t *p = buf;
    for (size_t i = 0; i < n; i++)
        if (p[i] != MARK) return 0;
    return 1;
}

Test(queries, errors_write_nothing) {
    sepax_pair good[3] = {{0, 1}, {1, 2}, {2, 3}};
    sepax_pair bad_last[3] = {{0, 1}, {1, 2}, {2, 5}};
    sepax_pair bad_huge[2] = {{0xffffffffu, 0}, {0, 1}};
    uint8_t hit[3];
    sepax_hit h[3];
    for (int f = 0; f < 2; f++) {
        memset(hit, MARK, sizeof hit);
        memset(h, MARK, sizeof h);
        cr_expect(overlaps[f](NULL, good, 3, hit) == SEPAX_ERR_NULL);
        cr_expect(overlaps[f](store, NULL, 3, hit) == SEPAX_ERR_NULL);
        cr_expect(overlaps[f](store, good, 3, NULL) == SEPAX_ERR_NULL);
        cr_expect(overlaps[f](store, bad_last, 3, hit) == SEPAX_ERR_BAD_ID);
        cr_expect(overlaps[f](store, bad_huge, 2, hit) == SEPAX_ERR_BAD_ID);
        cr_expect(overlaps[f](store, good, SIZE_MAX / 4, hit) == SEPAX_ERR_COUNT);
        cr_expect(collides[f](NULL, good, 3, h) == SEPAX_ERR_NULL);
        cr_expect(collides[f](store, good, 3, NULL) == SEPAX_ERR_NULL);
        cr_expect(collides[f](store, bad_last, 3, h) == SEPAX_ERR_BAD_ID);
        cr_expect(collides[f](store, good, SIZE_MAX / 12, h) == SEPAX_ERR_COUNT);
        cr_expect(ones[f](NULL, 0, 0, 3, hit) == SEPAX_ERR_NULL);
        cr_expect(ones[f](store, 5, 0, 3, hit) == SEPAX_ERR_BAD_ID);
        cr_expect(ones[f](store, 0, 3, 3, hit) == SEPAX_ERR_BAD_ID);
        cr_expect(ones[f](store, 0, 6, 0, hit) == SEPAX_ERR_BAD_ID);
        cr_expect(ones[f](store, 0, 0xffffffffu, 2, hit) == SEPAX_ERR_BAD_ID);
        cr_expect(ones[f](store, 0, 1, SIZE_MAX, hit) == SEPAX_ERR_BAD_ID);
        cr_expect(ones[f](store, 0, 0, 3, NULL) == SEPAX_ERR_NULL);
        cr_expect(untouched(hit, sizeof hit) && untouched(h, sizeof h), "an error wrote output");
        /* zero pairs: success, and no buffer is needed */
        cr_expect(overlaps[f](store, NULL, 0, NULL) == SEPAX_OK);
        cr_expect(collides[f](store, NULL, 0, NULL) == SEPAX_OK);
        cr_expect(ones[f](store, 0, 5, 0, NULL) == SEPAX_OK);
    }
}

/* ---- caller scratch (sepax_query_options.scratch) ---------------------------------- */

/* Every query given scratch (filled with NaNs and garbage first) answers exactly as without,
 * on every backend this CPU runs, over a list long enough for several sort chunks. */
Test(queries, scratch_gives_the_same_answers) {
    wl_config cfg = wl_default();
    cfg.kinds = WL_MIXED;
    cfg.pairs = 9000;
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    sepax_vec2 *vel = malloc(cfg.pairs * sizeof *vel);
    sepax_ray *rays = malloc(cfg.pairs * sizeof *rays);
    uint32_t *ids = malloc(cfg.pairs * sizeof *ids);
    unsigned char *scratch = aligned_alloc(SEPAX_SCRATCH_ALIGN, SEPAX_SCRATCH_BYTES);
    size_t n = cfg.pairs, bytes = n * sizeof(sepax_manifold);
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    cr_assert(s && pairs && vel && rays && ids && scratch && a && b);
    cr_assert_eq(wl_fill_store(s, &cfg), SEPAX_OK);
    cr_assert_eq(wl_pose_randomly(s, 5), SEPAX_OK);
    cr_assert_eq(wl_make_pairs(s, &cfg, pairs), SEPAX_OK);
    wl_bench_motion(s, pairs, n, 17, vel, rays, ids);
    uint32_t count = sepax_shapes_count(s), probe = sepax_shapes_id(s, 3);
    int backends = 0;
    for (int be = 0; be < SEPAX_BACKEND_COUNT; be++) {
        if (!sepax_backend_available((sepax_backend)be)) continue;
        cr_assert_eq(sepax_set_backend((sepax_backend)be), SEPAX_OK);
        backends++;
        for (int m = 0; m < 3; m++) {
            const float margin = m == 0 ? 0.0f : m == 1 ? 0.3f : -0.2f;
            sepax_query_options plain = {.margin = margin},
                                given = {.margin = margin,
                                         .scratch = scratch,
                                         .scratch_bytes = SEPAX_SCRATCH_BYTES};
            sepax_query_options still = {.scratch = scratch,
                                         .scratch_bytes = SEPAX_SCRATCH_BYTES + 1};
            for (int q = 0; q < 6; q++) {
                memset(a, 0x11, bytes);
                memset(b, 0x22, bytes);
                memset(scratch, m == 1 ? 0xff : 0x7f, SEPAX_SCRATCH_BYTES); /* NaNs, garbage */
                size_t size = 0;
                sepax_status sa, sb;
                switch (q) {
                case 0:
                    sa = sepax_overlap_opt(s, pairs, n, &plain, a);
                    sb = sepax_overlap_opt(s, pairs, n, &given, b);
                    size = n;
                    break;
                case 1:
                    sa = sepax_collide_opt(s, pairs, n, &plain, (sepax_hit *)(void *)a);
                    sb = sepax_collide_opt(s, pairs, n, &given, (sepax_hit *)(void *)b);
                    size = n * sizeof(sepax_hit);
                    break;
                case 2:
                    sa = sepax_collide_manifold_opt(s, pairs, n, &plain,
                                                    (sepax_manifold *)(void *)a);
                    sb = sepax_collide_manifold_opt(s, pairs, n, &given,
                                                    (sepax_manifold *)(void *)b);
                    size = n * sizeof(sepax_manifold);
                    break;
                case 3:
                    sa =
                        sepax_sweep(s, pairs, n, m ? vel : NULL, vel, (sepax_sweep_hit *)(void *)a);
                    sb = sepax_sweep_opt(s, pairs, n, m ? vel : NULL, vel, &still,
                                         (sepax_sweep_hit *)(void *)b);
                    size = n * sizeof(sepax_sweep_hit);
                    break;
                case 4:
                    sa = sepax_raycast(s, rays, ids, n, (sepax_ray_hit *)(void *)a);
                    sb = sepax_raycast_opt(s, rays, ids, n, &still, (sepax_ray_hit *)(void *)b);
                    size = n * sizeof(sepax_ray_hit);
                    break;
                default:
                    sa = sepax_overlap_one_opt(s, probe, 0, count, &plain, a);
                    sb = sepax_overlap_one_opt(s, probe, 0, count, &given, b);
                    size = count;
                    break;
                }
                cr_assert_eq(sa, SEPAX_OK, "%s query %d", sepax_backend_name(be), q);
                cr_assert_eq(sb, SEPAX_OK, "%s query %d with scratch", sepax_backend_name(be), q);
                cr_assert(memcmp(a, b, size) == 0,
                          "%s query %d margin %g: scratch changed the answers",
                          sepax_backend_name(be), q, (double)margin);
            }
        }
    }
    sepax_set_backend(SEPAX_BACKEND_AUTO);
    cr_assert(backends >= 1);
    free(a);
    free(b);
    free(scratch);
    free(ids);
    free(rays);
    free(vel);
    free(pairs);
    sepax_shapes_destroy(s);
}

/* A bad scratch: misaligned, too small, overlapping an input or output, a margin given to a
 * sweep or a raycast; each refused with its status, nothing written. */
Test(queries, scratch_contract) {
    enum { N = 3 };
    sepax_pair pairs[N] = {{0, 1}, {1, 2}, {2, 3}};
    sepax_vec2 vel[N] = {{1, 0}, {0, 1}, {1, 1}};
    sepax_ray rays[N] = {{{-1, 1}, {5, 0}, 1}, {{-1, 1}, {5, 0}, 1}, {{-1, 1}, {5, 0}, 1}};
    uint32_t ids[N] = {0, 1, 2};
    /* one block holds the scratch and, for the overlap rows, the buffers the calls use */
    size_t total = 2 * SEPAX_SCRATCH_BYTES + 4096;
    unsigned char *block = aligned_alloc(SEPAX_SCRATCH_ALIGN, total);
    cr_assert(block);
    unsigned char *scratch = block; /* aligned */
    uint8_t hit[N];
    sepax_hit h[N];
    sepax_manifold man[N];
    sepax_sweep_hit sw[N];
    sepax_ray_hit rh[N];
    memset(hit, MARK, sizeof hit);
    memset(h, MARK, sizeof h);
    memset(man, MARK, sizeof man);
    memset(sw, MARK, sizeof sw);
    memset(rh, MARK, sizeof rh);
    const sepax_query_options skew = {.scratch = scratch + 8, .scratch_bytes = total},
                              small = {.scratch = scratch,
                                       .scratch_bytes = SEPAX_SCRATCH_BYTES - 1},
                              good = {.scratch = scratch, .scratch_bytes = SEPAX_SCRATCH_BYTES},
                              margin = {.margin = 0.5f},
                              null_bytes = {.scratch = NULL, .scratch_bytes = 12345};
    const sepax_query_options *bad[2] = {&skew, &small};
    const sepax_status want[2] = {SEPAX_ERR_MISALIGNED, SEPAX_ERR_BAD_OPTION};
    for (int k = 0; k < 2; k++) {
        /* the reference keeps the same contract (sepax_ref.h), though it uses no scratch */
        cr_expect_eq(sepax_ref_overlap_opt(store, pairs, N, bad[k], hit), want[k]);
        cr_expect_eq(sepax_ref_collide_opt(store, pairs, N, bad[k], h), want[k]);
        cr_expect_eq(sepax_ref_collide_manifold_opt(store, pairs, N, bad[k], man), want[k]);
        cr_expect_eq(sepax_ref_overlap_one_opt(store, 0, 0, N, bad[k], hit), want[k]);
        cr_expect_eq(sepax_ref_overlap_opt(store, NULL, 0, bad[k], NULL), want[k]);
        cr_expect_eq(sepax_overlap_opt(store, pairs, N, bad[k], hit), want[k]);
        cr_expect_eq(sepax_collide_opt(store, pairs, N, bad[k], h), want[k]);
        cr_expect_eq(sepax_collide_manifold_opt(store, pairs, N, bad[k], man), want[k]);
        cr_expect_eq(sepax_overlap_one_opt(store, 0, 0, N, bad[k], hit), want[k]);
        cr_expect_eq(sepax_sweep_opt(store, pairs, N, vel, NULL, bad[k], sw), want[k]);
        cr_expect_eq(sepax_raycast_opt(store, rays, ids, N, bad[k], rh), want[k]);
        /* checked with the margin, before the count: with no pairs too */
        cr_expect_eq(sepax_overlap_opt(store, NULL, 0, bad[k], NULL), want[k]);
        cr_expect_eq(sepax_raycast_opt(store, NULL, NULL, 0, bad[k], NULL), want[k]);
    }
    cr_expect_eq(sepax_sweep_opt(store, pairs, N, vel, NULL, &margin, sw), SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_raycast_opt(store, rays, ids, N, &margin, rh), SEPAX_ERR_BAD_OPTION);
    /* a sweep's or a ray's margin is checked as every query's first: NaN, then beyond the limit */
    sepax_query_options nan_margin = good, far_margin = good;
    nan_margin.margin = NAN;
    far_margin.margin = 1e30f;
    cr_expect_eq(sepax_sweep_opt(store, pairs, N, vel, NULL, &nan_margin, sw), SEPAX_ERR_NONFINITE);
    cr_expect_eq(sepax_raycast_opt(store, rays, ids, N, &far_margin, rh), SEPAX_ERR_RANGE);
    /* the scratch over an input or an output */
    sepax_pair *in_pairs = (sepax_pair *)(void *)(scratch + SEPAX_SCRATCH_BYTES - 8);
    memcpy(in_pairs, pairs, sizeof pairs);
    cr_expect_eq(sepax_overlap_opt(store, in_pairs, N, &good, hit), SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_overlap_opt(store, pairs, N, &good, scratch + 100), SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_collide_opt(store, pairs, N, &good, (sepax_hit *)(void *)(scratch + 64)),
                 SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_overlap_one_opt(store, 0, 0, N, &good, scratch + 1), SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_ref_overlap_opt(store, in_pairs, N, &good, hit), SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_ref_overlap_opt(store, pairs, N, &good, scratch + 100),
                 SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_ref_collide_opt(store, pairs, N, &good, (sepax_hit *)(void *)(scratch + 64)),
                 SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_ref_overlap_one_opt(store, 0, 0, N, &good, scratch + 1),
                 SEPAX_ERR_BAD_OPTION);
    /* the options themselves misaligned: refused before they are read, by both */
    sepax_query_options *skew_opt = (sepax_query_options *)(void *)(scratch + 2 * 4096 + 2);
    memcpy(skew_opt, &good, sizeof good);
    cr_expect_eq(sepax_overlap_opt(store, pairs, N, skew_opt, hit), SEPAX_ERR_MISALIGNED);
    cr_expect_eq(sepax_ref_overlap_opt(store, pairs, N, skew_opt, hit), SEPAX_ERR_MISALIGNED);
    cr_expect_eq(sepax_ref_collide_opt(store, pairs, N, skew_opt, h), SEPAX_ERR_MISALIGNED);
    cr_expect_eq(sepax_ref_collide_manifold_opt(store, pairs, N, skew_opt, man),
                 SEPAX_ERR_MISALIGNED);
    cr_expect_eq(sepax_ref_overlap_one_opt(store, 0, 0, N, skew_opt, hit), SEPAX_ERR_MISALIGNED);
    sepax_ray *skew_ray = (sepax_ray *)(void *)(scratch + 3 * 4096 + 2);
    memcpy(skew_ray, &rays[0], sizeof rays[0]);
    cr_expect_eq(sepax_raycast_range(store, skew_ray, 0, N, rh), SEPAX_ERR_MISALIGNED);
    cr_expect_eq(sepax_ref_raycast_range(store, skew_ray, 0, N, rh), SEPAX_ERR_MISALIGNED);
    sepax_vec2 *in_vel = (sepax_vec2 *)(void *)(scratch + 256);
    memcpy(in_vel, vel, sizeof vel);
    cr_expect_eq(sepax_sweep_opt(store, pairs, N, NULL, in_vel, &good, sw), SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_sweep_opt(store, pairs, N, in_vel, NULL, &good, sw), SEPAX_ERR_BAD_OPTION);
    cr_expect_eq(sepax_sweep_opt(store, pairs, N, in_vel, vel, &good, sw), SEPAX_ERR_BAD_OPTION);
    sepax_ray *in_rays = (sepax_ray *)(void *)(scratch + 512);
    memcpy(in_rays, rays, sizeof rays);
    cr_expect_eq(sepax_raycast_opt(store, in_rays, ids, N, &good, rh), SEPAX_ERR_BAD_OPTION);
    uint32_t *in_ids = (uint32_t *)(void *)(scratch + 1024);
    memcpy(in_ids, ids, sizeof ids);
    cr_expect_eq(sepax_raycast_opt(store, rays, in_ids, N, &good, rh), SEPAX_ERR_BAD_OPTION);
    cr_expect(untouched(hit, sizeof hit) && untouched(h, sizeof h) && untouched(man, sizeof man) &&
                  untouched(sw, sizeof sw) && untouched(rh, sizeof rh),
              "a refused call wrote output");
    /* right after the scratch is apart; NULL scratch with a size is no scratch */
    uint8_t *after = scratch + SEPAX_SCRATCH_BYTES;
    cr_expect_eq(sepax_overlap_opt(store, pairs, N, &good, after), SEPAX_OK);
    cr_expect_eq(sepax_overlap_opt(store, pairs, N, &null_bytes, hit), SEPAX_OK);
    cr_expect(memcmp(after, hit, N) == 0);
    cr_expect_eq(sepax_sweep_opt(store, pairs, N, vel, NULL, &good, sw), SEPAX_OK);
    cr_expect_eq(sepax_raycast_opt(store, rays, ids, N, &good, rh), SEPAX_OK);
    free(block);
}

/* Where an output of `bytes` goes against the scratch: over its first byte from before it,
 * inside it, over its last byte; then apart, ending where it starts and starting where it
 * ends (its first SEPAX_SCRATCH_BYTES, all a call uses). */
enum { SPOTS_OVER = 3, SPOTS = 5 };
static unsigned char *spot(unsigned char *scratch, size_t bytes, int where) {
    switch (where) {
    case 0: return scratch - bytes + 4;
    case 1: return scratch + 128;
    case 2: return scratch + SEPAX_SCRATCH_BYTES - 4;
    case 3: return scratch - bytes;
    default: return scratch + SEPAX_SCRATCH_BYTES;
    }
}

/* The scratch over the output of a manifold, a sweep or a raycast: refused with
 * SEPAX_ERR_BAD_OPTION and nothing written there, as for the other queries' outputs; apart,
 * the answers are those without scratch. */
Test(queries, scratch_over_an_output) {
    enum { N = 3 };
    const sepax_pair pairs[N] = {{0, 1}, {0, 2}, {2, 3}};
    const sepax_vec2 vel[N] = {{1, 0}, {0, 1}, {1, 1}};
    const sepax_ray rays[N] = {{{-1, 1}, {5, 0}, 1}, {{-1, 1}, {5, 0}, 1}, {{-1, 1}, {5, 0}, 1}};
    const uint32_t ids[N] = {0, 1, 2};
    sepax_manifold want_man[N];
    sepax_sweep_hit want_sw[N];
    sepax_ray_hit want_rh[N];
    cr_assert_eq(sepax_collide_manifold(store, pairs, N, want_man), SEPAX_OK);
    cr_assert_eq(sepax_sweep(store, pairs, N, vel, NULL, want_sw), SEPAX_OK);
    cr_assert_eq(sepax_raycast(store, rays, ids, N, want_rh), SEPAX_OK);
    cr_assert(want_man[0].count > 0 && want_sw[0].hit && want_rh[0].hit, "nothing to write");
    const size_t lead = 4096, total = lead + SEPAX_SCRATCH_BYTES + 4096;
    unsigned char *block = aligned_alloc(SEPAX_SCRATCH_ALIGN, total);
    cr_assert(block);
    unsigned char *scratch = block + lead;
    const sepax_query_options opt = {.scratch = scratch, .scratch_bytes = SEPAX_SCRATCH_BYTES};
    for (int where = 0; where < SPOTS; where++) {
        sepax_status want = where < SPOTS_OVER ? SEPAX_ERR_BAD_OPTION : SEPAX_OK;
        unsigned char *at = spot(scratch, sizeof want_man, where);
        memset(block, MARK, total);
        cr_expect_eq(sepax_collide_manifold_opt(store, pairs, N, &opt, (void *)at), want,
                     "manifold output at spot %d", where);
        cr_expect(want ? untouched(at, sizeof want_man)
                       : memcmp(at, want_man, sizeof want_man) == 0,
                  "manifold output at spot %d", where);
        at = spot(scratch, sizeof want_sw, where);
        memset(block, MARK, total);
        cr_expect_eq(sepax_sweep_opt(store, pairs, N, vel, NULL, &opt, (void *)at), want,
                     "sweep output at spot %d", where);
        cr_expect(want ? untouched(at, sizeof want_sw) : memcmp(at, want_sw, sizeof want_sw) == 0,
                  "sweep output at spot %d", where);
        at = spot(scratch, sizeof want_rh, where);
        memset(block, MARK, total);
        cr_expect_eq(sepax_raycast_opt(store, rays, ids, N, &opt, (void *)at), want,
                     "raycast output at spot %d", where);
        cr_expect(want ? untouched(at, sizeof want_rh) : memcmp(at, want_rh, sizeof want_rh) == 0,
                  "raycast output at spot %d", where);
    }
    free(block);
}
