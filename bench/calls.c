/* What a call costs besides its pairs: the same pair list walked in calls of b pairs, for b
 * from 1 to the whole list, through sepax_overlap, sepax_collide and
 * sepax_collide_manifold. Each call checks its arguments (NULL, alignment, counts, the
 * aliasing of its buffers, every id) and picks its kernel before the first pair; a caller
 * that asks pair by pair (an entity at a time) pays that for each one. Prints, per query and
 * batch size, ns a pair and ns a call (the fastest of --reps runs, each after an untimed one),
 * and exits 1 unless every batch size gave the answers of one call over the whole list, bit
 * for bit.
 *
 *   sepax-bench-calls [--pairs N] [--batch B] [--reps R] [--backend NAME]
 *                     [--kinds polygons|mixed|circles]
 *   (defaults: 65536 pairs, every batch size, 5 runs, the CPU's best backend, mixed kinds;
 *   --batch B times calls of B pairs alone, for callgrind)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sepax.h"
#include "workload.h"

typedef struct options {
    size_t pairs, batch; /* batch 0: every size */
    int reps, kinds;
    sepax_backend backend;
} options;

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [--pairs N] [--batch B] [--reps R] [--backend NAME]\n"
            "          [--kinds polygons|mixed|circles]\n",
            argv0);
    exit(2);
}

static options parse(int argc, char **argv) {
    options o = {65536, 0, 5, WL_MIXED, SEPAX_BACKEND_AUTO};
    if (argc % 2 == 0) usage(argv[0]); /* a flag without its value (--help among them) */
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--pairs"))
            o.pairs = strtoul(v, NULL, 10);
        else if (!strcmp(a, "--batch"))
            o.batch = strtoul(v, NULL, 10);
        else if (!strcmp(a, "--reps"))
            o.reps = atoi(v);
        else if (!strcmp(a, "--backend")) {
            if (sepax_backend_from_name(v, &o.backend) != SEPAX_OK) usage(argv[0]);
        } else if (!strcmp(a, "--kinds")) {
            if (!strcmp(v, "polygons"))
                o.kinds = WL_POLYGONS;
            else if (!strcmp(v, "mixed"))
                o.kinds = WL_MIXED;
            else if (!strcmp(v, "circles"))
                o.kinds = WL_CIRCLES;
            else
                usage(argv[0]);
        } else
            usage(argv[0]);
    }
    if (o.pairs == 0 || o.reps < 1) usage(argv[0]);
    return o;
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void die(const char *what, sepax_status st) {
    fprintf(stderr, "sepax-bench-calls: %s: %s\n", what, sepax_status_str(st));
    exit(1);
}

enum { OVERLAP, COLLIDE, MANIFOLD, QUERIES };
static const char *const names[QUERIES] = {"overlap", "collide", "manifold"};
static const size_t out_size[QUERIES] = {sizeof(uint8_t), sizeof(sepax_hit),
                                         sizeof(sepax_manifold)};

/* The whole list in calls of b pairs (the last one shorter), into out. */
static void walk(int q, const sepax_shapes *s, const sepax_pair *pairs, size_t n, size_t b,
                 void *out) {
    for (size_t at = 0; at < n; at += b) {
        size_t len = n - at < b ? n - at : b;
        sepax_status st;
        if (q == OVERLAP)
            st = sepax_overlap(s, pairs + at, len, (uint8_t *)out + at);
        else if (q == COLLIDE)
            st = sepax_collide(s, pairs + at, len, (sepax_hit *)out + at);
        else
            st = sepax_collide_manifold(s, pairs + at, len, (sepax_manifold *)out + at);
        if (st != SEPAX_OK) die(names[q], st);
    }
}

int main(int argc, char **argv) {
    options o = parse(argc, argv);
    sepax_status st = sepax_set_backend(o.backend);
    if (st != SEPAX_OK) die("backend", st);
    wl_config cfg = wl_default();
    cfg.pairs = o.pairs;
    cfg.kinds = o.kinds;
    sepax_shapes *s = sepax_shapes_create(cfg.shapes);
    sepax_pair *pairs = malloc(o.pairs * sizeof *pairs);
    unsigned char *want = malloc(o.pairs * sizeof(sepax_manifold));
    unsigned char *got = malloc(o.pairs * sizeof(sepax_manifold));
    if (!s || !pairs || !want || !got) die("memory", SEPAX_ERR_NOMEM);
    if ((st = wl_fill_store(s, &cfg)) != SEPAX_OK || (st = wl_pose_randomly(s, 11)) != SEPAX_OK ||
        (st = wl_make_pairs(s, &cfg, pairs)) != SEPAX_OK)
        die("workload", st);
    wl_shuffle_pairs(pairs, o.pairs, cfg.seed);

    static const size_t sizes[] = {1, 2, 4, 8, 16, 64, 256, 1024, 4096, 0 /* the whole list */};
    printf("backend %s, %zu pairs (%s), fastest of %d runs\n",
           sepax_backend_name(sepax_get_backend()), o.pairs,
           o.kinds == WL_MIXED     ? "mixed"
           : o.kinds == WL_CIRCLES ? "circles"
                                   : "polygons",
           o.reps);
    printf("%-9s %8s %12s %12s\n", "query", "batch", "ns/pair", "ns/call");
    int bad = 0;
    for (int q = 0; q < QUERIES; q++) {
        size_t bytes = o.pairs * out_size[q];
        walk(q, s, pairs, o.pairs, o.pairs, want); /* one call: the answers to match */
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            size_t b = sizes[k] ? sizes[k] : o.pairs;
            if (b > o.pairs || (!sizes[k] && k && sizes[k - 1] == o.pairs)) continue;
            if (o.batch && b != o.batch) continue;
            double best = 1e300;
            for (int r = 0; r < o.reps; r++) {
                walk(q, s, pairs, o.pairs, b, got); /* untimed: warm caches */
                double t0 = now_ns();
                walk(q, s, pairs, o.pairs, b, got);
                double t = now_ns() - t0;
                best = t < best ? t : best;
            }
            size_t calls = (o.pairs + b - 1) / b;
            int same = memcmp(got, want, bytes) == 0;
            bad |= !same;
            printf("%-9s %8zu %12.2f %12.1f%s\n", names[q], b, best / (double)o.pairs,
                   best / (double)calls, same ? "" : "  ANSWERS DIFFER from one call's");
        }
    }
    sepax_shapes_destroy(s);
    free(pairs);
    free(want);
    free(got);
    return bad;
}
