/* Reordering the store (sepax_shapes_reorder) and the grid's order (sepax_broadphase_order):
 * every shape keeps everything it had under its new id, every query gives the same bits on
 * every backend, moved shapes' old ids are refused, and a bad order changes nothing. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

#define MARK 0x5a

static uint32_t index_of(uint32_t id) { return id & SEPAX_ID_INDEX_MASK; }

/* An allocator that fails on demand (the reorder's scratch), and counts its calls. */
static int fail_alloc, alloc_calls;

static void *test_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    alloc_calls++;
    if (fail_alloc) return NULL;
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void test_free(void *p, void *ctx) {
    (void)ctx;
    free(p);
}

static sepax_shapes *mixed_store(uint32_t n, uint64_t seed) {
    sepax_allocator mem = {test_alloc, test_free, NULL};
    sepax_shapes *s = sepax_shapes_create_with(n, &mem);
    cr_assert(s);
    wl_config cfg = wl_default();
    cfg.shapes = n;
    cfg.kinds = WL_MIXED;
    cfg.seed = seed;
    cr_assert_eq(wl_fill_store(s, &cfg), SEPAX_OK);
    cr_assert_eq(wl_pose_randomly(s, seed + 1), SEPAX_OK);
    /* everyone's data and a few filters, so they must move too */
    for (uint32_t i = 0; i < n; i++) {
        uint64_t u = (uint64_t)i * 0x9e3779b97f4a7c15ull + seed;
        cr_assert_eq(sepax_shapes_set_user(s, i, 1, &u), SEPAX_OK);
    }
    for (uint32_t i = 0; i < n; i += 7) {
        sepax_filter f = {1u << (i % 5), ~0u ^ (1u << (i % 3))};
        cr_assert_eq(sepax_shapes_set_filters(s, i, 1, &f), SEPAX_OK);
    }
    return s;
}

/* What a shape shows through the API, as bytes to compare. */
typedef struct snapshot {
    sepax_local_shape local;
    sepax_pose pose;
    sepax_aabb box;
    sepax_filter filter;
    uint64_t user;
    wl_view_copy view;
} snapshot;

static snapshot snap(const sepax_shapes *s, uint32_t id) {
    snapshot o;
    memset(&o, 0, sizeof o);
    cr_assert_eq(sepax_shapes_local(s, id, &o.local), SEPAX_OK, "local of %#x", id);
    cr_assert_eq(sepax_shapes_get_pose(s, id, &o.pose), SEPAX_OK);
    cr_assert_eq(sepax_shapes_aabb(s, id, &o.box), SEPAX_OK);
    cr_assert_eq(sepax_shapes_get_filter(s, id, &o.filter), SEPAX_OK);
    cr_assert_eq(sepax_shapes_get_user(s, &id, 1, &o.user), SEPAX_OK);
    cr_assert_eq(wl_copy_view(s, id, &o.view), SEPAX_OK);
    return o;
}

static snapshot *snap_all(const sepax_shapes *s) {
    uint32_t n = sepax_shapes_count(s);
    snapshot *all = calloc(n, sizeof *all);
    cr_assert(all);
    for (uint32_t i = 0; i < n; i++) all[i] = snap(s, sepax_shapes_id(s, i));
    return all;
}

static void expect_unchanged(const sepax_shapes *s, const snapshot *before, uint32_t n) {
    cr_assert_eq(sepax_shapes_count(s), n);
    for (uint32_t i = 0; i < n; i++) {
        snapshot now = snap(s, sepax_shapes_id(s, i));
        cr_assert(memcmp(&now, &before[i], sizeof now) == 0, "shape %u changed", i);
    }
}

static void shuffle(uint32_t *order, uint32_t n, wl_rng *r) {
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t)wl_range(r, 0, (int)i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

/* Answers of every query kind, for pairs of ids and for each shape against all. */
typedef struct answers {
    sepax_hit *hit;       /* [backend][pair] */
    uint8_t *one;         /* [backend][probe][target index] */
    sepax_ray_hit *ray;   /* [backend][pair]: a ray from pair.a's box centre through pair.b */
    sepax_ray_hit *laser; /* [backend][probe][target index]: that ray of pair `probe` */
} answers;

enum { PAIRS = 6000, PROBES = 24 };

static void ask(const sepax_shapes *s, const sepax_pair *pairs, const uint32_t *probes,
                answers *out) {
    uint32_t n = sepax_shapes_count(s);
    out->hit = calloc((size_t)SEPAX_BACKEND_COUNT * PAIRS, sizeof *out->hit);
    out->one = calloc((size_t)SEPAX_BACKEND_COUNT * PROBES * n, 1);
    out->ray = calloc((size_t)SEPAX_BACKEND_COUNT * PAIRS, sizeof *out->ray);
    out->laser = calloc((size_t)SEPAX_BACKEND_COUNT * PROBES * n, sizeof *out->laser);
    sepax_ray *rays = calloc(PAIRS, sizeof *rays);
    uint32_t *targets = calloc(PAIRS, sizeof *targets);
    cr_assert(out->hit && out->one && out->ray && out->laser && rays && targets);
    for (size_t k = 0; k < PAIRS; k++) {
        sepax_aabb a, b;
        cr_assert_eq(sepax_shapes_aabb(s, pairs[k].a, &a), SEPAX_OK);
        cr_assert_eq(sepax_shapes_aabb(s, pairs[k].b, &b), SEPAX_OK);
        float ax = (a.lower.x + a.upper.x) / 2, ay = (a.lower.y + a.upper.y) / 2;
        float bx = (b.lower.x + b.upper.x) / 2, by = (b.lower.y + b.upper.y) / 2;
        rays[k] = (sepax_ray){{ax, ay}, {2 * (bx - ax), 2 * (by - ay)}, 1.0f};
        targets[k] = pairs[k].b;
    }
    sepax_backend was = sepax_get_backend();
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        cr_assert_eq(sepax_set_backend((sepax_backend)b), SEPAX_OK);
        sepax_query_options opt = {.margin = 0.25f};
        cr_assert_eq(sepax_collide_opt(s, pairs, PAIRS, &opt, out->hit + (size_t)b * PAIRS),
                     SEPAX_OK);
        for (int p = 0; p < PROBES; p++) {
            cr_assert_eq(
                sepax_overlap_one(s, probes[p], 0, n, out->one + ((size_t)b * PROBES + p) * n),
                SEPAX_OK);
            cr_assert_eq(
                sepax_raycast_range(s, &rays[p], 0, n, out->laser + ((size_t)b * PROBES + p) * n),
                SEPAX_OK);
        }
        cr_assert_eq(sepax_raycast(s, rays, targets, PAIRS, out->ray + (size_t)b * PAIRS),
                     SEPAX_OK);
    }
    sepax_set_backend(was);
    free(rays);
    free(targets);
}

static void answers_free(answers *a) {
    free(a->hit);
    free(a->one);
    free(a->ray);
    free(a->laser);
}

/* Reorder a store by `order` and check every shape, id and answer. */
static void check_reorder(sepax_shapes *s, const uint32_t *order, uint64_t seed) {
    uint32_t n = sepax_shapes_count(s);
    wl_rng r = {seed};
    snapshot *before = snap_all(s);
    uint32_t *old_id = malloc(n * sizeof *old_id), *new_id = malloc(n * sizeof *new_id);
    cr_assert(old_id && new_id);
    for (uint32_t i = 0; i < n; i++) old_id[i] = sepax_shapes_id(s, i);
    sepax_pair pairs[PAIRS], mapped[PAIRS];
    uint32_t probes[PROBES], mapped_probes[PROBES];
    for (size_t k = 0; k < PAIRS; k++) {
        uint32_t a = (uint32_t)wl_range(&r, 0, (int)n - 1);
        uint32_t b = k % 2 ? (uint32_t)wl_range(&r, 0, (int)n - 1)    /* anywhere */
                           : (a + (uint32_t)wl_range(&r, 1, 40)) % n; /* near: often touching */
        pairs[k] = (sepax_pair){old_id[a], old_id[b]};
    }
    for (int p = 0; p < PROBES; p++) probes[p] = old_id[wl_range(&r, 0, (int)n - 1)];
    answers want;
    ask(s, pairs, probes, &want);

    memset(new_id, MARK, n * sizeof *new_id);
    cr_assert_eq(sepax_shapes_reorder(s, order, n, new_id), SEPAX_OK);
    cr_assert_eq(sepax_shapes_count(s), n);
    for (uint32_t j = 0; j < n; j++) {
        uint32_t was = order[j], id = new_id[was];
        cr_assert_eq(index_of(id), j, "shape at old index %u should be at %u", was, j);
        cr_assert_eq(sepax_shapes_id(s, j), id);
        snapshot now = snap(s, id);
        cr_assert(memcmp(&now, &before[was], sizeof now) == 0, "shape %u -> %u changed", was, j);
        if (was == j) {
            cr_assert_eq(id, old_id[was], "a shape that stays keeps its id");
        } else {
            sepax_shape_view v;
            cr_assert_eq(sepax_shapes_view(s, old_id[j], &v), SEPAX_ERR_STALE_ID,
                         "index %u's old id still names a shape", j);
        }
    }
    for (size_t k = 0; k < PAIRS; k++)
        mapped[k] = (sepax_pair){new_id[index_of(pairs[k].a)], new_id[index_of(pairs[k].b)]};
    for (int p = 0; p < PROBES; p++) mapped_probes[p] = new_id[index_of(probes[p])];

    /* twice: on the moved world data, then after an update from the moved local shapes and
     * poses */
    for (int round = 0; round < 2; round++) {
        answers got;
        ask(s, mapped, mapped_probes, &got);
        for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
            if (!sepax_backend_available((sepax_backend)b)) continue;
            size_t o = (size_t)b * PAIRS;
            cr_assert(memcmp(got.hit + o, want.hit + o, PAIRS * sizeof *got.hit) == 0,
                      "collide differs, backend %d, round %d", b, round);
            cr_assert(memcmp(got.ray + o, want.ray + o, PAIRS * sizeof *got.ray) == 0,
                      "raycast differs, backend %d, round %d", b, round);
            for (int p = 0; p < PROBES; p++) {
                const uint8_t *g = got.one + ((size_t)b * PROBES + p) * n;
                const uint8_t *w = want.one + ((size_t)b * PROBES + p) * n;
                const sepax_ray_hit *gl = got.laser + ((size_t)b * PROBES + p) * n;
                const sepax_ray_hit *wl = want.laser + ((size_t)b * PROBES + p) * n;
                for (uint32_t i = 0; i < n; i++) {
                    uint32_t j = index_of(new_id[i]);
                    cr_assert_eq(g[j], w[i], "overlap_one differs, backend %d, probe %d, shape %u",
                                 b, p, i);
                    cr_assert(memcmp(&gl[j], &wl[i], sizeof *gl) == 0,
                              "raycast_range differs, backend %d, ray %d, shape %u", b, p, i);
                }
            }
        }
        answers_free(&got);
        cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    }
    answers_free(&want);
    free(before);
    free(old_id);
    free(new_id);
}

Test(reorder, a_random_permutation_moves_everything_with_the_shapes) {
    uint32_t n = 1003; /* a partial last block */
    sepax_shapes *s = mixed_store(n, 11);
    uint32_t *order = malloc(n * sizeof *order);
    wl_rng r = {5};
    shuffle(order, n, &r);
    check_reorder(s, order, 7);
    /* and again on the reordered store (generations already moved once) */
    shuffle(order, n, &r);
    check_reorder(s, order, 8);
    free(order);
    sepax_shapes_destroy(s);
}

Test(reorder, a_few_swaps_keep_the_other_ids) {
    uint32_t n = 517;
    sepax_shapes *s = mixed_store(n, 21);
    uint32_t *order = malloc(n * sizeof *order);
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    wl_rng r = {9};
    for (int k = 0; k < 20; k++) { /* swaps within and across blocks */
        uint32_t a = (uint32_t)wl_range(&r, 0, (int)n - 1), b = (uint32_t)wl_range(&r, 0, 9);
        b = (a + b) % n;
        uint32_t t = order[a];
        order[a] = order[b];
        order[b] = t;
    }
    check_reorder(s, order, 3);
    free(order);
    sepax_shapes_destroy(s);
}

Test(reorder, the_identity_changes_no_id) {
    uint32_t n = 64;
    sepax_shapes *s = mixed_store(n, 31);
    uint32_t order[64], ids[64];
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    snapshot *before = snap_all(s);
    cr_assert_eq(sepax_shapes_reorder(s, order, n, ids), SEPAX_OK);
    for (uint32_t i = 0; i < n; i++) cr_assert_eq(ids[i], i, "a store that never removed");
    expect_unchanged(s, before, n);
    cr_assert_eq(sepax_shapes_reorder(s, order, n, NULL), SEPAX_OK, "new_ids may be NULL");
    free(before);
    sepax_shapes_destroy(s);
}

Test(reorder, new_ids_may_be_the_order_itself) {
    uint32_t n = 300;
    sepax_shapes *a = mixed_store(n, 61), *b = mixed_store(n, 61);
    uint32_t *order = malloc(n * sizeof *order), *ids = malloc(n * sizeof *ids);
    cr_assert(order && ids);
    wl_rng r = {13};
    shuffle(order, n, &r);
    cr_assert_eq(sepax_shapes_reorder(a, order, n, ids), SEPAX_OK);
    cr_assert_eq(sepax_shapes_reorder(b, order, n, order), SEPAX_OK);
    cr_assert(memcmp(order, ids, n * sizeof *ids) == 0, "other ids through one buffer");
    for (uint32_t i = 0; i < n; i++) {
        snapshot sa = snap(a, sepax_shapes_id(a, i)), sb = snap(b, sepax_shapes_id(b, i));
        cr_assert(memcmp(&sa, &sb, sizeof sa) == 0, "shape %u", i);
    }
    free(order);
    free(ids);
    sepax_shapes_destroy(a);
    sepax_shapes_destroy(b);
}

Test(reorder, a_bad_order_changes_and_writes_nothing) {
    uint32_t n = 40;
    sepax_shapes *s = mixed_store(n, 41);
    snapshot *before = snap_all(s);
    uint32_t order[41], ids[41];
    wl_rng r = {1};
    shuffle(order, n, &r);
    struct {
        const char *what;
        uint32_t at, value, count;
        sepax_status want;
    } rows[] = {
        {"an entry past the shapes", 17, 40, 40, SEPAX_ERR_BAD_ID},
        {"an entry far past", 3, 0xffffffffu, 40, SEPAX_ERR_BAD_ID},
        {"an entry twice", 30, 0, 40, SEPAX_ERR_DUPLICATE},
        {"count below the store's", 0, 0, 39, SEPAX_ERR_COUNT},
        {"count above the store's", 0, 0, 41, SEPAX_ERR_COUNT},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uint32_t bad[41];
        memcpy(bad, order, sizeof bad);
        if (rows[k].want != SEPAX_ERR_COUNT) {
            bad[rows[k].at] = rows[k].value;
            if (rows[k].want == SEPAX_ERR_DUPLICATE) bad[rows[k].at] = bad[rows[k].at + 1];
        }
        memset(ids, MARK, sizeof ids);
        cr_expect_eq(sepax_shapes_reorder(s, bad, rows[k].count, ids), rows[k].want, "%s",
                     rows[k].what);
        for (size_t i = 0; i < sizeof ids; i++)
            cr_assert_eq(((uint8_t *)ids)[i], MARK, "%s wrote new_ids", rows[k].what);
        expect_unchanged(s, before, n);
    }
    /* both faults in one order: the first entry at fault names the status (README) */
    for (int dup_first = 0; dup_first < 2; dup_first++) {
        uint32_t bad[41];
        memcpy(bad, order, sizeof bad);
        uint32_t dup_at = dup_first ? 5 : 25, far_at = dup_first ? 25 : 5;
        bad[dup_at] = bad[dup_at + 1];
        bad[far_at] = n + 7;
        cr_expect_eq(sepax_shapes_reorder(s, bad, n, ids),
                     dup_first ? SEPAX_ERR_DUPLICATE : SEPAX_ERR_BAD_ID, "duplicate first: %d",
                     dup_first);
        expect_unchanged(s, before, n);
    }
    cr_expect_eq(sepax_shapes_reorder(NULL, order, n, ids), SEPAX_ERR_NULL);
    cr_expect_eq(sepax_shapes_reorder(s, NULL, n, ids), SEPAX_ERR_NULL);
    uint32_t raw[42];
    uint32_t *misaligned = (uint32_t *)(void *)((char *)raw + 1);
    cr_expect_eq(sepax_shapes_reorder(s, misaligned, n, ids), SEPAX_ERR_MISALIGNED);
    cr_expect_eq(sepax_shapes_reorder(s, order, n, misaligned), SEPAX_ERR_MISALIGNED);
    fail_alloc = 1;
    cr_expect_eq(sepax_shapes_reorder(s, order, n, ids), SEPAX_ERR_NOMEM);
    expect_unchanged(s, before, n);
    /* every argument is checked before the scratch is asked for: a bad order is its own
     * error even when the memory would have failed, and the allocator is not called */
    for (size_t k = 0; k < 3; k++) {
        uint32_t bad[41];
        memcpy(bad, order, sizeof bad);
        bad[rows[k].at] = rows[k].want == SEPAX_ERR_DUPLICATE ? bad[rows[k].at + 1] : rows[k].value;
        alloc_calls = 0;
        cr_expect_eq(sepax_shapes_reorder(s, bad, n, ids), rows[k].want, "%s, no memory",
                     rows[k].what);
        cr_expect_eq(alloc_calls, 0, "%s: the allocator was called", rows[k].what);
    }
    fail_alloc = 0;
    expect_unchanged(s, before, n);
    sepax_shapes *empty = sepax_shapes_create(0);
    cr_expect_eq(sepax_shapes_reorder(empty, NULL, 0, NULL), SEPAX_OK, "an empty store");
    sepax_shapes_destroy(empty);
    free(before);
    sepax_shapes_destroy(s);
}

/* A frame's contacts as sorted keys (lower index << 32 | higher index), each index first
 * mapped through map[] (new ids by old index) when map is not NULL. */
static int key_cmp(const void *x, const void *y) {
    const uint64_t *a = x, *b = y;
    return (*a > *b) - (*a < *b);
}

static sepax_pair *frame(sepax_broadphase *bp, sepax_shapes *s, size_t *count) {
    sepax_frame_options opt = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
    size_t cap = 64 * (size_t)sepax_shapes_count(s);
    sepax_pair *pairs = malloc(cap * sizeof *pairs);
    cr_assert(pairs);
    sepax_contacts out = {pairs, NULL, NULL, cap};
    cr_assert_eq(sepax_find_contacts(bp, s, &opt, &out, count), SEPAX_OK);
    return pairs;
}

static uint64_t *keys_of(const sepax_pair *pairs, size_t count, const uint32_t *map) {
    uint64_t *keys = malloc(count * sizeof *keys + 1);
    cr_assert(keys);
    for (size_t k = 0; k < count; k++) {
        uint32_t a = index_of(pairs[k].a), b = index_of(pairs[k].b);
        if (map) {
            a = index_of(map[a]);
            b = index_of(map[b]);
        }
        keys[k] = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
    }
    qsort(keys, count, sizeof *keys, key_cmp);
    return keys;
}

Test(reorder, grid_order_puts_the_store_in_grid_order) {
    uint32_t n = 3000;
    sepax_shapes *s = mixed_store(n, 51);
    /* scatter the store first, as shapes added over a game's life would be */
    uint32_t *order = malloc(n * sizeof *order), *ids = malloc(n * sizeof *ids);
    cr_assert(order && ids);
    wl_rng r = {77};
    shuffle(order, n, &r);
    cr_assert_eq(sepax_shapes_reorder(s, order, n, NULL), SEPAX_OK);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    cr_expect_eq(sepax_broadphase_order(bp, s, order, n), SEPAX_ERR_NO_GRID, "no grid yet");
    size_t before_n, after_n;
    sepax_pair *before = frame(bp, s, &before_n);
    cr_assert_gt(before_n, n / 4, "a frame with contacts");
    cr_expect_eq(sepax_broadphase_order(bp, s, order, n - 1), SEPAX_ERR_COUNT);
    cr_expect_eq(sepax_broadphase_order(NULL, s, order, n), SEPAX_ERR_NULL);
    cr_expect_eq(sepax_broadphase_order(bp, s, NULL, n), SEPAX_ERR_NULL);
    cr_expect_eq(sepax_broadphase_order(bp, s, (uint32_t *)(void *)((char *)order + 2), n),
                 SEPAX_ERR_MISALIGNED);
    cr_assert_eq(sepax_broadphase_order(bp, s, order, n), SEPAX_OK);
    cr_assert_eq(sepax_shapes_reorder(s, order, n, ids), SEPAX_OK,
                 "a grid's order is a permutation");
    /* the grid names the old ids now; refusals write nothing */
    memset(order, MARK, n * sizeof *order);
    cr_expect_eq(sepax_broadphase_order(bp, s, order, n), SEPAX_ERR_STALE_ID);
    cr_expect_eq(sepax_broadphase_order(bp, s, order, n + 1), SEPAX_ERR_COUNT);
    for (size_t i = 0; i < n * sizeof *order; i++)
        cr_assert_eq(((uint8_t *)order)[i], MARK, "a refused order wrote");
    /* the same contacts, under the new ids */
    sepax_pair *after = frame(bp, s, &after_n);
    cr_assert_eq(after_n, before_n);
    uint64_t *want = keys_of(before, before_n, ids), *got = keys_of(after, after_n, NULL);
    cr_assert(memcmp(want, got, before_n * sizeof *want) == 0, "other contacts after the reorder");
    /* the store is in grid order now: the same grid lists it index by index (the counting
     * sort keeps index order within a cell) */
    cr_assert_eq(sepax_broadphase_order(bp, s, order, n), SEPAX_OK);
    for (uint32_t p = 0; p < n; p++) cr_assert_eq(order[p], p, "grid position %u", p);
    /* and after a removal the count no longer matches */
    sepax_move mv;
    cr_assert_eq(sepax_shapes_remove(s, sepax_shapes_id(s, 5), &mv), SEPAX_OK);
    cr_expect_eq(sepax_broadphase_order(bp, s, order, n - 1), SEPAX_ERR_COUNT);
    free(before);
    free(after);
    free(want);
    free(got);
    free(order);
    free(ids);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* Every id a shape has had stays refused after later reorders: an index's generation moves on
 * at each reuse, and wraps only after 256 (README, "Keeping the store in spatial order"). Shape
 * A's first id, after A moved away and C moved into A's first index, must not name C; and over
 * ten random reorders no earlier id of any index names a shape again. */
Test(reorder, old_ids_stay_refused_across_reorders) {
    sepax_shapes *s = sepax_shapes_create(3);
    uint32_t id[3];
    for (int i = 0; i < 3; i++)
        cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){10.0f * (float)i, 0}, 1, &id[i]),
                     SEPAX_OK);
    const uint32_t swap[3] = {1, 0, 2}, turn[3] = {2, 1, 0};
    cr_assert_eq(sepax_shapes_reorder(s, swap, 3, NULL), SEPAX_OK); /* B to 0, A to 1 */
    cr_assert_eq(sepax_shapes_reorder(s, turn, 3, NULL), SEPAX_OK); /* C to 0 */
    sepax_shape_view v;
    cr_assert_eq(sepax_shapes_view(s, id[0], &v), SEPAX_ERR_STALE_ID, "A's first id names a shape");
    sepax_shapes_destroy(s);

    enum { N = 64, ROUNDS = 10 };
    s = mixed_store(N, 3);
    uint32_t seen[(ROUNDS + 1) * N], nseen = 0, order[N];
    for (uint32_t i = 0; i < N; i++) seen[nseen++] = sepax_shapes_id(s, i);
    wl_rng r = {17};
    for (int round = 0; round < ROUNDS; round++) {
        shuffle(order, N, &r);
        cr_assert_eq(sepax_shapes_reorder(s, order, N, NULL), SEPAX_OK);
        for (uint32_t i = 0; i < N; i++) seen[nseen++] = sepax_shapes_id(s, i);
        /* every id seen so far names a shape only if it is a current one */
        for (uint32_t k = 0; k < nseen; k++) {
            int current = 0;
            for (uint32_t i = 0; i < N; i++) current |= seen[k] == sepax_shapes_id(s, i);
            if (!current)
                cr_assert_eq(sepax_shapes_view(s, seen[k], &v), SEPAX_ERR_STALE_ID,
                             "round %d: old id %#x names a shape", round, seen[k]);
        }
    }
    sepax_shapes_destroy(s);
}
