/* The whole frame in one call: update, grid, pairing, narrowphase, results.
 * Work is cut into chunks of sorted positions that do not depend on the
 * thread count; each chunk writes its own results, and the results are joined
 * in chunk order, so every scheduler and thread count gives the same bits in
 * the same order. Memory grows only on the calling thread: a chunk whose
 * results outgrow its arrays keeps counting, and runs again once they are
 * grown. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "aliasing.h"
#include "broadphase.h"
#include "clock.h"
#include "misaligned.h"

static void serial_for(sepax_task_fn *fn, uint32_t count, void *ctx, void *user) {
    (void)user;
    if (count) fn(0, count, 0, ctx);
}

/* The fewest shapes of a dense frame that prefetches each shape of a cell's neighbourhood once
 * (pair_self) rather than each candidate's: the update's own streaming threshold
 * (SEPAX_STREAM_SHAPES), past which every record was written around the caches and the pairs
 * read them from memory. Below it they are in the caches, where the extra pass only
 * costs (particles 10k, six alternations: the pairing 0.428-0.460 ms a frame against
 * 0.412-0.417 in four, 0.474 and 0.614 in the others). */
#define FETCH_CELLS_SHAPES SEPAX_STREAM_SHAPES

sepax_broadphase *sepax_broadphase_create(const sepax_broadphase_config *config) {
    sepax_broadphase_config cfg = {1, NULL, NULL, 0};
    /* each struct is read through its pointer: misaligned, refused like a bad field */
    if (MISALIGNED(config, sepax_broadphase_config)) return NULL;
    if (config) cfg = *config;
    sepax_allocator mem = sepax_libc_allocator();
    if (MISALIGNED(cfg.allocator, sepax_allocator) || MISALIGNED(cfg.scheduler, sepax_scheduler))
        return NULL;
    if (cfg.allocator) {
        if (!cfg.allocator->alloc || !cfg.allocator->free) return NULL;
        mem = *cfg.allocator;
    }
    if (cfg.scheduler) {
        if (!cfg.scheduler->parallel_for || cfg.scheduler->workers == 0 ||
            cfg.scheduler->workers > SEPAX_MAX_WORKERS)
            return NULL;
    } else if (cfg.threads > SEPAX_MAX_WORKERS) {
        return NULL;
    }
    sepax_broadphase *bp = mem.alloc(sizeof *bp, 64, mem.ctx);
    if (!bp) return NULL;
    memset(bp, 0, sizeof *bp);
    bp->mem = mem;
    bp->min_parallel =
        cfg.min_parallel_shapes ? cfg.min_parallel_shapes : SEPAX_MIN_PARALLEL_SHAPES;
    bp->band_crowd = BP_BAND_CROWD;
    bp->fetch_cells_min = FETCH_CELLS_SHAPES;
    if (cfg.scheduler) {
        bp->sched = *cfg.scheduler;
    } else if (cfg.threads > 1) {
        bp->pool = sepax_pool_create(cfg.threads, &mem);
        if (!bp->pool) {
            mem.free(bp, mem.ctx);
            return NULL;
        }
        bp->sched = (sepax_scheduler){sepax_pool_parallel_for, cfg.threads, bp->pool};
    } else {
        bp->sched = (sepax_scheduler){serial_for, 1, NULL};
    }
    bp->workers = mem.alloc(bp->sched.workers * sizeof *bp->workers, 64, mem.ctx);
    if (!bp->workers) {
        sepax_broadphase_destroy(bp);
        return NULL;
    }
    return bp;
}

static void free_chunk_arrays(sepax_broadphase *bp, bp_chunk *c) {
    void *arrays[3] = {c->pairs, c->hits, c->mans};
    for (int i = 0; i < 3; i++)
        if (arrays[i]) bp->mem.free(arrays[i], bp->mem.ctx);
    c->pairs = NULL;
    c->hits = NULL;
    c->mans = NULL;
    c->cap = 0;
}

void sepax_broadphase_destroy(sepax_broadphase *bp) {
    if (!bp) return;
    sepax_allocator mem = bp->mem;
    if (bp->pool) sepax_pool_destroy(bp->pool, &mem);
    for (size_t i = 0; i < bp->cap_chunks; i++) free_chunk_arrays(bp, &bp->chunks[i]);
    void *arrays[] = {bp->workers, bp->start,  bp->sid,  bp->lox,     bp->loy,   bp->hix,
                      bp->hiy,     bp->cat,    bp->mask, bp->key,     bp->ubox,  bp->parts,
                      bp->tasks,   bp->chunks, bp->redo, bp->sort_at, bp->marks, bp->marked};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (arrays[i]) mem.free(arrays[i], mem.ctx);
    mem.free(bp, mem.ctx);
}

sepax_status sepax_broadphase_trim(sepax_broadphase *bp) {
    if (!bp) return SEPAX_ERR_NULL;
    /* what the frames' results grew: each chunk keeps the room of its largest frame */
    for (size_t i = 0; i < bp->cap_chunks; i++) free_chunk_arrays(bp, &bp->chunks[i]);
    void **arrays[] = {(void **)&bp->redo, (void **)&bp->marks, (void **)&bp->marked};
    size_t *caps[] = {&bp->cap_redo, &bp->cap_marks, &bp->cap_marked};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        if (*arrays[i]) bp->mem.free(*arrays[i], bp->mem.ctx);
        *arrays[i] = NULL;
        *caps[i] = 0;
    }
    /* the workers' rows of the marks pointed into them; a lazy frame sets them again */
    for (uint32_t w = 0; w < bp->sched.workers; w++) bp->workers[w].mark = NULL;
    return SEPAX_OK;
}

/* ---- one frame ------------------------------------------------------------ */

/* The fewest shapes whose records a sparse frame writes around the caches (the update's
 * SEPAX_WRITE_STREAM): 640 KB of records and 2.7 MB of store, past a core's L2 cache. */
#define SPARSE_STREAM_SHAPES 4096u

typedef struct frame_ctx {
    sepax_broadphase *bp;
    sepax_shapes *store;
    const sepax_kernel *k;
    int test; /* a sepax_test, or TEST_MARK */
    float margin;
    int write;             /* what the update writes (SEPAX_WRITE_*) */
    const uint32_t *items; /* chunk of each item (a redo list), or NULL: item i is chunk i */
    int spread;            /* the pairing on the scheduler (run_pairs) */
    int fetch_cells;       /* pair_self prefetches its cells' shapes, not its candidates' */
} frame_ctx;

static void update_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    const frame_ctx *f = ctx;
    for (uint32_t i = begin; i < end; i++)
        f->k->update(f->store, i * BP_UPDATE_BLOCKS, BP_UPDATE_BLOCKS, f->write);
}

/* The poses a frame is given, for shapes first .. end-1 (poses[0] for shape first), cut as
 * the update is: task i holds the shapes of [i, i + 1) * POSE_TASK_SHAPES from the share that
 * holds `first`, clipped to the range, so that no two tasks write one block of the store's
 * poses. Every task checks its share before any task stores one (all or nothing: a flag any
 * task may raise), then each stores its share, a pass before the update's. Storing each
 * task's poses just before its update read them was slower, on one thread slower than the
 * serial sepax_shapes_set_poses (docs/performance.md). */
typedef struct poses_ctx {
    sepax_shapes *store;
    const sepax_kernel *k;
    const sepax_pose *poses;
    uint32_t first, end, base; /* base: the first task's share's first shape */
    _Atomic int bad;
} poses_ctx;

enum { POSE_TASK_SHAPES = BP_UPDATE_BLOCKS * SEPAX_BLOCK_LANES };

static uint32_t pose_tasks(const poses_ctx *c) {
    return (uint32_t)(((size_t)c->end - c->base + POSE_TASK_SHAPES - 1) / POSE_TASK_SHAPES);
}

/* task i's shapes: from *at, how many */
static uint32_t task_shapes(const poses_ctx *c, uint32_t task, uint32_t *at) {
    uint32_t lo = c->base + task * POSE_TASK_SHAPES,
             hi = c->end - lo < POSE_TASK_SHAPES ? c->end : lo + POSE_TASK_SHAPES;
    lo = lo > c->first ? lo : c->first;
    *at = lo;
    return hi - lo;
}

static void check_poses_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    poses_ctx *c = ctx;
    for (uint32_t i = begin; i < end; i++) {
        uint32_t at, n = task_shapes(c, i, &at);
        if (!c->k->poses_valid(c->poses + (at - c->first), n))
            atomic_store_explicit(&c->bad, 1, memory_order_relaxed);
    }
}

static void store_poses_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    poses_ctx *c = ctx;
    for (uint32_t i = begin; i < end; i++) {
        uint32_t at, n = task_shapes(c, i, &at);
        sepax_poses_put(c->store, c->k, at, n, c->poses + (at - c->first));
    }
}

/* A lazy frame's pairing before the test: no results, only each candidate's two blocks
 * marked in the worker's row (so no two threads write one byte). */
enum { TEST_MARK = -1 };

/* Run the test on a worker's batch and append what passes to the chunk. */
static void flush(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c) {
    if (m == 0) return;
    c->candidates += m;
    size_t n = c->count, cap = c->cap;
    switch (f->test) {
    case TEST_MARK:
        for (size_t i = 0; i < m; i++) {
            w->mark[sepax_id_index(w->cand[i].a) / SEPAX_BLOCK_LANES] = 1;
            w->mark[sepax_id_index(w->cand[i].b) / SEPAX_BLOCK_LANES] = 1;
        }
        return;
    case SEPAX_TEST_AABB:
        for (size_t i = 0; i < m; i++, n++)
            if (n < cap) c->pairs[n] = w->cand[i];
        break;
    case SEPAX_TEST_OVERLAP:
        f->k->overlap(f->store, w->cand, m, f->margin, w->flag, w->work);
        if (cap - (n < cap ? n : cap) >= m) { /* room for all: no test per pair */
            sepax_pair *out = c->pairs;
            for (size_t i = 0; i < m; i++) {
                out[n] = w->cand[i];
                n += w->flag[i];
            }
            break;
        }
        for (size_t i = 0; i < m; i++) {
            if (n < cap) c->pairs[n] = w->cand[i];
            n += w->flag[i];
        }
        break;
    case SEPAX_TEST_COLLIDE:
        f->k->collide(f->store, w->cand, m, f->margin, w->hit, NULL, w->work);
        for (size_t i = 0; i < m; i++) {
            if (n < cap) {
                c->pairs[n] = w->cand[i];
                c->hits[n] = w->hit[i];
            }
            n += w->hit[i].hit != 0;
        }
        break;
    default: /* SEPAX_TEST_MANIFOLD */
        f->k->collide(f->store, w->cand, m, f->margin, w->hit, w->axis, w->work);
        f->k->contacts(f->store, w->cand, m, w->hit, w->axis, f->margin, w->man, w->work, 0);
        for (size_t i = 0; i < m; i++) {
            if (n < cap) {
                c->pairs[n] = w->cand[i];
                c->mans[n] = w->man[i];
            }
            n += w->man[i].count != 0;
        }
        break;
    }
    c->count = n;
}

/* One owner of pairs: its box and filter as a probe, its index and id. */
typedef struct owner {
    sepax_box_probe probe;
    uint32_t index, id;
} owner;

static owner owner_at(const sepax_broadphase *bp, uint32_t p) {
    uint32_t id = bp->sid[p];
    owner o = {{bp->lox[p], bp->loy[p], bp->hix[p], bp->hiy[p], bp->cat[p], bp->mask[p], 1, 0},
               sepax_id_index(id),
               id};
    return o;
}

/* The narrowphase reads shape b's record a batch later: in grid order, b's index is anywhere
 * in the store, so the loads start now (all three lines: one or two of them, or a circle's
 * disc alone, left the narrowphase slower). */
static inline void prefetch_shape(const sepax_shapes *store, uint32_t b) {
    const char *rec = (const char *)&store->rec[b];
    __builtin_prefetch(rec);
    __builtin_prefetch(rec + 64);
    __builtin_prefetch(rec + 128);
    __builtin_prefetch(&store->disc[b]);
}

/* The pair of ids a (index ia) and b (index ib), the lower index first, whichever shape owns
 * it, without a branch (in a dense frame the order is a coin toss). */
static inline sepax_pair ordered_pair(uint32_t a, uint32_t ia, uint32_t b, uint32_t ib) {
    /* both ids in one word, its halves swapped by a rotation when b comes first: a select
     * the compiler cannot turn into a branch, in a handful of scalar instructions */
    uint64_t both = (uint64_t)a | (uint64_t)b << 32;
    unsigned turn = (unsigned)(ia > ib) << 5;
    both = (both << turn) | (both >> ((64u - turn) & 63u));
    return (sepax_pair){(uint32_t)both, (uint32_t)(both >> 32)};
}

/* Prefetch the shapes at positions *done .. upto-1 and move *done to upto (if it is past): the
 * shapes of pair_self's cells, each once. */
static inline void prefetch_positions(const frame_ctx *f, uint32_t *done, uint32_t upto) {
    /* AABB or the mark pass: no narrowphase; a sparse frame: take_owned's, candidate by
     * candidate */
    if (f->test <= SEPAX_TEST_AABB || !f->fetch_cells) return;
    for (uint32_t p = *done; p < upto; p++) prefetch_shape(f->store, sepax_id_index(f->bp->sid[p]));
    *done = upto > *done ? upto : *done;
}

/* Pair an owner with the `got` positions at pos, through the worker's batch. */
static size_t take_at(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, const owner *o,
                      const uint32_t *pos, size_t got) {
    const sepax_broadphase *bp = f->bp;
    for (size_t i = 0; i < got; i++) {
        uint32_t idb = bp->sid[pos[i]], b = sepax_id_index(idb);
        if (f->test > SEPAX_TEST_AABB)
            prefetch_shape(f->store, b); /* not AABB, not the mark pass */
        w->cand[m + i] = ordered_pair(o->id, o->index, idb, b);
    }
    m += got;
    if (m >= BP_BATCH) {
        flush(f, w, m, c);
        m = 0;
    }
    return m;
}

/* Pair the `n` shape ids at ids each with its owner's id at own (a cell test's output),
 * through the worker's batch, in slices that fit it: one loop over the candidates, where
 * owner by owner a call and a branch per owner were a third of the pairing's time. */
static size_t take_owned(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c,
                         const uint32_t *ids, const uint32_t *own, size_t n) {
    const sepax_shapes *store = f->store;
    /* not AABB, not the mark pass, not a dense frame (pair_self's prefetch_positions) */
    const int prefetch = f->test > SEPAX_TEST_AABB && !f->fetch_cells;
    for (size_t j = 0; j < n;) {
        size_t got = n - j < BP_BATCH + BP_PIECE - m ? n - j : BP_BATCH + BP_PIECE - m;
        if (prefetch) {
            for (size_t i = 0; i < got; i++) {
                uint32_t ida = own[j + i], idb = ids[j + i];
                uint32_t b = sepax_id_index(idb);
                prefetch_shape(store, b);
                w->cand[m + i] = ordered_pair(ida, sepax_id_index(ida), idb, b);
            }
        } else {
            /* selects the compiler makes vector compares and blends of: nothing here but
             * the pair's order */
            const uint32_t *pa = own + j, *pb = ids + j;
            sepax_pair *out = w->cand + m;
            for (size_t i = 0; i < got; i++) {
                uint32_t ida = pa[i], idb = pb[i];
                int turn = sepax_id_index(ida) > sepax_id_index(idb);
                out[i].a = turn ? idb : ida;
                out[i].b = turn ? ida : idb;
            }
        }
        m += got;
        j += got;
        if (m >= BP_BATCH) {
            flush(f, w, m, c);
            m = 0;
        }
    }
    return m;
}

/* Pair an owner with the positions of runs runs[2r] .. runs[2r + 1] - 1 (in order) that
 * pass the box and filter test: in one range test when they fit a piece (a dense grid's
 * runs are a few boxes each), else run by run, piece by piece. */
static size_t pair_runs(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, const owner *o,
                        const uint32_t *runs, uint32_t nruns) {
    sepax_box_soa soa = sepax_grid_soa(f->bp);
    uint64_t total = 0;
    for (uint32_t r = 0; r < nruns; r++) total += runs[2 * r + 1] - runs[2 * r];
    if (total <= BP_PIECE) {
        if (total == 0) return m;
        return take_at(f, w, m, c, o, w->pos, f->k->box_run(&soa, runs, nruns, &o->probe, w->pos));
    }
    for (uint32_t r = 0; r < nruns; r++) {
        for (uint32_t begin = runs[2 * r], end = runs[2 * r + 1]; begin < end;) {
            uint32_t piece[2] = {begin, sepax_bp_piece_end(begin, end)};
            m = take_at(f, w, m, c, o, w->pos, f->k->box_run(&soa, piece, 1, &o->probe, w->pos));
            begin = piece[1];
        }
    }
    return m;
}

static size_t pair_run(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, const owner *o,
                       uint32_t begin, uint32_t end) {
    uint32_t run[2] = {begin, end};
    return pair_runs(f, w, m, c, o, run, 1);
}

/* Columns x0 .. x1 of rows y0 .. y1 of sub-grid `group`, a run per row (rows a few at a
 * time in one range test). */
static size_t pair_cells(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, const owner *o,
                         uint32_t group, uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1) {
    const sepax_broadphase *bp = f->bp;
    const uint32_t *start = bp->start + (size_t)group * bp->ncells;
    enum { ROWS = 4 };
    uint32_t runs[2 * ROWS], nruns = 0;
    for (uint32_t y = y0; y <= y1; y++) {
        runs[2 * nruns] = start[y * bp->nx + x0];
        runs[2 * nruns + 1] = start[y * bp->nx + x1 + 1];
        if (++nruns == ROWS || y == y1) {
            m = pair_runs(f, w, m, c, o, runs, nruns);
            nruns = 0;
        }
    }
    return m;
}

/* Where a run of small owners stands: cell `key` (group * ncells + cell) holds position p,
 * at column cx and row cy. Owners come in sorted order, so the cell only moves on; finding it
 * from the owner's key would read key[] in shape order (anywhere) and divide twice. */
typedef struct cursor {
    uint32_t key, cx, cy;
} cursor;

static cursor cursor_at(const sepax_broadphase *bp, uint32_t p) {
    uint32_t lo = 0, hi = bp->ngroups * bp->ncells; /* the last key with start[key] <= p */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (bp->start[mid] <= p)
            lo = mid;
        else
            hi = mid;
    }
    uint32_t cell = lo % bp->ncells;
    cursor at = {lo, cell % bp->nx, cell / bp->nx};
    return at;
}

static void cursor_move(const sepax_broadphase *bp, cursor *at, uint32_t p) {
    while (bp->start[at->key + 1] <= p) {
        at->key++;
        if (++at->cx == bp->nx) {
            at->cx = 0;
            if (++at->cy == bp->ny) at->cy = 0;
        }
    }
}

/* Small owners begin .. end-1 and their own group, a cell at a time: each owner takes the
 * rest of its cell and the next cell of its row (one run), and the three cells below-left ..
 * below-right in the next row (another run): every neighbour once. The owners of a cell share
 * the first run's end and the second run, so they go through one cell test together (box_cell),
 * whose loops then run the same trip counts for each: per owner, with counts that changed from
 * owner to owner, those loop branches were mispredicted (particles 100k: 6.0 -> 5.3 ms). */
static size_t pair_self(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, uint32_t begin,
                        uint32_t end, uint32_t group) {
    const sepax_broadphase *bp = f->bp;
    const uint32_t *start = bp->start + (size_t)group * bp->ncells;
    const sepax_box_soa soa = sepax_grid_soa(bp);
    cursor at = cursor_at(bp, begin);
    size_t nt = 0; /* cell tests' output gathered in the tile, paired a few cells at a time */
    uint32_t fetched = begin; /* the shapes at positions begin .. fetched-1 are prefetched */
    for (uint32_t p = begin; p < end;) {
        cursor_move(bp, &at, p);
        uint32_t key = at.key, cx = at.cx, cy = at.cy;
        uint32_t last = bp->start[key + 1] < end ? bp->start[key + 1] : end;
        uint32_t runs[4] = {0, bp->start[cx + 1 < bp->nx ? key + 2 : key + 1], 0, 0};
        if (cy + 1 < bp->ny) {
            uint32_t lo = cx ? cx - 1 : 0, hi = cx + 1 < bp->nx ? cx + 1 : cx;
            runs[2] = start[(cy + 1) * bp->nx + lo];
            runs[3] = start[(cy + 1) * bp->nx + hi + 1];
        }
        /* the cell's neighbours lie past its owners, up to the end of the run below (or of the
         * first run): in a dense frame their shapes, and so every owner's, are prefetched
         * once, a window at a time, where a prefetch per candidate asked for each shape about
         * 3.5 times (particles 100k) and stalled there */
        prefetch_positions(f, &fetched, runs[3] > runs[1] ? runs[3] : runs[1]);
        uint32_t total = (runs[1] - p) + (runs[3] - runs[2]);
        if (total > BP_PIECE) { /* a crowded cell: owner by owner, piece by piece */
            m = take_owned(f, w, m, c, w->tile, w->tile_own, nt); /* in order */
            nt = 0;
            for (; p < last; p++) {
                owner o = owner_at(bp, p);
                runs[0] = p + 1;
                m = pair_runs(f, w, m, c, &o, runs, 2);
            }
            continue;
        }
        /* the owners of the cell a few at a time, in one cell test each, each owner giving at
         * most `total` positions (and a test writing a vector past its last, BP_PAD) */
        uint32_t per = (uint64_t)total * (last - p) <= BP_TILE ? last - p : BP_TILE / total;
        while (p < last) {
            uint32_t owners = last - p < per ? last - p : per;
            if (nt + (size_t)owners * total > BP_TILE) {
                m = take_owned(f, w, m, c, w->tile, w->tile_own, nt);
                nt = 0;
            }
            runs[0] = p;
            /* a group pairs with itself only when its one filter meets itself: the
             * filter test is needed only when groups are off */
            nt +=
                f->k->box_cell(&soa, p, owners, runs, !bp->grouped, w->tile + nt, w->tile_own + nt);
            p += owners;
        }
    }
    return take_owned(f, w, m, c, w->tile, w->tile_own, nt);
}

/* A small owner and another group: the 3 x 3 cells around its own (only the smaller group
 * of the two owns, so each pair comes once). */
static size_t pair_cross(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, uint32_t p,
                         const cursor *at, uint32_t target) {
    const sepax_broadphase *bp = f->bp;
    owner o = owner_at(bp, p);
    uint32_t cx = at->cx, cy = at->cy;
    uint32_t x0 = cx ? cx - 1 : 0, x1 = cx + 1 < bp->nx ? cx + 1 : cx;
    uint32_t y0 = cy ? cy - 1 : 0, y1 = cy + 1 < bp->ny ? cy + 1 : cy;
    return pair_cells(f, w, m, c, &o, target, x0, x1, y0, y1);
}

/* The first of positions lo .. hi-1 (in the order of their lower x) whose lower x is past
 * `end`, or hi. */
static uint32_t first_past(const sepax_broadphase *bp, uint32_t lo, uint32_t hi, float end) {
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (bp->lox[mid] <= end)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first of positions lo .. hi-1 (in the order of their lower x) whose lower x is at or
 * past `from`, or hi. */
static uint32_t first_from(const sepax_broadphase *bp, uint32_t lo, uint32_t hi, double from) {
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((double)bp->lox[mid] < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A large owner: in every group it meets, every cell a small box overlapping its own could
 * be keyed in (from a cell before its lower corner's to its upper corner's); then the large
 * shapes it owns the pairs with (grid.c's band_large has the list's order):
 * - a medium owner in band b: the shapes after it in band b, and those of band b + 1 whose
 *   lower x is within 1.25 t before its own, in both up to the first whose lower x is past
 *   its upper x;
 * - a huge owner: the huge shapes after it up to that cut, then in every band from that of
 *   its lower y less 1.25 t to that of its upper y, the medium shapes within the same window
 *   of x.
 * Why every pair is found, once. A range test passes only when each box starts at or before
 * the other's end, on both axes. A medium box's width and height are below t / (1 - 2^-24)
 * (its extent, the larger of the two rounded down by at most that), so a medium box q that
 * passes with a box p starts within 1.0000001 t before p's start, on both axes. Bands are at
 * least 2t high, and the band of a lower y is monotone in it, so two medium boxes whose bands
 * are two or more apart start more than 2t (less the band's rounding, about 2^-52 of it) apart
 * in y and never pass; a medium pair is owned by the earlier of the two in the list (the
 * lower band, or in one band the one before by lower x, ties by position), which reaches the
 * other within its window. The huge own their pairs with the medium and with the huge after
 * them; the medium never scan the huge. The windows' lower bound is in double: t is a power
 * of two and a box's slack (2^-20 of its coordinates) keeps |lower x| under 2^20 t, so the
 * 0.25 t to spare is not rounded away. */
static size_t pair_large(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, uint32_t p) {
    const sepax_broadphase *bp = f->bp;
    owner o = owner_at(bp, p);
    if (bp->nsmall) {
        bp_span sp = sepax_grid_span(bp, bp->lox[p], bp->loy[p], bp->hix[p], bp->hiy[p]);
        sepax_filter lf = {bp->cat[p], bp->mask[p]};
        for (uint32_t g = 0; g < bp->ngroups; g++)
            if (!bp->grouped || sepax_filters_meet(lf, bp->group_filter[g]))
                m = pair_cells(f, w, m, c, &o, g, sp.x0, sp.x1, sp.y0, sp.y1);
    }
    const uint32_t nb = bp->nbands, *band = bp->band_start;
    const float end = bp->hix[p];
    const double from = (double)bp->lox[p] - 1.25 * (double)bp->band_t;
    enum { RUNS = 4 };
    uint32_t runs[2 * RUNS], nruns = 0;
    if (nb == 1) { /* not in bands: the list by lower x (one run, which gcc inlines) */
        uint32_t cut = first_past(bp, p + 1, bp->n, end);
        c->large_scanned += cut - (p + 1);
        return pair_run(f, w, m, c, &o, p + 1, cut);
    }
    if (p < band[nb]) { /* medium: its band lo (band[lo] <= p < band[lo + 1]) */
        uint32_t lo = sepax_band_of(bp, (double)bp->loy[p]);
        runs[0] = p + 1;
        runs[1] = first_past(bp, p + 1, band[lo + 1], end);
        nruns = 1;
        if (lo + 1 < nb) {
            runs[2] = first_from(bp, band[lo + 1], band[lo + 2], from);
            runs[3] = first_past(bp, runs[2], band[lo + 2], end);
            nruns = 2;
        }
    } else { /* huge */
        runs[0] = p + 1;
        runs[1] = first_past(bp, p + 1, bp->n, end);
        nruns = 1;
        uint32_t b0 = sepax_band_of(bp, (double)bp->loy[p] - 1.25 * (double)bp->band_t);
        uint32_t b1 = sepax_band_of(bp, (double)bp->hiy[p]);
        for (uint32_t b = b0; b <= b1 && band[nb] > band[0]; b++) {
            uint32_t r0 = first_from(bp, band[b], band[b + 1], from);
            runs[2 * nruns] = r0;
            runs[2 * nruns + 1] = first_past(bp, r0, band[b + 1], end);
            if (++nruns == RUNS) {
                for (uint32_t r = 0; r < nruns; r++)
                    c->large_scanned += runs[2 * r + 1] - runs[2 * r];
                m = pair_runs(f, w, m, c, &o, runs, nruns);
                nruns = 0;
            }
        }
    }
    for (uint32_t r = 0; r < nruns; r++) c->large_scanned += runs[2 * r + 1] - runs[2 * r];
    return nruns ? pair_runs(f, w, m, c, &o, runs, nruns) : m;
}

static void pair_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    const frame_ctx *f = ctx;
    sepax_broadphase *bp = f->bp;
    bp_worker *w = &bp->workers[worker];
    for (uint32_t it = begin; it < end; it++) {
        uint32_t ci = f->items ? f->items[it] : it;
        bp_chunk *c = &bp->chunks[ci];
        const bp_task *t = &bp->tasks[ci];
        c->count = 0;
        c->candidates = 0;
        c->large_scanned = 0;
        size_t m = 0;
        if (t->kind == BP_LARGE) {
            for (uint32_t p = t->begin; p < t->end; p++) m = pair_large(f, w, m, c, p);
        } else if (t->kind == BP_SELF) {
            m = pair_self(f, w, m, c, t->begin, t->end, t->target);
        } else {
            cursor at = cursor_at(bp, t->begin);
            for (uint32_t p = t->begin; p < t->end; p++) {
                cursor_move(bp, &at, p);
                m = pair_cross(f, w, m, c, p, &at, t->target);
            }
        }
        flush(f, w, m, c);
    }
}

/* Whether a frame's pairing goes to the scheduler, decided once a frame: in a frame of
 * min_parallel shapes or more (whose per-shape steps wake the workers anyway), or where the
 * last frame's candidate pairs, the pairing's work, were min_parallel / 2 or more; else it
 * runs on the calling thread. In a smaller frame the per-shape steps ran on the caller, so
 * the built-in pool's workers are asleep, and a sparse pairing is over before one wakes: on a
 * Zen 5, two threads against one, bullet-hell 10k (73 candidates) took 0.23-0.25 ms a frame
 * against 0.14, and 30k (229) 0.76 against 0.66; on the caller, the same as one thread. A
 * dense one gains: particles 10k (33,943) 1.14-1.36x in one hour's runs, 0.83x in another's;
 * 20k (68,896) 1.19-1.44x. */
static int spread_pairs(const sepax_broadphase *bp, const sepax_shapes *store) {
    return store->count >= bp->min_parallel || bp->candidates >= bp->min_parallel / 2;
}

static void run_pairs(frame_ctx *f, uint32_t count) {
    if (f->spread)
        sepax_bp_run(f->bp, pair_task, count, f);
    else if (count)
        pair_task(0, count, 0, f);
}

/* Cut owners begin .. end-1 into tasks of `per`; returns the new task count (tasks NULL:
 * only count). */
static uint32_t cut(bp_task *tasks, uint32_t nt, uint32_t kind, uint32_t target, uint32_t begin,
                    uint32_t end, uint32_t per) {
    for (uint32_t p = begin; p < end; p += per, nt++)
        if (tasks) tasks[nt] = (bp_task){kind, target, p, end - p < per ? end : p + per};
    return nt;
}

/* The frame's tasks, in an order that does not depend on the threads: each pair of groups
 * that meet (the smaller group owning), then the large shapes. */
static uint32_t plan(const sepax_broadphase *bp, bp_task *tasks) {
    uint32_t nt = 0;
    const uint32_t *start = bp->start;
    for (uint32_t g = 0; g < bp->ngroups; g++) {
        uint32_t g0 = start[(size_t)g * bp->ncells], g1 = start[(size_t)(g + 1) * bp->ncells];
        for (uint32_t h = g; h < bp->ngroups; h++) {
            if (!bp->meets[g][h]) continue;
            uint32_t h0 = start[(size_t)h * bp->ncells], h1 = start[(size_t)(h + 1) * bp->ncells];
            if (h == g)
                nt = cut(tasks, nt, BP_SELF, g, g0, g1, BP_CHUNK_SMALL);
            else if (h1 - h0 < g1 - g0)
                nt = cut(tasks, nt, BP_CROSS, g, h0, h1, BP_CHUNK_SMALL);
            else
                nt = cut(tasks, nt, BP_CROSS, h, g0, g1, BP_CHUNK_SMALL);
        }
    }
    return cut(tasks, nt, BP_LARGE, 0, bp->nsmall, bp->n, BP_CHUNK_LARGE);
}

/* Room for `need` results in a chunk (the arrays the test writes). */
static int grow_chunk(sepax_broadphase *bp, bp_chunk *c, size_t need, int test) {
    if (need <= c->cap) return 1;
    free_chunk_arrays(bp, c);
    size_t want = need + need / 2 + 64;
    if (want > SIZE_MAX / sizeof(sepax_manifold)) return 0;
    c->pairs = bp->mem.alloc(want * sizeof *c->pairs, 64, bp->mem.ctx);
    if (test == SEPAX_TEST_COLLIDE)
        c->hits = bp->mem.alloc(want * sizeof *c->hits, 64, bp->mem.ctx);
    if (test == SEPAX_TEST_MANIFOLD)
        c->mans = bp->mem.alloc(want * sizeof *c->mans, 64, bp->mem.ctx);
    if (!c->pairs || (test == SEPAX_TEST_COLLIDE && !c->hits) ||
        (test == SEPAX_TEST_MANIFOLD && !c->mans)) {
        free_chunk_arrays(bp, c);
        return 0;
    }
    c->cap = want;
    return 1;
}

/* What a frame writes: the result arrays its test fills and *count. */
static void frame_outputs(const sepax_frame_options *o, const sepax_contacts *out,
                          const size_t *count, sepax_span spans[4]) {
    size_t cap = out->capacity;
    spans[0] = sepax_span_of(out->pairs, cap, sizeof *out->pairs);
    spans[1] =
        sepax_span_of(o->test == SEPAX_TEST_COLLIDE ? out->hits : NULL, cap, sizeof *out->hits);
    spans[2] = sepax_span_of(o->test == SEPAX_TEST_MANIFOLD ? out->manifolds : NULL, cap,
                             sizeof *out->manifolds);
    spans[3] = sepax_span_of(count, 1, sizeof *count);
}

static sepax_status check_frame(const sepax_broadphase *bp, const sepax_shapes *store,
                                const sepax_frame_options *o, const sepax_contacts *out,
                                const size_t *count, float *margin) {
    if (!bp || !store || !o || !out || !count) return SEPAX_ERR_NULL;
    if (MISALIGNED(count, size_t) || MISALIGNED(o, sepax_frame_options) ||
        MISALIGNED(out, sepax_contacts))
        return SEPAX_ERR_MISALIGNED;
    if (o->test < SEPAX_TEST_AABB || o->test > SEPAX_TEST_MANIFOLD) return SEPAX_ERR_BAD_OPTION;
    if (o->update < SEPAX_UPDATE_NONE || o->update > SEPAX_UPDATE_LAZY) return SEPAX_ERR_BAD_OPTION;
    sepax_query_options q = {.margin = o->margin};
    sepax_status st = sepax_margin_of(&q, margin);
    if (st != SEPAX_OK) return st;
    if (!isfinite(o->cell_size)) return SEPAX_ERR_NONFINITE;
    if (o->cell_size < 0.0f || o->cell_size > SEPAX_COORD_LIMIT) return SEPAX_ERR_RANGE;
    if (out->capacity) {
        if (!out->pairs || (o->test == SEPAX_TEST_COLLIDE && !out->hits) ||
            (o->test == SEPAX_TEST_MANIFOLD && !out->manifolds))
            return SEPAX_ERR_NULL;
        if (MISALIGNED(out->pairs, sepax_pair) ||
            (o->test == SEPAX_TEST_COLLIDE && MISALIGNED(out->hits, sepax_hit)) ||
            (o->test == SEPAX_TEST_MANIFOLD && MISALIGNED(out->manifolds, sepax_manifold)))
            return SEPAX_ERR_MISALIGNED;
    }
    /* the options and the arrays' struct are read until the results are copied */
    sepax_span outs[4],
        ins[2] = {sepax_span_of(o, 1, sizeof *o), sepax_span_of(out, 1, sizeof *out)};
    frame_outputs(o, out, count, outs);
    if ((st = sepax_spans_apart(outs, 4, ins, 2)) != SEPAX_OK) return st;
    /* records a lazy frame left behind: only the bounds may be read */
    if (store->recs_stale && o->update == SEPAX_UPDATE_NONE && o->test != SEPAX_TEST_AABB)
        return SEPAX_ERR_STALE_WORLD;
    return SEPAX_OK;
}

/* The chunks' results to the caller's arrays, each at its own offset (set in chunk order):
 * a frame's last serial step, so spread over the workers too. */
typedef struct copy_ctx {
    const sepax_broadphase *bp;
    const sepax_contacts *out;
    int test;
} copy_ctx;

static void copy_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    const copy_ctx *cc = ctx;
    const sepax_contacts *out = cc->out;
    for (uint32_t i = begin; i < end; i++) {
        const bp_chunk *c = &cc->bp->chunks[i];
        if (!c->count) continue;
        memcpy(out->pairs + c->at, c->pairs, c->count * sizeof *c->pairs);
        if (cc->test == SEPAX_TEST_COLLIDE)
            memcpy(out->hits + c->at, c->hits, c->count * sizeof *c->hits);
        if (cc->test == SEPAX_TEST_MANIFOLD)
            memcpy(out->manifolds + c->at, c->mans, c->count * sizeof *c->mans);
    }
}

static uint32_t chunks_of(uint32_t n, uint32_t per) {
    return (uint32_t)(((size_t)n + per - 1) / per);
}

/* A lazy frame's records: the marked blocks, LAZY_BLOCKS of the list a task. */
#define LAZY_BLOCKS 64u

static void records_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    const frame_ctx *f = ctx;
    const sepax_broadphase *bp = f->bp;
    for (uint32_t i = begin; i < end; i++) {
        size_t j0 = (size_t)i * LAZY_BLOCKS, j1 = j0 + LAZY_BLOCKS;
        /* the list has LAZY_BLOCKS end marks after its last block: the last task stops there */
        for (size_t j = j0; j < j1 && bp->marked[j] != UINT32_MAX; j++)
            f->k->update(f->store, bp->marked[j], 1, SEPAX_WRITE_RECORDS);
    }
}

/* The records of every block a candidate pair reads, the pairing run once to mark them
 * (each worker its own row of marks, OR-ed here); 0 on running out of memory. */
static int lazy_records(sepax_broadphase *bp, frame_ctx *f, uint32_t nchunks) {
    uint32_t nblocks = chunks_of(f->store->count, SEPAX_BLOCK_LANES);
    /* no shapes, no records; and no marks to clear (a fresh broadphase has none at all:
     * memset of its NULL row, even of 0 bytes, is undefined; fuzz_scene found it) */
    if (nblocks == 0) return 1;
    uint32_t workers = bp->sched.workers;
    size_t stride = ((size_t)nblocks + 63) / 64 * 64;
    if (!sepax_bp_reserve(bp, (void **)&bp->marks, &bp->cap_marks, stride * workers, 1) ||
        !sepax_bp_reserve(bp, (void **)&bp->marked, &bp->cap_marked, (size_t)nblocks + LAZY_BLOCKS,
                          sizeof *bp->marked))
        return 0;
    memset(bp->marks, 0, stride * workers);
    for (uint32_t w = 0; w < workers; w++) bp->workers[w].mark = bp->marks + stride * w;
    int test = f->test;
    f->test = TEST_MARK;
    run_pairs(f, nchunks);
    f->test = test;
    /* eight blocks' marks a word: in a scene this path takes, most words are zero */
    size_t n = 0;
    for (uint32_t b0 = 0; b0 < nblocks; b0 += 8) {
        uint64_t any = 0;
        for (uint32_t w = 0; w < workers; w++) {
            uint64_t v; /* within the row: its stride is a multiple of 64 */
            memcpy(&v, bp->marks + stride * w + b0, sizeof v);
            any |= v;
        }
        if (!any) continue;
        for (uint32_t b = b0; b < b0 + 8 && b < nblocks; b++) {
            uint8_t one = 0;
            for (uint32_t w = 0; w < workers; w++) one |= bp->marks[stride * w + b];
            if (one) bp->marked[n++] = b;
        }
    }
    for (size_t j = n; j < n + LAZY_BLOCKS; j++) bp->marked[j] = UINT32_MAX; /* the end */
    uint32_t tasks = chunks_of((uint32_t)n, LAZY_BLOCKS);
    if (tasks) sepax_bp_for_shapes(bp, (uint32_t)(n * SEPAX_BLOCK_LANES), records_task, tasks, f);
    return 1;
}

static sepax_status find_contacts(sepax_broadphase *bp, sepax_shapes *store, uint32_t first,
                                  size_t pose_count, const sepax_pose *poses,
                                  const sepax_frame_options *options, const sepax_contacts *out,
                                  size_t *count) {
    float margin;
    sepax_status st = check_frame(bp, store, options, out, count, &margin);
    /* every error of sepax_find_contacts (the backend's too) before the poses' (sepax.h) */
    const sepax_kernel *k = NULL;
    if (st == SEPAX_OK) st = sepax_kernel_for_query(&k);
    if (st != SEPAX_OK) return st;
    /* then set_poses' checks in its order; no poses are read when there are none */
    if (first > store->count || pose_count > (size_t)(store->count - first))
        return SEPAX_ERR_BAD_ID;
    if (pose_count && !poses) return SEPAX_ERR_NULL;
    if (pose_count && MISALIGNED(poses, sepax_pose)) return SEPAX_ERR_MISALIGNED;
    sepax_span outs[4], in = sepax_span_of(pose_count ? poses : NULL, pose_count, sizeof *poses);
    frame_outputs(options, out, count, outs);
    if ((st = sepax_spans_apart(outs, 4, &in, 1)) != SEPAX_OK) return st;
    /* A lazy frame pairs twice. Where the last frame on this broadphase found more candidate
     * pairs than an eighth of the shapes, the second pairing costs more than the records it
     * spares (particles 100k: 18.8 ms a frame against 8.9), so every record is written as by
     * SEPAX_UPDATE_FRAME; the store is flagged the same either way, so what a caller may query
     * next does not depend on this choice. */
    int lazy = options->update == SEPAX_UPDATE_LAZY && bp->candidates <= store->count / 8;
    int write = options->update == SEPAX_UPDATE_ALL ? SEPAX_WRITE_ROWS
                : lazy                              ? SEPAX_WRITE_BOUNDS
                                                    : SEPAX_WRITE_RECORDS;
    /* A frame that writes every record for pairs that will read few of them (the last frame
     * found at most an eighth as many candidates as shapes: bullets apart) writes them around
     * the caches from SPARSE_STREAM_SHAPES on, as every update does past its own threshold:
     * otherwise each record's lines are read from memory before they are written, once the
     * frame's other work has pushed the store out of the caches. A dense frame keeps them in
     * the caches for its pairs (particles 10k: the pairing 0.44-0.46 -> 0.68-0.71 ms a frame
     * streamed). The same bits either way. */
    if (write == SEPAX_WRITE_RECORDS && store->count >= SPARSE_STREAM_SHAPES &&
        bp->candidates <= store->count / 8)
        write |= SEPAX_WRITE_STREAM;
    bp->streamed = (write & SEPAX_WRITE_STREAM) && options->update != SEPAX_UPDATE_NONE;
    /* A frame of FETCH_CELLS_SHAPES or more whose last found at least as many candidates as
     * shapes prefetches each shape of a cell's neighbourhood once (pair_self); a sparser one,
     * only its candidates' shapes, as most shapes have none (bullet-hell 100k: 770
     * candidates). */
    int fetch_cells = store->count >= bp->fetch_cells_min && bp->candidates >= store->count;
    bp->fetched_cells = fetch_cells && options->test != SEPAX_TEST_AABB;
    frame_ctx f = {
        bp, store, k, options->test, margin, write, NULL, spread_pairs(bp, store), fetch_cells};
    uint64_t t0 = sepax_clock_ns(), t1 = t0;
    uint32_t tasks = chunks_of(chunks_of(store->count, SEPAX_BLOCK_LANES), BP_UPDATE_BLOCKS);
    if (pose_count) {
        uint32_t end = first + (uint32_t)pose_count;
        poses_ctx c = {store, k, poses, first, end, first / POSE_TASK_SHAPES * POSE_TASK_SHAPES, 0};
        uint32_t ptasks = pose_tasks(&c);
        sepax_bp_for_shapes(bp, (uint32_t)pose_count, check_poses_task, ptasks, &c);
        if (atomic_load_explicit(&c.bad, memory_order_relaxed)) { /* as set_poses */
            st = sepax_poses_first_bad(poses, pose_count);
            if (st != SEPAX_OK) return st;
        }
        sepax_bp_for_shapes(bp, (uint32_t)pose_count, store_poses_task, ptasks, &c);
        t1 = sepax_clock_ns();
    }
    if (options->update != SEPAX_UPDATE_NONE) {
        if (store->count) sepax_bp_for_shapes(bp, store->count, update_task, tasks, &f);
        /* the pairs read the records; only the range queries read the rows (store.h) */
        store->rows_stale = write != SEPAX_WRITE_ROWS;
        /* until the pairs' records are written below, a failure leaves them stale too */
        store->recs_stale = options->update == SEPAX_UPDATE_LAZY;
        t1 = sepax_clock_ns();
    }
    bp->phase_ns[BP_PHASE_UPDATE] = t1 - t0;
    st = sepax_grid_build(bp, store, margin, options->cell_size);
    uint64_t t2 = sepax_clock_ns();
    bp->phase_ns[BP_PHASE_GRID] = t2 - t1;
    if (st != SEPAX_OK) return st;
    uint32_t nchunks = plan(bp, NULL);
    if (!sepax_bp_reserve(bp, (void **)&bp->tasks, &bp->cap_tasks, nchunks, sizeof *bp->tasks))
        return SEPAX_ERR_NOMEM;
    plan(bp, bp->tasks);
    if (nchunks > bp->cap_chunks) {
        size_t cap = bp->cap_chunks;
        bp_chunk *fresh = NULL;
        if (!sepax_bp_reserve(bp, (void **)&fresh, &cap, nchunks, sizeof *fresh))
            return SEPAX_ERR_NOMEM;
        memset(fresh, 0, cap * sizeof *fresh);
        if (bp->chunks) { /* keep the grown result arrays */
            memcpy(fresh, bp->chunks, bp->cap_chunks * sizeof *fresh);
            bp->mem.free(bp->chunks, bp->mem.ctx);
        }
        bp->chunks = fresh;
        bp->cap_chunks = cap;
    }
    if (!sepax_bp_reserve(bp, (void **)&bp->redo, &bp->cap_redo, nchunks, sizeof *bp->redo))
        return SEPAX_ERR_NOMEM;
    /* arrays for the test's results (a chunk that switched tests may lack one) */
    for (uint32_t i = 0; i < nchunks; i++) {
        bp_chunk *c = &bp->chunks[i];
        if ((options->test == SEPAX_TEST_COLLIDE && !c->hits) ||
            (options->test == SEPAX_TEST_MANIFOLD && !c->mans))
            free_chunk_arrays(bp, c);
    }
    uint64_t lazy_ns = 0; /* counted with the update */
    if (lazy && options->test != SEPAX_TEST_AABB) {
        uint64_t t = sepax_clock_ns();
        if (!lazy_records(bp, &f, nchunks)) return SEPAX_ERR_NOMEM;
        lazy_ns = sepax_clock_ns() - t;
        bp->phase_ns[BP_PHASE_UPDATE] += lazy_ns;
    }
    run_pairs(&f, nchunks);
    /* every chunk counted all its results, kept or not */
    size_t total = 0, candidates = 0, large_scanned = 0;
    for (uint32_t i = 0; i < nchunks; i++) {
        total += bp->chunks[i].count;
        candidates += bp->chunks[i].candidates;
        large_scanned += bp->chunks[i].large_scanned;
    }
    bp->candidates = candidates;
    bp->large_scanned = large_scanned;
    /* Results past the caller's room are never written, so the chunks are not grown for
     * them: a frame where every shape touches every other (10,000 stacked at one spawn point
     * make 5e7 pairs) would otherwise hold them all before refusing, gigabytes past the
     * memory the answer needs (test broadphase::refusal_for_room_grows_nothing). */
    if (total > out->capacity) {
        bp->results = total;
        *count = total;
        bp->phase_ns[BP_PHASE_PAIRS] = sepax_clock_ns() - t2 - lazy_ns;
        return SEPAX_ERR_CAPACITY;
    }
    uint32_t nredo = 0;
    for (uint32_t i = 0; i < nchunks; i++) {
        bp_chunk *c = &bp->chunks[i];
        if (c->count <= c->cap) continue;
        if (!grow_chunk(bp, c, c->count, options->test)) return SEPAX_ERR_NOMEM;
        bp->redo[nredo++] = i;
    }
    if (nredo) { /* the same chunks again, now with room: the same results */
        f.items = bp->redo;
        run_pairs(&f, nredo);
    }
    /* only now, with every result held: a refusal for memory above leaves *count as it was */
    bp->results = total;
    *count = total;
    uint64_t t3 = sepax_clock_ns();
    bp->phase_ns[BP_PHASE_PAIRS] = t3 - t2 - lazy_ns;
    size_t at = 0;
    for (uint32_t i = 0; i < nchunks; i++) {
        bp->chunks[i].at = at;
        at += bp->chunks[i].count;
    }
    copy_ctx cc = {bp, out, options->test};
    sepax_bp_for_shapes(bp, bp->n, copy_task, nchunks, &cc);
    bp->phase_ns[BP_PHASE_COPY] = sepax_clock_ns() - t3;
    return SEPAX_OK;
}

sepax_status sepax_find_contacts(sepax_broadphase *bp, sepax_shapes *store,
                                 const sepax_frame_options *options, const sepax_contacts *out,
                                 size_t *count) {
    if (bp) memset(bp->phase_ns, 0, sizeof bp->phase_ns);
    sepax_status st = find_contacts(bp, store, 0, 0, NULL, options, out, count);
    if (bp) sepax_pool_rest(bp->pool);
    return st;
}

sepax_status sepax_find_contacts_posed(sepax_broadphase *bp, sepax_shapes *store, uint32_t first,
                                       size_t pose_count, const sepax_pose *poses,
                                       const sepax_frame_options *options,
                                       const sepax_contacts *out, size_t *count) {
    if (bp) memset(bp->phase_ns, 0, sizeof bp->phase_ns);
    sepax_status st = find_contacts(bp, store, first, pose_count, poses, options, out, count);
    if (bp) sepax_pool_rest(bp->pool);
    return st;
}

sepax_status sepax_broadphase_build(sepax_broadphase *bp, const sepax_shapes *store,
                                    float cell_size) {
    if (bp) memset(bp->phase_ns, 0, sizeof bp->phase_ns);
    if (!bp || !store) return SEPAX_ERR_NULL;
    if (!isfinite(cell_size)) return SEPAX_ERR_NONFINITE;
    if (cell_size < 0.0f || cell_size > SEPAX_COORD_LIMIT) return SEPAX_ERR_RANGE;
    uint64_t t0 = sepax_clock_ns();
    sepax_status st = sepax_grid_build(bp, store, 0.0f, cell_size);
    bp->phase_ns[BP_PHASE_GRID] = sepax_clock_ns() - t0;
    sepax_pool_rest(bp->pool);
    return st;
}

sepax_status sepax_broadphase_stats_get(const sepax_broadphase *bp, sepax_broadphase_stats *out) {
    if (!bp || !out) return SEPAX_ERR_NULL;
    if (MISALIGNED(out, sepax_broadphase_stats)) return SEPAX_ERR_MISALIGNED;
    sepax_broadphase_stats s = {0};
    if (bp->built) {
        s.shapes = bp->n;
        s.large = bp->n - bp->nsmall;
        s.cells_x = bp->nx;
        s.cells_y = bp->ny;
        s.cell_size = bp->cell;
    }
    s.candidates = bp->candidates;
    s.results = bp->results;
    s.update_ns = bp->phase_ns[BP_PHASE_UPDATE];
    s.grid_ns = bp->phase_ns[BP_PHASE_GRID];
    s.pairs_ns = bp->phase_ns[BP_PHASE_PAIRS];
    s.copy_ns = bp->phase_ns[BP_PHASE_COPY];
    size_t bytes = sizeof *bp + bp->sched.workers * sizeof(bp_worker);
    bytes += bp->cap_shapes * sepax_bp_shape_bytes(bp) + bp->cap_cells * 4 +
             bp->cap_chunks * sizeof(bp_chunk);
    bytes += bp->cap_redo * sizeof(uint32_t) + bp->cap_tasks * sizeof(bp_task);
    bytes += bp->cap_sort_at * sizeof(uint32_t);
    bytes += bp->cap_marks + bp->cap_marked * sizeof(uint32_t);
    bytes += bp->cap_parts * sepax_bp_part_bytes() + (bp->pool ? sepax_pool_bytes() : 0);
    for (size_t i = 0; i < bp->cap_chunks; i++) {
        const bp_chunk *c = &bp->chunks[i];
        bytes += c->cap * (sizeof(sepax_pair) + (c->hits ? sizeof(sepax_hit) : 0) +
                           (c->mans ? sizeof(sepax_manifold) : 0));
    }
    s.bytes = bytes;
    *out = s;
    return SEPAX_OK;
}
