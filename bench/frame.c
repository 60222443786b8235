/* sepax-bench-frame: whole frames of an embedded scene (bench/scenes.h) through
 * sepax_find_contacts, per backend and thread count.
 *
 *   sepax-bench-frame [--scene bullet-hell|particles] [--n N] [--frames F] [--warmup W]
 *       [--threads 1,2] [--backend best|all|NAME,NAME...] [--seed S] [--cell E] [--reorder R]
 *       [--update frame|all|lazy] [--poses frame|set]
 *       [--evict MB]
 *
 * Frames 0 .. W-1 warm up, frames W .. W+F-1 are measured; each figure is the median over
 * the measured frames. Every configuration (backend x threads) runs every frame, one after the
 * other (interleaved; frame f starts from configuration f mod their count, so that none always
 * runs right after another on the same data), on one store: per frame and configuration, timed
 * one after another,
 *   update       sepax_shapes_set_poses (the frame's poses, computed before, untimed)
 *                + sepax_shapes_update (one thread)
 *   broadphase   sepax_find_contacts(SEPAX_TEST_AABB, SEPAX_UPDATE_NONE): grid, pairs, filters;
 *                its count is the candidate pairs
 *   narrowphase  sepax_find_contacts(SEPAX_TEST_OVERLAP, SEPAX_UPDATE_NONE) minus the
 *                broadphase run
 *   frame        sepax_find_contacts_posed(the poses, SEPAX_TEST_OVERLAP, 0,
 * sepax_shapes_count(SEPAX_TEST_OVERLAP), SEPAX_UPDATE_FRAME): the whole frame in one call, the
 * poses' check and store and the update split over the threads too (and without the rows only the
 * range queries read; with --update all, SEPAX_UPDATE_ALL: with them; with --update lazy,
 *                SEPAX_UPDATE_LAZY: every bound, then only the candidate pairs' records);
 *                with --poses set, sepax_shapes_set_poses (serial) + sepax_find_contacts
 * and the one-call frame's phases as sepax_broadphase_stats times them (update, grid build,
 * pairing with the test, the results' copy), each a median over the frames in its own right.
 * Every frame's contacts (pairs and their order) are hashed, and must be the same for every
 * configuration and for both overlap runs; a difference is reported and the exit status is
 * 1. Memory: the store and each broadphase get a counting allocator (bytes live after the
 * last frame, per shape), beside sepax_broadphase_stats.bytes; and the process's peak RSS.
 *
 * The one-call frame runs last, on the data the separate runs just read (warm caches), unless
 * --only-frame 1; --evict MB reads and writes MB MiB of another buffer before each timed run
 * (64: twice this host's L3), so that each starts with none of its data in the caches.
 *
 * --only-frame 1: only the one-call frame runs (the other columns print "-"), so that an
 * instruction count under callgrind (bench/callgrind-frame.sh) is the frame's alone.
 *
 * --reorder R: after every R-th frame (frame 0 included), untimed in the frame figures and
 * reported on its own, the store is put in the order of the grid that frame built, as a game
 * would now and then (sepax_broadphase_order, sepax_shapes_reorder); the scene's shapes are
 * posed through their new indices from then on. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "frame_util.h"
#include "scenes.h"

#define MAX_CONFIGS 64

/* ---- a counting allocator: live bytes (what was asked for) ---- */
typedef struct counter {
    size_t live, peak;
} counter;

static void *count_alloc(size_t size, size_t align, void *ctx) {
    counter *c = ctx;
    if (align < 16) align = 16;
    size_t head = align > 2 * sizeof(size_t) ? align : 2 * sizeof(size_t);
    unsigned char *raw = malloc(size + head + align);
    if (!raw) return NULL;
    uintptr_t p = ((uintptr_t)raw + head + align - 1) & ~(uintptr_t)(align - 1);
    ((size_t *)p)[-1] = size;
    ((void **)p)[-2] = raw;
    c->live += size;
    if (c->live > c->peak) c->peak = c->live;
    return (void *)p;
}

static void count_free(void *ptr, void *ctx) {
    counter *c = ctx;
    c->live -= ((size_t *)ptr)[-1];
    free(((void **)ptr)[-2]);
}

enum { PHASES = 4 }; /* of the one-call frame, as sepax_broadphase_stats gives them */

typedef struct config {
    sepax_backend backend;
    uint32_t threads;
    sepax_broadphase *bp;
    counter mem;
    double *update, *broad, *overlap, *frame; /* ms, per measured frame */
    double *phase[PHASES];                    /* ms, per measured frame */
    size_t *candidates, *contacts;
    uint64_t *hash; /* per frame (all frames) */
    int mismatch;
} config;

typedef struct opts {
    const char *scene, *threads, *backends;
    uint32_t n, frames, warmup;
    uint64_t seed;
    float cell;
    uint32_t reorder; /* every this many frames; 0: never */
    int update;       /* the one-call frame's sepax_frame_update */
    int only_frame;   /* run only the one-call frame (for instruction counts under callgrind) */
    int posed;        /* the one-call frame takes the poses (sepax_find_contacts_posed) */
    uint32_t evict;   /* MiB read and written before each timed run; 0: none */
} opts;

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [--scene bullet-hell|particles] [--n N] [--frames F] [--warmup W]\n"
            "  [--threads 1,2] [--backend best|all|NAME,...] [--seed S] [--cell E] [--reorder R]\n"
            "  [--update frame|all|lazy] [--only-frame 0|1] [--poses frame|set] [--evict MB]\n",
            argv0);
    exit(2);
}

static uint64_t hash_pairs(const sepax_pair *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i].a) * 0x100000001b3ull;
        h = (h ^ p[i].b) * 0x100000001b3ull;
    }
    return h;
}

/* a buffer for the results, grown (and the call repeated) when too small */
typedef struct outbuf {
    sepax_pair *pairs;
    size_t cap;
} outbuf;

/* The frame's call: given the poses (sepax_find_contacts_posed) unless `poses` is NULL. */
static sepax_status find(config *c, sepax_shapes *store, const sepax_pose *poses, int test,
                         int update, float cell, outbuf *out, size_t *count) {
    sepax_frame_options o = {test, 0.0f, cell, update};
    sepax_contacts dst = {out->pairs, NULL, NULL, out->cap};
    return poses ? sepax_find_contacts_posed(c->bp, store, 0, sepax_shapes_count(store), poses, &o,
                                             &dst, count)
                 : sepax_find_contacts(c->bp, store, &o, &dst, count);
}

static void grow(outbuf *out, size_t need) {
    free(out->pairs);
    out->cap = need + need / 4 + 4096;
    out->pairs = frame_xmalloc(out->cap * sizeof *out->pairs);
}

int main(int argc, char **argv) {
    frame_set_name("sepax-bench-frame");
    opts o = {"bullet-hell", "1,2", "best", 100000, 10, 3, 0, 0.0f, 0, SEPAX_UPDATE_FRAME, 0, 1, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage(argv[0]);
        i++;
        if (strcmp(a, "--scene") == 0)
            o.scene = v;
        else if (strcmp(a, "--n") == 0)
            o.n = (uint32_t)strtoul(v, 0, 10);
        else if (strcmp(a, "--frames") == 0)
            o.frames = (uint32_t)strtoul(v, 0, 10);
        else if (strcmp(a, "--warmup") == 0)
            o.warmup = (uint32_t)strtoul(v, 0, 10);
        else if (strcmp(a, "--threads") == 0)
            o.threads = v;
        else if (strcmp(a, "--backend") == 0)
            o.backends = v;
        else if (strcmp(a, "--seed") == 0)
            o.seed = strtoull(v, 0, 0);
        else if (strcmp(a, "--cell") == 0)
            o.cell = (float)atof(v);
        else if (strcmp(a, "--reorder") == 0)
            o.reorder = (uint32_t)strtoul(v, 0, 10);
        else if (strcmp(a, "--update") == 0 && strcmp(v, "frame") == 0)
            o.update = SEPAX_UPDATE_FRAME;
        else if (strcmp(a, "--update") == 0 && strcmp(v, "all") == 0)
            o.update = SEPAX_UPDATE_ALL;
        else if (strcmp(a, "--update") == 0 && strcmp(v, "lazy") == 0)
            o.update = SEPAX_UPDATE_LAZY;
        else if (strcmp(a, "--only-frame") == 0)
            o.only_frame = atoi(v) != 0;
        else if (strcmp(a, "--poses") == 0 && strcmp(v, "frame") == 0)
            o.posed = 1;
        else if (strcmp(a, "--poses") == 0 && strcmp(v, "set") == 0)
            o.posed = 0;
        else if (strcmp(a, "--evict") == 0)
            o.evict = frame_arg_u32(v);
        else
            usage(argv[0]);
    }
    if (o.frames < 1) usage(argv[0]);

    /* backends */
    sepax_backend backends[16];
    int nb = 0;
    if (strcmp(o.backends, "best") == 0) {
        backends[nb++] = sepax_get_backend();
    } else if (strcmp(o.backends, "all") == 0) {
        for (int b = 0; b < SEPAX_BACKEND_COUNT; b++)
            if (sepax_backend_available((sepax_backend)b)) backends[nb++] = (sepax_backend)b;
    } else {
        char *list = frame_xmalloc(strlen(o.backends) + 1);
        strcpy(list, o.backends);
        for (char *tok = strtok(list, ","); tok && nb < 16; tok = strtok(NULL, ",")) {
            sepax_backend b;
            if (sepax_backend_from_name(tok, &b) != SEPAX_OK || !sepax_backend_available(b)) {
                fprintf(stderr, "sepax-bench-frame: backend %s is not available here\n", tok);
                return 2;
            }
            backends[nb++] = b;
        }
        free(list);
    }
    uint32_t threads[16];
    int nt = 0;
    {
        char *list = frame_xmalloc(strlen(o.threads) + 1);
        strcpy(list, o.threads);
        for (char *tok = strtok(list, ","); tok && nt < 16; tok = strtok(NULL, ",")) {
            long t = strtol(tok, NULL, 10);
            if (t < 1 || t > SEPAX_MAX_WORKERS) usage(argv[0]);
            threads[nt++] = (uint32_t)t;
        }
        free(list);
    }
    if (nb == 0 || nt == 0) usage(argv[0]);

    scene *sc = scene_create(o.scene, o.n, o.seed);
    if (!sc) {
        fprintf(stderr, "sepax-bench-frame: cannot make scene %s with n = %u\n", o.scene, o.n);
        return 2;
    }
    uint32_t count = scene_count(sc), total = o.warmup + o.frames;
    counter store_mem = {0, 0};
    sepax_allocator store_alloc = {count_alloc, count_free, &store_mem};
    sepax_shapes *store = sepax_shapes_create_with(count, &store_alloc);
    if (!store) frame_die("sepax_shapes_create_with", SEPAX_ERR_NOMEM);
    sepax_status st = scene_add_to(sc, store);
    if (st != SEPAX_OK) frame_die("scene_add_to", st);
    st = sepax_shapes_update(store);
    if (st != SEPAX_OK) frame_die("sepax_shapes_update", st);

    int nc = nb * nt;
    config *cfg = calloc((size_t)nc, sizeof *cfg);
    if (!cfg) frame_die("calloc", SEPAX_ERR_NOMEM);
    for (int b = 0; b < nb; b++)
        for (int t = 0; t < nt; t++) {
            config *c = &cfg[b * nt + t];
            c->backend = backends[b];
            c->threads = threads[t];
            sepax_allocator alloc = {count_alloc, count_free, &c->mem};
            sepax_broadphase_config bc = {threads[t], NULL, &alloc, 0};
            c->bp = sepax_broadphase_create(&bc);
            if (!c->bp) frame_die("sepax_broadphase_create", SEPAX_ERR_NOMEM);
            c->update = frame_xmalloc(o.frames * sizeof(double));
            c->broad = frame_xmalloc(o.frames * sizeof(double));
            c->overlap = frame_xmalloc(o.frames * sizeof(double));
            c->frame = frame_xmalloc(o.frames * sizeof(double));
            for (int q = 0; q < PHASES; q++) c->phase[q] = frame_xmalloc(o.frames * sizeof(double));
            c->candidates = frame_xmalloc(o.frames * sizeof(size_t));
            c->contacts = frame_xmalloc(o.frames * sizeof(size_t));
            c->hash = frame_xmalloc(total * sizeof(uint64_t));
        }

    sepax_pose *poses = frame_xmalloc(count * sizeof *poses);
    /* the store index of each scene shape (moved by --reorder), and the poses in store order */
    uint32_t *slot = frame_xmalloc(count * sizeof *slot);
    uint32_t *order = frame_xmalloc(count * sizeof *order);
    uint32_t *new_id = frame_xmalloc(count * sizeof *new_id);
    sepax_pose *store_poses = frame_xmalloc(count * sizeof *store_poses);
    for (uint32_t i = 0; i < count; i++) slot[i] = i;
    double reorder_ms = 0;
    uint32_t reorders = 0;
    outbuf out = {NULL, 0};
    grow(&out, count);
    int mismatch = 0;
    double pose_ms = 0;
    uint64_t pose_hash = 0xcbf29ce484222325ull; /* the scene's bits: every pose of every frame */
    for (uint32_t f = 0; f < total; f++) {
        double p0 = frame_now_ns();
        scene_poses(sc, f, poses);
        pose_ms += (frame_now_ns() - p0) / 1e6;
        for (uint32_t i = 0; i < count; i++) {
            uint32_t w[4];
            memcpy(w, &poses[i], sizeof w);
            for (int k = 0; k < 4; k++) pose_hash = (pose_hash ^ w[k]) * 0x100000001b3ull;
        }
        for (uint32_t i = 0; i < count; i++) store_poses[slot[i]] = poses[i];
        /* the configurations in turn, from a different one each frame, so that none always
         * runs right after another on the same frame's data */
        for (int kk = 0; kk < nc; kk++) {
            config *c = &cfg[(kk + (int)(f % (uint32_t)nc)) % nc];
            st = sepax_set_backend(c->backend);
            if (st != SEPAX_OK) frame_die("sepax_set_backend", st);
            size_t cand = 0, hits = 0, hits1 = 0;
            /* update t0 .. tu, AABB run t1 .. t2, overlap run t2b .. t3, the frame t4 .. t5 */
            double t0 = 0, tu = 0, t1 = 0, t2 = 0, t2b = 0, t3 = 0, t4, t5;
            for (;;) { /* repeated when the buffer was too small */
                uint64_t h_overlap = 0;
                if (!o.only_frame) { /* the separate runs */
                    frame_evict(o.evict);
                    t0 = frame_now_ns();
                    st = sepax_shapes_set_poses(store, 0, count, store_poses);
                    if (st == SEPAX_OK) st = sepax_shapes_update(store);
                    if (st != SEPAX_OK) frame_die("update", st);
                    tu = frame_now_ns();
                    frame_evict(o.evict);
                    t1 = frame_now_ns();
                    st = find(c, store, NULL, SEPAX_TEST_AABB, 0, o.cell, &out, &cand);
                    t2 = frame_now_ns();
                    if (st == SEPAX_ERR_CAPACITY) {
                        grow(&out, cand);
                        continue;
                    }
                    if (st != SEPAX_OK) frame_die("sepax_find_contacts (AABB)", st);
                    frame_evict(o.evict);
                    t2b = frame_now_ns();
                    st = find(c, store, NULL, SEPAX_TEST_OVERLAP, 0, o.cell, &out, &hits);
                    t3 = frame_now_ns();
                    if (st != SEPAX_OK) frame_die("sepax_find_contacts (OVERLAP)", st);
                    h_overlap = hash_pairs(out.pairs, hits);
                }
                frame_evict(o.evict);
                t4 = frame_now_ns();
                if (!o.posed) {
                    st = sepax_shapes_set_poses(store, 0, count, store_poses);
                    if (st != SEPAX_OK) frame_die("sepax_shapes_set_poses", st);
                }
                st = find(c, store, o.posed ? store_poses : NULL, SEPAX_TEST_OVERLAP, o.update,
                          o.cell, &out, &hits1);
                t5 = frame_now_ns();
                if (st == SEPAX_ERR_CAPACITY && o.only_frame) {
                    grow(&out, hits1);
                    continue;
                }
                if (st != SEPAX_OK) frame_die("sepax_find_contacts (frame)", st);
                c->hash[f] = hash_pairs(out.pairs, hits1);
                if (o.only_frame) {
                    cand = 0;
                    hits = hits1;
                } else if (c->hash[f] != h_overlap || hits1 != hits) {
                    fprintf(stderr,
                            "frame %u, %s, %u threads: the one-call frame's contacts differ "
                            "from the overlap run's\n",
                            f, sepax_backend_name(c->backend), c->threads);
                    c->mismatch = mismatch = 1;
                }
                break;
            }
            if (f >= o.warmup) {
                uint32_t m = f - o.warmup;
                c->update[m] = (tu - t0) / 1e6;
                c->broad[m] = (t2 - t1) / 1e6;
                c->overlap[m] = (t3 - t2b) / 1e6;
                c->frame[m] = (t5 - t4) / 1e6;
                sepax_broadphase_stats ps;
                sepax_broadphase_stats_get(c->bp, &ps);
                const uint64_t ns[PHASES] = {ps.update_ns, ps.grid_ns, ps.pairs_ns, ps.copy_ns};
                for (int q = 0; q < PHASES; q++) c->phase[q][m] = (double)ns[q] / 1e6;
                c->candidates[m] = cand;
                c->contacts[m] = hits;
            }
        }
        for (int k = 1; k < nc; k++) {
            config *c = &cfg[k];
            if (c->hash[f] != cfg[0].hash[f]) {
                fprintf(stderr,
                        "frame %u: %s with %u threads found other contacts (or another "
                        "order) than %s with %u threads\n",
                        f, sepax_backend_name(c->backend), c->threads,
                        sepax_backend_name(cfg[0].backend), cfg[0].threads);
                c->mismatch = mismatch = 1;
            }
        }
        /* after the frame, from the grid it built (the first configuration's, the one-call
         * frame's): a game's reorder now and then */
        if (o.reorder && f % o.reorder == 0) {
            double r0 = frame_now_ns();
            st = sepax_broadphase_order(cfg[0].bp, store, order, count);
            if (st == SEPAX_OK) st = sepax_shapes_reorder(store, order, count, new_id);
            if (st != SEPAX_OK) frame_die("reorder", st);
            reorder_ms += (frame_now_ns() - r0) / 1e6;
            reorders++;
            for (uint32_t i = 0; i < count; i++) slot[i] = new_id[slot[i]] & SEPAX_ID_INDEX_MASK;
        }
    }

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("# sepax-bench-frame --scene %s --n %u --frames %u --warmup %u --threads %s --backend "
           "%s --seed %llu",
           o.scene, o.n, o.frames, o.warmup, o.threads, o.backends, (unsigned long long)o.seed);
    if (o.cell > 0) printf(" --cell %g", (double)o.cell);
    if (o.reorder) printf(" --reorder %u", o.reorder);
    printf(" --update %s", o.update == SEPAX_UPDATE_ALL    ? "all"
                           : o.update == SEPAX_UPDATE_LAZY ? "lazy"
                                                           : "frame");
    printf(" --poses %s", o.posed ? "frame" : "set");
    if (o.evict) printf(" --evict %u", o.evict);
    printf("\n# %s: %u shapes; median of %u frames (after %u warm-up), ms per frame; poses made "
           "in %.1f ms a frame (untimed), poses hash %016llx; last frame's contacts hash %016llx\n",
           scene_name(sc), count, o.frames, o.warmup, pose_ms / total,
           (unsigned long long)pose_hash, (unsigned long long)cfg[0].hash[total - 1]);
    sepax_broadphase_stats bs;
    sepax_broadphase_stats_get(cfg[0].bp, &bs);
    printf("# grid: %u x %u cells of %g, %u large shapes; store %.1f B/shape (%.1f MB); peak RSS "
           "%.1f MB\n\n",
           bs.cells_x, bs.cells_y, (double)bs.cell_size, bs.large, (double)store_mem.live / count,
           (double)store_mem.live / 1e6, ru.ru_maxrss / 1024.0);
    if (reorders)
        printf("# reorder (sepax_broadphase_order + sepax_shapes_reorder, one thread): "
               "%u times, %.3f ms each, %.3f ms a frame over %u frames\n\n",
               reorders, reorder_ms / reorders, reorder_ms / total, total);
    printf("| backend | threads | update | broadphase | narrowphase | update + overlap | frame "
           "(one call) | candidates | contacts | broadphase B/shape | store + bp B/shape |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < nc; k++) {
        config *c = &cfg[k];
        sepax_broadphase_stats s;
        sepax_broadphase_stats_get(c->bp, &s);
        double up = frame_median(c->update, o.frames), br = frame_median(c->broad, o.frames);
        double ov = frame_median(c->overlap, o.frames);
        double *sum = frame_xmalloc(o.frames * sizeof *sum);
        for (uint32_t m = 0; m < o.frames; m++) sum[m] = c->update[m] + c->overlap[m];
        double *narrow = frame_xmalloc(o.frames * sizeof *narrow);
        for (uint32_t m = 0; m < o.frames; m++) narrow[m] = c->overlap[m] - c->broad[m];
        if (o.only_frame) /* the separate runs did not run */
            printf("| %s | %u | - | - | - | - | %.3f | - | %.0f | %.1f | %.1f |%s\n",
                   sepax_backend_name(c->backend), c->threads, frame_median(c->frame, o.frames),
                   frame_median_sz(c->contacts, o.frames), (double)s.bytes / count,
                   (double)(store_mem.live + c->mem.live) / count, c->mismatch ? " MISMATCH" : "");
        else
            printf("| %s | %u | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f | %.0f | %.1f | %.1f |%s\n",
                   sepax_backend_name(c->backend), c->threads, up, br,
                   frame_median(narrow, o.frames), frame_median(sum, o.frames),
                   frame_median(c->frame, o.frames), frame_median_sz(c->candidates, o.frames),
                   frame_median_sz(c->contacts, o.frames), (double)s.bytes / count,
                   (double)(store_mem.live + c->mem.live) / count, c->mismatch ? " MISMATCH" : "");
        (void)ov;
        free(sum);
        free(narrow);
    }
    printf("\n# narrowphase: the median of (overlap run - broadphase run) per frame; "
           "broadphase B/shape: sepax_broadphase_stats.bytes / shapes; store + bp: bytes the "
           "counting allocators hold\n");
    printf("\n| backend | threads | frame: update | grid | pairs + test | copy |\n");
    printf("|---|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < nc; k++) {
        config *c = &cfg[k];
        printf("| %s | %u |", sepax_backend_name(c->backend), c->threads);
        for (int q = 0; q < PHASES; q++) printf(" %.3f |", frame_median(c->phase[q], o.frames));
        printf("\n");
    }
    printf("\n# the one-call frame's phases (sepax_broadphase_stats: update_ns, grid_ns, pairs_ns, "
           "copy_ns), ms, each the median over the frames; %s\n",
           o.posed ? "the update includes the poses' check and store"
                   : "sepax_shapes_set_poses is outside them");
    for (int k = 0; k < nc; k++) {
        config *c = &cfg[k];
        sepax_broadphase_destroy(c->bp);
        free(c->update);
        free(c->broad);
        free(c->overlap);
        free(c->frame);
        for (int q = 0; q < PHASES; q++) free(c->phase[q]);
        free(c->candidates);
        free(c->contacts);
        free(c->hash);
    }
    free(cfg);
    free(out.pairs);
    free(poses);
    free(slot);
    free(order);
    free(new_id);
    free(store_poses);
    sepax_shapes_destroy(store);
    scene_destroy(sc);
    if (mismatch) fprintf(stderr, "sepax-bench-frame: contacts differ between runs (see above)\n");
    return mismatch;
}
