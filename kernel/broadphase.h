/* The broadphase's private layout, shared by the grid build (grid.c), the
 * frame pipeline (frame.c) and the grid queries (grid_query.c). */
#ifndef SEPAX_BROADPHASE_H
#define SEPAX_BROADPHASE_H

#include <math.h>

#include "kernel.h"

/* Owners a frame chunk pairs: fixed, so chunk boundaries (and with them the
 * order of the results) do not depend on the thread count. */
#define BP_CHUNK_SMALL 1024u
#define BP_CHUNK_LARGE 16u
/* Candidates a worker collects before it runs the narrowphase on them, and
 * the longest piece of a run it tests at once. */
#define BP_BATCH 512u
#define BP_PIECE 256u
/* Positions one cell test may write (owners times their runs' length). */
#define BP_TILE 1024u
/* Blocks of 8 shapes one update task recomputes. */
#define BP_UPDATE_BLOCKS 256u
/* Most distinct filters the grid keeps apart (a sub-grid each); past that,
 * one grid and the filter test in every range test. */
#define BP_GROUPS 8u
/* Shapes one task of the grid build handles. */
#define BP_BUILD_SHAPES 8192u
/* Most ranges the grid's counting sort splits the shapes into (one per worker): each keeps a
 * count per cell, so more would cost more than they save. */
#define BP_SORT_RANGES 4u
/* Room past the last box: a run's last wide load reads up to 8 entries on. */
#define BP_PAD 8u
/* Most bands the large list is cut into (grid.c's band_large), and the fewest large shapes
 * it is cut for: below that, pairing them by x alone costs less than the cut. */
#define BP_BANDS 1024u
#define BP_BAND_MIN 64u
/* The crowd in x past which the large list is cut into bands (grid.c's band_large). */
#define BP_BAND_CROWD 128.0

/* The phases of a frame that sepax_broadphase_stats times. */
enum { BP_PHASE_UPDATE, BP_PHASE_GRID, BP_PHASE_PAIRS, BP_PHASE_COPY, BP_PHASES };

typedef struct sepax_pool sepax_pool;

/* What one worker needs while it pairs a chunk: allocated once per worker. */
typedef struct bp_worker {
    /* the narrowphase's work memory (kernel.h): its sort and lane buffers off the stack of
     * the thread that runs the task, a caller's fiber perhaps */
    _Alignas(64) unsigned char work[SEPAX_WORK_BYTES];
    uint32_t pos[BP_PIECE + BP_PAD];
    uint32_t tile[BP_TILE + BP_PAD];     /* a cell test's ids (of the positions it found) */
    uint32_t tile_own[BP_TILE + BP_PAD]; /* and the id of the owner of each */
    sepax_pair cand[BP_BATCH + BP_PIECE];
    uint8_t flag[BP_BATCH + BP_PIECE];
    uint8_t axis[BP_BATCH + BP_PIECE];
    sepax_hit hit[BP_BATCH + BP_PIECE];
    sepax_manifold man[BP_BATCH + BP_PIECE];
    uint8_t *mark; /* a lazy frame's marks: this worker's row of the broadphase's */
} bp_worker;

/* A chunk of work: owners begin .. end-1 (sorted positions) paired with
 * sub-grid `target`: their own group's half neighbourhood (BP_SELF), another
 * group's whole neighbourhood (BP_CROSS), or, for large owners, every cell
 * their box covers in every group they meet, then the large shapes after them
 * (BP_LARGE). */
enum { BP_SELF, BP_CROSS, BP_LARGE };
typedef struct bp_task {
    uint32_t kind, target, begin, end;
} bp_task;

/* The results of one chunk; `count` keeps counting past `cap`, and the frame
 * grows the arrays and runs the chunk again. */
typedef struct bp_chunk {
    sepax_pair *pairs;
    sepax_hit *hits;
    sepax_manifold *mans;
    size_t cap, count, candidates;
    size_t large_scanned; /* positions of the large list its large owners' range tests read */
    size_t at;            /* where its results go in the caller's arrays */
} bp_chunk;

struct sepax_broadphase {
    sepax_allocator mem;
    sepax_scheduler sched;
    sepax_pool *pool;      /* the built-in scheduler's threads, or NULL */
    uint32_t min_parallel; /* per-shape steps over fewer shapes run on the caller */
    bp_worker *workers;

    /* the grid: shapes keyed by their filter group and the cell of their lower
     * corner, small ones (sorted positions 0 .. nsmall-1, by group, then cell)
     * then large ones (nsmall .. n-1, by their boxes' lower x). Shapes with the
     * same filter form a group, with a sub-grid of its own, so groups whose
     * filters never pass (bullets and bullets) are never scanned against each
     * other. */
    uint32_t n, nsmall, nx, ny, ncells;
    uint32_t ngroups;                     /* 1 .. BP_GROUPS */
    int grouped;                          /* 0: one group of every filter */
    sepax_filter group_filter[BP_GROUPS]; /* when grouped */
    uint8_t meets[BP_GROUPS][BP_GROUPS];  /* the filters of groups g and h pass */
    float cell, margin;
    float limit;        /* the last automatic build's small-shape limit (0: none yet) */
    int mingled;        /* the last build's sort joined its ranges: over an eighth of the cells held
                         * shapes of more than one range (grid.c's sort_keys) */
    double ox, oy, inv; /* cell of x: floor((x - ox) * inv), clamped */
    uint32_t *start;    /* ngroups * ncells + 2: the first sorted position of each cell */
    /* the large list (grid.c's band_large): the medium ones (grown extent below band_t) in
     * bands of their lower y, band b at sorted positions band_start[b] .. band_start[b+1]-1,
     * each band by lower x; then the huge ones, band_start[nbands] .. n-1, by lower x. Band
     * of y: floor((y - band_y0) * band_inv), clamped to 0 .. nbands-1; a band is at least
     * 2 * band_t high. Below BP_BAND_MIN large shapes, a crowd in x below band_crowd, or
     * medium shapes within one band's height: one band, no huge, band_t = +Inf. */
    uint32_t nbands;
    double band_crowd; /* BP_BAND_CROWD; the tests set 0 to cut every list of BP_BAND_MIN */
    float band_t;
    double band_y0, band_inv;
    uint32_t band_start[BP_BANDS + 2];
    uint32_t *sid; /* sorted position -> shape id (index and generation, as built) */
    float *lox, *loy, *hix, *hiy;
    uint32_t *cat, *mask; /* filters in sorted order */
    uint32_t *key;        /* per shape index: group * ncells + cell, or ngroups * ncells when large
                           * (UINT32_MAX until the build's keys_step); scratch once the build has
                           * sorted by it (grid.c's sort_large) */
    bp_box *ubox;         /* per shape index: its grown box (scratch of the build) */
    struct build_part *parts; /* per build task: what it found (grid.c) */
    size_t cap_parts;
    uint32_t *sort_at; /* per sort range: each cell's next position, then the next large one */
    size_t cap_sort_at;
    size_t cap_shapes, cap_cells;
    int built;

    /* the frame: its chunks of work, each a range of owners paired with a group */
    bp_task *tasks;
    size_t cap_tasks;
    bp_chunk *chunks;
    size_t cap_chunks;
    uint32_t *redo;
    size_t cap_redo;
    /* a lazy frame: each worker's marks of the blocks its candidate pairs read, a row per
     * worker, and the marked blocks' list */
    uint8_t *marks;
    size_t cap_marks;
    uint32_t *marked;
    size_t cap_marked;
    size_t candidates, results;
    /* whether the last frame's update wrote its records around the caches (frame.c: a sparse
     * frame's SEPAX_WRITE_STREAM): not public, the results are the same bits either way, but
     * what a test checks to know it compared that path */
    int streamed;
    /* whether the last frame prefetched its cells' shapes once each, not its candidates'
     * (frame.c: fetch_cells, a dense frame): as streamed, for a test to know its path */
    int fetched_cells;
    uint32_t fetch_cells_min; /* frame.c's FETCH_CELLS_SHAPES; a test lowers it */
    /* the last frame's large_scanned over its chunks: not public, but what a test bounds to
     * see that the large shapes are paired in time linear in their number, with no clock */
    size_t large_scanned;
    uint64_t phase_ns[BP_PHASES]; /* the last frame's phases (sepax_broadphase_stats) */
};

/* The arrays of cap_shapes entries, one list for the allocation (grid.c) and the byte count
 * (sepax_broadphase_stats_get). */
#define BP_SHAPE_ARRAYS(X) X(sid) X(lox) X(loy) X(hix) X(hiy) X(cat) X(mask) X(key) X(ubox)

static inline size_t sepax_bp_shape_bytes(const sepax_broadphase *bp) {
    size_t bytes = 0;
#define BP_COUNT_BYTES(field) bytes += sizeof *bp->field;
    BP_SHAPE_ARRAYS(BP_COUNT_BYTES)
#undef BP_COUNT_BYTES
    return bytes;
}

/* Where the piece of run begin .. end-1 that starts at begin ends: at most BP_PIECE positions,
 * what one range test may write. */
static inline uint32_t sepax_bp_piece_end(uint32_t begin, uint32_t end) {
    return end - begin < BP_PIECE ? end : begin + BP_PIECE;
}

/* Build the grid over the store's boxes, lowered by max(margin, 0) (finite
 * margin, cell_size >= 0 checked by the caller). SEPAX_OK or SEPAX_ERR_NOMEM. */
sepax_status sepax_grid_build(sepax_broadphase *bp, const sepax_shapes *s, float margin,
                              float cell_size);

static inline int sepax_filters_meet(sepax_filter a, sepax_filter b) {
    return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

/* floor(q) clamped to 0 .. last (NaN gives 0), without branches: the one rule for a
 * coordinate's cell, shared by the build's keys and the queries (the keys and the cells a
 * query visits must agree on every input). */
static inline uint32_t sepax_clamp_cell(double q, double last) {
    q = q > 0.0 ? q : 0.0;
    q = q < last ? q : last;
    return (uint32_t)(int32_t)q;
}

/* The cell of a lower corner, row * nx + col (the kernel's grid_cells, lane by lane). */
static inline uint32_t sepax_grid_cell(float lx, float ly, const bp_geometry *g) {
    uint32_t col = sepax_clamp_cell(((double)lx - g->ox) * g->inv, g->lastx);
    uint32_t row = sepax_clamp_cell(((double)ly - g->oy) * g->inv, g->lasty);
    return row * g->nx + col;
}

/* The band of the large list a lower y falls in (see band_start). */
static inline uint32_t sepax_band_of(const sepax_broadphase *bp, double y) {
    return sepax_clamp_cell((y - bp->band_y0) * bp->band_inv, (double)(bp->nbands - 1));
}

/* The clamped column and row of a coordinate. */
uint32_t sepax_grid_col(const sepax_broadphase *bp, double x);
uint32_t sepax_grid_row(const sepax_broadphase *bp, double y);

/* The cells where a small box overlapping box lx, ly, hx, hy can be keyed: from the cell
 * before the lower corner's (a box keyed there reaches one cell on) to the upper corner's,
 * columns x0 .. x1 and rows y0 .. y1, clamped. */
typedef struct bp_span {
    uint32_t x0, x1, y0, y1;
} bp_span;
bp_span sepax_grid_span(const sepax_broadphase *bp, float lx, float ly, float hx, float hy);

/* How far the grid grows a box on each side beyond the margin: 2^-20 of its coordinates'
 * size, so a pair the narrowphase calls touching, within its rounding, is always a
 * candidate; plus 2^-62, for shapes so small near the origin that the narrowphase's
 * squared distances underflow (to 0 below 2^-75 apart, or 2^-63 under a caller's
 * flush-to-zero) and its fallback axis calls boxes that far apart touching. */
static inline float sepax_grid_slack(float lx, float ly, float hx, float hy) {
    return (fabsf(lx) + fabsf(hx) + fabsf(ly) + fabsf(hy)) * 0x1p-20f + 0x1p-62f;
}

/* The boxes in sorted order, for the kernel's box_run. */
static inline sepax_box_soa sepax_grid_soa(const sepax_broadphase *bp) {
    sepax_box_soa soa = {bp->lox, bp->loy, bp->hix, bp->hiy, bp->cat, bp->mask, bp->sid};
    return soa;
}

/* count items on the scheduler; none, not a call with count 0, when there are none (a
 * caller's job system may take an empty range for a bug: sepax.h promises it none) */
static inline void sepax_bp_run(const sepax_broadphase *bp, sepax_task_fn *fn, uint32_t count,
                                void *ctx) {
    if (count) bp->sched.parallel_for(fn, count, ctx, bp->sched.user);
}

/* A per-shape step of a frame over `shapes` shapes: on the scheduler, or on the calling
 * thread (worker 0) when there are too few shapes to pay for waking the workers. */
static inline void sepax_bp_for_shapes(const sepax_broadphase *bp, uint32_t shapes,
                                       sepax_task_fn *fn, uint32_t count, void *ctx) {
    if (shapes >= bp->min_parallel)
        sepax_bp_run(bp, fn, count, ctx);
    else if (count)
        fn(0, count, 0, ctx);
}

/* Scratch that is rebuilt before every use: the old contents are dropped. */
int sepax_bp_reserve(sepax_broadphase *bp, void **p, size_t *cap, size_t need, size_t elem);

/* Bytes of one grid-build task's record (grid.c), for sepax_broadphase_stats. */
size_t sepax_bp_part_bytes(void);

/* The built-in scheduler: threads - 1 helper threads and the caller. */
sepax_pool *sepax_pool_create(uint32_t threads, const sepax_allocator *mem);
/* Bytes a pool holds from its allocator (one block, whatever the thread count). */
size_t sepax_pool_bytes(void);
void sepax_pool_destroy(sepax_pool *pool, const sepax_allocator *mem);
void sepax_pool_parallel_for(sepax_task_fn *fn, uint32_t count, void *ctx, void *user);
/* The frame is over: helpers sleep now rather than spin for the next step (NULL: nothing). */
void sepax_pool_rest(sepax_pool *pool);

#endif
