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
