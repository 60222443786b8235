/* Raycasts against brute force: the double-precision gap (exact.c) between
 * the ray's point and the shape, sampled at 4001 points of the ray. A hit at
 * fraction t must have the point apart (beyond the tolerance) at every
 * sample before t and touching at t, with a unit normal the ray runs into; a
 * miss must be apart at every sample. Then hand-worked cases (a box, a
 * circle, a ray from inside, a laser through a row of shapes) and the
 * bad-input contract. Every kernel copy against the reference bit for bit is
 * in test_equivalence.c (check_rays). */
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

static double ray_gap(const exact_shape *shape, const sepax_ray *r, double t) {
    exact_shape p = {1, {r->origin.x + t * r->direction.x}, {r->origin.y + t * r->direction.y}, 0};
    return exact_gap(shape, &p);
}

typedef struct tally {
    size_t rays, hits, inside;
    double worst; /* largest error in tolerances */
} tally;

static void judge(const sepax_shapes *s, const sepax_ray *rays, const uint32_t *ids, size_t n,
                  tally *t) {
    sepax_ray_hit *h = malloc(n * sizeof *h), *r = malloc(n * sizeof *r);
    cr_assert(h && r);
    cr_assert_eq(sepax_raycast(s, rays, ids, n, h), SEPAX_OK);
    cr_assert_eq(sepax_ref_raycast(s, rays, ids, n, r), SEPAX_OK);
    cr_assert(memcmp(h, r, n * sizeof *h) == 0, "library and reference raycasts differ");
    for (size_t i = 0; i < n; i++) {
        sepax_shape_view v;
        sepax_shapes_view(s, ids[i], &v);
        exact_shape e = exact_of_view(&v);
        const sepax_ray *ray = &rays[i];
        double scale = 1.0;
        for (int k = 0; k < e.n; k++) scale = fmax(scale, fmax(fabs(e.x[k]), fabs(e.y[k])) + e.r);
        double tmax = ray->max_fraction;
        scale = fmax(scale, fmax(fabs(ray->origin.x), fabs(ray->origin.y)) +
                                tmax * fmax(fabs(ray->direction.x), fabs(ray->direction.y)));
        double tol = 1e-5 * scale;
        t->rays++;
        double end = h[i].hit ? (double)h[i].fraction : tmax;
        for (int k = 0; k <= SAMPLES; k++) {
            double tk = tmax * k / SAMPLES;
            if (tk >= end && h[i].hit) break;
            double g = ray_gap(&e, ray, tk);
            t->worst = fmax(t->worst, -g / tol);
            cr_assert(g > -tol, "ray %zu: inside by %g at t = %g before the cast's %s %g", i, -g,
                      tk, h[i].hit ? "hit at" : "miss, end", end);
        }
        if (!h[i].hit) {
            sepax_ray_hit zero;
            memset(&zero, 0, sizeof zero);
            cr_assert(memcmp(&h[i], &zero, sizeof zero) == 0, "ray %zu: a miss is all zeros", i);
            continue;
        }
        t->hits++;
        cr_assert(h[i].fraction >= 0.0f && h[i].fraction <= ray->max_fraction);
        double g = ray_gap(&e, ray, h[i].fraction);
        if (h[i].fraction == 0.0f) {
            t->inside++;
            cr_assert(g <= tol, "ray %zu: fraction 0 but apart by %g", i, g);
        } else {
            t->worst = fmax(t->worst, fabs(g) / tol);
            cr_assert(fabs(g) <= tol, "ray %zu: gap %g at the cast's fraction %g", i, g,
                      (double)h[i].fraction);
            /* the ray runs into the surface: against the outward normal */
            double into =
                h[i].normal.x * (double)ray->direction.x + h[i].normal.y * (double)ray->direction.y;
            cr_assert(into <= 1e-6 * hypot(ray->direction.x, ray->direction.y),
                      "ray %zu: normal (%g, %g) along the ray", i, (double)h[i].normal.x,
                      (double)h[i].normal.y);
        }
        double px = ray->origin.x + (double)h[i].fraction * ray->direction.x;
        double py = ray->origin.y + (double)h[i].fraction * ray->direction.y;
        cr_assert(fabs(px - h[i].point.x) <= tol && fabs(py - h[i].point.y) <= tol,
                  "ray %zu: point off the ray", i);
        double len = hypot(h[i].normal.x, h[i].normal.y);
        cr_assert(fabs(len - 1.0) < 1e-6, "ray %zu: normal of length %g", i, len);
    }
    free(h);
    free(r);
}

static void brute_force(int kinds, int posed) {
    wl_config cfg = wl_default();
    cfg.kinds = kinds;
    cfg.pairs = test_pairs(200000) / 40; /* 5k; 500 under sanitizers, valgrind */
    cfg.overlap = 0.1;
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    sepax_ray *rays = malloc(cfg.pairs * sizeof *rays);
    uint32_t *ids = malloc(cfg.pairs * sizeof *ids);
    cr_assert(s && pairs && rays && ids && wl_fill_store(s, &cfg) == SEPAX_OK);
    if (posed) cr_assert_eq(wl_pose_randomly(s, 0x5eedu), SEPAX_OK);
    cr_assert_eq(wl_make_pairs(s, &cfg, pairs), SEPAX_OK);
    for (size_t i = 0; i < cfg.pairs; i++) {
        rays[i] = test_ray(s, pairs[i], i);
        ids[i] = pairs[i].b;
    }
    tally t = {0};
    judge(s, rays, ids, cfg.pairs, &t);
    cr_log_info("%s%s: %zu rays, %zu hits (%zu at fraction 0); worst error %.3f tolerances\n",
                kinds == WL_MIXED ? "mixed" : "polygons", posed ? " posed" : "", t.rays, t.hits,
                t.inside, t.worst);
    cr_expect(t.hits > t.rays / 5 && t.hits - t.inside > t.rays / 10,
              "too few hits to judge: %zu (%zu at fraction 0)", t.hits, t.inside);
    free(pairs);
    free(rays);
    free(ids);
    sepax_shapes_destroy(s);
}

Test(raycast, brute_force_polygons, .timeout = 600) { brute_force(WL_POLYGONS, 0); }
Test(raycast, brute_force_mixed, .timeout = 600) { brute_force(WL_MIXED, 0); }
Test(raycast, brute_force_mixed_posed, .timeout = 600) { brute_force(WL_MIXED, 1); }

static uint32_t box(sepax_shapes *s, float x0, float y0, float x1, float y1) {
    sepax_vec2 p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    uint32_t id;
    cr_assert_eq(sepax_shapes_add_polygon(s, p, 4, &id), SEPAX_OK);
    return id;
}

static sepax_ray_hit cast(const sepax_shapes *s, sepax_ray r, uint32_t id) {
    sepax_ray_hit h, want;
    cr_assert_eq(sepax_raycast(s, &r, &id, 1, &h), SEPAX_OK);
    cr_assert_eq(sepax_ref_raycast(s, &r, &id, 1, &want), SEPAX_OK);
    cr_assert(memcmp(&h, &want, sizeof h) == 0, "library and reference differ");
    return h;
}

Test(raycast, hand_worked) {
    sepax_shapes *s = sepax_shapes_create(8);
    uint32_t b = box(s, 2, -1, 4, 1), c;
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){10, 0}, 1.0f, &c), SEPAX_OK);
    /* along +x into the box's left face at x = 2 */
    sepax_ray_hit h = cast(s, (sepax_ray){{0, 0}, {8, 0}, 1}, b);
    cr_assert(h.hit && h.fraction == 0.25f && h.normal.x == -1.0f && h.normal.y == 0.0f);
    cr_assert(h.point.x == 2.0f && h.point.y == 0.0f);
    /* too short: max fraction 0.2 stops at x = 1.6 */
    h = cast(s, (sepax_ray){{0, 0}, {8, 0}, 0.2f}, b);
    cr_assert_eq(h.hit, 0);
    /* exactly long enough: touching counts */
    h = cast(s, (sepax_ray){{0, 0}, {2, 0}, 1}, b);
    cr_assert(h.hit && h.fraction == 1.0f);
    /* from inside: fraction 0, the nearest face's normal (the top, 0.5 away) */
    h = cast(s, (sepax_ray){{3, 0.5f}, {1, 0}, 1}, b);
    cr_assert(h.hit && h.fraction == 0.0f && h.normal.x == 0.0f && h.normal.y == 1.0f);
    /* a circle of radius 1 at (10, 0), a ray at height 0.6: enters at x = 10 - 0.8 */
    h = cast(s, (sepax_ray){{5, 0.6f}, {10, 0}, 1}, c);
    cr_assert(h.hit && fabs((double)h.fraction - 0.42) < 1e-6, "fraction %.9g", (double)h.fraction);
    cr_assert(fabs((double)h.normal.x + 0.8) < 1e-6 && fabs((double)h.normal.y - 0.6) < 1e-6);
    /* passing above it misses; pointing away misses; a zero-length ray outside misses */
    cr_assert_eq(cast(s, (sepax_ray){{5, 1.01f}, {10, 0}, 1}, c).hit, 0);
    cr_assert_eq(cast(s, (sepax_ray){{5, 0}, {-10, 0}, 1}, c).hit, 0);
    cr_assert_eq(cast(s, (sepax_ray){{5, 0}, {0, 0}, 1}, c).hit, 0);
    sepax_shapes_destroy(s);
}

/* Rays along a box's edge lines: that plane's rate is 0 and its separation 0, so its exit is
 * 0 / 0 = NaN, which must count as no exit (the rays' side of test_sweep's
 * still_planes_at_contact_hide_no_exit). The slot kernels reduced a ray's exits in a tree
 * (until late on 2026-11-26; now each lane's exit is tested), where a NaN left in could hide the
 * one exit that matters and turn a miss into a hit at fraction 0. Each edge is grazed both ways:
 * towards the box, entering the face met head-on at fraction 0.25; and away from it, starting past
 * its end (a miss). The left plane's repeats fill lanes 4-7. Every kernel copy, against the
 * reference and the worked answers. */
Test(raycast, grazing_an_edge_every_kernel) {
    sepax_shapes *s = sepax_shapes_create(8);
    uint32_t b = box(s, 2, -1, 4, 1); /* planes: 0 bottom, 1 right, 2 top, 3 left */
    enum { N = 8 };
    const sepax_ray rays[N] = {
        {{0, 1}, {8, 0}, 1},   /* along the top edge, into the left face */
        {{0, -1}, {8, 0}, 1},  /* along the bottom edge, into the left face */
        {{4, -3}, {0, 8}, 1},  /* up the right edge, into the bottom face */
        {{2, 3}, {0, -8}, 1},  /* down the left edge, into the top face */
        {{5, 1}, {8, 0}, 1},   /* along the top edge, away past the right face */
        {{1, -1}, {-8, 0}, 1}, /* along the bottom edge, away past the left face */
        {{4, 2}, {0, 8}, 1},   /* up the right edge, away past the top */
        {{2, -2}, {0, -8}, 1}  /* down the left edge, away past the bottom */
    };
    const float want_n[N / 2][2] = {{-1, 0}, {-1, 0}, {0, -1}, {0, 1}};
    uint32_t ids[N] = {b, b, b, b, b, b, b, b};
    sepax_ray_hit want[N];
    cr_assert_eq(sepax_ref_raycast(s, rays, ids, N, want), SEPAX_OK);
    for (int i = 0; i < N / 2; i++) {
        cr_assert(want[i].hit && want[i].fraction == 0.25f && want[i].normal.x == want_n[i][0] &&
                      want[i].normal.y == want_n[i][1],
                  "ray %d: hit %u fraction %g normal (%g, %g)", i, want[i].hit,
                  (double)want[i].fraction, (double)want[i].normal.x, (double)want[i].normal.y);
        cr_assert_eq(want[N / 2 + i].hit, 0, "ray %d", N / 2 + i);
    }
    for (int k = 0; k < test_kernel_count(); k++) {
        const test_kernel *tk = test_kernel_at(k);
        if (!tk->runnable) continue;
        sepax_ray_hit got[N];
        tk->k->raycast(s, rays, ids, N, got, k % 2 ? test_work() : NULL);
        for (int i = 0; i < N; i++)
            cr_assert(memcmp(&got[i], &want[i], sizeof got[i]) == 0,
                      "%s, ray %d: hit %u fraction %g normal (%g, %g)", tk->name, i, got[i].hit,
                      (double)got[i].fraction, (double)got[i].normal.x, (double)got[i].normal.y);
    }
    sepax_shapes_destroy(s);
}

Test(raycast, laser_through_a_row) {
    /* 37 shapes of every kind in a row along x; the laser runs along y = 0.1 */
    sepax_shapes *s = sepax_shapes_create(64);
    for (int i = 0; i < 37; i++) {
        float x = 3.0f * (float)i;
        uint32_t id;
        switch (i % 3) {
        case 0: id = box(s, x, -1, x + 1, 1); break;
        case 1:
            cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){x, 0}, 0.5f, &id), SEPAX_OK);
            break;
        default:
            cr_assert_eq(
                sepax_shapes_add_capsule(s, (sepax_vec2){x, -1}, (sepax_vec2){x, 1}, 0.25f, &id),
                SEPAX_OK);
        }
    }
    sepax_ray laser = {{-5, 0.1f}, {200, 0}, 1};
    sepax_ray_hit range[37], batch[37], want[37];
    sepax_ray rays[37];
    uint32_t ids[37];
    for (uint32_t i = 0; i < 37; i++) {
        rays[i] = laser;
        ids[i] = sepax_shapes_id(s, i);
    }
    cr_assert_eq(sepax_raycast_range(s, &laser, 0, 37, range), SEPAX_OK);
    cr_assert_eq(sepax_raycast(s, rays, ids, 37, batch), SEPAX_OK);
    cr_assert_eq(sepax_ref_raycast_range(s, &laser, 0, 37, want), SEPAX_OK);
    cr_assert(memcmp(range, batch, sizeof range) == 0, "range and batch differ");
    cr_assert(memcmp(range, want, sizeof range) == 0, "range and reference differ");
    for (int i = 0; i < 37; i++) {
        cr_assert_eq(range[i].hit, 1, "shape %d missed", i);
        cr_assert(range[i].normal.x < 0.0f, "shape %d: normal faces away from the laser", i);
        if (i) cr_assert(range[i].fraction > range[i - 1].fraction);
    }
    /* a sub-range starting mid-block writes only its own results */
    sepax_ray_hit part[12];
    memset(part, 0x5a, sizeof part);
    cr_assert_eq(sepax_raycast_range(s, &laser, 13, 10, part), SEPAX_OK);
    cr_assert(memcmp(part, range + 13, 10 * sizeof *part) == 0);
    for (size_t k = 10 * sizeof *part; k < sizeof part; k++)
        cr_assert_eq(((unsigned char *)part)[k], 0x5a, "wrote past the range");
    sepax_shapes_destroy(s);
}

/* A raycast is free of scale: a scene scaled by 2^k and its rays (origins by 2^k, directions
 * by 2^(k - j), max fractions by 2^j, keeping the directions within SEPAX_SWEEP_LIMIT) hit at
 * 2^j times the fraction, at 2^k times the point, with the same normal, bit for bit, on every
 * backend, one shape at a time and along a range, and so under a caller's flush-to-zero mode
 * (x86). The rounded corners' quadratic squared products of four lengths, which underflowed
 * below about 1e-9 and overflowed above about 1e9 (at 2^40 ray 3 was called touching its
 * circle at t = 0, not 0.49) before the direction, and the distance with the radii, were
 * taken to powers of two of their own (README, "What the answers mean"). From 2^-62, as the
 * sweep's test, to 2^55, where the shapes reach 1.3e17 and the origins 1.4e17; j down to -88,
 * rays 2^26 times as long as the scene is wide. */
Test(raycast, scale_free_by_powers_of_two) {
    enum { N = WL_SCALED_SHAPES, ORIGINS = 3, RAYS = N * ORIGINS };
    static const float centre[N][2] = {{1, 1},       {-2, -2},        {0, 0},
                                       {3, 0.4f},    {0, 0},          {2.5f, 1.2f},
                                       {0.5f, 0.5f}, {-1.27f, -1.2f}, {3.25f, 0}};
    static const float from[ORIGINS][2] = {{-3, 0.3f}, {4, 3.5f}, {0.5f, -3}};
    static const int kj[][2] = {{0, 0},     {-62, 0},   {-60, 0},  {-50, 0}, {-45, 0}, {-40, 0},
                                {-30, 0},   {-20, 0},   {-10, 0},  {-1, 0},  {1, 0},   {10, 0},
                                {20, 0},    {26, 0},    {40, 14},  {55, 29}, {0, -20}, {-20, -40},
                                {-45, -70}, {-60, -85}, {-62, -88}};
    sepax_ray_hit base[RAYS];
    for (int ftz = 0; ftz < 2; ftz++) {
        if (ftz && !wl_flush_denormals(1)) continue;
        for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
            if (!sepax_backend_available((sepax_backend)b)) continue;
            cr_assert_eq(sepax_set_backend((sepax_backend)b), SEPAX_OK);
            for (size_t c = 0; c < sizeof kj / sizeof kj[0]; c++) {
                int k = kj[c][0], j = kj[c][1];
                if (ftz && k < WL_FTZ_LOWEST)
                    continue; /* the closest-vertex search's squares flush */
                float f = ldexpf(1.0f, k), fd = ldexpf(1.0f, k - j);
                const char *name = sepax_backend_name((sepax_backend)b);
                sepax_shapes *s = sepax_shapes_create(16);
                uint32_t id[N], ids[RAYS];
                wl_scaled_scene(s, f, id);
                sepax_ray rays[RAYS];
                for (int i = 0; i < N; i++)
                    for (int o = 0; o < ORIGINS; o++) {
                        /* at the shape's middle, the third origin's rays aimed off to one side */
                        float off = o == 2 ? 0.9f : 0.05f;
                        float dx = (centre[i][0] - from[o][0]) * 1.2f + off;
                        float dy = (centre[i][1] - from[o][1]) * 1.2f - 0.03f;
                        rays[i * ORIGINS + o] = (sepax_ray){
                            {from[o][0] * f, from[o][1] * f}, {dx * fd, dy * fd}, ldexpf(1.0f, j)};
                        ids[i * ORIGINS + o] = id[i];
                    }
                sepax_ray_hit h[RAYS], r[RAYS], range[N];
                cr_assert_eq(sepax_raycast(s, rays, ids, RAYS, h), SEPAX_OK);
                cr_assert_eq(sepax_ref_raycast(s, rays, ids, RAYS, r), SEPAX_OK);
                cr_assert(memcmp(h, r, sizeof h) == 0,
                          "%s%s, 2^%d, 2^%d: library and reference differ", name,
                          ftz ? " (FTZ)" : "", k, j);
                if (!ftz && b == 0 && c == 0) {
                    memcpy(base, h, sizeof base);
                    int hits = 0;
                    for (int i = 0; i < RAYS; i++) hits += (int)h[i].hit;
                    cr_assert(hits >= RAYS - 9 && hits < RAYS,
                              "a scene worth scaling: %d hits of %d", hits, RAYS);
                }
                for (int i = 0; i < RAYS; i++) {
                    sepax_ray_hit want = base[i];
                    want.fraction = ldexpf(want.fraction, j);
                    want.point = (sepax_vec2){want.point.x * f, want.point.y * f};
                    cr_assert(memcmp(&h[i], &want, sizeof want) == 0,
                              "%s%s, ray %d at 2^%d, 2^%d: hit %u t %a n (%.9g, %.9g); want hit %u "
                              "t %a n (%.9g, %.9g)",
                              name, ftz ? " (FTZ)" : "", i, k, j, h[i].hit, (double)h[i].fraction,
                              (double)h[i].normal.x, (double)h[i].normal.y, want.hit,
                              (double)want.fraction, (double)want.normal.x, (double)want.normal.y);
                }
                for (int q = 0; q < RAYS; q++) { /* the shapes were added at indices 0 .. N-1 */
                    sepax_ray same[N];
                    sepax_ray_hit each[N];
                    for (int i = 0; i < N; i++) same[i] = rays[q];
                    cr_assert_eq(sepax_raycast(s, same, id, N, each), SEPAX_OK);
                    cr_assert_eq(sepax_raycast_range(s, &rays[q], 0, N, range), SEPAX_OK);
                    cr_assert(memcmp(range, each, sizeof range) == 0,
                              "%s%s, 2^%d, 2^%d: ray %d along the range differs", name,
                              ftz ? " (FTZ)" : "", k, j, q);
                }
                sepax_shapes_destroy(s);
            }
        }
    }
    wl_flush_denormals(0);
    sepax_set_backend(SEPAX_BACKEND_AUTO);
}

Test(raycast, bad_input_writes_nothing) {
    sepax_shapes *s = sepax_shapes_create(4);
    uint32_t a = box(s, 0, 0, 1, 1), b = box(s, 2, 0, 3, 1), gone;
    cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){5, 5}, 1, &gone), SEPAX_OK);
    cr_assert_eq(sepax_shapes_remove(s, gone, NULL), SEPAX_OK);
    sepax_ray ok[2] = {{{-1, 0.5f}, {5, 0}, 1}, {{-1, 0.5f}, {5, 0}, 1}};
    uint32_t ids[2] = {a, b}, bad_ids[2] = {a, 9}, stale[2] = {a, gone};
    sepax_ray nan[2] = {ok[0], {{-1, 0.5f}, {NAN, 0}, 1}};
    sepax_ray inf[2] = {ok[0], {{-1, 0.5f}, {1, 0}, INFINITY}};
    sepax_ray far[2] = {ok[0], {{2e18f, 0}, {1, 0}, 1}};
    sepax_ray fast[2] = {ok[0], {{0, 0}, {0, 2e9f}, 1}};
    sepax_ray back[2] = {ok[0], {{0, 0}, {1, 0}, -0.5f}};
    /* every field's NaN and infinities, and each bound just past its limit */
    sepax_ray nan_origin[2] = {ok[0], {{0, NAN}, {1, 0}, 1}};
    sepax_ray inf_origin[2] = {ok[0], {{-INFINITY, 0}, {1, 0}, 1}};
    sepax_ray nan_fraction[2] = {ok[0], {{0, 0}, {1, 0}, NAN}};
    sepax_ray long_fraction[2] = {ok[0], {{0, 0}, {1, 0}, nextafterf(SEPAX_SWEEP_LIMIT, INFINITY)}};
    sepax_ray far_x[2] = {ok[0], {{nextafterf(SEPAX_COORD_LIMIT, INFINITY), 0}, {1, 0}, 1}};
    sepax_ray fast_x[2] = {ok[0], {{0, 0}, {-nextafterf(SEPAX_SWEEP_LIMIT, INFINITY), 0}, 1}};
    /* the first bad ray gives the status: RANGE at ray 0 before NONFINITE at ray 1, and
     * the other way round */
    sepax_ray range_first[2] = {back[1], nan[1]}, nonfinite_first[2] = {nan[1], back[1]};
    sepax_ray_hit out[3];
    memset(out, 0x5a, sizeof out);
    unsigned char before[sizeof out];
    memcpy(before, out, sizeof out);
    cr_assert_eq(sepax_raycast(NULL, ok, ids, 2, out), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_raycast(s, NULL, ids, 2, out), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_raycast(s, ok, NULL, 2, out), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_raycast(s, ok, ids, 2, NULL), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_raycast(s, ok, ids, 2, (sepax_ray_hit *)(void *)((char *)out + 1)),
                 SEPAX_ERR_MISALIGNED);
    /* rays and ids misaligned too, each on its own (the README's row names all three) */
    cr_assert_eq(
        sepax_raycast(s, (const sepax_ray *)(const void *)((const char *)ok + 1), ids, 2, out),
        SEPAX_ERR_MISALIGNED);
    cr_assert_eq(
        sepax_raycast(s, ok, (const uint32_t *)(const void *)((const char *)ids + 2), 2, out),
        SEPAX_ERR_MISALIGNED);
    cr_assert_eq(sepax_raycast(s, ok, ids, SIZE_MAX / 8, out), SEPAX_ERR_COUNT);
    cr_assert_eq(sepax_raycast(s, ok, bad_ids, 2, out), SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_raycast(s, ok, stale, 2, out), SEPAX_ERR_STALE_ID);
    cr_assert_eq(sepax_raycast(s, nan, ids, 2, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_raycast(s, inf, ids, 2, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_raycast(s, far, ids, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast(s, fast, ids, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast(s, back, ids, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast(s, nan_origin, ids, 2, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_raycast(s, inf_origin, ids, 2, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_raycast(s, nan_fraction, ids, 2, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_raycast(s, long_fraction, ids, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast(s, far_x, ids, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast(s, fast_x, ids, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast(s, range_first, ids, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast(s, nonfinite_first, ids, 2, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_ref_raycast(s, long_fraction, ids, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_ref_raycast(s, nan_origin, ids, 2, out), SEPAX_ERR_NONFINITE);
    for (int r = 0; r < 2; r++) { /* the limits themselves are taken */
        sepax_ray edge = {{r ? -SEPAX_COORD_LIMIT : SEPAX_COORD_LIMIT, 0},
                          {0, r ? SEPAX_SWEEP_LIMIT : -SEPAX_SWEEP_LIMIT},
                          r ? SEPAX_SWEEP_LIMIT : 0.0f};
        sepax_ray_hit h;
        cr_assert_eq(sepax_raycast(s, &edge, ids, 1, &h), SEPAX_OK);
        cr_assert_eq(sepax_raycast_range(s, &edge, 0, 1, &h), SEPAX_OK);
    }
    cr_assert_eq(sepax_ref_raycast(s, back, ids, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_ref_raycast(s, ok, stale, 2, out), SEPAX_ERR_STALE_ID);
    cr_assert_eq(sepax_raycast_range(NULL, ok, 0, 2, out), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_raycast_range(s, NULL, 0, 2, out), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_raycast_range(s, ok, 0, 2, NULL), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_raycast_range(s, &nan[1], 0, 2, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_raycast_range(s, &far[1], 0, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast_range(s, &inf[1], 0, 2, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_raycast_range(s, &nan_origin[1], 0, 2, out), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_raycast_range(s, &long_fraction[1], 0, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast_range(s, &fast_x[1], 0, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast_range(s, &back[1], 0, 2, out), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_raycast_range(s, ok, 1, 2, out), SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_raycast_range(s, ok, 3, 0, out), SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_raycast_range(s, ok, 0, 2, (sepax_ray_hit *)(void *)((char *)out + 2)),
                 SEPAX_ERR_MISALIGNED);
    cr_assert_eq(sepax_ref_raycast_range(s, ok, 1, 2, out), SEPAX_ERR_BAD_ID);
    cr_assert(memcmp(out, before, sizeof out) == 0, "an error wrote output");
    cr_assert_eq(sepax_raycast(s, ok, ids, 0, NULL), SEPAX_OK);
    cr_assert_eq(sepax_raycast_range(s, ok, 2, 0, NULL), SEPAX_OK);
    sepax_shapes_destroy(s);
}

/* A sharp polygon's corner is where two rounded edge planes meet: at a tip of angle theta
 * their rounding moves it along the tip by about the coordinates' rounding over theta, and
 * a ray (a point, with no vertex axis) is taken as touching that far beyond the tip. A
 * review's sliver: 1 long, 7e-6 thick (7 times the thinness threshold, accepted), tip angle
 * 8.2e-6 rad, turned through 400 rotations: zero-length rays on the line of one of the tip's
 * edges hit up to 0.0071 beyond it, where 2^-24 / theta is 0.0073. The README states twice
 * that estimate as the bound (the tip and the planes are each rounded); the reach past the
 * tip is measured here against it and must be near it (above half the estimate: the
 * effect is what the README says), and a blunt corner (a right angle) stays within 1e-6. */
static double reach_past_tip(const sepax_vec2 *q, int tip, int turns) {
    sepax_shapes *s = sepax_shapes_create(2);
    uint32_t id;
    cr_assert_eq(sepax_shapes_add_polygon(s, q, 3, &id), SEPAX_OK);
    double worst = 0.0;
    for (int k = 0; k < turns; k++) {
        sepax_pose p = {{0.0f, 0.0f}, sepax_rot(6.283185f * (float)k / (float)turns)};
        cr_assert_eq(sepax_shapes_set_poses(s, 0, 1, &p), SEPAX_OK);
        cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
        sepax_shape_view v;
        cr_assert_eq(sepax_shapes_view(s, id, &v), SEPAX_OK);
        /* past the tip along each of its two edges' lines (where a point is nearest to
         * lying on both planes) and along the line from the opposite edge's middle */
        int a = (tip + 1) % 3, b = (tip + 2) % 3;
        double from[3][2] = {{v.x[a], v.y[a]},
                             {v.x[b], v.y[b]},
                             {0.5 * ((double)v.x[a] + v.x[b]), 0.5 * ((double)v.y[a] + v.y[b])}};
        for (int line = 0; line < 3; line++) {
            double ax = v.x[tip] - from[line][0], ay = v.y[tip] - from[line][1];
            double len = sqrt(ax * ax + ay * ay);
            ax /= len;
            ay /= len;
            for (double d = 1e-6; d < 0.05; d *= 1.1) {
                sepax_ray r = {{(float)(v.x[tip] + d * ax), (float)(v.y[tip] + d * ay)}, {0, 0}, 0};
                sepax_ray_hit h;
                cr_assert_eq(sepax_raycast(s, &r, &id, 1, &h), SEPAX_OK);
                /* past the tip by the ray's float origin, in double: the distance to the
                 * shape, which lies behind the tip on this line */
                double dx = r.origin.x - (double)v.x[tip], dy = r.origin.y - (double)v.y[tip];
                double beyond = dx * ax + dy * ay;
                if (h.hit && beyond > worst) worst = beyond;
            }
        }
    }
    sepax_shapes_destroy(s);
    return worst;
}

Test(raycast, sharp_tips_within_the_stated_reach) {
    const sepax_vec2 sliver[3] = {{0, 0}, {1, 0}, {0.85f, 7e-6f}};
    /* the tip at vertex 0: the angle between its two edges */
    double theta = atan2(7e-6, 0.85);
    double bound = 2.0 * 0x1p-24 / theta, reach = reach_past_tip(sliver, 0, 400);
    if (getenv("SEPAX_TEST_VERBOSE"))
        printf("sliver tip %.3g rad: rays hit up to %.3g past it, bound %.3g\n", theta, reach,
               bound);
    cr_assert(reach <= bound, "rays hit %g past a tip of %g rad, beyond the bound %g", reach, theta,
              bound);
    cr_assert(reach > 0.25 * bound, "the sliver's reach %g is not what the README describes",
              reach);
    const sepax_vec2 right[3] = {{0, 0}, {1, 0}, {0, 1}};
    double blunt = reach_past_tip(right, 0, 400);
    cr_assert(blunt <= 1e-6, "rays hit %g past a right angle", blunt);
}
