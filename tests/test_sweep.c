/* Swept SAT against brute force: the shapes' double-precision gap (exact.c)
 * sampled at 4001 times over the step. A sweep that hits at t must leave
 * the shapes apart (beyond the tolerance) at every sample before t and touching at
 * t; a sweep that misses must leave them apart at every sample. Then
 * hand-worked cases: the fast bullet through a thin wall, resting contact,
 * shapes moving apart, and the bad-input contract. Every kernel copy
 * against the reference bit for bit is in test_equivalence.c (check_sweep). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exact.h"
#include "sepax_ref.h"
#include "workload.h"

#define SAMPLES 4000

static exact_shape exact_at(const sepax_shape_view *v, double dx, double dy) {
    exact_shape e = exact_of_view(v);
    for (int k = 0; k < v->count; k++) {
        e.x[k] += dx;
        e.y[k] += dy;
    }
    return e;
}

static double scale_of(const exact_shape *a, const exact_shape *b) {
    double scale = 1.0;
    const exact_shape *s[2] = {a, b};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < s[i]->n; k++)
            scale = fmax(scale, fmax(fabs(s[i]->x[k]), fabs(s[i]->y[k])) + s[i]->r);
    return scale;
}

/* the gap of B moved by v * t against A */
static double gap_at(const sepax_shape_view *a, const sepax_shape_view *b, sepax_vec2 v, double t) {
    exact_shape ea = exact_at(a, 0, 0), eb = exact_at(b, v.x * t, v.y * t);
    return exact_gap(&ea, &eb);
}

typedef struct tally {
    size_t pairs, hits, at_start, worst_pair;
    double worst; /* largest error in tolerances */
} tally;

static void judge(const sepax_shapes *s, const sepax_pair *pairs, size_t n, const sepax_vec2 *v,
                  tally *t) {
    sepax_sweep_hit *h = malloc(n * sizeof *h), *r = malloc(n * sizeof *r);
    cr_assert(h && r);
    cr_assert_eq(sepax_sweep(s, pairs, n, NULL, v, h), SEPAX_OK);
    cr_assert_eq(sepax_ref_sweep(s, pairs, n, NULL, v, r), SEPAX_OK);
    cr_assert(memcmp(h, r, n * sizeof *h) == 0, "library and reference sweeps differ");
    for (size_t i = 0; i < n; i++) {
        sepax_shape_view a, b;
        sepax_shapes_view(s, pairs[i].a, &a);
        sepax_shapes_view(s, pairs[i].b, &b);
        exact_shape ea = exact_at(&a, 0, 0), eb = exact_at(&b, 0, 0);
        exact_shape eb1 = exact_at(&b, v[i].x, v[i].y);
        double tol = 1e-5 * fmax(scale_of(&ea, &eb), scale_of(&ea, &eb1));
        t->pairs++;
        double end = h[i].hit ? (double)h[i].t : 1.0;
        /* apart before the hit (or all the way) */
        for (int k = 0; k <= SAMPLES; k++) {
            double tk = (double)k / SAMPLES;
            if (tk >= end) break;
            double g = gap_at(&a, &b, v[i], tk);
            /* closer than the tolerance to touching, a sample may go either way */
            double err = -g / tol;
            if (err > t->worst) {
                t->worst = err;
                t->worst_pair = i;
            }
            cr_assert(g > -tol,
                      "pair %zu (%u,%u) v (%g,%g): overlap %g at t = %g before the sweep's %s t = "
                      "%g",
                      i, pairs[i].a, pairs[i].b, (double)v[i].x, (double)v[i].y, -g, tk,
                      h[i].hit ? "hit at" : "miss, end", end);
        }
        if (!h[i].hit) continue;
        t->hits++;
        double g = gap_at(&a, &b, v[i], h[i].t);
        if (h[i].t == 0.0f) {
            t->at_start++;
            cr_assert(g <= tol, "pair %zu: t = 0 but apart by %g", i, g);
        } else {
            double err = fabs(g) / tol;
            if (err > t->worst) {
                t->worst = err;
                t->worst_pair = i;
            }
            cr_assert(fabs(g) <= tol, "pair %zu (%u,%u) v (%g,%g): gap %g at the sweep's t = %g", i,
                      pairs[i].a, pairs[i].b, (double)v[i].x, (double)v[i].y, g, (double)h[i].t);
        }
        double len = hypot(h[i].normal.x, h[i].normal.y);
        cr_assert(fabs(len - 1.0) < 1e-6, "pair %zu: normal of length %g", i, len);
    }
    free(h);
    free(r);
}

static void brute_force(int kinds, int posed, float speed) {
    wl_config cfg = wl_default();
    cfg.kinds = kinds;
    cfg.pairs = test_pairs(200000) / 40; /* 5k; 500 under sanitizers, valgrind */
    cfg.overlap = 0.1; /* most pairs start apart: the sweep has to find when they meet */
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    sepax_vec2 *v = malloc(cfg.pairs * sizeof *v);
    cr_assert(s && pairs && v && wl_fill_store(s, &cfg) == SEPAX_OK);
    wl_rng rng = {0x5eedu + (uint64_t)kinds};
    if (posed) cr_assert_eq(wl_pose_randomly(s, 0x5eedu), SEPAX_OK);
    cr_assert_eq(wl_make_pairs(s, &cfg, pairs), SEPAX_OK);
    for (size_t i = 0; i < cfg.pairs; i++) { /* towards A, roughly, or anywhere */
        sepax_aabb ba, bb;
        sepax_shapes_aabb(s, pairs[i].a, &ba);
        sepax_shapes_aabb(s, pairs[i].b, &bb);
        float dx = (ba.lower.x + ba.upper.x) - (bb.lower.x + bb.upper.x);
        float dy = (ba.lower.y + ba.upper.y) - (bb.lower.y + bb.upper.y);
        float jx = wl_unit(&rng) - 0.5f, jy = wl_unit(&rng) - 0.5f;
        v[i] = (i % 4 == 3) ? (sepax_vec2){speed * jx, speed * jy}
                            : (sepax_vec2){speed * (dx * 0.5f + jx), speed * (dy * 0.5f + jy)};
    }
    tally t = {0};
    judge(s, pairs, cfg.pairs, v, &t);
    cr_log_info("%s%s speed %g: %zu pairs, %zu hits (%zu at t = 0); worst error %.3f tolerances "
                "(pair %zu)\n",
                kinds == WL_MIXED ? "mixed" : "polygons", posed ? " posed" : "", (double)speed,
                t.pairs, t.hits, t.at_start, t.worst, t.worst_pair);
    cr_expect(t.hits > t.pairs / 5 && t.hits - t.at_start > t.pairs / 10,
              "too few hits to judge: %zu (%zu at t = 0)", t.hits, t.at_start);
    free(pairs);
    free(v);
    sepax_shapes_destroy(s);
}

Test(sweep, brute_force_polygons, .timeout = 600) { brute_force(WL_POLYGONS, 0, 1.0f); }
Test(sweep, brute_force_mixed, .timeout = 600) { brute_force(WL_MIXED, 0, 1.0f); }
Test(sweep, brute_force_mixed_posed_fast, .timeout = 600) { brute_force(WL_MIXED, 1, 3.0f); }

static uint32_t box(sepax_shapes *s, float x0, float y0, float x1, float y1) {
    sepax_vec2 p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    uint32_t id;
    cr_assert_eq(sepax_shapes_add_polygon(s, p, 4, &id), SEPAX_OK);
    return id;
}

static sepax_sweep_hit sweep_one(const sepax_shapes *s, uint32_t a, uint32_t b, sepax_vec2 va,
                                 sepax_vec2 vb) {
    sepax_pair p = {a, b};
    sepax_sweep_hit h, r;
    cr_assert_eq(sepax_sweep(s, &p, 1, &va, &vb, &h), SEPAX_OK);
    cr_assert_eq(sepax_ref_sweep(s, &p, 1, &va, &vb, &r), SEPAX_OK);
    cr_assert(memcmp(&h, &r, sizeof h) == 0, "library and reference differ");
    return h;
}

Test(sweep, bullet_through_a_thin_wall) {
    sepax_shapes *s = sepax_shapes_create(8);
    /* a wall 0.01 thick at x = 500, bullets 0.05 wide starting at x = 0, 1000 units a step */
    uint32_t wall = box(s, 500.0f, -10.0f, 500.01f, 10.0f), round, square, capsule;
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, 0.025f, &round), SEPAX_OK);
    square = box(s, -0.025f, -0.025f, 0.025f, 0.025f);
    cr_assert_eq(sepax_shapes_add_capsule(s, (sepax_vec2){-0.02f, 0}, (sepax_vec2){0.02f, 0},
                                          0.005f, &capsule),
                 SEPAX_OK);
    uint32_t bullets[3] = {round, square, capsule};
    sepax_vec2 still = {0, 0}, fast = {1000.0f, 0.0f};
    for (int k = 0; k < 3; k++) {
        sepax_sweep_hit h = sweep_one(s, bullets[k], wall, fast, still);
        cr_assert_eq(h.hit, 1, "bullet %d tunnelled", k);
        /* front at x = 0.025 reaches x = 500 at t = 499.975 / 1000 */
        cr_assert(fabs((double)h.t - 0.499975) < 2e-7, "bullet %d: t = %.9g", k, (double)h.t);
        cr_assert(h.normal.x == 1.0f && h.normal.y == 0.0f, "bullet %d: normal (%g, %g)", k,
                  (double)h.normal.x, (double)h.normal.y);
        /* the same seen from the wall: A and B swapped, the normal flips */
        h = sweep_one(s, wall, bullets[k], still, fast);
        cr_assert(h.hit && fabs((double)h.t - 0.499975) < 2e-7 && h.normal.x == -1.0f);
        /* half the speed: stops short of the wall */
        h = sweep_one(s, bullets[k], wall, (sepax_vec2){499.9f, 0.0f}, still);
        cr_assert_eq(h.hit, 0);
        /* a step that passes just over the wall's end misses */
        h = sweep_one(s, bullets[k], wall, (sepax_vec2){1000.0f, 20.1f}, still);
        cr_assert_eq(h.hit, 0, "bullet %d hit past the wall's end", k);
    }
    sepax_shapes_destroy(s);
}

Test(sweep, rounded_corner_is_exact) {
    sepax_shapes *s = sepax_shapes_create(4);
    /* a circle of radius 1 moving diagonally at a square's corner (0, 0): the planes alone
     * would stop it at x = -1 (t = 0.25); the corner circle makes it touch at distance 1 */
    uint32_t sq = box(s, 0, 0, 2, 2), c;
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){-2, -2}, 1.0f, &c), SEPAX_OK);
    sepax_sweep_hit h = sweep_one(s, sq, c, (sepax_vec2){0, 0}, (sepax_vec2){4, 4});
    double want = (2.0 - 1.0 / sqrt(2.0)) / 4.0; /* centre at (-1/sqrt2, -1/sqrt2) */
    cr_assert(h.hit && fabs((double)h.t - want) < 1e-6, "t = %.9g, want %.9g", (double)h.t, want);
    cr_assert(fabs(h.normal.x + 0.70710678) < 1e-6 && fabs(h.normal.y + 0.70710678) < 1e-6);
    /* straight along, 2 below the square: a miss */
    h = sweep_one(s, sq, c, (sepax_vec2){0, 0}, (sepax_vec2){4.0f, 0.0f});
    cr_assert_eq(h.hit, 0);
    /* across the corner's outside, square to its diagonal, the centre's path 1.01 from the
     * corner: a miss, though the planes' slabs (x >= -1 and y >= -1) hold together for
     * t in [0.43, 0.57], where planes alone would report a hit; at 0.99 a hit */
    for (int k = 0; k < 2; k++) {
        float off = (k ? 0.99f : 1.01f) * 0.70710678f, along = 3.0f * 0.70710678f;
        uint32_t near;
        cr_assert_eq(
            sepax_shapes_add_circle(s, (sepax_vec2){-off - along, -off + along}, 1.0f, &near),
            SEPAX_OK);
        h = sweep_one(s, sq, near, (sepax_vec2){0, 0}, (sepax_vec2){2 * along, -2 * along});
        cr_assert_eq(h.hit, (uint32_t)k, "path %.2f from the corner: hit %u at t %g",
                     k ? 0.99 : 1.01, h.hit, (double)h.t);
        cr_assert_eq(sepax_shapes_remove(s, near, NULL), SEPAX_OK);
    }
    sepax_shapes_destroy(s);
}

Test(sweep, start_touching_and_moving_apart) {
    sepax_shapes *s = sepax_shapes_create(4);
    uint32_t a = box(s, 0, 0, 2, 2), b = box(s, 1.5f, 0.5f, 3, 1.5f);
    sepax_sweep_hit h = sweep_one(s, a, b, (sepax_vec2){0, 0}, (sepax_vec2){5, 0});
    cr_assert(h.hit && h.t == 0.0f && h.normal.x == 1.0f && h.normal.y == 0.0f);
    sepax_pair p = {a, b};
    sepax_hit c;
    cr_assert_eq(sepax_collide(s, &p, 1, &c), SEPAX_OK);
    cr_assert(c.normal.x == h.normal.x && c.normal.y == h.normal.y, "t = 0: collide's normal");
    uint32_t far = box(s, 10, 0, 11, 1);
    h = sweep_one(s, a, far, (sepax_vec2){0, 0}, (sepax_vec2){5, 0}); /* moving away */
    cr_assert_eq(h.hit, 0);
    sepax_sweep_hit zero;
    memset(&zero, 0, sizeof zero);
    cr_assert(memcmp(&h, &zero, sizeof h) == 0, "a miss is all zeros");
    h = sweep_one(s, a, far, (sepax_vec2){0, 0}, (sepax_vec2){0, 0}); /* still */
    cr_assert_eq(h.hit, 0);
    h = sweep_one(s, a, far, (sepax_vec2){4, 0}, (sepax_vec2){-4, 0}); /* both moving */
    cr_assert(h.hit && fabs((double)h.t - 1.0) < 1e-6, "t = %.9g", (double)h.t);
    sepax_shapes_destroy(s);
}

/* A still plane exactly at contact has an exit of 0 / 0 = NaN, which must count as no exit.
 * Here both shapes' plane 3 (and the padding planes 4-7 repeating it) is such a plane: B
 * touches A's left edge with its right edge and slides up, away from A's top. The only exit
 * that matters is A's top plane's, at t = -0.5 (B starts 0.5 above A): a miss. The slot
 * kernels once reduced a slot's exits in a tree, where a NaN left in would win over that
 * exit; they now test t against each lane's exit, where a NaN left in would turn the second
 * case's hit into a miss. */
Test(sweep, still_planes_at_contact_hide_no_exit) {
    sepax_shapes *s = sepax_shapes_create(4);
    uint32_t a = box(s, 1, 0, 2, 1), b;
    /* B's vertices from its upper right corner, so that its right edge is plane 3 */
    sepax_vec2 p[4] = {{1, 2.5f}, {0, 2.5f}, {0, 1.5f}, {1, 1.5f}};
    cr_assert_eq(sepax_shapes_add_polygon(s, p, 4, &b), SEPAX_OK);
    sepax_sweep_hit h = sweep_one(s, a, b, (sepax_vec2){0, 0}, (sepax_vec2){0, 1});
    cr_assert_eq(h.hit, 0, "t = %g", (double)h.t);
    /* moving down instead, B reaches A's top at t = 0.5 */
    h = sweep_one(s, a, b, (sepax_vec2){0, 0}, (sepax_vec2){0, -1});
    cr_assert(h.hit && h.t == 0.5f && h.normal.x == 0.0f && h.normal.y == 1.0f,
              "hit %u t %g n (%g, %g)", h.hit, (double)h.t, (double)h.normal.x, (double)h.normal.y);
    sepax_shapes_destroy(s);
}

/* A sweep is free of scale: a scene scaled by a power of two 2^k (positions, sizes, radii) and
 * its displacements by 2^(k - j) touch at 2^j times the scene's t with the same normal, bit for
 * bit, on every backend, since every step of the arithmetic scales exactly; and so under a
 * caller's flush-to-zero mode (x86). The rounded corners' quadratic multiplies four lengths
 * (|v|^2 radii^2): it underflowed below about 2^-30 (1e-9: pair 0 was hit at t 0.5 with
 * normal (1, 0) at 2^-45, not 0.323 and the corner's diagonal) before it took v, and d with
 * the radii, to powers of two of their own (README, "What the answers mean"); with one power
 * for all three, shapes 2^-45 across at 1e9 a step (a review's case; here j = -70, about
 * 1e8 a step) came out at the time of closest approach. The lowest k, 2^-62, keeps the
 * closest-vertex search's squared distances (2^-124) normal floats; from 2^-71 (2^-62 under
 * flush-to-zero, so its runs stop at WL_FTZ_LOWEST) they are not, and this scene fails. The highest
 * k and the lowest j are the velocity limit's. */
Test(sweep, scale_free_by_powers_of_two) {
    enum { PAIRS = 10 };
    static const int pa[PAIRS] = {0, 2, 4, 6, 1, 4, 2, 0, 7, 0};
    static const int pb[PAIRS] = {1, 3, 5, 7, 6, 8, 5, 7, 3, 1};
    static const float v[PAIRS][4] = {
        /* va, vb */
        {0, 0, 4, 4},         {0, 0, -4, 0},        {0, 0, -3, -2},
        {0, 0, 2.5f, 2.6f},   {1, 1, -1.5f, -1.6f}, {0, 0, -3.2f, 0.3f},
        {0, 0, -2.6f, -1.0f}, {0, 0, 3, 3},         {-0.5f, 0.25f, -4.5f, -1.6f},
        {0, 0, 4, 0} /* passes below the square: a miss */};
    static const int kj[][2] = {{0, 0},     {-62, 0},   {-60, 0},   {-50, 0},   {-45, 0},
                                {-40, 0},   {-30, 0},   {-20, 0},   {-10, 0},   {-1, 0},
                                {1, 0},     {10, 0},    {20, 0},    {26, 0},    {0, -20},
                                {-20, -40}, {-30, -56}, {-45, -70}, {-60, -85}, {-62, -88}};
    sepax_sweep_hit base[PAIRS];
    for (int ftz = 0; ftz < 2; ftz++) {
        if (ftz && !wl_flush_denormals(1)) continue;
        for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
            if (!sepax_backend_available((sepax_backend)b)) continue;
            cr_assert_eq(sepax_set_backend((sepax_backend)b), SEPAX_OK);
            const char *name = sepax_backend_name((sepax_backend)b);
            for (size_t c = 0; c < sizeof kj / sizeof kj[0]; c++) {
                int k = kj[c][0], j = kj[c][1];
                if (ftz && k < WL_FTZ_LOWEST)
                    continue; /* the closest-vertex search's squares flush */
                float f = ldexpf(1.0f, k), fv = ldexpf(1.0f, k - j);
                sepax_shapes *s = sepax_shapes_create(16);
                uint32_t id[WL_SCALED_SHAPES];
                wl_scaled_scene(s, f, id);
                sepax_pair p[PAIRS];
                sepax_vec2 va[PAIRS], vb[PAIRS];
                for (int i = 0; i < PAIRS; i++) {
                    p[i] = (sepax_pair){id[pa[i]], id[pb[i]]};
                    va[i] = (sepax_vec2){v[i][0] * fv, v[i][1] * fv};
                    vb[i] = (sepax_vec2){v[i][2] * fv, v[i][3] * fv};
                }
                sepax_sweep_hit h[PAIRS], r[PAIRS];
                cr_assert_eq(sepax_sweep(s, p, PAIRS, va, vb, h), SEPAX_OK);
                cr_assert_eq(sepax_ref_sweep(s, p, PAIRS, va, vb, r), SEPAX_OK);
                cr_assert(memcmp(h, r, sizeof h) == 0,
                          "%s%s, 2^%d, 2^%d: library and reference differ", name,
                          ftz ? " (FTZ)" : "", k, j);
                if (!ftz && b == 0 && c == 0) {
                    memcpy(base, h, sizeof base);
                    int hits = 0;
                    for (int i = 0; i < PAIRS; i++) hits += (int)h[i].hit;
                    cr_assert(hits == PAIRS - 1, "a scene worth scaling: %d hits of %d", hits,
                              PAIRS);
                }
                for (int i = 0; i < PAIRS; i++) {
                    sepax_sweep_hit want = base[i];
                    want.t = ldexpf(want.t, j);
                    cr_assert(memcmp(&h[i], &want, sizeof want) == 0,
                              "%s%s, pair %d at 2^%d, 2^%d: hit %u t %a n (%.9g, %.9g); want "
                              "hit %u t %a n (%.9g, %.9g)",
                              name, ftz ? " (FTZ)" : "", i, k, j, h[i].hit, (double)h[i].t,
                              (double)h[i].normal.x, (double)h[i].normal.y, want.hit,
                              (double)want.t, (double)want.normal.x, (double)want.normal.y);
                }
                sepax_shapes_destroy(s);
            }
        }
    }
    wl_flush_denormals(0);
    sepax_set_backend(SEPAX_BACKEND_AUTO);
}

Test(sweep, bad_input_writes_nothing) {
    sepax_shapes *s = sepax_shapes_create(4);
    uint32_t a = box(s, 0, 0, 1, 1), b = box(s, 2, 0, 3, 1);
    sepax_pair ok[2] = {{a, b}, {b, a}}, bad[2] = {{a, b}, {9, a}};
    sepax_vec2 v[2] = {{1, 0}, {2, 0}}, nan[2] = {{1, 0}, {NAN, 0}}, huge[2] = {{1, 0}, {0, 2e9f}};
    sepax_sweep_hit out[3];
    memset(out, 0x5a, sizeof out);
    unsigned char before[sizeof out];
    memcpy(before, out, sizeof out);
    cr_assert_eq(sepax_sweep(NULL, ok, 2, v, v, out), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_sweep(s, NULL, 2, v, v, out), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_sweep(s, ok, 2, v, v, NULL), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_sweep(s, bad, 2, v, v, out), SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_sweep(s, ok, 2, nan, v, out), SEPAX_ERR_NONFINITE);
    /* the infinities are NONFINITE, not RANGE (beyond every limit as they are), in A's and B's
     * velocities, either component */
    sepax_vec2 inf_x[2] = {{1, 0}, {INFINITY, 0}}, inf_y[2] = {{0, -INFINITY}, {1, 0}};
    cr_assert_eq(sepax_sweep(s, ok, 2, inf_x, v, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_sweep(s, ok, 2, v, inf_x, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_sweep(s, ok, 2, inf_y, v, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_sweep(s, ok, 2, v, inf_y, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_sweep(s, ok, 2, v, huge, out), SEPAX_ERR_RANGE);
    /* the first floats past SEPAX_SWEEP_LIMIT are refused, the limit itself taken */
    const float past = nextafterf(SEPAX_SWEEP_LIMIT, INFINITY);
    sepax_vec2 past_x[2] = {{1, 0}, {past, 0}}, past_y[2] = {{0, -past}, {1, 0}};
    cr_assert_eq(sepax_sweep(s, ok, 2, past_x, v, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_sweep(s, ok, 2, v, past_y, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_sweep(s, ok, 2, (const sepax_vec2 *)((const char *)v + 1), v, out),
                 SEPAX_ERR_MISALIGNED);
    cr_assert_eq(sepax_sweep(s, ok, SIZE_MAX / 4, v, v, out), SEPAX_ERR_COUNT);
    cr_assert_eq(sepax_ref_sweep(s, ok, 2, nan, v, out), SEPAX_ERR_NONFINITE);
    /* a removed id, a misaligned output, and the order: ids before velocities */
    uint32_t gone;
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){5, 5}, 1, &gone), SEPAX_OK);
    cr_assert_eq(sepax_shapes_remove(s, gone, NULL), SEPAX_OK);
    sepax_pair stale[2] = {{a, b}, {gone, a}};
    cr_assert_eq(sepax_sweep(s, stale, 2, v, v, out), SEPAX_ERR_STALE_ID);
    cr_assert_eq(sepax_sweep(s, stale, 2, nan, v, out), SEPAX_ERR_STALE_ID);
    cr_assert_eq(sepax_sweep(s, ok, 2, v, v, (sepax_sweep_hit *)(void *)((char *)out + 2)),
                 SEPAX_ERR_MISALIGNED);
    cr_assert(memcmp(out, before, sizeof out) == 0, "an error wrote output");
    cr_assert_eq(sepax_sweep(s, ok, 0, NULL, NULL, NULL), SEPAX_OK);
    /* NULL velocities with pairs: not moving, an answer for each pair */
    cr_assert_eq(sepax_sweep(s, ok, 2, NULL, NULL, out), SEPAX_OK);
    cr_assert(out[0].hit == 0 && out[1].hit == 0 &&
              memcmp(&out[2], &before[2 * sizeof *out], sizeof out[2]) == 0);
    sepax_vec2 at_limit[2] = {{SEPAX_SWEEP_LIMIT, 0}, {0, -SEPAX_SWEEP_LIMIT}};
    cr_assert_eq(sepax_sweep(s, ok, 2, at_limit, v, out), SEPAX_OK);
    cr_assert_eq(sepax_sweep(s, ok, 2, v, at_limit, out), SEPAX_OK);
    sepax_shapes_destroy(s);
}
