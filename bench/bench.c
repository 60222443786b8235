/* sepax benchmark: builds a deterministic workload, checks every backend
 * against the scalar reference on it, then times overlap, collide and
 * one-vs-many (ns per pair) and the world update (ns per shape) per backend,
 * with Mpairs/s (Mshapes/s) and the speed-up over
 * the reference measured in the same run.
 *
 *   sepax-bench [--shapes N] [--pairs N] [--min-verts K] [--max-verts K]
 *               [--overlap R] [--seed S] [--reps N] [--backend NAME] [--json]
 *               [--only overlap|collide|one|update|manifold|sweep|raycast|ray-range|rot
 *                --loops N]
 *               [--kinds polygons|mixed|circles] [--pair-kinds A-B] [--margin M]
 *               [--stale-rows] [--shuffle]
 *
 * --kinds picks the store's shapes (tests/workload.c: "mixed" is 30% circles,
 * 20% capsules, 10% boxes, 25% polygons, 15% rounded polygons); --pair-kinds
 * keeps only pairs of two kinds, each circle, capsule or polygon (boxes and
 * rounded polygons are polygons), e.g. circle-polygon.
 *
 * --only runs one query --loops times on one backend (or "reference") and
 * prints its fastest loop's ns a test and a checksum: the whole-process mode that
 * bench/hyperfine.sh times. --loops 0 times the setup alone. With --stale-rows
 * the setup ends with a frame (sepax_find_contacts, SEPAX_UPDATE_FRAME) on the
 * same poses, so "one" and "ray-range" answer from the records, as they do
 * after a game's frame (the same checksum). The workload's pair list is in the
 * order drawn (tests/workload.c fills both quotas as it draws: mixed until the
 * miss quota is full, then a run of hits alone); --shuffle mixes them all (a
 * fixed permutation), as a broadphase's list would have them.
 *
 * Each figure is the fastest of --reps interleaved repetitions, each timed
 * after one untimed run of the same query (warm caches, as in a loop that
 * calls it every frame): the machine's clock wanders and other processes
 * interrupt, and the minimum is the one figure of a run that noise cannot
 * lower. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sepax_ref.h"
#include "workload.h"

typedef struct opts {
    wl_config cfg;
    int reps;
    int json;
    const char *backend;
    uint32_t probes;
    const char *only;
    int loops;
    float margin;
    int stale_rows;
    int shuffle;
} opts;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [--shapes N] [--pairs N] [--min-verts K] [--max-verts K] [--overlap R]\n"
            "          [--seed S] [--reps N] [--backend scalar|sse2|sse41|avx2|avx512|neon|all]\n"
            "          [--json] [--only overlap|collide|one|update|manifold|sweep|raycast|\n"
            "          ray-range|rot --loops N]\n"
            "          [--kinds polygons|mixed|circles] [--pair-kinds circle|capsule|polygon-...]\n"
            "          [--margin M] [--stale-rows] [--shuffle]\n",
            argv0);
    exit(2);
}

static int kind_named(const char *name, size_t len) {
    static const char *const names[] = {"circle", "capsule", "polygon"};
    for (int k = 0; k < 3; k++)
        if (strlen(names[k]) == len && strncmp(name, names[k], len) == 0) return k;
    return -1;
}

static opts parse(int argc, char **argv) {
    opts o = {wl_default(), 7, 0, "all", 256, NULL, 10, 0.0f, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--json") == 0) {
            o.json = 1;
            continue;
        }
        if (strcmp(a, "--shuffle") == 0) {
            o.shuffle = 1;
            continue;
        }
        if (strcmp(a, "--stale-rows") == 0) {
            o.stale_rows = 1;
            continue;
        }
        if (!v) usage(argv[0]);
        i++;
        if (strcmp(a, "--shapes") == 0)
            o.cfg.shapes = (uint32_t)strtoul(v, 0, 10);
        else if (strcmp(a, "--pairs") == 0)
            o.cfg.pairs = strtoul(v, 0, 10);
        else if (strcmp(a, "--min-verts") == 0)
            o.cfg.min_verts = atoi(v);
        else if (strcmp(a, "--max-verts") == 0)
            o.cfg.max_verts = atoi(v);
        else if (strcmp(a, "--overlap") == 0)
            o.cfg.overlap = atof(v);
        else if (strcmp(a, "--seed") == 0)
            o.cfg.seed = strtoull(v, 0, 0);
        else if (strcmp(a, "--reps") == 0)
            o.reps = atoi(v);
        else if (strcmp(a, "--backend") == 0)
            o.backend = v;
        else if (strcmp(a, "--only") == 0)
            o.only = v;
        else if (strcmp(a, "--loops") == 0)
            o.loops = atoi(v);
        else if (strcmp(a, "--margin") == 0)
            o.margin = strtof(v, NULL);
        else if (strcmp(a, "--kinds") == 0)
            o.cfg.kinds = strcmp(v, "mixed") == 0      ? WL_MIXED
                          : strcmp(v, "circles") == 0  ? WL_CIRCLES
                          : strcmp(v, "polygons") == 0 ? WL_POLYGONS
                                                       : -1;
        else if (strcmp(a, "--pair-kinds") == 0) {
            const char *dash = strchr(v, '-');
            if (!dash) usage(argv[0]);
            o.cfg.pair_a = kind_named(v, (size_t)(dash - v));
            o.cfg.pair_b = kind_named(dash + 1, strlen(dash + 1));
            if (o.cfg.pair_a < 0 || o.cfg.pair_b < 0) usage(argv[0]);
        } else
            usage(argv[0]);
    }
    if (o.cfg.shapes < 2 || o.cfg.pairs < 1 || o.reps < 1 || o.cfg.min_verts < 3 ||
        o.cfg.max_verts > SEPAX_MAX_VERTS || o.cfg.min_verts > o.cfg.max_verts ||
        o.cfg.overlap < 0 || o.cfg.overlap > 1 || o.loops < 0 || o.cfg.kinds < 0 ||
        (o.stale_rows && !o.only))
        usage(argv[0]);
    if (o.probes > o.cfg.shapes) o.probes = o.cfg.shapes;
    return o;
}

enum {
    Q_OVERLAP,
    Q_COLLIDE,
    Q_ONE,
    Q_UPDATE,
    Q_MANIFOLD,
    Q_SWEEP,
    Q_RAY,
    Q_RAY_RANGE,
    Q_ROT,
    Q_COUNT
};
static const char *const query_names[Q_COUNT] = {"overlap", "collide",   "one-vs-many",
                                                 "update",  "manifold",  "sweep",
                                                 "raycast", "ray-range", "rot"};

typedef struct workload {
    sepax_shapes *store;
    sepax_pair *pairs;
    size_t n;
    uint32_t probes;
    uint8_t *hit;
    sepax_hit *out;
    sepax_manifold *man;
    sepax_sweep_hit *sweep;
    sepax_vec2 *vel;          /* B's displacement per pair for sweeps (A still) */
    sepax_ray *rays;          /* per pair, from A towards B, cast against B */
    uint32_t *ray_ids;        /* B of each pair */
    sepax_ray_hit *ray_hit;   /* raycast: per pair; ray-range: probes x shapes */
    sepax_query_options opt;  /* every query's margin */
    sepax_world_shape *world; /* the reference's update writes here */
    float *angles;            /* rot: an angle per pair, in [-8 pi, 8 pi) */
    sepax_rotation *rot;
} workload;

/* -1 runs the reference; otherwise the backend already set. */
static sepax_status run(const workload *w, int query, int reference) {
    sepax_status st = SEPAX_OK;
    uint32_t shapes = sepax_shapes_count(w->store);
    switch (query) {
    case Q_OVERLAP:
        return reference ? sepax_ref_overlap_opt(w->store, w->pairs, w->n, &w->opt, w->hit)
                         : sepax_overlap_opt(w->store, w->pairs, w->n, &w->opt, w->hit);
    case Q_COLLIDE:
        return reference ? sepax_ref_collide_opt(w->store, w->pairs, w->n, &w->opt, w->out)
                         : sepax_collide_opt(w->store, w->pairs, w->n, &w->opt, w->out);
    case Q_MANIFOLD:
        return reference ? sepax_ref_collide_manifold_opt(w->store, w->pairs, w->n, &w->opt, w->man)
                         : sepax_collide_manifold_opt(w->store, w->pairs, w->n, &w->opt, w->man);
    case Q_SWEEP:
        return reference ? sepax_ref_sweep(w->store, w->pairs, w->n, NULL, w->vel, w->sweep)
                         : sepax_sweep(w->store, w->pairs, w->n, NULL, w->vel, w->sweep);
    case Q_RAY:
        return reference ? sepax_ref_raycast(w->store, w->rays, w->ray_ids, w->n, w->ray_hit)
                         : sepax_raycast(w->store, w->rays, w->ray_ids, w->n, w->ray_hit);
    case Q_RAY_RANGE: /* rays of the first pairs, each through the whole store */
        for (uint32_t p = 0; p < w->probes && st == SEPAX_OK; p++) {
            sepax_ray_hit *dst = w->ray_hit + (size_t)p * shapes;
            const sepax_ray *r = &w->rays[p % w->n];
            st = reference ? sepax_ref_raycast_range(w->store, r, 0, shapes, dst)
                           : sepax_raycast_range(w->store, r, 0, shapes, dst);
        }
        return st;
    case Q_ROT: /* the reference: sepax_rot an angle at a time */
        if (!reference) return sepax_rot_many(w->angles, w->n, w->rot);
        for (size_t i = 0; i < w->n; i++) w->rot[i] = sepax_rot(w->angles[i]);
        return SEPAX_OK;
    case Q_UPDATE: /* world data from local shapes and poses, per shape */
        if (!reference) return sepax_shapes_update(w->store);
        for (uint32_t i = 0; i < shapes && st == SEPAX_OK; i++)
            st = sepax_ref_world(w->store, i, &w->world[i]);
        return st;
    default:
        for (uint32_t p = 0; p < w->probes && st == SEPAX_OK; p++) {
            uint32_t probe = (uint32_t)((uint64_t)p * shapes / w->probes);
            uint8_t *dst = w->hit + (size_t)p * shapes;
            st = reference ? sepax_ref_overlap_one_opt(w->store, probe, 0, shapes, &w->opt, dst)
                           : sepax_overlap_one_opt(w->store, probe, 0, shapes, &w->opt, dst);
        }
        return st;
    }
}

static size_t tests_of(const workload *w, int query) {
    if (query == Q_UPDATE) return sepax_shapes_count(w->store);
    return query == Q_ONE || query == Q_RAY_RANGE ? (size_t)w->probes * sepax_shapes_count(w->store)
                                                  : w->n;
}

/* After an update, the store's world data must be the reference's. */
static int world_matches(const workload *w) {
    for (uint32_t i = 0; i < sepax_shapes_count(w->store); i++) {
        sepax_shape_view v;
        sepax_aabb box;
        sepax_shapes_view(w->store, i, &v);
        sepax_shapes_aabb(w->store, i, &box);
        const sepax_world_shape *r = &w->world[i];
        size_t row = SEPAX_MAX_VERTS * sizeof(float);
        if (memcmp(v.x, r->x, row) || memcmp(v.y, r->y, row) || memcmp(v.nx, r->nx, row) ||
            memcmp(v.ny, r->ny, row) || memcmp(v.c, r->c, row) ||
            memcmp(&box, &r->aabb, sizeof box))
            return 0;
    }
    return 1;
}

/* Whole-process mode: one query, one backend, --loops times. */
static int run_only(const opts *o, const workload *w) {
    int q = strcmp(o->only, "overlap") == 0     ? Q_OVERLAP
            : strcmp(o->only, "collide") == 0   ? Q_COLLIDE
            : strcmp(o->only, "one") == 0       ? Q_ONE
            : strcmp(o->only, "update") == 0    ? Q_UPDATE
            : strcmp(o->only, "manifold") == 0  ? Q_MANIFOLD
            : strcmp(o->only, "sweep") == 0     ? Q_SWEEP
            : strcmp(o->only, "raycast") == 0   ? Q_RAY
            : strcmp(o->only, "ray-range") == 0 ? Q_RAY_RANGE
            : strcmp(o->only, "rot") == 0       ? Q_ROT
                                                : -1;
    if (q < 0) {
        fprintf(stderr, "--only takes overlap, collide, one, update, manifold, sweep, raycast, "
                        "ray-range or rot\n");
        return 2;
    }
    int reference = strcmp(o->backend, "reference") == 0;
    if (!reference && strcmp(o->backend, "all") != 0) { /* "all" here: the automatic choice */
        sepax_backend b;
        sepax_status st = sepax_backend_from_name(o->backend, &b);
        if (st == SEPAX_OK) st = sepax_set_backend(b);
        if (st != SEPAX_OK) {
            fprintf(stderr, "backend %s: %s\n", o->backend, sepax_status_str(st));
            return 1;
        }
    }
    if (o->stale_rows) { /* a frame's update: the same world data, the rows left behind */
        sepax_broadphase *bp = sepax_broadphase_create(NULL);
        sepax_frame_options fo = {SEPAX_TEST_AABB, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
        sepax_contacts none = {NULL, NULL, NULL, 0};
        size_t count;
        sepax_status st =
            bp ? sepax_find_contacts(bp, w->store, &fo, &none, &count) : SEPAX_ERR_NOMEM;
        sepax_broadphase_destroy(bp);
        if (st != SEPAX_OK && st != SEPAX_ERR_CAPACITY) {
            fprintf(stderr, "frame: %s\n", sepax_status_str(st));
            return 1;
        }
    }
    double best = 0.0; /* the fastest loop, ns a test */
    for (int i = 0; i < o->loops; i++) {
        double t0 = now_ns();
        sepax_status st = run(w, q, reference);
        double dt = (now_ns() - t0) / (double)tests_of(w, q);
        best = i == 0 || dt < best ? dt : best;
        if (st != SEPAX_OK) {
            fprintf(stderr, "%s\n", sepax_status_str(st));
            return 1;
        }
    }
    size_t sum = 0, n = tests_of(w, q);
    if (o->loops > 0)
        for (size_t i = 0; i < n && q != Q_UPDATE; i++)
            sum += q == Q_ROT        ? w->rot[i].s > 0.0f
                   : q == Q_COLLIDE  ? w->out[i].hit
                   : q == Q_MANIFOLD ? (w->man[i].count > 0)
                   : q == Q_SWEEP    ? w->sweep[i].hit
                   : q >= Q_RAY      ? w->ray_hit[i].hit
                                     : w->hit[i];
    if (o->loops > 0) printf("fastest loop: %.2f ns a test\n", best);
    /* last: bench/callgrind.sh reads the test count from this line */
    printf("%s %s x%d: %zu of %zu overlap\n", o->backend, query_names[q], o->loops, sum, n);
    return 0;
}

typedef struct row {
    const char *name;
    double ns[Q_COUNT];
} row;

int main(int argc, char **argv) {
    opts o = parse(argc, argv);
    workload w = {0};
    w.n = o.cfg.pairs;
    w.probes = o.probes;
    w.opt.margin = o.margin;
    w.store = sepax_shapes_create(o.cfg.shapes);
    w.pairs = malloc(w.n * sizeof *w.pairs);
    size_t one_n = (size_t)w.probes * o.cfg.shapes, hit_n = w.n > one_n ? w.n : one_n;
    w.hit = malloc(hit_n);
    w.out = malloc(w.n * sizeof *w.out);
    w.world = malloc((size_t)o.cfg.shapes * sizeof *w.world);
    w.man = malloc(w.n * sizeof *w.man);
    w.sweep = malloc(w.n * sizeof *w.sweep);
    w.vel = malloc(w.n * sizeof *w.vel);
    w.rays = malloc(w.n * sizeof *w.rays);
    w.ray_ids = malloc(w.n * sizeof *w.ray_ids);
    size_t ray_n = w.n > one_n ? w.n : one_n;
    w.ray_hit = malloc(ray_n * sizeof *w.ray_hit);
    sepax_ray_hit *want_ray = malloc(ray_n * sizeof *want_ray),
                  *want_range = malloc(ray_n * sizeof *want_range);
    sepax_manifold *want_man = malloc(w.n * sizeof *want_man);
    sepax_sweep_hit *want_sweep = malloc(w.n * sizeof *want_sweep);
    uint8_t *want_hit = malloc(hit_n), *want_one = malloc(hit_n);
    sepax_hit *want_out = malloc(w.n * sizeof *want_out);
    w.angles = malloc(w.n * sizeof *w.angles);
    w.rot = malloc(w.n * sizeof *w.rot);
    sepax_rotation *want_rot = malloc(w.n * sizeof *want_rot);
    if (!w.store || !w.pairs || !w.hit || !w.out || !w.world || !want_hit || !want_one ||
        !want_out || !w.man || !w.sweep || !w.vel || !want_man || !want_sweep || !w.rays ||
        !w.ray_ids || !w.ray_hit || !want_ray || !want_range || !w.angles || !w.rot || !want_rot) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    if (wl_fill_store(w.store, &o.cfg) != SEPAX_OK ||
        wl_make_pairs(w.store, &o.cfg, w.pairs) != SEPAX_OK) {
        fprintf(stderr, "could not build the workload\n");
        return 1;
    }

    if (o.shuffle) wl_shuffle_pairs(w.pairs, w.n, o.cfg.seed);

    /* sweeps and rays: the same motion in sepax-bench-peers */
    wl_bench_motion(w.store, w.pairs, w.n, o.cfg.seed, w.vel, w.rays, w.ray_ids);
    wl_rng ar = {o.cfg.seed ^ 0x726f74u}; /* "rot" */
    for (size_t i = 0; i < w.n; i++) w.angles[i] = (wl_unit(&ar) - 0.5f) * 50.265482f;

    if (o.only) return run_only(&o, &w);

    /* the backends to time */
    sepax_backend list[SEPAX_BACKEND_COUNT];
    int nb = 0;
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        const char *name = sepax_backend_name((sepax_backend)b);
        if (strcmp(o.backend, "all") != 0 && strcmp(o.backend, name) != 0) continue;
        if (sepax_backend_available((sepax_backend)b))
            list[nb++] = (sepax_backend)b;
        else if (strcmp(o.backend, name) == 0) {
            fprintf(stderr, "backend %s: %s\n", name, sepax_status_str(SEPAX_ERR_UNSUPPORTED));
            return 1;
        }
    }
    if (nb == 0) {
        fprintf(stderr, "no backend named %s\n", o.backend);
        return 1;
    }

    /* reference answers, then every backend must reproduce them exactly */
    run(&w, Q_OVERLAP, 1);
    memcpy(want_hit, w.hit, w.n);
    run(&w, Q_COLLIDE, 1);
    memcpy(want_out, w.out, w.n * sizeof *w.out);
    run(&w, Q_ONE, 1);
    memcpy(want_one, w.hit, one_n);
    run(&w, Q_UPDATE, 1);
    run(&w, Q_MANIFOLD, 1);
    memcpy(want_man, w.man, w.n * sizeof *w.man);
    run(&w, Q_SWEEP, 1);
    memcpy(want_sweep, w.sweep, w.n * sizeof *w.sweep);
    run(&w, Q_RAY, 1);
    memcpy(want_ray, w.ray_hit, w.n * sizeof *w.ray_hit);
    run(&w, Q_RAY_RANGE, 1);
    memcpy(want_range, w.ray_hit, one_n * sizeof *w.ray_hit);
    run(&w, Q_ROT, 1);
    memcpy(want_rot, w.rot, w.n * sizeof *w.rot);
    size_t overlaps = 0;
    for (size_t i = 0; i < w.n; i++) overlaps += want_hit[i];
    int mismatch = 0;
    for (int i = 0; i < nb; i++) {
        sepax_set_backend(list[i]);
        int bad = 0;
        bad |= run(&w, Q_OVERLAP, 0) != SEPAX_OK || memcmp(w.hit, want_hit, w.n) != 0;
        bad |=
            run(&w, Q_COLLIDE, 0) != SEPAX_OK || memcmp(w.out, want_out, w.n * sizeof *w.out) != 0;
        bad |= run(&w, Q_ONE, 0) != SEPAX_OK || memcmp(w.hit, want_one, one_n) != 0;
        bad |= run(&w, Q_UPDATE, 0) != SEPAX_OK || !world_matches(&w);
        bad |=
            run(&w, Q_MANIFOLD, 0) != SEPAX_OK || memcmp(w.man, want_man, w.n * sizeof *w.man) != 0;
        bad |= run(&w, Q_SWEEP, 0) != SEPAX_OK ||
               memcmp(w.sweep, want_sweep, w.n * sizeof *w.sweep) != 0;
        bad |= run(&w, Q_RAY, 0) != SEPAX_OK ||
               memcmp(w.ray_hit, want_ray, w.n * sizeof *w.ray_hit) != 0;
        bad |= run(&w, Q_RAY_RANGE, 0) != SEPAX_OK ||
               memcmp(w.ray_hit, want_range, one_n * sizeof *w.ray_hit) != 0;
        bad |= run(&w, Q_ROT, 0) != SEPAX_OK || memcmp(w.rot, want_rot, w.n * sizeof *w.rot) != 0;
        if (bad) {
            fprintf(stderr, "MISMATCH: backend %s differs from the reference\n",
                    sepax_backend_name(list[i]));
            mismatch = 1;
        }
    }

    /* timing: repetitions interleaved across backends, fastest kept */
    row rows[SEPAX_BACKEND_COUNT + 1];
    int nrows = nb + 1;
    rows[0].name = "reference";
    for (int i = 0; i < nb; i++) rows[i + 1].name = sepax_backend_name(list[i]);
    for (int r = 0; r < nrows; r++)
        for (int q = 0; q < Q_COUNT; q++) rows[r].ns[q] = 1e300;
    for (int rep = 0; rep < o.reps; rep++) {
        for (int r = 0; r < nrows; r++) {
            if (r > 0) sepax_set_backend(list[r - 1]);
            for (int q = 0; q < Q_COUNT; q++) {
                /* an untimed run first: the timed one then finds the pairs,
                 * output and store where the previous query left its own */
                run(&w, q, r == 0);
                double t0 = now_ns();
                run(&w, q, r == 0);
                double dt = (now_ns() - t0) / (double)tests_of(&w, q);
                if (dt < rows[r].ns[q]) rows[r].ns[q] = dt;
            }
        }
    }

    if (o.json) {
        printf("{\n  \"workload\": {\"shapes\": %u, \"pairs\": %zu, \"min_verts\": %d, "
               "\"max_verts\": %d, \"overlap_target\": %g, \"overlap_actual\": %.4f, "
               "\"one_vs_many_tests\": %zu, \"seed\": %llu, \"reps\": %d, \"margin\": %g},\n",
               o.cfg.shapes, w.n, o.cfg.min_verts, o.cfg.max_verts, o.cfg.overlap,
               (double)overlaps / (double)w.n, one_n, (unsigned long long)o.cfg.seed, o.reps,
               (double)o.margin);
        printf("  \"equivalent\": %s,\n  \"results\": [\n", mismatch ? "false" : "true");
        for (int r = 0; r < nrows; r++) {
            printf("    {\"backend\": \"%s\"", rows[r].name);
            for (int q = 0; q < Q_COUNT; q++)
                printf(", \"%s_ns_per_pair\": %.3f, \"%s_speedup\": %.2f", query_names[q],
                       rows[r].ns[q], query_names[q], rows[0].ns[q] / rows[r].ns[q]);
            printf("}%s\n", r + 1 < nrows ? "," : "");
        }
        printf("  ]\n}\n");
    } else {
        static const char *const kinds[] = {"polygons", "mixed kinds", "circles"};
        printf("store: %s; ", kinds[o.cfg.kinds]);
        if (o.cfg.pair_a != WL_ANY) {
            static const char *const kn[] = {"circle", "capsule", "polygon"};
            printf("pairs: %s-%s only; ", kn[o.cfg.pair_a], kn[o.cfg.pair_b]);
        }
        printf("workload: %u shapes (%d-%d vertices), %zu pairs, %.1f%% overlapping; "
               "one-vs-many: %u probes x %u shapes; fastest of %d reps\n",
               o.cfg.shapes, o.cfg.min_verts, o.cfg.max_verts, w.n,
               100.0 * (double)overlaps / (double)w.n, w.probes, o.cfg.shapes, o.reps);
        if (o.margin != 0.0f)
            printf("margin: %g (the overlapping share above is at this margin)\n",
                   (double)o.margin);
        printf("pair order: %s\n", o.shuffle ? "shuffled" : "as drawn (a run of hits at the end)");
        printf("every backend bit-identical to the reference: %s\n\n", mismatch ? "NO" : "yes");
        printf("(update: per shape, world data from local shapes and poses)\n\n");
        printf("| backend   | query       | ns/pair | Mpairs/s | vs reference |\n");
        printf("|-----------|-------------|--------:|---------:|-------------:|\n");
        for (int q = 0; q < Q_COUNT; q++)
            for (int r = 0; r < nrows; r++)
                printf("| %-9s | %-11s | %7.2f | %8.1f | %11.2fx |\n", rows[r].name, query_names[q],
                       rows[r].ns[q], 1e3 / rows[r].ns[q], rows[0].ns[q] / rows[r].ns[q]);
    }
    sepax_shapes_destroy(w.store);
    free(w.pairs);
    free(w.hit);
    free(w.out);
    free(w.world);
    free(want_hit);
    free(want_one);
    free(want_out);
    free(w.man);
    free(w.sweep);
    free(w.vel);
    free(want_man);
    free(want_sweep);
    free(w.rays);
    free(w.ray_ids);
    free(w.ray_hit);
    free(want_ray);
    free(want_range);
    free(w.angles);
    free(w.rot);
    free(want_rot);
    return mismatch ? 1 : 0;
}
