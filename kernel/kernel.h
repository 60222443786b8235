/* The interface every ISA copy of the SAT kernel exports. Inputs are already
 * validated by the caller (ids in range and live, buffers present, margin
 * finite), so kernels never check; they stay memory-safe on any float bits
 * all the same. Pair ids still carry their generation: kernels mask it off. */
#ifndef SEPAX_KERNEL_H
#define SEPAX_KERNEL_H

#include "float_bits.h"
#include "store.h"

/* Boxes in the grid's sorted order, a column per field (each array padded by 8 entries so a
 * run's last 8-wide load stays inside). lo is the shape's lower corner already lowered by the
 * frame's margin and a rounding slack; hi the upper corner. */
typedef struct sepax_box_soa {
    const float *lox, *loy, *hix, *hiy;
    const uint32_t *cat, *mask;
    /* the shape id at each position (the grid's sid, padded like the columns): what the
     * cell test writes for each position and owner; the range test ignores it */
    const uint32_t *sid;
} sepax_box_soa;

/* What a run is tested against: a box (its lower corner lowered like the soa's), a filter,
 * and whether the filter applies (0: every box passes it). */
typedef struct sepax_box_probe {
    float lox, loy, hix, hiy;
    uint32_t cat, mask, filter, pad_;
} sepax_box_probe;

/* A grown box in index order, with what the grid build reads beside it (its filter and
 * largest extent), in one 32-byte entry: the gather into sorted order reads one line a
 * shape. The build's scratch (grid.c); the kernel's grid_boxes writes it. */
typedef struct bp_box {
    float lx, ly, hx, hy;
    sepax_filter f;
    float ext;
    uint32_t pad_;
} bp_box;

/* What grid_boxes found over the small shapes of its blocks: the largest extent (0 with
 * none), the span of their lower corners (+Inf and -Inf with none), their count; and over
 * all its shapes, how many have an extent below each of two bounds. */
typedef struct bp_tally {
    float cell, minx, miny, maxx, maxy;
    uint32_t nsmall, below[2];
} bp_tally;

/* The two filters the build's classification met last (grid.c's classify_filter), as their
 * bits, for grid_boxes to compare each shape's with; and what it found, a block at a time: bit
 * l set where lane l's filter is f[0] (eq0), where it is f[1] (eq1), where the shape is large
 * (large: its key UINT32_MAX). */
typedef struct bp_recent {
    uint64_t f[2];
} bp_recent;

typedef struct bp_lanes {
    uint8_t eq0, eq1, large, pad_;
} bp_lanes;

/* The grid's cells: cell of x floor((x - ox) * inv) clamped to 0 .. last, in double. */
typedef struct bp_geometry {
    double ox, oy, inv, lastx, lasty;
    uint32_t nx;
    uint32_t large; /* the key of a large shape: the one after every cell of every group */
} bp_geometry;

/* The grid's columns in sorted order, as grid_columns writes them. */
typedef struct bp_columns {
    float *lox, *loy, *hix, *hiy;
    uint32_t *cat, *mask;
} bp_columns;

/* A kernel call's work memory: `work` (overlap, collide, sweep, raycast, contacts) is
 * SEPAX_WORK_BYTES aligned to 64, whose contents do not matter, in which the call keeps the
 * buffers it would otherwise put on the stack (a caller's sepax_query_options.scratch, a
 * frame worker's own); NULL: on the stack. Each use checks its size against it. */
#define SEPAX_WORK_BYTES (48u * 1024u)

/* Stores of more shapes than these have their sharp pair steps ask for the records of pairs
 * ahead (sat_kernel.c, FAR_PAIRS): overlap and collide (and so the manifold's collide), and
 * the sweep. Each of those loops is built twice, with and without, so the tests run stores
 * on both sides of both (check_far_store). */
#define SEPAX_FAR_PAIRS 2048u
#define SEPAX_FAR_SWEEP 8192u

typedef struct sepax_kernel {
    const char *name;
    sepax_backend backend;
    void (*overlap)(const sepax_shapes *store, const sepax_pair *pairs, size_t n, float margin,
                    uint8_t *hit, void *work);
    /* axis (NULL: not wanted): per pair, the SEPAX_AXIS_* code of the axis that gave the
     * normal; written for misses too, where it means nothing (the sharp slots write 0 for a
     * pair their first pass rules out) */
    void (*collide)(const sepax_shapes *store, const sepax_pair *pairs, size_t n, float margin,
                    sepax_hit *out, uint8_t *axis, void *work);
    /* probe is an index here */
    void (*overlap_one)(const sepax_shapes *store, uint32_t probe, uint32_t first, size_t count,
                        float margin, uint8_t *hit);
    /* world data from local shapes and poses, for the shapes of blocks first_block ..
     * first_block + blocks - 1 (clipped to the store), as `mode` (SEPAX_WRITE_RECORDS, ROWS or
     * BOUNDS, the first two perhaps plus STREAM: store.h) says; the caller keeps
     * store->rows_stale and recs_stale */
    void (*update)(sepax_shapes *store, uint32_t first_block, uint32_t blocks, int mode);
    /* swept SAT; va, vb per pair, NULL: not moving; velocities checked by the caller */
    void (*sweep)(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                  const sepax_vec2 *va, const sepax_vec2 *vb, sepax_sweep_hit *out, void *work);
    /* ray i against shape ids[i] (ids, rays checked by the caller) */
    void (*raycast)(const sepax_shapes *store, const sepax_ray *rays, const uint32_t *ids, size_t n,
                    sepax_ray_hit *out, void *work);
    /* one ray against the shapes at indices first .. first + count - 1 */
    void (*raycast_range)(const sepax_shapes *store, const sepax_ray *ray, uint32_t first,
                          size_t count, sepax_ray_hit *out);
    /* contact manifolds from collide's answers and axes for the same pairs (manifold_kernel.c),
     * each written once, in order; with `stream` (out 16-byte aligned) around the caches */
    void (*contacts)(const sepax_shapes *store, const sepax_pair *pairs, size_t n,
                     const sepax_hit *hits, const uint8_t *axis, float margin, sepax_manifold *out,
                     void *work, int stream);
    /* the grid's range test: over runs runs[2r] .. runs[2r + 1] - 1 of soa's positions, one
     * run after another, those whose boxes overlap the probe's and whose filters pass,
     * ascending within a run, into out (room for the runs' lengths + 8); returns how many.
     * Several runs a call: a dense grid's runs hold a few boxes each. */
    size_t (*box_run)(const sepax_box_soa *soa, const uint32_t *runs, uint32_t nruns,
                      const sepax_box_probe *probe, uint32_t *out);
    /* the grid's cell test: each owner p = first .. first + owners - 1 (a box of soa) against
     * the positions of run runs[0] .. runs[1] - 1 past p, then of run runs[2] .. runs[3] - 1,
     * those whose boxes overlap p's and, when `filter`, whose filters pass p's, ascending
     * within a run, owner by owner: the id of each (soa->sid at its position) into out, and
     * its owner's id into owner_of at the same index (room in each for owners * (both runs'
     * lengths) + 8). Returns the total. Every owner of a call runs the same loops, which a
     * grid's cell of owners shares. */
    size_t (*box_cell)(const sepax_box_soa *soa, uint32_t first, uint32_t owners,
                       const uint32_t runs[4], int filter, uint32_t *out, uint32_t *owner_of);
    /* the grid build's first pass over `blocks` whole blocks of aabb from first_block on: each
     * shape i's box grown by `grow` and then its slack (sepax_grid_slack), its filter and
     * largest extent into ubox[i], key[i] UINT32_MAX where that extent is above limit (a
     * large shape) and 0 elsewhere, and the tally, with the extents below below[0] and
     * below[1], and lanes[b - first_block] for each block b, its shapes' filters against
     * recent's (grid_build_kernel.c); with `stream`, the entries are stored around the
     * caches (ubox 64-byte aligned) and fenced before the call returns */
    void (*grid_boxes)(const sepax_aabb_block *aabb, const sepax_filter *filter,
                       uint32_t first_block, uint32_t blocks, float grow, float limit,
                       const float below[2], bp_box *ubox, uint32_t *key, bp_tally *tally,
                       const bp_recent *recent, bp_lanes *lanes, int stream);
    /* for i = i0 .. i1 - 1: key[i] = the cell of ubox[i]'s lower corner, row * nx + col, or
     * g->large where key[i] is UINT32_MAX (grid_build_kernel.c) */
    void (*grid_cells)(const bp_box *ubox, uint32_t i0, uint32_t i1, const bp_geometry *g,
                       uint32_t *key);
    /* the grid's columns at sorted positions p0 .. p1 - 1 from the entries of their shapes,
     * ubox[sepax_id_index(sid[p])] (grid_build_kernel.c) */
    void (*grid_columns)(const bp_box *ubox, const uint32_t *sid, uint32_t p0, uint32_t p1,
                         const bp_columns *out);
    /* whether every one of the poses passes sepax_pose_ok (pose_rules.h), exactly */
    int (*poses_valid)(const sepax_pose *poses, size_t count);
    /* the poses of `blocks` whole blocks into them, transposed (pose_kernel.c) */
    void (*poses_store)(sepax_pose_block *dst, const sepax_pose *poses, size_t blocks);
    /* sepax_rot of each angle, bit for bit (rot_kernel.c) */
    void (*rot)(const float *angles, size_t n, sepax_rotation *out);
} sepax_kernel;

/* Which axis won a pair's SAT, as collide reports it: plane k of A is k, plane k of B is
 * SEPAX_AXIS_B + k, the closest-vertices axis (curved pairs, or any pair under a positive
 * margin) SEPAX_AXIS_VERTICES. The contact manifold starts from it. */
enum { SEPAX_AXIS_B = SEPAX_MAX_VERTS, SEPAX_AXIS_VERTICES = 2 * SEPAX_MAX_VERTS };

/* The margin of a query's options (NULL: 0), checked: SEPAX_ERR_NONFINITE or
 * SEPAX_ERR_RANGE when it is not a margin a query takes. */
sepax_status sepax_margin_of(const sepax_query_options *opt, float *margin);

/* A query's options (NULL: none): the margin as sepax_margin_of, which must be 0 where the
 * query takes none (no_margin: SEPAX_ERR_BAD_OPTION), and the scratch into *work, NULL when
 * there is none, else aligned (SEPAX_ERR_MISALIGNED) and large enough (SEPAX_ERR_BAD_OPTION).
 * The library's queries and the reference's (sepax_ref.h keeps the same contract) share it. */
sepax_status sepax_options_of(const sepax_query_options *opt, int no_margin, float *margin,
                              void **work);

/* SEPAX_ERR_BAD_OPTION when the scratch at work (its first SEPAX_SCRATCH_BYTES, all a call
 * uses) and a buffer of `bytes` at buf (NULL: none) share a byte */
sepax_status sepax_scratch_apart(const void *work, const void *buf, size_t bytes);

/* A ray's numbers checked as sepax_raycast checks them. */
sepax_status sepax_ray_check(const sepax_ray *r);
/* The first of rays[0 .. n-1] that fails it: its status, else SEPAX_OK. */
sepax_status sepax_rays_check(const sepax_ray *rays, size_t n);

/* One per ISA copy built into the library (see kernel/meson.build). */
extern const sepax_kernel sepax_kernel_scalar;
extern const sepax_kernel sepax_kernel_sse2;
extern const sepax_kernel sepax_kernel_sse41;
extern const sepax_kernel sepax_kernel_avx2;
extern const sepax_kernel sepax_kernel_avx512;
/* most of the AVX-512 copy's pair queries at 256 bits, the rest from sepax_kernel_avx512 */
extern const sepax_kernel sepax_kernel_avx512_256;
/* sepax_kernel_avx512_256 but for its overlap and raycast, which send some stores to
 * sepax_kernel_avx512 (sat_kernel.c) */
extern const sepax_kernel sepax_kernel_avx512_256_zen5;
extern const sepax_kernel sepax_kernel_neon;

/* The kernel queries go to, chosen on first use; an error when the
 * SEPAX_BACKEND environment variable names a backend that cannot run. */
sepax_status sepax_kernel_for_query(const sepax_kernel **out);

/* Poses of shapes first .. first + count - 1 into the store's pose blocks (checked before:
 * sepax_shapes_set_poses and a frame given poses share it), and the status of the first
 * pose its rules refuse (SEPAX_OK: none). */
void sepax_poses_put(sepax_shapes *store, const sepax_kernel *k, uint32_t first, size_t count,
                     const sepax_pose *poses);
sepax_status sepax_poses_first_bad(const sepax_pose *poses, size_t count);

/* How a pair list's pair is computed, from its shapes' codes:
 *   SEPAX_PAIR_SLOT + sepax_slot_class(rows of A, rows of B)
 *                    two sharp polygons: an 8-lane slot per pair, a lane per
 *                    plane of A, edge normals only; a class per 4 or 8 rows
 *                    of each, so a 4-row shape's vertices are projected 4
 *                    times, not 8 (the padding repeats its last vertex, so
 *                    the least projection is the same)
 *   SEPAX_PAIR_LANES + sepax_lane_class(rows of A, rows of B)
 *                    the rest: a pair per lane, each shape's first 1
 *                    (circle), 2 (capsule), 4 or 8 rows, edge normals, the
 *                    closest-vertices axis and the radii (sharp pairs come
 *                    here too under a positive margin, which asks for
 *                    distances, and those need the closest-vertices axis). */
enum {
    SEPAX_PAIR_SLOT = 0,
    SEPAX_PAIR_LANES = SEPAX_PAIR_SLOT + 4,
    SEPAX_PAIR_CLASSES = SEPAX_PAIR_LANES + 16
};

/* 0..3 for 1, 2, 4, 8 rows */
static inline unsigned sepax_rows_index(unsigned code) {
    static const unsigned char index[SEPAX_CODES] = {0, 1, 2, 3, 2, 3};
    return index[code];
}

static inline unsigned sepax_lane_class(unsigned rows_a, unsigned rows_b) {
    return SEPAX_PAIR_LANES + rows_a * 4u + rows_b;
}

/* rows_a, rows_b: 2 or 3 (4 or 8 rows) */
static inline unsigned sepax_slot_class(unsigned rows_a, unsigned rows_b) {
    return SEPAX_PAIR_SLOT + (rows_a - 2u) * 2u + (rows_b - 2u);
}

static inline unsigned sepax_pair_class(unsigned code_a, unsigned code_b, int margin_positive) {
    int sharp_a = code_a == SEPAX_CODE_SHARP4 || code_a == SEPAX_CODE_SHARP8;
    int sharp_b = code_b == SEPAX_CODE_SHARP4 || code_b == SEPAX_CODE_SHARP8;
    if (sharp_a && sharp_b && !margin_positive)
        return sepax_slot_class(sepax_rows_index(code_a), sepax_rows_index(code_b));
    return sepax_lane_class(sepax_rows_index(code_a), sepax_rows_index(code_b));
}

#endif
