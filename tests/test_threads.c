/* Many threads at once. First, before anything else in the process touches the library,
 * the threads ask for the backend together past a barrier: the first use, which chooses it,
 * races, and every thread must get the same one (helgrind, which tools/test.sh runs this
 * under, sees the race if the choice is not atomic). Then many threads query one store:
 * queries only read the store. Each thread runs every query kind over the same posed
 * mixed-kind store and compares its answers with the reference's, computed before the
 * threads start (overlap and collide at two margins, manifolds, sweeps, raycasts,
 * overlap_one, bounds). Then whole frames on the built-in pool against one thread's, and
 * sepax_shapes_update_range on runs of whole blocks, a thread each, against one update.
 * Plain C with pthreads (no Criterion), so a race detector can run it.
 * Usage: sepax-threads [--threads N] [--pairs N] [--rounds N] */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t under -std=c11 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <time.h>

#include "sepax_ref.h"
#include "store.h"
#include "workload.h"

typedef struct expected {
    const sepax_shapes *store;
    const sepax_pair *pairs;
    size_t n;
    float margin[2];
    uint8_t *hit[2];       /* reference overlap per margin */
    sepax_hit *coll[2];    /* reference collide per margin */
    uint8_t *one;          /* reference overlap_one: probe 0 against every shape */
    const sepax_vec2 *vel; /* sweeps: B's displacement per pair */
    const sepax_ray *rays; /* a ray per pair, against ray_ids */
    const uint32_t *ray_ids;
    sepax_manifold *man; /* reference manifolds, sweeps, raycasts (margin 0) */
    sepax_sweep_hit *sweep;
    sepax_ray_hit *ray;
    sepax_aabb *aabb; /* bounds of every shape */
    int rounds;
} expected;

typedef struct worker {
    const expected *e;
    pthread_t thread;
    size_t bad;
    sepax_status status;
} worker;

static void *work(void *arg) {
    worker *w = arg;
    const expected *e = w->e;
    uint32_t count = sepax_shapes_count(e->store);
    uint8_t *hit = malloc(e->n > count ? e->n : count);
    sepax_hit *coll = malloc(e->n * sizeof *coll);
    sepax_manifold *man = malloc(e->n * sizeof *man);
    sepax_sweep_hit *sweep = malloc(e->n * sizeof *sweep);
    sepax_ray_hit *ray = malloc(e->n * sizeof *ray);
    if (!hit || !coll || !man || !sweep || !ray) {
        w->status = SEPAX_ERR_NOMEM;
        free(hit);
        free(coll);
        free(man);
        free(sweep);
        free(ray);
        return NULL;
    }
    for (int r = 0; r < e->rounds && w->status == SEPAX_OK; r++) {
        for (int m = 0; m < 2; m++) {
            sepax_query_options opt = {.margin = e->margin[m]};
            sepax_status st = sepax_overlap_opt(e->store, e->pairs, e->n, &opt, hit);
            if (st == SEPAX_OK) st = sepax_collide_opt(e->store, e->pairs, e->n, &opt, coll);
            if (st != SEPAX_OK) {
                w->status = st;
                break;
            }
            w->bad += (size_t)(memcmp(hit, e->hit[m], e->n) != 0);
            w->bad += (size_t)(memcmp(coll, e->coll[m], e->n * sizeof *coll) != 0);
        }
        sepax_status st = sepax_collide_manifold(e->store, e->pairs, e->n, man);
        if (st == SEPAX_OK) st = sepax_sweep(e->store, e->pairs, e->n, NULL, e->vel, sweep);
        if (st == SEPAX_OK) st = sepax_raycast(e->store, e->rays, e->ray_ids, e->n, ray);
        if (st != SEPAX_OK) {
            w->status = st;
            break;
        }
        w->bad += (size_t)(memcmp(man, e->man, e->n * sizeof *man) != 0);
        w->bad += (size_t)(memcmp(sweep, e->sweep, e->n * sizeof *sweep) != 0);
        w->bad += (size_t)(memcmp(ray, e->ray, e->n * sizeof *ray) != 0);
        st = sepax_overlap_one(e->store, sepax_shapes_id(e->store, 0), 0, count, hit);
        if (st != SEPAX_OK) w->status = st;
        w->bad += (size_t)(st == SEPAX_OK && memcmp(hit, e->one, count) != 0);
        for (uint32_t i = 0; i < count; i += 97) { /* the accessors read the store too */
            sepax_aabb box;
            if (sepax_shapes_aabb(e->store, sepax_shapes_id(e->store, i), &box) != SEPAX_OK ||
                memcmp(&box, &e->aabb[i], sizeof box) != 0)
                w->bad++;
        }
    }
    free(hit);
    free(coll);
    free(man);
    free(sweep);
    free(ray);
    return NULL;
}

/* The first use of the library, raced: each thread waits at the barrier, then asks which
 * backend runs (sepax_get_backend chooses it on first use, as the first query would). */
typedef struct first_use {
    pthread_barrier_t *start;
    sepax_backend got;
} first_use;

static void *ask_backend(void *arg) {
    first_use *f = arg;
    pthread_barrier_wait(f->start);
    f->got = sepax_get_backend();
    return NULL;
}

/* 0 when every thread got the same backend, and a real one */
static int race_first_use(int threads) {
    pthread_barrier_t start;
    pthread_t t[64];
    first_use f[64];
    if (pthread_barrier_init(&start, NULL, (unsigned)threads) != 0) return 1;
    for (int i = 0; i < threads; i++) {
        f[i] = (first_use){&start, SEPAX_BACKEND_AUTO};
        if (pthread_create(&t[i], NULL, ask_backend, &f[i]) != 0) return 1;
    }
    int differ = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(t[i], NULL);
        differ |= f[i].got != f[0].got || f[i].got == SEPAX_BACKEND_AUTO;
    }
    pthread_barrier_destroy(&start);
    printf("%s %d threads chose the backend at once: %s\n", differ ? "FAIL" : "ok  ", threads,
           differ ? "they differ" : sepax_backend_name(f[0].got));
    return differ;
}

/* The threads of this process as Linux lists them (/proc/self/task), or -1 where it does not:
 * how the driver sees that the built-in pool started its helpers, which the frames' results
 * (the same on one thread by design) cannot show. */
static int os_threads(void) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* os_threads() once every thread this driver started and joined has left /proc/self/task:
 * a thread pthread_join has returned for can stay listed for a moment (long under valgrind),
 * and counting it as live before the pool starts made the pool look one helper short. Waits
 * up to 2 s, in 10 ms steps, for the count to reach `alone` (the calling thread alone); past
 * that, the last count (a thread of some library's own would keep it above). */
static int settled_os_threads(int alone) {
    const struct timespec step = {0, 10 * 1000 * 1000};
    int now = os_threads();
    for (int i = 0; i < 200 && now > alone; i++) {
        nanosleep(&step, NULL);
        now = os_threads();
    }
    return now;
}

/* One thread's share of a store's update: shapes first .. first+count-1 */
typedef struct range_job {
    pthread_t thread;
    sepax_shapes *store;
    uint32_t first;
    size_t count;
    sepax_status status;
} range_job;

static void *update_range(void *arg) {
    range_job *j = arg;
    j->status = sepax_shapes_update_range(j->store, j->first, j->count);
    return NULL;
}

/* The world arrays an update writes (records, discs, bounds, transposed rows), as bytes: the
 * views below show only the records. */
enum { WORLD_ARRAYS = 4 };
typedef struct world_bytes {
    const void *at[WORLD_ARRAYS];
    size_t bytes[WORLD_ARRAYS];
} world_bytes;

static world_bytes world_of(const sepax_shapes *s) {
    size_t n = sepax_shapes_count(s), blocks = (n + SEPAX_BLOCK_LANES - 1) / SEPAX_BLOCK_LANES;
    world_bytes w = {{s->rec, s->disc, s->aabb, s->block},
                     {n * sizeof *s->rec, n * sizeof *s->disc, blocks * sizeof *s->aabb,
                      blocks * sizeof *s->block}};
    return w;
}

/* sepax_shapes_update_range on `threads` threads at once, each a run of whole blocks, must
 * write the world data one whole update writes: every shape's view, and the four world arrays
 * byte for byte. Returns how many shapes (and arrays) differ, or 1 on a refusal. */
static size_t ranges_on_threads(const wl_config *cfg, int threads) {
    sepax_shapes *s = sepax_shapes_create(cfg->shapes);
    if (!s || wl_fill_store(s, cfg) != SEPAX_OK || wl_pose_randomly(s, cfg->seed ^ 0x51u)) return 1;
    uint32_t n = sepax_shapes_count(s);
    wl_view_copy *want = malloc(n * sizeof *want);
    sepax_pose *pose = malloc(n * sizeof *pose), *still = malloc(n * sizeof *still);
    range_job *job = calloc((size_t)threads, sizeof *job);
    const world_bytes world = world_of(s);
    void *world_want[WORLD_ARRAYS] = {0};
    for (int k = 0; k < WORLD_ARRAYS; k++) {
        if (!(world_want[k] = malloc(world.bytes[k]))) return 1;
        memcpy(world_want[k], world.at[k], world.bytes[k]);
    }
    if (!want || !pose || !still || !job) return 1;
    for (uint32_t i = 0; i < n; i++) {
        if (wl_copy_view(s, sepax_shapes_id(s, i), &want[i]) != SEPAX_OK ||
            sepax_shapes_get_pose(s, sepax_shapes_id(s, i), &pose[i]) != SEPAX_OK)
            return 1;
        still[i] = (sepax_pose){{0.0f, 0.0f}, {1.0f, 0.0f}};
    }
    /* world data of other poses, then the poses back without an update */
    if (sepax_shapes_set_poses(s, 0, n, still) || sepax_shapes_update(s) ||
        sepax_shapes_set_poses(s, 0, n, pose))
        return 1;
    uint32_t blocks = (n + SEPAX_BLOCK_SHAPES - 1) / SEPAX_BLOCK_SHAPES;
    for (int t = 0; t < threads; t++) {
        uint32_t b0 = (uint32_t)((uint64_t)blocks * (uint32_t)t / (uint32_t)threads);
        uint32_t b1 = (uint32_t)((uint64_t)blocks * (uint32_t)(t + 1) / (uint32_t)threads);
        uint32_t first = b0 * SEPAX_BLOCK_SHAPES, end = b1 * SEPAX_BLOCK_SHAPES;
        job[t] = (range_job){.store = s, .first = first, .count = (end < n ? end : n) - first};
        if (pthread_create(&job[t].thread, NULL, update_range, &job[t]) != 0) return 1;
    }
    size_t bad = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(job[t].thread, NULL);
        bad += job[t].status != SEPAX_OK;
    }
    for (uint32_t i = 0; i < n; i++) {
        wl_view_copy now;
        bad += wl_copy_view(s, sepax_shapes_id(s, i), &now) != SEPAX_OK ||
               memcmp(&now, &want[i], sizeof now) != 0;
    }
    for (int k = 0; k < WORLD_ARRAYS; k++) {
        bad += memcmp(world.at[k], world_want[k], world.bytes[k]) != 0;
        free(world_want[k]);
    }
    free(want);
    free(pose);
    free(still);
    free(job);
    sepax_shapes_destroy(s);
    return bad;
}

int main(int argc, char **argv) {
    int threads = 4, rounds = 3;
    wl_config cfg = wl_default();
    cfg.kinds = WL_MIXED;
    cfg.pairs = 100000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--pairs") == 0 && i + 1 < argc)
            cfg.pairs = strtoul(argv[++i], 0, 10);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--threads N] [--pairs N] [--rounds N]\n", argv[0]);
            return 2;
        }
    }
    if (threads < 1 || threads > 64 || rounds < 1 || cfg.pairs == 0) return 2;
    /* nothing above touched the library: the threads' first use chooses the backend */
    if (race_first_use(threads > 1 ? threads : 2)) return 1;
    sepax_shapes *store = sepax_shapes_create(cfg.shapes);
    if (!store || wl_fill_store(store, &cfg) != SEPAX_OK) return 1;
    uint32_t count = sepax_shapes_count(store);
    if (wl_pose_randomly(store, cfg.seed ^ 0x7badu) != SEPAX_OK) return 1;

    expected e = {.store = store, .n = cfg.pairs, .margin = {0.0f, 0.25f}, .rounds = rounds};
    sepax_pair *pairs = malloc(cfg.pairs * sizeof *pairs);
    e.one = malloc(count);
    e.aabb = malloc(count * sizeof *e.aabb);
    if (!pairs || !e.one || !e.aabb || wl_make_pairs(store, &cfg, pairs) != SEPAX_OK) return 1;
    e.pairs = pairs;
    for (int m = 0; m < 2; m++) {
        sepax_query_options opt = {.margin = e.margin[m]};
        e.hit[m] = malloc(cfg.pairs);
        e.coll[m] = malloc(cfg.pairs * sizeof *e.coll[m]);
        if (!e.hit[m] || !e.coll[m] ||
            sepax_ref_overlap_opt(store, pairs, cfg.pairs, &opt, e.hit[m]) != SEPAX_OK ||
            sepax_ref_collide_opt(store, pairs, cfg.pairs, &opt, e.coll[m]) != SEPAX_OK)
            return 1;
    }
    if (sepax_ref_overlap_one(store, sepax_shapes_id(store, 0), 0, count, e.one) != SEPAX_OK)
        return 1;
    sepax_vec2 *vel = malloc(cfg.pairs * sizeof *vel);
    sepax_ray *rays = malloc(cfg.pairs * sizeof *rays);
    uint32_t *ray_ids = malloc(cfg.pairs * sizeof *ray_ids);
    e.man = malloc(cfg.pairs * sizeof *e.man);
    e.sweep = malloc(cfg.pairs * sizeof *e.sweep);
    e.ray = malloc(cfg.pairs * sizeof *e.ray);
    if (!vel || !rays || !ray_ids || !e.man || !e.sweep || !e.ray) return 1;
    wl_bench_motion(store, pairs, cfg.pairs, cfg.seed, vel, rays, ray_ids);
    e.vel = vel;
    e.rays = rays;
    e.ray_ids = ray_ids;
    if (sepax_ref_collide_manifold(store, pairs, cfg.pairs, e.man) != SEPAX_OK ||
        sepax_ref_sweep(store, pairs, cfg.pairs, NULL, vel, e.sweep) != SEPAX_OK ||
        sepax_ref_raycast(store, rays, ray_ids, cfg.pairs, e.ray) != SEPAX_OK)
        return 1;
    for (uint32_t i = 0; i < count; i++)
        if (sepax_shapes_aabb(store, sepax_shapes_id(store, i), &e.aabb[i]) != SEPAX_OK) return 1;

    worker *w = calloc((size_t)threads, sizeof *w);
    if (!w) return 1;
    for (int t = 0; t < threads; t++) {
        w[t].e = &e;
        if (pthread_create(&w[t].thread, NULL, work, &w[t]) != 0) return 1;
    }
    size_t bad = 0;
    int failed = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(w[t].thread, NULL);
        bad += w[t].bad;
        if (w[t].status != SEPAX_OK) {
            printf("FAIL thread %d: %s\n", t, sepax_status_str(w[t].status));
            failed = 1;
        }
    }
    printf("%s %d threads x %d rounds on one store (%s backend), %zu pairs at 2 margins, "
           "manifolds, sweeps and raycasts, overlap_one over %u shapes: %zu result sets differ "
           "from the reference\n",
           bad || failed ? "FAIL" : "ok  ", threads, rounds,
           sepax_backend_name(sepax_get_backend()), cfg.pairs, count, bad);
    /* the whole-frame call on the built-in pool (helgrind checks its hand-offs): every
     * frame on `threads` threads must give one thread's results, bit for bit */
    size_t frame_bad = 0, pool_bad = 0, found = 0;
    {
        sepax_broadphase_config cfg1 = {1, NULL, NULL, 0},
                                cfgn = {(uint32_t)threads, NULL, NULL, 1};
        int before = settled_os_threads(1);
        sepax_broadphase *one = sepax_broadphase_create(&cfg1),
                         *many = sepax_broadphase_create(&cfgn);
        int started = os_threads() - before;
        /* the pool of `threads` runs threads - 1 helpers beside the caller; one thread, none */
        if (before >= 0) {
            printf("%s the pool of %d threads started %d helper threads\n",
                   started == threads - 1 ? "ok  " : "FAIL", threads, started);
            pool_bad = started != threads - 1;
        }
        size_t cap = (size_t)count * 16;
        sepax_pair *p1 = malloc(cap * sizeof *p1), *pn = malloc(cap * sizeof *pn);
        sepax_manifold *m1 = malloc(cap * sizeof *m1), *mn = malloc(cap * sizeof *mn);
        if (!one || !many || !p1 || !pn || !m1 || !mn) return 1;
        sepax_frame_options fo = {SEPAX_TEST_MANIFOLD, 0.05f, 0.0f, SEPAX_UPDATE_FRAME};
        for (int r = 0; r < rounds; r++) {
            sepax_contacts o1 = {p1, NULL, m1, cap}, on = {pn, NULL, mn, cap};
            size_t n1 = 0, nn = 0;
            if (sepax_find_contacts(one, store, &fo, &o1, &n1) != SEPAX_OK ||
                sepax_find_contacts(many, store, &fo, &on, &nn) != SEPAX_OK || n1 != nn ||
                memcmp(p1, pn, n1 * sizeof *p1) != 0 || memcmp(m1, mn, n1 * sizeof *m1) != 0)
                frame_bad++;
            found = n1;
        }
        printf("%s whole frames on %d threads: %zu contacts, %zu frames differ from one thread's\n",
               frame_bad || found == 0 ? "FAIL" : "ok  ", threads, found, frame_bad);
        if (found == 0) frame_bad++;
        free(p1);
        free(pn);
        free(m1);
        free(mn);
        sepax_broadphase_destroy(one);
        sepax_broadphase_destroy(many);
    }
    bad += frame_bad + pool_bad;
    /* the store's size, and one past the size where the update streams its writes */
    wl_config big = cfg;
    big.shapes = 20000;
    const wl_config *sizes[2] = {&cfg, &big};
    for (int k = 0; k < 2; k++) {
        size_t range_bad = ranges_on_threads(sizes[k], threads);
        printf("%s range updates on %d threads at once, %u shapes: %zu shapes or world arrays "
               "differ from one whole update\n",
               range_bad ? "FAIL" : "ok  ", threads, sizes[k]->shapes, range_bad);
        bad += range_bad;
    }
    for (int m = 0; m < 2; m++) {
        free(e.hit[m]);
        free(e.coll[m]);
    }
    free(e.one);
    free(e.aabb);
    free(pairs);
    free(vel);
    free(rays);
    free(ray_ids);
    free(e.man);
    free(e.sweep);
    free(e.ray);
    free(w);
    sepax_shapes_destroy(store);
    return bad || failed ? 1 : 0;
}
