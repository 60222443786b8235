/* Every shape kind against a ground truth that shares nothing with sepax:
 * the double-precision signed distance (exact.c's distance, and a textbook
 * penetration depth once the cores overlap), computed from each shape's world
 * data as the store holds it, so float rounding of the input is not counted
 * against the library. Answers farther than 1e-5 of the coordinates'
 * magnitude from the truth are wrong. Then margins, collide's normal and
 * depth, hand-checked circle cases, bounds and constructors. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exact.h"
#include "sepax_ref.h"
#include "workload.h"

/* Four classes, since sharp and rounded polygons take different paths in the
 * kernel (only curved pairs get the closest-vertices axis at margin 0). */
enum { CIRCLE, CAPSULE, SHARP, ROUNDED, CLASSES };
#define COMBOS (CLASSES * (CLASSES + 1) / 2)
static const char *const class_name[CLASSES] = {"circle", "capsule", "polygon", "rounded"};

static int class_of(const sepax_shape_view *v) {
    if (v->kind == SEPAX_KIND_CIRCLE) return CIRCLE;
    if (v->kind == SEPAX_KIND_CAPSULE) return CAPSULE;
    return v->radius > 0 ? ROUNDED : SHARP;
}

/* unordered class pair -> 0 .. COMBOS-1 */
static int combo_of(int p, int q) {
    int lo = p < q ? p : q, hi = p < q ? q : p;
    return lo * CLASSES - lo * (lo - 1) / 2 + (hi - lo);
}

static const char *combo_name(int c) {
    static char names[COMBOS][32];
    for (int p = 0; p < CLASSES; p++)
        for (int q = p; q < CLASSES; q++)
            snprintf(names[combo_of(p, q)], sizeof names[0], "%s-%s", class_name[p], class_name[q]);
    return names[c];
}

/* How deep two cores overlap: the least overlap of their projections on the
 * edge normals of both (a segment has one, a point none). Overlapping convex
 * cores are separated by the shortest of these: the edges of their Minkowski
 * difference are the edges of the two. */
static double core_depth(const exact_shape *a, const exact_shape *b) {
    const exact_shape *s[2] = {a, b};
    double best = INFINITY;
    for (int i = 0; i < 2; i++) {
        int edges = s[i]->n >= 3 ? s[i]->n : s[i]->n - 1;
        for (int e = 0; e < edges; e++) {
            int f = (e + 1) % s[i]->n;
            double ux = s[i]->y[f] - s[i]->y[e], uy = s[i]->x[e] - s[i]->x[f];
            double len = hypot(ux, uy);
            double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
            for (int k = 0; k < 2; k++)
                for (int v = 0; v < s[k]->n; v++) {
                    double d = (ux * s[k]->x[v] + uy * s[k]->y[v]) / len;
                    lo[k] = fmin(lo[k], d);
                    hi[k] = fmax(hi[k], d);
                }
            best = fmin(best, fmin(hi[0] - lo[1], hi[1] - lo[0]));
        }
    }
    return best == INFINITY ? 0 : fmax(best, 0); /* two points: they coincide */
}

/* The signed distance: exact_gap while the cores are apart, and minus the
 * penetration depth (cores' plus both radii) once they touch; exact_gap alone
 * says 0 for any two overlapping sharp polygons, however deep. */
static double signed_gap(const exact_shape *a, const exact_shape *b) {
    double d = exact_core_distance(a, b);
    return (d > 0 ? d : -core_depth(a, b)) - a->r - b->r;
}

/* Float rounding is relative to the coordinates' magnitude, not the shapes' size. */
static double tolerance(const exact_shape *a, const exact_shape *b) {
    const exact_shape *s[2] = {a, b};
    double scale = 1.0;
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < s[i]->n; k++)
            scale = fmax(scale, fmax(fabs(s[i]->x[k]), fabs(s[i]->y[k])) + s[i]->r);
    return 1e-5 * scale;
}

/* A store, its pairs and the ground truth for each pair. */
typedef struct fixture {
    sepax_shapes *store;
    sepax_pair *pairs;
    size_t n;
    exact_shape *a, *b;
    double *gap, *tol;
    int *combo;
} fixture;

static void pose_randomly(sepax_shapes *s, uint64_t seed) {
    cr_assert(wl_pose_randomly(s, seed) == SEPAX_OK);
}

static fixture make_fixture(int posed) {
    wl_config cfg = wl_default();
    cfg.kinds = WL_MIXED;
    cfg.shapes = 2000;
    cfg.pairs =
        test_pairs(300000) < 100000 ? 100000 : test_pairs(300000); /* >= 500 per kind pair */
    cfg.overlap = 0.5;
    cfg.seed = posed ? 0x705edu : 0x3141u;
    fixture f = {sepax_shapes_create(cfg.shapes), NULL, cfg.pairs, NULL, NULL, NULL, NULL, NULL};
    f.pairs = malloc(f.n * sizeof *f.pairs);
    f.a = malloc(f.n * sizeof *f.a);
    f.b = malloc(f.n * sizeof *f.b);
    f.gap = malloc(f.n * sizeof *f.gap);
    f.tol = malloc(f.n * sizeof *f.tol);
    f.combo = malloc(f.n * sizeof *f.combo);
    cr_assert(f.store && f.pairs && f.a && f.b && f.gap && f.tol && f.combo);
    cr_assert(wl_fill_store(f.store, &cfg) == SEPAX_OK);
    if (posed) pose_randomly(f.store, cfg.seed);
    cr_assert(wl_make_pairs(f.store, &cfg, f.pairs) == SEPAX_OK);
    for (size_t i = 0; i < f.n; i++) {
        sepax_shape_view va, vb;
        cr_assert(sepax_shapes_view(f.store, f.pairs[i].a, &va) == SEPAX_OK);
        cr_assert(sepax_shapes_view(f.store, f.pairs[i].b, &vb) == SEPAX_OK);
        f.a[i] = exact_of_view(&va);
        f.b[i] = exact_of_view(&vb);
        f.gap[i] = signed_gap(&f.a[i], &f.b[i]);
        f.tol[i] = tolerance(&f.a[i], &f.b[i]);
        f.combo[i] = combo_of(class_of(&va), class_of(&vb));
    }
    return f;
}

static void free_fixture(fixture *f) {
    sepax_shapes_destroy(f->store);
    free(f->pairs);
    free(f->a);
    free(f->b);
    free(f->gap);
    free(f->tol);
    free(f->combo);
}

typedef struct tally {
    size_t checked, hits, misses, band, wrong;
    double worst; /* largest |gap - margin| / tol over the disagreements, band included */
    size_t worst_pair;
} tally;

/* hit[i] against "gap <= margin" for every pair: a disagreement farther than
 * the tolerance from the margin is a wrong answer. */
static void judge(const fixture *f, const uint8_t *hit, double margin, const char *what) {
    tally t[COMBOS];
    memset(t, 0, sizeof t);
    size_t reported = 0;
    for (size_t i = 0; i < f->n; i++) {
        tally *c = &t[f->combo[i]];
        double off = f->gap[i] - margin;
        int want = off <= 0;
        c->checked++;
        c->hits += hit[i] != 0;
        c->misses += hit[i] == 0;
        c->band += fabs(off) <= f->tol[i];
        if ((hit[i] != 0) == want) continue;
        if (fabs(off) / f->tol[i] > c->worst) {
            c->worst = fabs(off) / f->tol[i];
            c->worst_pair = i;
        }
        if (fabs(off) <= f->tol[i]) continue;
        c->wrong++;
        if (reported++ < 10)
            cr_expect(0, "%s: pair %zu (ids %u, %u, %s): signed distance %.9g, margin %g, hit %u",
                      what, i, f->pairs[i].a, f->pairs[i].b, combo_name(f->combo[i]), f->gap[i],
                      margin, hit[i]);
    }
    for (int c = 0; c < COMBOS; c++) {
        char worst[64] = "none";
        if (t[c].worst > 0)
            snprintf(worst, sizeof worst, "%.3g tol (pair %zu)", t[c].worst, t[c].worst_pair);
        cr_log_info("%s %-16s %6zu pairs, %6zu hits, %6zu misses, %3zu within tolerance of the "
                    "margin, %zu wrong; worst disagreement: %s",
                    what, combo_name(c), t[c].checked, t[c].hits, t[c].misses, t[c].band,
                    t[c].wrong, worst);
        /* each combination must be tested on both sides of the margin */
        cr_expect(t[c].checked >= 500 && t[c].hits >= 100 && t[c].misses >= 100,
                  "%s %s: only %zu pairs (%zu hits, %zu misses)", what, combo_name(c), t[c].checked,
                  t[c].hits, t[c].misses);
        cr_expect(t[c].wrong == 0, "%s %s: %zu wrong answers", what, combo_name(c), t[c].wrong);
    }
}

static void overlap_is_exact(int posed) {
    fixture f = make_fixture(posed);
    uint8_t *hit = malloc(f.n);
    cr_assert(hit && sepax_overlap(f.store, f.pairs, f.n, hit) == SEPAX_OK);
    judge(&f, hit, 0.0, posed ? "posed overlap" : "overlap");
    free(hit);
    free_fixture(&f);
}

Test(kinds, overlap_is_exact_for_every_kind_pair, .timeout = 600) { overlap_is_exact(0); }
Test(kinds, overlap_is_exact_after_random_poses, .timeout = 600) { overlap_is_exact(1); }

/* A positive margin asks for the distance, so two sharp polygons need their
 * closest-vertices axis too: corner-to-corner gaps are where it would fail. */
Test(kinds, positive_margin_is_the_euclidean_distance, .timeout = 600) {
    for (int posed = 0; posed < 2; posed++) {
        fixture f = make_fixture(posed);
        uint8_t *hit = malloc(f.n);
        sepax_query_options opt = {.margin = 0.3f};
        cr_assert(hit && sepax_overlap_opt(f.store, f.pairs, f.n, &opt, hit) == SEPAX_OK);
        judge(&f, hit, 0.3f, posed ? "posed margin 0.3" : "margin 0.3");
        free(hit);
        free_fixture(&f);
    }
}

/* A negative margin asks for penetration deeper than -margin, which SAT over
 * these axes gives exactly (the edges of two cores' Minkowski difference are
 * the cores' own edges; the radii add on): judged against the signed distance
 * like margin 0. Also consistent with margin 0: the same hits among those
 * deep enough, with the same normal and depth. */
Test(kinds, negative_margin_is_penetration_depth, .timeout = 600) {
    for (int posed = 0; posed < 2; posed++) {
        fixture f = make_fixture(posed);
        const float m = -0.2f;
        sepax_query_options opt = {.margin = m};
        uint8_t *hit = malloc(f.n);
        sepax_hit *h = malloc(f.n * sizeof *h), *h0 = malloc(f.n * sizeof *h0);
        cr_assert(hit && h && h0);
        cr_assert(sepax_overlap_opt(f.store, f.pairs, f.n, &opt, hit) == SEPAX_OK);
        cr_assert(sepax_collide_opt(f.store, f.pairs, f.n, &opt, h) == SEPAX_OK);
        cr_assert(sepax_collide(f.store, f.pairs, f.n, h0) == SEPAX_OK);
        judge(&f, hit, m, posed ? "posed margin -0.2" : "margin -0.2");
        size_t inconsistent = 0;
        for (size_t i = 0; i < f.n; i++) {
            int deep = h0[i].hit && h0[i].depth >= -m;
            int same = hit[i] == deep && h[i].hit == (uint32_t)deep &&
                       (!deep || memcmp(&h[i], &h0[i], sizeof h[i]) == 0);
            if (!same && inconsistent++ < 10)
                cr_expect(0, "pair %zu: at %g hit %u / collide %u, depth %.9g; at 0 %u, %.9g", i, m,
                          hit[i], h[i].hit, h[i].depth, h0[i].hit, h0[i].depth);
        }
        cr_expect(inconsistent == 0, "%zu pairs answer margin %g unlike margin 0", inconsistent, m);
        free(hit);
        free(h);
        free(h0);
        free_fixture(&f);
    }
}

/* collide's depth is the penetration depth (minus the signed distance) and
 * its normal the direction to resolve it: moving B by depth along the normal
 * leaves the pair touching, within the tolerance. A positive gap afterwards
 * would mean too deep a depth or a crooked normal; a negative one that the
 * move does not separate (e.g. a normal pointing from B to A). */
Test(kinds, collide_gives_the_minimum_translation, .timeout = 600) {
    for (int posed = 0; posed < 2; posed++) {
        fixture f = make_fixture(posed);
        sepax_hit *h = malloc(f.n * sizeof *h);
        cr_assert(h && sepax_collide(f.store, f.pairs, f.n, h) == SEPAX_OK);
        size_t checked[COMBOS] = {0}, bad = 0;
        double worst_depth[COMBOS] = {0}, lo[COMBOS] = {0}, hi[COMBOS] = {0}; /* in tolerances */
        for (size_t i = 0; i < f.n; i++) {
            const sepax_hit *r = &h[i];
            if (!r->hit) continue;
            int c = f.combo[i];
            checked[c]++;
            double len = hypot(r->normal.x, r->normal.y);
            double depth_err = fabs(r->depth + f.gap[i]) / f.tol[i];
            exact_shape b = f.b[i];
            for (int k = 0; k < b.n; k++) {
                b.x[k] += (double)r->normal.x * r->depth;
                b.y[k] += (double)r->normal.y * r->depth;
            }
            double after = signed_gap(&f.a[i], &b) / f.tol[i];
            worst_depth[c] = fmax(worst_depth[c], depth_err);
            lo[c] = fmin(lo[c], after);
            hi[c] = fmax(hi[c], after);
            if ((fabs(len - 1) >= 1e-5 || !(r->depth >= 0) || depth_err > 1 || fabs(after) > 1) &&
                bad++ < 10)
                cr_expect(0,
                          "pair %zu (%s, ids %u, %u): normal (%.9g, %.9g), depth %.9g, signed "
                          "distance %.9g, after the move %.3g tol",
                          i, combo_name(c), f.pairs[i].a, f.pairs[i].b, r->normal.x, r->normal.y,
                          r->depth, f.gap[i], after);
        }
        for (int c = 0; c < COMBOS; c++) {
            cr_log_info("%scollide %-16s %6zu hits: depth off by <= %.3g tol; moved apart, gap "
                        "%.3g .. %.3g tol",
                        posed ? "posed " : "", combo_name(c), checked[c], worst_depth[c], lo[c],
                        hi[c]);
            cr_expect(checked[c] >= 100, "%s: only %zu hits", combo_name(c), checked[c]);
        }
        cr_expect(bad == 0, "%zu hits with a bad normal or depth", bad);
        free(h);
        free_fixture(&f);
    }
}

/* Hand-checked circles: the store is small, so ids are indices. */
static uint32_t circle(sepax_shapes *s, float x, float y, float r) {
    uint32_t id;
    cr_assert(sepax_shapes_add_circle(s, (sepax_vec2){x, y}, r, &id) == SEPAX_OK);
    return id;
}

Test(kinds, circle_cases_by_hand) {
    sepax_shapes *s = sepax_shapes_create(8);
    cr_assert(s);
    uint32_t a = circle(s, 0, 0, 1), touching = circle(s, 2, 0, 1), inner = circle(s, 0, 0, 2);
    sepax_vec2 sq[4] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    uint32_t square, near, far;
    cr_assert(sepax_shapes_add_polygon(s, sq, 4, &square) == SEPAX_OK);
    /* 3-4-5 from the corner (2, 2): the corner axis, not an edge normal, decides */
    near = circle(s, 5, 6, 5.0001f);
    far = circle(s, 5, 6, 4.999f);
    sepax_pair p[5] = {{a, touching}, {a, inner}, {square, near}, {square, far}, {near, square}};
    sepax_hit h[5];
    uint8_t hit[5];
    cr_assert(sepax_collide(s, p, 5, h) == SEPAX_OK);
    cr_assert(sepax_overlap(s, p, 5, hit) == SEPAX_OK);
    cr_expect(h[0].hit && h[0].depth == 0 && h[0].normal.x == 1 && h[0].normal.y == 0,
              "touching: n (%g, %g) d %g", h[0].normal.x, h[0].normal.y, h[0].depth);
    /* concentric: no direction between the centres; the documented fallback (1, 0) */
    cr_expect(h[1].hit && h[1].depth == 3 && h[1].normal.x == 1 && h[1].normal.y == 0,
              "concentric: n (%g, %g) d %g", h[1].normal.x, h[1].normal.y, h[1].depth);
    cr_expect(h[2].hit && fabsf(h[2].depth - 1e-4f) < 1e-5f &&
                  fabsf(h[2].normal.x - 0.6f) < 1e-6f && fabsf(h[2].normal.y - 0.8f) < 1e-6f,
              "corner: n (%g, %g) d %g", h[2].normal.x, h[2].normal.y, h[2].depth);
    cr_expect(!h[3].hit, "4.999 from the corner is a miss (an edge normal alone would hit)");
    cr_expect(h[4].hit && fabsf(h[4].normal.x + 0.6f) < 1e-6f &&
                  fabsf(h[4].normal.y + 0.8f) < 1e-6f,
              "reversed pair, reversed normal");
    uint8_t want[5] = {1, 1, 1, 0, 1};
    cr_expect(memcmp(hit, want, 5) == 0, "overlap agrees with collide");
    sepax_shapes_destroy(s);
}

static void expect_box(sepax_shapes *s, uint32_t id, float x0, float y0, float x1, float y1) {
    sepax_aabb b;
    cr_assert(sepax_shapes_aabb(s, id, &b) == SEPAX_OK);
    const float e = 1e-6f;
    cr_expect(fabsf(b.lower.x - x0) <= e && fabsf(b.lower.y - y0) <= e &&
                  fabsf(b.upper.x - x1) <= e && fabsf(b.upper.y - y1) <= e,
              "shape %u: bounds [%g, %g] x [%g, %g], want [%g, %g] x [%g, %g]", id, b.lower.x,
              b.upper.x, b.lower.y, b.upper.y, x0, x1, y0, y1);
}

/* Bounds are of the whole shape, radius included, and follow the pose. */
Test(kinds, bounds_include_the_radius_and_the_pose) {
    sepax_shapes *s = sepax_shapes_create(4);
    cr_assert(s);
    uint32_t box, rounded, capsule, disc;
    sepax_vec2 sq[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    cr_assert(sepax_shapes_add_box(s, 1, 0.5f, &box) == SEPAX_OK);
    cr_assert(sepax_shapes_add_rounded(s, sq, 4, 0.25f, &rounded) == SEPAX_OK);
    cr_assert(sepax_shapes_add_capsule(s, (sepax_vec2){0, 0}, (sepax_vec2){2, 0}, 0.5f, &capsule) ==
              SEPAX_OK);
    disc = circle(s, 1, 2, 3);
    expect_box(s, box, -1, -0.5f, 1, 0.5f);
    expect_box(s, rounded, -0.25f, -0.25f, 1.25f, 1.25f);
    expect_box(s, capsule, -0.5f, -0.5f, 2.5f, 0.5f);
    expect_box(s, disc, -2, -1, 4, 5);
    /* a quarter turn stands the box up; the rest of the store stays put */
    sepax_pose turn = {{0, 0}, sepax_rot(1.5707964f)};
    cr_assert(sepax_shapes_set_poses(s, box, 1, &turn) == SEPAX_OK);
    cr_assert(sepax_shapes_update(s) == SEPAX_OK);
    expect_box(s, box, -0.5f, -1, 0.5f, 1);
    expect_box(s, rounded, -0.25f, -0.25f, 1.25f, 1.25f);
    /* a turned capsule: the segment (0,0)-(0,2) grown by 0.5 */
    cr_assert(sepax_shapes_set_poses(s, capsule, 1, &turn) == SEPAX_OK);
    cr_assert(sepax_shapes_update(s) == SEPAX_OK);
    expect_box(s, capsule, -0.5f, -0.5f, 0.5f, 2.5f);
    sepax_shapes_destroy(s);
}

/* What each constructor stores: kind, core and radius, padded as documented. */
Test(kinds, constructors_store_kind_core_and_radius) {
    sepax_shapes *s = sepax_shapes_create(4);
    cr_assert(s);
    uint32_t id;
    sepax_local_shape l;
    cr_assert(sepax_shapes_add_circle(s, (sepax_vec2){3, -4}, 1.5f, &id) == SEPAX_OK);
    cr_assert(sepax_shapes_local(s, id, &l) == SEPAX_OK);
    cr_expect(l.kind == SEPAX_KIND_CIRCLE && l.count == 1 && l.radius == 1.5f);
    for (int k = 0; k < SEPAX_MAX_VERTS; k++)
        cr_expect(l.vertex[k].x == 3 && l.vertex[k].y == -4, "circle vertex %d", k);

    cr_assert(sepax_shapes_add_capsule(s, (sepax_vec2){1, 1}, (sepax_vec2){4, 5}, 0.5f, &id) ==
              SEPAX_OK);
    cr_assert(sepax_shapes_local(s, id, &l) == SEPAX_OK);
    cr_expect(l.kind == SEPAX_KIND_CAPSULE && l.count == 2 && l.radius == 0.5f);
    cr_expect(l.vertex[0].x == 1 && l.vertex[0].y == 1 && l.vertex[1].x == 4 && l.vertex[1].y == 5);
    cr_expect(l.vertex[7].x == 4 && l.vertex[7].y == 5, "padded with the last vertex");
    /* the segment (3, 4)/5: normals (+-0.8, -+0.6), unit and opposite */
    cr_expect(fabsf(l.normal[0].x - 0.8f) < 1e-6f && fabsf(l.normal[0].y + 0.6f) < 1e-6f,
              "normal 0 (%g, %g)", l.normal[0].x, l.normal[0].y);
    cr_expect(l.normal[1].x == -l.normal[0].x && l.normal[1].y == -l.normal[0].y);

    cr_assert(sepax_shapes_add_box(s, 2, 0.5f, &id) == SEPAX_OK);
    cr_assert(sepax_shapes_local(s, id, &l) == SEPAX_OK);
    cr_expect(l.kind == SEPAX_KIND_POLYGON && l.count == 4 && l.radius == 0);
    for (int k = 0; k < 4; k++)
        cr_expect(fabsf(l.vertex[k].x) == 2 && fabsf(l.vertex[k].y) == 0.5f, "box vertex %d", k);

    sepax_vec2 tri[3] = {{0, 0}, {0, 1}, {1, 0}}; /* clockwise */
    cr_assert(sepax_shapes_add_rounded(s, tri, 3, 0.125f, &id) == SEPAX_OK);
    cr_assert(sepax_shapes_local(s, id, &l) == SEPAX_OK);
    cr_expect(l.kind == SEPAX_KIND_POLYGON && l.count == 3 && l.radius == 0.125f);
    cr_expect(l.vertex[1].x == 1 && l.vertex[1].y == 0, "stored counter-clockwise");
    cr_assert(sepax_shapes_add_polygon(s, tri, 3, &id) == SEPAX_OK);
    cr_assert(sepax_shapes_local(s, id, &l) == SEPAX_OK);
    cr_expect(l.kind == SEPAX_KIND_POLYGON && l.count == 3 && l.radius == 0);

    /* refusals add nothing and leave the id alone */
    uint32_t before = sepax_shapes_count(s), keep = 777;
    cr_expect(sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, 0, &keep) == SEPAX_ERR_BAD_SIZE);
    cr_expect(sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, -1, &keep) == SEPAX_ERR_BAD_SIZE);
    cr_expect(sepax_shapes_add_capsule(s, (sepax_vec2){1, 1}, (sepax_vec2){1, 1}, 1, &keep) ==
              SEPAX_ERR_TOO_FEW_POINTS);
    cr_expect(sepax_shapes_add_capsule(s, (sepax_vec2){0, 0}, (sepax_vec2){1, 1}, 0, &keep) ==
              SEPAX_ERR_BAD_SIZE);
    cr_expect(sepax_shapes_add_box(s, 1, 0, &keep) == SEPAX_ERR_BAD_SIZE);
    cr_expect(sepax_shapes_add_box(s, NAN, 1, &keep) == SEPAX_ERR_NONFINITE);
    cr_expect(sepax_shapes_add_rounded(s, tri, 3, -0.5f, &keep) == SEPAX_ERR_BAD_SIZE);
    cr_expect(sepax_shapes_count(s) == before && keep == 777, "a refusal added a shape");
    sepax_shapes_destroy(s);
}
