/* How much of the caller's stack each public call takes, on every backend this CPU runs:
 * engines call sepax from job-system threads and fibers whose stacks are small, and
 * SEPAX_STACK_BYTES in sepax.h is the promise this checks. Each call runs on a thread of its
 * own whose stack ends SEPAX_STACK_BYTES above a no-access guard of 256 KiB or more (an overrun
 * faults, and the test fails; glibc keeps its thread block and TLS at the stack's top, so the
 * call gets a few KiB less than the promise, which makes the test the stricter), the stack
 * filled with a pattern first; the deepest byte the call changed is its use (space a frame
 * reserves and never writes is not seen, but the guard still catches it).
 * Long lists (chunked and sorted copies), every kind of shape, manifolds, sweeps, raycasts,
 * the update, hulls, the broadphase's queries and whole frames, on the built-in scheduler
 * and on a caller's scheduler that runs every task on the same small stack.
 * Skipped (exit 77) under sanitizers and valgrind, whose frames are not the library's, and
 * in unoptimized builds, which the promise leaves out (the figure is reported).
 * Usage: sepax-stack [--verbose] [--stack BYTES] (BYTES: another stack size to check, a
 * multiple of 4096, to see an overrun fault) */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "workload.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) ||                         \
    __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#endif
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

enum { PATTERN = 0xa5, PAIRS = 6000, RAYS = 5000 };

/* SEPAX_STACK_BYTES is promised for optimized builds (sepax's default is release); an
 * unoptimized one runs on a larger stack, reports, and counts as skipped */
#ifdef __OPTIMIZE__
#define STACK_SIZE ((size_t)SEPAX_STACK_BYTES)
#define SCRATCH_STACK_SIZE ((size_t)SEPAX_SCRATCH_STACK_BYTES)
#define OPTIMIZED 1
#else
#define STACK_SIZE ((size_t)4 << 20)
#define SCRATCH_STACK_SIZE ((size_t)4 << 20)
#define OPTIMIZED 0
#endif

typedef struct world {
    sepax_shapes *store;
    sepax_pair *pairs;
    size_t n;
    sepax_vec2 *vel;
    sepax_ray *rays;
    uint32_t *ray_ids;
    sepax_pose *poses;
    uint8_t *hit;
    sepax_hit *coll;
    sepax_manifold *man;
    sepax_sweep_hit *sweep;
    sepax_ray_hit *ray_hit;
    uint32_t *ids;
    sepax_pair *frame_pairs;
    sepax_hit *frame_hits;
    sepax_manifold *frame_man;
    size_t frame_cap;
    void *scratch; /* SEPAX_SCRATCH_BYTES for the queries given scratch */
} world;

typedef struct call {
    const char *name;
    sepax_status (*run)(world *w);
} call;

typedef struct job {
    const call *c;
    world *w;
    sepax_status status;
} job;

static sepax_status run_overlap(world *w) {
    return sepax_overlap(w->store, w->pairs, w->n, w->hit);
}
static sepax_status run_overlap_margin(world *w) {
    sepax_query_options o = {.margin = 0.25f};
    return sepax_overlap_opt(w->store, w->pairs, w->n, &o, w->hit);
}
static sepax_status run_collide(world *w) {
    return sepax_collide(w->store, w->pairs, w->n, w->coll);
}
static sepax_status run_manifold(world *w) {
    sepax_query_options o = {.margin = 0.1f};
    return sepax_collide_manifold_opt(w->store, w->pairs, w->n, &o, w->man);
}
static sepax_status run_sweep(world *w) {
    return sepax_sweep(w->store, w->pairs, w->n, NULL, w->vel, w->sweep);
}
static sepax_status run_sweep_both(world *w) {
    return sepax_sweep(w->store, w->pairs, w->n, w->vel, w->vel + 1, w->sweep);
}
static sepax_status run_raycast(world *w) {
    return sepax_raycast(w->store, w->rays, w->ray_ids, RAYS, w->ray_hit);
}
static sepax_status run_raycast_range(world *w) {
    return sepax_raycast_range(w->store, &w->rays[0], 0, sepax_shapes_count(w->store), w->ray_hit);
}
static sepax_status run_overlap_one(world *w) {
    return sepax_overlap_one(w->store, 7, 0, sepax_shapes_count(w->store), w->hit);
}
static sepax_status run_rot_many(world *w) {
    static float angle[1003]; /* static: the call's stack is what is measured */
    static sepax_rotation out[1003];
    for (int i = 0; i < 1003; i++) angle[i] = (float)i * 0.013f - 6.0f;
    (void)w;
    return sepax_rot_many(angle, 1003, out);
}

static sepax_status run_set_poses(world *w) {
    return sepax_shapes_set_poses(w->store, 0, sepax_shapes_count(w->store), w->poses);
}
static sepax_status run_update(world *w) { return sepax_shapes_update(w->store); }
/* the same queries given scratch (sepax_query_options.scratch) */
#define SCRATCH(w) .scratch = (w)->scratch, .scratch_bytes = SEPAX_SCRATCH_BYTES
static sepax_status run_overlap_s(world *w) {
    sepax_query_options o = {SCRATCH(w)};
    return sepax_overlap_opt(w->store, w->pairs, w->n, &o, w->hit);
}
static sepax_status run_overlap_margin_s(world *w) {
    sepax_query_options o = {.margin = 0.25f, SCRATCH(w)};
    return sepax_overlap_opt(w->store, w->pairs, w->n, &o, w->hit);
}
static sepax_status run_collide_s(world *w) {
    sepax_query_options o = {SCRATCH(w)};
    return sepax_collide_opt(w->store, w->pairs, w->n, &o, w->coll);
}
static sepax_status run_manifold_s(world *w) {
    sepax_query_options o = {.margin = 0.1f, SCRATCH(w)};
    return sepax_collide_manifold_opt(w->store, w->pairs, w->n, &o, w->man);
}
static sepax_status run_sweep_s(world *w) {
    sepax_query_options o = {SCRATCH(w)};
    return sepax_sweep_opt(w->store, w->pairs, w->n, NULL, w->vel, &o, w->sweep);
}
static sepax_status run_sweep_both_s(world *w) {
    sepax_query_options o = {SCRATCH(w)};
    return sepax_sweep_opt(w->store, w->pairs, w->n, w->vel, w->vel + 1, &o, w->sweep);
}
static sepax_status run_raycast_s(world *w) {
    sepax_query_options o = {SCRATCH(w)};
    return sepax_raycast_opt(w->store, w->rays, w->ray_ids, RAYS, &o, w->ray_hit);
}
static sepax_status run_overlap_one_s(world *w) {
    sepax_query_options o = {SCRATCH(w)};
    return sepax_overlap_one_opt(w->store, 7, 0, sepax_shapes_count(w->store), &o, w->hit);
}
#undef SCRATCH

static sepax_status run_hull(world *w) {
    /* off the stack, as the other calls' inputs are (in world): the figure is the hull's */
    static sepax_vec2 pts[SEPAX_HULL_MAX_POINTS], out[SEPAX_MAX_VERTS];
    wl_rng r = {99};
    int n = 0;
    (void)w;
    for (int i = 0; i < SEPAX_HULL_MAX_POINTS - 8; i++) { /* inside a square, then its corners */
        pts[n++] = (sepax_vec2){wl_unit(&r) * 2.0f - 1.0f, wl_unit(&r) * 2.0f - 1.0f};
    }
    const float c[8][2] = {{-2, -2}, {2, -2}, {2, 2}, {-2, 2}, {-2, 0}, {0, -2}, {2, 0}, {0, 2}};
    for (int i = 0; i < 8; i++) pts[n++] = (sepax_vec2){c[i][0], c[i][1]};
    int out_n = 0;
    return sepax_hull(pts, n, out, &out_n);
}

/* A caller's scheduler that runs every task in two pieces, one after the other, on the
 * calling thread: what the engine's threads would run, on the small stack under test. */
static void inline_for(sepax_task_fn *fn, uint32_t count, void *task_context, void *user) {
    (void)user;
    fn(0, count / 2, 0, task_context);
    fn(count / 2, count, 1, task_context);
}

static sepax_status frame(world *w, const sepax_scheduler *sched, const sepax_pose *poses, int test,
                          int update) {
    sepax_broadphase_config cfg = {1, sched, NULL, 1};
    sepax_broadphase *bp = sepax_broadphase_create(&cfg);
    if (!bp) return SEPAX_ERR_NOMEM;
    sepax_frame_options o = {test, 0.05f, 0.0f, update};
    sepax_contacts out = {w->frame_pairs, w->frame_hits, w->frame_man, w->frame_cap};
    size_t count = 0;
    sepax_status st = poses
                          ? sepax_find_contacts_posed(bp, w->store, 0, sepax_shapes_count(w->store),
                                                      poses, &o, &out, &count)
                          : sepax_find_contacts(bp, w->store, &o, &out, &count);
    sepax_broadphase_destroy(bp);
    return st;
}

/* the broadphase's queries on the grid a frame built */
static sepax_status run_bp_queries(world *w) {
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    if (!bp) return SEPAX_ERR_NOMEM;
    size_t count = 0;
    sepax_status st = sepax_broadphase_build(bp, w->store, 0.0f);
    if (st == SEPAX_OK) {
        sepax_aabb box = {{-1e4f, -1e4f}, {1e4f, 1e4f}};
        st = sepax_broadphase_query_aabb(bp, w->store, box, w->ids, w->frame_cap, &count);
        if (st == SEPAX_OK)
            st = sepax_broadphase_query_shape(bp, w->store, 5, 0.5f, w->ids, w->frame_cap, &count);
        if (st == SEPAX_OK)
            st = sepax_broadphase_query_ray(bp, w->store, &w->rays[1], w->ids, w->ray_hit,
                                            w->frame_cap, &count);
        if (st == SEPAX_OK)
            st = sepax_broadphase_raycast_closest(bp, w->store, w->rays, NULL, 2, w->ids,
                                                  w->ray_hit);
        const sepax_filter some = {1u, 0xffffffffu};
        if (st == SEPAX_OK)
            st = sepax_broadphase_query_aabb_filtered(bp, w->store, box, &some, w->ids,
                                                      w->frame_cap, &count);
        if (st == SEPAX_OK)
            st = sepax_broadphase_query_ray_filtered(bp, w->store, &w->rays[1], &some, w->ids,
                                                     w->ray_hit, w->frame_cap, &count);
    }
    sepax_broadphase_destroy(bp);
    return st;
}
/* raycast_range while the rows lag the records (after a frame's SEPAX_UPDATE_FRAME): its
 * pieces of rays through the pair kernel */
static sepax_status run_raycast_range_stale(world *w) {
    sepax_status st = frame(w, NULL, NULL, SEPAX_TEST_OVERLAP, SEPAX_UPDATE_FRAME);
    if (st == SEPAX_OK)
        st =
            sepax_raycast_range(w->store, &w->rays[0], 0, sepax_shapes_count(w->store), w->ray_hit);
    return st == SEPAX_OK ? sepax_shapes_update(w->store) : st;
}
static sepax_status run_frame_manifold(world *w) {
    return frame(w, NULL, NULL, SEPAX_TEST_MANIFOLD, SEPAX_UPDATE_ALL);
}
static sepax_status run_frame_collide_lazy(world *w) {
    sepax_status st = frame(w, NULL, NULL, SEPAX_TEST_COLLIDE, SEPAX_UPDATE_LAZY);
    return st == SEPAX_OK ? sepax_shapes_update(w->store) : st;
}
static sepax_status run_frame_scheduler(world *w) {
    sepax_scheduler s = {inline_for, 2, NULL};
    sepax_status st = SEPAX_OK;
    for (int t = SEPAX_TEST_AABB; t <= SEPAX_TEST_MANIFOLD && st == SEPAX_OK; t++)
        st = frame(w, &s, NULL, t, SEPAX_UPDATE_FRAME);
    return st == SEPAX_OK ? sepax_shapes_update(w->store) : st;
}

/* the frame given the store's poses (w->poses, as run_set_poses stores them), the check and
 * store passes on the caller's scheduler too */
static sepax_status run_frame_posed(world *w) {
    sepax_scheduler s = {inline_for, 2, NULL};
    sepax_status st = frame(w, &s, w->poses, SEPAX_TEST_MANIFOLD, SEPAX_UPDATE_FRAME);
    return st == SEPAX_OK ? sepax_shapes_update(w->store) : st;
}

/* The measure's own check: a call that writes PROBE bytes of its stack must measure at least
 * that much (and not much more) */
enum { PROBE = 40000 };
static sepax_status run_probe(world *w) {
    volatile unsigned char buf[PROBE];
    for (size_t i = 0; i < PROBE; i++) buf[i] = (unsigned char)(i * 7u + 1u) == PATTERN ? 0 : 1;
    (void)w;
    return buf[0] == 1 && buf[PROBE - 1] == 1 ? SEPAX_OK : SEPAX_ERR_NULL;
}

static const call k_calls[] = {
    {"overlap", run_overlap},
    {"overlap margin", run_overlap_margin},
    {"collide", run_collide},
    {"collide_manifold", run_manifold},
    {"sweep", run_sweep},
    {"sweep both moving", run_sweep_both},
    {"raycast", run_raycast},
    {"raycast_range", run_raycast_range},
    {"overlap_one", run_overlap_one},
    {"shapes_set_poses", run_set_poses},
    {"shapes_update", run_update},
    {"hull", run_hull},
    {"rot_many", run_rot_many},
};

/* What SEPAX_SCRATCH_STACK_BYTES promises: the queries given scratch, the broadphase's
 * queries and the hull (which need none), and the frame (its narrowphase in the broadphase's own
 * work memory), on a caller's scheduler too. */
static const call k_scratch_calls[] = {
    {"overlap scratch", run_overlap_s},
    {"overlap margin scratch", run_overlap_margin_s},
    {"collide scratch", run_collide_s},
    {"collide_manifold scratch", run_manifold_s},
    {"sweep scratch", run_sweep_s},
    {"sweep both scratch", run_sweep_both_s},
    {"raycast scratch", run_raycast_s},
    {"raycast_range", run_raycast_range},
    {"raycast_range, rows stale", run_raycast_range_stale},
    {"overlap_one scratch", run_overlap_one_s},
    {"broadphase queries", run_bp_queries},
    {"shapes_set_poses", run_set_poses},
    {"shapes_update", run_update},
    {"hull", run_hull},
    {"rot_many", run_rot_many},
    {"find_contacts manifold", run_frame_manifold},
    {"find_contacts lazy", run_frame_collide_lazy},
    {"find_contacts scheduler", run_frame_scheduler},
    {"find_contacts_posed scheduler", run_frame_posed},
};

/* What runs now, for the fault handler to name: an overrun faults on the guard */
static char g_running[128];
static size_t g_running_len;

static void on_fault(int sig) {
    static const char head[] = "stack: overran its stack (or faulted) in ";
    (void)sig;
    if (write(2, head, sizeof head - 1) < 0 || write(2, g_running, g_running_len) < 0) _exit(1);
    _exit(1);
}

static void *thread_main(void *arg) {
    job *j = arg;
    /* the handler needs a stack of its own: this one is what ran out */
    static _Alignas(16) unsigned char alt[1 << 16];
    stack_t ss = {0};
    ss.ss_sp = alt;
    ss.ss_size = sizeof alt;
    sigaltstack(&ss, NULL);
    j->status = j->c->run(j->w);
    return NULL;
}

/* Below the stack: a frame larger than this that overran would skip the guard */
#define GUARD ((size_t)256 << 10)

/* Runs c on a thread whose stack ends `size` bytes (a multiple of the page) above GUARD or
 * more bytes no one may touch; returns the bytes it touched, or 0 with *err set (an errno)
 * when the thread could not start, and *status the call's. */
static size_t stack_used(const call *c, world *w, size_t size, int *err, sepax_status *status) {
    /* pthread takes no stack below PTHREAD_STACK_MIN (128 KiB on aarch64): hand it that
     * much, and guard all of it below the top `size` bytes */
    long min = sysconf(_SC_THREAD_STACK_MIN);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t given = min > 0 && (size_t)min > size ? ((size_t)min + page - 1) / page * page : size;
    /* with pages larger than 4 KiB the guard starts at the page boundary below the stack's
     * `size` bytes, up to a page lower */
    size_t total = GUARD + given, below = (total - size) / page * page;
    *status = SEPAX_OK;
    unsigned char *map =
        mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (map == MAP_FAILED) {
        *err = errno;
        return 0;
    }
    unsigned char *stack = map + (total - size);
    size_t used = 0;
    job j = {c, w, SEPAX_OK};
    pthread_attr_t attr;
    pthread_t t;
    memset(stack, PATTERN, size);
    *err = mprotect(map, below, PROT_NONE) ? errno : 0;
    if (!*err) *err = pthread_attr_init(&attr);
    if (!*err) {
        *err = pthread_attr_setstack(&attr, map + GUARD, given);
        if (!*err) *err = pthread_create(&t, &attr, thread_main, &j);
        pthread_attr_destroy(&attr);
    }
    if (!*err) {
        pthread_join(t, NULL);
        size_t low = 0;
        while (low < size && stack[low] == PATTERN) low++;
        used = size - low;
        *status = j.status;
    }
    munmap(map, total);
    return used;
}

static int make_world(world *w) {
    wl_config cfg = wl_default();
    cfg.shapes = 4096;
    cfg.pairs = PAIRS;
    cfg.kinds = WL_MIXED;
    w->store = sepax_shapes_create(cfg.shapes);
    w->n = cfg.pairs;
    w->pairs = malloc(w->n * sizeof *w->pairs);
    w->vel = malloc((w->n + 1) * sizeof *w->vel);
    w->rays = malloc(w->n * sizeof *w->rays);
    w->ray_ids = malloc(w->n * sizeof *w->ray_ids);
    w->poses = malloc(cfg.shapes * sizeof *w->poses);
    w->hit = malloc(w->n > cfg.shapes ? w->n : cfg.shapes);
    w->coll = malloc(w->n * sizeof *w->coll);
    w->man = malloc(w->n * sizeof *w->man);
    w->sweep = malloc(w->n * sizeof *w->sweep);
    w->frame_cap = (size_t)cfg.shapes * 64;
    /* as many as the broadphase's ray queries are told (frame_cap): a capacity larger than the
     * buffer could span the ids' memory (SEPAX_ERR_ALIASED, depending on where malloc put them) */
    w->ray_hit = malloc((w->n > w->frame_cap ? w->n : w->frame_cap) * sizeof *w->ray_hit);
    w->ids = malloc(w->frame_cap * sizeof *w->ids);
    w->frame_pairs = malloc(w->frame_cap * sizeof *w->frame_pairs);
    w->frame_hits = malloc(w->frame_cap * sizeof *w->frame_hits);
    w->frame_man = malloc(w->frame_cap * sizeof *w->frame_man);
    w->scratch = aligned_alloc(SEPAX_SCRATCH_ALIGN, SEPAX_SCRATCH_BYTES);
    if (!w->store || !w->pairs || !w->vel || !w->rays || !w->ray_ids || !w->poses || !w->hit ||
        !w->coll || !w->man || !w->sweep || !w->ray_hit || !w->ids || !w->frame_pairs ||
        !w->frame_hits || !w->frame_man || !w->scratch)
        return 0;
    if (wl_fill_store(w->store, &cfg) != SEPAX_OK || wl_pose_randomly(w->store, 3) != SEPAX_OK ||
        wl_make_pairs(w->store, &cfg, w->pairs) != SEPAX_OK)
        return 0;
    wl_bench_motion(w->store, w->pairs, w->n, 11, w->vel, w->rays, w->ray_ids);
    w->vel[w->n] = (sepax_vec2){0.0f, 0.0f};
    for (uint32_t i = 0; i < cfg.shapes; i++) {
        uint32_t id = sepax_shapes_id(w->store, i);
        if (sepax_shapes_get_pose(w->store, id, &w->poses[i]) != SEPAX_OK) return 0;
    }
    return 1;
}

static void free_world(world *w) {
    sepax_shapes_destroy(w->store);
    free(w->pairs);
    free(w->vel);
    free(w->rays);
    free(w->ray_ids);
    free(w->poses);
    free(w->hit);
    free(w->coll);
    free(w->man);
    free(w->sweep);
    free(w->ray_hit);
    free(w->ids);
    free(w->frame_pairs);
    free(w->frame_hits);
    free(w->frame_man);
    free(w->scratch);
}

/* Runs c on a stack of `size` bytes and reports it: 0 when it ran and returned SEPAX_OK.
 * An overrun faults, and on_fault names the call. */
static int check(const call *c, const char *backend, world *w, size_t size, int verbose,
                 size_t *used) {
    int err;
    sepax_status st;
    int len = snprintf(g_running, sizeof g_running, "%s %s\n", backend, c->name);
    g_running_len = len < 0                          ? 0
                    : (size_t)len < sizeof g_running ? (size_t)len
                                                     : sizeof g_running - 1;
    *used = stack_used(c, w, size, &err, &st);
    if (err) {
        fprintf(stderr, "stack: %s %s: no thread: %s\n", backend, c->name, strerror(err));
        return 1;
    }
    if (st != SEPAX_OK) {
        fprintf(stderr, "stack: %s %s: %s\n", backend, c->name, sepax_status_str(st));
        return 1;
    }
    if (verbose) printf("%-8s %-24s %6zu bytes\n", backend, c->name, *used);
    return 0;
}

int main(int argc, char **argv) {
    int verbose = 0;
    size_t size = STACK_SIZE, scratch_size = SCRATCH_STACK_SIZE;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--verbose") == 0) {
            verbose = 1;
        } else if (strcmp(argv[i], "--stack") == 0 && i + 1 < argc) {
            size = (size_t)strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--scratch-stack") == 0 && i + 1 < argc) {
            scratch_size = (size_t)strtoull(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: %s [--verbose] [--stack BYTES] [--scratch-stack BYTES]\n",
                    argv[0]);
            return 2;
        }
    }
    if (size == 0 || size % 4096 != 0 || scratch_size == 0 || scratch_size % 4096 != 0) {
        fprintf(stderr, "stack: --stack and --scratch-stack take multiples of 4096\n");
        return 2;
    }
#ifdef SANITIZED
    puts("stack: skipped under a sanitizer (its frames are not the library's)");
    return 77;
#endif
    if (RUNNING_ON_VALGRIND) {
        puts("stack: skipped under valgrind");
        return 77;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_fault;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    world w = {0};
    if (!make_world(&w)) {
        fprintf(stderr, "stack: could not build the workload\n");
        free_world(&w);
        return 1;
    }
    int failed = 0;
    size_t worst = 0, worst_scratch = 0, used;
    const call probe = {"probe", run_probe};
    failed |= check(&probe, "-", &w, size, verbose, &used);
    if (used < PROBE || used > PROBE + 16384) {
        fprintf(stderr, "stack: the probe wrote %d bytes and measured %zu\n", PROBE, used);
        failed = 1;
    }
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        const char *name = sepax_backend_name((sepax_backend)b);
        if (!sepax_backend_available((sepax_backend)b)) continue;
        if (sepax_set_backend((sepax_backend)b) != SEPAX_OK) {
            fprintf(stderr, "stack: %s is available but cannot be set\n", name);
            failed = 1;
            continue;
        }
        for (size_t i = 0; i < sizeof k_calls / sizeof k_calls[0]; i++) {
            failed |= check(&k_calls[i], name, &w, size, verbose, &used);
            if (used > worst) worst = used;
        }
        for (size_t i = 0; i < sizeof k_scratch_calls / sizeof k_scratch_calls[0]; i++) {
            failed |= check(&k_scratch_calls[i], name, &w, scratch_size, verbose, &used);
            if (used > worst_scratch) worst_scratch = used;
        }
    }
    sepax_set_backend(SEPAX_BACKEND_AUTO);
    printf("stack: deepest call %zu bytes on a stack of %zu (SEPAX_STACK_BYTES %u); given "
           "scratch, %zu on a stack of %zu (SEPAX_SCRATCH_STACK_BYTES %u)%s%s\n",
           worst, size, (unsigned)SEPAX_STACK_BYTES, worst_scratch, scratch_size,
           (unsigned)SEPAX_SCRATCH_STACK_BYTES,
           OPTIMIZED ? "" : " (unoptimized build: not checked)", failed ? "; FAILED" : "");
    free_world(&w);
    return failed ? 1 : OPTIMIZED ? 0 : 77;
}
