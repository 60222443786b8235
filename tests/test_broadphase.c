/* The grid broadphase and the whole-frame call against brute force: every
 * pair of shapes tested with the pair-list queries, filters applied by hand.
 * sepax_find_contacts must find exactly the pairs brute force finds (with
 * the same hits and manifolds, bit for bit), for every test, margin, backend,
 * thread count and scheduler; the buffer-too-small contract loses nothing;
 * the grid queries match brute force; bad input gets its status. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broadphase.h"
#include "check.h"
#include "sepax_ref.h"
#include "workload.h"

/* ---- stores ---------------------------------------------------------------------- */

/* Small random shapes of every kind on a jittered grid, randomly turned, a few large
 * walls and bosses among them, and random filters (about one pair in four filtered out). */
static sepax_shapes *make_store(uint32_t n, uint64_t seed, int large) {
    sepax_shapes *s = sepax_shapes_create(n + 16);
    cr_assert(s);
    wl_config cfg = wl_default();
    cfg.shapes = n;
    cfg.kinds = WL_MIXED;
    cfg.seed = seed;
    cr_assert_eq(wl_fill_store(s, &cfg), SEPAX_OK);
    cr_assert_eq(wl_pose_randomly(s, seed + 1), SEPAX_OK);
    wl_rng r = {seed * 7 + 3};
    for (int i = 0; i < large; i++) {
        uint32_t id;
        float w = 2.0f + 30.0f * wl_unit(&r), h = 0.5f + 6.0f * wl_unit(&r);
        cr_assert_eq(sepax_shapes_add_box(s, w, h, &id), SEPAX_OK);
        sepax_pose p = {{60.0f * wl_unit(&r), 60.0f * wl_unit(&r)}, sepax_rot(6.0f * wl_unit(&r))};
        cr_assert_eq(sepax_shapes_set_poses(s, id, 1, &p), SEPAX_OK);
    }
    uint32_t count = sepax_shapes_count(s);
    sepax_filter *f = malloc(count * sizeof *f);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t roll = (uint32_t)wl_range(&r, 0, 7);
        f[i] = (sepax_filter){1u << (roll & 3), roll == 7 ? 0x5u : 0xffffffffu};
    }
    cr_assert_eq(sepax_shapes_set_filters(s, 0, count, f), SEPAX_OK);
    free(f);
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    return s;
}

static int filters_pass(const sepax_shapes *s, uint32_t a, uint32_t b) {
    sepax_filter fa, fb;
    sepax_shapes_get_filter(s, a, &fa);
    sepax_shapes_get_filter(s, b, &fb);
    return (fa.category & fb.mask) && (fb.category & fa.mask);
}

/* ---- brute force ------------------------------------------------------------------- */

typedef struct result_set {
    sepax_pair *pairs;
    sepax_hit *hits;
    sepax_manifold *mans;
    size_t n;
} result_set;

static void free_set(result_set *r) {
    free(r->pairs);
    free(r->hits);
    free(r->mans);
}

static int all_bytes(const void *p, size_t bytes, unsigned char v) {
    const unsigned char *c = p;
    for (size_t i = 0; i < bytes; i++)
        if (c[i] != v) return 0;
    return 1;
}

/* by index (the generations aside): brute force lists its pairs in this order */
static int cmp_pair(const void *x, const void *y) {
    const sepax_pair *p = x, *q = y;
    uint32_t pa = p->a & SEPAX_ID_INDEX_MASK, qa = q->a & SEPAX_ID_INDEX_MASK;
    uint32_t pb = p->b & SEPAX_ID_INDEX_MASK, qb = q->b & SEPAX_ID_INDEX_MASK;
    if (pa != qa) return pa < qa ? -1 : 1;
    return pb < qb ? -1 : pb > qb;
}

/* Every pair i < j whose filters pass, through the pair-list query of `test`. */
static result_set brute(const sepax_shapes *s, int test, float margin) {
    uint32_t n = sepax_shapes_count(s);
    size_t np = 0, all = (size_t)n * (n - 1) / 2;
    sepax_pair *pairs = malloc((all + 1) * sizeof *pairs);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            uint32_t a = sepax_shapes_id(s, i), b = sepax_shapes_id(s, j);
            if (filters_pass(s, a, b)) pairs[np++] = (sepax_pair){a, b};
        }
    sepax_query_options o = {.margin = margin};
    uint8_t *hit = malloc(np + 1);
    sepax_hit *hits = malloc((np + 1) * sizeof *hits);
    sepax_manifold *mans = malloc((np + 1) * sizeof *mans);
    cr_assert_eq(sepax_overlap_opt(s, pairs, np, &o, hit), SEPAX_OK);
    if (test == SEPAX_TEST_COLLIDE)
        cr_assert_eq(sepax_collide_opt(s, pairs, np, &o, hits), SEPAX_OK);
    if (test == SEPAX_TEST_MANIFOLD)
        cr_assert_eq(sepax_collide_manifold_opt(s, pairs, np, &o, mans), SEPAX_OK);
    result_set r = {malloc((np + 1) * sizeof *pairs), malloc((np + 1) * sizeof *hits),
                    malloc((np + 1) * sizeof *mans), 0};
    for (size_t k = 0; k < np; k++) {
        int keep = test == SEPAX_TEST_OVERLAP    ? hit[k]
                   : test == SEPAX_TEST_COLLIDE  ? hits[k].hit != 0
                   : test == SEPAX_TEST_MANIFOLD ? mans[k].count != 0
                                                 : 1;
        if (!keep) continue;
        r.pairs[r.n] = pairs[k];
        r.hits[r.n] = hits[k];
        r.mans[r.n] = mans[k];
        r.n++;
    }
    free(pairs);
    free(hit);
    free(hits);
    free(mans);
    return r;
}

/* The frame's results under options o, with room for `cap`. */
static result_set frame_with(sepax_broadphase *bp, sepax_shapes *s, const sepax_frame_options *o,
                             size_t cap, sepax_status *st) {
    result_set r = {calloc(cap + 1, sizeof(sepax_pair)), calloc(cap + 1, sizeof(sepax_hit)),
                    calloc(cap + 1, sizeof(sepax_manifold)), 0};
    sepax_contacts out = {r.pairs, r.hits, r.mans, cap};
    *st = sepax_find_contacts(bp, s, o, &out, &r.n);
    return r;
}

/* The frame's results, with room for `cap`. */
static result_set frame(sepax_broadphase *bp, sepax_shapes *s, int test, float margin, size_t cap,
                        sepax_status *st) {
    sepax_frame_options o = {test, margin, 0.0f, 0};
    return frame_with(bp, s, &o, cap, st);
}

static result_set frame_ok(sepax_broadphase *bp, sepax_shapes *s, int test, float margin) {
    sepax_status st;
    result_set r = frame(bp, s, test, margin, 1u << 20, &st);
    cr_assert_eq(st, SEPAX_OK, "%s", sepax_status_str(st));
    return r;
}

/* The frame's pairs equal brute force's as sets; and each pair's hit or manifold is the
 * pair-list query's, bit for bit. */
static void expect_same_set(const sepax_shapes *s, result_set got, result_set want, int test,
                            const char *what) {
    uint32_t n = sepax_shapes_count(s);
    for (size_t k = 0; k < got.n; k++) {
        sepax_pair p = got.pairs[k];
        cr_assert((p.a & SEPAX_ID_INDEX_MASK) < (p.b & SEPAX_ID_INDEX_MASK) &&
                      (p.b & SEPAX_ID_INDEX_MASK) < n,
                  "%s: pair %zu is (%u, %u)", what, k, p.a, p.b);
    }
    /* sort both by pair, carrying the answers along through an index */
    size_t *order = malloc((got.n + 1) * sizeof *order);
    sepax_pair *sorted = malloc((got.n + 1) * sizeof *sorted);
    memcpy(sorted, got.pairs, got.n * sizeof *sorted);
    qsort(sorted, got.n, sizeof *sorted, cmp_pair);
    for (size_t k = 0; k + 1 < got.n; k++)
        cr_assert(cmp_pair(&sorted[k], &sorted[k + 1]) != 0, "%s: pair (%u, %u) twice", what,
                  sorted[k].a, sorted[k].b);
    cr_assert_eq(got.n, want.n, "%s: %zu pairs, brute force %zu", what, got.n, want.n);
    /* want is in (a, b) order already */
    for (size_t k = 0; k < got.n; k++)
        cr_assert(memcmp(&sorted[k], &want.pairs[k], sizeof sorted[k]) == 0,
                  "%s: pair %zu is (%u, %u), want (%u, %u)", what, k, sorted[k].a, sorted[k].b,
                  want.pairs[k].a, want.pairs[k].b);
    for (size_t k = 0; k < got.n; k++) {
        sepax_pair *w = bsearch(&got.pairs[k], want.pairs, want.n, sizeof *want.pairs, cmp_pair);
        cr_assert(w);
        size_t at = (size_t)(w - want.pairs);
        if (test == SEPAX_TEST_COLLIDE)
            cr_assert(memcmp(&got.hits[k], &want.hits[at], sizeof(sepax_hit)) == 0,
                      "%s: pair (%u, %u) hit differs from sepax_collide", what, w->a, w->b);
        if (test == SEPAX_TEST_MANIFOLD)
            cr_assert(memcmp(&got.mans[k], &want.mans[at], sizeof(sepax_manifold)) == 0,
                      "%s: pair (%u, %u) manifold differs", what, w->a, w->b);
    }
    free(order);
    free(sorted);
}

/* Candidates (SEPAX_TEST_AABB): every filter-passing pair whose exact boxes overlap (grown
 * by a positive margin) is there, and nothing whose boxes are apart by more than a slack. */
static void expect_candidates(const sepax_shapes *s, result_set got, float margin) {
    uint32_t n = sepax_shapes_count(s);
    sepax_aabb *box = malloc(n * sizeof *box);
    for (uint32_t i = 0; i < n; i++) sepax_shapes_aabb(s, sepax_shapes_id(s, i), &box[i]);
    sepax_pair *sorted = malloc((got.n + 1) * sizeof *sorted);
    memcpy(sorted, got.pairs, got.n * sizeof *sorted);
    qsort(sorted, got.n, sizeof *sorted, cmp_pair);
    float g = margin > 0.0f ? margin : 0.0f;
    size_t must = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            uint32_t a = sepax_shapes_id(s, i), b = sepax_shapes_id(s, j);
            int in = box[i].lower.x <= box[j].upper.x + g && box[j].lower.x <= box[i].upper.x + g &&
                     box[i].lower.y <= box[j].upper.y + g && box[j].lower.y <= box[i].upper.y + g;
            if (!in || !filters_pass(s, a, b)) continue;
            must++;
            sepax_pair p = {a, b};
            cr_assert(bsearch(&p, sorted, got.n, sizeof p, cmp_pair),
                      "boxes of %u, %u overlap: no candidate", a, b);
        }
    for (size_t k = 0; k < got.n; k++) {
        uint32_t i = got.pairs[k].a & SEPAX_ID_INDEX_MASK, j = got.pairs[k].b & SEPAX_ID_INDEX_MASK;
        /* the grid grows each box by 2^-20 of its coordinates' magnitudes (sepax.h) */
        float mag = fabsf(box[i].lower.x) + fabsf(box[i].lower.y) + fabsf(box[i].upper.x) +
                    fabsf(box[i].upper.y) + fabsf(box[j].lower.x) + fabsf(box[j].lower.y) +
                    fabsf(box[j].upper.x) + fabsf(box[j].upper.y);
        float slack = 1e-3f + g + 0x1p-19f * mag;
        int near =
            box[i].lower.x <= box[j].upper.x + slack && box[j].lower.x <= box[i].upper.x + slack &&
            box[i].lower.y <= box[j].upper.y + slack && box[j].lower.y <= box[i].upper.y + slack;
        cr_assert(near && filters_pass(s, got.pairs[k].a, got.pairs[k].b),
                  "candidate (%u, %u): boxes apart or filtered out", got.pairs[k].a,
                  got.pairs[k].b);
    }
    cr_assert(got.n >= must);
    free(box);
    free(sorted);
}

/* The frame's candidates, and its results for every test, at `margin` against brute force;
 * each test finds more than `least` contacts (else the check is weak). */
static void expect_brute_force(sepax_broadphase *bp, sepax_shapes *s, float margin,
                               const char *label, size_t least) {
    result_set c = frame_ok(bp, s, SEPAX_TEST_AABB, margin);
    expect_candidates(s, c, margin);
    free_set(&c);
    for (int test = SEPAX_TEST_OVERLAP; test <= SEPAX_TEST_MANIFOLD; test++) {
        result_set got = frame_ok(bp, s, test, margin);
        result_set want = brute(s, test, margin);
        char what[96];
        snprintf(what, sizeof what, "%s, test %d, margin %g", label, test, (double)margin);
        expect_same_set(s, got, want, test, what);
        cr_assert(want.n > least, "%s: only %zu contacts, a weak check", what, want.n);
        free_set(&got);
        free_set(&want);
    }
}

Test(broadphase, every_test_and_margin_matches_brute_force) {
    sepax_shapes *s = make_store(1500, 11, 12);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    const float margins[] = {0.0f, 0.25f, -0.05f};
    for (int mi = 0; mi < 3; mi++) expect_brute_force(bp, s, margins[mi], "mixed", 100);
    sepax_broadphase_stats st;
    cr_assert_eq(sepax_broadphase_stats_get(bp, &st), SEPAX_OK);
    cr_assert(st.large > 0 && st.shapes == 1512, "large %u of %u", st.large, st.shapes);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* More distinct filters than the grid keeps apart (one grid, filters in the range
 * tests), and a bullet-hell's few (bullets never meet bullets). */
Test(broadphase, many_filters_and_few) {
    sepax_shapes *s = make_store(2000, 61, 6);
    uint32_t n = sepax_shapes_count(s);
    sepax_filter *f = malloc(n * sizeof *f);
    wl_rng r = {5};
    for (int round = 0; round < 2; round++) {
        for (uint32_t i = 0; i < n; i++) {
            if (round == 0) /* 12 categories, random masks: dozens of distinct filters */
                f[i] = (sepax_filter){1u << (i % 12), (uint32_t)wl_next(&r) | 1u};
            else /* player 1, enemies 2, player shots 4, enemy shots 8 */
                f[i] = i == 0       ? (sepax_filter){1, 2 | 8}
                       : i % 5 == 1 ? (sepax_filter){2, 1 | 4}
                       : i % 5 == 2 ? (sepax_filter){4, 2}
                                    : (sepax_filter){8, 1};
        }
        sepax_shapes_set_filters(s, 0, n, f);
        sepax_broadphase *bp = sepax_broadphase_create(NULL);
        for (int test = SEPAX_TEST_OVERLAP; test <= SEPAX_TEST_COLLIDE; test++) {
            result_set got = frame_ok(bp, s, test, 0.0f);
            result_set want = brute(s, test, 0.0f);
            expect_same_set(s, got, want, test, round ? "bullet-hell filters" : "many filters");
            cr_assert(want.n > (round ? 10u : 300u), "only %zu contacts", want.n);
            free_set(&got);
            free_set(&want);
        }
        result_set c = frame_ok(bp, s, SEPAX_TEST_AABB, 0.0f);
        expect_candidates(s, c, 0.0f);
        free_set(&c);
        sepax_broadphase_destroy(bp);
    }
    free(f);
    sepax_shapes_destroy(s);
}

/* Boxes on an integer lattice, sharing edges and corners exactly: touching counts. */
Test(broadphase, touching_lattice) {
    sepax_shapes *s = sepax_shapes_create(0);
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 20; x++) {
            uint32_t id;
            cr_assert_eq(sepax_shapes_add_box(s, 0.5f, 0.5f, &id), SEPAX_OK);
            sepax_pose p = {{(float)x * 1.0f + 1000.0f, (float)y * 1.0f - 300.0f}, {1.0f, 0.0f}};
            sepax_shapes_set_poses(s, id, 1, &p);
        }
    sepax_shapes_update(s);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    result_set got = frame_ok(bp, s, SEPAX_TEST_OVERLAP, 0.0f);
    result_set want = brute(s, SEPAX_TEST_OVERLAP, 0.0f);
    /* 20x20 lattice: 2*19*20 edge neighbours and 2*19*19 corner neighbours */
    cr_assert_eq(want.n, 2u * 19 * 20 + 2u * 19 * 19);
    expect_same_set(s, got, want, SEPAX_TEST_OVERLAP, "lattice");
    free_set(&got);
    free_set(&want);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* ---- determinism ------------------------------------------------------------------ */

/* A scheduler that runs the items one at a time, last first, on changing workers. */
static void backwards_for(sepax_task_fn *fn, uint32_t count, void *ctx, void *user) {
    (void)user;
    for (uint32_t i = count; i-- > 0;) fn(i, i + 1, (i * 7u) % 5u, ctx);
}

static void expect_identical(result_set a, result_set b, int test, const char *what) {
    cr_assert_eq(a.n, b.n, "%s: %zu results, want %zu", what, a.n, b.n);
    cr_assert(memcmp(a.pairs, b.pairs, a.n * sizeof *a.pairs) == 0, "%s: pairs differ", what);
    if (test == SEPAX_TEST_COLLIDE)
        cr_assert(memcmp(a.hits, b.hits, a.n * sizeof *a.hits) == 0, "%s: hits differ", what);
    if (test == SEPAX_TEST_MANIFOLD)
        cr_assert(memcmp(a.mans, b.mans, a.n * sizeof *a.mans) == 0, "%s: manifolds differ", what);
}

Test(broadphase, same_results_for_every_thread_count_scheduler_and_backend) {
    sepax_shapes *s = make_store(6000, 5, 20);
    /* each removal moves the last shape, a large box, into the hole: large shapes then sit in
     * every range the grid's counting sort splits the shapes into, not only the last */
    for (uint32_t k = 0; k < 8; k++)
        cr_assert_eq(sepax_shapes_remove(s, sepax_shapes_id(s, 100 + 750 * k), NULL), SEPAX_OK);
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    sepax_broadphase *one = sepax_broadphase_create(NULL);
    for (int test = SEPAX_TEST_AABB; test <= SEPAX_TEST_MANIFOLD; test++) {
        result_set want = frame_ok(one, s, test, 0.1f);
        cr_assert(want.n > 1000);
        if (test == SEPAX_TEST_AABB) { /* large shapes in the first of 4 ranges, and the last */
            uint32_t count = sepax_shapes_count(s), low = count, high = 0;
            sepax_broadphase_stats st;
            cr_assert_eq(sepax_broadphase_stats_get(one, &st), SEPAX_OK);
            uint32_t *order = malloc(count * sizeof *order);
            cr_assert_eq(sepax_broadphase_order(one, s, order, count), SEPAX_OK);
            for (uint32_t i = count - st.large; i < count; i++) {
                low = order[i] < low ? order[i] : low;
                high = order[i] > high ? order[i] : high;
            }
            free(order);
            cr_assert(st.large >= 4 && low < count / 4 && high >= count - count / 4,
                      "%u large shapes, indices %u .. %u of %u", st.large, low, high, count);
        }
        for (uint32_t threads = 2; threads <= 4; threads++) {
            sepax_broadphase_config cfg = {threads, NULL, NULL, 1}; /* every step spread */
            sepax_broadphase *bp = sepax_broadphase_create(&cfg);
            cr_assert(bp);
            for (int rep = 0; rep < 2; rep++) { /* the second frame reuses grown memory */
                result_set got = frame_ok(bp, s, test, 0.1f);
                char what[64];
                snprintf(what, sizeof what, "test %d, %u threads", test, threads);
                expect_identical(got, want, test, what);
                free_set(&got);
            }
            sepax_broadphase_destroy(bp);
        }
        sepax_scheduler sched = {backwards_for, 5, NULL};
        sepax_broadphase_config cfg = {0, &sched, NULL, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&cfg);
        result_set got = frame_ok(bp, s, test, 0.1f);
        expect_identical(got, want, test, "backwards scheduler");
        free_set(&got);
        sepax_broadphase_destroy(bp);
        sepax_backend was = sepax_get_backend();
        for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
            if (!sepax_backend_available((sepax_backend)b)) continue;
            cr_assert_eq(sepax_set_backend((sepax_backend)b), SEPAX_OK);
            result_set on = frame_ok(one, s, test, 0.1f);
            expect_identical(on, want, test, sepax_backend_name((sepax_backend)b));
            free_set(&on);
        }
        sepax_set_backend(was);
        free_set(&want);
    }
    sepax_broadphase_destroy(one);
    sepax_shapes_destroy(s);
}

/* n circles of one radius, and every 16th (index 5 mod 16) `wide` times as wide, over a
 * square of side 200. */
static sepax_shapes *circle_store(uint32_t n, float radius, float wide, uint64_t seed) {
    sepax_shapes *s = sepax_shapes_create(n);
    cr_assert(s);
    wl_rng r = {seed};
    for (uint32_t i = 0; i < n; i++) {
        sepax_vec2 c = {200.0f * wl_unit(&r), 200.0f * wl_unit(&r)};
        uint32_t id;
        float rad = i % 16 == 5 ? wide * radius : radius;
        cr_assert_eq(sepax_shapes_add_circle(s, c, rad, &id), SEPAX_OK);
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    return s;
}

/* Hundreds of large shapes: each large owner pairs only with the large shapes after it whose
 * boxes start at or before its own box's upper x (the large list in the order of the boxes'
 * lower x, grid.c's sort_large). 400 random walls and bosses among 1,500 small shapes, and a
 * 12 x 12 lattice of large squares sharing edges and corners exactly (each touching its 8
 * neighbours), among small circles: every pair brute force finds, for every test, at two
 * margins, and the same results on 1 to 3 threads. */
Test(broadphase, many_large_shapes_match_brute_force) {
    sepax_shapes *stores[2] = {make_store(1500, 31, 400), sepax_shapes_create(1200)};
    uint32_t id;
    for (int i = 0; i < 144; i++) {
        float x = 5.0f * (float)(i % 12), y = 5.0f * (float)(i / 12);
        sepax_vec2 sq[4] = {{x, y}, {x + 5.0f, y}, {x + 5.0f, y + 5.0f}, {x, y + 5.0f}};
        cr_assert_eq(sepax_shapes_add_polygon(stores[1], sq, 4, &id), SEPAX_OK);
    }
    wl_rng r = {99};
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(sepax_shapes_add_circle(stores[1],
                                             (sepax_vec2){60.0f * wl_unit(&r), 60.0f * wl_unit(&r)},
                                             0.3f, &id),
                     SEPAX_OK);
    cr_assert_eq(sepax_shapes_update(stores[1]), SEPAX_OK);
    for (int which = 0; which < 4; which++) {
        /* stores 2 and 3: the same with the large list in bands whatever its crowd in x */
        sepax_shapes *s = stores[which % 2];
        sepax_broadphase *bp = sepax_broadphase_create(NULL);
        double crowd = which < 2 ? bp->band_crowd : 0.0;
        bp->band_crowd = crowd;
        const float margins[] = {0.0f, 0.25f};
        for (int mi = 0; mi < 2; mi++) {
            const char *what[4] = {"random", "lattice", "random in bands", "lattice in bands"};
            expect_brute_force(bp, s, margins[mi], what[which], 300);
            /* the random store's large shapes span one band's height: by x alone still */
            if (which == 3) cr_assert(bp->nbands > 1, "%s: %u bands", what[which], bp->nbands);
            for (int test = SEPAX_TEST_OVERLAP; test <= SEPAX_TEST_MANIFOLD; test++) {
                result_set got = frame_ok(bp, s, test, margins[mi]);
                for (uint32_t threads = 2; threads <= 3; threads++) {
                    /* min_parallel_shapes 1: a frame this small spreads its pairing too */
                    sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
                    sepax_broadphase *more = sepax_broadphase_create(&cfg);
                    more->band_crowd = crowd;
                    result_set again = frame_ok(more, s, test, margins[mi]);
                    expect_identical(again, got, test, "threads");
                    free_set(&again);
                    sepax_broadphase_destroy(more);
                }
                free_set(&got);
            }
        }
        sepax_broadphase_stats st;
        cr_assert_eq(sepax_broadphase_stats_get(bp, &st), SEPAX_OK);
        cr_assert(st.large >= (which % 2 ? 144u : 300u), "store %d: %u large", which, st.large);
        sepax_broadphase_destroy(bp);
        if (which >= 2) sepax_shapes_destroy(s);
    }
}

/* The grid sorts small shapes from large with the last automatic build's limit as a guess,
 * and sorts them again when the guess was wrong: a broadphase reused across stores of other
 * sizes (and builds with a given cell between) gives a fresh one's results, order and grid.
 * The limit is 4x the top of the median extent's power-of-two bucket:
 *   store 0: extents 0.6 (limit 4) and 6 (large);
 *   store 1: extents 1.6 (limit 8) and 5.6, small by its own limit but large by store 0's;
 *   so going from 0 to 1 the guess is too small, from 1 to 0 too large, and each way some
 *   shapes change sides. Store 2 is make_store's mix. Over 2 build parts, on 2 threads. */
Test(broadphase, reused_across_sizes_equals_fresh) {
    enum { N = 20000 };
    sepax_shapes *stores[3] = {circle_store(N, 0.3f, 10.0f, 1), circle_store(N, 0.8f, 3.5f, 2),
                               make_store(3000, 31, 6)};
    const uint32_t wide = (N - 5 + 15) / 16; /* indices 5 mod 16 below N */
    const uint32_t want_large[2] = {wide, 0};
    sepax_broadphase_config cfg = {2, NULL, NULL, 1};
    sepax_broadphase *reused = sepax_broadphase_create(&cfg);
    cr_assert(reused);
    /* -1: store 1 with a given cell */
    const int order[] = {0, 1, 0, 2, 1, -1, 0, 1, 2, 2, 0};
    enum { CAP = 1 << 18 };
    uint32_t *got_order = malloc(N * sizeof *got_order),
             *want_order = malloc(N * sizeof *want_order);
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        int which = order[k] < 0 ? 1 : order[k];
        sepax_shapes *s = stores[which];
        uint32_t count = sepax_shapes_count(s);
        sepax_frame_options o = {SEPAX_TEST_COLLIDE, 0.05f, order[k] < 0 ? 2.0f : 0.0f, 0};
        sepax_broadphase *fresh = sepax_broadphase_create(NULL);
        cr_assert(fresh);
        sepax_status st_got, st_want;
        result_set got = frame_with(reused, s, &o, CAP, &st_got);
        result_set want = frame_with(fresh, s, &o, CAP, &st_want);
        cr_assert_eq(st_got, SEPAX_OK);
        cr_assert_eq(st_want, SEPAX_OK);
        char what[64];
        snprintf(what, sizeof what, "frame %zu (store %d)", k, order[k]);
        cr_assert(want.n > 100, "%s: %zu results", what, want.n);
        expect_identical(got, want, SEPAX_TEST_COLLIDE, what);
        sepax_broadphase_stats a, b;
        cr_assert_eq(sepax_broadphase_stats_get(reused, &a), SEPAX_OK);
        cr_assert_eq(sepax_broadphase_stats_get(fresh, &b), SEPAX_OK);
        cr_assert(a.large == b.large && a.cells_x == b.cells_x && a.cells_y == b.cells_y &&
                      a.cell_size == b.cell_size,
                  "%s: grid %u large, %u x %u of %g; fresh %u large, %u x %u of %g", what, a.large,
                  a.cells_x, a.cells_y, (double)a.cell_size, b.large, b.cells_x, b.cells_y,
                  (double)b.cell_size);
        if (order[k] >= 0 && which < 2)
            cr_assert_eq(b.large, want_large[which], "%s: %u large, want %u", what, b.large,
                         want_large[which]);
        cr_assert_eq(sepax_broadphase_order(reused, s, got_order, count), SEPAX_OK);
        cr_assert_eq(sepax_broadphase_order(fresh, s, want_order, count), SEPAX_OK);
        cr_assert(memcmp(got_order, want_order, count * sizeof *got_order) == 0,
                  "%s: the grid's order differs", what);
        free_set(&got);
        free_set(&want);
        sepax_broadphase_destroy(fresh);
    }
    free(got_order);
    free(want_order);
    sepax_broadphase_destroy(reused);
    for (int i = 0; i < 3; i++) sepax_shapes_destroy(stores[i]);
}

Test(broadphase, update_option_equals_update_then_frame) {
    sepax_shapes *s = make_store(3000, 9, 4);
    sepax_broadphase_config cfg = {2, NULL, NULL, 1};
    sepax_broadphase *bp = sepax_broadphase_create(&cfg);
    wl_rng r = {77};
    uint32_t n = sepax_shapes_count(s);
    sepax_pose *poses = malloc(n * sizeof *poses);
    for (uint32_t i = 0; i < n; i++)
        poses[i] = (sepax_pose){{60.0f * wl_unit(&r), 60.0f * wl_unit(&r)}, sepax_rot(wl_unit(&r))};
    for (int update = SEPAX_UPDATE_FRAME; update <= SEPAX_UPDATE_ALL; update++) {
        for (uint32_t i = 0; i < n; i++) poses[i].position.x += 10.0f;
        sepax_shapes_set_poses(s, 0, n, poses);
        sepax_frame_options o = {SEPAX_TEST_COLLIDE, 0.0f, 0.0f, update};
        result_set a = {malloc(n * 8 * sizeof(sepax_pair)), malloc(n * 8 * sizeof(sepax_hit)), NULL,
                        0};
        sepax_contacts out = {a.pairs, a.hits, NULL, n * 8};
        cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &a.n), SEPAX_OK);
        sepax_shapes_update(s);
        result_set b = frame_ok(bp, s, SEPAX_TEST_COLLIDE, 0.0f);
        expect_identical(a, b, SEPAX_TEST_COLLIDE, "update in the frame");
        result_set want = brute(s, SEPAX_TEST_COLLIDE, 0.0f);
        expect_same_set(s, a, want, SEPAX_TEST_COLLIDE, "after the update");
        free_set(&a);
        free_set(&b);
        free_set(&want);
    }
    free(poses);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* Two stores hold the same world, as far as the public readers tell: every pose, bounding
 * box and view (or the same refusal to give one), compared bit for bit. */
static void expect_same_world(const sepax_shapes *a, const sepax_shapes *b, const char *what) {
    uint32_t n = sepax_shapes_count(a);
    cr_assert_eq(n, sepax_shapes_count(b), "%s: counts", what);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = sepax_shapes_id(a, i);
        sepax_pose pa, pb;
        sepax_aabb ba, bb;
        cr_assert_eq(sepax_shapes_get_pose(a, id, &pa), SEPAX_OK);
        cr_assert_eq(sepax_shapes_get_pose(b, id, &pb), SEPAX_OK);
        cr_assert(memcmp(&pa, &pb, sizeof pa) == 0, "%s: shape %u's pose", what, i);
        cr_assert_eq(sepax_shapes_aabb(a, id, &ba), SEPAX_OK);
        cr_assert_eq(sepax_shapes_aabb(b, id, &bb), SEPAX_OK);
        cr_assert(memcmp(&ba, &bb, sizeof ba) == 0, "%s: shape %u's box", what, i);
        sepax_shape_view va, vb;
        sepax_status sa = sepax_shapes_view(a, id, &va), sb = sepax_shapes_view(b, id, &vb);
        cr_assert_eq(sa, sb, "%s: shape %u's view: %s against %s", what, i, sepax_status_str(sa),
                     sepax_status_str(sb));
        if (sa != SEPAX_OK) continue;
        const float *fa[] = {va.x, va.y, va.nx, va.ny, va.c},
                    *fb[] = {vb.x, vb.y, vb.nx, vb.ny, vb.c};
        for (int k = 0; k < 5; k++)
            cr_assert(memcmp(fa[k], fb[k], SEPAX_MAX_VERTS * sizeof(float)) == 0,
                      "%s: shape %u's view, array %d", what, i, k);
    }
}

/* A frame given the poses is sepax_shapes_set_poses then the frame: the same results and the
 * same store after, for every update and thread count. 5,004 shapes: three update tasks, the
 * last partial, and a last block of four lanes. */
Test(broadphase, posed_frame_equals_set_poses_then_frame) {
    sepax_shapes *a = make_store(5000, 21, 4), *b = make_store(5000, 21, 4);
    uint32_t n = sepax_shapes_count(a);
    cr_assert_eq(n, 5004);
    cr_assert(n % SEPAX_BLOCK_LANES != 0);
    sepax_pose *poses = malloc(n * sizeof *poses);
    wl_rng r = {91};
    for (uint32_t threads = 1; threads <= 3; threads += 2) {
        sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
        sepax_broadphase *bpa = sepax_broadphase_create(&cfg), *bpb = sepax_broadphase_create(&cfg);
        cr_assert(bpa && bpb);
        for (int update = SEPAX_UPDATE_NONE; update <= SEPAX_UPDATE_LAZY; update++) {
            for (int round = 0; round < 2; round++) { /* lazy: every record, then only some */
                for (uint32_t i = 0; i < n; i++)
                    poses[i] = (sepax_pose){{70.0f * wl_unit(&r), 70.0f * wl_unit(&r)},
                                            sepax_rot(6.0f * wl_unit(&r))};
                int test = update == SEPAX_UPDATE_NONE ? SEPAX_TEST_AABB : SEPAX_TEST_MANIFOLD;
                sepax_frame_options o = {test, 0.05f, 0.0f, update};
                size_t cap = (size_t)n * 8;
                result_set x = {calloc(cap, sizeof(sepax_pair)), calloc(cap, sizeof(sepax_hit)),
                                calloc(cap, sizeof(sepax_manifold)), 0};
                result_set y = {calloc(cap, sizeof(sepax_pair)), calloc(cap, sizeof(sepax_hit)),
                                calloc(cap, sizeof(sepax_manifold)), 0};
                sepax_contacts ox = {x.pairs, x.hits, x.mans, cap},
                               oy = {y.pairs, y.hits, y.mans, cap};
                /* round 1: a range from inside a block and a task's share to inside another
                 * block, the shapes around it keeping their poses (a level's walls) */
                uint32_t first = round ? 1003 : 0, many = round ? n - 1003 - 17 : n;
                cr_assert_eq(sepax_shapes_set_poses(a, first, many, poses), SEPAX_OK);
                cr_assert_eq(sepax_find_contacts(bpa, a, &o, &ox, &x.n), SEPAX_OK);
                cr_assert_eq(sepax_find_contacts_posed(bpb, b, first, many, poses, &o, &oy, &y.n),
                             SEPAX_OK);
                char what[64];
                snprintf(what, sizeof what, "update %d, round %d, %u threads", update, round,
                         threads);
                cr_assert(x.n > 0, "%s: no results", what);
                expect_identical(y, x, test, what);
                expect_same_world(a, b, what);
                free_set(&x);
                free_set(&y);
            }
        }
        sepax_broadphase_destroy(bpa);
        sepax_broadphase_destroy(bpb);
    }
    free(poses);
    sepax_shapes_destroy(a);
    sepax_shapes_destroy(b);
}

/* A pose the rules refuse, anywhere (the first lane, inside a task, the last partial block):
 * the status sepax_shapes_set_poses gives, the first in index order, and nothing touched: the
 * store, the results, the count, the grid the queries read. */
Test(broadphase, posed_frame_refuses_a_bad_pose_whole) {
    sepax_shapes *s = make_store(5000, 23, 4), *same = make_store(5000, 23, 4);
    uint32_t n = sepax_shapes_count(s);
    sepax_broadphase_config cfg = {3, NULL, NULL, 1};
    sepax_broadphase *bp = sepax_broadphase_create(&cfg);
    sepax_pose *poses = malloc(n * sizeof *poses), *probe = malloc(n * sizeof *probe);
    wl_rng r = {93};
    for (uint32_t i = 0; i < n; i++)
        poses[i] =
            (sepax_pose){{70.0f * wl_unit(&r), 70.0f * wl_unit(&r)}, sepax_rot(6.0f * wl_unit(&r))};
    sepax_pair pairs[64];
    size_t count = 99, found = 0;
    sepax_frame_options o = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
    sepax_contacts out = {pairs, NULL, NULL, 64};
    /* a grid to keep: the frames below must leave it as this frame built it */
    sepax_pair *all = malloc((size_t)n * 8 * sizeof *all);
    sepax_contacts room = {all, NULL, NULL, (size_t)n * 8};
    sepax_broadphase *other = sepax_broadphase_create(NULL);
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &room, &found), SEPAX_OK);
    cr_assert_eq(sepax_find_contacts(other, same, &o, &room, &found), SEPAX_OK);
    sepax_broadphase_destroy(other);
    sepax_aabb box = {{10.0f, 10.0f}, {40.0f, 40.0f}};
    uint32_t *ids = malloc(n * sizeof *ids), *ids_after = malloc(n * sizeof *ids_after);
    size_t before = 0;
    cr_assert_eq(sepax_broadphase_query_aabb(bp, s, box, ids, n, &before), SEPAX_OK);
    cr_assert(before > 0);
    const uint32_t at[] = {0, 1, 2047, 2048, 3000, 4095, n - 1};
    const struct {
        sepax_pose pose;
        sepax_status st;
    } bad[] = {
        {{{NAN, 0.0f}, {1.0f, 0.0f}}, SEPAX_ERR_NONFINITE},
        {{{0.0f, INFINITY}, {1.0f, 0.0f}}, SEPAX_ERR_NONFINITE},
        {{{0.0f, 0.0f}, {NAN, 0.0f}}, SEPAX_ERR_NONFINITE},
        {{{2e18f, 0.0f}, {1.0f, 0.0f}}, SEPAX_ERR_RANGE},
        {{{0.0f, 0.0f}, {0.5f, 0.5f}}, SEPAX_ERR_BAD_POSE},
    };
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
            memcpy(probe, poses, n * sizeof *poses);
            probe[at[i]] = bad[k].pose;
            if (at[i] + 1 < n) probe[n - 1] = bad[(k + 1) % 5].pose; /* a later one too */
            memset(pairs, 0xA5, sizeof pairs);
            cr_assert_eq(sepax_shapes_set_poses(same, 0, n, probe), bad[k].st,
                         "set: pose %zu at %u", k, at[i]);
            cr_assert_eq(
                sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), probe, &o, &out, &count),
                bad[k].st, "pose %zu at %u", k, at[i]);
            cr_assert_eq(count, 99, "count written on error");
            cr_assert(all_bytes(pairs, sizeof pairs, 0xA5), "results written on error");
        }
    }
    expect_same_world(s, same, "after the refusals");
    size_t after = 0;
    cr_assert_eq(sepax_broadphase_query_aabb(bp, s, box, ids_after, n, &after), SEPAX_OK);
    cr_assert(after == before && memcmp(ids, ids_after, after * sizeof *ids) == 0,
              "the grid changed");
    free(ids);
    free(ids_after);
    /* in a range: the first bad pose of the range, at its index there */
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        uint32_t first = 1001, many = n - 1001 - 3;
        memcpy(probe, poses, n * sizeof *poses);
        probe[2047] = bad[k].pose; /* shape 3048: past a task's share, inside a block */
        probe[many - 1] = bad[(k + 1) % 5].pose;
        cr_assert_eq(sepax_shapes_set_poses(same, first, many, probe), bad[k].st);
        cr_assert_eq(sepax_find_contacts_posed(bp, s, first, many, probe, &o, &out, &count),
                     bad[k].st, "range, pose %zu", k);
        cr_assert_eq(count, 99, "count written on error");
    }
    /* the range itself, as sepax_shapes_set_poses: past the end, then the pointer */
    cr_assert_eq(sepax_find_contacts_posed(bp, s, n + 1, 0, poses, &o, &out, &count),
                 SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_find_contacts_posed(bp, s, 5, n, poses, &o, &out, &count), SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_find_contacts_posed(bp, s, 0, (size_t)n + 1, poses, &o, &out, &count),
                 SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_find_contacts_posed(bp, s, 5, n, NULL, &o, &out, &count), SEPAX_ERR_BAD_ID,
                 "the range before the pointer");
    cr_assert_eq(count, 99, "count written on error");
    /* the pointer itself */
    cr_assert_eq(sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), NULL, &o, &out, &count),
                 SEPAX_ERR_NULL);
    const sepax_pose *skew = (const sepax_pose *)(const void *)((const char *)poses + 2);
    cr_assert_eq(sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), skew, &o, &out, &count),
                 SEPAX_ERR_MISALIGNED);
    cr_assert_eq(
        sepax_find_contacts_posed(NULL, s, 0, sepax_shapes_count(s), poses, &o, &out, &count),
        SEPAX_ERR_NULL);
    cr_assert_eq(sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), poses, &o, &out, NULL),
                 SEPAX_ERR_NULL);
    size_t *skew_count = (size_t *)(void *)((char *)&count + 1);
    cr_assert_eq(
        sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), poses, &o, &out, skew_count),
        SEPAX_ERR_MISALIGNED);
    sepax_frame_options worse = o;
    worse.update = -1;
    cr_assert_eq(
        sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), NULL, &worse, &out, &count),
        SEPAX_ERR_BAD_OPTION, "the frame's own errors come first");
    cr_assert_eq(count, 99, "count written on error");
    expect_same_world(s, same, "after the refusals");
    /* no poses read when none are given: any pointer, with shapes or none */
    sepax_contacts many_out = {all, NULL, NULL, (size_t)n * 8};
    cr_assert_eq(sepax_find_contacts_posed(bp, s, 7, 0, NULL, &o, &many_out, &count), SEPAX_OK);
    cr_assert_eq(count, found, "no poses: the frame of the store as it is");
    count = 99;
    expect_same_world(s, same, "after a frame of no poses");
    /* an empty store reads no poses: any pointer, as sepax_shapes_set_poses with n == 0 */
    sepax_shapes *none = sepax_shapes_create(4);
    cr_assert_eq(
        sepax_find_contacts_posed(bp, none, 0, sepax_shapes_count(none), NULL, &o, &out, &count),
        SEPAX_OK);
    cr_assert_eq(count, 0);
    count = 99;
    cr_assert_eq(sepax_shapes_set_poses(none, 0, 0, skew), SEPAX_OK);
    cr_assert_eq(
        sepax_find_contacts_posed(bp, none, 0, sepax_shapes_count(none), skew, &o, &out, &count),
        SEPAX_OK);
    cr_assert_eq(count, 0);
    sepax_shapes_destroy(none);
    free(all);
    free(poses);
    free(probe);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
    sepax_shapes_destroy(same);
}

/* After a frame's SEPAX_UPDATE_FRAME the store's transposed rows lag its records (store.h):
 * the range queries must still answer for the new poses, on every backend, and from the rows
 * again once sepax_shapes_update or a frame's SEPAX_UPDATE_ALL has rewritten them. The shapes
 * move far before each update, so an answer from old rows would differ. */
static void expect_range_queries_match_reference(const sepax_shapes *s, const char *when) {
    uint32_t n = sepax_shapes_count(s);
    uint8_t *got = malloc(n), *want = malloc(n);
    sepax_ray_hit *rgot = malloc(n * sizeof *rgot), *rwant = malloc(n * sizeof *rwant);
    sepax_backend was = sepax_get_backend();
    size_t hits = 0, ray_hits = 0;
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        cr_assert_eq(sepax_set_backend((sepax_backend)b), SEPAX_OK);
        const char *name = sepax_backend_name((sepax_backend)b);
        for (uint32_t probe = 0; probe < n; probe += 97) {
            sepax_query_options o = {.margin = probe % 2 ? 0.5f : 0.0f};
            uint32_t first = probe % 5, count = n - first - probe % 3;
            cr_assert_eq(sepax_overlap_one_opt(s, probe, first, count, &o, got), SEPAX_OK);
            cr_assert_eq(sepax_ref_overlap_one_opt(s, probe, first, count, &o, want), SEPAX_OK);
            for (uint32_t k = 0; k < count; k++) hits += want[k];
            cr_assert(memcmp(got, want, count) == 0, "%s, %s: overlap_one, probe %u differs", when,
                      name, probe);
        }
        for (int r = 0; r < 8; r++) {
            sepax_ray ray = {{-5.0f, 7.5f * (float)r}, {70.0f, 3.0f - (float)r}, 1.0f};
            cr_assert_eq(sepax_raycast_range(s, &ray, 1, n - 1, rgot), SEPAX_OK);
            cr_assert_eq(sepax_ref_raycast_range(s, &ray, 1, n - 1, rwant), SEPAX_OK);
            for (uint32_t k = 0; k + 1 < n; k++) ray_hits += rwant[k].hit;
            cr_assert(memcmp(rgot, rwant, (n - 1) * sizeof *rgot) == 0,
                      "%s, %s: raycast_range, ray %d differs", when, name, r);
        }
    }
    cr_assert(hits > 100 && ray_hits > 100, "%s: %zu overlaps, %zu ray hits", when, hits, ray_hits);
    sepax_set_backend(was);
    free(got);
    free(want);
    free(rgot);
    free(rwant);
}

Test(broadphase, range_queries_after_a_frame_update) {
    sepax_shapes *s = make_store(3000, 13, 4);
    expect_range_queries_match_reference(s, "after sepax_shapes_update");
    wl_rng r = {91};
    uint32_t n = sepax_shapes_count(s);
    sepax_pose *poses = malloc(n * sizeof *poses);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    const int updates[3] = {SEPAX_UPDATE_FRAME, SEPAX_UPDATE_ALL, SEPAX_UPDATE_FRAME};
    const char *after[3] = {"after SEPAX_UPDATE_FRAME", "after SEPAX_UPDATE_ALL",
                            "after SEPAX_UPDATE_FRAME again"};
    for (int u = 0; u < 3; u++) {
        for (uint32_t i = 0; i < n; i++)
            poses[i] = (sepax_pose){{60.0f * wl_unit(&r), 60.0f * wl_unit(&r)},
                                    sepax_rot(6.0f * wl_unit(&r))};
        cr_assert_eq(sepax_shapes_set_poses(s, 0, n, poses), SEPAX_OK);
        sepax_frame_options o = {SEPAX_TEST_AABB, 0.0f, 0.0f, updates[u]};
        size_t count;
        sepax_contacts none = {NULL, NULL, NULL, 0};
        cr_assert_eq(sepax_find_contacts(bp, s, &o, &none, &count), SEPAX_ERR_CAPACITY);
        /* the fast row path comes back with a whole update (store.h) */
        cr_assert_eq(s->rows_stale, updates[u] == SEPAX_UPDATE_FRAME, "%s", after[u]);
        expect_range_queries_match_reference(s, after[u]);
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    cr_assert_eq(s->rows_stale, 0);
    expect_range_queries_match_reference(s, "after the frames and sepax_shapes_update");
    free(poses);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* ---- the capacity contract -------------------------------------------------------- */

Test(broadphase, too_small_a_buffer_loses_nothing) {
    sepax_shapes *s = make_store(2000, 21, 3);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    result_set full = frame_ok(bp, s, SEPAX_TEST_MANIFOLD, 0.0f);
    cr_assert(full.n > 10);
    size_t cap = full.n - 1;
    sepax_pair *pairs = malloc(cap * sizeof *pairs);
    sepax_manifold *mans = malloc(cap * sizeof *mans);
    memset(pairs, 0xab, cap * sizeof *pairs);
    memset(mans, 0xab, cap * sizeof *mans);
    sepax_frame_options o = {SEPAX_TEST_MANIFOLD, 0.0f, 0.0f, 0};
    sepax_contacts out = {pairs, NULL, mans, cap};
    size_t count = 0;
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_ERR_CAPACITY);
    cr_assert_eq(count, full.n);
    for (size_t i = 0; i < cap * sizeof *pairs; i++)
        cr_assert_eq(((unsigned char *)pairs)[i], 0xab, "pairs written on SEPAX_ERR_CAPACITY");
    for (size_t i = 0; i < cap * sizeof *mans; i++)
        cr_assert_eq(((unsigned char *)mans)[i], 0xab, "manifolds written on SEPAX_ERR_CAPACITY");
    /* capacity 0 and NULL arrays: just the count */
    sepax_contacts none = {NULL, NULL, NULL, 0};
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &none, &count), SEPAX_ERR_CAPACITY);
    cr_assert_eq(count, full.n);
    /* a fresh broadphase (small result arrays, so chunks overflow and run again) */
    sepax_broadphase *fresh = sepax_broadphase_create(NULL);
    result_set again = frame_ok(fresh, s, SEPAX_TEST_MANIFOLD, 0.0f);
    expect_identical(again, full, SEPAX_TEST_MANIFOLD, "second call");
    free(pairs);
    free(mans);
    free_set(&full);
    free_set(&again);
    sepax_broadphase_destroy(fresh);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* n unit circles stacked at one point: every pair of them touches. */
static sepax_shapes *stacked_circles(uint32_t n) {
    sepax_shapes *s = sepax_shapes_create(n);
    cr_assert(s);
    uint32_t id;
    for (uint32_t i = 0; i < n; i++)
        cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){5.0f, 5.0f}, 1.0f, &id), SEPAX_OK);
    return s;
}

/* A frame refused for room holds none of the results it will not write: 800 circles stacked at
 * one point (a burst from one spawn point) make 319,600 pairs, and the broadphase's memory
 * stays below what keeping them would take (before, it grew every chunk to hold its results
 * and ran it again: 30,000 stacked shapes took 3.5 GB to answer SEPAX_ERR_CAPACITY). The call
 * again with room gets every pair, for each test. */
Test(broadphase, refusal_for_room_grows_nothing) {
    const uint32_t n = 800;
    const size_t pairs = (size_t)n * (n - 1) / 2;
    sepax_shapes *s = stacked_circles(n);
    const int tests[] = {SEPAX_TEST_AABB, SEPAX_TEST_OVERLAP, SEPAX_TEST_COLLIDE,
                         SEPAX_TEST_MANIFOLD};
    for (size_t t = 0; t < sizeof tests / sizeof tests[0]; t++) {
        sepax_broadphase *bp = sepax_broadphase_create(NULL);
        sepax_frame_options o = {tests[t], 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
        sepax_contacts none = {NULL, NULL, NULL, 0};
        size_t count = 0;
        sepax_broadphase_stats before, after;
        cr_assert_eq(sepax_find_contacts(bp, s, &o, &none, &count), SEPAX_ERR_CAPACITY);
        cr_assert_eq(count, pairs, "test %d: %zu results", tests[t], count);
        cr_assert_eq(sepax_broadphase_stats_get(bp, &before), SEPAX_OK);
        cr_assert(before.bytes < pairs * sizeof(sepax_pair),
                  "test %d: %zu bytes held to refuse %zu pairs", tests[t], before.bytes, pairs);
        cr_assert_eq(sepax_find_contacts(bp, s, &o, &none, &count), SEPAX_ERR_CAPACITY);
        cr_assert_eq(sepax_broadphase_stats_get(bp, &after), SEPAX_OK);
        cr_assert_eq(after.bytes, before.bytes, "test %d: a second refusal grew", tests[t]);
        sepax_status st;
        result_set got = frame_with(bp, s, &o, count, &st);
        cr_assert_eq(st, SEPAX_OK, "test %d: %s", tests[t], sepax_status_str(st));
        cr_assert_eq(got.n, pairs);
        unsigned char *seen = calloc((size_t)n * n, 1); /* every pair of the n, once each */
        for (size_t k = 0; k < got.n; k++) {
            uint32_t a = got.pairs[k].a, b = got.pairs[k].b;
            cr_assert(a < b && b < n, "test %d: pair %zu is (%u, %u)", tests[t], k, a, b);
            cr_assert(!seen[(size_t)a * n + b], "test %d: pair %zu repeated", tests[t], k);
            seen[(size_t)a * n + b] = 1;
        }
        free(seen);
        free_set(&got);
        sepax_broadphase_destroy(bp);
    }
    sepax_shapes_destroy(s);
}

/* A frame's results as bytes, to compare two frames bit for bit. */
static int same_results(result_set x, result_set y) {
    return x.n == y.n && memcmp(x.pairs, y.pairs, x.n * sizeof *x.pairs) == 0 &&
           memcmp(x.hits, y.hits, x.n * sizeof *x.hits) == 0 &&
           memcmp(x.mans, y.mans, x.n * sizeof *x.mans) == 0;
}

/* sepax_broadphase_trim gives back what a huge frame's results grew (800 stacked circles:
 * 319,600 manifolds, some 18 MB), keeps the grid for the queries, and the frames after it
 * find the same results, in every test and with the lazy update (whose marks it frees). */
Test(broadphase, trim_gives_back_the_results_room) {
    const uint32_t n = 800;
    const size_t pairs = (size_t)n * (n - 1) / 2;
    sepax_shapes *stack = stacked_circles(n);
    uint32_t id;
    /* and 3,000 circles and boxes on a lattice, every 16th beside the one before it: few
     * candidates, as a lazy frame wants */
    sepax_shapes *sparse = sepax_shapes_create(3000);
    for (uint32_t i = 0; i < 3000; i++) {
        float x = (float)(i % 60) * 10.0f + (i % 16 == 1 ? -8.5f : 0.0f),
              y = (float)(i / 60) * 10.0f;
        sepax_status st =
            i % 2 ? sepax_shapes_add_box(sparse, 1.0f, 0.5f, &id)
                  : sepax_shapes_add_circle(sparse, (sepax_vec2){0.0f, 0.0f}, 1.0f, &id);
        cr_assert_eq(st, SEPAX_OK);
        sepax_pose at = {{x, y}, sepax_rot(0.3f * (float)i)};
        cr_assert_eq(sepax_shapes_set_poses(sparse, i, 1, &at), SEPAX_OK);
    }
    cr_assert_eq(sepax_broadphase_trim(NULL), SEPAX_ERR_NULL);
    for (int threads = 1; threads <= 2; threads++) {
        sepax_broadphase_config cfg = {(uint32_t)threads, NULL, NULL, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&cfg);
        cr_assert_eq(sepax_broadphase_trim(bp), SEPAX_OK, "a fresh broadphase trims too");
        for (int test = SEPAX_TEST_AABB; test <= SEPAX_TEST_MANIFOLD; test++) {
            for (int update = SEPAX_UPDATE_FRAME; update <= SEPAX_UPDATE_LAZY; update++) {
                sepax_shapes *s = update == SEPAX_UPDATE_LAZY ? sparse : stack;
                size_t room = update == SEPAX_UPDATE_LAZY ? 1u << 16 : pairs;
                sepax_frame_options o = {test, 0.0f, 0.0f, update};
                sepax_status st;
                /* a frame first: a lazy frame's choice reads the last frame's candidates (and
                 * the room the last test left, trimmed, is not this test's) */
                cr_assert_eq(sepax_broadphase_trim(bp), SEPAX_OK);
                result_set warm = frame_with(bp, s, &o, room, &st);
                cr_assert_eq(st, SEPAX_OK, "%s", sepax_status_str(st));
                free_set(&warm);
                result_set first = frame_with(bp, s, &o, room, &st);
                cr_assert_eq(st, SEPAX_OK, "%s", sepax_status_str(st));
                if (s == stack) cr_assert_eq(first.n, pairs);
                sepax_broadphase_stats full, trimmed, again;
                cr_assert_eq(sepax_broadphase_stats_get(bp, &full), SEPAX_OK);
                if (s == sparse) /* so the lazy frames mark (frame.c) */
                    cr_assert(full.candidates * 8 <= sepax_shapes_count(s), "%zu candidates",
                              full.candidates);
                uint32_t near[64];
                size_t got_before = 0, got_after = 0;
                sepax_aabb box = {{4.0f, 4.0f}, {6.0f, 6.0f}};
                sepax_status q_before =
                    sepax_broadphase_query_aabb(bp, s, box, near, 64, &got_before);
                cr_assert(q_before == SEPAX_OK || q_before == SEPAX_ERR_CAPACITY);
                cr_assert_eq(sepax_broadphase_trim(bp), SEPAX_OK);
                cr_assert_eq(sepax_broadphase_stats_get(bp, &trimmed), SEPAX_OK);
                if (s == stack)
                    cr_assert(trimmed.bytes + first.n * sizeof(sepax_pair) <= full.bytes,
                              "test %d, %d threads: %zu bytes held, %zu before the trim", test,
                              threads, trimmed.bytes, full.bytes);
                cr_assert(trimmed.bytes <= full.bytes);
                /* the grid is as it was: its figures, and the queries on it */
                cr_assert(trimmed.shapes == full.shapes && trimmed.cells_x == full.cells_x &&
                          trimmed.cells_y == full.cells_y && trimmed.results == full.results);
                cr_assert_eq(sepax_broadphase_query_aabb(bp, s, box, near, 64, &got_after),
                             q_before);
                cr_assert_eq(got_after, got_before);
                cr_assert_eq(sepax_broadphase_trim(bp), SEPAX_OK, "twice");
                result_set second = frame_with(bp, s, &o, room, &st);
                cr_assert_eq(st, SEPAX_OK, "%s", sepax_status_str(st));
                cr_assert(same_results(first, second), "test %d, update %d, %d threads", test,
                          update, threads);
                cr_assert_eq(sepax_broadphase_stats_get(bp, &again), SEPAX_OK);
                cr_assert_eq(
                    again.bytes, full.bytes,
                    "test %d, update %d, %d threads: the next frame grows %zu bytes, not %zu", test,
                    update, threads, again.bytes, full.bytes);
                free_set(&first);
                free_set(&second);
            }
        }
        sepax_broadphase_destroy(bp);
    }
    sepax_shapes_destroy(sparse);
    sepax_shapes_destroy(stack);
}

/* The same with the shapes moving and the frame updating the world data: a call refused for
 * room (its update done, as the contract says) and the call again with room must give every
 * result for the new poses, whether the second call updates again or not (SEPAX_UPDATE_NONE,
 * where the first one's update left no records stale), and whether the shapes moved again
 * in between. Every update mode, counted against brute force after a whole update. */
Test(broadphase, too_small_a_buffer_loses_nothing_while_shapes_move) {
    sepax_shapes *s = make_store(1000, 23, 3);
    uint32_t n = sepax_shapes_count(s);
    sepax_pose *poses = malloc(n * sizeof *poses);
    wl_rng r = {41};
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    const size_t room = (size_t)n * 8;
    for (int update = SEPAX_UPDATE_FRAME; update <= SEPAX_UPDATE_LAZY; update++) {
        for (int again = 0; again < 3; again++) { /* the second call: same update, none, moved */
            if (update == SEPAX_UPDATE_LAZY && again == 1) continue; /* that is STALE_WORLD */
            for (uint32_t i = 0; i < n; i++)
                poses[i] = (sepax_pose){{40.0f * wl_unit(&r), 40.0f * wl_unit(&r)},
                                        sepax_rot(6.0f * wl_unit(&r))};
            cr_assert_eq(sepax_shapes_set_poses(s, 0, n, poses), SEPAX_OK);
            sepax_frame_options o = {SEPAX_TEST_MANIFOLD, 0.0f, 0.0f, update};
            sepax_contacts none = {NULL, NULL, NULL, 0};
            size_t needed = 0;
            cr_assert_eq(sepax_find_contacts(bp, s, &o, &none, &needed), SEPAX_ERR_CAPACITY,
                         "update %d: no room", update);
            cr_assert(needed > 10, "update %d: %zu results", update, needed);
            if (again == 1) o.update = SEPAX_UPDATE_NONE;
            if (again == 2) { /* a small move again: the answer is for these poses */
                for (uint32_t i = 0; i < n; i++) poses[i].position.x += 0.25f;
                cr_assert_eq(sepax_shapes_set_poses(s, 0, n, poses), SEPAX_OK);
            }
            sepax_status st;
            result_set got = frame_with(bp, s, &o, room, &st);
            cr_assert_eq(st, SEPAX_OK, "update %d, again %d: %s", update, again,
                         sepax_status_str(st));
            if (again < 2)
                cr_assert_eq(got.n, needed, "update %d, again %d: %zu results, %zu needed", update,
                             again, got.n, needed);
            cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
            result_set want = brute(s, SEPAX_TEST_MANIFOLD, 0.0f);
            expect_same_set(s, got, want, SEPAX_TEST_MANIFOLD, "after a refusal for room");
            sepax_broadphase *fresh = sepax_broadphase_create(NULL);
            result_set alone = frame_ok(fresh, s, SEPAX_TEST_MANIFOLD, 0.0f);
            expect_identical(got, alone, SEPAX_TEST_MANIFOLD, "after a refusal for room");
            sepax_broadphase_destroy(fresh);
            free_set(&got);
            free_set(&want);
            free_set(&alone);
        }
    }
    free(poses);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* The order of the results, for one filter group and no large shapes: each pair's owner is
 * its shape at the lower grid position, owners come in grid order, and an owner's partners in
 * grid order too (its own cell and the next, then the next row): the pairs sorted by (lower
 * position, higher position). A dense cluster among sparse shapes sends some cells through the
 * crowded path (owner by owner) between cells tested together, which must not reorder them. */
Test(broadphase, results_in_grid_order_through_crowded_cells) {
    sepax_shapes *s = sepax_shapes_create(4000);
    wl_rng r = {77};
    uint32_t id;
    for (int i = 0; i < 700; i++) /* about 60 a cell: runs past BP_PIECE */
        cr_assert_eq(sepax_shapes_add_circle(
                         s, (sepax_vec2){100.0f + 3.0f * wl_unit(&r), 100.0f + 3.0f * wl_unit(&r)},
                         0.5f, &id),
                     SEPAX_OK);
    for (int i = 0; i < 3000; i++)
        cr_assert_eq(sepax_shapes_add_circle(
                         s, (sepax_vec2){200.0f * wl_unit(&r), 200.0f * wl_unit(&r)}, 0.5f, &id),
                     SEPAX_OK);
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    uint32_t n = sepax_shapes_count(s);
    for (uint32_t threads = 1; threads <= 2; threads++) {
        sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&cfg);
        result_set got = frame_ok(bp, s, SEPAX_TEST_AABB, 0.0f);
        cr_assert(got.n > 20000, "the cluster's pairs: %zu", got.n);
        uint32_t *order = malloc(n * sizeof *order), *pos = malloc(n * sizeof *pos);
        cr_assert_eq(sepax_broadphase_order(bp, s, order, n), SEPAX_OK);
        for (uint32_t k = 0; k < n; k++) pos[order[k]] = k;
        uint32_t last_lo = 0, last_hi = 0;
        for (size_t k = 0; k < got.n; k++) {
            uint32_t pa = pos[got.pairs[k].a & SEPAX_ID_INDEX_MASK];
            uint32_t pb = pos[got.pairs[k].b & SEPAX_ID_INDEX_MASK];
            uint32_t lo = pa < pb ? pa : pb, hi = pa < pb ? pb : pa;
            cr_assert(k == 0 || lo > last_lo || (lo == last_lo && hi > last_hi),
                      "%u threads: result %zu at positions (%u, %u) after (%u, %u)", threads, k, lo,
                      hi, last_lo, last_hi);
            last_lo = lo;
            last_hi = hi;
        }
        free(order);
        free(pos);
        free_set(&got);
        sepax_broadphase_destroy(bp);
    }
    sepax_shapes_destroy(s);
}

/* The phase timings in the stats: only the phases a call ran are non-zero (their values are
 * wall time, so only that is checked). */
static sepax_broadphase_stats stats_of(const sepax_broadphase *bp) {
    sepax_broadphase_stats st;
    cr_assert_eq(sepax_broadphase_stats_get(bp, &st), SEPAX_OK);
    return st;
}

Test(broadphase, phase_timings_name_the_phases_run) {
    sepax_shapes *s = make_store(3000, 23, 2);
    size_t cap = 100000, count = 0;
    sepax_pair *pairs = malloc(cap * sizeof *pairs);
    for (uint32_t threads = 1; threads <= 2; threads++) {
        sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&cfg);
        sepax_contacts out = {pairs, NULL, NULL, cap};
        sepax_frame_options o = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
        cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_OK);
        cr_assert(count > 0);
        sepax_broadphase_stats st = stats_of(bp);
        cr_assert(st.update_ns > 0 && st.grid_ns > 0 && st.pairs_ns > 0 && st.copy_ns > 0);
        /* no update asked: none timed */
        o.update = SEPAX_UPDATE_NONE;
        cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_OK);
        st = stats_of(bp);
        cr_assert(st.update_ns == 0 && st.grid_ns > 0 && st.pairs_ns > 0 && st.copy_ns > 0);
        /* too small a buffer: no copy */
        out.capacity = count - 1;
        cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_ERR_CAPACITY);
        st = stats_of(bp);
        cr_assert(st.update_ns == 0 && st.grid_ns > 0 && st.pairs_ns > 0 && st.copy_ns == 0);
        /* a bad option stops the call before any phase */
        o.test = 99;
        cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_ERR_BAD_OPTION);
        st = stats_of(bp);
        cr_assert(st.update_ns == 0 && st.grid_ns == 0 && st.pairs_ns == 0 && st.copy_ns == 0);
        /* the grid alone; then a build refused before it starts */
        cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
        st = stats_of(bp);
        cr_assert(st.update_ns == 0 && st.grid_ns > 0 && st.pairs_ns == 0 && st.copy_ns == 0);
        cr_assert_eq(sepax_broadphase_build(bp, s, NAN), SEPAX_ERR_NONFINITE);
        st = stats_of(bp);
        cr_assert(st.update_ns == 0 && st.grid_ns == 0 && st.pairs_ns == 0 && st.copy_ns == 0);
        sepax_broadphase_destroy(bp);
    }
    free(pairs);
    sepax_shapes_destroy(s);
}

/* A dense field and a few small shapes far from it (parked bullets, strays: two touching
 * each other, one on the far side, in two filter groups). The far ones join the large list,
 * so the cell stays the field's own, and the contacts are brute force's, on 1 and 2 threads.
 * With more far shapes than the grid moves (here a sixth of the shapes), the grid spans them
 * all and widens its cells instead: the same contacts. */
static sepax_shapes *field(void) {
    sepax_shapes *s = circle_store(2000, 0.4f, 1.0f, 91);
    for (uint32_t i = 0; i < 2000; i++) { /* two filter groups, as the strays' */
        sepax_filter f = {i % 2 ? 2u : 1u, 0xffffffffu};
        cr_assert_eq(sepax_shapes_set_filters(s, i, 1, &f), SEPAX_OK);
    }
    return s;
}

static sepax_shapes *field_and_strays(uint32_t nfar) {
    sepax_shapes *s = field();
    wl_rng r = {92};
    for (uint32_t k = 0; k < nfar; k++) {
        uint32_t id;
        sepax_vec2 c = k == 0   ? (sepax_vec2){1e5f, 1e5f}
                       : k == 1 ? (sepax_vec2){1e5f + 0.5f, 1e5f}       /* touches stray 0 */
                       : k == 2 ? (sepax_vec2){-4e4f, 200.0f}           /* the far side */
                                : (sepax_vec2){1e5f + 50.0f * (float)k, /* a parked row */
                                               1e5f + 10.0f * wl_unit(&r)};
        cr_assert_eq(sepax_shapes_add_circle(s, c, 0.4f, &id), SEPAX_OK);
        sepax_filter f = {k % 2 ? 2u : 1u, 0xffffffffu};
        cr_assert_eq(sepax_shapes_set_filters(s, id, 1, &f), SEPAX_OK);
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    return s;
}

Test(broadphase, far_strays_leave_the_grid_as_it_was) {
    sepax_shapes *alone_store = field();
    sepax_broadphase *bp0 = sepax_broadphase_create(NULL);
    cr_assert_eq(sepax_broadphase_build(bp0, alone_store, 0.0f), SEPAX_OK);
    sepax_broadphase_stats alone = stats_of(bp0);
    /* the strays lie far from the field and from each other, but for strays 0 and 1: brute
     * force over the field alone, and that one pair, are every contact (the field's ids are
     * the same in each store) */
    result_set field_want = brute(alone_store, SEPAX_TEST_COLLIDE, 0.0f);
    /* 400 of 2,400 shapes are more than the sample's tails (1/16 each) leave out: a spread */
    const uint32_t first_stray = 2000, most = 100;
    const uint32_t nfar[] = {3, 12, 100, 400};
    for (size_t f = 0; f < sizeof nfar / sizeof nfar[0]; f++) {
        sepax_shapes *s = field_and_strays(nfar[f]);
        sepax_pair touching = {first_stray, first_stray + 1};
        sepax_hit th;
        cr_assert_eq(sepax_collide(s, &touching, 1, &th), SEPAX_OK);
        cr_assert(th.hit, "strays 0 and 1 should touch");
        result_set want = {malloc((field_want.n + 1) * sizeof(sepax_pair)),
                           malloc((field_want.n + 1) * sizeof(sepax_hit)), NULL, field_want.n + 1};
        memcpy(want.pairs, field_want.pairs, field_want.n * sizeof(sepax_pair));
        memcpy(want.hits, field_want.hits, field_want.n * sizeof(sepax_hit));
        want.pairs[field_want.n] = touching;
        want.hits[field_want.n] = th;
        for (uint32_t threads = 1; threads <= 2; threads++) {
            sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
            sepax_broadphase *bp = sepax_broadphase_create(&cfg);
            result_set got = frame_ok(bp, s, SEPAX_TEST_COLLIDE, 0.0f);
            expect_same_set(s, got, want, SEPAX_TEST_COLLIDE, "field and strays");
            sepax_broadphase_stats st = stats_of(bp);
            if (nfar[f] <= most) {
                cr_expect_eq(st.large, nfar[f], "%u strays: %u large", nfar[f], st.large);
                cr_expect(st.cell_size == alone.cell_size && st.cells_x == alone.cells_x,
                          "%u strays: cell %g (%u across), the field alone %g (%u)", nfar[f],
                          st.cell_size, st.cells_x, alone.cell_size, alone.cells_x);
            } else {
                cr_expect_eq(st.large, 0, "%u strays: %u large", nfar[f], st.large);
                cr_expect(st.cell_size > 100.0f * alone.cell_size, "%u strays: cell %g", nfar[f],
                          st.cell_size);
            }
            free_set(&got);
            sepax_broadphase_destroy(bp);
        }
        free(want.pairs);
        free(want.hits);
        sepax_shapes_destroy(s);
    }
    free_set(&field_want);
    sepax_broadphase_destroy(bp0);
    sepax_shapes_destroy(alone_store);
}

/* Large shapes the grid's columns cannot tell apart, as a review found them: 2,000 boxes in a
 * row to the right of 1,000 small circles (the columns span only the circles' lower corners,
 * so every box lies past the last one), and 2,000 circles all large under a given cell smaller
 * than they are (a grid of one cell). Each large owner reads the large shapes after it only
 * while their boxes start before its own ends: its range tests read fewer than 8 positions of
 * the large list a large shape (bp->large_scanned), where one column shared by all made them
 * read about 2,000,000 (every pair). The contacts are brute force's, on 1 and 2 threads. */
/* A box of half extents hx, hy at (x, y), turned by angle. */
static void add_posed_box(sepax_shapes *s, float hx, float hy, float x, float y, float angle) {
    uint32_t id;
    cr_assert_eq(sepax_shapes_add_box(s, hx, hy, &id), SEPAX_OK);
    sepax_pose p = {{x, y}, sepax_rot(angle)};
    cr_assert_eq(sepax_shapes_set_poses(s, id, 1, &p), SEPAX_OK);
}

static sepax_shapes *boxes_right_of_circles(void) {
    sepax_shapes *s = sepax_shapes_create(3000);
    cr_assert(s);
    wl_rng r = {93};
    uint32_t id;
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(sepax_shapes_add_circle(
                         s, (sepax_vec2){50.0f * wl_unit(&r), 50.0f * wl_unit(&r)}, 0.5f, &id),
                     SEPAX_OK);
    for (int i = 0; i < 2000; i++) { /* 10 x 2, each overlapping the next by about 1 */
        float x = 1000.0f + 9.0f * (float)i + 0.5f * wl_unit(&r);
        add_posed_box(s, 5.0f, 1.0f, x, 2.0f * wl_unit(&r), 0.0f);
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    return s;
}

static sepax_shapes *circles_in_a_band(void) {
    sepax_shapes *s = sepax_shapes_create(2000);
    cr_assert(s);
    wl_rng r = {94};
    uint32_t id;
    for (int i = 0; i < 2000; i++)
        cr_assert_eq(sepax_shapes_add_circle(
                         s, (sepax_vec2){1000.0f * wl_unit(&r), 20.0f * wl_unit(&r)}, 0.5f, &id),
                     SEPAX_OK);
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    return s;
}

Test(broadphase, large_shapes_past_the_columns_pair_in_linear_time) {
    struct {
        const char *name;
        sepax_shapes *s;
        float cell;
        uint32_t large;
    } scenes[] = {{"boxes right of circles", boxes_right_of_circles(), 2.0f, 2000},
                  {"all large", circles_in_a_band(), 0.5f, 2000}};
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++) {
        sepax_shapes *s = scenes[k].s;
        result_set want = brute(s, SEPAX_TEST_COLLIDE, 0.0f);
        cr_assert(want.n > 200, "%s: only %zu contacts, a weak check", scenes[k].name, want.n);
        for (uint32_t threads = 1; threads <= 2; threads++) {
            sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
            sepax_broadphase *bp = sepax_broadphase_create(&cfg);
            sepax_frame_options o = {SEPAX_TEST_COLLIDE, 0.0f, scenes[k].cell, 0};
            sepax_status st;
            result_set got = frame_with(bp, s, &o, 1u << 16, &st);
            cr_assert_eq(st, SEPAX_OK, "%s", sepax_status_str(st));
            expect_same_set(s, got, want, SEPAX_TEST_COLLIDE, scenes[k].name);
            cr_assert_eq(stats_of(bp).large, scenes[k].large, "%s: %u large", scenes[k].name,
                         stats_of(bp).large);
            cr_expect(bp->large_scanned <= 8u * scenes[k].large,
                      "%s, threads %u: the large owners read %zu positions of the large list, "
                      "more than 8 a large shape",
                      scenes[k].name, threads, bp->large_scanned);
            free_set(&got);
            sepax_broadphase_destroy(bp);
        }
        free_set(&want);
        sepax_shapes_destroy(s);
    }
}

/* Squares too large for the grid's cells, crowded in x and spread in y, among circles, and
 * walls far longer than the squares crossing them: by x alone each square would read about
 * 200 of the large list; in bands of y, a few of a band and the next. */
static sepax_shapes *squares_in_a_column(void) {
    sepax_shapes *s = sepax_shapes_create(2400);
    cr_assert(s);
    wl_rng r = {95};
    uint32_t id;
    for (int i = 0; i < 1600; i++)
        cr_assert_eq(sepax_shapes_add_circle(
                         s, (sepax_vec2){50.0f * wl_unit(&r), 1600.0f * wl_unit(&r)}, 0.5f, &id),
                     SEPAX_OK);
    for (int i = 0; i < 800; i++) {
        float x = 50.0f * wl_unit(&r), y = 1600.0f * wl_unit(&r);
        add_posed_box(s, 5.0f, 5.0f, x, y, 6.3f * wl_unit(&r));
    }
    for (int i = 0; i < 3; i++) /* three across the column, three along it */
        add_posed_box(s, 25.0f, 1.0f, 25.0f, 300.0f + 500.0f * (float)i, 0.0f);
    for (int i = 0; i < 3; i++)
        add_posed_box(s, 1.0f, 700.0f, 10.0f + 15.0f * (float)i, 800.0f, 0.0f);
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    return s;
}

/* 30 clusters of 50 squares up a column 100,000 high: more bands than BP_BANDS at the
 * squares' size, so the bands are taller than they need. */
static sepax_shapes *squares_up_a_tall_column(void) {
    sepax_shapes *s = sepax_shapes_create(1500);
    cr_assert(s);
    wl_rng r = {96};
    for (int i = 0; i < 1500; i++) {
        float y = 3400.0f * (float)(i / 50) + 40.0f * wl_unit(&r), x = 40.0f * wl_unit(&r);
        add_posed_box(s, 5.0f, 5.0f, x, y, 6.3f * wl_unit(&r));
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    return s;
}

/* 400 squares all over one another in a field 5 x 5, crowded in x, and three walls past them:
 * one band's height holds them all, so the list stays by x alone (a split into medium and
 * huge with one band missed the walls' pairs, found by a whole-frame fuzzer). */
static sepax_shapes *squares_in_one_band(void) {
    sepax_shapes *s = sepax_shapes_create(403);
    cr_assert(s);
    wl_rng r = {97};
    for (int i = 0; i < 403; i++) {
        int wall = i >= 400;
        float x = 5.0f * wl_unit(&r), y = 5.0f * wl_unit(&r);
        add_posed_box(s, wall ? 6.0f : 2.5f, wall ? 0.5f : 2.5f, x, y, 6.3f * wl_unit(&r));
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    return s;
}

Test(broadphase, large_shapes_crowded_in_x_pair_by_bands) {
    struct {
        const char *name;
        sepax_shapes *s;
        float cell;
        uint32_t nbands_least, nbands_most, huge;
        size_t scan_most; /* large-list positions read, a large shape */
    } scenes[] = {{"column", squares_in_a_column(), 0.0f, 40, 60, 6, 30},
                  {"tall column", squares_up_a_tall_column(), 1.0f, BP_BANDS, BP_BANDS, 0, 30},
                  {"one band", squares_in_one_band(), 1.0f, 1, 1, 0, 403}};
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++) {
        sepax_shapes *s = scenes[k].s;
        const char *name = scenes[k].name;
        result_set want = brute(s, SEPAX_TEST_COLLIDE, 0.0f);
        cr_assert(want.n > 1000, "%s: only %zu contacts, a weak check", name, want.n);
        result_set one = {0};
        for (uint32_t threads = 1; threads <= 3; threads++) {
            sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
            sepax_broadphase *bp = sepax_broadphase_create(&cfg);
            sepax_frame_options o = {SEPAX_TEST_COLLIDE, 0.0f, scenes[k].cell, 0};
            sepax_status st;
            result_set got = frame_with(bp, s, &o, 1u << 17, &st);
            cr_assert_eq(st, SEPAX_OK, "%s", sepax_status_str(st));
            expect_same_set(s, got, want, SEPAX_TEST_COLLIDE, name);
            uint32_t large = stats_of(bp).large, huge = bp->n - bp->band_start[bp->nbands];
            cr_assert(large >= 400, "%s: %u large", name, large);
            cr_assert(bp->nbands >= scenes[k].nbands_least && bp->nbands <= scenes[k].nbands_most,
                      "%s: %u bands", name, bp->nbands);
            cr_assert_eq(huge, scenes[k].huge, "%s: %u huge", name, huge);
            if (threads == 1) /* shown with --verbose (README, "Bands") */
                cr_log_info("%s: %u bands, %u huge, %.1f positions read a large shape", name,
                            bp->nbands, huge, (double)bp->large_scanned / large);
            cr_expect(bp->large_scanned <= scenes[k].scan_most * large,
                      "%s, threads %u: the large owners read %zu positions of the large list, "
                      "more than %zu a large shape",
                      name, threads, bp->large_scanned, scenes[k].scan_most);
            if (threads == 1)
                one = got;
            else {
                expect_identical(got, one, SEPAX_TEST_COLLIDE, name);
                free_set(&got);
            }
            if (threads == 3) { /* candidates at two margins, and each test against brute force */
                const float margins[] = {0.0f, 0.5f};
                for (int mi = 0; mi < 2; mi++) {
                    result_set c = frame_ok(bp, s, SEPAX_TEST_AABB, margins[mi]);
                    expect_candidates(s, c, margins[mi]);
                    free_set(&c);
                }
            }
            sepax_broadphase_destroy(bp);
        }
        free_set(&one);
        free_set(&want);
        sepax_shapes_destroy(s);
    }
}

/* Random scenes with the large list in bands whatever its crowd (band_crowd 0), every kind,
 * sizes over three orders of magnitude with a few giants, given and chosen cells, against
 * brute force on 1 and 2 threads: the cut that one band and huge shapes once broke (a
 * reviewer's whole-frame fuzzer found it in under a second). */
Test(broadphase, random_scenes_in_bands_match_brute_force) {
    wl_rng r = {98};
    int banded = 0, with_huge = 0;
    for (int round = 0; round < 40; round++) {
        uint32_t n = (uint32_t)wl_range(&r, 100, 400), id;
        float field = 5.0f + 100.0f * wl_unit(&r), base = 0.05f + 2.0f * wl_unit(&r);
        sepax_shapes *s = sepax_shapes_create(n);
        cr_assert(s);
        for (uint32_t i = 0; i < n; i++) {
            float size = base * (0.3f + (wl_unit(&r) < 0.05f ? 60.0f : 2.0f) * wl_unit(&r));
            int kind = wl_range(&r, 0, 2);
            sepax_status st =
                kind == 0   ? sepax_shapes_add_circle(s, (sepax_vec2){0, 0}, size, &id)
                : kind == 1 ? sepax_shapes_add_box(s, size, 0.4f * size, &id)
                            : sepax_shapes_add_capsule(s, (sepax_vec2){-size, 0},
                                                       (sepax_vec2){size, 0}, 0.3f * size, &id);
            cr_assert_eq(st, SEPAX_OK);
            sepax_pose p = {{field * wl_unit(&r), field * wl_unit(&r)},
                            sepax_rot(6.3f * wl_unit(&r))};
            cr_assert_eq(sepax_shapes_set_poses(s, id, 1, &p), SEPAX_OK);
        }
        cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
        float cell = round % 3 == 0 ? 0.0f : base * (round % 3 == 1 ? 0.1f : 1.0f);
        float margin = round % 4 == 0 ? 0.1f * base : 0.0f;
        result_set want = brute(s, SEPAX_TEST_COLLIDE, margin);
        for (uint32_t threads = 1; threads <= 2; threads++) {
            sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
            sepax_broadphase *bp = sepax_broadphase_create(&cfg);
            bp->band_crowd = 0.0;
            sepax_frame_options o = {SEPAX_TEST_COLLIDE, margin, cell, 0};
            sepax_status st;
            result_set got = frame_with(bp, s, &o, 1u << 17, &st);
            cr_assert_eq(st, SEPAX_OK, "round %d: %s", round, sepax_status_str(st));
            char what[64];
            snprintf(what, sizeof what, "round %d, %u bands, threads %u", round, bp->nbands,
                     threads);
            expect_same_set(s, got, want, SEPAX_TEST_COLLIDE, what);
            banded += threads == 1 && bp->nbands > 1;
            with_huge += threads == 1 && bp->nbands > 1 && bp->band_start[bp->nbands] < bp->n;
            free_set(&got);
            sepax_broadphase_destroy(bp);
        }
        free_set(&want);
        sepax_shapes_destroy(s);
    }
    cr_expect(banded >= 10 && with_huge >= 5, "only %d rounds in bands, %d with huge shapes",
              banded, with_huge);
}

/* ---- removal ------------------------------------------------------------------------ */

Test(broadphase, after_removals) {
    sepax_shapes *s = make_store(1200, 31, 5);
    for (int i = 0; i < 300; i++) {
        uint32_t n = sepax_shapes_count(s);
        cr_assert_eq(sepax_shapes_remove(s, sepax_shapes_id(s, (uint32_t)(i * 37) % n), NULL),
                     SEPAX_OK);
    }
    sepax_shapes_update(s);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    result_set got = frame_ok(bp, s, SEPAX_TEST_COLLIDE, 0.0f);
    result_set want = brute(s, SEPAX_TEST_COLLIDE, 0.0f);
    expect_same_set(s, got, want, SEPAX_TEST_COLLIDE, "after removals");
    /* ids carry their generations */
    for (size_t k = 0; k < got.n; k++) {
        sepax_aabb b;
        cr_assert_eq(sepax_shapes_aabb(s, got.pairs[k].a, &b), SEPAX_OK);
        cr_assert_eq(sepax_shapes_aabb(s, got.pairs[k].b, &b), SEPAX_OK);
    }
    free_set(&got);
    free_set(&want);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* ---- queries ------------------------------------------------------------------------ */

static int cmp_u32(const void *x, const void *y) {
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* Whether a query's ids come in the grid's order (pos: each index's place in it). */
static int in_grid_order(const uint32_t *pos, const uint32_t *ids, size_t count) {
    for (size_t k = 1; k < count; k++)
        if (pos[ids[k - 1] & SEPAX_ID_INDEX_MASK] >= pos[ids[k] & SEPAX_ID_INDEX_MASK]) return 0;
    return 1;
}

/* Whether a query's filter (NULL: none) meets a shape's, as sepax_filters_meet. */
static int query_meets(const sepax_filter *f, sepax_filter shape) {
    return !f || ((f->category & shape.mask) && (shape.category & f->mask));
}

/* Brute force for the box queries: the ids of the shapes every[0 .. n-1] (in that order)
 * whose boxes overlap `box` and whose filters (shape_filter, read when f is not NULL) meet f.
 * Returns how many were written to want. */
static size_t brute_box(const sepax_shapes *s, const uint32_t *every, uint32_t n, sepax_aabb box,
                        const sepax_filter *f, const sepax_filter *shape_filter, uint32_t *want) {
    size_t nw = 0;
    for (uint32_t i = 0; i < n; i++) {
        sepax_aabb b;
        sepax_shapes_aabb(s, every[i], &b);
        if (b.lower.x <= box.upper.x && box.lower.x <= b.upper.x && b.lower.y <= box.upper.y &&
            box.lower.y <= b.upper.y && (!f || query_meets(f, shape_filter[i])))
            want[nw++] = every[i];
    }
    return nw;
}

/* Brute force for the ray queries: `ray` cast against every shape (all[i] for every[i],
 * through rays[0 .. n-1]); returns how many hit a shape whose filter meets f (NULL: any). */
static size_t brute_ray(const sepax_shapes *s, const uint32_t *every, uint32_t n, sepax_ray ray,
                        const sepax_filter *f, const sepax_filter *shape_filter, sepax_ray *rays,
                        sepax_ray_hit *all) {
    for (uint32_t i = 0; i < n; i++) rays[i] = ray;
    cr_assert_eq(sepax_raycast(s, rays, every, n, all), SEPAX_OK);
    size_t nw = 0;
    for (uint32_t i = 0; i < n; i++) nw += all[i].hit && (!f || query_meets(f, shape_filter[i]));
    return nw;
}

Test(broadphase, queries_match_brute_force) {
    sepax_shapes *s = make_store(2500, 41, 10);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    uint32_t n = sepax_shapes_count(s);
    /* the grid's order, which every query's results follow (4 filter groups here) */
    uint32_t *grid = malloc(n * sizeof *grid), *pos = malloc(n * sizeof *pos);
    cr_assert_eq(sepax_broadphase_order(bp, s, grid, n), SEPAX_OK);
    for (uint32_t k = 0; k < n; k++) pos[grid[k]] = k;
    uint32_t *ids = malloc(n * sizeof *ids), *want = malloc(n * sizeof *want);
    sepax_ray_hit *hits = malloc(n * sizeof *hits), *all = malloc(n * sizeof *all);
    uint32_t *every = malloc(n * sizeof *every);
    sepax_ray *rays = malloc(n * sizeof *rays);
    for (uint32_t i = 0; i < n; i++) every[i] = sepax_shapes_id(s, i);
    wl_rng r = {123};
    size_t found = 0;
    for (int q = 0; q < 200; q++) {
        /* a box */
        float x = 70.0f * wl_unit(&r) - 5.0f, y = 70.0f * wl_unit(&r) - 5.0f;
        sepax_aabb box = {{x, y}, {x + 8.0f * wl_unit(&r), y + 8.0f * wl_unit(&r)}};
        size_t count;
        cr_assert_eq(sepax_broadphase_query_aabb(bp, s, box, ids, n, &count), SEPAX_OK);
        cr_assert(in_grid_order(pos, ids, count), "box query %d: not in grid order", q);
        size_t nw = brute_box(s, every, n, box, NULL, NULL, want);
        qsort(ids, count, sizeof *ids, cmp_u32);
        cr_assert_eq(count, nw, "box query %d: %zu, brute force %zu", q, count, nw);
        cr_assert(memcmp(ids, want, nw * sizeof *ids) == 0, "box query %d differs", q);
        found += nw;
        /* a shape */
        uint32_t probe = every[(uint32_t)wl_range(&r, 0, (int)n - 1)];
        float margin = q % 3 == 0 ? 0.3f : 0.0f;
        cr_assert_eq(sepax_broadphase_query_shape(bp, s, probe, margin, ids, n, &count), SEPAX_OK);
        cr_assert(in_grid_order(pos, ids, count), "shape query %d: not in grid order", q);
        sepax_query_options o = {.margin = margin};
        nw = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (every[i] == probe || !filters_pass(s, probe, every[i])) continue;
            sepax_pair p = {probe, every[i]};
            uint8_t h;
            sepax_overlap_opt(s, &p, 1, &o, &h);
            if (h) want[nw++] = every[i];
        }
        qsort(ids, count, sizeof *ids, cmp_u32);
        cr_assert_eq(count, nw, "shape query %d: %zu, brute force %zu", q, count, nw);
        cr_assert(memcmp(ids, want, nw * sizeof *ids) == 0, "shape query %d differs", q);
        /* a ray: short, long, axis-aligned, from outside the field */
        sepax_ray ray = {{80.0f * wl_unit(&r) - 10.0f, 80.0f * wl_unit(&r) - 10.0f},
                         {40.0f * wl_unit(&r) - 20.0f, 40.0f * wl_unit(&r) - 20.0f},
                         q % 4 == 0 ? 5.0f : 1.0f};
        if (q % 5 == 1) ray.direction.y = 0.0f;
        if (q % 7 == 2) ray.direction = (sepax_vec2){0.0f, 0.0f};
        cr_assert_eq(sepax_broadphase_query_ray(bp, s, &ray, ids, hits, n, &count), SEPAX_OK);
        cr_assert(in_grid_order(pos, ids, count), "ray query %d: not in grid order", q);
        nw = brute_ray(s, every, n, ray, NULL, NULL, rays, all);
        cr_assert_eq(count, nw, "ray query %d: %zu, brute force %zu", q, count, nw);
        for (size_t k = 0; k < count; k++) {
            uint32_t i = ids[k] & SEPAX_ID_INDEX_MASK;
            cr_assert(memcmp(&hits[k], &all[i], sizeof hits[k]) == 0, "ray query %d: hit differs",
                      q);
        }
    }
    cr_assert(found > 500, "only %zu box results", found);
    /* capacity: each query writes the first `capacity` results of its full answer, and
     * nothing past them, and reports the total */
    sepax_aabb big = {{-100.0f, -100.0f}, {100.0f, 100.0f}};
    sepax_ray across = {{-100.0f, 30.3f}, {200.0f, 0.1f}, 1.0f};
    size_t count, full;
    enum { CAP = 10 };
    uint32_t *ids2 = malloc(n * sizeof *ids2);
    sepax_ray_hit *hits2 = malloc(n * sizeof *hits2);
    cr_assert(ids2 && hits2);
    for (int query = 0; query < 3; query++) {
        memset(ids, 0x5a, n * sizeof *ids);
        memset(hits, 0x5a, n * sizeof *hits);
        memset(ids2, 0x5a, n * sizeof *ids2);
        memset(hits2, 0x5a, n * sizeof *hits2);
        sepax_status st_full, st_cap;
        if (query == 0) {
            st_full = sepax_broadphase_query_aabb(bp, s, big, ids2, n, &full);
            st_cap = sepax_broadphase_query_aabb(bp, s, big, ids, CAP, &count);
        } else if (query == 1) {
            uint32_t probe = sepax_shapes_id(s, n / 2);
            st_full = sepax_broadphase_query_shape(bp, s, probe, 40.0f, ids2, n, &full);
            st_cap = sepax_broadphase_query_shape(bp, s, probe, 40.0f, ids, CAP, &count);
        } else {
            st_full = sepax_broadphase_query_ray(bp, s, &across, ids2, hits2, n, &full);
            st_cap = sepax_broadphase_query_ray(bp, s, &across, ids, hits, CAP, &count);
        }
        cr_assert_eq(st_full, SEPAX_OK, "query %d", query);
        cr_assert(full > CAP, "query %d: only %zu results", query, full);
        cr_assert_eq(st_cap, SEPAX_ERR_CAPACITY, "query %d", query);
        cr_assert_eq(count, full, "query %d: count %zu, the total %zu", query, count, full);
        cr_assert(memcmp(ids, ids2, CAP * sizeof *ids) == 0, "query %d: not the first ids", query);
        for (size_t k = CAP * sizeof *ids; k < n * sizeof *ids; k++)
            cr_assert_eq(((unsigned char *)ids)[k], 0x5a, "query %d: wrote past capacity", query);
        if (query == 2) {
            cr_assert(memcmp(hits, hits2, CAP * sizeof *hits) == 0, "ray: not the first hits");
            for (size_t k = CAP * sizeof *hits; k < n * sizeof *hits; k++)
                cr_assert_eq(((unsigned char *)hits)[k], 0x5a, "ray: a hit past capacity");
        }
    }
    free(ids2);
    free(hits2);
    free(ids);
    free(want);
    free(hits);
    free(all);
    free(every);
    free(rays);
    free(grid);
    free(pos);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* The box and ray queries with filters against brute force (the shapes in the box, or those
 * sepax_raycast hits, whose filters meet the query's), in grid order, over 150 queries; a
 * filter that meets every shape must give the unfiltered answer, one that meets none nothing.
 * Returns how many results the filtered queries gave. */
static size_t expect_filtered_queries(const sepax_broadphase *bp, const sepax_shapes *s,
                                      uint64_t seed, const char *what) {
    uint32_t n = sepax_shapes_count(s);
    uint32_t *grid = malloc(n * sizeof *grid), *pos = malloc(n * sizeof *pos);
    uint32_t *ids = malloc(n * sizeof *ids), *plain = malloc(n * sizeof *plain);
    uint32_t *want = malloc(n * sizeof *want), *every = malloc(n * sizeof *every);
    sepax_ray_hit *hits = malloc(n * sizeof *hits), *all = malloc(n * sizeof *all);
    sepax_ray_hit *plain_hits = malloc(n * sizeof *plain_hits);
    sepax_ray *rays = malloc(n * sizeof *rays);
    sepax_filter *shape_filter = malloc(n * sizeof *shape_filter);
    cr_assert(grid && pos && ids && plain && want && every && hits && all && plain_hits && rays &&
              shape_filter);
    cr_assert_eq(sepax_broadphase_order(bp, s, grid, n), SEPAX_OK);
    for (uint32_t k = 0; k < n; k++) pos[grid[k]] = k;
    for (uint32_t i = 0; i < n; i++) {
        every[i] = sepax_shapes_id(s, i);
        cr_assert_eq(sepax_shapes_get_filter(s, every[i], &shape_filter[i]), SEPAX_OK);
    }
    wl_rng r = {seed};
    size_t found = 0;
    for (int q = 0; q < 150; q++) {
        uint32_t roll = (uint32_t)wl_range(&r, 0, 9);
        sepax_filter f = {1u << (uint32_t)wl_range(&r, 0, 12), (uint32_t)wl_next(&r)};
        if (roll == 0) f = (sepax_filter){0xffffffffu, 0xffffffffu}; /* meets every shape */
        if (roll == 1) f = (sepax_filter){0u, 0xffffffffu};          /* meets none */
        if (roll == 2) f.mask = 0x5u;
        float x = 70.0f * wl_unit(&r) - 5.0f, y = 70.0f * wl_unit(&r) - 5.0f;
        sepax_aabb box = {{x, y}, {x + 12.0f * wl_unit(&r), y + 12.0f * wl_unit(&r)}};
        size_t count = 0, np = 0;
        cr_assert_eq(sepax_broadphase_query_aabb_filtered(bp, s, box, &f, ids, n, &count),
                     SEPAX_OK);
        cr_assert(in_grid_order(pos, ids, count), "%s, box %d: not in grid order", what, q);
        size_t nw = brute_box(s, every, n, box, &f, shape_filter, want);
        if (roll == 0) {
            cr_assert_eq(sepax_broadphase_query_aabb(bp, s, box, plain, n, &np), SEPAX_OK);
            cr_assert(np == count && memcmp(plain, ids, count * sizeof *ids) == 0,
                      "%s, box %d: a filter meeting all is not the unfiltered query", what, q);
        }
        if (roll == 1) cr_assert_eq(count, 0, "%s, box %d: a filter meeting none", what, q);
        qsort(ids, count, sizeof *ids, cmp_u32);
        cr_assert_eq(count, nw, "%s, box %d: %zu, brute force %zu", what, q, count, nw);
        cr_assert(memcmp(ids, want, nw * sizeof *ids) == 0, "%s, box %d differs", what, q);
        found += count;
        sepax_ray ray = {{80.0f * wl_unit(&r) - 10.0f, 80.0f * wl_unit(&r) - 10.0f},
                         {40.0f * wl_unit(&r) - 20.0f, 40.0f * wl_unit(&r) - 20.0f},
                         q % 4 == 0 ? 5.0f : 1.0f};
        if (q % 5 == 1) ray.direction.y = 0.0f;
        cr_assert_eq(sepax_broadphase_query_ray_filtered(bp, s, &ray, &f, ids, hits, n, &count),
                     SEPAX_OK);
        cr_assert(in_grid_order(pos, ids, count), "%s, ray %d: not in grid order", what, q);
        nw = brute_ray(s, every, n, ray, &f, shape_filter, rays, all);
        cr_assert_eq(count, nw, "%s, ray %d: %zu, brute force %zu", what, q, count, nw);
        for (size_t k = 0; k < count; k++) {
            uint32_t i = ids[k] & SEPAX_ID_INDEX_MASK;
            cr_assert(query_meets(&f, shape_filter[i]),
                      "%s, ray %d: a shape the filter does not meet", what, q);
            cr_assert(memcmp(&hits[k], &all[i], sizeof hits[k]) == 0, "%s, ray %d: hit differs",
                      what, q);
        }
        if (roll == 0) {
            cr_assert_eq(sepax_broadphase_query_ray(bp, s, &ray, plain, plain_hits, n, &np),
                         SEPAX_OK);
            cr_assert(np == count && memcmp(plain, ids, count * sizeof *ids) == 0 &&
                          memcmp(plain_hits, hits, count * sizeof *hits) == 0,
                      "%s, ray %d: a filter meeting all is not the unfiltered query", what, q);
        }
        found += count;
    }
    free(grid);
    free(pos);
    free(ids);
    free(plain);
    free(want);
    free(every);
    free(hits);
    free(all);
    free(plain_hits);
    free(rays);
    free(shape_filter);
    return found;
}

Test(broadphase, filtered_queries_match_brute_force) {
    /* four filter groups (make_store's), then about 2,500 distinct filters: more than the
     * grid groups, so each box's filter is tested and no group is skipped */
    sepax_shapes *s = make_store(2500, 47, 10);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    size_t found = expect_filtered_queries(bp, s, 91, "four groups");
    cr_expect(found > 300, "four groups: only %zu results", found);
    uint32_t n = sepax_shapes_count(s);
    wl_rng r = {17};
    sepax_filter *f = malloc(n * sizeof *f);
    cr_assert(f);
    for (uint32_t i = 0; i < n; i++)
        f[i] = (sepax_filter){1u << (i % 12), (uint32_t)wl_next(&r) | 1u};
    cr_assert_eq(sepax_shapes_set_filters(s, 0, n, f), SEPAX_OK);
    free(f);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    found = expect_filtered_queries(bp, s, 92, "ungrouped filters");
    cr_expect(found > 300, "ungrouped filters: only %zu results", found);
    /* capacity: the first `capacity` results of the full answer, nothing written past them */
    sepax_filter all = {0xffffffffu, 0xffffffffu};
    sepax_aabb big = {{-100.0f, -100.0f}, {100.0f, 100.0f}};
    sepax_ray across = {{-100.0f, 30.3f}, {200.0f, 0.1f}, 1.0f};
    uint32_t *full = malloc(n * sizeof *full), *ids = malloc(n * sizeof *ids);
    sepax_ray_hit *full_hits = malloc(n * sizeof *full_hits), *hits = malloc(n * sizeof *hits);
    cr_assert(full && ids && full_hits && hits);
    for (int query = 0; query < 2; query++) {
        enum { CAP = 7 };
        size_t total = 0, count = 0;
        memset(ids, 0x5a, n * sizeof *ids);
        memset(hits, 0x5a, n * sizeof *hits);
        sepax_status st_full, st_cap;
        if (query == 0) {
            st_full = sepax_broadphase_query_aabb_filtered(bp, s, big, &all, full, n, &total);
            st_cap = sepax_broadphase_query_aabb_filtered(bp, s, big, &all, ids, CAP, &count);
        } else {
            st_full = sepax_broadphase_query_ray_filtered(bp, s, &across, &all, full, full_hits, n,
                                                          &total);
            st_cap =
                sepax_broadphase_query_ray_filtered(bp, s, &across, &all, ids, hits, CAP, &count);
        }
        cr_assert_eq(st_full, SEPAX_OK, "query %d", query);
        cr_assert(total > CAP, "query %d: only %zu results", query, total);
        cr_assert_eq(st_cap, SEPAX_ERR_CAPACITY, "query %d", query);
        cr_assert_eq(count, total, "query %d: count %zu, the total %zu", query, count, total);
        cr_assert(memcmp(ids, full, CAP * sizeof *ids) == 0, "query %d: not the first ids", query);
        cr_assert(all_bytes(ids + CAP, (n - CAP) * sizeof *ids, 0x5a), "query %d: past capacity",
                  query);
        if (query == 1) {
            cr_assert(memcmp(hits, full_hits, CAP * sizeof *hits) == 0, "not the first hits");
            cr_assert(all_bytes(hits + CAP, (n - CAP) * sizeof *hits, 0x5a), "a hit past capacity");
        }
    }
    free(full);
    free(ids);
    free(full_hits);
    free(hits);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* ---- bad input ------------------------------------------------------------------------ */

/* An allocator for the broadphase's configs. */
static void *plain_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void plain_free(void *p, void *ctx) {
    (void)ctx;
    free(p);
}

Test(broadphase, contract) {
    sepax_shapes *s = make_store(100, 51, 1);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    sepax_pair pairs[4096];
    sepax_hit hits[4096];
    sepax_manifold mans[64];
    size_t count = 99;
    /* every refusal below leaves the output arrays as they are (checked after them) */
    memset(pairs, 0xA5, sizeof pairs);
    memset(hits, 0xA5, sizeof hits);
    memset(mans, 0xA5, sizeof mans);
    sepax_frame_options o = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, 0};
    sepax_contacts out = {pairs, hits, mans, 64};
    cr_assert_eq(sepax_find_contacts(NULL, s, &o, &out, &count), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_find_contacts(bp, NULL, &o, &out, &count), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_find_contacts(bp, s, NULL, &out, &count), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_find_contacts(bp, s, &o, NULL, &count), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, NULL), SEPAX_ERR_NULL);
    cr_assert_eq(count, 99, "count written on error");
    sepax_frame_options bad = o;
    bad.test = 4;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_BAD_OPTION);
    bad.test = -1;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_BAD_OPTION);
    bad = o;
    bad.update = SEPAX_UPDATE_LAZY + 1;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_BAD_OPTION);
    bad.update = -1;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_BAD_OPTION);
    bad = o;
    bad.margin = NAN;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_NONFINITE);
    bad.margin = 2e18f;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_RANGE);
    /* the first floats past the limit, each side (a limit that drifted up would take them) */
    const float past = nextafterf(SEPAX_COORD_LIMIT, INFINITY);
    bad.margin = -past;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_RANGE);
    bad = o;
    bad.cell_size = INFINITY;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_NONFINITE);
    bad.cell_size = -1.0f;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_RANGE);
    bad.cell_size = 2e18f;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_RANGE);
    bad.cell_size = past;
    cr_assert_eq(sepax_find_contacts(bp, s, &bad, &out, &count), SEPAX_ERR_RANGE);
    cr_assert_eq(count, 99, "count written on error");
    /* the grid alone checks its cell size the same way */
    cr_assert_eq(sepax_broadphase_build(NULL, s, 0.0f), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_broadphase_build(bp, NULL, 0.0f), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_broadphase_build(bp, s, NAN), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_broadphase_build(bp, s, -INFINITY), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_broadphase_build(bp, s, -1.0f), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_broadphase_build(bp, s, 2e18f), SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_broadphase_build(bp, s, past), SEPAX_ERR_RANGE);
    /* the arrays the test needs */
    sepax_contacts no_hits = {pairs, NULL, NULL, 64};
    sepax_frame_options col = {SEPAX_TEST_COLLIDE, 0.0f, 0.0f, 0};
    cr_assert_eq(sepax_find_contacts(bp, s, &col, &no_hits, &count), SEPAX_ERR_NULL);
    col.test = SEPAX_TEST_MANIFOLD;
    cr_assert_eq(sepax_find_contacts(bp, s, &col, &no_hits, &count), SEPAX_ERR_NULL);
    sepax_contacts skew = {(sepax_pair *)(void *)((char *)pairs + 1), NULL, NULL, 64};
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &skew, &count), SEPAX_ERR_MISALIGNED);
    /* NULL pairs with room for some; the hits and manifolds misaligned, each for its test */
    sepax_contacts no_pairs = {NULL, hits, mans, 64};
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &no_pairs, &count), SEPAX_ERR_NULL);
    col.test = SEPAX_TEST_COLLIDE;
    sepax_contacts skew_hits = {pairs, (sepax_hit *)(void *)((char *)hits + 1), mans, 64};
    cr_assert_eq(sepax_find_contacts(bp, s, &col, &skew_hits, &count), SEPAX_ERR_MISALIGNED);
    col.test = SEPAX_TEST_MANIFOLD;
    sepax_contacts skew_mans = {pairs, hits, (sepax_manifold *)(void *)((char *)mans + 2), 64};
    cr_assert_eq(sepax_find_contacts(bp, s, &col, &skew_mans, &count), SEPAX_ERR_MISALIGNED);
    /* the options before the arrays the test needs (which those are depends on the test) */
    sepax_frame_options nan_col = {SEPAX_TEST_COLLIDE, NAN, 0.0f, 0};
    cr_assert_eq(sepax_find_contacts(bp, s, &nan_col, &no_hits, &count), SEPAX_ERR_NONFINITE);
    nan_col.test = 7;
    cr_assert_eq(sepax_find_contacts(bp, s, &nan_col, &no_pairs, &count), SEPAX_ERR_BAD_OPTION);
    /* every refusal so far left every array as it was (the frame below writes pairs) */
    cr_assert(all_bytes(pairs, sizeof pairs, 0xA5) && all_bytes(hits, sizeof hits, 0xA5) &&
                  all_bytes(mans, sizeof mans, 0xA5),
              "a refusal wrote an output array");
    /* the hits a test does not need may be anything */
    sepax_contacts skew_unused = {pairs, (sepax_hit *)(void *)((char *)hits + 1), NULL, 4096};
    size_t found = 0;
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &skew_unused, &found), SEPAX_OK);
    cr_assert(found > 0, "no contacts to write");
    cr_assert(all_bytes(hits, sizeof hits, 0xA5), "hits written by an overlap frame");
    cr_assert_eq(count, 99, "count written on error");
    cr_assert(all_bytes(pairs + found, sizeof pairs - found * sizeof *pairs, 0xA5),
              "pairs written past the results");
    memset(pairs, 0xA5, sizeof pairs);
    /* each refusal again, now checking the arrays after it */
    const sepax_contacts *refused[] = {&no_hits, &skew, &no_pairs, &skew_hits, &skew_mans};
    const int test_of[] = {SEPAX_TEST_COLLIDE, SEPAX_TEST_OVERLAP, SEPAX_TEST_OVERLAP,
                           SEPAX_TEST_COLLIDE, SEPAX_TEST_MANIFOLD};
    for (int k = 0; k < 5; k++) {
        sepax_frame_options t = o;
        t.test = test_of[k];
        cr_assert_neq(sepax_find_contacts(bp, s, &t, refused[k], &count), SEPAX_OK);
        cr_assert_eq(count, 99, "refusal %d wrote the count", k);
        cr_assert(all_bytes(pairs, sizeof pairs, 0xA5) && all_bytes(hits, sizeof hits, 0xA5) &&
                      all_bytes(mans, sizeof mans, 0xA5),
                  "refusal %d wrote an output array", k);
    }
    /* a cell size given: the same contacts as the chosen one */
    sepax_contacts big = {pairs, hits, NULL, 4096};
    size_t n1, n2;
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &big, &n1), SEPAX_OK);
    sepax_frame_options cell = o;
    cell.cell_size = 0.01f; /* tiny: most shapes large, the grid widened to its budget */
    cr_assert_eq(sepax_find_contacts(bp, s, &cell, &big, &n2), SEPAX_OK);
    cr_assert_eq(n1, n2);
    cell.cell_size = 1000.0f; /* one cell */
    cr_assert_eq(sepax_find_contacts(bp, s, &cell, &big, &n2), SEPAX_OK);
    cr_assert_eq(n1, n2);
    /* configs */
    sepax_broadphase_config many = {SEPAX_MAX_WORKERS + 1, NULL, NULL, 0};
    cr_assert_null(sepax_broadphase_create(&many));
    sepax_scheduler none = {NULL, 2, NULL};
    sepax_broadphase_config nosched = {0, &none, NULL, 0};
    cr_assert_null(sepax_broadphase_create(&nosched));
    sepax_scheduler zero = {backwards_for, 0, NULL};
    sepax_broadphase_config zerow = {0, &zero, NULL, 0};
    cr_assert_null(sepax_broadphase_create(&zerow));
    sepax_allocator half = {NULL, NULL, NULL};
    sepax_broadphase_config noalloc = {0, NULL, &half, 0};
    cr_assert_null(sepax_broadphase_create(&noalloc));
    sepax_allocator no_free = {plain_alloc, NULL, NULL}, no_alloc = {NULL, plain_free, NULL};
    sepax_allocator both = {plain_alloc, plain_free, NULL};
    sepax_broadphase_config c1 = {0, NULL, &no_free, 0}, c2 = {0, NULL, &no_alloc, 0},
                            c3 = {0, NULL, &both, 0};
    cr_assert_null(sepax_broadphase_create(&c1));
    cr_assert_null(sepax_broadphase_create(&c2));
    sepax_broadphase *with = sepax_broadphase_create(&c3); /* the same allocator, whole */
    cr_assert_not_null(with);
    sepax_broadphase_destroy(with);
    sepax_broadphase_destroy(NULL);
    /* filters */
    uint32_t nshapes = sepax_shapes_count(s);
    sepax_filter *kept = malloc(nshapes * sizeof *kept);
    cr_assert(kept);
    for (uint32_t i = 0; i < nshapes; i++)
        cr_assert_eq(sepax_shapes_get_filter(s, sepax_shapes_id(s, i), &kept[i]), SEPAX_OK);
    sepax_filter f = {1, 1};
    cr_assert_eq(sepax_shapes_set_filters(NULL, 0, 1, &f), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_shapes_set_filters(s, 0, 1, NULL), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_shapes_set_filters(s, sepax_shapes_count(s), 1, &f), SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_shapes_set_filters(s, 0, 0, NULL), SEPAX_OK);
    cr_assert_eq(sepax_shapes_get_filter(s, sepax_shapes_count(s), &f), SEPAX_ERR_BAD_ID);
    sepax_filter fs[3] = {{2, 2}, {4, 4}, {8, 8}};
    sepax_filter *skewf = (sepax_filter *)(void *)((char *)fs + 1);
    cr_assert_eq(sepax_shapes_set_filters(s, 0, 2, skewf), SEPAX_ERR_MISALIGNED);
    cr_assert_eq(sepax_shapes_set_filters(s, sepax_shapes_count(s) - 1, 2, fs), SEPAX_ERR_BAD_ID);
    /* no filter stored by a refused call */
    for (uint32_t i = 0; i < nshapes; i++) {
        sepax_filter g = {0, 0};
        cr_assert_eq(sepax_shapes_get_filter(s, sepax_shapes_id(s, i), &g), SEPAX_OK);
        cr_assert(g.category == kept[i].category && g.mask == kept[i].mask,
                  "shape %u's filter changed by a refused call", i);
    }
    free(kept);
    /* queries */
    sepax_aabb nanbox = {{NAN, 0.0f}, {1.0f, 1.0f}};
    uint32_t ids[8];
    cr_assert_eq(sepax_broadphase_query_aabb(bp, s, nanbox, ids, 8, &count), SEPAX_ERR_NONFINITE);
    sepax_aabb far = {{-3e18f, 0.0f}, {1.0f, 1.0f}};
    cr_assert_eq(sepax_broadphase_query_aabb(bp, s, far, ids, 8, &count), SEPAX_ERR_RANGE);
    for (int corner = 0; corner < 4; corner++) { /* each corner's coordinate just past */
        sepax_aabb b = {{-1.0f, -1.0f}, {1.0f, 1.0f}};
        float *f = corner == 0   ? &b.lower.x
                   : corner == 1 ? &b.lower.y
                   : corner == 2 ? &b.upper.x
                                 : &b.upper.y;
        *f = corner < 2 ? -past : past;
        cr_assert_eq(sepax_broadphase_query_aabb(bp, s, b, ids, 8, &count), SEPAX_ERR_RANGE,
                     "corner %d", corner);
    }
    cr_assert_eq(sepax_broadphase_query_shape(bp, s, 100000, 0.0f, ids, 8, &count),
                 SEPAX_ERR_BAD_ID);
    sepax_ray nanray = {{0.0f, 0.0f}, {NAN, 1.0f}, 1.0f};
    sepax_ray_hit rh[8];
    cr_assert_eq(sepax_broadphase_query_ray(bp, s, &nanray, ids, rh, 8, &count),
                 SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_broadphase_query_ray(bp, s, NULL, ids, rh, 8, &count), SEPAX_ERR_NULL);
    /* a removed probe is STALE_ID, and a refused query writes nothing */
    uint32_t gone = sepax_shapes_id(s, 5);
    cr_assert_eq(sepax_shapes_remove(s, gone, NULL), SEPAX_OK);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    memset(ids, 0xA5, sizeof ids);
    memset(rh, 0xA5, sizeof rh);
    count = 99;
    cr_assert_eq(sepax_broadphase_query_shape(bp, s, gone, 0.0f, ids, 8, &count),
                 SEPAX_ERR_STALE_ID);
    cr_assert_eq(sepax_broadphase_query_shape(bp, s, 100000, 0.0f, ids, 8, &count),
                 SEPAX_ERR_BAD_ID);
    /* the probe before its margin (the header's order), then the margin's own statuses */
    cr_assert_eq(sepax_broadphase_query_shape(bp, s, 100000, NAN, ids, 8, &count),
                 SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_broadphase_query_shape(bp, s, sepax_shapes_id(s, 0), NAN, ids, 8, &count),
                 SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_broadphase_query_shape(bp, s, sepax_shapes_id(s, 0), 2e18f, ids, 8, &count),
                 SEPAX_ERR_RANGE);
    cr_assert_eq(sepax_broadphase_query_ray(bp, s, &nanray, ids, rh, 8, &count),
                 SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_broadphase_query_aabb(bp, s, nanbox, ids, 8, &count), SEPAX_ERR_NONFINITE);
    cr_assert_eq(count, 99, "count written by a refused query");
    for (size_t i = 0; i < sizeof ids; i++)
        cr_assert_eq(((uint8_t *)ids)[i], 0xA5, "ids written by a refused query");
    for (size_t i = 0; i < sizeof rh; i++)
        cr_assert_eq(((uint8_t *)rh)[i], 0xA5, "ray hits written by a refused query");
    cr_assert_eq(sepax_broadphase_stats_get(NULL, NULL), SEPAX_ERR_NULL);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* A caller's scheduler that counts its calls and the empty ones among them. */
typedef struct call_count {
    unsigned calls, empty;
} call_count;

static void counting_for(sepax_task_fn *fn, uint32_t count, void *ctx, void *user) {
    call_count *c = user;
    c->calls++;
    c->empty += count == 0;
    if (count) fn(0, count, 0, ctx);
}

/* sepax.h promises a caller's scheduler no call with count 0 (a job system may assert
 * against one; a review found an empty store's frame making them): every test and update
 * mode, posed or not, and a grid build, on an empty store, then on one with shapes. */
Test(broadphase, no_empty_task_calls) {
    sepax_shapes *none = sepax_shapes_create(0), *some = make_store(200, 79, 8);
    call_count c = {0, 0};
    sepax_scheduler sched = {counting_for, 2, &c};
    /* min_parallel_shapes 1: the per-shape steps go through the scheduler too */
    sepax_broadphase_config cfg = {0, &sched, NULL, 1};
    sepax_broadphase *bp = sepax_broadphase_create(&cfg);
    cr_assert(bp);
    sepax_pair pairs[4096];
    sepax_hit hits[4096];
    sepax_manifold mans[4096];
    sepax_contacts out = {pairs, hits, mans, 4096};
    sepax_pose poses[1] = {{{0.0f, 0.0f}, {1.0f, 0.0f}}};
    for (int st = 0; st < 2; st++) {
        sepax_shapes *s = st ? some : none;
        for (int test = SEPAX_TEST_AABB; test <= SEPAX_TEST_MANIFOLD; test++)
            for (int u = SEPAX_UPDATE_NONE; u <= SEPAX_UPDATE_LAZY; u++) {
                sepax_frame_options o = {test, 0.0f, 0.0f, u};
                size_t count = 7;
                sepax_status got = sepax_find_contacts(bp, s, &o, &out, &count);
                /* no update after a lazy frame: only the bounds' test may run */
                cr_assert(got == SEPAX_OK ||
                              (u == SEPAX_UPDATE_NONE && got == SEPAX_ERR_STALE_WORLD),
                          "test %d update %d: %s", test, u, sepax_status_str(got));
                if (!st) {
                    cr_assert_eq(count, got == SEPAX_OK ? 0u : 7u);
                    cr_assert_eq(sepax_find_contacts_posed(bp, s, 0, sepax_shapes_count(s), poses,
                                                           &o, &out, &count),
                                 got);
                }
            }
        cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
        cr_assert_eq(c.empty, 0, "%u of %u scheduler calls had no items (%s store)", c.empty,
                     c.calls, st ? "a filled" : "an empty");
    }
    cr_assert_gt(c.calls, 0, "the scheduler never ran");
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(none);
    sepax_shapes_destroy(some);
}

/* An unbuilt grid is no grid: its queries refuse (SEPAX_ERR_NO_GRID), writing nothing; an
 * empty store's grid is one, with nothing in it. */
Test(broadphase, empty) {
    sepax_shapes *s = sepax_shapes_create(0);
    sepax_broadphase_config cfg = {2, NULL, NULL, 1};
    sepax_broadphase *bp = sepax_broadphase_create(&cfg);
    uint32_t ids[4];
    size_t count = 7;
    sepax_aabb box = {{0, 0}, {1, 1}};
    cr_assert_eq(sepax_broadphase_query_aabb(bp, s, box, ids, 4, &count), SEPAX_ERR_NO_GRID);
    cr_assert_eq(count, 7, "count written by a refused query");
    sepax_frame_options o = {SEPAX_TEST_MANIFOLD, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
    sepax_contacts out = {NULL, NULL, NULL, 0};
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_OK);
    cr_assert_eq(count, 0);
    count = 7;
    cr_assert_eq(sepax_broadphase_query_aabb(bp, s, box, ids, 4, &count), SEPAX_OK);
    cr_assert_eq(count, 0);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* ---- out of memory ------------------------------------------------------------------- */

typedef struct budget {
    int left; /* allocations still allowed */
} budget;

static void *budget_alloc(size_t size, size_t align, void *ctx) {
    budget *b = ctx;
    if (b->left <= 0) return NULL;
    b->left--;
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void budget_free(void *p, void *ctx) {
    (void)ctx;
    free(p);
}

/* frame(), its output arrays and *count filled with a pattern first: a refusal other than
 * SEPAX_ERR_CAPACITY must leave all of them as they were (the contract's "untouched"). */
static result_set frame_guarded(sepax_broadphase *bp, sepax_shapes *s, int test, size_t cap,
                                sepax_status *st) {
    result_set r = {malloc((cap + 1) * sizeof(sepax_pair)), malloc((cap + 1) * sizeof(sepax_hit)),
                    malloc((cap + 1) * sizeof(sepax_manifold)), 0};
    cr_assert(r.pairs && r.hits && r.mans);
    memset(r.pairs, 0xA5, (cap + 1) * sizeof(sepax_pair));
    memset(r.hits, 0xA5, (cap + 1) * sizeof(sepax_hit));
    memset(r.mans, 0xA5, (cap + 1) * sizeof(sepax_manifold));
    const size_t unset = (size_t)0x5A5A5A5A;
    r.n = unset;
    sepax_frame_options o = {test, 0.0f, 0.0f, 0};
    sepax_contacts out = {r.pairs, r.hits, r.mans, cap};
    *st = sepax_find_contacts(bp, s, &o, &out, &r.n);
    if (*st != SEPAX_OK && *st != SEPAX_ERR_CAPACITY) {
        cr_assert_eq(r.n, unset, "%s: *count written (%zu)", sepax_status_str(*st), r.n);
        const unsigned char *bytes[3] = {(const void *)r.pairs, (const void *)r.hits,
                                         (const void *)r.mans};
        const size_t size[3] = {sizeof(sepax_pair), sizeof(sepax_hit), sizeof(sepax_manifold)};
        for (int a = 0; a < 3; a++)
            for (size_t k = 0; k < (cap + 1) * size[a]; k++)
                cr_assert_eq(bytes[a][k], 0xA5, "%s: output array %d written at byte %zu",
                             sepax_status_str(*st), a, k);
        r.n = 0;
    }
    return r;
}

/* Every allocation the broadphase makes fails in turn: creation returns NULL or the frame
 * SEPAX_ERR_NOMEM with *count and the output arrays untouched (a review found *count written
 * when the results' arrays could not grow), nothing crashes or leaks (valgrind and ASan run
 * this), and once memory is there the frame finds what an unconstrained one finds. */
Test(broadphase, out_of_memory) {
    sepax_shapes *s = make_store(3000, 71, 8);
    sepax_broadphase *ref = sepax_broadphase_create(NULL);
    result_set want = frame_ok(ref, s, SEPAX_TEST_COLLIDE, 0.0f);
    int succeeded = 0;
    for (int allowed = 0; allowed < 200 && !succeeded; allowed++) {
        budget b = {allowed};
        sepax_allocator mem = {budget_alloc, budget_free, &b};
        sepax_broadphase_config cfg = {2, NULL, &mem, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&cfg);
        if (!bp) continue;
        sepax_status st;
        result_set got = frame_guarded(bp, s, SEPAX_TEST_COLLIDE, want.n + 8, &st);
        cr_assert(st == SEPAX_OK || st == SEPAX_ERR_NOMEM, "%d allocations: %s", allowed,
                  sepax_status_str(st));
        if (st == SEPAX_OK) {
            expect_identical(got, want, SEPAX_TEST_COLLIDE, "after NOMEM retries");
            succeeded = 1;
        } else {
            b.left = 1000; /* the same broadphase recovers once memory is back */
            free_set(&got);
            got = frame(bp, s, SEPAX_TEST_COLLIDE, 0.0f, want.n + 8, &st);
            cr_assert_eq(st, SEPAX_OK);
            expect_identical(got, want, SEPAX_TEST_COLLIDE, "recovered");
        }
        free_set(&got);
        sepax_broadphase_destroy(bp);
    }
    cr_assert(succeeded, "no budget under 200 allocations was enough");
    free_set(&want);
    sepax_broadphase_destroy(ref);
    sepax_shapes_destroy(s);
}

/* A build that fails leaves no grid, and the queries say so (SEPAX_ERR_NO_GRID, nothing
 * written) instead of answering from nothing: a review found them returning SEPAX_OK with no
 * results for a store of 1,100 shapes after the grid's growth ran out of memory. Once memory
 * is back, a build answers again. */
Test(broadphase, failed_build_leaves_no_grid) {
    sepax_shapes *s = make_store(100, 73, 8);
    budget b = {1000};
    sepax_allocator mem = {budget_alloc, budget_free, &b};
    sepax_broadphase_config cfg = {1, NULL, &mem, 1};
    sepax_broadphase *bp = sepax_broadphase_create(&cfg);
    cr_assert(bp);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    uint32_t ids[4096];
    sepax_ray_hit hits[4096];
    size_t count = 0;
    sepax_aabb box = {{-1e17f, -1e17f}, {1e17f, 1e17f}}; /* every shape */
    cr_assert_eq(sepax_broadphase_query_aabb(bp, s, box, ids, 4096, &count), SEPAX_OK);
    cr_assert_eq(count, sepax_shapes_count(s));
    sepax_shapes *big = make_store(3000, 74, 8); /* the grid must grow for it */
    b.left = 0;
    cr_assert_eq(sepax_broadphase_build(bp, big, 0.0f), SEPAX_ERR_NOMEM);
    /* NULL before the missing grid (sepax_broadphase_order's order) */
    cr_assert_eq(sepax_broadphase_order(bp, big, NULL, 5), SEPAX_ERR_NULL);
    memset(ids, 0xA5, sizeof ids);
    memset(hits, 0xA5, sizeof hits);
    count = 99;
    sepax_ray ray = {{-1e5f, 0.5f}, {2e5f, 0.0f}, 1.0f};
    cr_assert_eq(sepax_broadphase_query_aabb(bp, big, box, ids, 4096, &count), SEPAX_ERR_NO_GRID);
    cr_assert_eq(sepax_broadphase_query_shape(bp, big, 0, 0.0f, ids, 4096, &count),
                 SEPAX_ERR_NO_GRID);
    cr_assert_eq(sepax_broadphase_query_ray(bp, big, &ray, ids, hits, 4096, &count),
                 SEPAX_ERR_NO_GRID);
    uint32_t nbig = sepax_shapes_count(big), *order = malloc(nbig * sizeof *order);
    cr_assert(order && nbig <= 4096);
    cr_assert_eq(sepax_broadphase_order(bp, big, order, nbig), SEPAX_ERR_NO_GRID);
    cr_assert_eq(count, 99, "count written by a refused query");
    for (size_t i = 0; i < sizeof ids; i++)
        cr_assert_eq(((uint8_t *)ids)[i], 0xA5, "ids written by a refused query");
    cr_assert(all_bytes(hits, sizeof hits, 0xA5), "hits written by a refused query");
    b.left = 1000;
    cr_assert_eq(sepax_broadphase_build(bp, big, 0.0f), SEPAX_OK);
    cr_assert_eq(sepax_broadphase_query_aabb(bp, big, box, ids, 4096, &count), SEPAX_OK);
    cr_assert_eq(count, sepax_shapes_count(big));
    cr_assert_eq(sepax_broadphase_order(bp, big, order, nbig), SEPAX_OK);
    free(order);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(big);
    sepax_shapes_destroy(s);
}

/* An allocator that counts the bytes it has handed out and not taken back. */
typedef struct counted {
    size_t live;
} counted;

static void *counted_alloc(size_t size, size_t align, void *ctx) {
    size_t *at = aligned_alloc(64, 64 + (size + 63) / 64 * 64);
    if (!at) return NULL;
    (void)align;
    *at = size;
    ((counted *)ctx)->live += size;
    return (char *)at + 64;
}

static void counted_free(void *p, void *ctx) {
    if (!p) return;
    size_t *at = (size_t *)(void *)((char *)p - 64);
    ((counted *)ctx)->live -= *at;
    free(at);
}

/* sepax_broadphase_stats.bytes is the memory the broadphase holds: exactly what its
 * allocator has handed it, after frames of every test, on one thread and on two. */
Test(broadphase, stats_bytes_are_what_it_holds) {
    sepax_shapes *s = make_store(3000, 81, 8);
    for (uint32_t threads = 1; threads <= 2; threads++) {
        counted c = {0};
        sepax_allocator mem = {counted_alloc, counted_free, &c};
        sepax_broadphase_config cfg = {threads, NULL, &mem, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&cfg);
        cr_assert(bp);
        const int tests[] = {SEPAX_TEST_OVERLAP, SEPAX_TEST_COLLIDE, SEPAX_TEST_MANIFOLD};
        for (size_t t = 0; t < 3; t++) {
            sepax_status st;
            result_set r = frame(bp, s, tests[t], 0.0f, 1u << 16, &st);
            cr_assert_eq(st, SEPAX_OK);
            free_set(&r);
            sepax_broadphase_stats stats;
            cr_assert_eq(sepax_broadphase_stats_get(bp, &stats), SEPAX_OK);
            cr_expect_eq(stats.bytes, c.live, "%u threads, test %d: stats say %zu, it holds %zu",
                         threads, tests[t], stats.bytes, c.live);
        }
        sepax_broadphase_destroy(bp);
        cr_expect_eq(c.live, 0, "%zu bytes left after destroy", c.live);
    }
    sepax_shapes_destroy(s);
}

/* The kernels' range test over a list of runs (the frame passes an owner's runs in one call)
 * against brute force, on every kernel copy the tests link, emulated ones included: runs of
 * every length, empty ones, starts off the vector width, boxes that touch exactly. */
static uint64_t runs_rng(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* N sorted boxes for the kernels' tests, padded like the grid's columns: integer corners in
 * 0 .. span - 1 (exact touching is common), sides up to 5, filters of 4 categories. */
enum { BOXES_N = 700, BOXES_PAD = 8 };
typedef struct test_boxes {
    float lox[BOXES_N + BOXES_PAD], loy[BOXES_N + BOXES_PAD];
    float hix[BOXES_N + BOXES_PAD], hiy[BOXES_N + BOXES_PAD];
    uint32_t cat[BOXES_N + BOXES_PAD], mask[BOXES_N + BOXES_PAD];
    uint32_t sid[BOXES_N + BOXES_PAD]; /* ids that are no position's own: 1000003 p + 17 */
} test_boxes;

static sepax_box_soa random_boxes(test_boxes *b, uint64_t seed, uint32_t span) {
    uint64_t g = seed;
    for (int i = 0; i < BOXES_N; i++) {
        b->lox[i] = (float)(runs_rng(&g) % span);
        b->loy[i] = (float)(runs_rng(&g) % span);
        b->hix[i] = b->lox[i] + (float)(runs_rng(&g) % 6);
        b->hiy[i] = b->loy[i] + (float)(runs_rng(&g) % 6);
        b->cat[i] = 1u << (runs_rng(&g) % 4);
        b->mask[i] = (uint32_t)(runs_rng(&g) % 16);
        b->sid[i] = 1000003u * (uint32_t)i + 17u;
    }
    sepax_box_soa soa = {b->lox, b->loy, b->hix, b->hiy, b->cat, b->mask, b->sid};
    return soa;
}

Test(broadphase, range_test_over_several_runs) {
    enum { N = BOXES_N, PAD = BOXES_PAD };
    static test_boxes boxes;
    sepax_box_soa soa = random_boxes(&boxes, 7, 40);
    const float *lox = boxes.lox, *loy = boxes.loy, *hix = boxes.hix, *hiy = boxes.hiy;
    const uint32_t *cat = boxes.cat, *mask = boxes.mask;
    int kernels = 0;
    for (int ki = 0; ki < test_kernel_count(); ki++) {
        const test_kernel *t = test_kernel_at(ki);
        if (!t->runnable) continue;
        kernels++;
        uint64_t h = 11;
        for (int round = 0; round < 2000; round++) {
            float x = (float)(runs_rng(&h) % 40), y = (float)(runs_rng(&h) % 40);
            sepax_box_probe probe = {x,
                                     y,
                                     x + (float)(runs_rng(&h) % 8),
                                     y + (float)(runs_rng(&h) % 8),
                                     1u << (runs_rng(&h) % 4),
                                     (uint32_t)(runs_rng(&h) % 16),
                                     (uint32_t)(runs_rng(&h) % 2),
                                     0};
            uint32_t runs[8], nruns = 1 + (uint32_t)(runs_rng(&h) % 4), total = 0;
            for (uint32_t r = 0; r < nruns; r++) {
                uint32_t len = (uint32_t)(runs_rng(&h) % 64);
                uint32_t begin = (uint32_t)(runs_rng(&h) % (N - len + 1));
                runs[2 * r] = begin;
                runs[2 * r + 1] = begin + len;
                total += len;
            }
            uint32_t want[BP_PIECE], got[BP_PIECE + PAD];
            size_t nwant = 0;
            for (uint32_t r = 0; r < nruns; r++)
                for (uint32_t j = runs[2 * r]; j < runs[2 * r + 1]; j++) {
                    int box = probe.hix >= lox[j] && hix[j] >= probe.lox && probe.hiy >= loy[j] &&
                              hiy[j] >= probe.loy;
                    int filter =
                        !probe.filter || ((probe.cat & mask[j]) != 0 && (cat[j] & probe.mask) != 0);
                    if (box && filter) want[nwant++] = j;
                }
            cr_assert(total <= BP_PIECE);
            size_t n = t->k->box_run(&soa, runs, nruns, &probe, got);
            cr_assert_eq(n, nwant, "%s, round %d: %zu positions, brute force %zu", t->name, round,
                         n, nwant);
            for (size_t i = 0; i < n; i++)
                cr_assert_eq(got[i], want[i], "%s, round %d, position %zu: %u, brute force %u",
                             t->name, round, i, got[i], want[i]);
        }
    }
    cr_assert(kernels >= 2);
}

/* The kernels' cell test (a cell's owners against two runs, the first only past each owner)
 * against brute force on every kernel copy the tests link: owners at and off the vector
 * width, empty runs, a first run that starts at the first owner or before it, with and
 * without the filter test, boxes that touch exactly; the ids it writes are those of the
 * positions found (sid), not the positions. */
Test(broadphase, cell_test_of_several_owners) {
    enum { N = BOXES_N, PAD = BOXES_PAD, MAXOUT = 8 * 128 + PAD };
    static test_boxes boxes;
    sepax_box_soa soa = random_boxes(&boxes, 5, 30);
    const float *lox = boxes.lox, *loy = boxes.loy, *hix = boxes.hix, *hiy = boxes.hiy;
    const uint32_t *cat = boxes.cat, *mask = boxes.mask;
    static uint32_t want[MAXOUT], got[MAXOUT], want_own[MAXOUT], got_own[MAXOUT];
    int kernels = 0;
    size_t found = 0;
    for (int ki = 0; ki < test_kernel_count(); ki++) {
        const test_kernel *t = test_kernel_at(ki);
        if (!t->runnable) continue;
        kernels++;
        uint64_t h = 13;
        for (int round = 0; round < 2000; round++) {
            uint32_t owners = 1 + (uint32_t)(runs_rng(&h) % 8);
            uint32_t len0 = (uint32_t)(runs_rng(&h) % 40), len1 = (uint32_t)(runs_rng(&h) % 50);
            uint32_t before = (uint32_t)(runs_rng(&h) % 3); /* the first run may start earlier */
            uint32_t first = before + (uint32_t)(runs_rng(&h) % (N / 2));
            uint32_t runs[4] = {first - before, first + owners + len0, 0, 0};
            runs[2] = (uint32_t)(runs_rng(&h) % (N - len1 + 1));
            runs[3] = runs[2] + len1;
            int filter = (int)(runs_rng(&h) % 2);
            size_t nwant = 0;
            for (uint32_t k = 0; k < owners; k++) {
                uint32_t p = first + k;
                for (int r = 0; r < 2; r++)
                    for (uint32_t j = runs[2 * r]; j < runs[2 * r + 1]; j++) {
                        if (r == 0 && j <= p) continue;
                        int box = hix[p] >= lox[j] && hix[j] >= lox[p] && hiy[p] >= loy[j] &&
                                  hiy[j] >= loy[p];
                        int pass = !filter || ((cat[p] & mask[j]) != 0 && (cat[j] & mask[p]) != 0);
                        if (box && pass) {
                            want_own[nwant] = boxes.sid[p];
                            want[nwant++] = boxes.sid[j];
                        }
                    }
            }
            /* the room the kernel is promised, then a canary it must not touch */
            uint32_t room = owners * (runs[1] - runs[0] + len1) + PAD;
            cr_assert(room <= MAXOUT);
            for (uint32_t i = room; i < MAXOUT; i++) got[i] = got_own[i] = 0xc0ffee00u + i;
            size_t n = t->k->box_cell(&soa, first, owners, runs, filter, got, got_own);
            for (uint32_t i = room; i < MAXOUT; i++) {
                cr_assert_eq(got[i], 0xc0ffee00u + i, "%s, round %d: wrote past its room at %u",
                             t->name, round, i);
                cr_assert_eq(got_own[i], 0xc0ffee00u + i,
                             "%s, round %d: wrote owners past their room at %u", t->name, round, i);
            }
            cr_assert_eq(n, nwant, "%s, round %d: %zu ids, brute force %zu", t->name, round, n,
                         nwant);
            for (size_t i = 0; i < n; i++) {
                cr_assert_eq(got[i], want[i], "%s, round %d, id %zu: %u, brute force %u", t->name,
                             round, i, got[i], want[i]);
                cr_assert_eq(got_own[i], want_own[i],
                             "%s, round %d, position %zu: owner %u, brute force %u", t->name, round,
                             i, got_own[i], want_own[i]);
            }
            found += n;
        }
    }
    cr_assert(kernels >= 2);
    cr_assert(found > 1000, "the boxes should meet often: %zu", found);
}

/* A coordinate for the grid build's tests: small and huge, exact integers and fractions,
 * both zeros (the slack of a box at the origin is 0, so -0 survives growing). */
static float build_coord(uint64_t *h) {
    uint64_t r = runs_rng(h);
    switch (r % 6) {
    case 0: return (r >> 8) % 2 ? -0.0f : 0.0f;
    case 1: return (float)((int)((r >> 8) % 2001) - 1000);
    case 2: return ((float)((r >> 8) % 1000001) - 500000.0f) / 997.0f;
    case 3: return ((float)((r >> 8) % 2000001) - 1000000.0f) * 0.999f;
    default: return ((float)((r >> 8) % 100001) - 50000.0f) / 64.0f;
    }
}

/* The grid build's passes on every kernel copy the tests link against the scalar rules
 * grid.c keeps for its tail (sepax_grid_slack, then the grown box, its extent against the
 * limit, and sepax_grid_cell): every entry and key bit for bit, the tally as the scalar
 * running minimum and maximum find it. */
Test(broadphase, build_passes_match_the_scalar_rules) {
    enum { BLOCKS = 40, N = BLOCKS * SEPAX_BLOCK_LANES };
    static sepax_aabb_block aabb[BLOCKS];
    static sepax_filter filter[N];
    static bp_box want[N];
    static _Alignas(64) bp_box got[N]; /* as the broadphase's: streamed entries need it */
    static uint32_t want_key[N], got_key[N];
    /* the filters most shapes take: both zeros among them, which the recent two may be too */
    static const sepax_filter pool[4] = {{0u, 0u}, {1u, 0xfffffffeu}, {2u, 0xfffffffdu}, {1u, 2u}};
    int kernels = 0;
    for (int ki = 0; ki < test_kernel_count(); ki++) {
        const test_kernel *t = test_kernel_at(ki);
        if (!t->runnable) continue;
        kernels++;
        uint64_t h = 17;
        for (int round = 0; round < 200; round++) {
            for (uint32_t i = 0; i < N; i++) {
                sepax_aabb_block *a = &aabb[i / SEPAX_BLOCK_LANES];
                uint32_t l = i % SEPAX_BLOCK_LANES;
                float x = build_coord(&h), y = build_coord(&h);
                float w = runs_rng(&h) % 4 ? (float)(runs_rng(&h) % 9) / 4.0f : build_coord(&h);
                float hgt = runs_rng(&h) % 4 ? (float)(runs_rng(&h) % 9) / 4.0f : 0.0f;
                a->minx[l] = x;
                a->miny[l] = y;
                a->maxx[l] = w >= 0.0f ? x + w : x; /* a box, never upside down */
                a->maxy[l] = y + hgt;
                /* mostly a few filters, as a game's (the recent two among them), some anything */
                filter[i] = runs_rng(&h) % 5
                                ? pool[runs_rng(&h) % 4]
                                : (sepax_filter){(uint32_t)runs_rng(&h), (uint32_t)runs_rng(&h)};
            }
            bp_recent recent;
            for (int q = 0; q < 2; q++) {
                sepax_filter f = pool[runs_rng(&h) % 4];
                memcpy(&recent.f[q], &f, sizeof f);
            }
            float grow = round % 3 ? (float)(runs_rng(&h) % 5) / 8.0f : 0.0f;
            float limit = (float)(runs_rng(&h) % 12) / 4.0f;
            const float below[2] = {ldexpf(1.0f, (int)(runs_rng(&h) % 8) - 4),
                                    ldexpf(1.0f, (int)(runs_rng(&h) % 8) - 3)};
            uint32_t first = (uint32_t)(runs_rng(&h) % 4), blocks = (uint32_t)(runs_rng(&h) % 37);
            /* the scalar rules, shape by shape */
            float cell = 0.0f, minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
            uint32_t nsmall = 0, nbelow[2] = {0, 0};
            for (uint32_t i = first * SEPAX_BLOCK_LANES; i < (first + blocks) * SEPAX_BLOCK_LANES;
                 i++) {
                const sepax_aabb_block *a = &aabb[i / SEPAX_BLOCK_LANES];
                uint32_t l = i % SEPAX_BLOCK_LANES;
                float lx = a->minx[l], ly = a->miny[l], hx = a->maxx[l], hy = a->maxy[l];
                float slack = sepax_grid_slack(lx, ly, hx, hy);
                lx = lx - grow - slack;
                ly = ly - grow - slack;
                hx = hx + slack;
                hy = hy + slack;
                float ew = hx - lx, eh = hy - ly, e = ew > eh ? ew : eh;
                memset(&want[i], 0, sizeof want[i]);
                want[i] = (bp_box){lx, ly, hx, hy, filter[i], e, 0};
                want_key[i] = e > limit ? UINT32_MAX : 0;
                nbelow[0] += e < below[0];
                nbelow[1] += e < below[1];
                if (e > limit) continue;
                nsmall++;
                cell = e > cell ? e : cell;
                minx = lx < minx ? lx : minx;
                miny = ly < miny ? ly : miny;
                maxx = lx > maxx ? lx : maxx;
                maxy = ly > maxy ? ly : maxy;
            }
            memset(got, 0xa5, sizeof got);
            memset(got_key, 0xa5, sizeof got_key);
            bp_tally tally;
            bp_lanes lanes[BLOCKS + 1];
            memset(lanes, 0xa5, sizeof lanes);
            /* stored through the caches or around them: the same entries */
            t->k->grid_boxes(aabb, filter, first, blocks, grow, limit, below, got, got_key, &tally,
                             &recent, lanes, round % 2);
            /* each block's lanes: filters equal to the recent two, bit for bit, and large keys */
            for (uint32_t j = 0; j <= blocks; j++) {
                if (j == blocks) { /* past its blocks: untouched */
                    cr_assert(lanes[j].eq0 == 0xa5 && lanes[j].eq1 == 0xa5 &&
                                  lanes[j].large == 0xa5,
                              "%s, round %d: lanes written past the blocks", t->name, round);
                    break;
                }
                unsigned eq0 = 0, eq1 = 0, large = 0;
                for (uint32_t l = 0; l < SEPAX_BLOCK_LANES; l++) {
                    uint32_t i = (first + j) * SEPAX_BLOCK_LANES + l;
                    uint64_t f;
                    memcpy(&f, &filter[i], sizeof f);
                    eq0 |= (unsigned)(f == recent.f[0]) << l;
                    eq1 |= (unsigned)(f == recent.f[1]) << l;
                    large |= (unsigned)(want_key[i] != 0) << l;
                }
                cr_assert(lanes[j].eq0 == eq0 && lanes[j].eq1 == eq1 && lanes[j].large == large,
                          "%s, round %d, block %u: lanes %02x %02x %02x, scalar %02x %02x %02x",
                          t->name, round, j, lanes[j].eq0, lanes[j].eq1, lanes[j].large, eq0, eq1,
                          large);
            }
            for (uint32_t i = 0; i < N; i++) {
                int in = i >= first * SEPAX_BLOCK_LANES && i < (first + blocks) * SEPAX_BLOCK_LANES;
                if (!in) { /* outside its blocks: untouched */
                    uint8_t canary[sizeof got[i]];
                    memset(canary, 0xa5, sizeof canary);
                    cr_assert(memcmp(&got[i], canary, sizeof canary) == 0 &&
                                  got_key[i] == 0xa5a5a5a5u,
                              "%s, round %d: wrote shape %u outside its blocks", t->name, round, i);
                    continue;
                }
                cr_assert(memcmp(&got[i], &want[i], sizeof want[i]) == 0,
                          "%s, round %d, shape %u: entry (%a %a %a %a, ext %a), scalar (%a %a %a "
                          "%a, ext %a)",
                          t->name, round, i, (double)got[i].lx, (double)got[i].ly,
                          (double)got[i].hx, (double)got[i].hy, (double)got[i].ext,
                          (double)want[i].lx, (double)want[i].ly, (double)want[i].hx,
                          (double)want[i].hy, (double)want[i].ext);
                cr_assert_eq(got_key[i], want_key[i], "%s, round %d, shape %u: key %x, scalar %x",
                             t->name, round, i, got_key[i], want_key[i]);
            }
            cr_assert_eq(tally.nsmall, nsmall, "%s, round %d", t->name, round);
            cr_assert(tally.below[0] == nbelow[0] && tally.below[1] == nbelow[1],
                      "%s, round %d: %u and %u extents below the bounds, scalar %u and %u", t->name,
                      round, tally.below[0], tally.below[1], nbelow[0], nbelow[1]);
            /* == rather than bits: the lanes may meet +0 and -0 in another order */
            cr_assert(tally.cell == cell && tally.minx == minx && tally.miny == miny &&
                          tally.maxx == maxx && tally.maxy == maxy,
                      "%s, round %d: tally %a %a %a %a %a, scalar %a %a %a %a %a", t->name, round,
                      (double)tally.cell, (double)tally.minx, (double)tally.miny,
                      (double)tally.maxx, (double)tally.maxy, (double)cell, (double)minx,
                      (double)miny, (double)maxx, (double)maxy);

            /* the cells, over a range at any offset, and the large shapes' key */
            bp_geometry g = {(double)build_coord(&h),
                             (double)build_coord(&h),
                             1.0 / (0.25 + (double)(runs_rng(&h) % 40)),
                             0,
                             0,
                             1 + (uint32_t)(runs_rng(&h) % 300),
                             (uint32_t)runs_rng(&h)};
            g.lastx = (double)(g.nx - 1);
            g.lasty = (double)(runs_rng(&h) % 300);
            uint32_t i0 = (uint32_t)(runs_rng(&h) % N),
                     i1 = i0 + (uint32_t)(runs_rng(&h) % (N - i0 + 1));
            for (uint32_t i = 0; i < N; i++) {
                want_key[i] = got_key[i] = runs_rng(&h) % 5 ? (uint32_t)i : UINT32_MAX;
                want[i] = (bp_box){build_coord(&h), build_coord(&h), 0, 0, {0, 0}, 0, 0};
                /* corners no valid store holds: the rule still says where they go (NaN: 0) */
                static const float odd[4] = {NAN, -NAN, INFINITY, -INFINITY};
                if (runs_rng(&h) % 16 == 0) want[i].lx = odd[runs_rng(&h) % 4];
                if (runs_rng(&h) % 16 == 0) want[i].ly = odd[runs_rng(&h) % 4];
            }
            for (uint32_t i = i0; i < i1; i++)
                want_key[i] = want_key[i] == UINT32_MAX
                                  ? g.large
                                  : sepax_grid_cell(want[i].lx, want[i].ly, &g);
            t->k->grid_cells(want, i0, i1, &g, got_key);
            for (uint32_t i = 0; i < N; i++)
                cr_assert_eq(got_key[i], want_key[i],
                             "%s, round %d, shape %u (range %u .. %u): cell %u, scalar %u", t->name,
                             round, i, i0, i1, got_key[i], want_key[i]);

            /* the columns: entries gathered by ids (generation bits set) at any positions */
            static uint32_t sid[N];
            static float col[4][N + 1];
            static uint32_t fcol[2][N + 1];
            for (uint32_t i = 0; i < N; i++) {
                want[i] = (bp_box){build_coord(&h),
                                   build_coord(&h),
                                   build_coord(&h),
                                   build_coord(&h),
                                   {(uint32_t)runs_rng(&h), (uint32_t)runs_rng(&h)},
                                   0,
                                   0};
                sid[i] = (uint32_t)(runs_rng(&h) % N) | (uint32_t)(runs_rng(&h) % 256) << 24;
            }
            memset(col, 0xa5, sizeof col);
            memset(fcol, 0xa5, sizeof fcol);
            const bp_columns out = {col[0], col[1], col[2], col[3], fcol[0], fcol[1]};
            t->k->grid_columns(want, sid, i0, i1, &out);
            for (uint32_t p = 0; p <= N; p++) {
                const bp_box *e = &want[sid[p < N ? p : 0] & SEPAX_ID_INDEX_MASK];
                float wf[4] = {e->lx, e->ly, e->hx, e->hy};
                uint32_t wu[2] = {e->f.category, e->f.mask};
                int in = p >= i0 && p < i1;
                for (int c = 0; c < 6; c++) {
                    uint32_t bits, want_bits = 0xa5a5a5a5u;
                    if (c < 4)
                        memcpy(&bits, &col[c][p], sizeof bits);
                    else
                        bits = fcol[c - 4][p];
                    if (in && c < 4) memcpy(&want_bits, &wf[c], sizeof want_bits);
                    if (in && c >= 4) want_bits = wu[c - 4];
                    cr_assert_eq(bits, want_bits,
                                 "%s, round %d, position %u (range %u .. %u), column %d: %08x, "
                                 "want %08x",
                                 t->name, round, p, i0, i1, c, bits, want_bits);
                }
            }
        }
    }
    cr_assert(kernels >= 2);
}

/* A build of more than one part (BP_BUILD_SHAPES shapes each) whose parts meet the same
 * filters in other orders: each part numbers its filters as it meets them, and its table
 * must take each one to the grid's group. On one thread and on two, against the pairs of a
 * frame with no filters (one group, no table) whose filters pass: brute force would list
 * 3 * 10^8 pairs. */
Test(broadphase, filters_met_in_another_order_in_each_part) {
    sepax_shapes *s = make_store(3 * BP_BUILD_SHAPES, 67, 6);
    uint32_t n = sepax_shapes_count(s);
    cr_assert(n > 2 * BP_BUILD_SHAPES);
    /* player 1, enemies 2, player shots 4, enemy shots 8 */
    const sepax_filter kinds[4] = {{1, 2 | 8}, {2, 1 | 4}, {4, 2}, {8, 1}};
    const int order[3][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}};
    sepax_filter *f = malloc(n * sizeof *f);
    for (uint32_t i = 0; i < n; i++) f[i] = (sepax_filter){1, 0xffffffffu};
    cr_assert_eq(sepax_shapes_set_filters(s, 0, n, f), SEPAX_OK);
    sepax_broadphase *one = sepax_broadphase_create(NULL);
    cr_assert(one);
    result_set all = frame_ok(one, s, SEPAX_TEST_OVERLAP, 0.0f);
    sepax_broadphase_destroy(one);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t part = i / BP_BUILD_SHAPES, k = i % BP_BUILD_SHAPES;
        uint32_t which = k < 4 ? k : (k * 7u) % 11u % 4u; /* each part's order first */
        f[i] = kinds[order[part < 3 ? part : 2][which]];
    }
    cr_assert_eq(sepax_shapes_set_filters(s, 0, n, f), SEPAX_OK);
    result_set want = all;
    want.n = 0;
    for (size_t k = 0; k < all.n; k++)
        if (filters_pass(s, all.pairs[k].a, all.pairs[k].b)) want.pairs[want.n++] = all.pairs[k];
    cr_assert(want.n > 100 && want.n < all.n, "%zu of %zu contacts pass", want.n, all.n);
    qsort(want.pairs, want.n, sizeof *want.pairs, cmp_pair); /* brute force's order */
    for (uint32_t threads = 1; threads <= 2; threads++) {
        sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&cfg);
        cr_assert(bp);
        result_set got = frame_ok(bp, s, SEPAX_TEST_OVERLAP, 0.0f);
        expect_same_set(s, got, want, SEPAX_TEST_OVERLAP, "filters in another order per part");
        free_set(&got);
        sepax_broadphase_destroy(bp);
    }
    free_set(&all);
    free(f);
    sepax_shapes_destroy(s);
}

/* Shapes so small near the origin that the narrowphase's squared distances underflow take
 * its fallback axis, (1, 0), and may be called touching when a gap apart in y (README,
 * "Limit"): the grid's boxes grow by at least 2^-62, so the frame finds every pair the
 * pair queries do. Before, two circles 1e-23 apart were a hit to sepax_overlap and no
 * candidate of the frame. Since the closest-vertices axis is taken from the vector scaled by
 * 2^64 where its square is subnormal (2026-11-30), only coordinates near 1e-38 and below
 * (subnormal ones) still reach the fallback. */
Test(broadphase, tiny_shapes_as_the_pair_queries) {
    const float scale[] = {1e-18f, 1e-19f, 1e-20f, 1e-21f, 1e-22f, 1e-23f,
                           1e-25f, 1e-30f, 1e-37f, 1e-39f, 1e-41f};
    int hits = 0;
    for (size_t k = 0; k < sizeof scale / sizeof scale[0]; k++) {
        float d = scale[k];
        sepax_shapes *s = sepax_shapes_create(64);
        wl_rng r = {k + 5};
        for (int i = 0; i < 40; i++) { /* pairs of circles a gap of about d apart in y */
            uint32_t id;
            float x = d * 40.0f * (float)(i / 2), y = (i % 2) ? d * (0.5f + wl_unit(&r)) : 0.0f;
            cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){x, y}, d * 0.1f, &id), SEPAX_OK);
        }
        cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
        sepax_broadphase *bp = sepax_broadphase_create(NULL);
        for (int test = SEPAX_TEST_OVERLAP; test <= SEPAX_TEST_MANIFOLD; test++) {
            result_set want = brute(s, test, 0.0f), got = frame_ok(bp, s, test, 0.0f);
            char what[64];
            snprintf(what, sizeof what, "circles %g apart, test %d", (double)d, test);
            expect_same_set(s, got, want, test, what);
            hits += (int)want.n;
            free_set(&want);
            free_set(&got);
        }
        sepax_broadphase_destroy(bp);
        sepax_shapes_destroy(s);
    }
    cr_expect(hits > 0, "no pair of tiny circles hit: the case is not exercised");
}

/* sepax_raycast errs by the ray's own scale (its origin and length in float), not the
 * shapes': the grid's walk pads the ray's path by 2^-20 of that scale, so a ray from far away
 * finds every shape sepax_raycast hits. Before, rays from 1e5 away past circles of radius
 * 0.001 differed in 178 of 200 casts. */
/* A long ray from far away over a field many rows tall: sepax_raycast's hits lie up to the
 * ray's padding off its exact path, which may be rows away from the rows that path crosses;
 * the query visited only those (5 of the 15 shapes listed). */
Test(broadphase, far_ray_over_many_rows) {
    sepax_shapes *s = sepax_shapes_create(128);
    uint32_t id[100];
    for (int i = 0; i < 100; i++) {
        cr_assert_eq(sepax_shapes_add_box(s, 1.0f, 1.0f, &id[i]), SEPAX_OK);
        sepax_pose p = {{5.0f + 10.0f * (float)(i / 10), 5.0f + 10.0f * (float)(i % 10)},
                        sepax_rot(0.1f * (float)i)};
        cr_assert_eq(sepax_shapes_set_poses(s, id[i], 1, &p), SEPAX_OK);
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    sepax_broadphase_stats bs;
    cr_assert_eq(sepax_broadphase_stats_get(bp, &bs), SEPAX_OK);
    cr_assert_gt(bs.cells_y, 8, "the field spans many rows (%u)", bs.cells_y);
    const sepax_ray ray = {{584943488.0f, 2227074.75f}, {-584943488.0f, -2227040.5f}, 1.03591073f};
    sepax_ray rays[100];
    sepax_ray_hit all[100], hits[100];
    uint32_t ids[100];
    for (int i = 0; i < 100; i++) rays[i] = ray;
    cr_assert_eq(sepax_raycast(s, rays, id, 100, all), SEPAX_OK);
    size_t count, want = 0;
    cr_assert_eq(sepax_broadphase_query_ray(bp, s, &ray, ids, hits, 100, &count), SEPAX_OK);
    for (int i = 0; i < 100; i++) {
        if (!all[i].hit) continue;
        want++;
        size_t j = 0;
        while (j < count && ids[j] != id[i]) j++;
        cr_expect(j < count, "box %d hit by sepax_raycast, not listed", i);
        if (j < count) cr_expect(memcmp(&hits[j], &all[i], sizeof all[i]) == 0, "box %d", i);
    }
    cr_expect(want > 10, "the ray crosses the field (%zu hits)", want);
    cr_expect_eq(count, want, "%zu listed, sepax_raycast hits %zu", count, want);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

Test(broadphase, far_rays_as_raycast) {
    sepax_shapes *s = sepax_shapes_create(2048);
    wl_rng r = {77};
    for (int i = 0; i < 2000; i++) {
        uint32_t id;
        sepax_vec2 c = {0.1f * wl_unit(&r), 0.1f * wl_unit(&r)};
        cr_assert_eq(sepax_shapes_add_circle(s, c, 0.001f, &id), SEPAX_OK);
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    uint32_t n = sepax_shapes_count(s), *every = malloc(n * sizeof *every);
    uint32_t *ids = malloc(n * sizeof *ids);
    sepax_ray_hit *all = malloc(n * sizeof *all), *hits = malloc(n * sizeof *hits);
    sepax_ray *rays = malloc(n * sizeof *rays); /* the query's ray once per shape */
    for (uint32_t i = 0; i < n; i++) every[i] = sepax_shapes_id(s, i);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    size_t found = 0;
    for (int q = 0; q < 300; q++) {
        double far = q % 3 == 0 ? 1e4 : q % 3 == 1 ? 1e5 : 1e6;
        double ang = 6.283185307179586 * wl_unit(&r);
        float ox = (float)(far * cos(ang)), oy = (float)(far * sin(ang));
        float tx = 0.1f * wl_unit(&r), ty = 0.1f * wl_unit(&r); /* a point in the field */
        sepax_ray ray = {{ox, oy}, {2.0f * (tx - ox), 2.0f * (ty - oy)}, 1.0f};
        for (uint32_t i = 0; i < n; i++) rays[i] = ray;
        cr_assert_eq(sepax_raycast(s, rays, every, n, all), SEPAX_OK);
        size_t count, want = 0;
        cr_assert_eq(sepax_broadphase_query_ray(bp, s, &ray, ids, hits, n, &count), SEPAX_OK);
        for (uint32_t i = 0; i < n; i++) {
            if (!all[i].hit) continue;
            want++;
            size_t j = 0;
            while (j < count && ids[j] != every[i]) j++;
            cr_assert(j < count, "ray %d from %g away: shape %u hit by sepax_raycast, not listed",
                      q, far, every[i]);
            cr_assert(memcmp(&hits[j], &all[i], sizeof all[i]) == 0, "ray %d: hit differs", q);
        }
        cr_assert_eq(count, want, "ray %d from %g away: %zu listed, sepax_raycast hits %zu", q, far,
                     count, want);
        found += want;
    }
    cr_expect(found > 300, "%zu hits in all: the rays should cross the field", found);
    sepax_broadphase_destroy(bp);
    free(every);
    free(ids);
    free(all);
    free(hits);
    free(rays);
    sepax_shapes_destroy(s);
}

/* ---- the closest hit ------------------------------------------------------------------ */

/* The closest hit by brute force: the ray against every shape the filter meets (NULL:
 * every shape), the least fraction, then the lowest index; SEPAX_NO_ID and a zero miss
 * when none. rays and all have room for every shape. */
static uint32_t closest_brute(const sepax_shapes *s, const sepax_ray *ray, const sepax_filter *f,
                              sepax_ray *rays, sepax_ray_hit *all, sepax_ray_hit *out) {
    uint32_t n = sepax_shapes_count(s), best = SEPAX_NO_ID;
    uint32_t *every = malloc((n ? n : 1) * sizeof *every);
    cr_assert(every);
    for (uint32_t i = 0; i < n; i++) {
        every[i] = sepax_shapes_id(s, i);
        rays[i] = *ray;
    }
    cr_assert_eq(sepax_raycast(s, rays, every, n, all), SEPAX_OK);
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < n; i++) {
        sepax_filter g;
        cr_assert_eq(sepax_shapes_get_filter(s, every[i], &g), SEPAX_OK);
        if (!all[i].hit || (f && !((f->category & g.mask) && (g.category & f->mask)))) continue;
        if (best == SEPAX_NO_ID || all[i].fraction < out->fraction) {
            best = every[i]; /* i ascending: a tie keeps the lower index */
            *out = all[i];
        }
    }
    free(every);
    return best;
}

/* Rays cast one call at a time and all in one call against brute force. */
static size_t expect_closest(const sepax_broadphase *bp, const sepax_shapes *s,
                             const sepax_ray *rays, const sepax_filter *filters, size_t nrays,
                             const char *what) {
    uint32_t n = sepax_shapes_count(s);
    sepax_ray *tmp = malloc(n * sizeof *tmp);
    sepax_ray_hit *all = malloc(n * sizeof *all), *hits = malloc(nrays * sizeof *hits);
    uint32_t *ids = malloc(nrays * sizeof *ids);
    cr_assert(tmp && all && hits && ids);
    memset(ids, 0x5a, nrays * sizeof *ids);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, filters, nrays, ids, hits),
                 SEPAX_OK);
    size_t found = 0;
    for (size_t q = 0; q < nrays; q++) {
        sepax_ray_hit want, one;
        uint32_t one_id,
            want_id = closest_brute(s, &rays[q], filters ? &filters[q] : NULL, tmp, all, &want);
        cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, &rays[q], filters ? &filters[q] : NULL,
                                                      1, &one_id, &one),
                     SEPAX_OK);
        cr_assert_eq(ids[q], want_id, "%s, ray %zu: shape %#x, brute force %#x", what, q, ids[q],
                     want_id);
        cr_assert(memcmp(&hits[q], &want, sizeof want) == 0, "%s, ray %zu: the hit differs", what,
                  q);
        cr_assert(one_id == ids[q] && memcmp(&one, &hits[q], sizeof one) == 0,
                  "%s, ray %zu: alone, not as in the batch", what, q);
        found += want_id != SEPAX_NO_ID;
    }
    free(tmp);
    free(all);
    free(hits);
    free(ids);
    return found;
}

Test(broadphase, closest_ray_hits_match_brute_force) {
    /* every kind, large walls, four filter groups, and exact ties: twins of shapes at the
     * same pose, the twin a higher index */
    sepax_shapes *s = make_store(2500, 43, 10);
    uint32_t base = sepax_shapes_count(s);
    wl_rng r = {321};
    for (int k = 0; k < 40; k++) {
        uint32_t id, twin;
        float half = 0.3f + 0.2f * wl_unit(&r);
        /* in a row above the field, where nothing else is near */
        sepax_pose p = {{1.5f * (float)k, 100.0f + wl_unit(&r)}, sepax_rot(wl_unit(&r))};
        cr_assert_eq(sepax_shapes_add_box(s, half, half, &id), SEPAX_OK);
        cr_assert_eq(sepax_shapes_add_box(s, half, half, &twin), SEPAX_OK);
        cr_assert_eq(sepax_shapes_set_poses(s, id, 1, &p), SEPAX_OK);
        cr_assert_eq(sepax_shapes_set_poses(s, twin, 1, &p), SEPAX_OK);
    }
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    enum { RAYS = 2000 };
    sepax_ray *rays = malloc(RAYS * sizeof *rays);
    sepax_filter *filters = malloc(RAYS * sizeof *filters);
    for (int q = 0; q < RAYS; q++) {
        /* short and long, every direction, axis-aligned, a point, from outside the field */
        sepax_ray ray = {{80.0f * wl_unit(&r) - 10.0f, 80.0f * wl_unit(&r) - 10.0f},
                         {40.0f * wl_unit(&r) - 20.0f, 40.0f * wl_unit(&r) - 20.0f},
                         q % 4 == 0   ? 5.0f
                         : q % 4 == 1 ? 0.1f
                                      : 1.0f};
        if (q % 5 == 1) ray.direction.y = 0.0f;
        if (q % 5 == 2) ray.direction.x = 0.0f;
        if (q % 11 == 3) ray.direction = (sepax_vec2){0.0f, 0.0f};
        if (q % 13 == 4) ray.max_fraction = 0.0f;
        rays[q] = ray;
        uint32_t roll = (uint32_t)wl_range(&r, 0, 7);
        filters[q] = (sepax_filter){roll == 0 ? 0xffffffffu : 1u << (roll & 3),
                                    roll >= 5 ? 0x5u : 0xffffffffu};
    }
    size_t found = expect_closest(bp, s, rays, NULL, RAYS, "unfiltered");
    cr_expect(found > RAYS / 2, "%zu of %d rays hit", found, RAYS);
    found = expect_closest(bp, s, rays, filters, RAYS, "filtered");
    cr_expect(found > RAYS / 3, "%zu of %d filtered rays hit", found, RAYS);
    /* the twins: a ray from just left of each pair, which hits the two at one fraction
     * (unless a neighbour is closer) and must name the lower index */
    uint32_t first_twins = 0;
    for (int k = 0; k < 40; k++) {
        uint32_t id = sepax_shapes_id(s, base + 2 * (uint32_t)k), got;
        sepax_aabb b;
        sepax_ray_hit h;
        cr_assert_eq(sepax_shapes_aabb(s, id, &b), SEPAX_OK);
        float cy = 0.5f * (b.lower.y + b.upper.y);
        rays[k] = (sepax_ray){{b.lower.x - 0.01f, cy}, {1.0f, 0.0f}, 1.0f};
        cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, &rays[k], NULL, 1, &got, &h),
                     SEPAX_OK);
        cr_assert_neq(got, sepax_shapes_id(s, base + 2 * (uint32_t)k + 1), "twin %d: the higher",
                      k);
        first_twins += got == id;
    }
    cr_expect_geq(first_twins, 38, "only %u rays met their twins first", first_twins);
    expect_closest(bp, s, rays, NULL, 40, "twins");
    /* dozens of distinct filters: too many for groups, so each box's filter is tested */
    uint32_t n = sepax_shapes_count(s);
    sepax_filter *f = malloc(n * sizeof *f);
    for (uint32_t i = 0; i < n; i++)
        f[i] = (sepax_filter){1u << (i % 12), (uint32_t)wl_next(&r) | 1u};
    cr_assert_eq(sepax_shapes_set_filters(s, 0, n, f), SEPAX_OK);
    free(f);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    for (int q = 0; q < RAYS; q++)
        filters[q] = (sepax_filter){1u << (q % 12), (uint32_t)wl_next(&r) | 1u};
    found = expect_closest(bp, s, rays, filters, RAYS, "dozens of filters");
    cr_expect(found > RAYS / 3, "%zu of %d rays hit", found, RAYS);
    free(rays);
    free(filters);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

Test(broadphase, closest_far_rays_and_strays_match_brute_force) {
    sepax_shapes *specks = sepax_shapes_create(2048);
    wl_rng r = {78};
    for (int i = 0; i < 2000; i++) {
        uint32_t id;
        sepax_vec2 c = {0.1f * wl_unit(&r), 0.1f * wl_unit(&r)};
        cr_assert_eq(sepax_shapes_add_circle(specks, c, 0.001f, &id), SEPAX_OK);
    }
    cr_assert_eq(sepax_shapes_update(specks), SEPAX_OK);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert_eq(sepax_broadphase_build(bp, specks, 0.0f), SEPAX_OK);
    enum { RAYS = 300 };
    sepax_ray rays[RAYS];
    for (int q = 0; q < RAYS; q++) {
        double far = q % 3 == 0 ? 1e4 : q % 3 == 1 ? 1e5 : 1e6;
        double ang = 6.283185307179586 * wl_unit(&r);
        float ox = (float)(far * cos(ang)), oy = (float)(far * sin(ang));
        float tx = 0.1f * wl_unit(&r), ty = 0.1f * wl_unit(&r);
        rays[q] = (sepax_ray){{ox, oy}, {2.0f * (tx - ox), 2.0f * (ty - oy)}, 1.0f};
    }
    size_t found = expect_closest(bp, specks, rays, NULL, RAYS, "far rays");
    cr_expect(found > RAYS / 4, "%zu of %d far rays hit", found, RAYS);
    sepax_shapes *s = field_and_strays(40);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    for (int q = 0; q < RAYS; q++) {
        float x = q % 2 ? 1e5f - 30.0f : -10.0f, y = q % 2 ? 1e5f + 5.0f * wl_unit(&r) : 0.0f;
        float tx = q % 2 ? 1e5f + 2000.0f * wl_unit(&r) : 60.0f * wl_unit(&r);
        float ty = q % 2 ? 1e5f + 10.0f * wl_unit(&r) : 60.0f * wl_unit(&r);
        rays[q] = (sepax_ray){{x, y}, {tx - x, ty - y}, q % 3 ? 1.0f : 2.0f};
    }
    found = expect_closest(bp, s, rays, NULL, RAYS, "strays");
    cr_expect(found > RAYS / 4, "%zu of %d rays hit", found, RAYS);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(specks);
    sepax_shapes_destroy(s);
}

/* Circles as wide as the grid lets a small shape be, so that many reach a cell past their
 * column and row (where the walk must still look for them), and rays every way through. */
Test(broadphase, closest_ray_through_shapes_as_wide_as_a_cell) {
    sepax_shapes *s = circle_store(6000, 0.6f, 1.8f, 93);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    /* the widest circles 2.16 across, their grown boxes just under a cell */
    cr_assert_eq(sepax_broadphase_build(bp, s, 2.2f), SEPAX_OK);
    sepax_broadphase_stats bs = stats_of(bp);
    cr_assert_eq(bs.large, 0, "%u large", bs.large);
    enum { RAYS = 3000 };
    sepax_ray *rays = malloc(RAYS * sizeof *rays);
    wl_rng r = {94};
    for (int q = 0; q < RAYS; q++) {
        float ang = 6.2831853f * wl_unit(&r), len = q % 2 ? 8.0f : 60.0f;
        rays[q] = (sepax_ray){{200.0f * wl_unit(&r), 200.0f * wl_unit(&r)},
                              {len * sepax_rot(ang).c, len * sepax_rot(ang).s},
                              1.0f};
    }
    size_t found = expect_closest(bp, s, rays, NULL, RAYS, "wide circles");
    cr_expect(found > RAYS / 2, "%zu of %d rays hit", found, RAYS);
    free(rays);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* The closest hit's refusals, each in the header's order, write nothing; n = 0 writes
 * nothing and needs no arrays. */
Test(broadphase, closest_ray_contract) {
    sepax_shapes *s = make_store(200, 52, 2);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    const sepax_ray good = {{-5.0f, 20.0f}, {80.0f, 1.0f}, 1.0f};
    _Alignas(64) sepax_ray rays[3] = {good, good, good};
    _Alignas(64) sepax_filter filters[4] = {{1, ~0u}, {1, ~0u}, {1, ~0u}, {1, ~0u}};
    _Alignas(64) uint32_t ids[4];
    _Alignas(64) sepax_ray_hit hits[4];
    memset(ids, 0xA5, sizeof ids);
    memset(hits, 0xA5, sizeof hits);
    /* no grid yet: checked last, after a bad ray */
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, NULL, 3, ids, hits),
                 SEPAX_ERR_NO_GRID);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, NULL, NULL, 0, NULL, NULL),
                 SEPAX_ERR_NO_GRID);
    cr_assert_eq(sepax_broadphase_build(bp, s, 0.0f), SEPAX_OK);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, NULL, NULL, 0, NULL, NULL), SEPAX_OK);
    cr_assert_eq(sepax_broadphase_raycast_closest(NULL, s, rays, NULL, 3, ids, hits),
                 SEPAX_ERR_NULL);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, NULL, rays, NULL, 3, ids, hits),
                 SEPAX_ERR_NULL);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, NULL, NULL, 3, ids, hits), SEPAX_ERR_NULL);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, NULL, 3, NULL, hits),
                 SEPAX_ERR_NULL);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, NULL, 3, ids, NULL), SEPAX_ERR_NULL);
    /* each array one byte off its alignment */
    const sepax_ray *odd_rays = (const sepax_ray *)(const void *)((const char *)rays + 1);
    const sepax_filter *odd_f = (const sepax_filter *)(const void *)((const char *)filters + 1);
    uint32_t *odd_ids = (uint32_t *)(void *)((char *)ids + 1);
    sepax_ray_hit *odd_hits = (sepax_ray_hit *)(void *)((char *)hits + 1);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, odd_rays, NULL, 2, ids, hits),
                 SEPAX_ERR_MISALIGNED);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, odd_f, 3, ids, hits),
                 SEPAX_ERR_MISALIGNED);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, NULL, 3, odd_ids, hits),
                 SEPAX_ERR_MISALIGNED);
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, NULL, 3, ids, odd_hits),
                 SEPAX_ERR_MISALIGNED);
    /* a count whose outputs' size overflows, refused before a ray is read */
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, NULL, SIZE_MAX / 8, ids, hits),
                 SEPAX_ERR_COUNT);
    /* the first bad ray's status, the good ones before it not cast */
    rays[1].direction.x = NAN;
    rays[2].origin.x = 3e18f;
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, filters, 3, ids, hits),
                 SEPAX_ERR_NONFINITE);
    rays[1] = good;
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, filters, 3, ids, hits),
                 SEPAX_ERR_RANGE);
    rays[2] = good;
    rays[2].max_fraction = -1.0f;
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, filters, 3, ids, hits),
                 SEPAX_ERR_RANGE);
    rays[2] = good;
    for (size_t i = 0; i < sizeof ids; i++)
        cr_assert_eq(((uint8_t *)ids)[i], 0xA5, "ids written by a refused call");
    for (size_t i = 0; i < sizeof hits; i++)
        cr_assert_eq(((uint8_t *)hits)[i], 0xA5, "hits written by a refused call");
    /* accepted: writes n answers and nothing past them; a ray that misses gets the miss */
    rays[2] = (sepax_ray){{-500.0f, -500.0f}, {0.0f, -1.0f}, 1.0f};
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, rays, filters, 3, ids, hits), SEPAX_OK);
    cr_assert_neq(ids[0], SEPAX_NO_ID, "the ray across the field hit nothing");
    cr_assert_eq(ids[2], SEPAX_NO_ID);
    sepax_ray_hit zero;
    memset(&zero, 0, sizeof zero);
    cr_assert(memcmp(&hits[2], &zero, sizeof zero) == 0, "a miss is all zeros");
    cr_assert_eq(ids[3], 0xA5A5A5A5u, "wrote past n");
    cr_assert(all_bytes(&hits[3], sizeof hits[3], 0xA5), "wrote a hit past n");
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}
