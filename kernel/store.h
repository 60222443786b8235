/* The shape store's private layout, shared by the store, the query entry
 * points and the kernels. */
#ifndef SEPAX_STORE_H
#define SEPAX_STORE_H

#include "sepax.h"

/* One polygon as the kernels read it: 160 bytes, five rows of 8 lanes, 32-byte
 * aligned, so a plane row or a vertex row is a single aligned 8-float load and
 * no load ever leaves the record. Rows past the vertex count repeat the last
 * real vertex and the last real plane: minima and maxima over all 8 lanes then
 * equal those over the real ones, and the lowest-index tie rule still picks
 * the real plane. (A plane built from two repeated vertices would have a zero
 * normal and a false separation of 0, which is why planes are padded too.) */
typedef struct sepax_poly_rec {
    float x[SEPAX_MAX_VERTS];
    float y[SEPAX_MAX_VERTS];
    float nx[SEPAX_MAX_VERTS];
    float ny[SEPAX_MAX_VERTS];
    float c[SEPAX_MAX_VERTS];
} sepax_poly_rec;

/* The same polygons again, eight to a block, transposed: row k holds vertex
 * (or plane) k of eight consecutive shapes. One shape against a range of
 * shapes then runs with a lane per target shape, straight from memory, with
 * no gather and no horizontal reduction. Lanes past the last shape are zero
 * and their results are never written. */
#define SEPAX_BLOCK_LANES 8

typedef struct sepax_poly_block {
    float x[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float y[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float nx[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float ny[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float c[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
} sepax_poly_block;

/* What a shape is in its own frame: vertices and edge normals, transposed
 * like sepax_poly_block (offsets are recomputed in world space), and per
 * shape:
 *   r      the rounding radius (the same in every frame);
 *   cbias  added to each world plane offset: -0 (changes nothing) for a
 *          shape with planes, +Inf for a circle, whose planes must never
 *          separate (projection minus +Inf offset = -Inf);
 *   vbias  added to the closest-vertices axis' separation: -0 for a curved
 *          shape, -Inf for a sharp polygon (two sharp polygons need only
 *          their edge normals, unless a query asks for a positive margin);
 *   last   the index of its last vertex (count - 1), as a float: a plane's
 *          world offset takes its edge's far end from row k + 1 while
 *          k < last, else from row 0 (transform.c). */
typedef struct sepax_local_block {
    float x[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float y[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float nx[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float ny[SEPAX_MAX_VERTS][SEPAX_BLOCK_LANES];
    float r[SEPAX_BLOCK_LANES];
    float cbias[SEPAX_BLOCK_LANES];
    float vbias[SEPAX_BLOCK_LANES];
    float last[SEPAX_BLOCK_LANES];
} sepax_local_block;

/* Poses and bounding boxes of eight consecutive shapes, a row per field. */
typedef struct sepax_pose_block {
    float px[SEPAX_BLOCK_LANES], py[SEPAX_BLOCK_LANES];
    float c[SEPAX_BLOCK_LANES], s[SEPAX_BLOCK_LANES];
} sepax_pose_block;

typedef struct sepax_aabb_block {
    float minx[SEPAX_BLOCK_LANES], miny[SEPAX_BLOCK_LANES];
    float maxx[SEPAX_BLOCK_LANES], maxy[SEPAX_BLOCK_LANES];
} sepax_aabb_block;

/* Per block of eight shapes, what lets sepax_overlap_one skip rows that are
 * padding in every lane: the most vertices and planes of its shapes, and
 * whether any of them is curved. */
typedef struct sepax_block_info {
    uint8_t maxv, maxp, curved, pad_;
} sepax_block_info;

/* A shape's first world vertex and radius: all of a circle, and what the
 * curved-pair kernels read for the radii. */
typedef struct sepax_disc {
    float x, y, r, pad_;
} sepax_disc;

/* Whether a shape has a radius: circles, the other curved shapes, sharp
 * polygons. */
enum { SEPAX_CLASS_SHARP = 0, SEPAX_CLASS_CIRCLE = 1, SEPAX_CLASS_CURVED = 2 };

/* What the pair-list kernel needs to know of a shape, in one byte (so
 * sorting a pair list reads one byte per shape): its kind, whether it has
 * a radius, and for polygons whether 4 rows hold it (3 or 4 vertices, the
 * padding repeating the last) or it needs all 8 (sepax_pair_class). */
enum {
    SEPAX_CODE_CIRCLE,
    SEPAX_CODE_CAPSULE,
    SEPAX_CODE_SHARP4,
    SEPAX_CODE_SHARP8,
    SEPAX_CODE_CURVED4,
    SEPAX_CODE_CURVED8,
    SEPAX_CODES
};

/* Every array holds `cap` shapes (cap / 8 blocks), 64-byte aligned; lanes
 * past `count` are zero. World data (rec, block, aabb) is what queries read;
 * sepax_shapes_update derives it from local data and poses. */
struct sepax_shapes {
    sepax_poly_rec *rec;      /* world, one record per shape */
    sepax_poly_block *block;  /* world, transposed */
    sepax_aabb_block *aabb;   /* world bounding boxes */
    sepax_local_block *local; /* local shapes */
    sepax_pose_block *pose;   /* poses */
    sepax_disc *disc;         /* world, first vertex and radius */
    sepax_block_info *info;   /* per block (one entry per shape allocated, the first cap/8 used) */
    uint8_t *nverts;          /* core vertex counts */
    uint8_t *nplanes;         /* plane counts */
    uint8_t *kind;            /* sepax_kind */
    uint8_t *cls;             /* SEPAX_CLASS_SHARP / CIRCLE / CURVED (any other curved shape) */
    uint8_t *code;            /* SEPAX_CODE_* */
    uint8_t *gen;             /* generation of each index (the id's high bits) */
    sepax_filter *filter;     /* collision filters */
    uint64_t *user;           /* the caller's data (sepax_shapes_set_user) */
    uint32_t count;
    uint32_t high;       /* indices below it have held a shape: the most count has been */
    uint32_t cap;        /* a multiple of 16 */
    uint32_t n_class[3]; /* shapes of each class */
    uint32_t removals;   /* ever: while 0, every generation is 0 and id == index */
    /* Whether `block` lags the records: a frame's SEPAX_UPDATE_FRAME writes the records,
     * discs and bounds but not the transposed rows, which only sepax_overlap_one and
     * sepax_raycast_range read, and which cost a fifth of the update. While set, those
     * two answer through the pair kernels, from the records (queries.c); a whole update
     * (sepax_shapes_update, SEPAX_UPDATE_ALL) and a whole refresh clear it. */
    uint32_t rows_stale;
    /* Whether some records and discs lag the poses: a frame's SEPAX_UPDATE_LAZY writes
     * every bound but only the records and discs of the shapes its pairs read.
     * While set, every query that reads records refuses with SEPAX_ERR_STALE_WORLD; a whole
     * update, or a frame with SEPAX_UPDATE_FRAME or ALL, clears it (a lazy frame sets it
     * even when it falls back to writing every record). */
    uint32_t recs_stale;
    sepax_allocator mem;
};

/* How a store array holds a shape, for the code that moves shapes to other indices
 * (sepax_shapes_remove, sepax_shapes_reorder): they walk the store's table of arrays
 * (sepax_store_arrays), so an array added to the store moves with its shapes.
 *   SHAPE       an element of `bytes` per shape at its index
 *   LANES       transposed blocks: `bytes / 4` rows of SEPAX_BLOCK_LANES floats, a lane per shape
 *   WORLD_ROWS  like LANES, but rewritten from the records by a block refresh after a move
 *   BLOCK_INFO  one entry per block, recomputed by the block refresh
 *   INDEX       belongs to the index, not to the shape at it (the generations) */
typedef enum {
    SEPAX_ARRAY_SHAPE,
    SEPAX_ARRAY_LANES,
    SEPAX_ARRAY_WORLD_ROWS,
    SEPAX_ARRAY_BLOCK_INFO,
    SEPAX_ARRAY_INDEX
} sepax_array_kind;

typedef struct sepax_store_array {
    void *base;
    size_t bytes; /* per shape */
    sepax_array_kind kind;
} sepax_store_array;

#define SEPAX_STORE_ARRAYS 16

/* The store's arrays into out; returns how many. */
size_t sepax_store_arrays(sepax_shapes *s, sepax_store_array out[SEPAX_STORE_ARRAYS]);

static inline uint32_t sepax_id_index(uint32_t id) { return id & SEPAX_ID_INDEX_MASK; }

/* SEPAX_OK, SEPAX_ERR_STALE_ID (an index whose shape was removed or replaced since the id
 * was given: its generation has moved on) or SEPAX_ERR_BAD_ID (an index past the shapes
 * that no shape of that generation left: never issued, whatever the capacity). */
static inline sepax_status sepax_check_id(const sepax_shapes *s, uint32_t id) {
    uint32_t i = sepax_id_index(id);
    int moved_on = i < s->high && s->gen[i] != (uint8_t)(id >> SEPAX_ID_INDEX_BITS);
    if (moved_on) return SEPAX_ERR_STALE_ID;
    return i < s->count ? SEPAX_OK : SEPAX_ERR_BAD_ID;
}

/* World data of one shape from its local data and pose, one lane at a time:
 * the formula every update kernel follows operation for operation. */
void sepax_transform_shape(sepax_shapes *s, uint32_t id);

/* Only its bounds, by the same formula (what a lazy frame's first pass writes). */
void sepax_transform_bounds(sepax_shapes *s, uint32_t id);

/* Stores past this many shapes have their world records and blocks written around the caches
 * by every update (update_kernel.c): a frame reads them back only for the few shapes in
 * candidate pairs (and the blocks only for sepax_overlap_one and raycast_range), and a store
 * past the L2 cache would otherwise read every line before writing it. Below it, they stay in
 * cache for the queries that follow. frame.c's dense-frame prefetch starts here too. */
#define SEPAX_STREAM_SHAPES 16384u

/* What a kernel's update writes (sepax_kernel.update's mode): every shape's records, discs
 * and bounds; those and the transposed rows; or only the bounds. SEPAX_WRITE_STREAM, added to
 * RECORDS or ROWS, writes the records, discs and rows around the caches whatever the store's
 * size (as a store past SEPAX_STREAM_SHAPES always does): the same bits, for a
 * caller that knows few of them will be read soon (frame.c). */
enum {
    SEPAX_WRITE_RECORDS = 0,
    SEPAX_WRITE_ROWS = 1,
    SEPAX_WRITE_BOUNDS = 2,
    SEPAX_WRITE_STREAM = 4
};

/* The C library's aligned_alloc and free, the default of every object. */
sepax_allocator sepax_libc_allocator(void);

/* Shapes a store can hold: as many as the id's index bits number. */
#define SEPAX_STORE_MAX_SHAPES SEPAX_MAX_SHAPES

/* Which rows of the transposed world blocks (sepax_poly_block) are current: one rule,
 * kept by three parties.
 * - Queries that step over blocks (sepax_overlap_one, sepax_raycast_range) take one or
 *   two adjacent blocks a step, two with AVX-512 and starting wherever the caller's range
 *   starts, and read no row past the most vertices or planes of the step's blocks
 *   (sepax_step_rows).
 * - The update writes, per block, the rows any step holding it reads, on any backend
 *   (sepax_block_rows with SEPAX_STEP_BLOCKS_MAX): the neighbours' rows too, even on a
 *   backend of one block a step, since the store may be queried after a backend switch.
 * - An add or a removal writes the lanes it changes, every row (an add's transform, a
 *   removal's moved lane from its record, the vacated lane zeroed); when the changed block
 *   gains rows, sepax_block_refresh rewrites it and both neighbours from the records (which
 *   hold every row), whatever the backend, so no step reads a row an update skipped when
 *   the block's counts were smaller; while rows_stale is set no step reads the rows at all,
 *   and both leave them to the whole update that clears the flag. */
#define SEPAX_STEP_BLOCKS_MAX 2 /* the most blocks a range query's step takes (AVX-512) */

static inline int sepax_info_rows(sepax_block_info i) { return i.maxv > i.maxp ? i.maxv : i.maxp; }

static inline int sepax_step_rows(const sepax_shapes *s, size_t b0, size_t b1) {
    int r0 = sepax_info_rows(s->info[b0]), r1 = sepax_info_rows(s->info[b1]);
    return r0 > r1 ? r0 : r1;
}

/* The rows of block b (of nblocks) that some step of per_step blocks may read; at least
 * one (an empty lane's zeros). */
static inline int sepax_block_rows(const sepax_shapes *s, size_t b, size_t nblocks, int per_step) {
    int rows = sepax_info_rows(s->info[b]);
    if (per_step > 1) {
        if (b > 0 && sepax_step_rows(s, b - 1, b) > rows) rows = sepax_step_rows(s, b - 1, b);
        if (b + 1 < nblocks && sepax_step_rows(s, b, b + 1) > rows)
            rows = sepax_step_rows(s, b, b + 1);
    }
    return rows > 0 ? rows : 1;
}

/* Recompute the sepax_block_info of the block holding index i, and when the block gains
 * rows, rewrite its transposed world rows, and its neighbours', from the per-shape records
 * (unless the rows are stale already, rows_stale). The caller has written the lanes it
 * changed. */
void sepax_block_refresh(sepax_shapes *s, uint32_t i);

/* The same for every block of the store (after shapes moved between blocks). */
void sepax_blocks_refresh_all(sepax_shapes *s);

#endif
