/* The whole frame in one call: update, grid, pairing, narrowphase, results.
 * Work is cut into chunks of sorted positions that do not depend on the
 * thread count; each chunk writes its own results, and the results are joined
 * in chunk order, so every scheduler and thread count gives the same bits in
 * the same order. Memory grows only on the calling thread: a chunk whose
 * results outgrow its arrays keeps counting, and runs again once they are
 * grown. */
#include <math.h>
#include <string.h>

#include "broadphase.h"

static void serial_for(sepax_task_fn *fn, uint32_t count, void *ctx, void *user) {
    (void)user;
    if (count) fn(0, count, 0, ctx);
}

sepax_broadphase *sepax_broadphase_create(const sepax_broadphase_config *config) {
    sepax_broadphase_config cfg = {1, NULL, NULL};
    if (config) cfg = *config;
    sepax_allocator mem = sepax_libc_allocator();
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
    void *arrays[] = {bp->workers, bp->start, bp->sid, bp->lox, bp->loy,    bp->hix, bp->hiy,
                      bp->cat,     bp->mask,  bp->key, bp->ext, bp->chunks, bp->redo};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (arrays[i]) mem.free(arrays[i], mem.ctx);
    mem.free(bp, mem.ctx);
}

/* ---- one frame ------------------------------------------------------------ */

typedef struct frame_ctx {
    sepax_broadphase *bp;
    sepax_shapes *store;
    const sepax_kernel *k;
    int test;
    float margin;
    uint32_t small_chunks; /* chunks 0 .. small_chunks-1 pair small owners, the rest large */
    const uint32_t *items; /* chunk of each item (a redo list), or NULL: item i is chunk i */
} frame_ctx;

static void update_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    (void)worker;
    const frame_ctx *f = ctx;
    for (uint32_t i = begin; i < end; i++)
        f->k->update(f->store, i * BP_UPDATE_BLOCKS, BP_UPDATE_BLOCKS);
}

/* Run the test on a worker's batch and append what passes to the chunk. */
static void flush(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c) {
    if (m == 0) return;
    c->candidates += m;
    size_t n = c->count, cap = c->cap;
    switch (f->test) {
    case SEPAX_TEST_AABB:
        for (size_t i = 0; i < m; i++, n++)
            if (n < cap) c->pairs[n] = w->cand[i];
        break;
    case SEPAX_TEST_OVERLAP:
        f->k->overlap(f->store, w->cand, m, f->margin, w->flag);
        for (size_t i = 0; i < m; i++) {
            if (n < cap) c->pairs[n] = w->cand[i];
            n += w->flag[i];
        }
        break;
    case SEPAX_TEST_COLLIDE:
        f->k->collide(f->store, w->cand, m, f->margin, w->hit, NULL);
        for (size_t i = 0; i < m; i++) {
            if (n < cap) {
                c->pairs[n] = w->cand[i];
                c->hits[n] = w->hit[i];
            }
            n += w->hit[i].hit != 0;
        }
        break;
    default: /* SEPAX_TEST_MANIFOLD */
        f->k->collide(f->store, w->cand, m, f->margin, w->hit, w->axis);
        f->k->contacts(f->store, w->cand, m, w->hit, w->axis, f->margin, w->man);
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

/* Pair sorted position `owner` with the positions of run begin .. end-1 that pass the box
 * and filter test, through the worker's batch. */
static size_t pair_run(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, uint32_t owner,
                       uint32_t begin, uint32_t end) {
    const sepax_broadphase *bp = f->bp;
    const sepax_shapes *s = f->store;
    sepax_box_soa soa = sepax_grid_soa(bp);
    sepax_box_probe probe = {bp->lox[owner],
                             bp->loy[owner],
                             bp->hix[owner],
                             bp->hiy[owner],
                             bp->cat[owner],
                             bp->mask[owner],
                             1,
                             0};
    uint32_t a = bp->sid[owner];
    uint32_t ida = a | (uint32_t)s->gen[a] << SEPAX_ID_INDEX_BITS;
    while (begin < end) {
        uint32_t piece = end - begin < BP_PIECE ? end - begin : BP_PIECE;
        size_t got = f->k->box_run(&soa, begin, begin + piece, &probe, w->pos);
        for (size_t i = 0; i < got; i++) {
            uint32_t b = bp->sid[w->pos[i]];
            uint32_t idb = b | (uint32_t)s->gen[b] << SEPAX_ID_INDEX_BITS;
            /* the lower index first, whichever shape owns the pair */
            w->cand[m + i] = a < b ? (sepax_pair){ida, idb} : (sepax_pair){idb, ida};
        }
        m += got;
        if (m >= BP_BATCH) {
            flush(f, w, m, c);
            m = 0;
        }
        begin += piece;
    }
    return m;
}

/* Small owners pair with the rest of their cell and the next cell of their row (one run),
 * and the three cells below-left .. below-right in the next row (another run): every
 * neighbour once. */
static size_t pair_small(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, uint32_t p) {
    const sepax_broadphase *bp = f->bp;
    uint32_t i = bp->sid[p], cell = bp->key[i];
    uint32_t cx = cell % bp->nx, cy = cell / bp->nx;
    uint32_t end = bp->start[cx + 1 < bp->nx ? cell + 2 : cell + 1];
    m = pair_run(f, w, m, c, p, p + 1, end);
    if (cy + 1 < bp->ny) {
        uint32_t row = (cy + 1) * bp->nx;
        uint32_t lo = cx ? cx - 1 : 0, hi = cx + 1 < bp->nx ? cx + 1 : cx;
        m = pair_run(f, w, m, c, p, bp->start[row + lo], bp->start[row + hi + 1]);
    }
    return m;
}

/* Large owners visit every cell a small box overlapping theirs could be keyed in (from a
 * cell before their lower corner's to their upper corner's), then the large shapes after
 * them. */
static size_t pair_large(const frame_ctx *f, bp_worker *w, size_t m, bp_chunk *c, uint32_t p) {
    const sepax_broadphase *bp = f->bp;
    if (bp->nsmall) {
        uint32_t x0 = sepax_grid_col(bp, bp->lox[p]), x1 = sepax_grid_col(bp, bp->hix[p]);
        uint32_t y0 = sepax_grid_row(bp, bp->loy[p]), y1 = sepax_grid_row(bp, bp->hiy[p]);
        x0 -= x0 > 0;
        y0 -= y0 > 0;
        for (uint32_t y = y0; y <= y1; y++)
            m = pair_run(f, w, m, c, p, bp->start[y * bp->nx + x0], bp->start[y * bp->nx + x1 + 1]);
    }
    return pair_run(f, w, m, c, p, p + 1, bp->n);
}

static void pair_task(uint32_t begin, uint32_t end, uint32_t worker, void *ctx) {
    const frame_ctx *f = ctx;
    sepax_broadphase *bp = f->bp;
    bp_worker *w = &bp->workers[worker];
    for (uint32_t it = begin; it < end; it++) {
        uint32_t ci = f->items ? f->items[it] : it;
        bp_chunk *c = &bp->chunks[ci];
        c->count = 0;
        c->candidates = 0;
        size_t m = 0;
        if (ci < f->small_chunks) {
            uint32_t p0 = ci * BP_CHUNK_SMALL;
            uint32_t p1 = p0 + BP_CHUNK_SMALL < bp->nsmall ? p0 + BP_CHUNK_SMALL : bp->nsmall;
            for (uint32_t p = p0; p < p1; p++) m = pair_small(f, w, m, c, p);
        } else {
            uint32_t p0 = bp->nsmall + (ci - f->small_chunks) * BP_CHUNK_LARGE;
            uint32_t p1 = p0 + BP_CHUNK_LARGE < bp->n ? p0 + BP_CHUNK_LARGE : bp->n;
            for (uint32_t p = p0; p < p1; p++) m = pair_large(f, w, m, c, p);
        }
        flush(f, w, m, c);
    }
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

static sepax_status check_frame(const sepax_broadphase *bp, const sepax_shapes *store,
                                const sepax_frame_options *o, const sepax_contacts *out,
                                const size_t *count, float *margin) {
    if (!bp || !store || !o || !out || !count) return SEPAX_ERR_NULL;
    if (o->test < SEPAX_TEST_AABB || o->test > SEPAX_TEST_MANIFOLD) return SEPAX_ERR_BAD_OPTION;
    sepax_query_options q = {o->margin};
    sepax_status st = sepax_margin_of(&q, margin);
    if (st != SEPAX_OK) return st;
    if (!isfinite(o->cell_size)) return SEPAX_ERR_NONFINITE;
    if (o->cell_size < 0.0f || o->cell_size > SEPAX_COORD_LIMIT) return SEPAX_ERR_RANGE;
    if (out->capacity == 0) return SEPAX_OK;
    if (!out->pairs || (o->test == SEPAX_TEST_COLLIDE && !out->hits) ||
        (o->test == SEPAX_TEST_MANIFOLD && !out->manifolds))
        return SEPAX_ERR_NULL;
    if ((uintptr_t)out->pairs % _Alignof(sepax_pair) ||
        (o->test == SEPAX_TEST_COLLIDE && (uintptr_t)out->hits % _Alignof(sepax_hit)) ||
        (o->test == SEPAX_TEST_MANIFOLD && (uintptr_t)out->manifolds % _Alignof(sepax_manifold)))
        return SEPAX_ERR_MISALIGNED;
    return SEPAX_OK;
}

static uint32_t chunks_of(uint32_t n, uint32_t per) {
    return (uint32_t)(((size_t)n + per - 1) / per);
}

sepax_status sepax_find_contacts(sepax_broadphase *bp, sepax_shapes *store,
                                 const sepax_frame_options *options, const sepax_contacts *out,
                                 size_t *count) {
    float margin;
    sepax_status st = check_frame(bp, store, options, out, count, &margin);
    const sepax_kernel *k = NULL;
    if (st == SEPAX_OK) st = sepax_kernel_for_query(&k);
    if (st != SEPAX_OK) return st;
    frame_ctx f = {bp, store, k, options->test, margin, 0, NULL};
    if (options->update && store->count) {
        uint32_t blocks = chunks_of(store->count, SEPAX_BLOCK_LANES);
        bp->sched.parallel_for(update_task, chunks_of(blocks, BP_UPDATE_BLOCKS), &f,
                               bp->sched.user);
    }
    st = sepax_grid_build(bp, store, margin, options->cell_size);
    if (st != SEPAX_OK) return st;
    f.small_chunks = chunks_of(bp->nsmall, BP_CHUNK_SMALL);
    uint32_t nchunks = f.small_chunks + chunks_of(bp->n - bp->nsmall, BP_CHUNK_LARGE);
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
    bp->sched.parallel_for(pair_task, nchunks, &f, bp->sched.user);
    uint32_t nredo = 0;
    for (uint32_t i = 0; i < nchunks; i++) {
        bp_chunk *c = &bp->chunks[i];
        if (c->count <= c->cap) continue;
        if (!grow_chunk(bp, c, c->count, options->test)) return SEPAX_ERR_NOMEM;
        bp->redo[nredo++] = i;
    }
    if (nredo) { /* the same chunks again, now with room: the same results */
        f.items = bp->redo;
        bp->sched.parallel_for(pair_task, nredo, &f, bp->sched.user);
    }
    size_t total = 0, candidates = 0;
    for (uint32_t i = 0; i < nchunks; i++) {
        total += bp->chunks[i].count;
        candidates += bp->chunks[i].candidates;
    }
    bp->candidates = candidates;
    bp->results = total;
    *count = total;
    if (total > out->capacity) return SEPAX_ERR_CAPACITY;
    size_t at = 0;
    for (uint32_t i = 0; i < nchunks; i++) {
        const bp_chunk *c = &bp->chunks[i];
        if (!c->count) continue;
        memcpy(out->pairs + at, c->pairs, c->count * sizeof *c->pairs);
        if (options->test == SEPAX_TEST_COLLIDE)
            memcpy(out->hits + at, c->hits, c->count * sizeof *c->hits);
        if (options->test == SEPAX_TEST_MANIFOLD)
            memcpy(out->manifolds + at, c->mans, c->count * sizeof *c->mans);
        at += c->count;
    }
    return SEPAX_OK;
}

sepax_status sepax_broadphase_build(sepax_broadphase *bp, const sepax_shapes *store,
                                    float cell_size) {
    if (!bp || !store) return SEPAX_ERR_NULL;
    if (!isfinite(cell_size)) return SEPAX_ERR_NONFINITE;
    if (cell_size < 0.0f || cell_size > SEPAX_COORD_LIMIT) return SEPAX_ERR_RANGE;
    return sepax_grid_build(bp, store, 0.0f, cell_size);
}

sepax_status sepax_broadphase_stats_get(const sepax_broadphase *bp, sepax_broadphase_stats *out) {
    if (!bp || !out) return SEPAX_ERR_NULL;
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
    size_t bytes = sizeof *bp + bp->sched.workers * sizeof(bp_worker);
    bytes += bp->cap_shapes * 9 * 4 + bp->cap_cells * 4 + bp->cap_chunks * sizeof(bp_chunk);
    bytes += bp->cap_redo * sizeof(uint32_t);
    for (size_t i = 0; i < bp->cap_chunks; i++) {
        const bp_chunk *c = &bp->chunks[i];
        bytes += c->cap * (sizeof(sepax_pair) + (c->hits ? sizeof(sepax_hit) : 0) +
                           (c->mans ? sizeof(sepax_manifold) : 0));
    }
    s.bytes = bytes;
    *out = s;
    return SEPAX_OK;
}
