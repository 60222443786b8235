/* Contact manifolds per pair: sepax_collide_manifold on every backend against Box2D 2.4
 * (b2CollidePolygons) and Chipmunk 7 (cpShapesCollide); sweeps (sepax_sweep against Box2D's
 * b2TimeOfImpact) and raycasts (sepax_raycast against b2PolygonShape::RayCast), on one
 * workload of sharp polygon
 * pairs: the benchmark's default store (tests/workload.c, 4096 polygons of 3-8 vertices,
 * identity poses) and 1M neighbour pairs, half of them overlapping.
 *
 *   sepax-bench-peers [--pairs N] [--reps N] [--shapes N] [--seed S] [--shuffle] [--json]
 *
 * --shuffle mixes the misses and the hits (wl_shuffle_pairs, as sepax-bench --shuffle): the
 * workload lists them as drawn, mixed until one kind's quota is full and then a run of the
 * other kind alone, which flatters any branch on a pair's outcome, sepax's per-block choices
 * and Box2D's early return after A's edges alike.
 *
 * The peers get the same shapes: each one's local vertices (sepax_shapes_local), radius 0, and
 * its pose. Box2D is timed twice: b2CollidePolygons alone (its manifold in the reference body's
 * frame), and followed by b2WorldManifold::Initialize (world points and separations, what
 * sepax_collide_manifold and cpShapesCollide give). Every engine writes one result per pair
 * into an array of its own. Each figure is the fastest of --reps interleaved repetitions, each
 * timed after one untimed run of the same engine. After every timed run the pairs with points
 * and the points are counted (untimed) into a checksum, which is printed.
 *
 * Built when at least one peer is found (Box2D needs a C++ compiler); a missing one is left
 * out of the table. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peers.h"
#include "sepax_ref.h"
#include "workload.h"

typedef struct opts {
    wl_config cfg;
    int reps;
    int json;
    int shuffle;
} opts;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [--pairs N] [--reps N] [--shapes N] [--seed S] [--shuffle] [--json]\n",
            argv0);
    exit(2);
}

static opts parse(int argc, char **argv) {
    opts o = {wl_default(), 7, 0, 0};
    o.cfg.kinds = WL_POLYGONS; /* sharp polygons only: what both peers collide */
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
        if (!v) usage(argv[0]);
        i++;
        if (strcmp(a, "--pairs") == 0)
            o.cfg.pairs = strtoul(v, 0, 10);
        else if (strcmp(a, "--reps") == 0)
            o.reps = atoi(v);
        else if (strcmp(a, "--shapes") == 0)
            o.cfg.shapes = (uint32_t)strtoul(v, 0, 10);
        else if (strcmp(a, "--seed") == 0)
            o.cfg.seed = strtoull(v, 0, 0);
        else
            usage(argv[0]);
    }
    if (o.cfg.shapes < 2 || o.cfg.pairs < 1 || o.reps < 1) usage(argv[0]);
    return o;
}

enum { E_SEPAX, E_BOX2D, E_BOX2D_WORLD, E_CHIPMUNK };
enum { Q_MANIFOLD, Q_SWEEP, Q_RAY, Q_COUNT };
static const char *const query_names[Q_COUNT] = {"manifold", "sweep", "raycast"};

typedef struct row {
    const char *name;
    int query;
    int engine;
    sepax_backend backend; /* E_SEPAX */
    double ns;             /* fastest per pair */
    size_t touching;       /* pairs with at least one contact point; sweeps, rays: hits */
    size_t points;         /* contact points in all; Box2D sweeps: e_failed */
} row;

typedef struct workload {
    sepax_shapes *store;
    sepax_pair *pairs;
    size_t n;
    sepax_manifold *out;
    sepax_vec2 *vel; /* sweeps: B's displacement per pair, A still */
    sepax_sweep_hit *sweep;
    sepax_ray *rays; /* rays: per pair, from A towards B, cast against B */
    uint32_t *ray_ids;
    sepax_ray_hit *ray_hit;
#ifdef SEPAX_PEER_BOX2D
    peer_box2d *box2d;
#endif
#ifdef SEPAX_PEER_CHIPMUNK
    peer_chipmunk *chipmunk;
#endif
} workload;

static int run(const row *r, workload *w) {
    if (r->query == Q_SWEEP) {
        if (r->engine == E_SEPAX)
            return sepax_sweep(w->store, w->pairs, w->n, NULL, w->vel, w->sweep) == SEPAX_OK;
#ifdef SEPAX_PEER_BOX2D
        peer_box2d_sweep(w->box2d, w->pairs, w->n, w->vel);
        return 1;
#endif
    }
    if (r->query == Q_RAY) {
        if (r->engine == E_SEPAX)
            return sepax_raycast(w->store, w->rays, w->ray_ids, w->n, w->ray_hit) == SEPAX_OK;
#ifdef SEPAX_PEER_BOX2D
        peer_box2d_raycast(w->box2d, w->rays, w->ray_ids, w->n);
        return 1;
#endif
    }
    switch (r->engine) {
    case E_SEPAX: return sepax_collide_manifold(w->store, w->pairs, w->n, w->out) == SEPAX_OK;
#ifdef SEPAX_PEER_BOX2D
    case E_BOX2D: peer_box2d_run(w->box2d, w->pairs, w->n, 0); return 1;
    case E_BOX2D_WORLD: peer_box2d_run(w->box2d, w->pairs, w->n, 1); return 1;
#endif
#ifdef SEPAX_PEER_CHIPMUNK
    case E_CHIPMUNK: peer_chipmunk_run(w->chipmunk, w->pairs, w->n); return 1;
#endif
    default: return 0;
    }
}

/* The last run's pairs with points and points in all. */
static void count(const row *r, const workload *w, size_t *touching, size_t *points) {
    *touching = *points = 0;
    if (r->query != Q_MANIFOLD) {
        if (r->engine == E_SEPAX)
            for (size_t i = 0; i < w->n; i++)
                *touching += r->query == Q_SWEEP ? w->sweep[i].hit : w->ray_hit[i].hit;
#ifdef SEPAX_PEER_BOX2D
        else if (r->query == Q_SWEEP)
            peer_box2d_sweep_count(w->box2d, w->n, touching, points);
        else
            *touching = peer_box2d_raycast_count(w->box2d, w->n);
#endif
        return;
    }
    switch (r->engine) {
    case E_SEPAX:
        for (size_t i = 0; i < w->n; i++) {
            *touching += w->out[i].count > 0;
            *points += w->out[i].count;
        }
        break;
#ifdef SEPAX_PEER_BOX2D
    case E_BOX2D:
    case E_BOX2D_WORLD: peer_box2d_count(w->box2d, w->n, touching, points); break;
#endif
#ifdef SEPAX_PEER_CHIPMUNK
    case E_CHIPMUNK: peer_chipmunk_count(w->chipmunk, w->n, touching, points); break;
#endif
    default: break;
    }
}

int main(int argc, char **argv) {
    opts o = parse(argc, argv);
    workload w = {0};
    w.n = o.cfg.pairs;
    w.store = sepax_shapes_create(o.cfg.shapes);
    w.pairs = malloc(w.n * sizeof *w.pairs);
    w.out = malloc(w.n * sizeof *w.out);
    sepax_manifold *want = malloc(w.n * sizeof *want);
    uint8_t *hit = malloc(w.n);
    w.vel = malloc(w.n * sizeof *w.vel);
    w.sweep = malloc(w.n * sizeof *w.sweep);
    w.rays = malloc(w.n * sizeof *w.rays);
    w.ray_ids = malloc(w.n * sizeof *w.ray_ids);
    w.ray_hit = malloc(w.n * sizeof *w.ray_hit);
    sepax_sweep_hit *want_sweep = malloc(w.n * sizeof *want_sweep);
    sepax_ray_hit *want_ray = malloc(w.n * sizeof *want_ray);
    if (!w.store || !w.pairs || !w.out || !want || !hit || !w.vel || !w.sweep || !w.rays ||
        !w.ray_ids || !w.ray_hit || !want_sweep || !want_ray) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    if (wl_fill_store(w.store, &o.cfg) != SEPAX_OK ||
        wl_make_pairs(w.store, &o.cfg, w.pairs) != SEPAX_OK) {
        fprintf(stderr, "could not build the workload\n");
        return 1;
    }
    if (o.shuffle) wl_shuffle_pairs(w.pairs, w.n, o.cfg.seed);
    if (sepax_overlap(w.store, w.pairs, w.n, hit) != SEPAX_OK) {
        fprintf(stderr, "could not build the workload\n");
        return 1;
    }
    size_t overlaps = 0, hull_differs = 0;
    for (size_t i = 0; i < w.n; i++) overlaps += hit[i];
    /* sepax-bench's sweeps and rays: B moves up to 4 units a step, one pair in 8 a bullet
     * (up to 1000 units); rays from A's box centre towards B's, 0.5 to 1.5 times as far */
    wl_bench_motion(w.store, w.pairs, w.n, o.cfg.seed, w.vel, w.rays, w.ray_ids);

    /* the engines: every sepax backend this CPU runs, then the peers */
    row rows[Q_COUNT * (SEPAX_BACKEND_COUNT + 3)];
    int nrows = 0, box2d_row[Q_COUNT] = {-1, -1, -1};
    for (int q = 0; q < Q_COUNT; q++)
        for (int b = 0; b < SEPAX_BACKEND_COUNT; b++)
            if (sepax_backend_available((sepax_backend)b))
                rows[nrows++] = (row){sepax_backend_name((sepax_backend)b),
                                      q,
                                      E_SEPAX,
                                      (sepax_backend)b,
                                      1e300,
                                      0,
                                      0};
#ifdef SEPAX_PEER_BOX2D
    w.box2d = peer_box2d_create(w.store, w.n, &hull_differs);
    if (!w.box2d) {
        fprintf(stderr, "Box2D: could not build the shapes\n");
        return 1;
    }
    box2d_row[Q_MANIFOLD] = nrows;
    rows[nrows++] = (row){"box2d", Q_MANIFOLD, E_BOX2D, SEPAX_BACKEND_AUTO, 1e300, 0, 0};
    rows[nrows++] =
        (row){"box2d+world", Q_MANIFOLD, E_BOX2D_WORLD, SEPAX_BACKEND_AUTO, 1e300, 0, 0};
    box2d_row[Q_SWEEP] = nrows;
    rows[nrows++] = (row){"box2d toi", Q_SWEEP, E_BOX2D, SEPAX_BACKEND_AUTO, 1e300, 0, 0};
    box2d_row[Q_RAY] = nrows;
    rows[nrows++] = (row){"box2d raycast", Q_RAY, E_BOX2D, SEPAX_BACKEND_AUTO, 1e300, 0, 0};
#endif
#ifdef SEPAX_PEER_CHIPMUNK
    w.chipmunk = peer_chipmunk_create(w.store, w.n);
    if (!w.chipmunk) {
        fprintf(stderr, "Chipmunk: could not build the shapes\n");
        return 1;
    }
    rows[nrows++] = (row){"chipmunk", Q_MANIFOLD, E_CHIPMUNK, SEPAX_BACKEND_AUTO, 1e300, 0, 0};
#endif

    /* every backend's answers bit-identical to the reference's */
    int mismatch = 0;
    if (sepax_ref_collide_manifold(w.store, w.pairs, w.n, want) != SEPAX_OK ||
        sepax_ref_sweep(w.store, w.pairs, w.n, NULL, w.vel, want_sweep) != SEPAX_OK ||
        sepax_ref_raycast(w.store, w.rays, w.ray_ids, w.n, want_ray) != SEPAX_OK)
        mismatch = 1;
    for (int r = 0; r < nrows; r++) {
        if (rows[r].engine != E_SEPAX) continue;
        sepax_set_backend(rows[r].backend);
        int ok = run(&rows[r], &w);
        if (rows[r].query == Q_SWEEP)
            ok = ok && !memcmp(w.sweep, want_sweep, w.n * sizeof *want_sweep);
        else if (rows[r].query == Q_RAY)
            ok = ok && !memcmp(w.ray_hit, want_ray, w.n * sizeof *want_ray);
        else
            ok = ok && !memcmp(w.out, want, w.n * sizeof *want);
        if (!ok) {
            fprintf(stderr, "MISMATCH: backend %s %s differs from the reference\n", rows[r].name,
                    query_names[rows[r].query]);
            mismatch = 1;
        }
    }

    /* timing: repetitions interleaved across engines, fastest kept */
    uint64_t checksum = 0;
    for (int rep = 0; rep < o.reps; rep++) {
        for (int r = 0; r < nrows; r++) {
            if (rows[r].engine == E_SEPAX) sepax_set_backend(rows[r].backend);
            run(&rows[r], &w); /* warm-up: pairs, shapes and output in cache as far as they fit */
            double t0 = now_ns();
            if (!run(&rows[r], &w)) {
                fprintf(stderr, "%s failed\n", rows[r].name);
                return 1;
            }
            double dt = (now_ns() - t0) / (double)w.n;
            if (dt < rows[r].ns) rows[r].ns = dt;
            count(&rows[r], &w, &rows[r].touching, &rows[r].points);
            checksum = checksum * 0x100000001b3ull + rows[r].touching * 3u + rows[r].points;
        }
    }

    if (o.json) {
        printf("{\n  \"workload\": {\"shapes\": %u, \"pairs\": %zu, \"min_verts\": %d, "
               "\"max_verts\": %d, \"overlap_actual\": %.4f, \"seed\": %llu, \"reps\": %d, "
               "\"box2d_hulls_differing\": %zu, \"shuffled\": %s},\n",
               o.cfg.shapes, w.n, o.cfg.min_verts, o.cfg.max_verts, (double)overlaps / (double)w.n,
               (unsigned long long)o.cfg.seed, o.reps, hull_differs, o.shuffle ? "true" : "false");
        printf("  \"equivalent\": %s,\n  \"checksum\": \"%016llx\",\n  \"results\": [\n",
               mismatch ? "false" : "true", (unsigned long long)checksum);
        for (int r = 0; r < nrows; r++) {
            int q = rows[r].query;
            printf("    {\"query\": \"%s\", \"engine\": \"%s%s\", \"ns_per_pair\": %.3f, "
                   "\"mpairs_per_s\": %.2f",
                   query_names[q], rows[r].engine == E_SEPAX ? "sepax-" : "", rows[r].name,
                   rows[r].ns, 1e3 / rows[r].ns);
            if (box2d_row[q] >= 0)
                printf(", \"speedup_vs_box2d\": %.2f", rows[box2d_row[q]].ns / rows[r].ns);
            printf(", \"touching\": %zu, \"points\": %zu}%s\n", rows[r].touching, rows[r].points,
                   r + 1 < nrows ? "," : "");
        }
        printf("  ]\n}\n");
    } else {
        printf("contact manifolds, workload: %u sharp polygons (%d-%d vertices), %zu pairs, "
               "%.1f%% overlapping (sepax_overlap), %s; fastest of %d reps\n",
               o.cfg.shapes, o.cfg.min_verts, o.cfg.max_verts, w.n,
               100.0 * (double)overlaps / (double)w.n,
               o.shuffle ? "shuffled" : "as drawn (a run of hits at the end)", o.reps);
        printf("every sepax backend bit-identical to the reference: %s\n", mismatch ? "NO" : "yes");
        if (box2d_row[Q_MANIFOLD] >= 0 && hull_differs)
            printf("Box2D's hull differs from sepax's polygon for %zu shapes\n", hull_differs);
        printf("(box2d: b2CollidePolygons, manifold in the reference body's frame; box2d+world: "
               "then b2WorldManifold::Initialize; chipmunk: cpShapesCollide; sweep: A still, B "
               "moving up to 4 units a step, one pair in 8 up to 1000; box2d toi: "
               "b2TimeOfImpact, failed = e_failed; raycast: a ray per pair from A's box centre "
               "towards B's, cast against B; box2d raycast: b2PolygonShape::RayCast)\n");
        static const char *const heads[Q_COUNT] = {
            "touching pairs |  points", "          hits |  failed", "          hits |       -"};
        for (int q = 0; q < Q_COUNT; q++) {
            printf("\n| %-8s engine  | ns/pair | Mpairs/s | vs box2d | %s |\n", query_names[q],
                   heads[q]);
            printf(
                "|-----------------|--------:|---------:|---------:|---------------:|--------:|\n");
            for (int r = 0; r < nrows; r++) {
                if (rows[r].query != q) continue;
                char name[32], speedup[16] = "-";
                snprintf(name, sizeof name, "%s%s", rows[r].engine == E_SEPAX ? "sepax " : "",
                         rows[r].name);
                if (box2d_row[q] >= 0)
                    snprintf(speedup, sizeof speedup, "%.2fx", rows[box2d_row[q]].ns / rows[r].ns);
                printf("| %-15s | %7.2f | %8.1f | %8s | %14zu | %7zu |\n", name, rows[r].ns,
                       1e3 / rows[r].ns, speedup, rows[r].touching, rows[r].points);
            }
        }
        printf("\nchecksum %016llx\n", (unsigned long long)checksum);
    }
#ifdef SEPAX_PEER_BOX2D
    peer_box2d_destroy(w.box2d);
#endif
#ifdef SEPAX_PEER_CHIPMUNK
    peer_chipmunk_destroy(w.chipmunk);
#endif
    sepax_shapes_destroy(w.store);
    free(w.pairs);
    free(w.out);
    free(want);
    free(hit);
    free(w.vel);
    free(w.sweep);
    free(w.rays);
    free(w.ray_ids);
    free(w.ray_hit);
    free(want_sweep);
    free(want_ray);
    return mismatch ? 1 : 0;
}
