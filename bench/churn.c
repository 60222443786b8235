/* Bullets come and go: what an add and a removal cost in a store of N shapes (60% circles,
 * the rest triangles and boxes, on a lattice, as a bullet-hell's). Each round removes K
 * shapes at random live indices (each removal moves the last shape into the hole), adds K
 * back (circles, then polygons), removes the K newest (nothing moves) and adds them again,
 * timing each batch; it prints the median ns per call over R rounds, twice: with the
 * transposed rows current (after sepax_shapes_update), which adds and removals keep
 * current, and with them stale (after a frame's SEPAX_UPDATE_FRAME, which a game runs every
 * frame), which they leave to the next whole update.
 *
 *   sepax-bench-churn [--n N] [--k K] [--rounds R]
 *   (defaults: 100000 10000 7)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_util.h"

typedef struct options {
    uint32_t n, k, rounds;
} options;

static options parse(int argc, char **argv) {
    options o = {100000, 10000, 7};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n"))
            o.n = frame_arg_u32(argv[i + 1]);
        else if (!strcmp(argv[i], "--k"))
            o.k = frame_arg_u32(argv[i + 1]);
        else if (!strcmp(argv[i], "--rounds"))
            o.rounds = frame_arg_u32(argv[i + 1]);
        else {
            fprintf(stderr, "usage: %s [--n N] [--k K] [--rounds R]\n", argv[0]);
            exit(2);
        }
    }
    if (argc % 2 == 0) {
        fprintf(stderr, "usage: %s [--n N] [--k K] [--rounds R]\n", argv[0]);
        exit(2);
    }
    if (o.n < 2 || o.k == 0 || o.k > o.n / 2 || o.rounds == 0) {
        fprintf(stderr, "%s: need N >= 2, 1 <= K <= N / 2, R >= 1\n", argv[0]);
        exit(2);
    }
    return o;
}

/* Shape i of the lattice: 3 of 5 circles, then triangles and boxes (as polygons). */
static void add_shape(sepax_shapes *s, uint32_t i, uint32_t *id) {
    float x = 4.0f * (float)(i % 1024), y = 4.0f * (float)(i / 1024);
    sepax_status st;
    if (i % 5 < 3) {
        st = sepax_shapes_add_circle(s, (sepax_vec2){x, y}, 1.0f, id);
    } else if (i % 5 == 3) {
        sepax_vec2 p[3] = {{x, y}, {x + 1.5f, y + 0.2f}, {x + 0.4f, y + 1.3f}};
        st = sepax_shapes_add_polygon(s, p, 3, id);
    } else {
        sepax_vec2 p[4] = {{x, y}, {x + 1.2f, y}, {x + 1.2f, y + 0.8f}, {x, y + 0.8f}};
        st = sepax_shapes_add_polygon(s, p, 4, id);
    }
    if (st != SEPAX_OK) frame_die("add", st);
}

enum { REMOVE_RANDOM, ADD_BACK, REMOVE_NEWEST, ADD_NEWEST, REMOVE_SET, ADD_SET, OPS };
static const char *const op_name[OPS] = {"remove at a random index (the last moves in)",
                                         "add (3 of 5 circles)",
                                         "remove the newest (no move)",
                                         "add again",
                                         "remove K at random indices in one remove_many",
                                         "add them back"};

/* K distinct random live indices' ids into ids (a partial shuffle of `at`, n entries). */
static void random_set(sepax_shapes *s, uint32_t k, uint64_t *rng, uint32_t *at, uint32_t *ids) {
    uint32_t n = sepax_shapes_count(s);
    for (uint32_t i = 0; i < n; i++) at[i] = i;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t pick = j + (uint32_t)(frame_next(rng) % (n - j)), t = at[j];
        at[j] = at[pick];
        at[pick] = t;
        ids[j] = sepax_shapes_id(s, at[j]);
    }
}

/* One round: the six batches, ns per shape of each into ns[op]. */
static void round_of(sepax_shapes *s, const options *o, uint64_t *rng, uint32_t *ids, uint32_t *at,
                     double ns[OPS]) {
    uint32_t n = sepax_shapes_count(s);
    double t0 = frame_now_ns();
    for (uint32_t j = 0; j < o->k; j++) {
        uint32_t live = sepax_shapes_count(s);
        uint32_t at = (uint32_t)(frame_next(rng) % live);
        sepax_status st = sepax_shapes_remove(s, sepax_shapes_id(s, at), NULL);
        if (st != SEPAX_OK) frame_die("remove", st);
    }
    double t1 = frame_now_ns();
    for (uint32_t j = 0; j < o->k; j++) add_shape(s, n - o->k + j, &ids[j]);
    double t2 = frame_now_ns();
    for (uint32_t j = o->k; j-- > 0;) {
        sepax_status st = sepax_shapes_remove(s, ids[j], NULL);
        if (st != SEPAX_OK) frame_die("remove newest", st);
    }
    double t3 = frame_now_ns();
    for (uint32_t j = 0; j < o->k; j++) add_shape(s, n - o->k + j, &ids[j]);
    double t4 = frame_now_ns();
    random_set(s, o->k, rng, at, ids); /* untimed: the game knows its dead bullets */
    double t5 = frame_now_ns();
    sepax_status st = sepax_shapes_remove_many(s, ids, o->k, NULL, NULL);
    double t6 = frame_now_ns();
    if (st != SEPAX_OK) frame_die("remove_many", st);
    for (uint32_t j = 0; j < o->k; j++) add_shape(s, n - o->k + j, &ids[j]);
    double t7 = frame_now_ns();
    ns[REMOVE_SET] = (t6 - t5) / o->k;
    ns[ADD_SET] = (t7 - t6) / o->k;
    ns[REMOVE_RANDOM] = (t1 - t0) / o->k;
    ns[ADD_BACK] = (t2 - t1) / o->k;
    ns[REMOVE_NEWEST] = (t3 - t2) / o->k;
    ns[ADD_NEWEST] = (t4 - t3) / o->k;
}

int main(int argc, char **argv) {
    frame_set_name(argv[0]);
    options o = parse(argc, argv);
    sepax_shapes *s = sepax_shapes_create(o.n);
    if (!s) frame_die("sepax_shapes_create", SEPAX_ERR_NOMEM);
    uint32_t *ids = frame_xmalloc(o.k * sizeof *ids), *at = frame_xmalloc(o.n * sizeof *at);
    for (uint32_t i = 0; i < o.n; i++) add_shape(s, i, &ids[0]);
    sepax_broadphase_config cfg = {1, NULL, NULL, 0};
    sepax_broadphase *bp = sepax_broadphase_create(&cfg);
    if (!bp) frame_die("sepax_broadphase_create", SEPAX_ERR_NOMEM);
    double *v = frame_xmalloc((size_t)o.rounds * OPS * sizeof *v);
    printf("# sepax-bench-churn --n %u --k %u --rounds %u: ns per call, median of %u rounds of %u "
           "calls each\n\n",
           o.n, o.k, o.rounds, o.rounds, o.k);
    printf("| rows");
    for (int op = 0; op < OPS; op++) printf(" | %s", op_name[op]);
    printf(" |\n|---");
    for (int op = 0; op < OPS; op++) printf("|---:");
    printf("|\n");
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (int stale = 0; stale < 2; stale++) {
        sepax_status st = sepax_shapes_update(s); /* rows current */
        if (st != SEPAX_OK) frame_die("sepax_shapes_update", st);
        if (stale) { /* a frame that writes the records only: the rows lag from here on */
            sepax_frame_options fo = {SEPAX_TEST_AABB, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
            sepax_contacts none = {NULL, NULL, NULL, 0};
            size_t count;
            st = sepax_find_contacts(bp, s, &fo, &none, &count);
            if (st != SEPAX_OK && st != SEPAX_ERR_CAPACITY) frame_die("sepax_find_contacts", st);
        }
        for (uint32_t r = 0; r < o.rounds; r++) {
            double ns[OPS];
            round_of(s, &o, &rng, ids, at, ns);
            for (int op = 0; op < OPS; op++) v[(size_t)op * o.rounds + r] = ns[op];
        }
        printf("| %s", stale ? "stale (after a frame)" : "current (after an update)");
        for (int op = 0; op < OPS; op++)
            printf(" | %.1f", frame_median(v + (size_t)op * o.rounds, o.rounds));
        printf(" |\n");
    }
    if (sepax_shapes_count(s) != o.n) {
        fprintf(stderr, "%s: %u shapes at the end, %u expected\n", argv[0], sepax_shapes_count(s),
                o.n);
        return 1;
    }
    free(v);
    free(at);
    free(ids);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
    return 0;
}
