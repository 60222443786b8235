/* A frame's SEPAX_UPDATE_LAZY: every bound, then only the records of the shapes in candidate
 * pairs. Its results must be the bits of a frame after a whole update, for every test, thread
 * count and backend; its bounds and discs the bits of a whole update; the records it skips
 * must really be skipped (or the mode saves nothing); and until the next whole update every
 * query that reads records must refuse with SEPAX_ERR_STALE_WORLD and write nothing. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "broadphase.h"
#include "sepax_ref.h"
#include "workload.h"

/* A bullet-hell in miniature: mixed small shapes that ignore each other (category 1, mask 2)
 * and every 97th one a "player" they all meet (category 2, mask 1), so most shapes are in no
 * candidate pair. `dense`: every shape meets every other instead. */
static sepax_shapes *make_store(uint32_t n, uint64_t seed, int dense) {
    sepax_shapes *s = sepax_shapes_create(n);
    cr_assert(s);
    wl_config cfg = wl_default();
    cfg.shapes = n;
    cfg.kinds = WL_MIXED;
    cfg.seed = seed;
    cr_assert_eq(wl_fill_store(s, &cfg), SEPAX_OK);
    uint32_t count = sepax_shapes_count(s);
    sepax_filter *f = malloc(count * sizeof *f);
    for (uint32_t i = 0; i < count; i++)
        f[i] = dense || i % 97 == 0 ? (sepax_filter){3u, 3u} : (sepax_filter){1u, 2u};
    cr_assert_eq(sepax_shapes_set_filters(s, 0, count, f), SEPAX_OK);
    free(f);
    return s;
}

static void move_all(sepax_shapes *s, wl_rng *r) {
    uint32_t n = sepax_shapes_count(s);
    sepax_pose *p = malloc(n * sizeof *p);
    for (uint32_t i = 0; i < n; i++)
        p[i] = (sepax_pose){{60.0f * wl_unit(r), 60.0f * wl_unit(r)}, sepax_rot(6.0f * wl_unit(r))};
    cr_assert_eq(sepax_shapes_set_poses(s, 0, n, p), SEPAX_OK);
    free(p);
}

typedef struct results {
    sepax_pair *pairs;
    sepax_hit *hits;
    sepax_manifold *mans;
    size_t n;
} results;

static results run_frame(sepax_broadphase *bp, sepax_shapes *s, int test, int update) {
    size_t cap = 1u << 16;
    results r = {calloc(cap, sizeof(sepax_pair)), calloc(cap, sizeof(sepax_hit)),
                 calloc(cap, sizeof(sepax_manifold)), 0};
    sepax_frame_options o = {test, test == SEPAX_TEST_MANIFOLD ? 0.05f : 0.0f, 0.0f, update};
    sepax_contacts out = {r.pairs, r.hits, r.mans, cap};
    sepax_status st = sepax_find_contacts(bp, s, &o, &out, &r.n);
    cr_assert_eq(st, SEPAX_OK, "%s", sepax_status_str(st));
    return r;
}

static void free_results(results *r) {
    free(r->pairs);
    free(r->hits);
    free(r->mans);
}

/* A copy of a store's world data as the update wrote it: bounds, discs and records. */
typedef struct world_copy {
    sepax_aabb_block *aabb;
    sepax_disc *disc;
    sepax_poly_rec *rec;
    size_t aabb_bytes, disc_bytes, rec_bytes;
} world_copy;

static world_copy world_copy_new(const sepax_shapes *s) {
    uint32_t n = sepax_shapes_count(s), nb = (n + SEPAX_BLOCK_LANES - 1) / SEPAX_BLOCK_LANES;
    world_copy w = {NULL,
                    NULL,
                    NULL,
                    nb * sizeof(sepax_aabb_block),
                    n * sizeof(sepax_disc),
                    n * sizeof(sepax_poly_rec)};
    w.aabb = malloc(w.aabb_bytes);
    w.disc = malloc(w.disc_bytes);
    w.rec = malloc(w.rec_bytes);
    cr_assert(w.aabb && w.disc && w.rec);
    return w;
}

static void world_copy_take(world_copy *w, const sepax_shapes *s) {
    memcpy(w->aabb, s->aabb, w->aabb_bytes);
    memcpy(w->disc, s->disc, w->disc_bytes);
    memcpy(w->rec, s->rec, w->rec_bytes);
}

static void world_copy_free(world_copy *w) {
    free(w->aabb);
    free(w->disc);
    free(w->rec);
}

/* A frame's results against those of the same frame after a whole update, bit for bit. */
static void expect_same_results(const results *got, const results *want, int test, const char *name,
                                uint32_t threads) {
    cr_assert_eq(got->n, want->n, "%s, %u threads, test %d: %zu results, want %zu", name, threads,
                 test, got->n, want->n);
    cr_assert(memcmp(got->pairs, want->pairs, got->n * sizeof *got->pairs) == 0,
              "%s, %u threads, test %d: pairs differ", name, threads, test);
    if (test == SEPAX_TEST_COLLIDE)
        cr_assert(memcmp(got->hits, want->hits, got->n * sizeof *got->hits) == 0,
                  "%s, %u threads: hits differ", name, threads);
    if (test == SEPAX_TEST_MANIFOLD)
        cr_assert(memcmp(got->mans, want->mans, got->n * sizeof *got->mans) == 0,
                  "%s, %u threads: manifolds differ", name, threads);
}

/* A broadphase of `threads` threads with backend b selected, or NULL where b is not
 * available; *name: the backend's name. */
static sepax_broadphase *bp_on_backend(int b, uint32_t threads, const char **name) {
    if (!sepax_backend_available((sepax_backend)b)) return NULL;
    cr_assert_eq(sepax_set_backend((sepax_backend)b), SEPAX_OK);
    *name = sepax_backend_name((sepax_backend)b);
    sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
    sepax_broadphase *bp = sepax_broadphase_create(&cfg);
    cr_assert(bp);
    return bp;
}

Test(lazy, same_bits_as_a_whole_update_for_every_test_thread_count_and_backend) {
    sepax_shapes *s = make_store(4000, 41, 0);
    uint32_t n = sepax_shapes_count(s);
    world_copy w = world_copy_new(s);
    sepax_backend was = sepax_get_backend();
    wl_rng r = {5};
    size_t found = 0, skipped = 0;
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        for (uint32_t threads = 1; threads <= 2; threads++) {
            const char *name;
            sepax_broadphase *bp = bp_on_backend(b, threads, &name);
            if (!bp) continue;
            for (int test = SEPAX_TEST_AABB; test <= SEPAX_TEST_MANIFOLD; test++) {
                move_all(s, &r);
                results lazy = run_frame(bp, s, test, SEPAX_UPDATE_LAZY);
                cr_assert_eq(s->recs_stale, 1u);
                world_copy_take(&w, s);
                cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
                cr_assert_eq(s->recs_stale, 0u);
                results full = run_frame(bp, s, test, SEPAX_UPDATE_NONE);
                expect_same_results(&lazy, &full, test, name, threads);
                cr_assert(memcmp(w.aabb, s->aabb, w.aabb_bytes) == 0, "%s: bounds differ", name);
                /* every shape of a result has its record written; some others do not */
                for (size_t k = 0; k < lazy.n; k++) {
                    uint32_t ia = lazy.pairs[k].a & SEPAX_ID_INDEX_MASK;
                    uint32_t ib = lazy.pairs[k].b & SEPAX_ID_INDEX_MASK;
                    if (test == SEPAX_TEST_AABB) continue; /* reads no record */
                    cr_assert(memcmp(&w.rec[ia], &s->rec[ia], sizeof *w.rec) == 0, "%s: record",
                              name);
                    cr_assert(memcmp(&w.rec[ib], &s->rec[ib], sizeof *w.rec) == 0, "%s: record",
                              name);
                    cr_assert(memcmp(&w.disc[ia], &s->disc[ia], sizeof *w.disc) == 0, "%s: disc",
                              name);
                    cr_assert(memcmp(&w.disc[ib], &s->disc[ib], sizeof *w.disc) == 0, "%s: disc",
                              name);
                }
                /* and each frame that reads records left most of the others behind (a frame
                 * that wrote every record would pass every check above; the bounds-only test
                 * writes none by design, so it proves nothing here) */
                size_t skipped_here = 0;
                for (uint32_t i = 0; i < n; i++)
                    skipped_here += memcmp(&w.rec[i], &s->rec[i], sizeof *w.rec) != 0;
                if (test != SEPAX_TEST_AABB)
                    cr_assert(skipped_here > n / 2, "%s, %u threads, test %d: %zu of %u skipped",
                              name, threads, test, skipped_here, n);
                skipped += skipped_here;
                found += lazy.n;
                free_results(&lazy);
                free_results(&full);
            }
            sepax_broadphase_destroy(bp);
        }
    }
    sepax_set_backend(was);
    /* the comparisons compared something, and the mode left records behind */
    cr_assert(found > 200, "%zu results", found);
    cr_assert(skipped > n, "%zu records skipped", skipped);
    world_copy_free(&w);
    sepax_shapes_destroy(s);
}

/* A dense store: after its first frame the broadphase has seen more candidates than an eighth
 * of the shapes, and a lazy frame writes every record (pairing twice would cost more); the same
 * bits, the same refusals until a whole update. */
Test(lazy, dense_scene_writes_every_record_with_the_same_contract) {
    sepax_shapes *s = make_store(3000, 47, 1);
    uint32_t n = sepax_shapes_count(s);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    wl_rng r = {11};
    sepax_poly_rec *rec = malloc(n * sizeof *rec);
    for (int round = 0; round < 3; round++) {
        move_all(s, &r);
        results lazy = run_frame(bp, s, SEPAX_TEST_COLLIDE, SEPAX_UPDATE_LAZY);
        sepax_broadphase_stats bs;
        cr_assert_eq(sepax_broadphase_stats_get(bp, &bs), SEPAX_OK);
        cr_assert(bs.candidates > n / 8, "%zu candidates", bs.candidates);
        cr_assert_eq(s->recs_stale, 1u);
        uint8_t hit;
        sepax_pair p = {0, 1};
        cr_assert_eq(sepax_overlap(s, &p, 1, &hit), SEPAX_ERR_STALE_WORLD);
        memcpy(rec, s->rec, n * sizeof *rec);
        cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
        size_t differ = 0;
        for (uint32_t i = 0; i < n; i++) differ += memcmp(&rec[i], &s->rec[i], sizeof *rec) != 0;
        /* the first frame, with no candidates seen yet, is lazy; the others write them all */
        if (round > 0) cr_assert_eq(differ, 0u, "round %d: %zu records skipped", round, differ);
        results full = run_frame(bp, s, SEPAX_TEST_COLLIDE, SEPAX_UPDATE_NONE);
        cr_assert_eq(lazy.n, full.n);
        cr_assert(memcmp(lazy.pairs, full.pairs, lazy.n * sizeof *lazy.pairs) == 0);
        cr_assert(memcmp(lazy.hits, full.hits, lazy.n * sizeof *lazy.hits) == 0);
        free_results(&lazy);
        free_results(&full);
    }
    free(rec);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* A frame's SEPAX_UPDATE_FRAME on a sparse store past frame.c's SPARSE_STREAM_SHAPES writes
 * its records around the caches (SEPAX_WRITE_STREAM, on a store below the update's own
 * threshold): the same records, discs and bounds as a whole update, bit for bit, and the same
 * results, for every test, thread count and backend; a dense store's frames after its first
 * keep the records in the caches. bp->streamed says which path each frame took, so that the
 * comparisons are known to cover the streamed one. */
Test(frame_update, sparse_frame_streams_records_with_the_same_bits) {
    sepax_shapes *s = make_store(6003, 43, 0);
    uint32_t n = sepax_shapes_count(s);
    world_copy w = world_copy_new(s);
    sepax_backend was = sepax_get_backend();
    wl_rng r = {17};
    size_t found = 0, frames = 0;
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        for (uint32_t threads = 1; threads <= 2; threads++) {
            const char *name;
            sepax_broadphase *bp = bp_on_backend(b, threads, &name);
            if (!bp) continue;
            for (int test = SEPAX_TEST_OVERLAP; test <= SEPAX_TEST_MANIFOLD; test++) {
                move_all(s, &r);
                results fr = run_frame(bp, s, test, SEPAX_UPDATE_FRAME);
                cr_assert(bp->streamed, "%s, %u threads, test %d: %zu candidates, %u shapes", name,
                          threads, test, bp->candidates, n);
                world_copy_take(&w, s);
                cr_assert_eq(sepax_shapes_update(s), SEPAX_OK); /* in place: below 16,384 */
                results full = run_frame(bp, s, test, SEPAX_UPDATE_NONE);
                cr_assert(!bp->streamed);
                expect_same_results(&fr, &full, test, name, threads);
                cr_assert(memcmp(w.aabb, s->aabb, w.aabb_bytes) == 0, "%s: bounds differ", name);
                cr_assert(memcmp(w.disc, s->disc, w.disc_bytes) == 0, "%s: discs differ", name);
                cr_assert(memcmp(w.rec, s->rec, w.rec_bytes) == 0, "%s: records differ", name);
                found += fr.n;
                frames++;
                free_results(&fr);
                free_results(&full);
            }
            sepax_broadphase_destroy(bp);
        }
    }
    sepax_set_backend(was);
    cr_assert(found > 100 && frames >= 6, "%zu results in %zu frames", found, frames);
    sepax_shapes_destroy(s);

    /* dense: the first frame (no candidates seen yet) streams, the later ones do not */
    s = make_store(6000, 47, 1);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(s && bp);
    for (int round = 0; round < 3; round++) {
        move_all(s, &r);
        results fr = run_frame(bp, s, SEPAX_TEST_OVERLAP, SEPAX_UPDATE_FRAME);
        cr_assert_eq(bp->streamed, round == 0, "dense round %d", round);
        cr_assert(bp->candidates > sepax_shapes_count(s) / 8);
        free_results(&fr);
    }
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
    world_copy_free(&w);
}

/* A dense frame (the last frame on its broadphase found at least as many candidates as
 * shapes; from 16,384 shapes, a threshold the test lowers) prefetches the shapes of each cell's
 * neighbourhood once, not each candidate's: a path that only reads, so its results are the first
 * frame's (which prefetched per candidate), pair for pair and bit for bit, for every test, thread
 * count and backend. bp->fetched_cells says which path each frame took; the sanitizer runs check
 * its reads. */
Test(frame_update, dense_frame_prefetches_cells_with_the_same_results) {
    sepax_shapes *s = make_store(6000, 47, 1);
    sepax_backend was = sepax_get_backend();
    uint64_t seed = 19;
    size_t found = 0;
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        for (uint32_t threads = 1; threads <= 2; threads++) {
            const char *name;
            for (int test = SEPAX_TEST_OVERLAP; test <= SEPAX_TEST_MANIFOLD; test++) {
                sepax_broadphase *bp = bp_on_backend(b, threads, &name);
                if (!bp) break;
                bp->fetch_cells_min = 0; /* the path of 16,384 shapes and more, on 6,000 */
                /* each shape turned about its place on the workload's lattice: dense */
                cr_assert_eq(wl_pose_randomly(s, seed++), SEPAX_OK);
                results first = run_frame(bp, s, test, SEPAX_UPDATE_NONE);
                cr_assert(!bp->fetched_cells, "%s: a fresh broadphase has seen no candidates",
                          name);
                cr_assert(bp->candidates >= sepax_shapes_count(s), "%s: %zu candidates, %u shapes",
                          name, bp->candidates, sepax_shapes_count(s));
                results again = run_frame(bp, s, test, SEPAX_UPDATE_NONE);
                cr_assert(bp->fetched_cells, "%s, %u threads, test %d", name, threads, test);
                expect_same_results(&again, &first, test, name, threads);
                found += first.n;
                free_results(&first);
                free_results(&again);
                sepax_broadphase_destroy(bp);
            }
        }
    }
    sepax_set_backend(was);
    cr_assert(found > 1000, "%zu results", found);
    sepax_shapes_destroy(s);
}

/* Every query that reads records, after a lazy frame: SEPAX_ERR_STALE_WORLD, its output as it
 * was; the bounds-only calls still answer; after sepax_shapes_update (or a frame that writes
 * every record) every call answers again. */
static int untouched(const void *p, size_t bytes) {
    const unsigned char *c = p;
    for (size_t i = 0; i < bytes; i++)
        if (c[i] != 0xAB) return 0;
    return 1;
}

static void expect_queries(sepax_shapes *s, sepax_broadphase *bp, sepax_status want) {
    sepax_pair pairs[2] = {{0, 1}, {2, 3}};
    _Alignas(64) unsigned char buf[4096];
    sepax_vec2 v[2] = {{1.0f, 0.0f}, {0.0f, 1.0f}};
    sepax_ray ray = {{-5.0f, 5.0f}, {70.0f, 1.0f}, 1.0f};
    sepax_ray rays[2] = {ray, ray};
    uint32_t ids[2] = {0, 1}, out_ids[64];
    size_t count;
    sepax_shape_view view;
    /* every output a call could write, filled first and, when it refuses, unchanged */
#define FILL()                                                                                     \
    do {                                                                                           \
        memset(buf, 0xAB, sizeof buf);                                                             \
        memset(out_ids, 0xAB, sizeof out_ids);                                                     \
        memset(&view, 0xAB, sizeof view);                                                          \
        memset(&count, 0xAB, sizeof count);                                                        \
    } while (0)
#define ALL_UNTOUCHED()                                                                            \
    (untouched(buf, sizeof buf) && untouched(out_ids, sizeof out_ids) &&                           \
     untouched(&view, sizeof view) && untouched(&count, sizeof count))
#define EXPECT(call)                                                                               \
    do {                                                                                           \
        FILL();                                                                                    \
        sepax_status st_ = (call);                                                                 \
        cr_assert_eq(st_, want, "%s: %s", #call, sepax_status_str(st_));                           \
        if (want != SEPAX_OK) cr_assert(ALL_UNTOUCHED(), "%s wrote", #call);                       \
    } while (0)
    EXPECT(sepax_overlap(s, pairs, 2, buf));
    EXPECT(sepax_collide(s, pairs, 2, (sepax_hit *)(void *)buf));
    EXPECT(sepax_collide_manifold(s, pairs, 2, (sepax_manifold *)(void *)buf));
    EXPECT(sepax_sweep(s, pairs, 2, v, v, (sepax_sweep_hit *)(void *)buf));
    EXPECT(sepax_overlap_one(s, 0, 0, 100, buf));
    EXPECT(sepax_raycast(s, rays, ids, 2, (sepax_ray_hit *)(void *)buf));
    EXPECT(sepax_raycast_range(s, &ray, 0, 40, (sepax_ray_hit *)(void *)buf));
    /* the reference, with the same contract */
    EXPECT(sepax_ref_overlap(s, pairs, 2, buf));
    EXPECT(sepax_ref_collide(s, pairs, 2, (sepax_hit *)(void *)buf));
    EXPECT(sepax_ref_collide_manifold(s, pairs, 2, (sepax_manifold *)(void *)buf));
    EXPECT(sepax_ref_sweep(s, pairs, 2, v, v, (sepax_sweep_hit *)(void *)buf));
    EXPECT(sepax_ref_overlap_one(s, 0, 0, 100, buf));
    EXPECT(sepax_ref_raycast(s, rays, ids, 2, (sepax_ray_hit *)(void *)buf));
    EXPECT(sepax_ref_raycast_range(s, &ray, 0, 40, (sepax_ray_hit *)(void *)buf));
    /* the other checks come first: a NaN velocity, a bad range, an empty call */
    sepax_vec2 nan_v[2] = {{NAN, 0.0f}, {0.0f, 0.0f}};
    sepax_sweep_hit sh[2];
    cr_assert_eq(sepax_sweep(s, pairs, 2, nan_v, NULL, sh), SEPAX_ERR_NONFINITE);
    cr_assert_eq(sepax_ref_sweep(s, pairs, 2, nan_v, NULL, sh), SEPAX_ERR_NONFINITE);
    uint32_t all = sepax_shapes_count(s);
    cr_assert_eq(sepax_overlap_one(s, 0, all, 1, buf), SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_ref_overlap_one(s, 0, all, 1, buf), SEPAX_ERR_BAD_ID);
    cr_assert_eq(sepax_overlap(s, pairs, 0, buf), SEPAX_OK);
    cr_assert_eq(sepax_ref_overlap(s, pairs, 0, buf), SEPAX_OK);
    EXPECT(sepax_shapes_view(s, 0, &view));
    EXPECT(sepax_broadphase_query_shape(bp, s, 0, 0.0f, out_ids, 64, &count));
    EXPECT(
        sepax_broadphase_query_ray(bp, s, &ray, out_ids, (sepax_ray_hit *)(void *)buf, 64, &count));
    EXPECT(sepax_broadphase_raycast_closest(bp, s, rays, NULL, 2, out_ids,
                                            (sepax_ray_hit *)(void *)buf));
    sepax_frame_options o = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_NONE};
    sepax_contacts out = {(sepax_pair *)(void *)buf, NULL, NULL, sizeof buf / sizeof(sepax_pair)};
    FILL();
    sepax_status st = sepax_find_contacts(bp, s, &o, &out, &count);
    cr_assert(st == want || (want == SEPAX_OK && st == SEPAX_ERR_CAPACITY), "%s",
              sepax_status_str(st));
    if (want != SEPAX_OK) cr_assert(ALL_UNTOUCHED(), "find_contacts wrote");
#undef EXPECT
#undef ALL_UNTOUCHED
#undef FILL
    /* bounds only: always answer */
    sepax_aabb box = {{0.0f, 0.0f}, {30.0f, 30.0f}};
    st = sepax_broadphase_query_aabb(bp, s, box, out_ids, 64, &count);
    cr_assert(st == SEPAX_OK || st == SEPAX_ERR_CAPACITY, "%s", sepax_status_str(st));
    o.test = SEPAX_TEST_AABB;
    out.capacity = 0;
    st = sepax_find_contacts(bp, s, &o, &out, &count);
    cr_assert(st == SEPAX_OK || st == SEPAX_ERR_CAPACITY, "%s", sepax_status_str(st));
}

Test(lazy, record_queries_refuse_until_a_whole_update) {
    sepax_shapes *s = make_store(1000, 43, 0);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    wl_rng r = {9};
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    results a = run_frame(bp, s, SEPAX_TEST_OVERLAP, SEPAX_UPDATE_FRAME);
    expect_queries(s, bp, SEPAX_OK);
    move_all(s, &r);
    results b = run_frame(bp, s, SEPAX_TEST_OVERLAP, SEPAX_UPDATE_LAZY);
    expect_queries(s, bp, SEPAX_ERR_STALE_WORLD);
    /* a range update of part of the store leaves the other records behind; of all of it,
     * none */
    uint32_t n = sepax_shapes_count(s);
    cr_assert_eq(sepax_shapes_update_range(s, 0, n - 1), SEPAX_OK);
    expect_queries(s, bp, SEPAX_ERR_STALE_WORLD);
    cr_assert_eq(sepax_shapes_update_range(s, 1, n - 1), SEPAX_OK);
    expect_queries(s, bp, SEPAX_ERR_STALE_WORLD);
    cr_assert_eq(sepax_shapes_update_range(s, 0, n), SEPAX_OK);
    expect_queries(s, bp, SEPAX_OK);
    move_all(s, &r);
    results b2 = run_frame(bp, s, SEPAX_TEST_OVERLAP, SEPAX_UPDATE_LAZY);
    expect_queries(s, bp, SEPAX_ERR_STALE_WORLD);
    cr_assert_eq(sepax_shapes_update(s), SEPAX_OK);
    expect_queries(s, bp, SEPAX_OK);
    /* a lazy frame of the bounds test writes no record at all; a frame's FRAME update
     * writes them all */
    move_all(s, &r);
    results c = run_frame(bp, s, SEPAX_TEST_AABB, SEPAX_UPDATE_LAZY);
    expect_queries(s, bp, SEPAX_ERR_STALE_WORLD);
    results d = run_frame(bp, s, SEPAX_TEST_COLLIDE, SEPAX_UPDATE_FRAME);
    expect_queries(s, bp, SEPAX_OK);
    free_results(&a);
    free_results(&b);
    free_results(&b2);
    free_results(&c);
    free_results(&d);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* A lazy frame on an empty store, from a broadphase that never ran one: nothing to mark and no
 * marks allocated (the ASan + UBSan stage once stopped here on a memset of that NULL row,
 * which fuzz_scene found), then shapes added and the next lazy frame as brute force has it. */
Test(lazy, empty_store_then_shapes) {
    for (uint32_t threads = 1; threads <= 2; threads++) {
        sepax_broadphase_config cfg = {threads, NULL, NULL, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&cfg);
        sepax_shapes *s = sepax_shapes_create(0);
        cr_assert(bp && s);
        sepax_pair pairs[4];
        sepax_contacts out = {pairs, NULL, NULL, 4};
        size_t count = 99;
        for (int test = SEPAX_TEST_AABB; test <= SEPAX_TEST_OVERLAP; test++) {
            sepax_frame_options o = {test, 0.0f, 0.0f, SEPAX_UPDATE_LAZY};
            cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_OK);
            cr_assert_eq(count, 0);
        }
        /* the records a lazy frame left behind: none here, yet the store says so until a
         * whole update, which a range of every shape (none) is */
        cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, NULL, NULL, 0, NULL, NULL),
                     SEPAX_ERR_STALE_WORLD);
        cr_assert_eq(sepax_shapes_update_range(s, 0, 0), SEPAX_OK);
        cr_assert_eq(sepax_broadphase_raycast_closest(bp, s, NULL, NULL, 0, NULL, NULL), SEPAX_OK);
        uint32_t a, b;
        cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){0.0f, 0.0f}, 1.0f, &a), SEPAX_OK);
        cr_assert_eq(sepax_shapes_add_circle(s, (sepax_vec2){1.5f, 0.0f}, 1.0f, &b), SEPAX_OK);
        sepax_frame_options o = {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_LAZY};
        cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_OK);
        cr_assert_eq(count, 1);
        cr_assert(pairs[0].a == a && pairs[0].b == b);
        sepax_shapes_destroy(s);
        sepax_broadphase_destroy(bp);
    }
}
