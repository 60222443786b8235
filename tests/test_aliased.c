/* SEPAX_ERR_ALIASED: an output laid over an input the call reads while it writes, or over
 * another output, is refused, with every byte of both and the store left as they were; buffers
 * that only touch, inputs sharing memory, a hull in place and a reorder into its own order
 * still work, with the bits of separate buffers; and each call checks for it where its order of
 * checks says (a refusal found earlier in that order wins, and the aliasing wins over what
 * comes later). Each case lays its buffers out in one allocation, an arena, so that "inside",
 * "one byte over" and "right after" are plain offsets, and a copy of the whole arena taken
 * before the call shows any byte a refusal wrote. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sepax.h"
#include "sepax_ref.h"
#include "workload.h"

#define SHAPES 64 /* shapes of a scene: an 8 x 8 jittered grid */
/* pairs, velocities and rays of a case: several SIMD blocks of every backend and a partial
 * one, so a kernel that ran before the check would have written part of its output */
#define N 24
#define ARENA (256u * 1024u)
/* where a case's first input goes: room before it for outputs laid in front of it */
#define BASE (96u * 1024u)
#define KIB 1024L

/* named in every message: which kernel the answers came from */
static const char *backend_now = "default";

/* ---- arenas -------------------------------------------------------------------------------- */

typedef struct arena {
    unsigned char *at;  /* the memory of a case's buffers */
    unsigned char *was; /* its bytes before the call */
} arena;

/* Random bytes, not zeros: a refusal that cleared an output, or wrote a miss (all zeros),
 * would go unseen over zeros. */
static void arena_fill(arena *a) {
    wl_rng r = {0xa11a5edull};
    for (size_t i = 0; i < ARENA; i += 8) {
        uint64_t v = wl_next(&r);
        memcpy(a->at + i, &v, 8);
    }
}

static arena arena_new(void) {
    arena a = {aligned_alloc(64, ARENA), aligned_alloc(64, ARENA)};
    cr_assert(a.at && a.was);
    arena_fill(&a);
    return a;
}

static void arena_free(arena *a) {
    free(a->at);
    free(a->was);
}

/* BASE + off into the arena: off may be negative (before the case's first input) */
static void *at(const arena *a, long off) { return a->at + (long)BASE + off; }

static void arena_keep(arena *a) { memcpy(a->was, a->at, ARENA); }
static int arena_same(const arena *a) { return memcmp(a->at, a->was, ARENA) == 0; }

/* every byte outside [p, p + bytes) as it was: an accepted call writes its output only */
static int arena_same_outside(const arena *a, const void *p, size_t bytes) {
    size_t from = (size_t)((const unsigned char *)p - a->at), to = from + bytes;
    return memcmp(a->at, a->was, from) == 0 && memcmp(a->at + to, a->was + to, ARENA - to) == 0;
}

/* ---- what a caller can read back from a store -------------------------------------------- */

#define MAXS 80

typedef struct state {
    uint32_t count;
    uint32_t id[MAXS];
    sepax_local_shape local[MAXS];
    sepax_pose pose[MAXS];
    sepax_aabb box[MAXS];
    sepax_filter filter[MAXS];
    uint64_t user[MAXS];
    /* SEPAX_ERR_STALE_WORLD after a lazy frame: a refusal must not change that either */
    sepax_status view_st[MAXS];
    wl_view_copy view[MAXS];
} state;

/* calloc'd, so that two states compare as bytes; a NULL store (rot_many, hull) is empty */
static state *state_of(const sepax_shapes *s) {
    state *t = calloc(1, sizeof *t);
    cr_assert(t);
    if (!s) return t;
    t->count = sepax_shapes_count(s);
    cr_assert(t->count <= MAXS);
    for (uint32_t i = 0; i < t->count; i++) {
        uint32_t id = sepax_shapes_id(s, i);
        t->id[i] = id;
        cr_assert_eq(sepax_shapes_local(s, id, &t->local[i]), SEPAX_OK);
        cr_assert_eq(sepax_shapes_get_pose(s, id, &t->pose[i]), SEPAX_OK);
        cr_assert_eq(sepax_shapes_aabb(s, id, &t->box[i]), SEPAX_OK);
        cr_assert_eq(sepax_shapes_get_filter(s, id, &t->filter[i]), SEPAX_OK);
        cr_assert_eq(sepax_shapes_get_user(s, &id, 1, &t->user[i]), SEPAX_OK);
        t->view_st[i] = wl_copy_view(s, id, &t->view[i]);
    }
    return t;
}

/* The store shows what `before` saw (which this frees). */
static void expect_state(const sepax_shapes *s, state *before, const char *what) {
    state *now = state_of(s);
    cr_expect(now->count == before->count, "%s [%s]: count %u -> %u", what, backend_now,
              before->count, now->count);
    cr_expect(memcmp(now, before, sizeof *now) == 0, "%s [%s]: the store changed", what,
              backend_now);
    free(now);
    free(before);
}

/* Two stores built alike show the same: one that refused calls and its twin that never saw them. */
static void expect_twins(const sepax_shapes *s, const sepax_shapes *twin, const char *what) {
    expect_state(s, state_of(twin), what);
}

/* `call` returns `want` and writes nothing: every byte of the arena (the outputs, and the
 * inputs and outputs they lie over) and the store as they were. */
#define REFUSED(want, ar, store, what, call)                                                       \
    do {                                                                                           \
        state *before_ = state_of(store);                                                          \
        arena_keep(ar);                                                                            \
        sepax_status got_ = (call);                                                                \
        cr_expect(got_ == (want), "%s [%s]: %s\n  got  %s\n  want %s", (what), backend_now, #call, \
                  sepax_status_str(got_), sepax_status_str(want));                                 \
        cr_expect(arena_same(ar), "%s [%s]: %s wrote into its buffers", (what), backend_now,       \
                  #call);                                                                          \
        expect_state((store), before_, (what));                                                    \
    } while (0)

/* ---- scenes -------------------------------------------------------------------------------- */

/* Shapes of every kind, turned and nudged by poses, neighbours close enough to touch. */
static sepax_shapes *scene_store(uint64_t seed) {
    sepax_shapes *s = sepax_shapes_create(SHAPES);
    cr_assert(s);
    wl_config cfg = wl_default();
    cfg.shapes = SHAPES;
    cfg.kinds = WL_MIXED;
    cfg.seed = seed;
    cr_assert_eq(wl_fill_store(s, &cfg), SEPAX_OK);
    cr_assert_eq(wl_pose_randomly(s, seed + 1), SEPAX_OK);
    /* the caller's data, so that get_user answers tell the shapes apart */
    for (uint32_t i = 0; i < SHAPES; i++) {
        uint64_t u = 0x9e3779b97f4a7c15ull * (i + 1) ^ seed;
        cr_assert_eq(sepax_shapes_set_user(s, i, 1, &u), SEPAX_OK);
    }
    return s;
}

typedef struct scene {
    sepax_shapes *s;
    sepax_pair pairs[N]; /* half touching, half apart */
    sepax_vec2 va[N], vb[N];
    sepax_ray rays[N];
    uint32_t targets[N]; /* the shape each ray is cast against */
} scene;

static scene scene_new(uint64_t seed) {
    scene sc;
    memset(&sc, 0, sizeof sc);
    sc.s = scene_store(seed);
    wl_config cfg = wl_default();
    cfg.pairs = N;
    cfg.seed = seed;
    cr_assert_eq(wl_make_pairs(sc.s, &cfg, sc.pairs), SEPAX_OK);
    wl_bench_motion(sc.s, sc.pairs, N, seed + 2, sc.vb, sc.rays, sc.targets);
    /* A moving too, across B's path, so both velocity arrays count */
    for (size_t i = 0; i < N; i++) sc.va[i] = (sepax_vec2){-0.5f * sc.vb[i].y, 0.25f * sc.vb[i].x};
    return sc;
}

/* Runs fn once on each backend this CPU runs, then puts the process's choice back. The check
 * is shared code before the kernels, but what an accepted layout must match is each kernel's. */
static void on_every_backend(void (*fn)(const scene *), const scene *sc) {
    sepax_backend was = sepax_get_backend();
    int ran = 0;
    for (int b = 0; b < SEPAX_BACKEND_COUNT; b++) {
        if (!sepax_backend_available((sepax_backend)b)) continue;
        cr_assert_eq(sepax_set_backend((sepax_backend)b), SEPAX_OK);
        backend_now = sepax_backend_name((sepax_backend)b);
        fn(sc);
        ran++;
    }
    cr_assert_eq(sepax_set_backend(was), SEPAX_OK);
    backend_now = "default";
    cr_expect(ran > 0, "no backend ran");
}

/* A frame with SEPAX_UPDATE_LAZY: until a whole update, every query that reads records
 * answers SEPAX_ERR_STALE_WORLD, which each call checks after the aliasing. */
static void make_stale(sepax_shapes *s, sepax_broadphase *bp) {
    size_t cap = (size_t)SHAPES * SHAPES, count = 0;
    sepax_pair *p = malloc(cap * sizeof *p);
    cr_assert(p);
    sepax_contacts out = {p, NULL, NULL, cap};
    sepax_frame_options o = {SEPAX_TEST_AABB, 0.0f, 0.0f, SEPAX_UPDATE_LAZY};
    cr_assert_eq(sepax_find_contacts(bp, s, &o, &out, &count), SEPAX_OK);
    free(p);
}

/* An id of index 2 under a generation it never had: STALE_ID (README, "Removing shapes"). */
#define STALE_2 ((1u << SEPAX_ID_INDEX_BITS) | 2u)

/* ---- the status itself --------------------------------------------------------------------- */

Test(aliased, status_str_names_it) {
    cr_expect_eq((int)SEPAX_ERR_ALIASED, -22);
    const char *s = sepax_status_str(SEPAX_ERR_ALIASED);
    cr_assert_not_null(s);
    cr_expect(strncmp(s, "SEPAX_ERR_ALIASED", strlen("SEPAX_ERR_ALIASED")) == 0, "\"%s\"", s);
    /* and it is no other status's name: a table off by one would name its neighbour */
    cr_expect(strcmp(s, sepax_status_str(SEPAX_ERR_NO_GRID)) != 0);
}

/* ---- pair queries (and their sepax_ref_ counterparts) -------------------------------------- */

enum { OVERLAP, OVERLAP_OPT, COLLIDE, COLLIDE_OPT, MANIFOLD, MANIFOLD_OPT, PAIR_QUERIES };
static const char *const pair_query_name[PAIR_QUERIES] = {
    "overlap", "overlap_opt", "collide", "collide_opt", "collide_manifold", "collide_manifold_opt"};

static size_t pair_out_size(int q) {
    return q <= OVERLAP_OPT   ? sizeof(uint8_t)
           : q <= COLLIDE_OPT ? sizeof(sepax_hit)
                              : sizeof(sepax_manifold);
}

/* Pair query q, the library's or (ref) the reference's, with its output as plain memory.
 * The calls without options ignore o. */
static sepax_status pair_query(int q, int ref, const sepax_shapes *s, const sepax_pair *pairs,
                               size_t n, const sepax_query_options *o, void *out) {
    switch (q) {
    case OVERLAP: return (ref ? sepax_ref_overlap : sepax_overlap)(s, pairs, n, out);
    case OVERLAP_OPT: return (ref ? sepax_ref_overlap_opt : sepax_overlap_opt)(s, pairs, n, o, out);
    case COLLIDE: return (ref ? sepax_ref_collide : sepax_collide)(s, pairs, n, out);
    case COLLIDE_OPT: return (ref ? sepax_ref_collide_opt : sepax_collide_opt)(s, pairs, n, o, out);
    case MANIFOLD:
        return (ref ? sepax_ref_collide_manifold : sepax_collide_manifold)(s, pairs, n, out);
    default:
        return (ref ? sepax_ref_collide_manifold_opt : sepax_collide_manifold_opt)(s, pairs, n, o,
                                                                                   out);
    }
}

/* The least an output can share with an input: one byte for the byte flags; one float for the
 * 4-aligned structs (less would leave the output misaligned: MISALIGNED, checked before). */
static long least_share(size_t out_size) { return out_size == 1 ? 1 : 4; }

/* Five ways an output of out_bytes lies over an input of in_bytes starting at offset 0. */
#define OVER_WAYS 5
static void over_offsets(size_t in_bytes, size_t out_bytes, long g, long off[OVER_WAYS]) {
    off[0] = 0;                          /* on it, from its first byte */
    off[1] = (long)in_bytes / 2 / g * g; /* starting inside it */
    off[2] = (long)in_bytes - g;         /* its first bytes over the input's last */
    off[3] = g - (long)out_bytes;        /* its last bytes over the input's first */
    off[4] = -g;                         /* from just before the input, over its start */
}

static void pair_queries_refuse(const scene *sc) {
    arena a = arena_new();
    const size_t in = N * sizeof(sepax_pair);
    for (int q = 0; q < PAIR_QUERIES; q++) {
        size_t es = pair_out_size(q), outb = N * es;
        long off[OVER_WAYS];
        over_offsets(in, outb, least_share(es), off);
        /* the answers of separate buffers, before any refusal and after them all */
        unsigned char *want = malloc(outb), *again = malloc(outb);
        cr_assert(want && again);
        cr_assert_eq(pair_query(q, 0, sc->s, sc->pairs, N, NULL, want), SEPAX_OK);
        for (int ref = 0; ref < 2; ref++)
            for (int k = 0; k < OVER_WAYS; k++) {
                arena_fill(&a);
                sepax_pair *pairs = at(&a, 0);
                memcpy(pairs, sc->pairs, in);
                char what[160];
                snprintf(what, sizeof what, "%s%s, out at %+ld bytes from the pairs",
                         ref ? "ref_" : "", pair_query_name[q], off[k]);
                REFUSED(SEPAX_ERR_ALIASED, &a, sc->s, what,
                        pair_query(q, ref, sc->s, pairs, N, NULL, at(&a, off[k])));
            }
        cr_assert_eq(pair_query(q, 0, sc->s, sc->pairs, N, NULL, again), SEPAX_OK);
        cr_expect(memcmp(want, again, outb) == 0, "%s [%s]: answers changed by the refusals",
                  pair_query_name[q], backend_now);
        /* a query's options are read whole before anything is written: not checked, so the
         * options may lie inside the output (the defaults: the same answers) */
        if (q == OVERLAP_OPT || q == COLLIDE_OPT || q == MANIFOLD_OPT)
            for (int ref = 0; ref < 2; ref++) {
                arena_fill(&a);
                sepax_pair *pairs = at(&a, 0);
                memcpy(pairs, sc->pairs, in);
                unsigned char *out = at(&a, (long)in);
                sepax_query_options *o = (sepax_query_options *)(void *)(out + 8);
                *o = (sepax_query_options){0.0f, NULL, 0};
                sepax_status st = pair_query(q, ref, sc->s, pairs, N, o, out);
                cr_expect(st == SEPAX_OK && memcmp(out, want, outb) == 0,
                          "%s%s [%s], the options inside out: %s, or other answers",
                          ref ? "ref_" : "", pair_query_name[q], backend_now, sepax_status_str(st));
            }
        /* touching is not sharing: the output right after the pairs, or ending right before
         * them, in the same allocation */
        const long apart[2] = {(long)in, -(long)outb};
        for (int ref = 0; ref < 2; ref++)
            for (int k = 0; k < 2; k++) {
                arena_fill(&a);
                sepax_pair *pairs = at(&a, 0);
                memcpy(pairs, sc->pairs, in);
                void *out = at(&a, apart[k]);
                arena_keep(&a);
                sepax_status st = pair_query(q, ref, sc->s, pairs, N, NULL, out);
                cr_expect(st == SEPAX_OK, "%s%s [%s], out at %+ld: %s", ref ? "ref_" : "",
                          pair_query_name[q], backend_now, apart[k], sepax_status_str(st));
                cr_expect(memcmp(out, want, outb) == 0,
                          "%s%s [%s], out at %+ld: not the bits of separate buffers",
                          ref ? "ref_" : "", pair_query_name[q], backend_now, apart[k]);
                cr_expect(arena_same_outside(&a, out, outb),
                          "%s%s [%s], out at %+ld: wrote past it", ref ? "ref_" : "",
                          pair_query_name[q], backend_now, apart[k]);
            }
        free(want);
        free(again);
    }
    arena_free(&a);
}

Test(aliased, pair_queries_refuse_an_output_over_their_pairs) {
    scene sc = scene_new(7);
    on_every_backend(pair_queries_refuse, &sc);
    sepax_shapes_destroy(sc.s);
}

/* NULL, options, n == 0, MISALIGNED and COUNT come first; then ALIASED, before the scratch's
 * overlap, the ids and STALE_WORLD. Each later fault is first shown to be there, with the
 * output apart: else the aliased case would pass by luck. */
Test(aliased, pair_queries_check_in_the_documented_order) {
    scene sc = scene_new(11);
    arena a = arena_new();
    const size_t in = N * sizeof(sepax_pair);
    unsigned char *scr = aligned_alloc(SEPAX_SCRATCH_ALIGN, 192 * 1024);
    cr_assert(scr);
    for (int q = 0; q < PAIR_QUERIES; q++) {
        int opt = q == OVERLAP_OPT || q == COLLIDE_OPT || q == MANIFOLD_OPT;
        size_t es = pair_out_size(q), outb = N * es;
        for (int ref = 0; ref < 2; ref++) {
            char what[160];
            const char *name = pair_query_name[q], *pre = ref ? "ref_" : "";
            /* the output over the pairs from their second entry; `apart` right after them */
            sepax_pair *pairs = at(&a, 0);
            void *over = at(&a, (long)sizeof(sepax_pair)), *apart = at(&a, (long)in);
#define LAYOUT() (arena_fill(&a), memcpy(pairs, sc.pairs, in))
            /* a bad id, a stale id: the ids come after the aliasing */
            const uint32_t bad_ids[2] = {SHAPES + 5, STALE_2};
            const sepax_status id_st[2] = {SEPAX_ERR_BAD_ID, SEPAX_ERR_STALE_ID};
            for (int b = 0; b < 2; b++) {
                LAYOUT();
                pairs[N - 2].b = bad_ids[b];
                snprintf(what, sizeof what, "%s%s: %s, out apart", pre, name,
                         sepax_status_str(id_st[b]));
                REFUSED(id_st[b], &a, sc.s, what, pair_query(q, ref, sc.s, pairs, N, NULL, apart));
                snprintf(what, sizeof what, "%s%s: %s and out over the pairs", pre, name,
                         sepax_status_str(id_st[b]));
                REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                        pair_query(q, ref, sc.s, pairs, N, NULL, over));
            }
            /* n whose size overflows: COUNT first (nothing is read, so no span is either) */
            LAYOUT();
            snprintf(what, sizeof what, "%s%s: COUNT and out over the pairs", pre, name);
            REFUSED(SEPAX_ERR_COUNT, &a, sc.s, what,
                    pair_query(q, ref, sc.s, pairs, SIZE_MAX / 2, NULL, over));
            /* misaligned pairs under the output; a misaligned output over the pairs */
            arena_fill(&a);
            sepax_pair *skew = at(&a, 2);
            memcpy(skew, sc.pairs, in);
            snprintf(what, sizeof what, "%s%s: misaligned pairs under out", pre, name);
            REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                    pair_query(q, ref, sc.s, skew, N, NULL, at(&a, 16)));
            if (es > 1) {
                LAYOUT();
                snprintf(what, sizeof what, "%s%s: misaligned out over the pairs", pre, name);
                REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                        pair_query(q, ref, sc.s, pairs, N, NULL, at(&a, 10)));
            }
            /* NULL pairs: nothing to share, and NULL first anyway */
            LAYOUT();
            snprintf(what, sizeof what, "%s%s: NULL pairs", pre, name);
            REFUSED(SEPAX_ERR_NULL, &a, sc.s, what, pair_query(q, ref, sc.s, NULL, N, NULL, over));
            /* n == 0: empty spans share nothing; OK, and nothing written */
            LAYOUT();
            snprintf(what, sizeof what, "%s%s: n == 0 with out on the pairs", pre, name);
            REFUSED(SEPAX_OK, &a, sc.s, what, pair_query(q, ref, sc.s, pairs, 0, NULL, pairs));
            if (opt) {
                /* the options before everything else */
                sepax_query_options o = {NAN, NULL, 0};
                LAYOUT();
                snprintf(what, sizeof what, "%s%s: NaN margin and out over the pairs", pre, name);
                REFUSED(SEPAX_ERR_NONFINITE, &a, sc.s, what,
                        pair_query(q, ref, sc.s, pairs, N, &o, over));
                o.margin = 2e18f;
                snprintf(what, sizeof what, "%s%s: margin 2e18 and out over the pairs", pre, name);
                REFUSED(SEPAX_ERR_RANGE, &a, sc.s, what,
                        pair_query(q, ref, sc.s, pairs, N, &o, over));
                /* a zeroed struct (the defaults) at an odd address, written bytewise */
                sepax_query_options *skew_o = at(&a, -64 + 2);
                LAYOUT();
                memset((void *)skew_o, 0, sizeof *skew_o);
                snprintf(what, sizeof what, "%s%s: misaligned options and out over the pairs", pre,
                         name);
                REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                        pair_query(q, ref, sc.s, pairs, N, skew_o, over));
                o = (sepax_query_options){0.0f, scr + 8, SEPAX_SCRATCH_BYTES};
                snprintf(what, sizeof what, "%s%s: misaligned scratch and out over the pairs", pre,
                         name);
                REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                        pair_query(q, ref, sc.s, pairs, N, &o, over));
                o = (sepax_query_options){0.0f, scr, SEPAX_SCRATCH_BYTES - 1};
                snprintf(what, sizeof what, "%s%s: small scratch and out over the pairs", pre,
                         name);
                REFUSED(SEPAX_ERR_BAD_OPTION, &a, sc.s, what,
                        pair_query(q, ref, sc.s, pairs, N, &o, over));
                /* the scratch over the pairs is BAD_OPTION, but after the aliasing. The pairs
                 * and output inside the scratch's memory; only they are compared, as a
                 * scratch's bytes after a call mean nothing */
                o = (sepax_query_options){0.0f, scr, SEPAX_SCRATCH_BYTES};
                sepax_pair *in_scr = (sepax_pair *)(void *)(scr + 4096);
                unsigned char *far = scr + 128 * 1024; /* past the SEPAX_SCRATCH_BYTES used */
                unsigned char keep[4096];
                for (int k = 0; k < 2; k++) {
                    memcpy(in_scr, sc.pairs, in);
                    memset((unsigned char *)in_scr + in, 0x3c, outb);
                    memset(far, 0x3c, outb);
                    memcpy(keep, in_scr, in + outb);
                    void *out = k ? (void *)(in_scr + 1) : (void *)far;
                    sepax_status st = pair_query(q, ref, sc.s, in_scr, N, &o, out);
                    sepax_status want = k ? SEPAX_ERR_ALIASED : SEPAX_ERR_BAD_OPTION;
                    cr_expect(st == want,
                              "%s%s [%s]: pairs in the scratch, out %s: got %s, want %s", pre, name,
                              backend_now, k ? "over them" : "apart", sepax_status_str(st),
                              sepax_status_str(want));
                    cr_expect(memcmp(keep, in_scr, in + outb) == 0 && far[0] == 0x3c &&
                                  memcmp(far, far + 1, outb - 1) == 0,
                              "%s%s [%s]: a refusal wrote", pre, name, backend_now);
                }
            }
#undef LAYOUT
        }
    }
    /* after a lazy frame: ALIASED before STALE_WORLD */
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    make_stale(sc.s, bp);
    for (int q = 0; q < PAIR_QUERIES; q++)
        for (int ref = 0; ref < 2; ref++) {
            char what[160];
            sepax_pair *pairs = at(&a, 0);
            arena_fill(&a);
            memcpy(pairs, sc.pairs, in);
            snprintf(what, sizeof what, "%s%s: stale world, out apart", ref ? "ref_" : "",
                     pair_query_name[q]);
            REFUSED(SEPAX_ERR_STALE_WORLD, &a, sc.s, what,
                    pair_query(q, ref, sc.s, pairs, N, NULL, at(&a, (long)in)));
            snprintf(what, sizeof what, "%s%s: stale world, out over the pairs", ref ? "ref_" : "",
                     pair_query_name[q]);
            REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                    pair_query(q, ref, sc.s, pairs, N, NULL, at(&a, 8)));
        }
    sepax_broadphase_destroy(bp);
    free(scr);
    arena_free(&a);
    sepax_shapes_destroy(sc.s);
}

/* ---- sweeps -------------------------------------------------------------------------------- */

enum { SWEEP, SWEEP_OPT, REF_SWEEP, SWEEPS };
static const char *const sweep_name[SWEEPS] = {"sweep", "sweep_opt", "ref_sweep"};

static sepax_status sweep_call(int f, const sepax_shapes *s, const sepax_pair *pairs, size_t n,
                               const sepax_vec2 *va, const sepax_vec2 *vb,
                               const sepax_query_options *o, sepax_sweep_hit *out) {
    switch (f) {
    case SWEEP: return sepax_sweep(s, pairs, n, va, vb, out);
    case SWEEP_OPT: return sepax_sweep_opt(s, pairs, n, va, vb, o, out);
    default: return sepax_ref_sweep(s, pairs, n, va, vb, out);
    }
}

/* A sweep's inputs 2 KiB apart: pairs, velocity_a, velocity_b. */
#define AT_PAIRS 0L
#define AT_VA (2 * KIB)
#define AT_VB (4 * KIB)

static void sweep_layout(arena *a, const scene *sc) {
    arena_fill(a);
    memcpy(at(a, AT_PAIRS), sc->pairs, sizeof sc->pairs);
    memcpy(at(a, AT_VA), sc->va, sizeof sc->va);
    memcpy(at(a, AT_VB), sc->vb, sizeof sc->vb);
}

static void sweeps_refuse(const scene *sc) {
    arena a = arena_new();
    const size_t in = N * sizeof(sepax_vec2), outb = N * sizeof(sepax_sweep_hit);
    const long where[3] = {AT_PAIRS, AT_VA, AT_VB};
    const char *const in_name[3] = {"pairs", "velocity_a", "velocity_b"};
    sepax_sweep_hit want[N], want_still_a[N], got[N];
    cr_assert_eq(sepax_sweep(sc->s, sc->pairs, N, sc->va, sc->vb, want), SEPAX_OK);
    cr_assert_eq(sepax_sweep(sc->s, sc->pairs, N, NULL, sc->vb, want_still_a), SEPAX_OK);
    long off[OVER_WAYS];
    over_offsets(in, outb, 4, off);
    for (int f = 0; f < SWEEPS; f++) {
        for (int t = 0; t < 3; t++)
            for (int k = 0; k < OVER_WAYS; k++) {
                char what[160];
                snprintf(what, sizeof what, "%s, out at %+ld bytes from %s", sweep_name[f], off[k],
                         in_name[t]);
                sweep_layout(&a, sc);
                REFUSED(SEPAX_ERR_ALIASED, &a, sc->s, what,
                        sweep_call(f, sc->s, at(&a, AT_PAIRS), N, at(&a, AT_VA), at(&a, AT_VB),
                                   NULL, at(&a, where[t] + off[k])));
            }
        /* touching is not sharing: right after velocity_b, right after the pairs, right
         * before the pairs; and where a NULL velocity_a would be, as NULL spans nothing */
        const long apart[4] = {AT_VB + (long)in, AT_PAIRS + (long)in, AT_PAIRS - (long)outb, AT_VA};
        for (int k = 0; k < 4; k++) {
            sweep_layout(&a, sc);
            sepax_sweep_hit *out = at(&a, apart[k]);
            arena_keep(&a);
            sepax_status st = sweep_call(f, sc->s, at(&a, AT_PAIRS), N,
                                         k == 3 ? NULL : at(&a, AT_VA), at(&a, AT_VB), NULL, out);
            cr_expect(st == SEPAX_OK, "%s [%s], out at %+ld: %s", sweep_name[f], backend_now,
                      apart[k], sepax_status_str(st));
            cr_expect(memcmp(out, k == 3 ? want_still_a : want, outb) == 0,
                      "%s [%s], out at %+ld: not the bits of separate buffers", sweep_name[f],
                      backend_now, apart[k]);
            cr_expect(arena_same_outside(&a, out, outb), "%s [%s], out at %+ld: wrote past it",
                      sweep_name[f], backend_now, apart[k]);
        }
        /* inputs may share memory: velocity_a == velocity_b, and velocity_b one entry on from
         * velocity_a in one array, each against the same values in separate arrays */
        sepax_vec2 v[N + 1], v0[N], v1[N];
        memcpy(v, sc->va, sizeof sc->va);
        v[N] = sc->vb[0];
        memcpy(v0, v, sizeof v0);
        memcpy(v1, v + 1, sizeof v1);
        for (int shift = 0; shift < 2; shift++) {
            sepax_sweep_hit sep[N];
            cr_assert_eq(sepax_sweep(sc->s, sc->pairs, N, v0, shift ? v1 : v0, sep), SEPAX_OK);
            sweep_layout(&a, sc);
            sepax_vec2 *shared = at(&a, AT_VA);
            memcpy(shared, v, sizeof v);
            sepax_status st =
                sweep_call(f, sc->s, at(&a, AT_PAIRS), N, shared, shared + shift, NULL, got);
            cr_expect(st == SEPAX_OK, "%s [%s]: velocity_b at velocity_a + %d: %s", sweep_name[f],
                      backend_now, shift, sepax_status_str(st));
            cr_expect(memcmp(got, sep, sizeof got) == 0,
                      "%s [%s]: velocity_b at velocity_a + %d: not the bits of separate arrays",
                      sweep_name[f], backend_now, shift);
            cr_expect(memcmp(shared, v, sizeof v) == 0, "%s: an input was written", sweep_name[f]);
        }
    }
    arena_free(&a);
}

Test(aliased, sweeps_refuse_an_output_over_any_input) {
    scene sc = scene_new(13);
    on_every_backend(sweeps_refuse, &sc);
    sepax_shapes_destroy(sc.s);
}

/* The sweep's aliasing check sits with the pairs' (after COUNT and MISALIGNED of pairs and
 * out), so before the ids and before the velocities' own checks, which come after the ids. */
Test(aliased, sweeps_check_in_the_documented_order) {
    scene sc = scene_new(17);
    arena a = arena_new();
    char what[160];
    for (int f = 0; f < SWEEPS; f++) {
        const char *name = sweep_name[f];
        sepax_pair *pairs = at(&a, AT_PAIRS);
        sepax_vec2 *va = at(&a, AT_VA), *vb = at(&a, AT_VB);
        sepax_sweep_hit *over_vb = at(&a, AT_VB + 8), *apart = at(&a, 8 * KIB);
        /* each fault, once with the output apart (its own status) and once over velocity_b */
        for (int fault = 0; fault < 5; fault++) {
            static const char *const fault_name[5] = {"a bad id", "a stale id", "a NaN velocity",
                                                      "a velocity past the limit",
                                                      "a misaligned velocity_a"};
            static const sepax_status fault_st[5] = {SEPAX_ERR_BAD_ID, SEPAX_ERR_STALE_ID,
                                                     SEPAX_ERR_NONFINITE, SEPAX_ERR_RANGE,
                                                     SEPAX_ERR_MISALIGNED};
            sweep_layout(&a, &sc);
            const sepax_vec2 *use_va = va;
            switch (fault) {
            case 0: pairs[5].a = SHAPES + 1; break;
            case 1: pairs[N - 1].b = STALE_2; break;
            case 2: va[3].y = NAN; break;
            case 3: vb[1].x = 2e9f; break;
            default:
                use_va = (const sepax_vec2 *)(const void *)((const unsigned char *)va + 2);
                break;
            }
            snprintf(what, sizeof what, "%s: %s, out apart", name, fault_name[fault]);
            REFUSED(fault_st[fault], &a, sc.s, what,
                    sweep_call(f, sc.s, pairs, N, use_va, vb, NULL, apart));
            snprintf(what, sizeof what, "%s: %s, out over velocity_b", name, fault_name[fault]);
            REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                    sweep_call(f, sc.s, pairs, N, use_va, vb, NULL, over_vb));
        }
        sweep_layout(&a, &sc);
        snprintf(what, sizeof what, "%s: COUNT and out over velocity_b", name);
        REFUSED(SEPAX_ERR_COUNT, &a, sc.s, what,
                sweep_call(f, sc.s, pairs, SIZE_MAX / 4, va, vb, NULL, over_vb));
        snprintf(what, sizeof what, "%s: misaligned out over velocity_b", name);
        REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                sweep_call(f, sc.s, pairs, N, va, vb, NULL, at(&a, AT_VB + 2)));
        snprintf(what, sizeof what, "%s: n == 0, out on velocity_b", name);
        REFUSED(SEPAX_OK, &a, sc.s, what,
                sweep_call(f, sc.s, pairs, 0, va, vb, NULL, at(&a, AT_VB)));
        if (f == SWEEP_OPT) {
            /* the options come first: a sweep takes no margin */
            sepax_query_options o = {0.5f, NULL, 0};
            snprintf(what, sizeof what, "%s: margin 0.5 and out over velocity_b", name);
            REFUSED(SEPAX_ERR_BAD_OPTION, &a, sc.s, what,
                    sweep_call(f, sc.s, pairs, N, va, vb, &o, over_vb));
            o.margin = NAN;
            snprintf(what, sizeof what, "%s: NaN margin and out over velocity_b", name);
            REFUSED(SEPAX_ERR_NONFINITE, &a, sc.s, what,
                    sweep_call(f, sc.s, pairs, N, va, vb, &o, over_vb));
        }
    }
    /* after a lazy frame: ALIASED before STALE_WORLD */
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    make_stale(sc.s, bp);
    for (int f = 0; f < SWEEPS; f++) {
        sweep_layout(&a, &sc);
        snprintf(what, sizeof what, "%s: stale world, out apart", sweep_name[f]);
        REFUSED(SEPAX_ERR_STALE_WORLD, &a, sc.s, what,
                sweep_call(f, sc.s, at(&a, AT_PAIRS), N, at(&a, AT_VA), at(&a, AT_VB), NULL,
                           at(&a, 8 * KIB)));
        snprintf(what, sizeof what, "%s: stale world, out over velocity_a", sweep_name[f]);
        REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                sweep_call(f, sc.s, at(&a, AT_PAIRS), N, at(&a, AT_VA), at(&a, AT_VB), NULL,
                           at(&a, AT_VA - 4)));
    }
    sepax_broadphase_destroy(bp);
    arena_free(&a);
    sepax_shapes_destroy(sc.s);
}

/* ---- raycasts ------------------------------------------------------------------------------ */

enum { RAYCAST, RAYCAST_OPT, REF_RAYCAST, RAYCASTS };
static const char *const raycast_name[RAYCASTS] = {"raycast", "raycast_opt", "ref_raycast"};

static sepax_status raycast_call(int f, const sepax_shapes *s, const sepax_ray *rays,
                                 const uint32_t *shapes, size_t n, const sepax_query_options *o,
                                 sepax_ray_hit *out) {
    switch (f) {
    case RAYCAST: return sepax_raycast(s, rays, shapes, n, out);
    case RAYCAST_OPT: return sepax_raycast_opt(s, rays, shapes, n, o, out);
    default: return sepax_ref_raycast(s, rays, shapes, n, out);
    }
}

#define AT_RAYS 0L
#define AT_TARGETS (2 * KIB)

static void ray_layout(arena *a, const scene *sc) {
    arena_fill(a);
    memcpy(at(a, AT_RAYS), sc->rays, sizeof sc->rays);
    memcpy(at(a, AT_TARGETS), sc->targets, sizeof sc->targets);
}

enum { RANGE_LIB, RANGE_REF, RANGES };
static const char *const range_name[RANGES] = {"raycast_range", "ref_raycast_range"};

static sepax_status range_call(int f, const sepax_shapes *s, const sepax_ray *ray, uint32_t first,
                               size_t count, sepax_ray_hit *out) {
    return (f == RANGE_REF ? sepax_ref_raycast_range : sepax_raycast_range)(s, ray, first, count,
                                                                            out);
}

/* A laser across the scene's grid of shapes, hitting several. */
static const sepax_ray laser = {{-3.0f, 1.0f}, {30.0f, 12.0f}, 1.0f};

static void raycasts_refuse(const scene *sc) {
    arena a = arena_new();
    const size_t outb = N * sizeof(sepax_ray_hit);
    const size_t in[2] = {sizeof sc->rays, sizeof sc->targets};
    const long where[2] = {AT_RAYS, AT_TARGETS};
    const char *const in_name[2] = {"rays", "shapes"};
    sepax_ray_hit want[N];
    cr_assert_eq(sepax_raycast(sc->s, sc->rays, sc->targets, N, want), SEPAX_OK);
    for (int f = 0; f < RAYCASTS; f++) {
        for (int t = 0; t < 2; t++) {
            long off[OVER_WAYS];
            over_offsets(in[t], outb, 4, off);
            for (int k = 0; k < OVER_WAYS; k++) {
                char what[160];
                snprintf(what, sizeof what, "%s, out at %+ld bytes from the %s", raycast_name[f],
                         off[k], in_name[t]);
                ray_layout(&a, sc);
                REFUSED(SEPAX_ERR_ALIASED, &a, sc->s, what,
                        raycast_call(f, sc->s, at(&a, AT_RAYS), at(&a, AT_TARGETS), N, NULL,
                                     at(&a, where[t] + off[k])));
            }
        }
        const long apart[3] = {AT_TARGETS + (long)in[1], AT_RAYS + (long)in[0],
                               AT_RAYS - (long)outb};
        for (int k = 0; k < 3; k++) {
            ray_layout(&a, sc);
            sepax_ray_hit *out = at(&a, apart[k]);
            arena_keep(&a);
            sepax_status st =
                raycast_call(f, sc->s, at(&a, AT_RAYS), at(&a, AT_TARGETS), N, NULL, out);
            cr_expect(st == SEPAX_OK, "%s [%s], out at %+ld: %s", raycast_name[f], backend_now,
                      apart[k], sepax_status_str(st));
            cr_expect(memcmp(out, want, outb) == 0,
                      "%s [%s], out at %+ld: not the bits of separate buffers", raycast_name[f],
                      backend_now, apart[k]);
            cr_expect(arena_same_outside(&a, out, outb), "%s [%s], out at %+ld: wrote past it",
                      raycast_name[f], backend_now, apart[k]);
        }
    }
    /* raycast_range: its one ray inside out, at its start, in an entry, over out's last float,
     * with its last float over out's first; then touching out on either side */
    const size_t rb = SHAPES * sizeof(sepax_ray_hit);
    sepax_ray_hit want_range[SHAPES];
    cr_assert_eq(sepax_raycast_range(sc->s, &laser, 0, SHAPES, want_range), SEPAX_OK);
    const long ray_over[4] = {0, 10 * (long)sizeof(sepax_ray_hit) + 4, (long)rb - 4,
                              4 - (long)sizeof(sepax_ray)};
    const long ray_apart[2] = {(long)rb, -(long)sizeof(sepax_ray)};
    for (int f = 0; f < RANGES; f++) {
        for (int k = 0; k < 4; k++) {
            char what[160];
            snprintf(what, sizeof what, "%s, the ray at %+ld bytes from out", range_name[f],
                     ray_over[k]);
            arena_fill(&a);
            sepax_ray *ray = at(&a, ray_over[k]);
            memcpy(ray, &laser, sizeof laser);
            REFUSED(SEPAX_ERR_ALIASED, &a, sc->s, what,
                    range_call(f, sc->s, ray, 0, SHAPES, at(&a, 0)));
        }
        for (int k = 0; k < 2; k++) {
            arena_fill(&a);
            sepax_ray *ray = at(&a, ray_apart[k]);
            memcpy(ray, &laser, sizeof laser);
            sepax_ray_hit *out = at(&a, 0);
            arena_keep(&a);
            sepax_status st = range_call(f, sc->s, ray, 0, SHAPES, out);
            cr_expect(st == SEPAX_OK, "%s [%s], the ray at %+ld: %s", range_name[f], backend_now,
                      ray_apart[k], sepax_status_str(st));
            cr_expect(memcmp(out, want_range, rb) == 0,
                      "%s [%s], the ray at %+ld: not the bits of separate buffers", range_name[f],
                      backend_now, ray_apart[k]);
            cr_expect(arena_same_outside(&a, out, rb), "%s [%s]: wrote past out", range_name[f],
                      backend_now);
        }
    }
    arena_free(&a);
}

Test(aliased, raycasts_refuse_an_output_over_rays_or_shapes) {
    scene sc = scene_new(19);
    on_every_backend(raycasts_refuse, &sc);
    sepax_shapes_destroy(sc.s);
}

/* Raycasts: after COUNT, before the scratch's BAD_OPTION, the ids and the rays' checks.
 * raycast_range: after the ray's checks, the range's BAD_ID and out's MISALIGNED, before
 * STALE_WORLD. */
Test(aliased, raycasts_check_in_the_documented_order) {
    scene sc = scene_new(23);
    arena a = arena_new();
    char what[160];
    unsigned char *scr = aligned_alloc(SEPAX_SCRATCH_ALIGN, 192 * 1024);
    cr_assert(scr);
    for (int f = 0; f < RAYCASTS; f++) {
        const char *name = raycast_name[f];
        sepax_ray *rays = at(&a, AT_RAYS);
        uint32_t *targets = at(&a, AT_TARGETS);
        sepax_ray_hit *over_rays = at(&a, AT_RAYS + 20), *apart = at(&a, 8 * KIB);
        for (int fault = 0; fault < 4; fault++) {
            static const char *const fault_name[4] = {"a bad id", "a stale id", "a NaN ray",
                                                      "a negative max fraction"};
            static const sepax_status fault_st[4] = {SEPAX_ERR_BAD_ID, SEPAX_ERR_STALE_ID,
                                                     SEPAX_ERR_NONFINITE, SEPAX_ERR_RANGE};
            ray_layout(&a, &sc);
            switch (fault) {
            case 0: targets[N - 1] = SHAPES + 3; break;
            case 1: targets[2] = STALE_2; break;
            case 2: rays[4].direction.x = NAN; break;
            default: rays[N - 2].max_fraction = -1.0f; break;
            }
            snprintf(what, sizeof what, "%s: %s, out apart", name, fault_name[fault]);
            REFUSED(fault_st[fault], &a, sc.s, what,
                    raycast_call(f, sc.s, rays, targets, N, NULL, apart));
            snprintf(what, sizeof what, "%s: %s, out over the rays", name, fault_name[fault]);
            REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                    raycast_call(f, sc.s, rays, targets, N, NULL, over_rays));
            snprintf(what, sizeof what, "%s: %s, out over the shapes", name, fault_name[fault]);
            REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                    raycast_call(f, sc.s, rays, targets, N, NULL, at(&a, AT_TARGETS + 8)));
        }
        ray_layout(&a, &sc);
        snprintf(what, sizeof what, "%s: COUNT and out over the rays", name);
        REFUSED(SEPAX_ERR_COUNT, &a, sc.s, what,
                raycast_call(f, sc.s, rays, targets, SIZE_MAX / 16, NULL, over_rays));
        snprintf(what, sizeof what, "%s: misaligned out over the rays", name);
        REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                raycast_call(f, sc.s, rays, targets, N, NULL, at(&a, AT_RAYS + 2)));
        snprintf(what, sizeof what, "%s: misaligned shapes under out", name);
        REFUSED(
            SEPAX_ERR_MISALIGNED, &a, sc.s, what,
            raycast_call(f, sc.s, rays, at(&a, AT_TARGETS + 1), N, NULL, at(&a, AT_TARGETS + 8)));
        snprintf(what, sizeof what, "%s: n == 0, out on the rays", name);
        REFUSED(SEPAX_OK, &a, sc.s, what, raycast_call(f, sc.s, rays, targets, 0, NULL, at(&a, 0)));
        if (f == RAYCAST_OPT) {
            sepax_query_options o = {0.5f, NULL, 0};
            snprintf(what, sizeof what, "%s: margin 0.5 and out over the rays", name);
            REFUSED(SEPAX_ERR_BAD_OPTION, &a, sc.s, what,
                    raycast_call(f, sc.s, rays, targets, N, &o, over_rays));
            /* the scratch over the rays: BAD_OPTION, after the aliasing; only the rays and
             * output are compared, a scratch's bytes after a call meaning nothing */
            o = (sepax_query_options){0.0f, scr, SEPAX_SCRATCH_BYTES};
            sepax_ray *in_scr = (sepax_ray *)(void *)(scr + 4096);
            unsigned char *far = scr + 128 * 1024;
            const size_t span = sizeof sc.rays + N * sizeof(sepax_ray_hit);
            unsigned char keep[4096];
            for (int k = 0; k < 2; k++) {
                memcpy(in_scr, sc.rays, sizeof sc.rays);
                memset((unsigned char *)in_scr + sizeof sc.rays, 0x3c, N * sizeof(sepax_ray_hit));
                memset(far, 0x3c, N * sizeof(sepax_ray_hit));
                memcpy(keep, in_scr, span);
                void *out = k ? (void *)(in_scr + 1) : (void *)far;
                sepax_status st = raycast_call(f, sc.s, in_scr, sc.targets, N, &o, out);
                sepax_status want = k ? SEPAX_ERR_ALIASED : SEPAX_ERR_BAD_OPTION;
                cr_expect(st == want, "%s: rays in the scratch, out %s: got %s, want %s", name,
                          k ? "over them" : "apart", sepax_status_str(st), sepax_status_str(want));
                cr_expect(memcmp(keep, in_scr, span) == 0 && far[0] == 0x3c &&
                              memcmp(far, far + 1, N * sizeof(sepax_ray_hit) - 1) == 0,
                          "%s: a refusal wrote", name);
            }
        }
    }
    /* raycast_range: out at 0, SHAPES entries; the ray inside its eleventh entry */
    const long inside = 10 * (long)sizeof(sepax_ray_hit) + 4;
    for (int f = 0; f < RANGES; f++) {
        const char *name = range_name[f];
        sepax_ray *ray = at(&a, inside);
        sepax_ray_hit *out = at(&a, 0);
        for (int fault = 0; fault < 3; fault++) {
            static const char *const fault_name[3] = {"a NaN direction", "an infinite origin",
                                                      "an origin past the limit"};
            static const sepax_status fault_st[3] = {SEPAX_ERR_NONFINITE, SEPAX_ERR_NONFINITE,
                                                     SEPAX_ERR_RANGE};
            arena_fill(&a);
            memcpy(ray, &laser, sizeof laser);
            if (fault == 0) ray->direction.x = NAN;
            if (fault == 1) ray->origin.y = INFINITY;
            if (fault == 2) ray->origin.x = -2e18f;
            snprintf(what, sizeof what, "%s: %s, the ray apart", name, fault_name[fault]);
            REFUSED(fault_st[fault], &a, sc.s, what,
                    range_call(f, sc.s, ray, 0, 16, at(&a, inside + 20)));
            snprintf(what, sizeof what, "%s: %s and the ray inside out", name, fault_name[fault]);
            REFUSED(fault_st[fault], &a, sc.s, what, range_call(f, sc.s, ray, 0, SHAPES, out));
        }
        arena_fill(&a);
        memcpy(ray, &laser, sizeof laser);
        snprintf(what, sizeof what, "%s: a range past the shapes, the ray inside out", name);
        REFUSED(SEPAX_ERR_BAD_ID, &a, sc.s, what, range_call(f, sc.s, ray, SHAPES - 4, 16, out));
        snprintf(what, sizeof what, "%s: count 0, the ray at out", name);
        REFUSED(SEPAX_OK, &a, sc.s, what, range_call(f, sc.s, ray, 0, 0, at(&a, inside)));
        snprintf(what, sizeof what, "%s: misaligned out over the ray", name);
        REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                range_call(f, sc.s, ray, 0, SHAPES, at(&a, 2)));
        snprintf(what, sizeof what, "%s: a NULL ray", name);
        REFUSED(SEPAX_ERR_NULL, &a, sc.s, what, range_call(f, sc.s, NULL, 0, SHAPES, out));
    }
    /* after a lazy frame: ALIASED before STALE_WORLD, for every raycast */
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    make_stale(sc.s, bp);
    for (int f = 0; f < RAYCASTS; f++) {
        ray_layout(&a, &sc);
        snprintf(what, sizeof what, "%s: stale world, out apart", raycast_name[f]);
        REFUSED(
            SEPAX_ERR_STALE_WORLD, &a, sc.s, what,
            raycast_call(f, sc.s, at(&a, AT_RAYS), at(&a, AT_TARGETS), N, NULL, at(&a, 8 * KIB)));
        snprintf(what, sizeof what, "%s: stale world, out over the shapes", raycast_name[f]);
        REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                raycast_call(f, sc.s, at(&a, AT_RAYS), at(&a, AT_TARGETS), N, NULL,
                             at(&a, AT_TARGETS - 4)));
    }
    for (int f = 0; f < RANGES; f++) {
        arena_fill(&a);
        sepax_ray *ray = at(&a, inside);
        memcpy(ray, &laser, sizeof laser);
        snprintf(what, sizeof what, "%s: stale world, the ray apart", range_name[f]);
        REFUSED(SEPAX_ERR_STALE_WORLD, &a, sc.s, what,
                range_call(f, sc.s, ray, 0, SHAPES, at(&a, 4 * KIB)));
        snprintf(what, sizeof what, "%s: stale world, the ray inside out", range_name[f]);
        REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what, range_call(f, sc.s, ray, 0, SHAPES, at(&a, 0)));
    }
    sepax_broadphase_destroy(bp);
    free(scr);
    arena_free(&a);
    sepax_shapes_destroy(sc.s);
}

/* ---- rot_many ------------------------------------------------------------------------------ */

/* out over its angles is refused, in place too: rotations are twice the size of angles, so
 * an in-place batch would overwrite angles not yet read. */
Test(aliased, rot_many_refuses_out_over_its_angles) {
    enum { NA = 37 }; /* odd: a partial SIMD block at the end */
    arena a = arena_new();
    float angles[NA];
    for (int i = 0; i < NA; i++) angles[i] = -3.0f + 0.17f * (float)i;
    sepax_rotation want[NA];
    cr_assert_eq(sepax_rot_many(angles, NA, want), SEPAX_OK);
    const size_t in = sizeof angles, outb = sizeof want;
    long off[OVER_WAYS];
    over_offsets(in, outb, 4, off);
    char what[160];
    for (int k = 0; k < OVER_WAYS; k++) {
        arena_fill(&a);
        float *ang = at(&a, 0);
        memcpy(ang, angles, in);
        snprintf(what, sizeof what, "rot_many, out at %+ld bytes from the angles", off[k]);
        REFUSED(SEPAX_ERR_ALIASED, &a, NULL, what, sepax_rot_many(ang, NA, at(&a, off[k])));
    }
    const long apart[2] = {(long)in, -(long)outb};
    for (int k = 0; k < 2; k++) {
        arena_fill(&a);
        float *ang = at(&a, 0);
        memcpy(ang, angles, in);
        sepax_rotation *out = at(&a, apart[k]);
        arena_keep(&a);
        sepax_status st = sepax_rot_many(ang, NA, out);
        cr_expect(st == SEPAX_OK, "rot_many, out at %+ld: %s", apart[k], sepax_status_str(st));
        cr_expect(memcmp(out, want, outb) == 0, "rot_many, out at %+ld: not the bits of apart",
                  apart[k]);
        cr_expect(arena_same_outside(&a, out, outb), "rot_many, out at %+ld: wrote past it",
                  apart[k]);
    }
    /* COUNT and MISALIGNED before; n == 0 spans nothing */
    arena_fill(&a);
    float *ang = at(&a, 0);
    memcpy(ang, angles, in);
    REFUSED(SEPAX_ERR_COUNT, &a, NULL, "rot_many: COUNT, out on the angles",
            sepax_rot_many(ang, SIZE_MAX / 4, (sepax_rotation *)(void *)ang));
    REFUSED(SEPAX_ERR_MISALIGNED, &a, NULL, "rot_many: misaligned out over the angles",
            sepax_rot_many(ang, NA, at(&a, 2)));
    REFUSED(SEPAX_OK, &a, NULL, "rot_many: n == 0, out on the angles",
            sepax_rot_many(ang, 0, (sepax_rotation *)(void *)ang));
    REFUSED(SEPAX_ERR_NULL, &a, NULL, "rot_many: NULL angles", sepax_rot_many(NULL, NA, at(&a, 0)));
    arena_free(&a);
}

/* ---- remove_many --------------------------------------------------------------------------- */

#define R 40

/* R shapes after one removal, so that a stale id exists. Built alike twice: one store refuses
 * calls, its twin never sees them, and both must then answer alike. */
static sepax_shapes *removal_store(void) {
    sepax_shapes *s = sepax_shapes_create(R + 1);
    cr_assert(s);
    wl_config cfg = wl_default();
    cfg.shapes = R + 1;
    cfg.kinds = WL_MIXED;
    cfg.seed = 31;
    cr_assert_eq(wl_fill_store(s, &cfg), SEPAX_OK);
    cr_assert_eq(wl_pose_randomly(s, 32), SEPAX_OK);
    cr_assert_eq(sepax_shapes_remove(s, 7, NULL), SEPAX_OK); /* id 7 is now stale */
    return s;
}

/* remove_many of list on s, laid out by the caller, and of the same list on the twin with
 * separate buffers: the same status, moves and store. */
static void expect_removal_as_twin(sepax_shapes *s, sepax_shapes *twin, const uint32_t *ids,
                                   uint32_t n, sepax_move *moved, uint32_t *moves,
                                   const char *what) {
    uint32_t list[8], twin_moves = 0xdeadu;
    sepax_move twin_moved[8];
    cr_assert(n <= 8);
    memcpy(list, ids, n * sizeof *ids);
    sepax_status st = sepax_shapes_remove_many(s, ids, n, moved, moves);
    sepax_status tw = sepax_shapes_remove_many(twin, list, n, twin_moved, &twin_moves);
    cr_expect(st == SEPAX_OK && tw == SEPAX_OK, "%s: %s, twin %s", what, sepax_status_str(st),
              sepax_status_str(tw));
    cr_expect_eq(*moves, twin_moves, "%s: %u moves, twin %u", what, *moves, twin_moves);
    cr_expect(memcmp(moved, twin_moved, twin_moves * sizeof *moved) == 0, "%s: other moves", what);
    expect_twins(s, twin, what);
}

Test(aliased, remove_many_refuses_moves_over_the_ids) {
    sepax_shapes *s = removal_store(), *twin = removal_store();
    arena a = arena_new();
    char what[160];
    uint32_t list[4] = {sepax_shapes_id(s, 3), sepax_shapes_id(s, 17), sepax_shapes_id(s, 30),
                        sepax_shapes_id(s, 8)};
    /* where moved and *moves go, with the ids at 0; moved NULL where its offset is 1 */
    static const struct {
        long moved, moves;
        const char *name;
    } over[] = {
        {0, 2 * KIB, "moved on the ids"},
        {8, 2 * KIB, "moved starting inside the ids"},
        {4 - 4 * 8, 2 * KIB, "moved's last float over the first id"},
        {12, 2 * KIB, "moved's first float over the last id"},
        {1 * KIB, 1 * KIB + 12, "*moves inside moved"},
        {1 * KIB, 1 * KIB + 4 * 8 - 4, "*moves on moved's last float"},
        {1, 4, "*moves inside the ids, moved NULL"},
        {1 * KIB, 12, "*moves on the last id"},
    };
    for (size_t k = 0; k < sizeof over / sizeof over[0]; k++) {
        arena_fill(&a);
        uint32_t *ids = at(&a, 0);
        memcpy(ids, list, sizeof list);
        sepax_move *moved = over[k].moved == 1 ? NULL : at(&a, over[k].moved);
        snprintf(what, sizeof what, "remove_many: %s", over[k].name);
        REFUSED(SEPAX_ERR_ALIASED, &a, s, what,
                sepax_shapes_remove_many(s, ids, 4, moved, at(&a, over[k].moves)));
    }
    /* moved holds n entries whatever moves: removing the last two shapes moves nothing, yet
     * moved over the ids is refused */
    arena_fill(&a);
    uint32_t *ids = at(&a, 0);
    ids[0] = sepax_shapes_id(s, R - 1);
    ids[1] = sepax_shapes_id(s, R - 2);
    REFUSED(SEPAX_ERR_ALIASED, &a, s, "remove_many: moved over the ids, nothing to move",
            sepax_shapes_remove_many(s, ids, 2, at(&a, 4), at(&a, 2 * KIB)));
    /* nothing removed and no mark left: the same list goes now, as on the twin */
    arena_fill(&a);
    memcpy(ids, list, sizeof list);
    expect_removal_as_twin(s, twin, ids, 4, at(&a, 1 * KIB), at(&a, 2 * KIB),
                           "remove_many after the refusals");
    /* touching is not sharing: moved right after the ids, *moves right after moved */
    uint32_t next[3] = {sepax_shapes_id(s, 0), sepax_shapes_id(s, 20), sepax_shapes_id(s, 11)};
    arena_fill(&a);
    memcpy(ids, next, sizeof next);
    arena_keep(&a);
    sepax_move *moved = at(&a, (long)sizeof next);
    uint32_t *moves = at(&a, (long)sizeof next + 3 * (long)sizeof(sepax_move));
    expect_removal_as_twin(s, twin, ids, 3, moved, moves, "remove_many, buffers touching");
    cr_expect(arena_same_outside(&a, moved, 3 * sizeof(sepax_move) + sizeof *moves),
              "remove_many, buffers touching: wrote past them");
    cr_expect(memcmp(ids, next, sizeof next) == 0, "remove_many wrote its ids");
    arena_free(&a);
    sepax_shapes_destroy(s);
    sepax_shapes_destroy(twin);
}

/* After MISALIGNED and the n == 0 return, before the ids' BAD_ID, STALE_ID and DUPLICATE. */
Test(aliased, remove_many_checks_in_the_documented_order) {
    sepax_shapes *s = removal_store(), *twin = removal_store();
    arena a = arena_new();
    char what[160];
    uint32_t *ids = at(&a, 0);
    sepax_move *over = at(&a, 8), *apart = at(&a, 1 * KIB);
    uint32_t *moves = at(&a, 2 * KIB);
    const uint32_t good[4] = {sepax_shapes_id(s, 2), sepax_shapes_id(s, 9), sepax_shapes_id(s, 33),
                              sepax_shapes_id(s, 21)};
    static const char *const fault_name[3] = {"a bad id", "a stale id", "an id twice"};
    static const sepax_status fault_st[3] = {SEPAX_ERR_BAD_ID, SEPAX_ERR_STALE_ID,
                                             SEPAX_ERR_DUPLICATE};
    for (int fault = 0; fault < 3; fault++) {
        arena_fill(&a);
        memcpy(ids, good, sizeof good);
        ids[fault == 2 ? 3 : 2] = fault == 0 ? 500u : fault == 1 ? 7u : good[1];
        snprintf(what, sizeof what, "remove_many: %s, moved apart", fault_name[fault]);
        REFUSED(fault_st[fault], &a, s, what, sepax_shapes_remove_many(s, ids, 4, apart, moves));
        snprintf(what, sizeof what, "remove_many: %s, moved over the ids", fault_name[fault]);
        REFUSED(SEPAX_ERR_ALIASED, &a, s, what, sepax_shapes_remove_many(s, ids, 4, over, moves));
        snprintf(what, sizeof what, "remove_many: %s, *moves on an id", fault_name[fault]);
        REFUSED(SEPAX_ERR_ALIASED, &a, s, what, sepax_shapes_remove_many(s, ids, 4, NULL, ids + 1));
    }
    arena_fill(&a);
    memcpy(ids, good, sizeof good);
    REFUSED(SEPAX_ERR_MISALIGNED, &a, s, "remove_many: misaligned moved over the ids",
            sepax_shapes_remove_many(s, ids, 4, at(&a, 2), moves));
    REFUSED(SEPAX_ERR_MISALIGNED, &a, s, "remove_many: misaligned *moves inside moved",
            sepax_shapes_remove_many(s, ids, 4, apart, at(&a, 1 * KIB + 6)));
    REFUSED(SEPAX_ERR_NULL, &a, s, "remove_many: NULL ids, moved where they would be",
            sepax_shapes_remove_many(s, NULL, 4, at(&a, 0), moves));
    /* n == 0: no id spans a byte, so *moves on the ids is written 0, and nothing else */
    arena_keep(&a);
    cr_expect_eq(sepax_shapes_remove_many(s, ids, 0, over, ids), SEPAX_OK);
    cr_expect_eq(ids[0], 0u, "n == 0 writes *moves = 0");
    ids[0] = good[0];
    cr_expect(arena_same(&a), "n == 0 wrote more than *moves");
    /* and the good list still goes, as on the twin: no refusal left a mark */
    expect_removal_as_twin(s, twin, ids, 4, apart, moves, "remove_many after the refusals");
    arena_free(&a);
    sepax_shapes_destroy(s);
    sepax_shapes_destroy(twin);
}

/* ---- get_user ------------------------------------------------------------------------------ */

Test(aliased, get_user_refuses_out_over_the_ids) {
    sepax_shapes *s = scene_store(37);
    arena a = arena_new();
    char what[160];
    uint32_t list[SHAPES];
    for (uint32_t i = 0; i < SHAPES; i++) list[i] = sepax_shapes_id(s, i);
    uint64_t want[SHAPES];
    cr_assert_eq(sepax_shapes_get_user(s, list, SHAPES, want), SEPAX_OK);
    const size_t in = sizeof list, outb = sizeof want;
    long off[OVER_WAYS];
    over_offsets(in, outb, 8, off); /* out is 8-aligned: it shares two ids at least */
    uint32_t *ids = at(&a, 0);
    for (int k = 0; k < OVER_WAYS; k++) {
        arena_fill(&a);
        memcpy(ids, list, in);
        snprintf(what, sizeof what, "get_user, out at %+ld bytes from the ids", off[k]);
        REFUSED(SEPAX_ERR_ALIASED, &a, s, what,
                sepax_shapes_get_user(s, ids, SHAPES, at(&a, off[k])));
    }
    const long apart[2] = {(long)in, -(long)outb};
    for (int k = 0; k < 2; k++) {
        arena_fill(&a);
        memcpy(ids, list, in);
        uint64_t *out = at(&a, apart[k]);
        arena_keep(&a);
        sepax_status st = sepax_shapes_get_user(s, ids, SHAPES, out);
        cr_expect(st == SEPAX_OK, "get_user, out at %+ld: %s", apart[k], sepax_status_str(st));
        cr_expect(memcmp(out, want, outb) == 0, "get_user, out at %+ld: other data", apart[k]);
        cr_expect(arena_same_outside(&a, out, outb), "get_user, out at %+ld: wrote past it",
                  apart[k]);
    }
    /* after COUNT (and MISALIGNED), before the ids */
    arena_fill(&a);
    memcpy(ids, list, in);
    REFUSED(SEPAX_ERR_COUNT, &a, s, "get_user: COUNT, out on the ids",
            sepax_shapes_get_user(s, ids, SIZE_MAX / 4, (uint64_t *)(void *)ids));
    REFUSED(SEPAX_ERR_MISALIGNED, &a, s, "get_user: misaligned out over the ids",
            sepax_shapes_get_user(s, ids, SHAPES, at(&a, 4)));
    REFUSED(SEPAX_OK, &a, s, "get_user: n == 0, out on the ids",
            sepax_shapes_get_user(s, ids, 0, (uint64_t *)(void *)ids));
    REFUSED(SEPAX_ERR_NULL, &a, s, "get_user: NULL ids",
            sepax_shapes_get_user(s, NULL, SHAPES, at(&a, 0)));
    const uint32_t bad[2] = {SHAPES + 9, STALE_2};
    const sepax_status bad_st[2] = {SEPAX_ERR_BAD_ID, SEPAX_ERR_STALE_ID};
    for (int b = 0; b < 2; b++) {
        arena_fill(&a);
        memcpy(ids, list, in);
        ids[SHAPES - 3] = bad[b];
        snprintf(what, sizeof what, "get_user: %s, out apart", sepax_status_str(bad_st[b]));
        REFUSED(bad_st[b], &a, s, what, sepax_shapes_get_user(s, ids, SHAPES, at(&a, 4 * KIB)));
        snprintf(what, sizeof what, "get_user: %s, out over the ids", sepax_status_str(bad_st[b]));
        REFUSED(SEPAX_ERR_ALIASED, &a, s, what, sepax_shapes_get_user(s, ids, SHAPES, at(&a, 16)));
    }
    arena_free(&a);
    sepax_shapes_destroy(s);
}

/* ---- hull ---------------------------------------------------------------------------------- */

/* count points: inside a random convex polygon of 3..8 vertices (its vertices among them, so
 * the hull is that polygon), or (disc) anywhere in a disc, whose hull soon needs more than
 * SEPAX_MAX_VERTS vertices: TOO_MANY_VERTS, which in place must leave the points as they are. */
static void hull_points(wl_rng *r, sepax_vec2 *pts, int count, int disc) {
    int nv = disc ? 0 : wl_range(r, 3, count < 8 ? count : 8);
    for (int k = 0; k < nv; k++) {
        sepax_rotation t =
            sepax_rot(6.2831853f * ((float)k + 0.2f + 0.6f * wl_unit(r)) / (float)nv);
        pts[k] = (sepax_vec2){10 * t.c, 10 * t.s};
    }
    for (int i = nv; i < count; i++) {
        if (disc) {
            sepax_rotation t = sepax_rot(6.2831853f * wl_unit(r));
            float d = 10 * wl_unit(r);
            pts[i] = (sepax_vec2){d * t.c, d * t.s};
            continue;
        }
        int p = wl_range(r, 0, nv - 1), q = wl_range(r, 0, nv - 1), w = wl_range(r, 0, nv - 1);
        float u = wl_unit(r), v = wl_unit(r) * (1 - u);
        pts[i] = (sepax_vec2){u * pts[p].x + v * pts[q].x + (1 - u - v) * pts[w].x,
                              u * pts[p].y + v * pts[q].y + (1 - u - v) * pts[w].y};
    }
    for (int i = count - 1; i > 0; i--) { /* the polygon's vertices anywhere in the list */
        int j = wl_range(r, 0, i);
        sepax_vec2 t = pts[i];
        pts[i] = pts[j];
        pts[j] = t;
    }
}

/* points may share memory with out: the hull reads them all before it writes. */
Test(aliased, hull_in_place_gives_the_hull_of_separate_buffers) {
    static const int counts[] = {3, 4, 5, 7, 8, 9, 16, 50, 100, 255, 256, 300, 511, 512};
    arena a = arena_new();
    wl_rng r = {0x4a11};
    sepax_vec2 pts[SEPAX_HULL_MAX_POINTS];
    int ok = 0, refused = 0;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (int trial = 0; trial < 6; trial++) {
            int count = counts[c], disc = trial >= 4;
            hull_points(&r, pts, count, disc);
            sepax_vec2 sep[SEPAX_MAX_VERTS];
            int sep_n = -7;
            sepax_status want = sepax_hull(pts, count, sep, &sep_n);
            if (want == SEPAX_OK)
                ok++;
            else
                refused++;
            /* out on the points, starting inside them, and over their last 8 */
            const int shift[3] = {0, 3, count >= SEPAX_MAX_VERTS ? count - SEPAX_MAX_VERTS : 1};
            for (int k = 0; k < 3; k++) {
                arena_fill(&a);
                sepax_vec2 *in = at(&a, 0), *out = in + shift[k];
                memcpy(in, pts, (size_t)count * sizeof *pts);
                int n = -7;
                arena_keep(&a);
                sepax_status st = sepax_hull(in, count, out, &n);
                cr_expect(st == want, "hull of %d points, out at point %d: %s, apart %s", count,
                          shift[k], sepax_status_str(st), sepax_status_str(want));
                if (st != SEPAX_OK || want != SEPAX_OK) {
                    cr_expect(arena_same(&a) && n == -7,
                              "hull of %d points, out at point %d: refused, yet wrote", count,
                              shift[k]);
                    continue;
                }
                cr_expect(n == sep_n, "hull of %d points, out at point %d: %d vertices, apart %d",
                          count, shift[k], n, sep_n);
                cr_expect(memcmp(out, sep, (size_t)sep_n * sizeof *sep) == 0,
                          "hull of %d points, out at point %d: another hull", count, shift[k]);
                cr_expect(arena_same_outside(&a, out, sizeof sep),
                          "hull of %d points, out at point %d: wrote outside out", count, shift[k]);
            }
        }
    /* both outcomes met, or the comparison says little */
    cr_expect(ok > 40 && refused > 5, "%d hulls, %d refused", ok, refused);
    arena_free(&a);
}

/* *out_count inside out is refused (two outputs), after MISALIGNED and before COUNT and the
 * points' checks. */
Test(aliased, hull_refuses_its_count_inside_out) {
    static const sepax_vec2 pts[6] = {{0, 0}, {4, 0}, {4, 3}, {1, 1}, {0, 3}, {2, 4}};
    sepax_vec2 sep[SEPAX_MAX_VERTS];
    int sep_n = 0;
    cr_assert_eq(sepax_hull(pts, 6, sep, &sep_n), SEPAX_OK);
    arena a = arena_new();
    char what[160];
    sepax_vec2 *out = at(&a, 0);
    const long obytes = sizeof sep;
    /* on out's first float, in its second vertex, on its last float */
    const long over[3] = {0, 12, obytes - 4};
    for (int k = 0; k < 3; k++) {
        arena_fill(&a);
        snprintf(what, sizeof what, "hull, *out_count at %+ld bytes from out", over[k]);
        REFUSED(SEPAX_ERR_ALIASED, &a, NULL, what, sepax_hull(pts, 6, out, at(&a, over[k])));
    }
    /* in place with the count inside out too */
    arena_fill(&a);
    memcpy(out, pts, sizeof pts);
    REFUSED(SEPAX_ERR_ALIASED, &a, NULL, "hull in place, *out_count inside out",
            sepax_hull(out, 6, out, at(&a, 12)));
    /* touching out, either side: the hull of separate buffers */
    const long apart[2] = {obytes, -4};
    for (int k = 0; k < 2; k++) {
        arena_fill(&a);
        int *n = at(&a, apart[k]);
        sepax_status st = sepax_hull(pts, 6, out, n);
        cr_expect(st == SEPAX_OK && *n == sep_n &&
                      memcmp(out, sep, (size_t)sep_n * sizeof *sep) == 0,
                  "hull, *out_count at %+ld: %s, %d vertices, want %d", apart[k],
                  sepax_status_str(st), *n, sep_n);
    }
    /* the order: each fault alone (count apart), then with the count inside out */
    sepax_vec2 bad_pts[6];
    memcpy(bad_pts, pts, sizeof pts);
    bad_pts[4].y = NAN;
    static const struct {
        int count, nan;
        sepax_status alone;
        const char *name;
    } fault[] = {
        {SEPAX_HULL_MAX_POINTS + 1, 0, SEPAX_ERR_COUNT, "513 points"},
        {-1, 0, SEPAX_ERR_COUNT, "a negative count"},
        {2, 0, SEPAX_ERR_TOO_FEW_POINTS, "2 points"},
        {6, 1, SEPAX_ERR_NONFINITE, "a NaN point"},
    };
    for (size_t f = 0; f < sizeof fault / sizeof fault[0]; f++) {
        const sepax_vec2 *p = fault[f].nan ? bad_pts : pts;
        arena_fill(&a);
        snprintf(what, sizeof what, "hull: %s, *out_count apart", fault[f].name);
        REFUSED(fault[f].alone, &a, NULL, what, sepax_hull(p, fault[f].count, out, at(&a, obytes)));
        snprintf(what, sizeof what, "hull: %s, *out_count inside out", fault[f].name);
        REFUSED(SEPAX_ERR_ALIASED, &a, NULL, what, sepax_hull(p, fault[f].count, out, at(&a, 12)));
    }
    arena_fill(&a);
    REFUSED(SEPAX_ERR_MISALIGNED, &a, NULL, "hull: misaligned *out_count inside out",
            sepax_hull(pts, 6, out, at(&a, 13)));
    REFUSED(SEPAX_ERR_MISALIGNED, &a, NULL, "hull: misaligned out over *out_count",
            sepax_hull(pts, 6, at(&a, 2), at(&a, 12)));
    REFUSED(SEPAX_ERR_NULL, &a, NULL, "hull: NULL points", sepax_hull(NULL, 6, out, at(&a, 12)));
    arena_free(&a);
}

/* ---- the broadphase's queries -------------------------------------------------------------- */

enum { Q_AABB, Q_AABB_FILTERED, Q_SHAPE, Q_RAY, Q_RAY_FILTERED, GRID_QUERIES };
static const char *const grid_query_name[GRID_QUERIES] = {
    "query_aabb", "query_aabb_filtered", "query_shape", "query_ray", "query_ray_filtered"};

static int has_hits(int q) { return q == Q_RAY || q == Q_RAY_FILTERED; }
static int has_filter(int q) { return q == Q_AABB_FILTERED || q == Q_RAY_FILTERED; }

/* What a grid query asks, each call taking its part. */
typedef struct grid_ask {
    sepax_aabb box;
    uint32_t probe;
    float margin;
    const sepax_ray *ray;
    const sepax_filter *filter;
} grid_ask;

static sepax_status grid_query(int q, const sepax_broadphase *bp, const sepax_shapes *s,
                               const grid_ask *g, uint32_t *ids, sepax_ray_hit *hits, size_t cap,
                               size_t *count) {
    switch (q) {
    case Q_AABB: return sepax_broadphase_query_aabb(bp, s, g->box, ids, cap, count);
    case Q_AABB_FILTERED:
        return sepax_broadphase_query_aabb_filtered(bp, s, g->box, g->filter, ids, cap, count);
    case Q_SHAPE: return sepax_broadphase_query_shape(bp, s, g->probe, g->margin, ids, cap, count);
    case Q_RAY: return sepax_broadphase_query_ray(bp, s, g->ray, ids, hits, cap, count);
    default:
        return sepax_broadphase_query_ray_filtered(bp, s, g->ray, g->filter, ids, hits, cap, count);
    }
}

/* Category 1 meets every shape of the scene; the probe is an inner shape with neighbours. */
static const sepax_filter meets_all = {1u, 0xffffffffu};

static grid_ask default_ask(const sepax_shapes *s) {
    grid_ask g = {{{3.0f, 3.0f}, {11.0f, 9.0f}}, sepax_shapes_id(s, 27), 0.25f, &laser, &meets_all};
    return g;
}

typedef struct grid_answer {
    sepax_status st;
    size_t count;
    uint32_t ids[SHAPES];
    sepax_ray_hit hits[SHAPES];
} grid_answer;

/* The answer with separate buffers of room cap (at most SHAPES) and the default ask. */
static grid_answer grid_apart(int q, const sepax_broadphase *bp, const sepax_shapes *s,
                              size_t cap) {
    grid_answer r;
    memset(&r, 0, sizeof r);
    grid_ask g = default_ask(s);
    r.st = grid_query(q, bp, s, &g, r.ids, r.hits, cap, &r.count);
    return r;
}

/* A query's buffers, as offsets into the arena. */
typedef struct grid_layout {
    long ids, hits, count, ray, filter;
} grid_layout;

static const grid_layout usual = {0, 1 * KIB, 3 * KIB, 3 * KIB + 64, 3 * KIB + 128};

/* Lays the ray and filter out where l says, and points g at them. */
static void grid_lay(arena *a, const grid_layout *l, grid_ask *g) {
    arena_fill(a);
    memcpy(at(a, l->ray), &laser, sizeof laser);
    memcpy(at(a, l->filter), &meets_all, sizeof meets_all);
    g->ray = at(a, l->ray);
    g->filter = at(a, l->filter);
}

static sepax_status grid_at(int q, const sepax_broadphase *bp, const sepax_shapes *s, arena *a,
                            const grid_layout *l, const grid_ask *g, size_t cap) {
    return grid_query(q, bp, s, g, at(a, l->ids), at(a, l->hits), cap, at(a, l->count));
}

Test(aliased, grid_queries_refuse_outputs_over_each_other_or_their_inputs) {
    scene sc = scene_new(41);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    cr_assert_eq(sepax_broadphase_build(bp, sc.s, 0.0f), SEPAX_OK);
    arena a = arena_new();
    char what[200];
    const long idb = SHAPES * 4, hb = SHAPES * (long)sizeof(sepax_ray_hit);
    /* which queries each layout fits: 0 all, 1 filtered ones, 2 ray queries, 3 filtered ray */
    static const struct {
        int fits;
        grid_layout l;
        const char *name;
    } over[] = {
        {0, {0, 1 * KIB, 16, 3 * KIB + 64, 3 * KIB + 128}, "*count inside the ids"},
        {0, {0, 1 * KIB, SHAPES * 4 - 8, 3 * KIB + 64, 3 * KIB + 128}, "*count on the last ids"},
        {0, {4, 1 * KIB, 0, 3 * KIB + 64, 3 * KIB + 128}, "*count's last float on the first id"},
        {1, {0, 1 * KIB, 3 * KIB, 3 * KIB + 64, 32}, "the filter inside the ids"},
        {1, {0, 1 * KIB, 3 * KIB, 3 * KIB + 64, 3 * KIB}, "the filter on *count"},
        {2, {0, 8, 3 * KIB, 3 * KIB + 64, 3 * KIB + 128}, "hits starting inside the ids"},
        {2, {1 * KIB + 100, 1 * KIB, 3 * KIB, 3 * KIB + 64, 3 * KIB + 128}, "ids inside hits"},
        {2,
         {0, 4 - SHAPES * 24, 3 * KIB, 3 * KIB + 64, 3 * KIB + 128},
         "hits' last float on the first id"},
        {2, {0, 1 * KIB, 3 * KIB, 1 * KIB + 76, 3 * KIB + 128}, "the ray inside hits"},
        {2, {0, 1 * KIB, 3 * KIB, 40, 3 * KIB + 128}, "the ray inside the ids"},
        {2, {0, 1 * KIB, 1 * KIB + 48, 3 * KIB + 64, 3 * KIB + 128}, "*count inside hits"},
        {3, {0, 1 * KIB, 3 * KIB, 3 * KIB + 64, 1 * KIB + 200}, "the filter inside hits"},
    };
    for (int q = 0; q < GRID_QUERIES; q++) {
        const char *name = grid_query_name[q];
        grid_answer want = grid_apart(q, bp, sc.s, SHAPES);
        cr_assert_eq(want.st, SEPAX_OK, "%s: %s", name, sepax_status_str(want.st));
        cr_assert(want.count > 0, "%s finds nothing: the comparisons would say little", name);
        for (size_t k = 0; k < sizeof over / sizeof over[0]; k++) {
            int fits = over[k].fits;
            if ((fits & 1 && !has_filter(q)) || (fits & 2 && !has_hits(q))) continue;
            grid_ask g = default_ask(sc.s);
            grid_lay(&a, &over[k].l, &g);
            snprintf(what, sizeof what, "%s: %s", name, over[k].name);
            REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                    grid_at(q, bp, sc.s, &a, &over[k].l, &g, SHAPES));
        }
        /* the grid answers as before */
        grid_answer again = grid_apart(q, bp, sc.s, SHAPES);
        cr_expect(again.st == want.st && again.count == want.count &&
                      memcmp(again.ids, want.ids, sizeof want.ids) == 0 &&
                      memcmp(again.hits, want.hits, sizeof want.hits) == 0,
                  "%s: the refusals changed an answer", name);
        /* touching is not sharing: ids, *count, hits, the ray and the filter one after
         * another, in one allocation */
        const grid_layout row = {0, idb + 8, idb, idb + 8 + hb, idb + 8 + hb + 20};
        grid_ask g = default_ask(sc.s);
        grid_lay(&a, &row, &g);
        arena_keep(&a);
        sepax_status st = grid_at(q, bp, sc.s, &a, &row, &g, SHAPES);
        size_t *count = at(&a, row.count);
        cr_expect(st == SEPAX_OK && *count == want.count, "%s, buffers touching: %s, %zu found",
                  name, sepax_status_str(st), *count);
        cr_expect(memcmp(at(&a, row.ids), want.ids, want.count * 4) == 0,
                  "%s, buffers touching: other ids", name);
        if (has_hits(q))
            cr_expect(memcmp(at(&a, row.hits), want.hits, want.count * sizeof *want.hits) == 0,
                      "%s, buffers touching: other hits", name);
        cr_expect(arena_same_outside(&a, at(&a, 0), (size_t)(idb + 8 + hb)),
                  "%s, buffers touching: wrote outside its outputs", name);
        /* room for none spans no byte: *count on the ids is fine, and says what room to give */
        grid_answer none = grid_apart(q, bp, sc.s, 0);
        const grid_layout on = {0, 0, 0, 3 * KIB + 64, 3 * KIB + 128};
        grid_lay(&a, &on, &g);
        st = grid_at(q, bp, sc.s, &a, &on, &g, 0);
        count = at(&a, 0);
        cr_expect(st == none.st && *count == none.count,
                  "%s, room for none, *count on the ids: %s %zu, apart %s %zu", name,
                  sepax_status_str(st), *count, sepax_status_str(none.st), none.count);
        if (has_filter(q)) { /* ... but *count on the filter, an input, is refused */
            const grid_layout on_filter = {0, 0, 3 * KIB + 128, 3 * KIB + 64, 3 * KIB + 128};
            grid_lay(&a, &on_filter, &g);
            snprintf(what, sizeof what, "%s: room for none, *count on the filter", name);
            REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what, grid_at(q, bp, sc.s, &a, &on_filter, &g, 0));
        }
        /* a capacity past the end of memory spans up to it: the ids then cover anything after
         * them, and hits and ids (two such outputs) always share */
        const grid_layout after = {0, 64 * KIB, 8 * KIB, 8 * KIB + 64, 8 * KIB + 128};
        grid_lay(&a, &after, &g);
        snprintf(what, sizeof what, "%s: capacity SIZE_MAX, *count after the ids", name);
        REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what, grid_at(q, bp, sc.s, &a, &after, &g, SIZE_MAX));
        if (!has_hits(q)) {
            const grid_layout before = {0, 0, -8, -64, -32};
            grid_lay(&a, &before, &g);
            st = grid_at(q, bp, sc.s, &a, &before, &g, SIZE_MAX);
            count = at(&a, before.count);
            cr_expect(st == SEPAX_OK && *count == want.count &&
                          memcmp(at(&a, 0), want.ids, want.count * 4) == 0,
                      "%s, capacity SIZE_MAX, *count and filter before the ids: %s, %zu found",
                      name, sepax_status_str(st), *count);
        } else {
            const grid_layout before = {0, -64 * KIB, -8, -64, -32};
            grid_lay(&a, &before, &g);
            snprintf(what, sizeof what, "%s: capacity SIZE_MAX, hits before the ids", name);
            REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                    grid_at(q, bp, sc.s, &a, &before, &g, SIZE_MAX));
        }
    }
    arena_free(&a);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(sc.s);
}

/* Right after the NULL and MISALIGNED checks: before the box, probe, margin and ray checks,
 * STALE_WORLD and NO_GRID. */
Test(aliased, grid_queries_check_in_the_documented_order) {
    scene sc = scene_new(43);
    sepax_broadphase *bp = sepax_broadphase_create(NULL), *no_grid = sepax_broadphase_create(NULL);
    cr_assert(bp && no_grid);
    cr_assert_eq(sepax_broadphase_build(bp, sc.s, 0.0f), SEPAX_OK);
    arena a = arena_new();
    char what[200];
    /* *count inside the ids, or (ray queries) the ray inside the hits */
    const grid_layout over = {0, 1 * KIB, 16, 3 * KIB + 64, 3 * KIB + 128};
    const grid_layout ray_over = {0, 1 * KIB, 3 * KIB, 1 * KIB + 76, 3 * KIB + 128};
    for (int q = 0; q < GRID_QUERIES; q++) {
        const char *name = grid_query_name[q];
        for (int fault = 0; fault < 5; fault++) {
            static const char *const fault_name[5] = {"a NaN box", "a box past the limit",
                                                      "a bad probe", "a NaN margin", "a NaN ray"};
            static const sepax_status fault_st[5] = {SEPAX_ERR_NONFINITE, SEPAX_ERR_RANGE,
                                                     SEPAX_ERR_BAD_ID, SEPAX_ERR_NONFINITE,
                                                     SEPAX_ERR_NONFINITE};
            int fits = fault < 2 ? q <= Q_AABB_FILTERED : fault < 4 ? q == Q_SHAPE : has_hits(q);
            if (!fits) continue;
            grid_ask g = default_ask(sc.s);
            for (int k = 0; k < 3; k++) {
                const grid_layout *l = k == 0 ? &usual : k == 1 ? &over : &ray_over;
                if (k == 2 && !has_hits(q)) continue;
                grid_lay(&a, l, &g);
                switch (fault) {
                case 0: g.box.lower.x = NAN; break;
                case 1: g.box.upper.y = 3e18f; break;
                case 2: g.probe = SHAPES + 4; break;
                case 3: g.margin = NAN; break;
                default: ((sepax_ray *)at(&a, l->ray))->direction.y = NAN; break;
                }
                snprintf(what, sizeof what, "%s: %s, %s", name, fault_name[fault],
                         k == 0   ? "outputs apart"
                         : k == 1 ? "*count inside the ids"
                                  : "the ray inside hits");
                REFUSED(k ? SEPAX_ERR_ALIASED : fault_st[fault], &a, sc.s, what,
                        grid_at(q, bp, sc.s, &a, l, &g, SHAPES));
            }
        }
        /* no grid: NO_GRID last, so after the aliasing */
        grid_ask g = default_ask(sc.s);
        grid_lay(&a, &usual, &g);
        snprintf(what, sizeof what, "%s: no grid, outputs apart", name);
        REFUSED(SEPAX_ERR_NO_GRID, &a, sc.s, what,
                grid_at(q, no_grid, sc.s, &a, &usual, &g, SHAPES));
        grid_lay(&a, &over, &g);
        snprintf(what, sizeof what, "%s: no grid, *count inside the ids", name);
        REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                grid_at(q, no_grid, sc.s, &a, &over, &g, SHAPES));
        /* MISALIGNED and NULL before */
        const grid_layout skew_count = {0, 1 * KIB, 18, 3 * KIB + 64, 3 * KIB + 128};
        grid_lay(&a, &skew_count, &g);
        snprintf(what, sizeof what, "%s: a misaligned *count inside the ids", name);
        REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                grid_at(q, bp, sc.s, &a, &skew_count, &g, SHAPES));
        const grid_layout skew_ids = {1, 1 * KIB + 1, 16, 3 * KIB + 64, 3 * KIB + 128};
        grid_lay(&a, &skew_ids, &g);
        snprintf(what, sizeof what, "%s: misaligned ids under *count", name);
        REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                grid_at(q, bp, sc.s, &a, &skew_ids, &g, SHAPES));
        if (has_filter(q)) {
            const grid_layout skew_filter = {0, 1 * KIB, 3 * KIB, 3 * KIB + 64, 34};
            grid_lay(&a, &skew_filter, &g);
            snprintf(what, sizeof what, "%s: a misaligned filter inside the ids", name);
            REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                    grid_at(q, bp, sc.s, &a, &skew_filter, &g, SHAPES));
        }
        if (has_hits(q)) {
            const grid_layout skew_ray = {0, 1 * KIB, 3 * KIB, 1 * KIB + 78, 3 * KIB + 128};
            grid_lay(&a, &skew_ray, &g);
            snprintf(what, sizeof what, "%s: a misaligned ray inside hits", name);
            REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, what,
                    grid_at(q, bp, sc.s, &a, &skew_ray, &g, SHAPES));
            grid_lay(&a, &over, &g);
            g.ray = NULL;
            snprintf(what, sizeof what, "%s: a NULL ray, *count inside the ids", name);
            REFUSED(SEPAX_ERR_NULL, &a, sc.s, what, grid_at(q, bp, sc.s, &a, &over, &g, SHAPES));
        }
    }
    /* after a lazy frame, the queries that read records: ALIASED before STALE_WORLD */
    make_stale(sc.s, bp);
    for (int q = Q_SHAPE; q < GRID_QUERIES; q++) {
        grid_ask g = default_ask(sc.s);
        grid_lay(&a, &usual, &g);
        snprintf(what, sizeof what, "%s: stale world, outputs apart", grid_query_name[q]);
        REFUSED(SEPAX_ERR_STALE_WORLD, &a, sc.s, what,
                grid_at(q, bp, sc.s, &a, &usual, &g, SHAPES));
        grid_lay(&a, &over, &g);
        snprintf(what, sizeof what, "%s: stale world, *count inside the ids", grid_query_name[q]);
        REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what, grid_at(q, bp, sc.s, &a, &over, &g, SHAPES));
    }
    arena_free(&a);
    sepax_broadphase_destroy(bp);
    sepax_broadphase_destroy(no_grid);
    sepax_shapes_destroy(sc.s);
}

/* ---- raycast_closest ----------------------------------------------------------------------- */

#define AT_CRAYS 0L
#define AT_CFILTERS (2 * KIB)
#define AT_CIDS (4 * KIB)
#define AT_CHITS (6 * KIB)

/* Filters that meet every shape, none (mask without the scene's category 1), or every shape
 * under another category: the answers depend on them. */
static void closest_filters(sepax_filter f[N]) {
    for (int i = 0; i < N; i++)
        f[i] = i % 3 == 0   ? meets_all
               : i % 3 == 1 ? (sepax_filter){1u, 0xfffffffeu}
                            : (sepax_filter){2u, 0xffffffffu};
}

static void closest_layout(arena *a, const scene *sc, long rays, long filters) {
    sepax_filter f[N];
    closest_filters(f);
    arena_fill(a);
    memcpy(at(a, rays), sc->rays, sizeof sc->rays);
    memcpy(at(a, filters), f, sizeof f);
}

static sepax_status closest_at(const sepax_broadphase *bp, const sepax_shapes *s, arena *a,
                               size_t n, long rays, long filters, long ids, long hits) {
    return sepax_broadphase_raycast_closest(bp, s, at(a, rays), at(a, filters), n, at(a, ids),
                                            at(a, hits));
}

Test(aliased, raycast_closest_refuses_outputs_over_rays_filters_or_each_other) {
    scene sc = scene_new(47);
    sepax_broadphase *bp = sepax_broadphase_create(NULL), *no_grid = sepax_broadphase_create(NULL);
    cr_assert(bp && no_grid);
    cr_assert_eq(sepax_broadphase_build(bp, sc.s, 0.0f), SEPAX_OK);
    arena a = arena_new();
    char what[200];
    sepax_filter f[N];
    closest_filters(f);
    uint32_t want_ids[N];
    sepax_ray_hit want_hits[N];
    cr_assert_eq(sepax_broadphase_raycast_closest(bp, sc.s, sc.rays, f, N, want_ids, want_hits),
                 SEPAX_OK);
    const long rb = sizeof sc.rays, fb = sizeof f, ib = sizeof want_ids, hb = sizeof want_hits;
    /* hits over the rays; ids over the filters; hits over the filters; ids over the rays;
     * ids and hits over each other */
    typedef struct {
        long ids, hits;
        const char *name;
    } place;
    place over[4 * OVER_WAYS + 2];
    int np = 0;
    long off[OVER_WAYS];
    over_offsets((size_t)rb, (size_t)hb, 4, off);
    for (int k = 0; k < OVER_WAYS; k++)
        over[np++] = (place){AT_CIDS, AT_CRAYS + off[k], "hits over the rays"};
    over_offsets((size_t)fb, (size_t)ib, 4, off);
    for (int k = 0; k < OVER_WAYS; k++)
        over[np++] = (place){AT_CFILTERS + off[k], AT_CHITS, "ids over the filters"};
    over_offsets((size_t)fb, (size_t)hb, 4, off);
    for (int k = 0; k < OVER_WAYS; k++)
        over[np++] = (place){AT_CIDS, AT_CFILTERS + off[k], "hits over the filters"};
    over_offsets((size_t)rb, (size_t)ib, 4, off);
    for (int k = 0; k < OVER_WAYS; k++)
        over[np++] = (place){AT_CRAYS + off[k], AT_CHITS, "ids over the rays"};
    over[np++] = (place){AT_CHITS + 48, AT_CHITS, "ids inside hits"};
    over[np++] = (place){AT_CIDS, AT_CIDS + ib - 4, "hits' first float on the last id"};
    for (int k = 0; k < np; k++) {
        closest_layout(&a, &sc, AT_CRAYS, AT_CFILTERS);
        snprintf(what, sizeof what, "raycast_closest: %s (ids at %+ld, hits at %+ld)", over[k].name,
                 over[k].ids, over[k].hits);
        REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, what,
                closest_at(bp, sc.s, &a, N, AT_CRAYS, AT_CFILTERS, over[k].ids, over[k].hits));
    }
    /* touching is not sharing: rays, filters, ids and hits one after another */
    closest_layout(&a, &sc, 0, rb);
    arena_keep(&a);
    sepax_status st = closest_at(bp, sc.s, &a, N, 0, rb, rb + fb, rb + fb + ib);
    cr_expect(st == SEPAX_OK, "raycast_closest, buffers touching: %s", sepax_status_str(st));
    cr_expect(memcmp(at(&a, rb + fb), want_ids, (size_t)ib) == 0 &&
                  memcmp(at(&a, rb + fb + ib), want_hits, (size_t)hb) == 0,
              "raycast_closest, buffers touching: not the answers of separate buffers");
    cr_expect(arena_same_outside(&a, at(&a, rb + fb), (size_t)(ib + hb)),
              "raycast_closest, buffers touching: wrote outside its outputs");
    /* the order: COUNT and MISALIGNED before; the rays, STALE_WORLD and NO_GRID after */
    closest_layout(&a, &sc, AT_CRAYS, AT_CFILTERS);
    REFUSED(SEPAX_ERR_COUNT, &a, sc.s, "raycast_closest: COUNT, hits on the rays",
            closest_at(bp, sc.s, &a, SIZE_MAX / 8, AT_CRAYS, AT_CFILTERS, AT_CIDS, AT_CRAYS));
    REFUSED(SEPAX_ERR_MISALIGNED, &a, sc.s, "raycast_closest: misaligned hits over the rays",
            closest_at(bp, sc.s, &a, N, AT_CRAYS, AT_CFILTERS, AT_CIDS, AT_CRAYS + 2));
    REFUSED(SEPAX_OK, &a, sc.s, "raycast_closest: n == 0, hits on the rays",
            closest_at(bp, sc.s, &a, 0, AT_CRAYS, AT_CFILTERS, AT_CIDS, AT_CRAYS));
    ((sepax_ray *)at(&a, AT_CRAYS))[5].origin.x = NAN;
    REFUSED(SEPAX_ERR_NONFINITE, &a, sc.s, "raycast_closest: a NaN ray, outputs apart",
            closest_at(bp, sc.s, &a, N, AT_CRAYS, AT_CFILTERS, AT_CIDS, AT_CHITS));
    REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, "raycast_closest: a NaN ray, hits over the rays",
            closest_at(bp, sc.s, &a, N, AT_CRAYS, AT_CFILTERS, AT_CIDS, AT_CRAYS + 24));
    closest_layout(&a, &sc, AT_CRAYS, AT_CFILTERS);
    REFUSED(SEPAX_ERR_NO_GRID, &a, sc.s, "raycast_closest: no grid, outputs apart",
            closest_at(no_grid, sc.s, &a, N, AT_CRAYS, AT_CFILTERS, AT_CIDS, AT_CHITS));
    REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, "raycast_closest: no grid, ids over the filters",
            closest_at(no_grid, sc.s, &a, N, AT_CRAYS, AT_CFILTERS, AT_CFILTERS + 8, AT_CHITS));
    make_stale(sc.s, bp);
    REFUSED(SEPAX_ERR_STALE_WORLD, &a, sc.s, "raycast_closest: stale world, outputs apart",
            closest_at(bp, sc.s, &a, N, AT_CRAYS, AT_CFILTERS, AT_CIDS, AT_CHITS));
    REFUSED(SEPAX_ERR_ALIASED, &a, sc.s, "raycast_closest: stale world, ids over the hits",
            closest_at(bp, sc.s, &a, N, AT_CRAYS, AT_CFILTERS, AT_CHITS + 8, AT_CHITS));
    arena_free(&a);
    sepax_broadphase_destroy(bp);
    sepax_broadphase_destroy(no_grid);
    sepax_shapes_destroy(sc.s);
}

/* ---- find_contacts(_posed) ----------------------------------------------------------------- */

/* A frame's buffers, as offsets into the arena. */
typedef struct frame_layout {
    long pairs, hits, mans, options, out, count, poses;
} frame_layout;

static const frame_layout frame_usual = {0,        16 * KIB, 32 * KIB, 56 * KIB,
                                         57 * KIB, 58 * KIB, 60 * KIB};

/* The frame's options and the sepax_contacts struct laid out where l says. */
static void frame_lay(arena *a, const frame_layout *l, sepax_frame_options o, size_t cap) {
    arena_fill(a);
    memcpy(at(a, l->options), &o, sizeof o);
    sepax_contacts c = {at(a, l->pairs), at(a, l->hits), at(a, l->mans), cap};
    memcpy(at(a, l->out), &c, sizeof c);
}

static sepax_status frame_at(sepax_broadphase *bp, sepax_shapes *s, arena *a,
                             const frame_layout *l) {
    return sepax_find_contacts(bp, s, at(a, l->options), at(a, l->out), at(a, l->count));
}

static sepax_status posed_at(sepax_broadphase *bp, sepax_shapes *s, arena *a, const frame_layout *l,
                             uint32_t first, size_t pose_count) {
    return sepax_find_contacts_posed(bp, s, first, pose_count, at(a, l->poses), at(a, l->options),
                                     at(a, l->out), at(a, l->count));
}

typedef struct frame_answer {
    sepax_status st;
    size_t count;
    sepax_pair *pairs;
    sepax_hit *hits;
    sepax_manifold *mans;
} frame_answer;

/* A frame with separate buffers of room cap (NULL poses: find_contacts, else _posed). */
static frame_answer frame_apart(sepax_broadphase *bp, sepax_shapes *s, sepax_frame_options o,
                                size_t cap, const sepax_pose *poses, size_t pose_count) {
    frame_answer r = {SEPAX_OK, 0, calloc(cap + 1, sizeof(sepax_pair)),
                      calloc(cap + 1, sizeof(sepax_hit)), calloc(cap + 1, sizeof(sepax_manifold))};
    cr_assert(r.pairs && r.hits && r.mans);
    sepax_contacts c = {r.pairs, r.hits, r.mans, cap};
    r.st = poses ? sepax_find_contacts_posed(bp, s, 0, pose_count, poses, &o, &c, &r.count)
                 : sepax_find_contacts(bp, s, &o, &c, &r.count);
    return r;
}

static void frame_free(frame_answer *r) {
    free(r->pairs);
    free(r->hits);
    free(r->mans);
}

/* The results in the arena (laid out by l) are those of separate buffers. */
static void expect_frame(const arena *a, const frame_layout *l, sepax_status st, int test,
                         const frame_answer *want, const char *what) {
    const size_t *count = at(a, l->count);
    cr_expect(st == want->st && *count == want->count, "%s: %s, %zu results; apart %s, %zu", what,
              sepax_status_str(st), *count, sepax_status_str(want->st), want->count);
    if (st != SEPAX_OK || *count != want->count) return;
    cr_expect(memcmp(at(a, l->pairs), want->pairs, want->count * sizeof(sepax_pair)) == 0,
              "%s: other pairs", what);
    if (test == SEPAX_TEST_COLLIDE)
        cr_expect(memcmp(at(a, l->hits), want->hits, want->count * sizeof(sepax_hit)) == 0,
                  "%s: other hits", what);
    if (test == SEPAX_TEST_MANIFOLD)
        cr_expect(memcmp(at(a, l->mans), want->mans, want->count * sizeof(sepax_manifold)) == 0,
                  "%s: other manifolds", what);
}

/* What the grid answers: the same after a refused frame, which keeps the grid it had. */
typedef struct grid_print {
    size_t count;
    uint32_t ids[SHAPES];
} grid_print;

static grid_print grid_print_of(const sepax_broadphase *bp, const sepax_shapes *s) {
    grid_print p;
    memset(&p, 0, sizeof p);
    sepax_aabb everywhere = {{-1e6f, -1e6f}, {1e6f, 1e6f}};
    cr_assert_eq(sepax_broadphase_query_aabb(bp, s, everywhere, p.ids, SHAPES, &p.count), SEPAX_OK);
    return p;
}

/* Every shape moved a little: poses the frame would store and update from. */
static void moved_poses(const sepax_shapes *s, sepax_pose *p, float dx) {
    for (uint32_t i = 0; i < SHAPES; i++) {
        cr_assert_eq(sepax_shapes_get_pose(s, sepax_shapes_id(s, i), &p[i]), SEPAX_OK);
        p[i].position.x += dx;
        p[i].position.y -= 0.5f * dx;
    }
}

static const sepax_frame_options frame_of[3] = {
    {SEPAX_TEST_OVERLAP, 0.0f, 0.0f, SEPAX_UPDATE_NONE},
    {SEPAX_TEST_COLLIDE, 0.0f, 0.0f, SEPAX_UPDATE_NONE},
    {SEPAX_TEST_MANIFOLD, 0.05f, 0.0f, SEPAX_UPDATE_NONE},
};
static const char *const test_name[4] = {"AABB", "OVERLAP", "COLLIDE", "MANIFOLD"};

Test(aliased, find_contacts_refuses_outputs_over_each_other_or_their_inputs) {
    sepax_shapes *s = scene_store(53), *twin = scene_store(53);
    sepax_broadphase *bp = sepax_broadphase_create(NULL), *twin_bp = sepax_broadphase_create(NULL);
    cr_assert(bp && twin_bp);
    arena a = arena_new();
    char what[200];
    /* room for every candidate pair of the scene, well inside the arena's 16 KiB per array */
    frame_answer probe = frame_apart(bp, s, (sepax_frame_options){0, 0.05f, 0.0f, 0}, 0, NULL, 0);
    cr_assert_eq(probe.st, SEPAX_ERR_CAPACITY);
    const size_t cap = probe.count + 8;
    frame_free(&probe);
    cr_assert(cap * sizeof(sepax_manifold) <= 16 * KIB && cap > 16, "%zu candidates", cap);
    const long pb = (long)(cap * sizeof(sepax_pair)), hb = (long)(cap * sizeof(sepax_hit)),
               mb = (long)(cap * sizeof(sepax_manifold));
    /* which tests each layout shares under: bit t for test t */
    const struct {
        unsigned tests;
        frame_layout l;
        const char *name;
    } over[] = {
        {1u << 2,
         {0, 8, 32 * KIB, 56 * KIB, 57 * KIB, 58 * KIB, 0},
         "hits starting inside the pairs"},
        {1u << 2,
         {0, 4 - hb, 32 * KIB, 56 * KIB, 57 * KIB, 58 * KIB, 0},
         "hits' last float on the first pair"},
        {1u << 3,
         {0, 16 * KIB, 8 * 5, 56 * KIB, 57 * KIB, 58 * KIB, 0},
         "manifolds starting inside the pairs"},
        {1u << 3,
         {32 * KIB + 48 * 3, 16 * KIB, 32 * KIB, 56 * KIB, 57 * KIB, 58 * KIB, 0},
         "pairs inside the manifolds"},
        {0xe, {0, 16 * KIB, 32 * KIB, 56 * KIB, 57 * KIB, 16, 0}, "*count inside the pairs"},
        {0xe, {0, 16 * KIB, 32 * KIB, 56 * KIB, 57 * KIB, pb - 8, 0}, "*count on the last pair"},
        {1u << 2,
         {0, 16 * KIB, 32 * KIB, 56 * KIB, 57 * KIB, 16 * KIB + 32, 0},
         "*count inside the hits"},
        {1u << 3,
         {0, 16 * KIB, 32 * KIB, 56 * KIB, 57 * KIB, 32 * KIB + mb - 8, 0},
         "*count on the last manifold's end"},
        {0xe,
         {0, 16 * KIB, 32 * KIB, 56 * KIB, 64, 58 * KIB, 0},
         "the contacts struct inside the pairs"},
        {1u << 2,
         {0, 16 * KIB, 32 * KIB, 56 * KIB, 16 * KIB + 16, 58 * KIB, 0},
         "the contacts struct inside the hits"},
        {0xe, {0, 16 * KIB, 32 * KIB, 8, 57 * KIB, 58 * KIB, 0}, "the options inside the pairs"},
        {1u << 3,
         {0, 16 * KIB, 32 * KIB, 32 * KIB + 100, 57 * KIB, 58 * KIB, 0},
         "the options inside the manifolds"},
    };
    for (int t = 0; t < 3; t++) {
        sepax_frame_options o = frame_of[t];
        const char *tn = test_name[o.test];
        frame_answer want = frame_apart(bp, s, o, cap, NULL, 0);
        cr_assert_eq(want.st, SEPAX_OK, "%s: %s", tn, sepax_status_str(want.st));
        cr_assert(want.count > 0, "%s finds nothing: the comparisons would say little", tn);
        for (size_t k = 0; k < sizeof over / sizeof over[0]; k++) {
            if (!(over[k].tests >> o.test & 1)) continue;
            /* poses set but not updated, and a frame asked to update: a refusal must neither
             * store nor update, and must keep the grid of the last frame */
            sepax_pose p[SHAPES];
            moved_poses(s, p, 0.25f);
            cr_assert_eq(sepax_shapes_set_poses(s, 0, SHAPES, p), SEPAX_OK);
            cr_assert_eq(sepax_shapes_set_poses(twin, 0, SHAPES, p), SEPAX_OK);
            grid_print grid = grid_print_of(bp, s);
            sepax_frame_options upd = o;
            upd.update = SEPAX_UPDATE_ALL;
            frame_lay(&a, &over[k].l, upd, cap);
            snprintf(what, sizeof what, "find_contacts %s: %s", tn, over[k].name);
            REFUSED(SEPAX_ERR_ALIASED, &a, s, what, frame_at(bp, s, &a, &over[k].l));
            grid_print now = grid_print_of(bp, s);
            cr_expect(memcmp(&now, &grid, sizeof now) == 0, "%s: the grid changed", what);
            /* and the next frame, updating, is the twin's */
            frame_answer mine = frame_apart(bp, s, upd, cap, NULL, 0),
                         theirs = frame_apart(twin_bp, twin, upd, cap, NULL, 0);
            cr_expect(mine.st == SEPAX_OK && mine.count == theirs.count &&
                          memcmp(mine.pairs, theirs.pairs, mine.count * sizeof(sepax_pair)) == 0,
                      "%s: the next frame is not the twin's", what);
            expect_twins(s, twin, what);
            frame_free(&mine);
            frame_free(&theirs);
        }
        frame_free(&want);
        want = frame_apart(bp, s, o, cap, NULL, 0);
        /* touching is not sharing: pairs, hits, manifolds, options, the struct and *count one
         * after another */
        const long o1 = pb + hb + mb, o2 = o1 + (long)sizeof o,
                   o3 = o2 + (long)sizeof(sepax_contacts);
        const frame_layout row = {0, pb, pb + hb, o1, o2, o3, 60 * KIB};
        frame_lay(&a, &row, o, cap);
        snprintf(what, sizeof what, "find_contacts %s, buffers touching", tn);
        expect_frame(&a, &row, frame_at(bp, s, &a, &row), o.test, &want, what);
        /* the arrays a test does not use are no outputs: hits on the pairs for OVERLAP, the
         * options inside the hits for MANIFOLD */
        if (o.test != SEPAX_TEST_COLLIDE) {
            frame_layout unused = frame_usual;
            if (o.test == SEPAX_TEST_OVERLAP)
                unused.hits = 0;
            else
                unused.options = 16 * KIB + 40;
            frame_lay(&a, &unused, o, cap);
            snprintf(what, sizeof what, "find_contacts %s, over an array it does not use", tn);
            expect_frame(&a, &unused, frame_at(bp, s, &a, &unused), o.test, &want, what);
        }
        /* room for none spans no byte: *count on the pairs says what room to give */
        frame_answer none = frame_apart(bp, s, o, 0, NULL, 0);
        frame_layout on = frame_usual;
        on.count = 0;
        frame_lay(&a, &on, o, 0);
        snprintf(what, sizeof what, "find_contacts %s, room for none, *count on the pairs", tn);
        expect_frame(&a, &on, frame_at(bp, s, &a, &on), o.test, &none, what);
        frame_free(&none);
        /* ... but *count itself is still an output: on the options or on the struct */
        for (int k = 0; k < 2; k++) {
            frame_layout in = frame_usual;
            in.count = k ? in.out + 8 : in.options;
            frame_lay(&a, &in, o, 0);
            snprintf(what, sizeof what, "find_contacts %s, room for none, *count on the %s", tn,
                     k ? "contacts struct" : "options");
            REFUSED(SEPAX_ERR_ALIASED, &a, s, what, frame_at(bp, s, &a, &in));
        }
        frame_free(&want);
    }
    arena_free(&a);
    sepax_broadphase_destroy(bp);
    sepax_broadphase_destroy(twin_bp);
    sepax_shapes_destroy(s);
    sepax_shapes_destroy(twin);
}

/* After the options' checks and the arrays' NULL and MISALIGNED, before STALE_WORLD. */
Test(aliased, find_contacts_checks_in_the_documented_order) {
    sepax_shapes *s = scene_store(59);
    sepax_broadphase *bp = sepax_broadphase_create(NULL);
    cr_assert(bp);
    arena a = arena_new();
    char what[200];
    const size_t cap = 256;
    frame_layout over = frame_usual; /* *count inside the pairs */
    over.count = 24;
    const sepax_frame_options col = {SEPAX_TEST_COLLIDE, 0.0f, 0.0f, SEPAX_UPDATE_NONE};
    static const struct {
        int test, update;
        float margin, cell;
        sepax_status st;
        const char *name;
    } bad[] = {
        {7, SEPAX_UPDATE_NONE, 0.0f, 0.0f, SEPAX_ERR_BAD_OPTION, "an unknown test"},
        {SEPAX_TEST_COLLIDE, 9, 0.0f, 0.0f, SEPAX_ERR_BAD_OPTION, "an unknown update"},
        {SEPAX_TEST_COLLIDE, SEPAX_UPDATE_NONE, NAN, 0.0f, SEPAX_ERR_NONFINITE, "a NaN margin"},
        {SEPAX_TEST_COLLIDE, SEPAX_UPDATE_NONE, 0.0f, -1.0f, SEPAX_ERR_RANGE, "a negative cell"},
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        sepax_frame_options o = {bad[b].test, bad[b].margin, bad[b].cell, bad[b].update};
        frame_lay(&a, &over, o, cap);
        snprintf(what, sizeof what, "find_contacts: %s, *count inside the pairs", bad[b].name);
        REFUSED(bad[b].st, &a, s, what, frame_at(bp, s, &a, &over));
    }
    /* the arrays' NULL and MISALIGNED */
    frame_lay(&a, &over, col, cap);
    sepax_contacts *c = at(&a, over.out);
    c->hits = NULL;
    REFUSED(SEPAX_ERR_NULL, &a, s, "find_contacts: NULL hits, *count inside the pairs",
            frame_at(bp, s, &a, &over));
    c->hits = (sepax_hit *)(void *)((unsigned char *)at(&a, 0) + 10);
    REFUSED(SEPAX_ERR_MISALIGNED, &a, s, "find_contacts: misaligned hits over the pairs",
            frame_at(bp, s, &a, &over));
    frame_layout skew = over;
    skew.count = 26;
    frame_lay(&a, &skew, col, cap);
    REFUSED(SEPAX_ERR_MISALIGNED, &a, s, "find_contacts: misaligned *count inside the pairs",
            frame_at(bp, s, &a, &skew));
    skew = over;
    skew.options = 10;
    frame_lay(&a, &skew, col, cap);
    REFUSED(SEPAX_ERR_MISALIGNED, &a, s, "find_contacts: misaligned options inside the pairs",
            frame_at(bp, s, &a, &skew));
    /* after a lazy frame, a frame that reads records: ALIASED before STALE_WORLD */
    make_stale(s, bp);
    frame_lay(&a, &frame_usual, col, cap);
    REFUSED(SEPAX_ERR_STALE_WORLD, &a, s, "find_contacts: stale world, buffers apart",
            frame_at(bp, s, &a, &frame_usual));
    frame_lay(&a, &over, col, cap);
    grid_print grid = grid_print_of(bp, s);
    REFUSED(SEPAX_ERR_ALIASED, &a, s, "find_contacts: stale world, *count inside the pairs",
            frame_at(bp, s, &a, &over));
    grid_print now = grid_print_of(bp, s);
    cr_expect(memcmp(&now, &grid, sizeof now) == 0, "a refused frame changed the grid");
    arena_free(&a);
    sepax_broadphase_destroy(bp);
    sepax_shapes_destroy(s);
}

/* _posed: the poses are an input too, checked after their NULL and MISALIGNED (so after the
 * range's BAD_ID) and before their own NONFINITE, RANGE and BAD_POSE; a refusal stores none. */
Test(aliased, find_contacts_posed_refuses_poses_over_an_output) {
    sepax_shapes *s = scene_store(61), *twin = scene_store(61);
    sepax_broadphase *bp = sepax_broadphase_create(NULL), *twin_bp = sepax_broadphase_create(NULL);
    cr_assert(bp && twin_bp);
    arena a = arena_new();
    char what[200];
    const size_t cap = 256;
    const long posb = SHAPES * (long)sizeof(sepax_pose);
    sepax_pose p[SHAPES];
    moved_poses(s, p, 0.375f);
    const sepax_frame_options col = {SEPAX_TEST_COLLIDE, 0.0f, 0.0f, SEPAX_UPDATE_FRAME};
    /* a first frame, so there is a grid to keep */
    frame_answer first = frame_apart(bp, s, col, cap, NULL, 0),
                 twin_first = frame_apart(twin_bp, twin, col, cap, NULL, 0);
    cr_assert_eq(first.st, SEPAX_OK);
    frame_free(&first);
    frame_free(&twin_first);
    const struct {
        long poses, count;
        const char *name;
    } over[] = {
        {-posb + 16, 58 * KIB, "poses ending over the first pair"},
        {8, 58 * KIB, "poses starting inside the pairs"},
        {16 * KIB + 32, 58 * KIB, "poses inside the hits"},
        {60 * KIB, 60 * KIB + 40, "*count inside the poses"},
    };
    for (size_t k = 0; k < sizeof over / sizeof over[0]; k++) {
        frame_layout l = frame_usual;
        l.poses = over[k].poses;
        l.count = over[k].count;
        frame_lay(&a, &l, col, cap);
        memcpy(at(&a, l.poses), p, sizeof p);
        grid_print grid = grid_print_of(bp, s);
        snprintf(what, sizeof what, "find_contacts_posed: %s", over[k].name);
        REFUSED(SEPAX_ERR_ALIASED, &a, s, what, posed_at(bp, s, &a, &l, 0, SHAPES));
        grid_print now = grid_print_of(bp, s);
        cr_expect(memcmp(&now, &grid, sizeof now) == 0, "%s: the grid changed", what);
    }
    expect_twins(s, twin, "find_contacts_posed after the refusals");
    /* the order */
    frame_layout l = frame_usual;
    l.poses = 8;
    sepax_pose bad_p[SHAPES];
    for (int fault = 0; fault < 3; fault++) {
        static const char *const fault_name[3] = {"a NaN pose", "a pose past the limit",
                                                  "a rotation off unit length"};
        static const sepax_status fault_st[3] = {SEPAX_ERR_NONFINITE, SEPAX_ERR_RANGE,
                                                 SEPAX_ERR_BAD_POSE};
        memcpy(bad_p, p, sizeof p);
        if (fault == 0) bad_p[SHAPES - 1].position.y = NAN;
        if (fault == 1) bad_p[9].position.x = 2e18f;
        if (fault == 2) bad_p[30].rotation = (sepax_rotation){0.9f, 0.0f};
        frame_layout apart = frame_usual;
        frame_lay(&a, &apart, col, cap);
        memcpy(at(&a, apart.poses), bad_p, sizeof bad_p);
        snprintf(what, sizeof what, "find_contacts_posed: %s, poses apart", fault_name[fault]);
        REFUSED(fault_st[fault], &a, s, what, posed_at(bp, s, &a, &apart, 0, SHAPES));
        frame_lay(&a, &l, col, cap);
        memcpy(at(&a, l.poses), bad_p, sizeof bad_p);
        snprintf(what, sizeof what, "find_contacts_posed: %s, poses over the pairs",
                 fault_name[fault]);
        REFUSED(SEPAX_ERR_ALIASED, &a, s, what, posed_at(bp, s, &a, &l, 0, SHAPES));
    }
    frame_lay(&a, &l, col, cap);
    memcpy(at(&a, l.poses), p, sizeof p);
    REFUSED(SEPAX_ERR_BAD_ID, &a, s,
            "find_contacts_posed: a range past the shapes, poses over the pairs",
            posed_at(bp, s, &a, &l, 1, SHAPES));
    frame_layout skew = l;
    skew.poses = 10;
    REFUSED(SEPAX_ERR_MISALIGNED, &a, s, "find_contacts_posed: misaligned poses over the pairs",
            posed_at(bp, s, &a, &skew, 0, SHAPES));
    /* find_contacts' own checks first: its aliasing before the range, its options before */
    frame_layout count_in = frame_usual;
    count_in.count = 24;
    frame_lay(&a, &count_in, col, cap);
    REFUSED(SEPAX_ERR_ALIASED, &a, s, "find_contacts_posed: *count inside the pairs, a range past",
            posed_at(bp, s, &a, &count_in, 1, SHAPES));
    sepax_frame_options bad_test = col;
    bad_test.test = 5;
    frame_lay(&a, &l, bad_test, cap);
    memcpy(at(&a, l.poses), p, sizeof p);
    REFUSED(SEPAX_ERR_BAD_OPTION, &a, s,
            "find_contacts_posed: an unknown test, poses over the pairs",
            posed_at(bp, s, &a, &l, 0, SHAPES));
    expect_twins(s, twin, "find_contacts_posed after the refusals");
    /* touching is not sharing: the poses right before the pairs, the twin's results with
     * separate buffers; and poses over the hits of a frame that has none to write */
    for (int k = 0; k < 2; k++) {
        sepax_frame_options o = col;
        frame_layout t = frame_usual;
        if (k == 0) {
            t.poses = -posb;
        } else {
            o.test = SEPAX_TEST_OVERLAP;
            t.poses = 16 * KIB;
        }
        moved_poses(s, p, k ? -0.25f : 0.125f);
        frame_lay(&a, &t, o, cap);
        memcpy(at(&a, t.poses), p, sizeof p);
        frame_answer theirs = frame_apart(twin_bp, twin, o, cap, p, SHAPES);
        snprintf(what, sizeof what, "find_contacts_posed %s, poses %s", test_name[o.test],
                 k ? "over the unused hits" : "right before the pairs");
        expect_frame(&a, &t, posed_at(bp, s, &a, &t, 0, SHAPES), o.test, &theirs, what);
        expect_twins(s, twin, what);
        frame_free(&theirs);
    }
    arena_free(&a);
    sepax_broadphase_destroy(bp);
    sepax_broadphase_destroy(twin_bp);
    sepax_shapes_destroy(s);
    sepax_shapes_destroy(twin);
}

/* ---- what is not checked ------------------------------------------------------------------- */

/* sepax_shapes_reorder documents new_ids == order as in place: OK, as with separate arrays. */
Test(aliased, reorder_into_its_own_order_still_works) {
    sepax_shapes *s = scene_store(67), *twin = scene_store(67);
    uint32_t order[SHAPES], copy[SHAPES], new_ids[SHAPES];
    for (uint32_t i = 0; i < SHAPES; i++) order[i] = i;
    wl_rng r = {67};
    for (uint32_t i = SHAPES - 1; i > 0; i--) {
        uint32_t j = (uint32_t)wl_range(&r, 0, (int)i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    memcpy(copy, order, sizeof order);
    cr_assert_eq(sepax_shapes_reorder(s, order, SHAPES, order), SEPAX_OK);
    cr_assert_eq(sepax_shapes_reorder(twin, copy, SHAPES, new_ids), SEPAX_OK);
    cr_expect(memcmp(order, new_ids, sizeof order) == 0, "new ids in place differ");
    expect_twins(s, twin, "reorder in place");
    /* the new ids name the same shapes in both */
    uint64_t mine[SHAPES], theirs[SHAPES];
    cr_assert_eq(sepax_shapes_get_user(s, order, SHAPES, mine), SEPAX_OK);
    cr_assert_eq(sepax_shapes_get_user(twin, new_ids, SHAPES, theirs), SEPAX_OK);
    cr_expect(memcmp(mine, theirs, sizeof mine) == 0);
    sepax_shapes_destroy(s);
    sepax_shapes_destroy(twin);
}
