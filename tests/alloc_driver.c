/* No hidden allocations: the queries, the hull, poses and updates, and a steady frame take
 * no memory from the C library, and a steady frame none from the broadphase's allocator
 * either (README: "a steady frame allocates nothing"). This program defines malloc and its
 * kin itself, passing each to glibc's own after counting it while a call under test runs, so
 * an allocation made anywhere on the call's path (a C library function the library calls
 * included, as qsort once did from sepax_hull) is seen. Plain C, glibc only; under valgrind
 * or a sanitizer, which bring their own malloc, it skips (exit 77).
 * Usage: sepax-alloc */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define CAN_COUNT 1
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);
void __libc_free(void *p);

/* allocations seen while `watching`; atomic, as the pool's threads may allocate too */
static atomic_int watching;
static atomic_long seen;

static void note(void) {
    if (atomic_load(&watching)) atomic_fetch_add(&seen, 1);
}

void *malloc(size_t size) {
    note();
    return __libc_malloc(size);
}
void *calloc(size_t n, size_t size) {
    note();
    return __libc_calloc(n, size);
}
void *realloc(void *p, size_t size) {
    note();
    return __libc_realloc(p, size);
}
void *aligned_alloc(size_t align, size_t size) {
    note();
    return __libc_memalign(align, size);
}
void *memalign(size_t align, size_t size) {
    note();
    return __libc_memalign(align, size);
}
int posix_memalign(void **out, size_t align, size_t size) {
    note();
    void *p = __libc_memalign(align, size);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}
void free(void *p) { __libc_free(p); }
#else
#define CAN_COUNT 0
static atomic_int watching;
static atomic_long seen;
#endif

/* The broadphase's own allocator, counted the same way. */
static atomic_long bp_allocs;
static void *bp_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    if (atomic_load(&watching)) atomic_fetch_add(&bp_allocs, 1);
    return aligned_alloc(align, (size + align - 1) / align * align);
}
static void bp_free(void *p, void *ctx) {
    (void)ctx;
    free(p);
}

static int failures;

/* Run `call` with the counters on; any allocation fails the check. */
#define NO_ALLOC(what, call)                                                                       \
    do {                                                                                           \
        atomic_store(&seen, 0);                                                                    \
        atomic_store(&bp_allocs, 0);                                                               \
        atomic_store(&watching, 1);                                                                \
        sepax_status st_ = (call);                                                                 \
        atomic_store(&watching, 0);                                                                \
        long n_ = atomic_load(&seen), b_ = atomic_load(&bp_allocs);                                \
        if (st_ != SEPAX_OK || n_ || b_) {                                                         \
            fprintf(stderr, "FAIL %s: %s, %ld C library and %ld broadphase allocations\n", what,   \
                    sepax_status_str(st_), n_, b_);                                                \
            failures++;                                                                            \
        } else {                                                                                   \
            printf("ok   %s\n", what);                                                             \
        }                                                                                          \
    } while (0)

/* sepax_hull on the points of a grid 7 wide (its hull, 4 corners): from 64 points on
 * glibc's qsort mallocs a copy. */
static sepax_status hull_of(int n) {
    sepax_vec2 pts[SEPAX_HULL_MAX_POINTS], out[SEPAX_MAX_VERTS];
    int out_n = 0;
    for (int i = 0; i < n; i++) pts[i] = (sepax_vec2){(float)(i % 7), (float)(i / 7)};
    return sepax_hull(pts, n, out, &out_n);
}

static sepax_status frame(sepax_broadphase *bp, sepax_shapes *store, int test, int update,
                          sepax_contacts *out, size_t *count) {
    sepax_frame_options o = {test, 0.0f, 0.0f, update};
    return sepax_find_contacts(bp, store, &o, out, count);
}

/* A frame run once to grow the broadphase's buffers, then again watched: it must allocate
 * nothing. For a lazy frame the first one also sets the candidate count that picks its path. */
static void steady_frame(sepax_broadphase *bp, sepax_shapes *store, int test, int update,
                         sepax_contacts *out, const char *what) {
    size_t count = 0;
    if (frame(bp, store, test, update, out, &count) != SEPAX_OK) {
        fprintf(stderr, "FAIL %s: the first frame\n", what);
        failures++;
        return;
    }
    NO_ALLOC(what, frame(bp, store, test, update, out, &count));
}

int main(void) {
    const char *preload = getenv("LD_PRELOAD");
    if (!CAN_COUNT ||
        (preload && strstr(preload, "vgpreload"))) { /* valgrind preloads its own malloc */
        printf("skipped: needs glibc without a preloaded or sanitizer malloc\n");
        return 77;
    }
    /* the counting itself: one malloc while watching is one seen (else every check passes) */
    void *(*volatile alloc_fn)(size_t) = malloc;
    atomic_store(&seen, 0);
    atomic_store(&watching, 1);
    void *probe = alloc_fn(16);
    atomic_store(&watching, 0);
    free(probe);
    if (atomic_load(&seen) != 1) {
        fprintf(stderr, "FAIL the counting: %ld allocations seen for one\n", atomic_load(&seen));
        return 1;
    }
    wl_config cfg = wl_default();
    cfg.kinds = WL_MIXED;
    cfg.shapes = 2048;
    cfg.pairs = 4096;
    sepax_shapes *store = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    uint8_t *hit = malloc(cfg.pairs);
    sepax_hit *hits = malloc(cfg.pairs * sizeof *hits);
    sepax_manifold *man = malloc(cfg.pairs * sizeof *man);
    sepax_sweep_hit *sw = malloc(cfg.pairs * sizeof *sw);
    sepax_ray_hit *rh = malloc(cfg.pairs * sizeof *rh);
    sepax_vec2 *vel = malloc(cfg.pairs * sizeof *vel);
    sepax_ray *rays = malloc(cfg.pairs * sizeof *rays);
    uint32_t *ray_ids = malloc(cfg.pairs * sizeof *ray_ids);
    sepax_pose *poses = malloc(cfg.shapes * sizeof *poses);
    void *scratch = aligned_alloc(SEPAX_SCRATCH_ALIGN, SEPAX_SCRATCH_BYTES);
    if (!store || !pairs || !hit || !hits || !man || !sw || !rh || !vel || !rays || !ray_ids ||
        !poses || !scratch || wl_fill_store(store, &cfg) != SEPAX_OK ||
        wl_make_pairs(store, &cfg, pairs) != SEPAX_OK) {
        fprintf(stderr, "setup failed\n");
        return 2;
    }
    wl_bench_motion(store, pairs, cfg.pairs, cfg.seed, vel, rays, ray_ids);
    for (uint32_t i = 0; i < cfg.shapes; i++)
        poses[i] = (sepax_pose){{0.0f, 0.0f}, sepax_rot(0.001f * (float)i)};
    sepax_query_options opt = {0.0f, scratch, SEPAX_SCRATCH_BYTES};
    size_t n = cfg.pairs;

    NO_ALLOC("sepax_hull, 23 points", hull_of(23));
    NO_ALLOC("sepax_hull, 200 points", hull_of(200));
    NO_ALLOC("sepax_hull, 512 points", hull_of(SEPAX_HULL_MAX_POINTS));
    /* adds within the capacity the store was made with, and a removal */
    sepax_shapes *small = sepax_shapes_create(8);
    uint32_t id = 0;
    sepax_move moved;
    sepax_vec2 tri[3] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}};
    if (!small) return 2;
    NO_ALLOC("sepax_shapes_add_circle, within capacity",
             sepax_shapes_add_circle(small, (sepax_vec2){0.0f, 0.0f}, 1.0f, &id));
    NO_ALLOC("sepax_shapes_add_polygon, within capacity",
             sepax_shapes_add_polygon(small, tri, 3, &id));
    NO_ALLOC("sepax_shapes_remove", sepax_shapes_remove(small, id, &moved));
    uint32_t set[2] = {sepax_shapes_id(small, 0), 0}, nmoves = 0;
    NO_ALLOC("sepax_shapes_add_circle, again",
             sepax_shapes_add_circle(small, (sepax_vec2){2.0f, 0.0f}, 1.0f, &set[1]));
    NO_ALLOC("sepax_shapes_remove_many", sepax_shapes_remove_many(small, set, 2, NULL, &nmoves));
    sepax_shapes_destroy(small);
    {
        static float angle[1001];
        static sepax_rotation rot[1001];
        for (int i = 0; i < 1001; i++) angle[i] = 0.001f * (float)i;
        NO_ALLOC("sepax_rot_many", sepax_rot_many(angle, 1001, rot));
    }
    NO_ALLOC("sepax_shapes_set_poses", sepax_shapes_set_poses(store, 0, cfg.shapes, poses));
    NO_ALLOC("sepax_shapes_update", sepax_shapes_update(store));
    NO_ALLOC("sepax_shapes_update_range", sepax_shapes_update_range(store, 3, cfg.shapes / 2));
    NO_ALLOC("sepax_overlap", sepax_overlap(store, pairs, n, hit));
    NO_ALLOC("sepax_collide", sepax_collide(store, pairs, n, hits));
    NO_ALLOC("sepax_collide_manifold", sepax_collide_manifold(store, pairs, n, man));
    NO_ALLOC("sepax_sweep", sepax_sweep(store, pairs, n, NULL, vel, sw));
    NO_ALLOC("sepax_raycast", sepax_raycast(store, rays, ray_ids, n, rh));
    NO_ALLOC("sepax_overlap_opt, scratch", sepax_overlap_opt(store, pairs, n, &opt, hit));
    NO_ALLOC("sepax_collide_manifold_opt, scratch",
             sepax_collide_manifold_opt(store, pairs, n, &opt, man));
    NO_ALLOC("sepax_sweep_opt, scratch", sepax_sweep_opt(store, pairs, n, NULL, vel, &opt, sw));
    NO_ALLOC("sepax_raycast_opt, scratch", sepax_raycast_opt(store, rays, ray_ids, n, &opt, rh));
    NO_ALLOC("sepax_overlap_one", sepax_overlap_one(store, 0, 0, cfg.shapes, hit));
    NO_ALLOC("sepax_raycast_range", sepax_raycast_range(store, &rays[0], 0, cfg.shapes, rh));

    /* frames: the first grows the broadphase's memory, the same frame again takes none */
    sepax_allocator counted = {bp_alloc, bp_free, NULL};
    /* room for every contact of these frames: each shape touches a few neighbours */
    size_t cap = 16 * (size_t)cfg.shapes;
    sepax_pair *cpairs = malloc(cap * sizeof *cpairs);
    sepax_hit *chits = malloc(cap * sizeof *chits);
    sepax_manifold *cman = malloc(cap * sizeof *cman);
    if (!cpairs || !chits || !cman) return 2;
    sepax_contacts out = {cpairs, chits, cman, cap};
    for (uint32_t threads = 1; threads <= 2; threads++) {
        sepax_broadphase_config bc = {threads, NULL, &counted, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&bc);
        /* every test; NONE after the updating frames, so the records are current */
        const int tests[] = {SEPAX_TEST_AABB, SEPAX_TEST_OVERLAP, SEPAX_TEST_COLLIDE,
                             SEPAX_TEST_MANIFOLD};
        const int updates[] = {SEPAX_UPDATE_FRAME, SEPAX_UPDATE_ALL, SEPAX_UPDATE_NONE};
        for (int t = 0; bp && t < 4; t++) {
            for (int u = 0; u < 3; u++) {
                char what[96];
                snprintf(what, sizeof what, "steady frame, %u thread(s), test %d, update %d",
                         threads, tests[t], updates[u]);
                steady_frame(bp, store, tests[t], updates[u], &out, what);
            }
        }
        if (bp) {
            uint32_t ids[256];
            sepax_ray_hit rhits[256];
            size_t count = 0;
            sepax_status st = frame(bp, store, SEPAX_TEST_OVERLAP, SEPAX_UPDATE_ALL, &out, &count);
            if (st != SEPAX_OK) failures++;
            sepax_aabb box = {{0.0f, 0.0f}, {20.0f, 20.0f}};
            /* the store's poses given to the frame: checked and stored by the workers */
            uint32_t nshapes = sepax_shapes_count(store);
            sepax_pose *now = malloc(nshapes * sizeof *now);
            if (!now) return 2;
            for (uint32_t i = 0; i < nshapes; i++)
                sepax_shapes_get_pose(store, sepax_shapes_id(store, i), &now[i]);
            sepax_frame_options po = {SEPAX_TEST_COLLIDE, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
            if (sepax_find_contacts_posed(bp, store, 0, sepax_shapes_count(store), now, &po, &out,
                                          &count) != SEPAX_OK)
                failures++;
            NO_ALLOC("sepax_find_contacts_posed, steady",
                     sepax_find_contacts_posed(bp, store, 0, sepax_shapes_count(store), now, &po,
                                               &out, &count));
            free(now);
            NO_ALLOC("sepax_broadphase_query_aabb",
                     sepax_broadphase_query_aabb(bp, store, box, ids, 256, &count));
            NO_ALLOC("sepax_broadphase_query_shape",
                     sepax_broadphase_query_shape(bp, store, 0, 0.0f, ids, 256, &count));
            NO_ALLOC("sepax_broadphase_query_ray",
                     sepax_broadphase_query_ray(bp, store, &rays[0], ids, rhits, 256, &count));
            const sepax_filter some = {1u, 0x5u};
            NO_ALLOC("sepax_broadphase_query_aabb_filtered",
                     sepax_broadphase_query_aabb_filtered(bp, store, box, &some, ids, 256, &count));
            NO_ALLOC("sepax_broadphase_query_ray_filtered",
                     sepax_broadphase_query_ray_filtered(bp, store, &rays[0], &some, ids, rhits,
                                                         256, &count));
            NO_ALLOC("sepax_broadphase_raycast_closest",
                     sepax_broadphase_raycast_closest(bp, store, rays, NULL, 4, ids, rhits));
            sepax_broadphase_stats stats;
            NO_ALLOC("sepax_broadphase_stats_get", sepax_broadphase_stats_get(bp, &stats));
            uint32_t *order = malloc(cfg.shapes * sizeof *order);
            if (!order) return 2;
            NO_ALLOC("sepax_broadphase_order",
                     sepax_broadphase_order(bp, store, order, sepax_shapes_count(store)));
            free(order);
            /* a grid built again over the same shapes: its buffers are grown already */
            NO_ALLOC("sepax_broadphase_build, again", sepax_broadphase_build(bp, store, 0.0f));
            /* a trim only frees; the frame after it grows its room again and finds as much */
            size_t before = 0, after = 0;
            if (frame(bp, store, SEPAX_TEST_MANIFOLD, SEPAX_UPDATE_ALL, &out, &before) != SEPAX_OK)
                failures++;
            NO_ALLOC("sepax_broadphase_trim", sepax_broadphase_trim(bp));
            if (frame(bp, store, SEPAX_TEST_MANIFOLD, SEPAX_UPDATE_ALL, &out, &after) != SEPAX_OK ||
                after != before) {
                fprintf(stderr, "FAIL the frame after a trim: %zu results, %zu before\n", after,
                        before);
                failures++;
            }
        } else {
            fprintf(stderr, "FAIL broadphase_create\n");
            failures++;
        }
        sepax_broadphase_destroy(bp);
    }
    /* lazy frames on their lazy path: a bullet-hell's filters (most shapes meet only the few
     * "players"), so the last frame's candidates stay under an eighth of the shapes, on a
     * broadphase of their own */
    sepax_filter *filters = malloc(cfg.shapes * sizeof *filters);
    if (!filters) return 2;
    for (uint32_t i = 0; i < cfg.shapes; i++)
        filters[i] = i % 97 == 0 ? (sepax_filter){2u, 1u} : (sepax_filter){1u, 2u};
    if (sepax_shapes_set_filters(store, 0, cfg.shapes, filters) != SEPAX_OK) return 2;
    {
        uint64_t u[4] = {1, 2, 3, 4};
        uint32_t some[4] = {0, 1, 2, 3};
        NO_ALLOC("sepax_shapes_set_user", sepax_shapes_set_user(store, 0, 4, u));
        NO_ALLOC("sepax_shapes_get_user", sepax_shapes_get_user(store, some, 4, u));
    }
    for (uint32_t threads = 1; threads <= 2; threads++) {
        sepax_broadphase_config bc = {threads, NULL, &counted, 1};
        sepax_broadphase *bp = sepax_broadphase_create(&bc);
        if (!bp) return 2;
        for (int test = SEPAX_TEST_AABB; test <= SEPAX_TEST_MANIFOLD; test++) {
            char what[96];
            snprintf(what, sizeof what, "steady lazy frame, %u thread(s), test %d", threads, test);
            steady_frame(bp, store, test, SEPAX_UPDATE_LAZY, &out, what);
            sepax_broadphase_stats st;
            if (sepax_broadphase_stats_get(bp, &st) != SEPAX_OK || st.candidates > cfg.shapes / 8) {
                fprintf(stderr, "FAIL %s: %zu candidates, not the lazy path\n", what,
                        st.candidates);
                failures++;
            }
        }
        sepax_broadphase_destroy(bp);
    }
    free(filters);
    sepax_shapes_destroy(store);
    free(cpairs);
    free(chits);
    free(cman);
    free(pairs);
    free(hit);
    free(hits);
    free(man);
    free(sw);
    free(rh);
    free(vel);
    free(rays);
    free(ray_ids);
    free(poses);
    free(scratch);
    if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
