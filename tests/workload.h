/* Deterministic shapes and pair lists shared by the tests, the plain
 * equivalence driver and the benchmark. */
#ifndef SEPAX_WORKLOAD_H
#define SEPAX_WORKLOAD_H

#include "sepax.h"

typedef struct wl_rng {
    uint64_t s;
} wl_rng;

uint64_t wl_next(wl_rng *r);
/* uniform in [0, 1) with 24 random bits */
float wl_unit(wl_rng *r);
/* uniform integer in [lo, hi] */
int wl_range(wl_rng *r, int lo, int hi);

/* Which shapes a store gets. */
enum { WL_POLYGONS = 0, WL_MIXED = 1, WL_CIRCLES = 2 };
/* wl_config.pair_a / pair_b: any kind, or a sepax_kind */
#define WL_ANY (-1)

typedef struct wl_config {
    uint32_t shapes; /* shapes in the store */
    size_t pairs;    /* candidate pairs */
    int min_verts;   /* 3..8 */
    int max_verts;   /* min_verts..8 */
    double overlap;  /* wanted fraction of overlapping pairs, 0..1 */
    uint64_t seed;
    int kinds;          /* WL_POLYGONS, WL_MIXED (every kind) or WL_CIRCLES */
    int pair_a, pair_b; /* only pairs of these kinds (WL_ANY: any) */
} wl_config;

/* The benchmark's default: 4096 mixed 3-8-gons, 1M pairs, half overlapping. */
wl_config wl_default(void);

/* Add cfg->shapes random shapes (of cfg->kinds) on a jittered grid, so that ids near
 * each other are near in space (as a broadphase numbers them). */
sepax_status wl_fill_store(sepax_shapes *store, const wl_config *cfg);

/* Fill pairs[0..cfg->pairs) with neighbours, chosen so that a fraction
 * cfg->overlap of them overlap (decided by the reference). */
/* The benchmarks' motion for a pair list: vel[i], B's displacement over a
 * sweep's step (A still), up to 4 units in any direction, one pair in 8 a
 * bullet of up to 1000 units; rays[i] from A's box centre towards B's, 0.5
 * to 1.5 times as far, max fraction 1, cast against ray_ids[i] = B. */
void wl_bench_motion(const sepax_shapes *store, const sepax_pair *pairs, size_t n, uint64_t seed,
                     sepax_vec2 *vel, sepax_ray *rays, uint32_t *ray_ids);

sepax_status wl_make_pairs(const sepax_shapes *store, const wl_config *cfg, sepax_pair *pairs);

/* A pair list filled to a quota of touching pairs and one of apart pairs, by what the
 * reference says of each pair offered (wl_make_pairs; check.c's pairs of a posed store). */
typedef struct wl_quota {
    size_t hits, misses, n; /* still wanted, and kept so far */
} wl_quota;
wl_quota wl_quota_of(const wl_config *cfg);
/* Appends p to pairs when its answer's quota has room. */
void wl_quota_offer(const sepax_shapes *store, sepax_pair p, wl_quota *q, sepax_pair *pairs);

/* wl_make_pairs lists the pairs as drawn: both kinds mixed until one kind's quota is full, then
 * a run of the other kind alone. This mixes them all: a fixed Fisher-Yates permutation drawn from
 * seed ^ 0x5eed5eed (the benchmarks'
 * --shuffle), so per-block choices and branches meet a realistic order. */
void wl_shuffle_pairs(sepax_pair *pairs, size_t n, uint64_t seed);

/* Turn every shape of the store by a random angle about its own centre and
 * nudge it by up to 0.25, then update: the shapes stay grid neighbours but
 * their world data comes from poses. */
sepax_status wl_pose_randomly(sepax_shapes *store, uint64_t seed);

/* What sepax_shapes_view shows of a shape, copied out (a view points into the store),
 * zero-padded so that two copies compare as bytes. */
typedef struct wl_view_copy {
    int kind, count, planes;
    float radius, x[8], y[8], nx[8], ny[8], c[8];
} wl_view_copy;

sepax_status wl_copy_view(const sepax_shapes *store, uint32_t id, wl_view_copy *out);

/* A store of hand-made hard cases: shared edges and vertices on an integer
 * lattice, coincident shapes (ties), parallel edges, slivers, huge and tiny
 * coordinates. All pairs among them, including each with itself. */
sepax_shapes *wl_adversarial_store(void);
sepax_pair *wl_all_pairs(uint32_t shapes, size_t *n);

/* How far q lies outside the counter-clockwise polygon v[0 .. n-1], in double: the largest
 * distance beyond an edge's line (0 or less when q is inside or on it). */
double wl_outside(const sepax_vec2 *v, int n, sepax_vec2 q);

/* Nine curved and sharp shapes of size about 1 near the origin (circles, capsules, rounded
 * and sharp polygons), every position and size times f (a power of two), added to the
 * store in a fixed order; their ids in ids[0 .. WL_SCALED_SHAPES - 1]. For the tests that
 * sweeps and raycasts keep their bits when a whole scene is scaled by a power of two. */
#define WL_SCALED_SHAPES 9
void wl_scaled_scene(sepax_shapes *store, float f, uint32_t ids[WL_SCALED_SHAPES]);

/* Sets (on != 0) or clears the CPU's flush-to-zero and denormals-are-zero modes for this
 * thread; returns 1 where the tests can set them (x86 SSE), else 0 and changes nothing. */
int wl_flush_denormals(int on);
/* The lowest power of two the scale tests scale a scene by under those modes: below it the
 * sweeps' closest-vertex search squares distances into the flushed range. */
#define WL_FTZ_LOWEST (-60)

#endif
